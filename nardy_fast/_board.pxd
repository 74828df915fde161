# C-level board conventions shared by every Cython module of nardy_fast.
#
# A side's board is uint8_t[24]: b[idx] = checkers on that side's own point idx + 1
# (idx 0 = the head, idx 18..23 = the home, points 19..24).  Checkers off = 15 - sum(b).
# Opponent idx j is the mover's idx (j + 12) % 24.
from libc.stdint cimport uint8_t, uint32_t, uint64_t

cdef enum:
    N_POINTS = 24        # points per side
    N_CHECKERS = 15      # checkers per side
    HOME_IDX = 18        # idx of point 19, the first home point
    OFF = 24             # "to" index of a bear-off step
    OUTSIDE_HOME_MASK = 0x3FFFF   # bits of idx 0..17 (outside the home)

# Bit idx set where b[idx] > 0.
cdef inline uint32_t occupancy(const uint8_t* b) noexcept nogil:
    cdef uint32_t m = 0
    cdef int i
    for i in range(N_POINTS):
        if b[i]:
            m |= (1u << i)
    return m

# Bits of the mover's idx held by the opponent (opponent board in its own numbering).
cdef inline uint32_t opponent_mask(const uint8_t* opp) noexcept nogil:
    cdef uint32_t m = occupancy(opp)
    return ((m >> 12) | (m << 12)) & 0xFFFFFF

# Checkers on the board.
cdef inline int checkers_on(const uint8_t* b) noexcept nogil:
    cdef int i, s = 0
    for i in range(N_POINTS):
        s += b[i]
    return s

# Pips still to travel: sum over checkers of 25 - point.
cdef inline int pip_count(const uint8_t* b) noexcept nogil:
    cdef int i, s = 0
    for i in range(N_POINTS):
        s += b[i] * (N_POINTS - i)
    return s
