"""Slow, obviously correct bear-off race numbers for tiny races, from the rule book.

Tests only: it shares no code with the package.  Moves come from ``naive.py`` (the rule
book's move generator), every quantity from a plain recursion over the 21 rolls:

- ``mean_turns(b)``: expected own turns to bear off all of ``b`` under the play that
  minimises it (the one-sided policy);
- ``turn_distribution(b)``: P(exactly t turns) under that play; ``None`` when two best
  plays tie in mean but differ in distribution (the database may break that tie either
  way, so such boards are not used for comparisons);
- ``draw_rule_race(a, b, a_white)``: P(win), P(draw), P(lose) for the side on roll with
  ``a`` against ``b`` when both sides follow the one-sided policy and the draw rule
  applies (rule book section 7), by playing the game tree turn by turn.

A board is the 6 home counts in the owner's numbering, point 24 first (``b[0]`` is point
24, ``b[5]`` point 19), as ``bearoff.OneSided`` takes them.
"""
from __future__ import annotations

from functools import lru_cache

from naive import naive_successors

ROLLS = [(a, b) for a in range(1, 7) for b in range(a, 7)]
PROB = {r: (1 if r[0] == r[1] else 2) / 36 for r in ROLLS}
TIE = 1e-12
# the opponent: one checker on its point 19 (the mover's point 7), never in the way
_OPPONENT = tuple(1 if i == 18 else 0 for i in range(24))


def to24(b6):
    """24 counts, own numbering (idx = point - 1), of a 6-count home board."""
    b = [0] * 24
    for k, c in enumerate(b6):
        b[23 - k] = int(c)
    return b


def to6(b24):
    return tuple(int(b24[23 - k]) for k in range(6))


@lru_cache(maxsize=None)
def moves(b6, roll):
    """The distinct boards after each legal play of ``roll``."""
    return sorted({to6(s) for s in naive_successors(to24(b6), list(_OPPONENT), *roll)})


@lru_cache(maxsize=None)
def mean_turns(b6):
    if sum(b6) == 0:
        return 0.0
    return 1.0 + sum(PROB[r] * min(mean_turns(s) for s in moves(b6, r)) for r in ROLLS)


@lru_cache(maxsize=None)
def best_moves(b6, roll):
    """The plays of ``roll`` of least expected turns (more than one: a tie)."""
    ms = moves(b6, roll)
    best = min(mean_turns(s) for s in ms)
    return [s for s in ms if mean_turns(s) <= best + TIE]


@lru_cache(maxsize=None)
def turn_distribution(b6):
    """Tuple p with p[t] = P(exactly t turns), or None if ties make it ambiguous."""
    if sum(b6) == 0:
        return (1.0,)
    total = {}
    for r in ROLLS:
        dists = {turn_distribution(s) for s in best_moves(b6, r)}
        if len(dists) != 1 or None in dists:
            return None
        (d,) = dists
        for t, p in enumerate(d):
            total[t + 1] = total.get(t + 1, 0.0) + PROB[r] * p
    n = max(total) + 1
    return tuple(total.get(t, 0.0) for t in range(n))


def _play(b6, roll):
    """The one-sided policy's play (ties: any; callers use unambiguous boards)."""
    return best_moves(b6, roll)[0]


@lru_cache(maxsize=None)
def draw_rule_race(a6, b6, a_white):
    """(P(win), P(draw), P(lose)) of the side on roll (board a6) against b6 under the draw
    rule.  Rule book section 7: the side that bears off its last checker wins at once,
    except that when White finishes and Black has had one turn fewer, Black plays one
    last turn and the game is a draw if Black bears off all its checkers in it."""
    win = draw = lose = 0.0
    for r in ROLLS:
        a2 = _play(a6, r)
        if sum(a2) == 0:                     # the side on roll bears off its last checker
            if a_white:                      # White finished first: Black's last turn
                p_last = sum(PROB[r2] for r2 in ROLLS if sum(_play(b6, r2)) == 0)
                win += PROB[r] * (1 - p_last)
                draw += PROB[r] * p_last
            else:                            # Black finished: White has had its turns
                win += PROB[r] * 1.0
            continue
        w, d, l = draw_rule_race(b6, a2, not a_white)     # the opponent on roll
        win += PROB[r] * l
        draw += PROB[r] * d
        lose += PROB[r] * w
    return win, draw, lose


@lru_cache(maxsize=None)
def draw_rule_plies(a6, b6, a_white):
    """(E[plies], E[plies**2]) left in the game of ``draw_rule_race``: every turn played is
    a ply, Black's last turn (after White finishes) included."""
    m1 = m2 = 0.0
    for r in ROLLS:
        a2 = _play(a6, r)
        if sum(a2) == 0:
            k = 2 if a_white else 1              # White finishing: Black's last turn too
            m1 += PROB[r] * k
            m2 += PROB[r] * k * k
            continue
        e1, e2 = draw_rule_plies(b6, a2, not a_white)
        m1 += PROB[r] * (1 + e1)
        m2 += PROB[r] * (1 + 2 * e1 + e2)
    return m1, m2
