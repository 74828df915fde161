"""The luck net: a predictor of the 21 per-roll values of a position, in C.

The luck of a roll (``_luck``) needs ``f(S, r)`` for all 21 rolls ``r`` of the position
``S`` before the roll.  The exact 0-ply one (me's value after its best move for ``r``)
costs 21 move choices; this net predicts the same ``21 x 7`` values from ``S`` alone:
``rolls = b2 + w2 @ h``, ``h = relu(b1 + x @ w1)``, ``x`` the evaluation net's 198 inputs
of (me on roll, opp) (``_net.net_encode``); with middle layers, each in turn ``h =
relu(bm + wm @ h)``.  Outputs are linear (only their differences between rolls
matter: the luck subtracts their mean).  Any ``f`` gives an unbiased luck
(``nardy_fast.engine.play.variance``); how well the net predicts only sets how much variance is
removed.  Trained by ``nardy_fast.engine.play.lucknet`` (``nardy-fast train-luck``).

Middle layers are how a wide, deep luck net stays cheap: each layer after the first adds
only the weight rows of the units active before it (``src/nf_luck.h``), a fifth to a
third of the first layer's and a sixth of a middle layer's, and the 147 outputs read the
last middle layer's few active units instead of every first-layer unit.
"""
from libc.stdint cimport uint8_t

import hashlib

import numpy as np

from nardy_fast.engine.evaluation._net cimport (net_t, input_rows, net_layers, luck_layers, NET_INPUTS,
                                    NET_MAX_HIDDEN)

__all__ = ["LuckNet", "N_LUCK_OUTPUTS", "MAX_MIDDLE"]

N_LUCK_OUTPUTS = LUCK_OUTPUTS
MAX_MIDDLE = LUCK_MAX_MIDDLE          # middle layers a luck net may have


cdef void lucknet_rolls(const lucknet_t* L, const uint8_t* me, const uint8_t* opp,
                        float* rolls) noexcept nogil:
    """b1 plus each non-zero input's row (in input order), then the layers: without a
    middle layer the ReLU and the 147 dot products in the evaluation net's kernel
    (``_net.net_layers``), then b2; with one, ``_net.luck_layers`` (``src/nf_luck.h``)."""
    cdef float coef[NET_INPUTS]
    cdef const float* rows[NET_INPUTS]
    cdef const net_t* N = &L.net
    cdef int k, m = input_rows(N, me, opp, coef, rows)
    if L.n_middle:
        luck_layers(N.n_hidden, N.b1, m, coef, rows, L.n_middle, L.dims, L.wt, L.b,
                    LUCK_OUTPUTS, LUCK_STRIDE, L.w2t, N.b2, rolls)
        return
    net_layers(N.n_hidden, N.b1, m, coef, rows, N.w2, LUCK_OUTPUTS, rolls)
    for k in range(LUCK_OUTPUTS):
        rolls[k] = rolls[k] + N.b2[k]


def _derived(a):
    """A read-only C-contiguous float32 copy of ``a`` (the kernel's transposed weights)."""
    a = np.array(a, dtype=np.float32, order="C")
    a.setflags(write=False)
    return a


cdef class LuckNet:
    """Weights of a luck net: ``w1`` (198, H), ``b1`` (H,), ``w2`` (147, H), ``b2``
    (147,), float32; ``H`` a multiple of 8, at most 1024.  ``middle``: up to four middle
    layers ``(w, b)``, each ``w`` (W, width of the layer before) and ``b`` (W,), W a
    multiple of 8 at most 1024; ``w2`` is then (147, the last W).  ``wt`` and ``w2t`` are
    the transposed copies the kernel reads (derived, read-only, not saved); the middle
    layers' weights and, with them, ``w2`` are read-only copies, so the two never part."""

    def __init__(self, w1, b1, w2, b2, middle=()):
        w1 = np.ascontiguousarray(w1, dtype=np.float32)
        H = w1.shape[1] if w1.ndim == 2 else -1
        if w1.ndim != 2 or w1.shape[0] != NET_INPUTS or not 8 <= H <= NET_MAX_HIDDEN \
                or H % 8:
            raise ValueError(f"luck net w1: expected shape ({NET_INPUTS}, H), H a multiple "
                             f"of 8 in 8..{NET_MAX_HIDDEN}; got {w1.shape}")
        middle = list(middle)
        if len(middle) > LUCK_MAX_MIDDLE:
            raise ValueError(f"luck net: {len(middle)} middle layers; at most "
                             f"{LUCK_MAX_MIDDLE}")
        layers, width = [], H
        for l, layer in enumerate(middle):
            try:
                w, b = layer
            except (TypeError, ValueError):
                raise ValueError(f"luck net middle layer {l}: expected a pair (w, b)") from None
            w = _derived(w)                  # its own read-only copy: wt is derived from it
            W = w.shape[0] if w.ndim == 2 else -1
            if w.ndim != 2 or w.shape[1] != width or not 8 <= W <= NET_MAX_HIDDEN or W % 8:
                raise ValueError(f"luck net wm{l}: expected shape (W, {width}), W a multiple "
                                 f"of 8 in 8..{NET_MAX_HIDDEN}; got {w.shape}")
            layers.append((w, self._param(b, (W,), f"bm{l}")))
            width = W
        self.middle = tuple(layers)
        self.middle_units = tuple(w.shape[0] for w, _ in layers)
        self.w1 = w1
        self.b1 = self._param(b1, (H,), "b1")
        self.w2 = self._param(w2, (LUCK_OUTPUTS, width), "w2")
        if layers:                           # w2t is derived from it: w2 read-only too
            self.w2 = _derived(self.w2)
        self.b2 = self._param(b2, (LUCK_OUTPUTS,), "b2")
        self.n_hidden = H
        for name, a in self.arrays().items():
            if not np.isfinite(a).all():
                raise ValueError(f"luck net {name}: not finite")
        cdef const float[:, ::1] a1 = self.w1
        cdef const float[::1] c1 = self.b1
        cdef const float[:, ::1] a2 = self.w2
        cdef const float[::1] c2 = self.b2
        self.c.net.n_hidden = H
        self.c.net.w1 = &a1[0, 0]
        self.c.net.b1 = &c1[0]
        self.c.net.w2 = &a2[0, 0]
        self.c.net.b2 = &c2[0]
        self.c.net.n_hidden2 = 0
        self.c.net.w3 = self.c.net.b3 = self.c.net.w4 = self.c.net.w3t = self.c.w2t = NULL
        self.c.n_middle = len(layers)
        cdef const float[:, ::1] t
        cdef const float[::1] bm
        self.wt = tuple(_derived(w.T) for w, _ in layers)
        for l in range(len(layers)):
            t = self.wt[l]
            bm = layers[l][1]
            self.c.dims[l] = layers[l][0].shape[0]
            self.c.wt[l] = &t[0, 0]
            self.c.b[l] = &bm[0]
        self.w2t = None
        if layers:
            w2t = np.zeros((width, LUCK_STRIDE), dtype=np.float32)
            w2t[:, :LUCK_OUTPUTS] = self.w2.T
            self.w2t = _derived(w2t)
            t = self.w2t
            self.c.w2t = &t[0, 0]

    @staticmethod
    def _param(a, shape, name):
        a = np.ascontiguousarray(a, dtype=np.float32)
        if a.shape != shape:
            raise ValueError(f"luck net {name}: expected shape {shape}, got {a.shape}")
        return a

    def arrays(self):
        """``{"w1", "b1", "w2", "b2"}`` and each middle layer's ``"wm<l>", "bm<l>"``: the
        weights."""
        out = {"w1": self.w1, "b1": self.b1, "w2": self.w2, "b2": self.b2}
        for l, (w, b) in enumerate(self.middle):
            out[f"wm{l}"] = w
            out[f"bm{l}"] = b
        return out

    def digest(self):
        """The net's identity: the SHA-256 (hex) of its arrays (``arrays()``), in name
        order, each its name and shape then its float32 bytes (recorded by a net refined
        from it, ``train_luck_net(init=...)``)."""
        h = hashlib.sha256()
        for name, a in sorted(self.arrays().items()):
            a = np.ascontiguousarray(a, dtype=np.float32)
            h.update(f"{name}{a.shape}".encode())
            h.update(a.tobytes())
        return h.hexdigest()

    @classmethod
    def from_arrays(cls, arrays):
        """The luck net of ``arrays()``'s dict."""
        middle, l = [], 0
        while f"wm{l}" in arrays or f"bm{l}" in arrays:
            middle.append((arrays.get(f"wm{l}"), arrays.get(f"bm{l}")))
            l += 1
        return cls(arrays["w1"], arrays["b1"], arrays["w2"], arrays["b2"], middle)

    def __reduce__(self):
        return (LuckNet, (self.w1, self.b1, self.w2, self.b2, self.middle))

    def rolls(self, boards):
        """Predicted per-roll values ``(n, 21, 7)`` float32 of boards ``(n, 2, 24)`` uint8
        (side on roll first), rolls in ``_search.ROLLS`` order.  Trusts its input."""
        cdef const uint8_t[:, :, ::1] b = np.ascontiguousarray(boards, dtype=np.uint8)
        out = np.empty((b.shape[0], LUCK_OUTPUTS), dtype=np.float32)
        cdef float[:, ::1] o = out
        cdef Py_ssize_t k
        with nogil:
            for k in range(b.shape[0]):
                lucknet_rolls(&self.c, &b[k, 0, 0], &b[k, 1, 0], &o[k, 0])
        return out.reshape(-1, 21, 7)
