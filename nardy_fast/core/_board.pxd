# C-level board conventions shared by every Cython module of nardy_fast.
#
# A side's board is uint8_t[24]: b[idx] = checkers on that side's own point idx + 1
# (idx 0 = the head, idx 18..23 = the home, points 19..24).  Checkers off = 15 - sum(b).
# Opponent idx j is the mover's idx (j + 12) % 24.
from libc.stdint cimport uint8_t, uint32_t, uint64_t
from libc.string cimport memcpy

cdef enum:
    N_POINTS = 24        # points per side
    N_CHECKERS = 15      # checkers per side
    HOME_IDX = 18        # idx of point 19, the first home point
    OFF = 24             # "to" index of a bear-off step
    OUTSIDE_HOME_MASK = 0x3FFFF   # bits of idx 0..17 (outside the home)

# Bit idx set where b[idx] > 0 (SWAR: three 8-byte words, a nonzero-byte mask gathered
# by one multiplication per word; little-endian byte order, as on x86-64 and arm64).
cdef inline uint32_t occupancy(const uint8_t* b) noexcept nogil:
    cdef uint64_t w[3]
    cdef uint64_t x
    cdef uint32_t m = 0
    cdef int k
    memcpy(w, b, N_POINTS)
    for k in range(3):
        x = w[k]
        x = (((x & 0x7F7F7F7F7F7F7F7FULL) + 0x7F7F7F7F7F7F7F7FULL) | x) & 0x8080808080808080ULL
        m |= (<uint32_t>(((x >> 7) * 0x0102040810204080ULL) >> 56)) << (8 * k)
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

# True when every checker left on the board is in the home (idx 18..23), or none is left.
cdef inline bint all_home(const uint8_t* b) noexcept nogil:
    cdef int i
    for i in range(HOME_IDX):
        if b[i]:
            return False
    return True

# A bear-off: both sides entirely home (Position.is_bearoff, position.bearoff_mask).
cdef inline bint in_bearoff(const uint8_t* a, const uint8_t* b) noexcept nogil:
    return all_home(a) and all_home(b)

# The sides can still meet: a checker of either on its own points 1-12 (Position.is_contact).
cdef inline bint in_contact(const uint8_t* a, const uint8_t* b) noexcept nogil:
    cdef int i
    for i in range(N_POINTS // 2):
        if a[i] or b[i]:
            return True
    return False

# The bear-off board of a 24-point board with all its checkers home: board6[i] = b[23 - i]
# (checkers on the point a die of i + 1 bears off from; see _board6.pxd).
cdef inline void to_board6(const uint8_t* b, uint8_t* board6) noexcept nogil:
    cdef int i
    for i in range(6):
        board6[i] = b[N_POINTS - 1 - i]
