"""The net kernels' speed benchmark script (benchmarks/bench_simd.py): its example names a
shipped net, and bad nets and sizes are refused by name before any run."""
import re
import sys
from pathlib import Path

import pytest

from helpers import load_script

ROOT = Path(__file__).resolve().parents[2]
BENCH = ROOT / "benchmarks" / "bench_simd.py"


@pytest.fixture(scope="module")
def script():
    return load_script(BENCH)


def test_the_example_names_net_files_that_exist(script):
    """It named net_v2.nfdb, a net no longer shipped."""
    example = [ln for ln in script.__doc__.splitlines() if "bench_simd.py" in ln][0]
    files = re.findall(r"\S+\.nfdb", example)
    assert files and all((ROOT / f).is_file() for f in files)


@pytest.mark.parametrize("argv, says", [
    (["default", "no-such-net.nfdb"],
     "nets: no-such-net.nfdb: cannot read database (No such file or directory)"),
    (["--games", "0"], "--games 0: expected >= 1"),
    (["--runs", "0"], "--runs 0: expected >= 1"),
])
def test_bad_nets_and_sizes_are_refused_by_name(script, monkeypatch, capsys, argv, says):
    """A missing net file ended in a DatabaseError's traceback (after the nets before it
    had been timed), --games 0 in a rollout's, --runs 0 in 'no median for empty data'."""
    monkeypatch.setattr(sys, "argv", [str(BENCH), *argv])
    with pytest.raises(SystemExit) as e:
        script.main()
    assert e.value.code == 2
    assert f"error: {says}" in capsys.readouterr().err
