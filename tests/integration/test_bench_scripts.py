"""Every benchmark script (benchmarks/bench_*.py): its --help opens with the whole first
paragraph of its docstring."""
import sys
from pathlib import Path

import pytest

from helpers import load_script

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


@pytest.mark.parametrize("path", sorted(BENCHMARKS.glob("bench_*.py")), ids=lambda p: p.stem)
def test_the_help_gives_the_whole_first_paragraph(monkeypatch, capsys, path):
    """bench_decisionbench.py, bench_simd.py, bench_cube.py and bench_match.py gave the
    docstring's first line, cut mid-sentence ('... and the standard error of the'), and
    bench_clip.py, bench_cube_errors.py, bench_page.py and bench_vr.py no description."""
    monkeypatch.syspath_prepend(str(BENCHMARKS))    # the scripts that import another
    script = load_script(path)
    monkeypatch.setattr(sys, "argv", [str(path), "--help"])
    with pytest.raises(SystemExit) as e:
        script.main()
    assert e.value.code == 0
    description = " ".join(capsys.readouterr().out.split("\n\n")[1].split())
    first = " ".join(script.__doc__.split("\n\n")[0].split())
    assert description.replace("- ", "-") == first.replace("- ", "-")
