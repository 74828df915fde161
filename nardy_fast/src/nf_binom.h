/* Binomial coefficients and the 21 rolls, as constant tables for the bear-off index.
   The roll table is the package's only one: core/_dice.pxd declares it for C, and
   core/_dice.pyx reads it into Python (ROLLS, COUNTS, WEIGHTS).

   NF_BINOM[x][k] = C(x, k) for 0 <= x <= 21, 0 <= k <= 6 (C(21, 6) = 54264 boards of at
   most 15 checkers on 6 points).  NF_ROLL_D1[r], NF_ROLL_D2[r]: the dice of roll r
   (0 <= r < 21, d1 <= d2, in the order 1-1, 1-2, ..., 1-6, 2-2, ..., 6-6); NF_ROLL_P[r]
   its probability, 1/36 for a double and 2/36 otherwise.  Generated with math.comb. */
#ifndef NF_BINOM_H
#define NF_BINOM_H

#include <stddef.h>

static const Py_ssize_t NF_BINOM[22][7] = {
    {1, 0, 0, 0, 0, 0, 0},
    {1, 1, 0, 0, 0, 0, 0},
    {1, 2, 1, 0, 0, 0, 0},
    {1, 3, 3, 1, 0, 0, 0},
    {1, 4, 6, 4, 1, 0, 0},
    {1, 5, 10, 10, 5, 1, 0},
    {1, 6, 15, 20, 15, 6, 1},
    {1, 7, 21, 35, 35, 21, 7},
    {1, 8, 28, 56, 70, 56, 28},
    {1, 9, 36, 84, 126, 126, 84},
    {1, 10, 45, 120, 210, 252, 210},
    {1, 11, 55, 165, 330, 462, 462},
    {1, 12, 66, 220, 495, 792, 924},
    {1, 13, 78, 286, 715, 1287, 1716},
    {1, 14, 91, 364, 1001, 2002, 3003},
    {1, 15, 105, 455, 1365, 3003, 5005},
    {1, 16, 120, 560, 1820, 4368, 8008},
    {1, 17, 136, 680, 2380, 6188, 12376},
    {1, 18, 153, 816, 3060, 8568, 18564},
    {1, 19, 171, 969, 3876, 11628, 27132},
    {1, 20, 190, 1140, 4845, 15504, 38760},
    {1, 21, 210, 1330, 5985, 20349, 54264}
};

static const int NF_ROLL_D1[21] = {1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 5, 5, 6};
static const int NF_ROLL_D2[21] = {1, 2, 3, 4, 5, 6, 2, 3, 4, 5, 6, 3, 4, 5, 6, 4, 5, 6, 5, 6, 6};
static const double NF_ROLL_P[21] = {
    1.0 / 36.0, 2.0 / 36.0, 2.0 / 36.0, 2.0 / 36.0, 2.0 / 36.0, 2.0 / 36.0, 1.0 / 36.0, 2.0 / 36.0, 2.0 / 36.0, 2.0 / 36.0, 2.0 / 36.0, 1.0 / 36.0, 2.0 / 36.0, 2.0 / 36.0, 2.0 / 36.0, 1.0 / 36.0, 2.0 / 36.0, 2.0 / 36.0, 1.0 / 36.0, 2.0 / 36.0, 1.0 / 36.0};

#endif
