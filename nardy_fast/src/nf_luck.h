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

   Two implementations that give the same bits:
   - nf_luck_generic: the plain loops;
   - nf_luck_avx2 (x86 with GCC or Clang): the first layer tile by tile in registers as in
     nf_hidden_avx2, each layer packed into the list of its active units (nf_deep_pack);
     the middle layers 32 units at a time in four registers, then 8; the outputs eight
     at a time in a row of stride floats.  The same operations in the same order as the
     plain loops, no FMA (the target is "avx2" alone), so each product is rounded before
     it is added.
   nf_luck runs the path nf_hidden runs (nf_hidden_current). */
#ifndef NF_LUCK_H
#define NF_LUCK_H
#include <string.h>
#include "nf_hidden.h"
#include "nf_deep.h"

#define NF_LUCK_STRIDE_MAX 256

/* out[0..n_out) = b2 + the active units' (idx, val; n of them) rows of w2t, in order. */
static inline void nf_luck_out(int n, const int* idx, const float* val, int n_out,
                               int stride, const float* w2t, const float* b2, float* out) {
    memcpy(out, b2, (size_t)n_out * sizeof(float));
    nf_deep_add_rows(n, idx, val, w2t, stride, n_out, out);
}

static inline void nf_luck_generic(int H, const float* z0, int m, const float* c,
                                   const float* const* rows, int L, const int* dims,
                                   const float* const* wt, const float* const* b,
                                   int n_out, int stride, const float* w2t,
                                   const float* b2, float* out) {
    float h[NF_HIDDEN_MAX];
    float val[NF_HIDDEN_MAX];
    int idx[NF_HIDDEN_MAX];
    nf_hidden_relu(H, z0, m, c, rows, h);
    int n = nf_deep_active(H, h, idx, val);
    for (int l = 0; l < L; l++) {
        const int W = dims[l];
        memcpy(h, b[l], (size_t)W * sizeof(float));
        nf_deep_add_rows(n, idx, val, wt[l], W, W, h);
        n = nf_deep_active(W, h, idx, val);
    }
    nf_luck_out(n, idx, val, n_out, stride, w2t, b2, out);
}

#ifdef NF_HIDDEN_HAVE_AVX2
/* stride <= NF_LUCK_STRIDE_MAX (the caller checks). */
__attribute__((target("avx2")))
static void nf_luck_avx2(int H, const float* z0, int m, const float* c,
                         const float* const* rows, int L, const int* dims,
                         const float* const* wt, const float* const* b, int n_out,
                         int stride, const float* w2t, const float* b2, float* out) {
    float val[2][NF_HIDDEN_MAX + 8];
    int idx[2][NF_HIDDEN_MAX + 8];
    float acc[NF_LUCK_STRIDE_MAX];
    int n = 0, t = 0, p = 0;
    for (; t + 32 <= H; t += 32) {
        __m256 r[4];
        nf_hidden_tile32(z0, t, m, c, rows, r);
        n = nf_deep_pack(r[0], t, idx[0], val[0], n);
        n = nf_deep_pack(r[1], t + 8, idx[0], val[0], n);
        n = nf_deep_pack(r[2], t + 16, idx[0], val[0], n);
        n = nf_deep_pack(r[3], t + 24, idx[0], val[0], n);
    }
    for (; t < H; t += 8)
        n = nf_deep_pack(nf_hidden_tile8(z0, t, m, c, rows), t, idx[0], val[0], n);
    const __m256 zero = _mm256_setzero_ps();
    for (int l = 0; l < L; l++) {
        const int W = dims[l];
        const int* ix = idx[p];
        const float* vx = val[p];
        int n2 = 0, s0 = 0;
        /* 32 units at a time in four registers (four independent sums per product
           loaded), then 8 at a time */
        for (; s0 + 32 <= W; s0 += 32) {
            __m256 s1 = _mm256_loadu_ps(b[l] + s0), s2 = _mm256_loadu_ps(b[l] + s0 + 8);
            __m256 s3 = _mm256_loadu_ps(b[l] + s0 + 16), s4 = _mm256_loadu_ps(b[l] + s0 + 24);
            for (int u = 0; u < n; u++) {
                const __m256 a = _mm256_set1_ps(vx[u]);
                const float* x = wt[l] + (size_t)ix[u] * W + s0;
                s1 = _mm256_add_ps(s1, _mm256_mul_ps(a, _mm256_loadu_ps(x)));
                s2 = _mm256_add_ps(s2, _mm256_mul_ps(a, _mm256_loadu_ps(x + 8)));
                s3 = _mm256_add_ps(s3, _mm256_mul_ps(a, _mm256_loadu_ps(x + 16)));
                s4 = _mm256_add_ps(s4, _mm256_mul_ps(a, _mm256_loadu_ps(x + 24)));
            }
            n2 = nf_deep_pack(_mm256_max_ps(s1, zero), s0, idx[1 - p], val[1 - p], n2);
            n2 = nf_deep_pack(_mm256_max_ps(s2, zero), s0 + 8, idx[1 - p], val[1 - p], n2);
            n2 = nf_deep_pack(_mm256_max_ps(s3, zero), s0 + 16, idx[1 - p], val[1 - p], n2);
            n2 = nf_deep_pack(_mm256_max_ps(s4, zero), s0 + 24, idx[1 - p], val[1 - p], n2);
        }
        for (; s0 < W; s0 += 8) {
            __m256 s = _mm256_loadu_ps(b[l] + s0);
            for (int u = 0; u < n; u++)
                s = _mm256_add_ps(s, _mm256_mul_ps(
                    _mm256_set1_ps(vx[u]), _mm256_loadu_ps(wt[l] + (size_t)ix[u] * W + s0)));
            n2 = nf_deep_pack(_mm256_max_ps(s, zero), s0, idx[1 - p], val[1 - p], n2);
        }
        n = n2;
        p = 1 - p;
    }
    memcpy(acc, b2, (size_t)n_out * sizeof(float));
    memset(acc + n_out, 0, (size_t)(stride - n_out) * sizeof(float));
    for (int u = 0; u < n; u++) {
        const __m256 a = _mm256_set1_ps(val[p][u]);
        const float* x = w2t + (size_t)idx[p][u] * stride;
        for (int k = 0; k < stride; k += 8)
            _mm256_storeu_ps(acc + k, _mm256_add_ps(
                _mm256_loadu_ps(acc + k), _mm256_mul_ps(a, _mm256_loadu_ps(x + k))));
    }
    memcpy(out, acc, (size_t)n_out * sizeof(float));
}
#endif

static inline void nf_luck(int H, const float* z0, int m, const float* c,
                           const float* const* rows, int L, const int* dims,
                           const float* const* wt, const float* const* b, int n_out,
                           int stride, const float* w2t, const float* b2, float* out) {
#ifdef NF_HIDDEN_HAVE_AVX2
    if (nf_hidden_current() == 2 && stride <= NF_LUCK_STRIDE_MAX) {
        nf_luck_avx2(H, z0, m, c, rows, L, dims, wt, b, n_out, stride, w2t, b2, out);
        return;
    }
#endif
    nf_luck_generic(H, z0, m, c, rows, L, dims, wt, b, n_out, stride, w2t, b2, out);
}

#endif
