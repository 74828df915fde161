/* The thread runtime of the bear-off solvers: nf_run starts n POSIX threads running one
   function SPMD, and nf_barrier_wait separates their sweeps.

   Both cores in the default build: the solvers run SPMD (every thread walks the same
   boards and takes its share of each sweep), with POSIX threads and a barrier that
   spins briefly, then sleeps on a condition variable (a descheduled thread costs the
   others a sleep, not a spinning time slice).  Each value is computed by exactly the
   same code whichever thread computes it, so results do not depend on the thread
   count.  Elsewhere (no pthreads) everything runs on the calling thread. */
#ifndef NF_THREADS_H
#define NF_THREADS_H
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

static inline void nf_barrier_wait(nf_barrier_t* b) {
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
static inline void* nf_thread_main(void* p) {
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
static inline int nf_run(int n, nf_fn fn, void* arg) {
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

#endif
