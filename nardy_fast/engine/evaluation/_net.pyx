"""The evaluation network: a one-hidden-layer perceptron from the side on roll's view.

Inputs (``NET_INPUTS = 198``, float32).  For side ``s`` (0: on roll, 1: the other side),
each in its own numbering (idx 0 = its head), point ``idx`` with ``c`` checkers gives four
units at ``96 s + 4 idx``::

    [c >= 1, c >= 2, c >= 3, (c - 3) / 4 if c > 3 else 0]

then three units per side at ``192 + 3 s``: checkers off / 15, pips / 360 (the start
has 360), checkers in the home (idx 18..23) / 15.

Hidden layer: ``n_hidden`` ReLU units, ``h = max(0, b1 + x @ w1)``.  Outputs: seven
sigmoids ``sigmoid(b2 + w2 @ h)``, or with a second hidden layer of ``n_hidden2`` ReLU
units on the first, ``h2 = max(0, b3 + w3 @ h)``, ``sigmoid(b2 + w2 @ h + w4 @ h2)``
(the first layer's direct weights kept, so that ``w4 = 0`` is the one-layer net);
probabilities from the side on roll's view:
P(win), then P(mars), P(koks), P(home mars) won, then the same three lost (``OUT_*`` in
``_net.pxd``).  P(loss) = 1 - P(win): the net has no draws (see ``evaluator.py`` for
``draw_rule``).  A koks and a home mars are kinds of mars; the points of each outcome
come from ``Rules`` (``net_equity``).

The candidates of one roll are evaluated together (``net_eval_many``): they share the
board of the side on roll and differ from a base board of the other side in a few points,
so the hidden pre-activations are updated from the base's (a few ``n_hidden``-long float
rows per changed point) instead of recomputed from 198 inputs.  The sums, the ReLU and
the output layer's dot products are one C kernel (``src/nf_hidden.h``) with two paths that
give the same bits: eight AVX2 lanes when the processor has them (chosen at run time, so
one wheel serves every x86-64 processor), else plain float32 loops the compiler
vectorises (SSE2 on x86-64).  ``simd_path()`` says which one runs.  A net with a second
layer runs a kernel of its own (``src/nf_deep.h``) on the same terms, with the same two
paths and the same choice between them: the first layer as above, then the second from
``Net.w3t`` (``w3`` transposed, made when the net is): ``b3`` plus the row of each active
unit of the first layer (``h[j] > 0``), so the ReLU's zeros cost nothing.

Training (``Net.sgd``): cross-entropy of each output against a target in [0, 1], so the
error at an output's pre-activation is ``output - target``; one plain SGD step per
position, in the order given (reproducible).
"""
from libc.math cimport expf
from libc.stdint cimport uint8_t
from libc.string cimport memcpy, memset

import hashlib

import numpy as np

from nardy_fast.core._board cimport N_POINTS, N_CHECKERS, HOME_IDX
from nardy_fast.core._scoring cimport loss_kinds_ruled_out, RULED_OUT_MARS, RULED_OUT_KOKS

cdef extern from "nf_dot.h":
    float nf_dot8(const float* x, const float* y, int n) noexcept nogil

cdef extern from "nf_hidden.h":
    void nf_hidden(int H, const float* z0, int m, const float* c, const float* const* rows,
                   const float* w2, int n_out, float* pre) noexcept nogil
    int nf_hidden_force_generic(int force) noexcept nogil
    int nf_hidden_current() noexcept nogil

cdef extern from "nf_deep.h":
    void nf_deep(int H, const float* z0, int m, const float* c, const float* const* rows,
                 const float* w2, int H2, const float* w3t, const float* b3, const float* w4,
                 int n_out, float* pre) noexcept nogil

cdef extern from "nf_luck.h":
    void nf_luck(int H, const float* z0, int m, const float* c, const float* const* rows,
                 int L, const int* dims, const float* const* wt, const float* const* b,
                 int n_out, int stride, const float* w2t, const float* b2,
                 float* out) noexcept nogil

__all__ = ["Net", "N_INPUTS", "N_OUTPUTS", "MAX_HIDDEN", "OUTPUT_NAMES", "simd_path"]

N_INPUTS = NET_INPUTS
N_OUTPUTS = NET_OUTPUTS
MAX_HIDDEN = NET_MAX_HIDDEN     # the most units of a hidden layer the C code holds
OUTPUT_NAMES = ("p_win", "p_mars_win", "p_koks_win", "p_home_mars_win", "p_mars_loss",
                "p_koks_loss", "p_home_mars_loss")

cdef enum:
    SIDE_INPUTS = N_POINTS * NET_UNITS      # 96
    EXTRA0 = 2 * SIDE_INPUTS                # 192

# UNIT[c][u]: the four units of a point with c checkers.
cdef float UNIT[N_CHECKERS + 1][NET_UNITS]


cdef void _init_units() noexcept:
    cdef int c
    for c in range(N_CHECKERS + 1):
        UNIT[c][0] = 1.0 if c >= 1 else 0.0
        UNIT[c][1] = 1.0 if c >= 2 else 0.0
        UNIT[c][2] = 1.0 if c >= 3 else 0.0
        UNIT[c][3] = (c - 3) / 4.0 if c > 3 else 0.0

_init_units()


cdef inline void side_extras(const uint8_t* b, float* e) noexcept nogil:
    """off / 15, pips / 360, home / 15 of one side's board."""
    cdef int i, on = 0, pips = 0, home = 0
    for i in range(N_POINTS):
        on += b[i]
        pips += b[i] * (N_POINTS - i)
        if i >= HOME_IDX:
            home += b[i]
    e[0] = (N_CHECKERS - on) / <float>N_CHECKERS
    e[1] = pips / 360.0
    e[2] = home / <float>N_CHECKERS


cdef void net_encode(const uint8_t* me, const uint8_t* opp, float* x) noexcept nogil:
    cdef int i, u
    for i in range(N_POINTS):
        for u in range(NET_UNITS):
            x[NET_UNITS * i + u] = UNIT[me[i]][u]
            x[SIDE_INPUTS + NET_UNITS * i + u] = UNIT[opp[i]][u]
    side_extras(me, x + EXTRA0)
    side_extras(opp, x + EXTRA0 + NET_EXTRAS)


cdef inline void axpy(float* y, float a, const float* x, int n) noexcept nogil:
    """y += a x (n floats)."""
    cdef int j
    for j in range(n):
        y[j] += a * x[j]


cdef void hidden_pre(const net_t* net, const float* x, float* z) noexcept nogil:
    """z = b1 + x @ w1 (zero inputs skipped)."""
    cdef int i, H = net.n_hidden
    memcpy(z, net.b1, H * sizeof(float))
    for i in range(NET_INPUTS):
        if x[i] != 0.0:
            axpy(z, x[i], net.w1 + <Py_ssize_t>i * H, H)


cdef inline float sigmoid(float z) noexcept nogil:
    return 1.0 / (1.0 + expf(-z))


cdef void outputs(const net_t* net, const float* z, float* h, float* out) noexcept nogil:
    """h = relu(z); out = sigmoid(b2 + w2 @ h), the dot products by nf_dot8 (a fixed
    summation order the compiler and SSE2 can run in parallel; src/nf_dot.h)."""
    cdef int j, k, H = net.n_hidden
    for j in range(H):
        h[j] = z[j] if z[j] > 0.0 else 0.0
    for k in range(NET_OUTPUTS):
        out[k] = sigmoid(nf_dot8(net.w2 + k * H, h, H) + net.b2[k])


cdef void net_layers(int n_hidden, const float* z0, int m, const float* c,
                     const float* const* rows, const float* w2, int n_out,
                     float* pre) noexcept nogil:
    """``nf_hidden`` for the other modules (the luck net): one copy of the kernel and of
    its choice of path, the one ``simd_path`` sets."""
    nf_hidden(n_hidden, z0, m, c, rows, w2, n_out, pre)


cdef void luck_layers(int n_hidden, const float* z0, int m, const float* c,
                      const float* const* rows, int n_middle, const int* dims,
                      const float* const* wt, const float* const* b, int n_out,
                      int stride, const float* w2t, const float* b2,
                      float* out) noexcept nogil:
    """``nf_luck`` for the luck net (``_lucknet``): its vector path where ``simd_path``
    sets AVX2 and the processor has FMA, else its plain loops (the same bits)."""
    nf_luck(n_hidden, z0, m, c, rows, n_middle, dims, wt, b, n_out, stride, w2t, b2, out)


cdef inline void sigmoids(const net_t* net, float* out) noexcept nogil:
    """out[k] = sigmoid(out[k] + b2[k]): the output layer after its dot products."""
    cdef int k
    for k in range(NET_OUTPUTS):
        out[k] = sigmoid(out[k] + net.b2[k])


cdef inline void deep_layers(const net_t* net, const float* z0, int m, const float* c,
                             const float* const* rows, float* out) noexcept nogil:
    """The outputs of a net with a second layer from its first layer's pre-activations
    ``z0 + sum_u c[u] rows[u]``: ``out[k] = sigmoid(b2[k] + w2[k] . h + w4[k] . relu(b3 +
    w3 @ h))``, ``h = relu(z)`` (``src/nf_deep.h``: the second layer's sums from ``w3t``
    over the active units, the dot products in ``nf_dot8``'s order)."""
    nf_deep(net.n_hidden, z0, m, c, rows, net.w2, net.n_hidden2, net.w3t, net.b3, net.w4,
            NET_OUTPUTS, out)
    sigmoids(net, out)


cdef inline int side_rows(const float* w1, int H, const uint8_t* b, int base, float* coef,
                          const float** rows, int m) noexcept nogil:
    """Appends one side's non-zero point units (inputs base + 4 i + u, in that order) to
    (coef, rows) from m on; returns the new count."""
    cdef int i, u, c
    for i in range(N_POINTS):
        c = b[i]
        if c:
            for u in range(NET_UNITS):
                if UNIT[c][u] != 0.0:
                    coef[m] = UNIT[c][u]
                    rows[m] = w1 + <Py_ssize_t>(base + NET_UNITS * i + u) * H
                    m += 1
    return m


cdef int input_rows(const net_t* net, const uint8_t* me, const uint8_t* opp, float* coef,
                    const float** rows) noexcept nogil:
    """The inputs of (me on roll, opp) as ``net_layers``' terms: each non-zero input's
    value and its row of ``w1``, in input order (the order ``hidden_pre`` adds them);
    returns how many.  Built from the boards directly (the points with checkers, then the
    extras), the same list as ``net_encode`` and a scan of its 198 inputs."""
    cdef float e[2 * NET_EXTRAS]
    cdef int k, H = net.n_hidden
    cdef int m = side_rows(net.w1, H, me, 0, coef, rows, 0)
    m = side_rows(net.w1, H, opp, SIDE_INPUTS, coef, rows, m)
    side_extras(me, e)
    side_extras(opp, e + NET_EXTRAS)
    for k in range(2 * NET_EXTRAS):
        if e[k] != 0.0:
            coef[m] = e[k]
            rows[m] = net.w1 + <Py_ssize_t>(EXTRA0 + k) * H
            m += 1
    return m


cdef void net_eval(const net_t* net, const uint8_t* me, const uint8_t* opp,
                   float* out) noexcept nogil:
    """The same sums as ``hidden_pre`` then ``outputs`` (b1, then each non-zero input's
    row in input order; nf_hidden.h, or nf_deep.h with a second layer), in one pass."""
    cdef float coef[NET_INPUTS]
    cdef const float* rows[NET_INPUTS]
    cdef int m
    m = input_rows(net, me, opp, coef, rows)
    if net.n_hidden2:
        deep_layers(net, net.b1, m, coef, rows, out)
        return
    nf_hidden(net.n_hidden, net.b1, m, coef, rows, net.w2, NET_OUTPUTS, out)
    sigmoids(net, out)


cdef enum:
    # The most weight rows a candidate adds to the base: every point's four units and
    # the three extras (a move changes at most 8 points; this bound needs no argument).
    MAX_UPDATES = SIDE_INPUTS + NET_EXTRAS


cdef void net_eval_many(const net_t* net, const uint8_t* me, const uint8_t* base_opp,
                        const uint8_t* cands, Py_ssize_t n, float* out,
                        float* scratch) noexcept nogil:
    """Each candidate's pre-activations are the base's plus its changed inputs' rows,
    points first (in point and unit order), then the extras (nf_hidden.h, or nf_deep.h
    with a second layer, does the sums, the ReLU and the dot products)."""
    cdef float x[NET_INPUTS]
    cdef float e0[NET_EXTRAS]
    cdef float e[NET_EXTRAS]
    cdef float coef[MAX_UPDATES]
    cdef const float* rows[MAX_UPDATES]
    cdef float* z0 = scratch
    cdef const uint8_t* c
    cdef int i, u, a, b, m, H = net.n_hidden
    cdef Py_ssize_t k
    cdef float d
    net_encode(me, base_opp, x)
    hidden_pre(net, x, z0)
    side_extras(base_opp, e0)
    for k in range(n):
        c = cands + N_POINTS * k
        m = 0
        for i in range(N_POINTS):
            a = base_opp[i]
            b = c[i]
            if a != b:
                for u in range(NET_UNITS):
                    d = UNIT[b][u] - UNIT[a][u]
                    if d != 0.0:
                        coef[m] = d
                        rows[m] = net.w1 + <Py_ssize_t>(SIDE_INPUTS + NET_UNITS * i + u) * H
                        m += 1
        side_extras(c, e)
        for u in range(NET_EXTRAS):
            d = e[u] - e0[u]
            if d != 0.0:
                coef[m] = d
                rows[m] = net.w1 + <Py_ssize_t>(EXTRA0 + NET_EXTRAS + u) * H
                m += 1
        if net.n_hidden2:
            deep_layers(net, z0, m, coef, rows, out + NET_OUTPUTS * k)
            continue
        nf_hidden(H, z0, m, coef, rows, net.w2, NET_OUTPUTS, out + NET_OUTPUTS * k)
        sigmoids(net, out + NET_OUTPUTS * k)


cdef void net_clip(float* out) noexcept nogil:
    cdef int side, base
    cdef float top
    for side in range(2):
        base = OUT_MARS_LOSS if side else OUT_MARS_WIN
        top = 1.0 - out[OUT_WIN] if side else out[OUT_WIN]
        if out[base] > top:
            out[base] = top
        if out[base + 1] > out[base]:
            out[base + 1] = out[base]
        if out[base + 1] + out[base + 2] > out[base]:
            out[base + 2] = out[base] - out[base + 1]


cdef inline void rule_out(float* out, int base, const uint8_t* loser) noexcept nogil:
    """The mars kinds of a loss of ``loser`` (out[base..base+2]) its board rules out
    (``_scoring.loss_kinds_ruled_out``)."""
    cdef int ruled = loss_kinds_ruled_out(loser)
    if ruled == RULED_OUT_MARS:
        out[base] = 0.0
        out[base + 1] = 0.0
        out[base + 2] = 0.0
    elif ruled == RULED_OUT_KOKS:
        out[base + 1] = 0.0


cdef void net_clip_board(float* out, const uint8_t* me, const uint8_t* opp) noexcept nogil:
    net_clip(out)
    rule_out(out, OUT_MARS_WIN, opp)
    rule_out(out, OUT_MARS_LOSS, me)


cdef double net_equity(const float* out, const rules_t* rules) noexcept nogil:
    cdef double w = out[OUT_WIN], l = 1.0 - w
    cdef double mw = out[OUT_MARS_WIN], kw = out[OUT_KOKS_WIN], hw = out[OUT_HOME_MARS_WIN]
    cdef double ml = out[OUT_MARS_LOSS], kl = out[OUT_KOKS_LOSS], hl = out[OUT_HOME_MARS_LOSS]
    return ((w - mw) * rules.pts_oin + (mw - kw - hw) * rules.pts_mars + kw * rules.pts_koks
            + hw * rules.pts_home_mars
            - (l - ml) * rules.pts_oin - (ml - kl - hl) * rules.pts_mars
            - kl * rules.pts_koks - hl * rules.pts_home_mars)


cdef inline void swap_sides(float* out) noexcept nogil:
    """The win kinds and the loss kinds trade places (mars, koks, home mars)."""
    cdef float t
    cdef int k
    for k in range(3):
        t = out[OUT_MARS_WIN + k]
        out[OUT_MARS_WIN + k] = out[OUT_MARS_LOSS + k]
        out[OUT_MARS_LOSS + k] = t


cdef void net_flip(float* out) noexcept nogil:
    out[OUT_WIN] = 1.0 - out[OUT_WIN]
    swap_sides(out)


cdef void net_flip_difference(float* d) noexcept nogil:
    d[OUT_WIN] = -d[OUT_WIN]
    swap_sides(d)


cdef void sgd_step(float* w1, float* b1, float* w2, float* b2, int H,
                   const uint8_t* me, const uint8_t* opp, const float* target,
                   float lr, float* z, float* h, float* dz) noexcept nogil:
    """One SGD step of the cross-entropy loss of (me on roll, opp) against target."""
    cdef float x[NET_INPUTS]
    cdef float out[NET_OUTPUTS]
    cdef float g[NET_OUTPUTS]
    cdef net_t net
    cdef int i, j, k
    net.n_hidden = H
    net.w1 = w1
    net.b1 = b1
    net.w2 = w2
    net.b2 = b2
    net_encode(me, opp, x)
    hidden_pre(&net, x, z)
    outputs(&net, z, h, out)
    for k in range(NET_OUTPUTS):
        g[k] = out[k] - target[k]
    memset(dz, 0, H * sizeof(float))
    for k in range(NET_OUTPUTS):
        axpy(dz, g[k], w2 + k * H, H)
        axpy(w2 + k * H, -lr * g[k], h, H)
        b2[k] -= lr * g[k]
    for j in range(H):
        if z[j] <= 0.0:
            dz[j] = 0.0
    for i in range(NET_INPUTS):
        if x[i] != 0.0:
            axpy(w1 + <Py_ssize_t>i * H, -lr * x[i], dz, H)
    axpy(b1, -lr, dz, H)


cdef class Net:
    """Weights of an evaluation network (float32, C-contiguous, owned here).

    Parameters
    ----------
    w1 : ndarray, shape (198, n_hidden)
    b1 : ndarray, shape (n_hidden,)
    w2 : ndarray, shape (7, n_hidden)
    b2 : ndarray, shape (7,)
        ``n_hidden`` a multiple of 8, at most 1024.
    w3, b3, w4 : ndarray, optional
        A second hidden layer on the first: ``w3`` shape ``(n_hidden2, n_hidden)``,
        ``b3`` ``(n_hidden2,)``, ``w4`` ``(7, n_hidden2)`` (``n_hidden2`` a multiple of
        8, at most 1024); all three or none.

    Attributes
    ----------
    w3t : ndarray or None
        ``w3`` transposed, shape ``(n_hidden, n_hidden2)``, C-contiguous: the layout the
        second layer's C kernel reads (row ``j``: unit ``j``'s weights into the second
        layer).  Derived when the net is made, so it is not saved, pickled, digested or
        among ``arrays()``; ``w3`` and ``w3t`` are read-only, so the two cannot part.
    """

    def __init__(self, w1, b1, w2, b2, w3=None, b3=None, w4=None):
        self.w1, H = self._layer(w1, (NET_INPUTS, None), "w1", "n_hidden")
        self.b1 = self._param(b1, (H,), "b1")
        self.w2 = self._param(w2, (NET_OUTPUTS, H), "w2")
        self.b2 = self._param(b2, (NET_OUTPUTS,), "b2")
        self.n_hidden = H
        given = [a is not None for a in (w3, b3, w4)]
        if any(given) and not all(given):
            raise ValueError("w3, b3, w4: a second hidden layer needs all three (or none)")
        names = ["w1", "b1", "w2", "b2"]
        if all(given):
            self.w3, H2 = self._layer(w3, (None, H), "w3", "n_hidden2")
            self.w3t = np.ascontiguousarray(self.w3.T)
            self.w3.flags.writeable = False
            self.w3t.flags.writeable = False
            self.b3 = self._param(b3, (H2,), "b3")
            self.w4 = self._param(w4, (NET_OUTPUTS, H2), "w4")
            self.n_hidden2 = H2
            names += ["w3", "b3", "w4"]
        for name in names:
            if not np.isfinite(getattr(self, name)).all():
                raise ValueError(f"{name}: weights must be finite")
        self._bind()

    @staticmethod
    def _layer(a, shape, name, units):
        """A weight matrix of ``shape`` with one ``None``, a count of ``units`` (a
        multiple of 8 up to ``NET_MAX_HIDDEN``), as float32 in C order, and that count."""
        a = np.array(a, dtype=np.float32, order="C")
        free = shape.index(None)
        n = a.shape[free] if a.ndim == 2 else -1
        if (a.shape != tuple(n if d is None else d for d in shape) or n <= 0 or n % 8
                or n > NET_MAX_HIDDEN):
            text = ", ".join(units if d is None else str(d) for d in shape)
            raise ValueError(f"{name}: expected shape ({text}) with {units} a multiple of 8 "
                             f"up to {NET_MAX_HIDDEN}, got {a.shape}")
        return a, n

    @staticmethod
    def _param(a, shape, name):
        a = np.array(a, dtype=np.float32, order="C")
        if a.shape != shape:
            raise ValueError(f"{name}: expected shape {shape}, got {a.shape}")
        return a

    cdef void _bind(self):
        cdef float[:, ::1] w1 = self.w1
        cdef float[::1] b1 = self.b1
        cdef float[:, ::1] w2 = self.w2
        cdef float[::1] b2 = self.b2
        self.c.n_hidden = self.n_hidden
        self.c.w1 = &w1[0, 0]
        self.c.b1 = &b1[0]
        self.c.w2 = &w2[0, 0]
        self.c.b2 = &b2[0]
        cdef const float[:, ::1] w3
        cdef float[::1] b3
        cdef float[:, ::1] w4
        cdef const float[:, ::1] w3t
        self.c.n_hidden2 = self.n_hidden2
        if self.n_hidden2:
            w3, b3, w4, w3t = self.w3, self.b3, self.w4, self.w3t
            self.c.w3 = &w3[0, 0]
            self.c.b3 = &b3[0]
            self.c.w4 = &w4[0, 0]
            self.c.w3t = &w3t[0, 0]
        else:
            self.c.w3 = self.c.b3 = self.c.w4 = self.c.w3t = NULL

    @classmethod
    def random(cls, n_hidden, seed, n_hidden2=0):
        """A fresh net: He-scaled normal first layer, small output weights, seeded; with
        ``n_hidden2``, a second layer drawn after the rest (He-scaled in, small out)."""
        rng = np.random.default_rng(seed)
        args = [rng.normal(0.0, (2.0 / 50) ** 0.5, (NET_INPUTS, n_hidden)),
                np.zeros(n_hidden),
                rng.normal(0.0, 0.1 / n_hidden ** 0.5, (NET_OUTPUTS, n_hidden)),
                np.zeros(NET_OUTPUTS)]
        if n_hidden2:
            args += [rng.normal(0.0, (2.0 / n_hidden) ** 0.5, (n_hidden2, n_hidden)),
                     np.zeros(n_hidden2),
                     rng.normal(0.0, 0.1 / n_hidden2 ** 0.5, (NET_OUTPUTS, n_hidden2))]
        return cls(*args)

    def _weights(self):
        """The weight arrays in order: w1, b1, w2, b2 (and w3, b3, w4)."""
        if self.n_hidden2:
            return (self.w1, self.b1, self.w2, self.b2, self.w3, self.b3, self.w4)
        return (self.w1, self.b1, self.w2, self.b2)

    def arrays(self):
        """The weights as a dict (copies): w1, b1, w2, b2, and w3, b3, w4 with a second
        layer."""
        names = ("w1", "b1", "w2", "b2", "w3", "b3", "w4")
        return {k: a.copy() for k, a in zip(names, self._weights())}

    def copy(self):
        return Net(*self._weights())

    def digest(self):
        """The net's identity: the SHA-256 (hex) of its float32 weights, in the order
        w1, b1, w2, b2 (then w3, b3, w4 with a second layer) (recorded by training runs
        started from it and by luck nets trained on it)."""
        h = hashlib.sha256()
        for a in self._weights():
            h.update(np.ascontiguousarray(a, dtype=np.float32).tobytes())
        return h.hexdigest()

    def __reduce__(self):
        return (Net, self._weights())

    def encode(self, boards):
        """Inputs of positions: boards ``(n, 2, 24)`` uint8 (side on roll first) ->
        ``(n, 198)`` float32.  Trusts its input (``evaluator.py`` validates)."""
        cdef const uint8_t[:, :, ::1] b = np.ascontiguousarray(boards, dtype=np.uint8)
        out = np.empty((b.shape[0], NET_INPUTS), dtype=np.float32)
        cdef float[:, ::1] o = out
        cdef Py_ssize_t k
        with nogil:
            for k in range(b.shape[0]):
                net_encode(&b[k, 0, 0], &b[k, 1, 0], &o[k, 0])
        return out

    def outputs(self, boards):
        """Raw outputs ``(n, 7)`` float32 of boards ``(n, 2, 24)`` (side on roll first),
        unclipped.  Trusts its input.  (A deliberate twin of ``encode``'s loop: the same
        rows, another C call.)"""
        cdef const uint8_t[:, :, ::1] b = np.ascontiguousarray(boards, dtype=np.uint8)
        out = np.empty((b.shape[0], NET_OUTPUTS), dtype=np.float32)
        cdef float[:, ::1] o = out
        cdef Py_ssize_t k
        with nogil:
            for k in range(b.shape[0]):
                net_eval(&self.c, &b[k, 0, 0], &b[k, 1, 0], &o[k, 0])
        return out

    def outputs_many(self, me, base_opp, cands):
        """``net_eval_many`` from Python (for tests): outputs ``(k, 7)`` of the positions
        (me on roll, cands[k]); ``base_opp`` any board (only the speed depends on it)."""
        cdef const uint8_t[::1] m = np.ascontiguousarray(me, dtype=np.uint8)
        cdef const uint8_t[::1] bo = np.ascontiguousarray(base_opp, dtype=np.uint8)
        cdef const uint8_t[:, ::1] c = np.ascontiguousarray(cands, dtype=np.uint8)
        out = np.empty((c.shape[0], NET_OUTPUTS), dtype=np.float32)
        cdef float[:, ::1] o = out
        cdef float[::1] scratch = np.empty(self.n_hidden, dtype=np.float32)
        if c.shape[0]:
            with nogil:
                net_eval_many(&self.c, &m[0], &bo[0], &c[0, 0], c.shape[0], &o[0, 0],
                              &scratch[0])
        return out

    def sgd(self, boards, targets, float lr):
        """One SGD step per position, in order, towards ``targets`` ``(n, 7)`` in [0, 1]
        (cross-entropy loss); changes the weights in place.  Trusts its input.  One
        hidden layer only (``ValueError`` for a net with a second)."""
        if self.n_hidden2:
            raise ValueError(f"Net.sgd: a net with a second hidden layer ({self.n_hidden2} "
                             f"units) learns by supervised.fit, not by TD steps")
        cdef const uint8_t[:, :, ::1] b = np.ascontiguousarray(boards, dtype=np.uint8)
        cdef const float[:, ::1] t = np.ascontiguousarray(targets, dtype=np.float32)
        cdef float[:, ::1] w1 = self.w1
        cdef float[::1] b1 = self.b1
        cdef float[:, ::1] w2 = self.w2
        cdef float[::1] b2 = self.b2
        cdef float[:, ::1] s = np.empty((3, self.n_hidden), dtype=np.float32)
        cdef Py_ssize_t k
        cdef int H = self.n_hidden
        with nogil:
            for k in range(b.shape[0]):
                sgd_step(&w1[0, 0], &b1[0], &w2[0, 0], &b2[0], H, &b[k, 0, 0], &b[k, 1, 0],
                         &t[k, 0], lr, &s[0, 0], &s[1, 0], &s[2, 0])


def simd_path(generic=None):
    """The implementation of the hidden and output layers in use: ``"avx2"`` (eight
    lanes, chosen when the processor has AVX2) or ``"generic"``; both give the same bits
    (``src/nf_hidden.h``, and ``src/nf_deep.h`` for nets with a second layer: one choice
    for both).  ``generic=True`` forces the generic one, ``False`` restores the
    choice by processor (for tests and benchmarks); None changes nothing."""
    if generic is not None:
        nf_hidden_force_generic(1 if generic else 0)
    return "avx2" if nf_hidden_current() == 2 else "generic"
