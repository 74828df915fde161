"""The doubling cube (даве, rule book section 7a): cube states and money cube decisions.

With the cube a game is won or lost at the stake, whatever the loser's position: no mars,
no oin.  All equities here are money equities of the side on roll, before it rolls, *per
unit of the current stake*.

Cube state
----------
``CubeState(stake, owner, first_turn)`` travels beside a ``Position`` (it is not part of
the position ID, so every ID stays valid): the stake, who may raise (``"centre"``: either
side, ``"mover"``: the side on roll, ``"opponent"``), and whether this is the first turn
(no raise then).  "No raise on the first turn of the game" (section 7a) is read, as the
head rule's first turn (section 3), from the position: no side raises while it has all 15
checkers on its head (records, rollouts and the command line apply it so).
``Position.diagram(cube=...)`` and ``plot.plot_board(..., cube=...)`` show it.

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
evaluator, ``Evaluator.default()``: the net's 0-ply value, race values in home races; the
method then names it, as ``"janowski (net 0-ply)"``) with Janowski's cube
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
longer races).  For contact positions there is no exact reference yet: ``x = 0.68``
(``CONTACT_EFFICIENCY``, GNU Backgammon's contact value) is assumed, to be replaced by a
measurement with cube-aware rollouts of the evaluator.

Draws (``draw_rule``): a draw is worth 0 at any stake; the model counts it as half a win
(``p = P(win) + P(draw) / 2``), and the exact tables, which have no draw, are not used.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from nardy_fast.position import Position
from nardy_fast.rules import Rules, as_rules

__all__ = ["CubeState", "CENTRED", "cube_decision", "cube_report", "take_point",
           "doubling_window", "next_stake", "cube_analysis", "cube_error_rates",
           "efficiency", "model_equities", "actions", "default_probabilities", "RACE_EFFICIENCY",
           "CONTACT_EFFICIENCY", "MAX_STAKE", "live_take_point", "p_of", "record_step",
           "record_state"]

OWNERS = ("centre", "mover", "opponent")
MAX_STAKE = 16                 # arithmetic stakes: the cap (the cube is dead there)

# Race cube efficiency per pip count of the side on roll: (bin centre, x), measured by
# `python benchmarks/bench_cube.py --efficiency` against the exact 8-checker tables.
RACE_EFFICIENCY = ((3.0, 0.462), (9.0, 0.585), (15.0, 0.613), (21.0, 0.649),
                   (27.0, 0.702), (33.0, 0.757), (39.0, 0.815), (45.0, 0.835),
                   (51.0, 0.861))
CONTACT_EFFICIENCY = 0.68      # assumed (GNU Backgammon's contact value), not measured


@dataclass(frozen=True)
class CubeState:
    """The cube beside a position, from the side on roll's point of view.

    Parameters
    ----------
    stake : int
        The current stake (1 at the start; 2, 4, ... or 2, 3, ... after raises).
    owner : {"centre", "mover", "opponent"}
        Who may raise next: either side (the cube in the middle), the side on roll, or
        the opponent.
    first_turn : bool
        The first turn of the game: no raise (rule book section 7a).
    """

    stake: int = 1
    owner: str = "centre"
    first_turn: bool = False

    def __post_init__(self):
        if isinstance(self.stake, bool) or not isinstance(self.stake, (int, np.integer)):
            raise TypeError(f"stake={self.stake!r}: expected an integer")
        if self.stake < 1:
            raise ValueError(f"stake={self.stake}: must be >= 1")
        object.__setattr__(self, "stake", int(self.stake))
        if self.owner not in OWNERS:
            raise ValueError(f"owner={self.owner!r}: expected one of "
                             + ", ".join(repr(o) for o in OWNERS))
        if not isinstance(self.first_turn, bool):
            raise TypeError(f"first_turn={self.first_turn!r}: expected True or False")

    @property
    def may_raise(self):
        """True when the side on roll may raise now."""
        return self.owner != "opponent" and not self.first_turn

    def passed(self):
        """The same cube seen by the other side once the turn has passed."""
        owner = {"centre": "centre", "mover": "opponent", "opponent": "mover"}[self.owner]
        return CubeState(self.stake, owner, False)

    def taken(self, progression="geometric"):
        """The cube after the side on roll's raise was taken (still its turn): the next
        stake, owned by the opponent."""
        return CubeState(next_stake(progression, self.stake), "opponent", self.first_turn)

    def text(self, side=None):
        """One line: ``cube: stake 2, owned by black`` (``side``: the side on roll, to name
        the owner by colour)."""
        if self.owner == "centre":
            who = "in the middle"
        else:
            on_roll = self.owner == "mover"
            if side is None:
                who = "owned by the side on roll" if on_roll else "owned by the opponent"
            else:
                other = "black" if side == "white" else "white"
                who = f"owned by {side if on_roll else other}"
        first = ", first turn (no raise)" if self.first_turn else ""
        return f"cube: stake {self.stake}, {who}{first}"


CENTRED = CubeState()


def next_stake(progression, stake):
    """The stake after a raise: ``2 * stake`` (geometric) or ``stake + 1`` (arithmetic)."""
    if progression == "geometric":
        return 2 * stake
    if progression == "arithmetic":
        return stake + 1
    raise ValueError(f"progression={progression!r}: expected 'geometric' or 'arithmetic'")


def live_take_point(progression, stake, max_stake=MAX_STAKE):
    """Fully live take point of a raise from ``stake`` (the taker's P(win))."""
    if progression == "geometric":
        return 0.2
    if stake >= max_stake:
        return 0.0
    tp = 0.0                                    # at the cap: dead, CP = 1
    for k in range(max_stake - 1, stake - 1, -1):
        n = k + 1
        tp = (n - k) * (1.0 - tp) / (2.0 * n)
    return tp


def take_point(x, stake=1, progression="geometric", max_stake=MAX_STAKE):
    """The opponent's take point (its P(win)) for a raise from ``stake``, efficiency ``x``.

    Taking is worth ``n/k (-1 + 2 q ((1 - x) + x / CP_n))`` per unit of the stake ``k``
    before the raise (``q``: the taker's P(win), ``n``: the stake after the raise), against
    ``-1`` for a pass.

    Examples
    --------
    >>> take_point(0.0), take_point(1.0)               # dead cube, fully live cube
    (0.25, 0.2)
    """
    n = next_stake(progression, stake)
    if progression == "arithmetic" and n > max_stake:
        return math.nan
    cp = 1.0 - live_take_point(progression, n, max_stake)
    return (n - stake) / (2.0 * n * ((1.0 - x) + x / cp))


def _live(p, owner, tp):
    """Fully live equity per unit stake for P(win) p, cube state owner, take point tp."""
    cp = 1.0 - tp
    if owner == "centre":
        if cp <= tp:
            return 2 * p - 1
        return min(1.0, max(-1.0, -1.0 + 2.0 * (p - tp) / (cp - tp)))
    if owner == "mover":
        return min(1.0, -1.0 + 2.0 * p / cp)
    return max(-1.0, -1.0 + 2.0 * (p - tp) / (1.0 - tp))


def _model(p, owner, stake, x, progression, max_stake):
    tp = live_take_point(progression, stake, max_stake)
    if progression == "arithmetic" and stake >= max_stake:
        tp = 0.0
    return (1.0 - x) * (2.0 * p - 1.0) + x * _live(p, owner, tp)


def model_equities(p, x, cube=CENTRED, progression="geometric", beaver=False,
                   max_stake=MAX_STAKE):
    """Janowski's cube decision equities per unit stake for P(win) ``p`` of the side on
    roll, cube efficiency ``x`` and cube state ``cube``.

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
    k = cube.stake
    nd = _model(p, cube.owner, k, x, progression, max_stake)
    out = {"no_double": nd, "double_take": math.nan, "double_pass": math.nan,
           "double_beaver": math.nan, "equity": nd}
    n1 = next_stake(progression, k)
    if not cube.may_raise or (progression == "arithmetic" and n1 > max_stake):
        return out
    out["double_pass"] = 1.0
    out["double_take"] = n1 / k * _model(p, "opponent", n1, x, progression, max_stake)
    take = out["double_take"]
    n2 = next_stake(progression, n1)
    if beaver and not (progression == "arithmetic" and n2 > max_stake):
        out["double_beaver"] = n2 / k * _model(p, "opponent", n2, x, progression, max_stake)
        take = min(take, out["double_beaver"])
    out["equity"] = max(nd, min(take, 1.0))
    return out


def actions(e):
    """The proper actions of both sides from decision equities (``model_equities`` or
    ``CubefulRace.decision``): ``(double_action, take_action, action)``.

    ``double_action``: ``"no double"``, ``"double"`` or ``"too good"`` (no double because
    the pass is worth no more than playing on), or ``"no raise"`` when the side on roll
    may not raise; ``take_action``: ``"take"``, ``"pass"`` or ``"beaver"`` (what the
    opponent would do if doubled); ``action`` joins them, e.g. ``"double, take"``.
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
    if min(take_val, dp) > nd:
        roller = "double"
    elif nd >= dp:
        roller = "too good"
    else:
        roller = "no double"
    return roller, taker, f"{roller}, {taker}"


def doubling_window(x, progression="geometric", stake=1, max_stake=MAX_STAKE):
    """The model's doubling window of a centred cube at ``stake``: ``(double point, pass
    point)`` in the side on roll's P(win).  From the double point on, double/take is worth
    more than no double; from the pass point on (``1 - take_point``) the opponent passes.

    Examples
    --------
    >>> lo, hi = doubling_window(0.0)                  # dead cube: 2(2p-1) > 2p-1 at p > 1/2
    >>> round(lo, 6), round(hi, 6)
    (0.5, 0.75)
    """
    cube = CENTRED if stake == 1 else CubeState(stake)
    hi = 1.0 - take_point(x, stake, progression, max_stake)
    a, b = 0.0, hi
    for _ in range(60):                                # bisection on DT - ND (rising in p)
        mid = (a + b) / 2
        e = model_equities(mid, x, cube, progression, False, max_stake)
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
    pips = float(position.pips[0])
    xs, ys = zip(*RACE_EFFICIENCY)
    return float(np.interp(pips, xs, ys))


_EVALUATORS = {}


def default_probabilities(rules):
    """The default cubeless source of the model: ``Evaluator.default()`` under the cubeless
    ``rules`` (the net's 0-ply value; exact or one-sided race values in home races), as a
    function ``position -> Outcome`` (its ``method``: ``"net 0-ply"``, ``"two_sided"``,
    ...)."""
    import dataclasses

    from nardy_fast.evaluator import Evaluator
    rules = dataclasses.replace(rules, cube=None, beaver=False, autodouble=False)
    if rules not in _EVALUATORS:
        _EVALUATORS[rules] = Evaluator.default().with_rules(rules)
    return _EVALUATORS[rules].evaluate


def p_of(value):
    """P(win) counted for the cube from an Outcome, a mapping or a number."""
    if isinstance(value, (float, int, np.floating)):
        return float(value)
    if isinstance(value, dict):
        return float(value["p_win"]) + 0.5 * float(value.get("p_draw", 0.0))
    return float(value.p_win) + 0.5 * float(getattr(value, "p_draw", 0.0))


def cube_decision(position, cube=CENTRED, rules=None, probabilities=None, tables=None,
                  x=None, n_games=2000, seed=0, method="auto", workers=None, match=None):
    """The money cube decision of the side on roll (with ``match``: at the match score).

    Parameters
    ----------
    position : Position or str
        The position (or its ID), side on roll to act.
    cube : CubeState
        The cube (default: centred, stake 1).
    rules : Rules
        Needs ``cube="geometric"`` or ``"arithmetic"`` (default: geometric); ``beaver``.
    probabilities : callable or None
        ``f(position) -> P(win)`` of the side on roll (a float, an ``Outcome`` or a dict
        with ``p_win`` and optionally ``p_draw``), the cubeless source of the model: e.g.
        another evaluator or a rollout.  None: ``default_probabilities`` (the evaluator:
        the net's 0-ply value, race values in home races).
    tables : CubefulRace, False or None
        The exact cubeful race table (None: the cached default for the progression and
        beaver, ``cuberace.cubeful_race``; False: never exact).
    x : float or None
        Cube efficiency (None: ``efficiency(position)``).
    method : {"auto", "exact", "janowski", "rollout"}
        ``"auto"``: exact where the cubeful race table covers the position, else
        Janowski's model.  ``"rollout"``: cube-aware rollouts of ``n_games`` games (both
        sides then use the cube model, with ``probabilities`` for its cubeless P(win)):
        no double is the rollout with the current cube and no raise before the first
        roll, double/take the rollout at the next stake with the cube on the opponent's
        side (times the stake ratio), double/beaver likewise; common random numbers
        (``seed``), standard errors in ``se_no_double`` and ``se_double_take``.
    workers : int or None
        The rollouts' workers (``rollout``).
    match : MatchState or None
        Decide at the match score (``nardy_fast.met.match_cube_decision``: Zadeh's model
        and Janowski's efficiency ``x`` through the match equity table, with the cube of
        ``match`` or else ``cube``):
        the values are then match winning chances, ``equity`` the one after the right
        actions, and ``take_point`` the table's; ``rules`` and ``method`` are not used.

    Returns
    -------
    dict
        ``no_double``, ``double_take``, ``double_pass``, ``double_beaver``, ``equity`` (per
        unit stake), ``p_win`` (cubeless; for ``"rollout"`` the share of games won),
        ``double_action``, ``take_action``, ``action``, ``take_point`` (the opponent's,
        from the model with ``x``), ``x``, ``method`` (``"exact"``, ``"rollout"``,
        ``"janowski"`` with a given ``probabilities``, else ``"janowski (SOURCE)"`` with the
        default source's method, as ``"janowski (net 0-ply)"``).
    """
    if isinstance(position, str):
        position = Position.from_id(position)
    if not isinstance(position, Position):
        raise TypeError(f"position: expected a Position or an ID, got {type(position).__name__}")
    if not isinstance(cube, CubeState):
        raise TypeError(f"cube: expected a CubeState, got {type(cube).__name__}")
    if match is not None:
        return _match_decision(position, cube, probabilities, match, x)
    rules = as_rules(rules) if rules is not None else Rules(cube="geometric")
    if rules.cube is None:
        raise ValueError("rules.cube=None: cube decisions need cube='geometric' or "
                         "'arithmetic'")
    if position.is_over():
        raise ValueError("the game is over: no cube decision")
    prog = rules.cube
    if method not in ("auto", "exact", "janowski", "rollout"):
        raise ValueError(f"method={method!r}: expected 'auto', 'exact', 'janowski' or "
                         f"'rollout'")
    if x is None:
        x = efficiency(position)
    out = None
    if method == "rollout":
        out = _rollout_decision(position, cube, rules, probabilities, n_games, seed, workers)
    elif (method != "janowski" and tables is not False and position.is_bearoff()
          and not rules.draw_rule):
        if tables is None:
            from nardy_fast.cuberace import cubeful_race
            tables = cubeful_race(prog, rules.beaver)
        b = position.boards
        a6, b6 = b[0, :17:-1], b[1, :17:-1]
        if (tables.progression == prog and tables.beaver == rules.beaver
                and tables.covers(a6, b6, cube.stake, cube.owner)):
            out = tables.decision(a6, b6, cube.stake, cube.owner)
            out.pop("dead")
            if cube.first_turn:                         # no raise now, the cube stays
                out.update(double_take=math.nan, double_pass=math.nan,
                           double_beaver=math.nan, equity=out["no_double"])
            out["method"] = "exact"
    if out is None and method == "exact":
        raise ValueError("method='exact': no cubeful race table covers this position "
                         "(both sides home, at most its checkers, its progression and "
                         "beaver)")
    if out is None:
        source = probabilities or default_probabilities(rules)
        value = source(position)
        p = min(1.0, max(0.0, p_of(value)))
        out = model_equities(p, x, cube, prog, rules.beaver)
        out["p_win"] = p
        out["method"] = ("janowski" if probabilities is not None
                         else f"janowski ({value.method})")
    out["double_action"], out["take_action"], out["action"] = actions(out)
    out["take_point"] = take_point(x, cube.stake, prog)
    out["x"] = float(x)
    return out


def _match_decision(position, cube, probabilities, match, x):
    """``cube_decision`` at a match score (``nardy_fast.met.match_cube_decision``)."""
    from dataclasses import replace
    from nardy_fast import met
    from nardy_fast.evaluator import _check_match
    _check_match(match, [position])
    if match.cube is None:
        match = replace(match, cube=cube)
    if position.is_over():
        raise ValueError("the game is over: no cube decision")
    source = probabilities or default_probabilities(match.rules.rules)
    value = source(position)
    x = efficiency(position) if x is None else x
    out = met.match_cube_decision(min(1.0, max(0.0, p_of(value))), match, x)
    out["equity"] = out.pop("mwc")
    out["x"] = float(x)
    if probabilities is None:
        out["method"] = f"zadeh ({value.method})"
    return out


def _rollout_decision(position, cube, rules, probabilities, n_games, seed, workers):
    from nardy_fast.rollout import rollout
    k = cube.stake
    kw = dict(n_games=n_games, seed=seed, rules=rules, cube_probabilities=probabilities,
              workers=workers, progress=False)
    nd = rollout(position, cube=CubeState(k, cube.owner, True), **kw)
    out = {"no_double": nd.equity, "double_take": math.nan, "double_pass": math.nan,
           "double_beaver": math.nan, "equity": nd.equity, "p_win": nd.p_win,
           "se_no_double": nd.se_equity, "se_double_take": math.nan, "method": "rollout"}
    n1 = next_stake(rules.cube, k)
    if not cube.may_raise or (rules.cube == "arithmetic" and n1 > MAX_STAKE):
        return out
    dt = rollout(position, cube=CubeState(n1, "opponent"), **kw)
    out.update(double_take=n1 / k * dt.equity, double_pass=1.0,
               se_double_take=n1 / k * dt.se_equity)
    take = out["double_take"]
    n2 = next_stake(rules.cube, n1)
    if rules.beaver and not (rules.cube == "arithmetic" and n2 > MAX_STAKE):
        db = rollout(position, cube=CubeState(n2, "opponent"), **kw)
        out["double_beaver"] = n2 / k * db.equity
        take = min(take, out["double_beaver"])
    out["equity"] = max(out["no_double"], min(take, 1.0))
    return out


_COLUMNS = ["position", "no_double", "double_take", "double_pass", "double_beaver",
            "equity", "p_win", "double_action", "take_action", "action", "take_point", "x",
            "method"]


def cube_report(positions, rules=Rules(cube="geometric"), probabilities=None, tables=None,
                n_games=2000, seed=0, method="auto", workers=None, match=None):
    """Money cube decisions of several positions, centred cube at stake 1: a tidy frame.

    Parameters
    ----------
    positions : Position, str, or an iterable of them (IDs accepted)
    rules : Rules
        With ``cube="geometric"`` (default) or ``"arithmetic"`` (and ``beaver``).
    probabilities, tables, n_games, seed, method, workers, match
        As for ``cube_decision`` (the cubeless source of the model can be any function of a
        position, e.g. a neural evaluator; with ``match`` the values are match winning
        chances at its score, every position having its side on roll).

    Returns
    -------
    pandas.DataFrame
        One row per position: ``position`` (ID), the side on roll's cubeful money
        equities per unit stake ``no_double``, ``double_take``, ``double_pass`` and
        ``double_beaver`` (NaN without the beaver), the cubeful ``equity`` after the
        proper actions, the cubeless ``p_win``, ``double_action``, ``take_action``,
        ``action``, the opponent's ``take_point``, the efficiency ``x`` and ``method``
        (as ``cube_decision``: ``"exact"``, ``"janowski (net 0-ply)"``, ...).

    Examples
    --------
    >>> from nardy_fast import Position, Rules
    >>> import numpy as np
    >>> me = np.zeros(24, int); me[18] = 1          # one checker on point 19: 27 rolls of 36
    >>> you = np.zeros(24, int); you[23] = 1        # the opponent surely finishes next turn
    >>> r = cube_report([Position(me, you)], rules=Rules(cube="geometric"))
    >>> r.loc[0, ["no_double", "double_take"]].astype(float).round(9).tolist()
    [0.5, 1.0]
    >>> r.loc[0, ["action", "method"]].tolist()
    ['double, take', 'exact']
    """
    import pandas as pd
    if isinstance(positions, (Position, str)):
        positions = [positions]
    rules = as_rules(rules)
    rows = []
    for i, pos in enumerate(positions):
        if isinstance(pos, str):
            pos = Position.from_id(pos)
        if not isinstance(pos, Position):
            raise TypeError(f"positions[{i}]: expected a Position or an ID, got "
                            f"{type(pos).__name__}")
        d = cube_decision(pos, CENTRED, rules, probabilities, tables, None, n_games, seed,
                          method, workers, match)
        d["position"] = pos.id
        rows.append(d)
    return pd.DataFrame(rows, columns=_COLUMNS)


def cube_analysis(record, probabilities=None, tables=None, n_games=2000, seed=0):
    """The cube decisions of a game record (``GameRecord`` with ``rules.cube``), judged by
    ``cube_decision``.

    One row per turn where the side on roll could raise (the cube in the middle or its
    own, below the cap, not its first turn) or raised.  Losses are in points (per unit
    stake times the stake): ``double_loss``: what the side on roll lost by its choice
    (``max(no double, the opponent's best answer)`` minus what its choice is worth against
    that best answer), ``take_loss``: what the opponent lost by its answer (its answer's
    value to the raiser minus the best answer's).

    Returns
    -------
    pandas.DataFrame
        ``turn`` (1-based, as ``game_report``), ``side``, ``player``, ``stake``, ``owner``,
        ``played`` (``"no double"``, ``"double, take"``, ``"double, pass"``,
        ``"double, beaver"``), ``proper`` (``cube_decision``'s ``action``), the decision
        equities, ``method``, ``double_loss``, ``take_loss``.
    """
    import pandas as pd

    from nardy_fast.record import read_record
    if isinstance(record, str):
        record = read_record(record)
    rules = as_rules(record.rules)
    if rules.cube is None:
        raise ValueError("cube_analysis: the record's rules have no cube")
    positions = record.positions()
    states = record.cube_states()
    rows = []
    for k, pos in enumerate(positions[:len(record.turns) + 1]):
        if pos.is_over():
            break
        before = CENTRED if k == 0 else states[k - 1].passed()
        acts = [c for c in record.cube if c.before == k]
        if not acts and len(record.turns) == k:
            break
        first = bool(pos.mover[0] == 15)
        nxt = next_stake(rules.cube, before.stake)
        may = (before.owner != "opponent" and not first
               and not (rules.cube == "arithmetic" and nxt > MAX_STAKE))
        if not may and not acts:
            continue
        d = cube_decision(pos, CubeState(before.stake, before.owner), rules, probabilities,
                          tables, None, n_games, seed)
        take_val = d["double_take"] if math.isnan(d["double_beaver"]) else \
            min(d["double_take"], d["double_beaver"])
        best_answer = min(take_val, d["double_pass"])
        best = max(d["no_double"], best_answer)
        answer = [c.action for c in acts if c.action != "double"]
        if not acts:
            played, dl, tl = "no double", best - d["no_double"], 0.0
        else:
            ans = answer[0] if answer else "take"
            played = f"double, {ans}"
            dl = best - best_answer
            value = {"take": d["double_take"], "drop": d["double_pass"],
                     "beaver": d["double_beaver"]}[ans]
            tl = value - best_answer
            played = played.replace("drop", "pass")
        rows.append({"turn": k + 1, "side": pos.side,
                     "player": record.white if pos.side == "white" else record.black,
                     "stake": before.stake, "owner": before.owner, "played": played,
                     "proper": d["action"], "no_double": d["no_double"],
                     "double_take": d["double_take"], "double_pass": d["double_pass"],
                     "double_beaver": d["double_beaver"], "method": d["method"],
                     "double_loss": max(0.0, dl) * before.stake,
                     "take_loss": max(0.0, tl) * before.stake})
    cols = ["turn", "side", "player", "stake", "owner", "played", "proper", "no_double",
            "double_take", "double_pass", "double_beaver", "method", "double_loss",
            "take_loss"]
    return pd.DataFrame(rows, columns=cols)


def cube_error_rates(analysis):
    """Per side of a ``cube_analysis``: ``double_decisions`` (turns it could raise),
    ``take_decisions`` (raises it answered), ``errors`` (a loss above 0.001 points),
    ``equity_lost`` (points), ``missed_doubles``, ``wrong_doubles``, ``wrong_takes``,
    ``wrong_passes`` and ``error_rate`` (points lost per decision x 1000)."""
    import pandas as pd
    rows = {}
    other = {"white": "black", "black": "white"}
    for side in ("white", "black"):
        mine = analysis[analysis["side"] == side]
        answered = analysis[(analysis["side"] == other[side])
                            & analysis["played"].str.startswith("double")]
        dl, tl = mine["double_loss"], answered["take_loss"]
        n = len(mine) + len(answered)
        lost = float(dl.sum() + tl.sum())
        rows[side] = {
            "double_decisions": len(mine), "take_decisions": len(answered),
            "errors": int((dl > 1e-3).sum() + (tl > 1e-3).sum()), "equity_lost": lost,
            "missed_doubles": int(((mine["played"] == "no double") & (dl > 1e-3)).sum()),
            "wrong_doubles": int((mine["played"].str.startswith("double")
                                  & (dl > 1e-3)).sum()),
            "wrong_takes": int((~answered["played"].str.endswith("pass")
                                & (tl > 1e-3)).sum()),
            "wrong_passes": int((answered["played"].str.endswith("pass")
                                 & (tl > 1e-3)).sum()),
            "error_rate": 1000 * lost / n if n else math.nan}
    return pd.DataFrame.from_dict(rows, orient="index").rename_axis("side")


def record_step(c, rules, position, state):
    """Apply the cube action ``c`` of a game record (``record.CubeAction``) before a turn
    from ``position``: ``state = [stake, owner colour or None, pending (doubler, stake) or
    None, result]``, updated in place.  ValueError when it breaks the rules (section 7a)."""
    stake, owner, pending = state[0], state[1], state[2]
    if rules.cube is None:
        raise ValueError("a cube action, but the rules have no cube "
                         "(Rules cube=geometric or arithmetic)")
    if state[3] is not None:
        raise ValueError("the game was already over")
    if c.action == "double":
        if pending is not None:
            raise ValueError(f"the raise to {pending[1]} was not answered")
        if c.side != position.side:
            raise ValueError(f"only the side on roll ({position.side}) may raise")
        if owner not in (None, c.side):
            raise ValueError(f"{owner} owns the cube, {c.side} may not raise")
        if position.mover[0] == 15:
            raise ValueError("no raise on the first turn (rule book 7a)")
        want = next_stake(rules.cube, stake)
        if c.stake != want:
            raise ValueError(f"raise to {c.stake}, the next stake is {want}")
        state[2] = (c.side, c.stake)
        return
    if pending is None:
        raise ValueError("no raise to answer")
    if c.side == pending[0]:
        raise ValueError(f"{c.side} answers its own raise")
    if c.action == "drop":
        state[3] = {"winner": pending[0], "kind": "drop", "points": float(stake)}
    elif c.action == "take":
        if c.stake != pending[1]:
            raise ValueError(f"takes {c.stake}, the raise was to {pending[1]}")
        state[0], state[1] = pending[1], c.side
    else:
        if not rules.beaver:
            raise ValueError("a beaver, but the rules have beaver=false")
        want = next_stake(rules.cube, pending[1])
        if c.stake != want:
            raise ValueError(f"beaver to {c.stake}, expected {want}")
        state[0], state[1] = c.stake, c.side
    state[2] = None


def record_state(state, side):
    """The ``CubeState`` seen by ``side`` (a colour) from a ``record_step`` state."""
    owner = "centre" if state[1] is None else ("mover" if state[1] == side else "opponent")
    return CubeState(state[0], owner)
