"""The cube model with the whole outcome distribution (GNU Backgammon's form for gammons):
mean points per stake ``W`` of a won and ``L`` of a lost game beside P(win).

- ``win_loss_values`` against hand sums of the kinds (oin, mars, koks, home mars);
- the model's equities, take point and doubling window against a case worked out by hand
  below from the definition (GNU Backgammon's ``Cl2CfMoney`` / ``MoneyLive``);
- the C twin (``_cubeloop``: ``win_loss`` and the model) against the Python model on many
  outcome distributions, scorings, stakes, cube owners and both progressions;
- with the cube the rule book scores the stake whatever the kind (section 7a), so
  ``cube_decision`` and the game loop keep ``W = L = 1``: a mars-rich outcome decides as
  its bare P(win).
"""
import math

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import nardy_fast as nf
from nardy_fast.core.cubestate import MAX_STAKE, CENTRED, CubeState
from nardy_fast.core.result import Outcome
from nardy_fast.core.rules import Rules
from nardy_fast.engine.evaluation import _cubeloop  # private on purpose: the C twin of the model
from nardy_fast.engine.evaluation import cubemodel as cm
from nardy_fast.engine.decisions.cube import cube_decision

from helpers import board

CLASSIC_POINTS = (1.0, 2.0, 2.0, 2.0)          # oin, mars, koks, home mars
EXTENDED_POINTS = (1.0, 2.0, 3.0, 4.0)


CONTACT = (board({1: 10, 9: 3, 17: 2}), board({1: 12, 6: 3}))
RACE = (board({20: 2, 22: 3}), board({13: 15}))       # 19 pips (25 - point): x between race bins


def test_win_loss_values_by_hand():
    """Extended points.  Wins 0.5: mars 0.2 of which koks 0.05 and home mars 0.05, so oin
    0.3 x 1 + mars only 0.1 x 2 + koks 0.05 x 3 + home mars 0.05 x 4 = 0.85, W = 1.7.
    Losses 0.5: mars 0.1, all of it koks: oin 0.4 x 1 + koks 0.1 x 3 = 0.7, L = 1.4."""
    o = {"p_win": 0.5, "p_mars_win": 0.2, "p_koks_win": 0.05, "p_home_mars_win": 0.05,
         "p_lose": 0.5, "p_mars_loss": 0.1, "p_koks_loss": 0.1}
    p, w, l = cm.win_loss_values(o, EXTENDED_POINTS)
    assert (p, w, l) == pytest.approx((0.5, 1.7, 1.4), abs=1e-12)
    # the rule book's cube: the stake whatever the kind
    assert cm.win_loss_values(o) == pytest.approx((0.5, 1.0, 1.0), abs=1e-15)
    # an Outcome reads the same; a bare P(win) has no kinds
    out = Outcome(p_win=0.5, p_mars_win=0.2, p_lose=0.5, p_mars_loss=0.1, equity=0.0,
                  method="test",
                  p_koks_win=0.05, p_home_mars_win=0.05, p_koks_loss=0.1)
    assert cm.win_loss_values(out, EXTENDED_POINTS) == pytest.approx((0.5, 1.7, 1.4))
    assert cm.win_loss_values(0.3, EXTENDED_POINTS) == (0.3, 1.0, 1.0)
    # a certain win: no loss to average, L is taken as 1
    assert cm.win_loss_values({"p_win": 1.0, "p_mars_win": 0.5, "p_mars_loss": 0.0},
                              CLASSIC_POINTS) == pytest.approx((1.0, 1.5, 1.0))


def test_win_loss_values_round_no_mean_below_one():
    """A net's outcome with mars probabilities near 1e-10 (a position of v4's self-play):
    the shares of the loss kinds sum to P(loss) only up to rounding, and the mean points
    of a loss came out as 0.9999999999999998, which the model refused.  It is 1."""
    o = {"p_win": 0.45435798168182373, "p_mars_win": 6.217126813368168e-09,
         "p_koks_win": 1.8616281205387913e-13, "p_home_mars_win": 5.85725912216617e-10,
         "p_lose": 0.5456420183181763, "p_mars_loss": 6.811564090547506e-10,
         "p_koks_loss": 4.279325917060095e-13, "p_home_mars_loss": 3.04363645398098e-10}
    p, w, l = cm.win_loss_values(o)
    assert w == 1.0 and l == 1.0                     # the stake whatever the kind
    assert cm.model_equities(p, 0.9, wins=w, losses=l)["equity"] == pytest.approx(
        cm.model_equities(p, 0.9)["equity"], abs=1e-12)
    _, w2, l2 = cm.win_loss_values(o, CLASSIC_POINTS)
    assert w2 >= 1.0 and l2 >= 1.0 and l2 == pytest.approx(1.0, abs=1e-8)
    bad = {"p_win": 0.5, "p_mars_win": 0.1, "p_koks_win": 0.08, "p_home_mars_win": 0.05}
    with pytest.raises(ValueError, match="not a distribution"):
        cm.win_loss_values(bad, CLASSIC_POINTS)


HAND = {"p_win": 0.72, "p_mars_win": 0.36, "p_mars_loss": 0.0}


def test_hand_worked_case():
    """Geometric, centred, x = 1/2, classic points (a mars scores 2 stakes), the side on
    roll wins 72% and half its wins are mars, it loses no mars: W = 1 + 0.36/0.72 = 3/2,
    L = 1.  GNU Backgammon's take point TP = (L - 1/2)/(W + L + 1/2) = 0.5/3 = 1/6, cash
    point CP = (L + 1)/(W + L + 1/2) = 2/3.

    - No double: p = 0.72 is beyond CP, so live = 1 + (W - 1)(p - CP)/(1 - CP) = 1 + 0.5 x
      (0.72 - 2/3) x 3 = 1.08; dead p W - (1 - p) L = 1.08 - 0.28 = 0.8; equity
      (0.8 + 1.08)/2 = 0.94.
    - Double/take: the opponent owns at 2, live = -1 + (W + 1)(p - TP)/(1 - TP) =
      -1 + 2.5 (0.72 - 1/6) x 6/5 = 0.66; (0.8 + 0.66)/2 = 0.73 a stake of 2: 1.46 > 1,
      so the opponent passes; 1 > 0.94: double, pass.
    - The opponent's take point: for p >= 1/6 the double/take equity is
      2 x (dead 2.5p - 1 + live 3p - 1.5)/2 = 5.5p - 2.5, one stake at p = 7/11: it takes
      with 4/11 (mars-blind: 1/(4 + x) = 2/9).
    - The double point: no double on [TP, CP] is ((2.5p - 1) + (4p - 5/3))/2 =
      3.25p - 4/3, equal to 5.5p - 2.5 at p = 14/27.
    - Mars-blind (W = L = 1) the same p is double, take: no double 0.44/2 + 0.7333/2 =
      0.58667, double/take 2 x (0.44 + 0.3)/2 = 0.74.
    """
    p, w, l = cm.win_loss_values(HAND, CLASSIC_POINTS)
    assert (w, l) == pytest.approx((1.5, 1.0))
    e = cm.model_equities(p, 0.5, wins=w, losses=l)
    assert e["no_double"] == pytest.approx(0.94, abs=1e-12)
    assert e["double_take"] == pytest.approx(1.46, abs=1e-12)
    assert e["equity"] == pytest.approx(1.0)
    assert cm.actions(e)[2] == "double, pass"
    assert cm.take_point(0.5, wins=w, losses=l) == pytest.approx(4 / 11, abs=1e-12)
    lo, hi = cm.doubling_window(0.5, wins=w, losses=l)
    assert (lo, hi) == pytest.approx((14 / 27, 7 / 11), abs=1e-9)
    blind = cm.model_equities(p, 0.5)
    assert (blind["no_double"], blind["double_take"]) == pytest.approx((0.88 / 1.5, 0.74))
    assert cm.actions(blind)[2] == "double, take"
    assert cm.take_point(0.5) == pytest.approx(2 / 9)


def test_cash_points_by_hand():
    """Geometric: GNU Backgammon's CP = (L + 1)/(W + L + 1/2).  Arithmetic at the cap the
    cube is dead: CP is where p W - (1 - p) L reaches 1, (1 + L)/(W + L); one below it
    (stake 15 to 16): CP_15 = 1 - CP_16(L, W)(W - 15/16)/(W + 1)."""
    assert cm.cash_point(1.5, 1.2) == pytest.approx(2.2 / 3.2)
    assert cm.cash_point(1.5, 1.2, 16, "arithmetic") == pytest.approx(2.2 / 2.7)
    cp16_swapped = 2.5 / 2.7
    assert cm.cash_point(1.5, 1.2, 15, "arithmetic") == pytest.approx(
        1 - cp16_swapped * (1.5 - 15 / 16) / 2.5)
    # W = L = 1: Janowski's live take points (1/5; arithmetic live_take_point)
    for k in (1, 5, 15, 16):
        assert 1 - cm.cash_point(1.0, 1.0, k, "arithmetic") == pytest.approx(
            cm.live_take_point("arithmetic", k), abs=1e-12)


@pytest.mark.parametrize("progression", ["geometric", "arithmetic"])
def test_general_form_at_w_l_one_is_janowskis(progression):
    """The form with W and L, a hair above W = L = 1, gives the mars-blind values: the two
    code paths are one model."""
    for p in np.linspace(0.0, 1.0, 21):
        for owner in ("centre", "mover", "opponent"):
            for k in ((1, 2, 8) if progression == "geometric" else (1, 7, 15, 16)):
                cube = CubeState(k, owner)
                a = cm.model_equities(p, 0.68, cube, progression, beaver=True)
                b = cm.model_equities(p, 0.68, cube, progression, beaver=True,
                                      wins=1.0 + 1e-13, losses=1.0 + 1e-13)
                for key in ("no_double", "double_take", "double_beaver"):
                    if math.isnan(a[key]):
                        assert math.isnan(b[key])
                    else:
                        assert b[key] == pytest.approx(a[key], abs=1e-9), (p, owner, k, key)
    for x in (0.0, 0.5, 1.0):
        assert cm.take_point(x, 1, progression, wins=1 + 1e-13) == pytest.approx(
            cm.take_point(x, 1, progression), abs=1e-9)


@settings(max_examples=60, deadline=None)
@given(x=st.floats(0.0, 1.0), w=st.floats(1.0, 3.0), dw=st.floats(0.01, 1.0),
       l=st.floats(1.0, 3.0))
def test_the_doublers_mars_makes_a_take_worse(x, w, dw, l):
    """More mars wins for the doubler (W up, L the same): the opponent needs more to take."""
    assert cm.take_point(x, wins=w + dw, losses=l) > cm.take_point(x, wins=w, losses=l)


def random_outputs(rng):
    """The net's seven outputs (float32): P(win), mars / koks / home mars wins, the same
    lost, with koks + home mars <= mars <= the win or loss."""
    pw = rng.choice([rng.uniform(0, 1), 0.0, 1.0, rng.uniform(0.5, 0.95)],
                    p=[0.7, 0.05, 0.05, 0.2])
    out = [pw]
    for q in (pw, 1.0 - pw):
        mars = q * rng.uniform(0, 1) * rng.choice([0.0, 0.5, 1.0])
        koks = mars * rng.uniform(0, 1)
        home = (mars - koks) * rng.uniform(0, 1)
        out += [mars, koks, home]
    a = np.array(out[:4] + out[4:], dtype=np.float32)
    return a


def py_dict(nv):
    """The float32 outputs as ``win_loss_values`` reads them (float64 of the same values)."""
    v = [float(t) for t in nv]
    return {"p_win": v[0], "p_mars_win": v[1], "p_koks_win": v[2], "p_home_mars_win": v[3],
            "p_lose": 1.0 - v[0], "p_mars_loss": v[4], "p_koks_loss": v[5],
            "p_home_mars_loss": v[6]}


def spec_of(progression, points, x=None):
    tp = np.array([cm.live_take_point(progression, k) for k in range(MAX_STAKE + 1)])
    x = cm.CONTACT_EFFICIENCY if x is None else x
    return cm.CubeSettings(False, 1, -1, False, MAX_STAKE, x,
                           np.ascontiguousarray(cm.RACE_EFFICIENCY, dtype=np.float64), tp,
                           None, lambda mover, opponent: 0.5, points)


@pytest.mark.parametrize("beaver", [False, True])
@pytest.mark.parametrize("progression", ["geometric", "arithmetic"])
def test_c_twin_equals_the_python_model_on_many_distributions(progression, beaver):
    rng = np.random.default_rng(25)
    rules = Rules(cube=progression, beaver=beaver)
    stakes = (1, 2, 4, 16) if progression == "geometric" else (1, 2, 9, 15, 16)
    owners = {-1: "centre", 0: "mover", 1: "opponent"}
    n = 0
    for i in range(150):
        points = (CLASSIC_POINTS, EXTENDED_POINTS, (1.0, 1.0, 1.0, 1.0),
                  tuple(1.0 + rng.uniform(0, 3, 4)))[i % 4]
        spec = spec_of(progression, points)
        nv = random_outputs(rng)
        mover, opp = (CONTACT, RACE)[i % 2]
        x = cm.efficiency(nf.Position(mover, opp))
        p, w, l = cm.win_loss_values(py_dict(nv), points)
        for k in stakes:
            for owner, name in owners.items():
                got = _cubeloop.model_point(rules, spec, mover, opp, k, owner, 0.5,
                                            outputs=nv)
                assert (got["wins"], got["losses"]) == pytest.approx((w, l), rel=1e-12)
                e = cm.model_equities(p, x, CubeState(k, name), progression, beaver,
                                      wins=w, losses=l)
                where = (points, nv.tolist(), k, name)
                assert got["no_double"] == pytest.approx(e["no_double"], abs=1e-10), where
                if not math.isnan(e["double_pass"]):
                    assert got["double_take"] == pytest.approx(e["double_take"],
                                                               abs=1e-10), where
                    if math.isnan(e["double_beaver"]):
                        assert math.isnan(got["double_beaver"]), where
                    else:
                        assert got["double_beaver"] == pytest.approx(e["double_beaver"],
                                                                     abs=1e-10), where
                n += 1
    assert n > 1000


def test_c_twin_hand_worked_case():
    """The hand-worked case above through the C twin (contact position at a given x =
    0.68, so the expected values are those of the definition at x = 0.68: dead 0.8, live
    1.08 and 0.66)."""
    nv = np.array([0.72, 0.36, 0, 0, 0, 0, 0], dtype=np.float32)
    got = _cubeloop.model_point(Rules(cube="geometric"),
                                spec_of("geometric", CLASSIC_POINTS, x=0.68),
                                *CONTACT, 1, -1, 0.5, outputs=nv)
    x = 0.68
    assert (got["wins"], got["losses"]) == pytest.approx((1.5, 1.0), rel=1e-6)
    assert got["no_double"] == pytest.approx((1 - x) * 0.8 + x * 1.08, abs=1e-6)
    assert got["double_take"] == pytest.approx(2 * ((1 - x) * 0.8 + x * 0.66), abs=1e-6)


def test_with_the_cube_a_game_scores_the_stake_so_w_and_l_are_one():
    """Rule book section 7a: with the cube there is no mars.  A source that reports a
    mars-rich outcome gets the decision of its bare P(win); the result states W, L, the
    model and where x came from."""
    pos = nf.Position(*CONTACT)
    rich = Outcome(p_win=0.72, p_mars_win=0.36, p_lose=0.28, p_mars_loss=0.0,
                   equity=1.16, method="test")
    a = cube_decision(pos, cube_probabilities=lambda q: rich)
    b = cube_decision(pos, cube_probabilities=lambda q: 0.72)
    for key in ("no_double", "double_take", "double_pass", "equity", "take_point"):
        assert a[key] == b[key]
    assert a["action"] == b["action"]
    assert (a["win_points"], a["loss_points"]) == (1.0, 1.0)
    assert a["model"].startswith("janowski")
    assert a["x_source"] == "contact, measured" and a["x"] == cm.CONTACT_EFFICIENCY
    assert cube_decision(pos, cube_probabilities=lambda q: 0.72, x=0.5)["x_source"] == "given"
    race = cube_decision(nf.Position(*RACE), cube_probabilities=lambda q: 0.72)
    assert race["x_source"] == "race, measured (19 pips)"
    assert race["x"] == pytest.approx(cm.efficiency(nf.Position(*RACE)))


def test_the_rule_books_cube_points_reach_the_game_loop():
    """The game loop's default settings (``CubeSettings.points``) are the cube's points:
    all 1, so the C model's W and L are 1 whatever the net says."""
    assert cm.CUBE_POINTS == (1.0, 1.0, 1.0, 1.0)
    spec = cm.CubeSettings(False, 1, -1, False, MAX_STAKE, cm.CONTACT_EFFICIENCY,
                           np.ascontiguousarray(cm.RACE_EFFICIENCY, dtype=np.float64),
                           np.zeros(MAX_STAKE + 1), None, None)
    nv = np.array([0.72, 0.36, 0.1, 0.1, 0.05, 0, 0], dtype=np.float32)
    got = _cubeloop.model_point(Rules(cube="geometric"), spec, *CONTACT, 1, -1, 0.5,
                                outputs=nv)
    assert (got["wins"], got["losses"]) == (1.0, 1.0)


def test_bad_points_and_values_are_named():
    with pytest.raises(ValueError, match="points="):
        cm.win_loss_values({"p_win": 0.5, "p_mars_win": 0.1, "p_mars_loss": 0.1},
                           (1.0, 0.5, 2.0, 2.0))
    with pytest.raises(ValueError, match="wins="):
        cm.model_equities(0.5, 0.5, CENTRED, wins=0.9)
    with pytest.raises(ValueError, match="losses="):
        cm.take_point(0.5, losses=float("nan"))
    with pytest.raises(ValueError, match="points="):
        _cubeloop.model_point(Rules(cube="geometric"),
                              spec_of("geometric", (1.0, 2.0, 2.0)), *CONTACT, 1, -1, 0.5)
