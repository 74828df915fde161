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
smaller indices).  The row takes the best over the final lists of each roll, for blocks of
opponent boards at once (the build keeps the table transposed, so the entries ``(y, f)``
of a block are contiguous; ``transpose_table`` restores ``[x, y]`` at the end);
the column (opponent ``s`` fixed) uses nested maxima over single steps, as the cubeless
solver does (``_twosided.pyx``): ``G_j(x, d)`` = the best over the steps ``x -> z`` of a die
``d`` of ``G_{j-1}(z, d)``, ``G_0(z) = V_k(z, s)``; a double is ``G_4``, a non-double
``(a, b)`` the better of an ``a``-step to ``G_1(., b)`` and a ``b``-step to ``G_1(., a)``.
"""
from libc.stdint cimport uint8_t, int32_t, int64_t
from libc.math cimport INFINITY
from libc.stdlib cimport malloc, free

import numpy as np

from nardy_fast.core._dice cimport roll_of, N_ROLLS
from nardy_fast.tables._board6 cimport n_boards
from nardy_fast.tables._bomoves cimport single_step_table, final_lists as c_final_lists
from nardy_fast.core._checks import check_int
from nardy_fast.tables._cuberace cimport (raise_value, CUBE_CENTRE, CUBE_MOVER, CUBE_OPPONENT, CUBE_DEAD, N_CUBE_STATES)

cdef enum:
    CHUNK = 128              # opponent boards per block of the row pass


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
    const int32_t* ss        # single steps (_bomoves.single_step_table)
    const uint8_t* ns
    double* acc              # 2 * CHUNK * 4 doubles: row chunk sums and maxima
    double* g0               # (m, 4): V_k(z, s) of the column being solved
    double* g                # (3, 6, m, 4): G_1 .. G_3 of each die
    int d1[N_ROLLS]
    int d2[N_ROLLS]
    double p[N_ROLLS]        # roll probabilities


cdef inline void keep_max(double* w, int k, double v) noexcept nogil:
    if v > w[k]:
        w[k] = v


cdef void row_chunk(level_t* t, Py_ssize_t s, Py_ssize_t y0, Py_ssize_t n, double* acc,
                    double* mx) noexcept nogil:
    """R[s, y, :] for y0 <= y < y0 + n (n <= CHUNK) from the final lists of s: for each
    final f, the entries (y, f) of the chunk are contiguous in the transposed table.
    acc, mx: CHUNK * 4 doubles each."""
    cdef Py_ssize_t m = t.m, j, n4 = n * N_CUBE_STATES
    cdef int64_t e, lo, hi
    cdef int r, win
    cdef int32_t f
    cdef const double* src
    cdef const double* nx
    cdef const double* nx2
    cdef double v, u, nu, nu2 = 0.0
    cdef double* w
    for j in range(n4):
        acc[j] = 0.0
    for r in range(N_ROLLS):
        lo = t.fstart[s * N_ROLLS + r]
        hi = t.fstart[s * N_ROLLS + r + 1]
        win = 0
        for e in range(lo, hi):
            if t.flist[e] == 0:
                win = 1                           # bears off everything: wins the stake
                break
        if win:
            for j in range(n4):
                acc[j] += t.p[r]
            continue
        for j in range(n4):
            mx[j] = -INFINITY
        for e in range(lo, hi):
            f = t.flist[e]
            src = t.r + (<Py_ssize_t>f * m + y0) * N_CUBE_STATES
            nx = t.nxt + (<Py_ssize_t>f * m + y0) * N_CUBE_STATES
            nx2 = t.nxt2 + (<Py_ssize_t>f * m + y0) * N_CUBE_STATES if t.beaver else NULL
            for j in range(n):
                w = mx + j * N_CUBE_STATES
                v = src[j * N_CUBE_STATES + CUBE_CENTRE]
                u = src[j * N_CUBE_STATES + CUBE_MOVER]
                if t.can_raise:                   # the opponent, now on roll, may raise
                    if t.beaver:
                        nu2 = nx2[j * N_CUBE_STATES + CUBE_OPPONENT]
                    nu = nx[j * N_CUBE_STATES + CUBE_OPPONENT]
                    v = raise_value(v, nu, t.ratio, t.beaver, nu2, t.ratio2)
                    u = raise_value(u, nu, t.ratio, t.beaver, nu2, t.ratio2)
                keep_max(w, CUBE_CENTRE, -v)
                keep_max(w, CUBE_OPPONENT, -u)
                keep_max(w, CUBE_MOVER, -src[j * N_CUBE_STATES + CUBE_OPPONENT])
                keep_max(w, CUBE_DEAD, -src[j * N_CUBE_STATES + CUBE_DEAD])
        for j in range(n4):
            acc[j] += t.p[r] * mx[j]
    for j in range(n):                            # transposed: entry (s, y) at [y, s]
        for r in range(N_CUBE_STATES):
            t.r[((y0 + j) * m + s) * N_CUBE_STATES + r] = acc[j * N_CUBE_STATES + r]


cdef void column_values(level_t* t, Py_ssize_t s) noexcept nogil:
    """g0[z] = V_k(z, s), z < s: the mover's value of leaving board z against s."""
    cdef Py_ssize_t m = t.m, z, o
    cdef double nu, nu2
    cdef const double* src
    cdef double* v
    cdef int k
    for k in range(N_CUBE_STATES):
        t.g0[k] = 1.0                             # the mover has finished
    for z in range(1, s):
        o = (z * m + s) * N_CUBE_STATES           # transposed: entry (s, z) at [z, s]
        src = t.r + o
        v = t.g0 + z * N_CUBE_STATES
        if t.can_raise:
            nu = t.nxt[o + CUBE_OPPONENT]
            nu2 = t.nxt2[o + CUBE_OPPONENT] if t.beaver else 0.0
            v[CUBE_CENTRE] = -raise_value(src[CUBE_CENTRE], nu, t.ratio, t.beaver, nu2,
                                          t.ratio2)
            v[CUBE_OPPONENT] = -raise_value(src[CUBE_MOVER], nu, t.ratio, t.beaver, nu2,
                                            t.ratio2)
        else:
            v[CUBE_CENTRE] = -src[CUBE_CENTRE]
            v[CUBE_OPPONENT] = -src[CUBE_MOVER]
        v[CUBE_MOVER] = -src[CUBE_OPPONENT]
        v[CUBE_DEAD] = -src[CUBE_DEAD]


cdef inline void best_step(const level_t* t, Py_ssize_t x, int d, const double* src,
                           double* best) noexcept nogil:
    """best[k] = max over the single steps x -> z of die d + 1 of src[z * 4 + k]."""
    cdef const int32_t* sx = t.ss + (x * 6 + d) * 6
    cdef int q, k
    cdef const double* v
    for k in range(N_CUBE_STATES):
        best[k] = -INFINITY
    for q in range(t.ns[x * 6 + d]):
        v = src + <Py_ssize_t>sx[q] * N_CUBE_STATES
        for k in range(N_CUBE_STATES):
            if v[k] > best[k]:
                best[k] = v[k]


cdef void solve_column(level_t* t, Py_ssize_t s) noexcept nogil:
    """R[x, s, :] for x = 1 .. s by nested maxima over single steps (module docstring)."""
    cdef Py_ssize_t m = t.m, x, z
    cdef int d, j, k, r, a, b
    cdef double best[N_CUBE_STATES]
    cdef double other[N_CUBE_STATES]
    cdef double acc[N_CUBE_STATES]
    cdef double* lvl
    column_values(t, s)
    for d in range(6):
        for j in range(3):                        # G_{j+1}(0, d) = +1: the mover finished
            lvl = t.g + ((j * 6 + d) * m) * N_CUBE_STATES
            for k in range(N_CUBE_STATES):
                lvl[k] = 1.0
        for x in range(1, s):
            for j in range(3):
                lvl = t.g + ((j * 6 + d) * m) * N_CUBE_STATES
                best_step(t, x, d, t.g0 if j == 0 else
                          t.g + (((j - 1) * 6 + d) * m) * N_CUBE_STATES, best)
                for k in range(N_CUBE_STATES):
                    lvl[x * N_CUBE_STATES + k] = best[k]
    for x in range(1, s + 1):
        for k in range(N_CUBE_STATES):
            acc[k] = 0.0
        for r in range(N_ROLLS):
            a = t.d1[r] - 1
            b = t.d2[r] - 1
            if a == b:
                best_step(t, x, a, t.g + ((12 + a) * m) * N_CUBE_STATES, best)
            else:
                best_step(t, x, a, t.g + (b * m) * N_CUBE_STATES, best)
                best_step(t, x, b, t.g + (a * m) * N_CUBE_STATES, other)
                for k in range(N_CUBE_STATES):
                    if other[k] > best[k]:
                        best[k] = other[k]
            for k in range(N_CUBE_STATES):
                acc[k] += t.p[r] * best[k]
        for k in range(N_CUBE_STATES):                # transposed: (x, s) at [s, x]
            t.r[(s * m + x) * N_CUBE_STATES + k] = acc[k]


cdef void solve_shells(level_t* t, Py_ssize_t start, Py_ssize_t stop) noexcept nogil:
    """Shells start .. stop - 1 (start >= 1): row (s, y < s), then column (x <= s, s)."""
    cdef Py_ssize_t s, y0
    for s in range(start, stop):
        y0 = 1
        while y0 < s:
            row_chunk(t, s, y0, min(<Py_ssize_t>CHUNK, s - y0), t.acc, t.acc + CHUNK * 4)
            y0 += CHUNK
        solve_column(t, s)


cdef void fill_edges(double* r, Py_ssize_t m) noexcept nogil:
    """Entries (0, y) (the side on roll has finished): +1; (x, 0) (the opponent has): -1;
    in the transposed layout of the build."""
    cdef Py_ssize_t i
    cdef int k
    for k in range(N_CUBE_STATES):
        r[k] = 0.0
        for i in range(1, m):
            r[i * N_CUBE_STATES + k] = -1.0             # (i, 0) at [0, i]
            r[i * m * N_CUBE_STATES + k] = 1.0          # (0, i) at [i, 0]


def transpose_table(double[:, :, ::1] table):
    """Swap entries [x, y, :] and [y, x, :] in place (the build layout <-> the final one)."""
    cdef Py_ssize_t m = table.shape[0], i, j, i0, j0
    cdef int k
    cdef double v
    if table.shape[1] != m or table.shape[2] != N_CUBE_STATES:
        raise ValueError("table: expected shape (m, m, 4)")
    with nogil:
        for i0 in range(0, m, 32):
            for j0 in range(i0, m, 32):
                for i in range(i0, min(i0 + 32, m)):
                    for j in range(max(j0, i + 1), min(j0 + 32, m)):
                        for k in range(N_CUBE_STATES):
                            v = table[i, j, k]
                            table[i, j, k] = table[j, i, k]
                            table[j, i, k] = v


def final_lists(max_checkers):
    """The distinct results of every roll from every board of at most ``max_checkers``.

    Returns
    -------
    fstart : ndarray of int64, shape (m * 21 + 1,)
    flist : ndarray of int32
        The results of roll ``r`` (``_dice.roll_of`` order) from board ``x`` are
        ``flist[fstart[x * 21 + r] : fstart[x * 21 + r + 1]]`` (``_bomoves.final_lists``).
    """
    cdef Py_ssize_t m = n_boards(check_int(max_checkers, 0, 15, "max_checkers"))
    fstart = np.zeros(m * N_ROLLS + 1, dtype=np.int64)
    cdef int64_t[::1] fs = fstart
    cdef int32_t* fl = c_final_lists(m, &fs[0], False)
    try:
        flist = np.asarray(<int32_t[:fs[m * N_ROLLS] + 1]>fl)[:fs[m * N_ROLLS]].copy()
    finally:
        free(fl)
    return fstart, flist


def solve_level(const int64_t[::1] fstart, const int32_t[::1] flist, double[:, :, ::1] table,
                next_table=None, next2_table=None, double ratio=2.0, double ratio2=4.0,
                bint can_raise=True, Py_ssize_t start=1, Py_ssize_t stop=-1):
    """Fill shells ``start .. stop - 1`` of ``table`` (float64 (m, m, 4), see
    ``_cuberace.pxd``) for one stake; releases the GIL.

    The build keeps the tables *transposed* (entry ``(x, y)`` at ``[y, x]``: the row
    pass then reads contiguous blocks), ``next_table`` and ``next2_table`` included;
    ``transpose_table`` gives the final layout once every shell is done.

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
    cdef int r
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
        t.p[r] = roll_of(r, &t.d1[r], &t.d2[r])
    if stop < 0 or stop > m:
        stop = m
    if start < 1:
        start = 1
    t.ss = <int32_t*>malloc(m * 36 * sizeof(int32_t))
    t.ns = <uint8_t*>malloc(m * 6)
    t.g0 = <double*>malloc(m * N_CUBE_STATES * sizeof(double))
    t.g = <double*>malloc(18 * m * N_CUBE_STATES * sizeof(double))
    t.acc = <double*>malloc(2 * CHUNK * N_CUBE_STATES * sizeof(double))
    try:
        if (t.ss == NULL or t.ns == NULL or t.g0 == NULL or t.g == NULL
                or t.acc == NULL):
            raise MemoryError()
        with nogil:
            single_step_table(m, <int32_t*>t.ss, <uint8_t*>t.ns)
            if start == 1:
                fill_edges(t.r, m)
            solve_shells(&t, start, stop)
    finally:
        free(<void*>t.ss)
        free(<void*>t.ns)
        free(t.g0)
        free(t.g)
        free(t.acc)
