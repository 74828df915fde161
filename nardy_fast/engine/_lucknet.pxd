# C-level API of the luck net (see _lucknet.pyx): a small perceptron that predicts the 21
# per-roll values of a position (me on roll), so that the luck of a roll costs one small
# net evaluation instead of 21 move choices.  Read-only while evaluated.
from libc.stdint cimport uint8_t

from nardy_fast.engine._net cimport net_t

cdef enum:
    LUCK_OUTPUTS = 147       # N_ROLLS x NET_OUTPUTS: roll j's output k at 7 j + k

# Predicted per-roll values of (me on roll, opp), me's view, into rolls[LUCK_OUTPUTS] (the
# layout of _search.value_rolls): me's seven outputs after its best move for each roll.
# L: the evaluation net's layout (_net.pxd) with LUCK_OUTPUTS rows in w2 and b2.
cdef void lucknet_rolls(const net_t* L, const uint8_t* me, const uint8_t* opp,
                        float* rolls) noexcept nogil

# Weights of a luck net (float32, C-contiguous arrays owned by the object) and their net_t.
cdef class LuckNet:
    cdef readonly object w1          # (NET_INPUTS, n_hidden)
    cdef readonly object b1          # (n_hidden,)
    cdef readonly object w2          # (LUCK_OUTPUTS, n_hidden)
    cdef readonly object b2          # (LUCK_OUTPUTS,)
    cdef readonly int n_hidden
    cdef net_t c
