"""The evaluator's speed benchmark script (benchmarks/bench_net.py): sizes that measure
nothing refused by name before any work."""
from pathlib import Path

import pytest

from helpers import load_script, script_refusal

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_net.py"


@pytest.mark.parametrize("argv, says", [
    (["--repeats", "0"], "--repeats 0: expected >= 1"),
    (["--hints", "0"], "--hints 0: expected >= 1"),
    (["--games", "0"], "--games 0: expected >= 1"),
    (["--seed", "-1"], "--seed -1: expected >= 0"),
    (["--races", "-1"], "--races -1: expected >= 0"),
    (["--races", "9"], "--races 9: expected checkers 1..8 (the two-sided table's)"),
])
def test_sizes_that_measure_nothing_are_refused_by_name(monkeypatch, capsys, argv, says):
    """--repeats 0 ended in 'no median for empty data', --hints 0 in the same after every
    other figure, --races -1 in numpy's 'need at least one array to concatenate', and
    --races 9 printed the errors of the races of at most 8 checkers as those of 1..9."""
    assert f"error: {says}" in script_refusal(monkeypatch, capsys, BENCH, argv)
