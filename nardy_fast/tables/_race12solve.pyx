"""The one-sided solver of races without contact (``race12.Race12``), in C.

A side whose checkers are all on its last ``points`` (<= 12) points races alone: no
opponent checker can ever stand in its way (its points 13-24 are the opponent's 1-12,
which the opponent has left for good), so each die is always playable (a checker outside
home moves inside the board, a home board bears off) and the dice rules that compare
plays (as many dice as possible, the larger die) never bite.  The best play of a roll
minimises a value over the boards a sequence of single steps can leave, solved as in
``_onesided.pyx`` by nested minima over steps (G tables: G_{k+1}(x, d) = the best final
board after k + 1 steps of die d from x), ties going to the smaller final board index.
Steps are generated on the fly (the index is ``_race12.pxd``'s); the G tables keep only
the final board (int32), whose value is looked up.

Two passes in index order (successors first): turns to bear off all, then turns to the
first checker off (boards of 15 checkers; the others have one off already).  Each board's
distribution is mixed from its 21 chosen finals as soon as its value is known and kept
as a float32 window (entries below ``EPS`` trimmed from both ends); ``cdf_windows`` then
quantises them for the file.
"""
from libc.stdint cimport uint8_t, uint16_t, uint32_t, int32_t, int64_t
from libc.stdlib cimport malloc, realloc, free
from libc.string cimport memset
from libc.math cimport INFINITY

import numpy as np
from cython.view cimport array as cvarray

from nardy_fast.core._dice cimport N_ROLLS, NF_ROLL_D1, NF_ROLL_D2, NF_ROLL_P
from nardy_fast.tables._board6 cimport (board6_index, board6_from_index, NF_BINOM, MAX_BEAROFF)
from nardy_fast.tables._race12 cimport outer_index, R12_HOME, R12_POINTS, R12_TCAP, R12_SCALE

__all__ = ["layout", "solve", "cdf_windows", "EPS"]

EPS = 1e-9                   # window entries below this are trimmed (float32 pool)
cdef double C_EPS = 1e-9


ctypedef struct wins_t:      # windows of one distribution: board i's P(exactly lo + j
    uint8_t* lo              # turns) = pool[start[i] + j], j < n[i]; pool[0] = 1.0 is the
    uint8_t* n               # shared window of "no turns" (lo = 0, n = 1)
    uint32_t* start
    float* pool
    Py_ssize_t used, cap

ctypedef struct solver_t:
    int P, N, q
    int A                    # a board of A checkers has none off (15 in a game)
    Py_ssize_t m
    const int64_t* offset
    int32_t* gf              # gf[(k * 6 + d) * m + x]: final board of G_{k+1}(x, d + 1)
    double* val              # the pass's value of each board
    wins_t w[2]              # turns pass: turns; first-off pass: first off, all home
    int failed               # 1: out of memory, 2: a window too long


cdef inline void outer_from_index(Py_ssize_t idx, int q, uint8_t* o) noexcept nogil:
    """Outer board of colex rank idx (q points), inverse of outer_index."""
    cdef int k, x = 20
    for k in range(q - 1, -1, -1):
        while NF_BINOM[x][k + 1] > idx:
            x -= 1
        idx -= NF_BINOM[x][k + 1]
        o[q - 1 - k] = <uint8_t>(x - k)
        x -= 1
    for k in range(q - 1, 0, -1):
        o[q - 1 - k] = o[q - 1 - k] - o[q - k]


cdef inline int board_steps_home(const uint8_t* c, int P) noexcept nogil:
    cdef int i
    for i in range(R12_HOME, P):
        if c[i]:
            return 0
    return 1


cdef int board_steps(const solver_t* s, uint8_t* c, Py_ssize_t base, int32_t* ss,
                     uint8_t* off, int* ns) noexcept nogil:
    """Single steps of each die d + 1 from board c (inner index recomputed, outer base
    offset of c given): ss[d * 12 + j] successor index, off[...] 1 if it bore off."""
    cdef int d, i, j, n, home = 1, top = -1, src
    cdef Py_ssize_t idx
    for i in range(R12_HOME, s.P):
        if c[i]:
            home = 0
    for i in range(R12_HOME):
        if c[i]:
            top = i
    for d in range(1, 7):
        n = 0
        for i in range(d, s.P):
            if c[i]:
                c[i] -= 1
                c[i - d] += 1
                if i < R12_HOME:
                    idx = base + board6_index(c)
                else:
                    idx = s.offset[outer_index(c + R12_HOME, s.q)] + board6_index(c)
                c[i] += 1
                c[i - d] -= 1
                ss[(d - 1) * R12_POINTS + n] = <int32_t>idx
                off[(d - 1) * R12_POINTS + n] = 0
                n += 1
        if home and top >= 0:
            src = -1
            if c[d - 1]:
                src = d - 1
            elif top < d - 1:
                src = top                   # nothing on d - 1 or beyond: the farthest
            if src >= 0:
                c[src] -= 1
                ss[(d - 1) * R12_POINTS + n] = <int32_t>(base + board6_index(c))
                c[src] += 1
                off[(d - 1) * R12_POINTS + n] = 1
                n += 1
        ns[d - 1] = n
    return home


cdef inline void scan(const solver_t* s, const int32_t* ss, const uint8_t* off, int nq,
                      int level, int first_off, double* bv, int32_t* bf) noexcept nogil:
    """Best (value, final) over steps ss[0:nq] continued by G level `level` (-1: none)."""
    cdef int j
    cdef int32_t f, y
    cdef double v
    for j in range(nq):
        y = ss[j]
        if level < 0 or (off[j] and first_off):
            f = y                            # first-off pass: a checker is off, value 0
        else:
            f = s.gf[level * s.m + y]
        v = s.val[f]
        if v < bv[0] or (v == bv[0] and f < bf[0]):
            bv[0] = v
            bf[0] = f


cdef double solve_board(solver_t* s, Py_ssize_t x, const int32_t* ss, const uint8_t* off,
                        const int* ns, int first_off, int32_t* fin) noexcept nogil:
    """G tables of board x, then the best final of each roll into fin; returns the mean
    over rolls of the finals' values."""
    cdef int d, k, r, a, b
    cdef double bv, acc = 0.0
    cdef int32_t bf
    for d in range(6):
        for k in range(3):
            bv = INFINITY
            bf = 0x7FFFFFFF
            scan(s, ss + d * R12_POINTS, off + d * R12_POINTS, ns[d],
                 (k - 1) * 6 + d if k else -1, first_off, &bv, &bf)
            s.gf[(k * 6 + d) * s.m + x] = bf
    for r in range(N_ROLLS):
        a = NF_ROLL_D1[r] - 1
        b = NF_ROLL_D2[r] - 1
        bv = INFINITY
        bf = 0x7FFFFFFF
        if a == b:
            scan(s, ss + a * R12_POINTS, off + a * R12_POINTS, ns[a], 12 + a, first_off,
                 &bv, &bf)
        else:
            scan(s, ss + a * R12_POINTS, off + a * R12_POINTS, ns[a], b, first_off, &bv, &bf)
            scan(s, ss + b * R12_POINTS, off + b * R12_POINTS, ns[b], a, first_off, &bv, &bf)
        fin[r] = bf
        acc += NF_ROLL_P[r] * bv
    return acc


cdef void mix_window(solver_t* s, wins_t* w, Py_ssize_t x, const int32_t* fin) noexcept nogil:
    """Window of board x in w: one turn, then the distribution of each roll's final."""
    cdef double work[R12_TCAP]
    cdef int r, j, l = R12_TCAP, h = 0, lo, hi
    cdef int32_t f
    cdef const float* src
    cdef float* grown
    for r in range(N_ROLLS):
        f = fin[r]
        if w.lo[f] + 1 < l:
            l = w.lo[f] + 1
        if w.lo[f] + w.n[f] + 1 > h:
            h = w.lo[f] + w.n[f] + 1
    if h >= R12_TCAP:
        s.failed = 2
        return
    for j in range(l, h):
        work[j] = 0.0
    for r in range(N_ROLLS):
        f = fin[r]
        src = w.pool + w.start[f]
        for j in range(w.n[f]):
            work[w.lo[f] + 1 + j] += NF_ROLL_P[r] * src[j]
    while h - l > 1 and work[l] < C_EPS:
        l += 1
    while h - l > 1 and work[h - 1] < C_EPS:
        h -= 1
    if w.used + (h - l) > w.cap:
        grown = <float*>realloc(w.pool, (w.cap * 2 + 1024) * sizeof(float))
        if grown == NULL:
            s.failed = 1
            return
        w.pool = grown
        w.cap = w.cap * 2 + 1024
    for j in range(l, h):
        w.pool[w.used + j - l] = <float>work[j]
    w.lo[x] = <uint8_t>l
    w.n[x] = <uint8_t>(h - l)
    w.start[x] = <uint32_t>w.used
    w.used += h - l


cdef void solve_block(solver_t* s, Py_ssize_t o, int first_off) noexcept nogil:
    """Every board of outer board o (in index order); first pass: only 15-checker ones."""
    cdef uint8_t c[R12_POINTS]
    cdef int32_t ss[6 * R12_POINTS]
    cdef uint8_t off[6 * R12_POINTS]
    cdef int32_t fin[N_ROLLS]
    cdef int ns[6]
    cdef int i, k, d, n_out = 0
    cdef Py_ssize_t base = s.offset[o], lo_i = 0, hi_i, j, x
    memset(c, 0, R12_POINTS)
    outer_from_index(o, s.q, c + R12_HOME)
    for i in range(R12_HOME, s.P):
        n_out += c[i]
    hi_i = NF_BINOM[s.N - n_out + 6][6]
    if first_off:
        if s.N < s.A:
            return
        lo_i = NF_BINOM[s.N - n_out + 5][6] if s.N - n_out > 0 else 0
    for j in range(lo_i, hi_i):
        x = base + j
        board6_from_index(j, c)
        if x == 0:                           # the empty board: no turns, stays empty
            for k in range(18):
                s.gf[k * s.m] = 0
            s.val[0] = 0.0
            continue
        board_steps(s, c, base, ss, off, ns)
        s.val[x] = 1.0 + solve_board(s, x, ss, off, ns, first_off, fin)
        mix_window(s, &s.w[0], x, fin)
        if first_off and not board_steps_home(c, s.P):
            mix_window(s, &s.w[1], x, fin)  # turns until all home (0 when they are)
        if s.failed:
            return


def layout(int points, int max_checkers):
    """Offsets of the outer boards: int64 array of n_outer + 1 entries (the last is the
    number of boards), for ``points`` 6..12 and ``max_checkers`` 0..15 (checked here)."""
    if not R12_HOME <= points <= R12_POINTS:
        raise ValueError(f"points={points}: must be 6..12")
    if not 0 <= max_checkers <= MAX_BEAROFF:
        raise ValueError(f"max_checkers={max_checkers}: must be 0..15")
    cdef int q = points - R12_HOME, i, n
    cdef Py_ssize_t o, n_outer = NF_BINOM[max_checkers + q][q] if q else 1
    cdef uint8_t c[R12_HOME]
    off = np.zeros(n_outer + 1, dtype=np.int64)
    cdef int64_t[::1] ov = off
    for o in range(n_outer):
        outer_from_index(o, q, c)
        n = 0
        for i in range(q):
            n += c[i]
        ov[o + 1] = ov[o] + NF_BINOM[max_checkers - n + 6][6]
    return off


cdef object take_pool(wins_t* w):
    """The pool as a float32 ndarray that owns (and later frees) the C buffer."""
    cdef cvarray arr
    cdef float* shrunk = <float*>realloc(w.pool, max(w.used, 1) * sizeof(float))
    if shrunk != NULL:
        w.pool = shrunk
    arr = <float[:max(w.used, 1)]> w.pool
    arr.callback_free_data = free
    w.pool = NULL
    return np.asarray(arr)[:w.used]


cdef int run_pass(solver_t* s, Py_ssize_t n_outer, int first_off, object tick) except -1:
    """Every outer block in order, ``tick(boards done)`` between chunks of blocks."""
    cdef Py_ssize_t o = 0, mark
    while o < n_outer:
        mark = s.offset[o] + 100000          # about 1 s of boards between ticks
        with nogil:
            while o < n_outer and s.offset[o] < mark and not s.failed:
                solve_block(s, o, first_off)
                o += 1
        if s.failed == 1:
            raise MemoryError("race database: out of memory growing the distributions")
        if s.failed == 2:
            raise RuntimeError(f"race database: a distribution needs more than "
                               f"{R12_TCAP - 1} turns")
        if tick is not None:
            tick(s.offset[o])
    return 0


def solve(int points=12, int max_checkers=15, tick=None, int all_checkers=15):
    """Solve every race board of at most ``max_checkers`` checkers on the last ``points``
    points (both checked: 6..12, 0..15); a side of ``all_checkers`` (``max_checkers`` ..
    15; 15 in a game, smaller only for tests) checkers on the board has none off.

    Returns a dict of ndarrays: ``offset`` (``layout``), ``mean`` and ``mean_first``
    (float64, (m,): expected own turns to bear off all / to the first checker off, under
    the play minimising each), and for each distribution ``turns`` (own turns to bear off
    all), ``first`` (to the first checker off) and ``home`` (until all checkers are home,
    under the first-off play), ``*_lo``, ``*_n`` (uint8), ``*_start`` (uint32) and
    ``*_pmf`` (float32): board i's P(exactly t turns) for t = lo .. lo + n - 1 is
    ``pmf[start : start + n]``.  ``first`` and ``home`` are 0 turns for boards of fewer
    than ``all_checkers`` checkers.  ``tick(k)`` is called with the boards done (2 m in
    all, the passes one after the other).
    """
    offset = layout(points, max_checkers)
    cdef Py_ssize_t m = offset[-1], n_outer = offset.shape[0] - 1
    cdef int64_t[::1] ov = offset
    cdef solver_t s
    out = {"offset": offset}
    memset(&s, 0, sizeof(solver_t))
    if not max_checkers <= all_checkers <= MAX_BEAROFF:
        raise ValueError(f"all_checkers={all_checkers}: must be {max_checkers}..15")
    s.P, s.N, s.q, s.m, s.offset = points, max_checkers, points - R12_HOME, m, &ov[0]
    s.A = all_checkers
    s.gf = <int32_t*>malloc(18 * m * sizeof(int32_t))
    try:
        if s.gf == NULL:
            raise MemoryError(f"race database: {18 * m * 4:,} bytes for the G tables")
        for pass_, names in enumerate((("turns",), ("first", "home"))):
            vals = np.zeros(m, dtype=np.float64)
            s.val = _ptr_d(vals)
            arrays = [new_wins(&s.w[k], m) for k in range(len(names))]
            run_pass(&s, n_outer, pass_,
                     None if tick is None else (lambda k, p=pass_: tick(p * m + k)))
            for k, name in enumerate(names):
                out[name + "_lo"], out[name + "_n"], out[name + "_start"] = arrays[k]
                out[name + "_pmf"] = take_pool(&s.w[k])
            out["mean" if pass_ == 0 else "mean_first"] = vals
    finally:
        free(s.gf)
        for k in range(2):
            free(s.w[k].pool)
    return out


cdef tuple new_wins(wins_t* w, Py_ssize_t m):
    """Empty windows of m boards (each the shared "no turns") into w: (lo, n, start)."""
    lo = np.zeros(m, dtype=np.uint8)
    n = np.ones(m, dtype=np.uint8)
    start = np.zeros(m, dtype=np.uint32)
    w.lo, w.n, w.start = _ptr_u8(lo), _ptr_u8(n), _ptr_u32(start)
    w.cap = max(1024, m * 4)
    w.pool = <float*>malloc(w.cap * sizeof(float))
    if w.pool == NULL:
        raise MemoryError("race database: no memory for the distributions")
    w.pool[0] = 1.0
    w.used = 1
    return lo, n, start


cdef double* _ptr_d(a):
    cdef double[::1] v = a
    return &v[0]


cdef uint8_t* _ptr_u8(a):
    cdef uint8_t[::1] v = a
    return &v[0]


cdef uint32_t* _ptr_u32(a):
    cdef uint32_t[::1] v = a
    return &v[0]


def cdf_windows(const uint8_t[::1] lo, const uint8_t[::1] n, const uint32_t[::1] start,
                const float[::1] pmf):
    """Quantise pmf windows (``solve``'s) to CDF windows for the file: returns ``(lo, n,
    start, data)`` with F(t) = data[start + t - lo] / 65535 on the window, 0 before it and
    1 after it (entries equal to 0 or 65535 at the ends are left out: n = 0 is a point
    mass at lo)."""
    cdef Py_ssize_t m = lo.shape[0], i, used = 0, j, total = 0
    cdef int l, h, k
    cdef double acc
    cdef uint16_t qv[R12_TCAP]
    for i in range(m):
        total += n[i]
    lo2 = np.zeros(m, dtype=np.uint8)
    n2 = np.zeros(m, dtype=np.uint8)
    st2 = np.zeros(m, dtype=np.uint32)
    data_a = np.zeros(max(total, 1), dtype=np.uint16)
    cdef uint8_t[::1] vl = lo2, vn = n2
    cdef uint32_t[::1] vs = st2
    cdef uint16_t[::1] data = data_a
    with nogil:
        for i in range(m):
            acc = 0.0
            l = R12_TCAP
            h = 0
            for k in range(n[i]):
                acc += pmf[start[i] + k]
                qv[k] = <uint16_t>(acc * R12_SCALE + 0.5 if acc < 1.0 else R12_SCALE)
                if qv[k] != 0 and k < l:
                    l = k
                if qv[k] != R12_SCALE:
                    h = k + 1
            if h <= l:                       # a point mass: F jumps from 0 to 1
                vl[i] = lo[i] + (l if l < R12_TCAP else 0)
                vn[i] = 0
                vs[i] = 0
                continue
            vl[i] = lo[i] + l
            vn[i] = h - l
            vs[i] = used
            for j in range(l, h):
                data[used + j - l] = qv[j]
            used += h - l
    return lo2, n2, st2, data_a[:max(used, 1)].copy()
