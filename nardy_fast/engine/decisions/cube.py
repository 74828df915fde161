"""Money cube decisions (даве, rule book section 7a): ``cube_decision``.

Equities per unit of the current stake, of the side on roll before it rolls: exact from
the cubeful race tables where they cover the position (``tables.cuberace``), else the
cube model (``nardy_fast.engine.evaluation.cubemodel``: Janowski's efficiency model, whose
docstring states the method, its parameters and the draws) on a cubeless P(win) from the
evaluator or any function of a position, or cube-aware rollouts (``method="rollout"``).
"""
from __future__ import annotations

import dataclasses
import functools
import math

from nardy_fast.core._checks import check_plies
from nardy_fast.core.cubestate import CENTRED, MAX_STAKE, CubeState, next_stake
from nardy_fast.core.matchrules import check_match
from nardy_fast.core.methods import check_method, methods_of, warn_unused
from nardy_fast.core.position import as_position
from nardy_fast.core.rng import root_entropy
from nardy_fast.core.rules import as_rules
from nardy_fast.engine.evaluation.cubemodel import (
    actions, efficiency, efficiency_source, model_equities, p_of, pip_probability, take_point,
    win_loss_values)
from nardy_fast.engine.evaluation.evaluator import DECISION_PLIES, Evaluator
from nardy_fast.engine.evaluation._search import MAX_SEARCH_PLIES
from nardy_fast.engine.play.rollout import (DEFAULT_GAMES, difference_se, keeps_games,
                                            rollout_games, rollout_outcomes,
                                            stop_if_interrupted, valued_by_cube_model)
from nardy_fast.engine.play.settings import resolve_settings
from nardy_fast.engine.decisions.methods import (METHOD_OBJECTS, Exact, Net, Rollout,
                                                method_or_flat, refuse_flat)
from nardy_fast._utils.compute import resolve_compute
from nardy_fast.tables.bearoff_complete import CompleteTwoSided, complete_two_sided
from nardy_fast.tables.cuberace import cubeful_race

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, Literal
from nardy_fast.engine.evaluation import met

if TYPE_CHECKING:
    from nardy_fast.core.rules import RulesLike
    from nardy_fast.core.rng import SeedLike
    from dask.distributed import Client

    from nardy_fast.core.matchrules import MatchState
    from nardy_fast.core.position import Position
    from nardy_fast.core.result import Outcome
    from nardy_fast.core.rules import Rules
    from nardy_fast.tables.cuberace import CubefulRace
    from nardy_fast._utils.compute import Compute
    from nardy_fast.engine.decisions.methods import Method

__all__ = ["cube_decision", "cube_rules", "default_probabilities", "METHODS", "CUBE_PLIES",
           "verdict_noise", "NOISE_Z", "PAIRED_SE"]

METHODS = methods_of("auto", "exact", "janowski", "rollout")

# The look-ahead of the evaluation a cube decision's model decides on when the call names
# none.  Against the decision benchmark's 300 cube decisions (1,296-game cube-aware
# rollouts; benchmarks/RESULTS.md) the doubler loses 0.0007 points per decision at 2 plies
# and 0.0010 at 0-ply, the taker 0.0007 and 0.0016; a 2-ply evaluation costs about
# 0.01-0.06 s.  A cube decision
# is a single decision a person asks for: the family's ``evaluator.DECISION_PLIES``.
CUBE_PLIES = DECISION_PLIES

# The multiple of a standard error that makes a rollout decision's margin a clear one: 1.96,
# a 95% interval, as the rollouts' intervals everywhere (``verdict_noise``).
NOISE_Z = 1.96

# The paired standard errors of a rollout decision's differences (points per unit stake):
# each from the per-game differences of two of its rollouts, which throw the same dice game
# by game (``rollout_games``), NaN where there is no such pair.
PAIRED_SE = ("se_double_take_minus_no_double", "se_double_beaver_minus_no_double",
             "se_double_beaver_minus_double_take")

# the arguments of cube_decision that act only in some calls, and their defaults
_DEFAULTS = {"rules": None, "method": "auto", "tables": None, "n_games": DEFAULT_GAMES,
             "seed": None, "workers": None, "client": None, "progress": None}


def _cubeful_complete(rules: Rules) -> CompleteTwoSided | None:
    """The built complete two-sided table with cubeful equities for a cube game under
    ``rules``, or None.  Its cubeful equities do not depend on the points of a mars (with
    the cube every win scores the stake), so the table built for the rules' cubeless
    points serves, else the one built for classic points (``nardy-fast bearoff build
    --two-sided 15 --cubeful``, the default rules)."""
    for points in (rules, None):
        table = complete_two_sided(points)
        if table is not None and table.cubeful:
            return table
    return None


def default_probabilities(rules: RulesLike
                          ) -> Callable[[Position], Outcome]:
    """The default cubeless source of the model: ``Evaluator.default(rules)`` under the cubeless
    ``rules`` (the net's 0-ply value; exact or one-sided race values in home races), as a
    function ``position -> Outcome`` (its ``method``: ``"net 0-ply"``, ``"two_sided"``,
    ...)."""
    rules = rules.cubeless()
    return Evaluator.default(rules).evaluate      # cached per rules there


def _source(probabilities, rules, plies=None):
    """The cubeless P(win) source of ``cube_probabilities`` (a callable, ``"pips"`` or
    None: the evaluator under ``rules``, at ``plies``, None: ``CUBE_PLIES``)."""
    plies = CUBE_PLIES if plies is None else plies
    if probabilities == "pips":
        return pip_probability
    if probabilities is not None:
        return probabilities
    evaluate = default_probabilities(rules)
    return evaluate if plies == 0 else functools.partial(evaluate, plies=plies)


@method_or_flat("n_games", "plies")
def cube_decision(position: Position | str, cube_state: CubeState = CENTRED, *,
                  rules: RulesLike = None,
                  cube_probabilities: Callable[[Position], float | Outcome | Mapping[str, float]]
                  | str | None = None,
                  tables: CubefulRace | CompleteTwoSided | Literal[False] | None = None,
                  x: float | None = None,
                  n_games: int = DEFAULT_GAMES, seed: SeedLike = None,
                  method: str | Method = "auto", workers: int | None = None,
                  match: MatchState | None = None, progress: bool | None = None,
                  client: Client | None = None, plies: int | None = None,
                  compute: Compute | None = None) -> dict[str, Any]:
    """The money cube decision of the side on roll (with ``match``: at the match score).

    Every argument after ``cube_state`` is keyword-only.  ``method`` may also be a method
    object (``nardy_fast.engine.decisions.methods``), which holds its own settings:
    ``Auto(plies)`` (``"auto"``), ``Exact()`` (``"exact"``), ``Net(plies)`` (the model on
    the net at ``plies``: ``"janowski"``) or ``Rollout(RolloutSettings(n_games, ...))``
    (``"rollout"``; its ``cube_probabilities`` may stand for the keyword's, its
    ``cube_state`` must be None: each rollout's cube is the decision's, and its ``dice``
    None: the decision is taken before the roll).  ``n_games`` and
    ``plies`` beside an object are a ``TypeError``.

    Parameters
    ----------
    position : Position or str
        The position (or its ID), side on roll to act.
    cube_state : CubeState
        The cube's stake and owner (default: centred, stake 1).  On the side on roll's
        first turn (all its checkers on the head, ``Position.is_first_turn``) it may not
        raise (rule book 7a) whatever ``cube_state.first_turn`` says, as on the command
        line: the decision is then no raise.
    rules : Rules or None
        None: classic, as everywhere; the cube of the rules (``cube_rules``: geometric
        when they name none) and ``beaver``.
    cube_probabilities : callable, "pips" or None
        ``f(position) -> P(win)`` of the side on roll (a float, an ``Outcome`` or a dict
        with ``p_win`` and optionally ``p_draw``), the cubeless source of the model: e.g.
        another evaluator or a rollout; ``"pips"``: the pip-count estimate
        (``cubemodel.pip_probability``, as rollouts' ``cube_probabilities="pips"``).
        None: ``default_probabilities`` (the evaluator at ``plies``: the net's value,
        race values in home races).  A value that is no P(win) in [0, 1] (NaN, 1.5,
        text) is refused naming ``cube_probabilities`` (``cubemodel.p_of``).
    tables : CubefulRace, CompleteTwoSided, False or None
        The exact cubeful race table (None: the cached default for the progression and
        beaver, ``cuberace.cubeful_race``, then, for a bear-off it does not cover, the
        complete two-sided table's cubeful equities once built with them,
        ``bearoff_complete.complete_two_sided``: geometric cube, no beaver; a
        ``CompleteTwoSided``: that table's; False: never exact).
    x : float or None
        Cube efficiency (None: ``efficiency(position)``).  No effect on an exact decision
        (a ``UserWarning`` under ``method="exact"``).
    method : {"auto", "exact", "janowski", "rollout"}
        ``"auto"``: exact where the cubeful race table covers the position, else
        Janowski's model.  ``"rollout"``: cube-aware rollouts of ``n_games`` games (both
        sides then use the cube model, with ``cube_probabilities`` for its cubeless
        P(win)):
        no double is the rollout with the current cube and no raise before the first
        roll, double/take the rollout at the next stake with the cube on the opponent's
        side (times the stake ratio), double/beaver likewise; common random numbers
        (one ``seed``: ``rollout_many``), standard errors in ``se_no_double``, ``se_double_take`` and
        ``se_double_beaver``; ``verdict_noise`` says whether the verdict is within their
        noise.  A bear-off that the cubeful race table does not cover has its games
        played out (not valued by the cube model before the first roll); under
        ``draw_rule`` the rollouts are refused (their cube counts no draw).
    n_games : int
        ``method="rollout"``: games of each rollout (default ``DEFAULT_GAMES``, the
        package's one default for a rollout that values a position).
    seed : None, int or numpy.random.SeedSequence
        ``method="rollout"``: the one seed of the rollouts, so that they throw the same
        dice game by game (the result's ``seed``; None: fresh entropy).
    workers : int or None
        ``method="rollout"``: the rollouts' workers (``rollout``; results do not depend
        on them).
    match : MatchState or None
        Decide at the match score (``nardy_fast.engine.evaluation.met.match_cube_decision``: Zadeh's model
        and Janowski's efficiency ``x`` through the match equity table, with the cube of
        ``match`` or else ``cube_state``):
        the values are then match winning chances, ``equity`` the one after the right
        actions, and ``take_point`` the table's; ``rules``, ``method``, ``tables``,
        ``n_games``, ``seed``, ``workers``, ``client`` and ``progress`` have no effect
        there (a ``UserWarning`` names those given).
    progress : bool or None
        ``method="rollout"``: a bar over each rollout's games.  True: a bar; False:
        none; None (default): a bar when standard error is a terminal
        (``core._progress``).
    plies : int or None
        Look-ahead of the default source (the evaluator) whose outcome distribution the
        model decides on, 0 (the net's 0-ply value) to 3; None (default):
        ``CUBE_PLIES`` (2).  Deeper is slower (a 2-ply evaluation takes 0.01-0.06 s, 0-ply
        about 1 ms) and more accurate: on the decision benchmark's 300 cube decisions
        (1,296-game cube-aware rollouts) the doubler lost 0.0007 points per decision at
        2-ply against 0.0010 at 0-ply, its taker 0.0007 against 0.0016
        (``benchmarks/RESULTS.md``).  A number given has no effect (a ``UserWarning``)
        with ``cube_probabilities`` given or under ``method="exact"`` or ``"rollout"``
        (the rollouts' own cube decisions stay at 0-ply).
    client : dask.distributed.Client or None
        ``method="rollout"``: run the rollouts' chunks on this Dask cluster (``rollout``;
        the same results).
    compute : Compute or None
        ``workers``, ``client`` and ``progress`` as one object (``nardy_fast.Compute``;
        then leave those keywords out).

    Notes
    -----
    An argument that has no effect in the call gives a ``UserWarning`` naming it:
    ``n_games``, ``seed``, ``workers``, ``client`` and ``progress`` under a method other
    than ``"rollout"`` (no games are played), ``tables`` under ``"janowski"`` or
    ``"rollout"`` (no table is read), ``cube_probabilities`` and ``x`` under ``"exact"``,
    ``plies`` with ``cube_probabilities`` given or under ``"exact"`` or ``"rollout"``, and
    those listed under ``match``.

    Returns
    -------
    dict
        ``no_double``, ``double_take``, ``double_pass``, ``double_beaver``, ``equity`` (per
        unit stake), ``p_win`` (cubeless, the P(win) the model decides on: under
        ``draw_rule`` a draw counts as half a win, ``cubemodel.p_of``, so it is
        ``evaluate``'s ``p_win + p_draw / 2``; for ``"rollout"`` the share of games won),
        ``double_action``, ``take_action``, ``action`` (``cubemodel.actions``: a pass
        worth what playing on is names ``"double"``, in money play and at a match score
        alike), ``take_point`` (the opponent's,
        from the model with ``x``; NaN under ``"exact"``),
        ``x`` (NaN under ``"exact"``), ``method`` (``"exact"``, ``"rollout"``,
        ``"janowski"`` with a given ``cube_probabilities``, else ``"janowski (SOURCE)"`` with the
        default source's method, as ``"janowski (net 2-ply)"`` (the default) or
        ``"janowski (net 0-ply)"``); and, stating how it was
        decided: ``model`` (``"exact cubeful race table"``, ``"exact cubeful two-sided
        table (complete)"``, ``"cube-aware rollouts"``
        or ``"janowski, W and L of the outcome distribution"``; at a match score
        ``"zadeh, match equity table"``), ``win_points`` and ``loss_points`` (the model's
        ``W`` and ``L``: mean points per stake of a won and a lost game of the side on
        roll, from ``cube_probabilities``' outcome distribution and ``cubemodel.CUBE_POINTS``;
        with the cube every kind of win scores the stake, so both are 1; NaN when the
        model was not used) and ``x_source`` (``cubemodel.efficiency_source``: ``"given"``,
        ``"race, measured (N pips)"`` or ``"contact, measured"``; ``""`` under
        ``"exact"``; on Black's last turn under ``draw_rule``, which Black may double
        before (rule book 7a) but after which no one can raise again, ``x`` is 0 and
        ``x_source`` ``"dead cube (black's last turn, draw_rule)"``).  ``take_point``,
        ``x`` and ``x_source`` belong to the model: an exact decision uses none of them,
        so they are NaN (``null`` in JSON) and ``""`` there, as ``win_points`` and
        ``loss_points``; under ``"rollout"`` no model decides the root either (``model``
        says so) and they only say what the model would take.

        ``method="rollout"`` adds ``games`` (games of each rollout), ``seed``, the
        standard errors ``se_no_double``,
        ``se_double_take`` and ``se_double_beaver`` (points per unit stake; NaN where no
        rollout was made), the paired standard errors of their differences
        (``PAIRED_SE``: ``se_double_take_minus_no_double``,
        ``se_double_beaver_minus_no_double``, ``se_double_beaver_minus_double_take``;
        from the per-game differences, the rollouts throwing the same dice game by
        game), and ``verdict_noise``'s keys: ``double_margin``,
        ``double_noise``, ``take_margin``, ``take_noise`` and ``within_noise``.  Ctrl-C
        in one of its rollouts raises ``KeyboardInterrupt`` there (no decision rests on
        a cut rollout, no later rollout is started).

    Examples
    --------
    >>> import numpy as np
    >>> import nardy_fast as nf
    >>> me = np.zeros(24, int); me[18] = 1          # one checker on point 19: 27 rolls of 36
    >>> you = np.zeros(24, int); you[23] = 1        # the opponent surely finishes next turn
    >>> d = nf.cube_decision(nf.Position(me, you), rules=nf.Rules(cube="geometric"))
    >>> d["action"], d["method"], float(d["no_double"]), float(d["double_take"])
    ('double, take', 'exact', 0.5, 1.0)
    """
    position = as_position(position)
    cube, probabilities = cube_state, cube_probabilities
    if not isinstance(cube, CubeState):
        raise TypeError(f"cube_state: expected a CubeState, got {type(cube).__name__}")
    if position.is_first_turn() and not cube.first_turn:     # no raise on it (7a)
        cube = dataclasses.replace(cube, first_turn=True)
    if not (probabilities is None or probabilities == "pips" or callable(probabilities)):
        raise ValueError(f"cube_probabilities={probabilities!r}: expected None, 'pips' or a "
                         f"callable position -> P(win)")
    if plies is not None:
        plies = check_plies(plies, MAX_SEARCH_PLIES)
    settings = None
    if isinstance(method, METHOD_OBJECTS):
        refuse_flat("cube_decision", method, n_games=(n_games, DEFAULT_GAMES),
                    plies=(plies, None))
        method, plies, settings, probabilities = _from_object(method, probabilities)
    if probabilities is not None:
        warn_unused("with cube_probabilities given (plies is the default source's)",
                    {"plies": None}, plies=plies)
    if match is not None:
        warn_unused("with match= (the match equity table decides)", _DEFAULTS, rules=rules,
                    method=method, tables=tables, n_games=n_games, seed=seed,
                    workers=workers, client=client, progress=progress)
        return _match_decision(position, cube, probabilities, match, x, plies)
    rules = cube_rules(rules)
    cube.check(rules)
    if position.is_over(rules):         # but Black's last turn under draw_rule (7, 7a)
        raise ValueError("the game is over: no cube decision")
    prog = rules.cube
    method = check_method(method, METHODS)
    if method != "rollout":
        warn_unused(f"with method={method!r} (only method='rollout' plays games)",
                    _DEFAULTS, n_games=n_games, seed=seed, workers=workers,
                    client=client, progress=progress)
    if method == "exact":
        warn_unused("with method='exact' (the exact table needs no cubeless P(win))",
                    {"cube_probabilities": None, "plies": None},
                    cube_probabilities=probabilities, plies=plies)
        warn_unused("with method='exact' (the exact table needs no cube efficiency)",
                    {"x": None}, x=x)
    if method == "rollout":
        if rules.draw_rule:
            raise ValueError("method='rollout': the rollouts' cube and race values count "
                             "no draw, so they cannot judge a cube under draw_rule (the "
                             "cube model decides there)")
        warn_unused("with method='rollout' (the rollouts' cube decides at 0-ply)",
                    {"plies": None}, plies=plies)
    if method in ("janowski", "rollout"):
        warn_unused(f"with method={method!r} (no cubeful race table is read)", _DEFAULTS,
                    tables=tables)
    x_source = efficiency_source(position, x)
    if x is None and position.is_over():
        # Black's last turn under draw_rule: no turn follows it, so no side can raise
        # again: the cube is dead (a draw is worth 0, White's win the stake)
        x, x_source = 0.0, "dead cube (black's last turn, draw_rule)"
    elif x is None:
        x = efficiency(position)
    out = None
    w = l = math.nan
    if method == "rollout":
        if settings is None:
            settings = resolve_settings("cube_decision", None, n_games=n_games,
                                        cube_probabilities=probabilities)
        compute = resolve_compute("cube_decision", compute, workers=workers, client=client,
                                  progress=progress)
        out = _rollout_decision(position, cube, rules, settings, seed, compute)
        out["model"] = "cube-aware rollouts"
    elif (method != "janowski" and tables is not False and position.is_bearoff()
          and not rules.draw_rule):
        given = tables
        if tables is None:
            tables = cubeful_race(prog, rules.beaver)
        b = position.boards
        a6, b6 = b[0, :17:-1], b[1, :17:-1]
        if (isinstance(tables, CompleteTwoSided) or (
                given is None and not tables.covers(a6, b6, cube.stake, cube.owner))):
            # beyond the in-memory table: the complete table's cubeful equities
            complete = tables if isinstance(tables, CompleteTwoSided) else \
                _cubeful_complete(rules)
            if (complete is not None and complete.cubeful and prog == "geometric"
                    and not rules.beaver and complete.covers(int(a6.sum()), int(b6.sum()))):
                out = complete.decision(a6, b6, cube.stake, cube.owner)
                out["model"] = "exact cubeful two-sided table (complete)"
        elif (tables.progression == prog and tables.beaver == rules.beaver
                and tables.covers(a6, b6, cube.stake, cube.owner)):
            out = tables.decision(a6, b6, cube.stake, cube.owner)
            out["model"] = "exact cubeful race table"
        if out is not None:
            out.pop("dead")
            if cube.first_turn:                         # no raise now, the cube stays
                out.update(double_take=math.nan, double_pass=math.nan,
                           double_beaver=math.nan, equity=out["no_double"])
            out["method"] = "exact"
    if out is None and method == "exact" and rules.draw_rule:
        raise ValueError("method='exact': the cubeful race tables have no draws, so none "
                         "serves draw_rule (the cube model decides there)")
    if out is None and method == "exact":
        raise ValueError("method='exact': no cubeful race table covers this position "
                         "(both sides home, at most its checkers, its progression and "
                         "beaver; beyond it the complete two-sided table with its "
                         "cubeful equities, geometric cube without beaver: nardy-fast "
                         "bearoff build --two-sided 15 --cubeful)")
    if out is None:
        value = _source(probabilities, rules, plies)(position)
        p, w, l = win_loss_values(value)
        p = min(1.0, max(0.0, p))
        out = model_equities(p, x, cube, prog, rules.beaver, wins=w, losses=l)
        out["p_win"] = p
        out["model"] = "janowski, W and L of the outcome distribution"
        out["method"] = ("janowski (pips)" if probabilities == "pips" else "janowski"
                         if probabilities is not None else f"janowski ({value.method})")
    out["double_action"], out["take_action"], out["action"] = actions(out)
    if out["method"] == "exact":            # no model decided: none of its figures apply
        out.update(take_point=math.nan, x=math.nan)
        x_source = ""
    else:
        out["take_point"] = take_point(x, cube.stake, prog,
                                       wins=1.0 if math.isnan(w) else w,
                                       losses=1.0 if math.isnan(l) else l)
        out["x"] = float(x)
    out.update(win_points=w, loss_points=l, x_source=x_source)
    if method == "rollout":
        out.update(verdict_noise(out))
    return out


def decided_by_model(decision: Mapping[str, Any]) -> bool:
    """Whether the cube model (Janowski's, or Zadeh's at a match score) made ``decision``:
    not an exact table, not rollouts.  Where it did not, the decision's ``take_point``
    and ``x`` only say what the model would take, so a display leaves them out."""
    return decision["method"] not in ("exact", "rollout")


def verdict_noise(decision: Mapping[str, float], z: float = NOISE_Z) -> dict[str, Any]:
    """Whether a rollout cube decision's verdict is within the rollouts' noise.

    A verdict rests on two comparisons (``cubemodel.actions``): the doubler's, no double
    against the better answer of the opponent (``min(double_take, double_beaver,
    double_pass)``), and the taker's, the take (or beaver) against the pass
    (``double_pass``, exactly 1), and the beaver against the take where a beaver is
    allowed.  Each comparison is a difference of rollout equities; its ``margin`` is the
    difference's size and its ``noise`` ``z`` times the standard error of the
    difference: the paired one (``PAIRED_SE``, from the per-game differences of the two
    rollouts, whose games threw the same dice) where the decision has it, as
    ``cube_decision`` gives it; else the sum of the two values' standard errors, a bound
    that holds whatever the rollouts' correlation.  Against the exact pass the noise is
    the other value's own standard error.  A comparison is within the noise when its
    margin is below its noise, or when its noise is unknown (NaN: a rollout of a single
    game has no spread to measure).

    Parameters
    ----------
    decision : mapping
        A ``cube_decision`` of ``method="rollout"``: ``no_double``, ``double_take``,
        ``double_pass``, ``double_beaver`` and their ``se_*`` (NaN where not rolled out),
        and optionally the paired standard errors ``PAIRED_SE``.
    z : float
        Standard errors of a clear margin (default ``NOISE_Z``, 1.96: a 95% interval).

    Returns
    -------
    dict
        ``double_margin``, ``double_noise``, ``take_margin``, ``take_noise`` (points per
        unit stake; NaN when there is no such decision, as with no raise allowed, or
        when the standard error is unknown) and ``within_noise`` (True when a comparison
        of the verdict is within the noise or its noise is unknown).

    Examples
    --------
    >>> d = {"no_double": 0.648, "double_take": 0.677, "double_pass": 1.0,
    ...      "double_beaver": float("nan"), "se_no_double": 0.065,
    ...      "se_double_take": 0.098, "se_double_beaver": float("nan")}
    >>> v = verdict_noise(d)
    >>> round(v["double_margin"], 3), round(v["double_noise"], 3), v["within_noise"]
    (0.029, 0.319, True)
    """
    nan = math.nan

    def se(key):
        v = decision.get(f"se_{key}", nan)
        return 0.0 if key == "double_pass" else v

    def se_pair(a, b):
        """The standard error of value ``a`` minus value ``b``: paired when known."""
        if "double_pass" in (a, b):
            return se(b if a == "double_pass" else a)
        paired = decision.get(f"se_{a}_minus_{b}", nan)
        return paired if paired == paired else se(a) + se(b)

    nd, dp = decision["no_double"], decision["double_pass"]
    out = {"double_margin": nan, "double_noise": nan, "take_margin": nan,
           "take_noise": nan, "within_noise": False}
    if math.isnan(dp):                                  # no raise: nothing to compare
        return out
    answers = [k for k in ("double_take", "double_beaver") if not math.isnan(decision[k])]
    take = min(answers, key=lambda k: decision[k])      # the opponent's better keep-playing
    best = take if decision[take] < dp else "double_pass"
    out["double_margin"] = abs(decision[best] - nd)
    out["double_noise"] = z * se_pair(best, "no_double")
    # the taker: its keep-playing answer against the pass, and the beaver against the take
    margins = [(abs(decision[take] - dp), z * se(take))]
    if len(answers) == 2:
        dt, db = decision["double_take"], decision["double_beaver"]
        margins.append((abs(db - dt), z * se_pair("double_beaver", "double_take")))
    # the closest call (margin over noise; an unknown noise first) speaks for the taker
    out["take_margin"], out["take_noise"] = min(
        margins, key=lambda m: (-math.inf if math.isnan(m[1]) else
                                m[0] / m[1] if m[1] > 0 else math.inf))
    out["within_noise"] = not (out["double_margin"] >= out["double_noise"]
                               and out["take_margin"] >= out["take_noise"])
    return out


def cube_rules(rules: RulesLike) -> Rules:
    """The rules of a cube decision: ``rules`` (None: classic, as everywhere) with their
    cube, the geometric cube when they name none (``cube=None`` is money play without a
    cube, where there is nothing to decide)."""
    rules = as_rules(rules)
    return rules if rules.cube is not None else dataclasses.replace(rules, cube="geometric")


def _match_decision(position, cube, probabilities, match, x, plies=None):
    """``cube_decision`` at a match score (``nardy_fast.engine.evaluation.met.match_cube_decision``)."""
    check_match(match, [position])
    if match.rules.rules.beaver:
        warn_unused("at a match score (the match equity table's cube model has no beaver: "
                    "double_beaver is NaN)", {"beaver": False}, beaver=True)
    if match.cube is None:
        match = dataclasses.replace(match, cube=cube)
    elif position.is_first_turn() and not match.cube.first_turn:     # no raise (7a)
        match = dataclasses.replace(match, cube=dataclasses.replace(match.cube,
                                                                    first_turn=True))
    if position.is_over(match.rules.rules):
        raise ValueError("the game is over: no cube decision")
    value = _source(probabilities, match.rules.rules, plies)(position)
    x_source = efficiency_source(position, x)
    x = efficiency(position) if x is None else x
    out = met.match_cube_decision(min(1.0, max(0.0, p_of(value))), match, x)
    out["equity"] = out.pop("mwc")
    out["x"] = float(x)
    # with the cube a match game scores its stake (no mars): the table's values at the
    # stake are the mars-aware ones, W = L = 1 (as CUBE_POINTS in money play)
    out.update(model="zadeh, match equity table", win_points=1.0, loss_points=1.0,
               x_source=x_source)
    if probabilities is None:
        out["method"] = f"zadeh ({value.method})"
    return out


def _from_object(method, probabilities):
    """``(name, plies, settings, cube_probabilities)`` of a method object."""
    if isinstance(method, Rollout):
        s = method.settings
        if s.cube_state is not None or s.cube is False:
            raise ValueError("cube_decision: method=Rollout(settings): leave the settings' "
                             "cube and cube_state unset (each rollout's cube is the "
                             "decision's)")
        if s.dice is not None:
            raise ValueError(f"cube_decision: method=Rollout(settings): dice={s.dice}: a "
                             "cube decision is taken before the roll, whose rollouts throw "
                             "it at random; leave the settings' dice None")
        if probabilities is not None and s.cube_probabilities is not None:
            raise TypeError("cube_decision: cube_probabilities given both as a keyword and "
                            "in the Rollout's settings; pass one of them")
        if probabilities is None:
            probabilities = s.cube_probabilities
        return "rollout", None, s.replace(cube_probabilities=probabilities), probabilities
    if isinstance(method, Exact):
        if method.table != "auto":
            raise ValueError(f"cube_decision: method={method!r}: a cube decision reads the "
                             "cubeful race table; use Exact()")
        return "exact", None, None, probabilities
    name = "janowski" if isinstance(method, Net) else "auto"
    return name, method.plies, None, probabilities


def _rollout_decision(position, cube, rules, settings, seed, compute):
    k = cube.stake
    seed = root_entropy(seed)           # one seed: the rollouts share their dice
    kw = dict(seed=seed, rules=rules, compute=compute)

    keep = keeps_games(settings.n_games, 3)     # beyond it: the sum of the SEs, a bound

    def games(state, scale):
        """One cubeful rollout at ``state``: its Outcome, and its games per unit of the
        decision's stake with their strata (``scale``: the rollout's stake over the
        decision's; None when too many to keep)."""
        s = settings.replace(cube_state=state)
        if keep:
            rg = rollout_games([position], settings=s, **kw)
            outs, kept = rg.outcomes, (scale * rg.equity[0], rg.strata[0])
        else:
            outs, kept = rollout_outcomes([position], settings=s, **kw), None
        stop_if_interrupted(outs, "cube_decision")   # Ctrl-C: no decision on cut rollouts
        return outs[0], kept

    def paired(a, b):
        """The paired SE of the games ``a`` minus ``b`` (NaN: not kept)."""
        return math.nan if a is None else difference_se(a[0], b[0], strata=a[1])

    nd, nd_games = games(CubeState(k, cube.owner, True), 1.0)
    if valued_by_cube_model(nd):
        # a bear-off that only the cube model would value before the first roll: its
        # games are played out, so that the rollouts judge the model, not repeat it
        settings = settings.replace(truncate=None)
        nd, nd_games = games(CubeState(k, cube.owner, True), 1.0)
    out = {"no_double": nd.equity, "double_take": math.nan, "double_pass": math.nan,
           "double_beaver": math.nan, "equity": nd.equity, "p_win": nd.p_win,
           "se_no_double": nd.se_equity, "se_double_take": math.nan,
           "se_double_beaver": math.nan, "method": "rollout",
           "games": settings.n_games, "seed": seed, **dict.fromkeys(PAIRED_SE, math.nan)}
    if nd.extra.get("valued_at_start"):  # the exact cubeful race table: no game played
        out.update(games=0, valued_at_start=nd.extra["valued_at_start"])
    n1 = next_stake(rules.cube, k)
    if not cube.may_raise or (rules.cube == "arithmetic" and n1 > MAX_STAKE):
        return out
    dt, dt_games = games(CubeState(n1, "opponent"), n1 / k)
    out.update(double_take=n1 / k * dt.equity, double_pass=1.0,
               se_double_take=n1 / k * dt.se_equity,
               se_double_take_minus_no_double=paired(dt_games, nd_games))
    take = out["double_take"]
    n2 = next_stake(rules.cube, n1)
    if rules.beaver and not (rules.cube == "arithmetic" and n2 > MAX_STAKE):
        db, db_games = games(CubeState(n2, "opponent"), n2 / k)
        out["double_beaver"] = n2 / k * db.equity
        out["se_double_beaver"] = n2 / k * db.se_equity
        out["se_double_beaver_minus_no_double"] = paired(db_games, nd_games)
        out["se_double_beaver_minus_double_take"] = paired(db_games, dt_games)
        take = min(take, out["double_beaver"])
    out["equity"] = max(out["no_double"], min(take, 1.0))
    return out
