/* The luck net with middle layers, for one position, given its first layer's
   pre-activations as a base row plus a few scaled weight rows (as nf_hidden.h):

       z      = z0 + c[0] rows[0] + ... + c[m-1] rows[m-1]      (H floats, in that order)
       h      = max(z, 0)
       h'     = max(b[l] + sum over j with h[j] > 0, j rising, of h[j] wt[l][j], 0)
                (each middle layer l < L in turn, dims[l] floats, from the layer before)
       out    = b2 + sum over i with h[i] > 0, i rising, of h[i] w2t[i]    (the last h)

   wt[l] is middle layer l's weights transposed, (width of the layer before, dims[l]): row
   j holds unit j's weights into every unit of layer l; w2t the output weights transposed,
   (dims[L-1], stride), each row padded with zeros to stride floats (a multiple of 8).
   Every layer adds only the rows of the units active before it: a trained luck net has a
   fifth to a third of its first-layer units active and a sixth of each middle layer's, so
   the layers after the first cost little.  Each element is one running sum, its bias
   first, then the products in rising unit order.

   Every product is added by a fused multiply-add (one rounding per term, C's fmaf):
   half the instructions of a product then a sum, and both paths give the same bits,
   since a fused multiply-add is exactly rounded wherever it runs.  (The evaluation net's
   kernels, nf_hidden.h and nf_deep.h, round each product before adding it; the luck
   net's values enter a rollout only through the luck, whose mean is zero whatever they
   are, so its rounding is its own.)

   Two implementations that give the same bits:
   - nf_luck_generic: the plain loops, fmaf;
   - nf_luck_fma (x86 with GCC or Clang, on a processor with AVX2 and FMA): the first
     layer in registers as in nf_hidden_avx2, each layer packed into the list of its
     active units (nf_deep_pack); every layer (the first, the middle ones and the outputs)
     64 units at a time in eight registers, then 8: eight independent sums per weight row
     read, so one unit's eight multiply-adds do not wait on each other.  The same
     operations in the same order as the plain loops.
   nf_luck runs the vector path where nf_hidden runs its AVX2 path (nf_hidden_current)
   and the processor has FMA, else the plain loops.
   Measured (perf, 0-ply rollouts from the start with the luck net of 256 + 256 + 128
   units): 13 % of the samples here with the four-register, unfused kernel that came
   before, 10 % with this one; the whole rollout 7 % faster (benchmarks/RESULTS.md). */
#ifndef NF_LUCK_H
#define NF_LUCK_H
#include <math.h>
#include <string.h>
#include "nf_hidden.h"
#include "nf_deep.h"

#define NF_LUCK_STRIDE_MAX 256

/* h[0..count) = fmaf(val[u], the row idx[u] of w, h) for u = 0..n-1 in order (rows of
   stride floats): the plain loops' sum of the active units' rows. */
static inline void nf_luck_add_rows(int n, const int* idx, const float* val,
                                    const float* w, int stride, int count, float* h) {
    for (int u = 0; u < n; u++) {
        const float a = val[u];
        const float* x = w + (size_t)idx[u] * stride;
        for (int i = 0; i < count; i++)
            h[i] = fmaf(a, x[i], h[i]);
    }
}

static inline void nf_luck_generic(int H, const float* z0, int m, const float* c,
                                   const float* const* rows, int L, const int* dims,
                                   const float* const* wt, const float* const* b,
                                   int n_out, int stride, const float* w2t,
                                   const float* b2, float* out) {
    float h[NF_HIDDEN_MAX];
    float val[NF_HIDDEN_MAX];
    int idx[NF_HIDDEN_MAX];
    memcpy(h, z0, (size_t)H * sizeof(float));
    for (int u = 0; u < m; u++) {
        const float a = c[u];
        const float* x = rows[u];
        for (int j = 0; j < H; j++)
            h[j] = fmaf(a, x[j], h[j]);
    }
    for (int j = 0; j < H; j++)
        h[j] = h[j] > 0.0f ? h[j] : 0.0f;
    int n = nf_deep_active(H, h, idx, val);
    for (int l = 0; l < L; l++) {
        const int W = dims[l];
        memcpy(h, b[l], (size_t)W * sizeof(float));
        nf_luck_add_rows(n, idx, val, wt[l], W, W, h);
        n = nf_deep_active(W, h, idx, val);
    }
    memcpy(out, b2, (size_t)n_out * sizeof(float));
    nf_luck_add_rows(n, idx, val, w2t, stride, n_out, out);
}

#ifdef NF_HIDDEN_HAVE_AVX2
/* s[0..7] += a * x[0..63]: eight independent fused multiply-adds, so one row's do not
   wait on each other (four registers would leave the units idle, waiting on each sum's
   last add). */
__attribute__((target("avx2,fma"), always_inline))
static inline void nf_luck_fma64(__m256 a, const float* x, __m256 s[8]) {
    s[0] = _mm256_fmadd_ps(a, _mm256_loadu_ps(x), s[0]);
    s[1] = _mm256_fmadd_ps(a, _mm256_loadu_ps(x + 8), s[1]);
    s[2] = _mm256_fmadd_ps(a, _mm256_loadu_ps(x + 16), s[2]);
    s[3] = _mm256_fmadd_ps(a, _mm256_loadu_ps(x + 24), s[3]);
    s[4] = _mm256_fmadd_ps(a, _mm256_loadu_ps(x + 32), s[4]);
    s[5] = _mm256_fmadd_ps(a, _mm256_loadu_ps(x + 40), s[5]);
    s[6] = _mm256_fmadd_ps(a, _mm256_loadu_ps(x + 48), s[6]);
    s[7] = _mm256_fmadd_ps(a, _mm256_loadu_ps(x + 56), s[7]);
}

/* s[0..7] (64 floats) += the active units' (ix, vx; n of them) rows of w (rows of
   stride floats), columns s0..s0+63, u rising. */
__attribute__((target("avx2,fma"), always_inline))
static inline void nf_luck_rows64(int n, const int* ix, const float* vx, const float* w,
                                  int stride, int s0, __m256 s[8]) {
    for (int u = 0; u < n; u++)
        nf_luck_fma64(_mm256_set1_ps(vx[u]), w + (size_t)ix[u] * stride + s0, s);
}

/* The same for 8 columns, s0..s0+7. */
__attribute__((target("avx2,fma"), always_inline))
static inline __m256 nf_luck_rows8(int n, const int* ix, const float* vx, const float* w,
                                   int stride, int s0, __m256 s) {
    for (int u = 0; u < n; u++)
        s = _mm256_fmadd_ps(_mm256_set1_ps(vx[u]),
                            _mm256_loadu_ps(w + (size_t)ix[u] * stride + s0), s);
    return s;
}

/* The first layer's units t..t+63: relu(z0 + c[0] rows[0] + ...), the products added in
   u order (nf_hidden_tile32's sums, fused, eight registers wide). */
__attribute__((target("avx2,fma"), always_inline))
static inline void nf_luck_tile64(const float* z0, int t, int m, const float* c,
                                  const float* const* rows, __m256 r[8]) {
    for (int q = 0; q < 8; q++)
        r[q] = _mm256_loadu_ps(z0 + t + 8 * q);
    for (int u = 0; u < m; u++)
        nf_luck_fma64(_mm256_set1_ps(c[u]), rows[u] + t, r);
    for (int q = 0; q < 8; q++)
        r[q] = _mm256_max_ps(r[q], _mm256_setzero_ps());
}

/* stride <= NF_LUCK_STRIDE_MAX (the caller checks).  Every layer 64 units at a time in
   eight registers, then 8 at a time. */
__attribute__((target("avx2,fma")))
static void nf_luck_fma(int H, const float* z0, int m, const float* c,
                         const float* const* rows, int L, const int* dims,
                         const float* const* wt, const float* const* b, int n_out,
                         int stride, const float* w2t, const float* b2, float* out) {
    float val[2][NF_HIDDEN_MAX + 8];
    int idx[2][NF_HIDDEN_MAX + 8];
    float acc[NF_LUCK_STRIDE_MAX];
    const __m256 zero = _mm256_setzero_ps();
    int n = 0, t = 0, p = 0;
    for (; t + 64 <= H; t += 64) {
        __m256 r[8];
        nf_luck_tile64(z0, t, m, c, rows, r);
        for (int q = 0; q < 8; q++)
            n = nf_deep_pack(r[q], t + 8 * q, idx[0], val[0], n);
    }
    for (; t < H; t += 8) {
        __m256 r = _mm256_loadu_ps(z0 + t);
        for (int u = 0; u < m; u++)
            r = _mm256_fmadd_ps(_mm256_set1_ps(c[u]), _mm256_loadu_ps(rows[u] + t), r);
        n = nf_deep_pack(_mm256_max_ps(r, zero), t, idx[0], val[0], n);
    }
    for (int l = 0; l < L; l++) {
        const int W = dims[l];
        const int* ix = idx[p];
        const float* vx = val[p];
        int n2 = 0, s0 = 0;
        for (; s0 + 64 <= W; s0 += 64) {
            __m256 s[8];
            for (int q = 0; q < 8; q++)
                s[q] = _mm256_loadu_ps(b[l] + s0 + 8 * q);
            nf_luck_rows64(n, ix, vx, wt[l], W, s0, s);
            for (int q = 0; q < 8; q++)
                n2 = nf_deep_pack(_mm256_max_ps(s[q], zero), s0 + 8 * q, idx[1 - p],
                                  val[1 - p], n2);
        }
        for (; s0 < W; s0 += 8)
            n2 = nf_deep_pack(_mm256_max_ps(nf_luck_rows8(n, ix, vx, wt[l], W, s0,
                                                          _mm256_loadu_ps(b[l] + s0)), zero),
                              s0, idx[1 - p], val[1 - p], n2);
        n = n2;
        p = 1 - p;
    }
    /* the outputs: b2 (0 in the padding) plus the active units' rows of w2t */
    memcpy(acc, b2, (size_t)n_out * sizeof(float));
    memset(acc + n_out, 0, (size_t)(stride - n_out) * sizeof(float));
    int k = 0;
    for (; k + 64 <= stride; k += 64) {
        __m256 s[8];
        for (int q = 0; q < 8; q++)
            s[q] = _mm256_loadu_ps(acc + k + 8 * q);
        nf_luck_rows64(n, idx[p], val[p], w2t, stride, k, s);
        for (int q = 0; q < 8; q++)
            _mm256_storeu_ps(acc + k + 8 * q, s[q]);
    }
    for (; k < stride; k += 8)
        _mm256_storeu_ps(acc + k, nf_luck_rows8(n, idx[p], val[p], w2t, stride, k,
                                                _mm256_loadu_ps(acc + k)));
    memcpy(out, acc, (size_t)n_out * sizeof(float));
}
#endif

/* 0: not yet checked; 1: the processor has FMA; -1: it has not. */
static int nf_luck_have_fma = 0;

static inline void nf_luck(int H, const float* z0, int m, const float* c,
                           const float* const* rows, int L, const int* dims,
                           const float* const* wt, const float* const* b, int n_out,
                           int stride, const float* w2t, const float* b2, float* out) {
#ifdef NF_HIDDEN_HAVE_AVX2
    if (nf_luck_have_fma == 0) {
        __builtin_cpu_init();
        nf_luck_have_fma = __builtin_cpu_supports("fma") ? 1 : -1;
    }
    if (nf_hidden_current() == 2 && nf_luck_have_fma == 1 && stride <= NF_LUCK_STRIDE_MAX) {
        nf_luck_fma(H, z0, m, c, rows, L, dims, wt, b, n_out, stride, w2t, b2, out);
        return;
    }
#endif
    nf_luck_generic(H, z0, m, c, rows, L, dims, wt, b, n_out, stride, w2t, b2, out);
}

#endif
