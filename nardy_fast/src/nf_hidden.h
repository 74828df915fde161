/* The evaluation network's hidden and output layers for one position, given its hidden
   pre-activations as a base row plus a few scaled weight rows:

       z   = z0 + c[0] rows[0] + ... + c[m-1] rows[m-1]      (H floats, in that order)
       h   = max(z, 0)
       pre[k] = nf_dot8(w2 + k H, h, H)                      (k < n_out)

   Two implementations that give the same bits:
   - nf_hidden_generic: the plain loops (z in a scratch row, then the dot products);
   - nf_hidden_avx2 (x86 with GCC or Clang): the same element-wise operations in the same
     order, eight lanes wide and a tile of z at a time in registers, so z is never stored.
     Each z[j] sees the same additions of the same products in the same order, and each
     output keeps the eight partial sums of nf_dot8 (lane l sums j = l mod 8, j rising),
     added in nf_dot8's order.  No FMA (the target is "avx2" alone), so every product is
     rounded before it is added, as in the generic path.
   nf_hidden picks the AVX2 path when the processor has it (checked once), unless
   nf_hidden_force_generic(1) was called (for tests).
   Measured (one core, plain 0-ply rollouts from the start, games per CPU-second): 128
   hidden units 860 -> 1,600, 256 hidden units 560 -> 1,210 (benchmarks/RESULTS.md). */
#ifndef NF_HIDDEN_H
#define NF_HIDDEN_H
#include <string.h>
#include "nf_dot.h"

#define NF_HIDDEN_MAX 1024

/* h = max(z0 + c[0] rows[0] + ... + c[m-1] rows[m-1], 0), H floats (the plain loops'
   first layer, nf_deep_generic's too). */
static inline void nf_hidden_relu(int H, const float* z0, int m, const float* c,
                                  const float* const* rows, float* h) {
    memcpy(h, z0, (size_t)H * sizeof(float));
    for (int u = 0; u < m; u++) {
        const float a = c[u];
        const float* x = rows[u];
        for (int j = 0; j < H; j++)
            h[j] += a * x[j];
    }
    for (int j = 0; j < H; j++)
        h[j] = h[j] > 0.0f ? h[j] : 0.0f;
}

static inline void nf_hidden_generic(int H, const float* z0, int m, const float* c,
                                     const float* const* rows, const float* w2, int n_out,
                                     float* pre) {
    float z[NF_HIDDEN_MAX];
    nf_hidden_relu(H, z0, m, c, rows, z);
    for (int k = 0; k < n_out; k++)
        pre[k] = nf_dot8(w2 + (size_t)k * H, z, H);
}

#if (defined(__GNUC__) || defined(__clang__)) && (defined(__x86_64__) || defined(__i386__))
#define NF_HIDDEN_HAVE_AVX2 1
#include <immintrin.h>

#define NF_OUT_MAX 8

/* The AVX2 path's pieces, shared with nf_deep.h (inlined, so the registers stay
   registers).  A tile of the first layer: relu(z0 + c[0] rows[0] + ... ) for units
   t..t+31 in r[0..3] (nf_hidden_tile32) or t..t+7 (nf_hidden_tile8), the products added
   in u order. */
__attribute__((target("avx2"), always_inline))
static inline void nf_hidden_tile32(const float* z0, int t, int m, const float* c,
                                    const float* const* rows, __m256 r[4]) {
    const __m256 zero = _mm256_setzero_ps();
    __m256 r0 = _mm256_loadu_ps(z0 + t), r1 = _mm256_loadu_ps(z0 + t + 8);
    __m256 r2 = _mm256_loadu_ps(z0 + t + 16), r3 = _mm256_loadu_ps(z0 + t + 24);
    for (int u = 0; u < m; u++) {
        const __m256 a = _mm256_set1_ps(c[u]);
        const float* x = rows[u] + t;
        r0 = _mm256_add_ps(r0, _mm256_mul_ps(a, _mm256_loadu_ps(x)));
        r1 = _mm256_add_ps(r1, _mm256_mul_ps(a, _mm256_loadu_ps(x + 8)));
        r2 = _mm256_add_ps(r2, _mm256_mul_ps(a, _mm256_loadu_ps(x + 16)));
        r3 = _mm256_add_ps(r3, _mm256_mul_ps(a, _mm256_loadu_ps(x + 24)));
    }
    r[0] = _mm256_max_ps(r0, zero);
    r[1] = _mm256_max_ps(r1, zero);
    r[2] = _mm256_max_ps(r2, zero);
    r[3] = _mm256_max_ps(r3, zero);
}

__attribute__((target("avx2"), always_inline))
static inline __m256 nf_hidden_tile8(const float* z0, int t, int m, const float* c,
                                     const float* const* rows) {
    __m256 r = _mm256_loadu_ps(z0 + t);
    for (int u = 0; u < m; u++)
        r = _mm256_add_ps(r, _mm256_mul_ps(_mm256_set1_ps(c[u]),
                                           _mm256_loadu_ps(rows[u] + t)));
    return _mm256_max_ps(r, _mm256_setzero_ps());
}

/* acc[k] += w[k] (columns t..t+31) * r[0..3], lane by lane, k < n_out (w: n_out rows of
   n floats): nf_dot8's eight partial sums, j rising. */
__attribute__((target("avx2"), always_inline))
static inline void nf_hidden_acc32(const float* w, int n, int t, int n_out, const __m256 r[4],
                                   __m256* acc) {
    for (int k = 0; k < n_out; k++) {
        const float* x = w + (size_t)k * n + t;
        __m256 s = acc[k];
        s = _mm256_add_ps(s, _mm256_mul_ps(_mm256_loadu_ps(x), r[0]));
        s = _mm256_add_ps(s, _mm256_mul_ps(_mm256_loadu_ps(x + 8), r[1]));
        s = _mm256_add_ps(s, _mm256_mul_ps(_mm256_loadu_ps(x + 16), r[2]));
        s = _mm256_add_ps(s, _mm256_mul_ps(_mm256_loadu_ps(x + 24), r[3]));
        acc[k] = s;
    }
}

/* The same for columns t..t+7 and one register. */
__attribute__((target("avx2"), always_inline))
static inline void nf_hidden_acc8(const float* w, int n, int t, int n_out, __m256 r,
                                  __m256* acc) {
    for (int k = 0; k < n_out; k++)
        acc[k] = _mm256_add_ps(acc[k], _mm256_mul_ps(_mm256_loadu_ps(w + (size_t)k * n + t), r));
}

/* nf_dot8's final order of its eight partial sums: ((a0 + a4) + (a1 + a5)) + ((a2 + a6) +
   (a3 + a7)). */
__attribute__((target("avx2"), always_inline))
static inline float nf_hidden_sum8(__m256 acc) {
    float q[4];
    _mm_storeu_ps(q, _mm_add_ps(_mm256_castps256_ps128(acc), _mm256_extractf128_ps(acc, 1)));
    return (q[0] + q[1]) + (q[2] + q[3]);
}

__attribute__((target("avx2")))
static void nf_hidden_avx2(int H, const float* z0, int m, const float* c,
                           const float* const* rows, const float* w2, int n_out,
                           float* pre) {
    __m256 acc[NF_OUT_MAX];
    for (int k = 0; k < n_out; k++)
        acc[k] = _mm256_setzero_ps();
    int t = 0;
    /* Tiles of 32 floats (four registers), then of 8. */
    for (; t + 32 <= H; t += 32) {
        __m256 r[4];
        nf_hidden_tile32(z0, t, m, c, rows, r);
        nf_hidden_acc32(w2, H, t, n_out, r, acc);
    }
    for (; t < H; t += 8)
        nf_hidden_acc8(w2, H, t, n_out, nf_hidden_tile8(z0, t, m, c, rows), acc);
    for (int k = 0; k < n_out; k++)
        pre[k] = nf_hidden_sum8(acc[k]);
}
/* The same for many outputs (the luck net's 147): h is computed once, tile by tile, and
   stored; then each output's dot product keeps nf_dot8's eight partial sums. */
__attribute__((target("avx2")))
static void nf_hidden_avx2_many(int H, const float* z0, int m, const float* c,
                                const float* const* rows, const float* w2, int n_out,
                                float* pre) {
    float h[NF_HIDDEN_MAX];
    for (int t = 0; t < H; t += 8)
        _mm256_storeu_ps(h + t, nf_hidden_tile8(z0, t, m, c, rows));
    for (int k = 0; k < n_out; k++) {
        const float* w = w2 + (size_t)k * H;
        __m256 acc = _mm256_setzero_ps();
        for (int t = 0; t < H; t += 8)
            acc = _mm256_add_ps(acc, _mm256_mul_ps(_mm256_loadu_ps(w + t),
                                                   _mm256_loadu_ps(h + t)));
        pre[k] = nf_hidden_sum8(acc);
    }
}
#endif

/* 0: not yet checked; 1: generic; 2: AVX2. */
static int nf_hidden_path = 0;

static inline int nf_hidden_choose(void) {
#ifdef NF_HIDDEN_HAVE_AVX2
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") ? 2 : 1;
#else
    return 1;
#endif
}

/* Forces the generic path (force != 0) or restores the choice by processor (0); returns
   the path now in use (1 generic, 2 AVX2). */
static inline int nf_hidden_force_generic(int force) {
    nf_hidden_path = force ? 1 : nf_hidden_choose();
    return nf_hidden_path;
}

/* The path now in use (1 generic, 2 AVX2), chosen by processor on first use. */
static inline int nf_hidden_current(void) {
    if (nf_hidden_path == 0)
        nf_hidden_path = nf_hidden_choose();
    return nf_hidden_path;
}

static inline void nf_hidden(int H, const float* z0, int m, const float* c,
                             const float* const* rows, const float* w2, int n_out,
                             float* pre) {
    int path = nf_hidden_path;
    if (path == 0)
        path = nf_hidden_path = nf_hidden_choose();
#ifdef NF_HIDDEN_HAVE_AVX2
    if (path == 2) {
        if (n_out <= NF_OUT_MAX)
            nf_hidden_avx2(H, z0, m, c, rows, w2, n_out, pre);
        else
            nf_hidden_avx2_many(H, z0, m, c, rows, w2, n_out, pre);
        return;
    }
#endif
    nf_hidden_generic(H, z0, m, c, rows, w2, n_out, pre);
}

#endif
