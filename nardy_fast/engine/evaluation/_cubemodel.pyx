"""The cube model's C kernel (rule book section 7a; ``_cubemodel.pxd``): Janowski's cube
efficiency model in GNU Backgammon's form with ``W`` and ``L``, the one home of its
formulas (``cubemodel``'s docstring derives them).

The C game loop's cube (``_cubeloop``) calls the ``cdef`` functions; the Python cube
functions (``cubemodel``: ``cash_point``, ``live_take_point``, ``model_equities``,
``take_point``, ``win_loss_values``, ``efficiency``, ``pip_probability``) call the thin
wrappers below, which take and return Python floats.  Cube states are relative to the side
on roll: ``CUBE_CENTRE``, ``CUBE_MOVER``, ``CUBE_OPPONENT`` (``_cuberace.pxd``, 0, 1, 2).
"""
from libc.stdint cimport uint8_t
from libc.math cimport erfc, sqrt

import numpy as np

from nardy_fast.core._board cimport pip_count, in_contact
from nardy_fast.tables._cuberace cimport CUBE_CENTRE, CUBE_MOVER, CUBE_OPPONENT

__all__ = ["cash_point", "live_take_point", "live", "live_wl", "model_value",
           "mean_points", "race_efficiency", "efficiency", "pip_probability"]


cdef double cm_cash_point(bint geometric, double w, double l, int k,
                          int max_stake) noexcept nogil:
    cdef double cw, cl, r, t
    cdef int j
    if geometric:
        return (l + 1.0) / (w + l + 0.5)
    cw = (1.0 + l) / (w + l)                      # the cap: a dead cube
    cl = (1.0 + w) / (w + l)
    j = max_stake - 1
    while j >= k:
        r = j / (j + 1.0)
        t = 1.0 - cl * (w - r) / (w + 1.0)
        cl = 1.0 - cw * (l - r) / (l + 1.0)
        cw = t
        j -= 1
    return cw


cdef double cm_live_take_point(bint geometric, int k, int max_stake) noexcept nogil:
    cdef double tp = 0.0                          # at the cap: dead, CP = 1
    cdef int j, n
    if geometric:
        return 0.2
    j = max_stake - 1
    while j >= k:
        n = j + 1
        tp = (n - j) * (1.0 - tp) / (2.0 * n)
        j -= 1
    return tp


cdef double cm_live(double p, int own, double tp) noexcept nogil:
    cdef double cp = 1.0 - tp, v
    if own == CUBE_CENTRE:
        if cp <= tp:
            return 2.0 * p - 1.0
        v = -1.0 + 2.0 * (p - tp) / (cp - tp)
        return -1.0 if v < -1.0 else (1.0 if v > 1.0 else v)
    if own == CUBE_MOVER:
        v = -1.0 + 2.0 * p / cp
        return 1.0 if v > 1.0 else v
    v = -1.0 + 2.0 * (p - tp) / (1.0 - tp)
    return -1.0 if v < -1.0 else v


cdef double cm_live_wl(double p, int own, int k, double w, double l, bint geometric,
                       int max_stake) noexcept nogil:
    cdef double cp = cm_cash_point(geometric, w, l, k, max_stake)
    cdef double tp = 1.0 - cm_cash_point(geometric, l, w, k, max_stake)
    if own != CUBE_OPPONENT and p >= cp:
        return 1.0 + (w - 1.0) * (p - cp) / (1.0 - cp) if cp < 1.0 else 1.0
    if own == CUBE_MOVER:
        return -l + (1.0 + l) * p / cp
    if p < tp:
        return -l + (l - 1.0) * p / tp
    if own == CUBE_OPPONENT:
        return -1.0 + (w + 1.0) * (p - tp) / (1.0 - tp)
    if cp <= tp:
        return p * w - (1.0 - p) * l
    return -1.0 + 2.0 * (p - tp) / (cp - tp)


cdef double cm_model(double p, int own, int k, double x, double w, double l,
                     bint geometric, int max_stake, double tp) noexcept nogil:
    if w != 1.0 or l != 1.0:
        return ((1.0 - x) * (p * w - (1.0 - p) * l)
                + x * cm_live_wl(p, own, k, w, l, geometric, max_stake))
    return (1.0 - x) * (2.0 * p - 1.0) + x * cm_live(p, own, tp)


cdef double cm_mean_points(double q, double mars, double koks, double home,
                           const double* pts) noexcept nogil:
    cdef double s, lo = pts[0]
    cdef int i
    if q < 1e-7:
        return 1.0
    s = ((q - mars) * pts[0] + (mars - koks - home) * pts[1] + koks * pts[2]
         + home * pts[3]) / q
    for i in range(1, 4):
        if pts[i] < lo:
            lo = pts[i]
    # at least the smallest: float rounding of the parts can take the mean a few units in
    # the last place below it
    return lo if s < lo else s


cdef double cm_race_efficiency(double pips, const double* x_race, int n_x) noexcept nogil:
    cdef int i
    cdef double t
    if pips <= x_race[0]:
        return x_race[1]
    for i in range(1, n_x):
        if pips <= x_race[2 * i]:
            t = (pips - x_race[2 * i - 2]) / (x_race[2 * i] - x_race[2 * i - 2])
            return x_race[2 * i - 1] + t * (x_race[2 * i + 1] - x_race[2 * i - 1])
    return x_race[2 * n_x - 1]


cdef double cm_efficiency(const uint8_t* mover, const uint8_t* o, double x_contact,
                          const double* x_race, int n_x) noexcept nogil:
    if in_contact(mover, o):
        return x_contact
    return cm_race_efficiency(pip_count(mover), x_race, n_x)


cdef double cm_pip_probability(double pips_mover, double pips_opponent) noexcept nogil:
    cdef double tm = pips_mover / (49.0 / 6.0), to = pips_opponent / (49.0 / 6.0)
    return 0.5 * erfc(-(to - tm + 0.5) / sqrt(2.0 * 0.277 * (tm + to) + 1e-9))


# The thin Python wrappers (cubemodel checks the arguments before it calls them) ---------

TIE = NF_CUBE_TIE


def double_choice(double nd, double doubled, bint passes):
    """cm_double_choice: 1 double, 0 a tie kept (no double), -1 playing on worth more."""
    return cm_double_choice(nd, doubled, passes)


def cash_point(double wins, double losses, int stake, bint geometric, int max_stake):
    """``cm_cash_point``: the cash point of the side owning the cube at ``stake``."""
    return cm_cash_point(geometric, wins, losses, stake, max_stake)


def live_take_point(bint geometric, int stake, int max_stake):
    """``cm_live_take_point``: the fully live take point of a raise from ``stake``."""
    return cm_live_take_point(geometric, stake, max_stake)


def live(double p, int own, double tp):
    """``cm_live``: the fully live equity, ``W = L = 1``, take point ``tp``."""
    return cm_live(p, own, tp)


def live_wl(double p, int own, int stake, double wins, double losses, bint geometric,
            int max_stake):
    """``cm_live_wl``: the fully live equity with ``W``, ``L``."""
    return cm_live_wl(p, own, stake, wins, losses, geometric, max_stake)


def model_value(double p, int own, int stake, double x, double wins, double losses,
                bint geometric, int max_stake):
    """``cm_model`` with the live take point ``cm_live_take_point`` of ``stake``."""
    return cm_model(p, own, stake, x, wins, losses, geometric, max_stake,
                    cm_live_take_point(geometric, stake, max_stake))


def mean_points(double q, double mars, double koks, double home, pts):
    """``cm_mean_points``; ``pts``: 4 floats."""
    cdef double v[4]
    cdef int i
    for i in range(4):
        v[i] = pts[i]
    return cm_mean_points(q, mars, koks, home, v)


def race_efficiency(double pips, x_race):
    """``cm_race_efficiency``; ``x_race``: float64 ``(n, 2)``, n >= 1."""
    cdef const double[:, ::1] xr = np.ascontiguousarray(x_race, dtype=np.float64)
    if xr.shape[0] < 1 or xr.shape[1] != 2:
        raise ValueError(f"x_race: shape ({xr.shape[0]}, {xr.shape[1]}), expected (n, 2), n >= 1")
    return cm_race_efficiency(pips, &xr[0, 0], xr.shape[0])


def efficiency(mover, opponent, double x_contact, x_race):
    """``cm_efficiency`` of 24-point boards (each in its own numbering, ``mover`` on roll)."""
    cdef const uint8_t[::1] m = np.ascontiguousarray(mover, dtype=np.uint8)
    cdef const uint8_t[::1] o = np.ascontiguousarray(opponent, dtype=np.uint8)
    cdef const double[:, ::1] xr = np.ascontiguousarray(x_race, dtype=np.float64)
    if m.shape[0] != 24 or o.shape[0] != 24 or xr.shape[0] < 1 or xr.shape[1] != 2:
        raise ValueError("efficiency: expected two boards of 24 points and x_race (n, 2)")
    return cm_efficiency(&m[0], &o[0], x_contact, &xr[0, 0], xr.shape[0])


def pip_probability(double pips_mover, double pips_opponent):
    """``cm_pip_probability``: P(win) of the side on roll from the pip counts alone."""
    return cm_pip_probability(pips_mover, pips_opponent)
