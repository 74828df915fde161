"""The mars extension of the bear-off solver (``bearoff.MarsTable``), in C.

X with all T checkers (none off) against Y of <= N: X's boards are visited in index order;
those of < T checkers fill the rectangular race table ``bt`` (P(Y on roll beats X); the
X-on-roll row from X's final lists over ``bt`` rows, the Y-on-roll column by nested minima
over Y's steps: the kernels of ``_rowmin.pxd``), those of exactly T then give (P(X wins),
P(Y mars)) rows for both sides on roll, both sides optimising ``V = P(X wins) - lam P(Y
mars)``.  Only ``bt`` and the Y-on-roll rows are kept: the X-on-roll rows go to the caller
as they are made (``bearoff.MarsTable.build`` streams them to the file).  ``threads`` > 1
runs SPMD on POSIX threads (``_threads.pxd``); the tables are bit-identical for any
thread count.
"""
from libc.stdint cimport uint8_t, int32_t, int64_t
from libc.string cimport memcpy, memset
from libc.stdlib cimport malloc, free
from libc.math cimport INFINITY

import numpy as np

from nardy_fast.core._dice cimport N_ROLLS, NF_ROLL_P
from nardy_fast.tables._board6 cimport n_boards, MAX_BEAROFF
from nardy_fast.tables._bomoves cimport MoveTables, moves_t
from nardy_fast.tables._rowmin cimport (CHUNK, clip01, finals_min_row, nested_minima, roll_min, beat_chance)
from nardy_fast.core._threads cimport (NF_PTHREADS, nf_barrier_t, nf_barrier_wait, nf_run, share, die_owner)

cdef extern from "nf_simd.h":
    # Running maximum over a candidate race row bt[0:n] (value 1 - bt, no mars) into the
    # best value bv, its P(win) bw and P(mars) bm; ties keep the earlier candidate.
    void nf_best_race(const double* bt, double* bv, double* bw, double* bm,
                      Py_ssize_t n) noexcept nogil
    # The same over a mars row (P(win) sw, P(mars) sm; value sw - lam sm).
    void nf_best_mars(const double* sw, const double* sm, double lam, double* bv,
                      double* bw, double* bm, Py_ssize_t n) noexcept nogil

__all__ = ["MarsSolver"]

PTHREADS = bool(NF_PTHREADS)      # threads > 1 can run in parallel


ctypedef struct mars_t:
    Py_ssize_t mT            # X boards of <= T checkers: C(T + 6, 6)
    Py_ssize_t mL            # X boards of <= T - 1 checkers: C(T + 5, 6); T-boards are mL..mT-1
    Py_ssize_t mN            # Y boards of <= N checkers: C(N + 6, 6)
    double lam               # V = P(X wins) - lam * P(Y wins a mars); X maximises V
    moves_t mv               # X finals (ascending) of mT boards, Y single steps of mN
    double* bt               # (mL, mN): bt[x*mN + y] = P(Y on roll with y beats X with x)
    double* yon              # caller's (mT - mL, 2, mN): Y on roll, [i,0] P(X wins), [i,1] P(Y mars)
    double* arow             # (mN,) X-on-roll row of the current board (P(X wins), or V)
    double* g                # 18 * mN nested minima over Y's single steps
    int32_t* gf              # 18 * mN: the final Y board achieving them (mars stage)
    double* acc              # 5 * CHUNK work per thread


cdef void mars_race_row(mars_t* t, Py_ssize_t x, double* acc, Py_ssize_t ylo,
                        Py_ssize_t yhi) noexcept nogil:
    """arow[y] = P(X on roll with x < mL beats Y with y), for 1 <= ylo <= y < yhi, from the
    rows of bt (arow[0] = 0, Y has already won, is the caller's); acc: 2 * CHUNK scratch."""
    cdef Py_ssize_t y0 = ylo
    while y0 < yhi:
        finals_min_row(t.bt, t.mN, t.mv.fstart, t.mv.flist, x, y0,
                       min(<Py_ssize_t>CHUNK, yhi - y0), acc, t.arow + y0)
        y0 += CHUNK


cdef void mars_race_column(mars_t* t, Py_ssize_t x, Py_ssize_t ylo,
                           Py_ssize_t yhi) noexcept nogil:
    """bt[x, y] = 1 - sum_r p_r min over Y's moves of arow[result], for 1 <= ylo <= y <
    yhi, from the nested minima without tracking (bt[x, 0] = 1 is the caller's)."""
    cdef Py_ssize_t y
    for y in range(ylo, yhi):
        t.bt[x * t.mN + y] = beat_chance(t.g, t.mN, t.mv.ss + y * 36, t.mv.ns + y * 6)


cdef void mars_x_row(mars_t* t, Py_ssize_t x, double* xw, double* xm, double* acc,
                     Py_ssize_t ylo, Py_ssize_t yhi) noexcept nogil:
    """X on roll with all T checkers (board x >= mL): xw[y] = P(X wins), xm[y] = P(Y wins
    a mars), X choosing per roll the final maximising V = P(X wins) - lam P(Y mars)
    (ties: the smaller final index), then arow[y] = V, for 1 <= ylo <= y < yhi (y = 0, the
    sentinel (0, 1): Y has finished, is the caller's); acc: 5 * CHUNK scratch."""
    cdef Py_ssize_t mN = t.mN, mL = t.mL, y0, n, j, f
    cdef double* aw = acc
    cdef double* am = acc + CHUNK
    cdef double* bvv = acc + 2 * CHUNK
    cdef double* bw = acc + 3 * CHUNK
    cdef double* bm = acc + 4 * CHUNK
    cdef const double* sw
    cdef const double* sm
    cdef int64_t lo, hi, e
    cdef int r
    cdef double w, mm, p, lam = t.lam
    y0 = ylo
    while y0 < yhi:
        n = min(<Py_ssize_t>CHUNK, yhi - y0)
        for j in range(n):
            aw[j] = 0.0
            am[j] = 0.0
        for r in range(N_ROLLS):
            lo = t.mv.fstart[x * N_ROLLS + r]
            hi = t.mv.fstart[x * N_ROLLS + r + 1]
            for j in range(n):
                bvv[j] = -INFINITY
            for e in range(lo, hi):
                f = t.mv.flist[e]
                if f < mL:
                    nf_best_race(t.bt + f * mN + y0, bvv, bw, bm, n)
                else:
                    sw = t.yon + (f - mL) * 2 * mN + y0
                    nf_best_mars(sw, sw + mN, lam, bvv, bw, bm, n)
            p = NF_ROLL_P[r]
            for j in range(n):
                aw[j] += p * bw[j]
                am[j] += p * bm[j]
        for j in range(n):
            w = aw[j]
            mm = am[j]
            xw[y0 + j] = 0.0 if w < 0.0 else (1.0 if w > 1.0 else w)
            xm[y0 + j] = 0.0 if mm < 0.0 else (1.0 if mm > 1.0 else mm)
            t.arow[y0 + j] = xw[y0 + j] - lam * xm[y0 + j]
        y0 += n


cdef void mars_y_row(mars_t* t, Py_ssize_t x, const double* xw, const double* xm,
                     Py_ssize_t ylo, Py_ssize_t yhi) noexcept nogil:
    """Y on roll against X's board x >= mL: Y picks per roll the final minimising V of the
    X-on-roll row (xw, xm), from the nested minima with tracking; writes yon[x - mL, 0 / 1,
    y] for 1 <= ylo <= y < yhi (y = 0 is the caller's)."""
    cdef Py_ssize_t mN = t.mN, y
    cdef double* ow = t.yon + (x - t.mL) * 2 * mN
    cdef double* om = ow + mN
    cdef int r
    cdef double w, mm
    cdef int32_t bf
    for y in range(ylo, yhi):
        w = 0.0
        mm = 0.0
        for r in range(N_ROLLS):
            roll_min(t.g, t.gf, mN, t.mv.ss + y * 36, t.mv.ns + y * 6, r, &bf)
            w += NF_ROLL_P[r] * xw[bf]
            mm += NF_ROLL_P[r] * xm[bf]
        ow[y] = clip01(w)
        om[y] = clip01(mm)


ctypedef struct mars_job_t:
    mars_t* t
    Py_ssize_t start         # X boards start .. stop - 1
    Py_ssize_t stop
    double* xon              # boards >= mL: X-on-roll rows (stop - start, 2, mN), or NULL


cdef void solve_x_boards(void* arg, int tid, int n, nf_barrier_t* bar) noexcept nogil:
    """X boards start .. stop - 1 (all < mL or all >= mL), as thread tid of n (SPMD, as
    solve_shells): per board the X-on-roll row (Y columns split in ranges), the nested
    minima over Y's steps (dice split), the Y-on-roll values (Y columns split in ranges:
    block-cyclic splits, which balance the growing cost per board better, measured
    slower for N = 7), with a barrier after each.  Every value is computed by the same code on any thread."""
    cdef mars_job_t* job = <mars_job_t*>arg
    cdef mars_t* t = job.t
    cdef Py_ssize_t mN = t.mN, x, lo = share(1, mN, tid, n), hi = share(1, mN, tid + 1, n)
    cdef double* acc = t.acc + 5 * CHUNK * tid
    cdef double* xw
    cdef double* xm
    cdef double* ow
    cdef int d
    for x in range(job.start, job.stop):
        if x < t.mL:                          # race stage: bt[x, :]
            if tid == 0:
                t.arow[0] = 0.0
                t.bt[x * mN] = 1.0
            mars_race_row(t, x, acc, lo, hi)
            nf_barrier_wait(bar)
            for d in range(6):
                if die_owner(d, n) == tid:
                    nested_minima(t.arow, t.g, NULL, t.mN, t.mv.ss, t.mv.ns, d, 1, t.mN - 1)
            nf_barrier_wait(bar)
            mars_race_column(t, x, lo, hi)
        else:                                 # mars stage: both sides on roll
            xw = job.xon + (x - job.start) * 2 * mN
            xm = xw + mN
            if tid == 0:
                xw[0] = 0.0
                xm[0] = 1.0
                t.arow[0] = xw[0] - t.lam * xm[0]
                ow = t.yon + (x - t.mL) * 2 * mN
                ow[0] = 0.0
                ow[mN] = 1.0
            mars_x_row(t, x, xw, xm, acc, lo, hi)
            nf_barrier_wait(bar)
            for d in range(6):
                if die_owner(d, n) == tid:
                    nested_minima(t.arow, t.g, t.gf, t.mN, t.mv.ss, t.mv.ns, d, 1, t.mN - 1)
            nf_barrier_wait(bar)
            mars_y_row(t, x, xw, xm, lo, hi)
        nf_barrier_wait(bar)


cdef class MarsSolver(MoveTables):
    """Dynamic program of the mars extension (see ``bearoff.MarsTable``).

    X has ``all_checkers`` (T) checkers in all; Y has at most ``max_checkers`` (N < T).
    X's boards are visited in index order.  Boards of fewer than T checkers (X has one
    off: a plain race) fill ``bt[x, y]`` = P(Y on roll beats X), computing the X-on-roll
    row from earlier ``bt`` rows and then the Y-on-roll column by nested minima over Y's
    single steps (``run_race``).  Boards of exactly T checkers (none off) then give the
    X-on-roll rows (P(X wins), P(Y wins a mars)) into the caller's buffer and the
    Y-on-roll rows into ``y_on_roll`` (``run_mars``).  ``bt`` (C(T+5, 6) x C(N+6, 6)
    float64) lives only during the build (``release`` frees it).  ``threads`` > 1 splits
    the work of each X board among that many POSIX threads (``PTHREADS``; 1 without
    them); the tables are bit-identical for any thread count.
    """
    cdef mars_t t
    cdef Py_ssize_t done
    cdef int T, N
    cdef object yon_owner

    def __dealloc__(self):                   # C fields start zeroed (NULL): free(NULL) is fine
        free(self.t.bt)
        free(self.t.arow)
        free(self.t.g)
        free(self.t.gf)
        free(self.t.acc)

    def __init__(self, int all_checkers, int max_checkers, double lam,
                 double[:, :, ::1] y_on_roll, int threads=1):
        cdef Py_ssize_t mT, mL, mN
        if threads < 1:                     # checked before the tables are made
            raise ValueError(f"threads={threads}: must be >= 1")
        if not 1 <= all_checkers <= MAX_BEAROFF:
            raise ValueError(f"all_checkers={all_checkers}: must be 1..15")
        if not 0 <= max_checkers < all_checkers:
            raise ValueError(f"max_checkers={max_checkers}: must be 0..{all_checkers - 1}")
        mT = n_boards(all_checkers)
        mL = n_boards(all_checkers - 1)
        mN = n_boards(max_checkers)
        if (y_on_roll.shape[0] != mT - mL or y_on_roll.shape[1] != 2
                or y_on_roll.shape[2] != mN):
            raise ValueError(f"y_on_roll: expected shape ({mT - mL}, 2, {mN}), got "
                             f"({y_on_roll.shape[0]}, {y_on_roll.shape[1]}, "
                             f"{y_on_roll.shape[2]})")
        self.T = all_checkers
        self.N = max_checkers
        self.fill_tables(mN, mT, True, threads)
        self.t.mv = self.mv
        self.t.mT = mT
        self.t.mL = mL
        self.t.mN = mN
        self.t.lam = lam
        self.t.yon = &y_on_roll[0, 0, 0]
        self.yon_owner = y_on_roll
        self.done = 1                       # board 0 (X finished) is set below
        self.t.bt = <double*>malloc(mL * mN * sizeof(double))
        self.t.arow = <double*>malloc(mN * sizeof(double))
        self.t.g = <double*>malloc(18 * mN * sizeof(double))
        self.t.gf = <int32_t*>malloc(18 * mN * sizeof(int32_t))
        self.t.acc = <double*>malloc(5 * CHUNK * self.nthreads * sizeof(double))
        if (self.t.bt == NULL or self.t.arow == NULL or self.t.g == NULL or self.t.gf == NULL
                or self.t.acc == NULL):
            raise MemoryError(f"mars solver: {mL * mN * 8 / 2**20:,.0f} MiB for the race table")
        memset(self.t.bt, 0, mN * sizeof(double))   # X has borne off all: Y never wins

    @property
    def n_race(self):
        """X boards of fewer than T checkers (the race stage): C(T + 5, 6)."""
        return self.t.mL

    @property
    def n_mars(self):
        """X boards of exactly T checkers: C(T + 5, 5)."""
        return self.t.mT - self.t.mL

    @property
    def n_y(self):
        """Y boards (of at most N checkers): C(N + 6, 6)."""
        return self.t.mN

    @property
    def boards_done(self):
        """X boards solved so far (index order)."""
        return self.done

    def run_race(self, Py_ssize_t stop):
        """Solve the race boards up to (not including) ``stop`` (at most ``n_race``)."""
        if self.t.bt == NULL:
            raise RuntimeError("run_race(): the race table was released")
        cdef mars_job_t job
        stop = min(stop, self.t.mL)
        if stop <= self.done:
            return
        job.t = &self.t
        job.start = self.done
        job.stop = stop
        job.xon = NULL
        with nogil:
            nf_run(self.nthreads, solve_x_boards, &job)
        self.done = stop

    def run_mars(self, double[:, :, ::1] x_on_roll):
        """Solve the next ``x_on_roll.shape[0]`` (or fewer, at the end) boards of T
        checkers, writing their X-on-roll rows to ``x_on_roll[k, 0 / 1, :]`` (P(X wins),
        P(Y wins a mars)); returns how many."""
        cdef Py_ssize_t k = 0, n = x_on_roll.shape[0], mN = self.t.mN
        if self.done < self.t.mL:
            raise RuntimeError(f"run_mars(): {self.done} of {self.t.mL} race boards done")
        if self.t.bt == NULL:
            raise RuntimeError("run_mars(): the race table was released")
        if n and (x_on_roll.shape[1] != 2 or x_on_roll.shape[2] != mN):
            raise ValueError(f"x_on_roll: expected shape (k, 2, {mN})")
        cdef mars_job_t job
        k = min(n, self.t.mT - self.done)
        if k <= 0:
            return 0
        job.t = &self.t
        job.start = self.done
        job.stop = self.done + k
        job.xon = &x_on_roll[0, 0, 0]
        with nogil:
            nf_run(self.nthreads, solve_x_boards, &job)
        self.done += k
        return k

    def race_table(self):
        """A copy of ``bt`` (C(T+5, 6), C(N+6, 6)): P(Y on roll beats X), for tests."""
        if self.t.bt == NULL:
            raise RuntimeError("race_table(): released")
        out = np.empty((self.t.mL, self.t.mN), dtype=np.float64)
        cdef double[:, ::1] o = out
        memcpy(&o[0, 0], self.t.bt, self.t.mL * self.t.mN * sizeof(double))
        return out

    def release(self):
        """Free the race table (call when ``boards_done == n_race + n_mars``)."""
        free(self.t.bt)
        self.t.bt = NULL
