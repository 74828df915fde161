"""The duels' benchmark script (benchmarks/bench_duel.py): sizes that measure nothing
refused by name before any work."""
import sys
from pathlib import Path

import pytest

from helpers import load_script, script_refusal

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_duel.py"


@pytest.mark.parametrize("argv, says", [
    (["--pairs", "1"], "--pairs 1: expected 0 (skip the matches) or >= 3 (variances "
                       "between pairs, and the check's between pair p and pair p + 1)"),
    (["--pairs", "2"], "--pairs 2: expected 0 (skip the matches) or >= 3"),
    (["--pairs-1ply", "-1"], "--pairs-1ply -1: expected 0 (skip the matches) or >= 3"),
    (["--duel-games", "-1"], "--duel-games -1: expected >= 0"),
    (["--workers", "0"], "--workers 0: expected >= 1"),
    (["--seed", "-1"], "--seed -1: expected >= 0"),
    (["--pairs", "0", "--pairs-1ply", "0", "--duel-games", "0"],
     "--pairs, --pairs-1ply and --duel-games all 0: nothing to measure"),
])
def test_sizes_that_measure_nothing_are_refused_by_name(monkeypatch, capsys, argv, says):
    """--pairs 1 printed nan for every variance and ratio, --pairs 2 for the check;
    --duel-games -1 ended, after every match, in the duel's refusal; all three 0 printed a
    table's heading and nothing under it."""
    assert f"error: {says}" in script_refusal(monkeypatch, capsys, BENCH, argv)


def test_the_interval_of_an_unbounded_ratio_ends_at_inf(recwarn):
    """When resamples with no variance between pairs (ratio inf) reach the interval's end,
    it was printed as 'nan', with numpy's 'invalid value encountered in subtract'."""
    import numpy as np
    script = load_script(BENCH)
    points = np.array([[1.0, 1.0], [2.0, 0.0], [0.0, 0.0]])   # pair means 1, 1, 0
    lo, hi = script.bootstrap(points, np.random.default_rng(1))
    assert np.isfinite(lo) and hi == np.inf
    assert not [w for w in recwarn if issubclass(w.category, RuntimeWarning)]


def test_the_time_column_says_its_clock(monkeypatch, capsys):
    """The matches' times, the wall clock's, stood in a column headed 's'."""
    script = load_script(BENCH)
    monkeypatch.setattr(sys, "argv", [str(BENCH), "--pairs", "3", "--pairs-1ply", "0",
                                      "--duel-games", "0"])
    script.main()
    lines = capsys.readouterr().out.splitlines()
    assert lines[1].endswith(" r_rand s wall") and len(lines) == 5
