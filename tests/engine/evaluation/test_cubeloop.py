"""The C game loop's cube (``_cubeloop``) against the Python cube functions (``cubemodel``), value by value.

Both take the model's formulas from one kernel (``_cubemodel``, checked against
``tests/naive_cube.py`` in ``tests/engine/evaluation/test_cubemodel.py``); this file checks
what the loop adds: the cube state, the efficiency it reads, the exact table and the
answers to a raise.  The README says they are the same model: Janowski's equity per unit stake with the cube
efficiency ``x`` of the position, the live take points of the progression, and the exact
cubeful race table where it covers a race.  ``_cubeloop.model_point`` runs the C
functions on one point (no game); each of its figures is compared with
``cubemodel.model_equities`` / ``actions`` / ``efficiency`` / ``cube.cube_decision`` on a
grid of P(win), stake, cube owner, progression and beaver.  A few values are also worked
out by hand below, so that a mistake common to both would still show.
"""
import math

import numpy as np
import pytest

import nardy_fast as nf
from nardy_fast.engine.evaluation import _cubeloop  # private on purpose: the C cube model vs Python
from nardy_fast.engine.evaluation import _cubemodel  # private on purpose: the tie rule
from nardy_fast.core.cubestate import MAX_STAKE, CubeState, next_stake
from nardy_fast.engine.evaluation import cubemodel as cm
from nardy_fast.engine.decisions.cube import cube_decision
from nardy_fast.core.rules import Rules

from helpers import board

OWNERS = {-1: "centre", 0: "mover", 1: "opponent"}
P_GRID = [round(x, 4) for x in np.linspace(0.0, 1.0, 26)] + [0.2, 0.8, 0.7, 0.45]


# (mover, opponent): a contact position, races of several pip counts (the side on roll's
# pips decide x: below the first bin, between bins, beyond the last), none covered by the
# cubeful race table (the opponent is not home)
POSITIONS = [
    (board({1: 10, 9: 3, 17: 2}), board({1: 12, 6: 3})),            # contact
    (board({24: 1}), board({14: 15})),                              # 1 pip
    (board({20: 2, 22: 3}), board({13: 15})),                       # 4*2 + 3*3 = 17 pips
    (board({13: 2, 19: 13}), board({14: 15})),                      # 24 + 78 = 102 pips
]


def spec_of(progression, p, table=None, x=None):
    """The ``cube`` settings of ``play_blocks``, built from ``cubemodel``'s constants (as
    ``rollout._cube_arrays`` does), centred at stake 1; the model's P(win) source
    answers ``p``; ``x`` the contact efficiency (default ``CONTACT_EFFICIENCY``)."""
    tp = np.array([cm.live_take_point(progression, k) for k in range(MAX_STAKE + 1)])
    x = cm.CONTACT_EFFICIENCY if x is None else x
    return cm.CubeSettings(False, 1, -1, False, MAX_STAKE, x,
                           np.ascontiguousarray(cm.RACE_EFFICIENCY, dtype=np.float64), tp,
                           table, lambda mover, opponent: p)


def stakes(progression):
    return [1, 2, 4, 8, 16, 32] if progression == "geometric" else list(range(1, 17))


def near(a, b):
    return abs(a - b) < 1e-9


def expected_action(e):
    """``cube_action``'s answer by ``cube.actions``: "none" unless a double."""
    roller, taker, _ = cm.actions(e)
    return taker if roller == "double" else "none"


def is_tie(e):
    """A decision on a knife edge (a sure win, a take worth the pass): the C loop and
    ``cubemodel.actions`` name it by one rule, ``_cubemodel.cm_double_choice``."""
    take = e["double_take"] if math.isnan(e["double_beaver"]) else \
        min(e["double_take"], e["double_beaver"])
    return (near(min(take, 1.0), e["no_double"]) or near(take, 1.0)
            or near(e["double_take"], e["double_beaver"]))


@pytest.mark.parametrize("beaver", [False, True])
@pytest.mark.parametrize("progression", ["geometric", "arithmetic"])
def test_c_model_equals_cube_py_on_a_grid(progression, beaver):
    rules = Rules(cube=progression, beaver=beaver)
    checked = {"none": 0, "take": 0, "pass": 0, "beaver": 0}
    ties = 0
    for mover, opp in POSITIONS:
        x = cm.efficiency(nf.Position(mover, opp))
        for p in P_GRID:
            spec = spec_of(progression, p)
            for k in stakes(progression):
                for owner, name in OWNERS.items():
                    got = _cubeloop.model_point(rules, spec, mover, opp, k, owner, p)
                    assert got["x"] == pytest.approx(x, abs=1e-12)
                    e = cm.model_equities(p, x, CubeState(k, name), progression, beaver)
                    where = (p, k, name)
                    assert got["no_double"] == pytest.approx(e["no_double"], abs=1e-12), where
                    assert got["race_value"] == pytest.approx(e["equity"] * k, abs=1e-12), \
                        where
                    may = not math.isnan(e["double_pass"])
                    if may:
                        assert got["double_take"] == pytest.approx(e["double_take"],
                                                                   abs=1e-12), where
                        if math.isnan(e["double_beaver"]):
                            assert math.isnan(got["double_beaver"]), where
                        else:
                            assert got["double_beaver"] == pytest.approx(
                                e["double_beaver"], abs=1e-12), where
                    if may and is_tie(e):       # one rule of the ties (cubemodel.actions)
                        ties += 1
                    want = expected_action(e) if may else "none"
                    assert got["action"] == want, where
                    n1 = next_stake(progression, k)
                    after = {"none": (k, owner), "pass": (k, owner), "take": (n1, 1),
                             "beaver": (next_stake(progression, n1), 1)}[want]
                    assert (got["stake"], got["owner"]) == after, where
                    checked[want] += 1
                    # no raise allowed before this roll: the race value is no double's
                    nr = _cubeloop.model_point(rules, spec, mover, opp, k, owner, p,
                                               no_raise=True)
                    assert nr["race_value"] == pytest.approx(e["no_double"] * k, abs=1e-12)
    # every answer but the beaver occurs on the grid (the model beavers only a raise it
    # would not make itself: a proper double is never beavered)
    assert checked["none"] and checked["take"] and checked["pass"]
    assert checked["beaver"] == 0
    assert ties                        # the ties (a sure win: cash it) are checked too


def test_hand_worked_values():
    """Geometric, take point 1/5 (cash point 4/5), contact x = 0.68 (given):

    - p = 0.5, centred: live = -1 + 2 (0.5 - 0.2) / (0.8 - 0.2) = 0, dead 2p - 1 = 0:
      no double 0; double/take = 2 x (owned by the opponent at 2: live = -1 + 2 (0.5 -
      0.2) / 0.8 = -0.25, equity 0.32 x 0 + 0.68 x -0.25 = -0.17) = -0.34.  No double.
    - p = 0.9, centred: live = 1 (beyond the cash point), dead 0.8: no double 0.32 x 0.8 +
      0.68 = 0.936; taking: live = -1 + 2 (0.7) / 0.8 = 0.75, 0.32 x 0.8 + 0.68 x 0.75 =
      0.766, x 2 = 1.532 > 1: the opponent passes; 1 > 0.936: double, pass.
    - p = 0.1, the mover owns the cube: live = -1 + 2 x 0.1 / 0.8 = -0.75, dead -0.8:
      0.32 x -0.8 + 0.68 x -0.75 = -0.766.
    """
    mover, opp = POSITIONS[0]
    rules = Rules(cube="geometric")
    a = _cubeloop.model_point(rules, spec_of("geometric", 0.5, x=0.68), mover, opp, 1, -1,
                              0.5)
    assert a["x"] == pytest.approx(0.68)
    assert a["no_double"] == pytest.approx(0.0, abs=1e-12)
    assert a["double_take"] == pytest.approx(-0.34, abs=1e-12)
    assert a["action"] == "none"
    b = _cubeloop.model_point(rules, spec_of("geometric", 0.9, x=0.68), mover, opp, 1, -1,
                              0.9)
    assert b["no_double"] == pytest.approx(0.936, abs=1e-12)
    assert b["double_take"] == pytest.approx(1.532, abs=1e-12)
    assert (b["action"], b["stake"], b["owner"]) == ("pass", 1, -1)
    assert b["race_value"] == pytest.approx(1.0, abs=1e-12)
    c = _cubeloop.model_point(rules, spec_of("geometric", 0.1, x=0.68), mover, opp, 4, 0,
                              0.1)
    assert c["no_double"] == pytest.approx(-0.766, abs=1e-12)
    assert c["race_value"] == pytest.approx(-0.766 * 4, abs=1e-12)


def test_arithmetic_cube_is_dead_at_the_cap():
    """Arithmetic at the cap (stake 16): no raise; take point 0 and cash point 1, so the
    live equity is -1 + 2 p like the dead one: no double = 2p - 1 for every owner."""
    mover, opp = POSITIONS[0]
    rules = Rules(cube="arithmetic")
    for p in (0.3, 0.6, 0.95):
        for owner in OWNERS:
            got = _cubeloop.model_point(rules, spec_of("arithmetic", p), mover, opp, 16,
                                        owner, p)
            assert got["no_double"] == pytest.approx(2 * p - 1, abs=1e-12)
            assert (got["action"], got["stake"]) == ("none", 16)


def exact_positions(n_checkers):
    """Races of both homes with at most ``n_checkers`` a side (covered by the table)."""
    rng = np.random.default_rng(5)
    out = []
    while len(out) < 8:
        me, you = np.zeros(24, np.uint8), np.zeros(24, np.uint8)
        for b in (me, you):
            for _ in range(int(rng.integers(1, n_checkers + 1))):
                b[18 + int(rng.integers(0, 6))] += 1
        out.append((me, you))
    return out


def test_c_loop_uses_the_exact_table_as_cube_decision_does():
    """Geometric races of both homes within the cubeful race table: the C values are the
    table's, as ``cube_decision`` (method "exact") reads them."""
    from nardy_fast.tables.cuberace import cubeful_race
    rules = Rules(cube="geometric")
    t = cubeful_race("geometric", False)
    table = (t.values, t.max_checkers, t.stakes or 0)
    for mover, opp in exact_positions(t.max_checkers):
        pos = nf.Position(mover, opp)
        for k in (1, 2, 8):
            for owner, name in OWNERS.items():
                d = cube_decision(pos, CubeState(k, name), rules=rules)
                assert d["method"] == "exact"
                got = _cubeloop.model_point(rules, spec_of("geometric", 0.5, table), mover,
                                            opp, k, owner, 0.5)
                assert got["no_double"] == pytest.approx(d["no_double"], abs=1e-12)
                if name != "opponent":
                    assert got["double_take"] == pytest.approx(d["double_take"], abs=1e-12)
                    assert got["race_value"] == pytest.approx(d["equity"] * k, abs=1e-12)


def test_c_loop_uses_the_exact_arithmetic_table_where_it_covers():
    """Arithmetic, no beaver, a small table (2 checkers, stakes 1..4 kept): a raise from
    stake k needs the table at k + 1, so stakes 1..3 with the cube the mover's to raise are
    exact, in C as in ``cube_decision``."""
    from nardy_fast.tables.cuberace import CubefulRace
    rules = Rules(cube="arithmetic")
    t = CubefulRace.build(2, "arithmetic", beaver=False, max_stake=4, stakes=4)
    table = (t.values, t.max_checkers, t.stakes)
    for mover, opp in exact_positions(2):
        pos = nf.Position(mover, opp)
        for k in (1, 2, 3):
            for owner, name in ((-1, "centre"), (0, "mover")):
                d = cube_decision(pos, CubeState(k, name), rules=rules, tables=t)
                assert d["method"] == "exact"
                got = _cubeloop.model_point(rules, spec_of("arithmetic", 0.5, table), mover,
                                            opp, k, owner, 0.5)
                assert got["no_double"] == pytest.approx(d["no_double"], abs=1e-12)
                assert got["double_take"] == pytest.approx(d["double_take"], abs=1e-12)


def test_c_pip_estimate_is_cubemodel_pip_probability(monkeypatch):
    """With no P(win) source the C loop decides on the pip-count estimate: its actions at
    a centred cube are the Python model's on ``cubemodel.pip_probability``, over races
    from far behind to far ahead (the opponent not home: no exact table).  At a contact
    efficiency of 0.68 (both sides), where these races see every action."""
    monkeypatch.setattr(cm, "CONTACT_EFFICIENCY", 0.68)
    rules = Rules(cube="geometric")
    opp = board({11: 15})                                   # 14 x 15 = 210 pips to go
    tp = np.array([cm.live_take_point("geometric", k) for k in range(MAX_STAKE + 1)])
    spec = cm.CubeSettings(False, 1, -1, False, MAX_STAKE, cm.CONTACT_EFFICIENCY,
                           np.ascontiguousarray(cm.RACE_EFFICIENCY, dtype=np.float64), tp,
                           None, None)                      # no source: the pips
    seen = set()
    for n in range(16):                                     # from 75 to 330 pips
        mover = board({3: n, 20: 15 - n})
        pos = nf.Position(mover, opp)
        p = cm.pip_probability(pos)
        e = cm.model_equities(p, cm.efficiency(pos), CubeState(1, "centre"), "geometric")
        got = _cubeloop.model_point(rules, spec, mover, opp, 1, -1, p)
        assert got["action"] == expected_action(e), (n, p)
        seen.add(got["action"])
    assert {"none", "take", "pass"} <= seen


def test_a_tie_with_a_take_keeps_the_cube():
    """A dead cube (x = 0) at P(win) 1/2: no double 2p - 1 = 0 and double/take 2 (2p - 1)
    = 0 tie, and the opponent takes.  The tie rule (``_cubemodel.cm_double_choice``, as
    ``cubemodel.actions``): the double gains nothing and hands over the cube, so the C
    loop keeps it ("none"), as the Python model names it "no double, take"."""
    rules = Rules(cube="geometric")
    mover, opp = POSITIONS[0]                                # contact: x is the given one
    got = _cubeloop.model_point(rules, spec_of("geometric", 0.5, x=0.0), mover, opp, 1, -1,
                                0.5)
    assert got["no_double"] == got["double_take"] == 0.0
    assert got["action"] == "none" and (got["stake"], got["owner"]) == (1, -1)
    e = cm.model_equities(0.5, 0.0, CubeState(1, "centre"), "geometric")
    assert cm.actions(e)[2] == "no double, take"
    assert [_cubemodel.double_choice(*a) for a in
            ((0.0, 0.0, False), (1.0, 1.0, True), (0.5, 0.2, False), (0.2, 0.5, False))] \
        == [0, 1, -1, 1]
