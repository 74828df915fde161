"""The analysis page's benchmark script (benchmarks/bench_page.py): sizes that measure
nothing refused by name before any work."""
from pathlib import Path

import pytest

from helpers import load_script, script_refusal

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_page.py"


@pytest.mark.parametrize("argv, says", [
    (["--repeats", "0"], "--repeats 0: expected >= 1"),
    (["--length", "0"], "--length 0: expected >= 1"),
    (["--length", "65"], "--length 65: expected 1..64 points"),
    (["--seed", "-1"], "--seed -1: expected >= 0"),
])
def test_sizes_that_measure_nothing_are_refused_by_name(monkeypatch, capsys, argv, says):
    """--repeats 0 ended in 'no median for empty data' after the match's analysis,
    --length 0 in the match rules' 'length=0: must be 1..64', --seed -1 in the seed's
    'seed=-1: must be >= 0', each a traceback."""
    assert f"error: {says}" in script_refusal(monkeypatch, capsys, BENCH, argv)
