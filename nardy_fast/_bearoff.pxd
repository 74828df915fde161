# C-level API of the bear-off databases (rule book section 6).
#
# A bear-off board is uint8_t[6]: board6[i] = checkers on the mover's own point 24 - i, the
# point a die of i + 1 bears off from (board6 = mover[23 - i] of a 24-point board).  At most
# 15 checkers.  Inputs are trusted: callers validate counts (0..15, total <= 15).
#
# Index (colexicographic rank, "fewer checkers first"): with S_k = board6[5] + ... +
# board6[5 - k] (checkers on the k + 1 points farthest from the edge),
#     index = sum_{k=0}^{5} C(S_k + k, k + 1).
# Every board of at most n checkers has index < C(n + 6, 6) (0 is the empty board; the
# 54,264 boards of <= 15 checkers are 0 .. 54263), and every legal successor of a board
# (any step inside the home or off) has a strictly smaller index, so plain index order is
# a topological order for the dynamic programs.
from libc.stdint cimport uint8_t, int32_t

cdef enum:
    N_HOME = 6               # home points
    MAX_BEAROFF = 15         # checkers of a side
    N_BOARDS = 54264         # boards of <= 15 checkers: C(21, 6)
    N_ROLLS = 21             # distinct rolls: 15 non-doubles (prob 2/36), 6 doubles (1/36)

# Index of board6 (see above); 0 <= index < C(n + 6, 6) for n checkers.
cdef Py_ssize_t board6_index(const uint8_t* board6) noexcept nogil

# Writes the board of index idx (0 <= idx < 54264) to board6[0:6].
cdef void board6_from_index(Py_ssize_t idx, uint8_t* board6) noexcept nogil

# Roll r (0 <= r < 21) as dice (*d1, *d2), d1 <= d2; returns its probability (1/36 or 2/36).
cdef double roll_dice(int r, int* d1, int* d2) noexcept nogil

# Single steps of every board x < m (m = C(n + 6, 6) boards of <= n checkers):
# ss[(x * 6 + d - 1) * 6 + q], q < ns[x * 6 + d - 1], is the index after single step q of a
# die d from x (ns = 0 only for the empty board).  ss holds m * 36 entries, ns m * 6.
cdef void single_step_table(Py_ssize_t m, int32_t* ss, uint8_t* ns) noexcept nogil

# Distinct board indices left by the legal moves of the roll (d1, d2) from board6 (the
# board itself when it is empty) into out[0:n]; returns n (never above 1400, so a buffer
# of 1400 suffices).  stamp: int32 per board index, none equal to mark on entry (the
# entries of the results are set to mark).
cdef Py_ssize_t roll_finals(const uint8_t* board6, int d1, int d2, int32_t* out,
                            int32_t* stamp, int32_t mark) noexcept nogil

# One-sided race estimate for the side on roll (board index a) against the opponent (index
# b), both sides playing their own one-sided policies independently:
#   turns[i * n_turns + t]        P(board i needs exactly t own turns to bear off all)
#   first_off[i * n_first + t]    P(board i bears off its first checker on own turn t)
#                                 (row [1, 0, ...] when it has fewer than 15 checkers)
# (row-major, C-contiguous tables of OneSided).  The side on roll wins iff it needs no more
# turns than the opponent (Ta <= Tb); it wins a mars iff also the opponent has none off
# after Ta - 1 turns (Fb >= Ta); it loses a mars iff Tb < Ta and Fa > Tb.  Writes
# out[0] = P(win), out[1] = P(mars win), out[2] = P(mars loss), mars clipped to the win /
# loss probability.  With draw_rule (nonzero) the side that moved first in the game is the
# side on roll when on_roll_first is nonzero (see race.py for the draw rule); out[3] then
# receives P(draw) (0 without draw_rule).
cdef void race_outcome(const double* turns, Py_ssize_t n_turns,
                       const double* first_off, Py_ssize_t n_first,
                       Py_ssize_t a, Py_ssize_t b, int draw_rule, int on_roll_first,
                       double* out) noexcept nogil

# Mars extension (bearoff.MarsTable, MarsSolver in _bearoff.pyx): side X has all T (15)
# checkers home and none off, side Y has 1..N.  The tables x_on_roll / y_on_roll are
# C-contiguous float64 (n_x, 2, m_y), n_x = C(T + 5, 5) X boards of exactly T checkers
# (board index ix = x_offset + row, x_offset = C(T + 5, 6)), m_y = C(N + 6, 6) Y boards
# (index iy; iy = 0 holds the convention (0, 1)).  Returns entry k (0: P(X wins), 1: P(Y
# wins a mars)) of the table at ix, iy.  Inputs are trusted.
cdef inline double mars_entry(const double* table, Py_ssize_t m_y, Py_ssize_t x_offset,
                              Py_ssize_t ix, Py_ssize_t iy, int k) noexcept nogil:
    return table[((ix - x_offset) * 2 + k) * m_y + iy]
