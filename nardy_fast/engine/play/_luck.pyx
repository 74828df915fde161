"""The luck of a roll, in C (variance reduction of rollouts; luck in game analysis).

For a position ``S`` with ``me`` on roll, let ``f(S, r)`` be me's value (the net's seven
outputs, me's view) after me's best move for roll ``r``: the per-roll values of
``_search.value_rolls``, moves judged at 0-ply (or, when a rollout's move choice already
looked one roll ahead at ``p`` plies, at ``p - 1`` plies: the values it computed).  The
luck of roll ``r`` is ``f(S, r) - sum_r' p(r') f(S, r')`` over the 21 rolls (``p = 1/36``
doubles, ``2/36`` others), per output; the equity luck is the same difference of
``net_equity`` (points; with the cube, twice the P(win) luck times the stake).  The mean
over the rolls is recomputed here in double precision from the 21 values, so the luck of
a uniformly random roll has mean zero exactly (up to double rounding).

Side 1's luck is side 0's bad luck: its values are flipped to side 0's view first
(``P(win) -> 1 - P(win)``, mars wins <-> mars losses), so its P(win) luck changes sign and
its mars-win luck becomes side 0's mars-loss luck.
"""
import numpy as np

from libc.stdint cimport uint8_t

from nardy_fast.core._rules cimport fill_rules
from nardy_fast.engine.evaluation._net cimport (net_equity, OUT_WIN, OUT_MARS_WIN, OUT_MARS_LOSS)
from nardy_fast.core._dice cimport roll_index, NF_ROLL_P
from nardy_fast.engine.evaluation._search cimport value_rolls

__all__ = ["roll_lucks", "side0_luck"]

cdef void luck_reset(luck_t* L) noexcept nogil:
    cdef int k
    for k in range(NET_OUTPUTS):
        L.out[k] = 0.0
    L.equity = 0.0
    L.rolls = 0


cdef double roll_luck(const search_t* s, const float* rolls, int j,
                      double* delta) noexcept nogil:
    cdef int r, k
    cdef double m, eq_mean = 0.0
    for k in range(NET_OUTPUTS):
        m = 0.0
        for r in range(N_ROLLS):
            m += NF_ROLL_P[r] * rolls[NET_OUTPUTS * r + k]
        delta[k] = rolls[NET_OUTPUTS * j + k] - m
    for r in range(N_ROLLS):
        eq_mean += NF_ROLL_P[r] * net_equity(rolls + NET_OUTPUTS * r, &s.rules)
    return net_equity(rolls + NET_OUTPUTS * j, &s.rules) - eq_mean


cdef int luck_add(luck_t* L, const search_t* s, int side, const uint8_t* me,
                  const uint8_t* opp, int d1, int d2, const float* look,
                  double cube_scale) noexcept nogil:
    cdef float own[N_ROLLS * NET_OUTPUTS]
    cdef float mean[NET_OUTPUTS]
    cdef double delta[NET_OUTPUTS]
    cdef double eq, t
    cdef int k, err
    if look == NULL:
        err = value_rolls(s, me, opp, 1, mean, own)
        if err:
            return err
        look = own
    eq = roll_luck(s, look, roll_index(d1, d2), delta)
    if cube_scale > 0.0:
        eq = 2.0 * cube_scale * delta[OUT_WIN]
    if side == 1:                                # to side 0's view
        eq = -eq
        delta[OUT_WIN] = -delta[OUT_WIN]
        for k in range(3):
            t = delta[OUT_MARS_WIN + k]
            delta[OUT_MARS_WIN + k] = delta[OUT_MARS_LOSS + k]
            delta[OUT_MARS_LOSS + k] = t
    for k in range(NET_OUTPUTS):
        L.out[k] += delta[k]
    L.equity += eq
    L.rolls += 1
    return 0


def roll_lucks(values, rules):
    """``roll_luck`` of each roll from Python (for tests): per-roll values ``(21, 7)`` (me's
    view, ``_search.ROLLS`` order) -> ``(21, 8)``: each roll's luck in the seven outputs,
    then in equity under ``rules``' points."""
    cdef float[:, ::1] v = np.ascontiguousarray(values, dtype=np.float32).reshape(N_ROLLS, NET_OUTPUTS)
    out = np.empty((N_ROLLS, NET_OUTPUTS + 1), dtype=np.float64)
    cdef double[:, ::1] o = out
    cdef search_t s
    cdef int j
    fill_rules(rules, &s.rules)
    for j in range(N_ROLLS):
        o[j, NET_OUTPUTS] = roll_luck(&s, &v[0, 0], j, &o[j, 0])
    return out


def side0_luck(values, dice, int side, rules):
    """``luck_add`` of one roll from Python (for tests): the luck of ``dice`` for ``side``
    (0 or 1) with per-roll values ``(21, 7)`` (the roller's view), as side 0's luck:
    ``(outputs (7,), equity)``."""
    cdef float[:, ::1] v = np.ascontiguousarray(values, dtype=np.float32).reshape(N_ROLLS, NET_OUTPUTS)
    cdef search_t s
    cdef luck_t L
    cdef uint8_t board[24]
    fill_rules(rules, &s.rules)
    luck_reset(&L)
    luck_add(&L, &s, side, board, board, int(dice[0]), int(dice[1]), &v[0, 0], 0.0)
    return np.array([L.out[k] for k in range(NET_OUTPUTS)]), L.equity
