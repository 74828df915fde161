"""Plain-Python memoised recursions over pairs of bear-off boards, from the rule book:
references for the two-sided tables (tests/tables/test_bearoff_complete.py and
benchmarks/bench_twosided.py ``--check`` import them from here).

Its own move generator (``steps``, ``finals``: rule book section 6), float64, one pair at
a time; only the order of tied finals borrows the package's board index (the tables break
ties of the mars chances towards the smaller final index, so the reference must too).

A board is 6 counts, ``board[i]`` the checkers on the point that die ``i + 1`` bears off
(``bearoff`` convention).

- ``cubeless(T, lam)``: ``val(a, b) = (v, P(win), P(mars win), P(mars loss))`` of the side
  on roll, both sides maximising ``v = P(win) + lam (P(mars win) - P(mars loss))``; a side
  of ``T`` checkers (all of them) that loses before bearing one off is marsed.
- ``cubeful()``: ``val(a, b) = (centre, mover, opponent)``: the money equity per unit
  stake of the side on roll when it rolls now without doubling, for the centred cube, the
  cube it owns and the cube its opponent owns (geometric cube, no beaver, no mars: rule
  book section 7a), each side maximising its own cubeful equity; a side that may double
  does so when ``min(2 x take value, 1)`` beats not doubling, and the taker passes when
  the take is worth less than -1.
"""
from __future__ import annotations

import functools

from nardy_fast.tables import bearoff as bo

ROLLS = [(a, b, (1 if a == b else 2) / 36) for a in range(1, 7) for b in range(a, 7)]


def steps(board, d):
    """Boards after one step of die d."""
    out = set()
    if board[d - 1]:
        out.add(board[:d - 1] + (board[d - 1] - 1,) + board[d:])
    for i in range(d, 6):
        if board[i]:
            c = list(board)
            c[i] -= 1
            c[i - d] += 1
            out.add(tuple(c))
    if not out:                                        # nothing on d or above: highest
        for i in range(d - 2, -1, -1):
            if board[i]:
                out.add(board[:i] + (board[i] - 1,) + board[i + 1:])
                break
    return out


def finals(board, a, b):
    """The boards a roll (a, b) can leave (every die used while checkers are left)."""
    res = set()
    for seq in ([a] * 4,) if a == b else ([a, b], [b, a]):
        cur = {board}
        for d in seq:
            cur = set().union(*(steps(x, d) if any(x) else {x} for x in cur))
        res |= cur
    return res


def _index(board):
    return bo.index_of(list(board))


def cubeless(T=15, lam=0.5):
    """The cubeless recursion with mars (module docstring); ties to the smaller final."""
    @functools.lru_cache(maxsize=None)
    def val(a, b):
        tot = [0.0, 0.0, 0.0, 0.0]
        for d1, d2, p in ROLLS:
            best = None
            for f in sorted(finals(a, d1, d2), key=_index):
                if not any(f):
                    m = float(sum(b) == T)
                    cand = (1.0 + lam * m, 1.0, m, 0.0)
                else:
                    ov, ow, omw, oml = val(b, f)
                    cand = (1.0 - ov, 1.0 - ow, oml, omw)
                if best is None or cand[0] > best[0]:
                    best = cand
            tot = [t + p * c for t, c in zip(tot, best)]
        return tuple(tot)
    return val


def cubeful():
    """The cubeful recursion (module docstring)."""
    @functools.lru_cache(maxsize=None)
    def val(a, b):
        tot = [0.0, 0.0, 0.0]
        for d1, d2, p in ROLLS:
            best = [-2.0, -2.0, -2.0]
            for f in finals(a, d1, d2):
                if not any(f):
                    cand = (1.0, 1.0, 1.0)               # borne off: wins the stake
                else:
                    c, m, o = val(b, f)                  # the opponent on roll
                    take = min(2.0 * o, 1.0)             # it doubles: we take or pass
                    cand = (-max(c, take), -o, -max(m, take))
                best = [max(x, y) for x, y in zip(best, cand)]
            tot = [t + p * x for t, x in zip(tot, best)]
        return tuple(tot)
    return val
