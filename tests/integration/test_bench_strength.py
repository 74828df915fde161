"""The playing strength benchmark script (benchmarks/bench_strength.py): sizes that
measure nothing refused by name before any work."""
import sys
from pathlib import Path

import pytest

from helpers import load_script, script_refusal

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_strength.py"


@pytest.mark.parametrize("argv, says", [
    (["--games", "2"], "--games 2: expected 0 (skip the match) or >= 4 (two pairs: the SE "
                       "is the spread between pairs)"),
    (["--games", "-2"], "--games -2: expected 0 (skip the match) or >= 4"),
    (["--games-1ply", "1"], "--games-1ply 1: expected 0 (skip the match) or >= 4"),
    (["--games-2ply", "3"], "--games-2ply 3: expected 0 (skip the match) or >= 4"),
    (["--games", "0", "--games-1ply", "0", "--games-2ply", "0"],
     "--games, --games-1ply and --games-2ply all 0: no match to play"),
    (["--workers", "0"], "--workers 0: expected >= 1"),
    (["--seed", "-1"], "--seed -1: expected >= 0"),
])
def test_sizes_that_measure_nothing_are_refused_by_name(monkeypatch, capsys, argv, says):
    """--games 2 (one pair) printed 'SE nan' for every figure, --games -2 or 1 ended in
    the match's traceback naming n_games, and all three matches skipped printed
    nothing."""
    assert f"error: {says}" in script_refusal(monkeypatch, capsys, BENCH, argv)


def test_the_time_of_a_match_says_its_clock(monkeypatch, capsys):
    """The time of a match, the wall clock's, was printed as a plain '; 0 s' beside the
    CPU-second figures of the other benchmarks."""
    script = load_script(BENCH)
    monkeypatch.setattr(sys, "argv", [str(BENCH), "--games", "4", "--games-1ply", "0",
                                      "--games-2ply", "0"])
    script.main()
    out = capsys.readouterr().out
    assert out.startswith("net 0-ply vs greedy: 4 games, ") and out.endswith(" s wall\n")
