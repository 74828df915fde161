# C-level API of the no-contact race database (``race12.Race12``): boards of a side's last
# P <= 12 points, their index, and the turn-distribution windows a query reads.
#
# A race board is uint8_t[12]: c[i] = checkers at distance i + 1 from the edge, i.e. on the
# side's own point 24 - i (c[0:6] is exactly board6; c[6:12] the points 13-18, "outer").
# Index: idx = offset[outer_index(c[6:P])] + board6_index(c[0:6]), where outer boards are
# ranked colexicographically like board6 (fewer checkers first) and offset[o] counts the
# boards of the outer boards before o (each with C(N - n(o) + 6, 6) inner boards).  Every
# legal step of a race lowers the index (inside the home: board6_index falls; from the
# outer points: the outer rank falls), so index order is a topological order; boards with
# nothing outside home keep their board6 index (0 .. 54263).
from libc.stdint cimport uint8_t, uint16_t, uint32_t, int64_t

from nardy_fast.tables._board6 cimport board6_index, NF_BINOM

cdef enum:
    R12_POINTS = 12          # the last 12 points of the path
    R12_HOME = 6
    R12_TCAP = 256           # turn columns a window can reach (lo + n <= 255)
    R12_SCALE = 65535        # a stored CDF entry is round(F(t) * 65535)

ctypedef struct r12index_t:
    int points               # P (6..12): distances 1..P are covered
    int max_checkers         # N: boards of at most N checkers
    const int64_t* offset    # offset[o]: first index of outer board o (n_outer + 1 entries)

ctypedef struct r12win_t:    # one distribution per board, as a window of its CDF
    const uint8_t* lo        # F(t) = 0 for t < lo[i]
    const uint8_t* n         # F(t) = 1 for t >= lo[i] + n[i]
    const uint32_t* start    # F(lo + j) = data[start[i] + j] / 65535, j < n[i]
    const uint16_t* data

ctypedef struct race12_t:
    r12index_t ix
    r12win_t turns           # own turns to bear off all (play minimising the mean)
    r12win_t first           # own turns to the first checker off (15-checker boards)
    r12win_t home            # own turns until all are home, under the first-off play

# Colex rank of an outer board of q (0..6) points, o[j] = checkers at distance 7 + j.
cdef inline Py_ssize_t outer_index(const uint8_t* o, int q) noexcept nogil:
    cdef Py_ssize_t idx = 0
    cdef int k, s = 0
    for k in range(q):
        s += o[q - 1 - k]
        idx += NF_BINOM[s + k][k + 1]
    return idx

# Index of race board c (trusted: checkers only on distances 1..points, at most N).
cdef inline Py_ssize_t r12_index(const r12index_t* ix, const uint8_t* c) noexcept nogil:
    return ix.offset[outer_index(c + R12_HOME, ix.points - R12_HOME)] + board6_index(c)

# (P(win), P(mars win), P(mars loss), P(draw), P(home mars win), P(home mars loss)) of the
# side on roll with race board x against y by convolution of the one-sided distributions,
# into out[0:6]; x_first: the side on roll moved first in the game (draw_rule's last turn).
cdef void race12_outcome(const race12_t* t, const uint8_t* x, const uint8_t* y,
                         int draw_rule, int x_first, double* out) noexcept nogil

# Expected plies until the race of race boards x (on roll) and y ends (x finishes on its
# turn t at ply 2t - 1, y at ply 2t); a = 1 (x is White) or b = 1 (y is White) under
# draw_rule adds Black's last turn (as _rollout.race_exact).
cdef double race12_plies(const race12_t* t, const uint8_t* x, const uint8_t* y, int a,
                         int b) noexcept nogil

# True when both 24-point boards (each in its own numbering) are a race this table covers:
# no checker on points 1 .. 24 - P, at most N checkers each, neither side finished.
cdef bint race12_covers(const race12_t* t, const uint8_t* me, const uint8_t* opp) noexcept nogil

# Race board of a 24-point board (c[i] = b[23 - i], i < 12).
cdef inline void race12_board(const uint8_t* b, uint8_t* c) noexcept nogil:
    cdef int i
    for i in range(R12_POINTS):
        c[i] = b[23 - i]

# The arrays of a race12.Race12 seen from C (kept alive by the object).
cdef class Race12Tables:
    cdef race12_t t
    cdef readonly dict arrays
    cdef readonly int points, max_checkers
    cdef const race12_t* c_tables(self)
