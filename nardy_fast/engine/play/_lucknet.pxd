# C-level API of the luck net (see _lucknet.pyx): a small perceptron that predicts the 21
# per-roll values of a position (me on roll), so that the luck of a roll costs one small
# net evaluation instead of 21 move choices.  Read-only while evaluated.
from libc.stdint cimport uint8_t

from nardy_fast.engine.evaluation._net cimport net_t

cdef enum:
    LUCK_OUTPUTS = 147       # N_ROLLS x NET_OUTPUTS: roll j's output k at 7 j + k
    LUCK_STRIDE = 152        # LUCK_OUTPUTS rounded up to a multiple of 8 (w2t's rows)
    LUCK_MAX_MIDDLE = 4      # middle layers at most

# A luck net as C sees it: the evaluation net's layout (_net.pxd) for the first layer
# (w1, b1; input_rows reads them) and the output biases b2; without middle layers the
# outputs' weights w2 (rows of LUCK_OUTPUTS); with n_middle of them, layer l's width
# dims[l], its weights transposed wt[l] (width before, dims[l]) and biases b[l], and the
# output weights transposed and padded, w2t (last width, LUCK_STRIDE).
ctypedef struct lucknet_t:
    net_t net
    int n_middle
    int dims[LUCK_MAX_MIDDLE]
    const float* wt[LUCK_MAX_MIDDLE]
    const float* b[LUCK_MAX_MIDDLE]
    const float* w2t

# Predicted per-roll values of (me on roll, opp), me's view, into rolls[LUCK_OUTPUTS] (the
# layout of _search.value_rolls): me's seven outputs after its best move for each roll.
cdef void lucknet_rolls(const lucknet_t* L, const uint8_t* me, const uint8_t* opp,
                        float* rolls) noexcept nogil

# Weights of a luck net (float32, C-contiguous arrays owned by the object) and their net_t.
cdef class LuckNet:
    cdef readonly object w1          # (NET_INPUTS, n_hidden)
    cdef readonly object b1          # (n_hidden,)
    cdef readonly object w2          # (LUCK_OUTPUTS, the last layer's width)
    cdef readonly object b2          # (LUCK_OUTPUTS,)
    cdef readonly object middle      # ((w, b), ...): the middle layers, w (W, width before)
    cdef readonly object middle_units    # (W, ...): their widths
    cdef readonly int n_hidden
    cdef readonly object wt          # derived: each middle w transposed
    cdef readonly object w2t         # derived: w2 transposed and padded (last W,
                                     # LUCK_STRIDE), or None without middle layers
    cdef lucknet_t c
