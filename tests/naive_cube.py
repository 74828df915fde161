"""The cube model written out plainly in Python, from its derivation in ``cubemodel``'s
docstring: Janowski's cube efficiency model in GNU Backgammon's form with ``W`` and ``L``.

Tests only: it shares no code with the package (the package computes these in the C
kernel ``engine/evaluation/_cubemodel``).  Owners are ``"centre"``, ``"mover"`` or
``"opponent"``, the cube state relative to the side on roll; equities are per unit of the
current stake.  Each function does the operations of the kernel in the same order, so the
two agree to the last bit (IEEE double arithmetic, no fused multiply-add).
"""
from __future__ import annotations

import math

MAX_STAKE = 16                  # the arithmetic cap of the rule book's cube tables


def cash_point(w, l, stake=1, progression="geometric", max_stake=MAX_STAKE):
    """Cash point of the side owning the cube at ``stake``: geometric ``(L + 1) / (W + L +
    1/2)``; arithmetic by the recursion from the dead cube at the cap down."""
    w, l = float(w), float(l)
    if progression == "geometric":
        return (l + 1.0) / (w + l + 0.5)
    cw, cl = (1.0 + l) / (w + l), (1.0 + w) / (w + l)
    for k in range(max_stake - 1, stake - 1, -1):
        r = k / (k + 1.0)
        cw, cl = 1.0 - cl * (w - r) / (w + 1.0), 1.0 - cw * (l - r) / (l + 1.0)
    return cw


def live_take_point(progression, stake, max_stake=MAX_STAKE):
    """Fully live take point of a raise from ``stake``, ``W = L = 1``."""
    if progression == "geometric":
        return 0.2
    if stake >= max_stake:
        return 0.0
    tp = 0.0
    for k in range(max_stake - 1, stake - 1, -1):
        n = k + 1
        tp = (n - k) * (1.0 - tp) / (2.0 * n)
    return tp


def live(p, owner, tp):
    """Fully live equity, ``W = L = 1``, take point ``tp`` (cash point ``1 - tp``)."""
    cp = 1.0 - tp
    if owner == "centre":
        if cp <= tp:
            return 2 * p - 1
        return min(1.0, max(-1.0, -1.0 + 2.0 * (p - tp) / (cp - tp)))
    if owner == "mover":
        return min(1.0, -1.0 + 2.0 * p / cp)
    return max(-1.0, -1.0 + 2.0 * (p - tp) / (1.0 - tp))


def live_wl(p, owner, stake, w, l, progression, max_stake=MAX_STAKE):
    """Fully live equity with ``W``, ``L``: linear from ``(0, -L)`` to the take point, to the
    cash point, to ``(1, W)``."""
    cp = cash_point(w, l, stake, progression, max_stake)
    tp = 1.0 - cash_point(l, w, stake, progression, max_stake)
    if owner != "opponent" and p >= cp:
        return 1.0 + (w - 1.0) * (p - cp) / (1.0 - cp) if cp < 1.0 else 1.0
    if owner == "mover":
        return -l + (1.0 + l) * p / cp
    if p < tp:
        return -l + (l - 1.0) * p / tp
    if owner == "opponent":
        return -1.0 + (w + 1.0) * (p - tp) / (1.0 - tp)
    if cp <= tp:
        return p * w - (1.0 - p) * l
    return -1.0 + 2.0 * (p - tp) / (cp - tp)


def model(p, owner, stake, x, progression, max_stake=MAX_STAKE, w=1.0, l=1.0):
    """Janowski: ``(1 - x)`` dead + ``x`` live."""
    if w != 1.0 or l != 1.0:
        return ((1.0 - x) * (p * w - (1.0 - p) * l)
                + x * live_wl(p, owner, stake, w, l, progression, max_stake))
    tp = live_take_point(progression, stake, max_stake)
    return (1.0 - x) * (2.0 * p - 1.0) + x * live(p, owner, tp)


def mean_points(q, mars, koks, home, points):
    """Mean points per stake of a won (or lost) game of probability ``q``: 1 below 1e-7,
    else at least the smallest of ``points``."""
    if q < 1e-7:
        return 1.0
    shares = (q - mars, mars - koks - home, koks, home)
    return max(min(points), sum(s * v for s, v in zip(shares, points)) / q)


def race_efficiency(pips, bins):
    """Linear between the bins' ``(pips, x)``, constant beyond the first and the last."""
    if pips <= bins[0][0]:
        return bins[0][1]
    for (x0, y0), (x1, y1) in zip(bins, bins[1:]):
        if pips <= x1:
            return y0 + (pips - x0) / (x1 - x0) * (y1 - y0)
    return bins[-1][1]


def pip_probability(pips_mover, pips_opponent):
    """P(win) of the side on roll from pips: a normal difference of turns, half a turn
    ahead."""
    tm, to = pips_mover / (49.0 / 6.0), pips_opponent / (49.0 / 6.0)
    return 0.5 * math.erfc(-(to - tm + 0.5) / math.sqrt(2.0 * 0.277 * (tm + to) + 1e-9))
