"""The move chosen at depth, against a Python expectimax.

The expectimax below is written from the search's documented contract (``_search.pyx``,
README "Search"), on the evaluator's public 0-ply values (``Evaluator.probabilities``) and
the move generator (``successors``); nothing of ``_search`` is used:

- a result that bears off the mover's last checker is a win, scored on the loser's board
  (rule book section 7: oin / mars / koks / home mars);
- any other result is valued at 0-ply from the other side's view and flipped;
- ``value(me, opp, p)`` for ``p >= 1`` is the mean over the 21 rolls (1/36 a double, 2/36
  the others) of the value after ``me``'s best move for the roll, moves judged at
  ``p - 1`` plies;
- the move filter is modelled, not avoided: when a roll's moves are judged at ``q >= 1``
  plies they are ranked at 0-ply and only the best ``keep`` are searched (``keep = 0``:
  all); ``hint`` ranks every move at 0-ply and re-values the best ``keep``.  The tests run
  with the evaluator's default ``keep = 4`` and, at 1-ply, with ``keep = 0`` (no filter);
- moves are compared by equity under the rules' points, ties to the lexicographically
  smallest resulting board.

The C search evaluates a roll's candidates incrementally (``net_eval_many``) and the
evaluator one board at a time, so values agree to float32 rounding (1e-6), not bit for bit.
A choice is therefore checked as: the C choice is worth, by the Python expectimax, at least
the Python best minus 1e-5 (an exact tie of two moves is then no failure, a wrong choice
is); and the moves agree exactly in all but near-ties.
"""
import math

import numpy as np
import pytest

import nardy_fast as nf
from nardy_fast.engine.evaluation.evaluator import Evaluator

from helpers import flip

ROLLS = [(d1, d2) for d1 in range(1, 7) for d2 in range(d1, 7)]
TOL = 1e-5


def win_vector(loser, rules):
    """Seven probabilities of a game just won over ``loser`` (rule book section 7)."""
    loser = np.asarray(loser)
    v = np.zeros(7)
    v[0] = 1.0
    if loser.sum() == 15:                      # none off: a mars of some kind
        v[1] = 1.0
        if loser[:6].any():
            v[2] = 1.0                         # koks: a checker on points 1-6
        elif loser[18:].sum() == 15:
            v[3] = 1.0                         # home mars: all 15 home
    return v


def equity(v, rules):
    """Points of the side on roll: oin / mars / koks / home mars won and lost."""
    oin, mars = rules.points("oin"), rules.points("mars")
    koks, hm = rules.points("koks"), rules.points("home_mars")
    w, mw, kw, hw, ml, kl, hl = v
    return ((w - mw) * oin + (mw - kw - hw) * mars + kw * koks + hw * hm
            - ((1 - w) - ml) * oin - (ml - kl - hl) * mars - kl * koks - hl * hm)


class Expectimax:
    """n-ply values and choices from the evaluator's 0-ply values (module docstring)."""

    def __init__(self, ev, keep, window=0.0):
        self.ev, self.rules, self.keep, self.window = ev, ev.rules, keep, window
        self.cache = {}

    def after(self, me, opp, cands):
        """0-ply values (mover's view) of the results ``cands`` of me's roll."""
        out = [None] * len(cands)
        live = [k for k, c in enumerate(cands) if c.any()]
        for k in range(len(cands)):
            if k not in live:
                out[k] = win_vector(opp, self.rules)
        for k, v in zip(live, self.leaves_of(opp, [cands[k] for k in live])):
            out[k] = v
        return out

    def leaves_of(self, opp, cands):
        """Values (mover's view) of the positions (opp on roll, cand)."""
        keys = [bytes(opp) + bytes(c) for c in cands]
        todo = [k for k in dict.fromkeys(keys) if k not in self.cache]
        if todo:
            boards = np.frombuffer(b"".join(todo), np.uint8).reshape(-1, 2, 24)
            vals, _ = self.ev.probabilities(boards, plies=0)
            self.cache.update(zip(todo, vals))
        return [flip(self.cache[k]) for k in keys]

    def ranked(self, me, opp, d1, d2):
        """The roll's results with their 0-ply values, best first (equity, then board)."""
        cands = nf.successors(me, opp, d1, d2, self.rules)
        vals = self.after(me, opp, cands)
        order = sorted(range(len(cands)),
                       key=lambda k: (-equity(vals[k], self.rules), tuple(cands[k])))
        return cands, vals, order

    def deep(self, opp, cand, plies):
        """Value (mover's view) of result ``cand`` searched ``plies`` deep."""
        if not cand.any():
            return win_vector(opp, self.rules)
        return flip(self.value(opp, cand, plies))

    def choose(self, me, opp, d1, d2, plies):
        """(index into successors, value) of me's move, judged at ``plies``."""
        cands, vals, order = self.ranked(me, opp, d1, d2)
        if plies == 0:
            return order[0], vals[order[0]]
        top = order if not self.keep else order[:self.keep]
        if self.window:         # rollouts: only moves within ``window`` points of the best
            best = equity(vals[order[0]], self.rules)
            top = [k for k in top if equity(vals[k], self.rules) >= best - self.window]
        scored = [(k, self.deep(opp, cands[k], plies)) for k in top]
        k, v = min(scored, key=lambda kv: (-equity(kv[1], self.rules), tuple(cands[kv[0]])))
        return k, v

    def value(self, me, opp, plies):
        if plies == 0:
            return flip(self.leaves_of(me, [opp])[0])
        total = np.zeros(7)
        for d1, d2 in ROLLS:
            total += (1 if d1 == d2 else 2) / 36 * self.choose(me, opp, d1, d2, plies - 1)[1]
        return total


def sample_positions(n, seed):
    """Seeded middle-game positions (contact, neither side home) with a roll each: games
    of random moves from the start, 12..50 plies long."""
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < n:
        pos = nf.Position.initial()
        for _ in range(int(rng.integers(12, 50))):
            d = tuple(int(x) for x in rng.integers(1, 7, 2))
            moves = pos.legal_moves(d)
            pos = pos.play(moves[int(rng.integers(len(moves)))])
        dice = tuple(int(x) for x in rng.integers(1, 7, 2))
        if (pos.is_contact() and pos.mover[:18].any() and pos.opponent[:18].any()
                and len(pos.legal_moves(dice)) >= 6):
            out.append((pos, dice))
    return out


def board_of(pos_id):
    """The mover's board after a move, from the hint's position ID (the opponent on roll)."""
    return tuple(int(x) for x in nf.Position.from_id(pos_id).opponent)


def check_hint(ev, em, pos, dice, plies):
    """The hint's depth values and its best move against the expectimax; returns whether
    the choice agreed exactly."""
    me, opp = pos.mover, pos.opponent
    cands, vals, order = em.ranked(me, opp, *dice)
    index = {tuple(int(x) for x in c): k for k, c in enumerate(cands)}
    h = ev.hint(pos, dice, plies=plies)
    assert len(h) == len(cands)
    deep = {}
    for row in h.itertuples():
        k = index[board_of(row.position)]
        if row.plies == plies:          # a re-valued move: its value at depth
            v = em.deep(opp, cands[k], plies)
            deep[k] = v
            assert row.equity == pytest.approx(equity(v, em.rules), abs=TOL)
        else:                           # filtered out: its 0-ply value
            assert row.plies == 0
            assert row.equity == pytest.approx(equity(vals[k], em.rules), abs=TOL)
    n_deep = len(cands) if not em.keep else min(em.keep, len(cands))
    assert (h["plies"] == plies).sum() == n_deep
    want_k, want_v = em.choose(me, opp, *dice, plies)
    got_k = index[board_of(h["position"].iloc[0])]
    got_v = deep.get(got_k)
    if got_v is None:
        got_v = em.deep(opp, cands[got_k], plies)
    assert equity(got_v, em.rules) >= equity(want_v, em.rules) - TOL
    best = ev.best_move(pos, dice, plies=plies)
    assert tuple(best.board) == tuple(int(x) for x in cands[got_k])
    return got_k == want_k


class _Seen(Exception):
    pass


def rollout_choice(pos, dice, policy):
    """The move ``policy`` (a rollout policy of the side on roll) plays with ``dice`` from
    ``pos``, or None when it cannot be seen: a one-game rollout whose other side (a
    Python policy) stops the game the first time it is asked to choose, having seen the
    board the side on roll left.  A forced turn of the other side is played without
    asking it, and then the board seen is a later one: not a result of ``dice`` (in the
    sample's positions the side on roll cannot bear off, so every result of one roll
    moves the same pips, and a later board more), so None."""
    seen = []

    def spy(cands, opponent):
        seen.append(tuple(int(x) for x in opponent))
        raise _Seen

    with pytest.raises(_Seen):
        nf.rollout(pos, 1, policy=(policy, spy), dice=dice, seed=1, workers=1,
                   truncate=None, progress=False)
    results = {tuple(int(x) for x in c) for c in nf.successors(pos.mover, pos.opponent,
                                                               *dice)}
    return seen[0] if seen[0] in results else None


@pytest.fixture(scope="module")
def ev():
    return Evaluator.default()


@pytest.fixture(scope="module")
def sample():
    return sample_positions(10, seed=2026)


def test_zero_ply_choice_and_the_net_policy(ev, sample):
    em = Expectimax(ev, keep=ev.keep)
    for pos, dice in sample:
        cands, vals, order = em.ranked(pos.mover, pos.opponent, *dice)
        h = ev.hint(pos, dice, plies=0)
        for row in h.itertuples():
            k = next(j for j, c in enumerate(cands) if tuple(int(x) for x in c)
                     == board_of(row.position))
            assert row.equity == pytest.approx(equity(vals[k], ev.rules), abs=TOL)
        eq = [equity(v, ev.rules) for v in vals]
        got = board_of(h["position"].iloc[0])
        k = next(j for j, c in enumerate(cands) if tuple(int(x) for x in c) == got)
        assert eq[k] >= max(eq) - TOL
        # the "net" rollout policy plays the rollout net's 0-ply choice
        played = board_of(ev.rollout_evaluator().hint(pos, dice, plies=0)["position"].iloc[0])
        assert rollout_choice(pos, dice, "net") in (played, None)


def test_one_ply_choice_against_the_expectimax(ev, sample):
    """hint / best_move at 1-ply with the move filter (keep = 4), and the ``net:1``
    rollout policy's move, against the expectimax with the same filter; rollouts also
    search only the moves within ``rollout.FILTER_WINDOW`` points of the 0-ply best."""
    from nardy_fast.engine.play.rollout import FILTER_WINDOW
    em = Expectimax(ev, keep=ev.keep)
    em_rollout = Expectimax(ev.rollout_evaluator(), keep=ev.keep, window=FILTER_WINDOW)
    agree = seen = 0
    for pos, dice in sample:
        agree += check_hint(ev, em, pos, dice, 1)
        played = rollout_choice(pos, dice, "net:1")
        if played is not None:
            cands = nf.successors(pos.mover, pos.opponent, *dice)
            k, _ = em_rollout.choose(pos.mover, pos.opponent, *dice, 1)
            assert played == tuple(int(x) for x in cands[k])
            seen += 1
    assert agree >= len(sample) - 1
    assert seen >= len(sample) // 2


def test_one_ply_choice_without_the_filter(ev, sample):
    """keep = 0: every move searched at 1-ply."""
    full = Evaluator(ev.net, rules=ev.rules, keep=0)
    em = Expectimax(full, keep=0)
    agree = sum(check_hint(full, em, pos, dice, 1) for pos, dice in sample[:4])
    assert agree >= 3


def race_positions(n, seed):
    """Seeded races of both homes (3..12 checkers a side, on random home points), each
    with a roll: their leaves are the race tables' values, not the net's."""
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < n:
        boards = np.zeros((2, 24), np.uint8)
        for b in boards:
            for _ in range(int(rng.integers(3, 13))):
                b[18 + int(rng.integers(0, 6))] += 1
        dice = tuple(int(x) for x in rng.integers(1, 7, 2))
        pos = nf.Position(boards[0], boards[1])
        if len(pos.legal_moves(dice)) >= 2:
            out.append((pos, dice))
    return out


def test_one_ply_in_races_of_both_homes(ev):
    """In races of both homes every leaf is a race-table value (the search's and the
    evaluator's 0-ply values are the tables'): the 1-ply hint against the expectimax."""
    em = Expectimax(ev, keep=ev.keep)
    for pos, dice in race_positions(4, seed=9):
        check_hint(ev, em, pos, dice, 1)


def test_filter_width_changes_the_search(ev, sample):
    """keep = 1 searches only the 0-ply best: hint at 1-ply then keeps the 0-ply choice,
    and exactly one row is re-valued."""
    one = Evaluator(ev.net, rules=ev.rules, keep=1)
    em = Expectimax(one, keep=1)
    for pos, dice in sample[:3]:
        h0 = one.hint(pos, dice, plies=0)
        h1 = one.hint(pos, dice, plies=1)
        assert h1["position"].iloc[0] == h0["position"].iloc[0]
        assert (h1["plies"] == 1).sum() == 1
        check_hint(one, em, pos, dice, 1)


@pytest.mark.slow
def test_two_ply_choice_and_value_against_the_expectimax(ev, sample):
    """hint at 2-ply (filter at both levels) and the 2-ply value of a position."""
    em = Expectimax(ev, keep=ev.keep)
    agree = sum(check_hint(ev, em, pos, dice, 2) for pos, dice in sample[:2])
    assert agree >= 1
    pos = sample[0][0]
    want = equity(em.value(pos.mover, pos.opponent, 2), ev.rules)
    got = ev.evaluate(pos, plies=2).equity
    assert got == pytest.approx(want, abs=1e-4)
    assert not math.isnan(got)


def test_deep_values_do_not_depend_on_the_thread_count():
    """Positions valued at 2 plies run on several threads; each value is computed by the
    same code whichever thread takes it."""
    from nardy_fast.engine.evaluation._search import Searcher
    from nardy_fast.core.record import random_game
    ev = nf.Evaluator.default()
    boards = np.stack([random_game(seed=s, max_turns=12 + s).positions()[-1].boards
                       for s in range(5)])
    one = Searcher(ev.net, nf.Rules(), keep=2, threads=1).values(boards, 2)
    two = Searcher(ev.net, nf.Rules(), keep=2, threads=2).values(boards, 2)
    three = Searcher(ev.net, nf.Rules(), keep=2, threads=3).values(boards[:2], 2)
    np.testing.assert_array_equal(one, two)
    np.testing.assert_array_equal(one[:2], three)
    assert not np.array_equal(one, Searcher(ev.net, nf.Rules(), keep=2).values(boards, 0))


def test_searched_values_are_possible_distributions():
    """A value searched at 1 or 2 plies is the mean of the 21 rolls' values; added up in
    float32 it passed 1 (a sure win: P(win) 1.0000002, equity 2.0000007 above the largest
    win).  ``probabilities`` and ``evaluate_boards`` return the search's values as they
    are, so each must be a possible distribution with a possible equity."""
    ev = Evaluator.default()
    boards = np.stack([nf.Position.from_id(i).boards for i in (
        "BAAAAAAAAAAAAAAAAAAEAAAAAAAAAAAUp",       # Black bears off its last two next roll
        "WAAAAAAAQAAAAAAAAAAAAAAAAACAAEUZ3", "W7gAAAAAAAAAAAQAQAAAAAAAAAAAAAAAA")])
    for plies in (1, 2):
        vals, _ = ev.probabilities(boards, plies=plies)
        w, mw, kw, hw, ml, kl, hl = vals.T
        assert ((vals >= 0) & (vals <= 1)).all(), vals
        assert (mw <= w).all() and (kw + hw <= mw).all(), vals
        assert (ml <= 1 - w).all() and (kl + hl <= ml).all(), vals
        eq = ev.evaluate_boards(boards, plies=plies)
        assert (np.abs(eq) <= 2).all(), eq
