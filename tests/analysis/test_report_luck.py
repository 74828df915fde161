"""Luck in a game's report: the luck of each roll (an expectimax by hand), the running
totals, the luck-adjusted result of a finished game and ``luck_summary`` (the luck of the
engine and the variance reduction of rollouts: tests/engine/play/test_variance.py)."""
import math

import numpy as np
import pytest

import nardy_fast as nf
from nardy_fast.engine.evaluation.evaluator import Evaluator
from nardy_fast.engine.play.luck import ROLLS

from helpers import expectimax_luck


def test_game_report_luck_columns():
    from nardy_fast.engine.play.luck import luck_summary
    from nardy_fast.core.record import GameRecord, random_game
    rec = GameRecord(turns=random_game(seed=4, max_turns=6).turns)
    rep = nf.game_report(rec, win_prob=False, analyse=True)
    ev = Evaluator.default()
    positions = rec.positions()
    for k in (0, 3):
        d1, d2 = rec.turns[k].dice
        j = ROLLS.index((min(d1, d2), max(d1, d2)))
        assert rep["luck"].iloc[k] == pytest.approx(expectimax_luck(positions[k], ev)[j],
                                                    abs=2e-5)
    n = len(rec.turns)
    signs = np.where(rep["side"].iloc[:n] == "white", 1.0, -1.0)
    assert rep["luck_white"].iloc[n - 1] == pytest.approx((signs * rep["luck"].iloc[:n]).sum())
    last = rep.iloc[-1]
    assert math.isnan(last["result_white"])          # 6 turns: the game is not over
    assert last["luck_white"] == rep["luck_white"].iloc[n - 1]      # the total carried on
    summary = luck_summary(rep)
    assert summary.loc["white", "net_luck"] == pytest.approx(last["luck_white"])
    assert summary.loc["white", "net_luck"] == -summary.loc["black", "net_luck"]
    assert summary["rolls"].sum() == n


@pytest.mark.parametrize("seed", [7, 1])             # seed 1: Black wins a mars
def test_luck_adjusted_result_of_a_finished_game(seed):
    from nardy_fast.core.record import GameRecord, random_game
    from nardy_fast.engine.play.luck import luck_summary
    rec = random_game(seed=seed, policy="race")
    res = rec.result()
    rep = nf.game_report(GameRecord(turns=rec.turns, rules=rec.rules), win_prob=False,
                         analyse=True)
    last = rep.iloc[-1]
    white = res["points"] * (1 if res["winner"] == "white" else -1)
    assert last["result_white"] == white
    assert last["luck_adjusted_white"] == pytest.approx(white - last["luck_white"])
    summary = luck_summary(rep)
    assert summary.loc["white", "result"] == white and summary.loc["black", "result"] == -white
    assert summary.loc["black", "adjusted_result"] == pytest.approx(
        -white - summary.loc["black", "net_luck"])


def test_the_running_total_of_luck_is_named_so():
    """``luck`` is one roll's; White's running net luck is ``luck_white_total`` (the old
    name ``luck_white`` kept, the same values)."""
    from nardy_fast.core.record import random_game
    rep = nf.game_report(random_game(seed=4, max_turns=6), win_prob=False, analyse=True)
    n = 6
    signs = np.where(rep["side"].iloc[:n] == "white", 1.0, -1.0)
    assert rep["luck_white_total"].iloc[:n].tolist() == pytest.approx(
        np.cumsum(signs * rep["luck"].iloc[:n]).tolist())
    assert rep["luck_white_total"].equals(rep["luck_white"])
