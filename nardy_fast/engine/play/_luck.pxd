# C-level luck of a roll (see _luck.pyx): values of the net's outputs (NET_OUTPUTS) and of
# the equity, accumulated over a game from the view of side 0 (on roll at its start).
from libc.stdint cimport uint8_t

from nardy_fast.engine.evaluation._net cimport NET_OUTPUTS
from nardy_fast.core._dice cimport N_ROLLS
from nardy_fast.engine.evaluation._search cimport search_t

ctypedef struct luck_t:
    double out[NET_OUTPUTS]      # side 0's luck in each net output (OUT_* of _net.pxd)
    double equity                # side 0's luck in points (cubeless, or at the stake)
    int rolls                    # rolls whose luck was counted

cdef void luck_reset(luck_t* L) noexcept nogil

# Adds the luck of `side`'s roll (d1, d2) in (me on roll, opp) to L: the per-roll values
# are `look` (N_ROLLS x NET_OUTPUTS, me's view: a look-ahead's, or a luck net's
# prediction) when not NULL, else computed by s at 0-ply move choice.  With cube_scale > 0
# the equity luck is cube_scale x 2 x the P(win) luck (a game with the cube is won or lost at the stake), else that of net_equity.
# Returns 0, or an error code of _search (< 0).
cdef int luck_add(luck_t* L, const search_t* s, int side, const uint8_t* me,
                  const uint8_t* opp, int d1, int d2, const float* look,
                  double cube_scale) noexcept nogil

# Luck of the roll with index j among per-roll values rolls (me's view): delta[NET_OUTPUTS]
# and the equity luck under s's points (return value).
cdef double roll_luck(const search_t* s, const float* rolls, int j,
                      double* delta) noexcept nogil
