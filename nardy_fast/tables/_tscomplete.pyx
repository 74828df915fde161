"""The complete two-sided bear-off database in C: one shard's solver and the batched
reader (``bearoff_complete.py`` runs the build and owns the files).

Boards are grouped in classes by checker count (class n: the C(n + 5, 5) boards of
exactly n checkers, global indices ``n_boards(n - 1) .. n_boards(n) - 1``).  Block (p, q)
holds the pairs with the side on roll of class p and the opponent of class q, stored
"opponent-major": ``blk[q_local, p_local]``.  Each block has the value ``v`` (16-bit fixed
point, see ``decode``) and, when a side of the block has all 15 checkers, the mars
chances ``ml`` (the side on roll loses a mars; exists when p = 15) and ``mw`` (it wins a
mars; exists when q = 15), 16-bit fractions of 65535.

Value: ``v = P(win) + lam (P(mars win) - P(mars loss))`` (= (equity in oin points + 1) / 2
under the play maximising it), lam = (mars - oin) / (2 oin); the side on roll picks for
each roll the final board minimising the opponent's v (ties to the smaller final board
index), so ``v(a, b) = 1 - sum_r p_r min_f v(b, f)`` and the mars chances follow the
chosen finals.  Every value is computed from the stored (rounded) values of its
successors by the same code in any worker, so the table is bit-identical whatever runs it.

Shard {i, j} (i >= j) solves blocks (i, j) ("A") and (j, i) ("B") shell by shell over the
boards a of class i: row A[a, :] (reads B rows of earlier shells and finished blocks),
then column B[:, a] (reads row a of A and of the finished blocks (i, k < j)).  The
diagonal shard i = j keeps one block, the triangle order of ``_twosided``.
"""
from libc.stdint cimport uint8_t, uint16_t, int32_t, int64_t
from libc.stdlib cimport malloc, free
from libc.math cimport floor

import numpy as np

from nardy_fast.tables._board6 cimport n_boards, MAX_BEAROFF, N_HOME, board6_index
from nardy_fast.tables._bomoves cimport MoveTables
from nardy_fast.core._dice cimport N_ROLLS, NF_ROLL_P
from nardy_fast.core._threads cimport (NF_PTHREADS, NF_MAX_THREADS, nf_barrier_t,
                                        nf_barrier_wait, nf_run, share)

__all__ = ["Finals", "ShardSolver", "Lookup", "SCALE", "CubeShardSolver", "CubeLookup",
           "CUBE_STEP"]

DEF NCLS = 16
DEF CH = 256
DEF BUF = 9 * 256 + 3 * 54264     # doubles of scratch per thread
DEF TIE = 1e-4               # values this close count as tied for the mars chances
SCALE = 65535


cdef inline uint16_t encode(double v, double off, double scale) noexcept nogil:
    """Round v to the nearest step of the block (clipped to the block's range)."""
    cdef double u = floor((v - off) / scale + 0.5)
    if u < 0.0:
        u = 0.0
    elif u > 65535.0:
        u = 65535.0
    return <uint16_t>u


cdef class Finals(MoveTables):
    """The final boards of every (board, roll) of the boards of at most ``max_checkers``
    checkers, sorted ascending (``_bomoves.final_lists``)."""
    cdef readonly int max_checkers

    def __init__(self, int max_checkers):
        if not 0 <= max_checkers <= MAX_BEAROFF:
            raise ValueError(f"max_checkers={max_checkers}: must be 0..{MAX_BEAROFF}")
        self.max_checkers = max_checkers
        self.fill_tables(1, n_boards(max_checkers), True, 1)


ctypedef struct blk_t:                       # one block, opponent-major (see module doc)
    const uint16_t* v
    const uint16_t* ml                       # NULL when the on-roll class is not 15
    const uint16_t* mw                       # NULL when the opponent class is not 15
    double off                               # v = off + scale * u
    double scale


ctypedef struct shard_t:                     # a shard's solver state (ShardSolver)
    blk_t rows[NCLS]
    int i, j
    double lam
    int full
    Py_ssize_t ni, nj, si, sj
    uint16_t* av
    uint16_t* aml
    uint16_t* amw
    uint16_t* bv                             # = rows[i]
    uint16_t* bml
    uint16_t* bmw
    const int64_t* fstart
    const int32_t* flist
    uint8_t cls[54264]
    Py_ssize_t start[NCLS + 1]


ctypedef struct job_t:                       # shells a0 .. a1 - 1 on nf_run's threads
    shard_t* s
    Py_ssize_t a0, a1
    const uint16_t* pv
    const uint16_t* pml
    double* bufs                             # BUF doubles per thread
    int32_t* args                            # CH per thread


cdef inline double frac(const uint16_t* a, Py_ssize_t k) noexcept nogil:
    return a[k] * (1.0 / 65535.0) if a != NULL else 0.0


cdef class ShardSolver:
    """Solver of shard {i, j}, i >= j (see the module docstring).

    ``all_checkers``: the class whose boards can be marsed (15; fewer makes the same
    problem in miniature, for tests).  ``rows[k]`` for k = 0 .. i: block (j, k) as (v, ml,
    mw) uint16 arrays of shape (C(k + 5, 5), C(j + 5, 5)) (None where absent); the entry
    k = i is this shard's block B (j, i), written here.  ``out_a``: block A (i, j) in
    row-major order [a, b] (v, ml, mw), turned opponent-major by the caller once done
    (unused, None, on the diagonal where A is B).  ``run(a0, a1, prow_v, prow_ml)`` solves
    shells a0 .. a1 - 1; prow_* hold v and ml of the side on roll a0 .. a1 - 1 against
    every board of classes < j (global index), rows [a - a0, g].  ``threads``: POSIX
    threads sharing each shell's boards (1 without POSIX threads); the values do not
    depend on their number.
    """
    cdef shard_t s
    cdef int nthreads
    cdef object keep
    cdef readonly Py_ssize_t shells_done

    def __init__(self, int i, int j, double lam, Finals finals, list rows, tuple out_a,
                 int all_checkers=MAX_BEAROFF, int threads=1):
        cdef int k
        cdef Py_ssize_t g, n
        if not (0 < j <= i <= MAX_BEAROFF):
            raise ValueError(f"shard ({i}, {j}): need 0 < j <= i <= {MAX_BEAROFF}")
        if finals.max_checkers < i:
            raise ValueError(f"finals: of {finals.max_checkers} checkers, need {i}")
        self.s.i, self.s.j, self.s.lam = i, j, lam
        self.s.full = all_checkers
        self.s.start[0] = 0
        for k in range(NCLS):
            self.s.start[k + 1] = n_boards(k)
        for k in range(NCLS):
            for g in range(self.s.start[k], self.s.start[k + 1]):
                self.s.cls[g] = k
        self.s.si, self.s.sj = self.s.start[i], self.s.start[j]
        self.s.ni = self.s.start[i + 1] - self.s.si
        self.s.nj = self.s.start[j + 1] - self.s.sj
        self.s.fstart = finals.mv.fstart
        self.s.flist = finals.mv.flist
        self.keep = (finals, rows, out_a)
        if len(rows) != i + 1:
            raise ValueError(f"rows: {len(rows)} blocks, need {i + 1}")
        for k in range(i + 1):
            n = self.s.start[k + 1] - self.s.start[k]
            v, ml, mw = rows[k]
            self.s.rows[k].v = _ptr(v, (n, self.s.nj), False, f"rows[{k}].v")
            self.s.rows[k].ml = _ptr(ml, (n, self.s.nj), j != self.s.full, f"rows[{k}].ml")
            self.s.rows[k].mw = _ptr(mw, (n, self.s.nj), k != self.s.full, f"rows[{k}].mw")
            if j == self.s.full or k == self.s.full:
                self.s.rows[k].off = -lam
                self.s.rows[k].scale = (1.0 + 2.0 * lam) / 65535.0
            else:
                self.s.rows[k].off = 0.0
                self.s.rows[k].scale = 1.0 / 65535.0
        self.s.bv = <uint16_t*>self.s.rows[i].v
        self.s.bml = <uint16_t*>self.s.rows[i].ml
        self.s.bmw = <uint16_t*>self.s.rows[i].mw
        if i != j:
            v, ml, mw = out_a
            shape = (self.s.ni, self.s.nj)
            self.s.av = <uint16_t*>_ptr(v, shape, False, "out_a.v")
            self.s.aml = <uint16_t*>_ptr(ml, shape, i != self.s.full, "out_a.ml")
            self.s.amw = <uint16_t*>_ptr(mw, shape, j != self.s.full, "out_a.mw")
        if threads < 1:
            raise ValueError(f"threads={threads}: must be >= 1")
        self.nthreads = min(threads, NF_MAX_THREADS) if NF_PTHREADS else 1
        self.shells_done = 0

    def run(self, Py_ssize_t a0, Py_ssize_t a1, const uint16_t[:, ::1] prow_v,
            prow_ml):
        """Solve shells a0 .. a1 - 1 (a0 = shells done so far) on ``threads`` threads;
        releases the GIL."""
        cdef Py_ssize_t sj = self.s.sj
        if a0 != self.shells_done or not a0 <= a1 <= self.s.ni:
            raise ValueError(f"run({a0}, {a1}): {self.shells_done} of {self.s.ni} shells "
                             f"done")
        if prow_v.shape[0] != a1 - a0 or prow_v.shape[1] != sj:
            raise ValueError(f"prow_v: expected shape ({a1 - a0}, {sj})")
        cdef job_t job
        job.s = &self.s
        job.a0, job.a1 = a0, a1
        job.pml = _ptr(prow_ml, (a1 - a0, sj), self.s.i != self.s.full, "prow_ml")
        job.pv = &prow_v[0, 0] if a1 > a0 and sj > 0 else NULL
        job.bufs = <double*>malloc(self.nthreads * BUF * sizeof(double))
        job.args = <int32_t*>malloc(self.nthreads * CH * sizeof(int32_t))
        if job.bufs == NULL or job.args == NULL:
            free(job.bufs)
            free(job.args)
            raise MemoryError()
        try:
            with nogil:
                nf_run(self.nthreads, shells, &job)
        finally:
            free(job.bufs)
            free(job.args)
        self.shells_done = a1

    @property
    def threads(self):
        """Threads per run."""
        return self.nthreads


cdef void shells(void* argp, int tid, int n, nf_barrier_t* bar) noexcept nogil:
    """Shells a0 .. a1 - 1 as thread tid of n (SPMD): each thread takes its share of the
    boards b of every row and every column, with a barrier after each; every value is
    computed by the same code whichever thread computes it."""
    cdef job_t* job = <job_t*>argp
    cdef shard_t* s = job.s
    cdef double* buf = job.bufs + <Py_ssize_t>tid * BUF
    cdef int32_t* arg = job.args + <Py_ssize_t>tid * CH
    cdef Py_ssize_t a, sj = s.sj
    for a in range(job.a0, job.a1):
        row_part(s, a, buf, arg, tid, n)
        nf_barrier_wait(bar)
        column_part(s, a, job.pv + (a - job.a0) * sj if job.pv != NULL else NULL,
                    job.pml + (a - job.a0) * sj if job.pml != NULL else NULL,
                    buf + 9 * CH, tid, n)
        nf_barrier_wait(bar)


cdef void row_part(shard_t* self, Py_ssize_t a, double* buf, int32_t* arg, int tid,
               int nt) noexcept nogil:
    """Row a of A: the side on roll a (class i) against every b of class j (b < a on
    the diagonal), each roll's final minimising the opponent's v."""
    cdef Py_ssize_t nj = self.nj, ni = self.ni, b0, b, n, hi
    cdef Py_ssize_t ga = self.si + a
    cdef double* mn = buf
    cdef double* acc = buf + CH
    cdef double* accw = buf + 2 * CH
    cdef double* accl = buf + 3 * CH
    cdef int64_t lo, e, ee
    cdef int r, k, diag = self.i == self.j
    cdef int mars = self.i == self.full or self.j == self.full
    cdef int32_t f
    cdef Py_ssize_t lf
    cdef const blk_t* blk
    cdef const uint16_t* src
    cdef double v, off, sc, p, val
    hi = a if diag else nj
    b0 = share(0, hi, tid, nt)                 # this thread's boards b
    hi = share(0, hi, tid + 1, nt)
    while b0 < hi:
        n = min(<Py_ssize_t>CH, hi - b0)
        for b in range(n):
            acc[b] = 0.0
            accw[b] = 0.0
            accl[b] = 0.0
        for r in range(N_ROLLS):
            lo = self.fstart[ga * N_ROLLS + r]
            ee = self.fstart[ga * N_ROLLS + r + 1]
            for e in range(lo, ee):
                f = self.flist[e]
                k = self.cls[f]
                blk = &self.rows[k]
                src = blk.v + (f - self.start[k]) * nj + b0
                off = blk.off
                sc = blk.scale
                if e == lo:
                    for b in range(n):
                        mn[b] = off + sc * src[b]
                        arg[b] = f
                else:
                    for b in range(n):
                        v = off + sc * src[b]
                        if v < mn[b]:       # finals ascend: ties keep the smaller
                            mn[b] = v
                            arg[b] = f
            p = NF_ROLL_P[r]
            for b in range(n):
                acc[b] += p * mn[b]
            if mars:
                # the mars chances follow the smallest final within TIE of the best
                # (exact ties are common; rounding must not break them at random)
                for e in range(ee - 1, lo - 1, -1):
                    f = self.flist[e]
                    k = self.cls[f]
                    blk = &self.rows[k]
                    src = blk.v + (f - self.start[k]) * nj + b0
                    for b in range(n):
                        if blk.off + blk.scale * src[b] <= mn[b] + TIE:
                            arg[b] = f
                for b in range(n):
                    f = arg[b]
                    k = self.cls[f]
                    lf = (f - self.start[k]) * nj + b0 + b
                    accw[b] += p * frac(self.rows[k].ml, lf)
                    accl[b] += p * frac(self.rows[k].mw, lf)
        for b in range(n):
            val = 1.0 - acc[b]
            if diag:                        # B is A: opponent-major [b, a]
                self.bv[(b0 + b) * ni + a] = encode(val, self.rows[self.i].off,
                                                    self.rows[self.i].scale)
                if self.bml != NULL:
                    self.bml[(b0 + b) * ni + a] = encode(accl[b], 0.0, 1.0 / 65535.0)
                if self.bmw != NULL:
                    self.bmw[(b0 + b) * ni + a] = encode(accw[b], 0.0, 1.0 / 65535.0)
            else:
                self.av[a * nj + b0 + b] = encode(val, self.rows[self.i].off,
                                                  self.rows[self.i].scale)
                if self.aml != NULL:
                    self.aml[a * nj + b0 + b] = encode(accl[b], 0.0, 1.0 / 65535.0)
                if self.amw != NULL:
                    self.amw[a * nj + b0 + b] = encode(accw[b], 0.0, 1.0 / 65535.0)
        b0 += n

cdef void column_part(shard_t* self, Py_ssize_t a, const uint16_t* pv,
                      const uint16_t* pml, double* rowbuf, int tid, int nt) noexcept nogil:
    """Column a of B: every b of class j (b <= a on the diagonal) on roll against a;
    rowbuf receives a's v, ml, mw against every board of classes <= j."""
    cdef Py_ssize_t nj = self.nj, ni = self.ni, sj = self.sj, g, b, hi, gb
    cdef double* rv = rowbuf
    cdef double* rl = rowbuf + 54264
    cdef double* rw = rowbuf + 2 * 54264
    cdef double off, sc, acc, accw, accl, mn, v, p
    cdef int64_t lo, e, ee
    cdef int r, diag = self.i == self.j
    cdef int mars = self.i == self.full or self.j == self.full
    cdef int32_t f, best
    cdef const uint16_t* srcv
    cdef const uint16_t* srcl
    cdef const uint16_t* srcw
    # a's values against classes < j (the finished blocks), then class j (row a)
    off = -self.lam if self.i == self.full else 0.0
    sc = (1.0 + 2.0 * self.lam) / 65535.0 if self.i == self.full else 1.0 / 65535.0
    for g in range(sj):
        rv[g] = off + sc * pv[g]
        rl[g] = frac(pml, g)
        rw[g] = 0.0
    if diag:
        srcv = self.bv
        srcl = self.bml
        srcw = self.bmw
        for g in range(a):                  # v(a, g) = B[g, a] (opponent-major)
            rv[sj + g] = self.rows[self.i].off + self.rows[self.i].scale * srcv[g * ni + a]
            rl[sj + g] = frac(srcl, g * ni + a)
            rw[sj + g] = frac(srcw, g * ni + a)
        hi = a + 1
    else:
        for g in range(nj):     # block A (i, j) has B's scale (a side of 15 or not)
            rv[sj + g] = self.rows[self.i].off + self.rows[self.i].scale * self.av[a * nj + g]
            rl[sj + g] = frac(self.aml, a * nj + g)
            rw[sj + g] = frac(self.amw, a * nj + g)
        hi = nj
    for b in range(share(0, hi, tid, nt), share(0, hi, tid + 1, nt)):
        gb = sj + b
        acc = 0.0
        accw = 0.0
        accl = 0.0
        for r in range(N_ROLLS):
            lo = self.fstart[gb * N_ROLLS + r]
            ee = self.fstart[gb * N_ROLLS + r + 1]
            best = self.flist[lo]
            mn = rv[best]
            for e in range(lo + 1, ee):
                f = self.flist[e]
                v = rv[f]
                if v < mn:
                    mn = v
                    best = f
            p = NF_ROLL_P[r]
            acc += p * mn
            if mars:
                for e in range(lo, ee):     # the smallest final within TIE (row_part)
                    if rv[self.flist[e]] <= mn + TIE:
                        best = self.flist[e]
                        break
                accw += p * rl[best]
                accl += p * rw[best]
        self.bv[a * nj + b] = encode(1.0 - acc, self.rows[self.i].off,
                                     self.rows[self.i].scale)
        if self.bml != NULL:
            self.bml[a * nj + b] = encode(accl, 0.0, 1.0 / 65535.0)
        if self.bmw != NULL:
            self.bmw[a * nj + b] = encode(accw, 0.0, 1.0 / 65535.0)


cdef const uint16_t* _ptr(object arr, tuple shape, bint absent, str name) except? NULL:
    """Data of a C-contiguous uint16 array of this shape (None when ``absent``)."""
    if absent:
        if arr is not None:
            raise ValueError(f"{name}: expected None")
        return NULL
    if (not isinstance(arr, np.ndarray) or arr.dtype != np.uint16
            or not arr.flags.c_contiguous or arr.shape != shape):
        raise ValueError(f"{name}: expected a C-contiguous uint16 array of shape {shape}")
    if arr.size == 0:
        return NULL
    cdef const uint16_t[::1] flat = arr.reshape(-1)
    return &flat[0]


cdef class Lookup:
    """The blocks of a complete table for C lookups (``complete_t``, ``_tscomplete.pxd``).

    ``blocks``: dict (p, q) -> (v, ml, mw) uint16 arrays of shape (C(q + 5, 5), C(p + 5,
    5)) (ml / mw None where absent) for every 0 <= p, q <= max_checkers; ``full``: the
    class that can be marsed (as ``ShardSolver``'s ``all_checkers``).
    """

    def __init__(self, int max_checkers, double lam, dict blocks, int full=MAX_BEAROFF):
        cdef int p, q
        cdef Py_ssize_t np_, nq
        if not 0 <= max_checkers <= MAX_BEAROFF:
            raise ValueError(f"max_checkers={max_checkers}: must be 0..{MAX_BEAROFF}")
        self.t.lam = lam
        self.t.max_checkers = max_checkers
        self.t.start[0] = 0
        for p in range(NCLS):
            self.t.start[p + 1] = n_boards(p)
        for p in range(NCLS):
            for q in range(NCLS):
                self.t.v[p][q] = self.t.ml[p][q] = self.t.mw[p][q] = NULL
                self.t.off[p][q] = 0.0
                self.t.scale[p][q] = 0.0
        for p in range(max_checkers + 1):
            np_ = self.t.start[p + 1] - self.t.start[p]
            for q in range(max_checkers + 1):
                nq = self.t.start[q + 1] - self.t.start[q]
                v, ml, mw = blocks[p, q]
                self.t.v[p][q] = _ptr(v, (nq, np_), False, f"blocks[{p}, {q}].v")
                self.t.ml[p][q] = _ptr(ml, (nq, np_), p != full, f"blocks[{p}, {q}].ml")
                self.t.mw[p][q] = _ptr(mw, (nq, np_), q != full, f"blocks[{p}, {q}].mw")
                if p == full or q == full:
                    self.t.off[p][q] = -lam
                    self.t.scale[p][q] = (1.0 + 2.0 * lam) / 65535.0
                else:
                    self.t.scale[p][q] = 1.0 / 65535.0
        self.keep = blocks

    def query(self, const Py_ssize_t[::1] ia, const Py_ssize_t[::1] ib):
        """(P(win), P(mars win), P(mars loss)) of each pair (board indices, trusted to be
        of at most max_checkers checkers): three float64 arrays; the loop runs in C."""
        cdef Py_ssize_t n = ia.shape[0], k
        if ib.shape[0] != n:
            raise ValueError(f"ia and ib: {n} and {ib.shape[0]} indices")
        w = np.empty(n)
        mw = np.empty(n)
        ml = np.empty(n)
        cdef double[::1] W = w, MW = mw, ML = ml
        cdef double out[3]
        with nogil:
            for k in range(n):
                complete_probs(&self.t, ia[k], ib[k], out)
                W[k] = out[0]
                MW[k] = out[1]
                ML[k] = out[2]
        return w, mw, ml

    def values(self, const Py_ssize_t[::1] ia, const Py_ssize_t[::1] ib):
        """The stored value v = P(win) + lam (P(mars win) - P(mars loss)) of each pair
        (float64), as the build used it."""
        cdef Py_ssize_t n = ia.shape[0], k, j
        cdef int p, q
        out = np.empty(n)
        cdef double[::1] o = out
        with nogil:
            for k in range(n):
                p = 0
                q = 0
                while self.t.start[p + 1] <= ia[k]:
                    p += 1
                while self.t.start[q + 1] <= ib[k]:
                    q += 1
                j = ((ib[k] - self.t.start[q]) * (self.t.start[p + 1] - self.t.start[p])
                     + ia[k] - self.t.start[p])
                o[k] = self.t.off[p][q] + self.t.scale[p][q] * self.t.v[p][q][j]
        return out


# ----------------------------------------------------------------------------------------
# cubeful equities (rule book section 7a: with the cube a game is won or lost at the
# stake, no mars): shards "cube-II-JJ" beside the cubeless ones, the same order and
# dependencies.  Block (p, q) holds, opponent-major ``[q_local, p_local, k]``, the money
# equity per unit of the current stake of the side on roll when it rolls now without
# doubling, for the cube state k (0 centre, 1 owned by the side on roll, 2 by the
# opponent; ``_cuberace.pxd``), geometric cube, no beaver: 16-bit fixed point over [-1, 1]
# (``R = -1 + CUBE_STEP * u``).  The recursion is ``_cuberace``'s::
#
#     R[a, b, k] = sum_r p_r max_f V_k(f, b)
#     V_centre(f, b)   = -max(R[b, f, centre], min(2 R[b, f, opponent], 1))
#     V_mover(f, b)    = -R[b, f, opponent]
#     V_opponent(f, b) = -max(R[b, f, mover], min(2 R[b, f, opponent], 1))
#
# (V(empty board, b) = +1 follows from R[b, empty] = -1.)

DEF NQ = 3                   # cube states stored: centre, mover, opponent
CUBE_STEP = 2.0 / 65535.0


cdef inline uint16_t cube_encode(double v) noexcept nogil:
    cdef double u = floor((v + 1.0) * (65535.0 / 2.0) + 0.5)
    if u < 0.0:
        u = 0.0
    elif u > 65535.0:
        u = 65535.0
    return <uint16_t>u


cdef inline double cube_decode(uint16_t u) noexcept nogil:
    return -1.0 + u * (2.0 / 65535.0)


cdef inline void cube_after(const uint16_t* src, double* w) noexcept nogil:
    """w[k]: the mover's value V_k of leaving the pair whose R (side then on roll) is
    src[0:3] (see above)."""
    cdef double rc = cube_decode(src[0]), rm = cube_decode(src[1])
    cdef double ro = cube_decode(src[2])
    cdef double take = 2.0 * ro
    if take > 1.0:
        take = 1.0
    w[0] = -(rc if rc >= take else take)
    w[1] = -ro
    w[2] = -(rm if rm >= take else take)


ctypedef struct cshard_t:                    # a cube shard's solver state
    const uint16_t* rows[NCLS]               # block (j, k): (n_k, nj, 3)
    int i, j
    Py_ssize_t ni, nj, si, sj
    uint16_t* a                              # block A (i, j) row-major (ni, nj, 3)
    uint16_t* b                              # block B (j, i) opponent-major (ni, nj, 3)
    const int64_t* fstart
    const int32_t* flist
    uint8_t cls[54264]
    Py_ssize_t start[NCLS + 1]


ctypedef struct cjob_t:
    cshard_t* s
    Py_ssize_t a0, a1
    const uint16_t* prow                     # (a1 - a0, sj, 3)
    double* bufs                             # CBUF doubles per thread


DEF CBUF = 2 * NQ * CH + NQ * 54264


cdef class CubeShardSolver:
    """Solver of the cubeful shard {i, j}, i >= j (see the section above; the layout of
    ``ShardSolver`` with one (.., .., 3) uint16 array a block).

    ``rows[k]`` for k = 0 .. i: block (j, k), shape (C(k + 5, 5), C(j + 5, 5), 3); the
    entry k = i is this shard's block B (j, i), written here.  ``out_a``: block A (i, j)
    row-major [a, b, k] (None on the diagonal).  ``run(a0, a1, prow)``: shells a0 .. a1 -
    1, prow[a - a0, g, k] the value of a on roll against every board g of classes < j.
    """
    cdef cshard_t s
    cdef int nthreads
    cdef object keep
    cdef readonly Py_ssize_t shells_done

    def __init__(self, int i, int j, Finals finals, list rows, out_a, int threads=1):
        cdef int k
        cdef Py_ssize_t g, n
        if not (0 < j <= i <= MAX_BEAROFF):
            raise ValueError(f"shard ({i}, {j}): need 0 < j <= i <= {MAX_BEAROFF}")
        if finals.max_checkers < i:
            raise ValueError(f"finals: of {finals.max_checkers} checkers, need {i}")
        self.s.i, self.s.j = i, j
        self.s.start[0] = 0
        for k in range(NCLS):
            self.s.start[k + 1] = n_boards(k)
        for k in range(NCLS):
            for g in range(self.s.start[k], self.s.start[k + 1]):
                self.s.cls[g] = k
        self.s.si, self.s.sj = self.s.start[i], self.s.start[j]
        self.s.ni = self.s.start[i + 1] - self.s.si
        self.s.nj = self.s.start[j + 1] - self.s.sj
        self.s.fstart = finals.mv.fstart
        self.s.flist = finals.mv.flist
        self.keep = (finals, rows, out_a)
        if len(rows) != i + 1:
            raise ValueError(f"rows: {len(rows)} blocks, need {i + 1}")
        for k in range(i + 1):
            n = self.s.start[k + 1] - self.s.start[k]
            self.s.rows[k] = _ptr(rows[k], (n, self.s.nj, NQ), False, f"rows[{k}]")
        self.s.b = <uint16_t*>self.s.rows[i]
        self.s.a = NULL
        if i != j:
            self.s.a = <uint16_t*>_ptr(out_a, (self.s.ni, self.s.nj, NQ), False, "out_a")
        elif out_a is not None:
            raise ValueError("out_a: expected None on the diagonal")
        if threads < 1:
            raise ValueError(f"threads={threads}: must be >= 1")
        self.nthreads = min(threads, NF_MAX_THREADS) if NF_PTHREADS else 1
        self.shells_done = 0

    def run(self, Py_ssize_t a0, Py_ssize_t a1, prow):
        """Solve shells a0 .. a1 - 1 (a0 = shells done so far); releases the GIL."""
        cdef Py_ssize_t sj = self.s.sj
        if a0 != self.shells_done or not a0 <= a1 <= self.s.ni:
            raise ValueError(f"run({a0}, {a1}): {self.shells_done} of {self.s.ni} shells "
                             f"done")
        cdef cjob_t job
        job.s = &self.s
        job.a0, job.a1 = a0, a1
        job.prow = _ptr(prow, (a1 - a0, sj, NQ), False, "prow")
        job.bufs = <double*>malloc(self.nthreads * CBUF * sizeof(double))
        if job.bufs == NULL:
            raise MemoryError()
        try:
            with nogil:
                nf_run(self.nthreads, cube_shells, &job)
        finally:
            free(job.bufs)
        self.shells_done = a1


cdef void cube_shells(void* argp, int tid, int n, nf_barrier_t* bar) noexcept nogil:
    """Shells a0 .. a1 - 1 as thread tid of n (as ``shells``)."""
    cdef cjob_t* job = <cjob_t*>argp
    cdef cshard_t* s = job.s
    cdef double* buf = job.bufs + <Py_ssize_t>tid * CBUF
    cdef Py_ssize_t a, sj = s.sj
    for a in range(job.a0, job.a1):
        cube_row(s, a, buf, tid, n)
        nf_barrier_wait(bar)
        cube_column(s, a, job.prow + (a - job.a0) * sj * NQ if job.prow != NULL else NULL,
                    buf + 2 * NQ * CH, tid, n)
        nf_barrier_wait(bar)


cdef void cube_row(cshard_t* self, Py_ssize_t a, double* buf, int tid, int nt) noexcept nogil:
    """Row a of A: a (class i) on roll against every b of class j (b < a on the
    diagonal), each cube state's best final for each roll."""
    cdef Py_ssize_t nj = self.nj, ni = self.ni, b0, b, n, hi, o
    cdef Py_ssize_t ga = self.si + a
    cdef double* mx = buf
    cdef double* acc = buf + NQ * CH
    cdef double w[NQ]
    cdef int64_t lo, e, ee
    cdef int r, k, q, diag = self.i == self.j
    cdef int32_t f
    cdef const uint16_t* src
    cdef double p
    hi = a if diag else nj
    b0 = share(0, hi, tid, nt)
    hi = share(0, hi, tid + 1, nt)
    while b0 < hi:
        n = min(<Py_ssize_t>CH, hi - b0)
        for b in range(n * NQ):
            acc[b] = 0.0
        for r in range(N_ROLLS):
            lo = self.fstart[ga * N_ROLLS + r]
            ee = self.fstart[ga * N_ROLLS + r + 1]
            for e in range(lo, ee):
                f = self.flist[e]
                k = self.cls[f]
                src = self.rows[k] + ((f - self.start[k]) * nj + b0) * NQ
                if e == lo:
                    for b in range(n):
                        cube_after(src + b * NQ, mx + b * NQ)
                else:
                    for b in range(n):
                        cube_after(src + b * NQ, w)
                        for q in range(NQ):
                            if w[q] > mx[b * NQ + q]:
                                mx[b * NQ + q] = w[q]
            p = NF_ROLL_P[r]
            for b in range(n * NQ):
                acc[b] += p * mx[b]
        for b in range(n):
            o = ((b0 + b) * ni + a) * NQ if diag else (a * nj + b0 + b) * NQ
            for q in range(NQ):
                if diag:
                    self.b[o + q] = cube_encode(acc[b * NQ + q])
                else:
                    self.a[o + q] = cube_encode(acc[b * NQ + q])
        b0 += n


cdef void cube_column(cshard_t* self, Py_ssize_t a, const uint16_t* prow, double* vbuf,
                      int tid, int nt) noexcept nogil:
    """Column a of B: every b of class j (b <= a on the diagonal) on roll against a;
    vbuf[g * 3 + k]: the mover's V_k of leaving g against a, g of classes <= j."""
    cdef Py_ssize_t nj = self.nj, ni = self.ni, sj = self.sj, g, b, hi, gb
    cdef double acc[NQ]
    cdef double mx[NQ]
    cdef const double* v
    cdef int64_t lo, e, ee
    cdef int r, q, diag = self.i == self.j
    cdef double p
    for g in range(sj):
        cube_after(prow + g * NQ, vbuf + g * NQ)
    if diag:
        for g in range(a):                  # R(a, g) = B[g, a]
            cube_after(self.b + (g * ni + a) * NQ, vbuf + (sj + g) * NQ)
        hi = a + 1
    else:
        for g in range(nj):
            cube_after(self.a + (a * nj + g) * NQ, vbuf + (sj + g) * NQ)
        hi = nj
    for b in range(share(0, hi, tid, nt), share(0, hi, tid + 1, nt)):
        gb = sj + b
        for q in range(NQ):
            acc[q] = 0.0
        for r in range(N_ROLLS):
            lo = self.fstart[gb * N_ROLLS + r]
            ee = self.fstart[gb * N_ROLLS + r + 1]
            v = vbuf + <Py_ssize_t>self.flist[lo] * NQ
            for q in range(NQ):
                mx[q] = v[q]
            for e in range(lo + 1, ee):
                v = vbuf + <Py_ssize_t>self.flist[e] * NQ
                for q in range(NQ):
                    if v[q] > mx[q]:
                        mx[q] = v[q]
            p = NF_ROLL_P[r]
            for q in range(NQ):
                acc[q] += p * mx[q]
        for q in range(NQ):
            self.b[(a * nj + b) * NQ + q] = cube_encode(acc[q])


cdef class CubeLookup:
    """The cubeful blocks of a complete table: ``blocks`` dict (p, q) -> uint16 array of
    shape (C(q + 5, 5), C(p + 5, 5), 3) for every 0 <= p, q <= max_checkers."""
    cdef const uint16_t* c[16][16]
    cdef Py_ssize_t start[17]
    cdef int max_checkers
    cdef object keep

    def __init__(self, int max_checkers, dict blocks):
        cdef int p, q
        if not 0 <= max_checkers <= MAX_BEAROFF:
            raise ValueError(f"max_checkers={max_checkers}: must be 0..{MAX_BEAROFF}")
        self.max_checkers = max_checkers
        self.start[0] = 0
        for p in range(NCLS):
            self.start[p + 1] = n_boards(p)
            for q in range(NCLS):
                self.c[p][q] = NULL
        for p in range(max_checkers + 1):
            for q in range(max_checkers + 1):
                self.c[p][q] = _ptr(blocks[p, q], (self.start[q + 1] - self.start[q],
                                                   self.start[p + 1] - self.start[p], NQ),
                                    False, f"blocks[{p}, {q}]")
        self.keep = blocks

    def query(self, const Py_ssize_t[::1] ia, const Py_ssize_t[::1] ib):
        """Float64 (n, 3): the no-double equities (centre, mover, opponent) of each pair
        (board indices, trusted to be of at most max_checkers checkers); runs in C."""
        cdef Py_ssize_t n = ia.shape[0], k, j
        cdef int p, q, s
        if ib.shape[0] != n:
            raise ValueError(f"ia and ib: {n} and {ib.shape[0]} indices")
        out = np.empty((n, NQ))
        cdef double[:, ::1] o = out
        with nogil:
            for k in range(n):
                p = 0
                q = 0
                while self.start[p + 1] <= ia[k]:
                    p += 1
                while self.start[q + 1] <= ib[k]:
                    q += 1
                j = ((ib[k] - self.start[q]) * (self.start[p + 1] - self.start[p])
                     + ia[k] - self.start[p]) * NQ
                for s in range(NQ):
                    o[k, s] = cube_decode(self.c[p][q][j + s])
        return out
