"""The cube model (даве, rule book section 7a): Janowski's cube efficiency model, take points,
the doubling window and the decisions' equities from a cubeless P(win).

With the cube a game is won or lost at the stake, whatever the loser's position: no mars,
no oin.  All equities here are money equities of the side on roll, before it rolls, *per
unit of the current stake*.

The cube's state (``CubeState``) is vocabulary, in ``nardy_fast.core.cubestate``; cube
reports are in ``nardy_fast.analysis.cubereport``.

Decisions
---------
Three equities per unit stake: **no double** (roll without raising), **double/take** (the
opponent takes: the game goes on at the next stake with the cube on its side; with the
beaver, the lower of that and the beavered game at the stake after it) and
**double/pass** (+1: the opponent gives up the current stake).  The side on roll doubles
when ``min(take, pass) > no double``; the opponent takes when ``take <= pass`` (beavers
when the beaver is allowed and the take is worth less than 0 to the raiser).  The
cubeful equity is ``max(no double, min(take, pass))``.

Where they come from (``method``)
---------------------------------
``"exact"``: both sides in their homes with at most the cubeful race table's checkers
(``cuberace.CubefulRace``, default 6): exact.

``"janowski"``: otherwise, from the cubeless probability ``p`` of winning for the side on
roll (the ``probabilities`` parameter: a function of a position; by default the
evaluator, ``Evaluator.default()``: the net's value at ``cube.CUBE_PLIES`` (2) plies, race
values in home races; the method then names it, as ``"janowski (net 2-ply)"``) with
Janowski's cube
efficiency model (R. Janowski, "Take-points in money games", 1993; the form GNU
Backgammon uses): the equity is ``(1 - x) E_dead + x E_live``, where ``E_dead`` is the
cubeless equity at the stake (``2p - 1``) and ``E_live`` the equity if ``p`` moved
continuously (a fully live cube: piecewise linear in ``p`` between the take and cash
points).  With wins and losses of one stake (no mars), the live take point of a raise from
stake ``k`` to ``n`` is ``TP_k = (n - k) CP_n / (2 n)`` with ``CP_n = 1 - TP_n`` (the taker's
cash point once it owns the cube at ``n``).  Geometric (``n = 2k``): the fixed point
``TP = 1/5``, Janowski's ``(L - 1/2) / (W + L + 1/2)`` with ``W = L = 1``; with efficiency
``x`` the take point is ``1 / (4 + x)``.  Arithmetic (``n = k + 1``): the recursion runs
down from the cap ``max_stake`` (16, the cubeful race tables' cap, where the cube is dead
and ``CP = 1``), so a raise from 1 to 2 needs ``TP_1 = CP_2 / 4`` and later raises need
less (``TP_k`` falls like ``1 / (2 (k + 1))``): the same position is a double at a lower
``p`` and a take at a lower ``p`` the higher the stake.

The efficiency ``x`` is measured, not assumed, where an exact reference exists: races.
``benchmarks/bench_cube.py --efficiency`` fits ``x`` by least squares of the model's no
double and double/take equities against the exact geometric tables (8 checkers a side,
positions with ``0.15 < p < 0.9``), per bin of the side on roll's pip count: ``x`` grows
from 0.46 (under 6 pips) to 0.86 (48 pips); ``RACE_EFFICIENCY`` holds the bin centres and
values, interpolated linearly and held constant beyond the last bin (an extrapolation for
longer races).  For contact positions there is no exact reference: ``x = 0.9``
(``CONTACT_EFFICIENCY``) is measured against cube-aware rollouts of the evaluator, the
model and the judge's cube both at ``x`` (``benchmarks/bench_cube_errors.py --play-x``,
two sets of 100 decisions): the doubler loses 0.0069 and 0.0018 points per decision at
0.9, against 0.0139 and 0.0080 at GNU Backgammon's contact value 0.68, with which the
model doubled too early in long nardy's contact positions.  (The match equity table
keeps its own efficiency, ``met.TABLE_EFFICIENCY``, measured against whole matches.)

Draws (``draw_rule``): a draw is worth 0 at any stake; the model counts it as half a win
(``p = P(win) + P(draw) / 2``), and the exact tables, which have no draw, are not used.

Mars: the whole outcome distribution (GNU Backgammon's form for gammons)
-------------------------------------------------------------------------
The model takes, beside ``p``, the average points per stake of a won game ``W`` and of a
lost game ``L`` of the side on roll (``win_loss_values``: from the outcome distribution,
oin, mars, koks and home mars, and the points each kind scores per stake in a game with
the cube), as GNU Backgammon's ``Cl2CfMoney`` / ``MoneyLive`` do for gammons: the dead
equity is ``p W - (1 - p) L``, the live equity is linear from ``(0, -L)`` to the take
point, from the take point to the cash point and from the cash point to ``(1, W)``
(the side plays on past its cash point when a won game is worth more than the stake).
The cash point of the side owning the cube at stake ``k`` (``cash_point``) is GNU
Backgammon's ``CP = (L + 1) / (W + L + 1/2)`` geometric; arithmetic, from the cap down,
``CP_k(W, L) = 1 - CP_n(L, W) (W - k/n) / (W + 1)`` (``n = k + 1``; at the cap the cube is
dead and ``CP = (1 + L) / (W + L)``, where the dead equity reaches one stake); the take
point of a side is one minus the other side's cash point (``W`` and ``L`` swapped), so
geometric ``TP = (L - 1/2) / (W + L + 1/2)``.  A raise doubles ``W`` and ``L`` with the
stake (they are per stake); a pass costs one stake whatever the position, so the taker's
mars risk (a large ``W`` of the doubler) makes a take worse.  With ``W = L = 1`` every
formula is the one above, and the model is computed by it.

With the cube the rule book (section 7a) scores no mars and no oin: every kind of win
scores the stake.  So ``CUBE_POINTS`` is 1 for every kind, ``W = L = 1`` in every cube
decision of this package and in the game loop's cube (``_cubeloop``), and the decisions are
Janowski's above.  The form with ``W`` and ``L`` is there for scorings in which the kinds
score differently with the cube (the ``points`` of ``win_loss_values``, the ``points`` of
``CubeSettings``); it is not a rule variant of this package.

Where the formulas are computed
-------------------------------
Once, in C: the ``nogil`` kernel of ``_cubemodel`` (``_cubemodel.pxd``).  The functions
here check their arguments and call its thin wrappers; the C game loop's cube
(``_cubeloop``) calls the kernel itself, so both give the same floats.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from nardy_fast.core.cubestate import CENTRED, MAX_STAKE, CubeState, next_stake
from nardy_fast.engine.evaluation import _cubemodel

__all__ = ["CubeSettings", "take_point", "doubling_window", "efficiency", "model_equities", "actions",
           "RACE_EFFICIENCY", "CONTACT_EFFICIENCY", "live_take_point", "p_of", "pip_probability",
           "CUBE_POINTS", "win_loss_values", "cash_point", "efficiency_source"]

# Race cube efficiency per pip count of the side on roll: (bin centre, x), measured by
# `python benchmarks/bench_cube.py --efficiency` against the exact 8-checker tables.
RACE_EFFICIENCY = ((3.0, 0.462), (9.0, 0.585), (15.0, 0.613), (21.0, 0.649),
                   (27.0, 0.702), (33.0, 0.757), (39.0, 0.815), (45.0, 0.835),
                   (51.0, 0.861))
# measured against cube-aware rollouts (benchmarks/bench_cube_errors.py --play-x)
CONTACT_EFFICIENCY = 0.9

# Points per stake of each kind of win (oin, mars, koks, home mars: rules.OUTCOMES) in a
# game with the cube: the stake, whatever the kind (rule book section 7a; as
# ``MatchRules.game_points`` with the cube).
CUBE_POINTS = (1.0, 1.0, 1.0, 1.0)
_EPS = 1e-7                    # P(win) or P(loss) below it: W (or L) is taken as 1
# two equities (per stake) within it are a tie of the cube actions (``actions``), the
# C game loop's as this module's
TIE = _cubemodel.TIE
# cube states relative to the side on roll, as the kernel numbers them (_cuberace.pxd)
_OWN = {"centre": 0, "mover": 1, "opponent": 2}


def win_loss_values(value, points=CUBE_POINTS):
    """``(p, W, L)`` of the side on roll from its outcome distribution.

    Parameters
    ----------
    value : Outcome, mapping or float
        An ``Outcome`` (or a mapping with its field names: ``p_win``, ``p_mars_win``,
        ``p_koks_win``, ``p_home_mars_win``, ``p_mars_loss``, ``p_koks_loss``,
        ``p_home_mars_loss``, optional ``p_draw``; koks and home mars are parts of mars),
        or a bare P(win) (then ``W = L = 1``).
    points : sequence of 4 floats
        Points per stake of an oin, a mars (neither koks nor home mars), a koks and a home
        mars.  Default ``CUBE_POINTS``: with the cube every kind scores the stake.

    Returns
    -------
    tuple of float
        ``p``: P(win) counted for the cube (``p_of``: draws as half a win); ``W``, ``L``:
        the mean points per stake of a won and of a lost game (1 when the win or the
        loss has a probability below 1e-7).

    Examples
    --------
    >>> win_loss_values({"p_win": 0.6, "p_mars_win": 0.2, "p_mars_loss": 0.1},
    ...                 points=(1, 2, 2, 2))            # W = 1 + 0.2/0.6, L = 1 + 0.1/0.4
    (0.6, 1.3333333333333335, 1.25)
    """
    p = p_of(value)
    if isinstance(value, (float, int, np.floating)):
        return p, 1.0, 1.0
    pts = [float(v) for v in points]
    if len(pts) != 4 or not all(math.isfinite(v) and v >= 1.0 for v in pts):
        raise ValueError(f"points={tuple(points)!r}: expected 4 finite points per stake "
                         "(oin, mars, koks, home mars), each >= 1")
    get = value.get if isinstance(value, dict) else (lambda k, d=0.0: getattr(value, k, d))
    pw = float(get("p_win"))
    pl = float(get("p_lose", 1.0 - pw - float(get("p_draw", 0.0))))
    out = []
    for q, side in ((pw, "win"), (pl, "loss")):
        mars, koks, home = (float(get(f"p_{k}_{side}", 0.0))
                            for k in ("mars", "koks", "home_mars"))
        if q < _EPS:
            out.append(1.0)
            continue
        if min(q - mars, mars - koks - home, koks, home) < -1e-6:
            raise ValueError(f"P({side})={q!r}, its mars {mars!r}, koks {koks!r} and home "
                             f"mars {home!r}: not a distribution (expected mars <= "
                             f"P({side}), koks + home mars <= mars)")
        # a mean of points >= 1: at least the smallest (float rounding of the shares can
        # take it a few units in the last place below that, which _check_wl refuses)
        out.append(_cubemodel.mean_points(q, mars, koks, home, pts))
    return p, out[0], out[1]


def cash_point(wins, losses, stake=1, progression="geometric", max_stake=MAX_STAKE):
    """The cash point of the side owning the cube at ``stake``: its P(win) from which the
    opponent passes its raise, in the fully live cube with mean points per stake ``wins``
    (``W``) and ``losses`` (``L``) of its won and lost games (module docstring).  One minus
    the same with ``W`` and ``L`` swapped is the side's take point of the opponent's raise.

    Examples
    --------
    >>> cash_point(1.0, 1.0), round(1 - cash_point(1.0, 1.0), 12)    # Janowski: 4/5, 1/5
    (0.8, 0.2)
    """
    return _cubemodel.cash_point(float(wins), float(losses), stake,
                                 progression == "geometric", max_stake)


def _live_wl(p, owner, stake, w, l, progression, max_stake):
    """Fully live equity per unit stake with W, L (GNU Backgammon's ``MoneyLive``)."""
    return _cubemodel.live_wl(p, _OWN[owner], stake, w, l, progression == "geometric",
                              max_stake)


def live_take_point(progression, stake, max_stake=MAX_STAKE):
    """Fully live take point of a raise from ``stake`` (the taker's P(win))."""
    return _cubemodel.live_take_point(progression == "geometric", stake, max_stake)


def take_point(x, stake=1, progression="geometric", max_stake=MAX_STAKE, wins=1.0,
               losses=1.0):
    """The opponent's take point (its P(win)) for a raise from ``stake``, efficiency ``x``.

    Taking is worth ``n/k (-1 + 2 q ((1 - x) + x / CP_n))`` per unit of the stake ``k``
    before the raise (``q``: the taker's P(win), ``n``: the stake after the raise), against
    ``-1`` for a pass.  With ``wins`` / ``losses`` (``W``, ``L`` of the doubler, module
    docstring) other than 1: where the model's double/take equity of the doubler is one
    stake (it is piecewise linear in ``p``, solved on its pieces).

    Examples
    --------
    >>> take_point(0.0), take_point(1.0)               # dead cube, fully live cube
    (0.25, 0.2)
    """
    w, l = _check_wl(wins, losses)
    n = next_stake(progression, stake)
    if progression == "arithmetic" and n > max_stake:
        return math.nan
    if w != 1.0 or l != 1.0:
        tp = 1.0 - cash_point(l, w, n, progression, max_stake)
        knots = [0.0] + ([tp] if 0.0 < tp < 1.0 else []) + [1.0]
        f = [n / stake * _model(p, "opponent", n, x, progression, max_stake, w, l) - 1.0
             for p in knots]
        for a, b, fa, fb in zip(knots, knots[1:], f, f[1:]):
            if fa <= 0.0 <= fb:
                return 1.0 - (a + (b - a) * (-fa) / (fb - fa) if fb > fa else a)
    cp = 1.0 - live_take_point(progression, n, max_stake)
    return (n - stake) / (2.0 * n * ((1.0 - x) + x / cp))


def _live(p, owner, tp):
    """Fully live equity per unit stake for P(win) p, cube state owner, take point tp."""
    return _cubemodel.live(p, _OWN[owner], tp)


def _model(p, owner, stake, x, progression, max_stake, w=1.0, l=1.0):
    """Janowski's equity per unit stake (``_cubemodel.cm_model``)."""
    return _cubemodel.model_value(p, _OWN[owner], stake, x, w, l, progression == "geometric",
                                  max_stake)


def _check_wl(wins, losses):
    for name, v in (("wins", wins), ("losses", losses)):
        if not (isinstance(v, (int, float, np.floating)) and math.isfinite(v) and v >= 1.0):
            raise ValueError(f"{name}={v!r}: the mean points per stake of a "
                             f"{'won' if name == 'wins' else 'lost'} game, must be >= 1")
    return float(wins), float(losses)


def model_equities(p, x, cube=CENTRED, progression="geometric", beaver=False,
                   max_stake=MAX_STAKE, wins=1.0, losses=1.0):
    """Janowski's cube decision equities per unit stake for P(win) ``p`` of the side on
    roll, cube efficiency ``x`` and cube state ``cube``; ``wins`` and ``losses``: the mean
    points per stake ``W`` and ``L`` of its won and lost games (``win_loss_values``; GNU
    Backgammon's form, module docstring; 1: a game with the cube, no mars).

    Returns
    -------
    dict
        ``no_double``, ``double_take``, ``double_pass``, ``double_beaver`` (NaN when not
        allowed) and ``equity``, as ``CubefulRace.decision``.

    Examples
    --------
    >>> e = model_equities(0.5, 0.0)                   # dead cube: 2p - 1 either way
    >>> e["no_double"], e["double_take"], e["equity"]
    (0.0, 0.0, 0.0)
    """
    if not 0.0 <= p <= 1.0:
        raise ValueError(f"p={p}: must be 0..1")
    if not 0.0 <= x <= 1.0:
        raise ValueError(f"x={x}: must be 0..1")
    w, l = _check_wl(wins, losses)
    k = cube.stake
    nd = _model(p, cube.owner, k, x, progression, max_stake, w, l)
    out = {"no_double": nd, "double_take": math.nan, "double_pass": math.nan,
           "double_beaver": math.nan, "equity": nd}
    n1 = next_stake(progression, k)
    if not cube.may_raise or (progression == "arithmetic" and n1 > max_stake):
        return out
    out["double_pass"] = 1.0
    out["double_take"] = n1 / k * _model(p, "opponent", n1, x, progression, max_stake, w, l)
    take = out["double_take"]
    n2 = next_stake(progression, n1)
    if beaver and not (progression == "arithmetic" and n2 > max_stake):
        out["double_beaver"] = n2 / k * _model(p, "opponent", n2, x, progression, max_stake,
                                               w, l)
        take = min(take, out["double_beaver"])
    out["equity"] = max(nd, min(take, 1.0))
    return out


def actions(e):
    """The proper actions of both sides from decision equities (``model_equities`` or
    ``CubefulRace.decision``): ``(double_action, take_action, action)``.

    ``double_action``: ``"no double"``, ``"double"`` or ``"too good"`` (no double because
    playing on is worth more than the pass), or ``"no raise"`` when the side on roll
    may not raise; ``take_action``: ``"take"``, ``"pass"`` or ``"beaver"`` (what the
    opponent would do if doubled); ``action`` joins them, e.g. ``"double, take"``.

    One rule names the ties, in money play and at a match score alike: where the
    opponent passes and the pass is worth what playing on is (within ``TIE``, the
    rounding of the tables and the match table's interpolation), the side doubles
    (``"double"``: it cashes what playing on is only worth, as at a sure win or, with a
    live cube, above the cash point); where the opponent takes and the take is worth what
    playing on is, it does not (``"no double"``: the double gains nothing and hands over
    the cube).  ``"too good"`` is left for playing on worth more than the pass: never
    with the cube's scoring (``CUBE_POINTS``: every win scores the stake), only with
    other ``points`` of ``win_loss_values``.
    """
    nd, dt, dp, db = e["no_double"], e["double_take"], e["double_pass"], e["double_beaver"]
    if math.isnan(dp):
        return "no raise", "", "no raise"
    take_val = dt if math.isnan(db) else min(dt, db)
    if take_val > dp:
        taker = "pass"
    elif not math.isnan(db) and db < dt:
        taker = "beaver"
    else:
        taker = "take"
    doubled = min(take_val, dp)            # what the double is worth: the opponent's choice
    choice = _cubemodel.double_choice(nd, doubled, taker == "pass")   # the C loop's rule
    if choice > 0:
        roller = "double"
    elif choice < 0 and nd >= dp:
        roller = "too good"
    else:
        roller = "no double"
    return roller, taker, f"{roller}, {taker}"


def doubling_window(x, progression="geometric", stake=1, max_stake=MAX_STAKE, wins=1.0,
                    losses=1.0):
    """The model's doubling window of a centred cube at ``stake``: ``(double point, pass
    point)`` in the side on roll's P(win).  From the double point on, double/take is worth
    more than no double; from the pass point on (``1 - take_point``) the opponent passes.
    ``wins``, ``losses``: ``W`` and ``L`` as in ``model_equities``.

    Examples
    --------
    >>> lo, hi = doubling_window(0.0)                  # dead cube: 2(2p-1) > 2p-1 at p > 1/2
    >>> round(lo, 6), round(hi, 6)
    (0.5, 0.75)
    """
    cube = CENTRED if stake == 1 else CubeState(stake)
    hi = 1.0 - take_point(x, stake, progression, max_stake, wins, losses)
    a, b = 0.0, hi
    for _ in range(60):                                # bisection on DT - ND (rising in p)
        mid = (a + b) / 2
        e = model_equities(mid, x, cube, progression, False, max_stake, wins, losses)
        if e["double_take"] > e["no_double"]:
            b = mid
        else:
            a = mid
    return b, hi


def efficiency(position):
    """The cube efficiency ``x`` of the model for a position: races by the side on roll's
    pip count (``RACE_EFFICIENCY``), contact ``CONTACT_EFFICIENCY`` (see the module
    docstring)."""
    if position.is_contact():
        return CONTACT_EFFICIENCY
    return _cubemodel.race_efficiency(float(position.pips[0]), RACE_EFFICIENCY)


def efficiency_source(position, x=None):
    """Where the cube efficiency of ``position`` comes from, in words: ``"given"`` (``x``
    not None), ``"race, measured (N pips)"`` (``RACE_EFFICIENCY`` at the side on roll's pip
    count) or ``"contact, measured"`` (``CONTACT_EFFICIENCY``)."""
    if x is not None:
        return "given"
    if position.is_contact():
        return "contact, measured"
    return f"race, measured ({int(position.pips[0])} pips)"


def pip_probability(position):
    """P(win) of the side on roll from the pip counts alone (``cube_probabilities="pips"``
    of rollouts and of ``cube_decision``; the kernel's ``cm_pip_probability``, which the C
    loop calls too): the turns each side needs, pips / (49/6), differ by a
    normal variable of variance 0.277 turns per turn (the variance of a roll's pips, 18.47,
    over (49/6)^2), and the side on roll is half a turn ahead."""
    pm, po = (float(p) for p in position.pips)
    return _cubemodel.pip_probability(pm, po)


_P_ROUNDING = 1e-9      # a P(win) this far outside [0, 1] is a table's rounding step


def p_of(value):
    """P(win) counted for the cube from an Outcome, a mapping or a number (draws as half a
    win): what a ``cube_probabilities`` source returns.

    Raises
    ------
    TypeError
        ``value`` is none of these (text, None, a mapping without ``p_win``, ...).
    ValueError
        The P(win) is NaN or outside [0, 1] (beyond a rounding step): no probability, and
        so no cube decision, can be made of it.
    """
    what = ("expected P(win), a number in [0, 1], or an Outcome or mapping with "
            "'p_win'")
    try:
        if isinstance(value, bool):
            raise TypeError
        if isinstance(value, (float, int, np.floating, np.integer)):
            p = float(value)
        elif isinstance(value, dict):
            p = float(value["p_win"]) + 0.5 * float(value.get("p_draw", 0.0))
        else:
            p = float(value.p_win) + 0.5 * float(getattr(value, "p_draw", 0.0))
    except (TypeError, ValueError, KeyError, AttributeError):
        raise TypeError(f"cube_probabilities: returned {value!r}: {what}") from None
    if not -_P_ROUNDING <= p <= 1.0 + _P_ROUNDING:
        raise ValueError(f"cube_probabilities: returned P(win) {p!r}: {what}")
    return p


@dataclass(frozen=True)
class CubeSettings:
    """The cube model as the C game loop takes it (``_cubeloop.attach_cube``; the Python
    twin of its ``cube_t``): the game starts from the start (``at_start``: the autodouble
    applies), the starting ``stake``, who may raise first (``owner``: -1 either side, 0 the
    side on roll, 1 the other), no raise before the first roll (``no_first_raise``), the
    arithmetic cap ``max_stake``, the contact efficiency ``x_contact``, ``x_race``
    (float64 ``(n, 2)``: pips of the side on roll, efficiency), ``tp_live`` (float64
    ``(max_stake + 1,)``: the live take point of a raise from each stake), ``table`` (None
    or ``(CubefulRace.values, max_checkers, stakes)``), ``probabilities`` (a
    ``_net.Net``, a callable ``(mover, opponent) -> P(win)`` or None: pips) and ``points``
    (the points per stake of an oin, a mars, a koks and a home mars from which the C
    model takes ``W`` and ``L`` of the net's outcome distribution, as ``win_loss_values``;
    default ``CUBE_POINTS``: the stake whatever the kind, so ``W = L = 1``)."""

    at_start: bool
    stake: int
    owner: int
    no_first_raise: bool
    max_stake: int
    x_contact: float
    x_race: Any
    tp_live: Any
    table: Any
    probabilities: Any
    points: Any = CUBE_POINTS
