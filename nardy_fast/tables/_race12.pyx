"""Queries of the no-contact race database in C (``_race12.pxd``): the board index, the
CDF windows, and the convolution of two sides' distributions (``race12_outcome``).

``Race12Tables`` owns the arrays of a ``race12.Race12`` and fills the ``race12_t`` that C
code (the search's leaves, the rollout's truncation) reads without the GIL.
"""
from libc.stdint cimport uint8_t, uint16_t, uint32_t, int64_t

import numpy as np

from nardy_fast.tables._board6 cimport MAX_BEAROFF

__all__ = ["Race12Tables", "indices_of"]


cdef inline double cdf_at(const r12win_t* w, Py_ssize_t i, int t) noexcept nogil:
    """F(t) = P(T <= t) of board i."""
    cdef int j = t - w.lo[i]
    if j < 0:
        return 0.0
    if j >= w.n[i]:
        return 1.0
    return w.data[w.start[i] + j] * (1.0 / R12_SCALE)


cdef inline double beats(const r12win_t* wa, Py_ssize_t a, const r12win_t* wb,
                         Py_ssize_t b, int shift) noexcept nogil:
    """P(Tb >= Ta + shift) for independent Ta (board a of wa), Tb (board b of wb)."""
    cdef int t, top = wa.lo[a] + wa.n[a]
    cdef double s = 0.0, prev = 0.0, f
    for t in range(wa.lo[a], top + 1):
        f = cdf_at(wa, a, t)
        s += (f - prev) * (1.0 - cdf_at(wb, b, t + shift - 1))
        prev = f
    return s


cdef inline double ties(const r12win_t* w, Py_ssize_t a, Py_ssize_t b, int shift) noexcept nogil:
    """P(Ta == Tb + shift)."""
    cdef int t
    cdef double s = 0.0
    for t in range(w.lo[a], w.lo[a] + w.n[a] + 1):
        s += ((cdf_at(w, a, t) - cdf_at(w, a, t - 1))
              * (cdf_at(w, b, t - shift) - cdf_at(w, b, t - shift - 1)))
    return s


cdef void race12_outcome(const race12_t* t, const uint8_t* x, const uint8_t* y,
                         int draw_rule, int x_first, double* out) noexcept nogil:
    """out = (win, mars win, mars loss, draw, home mars win, home mars loss): the side on
    roll (x) wins iff Ty >= Tx + sw, loses iff Tx >= Ty + sl; it wins a mars iff also Fy
    >= Tx + sw (y has none off when x finishes), a home mars iff in addition Hy < Tx + sw
    (y is all home by then).  sw = 0, sl = 1; with draw_rule sw = 1 when x moved first
    in the game, else sl = 2 (race.py explains the last turn)."""
    cdef Py_ssize_t a = r12_index(&t.ix, x), b = r12_index(&t.ix, y)
    cdef int sw = 0, sl = 1
    cdef double win, lose, mw, ml
    if draw_rule:
        if x_first:
            sw = 1
        else:
            sl = 2
    win = beats(&t.turns, a, &t.turns, b, sw)
    lose = beats(&t.turns, b, &t.turns, a, sl)
    mw = beats(&t.turns, a, &t.first, b, sw)
    ml = beats(&t.turns, b, &t.first, a, sl)
    out[0] = win
    out[1] = mw if mw < win else win
    out[2] = ml if ml < lose else lose
    out[3] = 0.0
    if draw_rule:
        # x first: both finish on the same turn; else x (Black) needs its last turn
        out[3] = ties(&t.turns, a, b, 0) if x_first else ties(&t.turns, a, b, 1)
    # home mars: the loser's first-off time is past and its all-home time is not
    out[4] = out[1] - beats(&t.turns, a, &t.home, b, sw)
    out[5] = out[2] - beats(&t.turns, b, &t.home, a, sl)
    out[4] = 0.0 if out[4] < 0.0 else out[4]
    out[5] = 0.0 if out[5] < 0.0 else out[5]


cdef double race12_plies(const race12_t* t, const uint8_t* x, const uint8_t* y, int a,
                         int b) noexcept nogil:
    cdef Py_ssize_t i = r12_index(&t.ix, x), j = r12_index(&t.ix, y)
    cdef const r12win_t* w = &t.turns
    cdef int u, top = max(w.lo[i] + w.n[i], w.lo[j] + w.n[j]) + 2
    cdef double px, py, plies = 0.0
    for u in range(1, top):
        px = cdf_at(w, i, u) - cdf_at(w, i, u - 1)
        py = cdf_at(w, j, u) - cdf_at(w, j, u - 1)
        plies += px * (1.0 - cdf_at(w, j, u - 1 + a)) * (2 * u - 1 + a)
        plies += py * (1.0 - cdf_at(w, i, u + b)) * (2 * u + b)
        if a:
            plies += px * py * (2 * u)                   # draw: Black's last turn
        elif b:
            plies += py * (cdf_at(w, i, u + 1) - cdf_at(w, i, u)) * (2 * u + 1)
    return plies


cdef bint race12_covers(const race12_t* t, const uint8_t* me, const uint8_t* opp) noexcept nogil:
    cdef int i, na = 0, nb = 0
    for i in range(24 - t.ix.points):
        if me[i] or opp[i]:
            return False
    for i in range(24):
        na += me[i]
        nb += opp[i]
    return 0 < na <= t.ix.max_checkers and 0 < nb <= t.ix.max_checkers


cdef r12win_t _window(dict arrays, str name, Py_ssize_t m) except *:
    cdef r12win_t w
    cdef const uint8_t[::1] lo = arrays[name + "_lo"]
    cdef const uint8_t[::1] n = arrays[name + "_n"]
    cdef const uint32_t[::1] start = arrays[name + "_start"]
    cdef const uint16_t[::1] data = arrays[name + "_cdf"]
    if lo.shape[0] != m or n.shape[0] != m or start.shape[0] != m or data.shape[0] < 1:
        raise ValueError(f"{name}: window arrays of {m} boards expected")
    w.lo, w.n, w.start, w.data = &lo[0], &n[0], &start[0], &data[0]
    return w


cdef class Race12Tables:
    """The C view of a race database's arrays (``race12.Race12.arrays``), kept alive here."""

    def __init__(self, dict arrays, int points, int max_checkers):
        cdef const int64_t[::1] off = arrays["offset"]
        m = int(off[off.shape[0] - 1])
        self.arrays = arrays
        self.points, self.max_checkers = points, max_checkers
        self.t.ix.points, self.t.ix.max_checkers, self.t.ix.offset = points, max_checkers, &off[0]
        self.t.turns = _window(arrays, "turns", m)
        self.t.first = _window(arrays, "first", m)
        self.t.home = _window(arrays, "home", m)

    cdef const race12_t* c_tables(self):
        return &self.t

    def outcome(self, const uint8_t[::1] me, const uint8_t[::1] opp, draw_rule=False,
                x_first=False):
        """``race12_outcome`` of two 24-point boards (each in its own numbering; checked by
        the caller to be covered): a tuple of six floats."""
        cdef uint8_t a[R12_POINTS]
        cdef uint8_t b[R12_POINTS]
        cdef double out[6]
        cdef int dr = bool(draw_rule), xf = bool(x_first)
        if not race12_covers(&self.t, &me[0], &opp[0]):
            raise ValueError("not a race this database covers")
        race12_board(&me[0], a)
        race12_board(&opp[0], b)
        with nogil:
            race12_outcome(&self.t, a, b, dr, xf, out)
        return tuple(out[k] for k in range(6))


def indices_of(const int64_t[::1] offset, int points, const uint8_t[:, ::1] boards):
    """Indices of an (n, 12) stack of validated race boards (c[i]: distance i + 1)."""
    cdef r12index_t ix
    cdef Py_ssize_t i, n = boards.shape[0]
    ix.points, ix.max_checkers, ix.offset = points, MAX_BEAROFF, &offset[0]
    out = np.empty(n, dtype=np.intp)
    cdef Py_ssize_t[::1] o = out
    with nogil:
        for i in range(n):
            o[i] = r12_index(&ix, &boards[i, 0])
    return out
