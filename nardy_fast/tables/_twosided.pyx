"""The exact two-sided bear-off solver (``bearoff.TwoSided``), in C.

The table (the caller's C-contiguous float64 (m, m) array) holds the transpose during the
build: ``q[y, x]`` = P(x on roll beats y).  Shell s computes row s (P[s, y] for y < s: the
side on roll s picks, for each roll, the result minimising the opponent's chance P[y,
result], read from rows of q: ``_rowmin.finals_min_row``), then column s (P[x, s] for
x <= s: the nested minima over single steps against row s, ``_rowmin.nested_minima`` and
``beat_chance``).  Each value reads only values of earlier shells or of the row just made.
``threads`` > 1 runs the shells SPMD on POSIX threads (``_threads.pxd``); the table is
bit-identical for any thread count.
"""
from libc.stdint cimport uint8_t, int32_t, int64_t
from libc.stdlib cimport malloc, free

from nardy_fast.tables._board6 cimport n_boards, MAX_BEAROFF
from nardy_fast.tables._bomoves cimport MoveTables, moves_t
from nardy_fast.tables._rowmin cimport CHUNK, finals_min_row, nested_minima, beat_chance
from nardy_fast.core._threads cimport (NF_PTHREADS, nf_barrier_t, nf_barrier_wait, nf_run, share, die_owner)

__all__ = ["TwoSidedSolver", "PTHREADS"]

PTHREADS = bool(NF_PTHREADS)      # threads > 1 can run in parallel

cdef enum:
    PAR_MIN = 256            # shells below this size run on one thread even with threads

ctypedef struct two_t:
    Py_ssize_t m             # boards
    double* q                # (m, m) table, transposed during the build
    moves_t mv               # single steps and finals of the m boards (_bomoves.pxd)
    double* row              # row s of P during shell s
    double* g                # g[(k*6 + d) * m + x]: G_{k+1}(x, d + 1) against row s
    double* acc              # 2 * CHUNK doubles per thread


cdef inline void row_part(two_t* t, Py_ssize_t s, Py_ssize_t lo, Py_ssize_t hi,
                          double* acc) noexcept nogil:
    """row[y] = P[s, y] for lo <= y < hi, in chunks of CHUNK columns."""
    cdef Py_ssize_t y0 = lo
    while y0 < hi:
        finals_min_row(t.q, t.m, t.mv.fstart, t.mv.flist, s, y0, min(<Py_ssize_t>CHUNK, hi - y0),
                       acc, t.row + y0)
        y0 += CHUNK


cdef inline void column_entry(two_t* t, Py_ssize_t s, Py_ssize_t x) noexcept nogil:
    """P[x, s] = 1 - sum_r p_r (min over the moves of r from x of P[s, result])."""
    t.q[s * t.m + x] = beat_chance(t.g, t.m, t.mv.ss + x * 36, t.mv.ns + x * 6)


cdef void solve_shell(two_t* t, Py_ssize_t s) noexcept nogil:
    """Shell s on one thread: row s of P (y < s), then column s (x <= s).  The same
    per-value code as solve_shells, kept apart so that one thread runs exactly as fast as
    before the threads (6 x 8 through solve_shells with one thread: ~5 % slower)."""
    cdef Py_ssize_t m = t.m, y, x
    cdef int d
    if s == 0:
        t.q[0] = 0.0
        return
    t.row[0] = 0.0
    row_part(t, s, 1, s, t.acc)
    for y in range(s):
        t.q[y * m + s] = t.row[y]
    t.q[s * m] = 1.0                        # empty on roll: it has already won
    for d in range(6):
        nested_minima(t.row, t.g, NULL, m, t.mv.ss, t.mv.ns, d, 1, s)
    for x in range(1, s + 1):
        column_entry(t, s, x)


ctypedef struct two_job_t:
    two_t* t
    Py_ssize_t start         # shells start .. stop - 1
    Py_ssize_t stop


cdef void solve_shells(void* arg, int tid, int n, nf_barrier_t* bar) noexcept nogil:
    """Shells start .. stop - 1, as thread tid of n (SPMD: every thread walks every shell
    and takes its share of each sweep, with a barrier after each).  Shell s: row s of P
    (y < s, split in column ranges), then column s (x <= s): the nested minima per die
    (dice split among threads), then the per-board combination (split in board ranges).
    Every value is computed by the same code whichever thread does it."""
    cdef two_job_t* job = <two_job_t*>arg
    cdef two_t* t = job.t
    cdef Py_ssize_t m = t.m, s, y, lo, hi, x
    cdef double* acc = t.acc + 2 * CHUNK * tid
    cdef int d
    for s in range(job.start, job.stop):
        if s == 0:
            if tid == 0:
                t.q[0] = 0.0
            continue
        # ---- row s
        lo = share(1, s, tid, n)
        hi = share(1, s, tid + 1, n)
        row_part(t, s, lo, hi, acc)
        if tid == 0:
            t.row[0] = 0.0
            t.q[s] = 0.0
            t.q[s * m] = 1.0                # empty on roll: it has already won
        for y in range(lo, hi):
            t.q[y * m + s] = t.row[y]
        nf_barrier_wait(bar)
        # ---- column s: nested minima over steps against row s (dice independent)
        for d in range(6):
            if die_owner(d, n) == tid:
                nested_minima(t.row, t.g, NULL, m, t.mv.ss, t.mv.ns, d, 1, s)
        nf_barrier_wait(bar)
        for x in range(share(1, s + 1, tid, n), share(1, s + 1, tid + 1, n)):
            column_entry(t, s, x)
        nf_barrier_wait(bar)


cdef class TwoSidedSolver(MoveTables):
    """State of the two-sided dynamic program; ``run(stop)`` advances it shell by shell
    (see the module docstring).  ``finish()`` transposes in place, leaving
    P[on roll, opponent].  ``threads`` > 1 splits each sweep of a shell of at least
    ``PAR_MIN`` boards among that many POSIX threads (``PTHREADS``; 1 thread without
    them); every value is computed by the same code on any thread, so the table is
    bit-identical for any thread count.
    """
    cdef two_t t
    cdef readonly Py_ssize_t shells_done    # 0 .. n_boards; n_boards + 1 after finish
    cdef object q_owner

    def __dealloc__(self):                   # C fields start zeroed (NULL): free(NULL) is fine
        free(self.t.row)
        free(self.t.g)
        free(self.t.acc)

    def __init__(self, int max_checkers, double[:, ::1] table, int threads=1):
        if not 0 <= max_checkers <= MAX_BEAROFF:
            raise ValueError(f"max_checkers={max_checkers}: must be 0..{MAX_BEAROFF}")
        cdef Py_ssize_t m = n_boards(max_checkers)
        if table.shape[0] != m or table.shape[1] != m:
            raise ValueError(f"table: expected shape ({m}, {m}), got "
                             f"({table.shape[0]}, {table.shape[1]})")
        self.fill_tables(m, m, False, threads)
        self.t.mv = self.mv
        self.t.m = m
        self.shells_done = 0
        self.t.q = &table[0, 0]
        self.q_owner = table
        self.t.row = <double*>malloc(m * sizeof(double))
        self.t.g = <double*>malloc(18 * m * sizeof(double))
        self.t.acc = <double*>malloc(2 * CHUNK * self.nthreads * sizeof(double))
        if self.t.row == NULL or self.t.g == NULL or self.t.acc == NULL:
            raise MemoryError()

    @property
    def n_boards(self):
        """Boards of at most max_checkers checkers: C(max_checkers + 6, 6)."""
        return self.t.m

    def run(self, Py_ssize_t stop):
        """Compute shells up to (not including) ``stop``; releases the GIL."""
        cdef two_job_t job
        stop = min(stop, self.t.m)
        if stop <= self.shells_done:
            return
        job.t = &self.t
        with nogil:
            while self.shells_done < stop and (self.nthreads == 1 or self.shells_done < PAR_MIN):
                solve_shell(&self.t, self.shells_done)    # one thread (small shells)
                self.shells_done += 1
            if self.shells_done < stop:
                job.start = self.shells_done
                job.stop = stop
                nf_run(self.nthreads, solve_shells, &job)
                self.shells_done = stop

    def finish(self):
        """Transpose in place: afterwards table[x, y] = P(x on roll beats y)."""
        if self.shells_done != self.t.m:
            raise RuntimeError(f"finish(): {self.shells_done} of {self.t.m} shells done")
        cdef Py_ssize_t i, j, i0, j0, m = self.t.m
        cdef double v
        cdef double* q = self.t.q
        with nogil:
            for i0 in range(0, m, 64):
                for j0 in range(i0, m, 64):
                    for i in range(i0, min(i0 + 64, m)):
                        for j in range(max(j0, i + 1), min(j0 + 64, m)):
                            v = q[i * m + j]
                            q[i * m + j] = q[j * m + i]
                            q[j * m + i] = v
        self.shells_done = self.t.m + 1
