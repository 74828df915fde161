"""The public API's speed benchmark script (benchmarks/bench_api_speed.py): a size that
measures nothing refused by name before any work."""
from pathlib import Path

import pytest

from helpers import load_script

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_api_speed.py"


@pytest.mark.parametrize("repeats", ["0", "-2"])
def test_no_repeats_are_refused_by_name(capsys, repeats):
    """--repeats 0 ended in 'no median for empty data' after the set-up."""
    with pytest.raises(SystemExit) as e:
        load_script(BENCH).main(["--repeats", repeats])
    assert e.value.code == 2
    assert f"error: --repeats {repeats}: expected >= 1" in capsys.readouterr().err
