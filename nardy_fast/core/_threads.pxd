# C-level API of the thread runtime (src/nf_threads.h), used by the table solvers and the
# search: SPMD runs on POSIX threads with a barrier between sweeps.  Every thread walks the
# same boards and computes its share of each sweep with the same code, so results do not
# depend on the thread count.

cdef extern from "nf_threads.h":
    int NF_PTHREADS          # 1 when threads can run in parallel (POSIX), else 0
    int NF_MAX_THREADS       # at most this many threads per run
    ctypedef struct nf_barrier_t:
        pass
    # A sweep function: thread tid of n; bar separates its sweeps.
    ctypedef void (*nf_fn)(void* arg, int tid, int n, nf_barrier_t* bar) noexcept nogil
    # Waits until all n threads of the run have arrived (no-op for one thread or NULL).
    void nf_barrier_wait(nf_barrier_t* bar) noexcept nogil
    # fn(arg, tid, n, bar) on n threads (tid 0 the caller); returns n, or fewer when threads
    # could not be started (1 without pthreads).
    int nf_run(int n, nf_fn fn, void* arg) noexcept nogil

# Start of part k of n of the range lo .. hi (part k is share(k) .. share(k + 1)).
cdef inline Py_ssize_t share(Py_ssize_t lo, Py_ssize_t hi, int k, int n) noexcept nogil:
    return lo + (hi - lo) * k // n

# The thread (of n) computing the nested minima of die d + 1.  A die of d + 1 has steps
# from the points d .. 5, so the work falls with d; two threads take dice 1, 4, 5 and
# 2, 3, 6 (11 : 10 points) rather than odd / even (12 : 9).
cdef inline int die_owner(int d, int n) noexcept nogil:
    if n == 2:
        return (0x26 >> d) & 1
    return d % n
