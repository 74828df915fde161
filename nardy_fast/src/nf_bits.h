/* Bit tricks of the move generator and the rollout policies.

   nf_ctz32(x): index of the lowest set bit of x (x != 0).
   nf_popcount32(x): number of set bits of x (SWAR: no libgcc call without -mpopcnt).
   nf_load_word(p): 8 board bytes as a little-endian word (byte k in bits 8k .. 8k + 7). */
#ifndef NF_BITS_H
#define NF_BITS_H

#include <stdint.h>
#include <string.h>

#if defined(_MSC_VER) && !defined(__clang__)
#include <intrin.h>
static __forceinline int nf_ctz32(uint32_t x) {
    unsigned long i; _BitScanForward(&i, x); return (int)i;
}
#else
#define nf_ctz32(x) __builtin_ctz(x)
#endif

static inline int nf_popcount32(uint32_t x) {
    x = x - ((x >> 1) & 0x55555555u);
    x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
    x = (x + (x >> 4)) & 0x0F0F0F0Fu;
    return (int)((x * 0x01010101u) >> 24);
}

static inline uint64_t nf_load_word(const uint8_t* p) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    uint64_t x = 0; int k;
    for (k = 7; k >= 0; k--) x = (x << 8) | p[k];
    return x;
#else
    uint64_t x; memcpy(&x, p, 8); return x;
#endif
}

#endif
