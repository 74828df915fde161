# The row kernels of the two-sided and mars dynamic programs, written once (inline: each
# solver compiles them into its own loops).
#
# Both programs store, for a side on roll with board x, values against every opponent board
# y, and both reduce a roll to "the minimum over the boards a move can leave": either over
# the final boards of (x, r) from final_lists (finals_min_row), or, for the opponent's
# move, over nested single steps (nested_minima then roll_min): G_{k+1}(y, d) = min over
# single steps y -> y' of die d of G_k(y', d), G_0 = a row of values; a double d is
# G_4(y, d), a non-double (a, b) the smaller of the minima over a-steps of G_1(., b) and
# over b-steps of G_1(., a).  Tables g (and gf) hold G_1 .. G_3 of the six dice:
# g[(k * 6 + d) * stride + y] = G_{k+1}(y, d + 1).  ss / ns are single-step tables
# (_bomoves.single_step_table).  Ties between equal values go to the smaller final board
# index when gf is given (gf records it), so the chosen play depends only on the values.
from libc.stdint cimport uint8_t, int32_t, int64_t
from libc.math cimport INFINITY

from nardy_fast.core._dice cimport N_ROLLS, NF_ROLL_D1, NF_ROLL_D2, NF_ROLL_P

cdef enum:
    CHUNK = 256              # columns per block of a finals_min_row call

# v clipped to [0, 1].
cdef inline double clip01(double v) noexcept nogil:
    return 0.0 if v < 0.0 else (1.0 if v > 1.0 else v)

# out[j] = clip01(1 - sum_r p_r min over the finals f of (x, r) of tab[f * stride + y0 + j])
# for 0 <= j < n <= CHUNK: the chance that the side on roll with board x beats y0 + j when
# tab holds the opponent's chances on roll.  A roll with final 0 (all borne off) adds 0.
# acc: 2 * CHUNK doubles of scratch.
cdef inline void finals_min_row(const double* tab, Py_ssize_t stride, const int64_t* fstart,
                                const int32_t* flist, Py_ssize_t x, Py_ssize_t y0,
                                Py_ssize_t n, double* acc, double* out) noexcept nogil:
    cdef double* mn = acc + CHUNK
    cdef const double* src
    cdef int64_t lo, hi, e
    cdef Py_ssize_t j
    cdef int r, skip
    cdef double v, p
    for j in range(n):
        acc[j] = 0.0
    for r in range(N_ROLLS):
        lo = fstart[x * N_ROLLS + r]
        hi = fstart[x * N_ROLLS + r + 1]
        skip = 0
        for e in range(lo, hi):
            if flist[e] == 0:
                skip = 1                    # bears off everything: the opponent never wins
                break
        if skip:
            continue
        src = tab + <Py_ssize_t>flist[lo] * stride + y0
        for j in range(n):
            mn[j] = src[j]
        for e in range(lo + 1, hi):
            src = tab + <Py_ssize_t>flist[e] * stride + y0
            for j in range(n):
                v = src[j]
                mn[j] = v if v < mn[j] else mn[j]
        p = NF_ROLL_P[r]
        for j in range(n):
            acc[j] += p * mn[j]
    for j in range(n):
        out[j] = clip01(1.0 - acc[j])

# G_1 .. G_3 of die d + 1 (0 <= d < 6) for boards first .. last (first >= 1) against
# g0 = G_0; with first == 1 also board 0 (the empty board stays empty: its entries are
# g0[0] and final 0).  With gf (not NULL) ties go to the smaller final board and gf
# records it.
cdef inline void nested_minima(const double* g0, double* g, int32_t* gf, Py_ssize_t stride,
                               const int32_t* ss, const uint8_t* ns, int d,
                               Py_ssize_t first, Py_ssize_t last) noexcept nogil:
    cdef Py_ssize_t x, yy
    cdef const int32_t* sx
    cdef const double* src
    cdef const int32_t* fsrc = NULL
    cdef int k, qq, nq
    cdef double bv, v
    cdef int32_t bf, f
    for k in range(3 if first == 1 else 0):
        g[(k * 6 + d) * stride] = g0[0]
        if gf != NULL:
            gf[(k * 6 + d) * stride] = 0
    for x in range(first, last + 1):
        sx = ss + x * 36 + d * 6
        nq = ns[x * 6 + d]
        for k in range(3):
            src = g0 if k == 0 else g + ((k - 1) * 6 + d) * stride
            bv = INFINITY
            if gf == NULL:
                for qq in range(nq):
                    v = src[sx[qq]]
                    if v < bv:
                        bv = v
            else:
                if k:
                    fsrc = gf + ((k - 1) * 6 + d) * stride
                bf = 0x7FFFFFFF
                for qq in range(nq):
                    yy = sx[qq]
                    v = src[yy]
                    f = <int32_t>yy if k == 0 else fsrc[yy]
                    if v < bv or (v == bv and f < bf):
                        bv = v
                        bf = f
                gf[(k * 6 + d) * stride + x] = bf
            g[(k * 6 + d) * stride + x] = bv

# Steps of die d + 1 from the board whose single steps are sx / nsx, scanning G level base.
cdef inline void scan_steps(const double* g, const int32_t* gf, Py_ssize_t stride,
                            const int32_t* sx, int nq, int base, double* bv,
                            int32_t* bf) noexcept nogil:
    cdef int qq
    cdef Py_ssize_t yy
    cdef int32_t f
    cdef double v
    for qq in range(nq):
        yy = sx[qq]
        v = g[base * stride + yy]
        if gf == NULL:
            if v < bv[0]:
                bv[0] = v
        else:
            f = gf[base * stride + yy]
            if v < bv[0] or (v == bv[0] and f < bf[0]):
                bv[0] = v
                bf[0] = f

# Minimum of roll r (0 <= r < 21) over the moves from a board >= 1 whose single steps are
# sx = ss + 36 x, nsx = ns + 6 x, from the G tables; *bf receives its final board when gf
# is given.
cdef inline double roll_min(const double* g, const int32_t* gf, Py_ssize_t stride,
                            const int32_t* sx, const uint8_t* nsx, int r,
                            int32_t* bf) noexcept nogil:
    cdef int a = NF_ROLL_D1[r] - 1, b = NF_ROLL_D2[r] - 1
    cdef double bv = INFINITY
    bf[0] = 0x7FFFFFFF
    if a == b:
        scan_steps(g, gf, stride, sx + a * 6, nsx[a], 12 + a, &bv, bf)
    else:
        scan_steps(g, gf, stride, sx + a * 6, nsx[a], b, &bv, bf)
        scan_steps(g, gf, stride, sx + b * 6, nsx[b], a, &bv, bf)
    return bv

# clip01(1 - sum_r p_r roll_min(r)): the chance of the side on roll with that board when
# G_0 holds the opponent's chances after its move (no tie tracking).
cdef inline double beat_chance(const double* g, Py_ssize_t stride, const int32_t* sx,
                               const uint8_t* nsx) noexcept nogil:
    cdef double tot = 0.0
    cdef int32_t bf
    cdef int r
    for r in range(N_ROLLS):
        tot += NF_ROLL_P[r] * roll_min(g, NULL, stride, sx, nsx, r, &bf)
    return clip01(1.0 - tot)
