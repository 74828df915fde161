"""The luck net: a predictor of the 21 per-roll values of a position, in C.

The luck of a roll (``_luck``) needs ``f(S, r)`` for all 21 rolls ``r`` of the position
``S`` before the roll.  The exact 0-ply one (me's value after its best move for ``r``)
costs 21 move choices; this net predicts the same ``21 x 7`` values from ``S`` alone:
``rolls = b2 + w2 @ relu(b1 + x @ w1)``, ``x`` the evaluation net's 198 inputs of (me on
roll, opp) (``_net.net_encode``), outputs linear (only their differences between rolls
matter: the luck subtracts their mean).  Any ``f`` gives an unbiased luck
(``nardy_fast.engine.variance``); how well the net predicts only sets how much variance is
removed.  Trained by ``nardy_fast.engine.lucknet`` (``nardy-fast train-luck``).
"""
from libc.stdint cimport uint8_t

import numpy as np

from nardy_fast.engine._net cimport net_t, input_rows, net_layers, NET_INPUTS, NET_MAX_HIDDEN

__all__ = ["LuckNet", "N_LUCK_OUTPUTS"]

N_LUCK_OUTPUTS = LUCK_OUTPUTS


cdef void lucknet_rolls(const net_t* L, const uint8_t* me, const uint8_t* opp,
                        float* rolls) noexcept nogil:
    """b1 plus each non-zero input's row (in input order), the ReLU and the 147 dot
    products in the evaluation net's kernel (``_net.net_layers``), then b2."""
    cdef float coef[NET_INPUTS]
    cdef const float* rows[NET_INPUTS]
    cdef int k, m = input_rows(L, me, opp, coef, rows)
    net_layers(L.n_hidden, L.b1, m, coef, rows, L.w2, LUCK_OUTPUTS, rolls)
    for k in range(LUCK_OUTPUTS):
        rolls[k] = rolls[k] + L.b2[k]


cdef class LuckNet:
    """Weights of a luck net: ``w1`` (198, H), ``b1`` (H,), ``w2`` (147, H), ``b2``
    (147,), float32; ``H`` a multiple of 8, at most 1024."""

    def __init__(self, w1, b1, w2, b2):
        w1 = np.ascontiguousarray(w1, dtype=np.float32)
        H = w1.shape[1] if w1.ndim == 2 else -1
        if w1.ndim != 2 or w1.shape[0] != NET_INPUTS or not 8 <= H <= NET_MAX_HIDDEN \
                or H % 8:
            raise ValueError(f"luck net w1: expected shape ({NET_INPUTS}, H), H a multiple "
                             f"of 8 in 8..{NET_MAX_HIDDEN}; got {w1.shape}")
        self.w1 = w1
        self.b1 = self._param(b1, (H,), "b1")
        self.w2 = self._param(w2, (LUCK_OUTPUTS, H), "w2")
        self.b2 = self._param(b2, (LUCK_OUTPUTS,), "b2")
        for name in ("w1", "b1", "w2", "b2"):
            if not np.isfinite(getattr(self, name)).all():
                raise ValueError(f"luck net {name}: not finite")
        self.n_hidden = H
        cdef const float[:, ::1] a1 = self.w1
        cdef const float[::1] c1 = self.b1
        cdef const float[:, ::1] a2 = self.w2
        cdef const float[::1] c2 = self.b2
        self.c.n_hidden = H
        self.c.w1 = &a1[0, 0]
        self.c.b1 = &c1[0]
        self.c.w2 = &a2[0, 0]
        self.c.b2 = &c2[0]

    @staticmethod
    def _param(a, shape, name):
        a = np.ascontiguousarray(a, dtype=np.float32)
        if a.shape != shape:
            raise ValueError(f"luck net {name}: expected shape {shape}, got {a.shape}")
        return a

    def arrays(self):
        """``{"w1", "b1", "w2", "b2"}``: the weights."""
        return {"w1": self.w1, "b1": self.b1, "w2": self.w2, "b2": self.b2}

    def __reduce__(self):
        return (LuckNet, (self.w1, self.b1, self.w2, self.b2))

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
