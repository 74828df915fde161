"""The cube decision at a match score uses the position's own cube efficiency.

Worked by hand for each position: its efficiency ``x`` from its pip count (counted here
from the board, sum of ``25 - point``) on the model's race table (Janowski's efficiency by
pips, ``cubemodel.RACE_EFFICIENCY``; ``CONTACT_EFFICIENCY`` while the sides can meet);
the dead-cube values of each action from the match equity table (a game won or lost at
the stake, then the table's chance at that score); the live ones from Zadeh's cube
functions at the score; each action worth ``x`` live plus ``1 - x`` dead (Janowski's
interpolation); the opponent's take point the least game winning chance at which a take
is worth no less to it than a pass.  Races are chosen whose efficiency is far from the
contact value, so a constant efficiency in place of the position's fails.
"""
import warnings

import numpy as np
import pytest

import nardy_fast as nf
from nardy_fast.core.cubestate import CubeState
from nardy_fast.core.matchrules import MatchRules, MatchState
from nardy_fast.engine.evaluation import met
from nardy_fast.engine.decisions.cube import cube_decision
from nardy_fast.engine.evaluation.cubemodel import CONTACT_EFFICIENCY, RACE_EFFICIENCY
from nardy_fast.tables.cuberace import CubefulRace

from helpers import board

LENGTH = 5
MR = MatchRules(length=LENGTH, starter="opening_roll", rules=nf.Rules(cube="geometric"))


def pips_by_hand(b):
    return sum(int(n) * (25 - (k + 1)) for k, n in enumerate(b))


def races():
    """No-contact races (both sides on their points 13-24) of few and of many pips."""
    short = nf.Position.from_boards(board({22: 2, 24: 3}), board({21: 2, 23: 3}))
    long_ = nf.Position.from_boards(board({13: 2, 14: 1, 19: 2}), board({13: 3, 16: 2}))
    return [short, long_]


def efficiency_by_hand(pos):
    if pos.boards[:, :12].any():               # a checker on a point the other can reach
        return CONTACT_EFFICIENCY
    xs, ys = zip(*RACE_EFFICIENCY)
    return float(np.interp(pips_by_hand(pos.boards[0]), xs, ys))


@pytest.fixture(scope="module")
def table():
    return met.match_equity_table(LENGTH, cube=True, rules=MR)


def chance(m, i, j):
    return 1.0 if i <= 0 else 0.0 if j <= 0 else float(m.loc[i, j])


@pytest.mark.parametrize("score, stake, owner", [((0, 0), 1, "centre"), ((1, 2), 1, "centre"),
                                                ((2, 0), 1, "centre"), ((0, 0), 2, "mover"),
                                                ((0, 1), 2, "mover")])
@pytest.mark.parametrize("p", [0.62, 0.7, 0.8])
def test_decision_at_a_score_with_the_positions_efficiency(table, score, stake, owner, p):
    solver = met.solver_for(MR, True)
    for pos in races():
        x = efficiency_by_hand(pos)
        assert abs(x - CONTACT_EFFICIENCY) > 0.05           # a race far from contact
        state = MatchState(MR, score, pos.side, cube=CubeState(stake, owner))
        i, j = state.away()
        out = cube_decision(pos, match=state, cube_probabilities=lambda _: p)
        assert out["x"] == pytest.approx(x, abs=1e-12)
        fns = solver.cube_functions(i, j, 0, "normal")
        grid = np.linspace(0.0, 1.0, met.GRID)

        def mixed(fn, stake, q=p):
            dead = q * chance(table, i - stake, j) + (1 - q) * chance(table, i, j - stake)
            return x * float(np.interp(q, grid, fn)) + (1 - x) * dead
        # playing on: the cube where it is; a raise: the opponent owns it at twice
        here = ("centre" if owner == "centre" else "X", stake)
        up = ("Y", 2 * stake)
        assert out["no_double"] == pytest.approx(mixed(fns[here], stake), abs=1e-9)
        assert out["double_pass"] == pytest.approx(chance(table, i - stake, j), abs=1e-12)
        assert out["double_take"] == pytest.approx(mixed(fns[up], 2 * stake), abs=1e-9)
        # the opponent's take point: the least P(win) of its own at which it takes
        takes = [mixed(fns[up], 2 * stake, q) for q in grid]
        passes = np.flatnonzero(np.array(takes) >= out["double_pass"])
        assert out["take_point"] == pytest.approx(1.0 - grid[passes[0]], abs=1e-12)
        # the decision follows the values: double when a raise (taken or passed, the
        # opponent's better answer) is worth more than playing on
        best = min(out["double_take"], out["double_pass"])
        if best > out["no_double"] + 1e-9:
            assert out["double_action"] in ("double", "redouble")
        elif best < out["no_double"] - 1e-9:
            assert out["double_action"] != "double"


def test_the_efficiency_changes_the_decision(table):
    """With the contact value in its place the values differ (the check above bites)."""
    pos = races()[0]
    state = MatchState(MR, (0, 0), pos.side, cube=CubeState(1, "centre"))
    own = cube_decision(pos, match=state, cube_probabilities=lambda _: 0.7)
    contact = cube_decision(pos, match=state, cube_probabilities=lambda _: 0.7,
                            x=CONTACT_EFFICIENCY)
    assert abs(own["no_double"] - contact["no_double"]) > 1e-3
    assert abs(own["take_point"] - contact["take_point"]) > 1e-3


def test_no_raise_on_a_first_turn_in_an_exact_race():
    """On a first turn (``first_turn``) the exact race table's decision keeps the cube:
    no raise is offered (the raise values are NaN) and the equity is playing on's.
    Worked by hand: 1 checker on point 19 against 1 on point 24 (rule book: the side on
    roll bears off with a 6, a double of 2 or more, or 5-x / 4-x ... summing to 6 pips)."""
    small = CubefulRace.build(2, "geometric", max_stake=16, stakes=4)
    pos = nf.Position.from_boards(board({19: 1}), board({24: 1}))
    wins = sum(1 for a in range(1, 7) for b in range(1, 7)
               if a + b >= 6 or (a == b and 4 * a >= 6))
    d = cube_decision(pos, CubeState(1, "centre", first_turn=True), tables=small)
    assert d["method"] == "exact"
    assert np.isnan(d["double_take"]) and np.isnan(d["double_pass"])
    assert np.isnan(d["double_beaver"])
    assert d["equity"] == pytest.approx(d["no_double"])
    assert d["no_double"] == pytest.approx(2 * wins / 36 - 1)


def test_a_match_with_the_beaver_says_the_beaver_is_not_valued():
    """The match equity table's cube model has no beaver: a match whose rules allow it is
    decided without it, and a warning says so (double_beaver NaN), not silently."""
    rules = nf.Rules(cube="geometric", beaver=True)
    state = nf.MatchState(length=nf.MatchRules(length=5, rules=rules), score=(1, 2),
                          cube=CubeState())
    pos = nf.Position.initial()
    with pytest.warns(UserWarning, match="beaver: no effect at a match score"):
        d = cube_decision(pos, CubeState(), match=state, plies=0)
    assert np.isnan(d["double_beaver"])
    plain = nf.MatchState(length=nf.MatchRules(length=5, rules=nf.Rules(cube="geometric")),
                          score=(1, 2), cube=CubeState())
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        same = cube_decision(pos, CubeState(), match=plain, plies=0)
    assert same["no_double"] == d["no_double"]
