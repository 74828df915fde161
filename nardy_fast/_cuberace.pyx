"""Exact cubeful bear-off races (rule book section 7a), in C.

With the cube a game is won or lost at the stake (no mars, no oin), so in a race of both
homes the only thing that matters is who finishes first, and the money equity of the side
on roll, per unit of the current stake, depends only on the two boards, the cube state and
(arithmetic stakes) the stake.  The tables hold ``R[x, y, k]``: the equity of the side on
roll (board index ``x``) against ``y`` when it rolls now without raising, cube state ``k``
(``_cuberace.pxd``); the equity before the cube action follows by ``raise_value``.

Recursion, per unit of the current stake (``f`` runs over the boards a legal move of roll
``r`` can leave, ``p_r`` the roll's probability)::

    R[x, y, k] = sum_r p_r max_f V_k(f, y),   V_k(0, y) = +1 (the mover finishes: it wins)
    V_centre(f, y)   = -raise_value(R[y, f, centre], N[y, f, opponent])
    V_mover(f, y)    = -R[y, f, opponent]      (the opponent, now on roll, cannot raise)
    V_opponent(f, y) = -raise_value(R[y, f, mover], N[y, f, opponent])
    V_dead(f, y)     = -R[y, f, dead]

``N`` is the table of the next stake: the same table for the geometric cube (its values
per unit stake do not depend on the stake), the next level's for arithmetic stakes.  Each
side picks, for each roll and cube state, the move best for its own cubeful equity.
Pairs are solved in shells ``s = max(x, y)``: row ``(s, y < s)`` then column ``(x <= s,
s)``; every value read is of an earlier shell or of the row just made (moves lead to
smaller indices).
"""
from libc.stdint cimport uint8_t, int32_t, int64_t
from libc.math cimport INFINITY

import numpy as np

from nardy_fast._bearoff cimport board6_from_index, roll_dice, roll_finals, N_ROLLS
from nardy_fast._cuberace cimport (raise_value, CUBE_CENTRE, CUBE_MOVER, CUBE_OPPONENT,
                                   CUBE_DEAD, N_CUBE_STATES)

cdef enum:
    ROLL_FINALS_CAP = 1400   # distinct results of one roll (_bearoff.roll_finals)


ctypedef struct level_t:
    Py_ssize_t m             # boards
    double* r                # this stake's table (m, m, 4), filled shell by shell
    const double* nxt        # the next stake's table (the same as r for geometric stakes)
    const double* nxt2       # the stake after that (beaver), or NULL
    double ratio             # next stake / this stake
    double ratio2            # the stake after that / this stake
    int beaver               # 1: the taker may raise at once (nxt2 not NULL)
    int can_raise            # 0: the stake cap: no raise, every state is dead
    const int64_t* fstart    # finals of (x, r): flist[fstart[x * 21 + r] : ... + 1]
    const int32_t* flist
    double p[N_ROLLS]        # roll probabilities


cdef void solve_pair(level_t* t, Py_ssize_t x, Py_ssize_t y) noexcept nogil:
    """R[x, y, :] from the entries (y, f) of the finals f of x."""
    cdef Py_ssize_t m = t.m, o
    cdef int64_t e, lo, hi
    cdef int r, k
    cdef int32_t f
    cdef double acc[N_CUBE_STATES]
    cdef double best[N_CUBE_STATES]
    cdef double v[N_CUBE_STATES]
    cdef double nu, nu2
    cdef const double* src
    for k in range(N_CUBE_STATES):
        acc[k] = 0.0
    for r in range(N_ROLLS):
        for k in range(N_CUBE_STATES):
            best[k] = -INFINITY
        lo = t.fstart[x * N_ROLLS + r]
        hi = t.fstart[x * N_ROLLS + r + 1]
        for e in range(lo, hi):
            f = t.flist[e]
            if f == 0:
                for k in range(N_CUBE_STATES):
                    v[k] = 1.0
            else:
                o = (y * m + f) * N_CUBE_STATES
                src = t.r + o
                if t.can_raise:
                    nu = t.nxt[o + CUBE_OPPONENT]
                    nu2 = t.nxt2[o + CUBE_OPPONENT] if t.beaver else 0.0
                    v[CUBE_CENTRE] = -raise_value(src[CUBE_CENTRE], nu, t.ratio, t.beaver,
                                                  nu2, t.ratio2)
                    v[CUBE_OPPONENT] = -raise_value(src[CUBE_MOVER], nu, t.ratio, t.beaver,
                                                    nu2, t.ratio2)
                else:
                    v[CUBE_CENTRE] = -src[CUBE_CENTRE]
                    v[CUBE_OPPONENT] = -src[CUBE_MOVER]
                v[CUBE_MOVER] = -src[CUBE_OPPONENT]
                v[CUBE_DEAD] = -src[CUBE_DEAD]
            for k in range(N_CUBE_STATES):
                if v[k] > best[k]:
                    best[k] = v[k]
        for k in range(N_CUBE_STATES):
            acc[k] += t.p[r] * best[k]
    o = (x * m + y) * N_CUBE_STATES
    for k in range(N_CUBE_STATES):
        t.r[o + k] = acc[k]


cdef void solve_shells(level_t* t, Py_ssize_t start, Py_ssize_t stop) noexcept nogil:
    """Shells start .. stop - 1 (start >= 1): row (s, y < s), then column (x <= s, s)."""
    cdef Py_ssize_t s, x, y
    for s in range(start, stop):
        for y in range(1, s):
            solve_pair(t, s, y)
        for x in range(1, s + 1):
            solve_pair(t, x, s)


cdef void fill_edges(double* r, Py_ssize_t m) noexcept nogil:
    """Row 0 (the side on roll has finished): +1; column 0 (the opponent has): -1."""
    cdef Py_ssize_t i
    cdef int k
    for k in range(N_CUBE_STATES):
        r[k] = 0.0
        for i in range(1, m):
            r[i * N_CUBE_STATES + k] = 1.0
            r[i * m * N_CUBE_STATES + k] = -1.0


def final_lists(int max_checkers):
    """The distinct results of every roll from every board of at most ``max_checkers``.

    Returns
    -------
    fstart : ndarray of int64, shape (m * 21 + 1,)
    flist : ndarray of int32
        The results of roll ``r`` (``_bearoff.roll_dice`` order) from board ``x`` are
        ``flist[fstart[x * 21 + r] : fstart[x * 21 + r + 1]]``.
    """
    if not 0 <= max_checkers <= 15:
        raise ValueError(f"max_checkers={max_checkers}: must be 0..15")
    from math import comb
    cdef Py_ssize_t m = comb(max_checkers + 6, 6), x, n, i, total
    cdef int r, d1, d2, fill
    cdef uint8_t c[6]
    cdef int32_t buf[ROLL_FINALS_CAP]
    fstart = np.zeros(m * N_ROLLS + 1, dtype=np.int64)
    stamp = np.full(m, -1, dtype=np.int32)
    cdef int64_t[::1] fs = fstart
    cdef int32_t[::1] st = stamp
    cdef int32_t[::1] fl
    flist = None
    for fill in range(2):                   # count, then fill
        if fill:
            flist = np.empty(fs[m * N_ROLLS], dtype=np.int32)
            fl = flist
            stamp[:] = -1
        with nogil:
            total = 0
            for x in range(m):
                board6_from_index(x, c)
                for r in range(N_ROLLS):
                    roll_dice(r, &d1, &d2)
                    n = roll_finals(c, d1, d2, buf, &st[0], <int32_t>(x * N_ROLLS + r))
                    if fill:
                        for i in range(n):
                            fl[total + i] = buf[i]
                    total += n
                    fs[x * N_ROLLS + r + 1] = total
    return fstart, flist


def solve_level(const int64_t[::1] fstart, const int32_t[::1] flist, double[:, :, ::1] table,
                next_table=None, next2_table=None, double ratio=2.0, double ratio2=4.0,
                bint can_raise=True, Py_ssize_t start=1, Py_ssize_t stop=-1):
    """Fill shells ``start .. stop - 1`` of ``table`` (float64 (m, m, 4), see
    ``_cuberace.pxd``) for one stake; releases the GIL.

    ``next_table``: the next stake's table (None: ``table`` itself, the geometric cube),
    ``ratio`` its stake over this one; ``next2_table`` (with ``ratio2``): the stake after
    it, for the beaver (None: no beaver); ``can_raise=False``: the stake cap (every state
    is dead).  Shells are solved in order; the edges are filled when ``start`` is 1.
    """
    cdef Py_ssize_t m = table.shape[0]
    if table.shape[1] != m or table.shape[2] != N_CUBE_STATES:
        raise ValueError(f"table: expected shape (m, m, 4), got ({table.shape[0]}, {table.shape[1]}, {table.shape[2]})")
    if fstart.shape[0] != m * N_ROLLS + 1:
        raise ValueError(f"fstart: expected {m * N_ROLLS + 1} entries for {m} boards, got "
                         f"{fstart.shape[0]}")
    if fstart[m * N_ROLLS] != flist.shape[0]:
        raise ValueError("flist: its length does not match fstart")
    cdef double[:, :, ::1] nxt = table if next_table is None else next_table
    cdef double[:, :, ::1] nxt2
    if nxt.shape[0] != m or nxt.shape[1] != m or nxt.shape[2] != N_CUBE_STATES:
        raise ValueError("next_table: expected the shape of table")
    cdef level_t t
    cdef int r, d1, d2
    t.m = m
    t.r = &table[0, 0, 0]
    t.nxt = &nxt[0, 0, 0]
    t.nxt2 = NULL
    t.beaver = 0
    if next2_table is not None:
        nxt2 = next2_table
        if nxt2.shape[0] != m or nxt2.shape[1] != m or nxt2.shape[2] != N_CUBE_STATES:
            raise ValueError("next2_table: expected the shape of table")
        t.nxt2 = &nxt2[0, 0, 0]
        t.beaver = 1
    t.ratio = ratio
    t.ratio2 = ratio2
    t.can_raise = 1 if can_raise else 0
    t.fstart = &fstart[0]
    t.flist = &flist[0] if flist.shape[0] else NULL
    for r in range(N_ROLLS):
        t.p[r] = roll_dice(r, &d1, &d2)
    if stop < 0 or stop > m:
        stop = m
    if start < 1:
        start = 1
    with nogil:
        if start == 1:
            fill_edges(t.r, m)
        solve_shells(&t, start, stop)
