/* Dot product of two float32 vectors of n floats (n a multiple of 8), as 8 interleaved
   partial sums acc[l] = sum_j x[8j + l] y[8j + l], added as
   ((acc0 + acc4) + (acc1 + acc5)) + ((acc2 + acc6) + (acc3 + acc7)): one fixed order, so
   the SSE2 path (two 4-lane accumulators) and the scalar path give the same bits (no FMA
   either way).  One running sum would be a chain of n dependent additions; the network's
   output layer (_net.outputs) spent most of a rollout's time there.
   Measured: 0-ply net rollouts from the start 590 -> 1,000+ games per CPU-second. */
#ifndef NF_DOT_H
#define NF_DOT_H
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

static inline float nf_dot8(const float* x, const float* y, int n) {
#if defined(__SSE2__)
    __m128 a0 = _mm_setzero_ps(), a1 = _mm_setzero_ps();
    float t[4];
    for (int j = 0; j < n; j += 8) {
        a0 = _mm_add_ps(a0, _mm_mul_ps(_mm_loadu_ps(x + j), _mm_loadu_ps(y + j)));
        a1 = _mm_add_ps(a1, _mm_mul_ps(_mm_loadu_ps(x + j + 4), _mm_loadu_ps(y + j + 4)));
    }
    _mm_storeu_ps(t, _mm_add_ps(a0, a1));
    return (t[0] + t[1]) + (t[2] + t[3]);
#else
    float acc[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    for (int j = 0; j < n; j += 8)
        for (int l = 0; l < 8; l++)
            acc[l] += x[j + l] * y[j + l];
    return ((acc[0] + acc[4]) + (acc[1] + acc[5])) + ((acc[2] + acc[6]) + (acc[3] + acc[7]));
#endif
}

#endif
