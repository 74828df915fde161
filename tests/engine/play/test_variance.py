"""Variance-reduced rollouts (luck) and the luck of a roll in game analysis.

The luck of a roll is checked against an independent expectimax over the 21 rolls on the
public ``Position`` / ``Evaluator`` API; the estimator's unbiasedness against the exact
race tables and against longer plain rollouts; results against workers and chunk sizes.
"""
import math

import numpy as np
import pytest

import nardy_fast as nf
from nardy_fast import Rules
from nardy_fast.engine.evaluation.evaluator import Evaluator
from nardy_fast.engine.play.luck import ROLLS, WEIGHTS, roll_luck
from nardy_fast.engine.play.rollout import rollout
from helpers import board, expectimax_luck

FAST = dict(workers=1, progress=False)


def contact_position(plies, seed):
    """The position after `plies` random plies from the start (a seeded game)."""
    g = np.random.default_rng(seed)
    pos = nf.Position.initial()
    for _ in range(plies):
        moves = pos.legal_moves((int(g.integers(1, 7)), int(g.integers(1, 7))))
        pos = pos.play(moves[int(g.integers(len(moves)))])
    return pos


@pytest.mark.parametrize("plies,seed", [(40, 1), (25, 2), (60, 3)])
def test_luck_of_a_roll_equals_an_expectimax(plies, seed):
    ev = Evaluator.default()
    pos = contact_position(plies, seed)
    want = expectimax_luck(pos, ev)
    got = np.array([roll_luck(pos, r, ev) for r in ROLLS])
    np.testing.assert_allclose(got, want, atol=2e-5)
    assert roll_luck(pos, (ROLLS[3][1], ROLLS[3][0]), ev) == got[3]    # either dice order
    assert abs(WEIGHTS @ got) < 1e-9                                  # mean zero


def test_luck_of_the_opening_dice_is_over_the_non_doubles():
    """Under opening_roll="opening_dice" White's first roll from the start is one of the
    15 non-doubles: its luck is measured against their mean (it was against the 21 rolls',
    doubles included, about 0.03 points too low), and a double there is refused."""
    rules = Rules(opening_roll="opening_dice")
    ev = Evaluator.default(rules)
    start = nf.Position.initial()
    best = expectimax_luck(start, ev)          # the per-roll values, up to a constant
    non_doubles = [j for j, (a, b) in enumerate(ROLLS) if a != b]
    want = best[non_doubles] - best[non_doubles].mean()
    got = np.array([roll_luck(start, ROLLS[j], ev) for j in non_doubles])
    np.testing.assert_allclose(got, want, atol=2e-5)
    assert abs(got.mean()) < 1e-9
    with pytest.raises(ValueError, match="dice=\\(5, 5\\).*cannot be a double"):
        roll_luck(start, (5, 5), ev)
    rec = nf.random_game(seed=1, rules=rules, policy="greedy")
    assert nf.game_report(rec, win_prob=False, analyse=True)["luck"].iloc[0] == \
        pytest.approx(roll_luck(start, rec.turns[0].dice, ev))
    # Black's first roll, and White's under the default rules, may be a double
    after = start.play(start.legal_moves((6, 5))[0])
    assert math.isfinite(roll_luck(after, (5, 5), ev))
    assert roll_luck(start, (6, 5), Evaluator.default()) == pytest.approx(
        expectimax_luck(start, Evaluator.default())[ROLLS.index((5, 6))], abs=2e-5)


def test_vr_removes_variance_and_keeps_every_quantity():
    pos = contact_position(70, 5)
    plain = rollout(pos, 1296, seed=3, variance_reduction=False, **FAST)
    vr = rollout(pos, 1296, seed=3, variance_reduction="luck", **FAST)
    assert plain.extra["estimator"] == "none" and vr.extra["estimator"] == "luck"
    # the same games: the plain equity of the VR run is the plain run's
    assert vr.extra["se_equity_plain"] == pytest.approx(plain.se_equity, rel=1e-12)
    ratio = vr.extra["luck_variance_ratio"]
    assert ratio == pytest.approx((plain.se_equity / vr.se_equity) ** 2, rel=1e-9)
    assert ratio > 2.0                           # a wrong sign of a side's luck adds variance
    assert vr.se_p_win < plain.se_p_win / 1.4
    # P(win) + P(lose) + P(draw) = 1 game by game, so also after the correction
    assert vr.p_win + vr.p_lose + vr.p_draw == pytest.approx(1.0, abs=1e-12)
    for name in ("p_win", "p_mars_win", "p_mars_loss", "equity"):
        se = math.hypot(getattr(plain, "se_" + name), getattr(vr, "se_" + name))
        assert abs(getattr(plain, name) - getattr(vr, name)) < 4 * se, name


@pytest.mark.parametrize("plies,seed", [(72, 12), (80, 6)])
def test_vr_agrees_with_a_longer_plain_rollout(plies, seed):
    pos = contact_position(plies, seed)
    vr = rollout(pos, 1296, seed=21, variance_reduction="luck", **FAST)
    plain = rollout(pos, 12 * 1296, seed=22, variance_reduction=False, **FAST)
    z = (vr.equity - plain.equity) / math.hypot(vr.se_equity, plain.se_equity)
    assert abs(z) < 4


def test_vr_race_agrees_with_exact_tables():
    from nardy_fast.tables._racetables import RaceTables     # private on purpose: the C
    from nardy_fast.engine.play._rollout import race_values       # truncation values themselves
    from nardy_fast.engine.play.rollout import _bearoff_tables
    mover = board(p19=3, p20=3, p21=3, p22=3, p23=2, p24=1)
    opp = board(p19=2, p21=4, p22=3, p24=6)
    exact = race_values(mover, opp, rules=Rules(), mover_white=True,
                        tables=RaceTables(_bearoff_tables().one_sided))["p_win"]
    pos = nf.Position.from_boards(mover, opp)
    vr = rollout(pos, 1296, seed=4, truncate=None, variance_reduction="luck", **FAST)
    assert vr.extra["luck_variance_ratio"] > 20      # exact race values: nearly no luck left
    assert abs(vr.p_win - exact) < 4 * vr.se_p_win + 2e-3


def test_one_ply_luck_is_the_lookahead_and_pays():
    pos = contact_position(80, 6)
    vr = rollout(pos, 36, policy="net:1", seed=5, variance_reduction=None, **FAST)
    assert vr.extra["estimator"] == "luck"           # the default at 1-ply
    assert vr.extra["luck_variance_ratio"] > 2.0


@pytest.mark.parametrize("vr", ["luck:3", "luck-net"])
def test_bit_identical_across_workers_and_chunks(vr):
    pos = contact_position(76, 7)
    kw = dict(seed=9, variance_reduction=vr, progress=False)
    a = rollout(pos, 2592, workers=1, chunk_size=1296, **kw).to_dict()
    b = rollout(pos, 2592, workers=1, chunk_size=2592, **kw).to_dict()
    c = rollout(pos, 2592, workers=2, chunk_size=1296, **kw).to_dict()
    for d in (b, c):
        for k, v in a.items():
            if k not in ("extra_chunk_size", "extra_backend"):
                assert d[k] == v or (v != v and d[k] != d[k]), k


def test_luck_of_fewer_rolls_and_the_fixed_first_roll():
    pos = contact_position(74, 8)
    full = rollout(pos, 1296, seed=1, variance_reduction="luck", **FAST)
    part = rollout(pos, 1296, seed=1, variance_reduction="luck:2", **FAST)
    # the same games: only the correction differs
    assert part.extra["se_equity_plain"] == full.extra["se_equity_plain"]
    assert 1.0 < part.extra["luck_variance_ratio"] < full.extra["luck_variance_ratio"]
    fixed = rollout(pos, 1296, seed=1, dice=(6, 5), variance_reduction="luck", **FAST)
    assert fixed.extra["luck_variance_ratio"] > 1.5


@pytest.mark.parametrize("kwargs,match", [
    (dict(variance_reduction="lucky"), "unknown estimator"),
    (dict(variance_reduction="luck:0"), "unknown estimator"),
    (dict(variance_reduction=3), "variance_reduction=3"),
    (dict(variance_reduction=True, policy="random"),
     r"variance_reduction=True \('luck-net'\): .*policy 'random' cannot serve"),
    (dict(variance_reduction="luck", policy=("net", "greedy")), "'greedy' cannot serve"),
    (dict(variance_reduction="luck-net", policy="greedy"), "'greedy' cannot serve"),
    (dict(variance_reduction="luck-net:2"), "unknown estimator"),
])
def test_bad_estimators(kwargs, match):
    """(``"luck:1"``, the smallest K, is good: ``test_estimator_names``.)"""
    with pytest.raises(ValueError, match=match):
        rollout(nf.Position.initial(), 10, **FAST, **kwargs)


def test_defaults_by_policy():
    pos = contact_position(90, 9)
    assert rollout(pos, 36, policy="greedy", **FAST).extra["estimator"] == "none"
    r = rollout(pos, 36, variance_reduction=True, **FAST)
    assert r.extra["estimator"] != "none" and r.extra["n_games"] == 36
    assert rollout(pos, 36, **FAST).extra["estimator"] == "luck-net"      # 0-ply: it pays
    assert rollout(pos, 36, policy="net:1", **FAST).extra["estimator"] == "luck"


def test_vr_with_the_cube_is_unbiased_and_removes_variance():
    pos = contact_position(76, 7)                    # even enough that raises are taken
    rules = Rules(cube="geometric")
    plain = rollout(pos, 1296, rules=rules, seed=2, variance_reduction=False, **FAST)
    vr = rollout(pos, 1296, rules=rules, seed=2, variance_reduction="luck", **FAST)
    assert vr.extra["se_equity_plain"] == pytest.approx(plain.se_equity, rel=1e-12)
    assert vr.extra["luck_variance_ratio"] > 1.5       # cubeful equity: the stake x P(win) luck
    se = math.hypot(plain.se_equity, vr.se_equity)
    assert abs(plain.equity - vr.equity) < 4 * se


def test_estimator_names():
    from nardy_fast.engine.play.policy import Policy
    from nardy_fast.engine.play.variance import check_estimator
    nets = (Policy.of("net"), Policy.of("net"))
    assert check_estimator("luck:1", nets) == ("luck:1", 1)
    assert check_estimator("luck", nets) == ("luck", 0)
    assert check_estimator("luck-net", nets) == ("luck-net", 0)
    assert check_estimator(False, nets) == ("none", None)
