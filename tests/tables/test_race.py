"""Tests of nardy_fast.race_probabilities (exact two-sided and one-sided race chances)."""
import glob
import itertools
import os
import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import naive_race
import nardy_fast
from nardy_fast import Position, Rules, bearoff as bo, race_probabilities, successors
from nardy_fast._utils import datadir
from nardy_fast.core.result import Outcome

from helpers import boards_upto, small_default_mars, to24

ROLLS = [(a, b) for a in range(1, 7) for b in range(a, 7)]
PROB = {r: (1 if r[0] == r[1] else 2) / 36 for r in ROLLS}
EXTENDED = Rules(scoring="extended")


@pytest.fixture(scope="module", autouse=True)
def _mars_of_two(mars_tables):
    """Default mars tables of 2 checkers (seconds to build), not 8 (see RESULTS.md), built up front
    for both scorings as ``nardy-fast bearoff build --mars`` would (queries never build
    them); the data folder is the session's private one (conftest)."""
    with small_default_mars():
        yield


@pytest.fixture(scope="module")
def two():
    return bo.two_sided()


@pytest.fixture(scope="module")
def mars():
    return bo.mars_table(2)                  # the default for classic points (N patched)


def p_roll(board6, pred):
    """Probability of a roll with a legal move whose result satisfies pred(checkers left),
    by the general move generator (the opponent, in its home, cannot interfere)."""
    opp = to24([0, 0, 0, 0, 0, 1])
    return sum(PROB[r] for r in ROLLS
               if any(pred(int(b.sum())) for b in successors(to24(board6), opp, *r)))


def race(a6, b6, side="white"):
    return Position.from_boards(to24(a6), to24(b6), side)


def check_consistent(o, rules=None):
    rules = rules or nardy_fast.CLASSIC
    assert isinstance(o, Outcome)
    # (p_lose is 1 - p_win - p_draw by construction: checked against independent values
    # in test_one_sided_matches_the_convolution_formula and the draw-rule tests)
    for v in (o.p_win, o.p_lose, o.p_draw, o.p_mars_win, o.p_mars_loss):
        assert -1e-15 <= v <= 1 + 1e-12
    assert o.p_mars_win <= o.p_win + 1e-15 and o.p_mars_loss <= o.p_lose + 1e-15
    assert o.p_koks_win == o.p_koks_loss == 0
    assert (o.p_home_mars_win, o.p_home_mars_loss) == (o.p_mars_win, o.p_mars_loss)
    mars = rules.points("home_mars")
    eq = (o.p_win - o.p_mars_win) + mars * o.p_mars_win \
        - (o.p_lose - o.p_mars_loss) - mars * o.p_mars_loss
    assert o.equity == pytest.approx(eq, abs=1e-12)


# ----------------------------------------------------------------------------------------

def test_exported():
    assert nardy_fast.race_probabilities is race_probabilities
    assert "race_probabilities" in nardy_fast.__all__


@settings(max_examples=40, deadline=None)
@given(boards_upto(8), boards_upto(8), st.sampled_from(["white", "black"]))
def test_two_sided_method_when_covered(two, a, b, side):
    o = race_probabilities(race(a, b, side))
    assert o.method == "two_sided"
    assert o.p_win == two.p_win(a, b)
    assert o.p_mars_win == o.p_mars_loss == 0
    assert o.equity == pytest.approx(2 * o.p_win - 1, abs=1e-12)
    check_consistent(o)


@settings(max_examples=40, deadline=None)
@given(boards_upto(15), boards_upto(15), st.sampled_from([None, EXTENDED]))
def test_one_sided_when_not_covered_and_consistent(one, a, b, rules):
    o = race_probabilities(race(a, b), rules=rules)
    hi, lo = max(sum(a), sum(b)), min(sum(a), sum(b))
    exact = hi <= 8 or (hi == 15 and lo <= bo.DEFAULT_MARS)
    assert o.method == ("two_sided" if exact else "one_sided")
    check_consistent(o, rules)
    forced = race_probabilities(race(a, b), rules=rules, tables=one)
    assert forced.method == "one_sided"
    check_consistent(forced, rules)
    if sum(b) < 15:
        assert forced.p_mars_win == 0
    if sum(a) < 15:
        assert forced.p_mars_loss == 0


def test_one_sided_matches_the_convolution_formula(one):
    """Independent numpy evaluation of the documented formulas on random pairs."""
    rng = np.random.default_rng(5)
    t, f = np.asarray(one.turns), np.asarray(one.first_off)
    tail = lambda p, u: p[max(u, 0):].sum() if u > 0 else 1.0       # P(T >= u)
    for ia, ib in rng.integers(1, bo.N_BOARDS, (30, 2)):
        a, b = bo.board_of(ia), bo.board_of(ib)
        o = race_probabilities(race(a, b), tables=one)
        win = sum(t[ia, k] * tail(t[ib], k) for k in range(t.shape[1]))
        mwin = sum(t[ia, k] * tail(f[ib], k) for k in range(t.shape[1]))
        mloss = sum(t[ib, k] * tail(f[ia], k + 1) for k in range(t.shape[1]))
        lose = sum(t[ib, k] * tail(t[ia], k + 1) for k in range(t.shape[1]))
        assert o.p_win == pytest.approx(win, abs=1e-13)
        assert o.p_lose == pytest.approx(lose, abs=1e-13)
        assert o.p_mars_win == pytest.approx(min(mwin, win), abs=1e-13)
        assert o.p_mars_loss == pytest.approx(min(mloss, lose), abs=1e-13)


def draw_rule_by_turns(ta, tb, a_white):
    """(win, draw, lose) of the side on roll from the two turn distributions under the draw
    rule (rule book section 7).  The side on roll finishing on its turn i comes before the
    opponent's turn i.  White on roll: White wins iff Ta < Tb; Ta == Tb is a draw (Black's
    last turn finishes too); Tb < Ta a loss.  Black on roll (White has had one more turn):
    Black wins iff Ta <= Tb; if White finishes first (Tb < Ta), Black's last turn is its
    turn Tb + 1: a draw iff Ta == Tb + 1, else a loss."""
    i, j = np.meshgrid(np.arange(len(ta)), np.arange(len(tb)), indexing="ij")
    joint = np.outer(ta, tb)
    if a_white:
        return joint[i < j].sum(), joint[i == j].sum(), joint[i > j].sum()
    return joint[i <= j].sum(), joint[i == j + 1].sum(), joint[i >= j + 2].sum()


@pytest.mark.parametrize("side", ["white", "black"])
def test_one_sided_draw_rule_matches_the_turn_distributions(one, side):
    """The draw rule's convolution (both sides on roll) against the rule book's
    win / draw / loss conditions evaluated on the database's turn distributions."""
    rng = np.random.default_rng(6 if side == "white" else 7)
    t, f = np.asarray(one.turns), np.asarray(one.first_off)
    rules = Rules(draw_rule=True)
    draws = mars_w = mars_l = 0.0

    def p_at_least(p, u):                    # P(F >= u)
        return p[max(u, 0):].sum()

    pairs = [tuple(x) for x in rng.integers(1, bo.N_BOARDS, (40, 2))]
    mars_races = [((0, 0, 0, 0, 0, 15), (0, 0, 1, 1, 0, 0)),    # 15 (none off) against a few
                  ((0, 0, 0, 3, 5, 7), (1, 1, 0, 0, 0, 0)),
                  ((0, 1, 2, 3, 4, 5), (0, 0, 0, 2, 1, 0))]
    for x, y in mars_races:
        pairs += [(int(bo.index_of(x)), int(bo.index_of(y))), (int(bo.index_of(y)),
                                                                int(bo.index_of(x)))]
    for ia, ib in pairs:
        o = race_probabilities(race(bo.board_of(ia), bo.board_of(ib), side), rules=rules)
        win, draw, lose = draw_rule_by_turns(t[ia], t[ib], side == "white")
        # Mars: the loser has none off when the game ends.  White on roll: Black's last
        # turn is its turn Ta, so White's mars needs Fb > Ta; White loses a mars iff
        # Fa > Tb.  Black on roll: White has had Ta - 1 turns when Black finishes (mars
        # iff Fb >= Ta); Black's last turn is its turn Tb + 1 (a mars loss iff Fa > Tb + 1).
        k = np.arange(t.shape[1])
        if side == "white":
            mw = sum(t[ia, i] * p_at_least(f[ib], i + 1) for i in k)
            ml = sum(t[ib, j] * p_at_least(f[ia], j + 1) for j in k)
        else:
            mw = sum(t[ia, i] * p_at_least(f[ib], i) for i in k)
            ml = sum(t[ib, j] * p_at_least(f[ia], j + 2) for j in k)
        assert o.method == "one_sided"
        assert (o.p_win, o.p_draw, o.p_lose) == pytest.approx((win, draw, lose), abs=1e-13)
        assert (o.p_mars_win, o.p_mars_loss) == pytest.approx((min(mw, win), min(ml, lose)),
                                                              abs=1e-13)
        draws += draw
        mars_w += o.p_mars_win
        mars_l += o.p_mars_loss
    assert draws > 0.3                       # draws are common: a wrong rule would show
    assert mars_w > 0.01 and mars_l > 0.01   # and so are marses


TINY = [b for b in itertools.product(range(4), repeat=6) if 0 < sum(b) <= 3]


@pytest.mark.parametrize("side", ["white", "black"])
def test_draw_rule_against_brute_force(side):
    """Tiny races (at most 3 checkers a side): the draw-rule probabilities against the
    game tree played turn by turn with the rule book's move generator (tests/naive.py)
    and each side's least-expected-turns play (tests/naive_race.py)."""
    rng = np.random.default_rng(21)
    rules = Rules(draw_rule=True)
    pairs = [(TINY[i], TINY[j]) for i, j in rng.integers(0, len(TINY), (60, 2))]
    pairs += [((0, 0, 0, 0, 0, 1), (0, 0, 0, 0, 0, 1)), ((1, 0, 0, 0, 0, 0), (0, 0, 3, 0, 0, 0))]
    for a, b in pairs:
        assert naive_race.turn_distribution(a) and naive_race.turn_distribution(b)
        win, draw, lose = naive_race.draw_rule_race(a, b, side == "white")
        o = race_probabilities(race(a, b, side), rules=rules)
        assert (o.p_win, o.p_draw, o.p_lose) == pytest.approx((win, draw, lose), abs=1e-12)
        assert o.p_mars_win == o.p_mars_loss == 0


def test_turn_distributions_against_brute_force(one):
    for b in TINY:
        want = naive_race.turn_distribution(b)
        got = np.asarray(one.distribution(np.array(b, np.uint8)), float)
        assert got[:len(want)] == pytest.approx(want, abs=1e-13)
        assert not got[len(want):].any()
        assert one.mean_turns(np.array(b, np.uint8)) == pytest.approx(
            naive_race.mean_turns(b), abs=1e-13)


def test_mars_by_hand():
    # 15 on point 19 against one checker on point 24: the opponent finishes in its first
    # turn, so the side on roll escapes the mars only by bearing one off now
    p_off = p_roll([0, 0, 0, 0, 0, 15], lambda n: n < 15)
    assert 0 < p_off < 1
    for dbs, method in ((None, "two_sided"), (bo.one_sided(), "one_sided")):
        o = race_probabilities(race([0, 0, 0, 0, 0, 15], [1, 0, 0, 0, 0, 0]), tables=dbs)
        assert o.method == method
        assert o.p_win == 0 and o.p_lose == 1
        assert o.p_mars_loss == pytest.approx(1 - p_off, abs=1e-15)
    # 15 on point 24 always bears one off at once: a plain loss
    o = race_probabilities(race([15, 0, 0, 0, 0, 0], [1, 0, 0, 0, 0, 0]))
    assert (o.p_lose, o.p_mars_loss, o.equity) == (1, 0, -1)
    # the side on roll finishes now, the opponent has none off: a (home) mars
    for rules in (None, EXTENDED):
        o = race_probabilities(race([0, 0, 1, 0, 0, 0], [0, 0, 0, 0, 0, 15]), rules=rules)
        assert o.p_win == o.p_mars_win == pytest.approx(1, abs=1e-15)
        assert o.equity == pytest.approx((rules or nardy_fast.CLASSIC).points("home_mars"))
        assert o.p_home_mars_win == o.p_mars_win


def test_draw_rule():
    rules = Rules(draw_rule=True)
    a = [1, 0, 0, 0, 0, 0]
    # White finishes, Black's last turn finishes too: a draw
    o = race_probabilities(race(a, a, "white"), rules=rules)
    assert o.method == "one_sided" and o.p_draw == pytest.approx(1) and o.equity == 0
    # Black on roll simply wins
    o = race_probabilities(race(a, a, "black"), rules=rules)
    assert o.p_win == pytest.approx(1) and o.p_draw == 0
    # White finishes now; Black's last turn cannot bear off 2 checkers from point 19
    # (only a double of at least 3 does)
    o = race_probabilities(race(a, [0, 0, 0, 0, 0, 2], "white"), rules=rules)
    p_draw = p_roll([0, 0, 0, 0, 0, 2], lambda n: n == 0)
    assert p_draw == pytest.approx(sum(PROB[(d, d)] for d in range(3, 7)))
    assert o.p_draw == pytest.approx(p_draw, abs=1e-15)
    assert o.p_win == pytest.approx(1 - p_draw, abs=1e-15)
    assert o.p_mars_win == 0                           # Black has 13 off already
    check_consistent(o, rules)
    # against 15 on point 19, Black's last turn decides the mars
    o = race_probabilities(race(a, [0, 0, 0, 0, 0, 15], "white"), rules=rules)
    p_mars = 1 - p_roll([0, 0, 0, 0, 0, 15], lambda n: n < 15)
    assert o.p_win == pytest.approx(1, abs=1e-15)
    assert o.p_mars_win == pytest.approx(p_mars, abs=1e-15)
    with pytest.raises(ValueError, match="draw rule"):
        race_probabilities(race(a, a), rules=rules, method="two_sided")


def test_blacks_last_turn_under_draw_rule_is_valued_not_called_over():
    """White has finished; under ``draw_rule`` Black's last turn is still to play.  It was
    refused as "the game is over: the opponent has borne off all 15 checkers" (and
    ``nardy-fast bearoff query --rules draw_rule=true`` printed that), while the evaluator
    values it; it is now valued as the evaluator values it."""
    rules = Rules(draw_rule=True)
    black = [0, 0, 0, 0, 0, 2]                        # two checkers on point 19
    last = race(black, [0] * 6, "black")
    o = race_probabilities(last, rules=rules)
    p_draw = p_roll(black, lambda n: n == 0)
    assert 0 < p_draw < 1
    assert o.method == "final (last turn)"
    assert o.p_draw == pytest.approx(p_draw) and o.p_lose == pytest.approx(1 - p_draw)
    assert o.p_win == 0 and o.equity == pytest.approx(-(1 - p_draw))
    assert o == nardy_fast.Evaluator.default(rules).evaluate(last)
    check_consistent(o, rules)
    for over in (last, race(black, [0] * 6, "white")):   # classic: over; White: no turn
        with pytest.raises(ValueError, match="the game is over"):
            race_probabilities(over, rules=None if over is last else rules)


@settings(max_examples=30, deadline=None)
@given(boards_upto(15), boards_upto(15))
def test_draw_rule_probabilities_sum(a, b):
    for side in ("white", "black"):
        o = race_probabilities(race(a, b, side), rules=Rules(draw_rule=True))
        check_consistent(o, Rules(draw_rule=True))


def test_bad_positions():
    with pytest.raises(ValueError, match="not a race of both homes.*point 1 "):
        race_probabilities(Position.initial())
    b = to24([1, 0, 0, 0, 0, 0])
    o = b.copy()
    o[12] = 1
    with pytest.raises(ValueError, match="opponent has checkers on point 13"):
        race_probabilities(Position.from_boards(b, o))
    with pytest.raises(ValueError, match="game is over"):
        race_probabilities(Position.from_boards(np.zeros(24, int), b))
    with pytest.raises(TypeError, match="Position"):
        race_probabilities(b)
    with pytest.raises(ValueError, match="method"):
        race_probabilities(race(b[18:][::-1], b[18:][::-1]), method="exakt")
    for name in ("two_sided", "exact"):           # "exact": the exact table, by any name
        with pytest.raises(ValueError, match=f"method='{name}'.*covers at most 8"):
            race_probabilities(race([9, 0, 0, 0, 0, 0], [1, 0, 0, 0, 0, 0]), method=name)



def test_a_position_id_is_read_as_every_other_function_reads_it():
    """``race_probabilities("W...")`` was a TypeError ("expected a Position, got str")
    where ``Evaluator.evaluate``, ``cube_decision``, ``rollout`` and the reports take a
    position ID; it now reads the ID, and a malformed one is refused naming
    ``position``."""
    pos = race([0, 1, 0, 2, 1, 1][::-1], [1, 0, 2, 0, 1, 1][::-1])
    a, b = race_probabilities(pos.id), race_probabilities(pos)
    assert (a.method, a.p_win, a.p_mars_win, a.equity) == \
        (b.method, b.p_win, b.p_mars_win, b.equity)
    with pytest.raises(ValueError, match="position"):
        race_probabilities("W-not-an-id")
    with pytest.raises(TypeError, match="Position"):
        race_probabilities(None)

def test_explicit_databases(one):
    ts = bo.TwoSided.build(3, progress=False)
    p = race([2, 1, 0, 0, 0, 0], [0, 0, 3, 0, 0, 0])
    o = race_probabilities(p, tables=[ts, one])
    assert o.method == "two_sided" and o.p_win == ts.p_win([2, 1, 0, 0, 0, 0], [0, 0, 3, 0, 0, 0])
    big = race([4, 0, 0, 0, 0, 0], [1, 0, 0, 0, 0, 0])
    assert race_probabilities(big, tables=(ts, one)).method == "one_sided"
    with pytest.raises(ValueError, match="no OneSided"):
        race_probabilities(big, tables=ts)
    with pytest.raises(TypeError, match="tables"):
        race_probabilities(p, tables=42)


def test_one_sided_error_is_small_on_covered_races(one):
    """The one-sided path against the exact table (bound documented in race.py)."""
    rng = np.random.default_rng(11)
    errors = []
    for ia, ib in rng.integers(1, 3003, (400, 2)):       # 3003 boards of <= 8 checkers
        p = race(bo.board_of(ia), bo.board_of(ib))
        exact = race_probabilities(p)
        approx = race_probabilities(p, tables=one)
        assert exact.method == "two_sided" and approx.method == "one_sided"
        errors.append(abs(exact.p_win - approx.p_win))
    # documented: at most 0.014 over every pair, 0.0009 on average
    assert max(errors) <= 0.0145 and np.mean(errors) < 0.0015


# ----------------------------------------------------------------------------------------
# a side with all 15 checkers (none off): the mars table

@settings(max_examples=30, deadline=None)
@given(boards_upto(15, lo=15), boards_upto(2), st.booleans(), st.sampled_from(["white", "black"]))
def test_mars_table_used_when_one_side_has_all_15(mars, x, y, x_on_roll, side):
    a, b = (x, y) if x_on_roll else (y, x)
    o = race_probabilities(race(a, b, side))
    assert o.method == "two_sided"
    assert o.extra["mars_max_checkers"] == 2 and o.extra["mars_points"] == (1.0, 2.0)
    assert (o.p_win, o.p_mars_win, o.p_mars_loss) == mars.probabilities(a, b)
    if x_on_roll:
        assert o.p_mars_win == 0
    else:
        assert o.p_mars_loss == 0
    check_consistent(o)


@pytest.mark.slow
def test_mars_table_follows_the_points(mars):
    """Extended scoring (home mars 4) uses a table built for those points, once it is
    built (a query never starts the build); a table for other points is not used."""
    x, y = [0, 0, 1, 3, 5, 6], [0, 1, 1, 0, 0, 0]
    for f in glob.glob(os.path.join(bo.data_dir(), "bearoff-mars-15x2-oin1-mars4*")):
        datadir._CACHE.pop(f, None)
        os.remove(f)
    before = race_probabilities(race(y, x), rules=EXTENDED)
    assert before.method == "one_sided" and "mars_table(rules=" in before.extra["note"]
    ext = bo.mars_table(2, EXTENDED)
    o = race_probabilities(race(y, x), rules=EXTENDED)
    assert o.method == "two_sided" and o.extra["mars_points"] == (1.0, 4.0)
    assert (o.p_win, o.p_mars_win, o.p_mars_loss) == ext.probabilities(y, x)
    check_consistent(o, EXTENDED)
    assert o.equity == pytest.approx(o.p_win + 3 * o.p_mars_win - o.p_lose, abs=1e-12)
    # the classic table is not used for extended scoring
    assert race_probabilities(race(y, x), rules=EXTENDED,
                              tables=[mars, bo.one_sided()]).method == "one_sided"
    with pytest.raises(ValueError, match="no mars table for these points"):
        race_probabilities(race(y, x), rules=EXTENDED, tables=[mars], method="two_sided")
    # nor with the draw rule
    assert race_probabilities(race(y, x), rules={"draw_rule": True}).method == "one_sided"


def test_mars_table_explicit_and_attached(mars, one):
    x, y = [2, 2, 2, 3, 3, 3], [1, 1, 0, 0, 0, 0]
    o = race_probabilities(race(x, y), tables=mars)
    assert o.method == "two_sided" and o.p_win == mars.p_win(x, y)
    ts = bo.TwoSided.build(2, progress=False)
    assert race_probabilities(race(x, y), tables=[ts, one]).method == "one_sided"
    ts.mars = mars
    assert race_probabilities(race(x, y), tables=[ts, one]).method == "two_sided"
    three = [1, 1, 1, 0, 0, 0]                            # beyond the table's 2 checkers
    assert race_probabilities(race(x, three), tables=[ts, one]).method == "one_sided"
    with pytest.raises(ValueError, match="no mars table"):
        race_probabilities(race(x, three), tables=[ts, one], method="two_sided")
    with pytest.raises(TypeError, match="MarsTable"):
        race_probabilities(race(x, y), tables=[one, "mars"])


def test_one_sided_error_against_the_mars_table(mars, one):
    """The one-sided convolution against the exact mars table, 15 against <= 2 checkers,
    every pair with either side on roll (bounds documented in race.py)."""
    rng = np.random.default_rng(12)
    nx, _, my = mars.shape
    err_w = err_m = 0.0
    for i, j in zip(rng.integers(0, nx, 1500), rng.integers(1, my, 1500)):
        x, y = bo.board_of(mars.x_offset + i), bo.board_of(j)
        for a, b in ((x, y), (y, x)):
            exact = race_probabilities(race(a, b), tables=mars)
            approx = race_probabilities(race(a, b), tables=one)
            err_w = max(err_w, abs(exact.p_win - approx.p_win))
            err_m = max(err_m, abs(exact.p_mars_win - approx.p_mars_win),
                        abs(exact.p_mars_loss - approx.p_mars_loss))
    # documented over every pair: at most 3e-7 in P(win), 1e-15 in P(mars)
    assert err_w <= 3e-7 and err_m < 1e-14
    assert err_w > 0                         # the two methods are really compared


def test_two_sided_probabilities_route_to_the_mars_table(mars):
    """TwoSided answers mars probabilities where they apply: none below 15 checkers,
    the attached mars table for 15 against <= N, a clear error elsewhere."""
    ts = bo.TwoSided.build(2, progress=False)
    a, b = [1, 1, 0, 0, 0, 0], [0, 0, 1, 0, 0, 0]
    assert ts.probabilities(a, b) == (ts.p_win(a, b), 0.0, 0.0)
    x, y = [0, 0, 0, 0, 0, 15], [1, 1, 0, 0, 0, 0]       # x bears off only with a 6
    with pytest.raises(ValueError, match="no mars table"):
        ts.p_mars_loss(x, y)
    ts.mars = mars
    assert ts.probabilities(x, y) == mars.probabilities(x, y)
    assert ts.p_mars_win(y, x) == mars.p_mars_win(y, x) > 0
    assert ts.p_mars_loss(x, y) == mars.p_mars_loss(x, y) > 0
    with pytest.raises(ValueError, match="covers at most 2"):
        ts.probabilities([3, 0, 0, 0, 0, 0], b)


def test_a_mars_table_given_that_does_not_serve_is_named(mars, one):
    """A mars table passed as ``tables`` but built for other points (or too few
    checkers) is not used: the error or the one-sided result's note says why."""
    x, y = [0, 0, 1, 3, 5, 6], [0, 1, 1, 0, 0, 0]
    points = "built for oin 1 and mars 2 points, these rules score oin 1 and \\(home\\) mars 4"
    with pytest.raises(ValueError, match="no OneSided database given, and the mars table "
                                         "given was " + points):
        race_probabilities(race(y, x), rules=EXTENDED, tables=mars)
    with pytest.raises(ValueError, match=points):
        race_probabilities(race(y, x), rules=EXTENDED, tables=[mars], method="exact")
    o = race_probabilities(race(y, x), rules=EXTENDED, tables=[mars, one])
    assert o.method == "one_sided" and re.search(points, o.extra["note"])
    o = race_probabilities(race(x, [1, 1, 1, 0, 0, 0]), tables=[mars, one])
    assert "covers 15 checkers against at most 2, this race has 15 against 3" \
        in o.extra["note"]


def test_the_note_of_a_cube_game_names_the_tables_of_its_points():
    """Under cube rules every win scores 1, so the default tables (classic points) do not
    serve a race of 15 checkers; the note had said to build the default mars table, which
    changed nothing.  It names the build for these points, and that build serves."""
    cube = Rules(cube="geometric")
    x, y = [0, 0, 1, 3, 5, 6], [0, 1, 1, 0, 0, 0]
    for f in glob.glob(os.path.join(bo.data_dir(), "bearoff-mars-15x2-oin1-mars1*")):
        datadir._CACHE.pop(f, None)
        os.remove(f)
    o = race_probabilities(race(y, x), rules=cube)
    assert o.method == "one_sided"
    assert ("for these rules' points (oin 1, home mars 1)" in o.extra["note"]
            and "--mars 2 --rules 'cube=geometric'" in o.extra["note"])
    table = bo.mars_table(2, cube)
    o = race_probabilities(race(y, x), rules=cube)
    assert o.method == "two_sided" and o.extra["mars_points"] == (1.0, 1.0)
    assert (o.p_win, o.p_mars_win, o.p_mars_loss) == table.probabilities(y, x)
    assert o.equity == pytest.approx(o.p_win - o.p_lose, abs=1e-12)
    # beyond the two-sided table: the complete table of these points
    nine = race([2, 2, 2, 1, 1, 1], [1, 2, 2, 2, 1, 1])
    note = race_probabilities(nine, rules=cube).extra["note"]
    assert "--two-sided 15 --rules 'cube=geometric'" in note
    assert "--rules" not in race_probabilities(nine).extra["note"]


def test_the_note_points_to_the_documentation_not_to_a_file_of_the_source():
    """The note's pointer to the tables' build times and sizes named
    ``benchmarks/RESULTS.md``, a file of the source repository that an installed package
    does not have; it names the documentation's page of benchmark figures."""
    rules = Rules(mars_points=3)                        # points no test builds a table for
    x, y = [0, 0, 1, 3, 5, 6], [0, 1, 1, 0, 0, 0]
    nine = race([2, 2, 2, 1, 1, 1], [1, 2, 2, 2, 1, 1])
    for o in (race_probabilities(race(y, x), rules=rules), race_probabilities(nine)):
        note = o.extra["note"]
        assert o.method == "one_sided" and note.startswith("approximate: ")
        assert "RESULTS.md" not in note and "benchmark figures" in note, note


def test_a_two_sided_table_alone_under_draw_rule_says_why_it_is_not_used():
    """It said "the two-sided one does not cover this race" of a race it covers: under
    ``draw_rule`` the race is the one-sided approximation's."""
    me, you = np.zeros(24, int), np.zeros(24, int)
    me[[21, 23]] = 1
    you[[22, 23]] = 1
    pos = Position(me, you)
    two = bo.two_sided(3)
    assert race_probabilities(pos, tables=[two]).method == "two_sided"
    with pytest.raises(ValueError, match=r"no OneSided database given, and under draw_rule "
                       r"the race is the one-sided approximation's"):
        race_probabilities(pos, rules="draw_rule=true", tables=[two])


def test_an_exact_race_of_15_against_15_names_the_table_that_serves_it():
    """Forcing the exact method on a race of 15 checkers against 15 without a table for
    the rules' points told the user to build a MarsTable of ``max_checkers >= 15``, which
    does not exist (a mars table holds 15 checkers against at most 14); the error names
    the complete two-sided table of those points, and for fewer checkers both builds."""
    full = [3, 3, 3, 2, 2, 2]
    with pytest.raises(ValueError, match=r"method='exact': the sides have 15 and 15 "
                       r"checkers, no exact table for these points covers it \(the "
                       r"complete two-sided table for these rules' points \(oin 1, home "
                       r"mars 4\), nardy-fast bearoff build --two-sided 15 --rules "
                       r"'scoring=extended'\)") as err:
        race_probabilities(race(full, full), rules=EXTENDED, method="exact")
    assert "max_checkers >= 15" not in str(err.value)
    with pytest.raises(ValueError, match=r"no mars table for these points covers it "
                       r"\(MarsTable.build with these rules and max_checkers >= 14, or the "
                       r"complete two-sided table for these rules' points"):
        race_probabilities(race(full, [3, 3, 3, 2, 2, 1]), rules=EXTENDED, method="exact")


def test_a_one_sided_value_asked_for_has_no_note_to_build_a_table(one):
    """``method="one_sided"`` (or the tables given) on a race an exact table covers said
    "approximate: no exact table covers the race; build the complete two-sided table", of
    a race the two-sided table covers and that no build would change; the note, what
    would make the value exact, is now left for values the caller did not choose."""
    pos = race([0, 1, 0, 1, 0, 1], [1, 0, 0, 1, 0, 0])
    assert race_probabilities(pos).method == "two_sided"
    for o in (race_probabilities(pos, method="one_sided"),
              race_probabilities(pos, tables=one),
              race_probabilities(race([0, 0, 0, 0, 0, 15], [1, 1, 0, 0, 0, 0]),
                                 method="one_sided")):
        assert o.method == "one_sided" and "note" not in o.extra
    nine = race([2, 2, 2, 1, 1, 1], [1, 2, 2, 2, 1, 1])   # beyond the table of 8: the note
    assert "--two-sided 15" in race_probabilities(nine).extra["note"]
