"""Exact bear-off solvers (rule book section 6), in C.

Boards are ``board6`` (see ``_bearoff.pxd``): ``board6[i]`` = checkers on the mover's point
``24 - i``.  Indices are the colexicographic rank described there; every successor of a
board has a smaller index, so the dynamic programs run in plain index order.

Bear-off moves.  Once all of a side's checkers are home, every die can be played while a
checker is left (die ``d`` bears off from ``board6[d-1]``, moves a checker from
``board6[i]``, ``i >= d``, to ``board6[i-d]``, or, with nothing on ``d-1`` or beyond, bears
off from the highest occupied point), so the legal moves of a roll are exactly the
sequences of legal single steps of its dice (both orders of a non-double, four steps of a
double) that stop early only when the board is empty.  ``compare_with_movegen`` proves
this generator equal to ``_movegen.gen_successors`` on every board and roll.

Optimal play without enumerating whole moves.  The best move of a roll minimises (or
maximises) a value over the boards a move can leave, and a move is a sequence of single
steps, so the best value is a nested minimum over steps:
``G_k(x, d) = min over single steps x -> y of die d of G_{k-1}(y, d)``, ``G_0 = value``;
a double ``d`` is ``G_4(x, d)``, a non-double ``(a, b)`` is the smaller of the minima over
``a``-steps of ``G_1(., b)`` and over ``b``-steps of ``G_1(., a)``.  Every ``G_k(y, .)`` with
``y`` below ``x`` is ready when ``x`` is reached, so each board costs about 6 x 4 x (occupied
points) lookups instead of one per legal move.  Ties between equal values are broken by
the smaller final board index, so the chosen play depends only on the values.

Mars extension (``MarsSolver``).  X with all T checkers (none off) against Y of <= N: X's
boards are visited in index order; those of < T checkers fill the rectangular race table
``bt`` (P(Y on roll beats X); the X-on-roll row from X's final lists over ``bt`` rows, the
Y-on-roll column by nested minima over Y's steps), those of exactly T then give
(P(X wins), P(Y mars)) rows for both sides on roll, both sides optimising
``V = P(X wins) - lam P(Y mars)``.  Only ``bt`` and the Y-on-roll rows are kept: the
X-on-roll rows go to the caller as they are made (``bearoff.MarsTable.build`` streams
them to the file).

Both cores.  ``threads`` > 1 runs a solver SPMD on POSIX threads (``solve_shells``,
``solve_x_boards``, started by ``nf_run`` for each ``run`` call): every thread walks the
same boards and takes a fixed share of each sweep (a range of columns, a subset of the
dice, a range of boards), with a barrier between sweeps (three per board; polls, then
yields, then sleeps, so a descheduled thread costs a wake-up, not spinning time slices).
Each value is computed by the same code from the same inputs whichever thread does it,
so the tables are bit-identical for any thread count.  No OpenMP is needed; without
pthreads (``PTHREADS`` false) everything runs on the calling thread.
"""
from libc.stdint cimport uint8_t, int32_t, int64_t
from libc.string cimport memcpy, memset
from libc.stdlib cimport malloc, free
from libc.math cimport INFINITY

import numpy as np

from nardy_fast._movegen cimport gen_successors, rules_t, DEFAULT_CAP

cdef extern from *:
    """
    /* Both cores in the default build: the solvers run SPMD (every thread walks the same
       boards and takes its share of each sweep), with POSIX threads and a barrier that
       spins briefly, then sleeps on a condition variable (a descheduled thread costs the
       others a sleep, not a spinning time slice).  Each value is computed by exactly the
       same code whichever thread computes it, so results do not depend on the thread
       count.  Elsewhere (no pthreads) everything runs on the calling thread. */
    #if defined(__unix__) || defined(__APPLE__)
    #include <pthread.h>
    #include <sched.h>
    #define NF_PTHREADS 1
    #else
    #define NF_PTHREADS 0
    #endif
    #if defined(__x86_64__) || defined(__i386__)
    #include <emmintrin.h>
    #define NF_PAUSE() _mm_pause()
    #else
    #define NF_PAUSE() ((void)0)
    #endif
    #define NF_SPIN 1000              /* polls (~10 us), then NF_YIELD yields, then sleep */
    #define NF_YIELD 64
    #define NF_MAX_THREADS 64

    typedef struct {
        int n;
        int count;
        unsigned gen;
    #if NF_PTHREADS
        pthread_mutex_t mu;
        pthread_cond_t cv;
    #endif
    } nf_barrier_t;

    static void nf_barrier_wait(nf_barrier_t* b) {
    #if NF_PTHREADS
        unsigned g;
        int i;
        if (b == NULL || b->n <= 1) return;
        g = __atomic_load_n(&b->gen, __ATOMIC_ACQUIRE);
        if (__atomic_add_fetch(&b->count, 1, __ATOMIC_ACQ_REL) == b->n) {
            __atomic_store_n(&b->count, 0, __ATOMIC_RELAXED);
            pthread_mutex_lock(&b->mu);
            __atomic_store_n(&b->gen, g + 1, __ATOMIC_RELEASE);
            pthread_cond_broadcast(&b->cv);
            pthread_mutex_unlock(&b->mu);
            return;
        }
        for (i = 0; i < NF_SPIN; i++) {
            if (__atomic_load_n(&b->gen, __ATOMIC_ACQUIRE) != g) return;
            NF_PAUSE();
        }
        for (i = 0; i < NF_YIELD; i++) {    /* a descheduled thread may need this core */
            if (__atomic_load_n(&b->gen, __ATOMIC_ACQUIRE) != g) return;
            sched_yield();
        }
        pthread_mutex_lock(&b->mu);
        while (__atomic_load_n(&b->gen, __ATOMIC_ACQUIRE) == g)
            pthread_cond_wait(&b->cv, &b->mu);
        pthread_mutex_unlock(&b->mu);
    #else
        (void)b;
    #endif
    }

    typedef void (*nf_fn)(void* arg, int tid, int n, nf_barrier_t* bar);

    typedef struct {
        nf_fn fn;
        void* arg;
        int tid;
        int n;
        nf_barrier_t* bar;
    #if NF_PTHREADS
        pthread_mutex_t* gate;
    #endif
    } nf_task_t;

    #if NF_PTHREADS
    static void* nf_thread_main(void* p) {
        nf_task_t* k = (nf_task_t*)p;
        pthread_mutex_lock(k->gate);        /* held by nf_run until n is known */
        pthread_mutex_unlock(k->gate);
        k->fn(k->arg, k->tid, k->n, k->bar);
        return NULL;
    }
    #endif

    /* fn(arg, tid, n, bar) on n threads (tid 0 the caller); returns n, or fewer when
       threads could not be started (1 without pthreads).  Threads are started before
       any runs, so n is fixed when fn starts. */
    static int nf_run(int n, nf_fn fn, void* arg) {
        nf_barrier_t bar;
        bar.n = 1; bar.count = 0; bar.gen = 0;
    #if NF_PTHREADS
        pthread_t th[NF_MAX_THREADS];
        nf_task_t task[NF_MAX_THREADS];
        pthread_mutex_t gate_mu = PTHREAD_MUTEX_INITIALIZER;
        int i, started = 1;
        if (n > NF_MAX_THREADS) n = NF_MAX_THREADS;
        if (n > 1) {
            pthread_mutex_init(&bar.mu, NULL);
            pthread_cond_init(&bar.cv, NULL);
            /* the gate holds the workers until the thread count is known */
            pthread_mutex_lock(&gate_mu);
            for (i = 1; i < n; i++) {
                task[i].fn = fn; task[i].arg = arg; task[i].tid = i; task[i].bar = &bar;
                task[i].n = 0; task[i].gate = &gate_mu;
            }
            for (i = 1; i < n; i++) {
                if (pthread_create(&th[i], NULL, nf_thread_main, &task[i]) != 0) break;
                started++;
            }
            bar.n = started;
            for (i = 1; i < started; i++) task[i].n = started;
            pthread_mutex_unlock(&gate_mu);
        }
        fn(arg, 0, started, &bar);
        for (i = 1; i < started; i++) pthread_join(th[i], NULL);
        if (n > 1) {
            pthread_mutex_destroy(&bar.mu);
            pthread_cond_destroy(&bar.cv);
        }
        pthread_mutex_destroy(&gate_mu);
        return started;
    #else
        (void)n;
        fn(arg, 0, 1, &bar);
        return 1;
    #endif
    }
    """
    int NF_PTHREADS
    ctypedef struct nf_barrier_t:
        pass
    ctypedef void (*nf_fn)(void* arg, int tid, int n, nf_barrier_t* bar) noexcept nogil
    void nf_barrier_wait(nf_barrier_t* bar) noexcept nogil
    int nf_run(int n, nf_fn fn, void* arg) noexcept nogil

PTHREADS = bool(NF_PTHREADS)      # threads > 1 can run in parallel

cdef extern from *:
    """
    /* Running maximum of V over candidate rows with its (P(win), P(mars)); strict ">"
       keeps the first (smallest) final on ties.  The selects are data-dependent branches
       in scalar code (gcc does not vectorise them without SSE4.1 blends), so x86-64 gets
       SSE2 bit-mask selects, with identical arithmetic (no FMA: same rounding).
       Measured: mars stage of MarsSolver(15, 6) 8.2 s -> 7.3 s. */
    #if defined(__SSE2__)
    #include <emmintrin.h>
    #define NF_SEL(c, a, b) _mm_or_pd(_mm_and_pd((c), (a)), _mm_andnot_pd((c), (b)))
    #endif
    static inline void nf_best_race(const double* restrict bt, double* restrict bv,
                                    double* restrict bw, double* restrict bm, Py_ssize_t n) {
        Py_ssize_t j = 0;
    #if defined(__SSE2__)
        const __m128d one = _mm_set1_pd(1.0), zero = _mm_setzero_pd();
        for (; j + 2 <= n; j += 2) {
            __m128d w = _mm_sub_pd(one, _mm_loadu_pd(bt + j)), ob = _mm_loadu_pd(bv + j);
            __m128d c = _mm_cmpgt_pd(w, ob);
            _mm_storeu_pd(bv + j, NF_SEL(c, w, ob));
            _mm_storeu_pd(bw + j, NF_SEL(c, w, _mm_loadu_pd(bw + j)));
            _mm_storeu_pd(bm + j, NF_SEL(c, zero, _mm_loadu_pd(bm + j)));
        }
    #endif
        for (; j < n; j++) {
            double w = 1.0 - bt[j], ob = bv[j], ow = bw[j], om = bm[j];
            int c = w > ob;
            bv[j] = c ? w : ob; bw[j] = c ? w : ow; bm[j] = c ? 0.0 : om;
        }
    }
    static inline void nf_best_mars(const double* restrict sw, const double* restrict sm,
                                    double lam, double* restrict bv, double* restrict bw,
                                    double* restrict bm, Py_ssize_t n) {
        Py_ssize_t j = 0;
    #if defined(__SSE2__)
        const __m128d vl = _mm_set1_pd(lam);
        for (; j + 2 <= n; j += 2) {
            __m128d w = _mm_loadu_pd(sw + j), mm = _mm_loadu_pd(sm + j);
            __m128d v = _mm_sub_pd(w, _mm_mul_pd(vl, mm)), ob = _mm_loadu_pd(bv + j);
            __m128d c = _mm_cmpgt_pd(v, ob);
            _mm_storeu_pd(bv + j, NF_SEL(c, v, ob));
            _mm_storeu_pd(bw + j, NF_SEL(c, w, _mm_loadu_pd(bw + j)));
            _mm_storeu_pd(bm + j, NF_SEL(c, mm, _mm_loadu_pd(bm + j)));
        }
    #endif
        for (; j < n; j++) {
            double w = sw[j], mm = sm[j], v = w - lam * mm, ob = bv[j], ow = bw[j], om = bm[j];
            int c = v > ob;
            bv[j] = c ? v : ob; bw[j] = c ? w : ow; bm[j] = c ? mm : om;
        }
    }
    """
    void nf_best_race(const double* bt, double* bv, double* bw, double* bm,
                      Py_ssize_t n) noexcept nogil
    void nf_best_mars(const double* sw, const double* sm, double lam, double* bv,
                      double* bw, double* bm, Py_ssize_t n) noexcept nogil

cdef enum:
    T_WORK = 64              # work columns of a turn distribution (15 checkers need 31)
    MAX_FINALS = 1400        # distinct results of one roll from one board (<= 6**4 orders)
    CHUNK = 256              # columns per block in the two-sided row update
    PAR_MIN = 256            # shells below this size run on one thread even with threads

# BINOM[x][k] = C(x, k) for x <= 21, k <= 6
cdef Py_ssize_t BINOM[22][7]
# roll r -> dice and probability
cdef int ROLL_D1[N_ROLLS]
cdef int ROLL_D2[N_ROLLS]
cdef double ROLL_P[N_ROLLS]


cdef void _init_tables() noexcept:
    cdef int x, k, a, b, r = 0
    for x in range(22):
        for k in range(7):
            if k == 0:
                BINOM[x][k] = 1
            elif x == 0:
                BINOM[x][k] = 0
            else:
                BINOM[x][k] = BINOM[x - 1][k - 1] + BINOM[x - 1][k]
    for a in range(1, 7):
        for b in range(a, 7):
            ROLL_D1[r] = a
            ROLL_D2[r] = b
            ROLL_P[r] = (1.0 if a == b else 2.0) / 36.0
            r += 1

_init_tables()


# --------------------------------------------------------------------------------------
# Index <-> board

cdef inline Py_ssize_t index6(const uint8_t* c) noexcept nogil:
    cdef Py_ssize_t idx = 0
    cdef int k, s = 0
    for k in range(N_HOME):
        s += c[5 - k]
        idx += BINOM[s + k][k + 1]
    return idx


cdef Py_ssize_t board6_index(const uint8_t* board6) noexcept nogil:
    return index6(board6)


cdef void board6_from_index(Py_ssize_t idx, uint8_t* board6) noexcept nogil:
    cdef int k, x = 20, prev = 0, s
    for k in range(5, -1, -1):
        while BINOM[x][k + 1] > idx:
            x -= 1
        idx -= BINOM[x][k + 1]
        # bar k at x: S_k = x - k
        board6[5 - k] = <uint8_t>(x - k)
        x -= 1
    # board6[5 - k] holds S_k; difference them
    for k in range(5, 0, -1):
        board6[5 - k] = board6[5 - k] - board6[5 - k + 1]


cdef double roll_dice(int r, int* d1, int* d2) noexcept nogil:
    d1[0] = ROLL_D1[r]
    d2[0] = ROLL_D2[r]
    return ROLL_P[r]


cdef inline Py_ssize_t n_boards(int max_checkers) noexcept nogil:
    return BINOM[max_checkers + 6][6]


# --------------------------------------------------------------------------------------
# The bear-off move generator

cdef inline int step_sources(const uint8_t* c, int d, int* src) noexcept nogil:
    """Source points of the legal single steps of die d (1..6); a source i goes to i - d,
    off when i - d < 0.  Returns the count (0 only for the empty board)."""
    cdef int i, n = 0
    for i in range(d, N_HOME):
        if c[i]:
            src[n] = i
            n += 1
    if c[d - 1]:
        src[n] = d - 1
        n += 1
    elif n == 0:
        i = d - 2
        while i >= 0 and c[i] == 0:
            i -= 1
        if i >= 0:
            src[n] = i
            n += 1
    return n


cdef inline void apply_step(uint8_t* c, int i, int d) noexcept nogil:
    c[i] -= 1
    if i - d >= 0:
        c[i - d] += 1


cdef inline void undo_step(uint8_t* c, int i, int d) noexcept nogil:
    c[i] += 1
    if i - d >= 0:
        c[i - d] -= 1


cdef void single_step_table(Py_ssize_t m, int32_t* ss, uint8_t* ns) noexcept nogil:
    """ss[(x * 6 + d - 1) * 6 + q], q < ns[x * 6 + d - 1]: index after single step q of
    die d from board x."""
    cdef Py_ssize_t x
    cdef uint8_t c[N_HOME]
    cdef int src[N_HOME]
    cdef int d, q, n
    for x in range(m):
        board6_from_index(x, c)
        for d in range(1, 7):
            n = step_sources(c, d, src)
            ns[x * 6 + d - 1] = <uint8_t>n
            for q in range(n):
                apply_step(c, src[q], d)
                ss[(x * 6 + d - 1) * 6 + q] = <int32_t>index6(c)
                undo_step(c, src[q], d)


cdef void collect(uint8_t* c, const int* dice, int k, int nd, int32_t* out, Py_ssize_t* n,
                  int32_t* stamp, int32_t mark) noexcept nogil:
    """Append to out the distinct indices of the boards that the remaining dice
    dice[k:nd] can leave (stamp[idx] == mark marks those already recorded)."""
    cdef int src[N_HOME]
    cdef int q, ns, empty = 1
    cdef Py_ssize_t idx
    for q in range(N_HOME):
        if c[q]:
            empty = 0
            break
    if k == nd or empty:
        idx = index6(c)
        if stamp[idx] != mark:
            stamp[idx] = mark
            out[n[0]] = <int32_t>idx
            n[0] += 1
        return
    ns = step_sources(c, dice[k], src)
    for q in range(ns):
        apply_step(c, src[q], dice[k])
        collect(c, dice, k + 1, nd, out, n, stamp, mark)
        undo_step(c, src[q], dice[k])


cdef Py_ssize_t roll_finals(const uint8_t* board6, int d1, int d2, int32_t* out,
                            int32_t* stamp, int32_t mark) noexcept nogil:
    """Distinct board indices after each legal move of (d1, d2) from board6 (the board
    itself when it is empty).  stamp: int32 per index, none equal to mark on entry."""
    cdef uint8_t c[N_HOME]
    cdef int dice[4]
    cdef Py_ssize_t n = 0
    memcpy(c, board6, N_HOME)
    if d1 == d2:
        dice[0] = dice[1] = dice[2] = dice[3] = d1
        collect(c, dice, 0, 4, out, &n, stamp, mark)
    else:
        dice[0] = d1
        dice[1] = d2
        collect(c, dice, 0, 2, out, &n, stamp, mark)
        dice[0] = d2
        dice[1] = d1
        collect(c, dice, 0, 2, out, &n, stamp, mark)
    return n


# --------------------------------------------------------------------------------------
# One-sided database

ctypedef struct gtab_t:
    double* v                # v[(k * 6 + d - 1) * m + x]: G_{k+1}(x, d), k = 0..2
    int32_t* f               # the final board index achieving it
    Py_ssize_t m


cdef inline void better(double v, int32_t f, double* bv, int32_t* bf) noexcept nogil:
    if v < bv[0] or (v == bv[0] and f < bf[0]):
        bv[0] = v
        bf[0] = f


cdef void one_sided_pass(Py_ssize_t m, const int32_t* ss, const uint8_t* ns,
                         const uint8_t* nchk, int first_off, double* val, int32_t* fin,
                         gtab_t* g) noexcept nogil:
    """Expected own turns (first_off = 0: to bear off all; 1: until the first checker is
    off) under the play minimising it, into val[0:m]; fin[x * 21 + r] = board left by the
    best play of roll r from x."""
    cdef Py_ssize_t x, y, m6 = 0
    cdef int d, k, q, r, a, b
    cdef double bv, acc
    cdef int32_t bf
    cdef const int32_t* s
    cdef double* gv = g.v
    cdef int32_t* gf = g.f
    # the empty board: no turns; its G entries are itself
    val[0] = 0.0
    for k in range(3):
        for d in range(6):
            gv[(k * 6 + d) * m] = 0.0
            gf[(k * 6 + d) * m] = 0
    for r in range(N_ROLLS):
        fin[r] = 0
    for x in range(1, m):
        s = ss + x * 36
        # G_1 .. G_3 of every die
        for d in range(6):
            bv = INFINITY
            bf = 0x7FFFFFFF
            for q in range(ns[x * 6 + d]):
                y = s[d * 6 + q]
                better(val[y], <int32_t>y, &bv, &bf)
            gv[d * m + x] = bv
            gf[d * m + x] = bf
            for k in range(1, 3):
                bv = INFINITY
                bf = 0x7FFFFFFF
                for q in range(ns[x * 6 + d]):
                    y = s[d * 6 + q]
                    better(gv[((k - 1) * 6 + d) * m + y], gf[((k - 1) * 6 + d) * m + y],
                           &bv, &bf)
                gv[(k * 6 + d) * m + x] = bv
                gf[(k * 6 + d) * m + x] = bf
        acc = 0.0
        for r in range(N_ROLLS):
            a = ROLL_D1[r] - 1
            b = ROLL_D2[r] - 1
            bv = INFINITY
            bf = 0x7FFFFFFF
            if a == b:
                for q in range(ns[x * 6 + a]):
                    y = s[a * 6 + q]
                    better(gv[(2 * 6 + a) * m + y], gf[(2 * 6 + a) * m + y], &bv, &bf)
            else:
                for q in range(ns[x * 6 + a]):
                    y = s[a * 6 + q]
                    better(gv[b * m + y], gf[b * m + y], &bv, &bf)
                for q in range(ns[x * 6 + b]):
                    y = s[b * 6 + q]
                    better(gv[a * m + y], gf[a * m + y], &bv, &bf)
            fin[x * N_ROLLS + r] = bf
            acc += ROLL_P[r] * bv
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
            p = ROLL_P[r]
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


# --------------------------------------------------------------------------------------
# Two-sided database

ctypedef struct two_t:
    Py_ssize_t m             # boards
    double* q                # (m, m) table, transposed during the build
    int32_t* ss              # single-step successors (see single_step_table)
    uint8_t* ns
    int64_t* fstart          # finals of (x, r): flist[fstart[x*21+r] : fstart[x*21+r+1]]
    int32_t* flist
    double* row              # row s of P during shell s
    double* g                # g[(k*6 + d) * m + x]: G_{k+1}(x, d + 1) against row s
    double* acc              # 2 * CHUNK doubles per thread


cdef void row_chunk(two_t* t, Py_ssize_t s, Py_ssize_t y0, Py_ssize_t yend,
                    double* acc) noexcept nogil:
    """row[y] = P[s, y] = 1 - sum_r p_r min over finals x' of (s, r) of q[x', y], for
    y0 <= y < min(y0 + CHUNK, yend): elementwise minima of rows of q."""
    cdef Py_ssize_t m = t.m, n = min(<Py_ssize_t>CHUNK, yend - y0), j
    cdef double* mn = acc + CHUNK
    cdef const double* src
    cdef int64_t lo, hi, e
    cdef int r, skip
    cdef double v, p
    for j in range(n):
        acc[j] = 0.0
    for r in range(N_ROLLS):
        lo = t.fstart[s * N_ROLLS + r]
        hi = t.fstart[s * N_ROLLS + r + 1]
        skip = 0
        for e in range(lo, hi):
            if t.flist[e] == 0:
                skip = 1                    # bears off everything: the opponent never wins
                break
        if skip:
            continue
        src = t.q + <Py_ssize_t>t.flist[lo] * m + y0
        for j in range(n):
            mn[j] = src[j]
        for e in range(lo + 1, hi):
            src = t.q + <Py_ssize_t>t.flist[e] * m + y0
            for j in range(n):
                v = src[j]
                mn[j] = v if v < mn[j] else mn[j]
        p = ROLL_P[r]
        for j in range(n):
            acc[j] += p * mn[j]
    for j in range(n):
        v = 1.0 - acc[j]
        t.row[y0 + j] = 0.0 if v < 0.0 else (1.0 if v > 1.0 else v)


cdef void g_levels(two_t* t, Py_ssize_t s, int d) noexcept nogil:
    """G_1 .. G_3 of die d + 1 for boards 1 .. s against row s: G_{k+1}(x) = the minimum
    over single steps x -> y of G_k(y), G_0 = row s.  Dice are independent of each other."""
    cdef Py_ssize_t m = t.m, x
    cdef const int32_t* sx
    cdef const double* src
    cdef double* dst
    cdef int k, qq, nq
    cdef double bv, v
    for k in range(3):
        t.g[(k * 6 + d) * m] = 0.0          # the empty board: row[0] = 0
    for x in range(1, s + 1):
        sx = t.ss + x * 36 + d * 6
        nq = t.ns[x * 6 + d]
        for k in range(3):
            src = t.row if k == 0 else t.g + ((k - 1) * 6 + d) * m
            dst = t.g + (k * 6 + d) * m
            bv = INFINITY
            for qq in range(nq):
                v = src[sx[qq]]
                if v < bv:
                    bv = v
            dst[x] = bv


cdef void combine(two_t* t, Py_ssize_t s, Py_ssize_t x) noexcept nogil:
    """P[x, s] = 1 - sum_r p_r (min over the moves of r from x of P[s, result])."""
    cdef Py_ssize_t m = t.m
    cdef const int32_t* sx = t.ss + x * 36
    cdef const double* g = t.g
    cdef int r, a, b, qq
    cdef double bv, v, tot = 0.0
    for r in range(N_ROLLS):
        a = ROLL_D1[r] - 1
        b = ROLL_D2[r] - 1
        bv = INFINITY
        if a == b:
            for qq in range(t.ns[x * 6 + a]):
                v = g[(12 + a) * m + sx[a * 6 + qq]]
                if v < bv:
                    bv = v
        else:
            for qq in range(t.ns[x * 6 + a]):
                v = g[b * m + sx[a * 6 + qq]]
                if v < bv:
                    bv = v
            for qq in range(t.ns[x * 6 + b]):
                v = g[a * m + sx[b * 6 + qq]]
                if v < bv:
                    bv = v
        tot += ROLL_P[r] * bv
    tot = 1.0 - tot
    t.q[s * m + x] = 0.0 if tot < 0.0 else (1.0 if tot > 1.0 else tot)


cdef inline Py_ssize_t share(Py_ssize_t lo, Py_ssize_t hi, int k, int n) noexcept nogil:
    """Start of part k of n of the range lo .. hi (part k is share(k) .. share(k + 1))."""
    return lo + (hi - lo) * k // n


cdef inline int die_owner(int d, int n) noexcept nogil:
    """The thread (of n) computing the nested minima of die d + 1.  A die of d + 1 has
    steps from the points d .. 5, so the work falls with d; two threads take dice 1, 4, 5
    and 2, 3, 6 (11 : 10 points) rather than odd / even (12 : 9)."""
    if n == 2:
        return (0x26 >> d) & 1
    return d % n


cdef void solve_shell(two_t* t, Py_ssize_t s) noexcept nogil:
    """Shell s on one thread: row s of P (y < s), then column s (x <= s).  The same
    per-value code as solve_shells, kept apart so that one thread runs exactly as fast as
    before the threads (6 x 8 through solve_shells with one thread: ~5 % slower)."""
    cdef Py_ssize_t m = t.m, y, x, y0
    cdef int d
    if s == 0:
        t.q[0] = 0.0
        return
    t.row[0] = 0.0
    y0 = 1
    while y0 < s:
        row_chunk(t, s, y0, s, t.acc)
        y0 += CHUNK
    for y in range(s):
        t.q[y * m + s] = t.row[y]
    t.q[s * m] = 1.0                        # empty on roll: it has already won
    for d in range(6):
        g_levels(t, s, d)
    for x in range(1, s + 1):
        combine(t, s, x)


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
    cdef Py_ssize_t m = t.m, s, y, y0, lo, hi, x
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
        y0 = lo
        while y0 < hi:
            row_chunk(t, s, y0, hi, acc)
            y0 += CHUNK
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
                g_levels(t, s, d)
        nf_barrier_wait(bar)
        for x in range(share(1, s + 1, tid, n), share(1, s + 1, tid + 1, n)):
            combine(t, s, x)
        nf_barrier_wait(bar)


cdef class TwoSidedSolver:
    """State of the two-sided dynamic program; ``run(stop)`` advances it shell by shell.

    The table (the caller's C-contiguous float64 (m, m) array) holds the transpose during
    the build: ``q[y, x]`` = P(x on roll beats y).  Shell s computes row s (P[s, y] for
    y < s: the side on roll s picks, for each roll, the result minimising the opponent's
    chance P[y, result], read from rows of q), then column s (P[x, s] for x <= s: the
    nested minimum over single steps against row s).  Each value reads only values of
    earlier shells or of the row just made.  ``finish()`` transposes in place, leaving
    P[on roll, opponent].  ``threads`` > 1 splits each sweep of a shell of at least
    ``PAR_MIN`` boards among that many POSIX threads (``PTHREADS``; 1 thread without
    them); every value is computed by the same code on any thread, so the table is
    bit-identical for any thread count.
    """
    cdef two_t t
    cdef Py_ssize_t shell
    cdef int nthreads
    cdef object q_owner

    def __dealloc__(self):                   # C fields start zeroed (NULL): free(NULL) is fine
        free(self.t.ss)
        free(self.t.ns)
        free(self.t.fstart)
        free(self.t.flist)
        free(self.t.row)
        free(self.t.g)
        free(self.t.acc)

    def __init__(self, int max_checkers, double[:, ::1] table, int threads=1):
        cdef Py_ssize_t m = n_boards(max_checkers)
        if table.shape[0] != m or table.shape[1] != m:
            raise ValueError(f"table: expected shape ({m}, {m}), got "
                             f"({table.shape[0]}, {table.shape[1]})")
        if threads < 1:
            raise ValueError(f"threads={threads}: must be >= 1")
        self.nthreads = min(threads, 64) if PTHREADS else 1
        self.t.m = m
        self.shell = 0
        self.t.q = &table[0, 0]
        self.q_owner = table
        self.t.ss = <int32_t*>malloc(m * 36 * sizeof(int32_t))
        self.t.ns = <uint8_t*>malloc(m * 6)
        self.t.fstart = <int64_t*>malloc((m * N_ROLLS + 1) * sizeof(int64_t))
        self.t.row = <double*>malloc(m * sizeof(double))
        self.t.g = <double*>malloc(18 * m * sizeof(double))
        self.t.acc = <double*>malloc(2 * CHUNK * self.nthreads * sizeof(double))
        if (self.t.ss == NULL or self.t.ns == NULL or self.t.fstart == NULL
                or self.t.row == NULL or self.t.g == NULL or self.t.acc == NULL):
            raise MemoryError()
        with nogil:
            single_step_table(m, self.t.ss, self.t.ns)
        self.t.flist = final_lists(m, self.t.fstart, False)

    @property
    def n_boards(self):
        return self.t.m

    @property
    def shells_done(self):
        return self.shell

    @property
    def threads(self):
        return self.nthreads

    @property
    def n_finals(self):
        """Total distinct (board, roll, result) triples: the work per row update."""
        return self.t.fstart[self.t.m * N_ROLLS]

    def run(self, Py_ssize_t stop):
        """Compute shells up to (not including) ``stop``; releases the GIL."""
        cdef two_job_t job
        if stop > self.t.m:
            stop = self.t.m
        if stop <= self.shell:
            return
        job.t = &self.t
        with nogil:
            while self.shell < stop and (self.nthreads == 1 or self.shell < PAR_MIN):
                solve_shell(&self.t, self.shell)    # one thread (small shells)
                self.shell += 1
            if self.shell < stop:
                job.start = self.shell
                job.stop = stop
                nf_run(self.nthreads, solve_shells, &job)
                self.shell = stop

    def finish(self):
        """Transpose in place: afterwards table[x, y] = P(x on roll beats y)."""
        if self.shell != self.t.m:
            raise RuntimeError(f"finish(): {self.shell} of {self.t.m} shells done")
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
        self.shell = self.t.m + 1


# --------------------------------------------------------------------------------------
# One-sided race estimate

cdef inline double tail(const double* p, Py_ssize_t n, Py_ssize_t u) noexcept nogil:
    """P(T >= u) of the distribution p[0:n]."""
    cdef double s = 0.0
    cdef Py_ssize_t t
    if u <= 0:
        return 1.0
    for t in range(u, n):
        s += p[t]
    return s


cdef void race_outcome(const double* turns, Py_ssize_t n_turns,
                       const double* first_off, Py_ssize_t n_first,
                       Py_ssize_t a, Py_ssize_t b, int draw_rule, int on_roll_first,
                       double* out) noexcept nogil:
    cdef const double* tx = turns + a * n_turns
    cdef const double* ty = turns + b * n_turns
    cdef const double* fx = first_off + a * n_first
    cdef const double* fy = first_off + b * n_first
    cdef Py_ssize_t t, sw = 0, sl = 1
    cdef double win = 0.0, lose = 0.0, mwin = 0.0, mloss = 0.0, draw = 0.0
    # the side on roll wins iff Ty >= Tx + sw, loses iff Tx >= Ty + sl
    if draw_rule:
        if on_roll_first:
            sw = 1
        else:
            sl = 2
    for t in range(n_turns):
        if tx[t] != 0.0:
            win += tx[t] * tail(ty, n_turns, t + sw)
            mwin += tx[t] * tail(fy, n_first, t + sw)
        if ty[t] != 0.0:
            lose += ty[t] * tail(tx, n_turns, t + sl)
            mloss += ty[t] * tail(fx, n_first, t + sl)
    if draw_rule:
        for t in range(n_turns):
            if on_roll_first:
                draw += tx[t] * ty[t]
            elif t + 1 < n_turns:
                draw += ty[t] * tx[t + 1]
    out[0] = win
    out[1] = mwin if mwin < win else win
    out[2] = mloss if mloss < lose else lose
    out[3] = draw


def race_one_sided(const double[:, ::1] turns, const double[:, ::1] first_off,
                   Py_ssize_t a, Py_ssize_t b, bint draw_rule=False, bint on_roll_first=False):
    """(p_win, p_mars_win, p_mars_loss, p_draw) of board index a on roll against b by the
    one-sided convolution (see ``_bearoff.pxd``, ``race_outcome``).  Trusted indices."""
    cdef double out[4]
    with nogil:
        race_outcome(&turns[0, 0], turns.shape[1], &first_off[0, 0], first_off.shape[1],
                     a, b, draw_rule, on_roll_first, out)
    return out[0], out[1], out[2], out[3]


# --------------------------------------------------------------------------------------
# Vectorised index <-> board (inputs validated by bearoff.py)

def indices_of(const uint8_t[:, ::1] boards):
    """Indices of an (n, 6) uint8 array of validated boards: ndarray of intp, shape (n,)."""
    cdef Py_ssize_t n = boards.shape[0], i
    out = np.empty(n, dtype=np.intp)
    cdef Py_ssize_t[::1] o = out
    with nogil:
        for i in range(n):
            o[i] = index6(&boards[i, 0])
    return out


def boards_of(const Py_ssize_t[::1] idx):
    """Boards of validated indices: ndarray of uint8, shape (n, 6)."""
    cdef Py_ssize_t n = idx.shape[0], i
    out = np.empty((n, N_HOME), dtype=np.uint8)
    cdef uint8_t[:, ::1] o = out
    if n:
        with nogil:
            for i in range(n):
                board6_from_index(idx[i], &o[i, 0])
    return out


def take_rows(const double[::1] values, const uint8_t[:, ::1] boards):
    """values[index(board)] for each validated board: ndarray of float64, shape (n,)."""
    cdef Py_ssize_t n = boards.shape[0], i
    out = np.empty(n, dtype=np.float64)
    cdef double[::1] o = out
    with nogil:
        for i in range(n):
            o[i] = values[index6(&boards[i, 0])]
    return out


# --------------------------------------------------------------------------------------
# Test support

def roll_successors(board6, int d1, int d2):
    """Sorted distinct indices of the boards left by the legal moves of (d1, d2)."""
    cdef uint8_t c[N_HOME]
    cdef int32_t buf[MAX_FINALS]
    cdef Py_ssize_t n, i
    b = np.ascontiguousarray(board6, dtype=np.uint8)
    for i in range(N_HOME):
        c[i] = b[i]
    stamp = np.full(N_BOARDS, -1, dtype=np.int32)
    cdef int32_t[::1] st = stamp
    n = roll_finals(c, d1, d2, buf, &st[0], 0)
    return np.sort(np.array([buf[i] for i in range(n)], dtype=np.intp))


def compare_with_movegen(int max_checkers=15):
    """Compare the bear-off generator with ``_movegen.gen_successors`` on every board of
    at most ``max_checkers`` checkers and every roll.

    The 24-point mover has board6[i] on idx 23 - i; the opponent has all 15 checkers on
    its own point 24 (the mover's idx 11), where it cannot interfere.  Returns
    ``(n_compared, mismatches)`` with up to 10 mismatches as (board6, d1, d2).
    """
    cdef Py_ssize_t m = n_boards(max_checkers), x, n1, n2, i, j, k
    cdef uint8_t c[N_HOME]
    cdef uint8_t mover[24]
    cdef uint8_t opp[24]
    cdef uint8_t* out = <uint8_t*>malloc(DEFAULT_CAP * 24)
    cdef int32_t* a = <int32_t*>malloc(MAX_FINALS * sizeof(int32_t))
    cdef int32_t* b = <int32_t*>malloc(DEFAULT_CAP * sizeof(int32_t))
    cdef int32_t* stamp = <int32_t*>malloc(N_BOARDS * sizeof(int32_t))
    cdef int32_t* stamp2 = <int32_t*>malloc(N_BOARDS * sizeof(int32_t))
    cdef rules_t rules
    cdef int r, bad, nbad = 0, outside
    cdef int32_t mark
    cdef Py_ssize_t compared = 0
    cdef int bad_x[10]
    cdef int bad_r[10]
    if out == NULL or a == NULL or b == NULL or stamp == NULL or stamp2 == NULL:
        free(out); free(a); free(b); free(stamp); free(stamp2)
        raise MemoryError()
    rules.head_rule = 0
    rules.block_rule = 0
    rules.block_transient = 0
    rules.larger_die_rule = 1
    memset(opp, 0, 24)
    opp[23] = 15
    with nogil:
        memset(stamp, 0xFF, N_BOARDS * sizeof(int32_t))
        memset(stamp2, 0xFF, N_BOARDS * sizeof(int32_t))
        for x in range(m):
            board6_from_index(x, c)
            memset(mover, 0, 24)
            for i in range(N_HOME):
                mover[23 - i] = c[i]
            for r in range(N_ROLLS):
                mark = <int32_t>(x * N_ROLLS + r)
                n1 = roll_finals(c, ROLL_D1[r], ROLL_D2[r], a, stamp, mark)
                n2 = gen_successors(mover, opp, ROLL_D1[r], ROLL_D2[r], &rules, out, NULL,
                                    DEFAULT_CAP)
                bad = n2 != n1
                if not bad:
                    # every movegen result must be a home board that roll_finals produced,
                    # and distinct (n1 == n2 then makes the sets equal)
                    for k in range(n2):
                        outside = 0
                        for i in range(18):
                            if out[k * 24 + i]:
                                outside = 1
                        for i in range(N_HOME):
                            c[i] = out[k * 24 + 23 - i]
                        j = index6(c)
                        if outside or stamp[j] != mark or stamp2[j] == mark:
                            bad = 1
                            break
                        stamp2[j] = mark
                    board6_from_index(x, c)
                compared += 1
                if bad:
                    if nbad < 10:
                        bad_x[nbad] = <int>x
                        bad_r[nbad] = r
                    nbad += 1
    free(out); free(a); free(b); free(stamp); free(stamp2)
    mism = []
    for k in range(min(nbad, 10)):
        board6_from_index(bad_x[k], c)
        mism.append(([int(c[i]) for i in range(6)], ROLL_D1[bad_r[k]], ROLL_D2[bad_r[k]]))
    return compared, mism


# --------------------------------------------------------------------------------------
# Mars extension: a side X with all its checkers home and none off against Y of <= N

ctypedef struct mars_t:
    Py_ssize_t mT            # X boards of <= T checkers: C(T + 6, 6)
    Py_ssize_t mL            # X boards of <= T - 1 checkers: C(T + 5, 6); T-boards are mL..mT-1
    Py_ssize_t mN            # Y boards of <= N checkers: C(N + 6, 6)
    double lam               # V = P(X wins) - lam * P(Y wins a mars); X maximises V
    int64_t* fstart          # X finals of (x, r): flist[fstart[x*21+r] : ...], ascending
    int32_t* flist
    int32_t* yss             # Y single steps (see single_step_table), mN boards
    uint8_t* yns
    double* bt               # (mL, mN): bt[x*mN + y] = P(Y on roll with y beats X with x)
    double* yon              # caller's (mT - mL, 2, mN): Y on roll, [i,0] P(X wins), [i,1] P(Y mars)
    double* arow             # (mN,) X-on-roll row of the current board (P(X wins), or V)
    double* g                # 18 * mN nested minima over Y's single steps
    int32_t* gf              # 18 * mN: the final Y board achieving them (mars stage)
    double* acc              # 5 * CHUNK work per thread


cdef void mars_race_row(mars_t* t, Py_ssize_t x, double* acc, Py_ssize_t ylo,
                        Py_ssize_t yhi) noexcept nogil:
    """arow[y] = P(X on roll with x < mL beats Y with y) = 1 - sum_r p_r min over the
    finals x' of (x, r) of bt[x', y], for 1 <= ylo <= y < yhi (arow[0] = 0, Y has already
    won, is the caller's); acc: 2 * CHUNK scratch."""
    cdef Py_ssize_t mN = t.mN, y0, n, j
    cdef double* mn = acc + CHUNK
    cdef const double* src
    cdef int64_t lo, hi, e
    cdef int r, skip
    cdef double v, p
    y0 = ylo
    while y0 < yhi:
        n = min(<Py_ssize_t>CHUNK, yhi - y0)
        for j in range(n):
            acc[j] = 0.0
        for r in range(N_ROLLS):
            lo = t.fstart[x * N_ROLLS + r]
            hi = t.fstart[x * N_ROLLS + r + 1]
            skip = 0
            for e in range(lo, hi):
                if t.flist[e] == 0:
                    skip = 1                # X bears off everything: Y never wins
                    break
            if skip:
                continue
            src = t.bt + <Py_ssize_t>t.flist[lo] * mN + y0
            for j in range(n):
                mn[j] = src[j]
            for e in range(lo + 1, hi):
                src = t.bt + <Py_ssize_t>t.flist[e] * mN + y0
                for j in range(n):
                    v = src[j]
                    mn[j] = v if v < mn[j] else mn[j]
            p = ROLL_P[r]
            for j in range(n):
                acc[j] += p * mn[j]
        for j in range(n):
            v = 1.0 - acc[j]
            t.arow[y0 + j] = 0.0 if v < 0.0 else (1.0 if v > 1.0 else v)
        y0 += n


cdef void mars_y_levels(mars_t* t, int d, int track) noexcept nogil:
    """G_1 .. G_3 of die d + 1 over every Y board against arow (G_0): G_{k+1}(y) = the
    minimum over single steps y -> y' of G_k(y'); with track, ties go to the smaller final
    board and gf records it."""
    cdef Py_ssize_t mN = t.mN, y, yy
    cdef const int32_t* sy
    cdef int k, qq, nq
    cdef double bv, v
    cdef int32_t bf, f
    for k in range(3):
        t.g[(k * 6 + d) * mN] = t.arow[0]   # the empty board stays empty
        t.gf[(k * 6 + d) * mN] = 0
    for y in range(1, mN):
        sy = t.yss + y * 36 + d * 6
        nq = t.yns[y * 6 + d]
        for k in range(3):
            bv = INFINITY
            bf = 0x7FFFFFFF
            for qq in range(nq):
                yy = sy[qq]
                if k == 0:
                    v = t.arow[yy]
                    f = <int32_t>yy
                else:
                    v = t.g[((k - 1) * 6 + d) * mN + yy]
                    f = t.gf[((k - 1) * 6 + d) * mN + yy]
                if track:
                    if v < bv or (v == bv and f < bf):
                        bv = v
                        bf = f
                elif v < bv:
                    bv = v
            t.g[(k * 6 + d) * mN + y] = bv
            if track:
                t.gf[(k * 6 + d) * mN + y] = bf


cdef inline void y_scan(const mars_t* t, const int32_t* sy, int nq, int base, int track,
                        double* bv, int32_t* bf) noexcept nogil:
    cdef Py_ssize_t mN = t.mN, yy
    cdef int qq
    cdef int32_t f = 0
    cdef double v
    for qq in range(nq):
        yy = sy[qq]
        v = t.g[base * mN + yy]
        if track:
            f = t.gf[base * mN + yy]
            if v < bv[0] or (v == bv[0] and f < bf[0]):
                bv[0] = v
                bf[0] = f
        elif v < bv[0]:
            bv[0] = v


cdef inline void y_best(const mars_t* t, Py_ssize_t y, int r, int track, double* bv,
                        int32_t* bf) noexcept nogil:
    """Best (minimum) of roll r for Y with board y >= 1, from the G tables: a double is
    G_4 (a step, then G_3), a non-double (a, b) an a-step then G_1 of b, or the reverse."""
    cdef const int32_t* sy = t.yss + y * 36
    cdef int a = ROLL_D1[r] - 1, b = ROLL_D2[r] - 1
    bv[0] = INFINITY
    bf[0] = 0x7FFFFFFF
    if a == b:
        y_scan(t, sy + a * 6, t.yns[y * 6 + a], 12 + a, track, bv, bf)
    else:
        y_scan(t, sy + a * 6, t.yns[y * 6 + a], b, track, bv, bf)
        y_scan(t, sy + b * 6, t.yns[y * 6 + b], a, track, bv, bf)


cdef void mars_race_column(mars_t* t, Py_ssize_t x, Py_ssize_t ylo,
                           Py_ssize_t yhi) noexcept nogil:
    """bt[x, y] = 1 - sum_r p_r min over Y's moves of arow[result], for 1 <= ylo <= y <
    yhi, from the G tables of mars_y_levels(track=0) (bt[x, 0] = 1 is the caller's)."""
    cdef Py_ssize_t mN = t.mN, y
    cdef int r
    cdef double tot, bv
    cdef int32_t bf
    cdef double* out = t.bt + x * mN
    for y in range(ylo, yhi):
        tot = 0.0
        for r in range(N_ROLLS):
            y_best(t, y, r, 0, &bv, &bf)
            tot += ROLL_P[r] * bv
        tot = 1.0 - tot
        out[y] = 0.0 if tot < 0.0 else (1.0 if tot > 1.0 else tot)


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
            lo = t.fstart[x * N_ROLLS + r]
            hi = t.fstart[x * N_ROLLS + r + 1]
            for j in range(n):
                bvv[j] = -INFINITY
            for e in range(lo, hi):
                f = t.flist[e]
                if f < mL:
                    nf_best_race(t.bt + f * mN + y0, bvv, bw, bm, n)
                else:
                    sw = t.yon + (f - mL) * 2 * mN + y0
                    nf_best_mars(sw, sw + mN, lam, bvv, bw, bm, n)
            p = ROLL_P[r]
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
    X-on-roll row (xw, xm), from the G tables of mars_y_levels(track=1); writes
    yon[x - mL, 0 / 1, y] for 1 <= ylo <= y < yhi (y = 0 is the caller's)."""
    cdef Py_ssize_t mN = t.mN, y
    cdef double* ow = t.yon + (x - t.mL) * 2 * mN
    cdef double* om = ow + mN
    cdef int r
    cdef double w, mm, bv
    cdef int32_t bf
    for y in range(ylo, yhi):
        w = 0.0
        mm = 0.0
        for r in range(N_ROLLS):
            y_best(t, y, r, 1, &bv, &bf)
            w += ROLL_P[r] * xw[bf]
            mm += ROLL_P[r] * xm[bf]
        ow[y] = 0.0 if w < 0.0 else (1.0 if w > 1.0 else w)
        om[y] = 0.0 if mm < 0.0 else (1.0 if mm > 1.0 else mm)


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
                    mars_y_levels(t, d, 0)
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
                    mars_y_levels(t, d, 1)
            nf_barrier_wait(bar)
            mars_y_row(t, x, xw, xm, lo, hi)
        nf_barrier_wait(bar)


cdef void sort_segment(int32_t* a, int64_t n) noexcept nogil:
    cdef int64_t i, j
    cdef int32_t v
    for i in range(1, n):
        v = a[i]
        j = i - 1
        while j >= 0 and a[j] > v:
            a[j + 1] = a[j]
            j -= 1
        a[j + 1] = v


cdef int32_t* final_lists(Py_ssize_t m, int64_t* fstart, bint sort) except NULL:
    """Distinct final boards of every (board, roll) of boards 0..m-1, as one list.

    Fills ``fstart`` (m * 21 + 1 offsets): the finals of board x and roll r are
    ``flist[fstart[21 x + r] : fstart[21 x + r + 1]]``, sorted when ``sort``.  Returns the
    list (owned by the caller, freed with ``free``); MemoryError when out of memory.
    """
    cdef int32_t* stamp = <int32_t*>malloc(m * sizeof(int32_t))
    cdef int32_t* buf = <int32_t*>malloc(MAX_FINALS * sizeof(int32_t))
    cdef int32_t* flist = NULL
    cdef uint8_t c[N_HOME]
    cdef Py_ssize_t x, total = 0
    cdef int64_t e
    cdef int r
    if stamp != NULL and buf != NULL:
        with nogil:                          # count, then fill
            memset(stamp, 0xFF, m * sizeof(int32_t))
            for x in range(m):
                board6_from_index(x, c)
                for r in range(N_ROLLS):
                    fstart[x * N_ROLLS + r] = total
                    total += roll_finals(c, ROLL_D1[r], ROLL_D2[r], buf, stamp,
                                         <int32_t>(x * N_ROLLS + r))
            fstart[m * N_ROLLS] = total
        flist = <int32_t*>malloc((total + 1) * sizeof(int32_t))
    if flist != NULL:
        with nogil:
            memset(stamp, 0xFF, m * sizeof(int32_t))
            for x in range(m):
                board6_from_index(x, c)
                for r in range(N_ROLLS):
                    e = fstart[x * N_ROLLS + r]
                    roll_finals(c, ROLL_D1[r], ROLL_D2[r], flist + e, stamp,
                                <int32_t>(x * N_ROLLS + r))
                    if sort:
                        sort_segment(flist + e, fstart[x * N_ROLLS + r + 1] - e)
    free(stamp)
    free(buf)
    if flist == NULL:
        raise MemoryError(f"final-board lists of {m:,} boards")
    return flist


cdef class MarsSolver:
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
    cdef int nthreads
    cdef object yon_owner

    def __dealloc__(self):                   # C fields start zeroed (NULL): free(NULL) is fine
        free(self.t.fstart)
        free(self.t.flist)
        free(self.t.yss)
        free(self.t.yns)
        free(self.t.bt)
        free(self.t.arow)
        free(self.t.g)
        free(self.t.gf)
        free(self.t.acc)

    def __init__(self, int all_checkers, int max_checkers, double lam,
                 double[:, :, ::1] y_on_roll, int threads=1):
        cdef Py_ssize_t mT, mL, mN
        if threads < 1:
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
        self.nthreads = min(threads, 64) if PTHREADS else 1
        self.t.mT = mT
        self.t.mL = mL
        self.t.mN = mN
        self.t.lam = lam
        self.t.yon = &y_on_roll[0, 0, 0]
        self.yon_owner = y_on_roll
        self.done = 1                       # board 0 (X finished) is set below
        self.t.fstart = <int64_t*>malloc((mT * N_ROLLS + 1) * sizeof(int64_t))
        self.t.yss = <int32_t*>malloc(mN * 36 * sizeof(int32_t))
        self.t.yns = <uint8_t*>malloc(mN * 6)
        self.t.bt = <double*>malloc(mL * mN * sizeof(double))
        self.t.arow = <double*>malloc(mN * sizeof(double))
        self.t.g = <double*>malloc(18 * mN * sizeof(double))
        self.t.gf = <int32_t*>malloc(18 * mN * sizeof(int32_t))
        self.t.acc = <double*>malloc(5 * CHUNK * self.nthreads * sizeof(double))
        if (self.t.fstart == NULL or self.t.yss == NULL or self.t.yns == NULL
                or self.t.bt == NULL or self.t.arow == NULL or self.t.g == NULL
                or self.t.gf == NULL or self.t.acc == NULL):
            raise MemoryError(f"mars solver: {mL * mN * 8 / 2**20:,.0f} MiB for the race table")
        with nogil:
            single_step_table(mN, self.t.yss, self.t.yns)
            memset(self.t.bt, 0, mN * sizeof(double))   # X has borne off all: Y never wins
        self.t.flist = final_lists(mT, self.t.fstart, True)

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
        return self.t.mN

    @property
    def threads(self):
        return self.nthreads

    @property
    def boards_done(self):
        """X boards solved so far (index order)."""
        return self.done

    @property
    def n_finals(self):
        return self.t.fstart[self.t.mT * N_ROLLS]

    def run_race(self, Py_ssize_t stop):
        """Solve the race boards up to (not including) ``stop`` (at most ``n_race``)."""
        if self.t.bt == NULL:
            raise RuntimeError("run_race(): the race table was released")
        cdef mars_job_t job
        if stop > self.t.mL:
            stop = self.t.mL
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
