# C-level API of the bear-off index (rule book section 6); every function is inline and
# needs nardy_fast.get_include() on the C include path (nf_binom.h).  The 21 rolls are
# core/_dice.pxd's.
#
# A bear-off board is uint8_t[6]: board6[i] = checkers on the mover's own point 24 - i, the
# point a die of i + 1 bears off from (board6 = mover[23 - i] of a 24-point board:
# _board.to_board6).  At most 15 checkers.  Inputs are trusted: callers validate counts.
#
# Index (colexicographic rank, "fewer checkers first"): with S_k = board6[5] + ... +
# board6[5 - k] (checkers on the k + 1 points farthest from the edge),
#     index = sum_{k=0}^{5} C(S_k + k, k + 1).
# Every board of at most n checkers has index < C(n + 6, 6) (0 is the empty board; the
# 54,264 boards of <= 15 checkers are 0 .. 54263), and every legal successor of a board
# (any step inside the home or off) has a strictly smaller index, so plain index order is
# a topological order for the dynamic programs.
from libc.stdint cimport uint8_t

from nardy_fast.core._board cimport to_board6

cdef extern from "nf_binom.h":
    const Py_ssize_t NF_BINOM[22][7]     # NF_BINOM[x][k] = C(x, k), x <= 21, k <= 6

cdef enum:
    N_HOME = 6               # home points
    MAX_BEAROFF = 15         # checkers of a side
    N_BOARDS = 54264         # boards of <= 15 checkers: C(21, 6)

# Index of board6 (see above); 0 <= index < C(n + 6, 6) for n checkers.
cdef inline Py_ssize_t board6_index(const uint8_t* board6) noexcept nogil:
    cdef Py_ssize_t idx = 0
    cdef int k, s = 0
    for k in range(N_HOME):
        s += board6[5 - k]
        idx += NF_BINOM[s + k][k + 1]
    return idx

# Writes the board of index idx (0 <= idx < 54264) to board6[0:6].
cdef inline void board6_from_index(Py_ssize_t idx, uint8_t* board6) noexcept nogil:
    cdef int k, x = 20
    for k in range(5, -1, -1):
        while NF_BINOM[x][k + 1] > idx:
            x -= 1
        idx -= NF_BINOM[x][k + 1]
        board6[5 - k] = <uint8_t>(x - k)      # S_k, differenced below
        x -= 1
    for k in range(5, 0, -1):
        board6[5 - k] = board6[5 - k] - board6[5 - k + 1]

# Index of a 24-point board with all its checkers home (its board6: _board.to_board6).
cdef inline Py_ssize_t home_board_index(const uint8_t* b) noexcept nogil:
    cdef uint8_t b6[N_HOME]
    to_board6(b, b6)
    return board6_index(b6)

# Boards of at most n (0..15) checkers: C(n + 6, 6).
cdef inline Py_ssize_t n_boards(int n) noexcept nogil:
    return NF_BINOM[n + 6][6]
