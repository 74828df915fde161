"""Engine figures worked out by hand from the documentation.

Each test here was written for a mutant that survived ``tools/mutation.py`` (see
``benchmarks/RESULTS.md``): a documented figure that no other test computed.
"""
import math

import numpy as np
import pytest

import nardy_fast as nf
from nardy_fast.core.cubestate import CENTRED
from nardy_fast.core.rules import Rules
from nardy_fast.engine.evaluation import cubemodel
from nardy_fast.engine.decisions.cube import cube_decision
from nardy_fast.engine.evaluation.evaluator import Evaluator
from nardy_fast.engine.play.strength import summarize
from nardy_fast.training.train import _lr


def test_arithmetic_live_take_points_by_hand():
    """``TP_k = (n - k) CP_n / (2 n)``, ``n = k + 1``, ``CP_n = 1 - TP_n``, from the cap
    where the cube is dead (``TP = 0``, ``CP = 1``):

    - cap 16: TP_15 = 1 x 1 / 32 = 1/32; TP_14 = (1 - 1/32) / 30 = 31/960;
    - cap 3: TP_2 = 1 / 6; TP_1 = (1 - 1/6) / 4 = 5/24;
    - geometric: the fixed point 1/5 at any stake.
    """
    assert cubemodel.live_take_point("arithmetic", 16) == 0.0
    assert cubemodel.live_take_point("arithmetic", 15) == pytest.approx(1 / 32, abs=1e-15)
    assert cubemodel.live_take_point("arithmetic", 14) == pytest.approx(31 / 960, abs=1e-15)
    assert cubemodel.live_take_point("arithmetic", 2, max_stake=3) == pytest.approx(1 / 6)
    assert cubemodel.live_take_point("arithmetic", 1, max_stake=3) == pytest.approx(5 / 24)
    for stake in (1, 2, 8):
        assert cubemodel.live_take_point("geometric", stake) == 0.2


def test_race_efficiency_bins_are_the_measured_ones():
    """``bench_cube.py --efficiency`` fits x on bins 6 pips wide from 0 to 6 x 8 pips
    (8-checker tables): bin centres 3, 9, ..., 51; between them x is interpolated, beyond
    the last held."""
    centres = [c for c, _ in cubemodel.RACE_EFFICIENCY]
    assert centres == [lo + 3.0 for lo in range(0, 6 * 8 + 1, 6)]
    xs = dict(cubemodel.RACE_EFFICIENCY)
    me = np.zeros(24, np.uint8)
    you = np.zeros(24, np.uint8)
    you[23] = 1
    me[[12, 23]] = [1, 9]                   # 12 + 9 = 21 pips: a bin centre
    assert cubemodel.efficiency(nf.Position(me, you)) == pytest.approx(xs[21.0])
    me[:] = 0
    me[[12, 18]] = [2, 2]                   # 24 + 12 = 36 pips: halfway from 33 to 39
    assert cubemodel.efficiency(nf.Position(me, you)) == pytest.approx(
        (xs[33.0] + xs[39.0]) / 2)
    me[:] = 0
    me[[12, 13, 14]] = [3, 3, 3]            # 36 + 33 + 30 = 99 pips: beyond the last bin
    assert cubemodel.efficiency(nf.Position(me, you)) == pytest.approx(xs[51.0])


def test_cube_decision_without_tables_is_never_exact():
    """``tables=False``: Janowski's model even where the cubeful race table covers the
    race (one checker each, both home)."""
    me = np.zeros(24, np.uint8)
    me[18] = 1
    you = np.zeros(24, np.uint8)
    you[23] = 1
    pos = nf.Position(me, you)
    rules = Rules(cube="geometric")
    assert cube_decision(pos, CENTRED, rules=rules)["method"] == "exact"
    d = cube_decision(pos, CENTRED, rules=rules, tables=False)
    assert d["method"].startswith("janowski")


def test_learning_rate_schedule():
    """``lr`` for the first half of the run, then linearly down to ``lr_final`` at the end
    (train.py's DEFAULTS): with 0.03 -> 0.003 over 100 games, 0.03 at 50 games, 0.0165 at
    75, 0.003 at 100."""
    cfg = {"games": 100, "lr": 0.03, "lr_final": 0.003}
    assert _lr(cfg, 0) == pytest.approx(0.03)
    assert _lr(cfg, 50) == pytest.approx(0.03)
    assert _lr(cfg, 75) == pytest.approx(0.0165)
    assert _lr(cfg, 100) == pytest.approx(0.003)


def test_match_summary_by_hand():
    """A's points in two pairs of games: (1, -2) and (2, 0).  Won 1, lost, won, a draw (0
    points counts half): win rate 2.5 / 4; points per game (1 - 2 + 2 + 0) / 4 = 0.25;
    points won 3 of the 5 scored: share 0.6; pair win rates 0.5 and 0.75: their standard
    error sqrt(((0.5 - 0.625)^2 + (0.75 - 0.625)^2) / 1) / sqrt(2) = 0.125."""
    s = summarize(np.array([[1.0, -2.0], [2.0, 0.0]]), entropy=7)
    assert s["games"] == 4 and s["seed"] == 7
    assert s["win_rate"] == pytest.approx(0.625)
    assert s["ppg"] == pytest.approx(0.25)
    assert s["points_share"] == pytest.approx(0.6)
    assert s["se_win_rate"] == pytest.approx(0.125)
    one = summarize(np.array([[1.0, -1.0]]))
    assert math.isnan(one["se_win_rate"]) and one["points_share"] == 0.5


@pytest.mark.parametrize("empty", [0, 1])
def test_evaluator_refuses_a_finished_game(empty):
    """A side with no checkers left: the game is over, nothing to evaluate (the other side
    is not home, so no race table would refuse it either)."""
    b = np.zeros((1, 2, 24), np.uint8)
    b[0, 1 - empty, 5] = 3
    with pytest.raises(ValueError, match="over"):
        Evaluator.default().evaluate(b)


@pytest.mark.parametrize("black, points", [(1, 0.0), (3, 1.0)])
def test_match_games_under_the_draw_rule(black, points):
    """draw_rule: White (the side on roll at the start) has one checker on its point 24 and
    bears it off at once; Black then has one last turn.  With one checker on its point 24
    Black bears it off too: a draw, 0 points, in every game.  With three checkers on its
    point 24 it cannot bear them all off with a non-double and may with a double (4 steps):
    a draw after a double (1/6 of the rolls), else White wins an oin (1 point)."""
    from nardy_fast.engine.play.strength import play_match
    me = np.zeros(24, np.uint8)
    me[23] = 1
    you = np.zeros(24, np.uint8)
    you[23] = black
    start = nf.Position(me, you)
    m = play_match("greedy", "greedy", 60, seed=3, rules=Rules(draw_rule=True), start=start,
                   workers=1, progress=False)
    pts = m["points"]
    if black == 1:
        assert (pts == 0.0).all()
    else:
        # each game: White (A in the first game of a pair, B in the second) wins 1 or draws
        assert set(np.abs(pts).ravel()) <= {0.0, points}
        assert 0 < (pts == 0).mean() < 0.5
