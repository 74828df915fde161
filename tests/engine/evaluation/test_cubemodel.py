"""The cube model's one home, the C kernel ``_cubemodel``, against the plain Python
reference ``tests/naive_cube.py``, through both of its callers: the Python cube functions
(``cubemodel``) and the C game loop's cube (``_cubeloop.model_point``).

Every value is compared for equality to the last bit: the kernel and the reference do the
same double operations in the same order (IEEE arithmetic, no fused multiply-add), so a
difference is a changed formula, not rounding.  The one exception is ``pip_probability``,
whose ``erfc`` is the C library's in the kernel and Python's ``math.erfc`` in the
reference; they agree to the bit where CPython takes it from the C library, and within
1e-15 wherever it may not.  A few values are also worked out by hand, so that a mistake
common to the kernel and the reference would still show.
"""
import itertools
import math

import numpy as np
import pytest

import nardy_fast as nf
from nardy_fast.core.cubestate import CubeState, next_stake
from nardy_fast.core.rules import Rules
from nardy_fast.engine.evaluation import _cubeloop  # private on purpose: the C loop's model
from nardy_fast.engine.evaluation import cubemodel as cm

import naive_cube as naive
from helpers import board

OWNERS = {-1: "centre", 0: "mover", 1: "opponent"}
P_GRID = [i / 20 for i in range(21)] + [0.123, 0.5714285714285714, 0.77]
WL = [(1.0, 1.0), (1.25, 1.0), (1.0, 1.6), (2.0, 1.5), (3.0, 3.0)]
CONTACT = (board({1: 10, 9: 3, 17: 2}), board({1: 12, 6: 3}))


def stakes(progression, max_stake=16):
    return [1, 2, 4, 8, 16] if progression == "geometric" else list(range(1, max_stake + 1))


@pytest.mark.parametrize("progression", ["geometric", "arithmetic"])
def test_cash_and_take_points_equal_the_reference(progression):
    for (w, l), max_stake in itertools.product(WL, (16, 5)):
        for k in stakes(progression, max_stake):
            got = cm.cash_point(w, l, k, progression, max_stake)
            assert type(got) is float
            assert got == naive.cash_point(w, l, k, progression, max_stake), (w, l, k)
        for k in range(0, max_stake + 2):
            assert cm.live_take_point(progression, k, max_stake) == \
                naive.live_take_point(progression, k, max_stake), k


def test_hand_worked_points():
    """Geometric, ``W = 2``, ``L = 1``: ``CP = (1 + 1) / (2 + 1 + 1/2) = 4/7``, and the
    take point of the opponent's raise ``1 - (2 + 1) / (3 + 1/2) = 1/7``.  Arithmetic at
    the cap the cube is dead: ``CP = (1 + L) / (W + L) = 2/3``; one stake below it
    ``CP_15 = 1 - CP_16(L, W) (W - 15/16) / (W + 1) = 1 - (3/3)(17/16)/3 = 0.6458333``.
    The live take point of a raise from 15 (to 16, the cap) is ``1 / (2 x 16) = 1/32``."""
    assert cm.cash_point(2.0, 1.0) == pytest.approx(4 / 7, abs=1e-15)
    assert 1 - cm.cash_point(1.0, 2.0) == pytest.approx(1 / 7, abs=1e-15)
    assert cm.cash_point(2.0, 1.0, 16, "arithmetic") == pytest.approx(2 / 3, abs=1e-15)
    assert cm.cash_point(2.0, 1.0, 15, "arithmetic") == pytest.approx(1 - 17 / 48, abs=1e-15)
    assert cm.live_take_point("arithmetic", 15) == pytest.approx(1 / 32, abs=1e-15)
    # W = 2, L = 1, mover owns the cube at p = 0.3: live = -L + (1 + L) p / CP
    # = -1 + 2 (0.3)(7/4) = 0.05; x = 0.5: 0.5 (0.6 - 0.7) + 0.5 (0.05) = -0.025
    e = cm.model_equities(0.3, 0.5, CubeState(2, "mover"), wins=2.0, losses=1.0)
    assert e["no_double"] == pytest.approx(-0.025, abs=1e-15)


@pytest.mark.parametrize("beaver", [False, True])
@pytest.mark.parametrize("progression", ["geometric", "arithmetic"])
def test_model_equities_equal_the_reference(progression, beaver):
    for (w, l), x in itertools.product(WL, (0.0, 0.462, 0.9, 1.0)):
        for k in stakes(progression):
            for owner in OWNERS.values():
                cube = CubeState(k, owner)
                for p in P_GRID:
                    e = cm.model_equities(p, x, cube, progression, beaver, wins=w, losses=l)
                    where = (w, l, x, k, owner, p)
                    assert e["no_double"] == naive.model(p, owner, k, x, progression, 16,
                                                         w, l), where
                    if math.isnan(e["double_pass"]):
                        continue
                    n1 = next_stake(progression, k)
                    assert e["double_take"] == n1 / k * naive.model(
                        p, "opponent", n1, x, progression, 16, w, l), where
                    if not math.isnan(e["double_beaver"]):
                        n2 = next_stake(progression, n1)
                        assert e["double_beaver"] == n2 / k * naive.model(
                            p, "opponent", n2, x, progression, 16, w, l), where


def spec_of(progression, points, p=0.5):
    tp = np.array([cm.live_take_point(progression, k) for k in range(17)])
    return cm.CubeSettings(False, 1, -1, False, 16, cm.CONTACT_EFFICIENCY,
                           np.ascontiguousarray(cm.RACE_EFFICIENCY, dtype=np.float64), tp,
                           None, lambda mover, opponent: p, points)


@pytest.mark.parametrize("progression", ["geometric", "arithmetic"])
def test_c_loop_model_with_mars_equals_the_reference(progression):
    """The game loop's cube (``model_point`` with the net's seven outputs): ``W`` and
    ``L`` from the outputs and the points, and the equities with them, as the
    reference computes them from the same float32 outputs."""
    rules = Rules(cube=progression)
    points = (1.0, 2.0, 3.0, 2.5)
    spec = spec_of(progression, points)
    mover, opp = CONTACT
    rng = np.random.default_rng(44)
    for _ in range(12):
        pw = rng.uniform(0.05, 0.95)
        mw, ml = rng.uniform(0, pw), rng.uniform(0, 1 - pw)
        out = np.array([pw, mw, mw * 0.3, mw * 0.2, ml, ml * 0.25, ml * 0.1], np.float32)
        q = [float(v) for v in out]
        w = naive.mean_points(q[0], q[1], q[2], q[3], points)
        l = naive.mean_points(1.0 - q[0], q[4], q[5], q[6], points)
        for k in stakes(progression)[:4]:
            for owner, name in OWNERS.items():
                got = _cubeloop.model_point(rules, spec, mover, opp, k, owner, 0.5,
                                            outputs=out)
                assert (got["wins"], got["losses"]) == (w, l)
                x = got["x"]
                assert got["no_double"] == naive.model(q[0], name, k, x, progression, 16,
                                                       w, l), (k, name)
                n1 = next_stake(progression, k)
                if name != "opponent":
                    assert got["double_take"] == n1 / k * naive.model(
                        q[0], "opponent", n1, x, progression, 16, w, l), (k, name)


def test_win_loss_values_equal_the_reference():
    rng = np.random.default_rng(7)
    points = (1.0, 2.0, 3.0, 2.5)
    for _ in range(50):
        pw = float(rng.uniform(0, 1))
        mw, ml = float(rng.uniform(0, pw)), float(rng.uniform(0, 1 - pw))
        d = {"p_win": pw, "p_mars_win": mw, "p_koks_win": mw / 3, "p_home_mars_win": mw / 4,
             "p_mars_loss": ml, "p_koks_loss": ml / 5, "p_home_mars_loss": 0.0}
        p, w, l = cm.win_loss_values(d, points)
        assert p == pw
        assert w == naive.mean_points(pw, mw, mw / 3, mw / 4, points)
        assert l == naive.mean_points(1.0 - pw, ml, ml / 5, 0.0, points)
    # a loss of probability below 1e-7: L = 1; a share rounding below the smallest point
    assert cm.win_loss_values({"p_win": 1.0}, points)[2] == 1.0
    assert cm.win_loss_values({"p_win": 0.3, "p_mars_win": 0.1, "p_koks_win": 0.1},
                              (2.0, 2.0, 2.0, 2.0))[1] == 2.0


def race(pips_on_24):
    """A race position whose side on roll has checkers only on its points 13-24."""
    return nf.Position(board(pips_on_24), board({13: 15}))


def test_efficiency_equals_the_reference_at_every_pip_count():
    """Pip counts are integers: the race efficiency at each of 0..400 is the reference's
    (and numpy's ``interp`` of the bins, the form it had in Python)."""
    xs, ys = zip(*cm.RACE_EFFICIENCY)
    from nardy_fast.engine.evaluation import _cubemodel
    for pips in range(401):
        got = _cubemodel.race_efficiency(float(pips), cm.RACE_EFFICIENCY)
        assert got == naive.race_efficiency(pips, cm.RACE_EFFICIENCY), pips
        assert got == float(np.interp(float(pips), xs, ys)), pips
    rules = Rules(cube="geometric")
    for pos in (race({24: 1}), race({20: 2, 22: 3}), race({13: 2, 19: 13}),
                nf.Position(*CONTACT)):
        x = cm.efficiency(pos)
        want = cm.CONTACT_EFFICIENCY if pos.is_contact() else \
            naive.race_efficiency(float(pos.pips[0]), cm.RACE_EFFICIENCY)
        assert x == want
        got = _cubeloop.model_point(rules, spec_of("geometric", cm.CUBE_POINTS),
                                    pos.boards[0], pos.boards[1], 1, -1, 0.5)
        assert got["x"] == x
    assert cm.efficiency(race({24: 1})) == cm.RACE_EFFICIENCY[0][1]          # below the bins
    assert cm.efficiency(race({13: 2, 19: 13})) == cm.RACE_EFFICIENCY[-1][1]  # beyond them
    # 2 x 5 + 3 x 3 = 19 pips: between the bins at 15 and 21, two thirds of the way:
    # 0.613 + (2/3)(0.649 - 0.613) = 0.637
    assert cm.efficiency(race({20: 2, 22: 3})) == pytest.approx(0.637, abs=1e-15)


def test_pip_probability_equals_the_reference():
    from nardy_fast.engine.evaluation import _cubemodel
    for a in range(0, 361, 7):
        for b in range(0, 361, 11):
            assert _cubemodel.pip_probability(float(a), float(b)) == pytest.approx(
                naive.pip_probability(a, b), rel=1e-15, abs=1e-300), (a, b)
    pos = race({20: 2, 22: 3})
    assert cm.pip_probability(pos) == pytest.approx(
        naive.pip_probability(*(float(v) for v in pos.pips)), rel=1e-15)
    # equal pip counts: the side on roll is half a turn ahead, so above 1/2
    assert 0.5 < _cubemodel.pip_probability(100.0, 100.0) < 0.7


def test_wrappers_refuse_a_malformed_efficiency_table():
    from nardy_fast.engine.evaluation import _cubemodel
    with pytest.raises(ValueError, match="x_race"):
        _cubemodel.race_efficiency(10.0, np.zeros((0, 2)))
    with pytest.raises(ValueError, match="x_race"):
        _cubemodel.race_efficiency(10.0, np.zeros((3, 3)))


def test_p_of_refuses_what_is_no_probability():
    """A cube_probabilities source that returns NaN, a number outside [0, 1] or no number
    at all is named (NaN became P(win) 0 and 1.5 became 1 in the decision; text failed with
    an AttributeError from inside)."""
    assert cm.p_of(np.float32(0.25)) == 0.25 and cm.p_of(np.int64(1)) == 1.0
    assert cm.p_of({"p_win": 0.5, "p_draw": 0.2}) == pytest.approx(0.6)
    assert cm.p_of(1.0 + 1e-12) == 1.0 + 1e-12          # a table's rounding step passes
    for bad in (math.nan, 1.5, -0.2, {"p_win": math.nan}):
        with pytest.raises(ValueError, match=r"^cube_probabilities: returned P\(win\)"):
            cm.p_of(bad)
    for bad in ("x", None, True, {"q": 1}, [0.5]):
        with pytest.raises(TypeError, match=r"^cube_probabilities: returned .*: expected "
                                            r"P\(win\), a number in \[0, 1\]"):
            cm.p_of(bad)
