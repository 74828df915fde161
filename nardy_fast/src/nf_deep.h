/* The evaluation network with a second hidden layer, for one position, given its first
   layer's pre-activations as a base row plus a few scaled weight rows (as nf_hidden.h):

       z    = z0 + c[0] rows[0] + ... + c[m-1] rows[m-1]     (H floats, in that order)
       h    = max(z, 0)
       h2   = max(b3 + sum over j with h[j] > 0, j rising, of h[j] w3t[j], 0)   (H2 floats)
       pre[k] = nf_dot8(w2 + k H, h, H) + nf_dot8(w4 + k H2, h2, H2)          (k < n_out)

   w3t is the second layer's weights transposed, (H, H2): row j holds first-layer unit j's
   weights into every second-layer unit, so h2 is b3 plus the rows of the first layer's
   active units, scaled.  The ReLU zeroes half of h or more (nine tenths for the shipped
   net's units in play), and both paths skip those rows alike instead of adding 0 * w;
   each h2[i] is one running sum, b3[i] first, then the products in rising j.  z, h and
   the w2 dot products are nf_hidden's, operation for operation, so a net whose w4 is zero
   gives the one-layer kernel's bits.  H and H2 are multiples of 8, at most NF_HIDDEN_MAX.

   Two implementations that give the same bits:
   - nf_deep_generic: the plain loops;
   - nf_deep_avx2 (x86 with GCC or Clang): the first layer tile by tile in registers as in
     nf_hidden_avx2, the w2 dot products accumulated on the way, and each register of h
     packed into the list of active units (index and value) by a permutation looked up
     from its sign mask, without a branch per unit; then h2 in blocks of 64 floats held in
     eight registers while the active rows are added, its ReLU, and the w4 dot products
     taken from the registers.  Every element sees the same operations in the same order
     as in the plain loops, both dot products keep nf_dot8's eight partial sums and its
     final order, and there is no FMA (the target is "avx2" alone), so each product is
     rounded before it is added.
   nf_deep runs the path nf_hidden runs (nf_hidden_current; nf_hidden_force_generic(1)
   forces the generic one for both).
   Measured (one core, plain 0-ply rollouts from the start, games per CPU-second, the
   shipped net of 256 units deepened by 64, medians of 5): the plain loops of _net.pyx
   before this kernel 128, this kernel's generic path 248, its AVX2 path 793; the one-layer
   net 1,297 (benchmarks/RESULTS.md). */
#ifndef NF_DEEP_H
#define NF_DEEP_H
#include <string.h>
#include "nf_dot.h"
#include "nf_hidden.h"

/* The active units of h (h[j] > 0), j rising: their indices and values; returns how
   many.  Branch-free: every j is written, the count moves on only for an active one.
   (The generic path's list; the AVX2 path packs whole registers, nf_deep_pack.) */
static inline int nf_deep_active(int H, const float* h, int* idx, float* val) {
    int n = 0;
    for (int j = 0; j < H; j++) {
        idx[n] = j;
        val[n] = h[j];
        n += h[j] > 0.0f;
    }
    return n;
}

/* h[0..count) += val[u] * the row idx[u] of w (rows of stride floats), u = 0..n-1 in
   order: the plain loops' sum of the active units' rows (nf_luck.h has its fused twin). */
static inline void nf_deep_add_rows(int n, const int* idx, const float* val,
                                    const float* w, int stride, int count, float* h) {
    for (int u = 0; u < n; u++) {
        const float a = val[u];
        const float* x = w + (size_t)idx[u] * stride;
        for (int i = 0; i < count; i++)
            h[i] += a * x[i];
    }
}

static inline void nf_deep_generic(int H, const float* z0, int m, const float* c,
                                   const float* const* rows, const float* w2, int H2,
                                   const float* w3t, const float* b3, const float* w4,
                                   int n_out, float* pre) {
    float h[NF_HIDDEN_MAX];
    float h2[NF_HIDDEN_MAX];
    float val[NF_HIDDEN_MAX];
    int idx[NF_HIDDEN_MAX];
    nf_hidden_relu(H, z0, m, c, rows, h);
    const int n = nf_deep_active(H, h, idx, val);
    memcpy(h2, b3, (size_t)H2 * sizeof(float));
    nf_deep_add_rows(n, idx, val, w3t, H2, H2, h2);
    for (int i = 0; i < H2; i++)
        h2[i] = h2[i] > 0.0f ? h2[i] : 0.0f;
    for (int k = 0; k < n_out; k++)
        pre[k] = nf_dot8(w2 + (size_t)k * H, h, H) + nf_dot8(w4 + (size_t)k * H2, h2, H2);
}

#ifdef NF_HIDDEN_HAVE_AVX2
/* NF_DEEP_PACK[mask]: the lanes set in an 8-bit mask, lowest first, one per 4 bits from
   the lowest (the rest 0): the permutation that packs a register's active lanes to its
   front. */
static const unsigned NF_DEEP_PACK[256] = {
    0x00000000, 0x00000000, 0x00000001, 0x00000010, 0x00000002, 0x00000020,
    0x00000021, 0x00000210, 0x00000003, 0x00000030, 0x00000031, 0x00000310,
    0x00000032, 0x00000320, 0x00000321, 0x00003210, 0x00000004, 0x00000040,
    0x00000041, 0x00000410, 0x00000042, 0x00000420, 0x00000421, 0x00004210,
    0x00000043, 0x00000430, 0x00000431, 0x00004310, 0x00000432, 0x00004320,
    0x00004321, 0x00043210, 0x00000005, 0x00000050, 0x00000051, 0x00000510,
    0x00000052, 0x00000520, 0x00000521, 0x00005210, 0x00000053, 0x00000530,
    0x00000531, 0x00005310, 0x00000532, 0x00005320, 0x00005321, 0x00053210,
    0x00000054, 0x00000540, 0x00000541, 0x00005410, 0x00000542, 0x00005420,
    0x00005421, 0x00054210, 0x00000543, 0x00005430, 0x00005431, 0x00054310,
    0x00005432, 0x00054320, 0x00054321, 0x00543210, 0x00000006, 0x00000060,
    0x00000061, 0x00000610, 0x00000062, 0x00000620, 0x00000621, 0x00006210,
    0x00000063, 0x00000630, 0x00000631, 0x00006310, 0x00000632, 0x00006320,
    0x00006321, 0x00063210, 0x00000064, 0x00000640, 0x00000641, 0x00006410,
    0x00000642, 0x00006420, 0x00006421, 0x00064210, 0x00000643, 0x00006430,
    0x00006431, 0x00064310, 0x00006432, 0x00064320, 0x00064321, 0x00643210,
    0x00000065, 0x00000650, 0x00000651, 0x00006510, 0x00000652, 0x00006520,
    0x00006521, 0x00065210, 0x00000653, 0x00006530, 0x00006531, 0x00065310,
    0x00006532, 0x00065320, 0x00065321, 0x00653210, 0x00000654, 0x00006540,
    0x00006541, 0x00065410, 0x00006542, 0x00065420, 0x00065421, 0x00654210,
    0x00006543, 0x00065430, 0x00065431, 0x00654310, 0x00065432, 0x00654320,
    0x00654321, 0x06543210, 0x00000007, 0x00000070, 0x00000071, 0x00000710,
    0x00000072, 0x00000720, 0x00000721, 0x00007210, 0x00000073, 0x00000730,
    0x00000731, 0x00007310, 0x00000732, 0x00007320, 0x00007321, 0x00073210,
    0x00000074, 0x00000740, 0x00000741, 0x00007410, 0x00000742, 0x00007420,
    0x00007421, 0x00074210, 0x00000743, 0x00007430, 0x00007431, 0x00074310,
    0x00007432, 0x00074320, 0x00074321, 0x00743210, 0x00000075, 0x00000750,
    0x00000751, 0x00007510, 0x00000752, 0x00007520, 0x00007521, 0x00075210,
    0x00000753, 0x00007530, 0x00007531, 0x00075310, 0x00007532, 0x00075320,
    0x00075321, 0x00753210, 0x00000754, 0x00007540, 0x00007541, 0x00075410,
    0x00007542, 0x00075420, 0x00075421, 0x00754210, 0x00007543, 0x00075430,
    0x00075431, 0x00754310, 0x00075432, 0x00754320, 0x00754321, 0x07543210,
    0x00000076, 0x00000760, 0x00000761, 0x00007610, 0x00000762, 0x00007620,
    0x00007621, 0x00076210, 0x00000763, 0x00007630, 0x00007631, 0x00076310,
    0x00007632, 0x00076320, 0x00076321, 0x00763210, 0x00000764, 0x00007640,
    0x00007641, 0x00076410, 0x00007642, 0x00076420, 0x00076421, 0x00764210,
    0x00007643, 0x00076430, 0x00076431, 0x00764310, 0x00076432, 0x00764320,
    0x00764321, 0x07643210, 0x00000765, 0x00007650, 0x00007651, 0x00076510,
    0x00007652, 0x00076520, 0x00076521, 0x00765210, 0x00007653, 0x00076530,
    0x00076531, 0x00765310, 0x00076532, 0x00765320, 0x00765321, 0x07653210,
    0x00007654, 0x00076540, 0x00076541, 0x00765410, 0x00076542, 0x00765420,
    0x00765421, 0x07654210, 0x00076543, 0x00765430, 0x00765431, 0x07654310,
    0x00765432, 0x07654320, 0x07654321, 0x76543210,
};

/* Appends the active lanes of r (r > 0; r is a ReLU's output), units t..t+7, to the list
   (idx, val) of n entries; returns the new n.  Writes 8 entries from n on (the arrays
   have room for them), so no lane needs a branch. */
__attribute__((target("avx2")))
static inline int nf_deep_pack(__m256 r, int t, int* idx, float* val, int n) {
    const int mask = _mm256_movemask_ps(_mm256_cmp_ps(r, _mm256_setzero_ps(), _CMP_GT_OQ));
    const __m256i perm = _mm256_and_si256(
        _mm256_srlv_epi32(_mm256_set1_epi32((int)NF_DEEP_PACK[mask]),
                          _mm256_setr_epi32(0, 4, 8, 12, 16, 20, 24, 28)),
        _mm256_set1_epi32(15));
    _mm256_storeu_ps(val + n, _mm256_permutevar8x32_ps(r, perm));
    _mm256_storeu_si256((__m256i*)(idx + n), _mm256_add_epi32(perm, _mm256_set1_epi32(t)));
    return n + __builtin_popcount((unsigned)mask);
}

/* n_out <= NF_OUT_MAX (the caller checks). */
__attribute__((target("avx2")))
static void nf_deep_avx2(int H, const float* z0, int m, const float* c,
                         const float* const* rows, const float* w2, int H2,
                         const float* w3t, const float* b3, const float* w4, int n_out,
                         float* pre) {
    float val[NF_HIDDEN_MAX + 8];
    int idx[NF_HIDDEN_MAX + 8];
    __m256 acc[NF_OUT_MAX];    /* w2 . h, then w4 . h2: nf_dot8's eight lanes each */
    __m256 acc2[NF_OUT_MAX];
    const __m256 zero = _mm256_setzero_ps();
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC unroll 8
#endif
    for (int k = 0; k < NF_OUT_MAX; k++)     /* unrolled: no call to memset */
        acc[k] = acc2[k] = zero;
    /* The first layer: as nf_hidden_avx2, tiles of 32 floats then of 8; h goes to the
       list of active units (n of them), not to memory. */
    int n = 0, t = 0;
    for (; t + 32 <= H; t += 32) {
        __m256 r[4];
        nf_hidden_tile32(z0, t, m, c, rows, r);
        n = nf_deep_pack(r[0], t, idx, val, n);
        n = nf_deep_pack(r[1], t + 8, idx, val, n);
        n = nf_deep_pack(r[2], t + 16, idx, val, n);
        n = nf_deep_pack(r[3], t + 24, idx, val, n);
        nf_hidden_acc32(w2, H, t, n_out, r, acc);
    }
    for (; t < H; t += 8) {
        const __m256 r0 = nf_hidden_tile8(z0, t, m, c, rows);
        n = nf_deep_pack(r0, t, idx, val, n);
        nf_hidden_acc8(w2, H, t, n_out, r0, acc);
    }
    /* The second layer: blocks of 64 units (eight registers), then of 8. */
    int b = 0;
    for (; b + 64 <= H2; b += 64) {
        __m256 s0 = _mm256_loadu_ps(b3 + b), s1 = _mm256_loadu_ps(b3 + b + 8);
        __m256 s2 = _mm256_loadu_ps(b3 + b + 16), s3 = _mm256_loadu_ps(b3 + b + 24);
        __m256 s4 = _mm256_loadu_ps(b3 + b + 32), s5 = _mm256_loadu_ps(b3 + b + 40);
        __m256 s6 = _mm256_loadu_ps(b3 + b + 48), s7 = _mm256_loadu_ps(b3 + b + 56);
        for (int u = 0; u < n; u++) {
            const __m256 a = _mm256_set1_ps(val[u]);
            const float* x = w3t + (size_t)idx[u] * H2 + b;
            s0 = _mm256_add_ps(s0, _mm256_mul_ps(a, _mm256_loadu_ps(x)));
            s1 = _mm256_add_ps(s1, _mm256_mul_ps(a, _mm256_loadu_ps(x + 8)));
            s2 = _mm256_add_ps(s2, _mm256_mul_ps(a, _mm256_loadu_ps(x + 16)));
            s3 = _mm256_add_ps(s3, _mm256_mul_ps(a, _mm256_loadu_ps(x + 24)));
            s4 = _mm256_add_ps(s4, _mm256_mul_ps(a, _mm256_loadu_ps(x + 32)));
            s5 = _mm256_add_ps(s5, _mm256_mul_ps(a, _mm256_loadu_ps(x + 40)));
            s6 = _mm256_add_ps(s6, _mm256_mul_ps(a, _mm256_loadu_ps(x + 48)));
            s7 = _mm256_add_ps(s7, _mm256_mul_ps(a, _mm256_loadu_ps(x + 56)));
        }
        s0 = _mm256_max_ps(s0, zero);
        s1 = _mm256_max_ps(s1, zero);
        s2 = _mm256_max_ps(s2, zero);
        s3 = _mm256_max_ps(s3, zero);
        s4 = _mm256_max_ps(s4, zero);
        s5 = _mm256_max_ps(s5, zero);
        s6 = _mm256_max_ps(s6, zero);
        s7 = _mm256_max_ps(s7, zero);
        for (int k = 0; k < n_out; k++) {
            const float* w = w4 + (size_t)k * H2 + b;
            __m256 s = acc2[k];
            s = _mm256_add_ps(s, _mm256_mul_ps(_mm256_loadu_ps(w), s0));
            s = _mm256_add_ps(s, _mm256_mul_ps(_mm256_loadu_ps(w + 8), s1));
            s = _mm256_add_ps(s, _mm256_mul_ps(_mm256_loadu_ps(w + 16), s2));
            s = _mm256_add_ps(s, _mm256_mul_ps(_mm256_loadu_ps(w + 24), s3));
            s = _mm256_add_ps(s, _mm256_mul_ps(_mm256_loadu_ps(w + 32), s4));
            s = _mm256_add_ps(s, _mm256_mul_ps(_mm256_loadu_ps(w + 40), s5));
            s = _mm256_add_ps(s, _mm256_mul_ps(_mm256_loadu_ps(w + 48), s6));
            s = _mm256_add_ps(s, _mm256_mul_ps(_mm256_loadu_ps(w + 56), s7));
            acc2[k] = s;
        }
    }
    for (; b < H2; b += 8) {
        __m256 s0 = _mm256_loadu_ps(b3 + b);
        for (int u = 0; u < n; u++)
            s0 = _mm256_add_ps(s0, _mm256_mul_ps(_mm256_set1_ps(val[u]),
                                                 _mm256_loadu_ps(w3t + (size_t)idx[u] * H2 + b)));
        nf_hidden_acc8(w4, H2, b, n_out, _mm256_max_ps(s0, zero), acc2);
    }
    for (int k = 0; k < n_out; k++)
        pre[k] = nf_hidden_sum8(acc[k]) + nf_hidden_sum8(acc2[k]);
}
#endif

static inline void nf_deep(int H, const float* z0, int m, const float* c,
                           const float* const* rows, const float* w2, int H2,
                           const float* w3t, const float* b3, const float* w4, int n_out,
                           float* pre) {
#ifdef NF_HIDDEN_HAVE_AVX2
    if (nf_hidden_current() == 2 && n_out <= NF_OUT_MAX) {
        nf_deep_avx2(H, z0, m, c, rows, w2, H2, w3t, b3, w4, n_out, pre);
        return;
    }
#endif
    nf_deep_generic(H, z0, m, c, rows, w2, H2, w3t, b3, w4, n_out, pre);
}

#endif
