"""The exact one-sided bear-off solver (``bearoff.OneSided``), in C.

Optimal play without enumerating whole moves: the best move of a roll minimises a value
over the boards a move can leave, and a move is a sequence of single steps, so the best
value is a nested minimum over steps (``_rowmin.pxd`` explains the G tables); each board
costs about 6 x 4 x (occupied points) lookups instead of one per legal move.  Ties between
equal values go to the smaller final board index, so the chosen play depends only on the
values.  Two passes: turns to bear off all, and turns to the first checker off.
"""
from libc.stdint cimport uint8_t, int32_t
from libc.string cimport memset

import numpy as np

from nardy_fast.core._dice cimport N_ROLLS, NF_ROLL_P
from nardy_fast.tables._board6 cimport (board6_from_index, n_boards, N_HOME, MAX_BEAROFF)
from nardy_fast.tables._bomoves cimport single_step_table
from nardy_fast.tables._rowmin cimport nested_minima, roll_min

__all__ = ["build_one_sided"]

cdef enum:
    T_WORK = 64              # work columns of a turn distribution (15 checkers need 31)


ctypedef struct gtab_t:
    double* v                # v[(k * 6 + d - 1) * m + x]: G_{k+1}(x, d), k = 0..2
    int32_t* f               # the final board index achieving it
    Py_ssize_t m


cdef void one_sided_pass(Py_ssize_t m, const int32_t* ss, const uint8_t* ns,
                         const uint8_t* nchk, int first_off, double* val, int32_t* fin,
                         gtab_t* g) noexcept nogil:
    """Expected own turns (first_off = 0: to bear off all; 1: until the first checker is
    off) under the play minimising it, into val[0:m]; fin[x * 21 + r] = board left by the
    best play of roll r from x."""
    cdef Py_ssize_t x
    cdef int d, r
    cdef double bv, acc
    cdef int32_t bf
    val[0] = 0.0                             # the empty board: no turns
    for r in range(N_ROLLS):
        fin[r] = 0
    for x in range(1, m):
        for d in range(6):
            nested_minima(val, g.v, g.f, m, ss, ns, d, x, x)
        acc = 0.0
        for r in range(N_ROLLS):
            bv = roll_min(g.v, g.f, m, ss + x * 36, ns + x * 6, r, &bf)
            fin[x * N_ROLLS + r] = bf
            acc += NF_ROLL_P[r] * bv
        if first_off and nchk[x] < MAX_BEAROFF:
            val[x] = 0.0
        else:
            val[x] = 1.0 + acc


cdef int distribute(Py_ssize_t m, const int32_t* fin, const uint8_t* nchk, int first_off,
                    double* dist, uint8_t* lo, uint8_t* hi) noexcept nogil:
    """dist[x * T_WORK + t]: P(exactly t turns) following fin; returns the number of
    columns needed (max t + 1), or -1 if T_WORK is too small."""
    cdef Py_ssize_t x, y
    cdef int r, t, l, h, width = 1
    cdef double p
    cdef double* row
    cdef const double* src
    for x in range(m):
        row = dist + x * T_WORK
        memset(row, 0, T_WORK * sizeof(double))
        if x == 0 or (first_off and nchk[x] < MAX_BEAROFF):
            row[0] = 1.0
            lo[x] = 0
            hi[x] = 0
            continue
        l = T_WORK
        h = 0
        for r in range(N_ROLLS):
            y = fin[x * N_ROLLS + r]
            if lo[y] + 1 < l:
                l = lo[y] + 1
            if hi[y] + 1 > h:
                h = hi[y] + 1
        if h >= T_WORK:
            return -1
        for r in range(N_ROLLS):
            y = fin[x * N_ROLLS + r]
            p = NF_ROLL_P[r]
            src = dist + y * T_WORK
            for t in range(lo[y], hi[y] + 1):
                row[t + 1] += p * src[t]
        lo[x] = <uint8_t>l
        hi[x] = <uint8_t>h
        if h + 1 > width:
            width = h + 1
    return width


def build_one_sided(int max_checkers=15):
    """Exact one-sided tables for every board of at most ``max_checkers`` checkers.

    Returns ``(turns, first_off, mean, mean_first_off)``: float64 arrays of shapes
    ``(m, T)``, ``(m, T1)``, ``(m,)``, ``(m,)`` with ``m = C(max_checkers + 6, 6)``; T and T1
    are the longest distributions plus one (the whole tail, nothing truncated).
    """
    if not 0 <= max_checkers <= MAX_BEAROFF:
        raise ValueError(f"max_checkers={max_checkers}: must be 0..15")
    cdef Py_ssize_t m = n_boards(max_checkers), x
    cdef int t_turns, t_first, pass_
    ss_a = np.zeros((m, 6, 6), dtype=np.int32)
    ns_a = np.zeros((m, 6), dtype=np.uint8)
    nchk_a = np.zeros(m, dtype=np.uint8)
    fin_a = np.zeros((2, m, N_ROLLS), dtype=np.int32)
    val_a = np.zeros((2, m), dtype=np.float64)
    gv_a = np.empty(18 * m, dtype=np.float64)
    gf_a = np.empty(18 * m, dtype=np.int32)
    dist_a = np.empty((2, m, T_WORK), dtype=np.float64)
    lo_a = np.zeros((2, m), dtype=np.uint8)
    hi_a = np.zeros((2, m), dtype=np.uint8)
    cdef int32_t[:, :, ::1] ss = ss_a
    cdef uint8_t[:, ::1] ns = ns_a
    cdef uint8_t[::1] nchk = nchk_a
    cdef int32_t[:, :, ::1] fin = fin_a
    cdef double[:, ::1] val = val_a
    cdef double[::1] gv = gv_a
    cdef int32_t[::1] gf = gf_a
    cdef double[:, :, ::1] dist = dist_a
    cdef uint8_t[:, ::1] lo = lo_a
    cdef uint8_t[:, ::1] hi = hi_a
    cdef gtab_t g
    cdef uint8_t c[N_HOME]
    g.v = &gv[0]
    g.f = &gf[0]
    g.m = m
    with nogil:
        single_step_table(m, &ss[0, 0, 0], &ns[0, 0])
        for x in range(m):
            board6_from_index(x, c)
            nchk[x] = c[0] + c[1] + c[2] + c[3] + c[4] + c[5]
        for pass_ in range(2):
            one_sided_pass(m, &ss[0, 0, 0], &ns[0, 0], &nchk[0], pass_, &val[pass_, 0],
                           &fin[pass_, 0, 0], &g)
        t_turns = distribute(m, &fin[0, 0, 0], &nchk[0], 0, &dist[0, 0, 0], &lo[0, 0],
                             &hi[0, 0])
        t_first = distribute(m, &fin[1, 0, 0], &nchk[0], 1, &dist[1, 0, 0], &lo[1, 0],
                             &hi[1, 0])
    if t_turns < 0 or t_first < 0:
        raise RuntimeError(f"a turn distribution needs more than {T_WORK} columns")
    turns = np.ascontiguousarray(dist_a[0, :, :t_turns])
    first = np.ascontiguousarray(dist_a[1, :, :t_first])
    return turns, first, val_a[0].copy(), val_a[1].copy()
