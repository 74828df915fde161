# C-level API of the evaluation network (see _net.pyx for the encoding and the training).
#
# A position is seen from the side on roll: `me` is its board, `opp` the other side's,
# each uint8_t[24] in its own numbering (_board.pxd).  Outputs are float32[NET_OUTPUTS]
# probabilities from the side on roll's view (OUT_* below).  Networks are read-only while
# evaluated, so any number of threads may evaluate one net at once.
from libc.stdint cimport uint8_t

from nardy_fast.core._rules cimport rules_t

cdef enum:
    NET_UNITS = 4            # input units per point (encoding in _net.pyx)
    NET_EXTRAS = 3           # per side: off / 15, pips / 360, home checkers / 15
    NET_INPUTS = 198         # 2 sides x (24 points x NET_UNITS + NET_EXTRAS)
    NET_OUTPUTS = 7          # OUT_* below
    NET_MAX_HIDDEN = 1024
    OUT_WIN = 0              # P(win)                      (the rest is P(loss); no draws)
    OUT_MARS_WIN = 1         # P(win with the loser none off): mars, koks or home mars
    OUT_KOKS_WIN = 2         # P(win a koks): none off, a checker on points 1-6
    OUT_HOME_MARS_WIN = 3    # P(win a home mars): none off, all 15 in the loser's home
    OUT_MARS_LOSS = 4        # the same three for the side not on roll
    OUT_KOKS_LOSS = 5
    OUT_HOME_MARS_LOSS = 6

ctypedef struct net_t:
    int n_hidden             # hidden ReLU units (a multiple of 8, <= NET_MAX_HIDDEN)
    const float* w1          # (NET_INPUTS, n_hidden): row i = weights of input i
    const float* b1          # (n_hidden,)
    const float* w2          # (NET_OUTPUTS, n_hidden)
    const float* b2          # (NET_OUTPUTS,)
    int n_hidden2            # units of a second ReLU layer on the first (0: none)
    const float* w3          # (n_hidden2, n_hidden): row j = weights into unit j
    const float* b3          # (n_hidden2,)
    const float* w4          # (NET_OUTPUTS, n_hidden2): its weights to the outputs
    const float* w3t         # (n_hidden, n_hidden2): w3 transposed (Net.w3t)

# Writes the NET_INPUTS inputs of (me on roll, opp) to x.
cdef void net_encode(const uint8_t* me, const uint8_t* opp, float* x) noexcept nogil

# z = b1 + x @ w1 (n_hidden floats; zero inputs skipped): the hidden pre-activations.
cdef void hidden_pre(const net_t* net, const float* x, float* z) noexcept nogil

# Evaluates one position (me on roll) into out[NET_OUTPUTS].
cdef void net_eval(const net_t* net, const uint8_t* me, const uint8_t* opp,
                   float* out) noexcept nogil

# Evaluates the n positions (me on roll, cands[24 k : 24 k + 24]) into out[7 k : 7 k + 7]:
# the candidates of one roll of the other side, which differ from base_opp in a few points,
# so the hidden layer is updated from the base position's instead of recomputed.
# scratch: float[n_hidden] owned by the caller (the base position's hidden row).
cdef void net_eval_many(const net_t* net, const uint8_t* me, const uint8_t* base_opp,
                        const uint8_t* cands, Py_ssize_t n, float* out,
                        float* scratch) noexcept nogil

# The inputs of (me on roll, opp) as net_layers' terms: coef[u] and rows[u] (a row of
# net.w1) of each non-zero input, in input order; returns their number (<= NET_INPUTS).
cdef int input_rows(const net_t* net, const uint8_t* me, const uint8_t* opp, float* coef,
                    const float** rows) noexcept nogil

# The hidden and output layers of a perceptron with ReLU units (src/nf_hidden.h, the AVX2
# path when the processor has it, else the plain loops; the same bits):
# pre[k] = w2[k] . relu(z0 + sum_u c[u] rows[u]) for k < n_out (no output bias).
cdef void net_layers(int n_hidden, const float* z0, int m, const float* c,
                     const float* const* rows, const float* w2, int n_out,
                     float* pre) noexcept nogil

# The luck net's layers with n_middle middle ones (src/nf_luck.h, the path net_layers
# runs): h = relu(z0 + sum_u c[u] rows[u]), then h = relu(b[l] + wt[l]' h) for each middle
# layer (dims[l] wide, wt[l] transposed), then out = b2 + w2t' h; each layer adds the rows
# of the active units before it only; w2t (dims[n_middle-1], stride), stride a multiple of
# 8 >= n_out (its padding zero).
cdef void luck_layers(int n_hidden, const float* z0, int m, const float* c,
                      const float* const* rows, int n_middle, const int* dims,
                      const float* const* wt, const float* const* b, int n_out,
                      int stride, const float* w2t, const float* b2,
                      float* out) noexcept nogil

# Makes the outputs consistent (mars <= win, koks + home mars <= mars, likewise for losses).
cdef void net_clip(float* out) noexcept nogil

# net_clip, then the kinds the boards rule out set to 0 (the rule book, section 7): no mars,
# koks or home mars of a side that has borne off a checker; no koks of a side with no
# checker on its points 1-6 (checkers never move back).  me is the side on roll.
cdef void net_clip_board(float* out, const uint8_t* me, const uint8_t* opp) noexcept nogil

# Equity (points per game, rules' pts_*) of out[NET_OUTPUTS] for the side on roll.
cdef double net_equity(const float* out, const rules_t* rules) noexcept nogil

# The other side's view of out (win <-> loss), in place.
cdef void net_flip(float* out) noexcept nogil

# The other side's view of a difference d of two outputs, in place: net_flip's linear part
# (P(win)'s sign changes, the kinds swap), exact where flip(a) - flip(b) would round.
cdef void net_flip_difference(float* d) noexcept nogil

# One SGD step (cross-entropy against target[NET_OUTPUTS]) on (me on roll, opp), changing
# the weights in place; z, h, dz: float[n_hidden] scratch owned by the caller.
cdef void sgd_step(float* w1, float* b1, float* w2, float* b2, int n_hidden,
                   const uint8_t* me, const uint8_t* opp, const float* target,
                   float lr, float* z, float* h, float* dz) noexcept nogil

# Weights of a network (float32, C-contiguous arrays owned by the object) and their net_t.
cdef class Net:
    cdef readonly object w1          # (NET_INPUTS, n_hidden)
    cdef readonly object b1          # (n_hidden,)
    cdef readonly object w2          # (NET_OUTPUTS, n_hidden)
    cdef readonly object b2          # (NET_OUTPUTS,)
    cdef readonly object w3          # (n_hidden2, n_hidden) or None
    cdef readonly object b3          # (n_hidden2,) or None
    cdef readonly object w4          # (NET_OUTPUTS, n_hidden2) or None
    cdef readonly object w3t         # (n_hidden, n_hidden2): w3.T made at construction, or None
    cdef readonly int n_hidden
    cdef readonly int n_hidden2
    cdef net_t c                     # points into the arrays above
    cdef void _bind(self)
