# C-level API of the 21 distinct rolls: the one roll table of the package (the C arrays of
# src/nf_binom.h; core/_dice.pyx gives Python the same table).  Every user walks the rolls
# in this order, roll r = (NF_ROLL_D1[r], NF_ROLL_D2[r]): 1-1, 1-2, ..., 1-6, 2-2, ..., 6-6
# (d1 <= d2), so values listed per roll line up between C and Python.

cdef extern from "nf_binom.h":
    const int NF_ROLL_D1[21]             # roll r (0..20): dice d1 <= d2, 1-1, 1-2, ..., 6-6
    const int NF_ROLL_D2[21]
    const double NF_ROLL_P[21]           # its probability: 1/36 (double) or 2/36

cdef enum:
    N_ROLLS = 21             # distinct rolls: 15 non-doubles (prob 2/36), 6 doubles (1/36)

# Dice (*d1, *d2), d1 <= d2, of roll r (0 <= r < 21); returns its probability.
cdef inline double roll_of(int r, int* d1, int* d2) noexcept nogil:
    d1[0] = NF_ROLL_D1[r]
    d2[0] = NF_ROLL_D2[r]
    return NF_ROLL_P[r]

# Index r of the roll (d1, d2), either order (the inverse of roll_of).
cdef inline int roll_index(int d1, int d2) noexcept nogil:
    cdef int lo = d1 if d1 < d2 else d2
    cdef int hi = d2 if d1 < d2 else d1
    return 6 * (lo - 1) - (lo - 1) * (lo - 2) // 2 + hi - lo
