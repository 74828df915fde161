"""Cube reports (pandas): the cube decisions of many positions and of game records.

Equities per unit stake of the side on roll, as ``nardy_fast.engine.decisions.cube`` computes them;
losses in points (per unit stake times the stake).
"""
from __future__ import annotations

import math

from nardy_fast._utils._frames import require_columns
from nardy_fast.core.cubestate import CENTRED, MAX_STAKE, CubeState, next_stake
from nardy_fast.core.matchrules import MatchState
from nardy_fast.core.methods import check_method, warn_unused
from nardy_fast.core.position import Position, position_list
from nardy_fast.core.record import as_record
from nardy_fast.core.rng import root_entropy
from nardy_fast.core.rules import as_rules
from nardy_fast.engine.decisions.cube import (METHODS as CUBE_METHODS, cube_decision,
                                              decided_by_model)
from nardy_fast.engine.evaluation.cubemodel import actions
from nardy_fast.engine.evaluation.met import emg_scale, made_raise_values
from nardy_fast.engine.decisions.methods import METHOD_OBJECTS, Method, method_or_flat
from nardy_fast.engine.play.rollout import DEFAULT_GAMES
from nardy_fast._utils.compute import Compute

from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Literal


if TYPE_CHECKING:
    import pandas as pd
    from nardy_fast.core.rules import RulesLike
    from nardy_fast.core.rng import SeedLike
    from dask.distributed import Client

    from nardy_fast.core.record import GameRecord
    from nardy_fast.core.result import Outcome
    from nardy_fast.tables.cuberace import CubefulRace

__all__ = ["cube_report", "cube_analysis", "cube_error_rates"]


# A cube decision is "close" when raising would cost less than this (points per game, EMG
# at a match) against the best action: GNU Backgammon's threshold (its very bad error).
CLOSE = 0.16

_COLUMNS = ["position", "no_double", "double_take", "double_pass", "double_beaver",
            "equity", "p_win", "double_action", "take_action", "action", "take_point", "x",
            "method"]
# and with method="rollout" how each row was rolled out (cube_decision's keys)
_ROLLOUT_COLUMNS = ["games", "se_no_double", "se_double_take", "se_double_beaver",
                    "within_noise"]


@method_or_flat("n_games", "plies")
def cube_report(positions: Position | str | Iterable[Position | str], *,
                rules: RulesLike = None,
                cube_probabilities: Callable[[Position], float | Outcome | Mapping[str, float]] | str | None = None,
                tables: CubefulRace | Literal[False] | None = None,
                n_games: int = DEFAULT_GAMES,
                seed: SeedLike = None, method: str | Method = "auto",
                workers: int | None = None, match: MatchState | None = None,
                client: Client | None = None, progress: bool = False,
                plies: int | None = None, compute: Compute | None = None) -> pd.DataFrame:
    """Money cube decisions of several positions, centred cube at stake 1: a tidy frame.

    ``method`` may also be a method object, as for ``cube_decision``
    (``Rollout(RolloutSettings(n_games, ...))``, ``Net(plies)``, ...): it holds its
    settings, so ``n_games`` and ``plies`` beside it are a ``TypeError``; ``seed`` and
    ``compute`` (or ``workers``, ...) stay the call's.

    Parameters
    ----------
    positions : Position, str, or an iterable of them (IDs accepted)
    rules : Rules or None
        None: classic, as everywhere; the cube of the rules, ``"geometric"`` when they name
        none (``cube_decision``), or ``"arithmetic"`` (and ``beaver``).
    cube_probabilities, tables, n_games, seed, method, workers, match, client, progress
        As for ``cube_decision`` (the cubeless source of the model can be any function of a
        position, e.g. a neural evaluator; with ``match`` the values are match winning
        chances at its score, every position having its side on roll).  With
        ``method="rollout"`` every position's rollouts use the same ``seed`` (common
        random numbers), on ``workers`` local processes or the Dask ``client``;
        ``progress`` shows a bar over each rollout's games.
    plies : int or None
        As for ``cube_decision``: the evaluator's look-ahead for the model's cubeless
        probabilities (None: ``cube.CUBE_PLIES``).
    compute : Compute or None
        ``workers``, ``client`` and ``progress`` as one object (``nardy_fast.Compute``;
        then leave those keywords out).

    Returns
    -------
    pandas.DataFrame
        One row per position: ``position`` (ID), the side on roll's cubeful money
        equities per unit stake ``no_double``, ``double_take``, ``double_pass`` and
        ``double_beaver`` (NaN without the beaver), the cubeful ``equity`` after the
        proper actions, the cubeless ``p_win``, ``double_action``, ``take_action``,
        ``action``, the opponent's ``take_point``, the efficiency ``x`` and ``method``
        (as ``cube_decision``: ``"exact"``, ``"janowski (net 2-ply)"``, ...).
        ``take_point`` and ``x`` are the cube model's: NaN in the rows where it did not
        decide (``"exact"``, ``"rollout"``).  With ``method="rollout"`` (money play)
        also ``games`` (each rollout's games: 0 where the exact cubeful race table
        valued the race before its first roll), the standard errors ``se_no_double``,
        ``se_double_take`` and ``se_double_beaver`` and ``within_noise``
        (``cube_decision``'s).

    Raises
    ------
    TypeError, ValueError
        ``positions`` is no position nor an iterable of them, or ``positions[i]`` is no
        position (``core.position.position_list``), before any position is judged.
    KeyboardInterrupt
        Ctrl-C during a position's rollouts: no row rests on a cut rollout.

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
    import pandas as pd          # lazy: pandas is slow to import; import nardy_fast skips it
    seed = root_entropy(seed)
    positions = position_list(positions)
    rules = as_rules(rules)
    rows = []
    roll = _roll(n_games, seed, workers, client, progress, compute)
    if _name(method) != "rollout" or match is not None:   # said once; the seed is recorded
        warn_unused("with match= (the match equity table decides)" if match is not None
                    else f"with method={method!r} (only method='rollout' plays games)",
                    {"n_games": DEFAULT_GAMES, "workers": None, "client": None,
                     "progress": False, "compute": None}, n_games=n_games, workers=workers,
                    client=client, progress=progress, compute=compute)
        roll = {}
    for pos in positions:
        d = cube_decision(pos, CENTRED, rules=rules,
                          cube_probabilities=cube_probabilities, tables=tables,
                          method=method, match=match, plies=plies, **roll)
        d["position"] = pos.id
        if not decided_by_model(d):          # the model's numbers, not this row's method's
            d["take_point"] = d["x"] = math.nan
        rows.append(d)
    rolled = _name(method) == "rollout" and match is None
    frame = pd.DataFrame(rows, columns=_COLUMNS + (_ROLLOUT_COLUMNS if rolled else []))
    frame.attrs["seed"] = seed
    return frame


@method_or_flat("n_games", "plies")
def cube_analysis(record: GameRecord | str, *,
                  cube_probabilities: Callable[[Position], float | Outcome | Mapping[str, float]] | str | None = None,
                  tables: CubefulRace | Literal[False] | None = None,
                  n_games: int = DEFAULT_GAMES, seed: SeedLike = None,
                  method: str | Method = "auto",
                  workers: int | None = None, client: Client | None = None,
                  progress: bool = False, match: MatchState | None = None,
                  plies: int | None = None, compute: Compute | None = None) -> pd.DataFrame:
    """The cube decisions of a game record (``GameRecord`` with ``rules.cube``), judged by
    ``cube_decision`` (with ``match``: at the match score).

    ``cube_probabilities``, ``tables``, ``method``, ``plies``, ``n_games``, ``seed``,
    ``workers``, ``client``, ``progress`` and ``compute`` are ``cube_decision``'s: with
    ``method="rollout"`` (or ``Rollout(settings)``, which holds ``n_games``) every
    decision is judged by cube-aware rollouts of ``n_games`` games (the same ``seed`` for
    each: common random numbers; Ctrl-C in one of them raises ``KeyboardInterrupt`` there);
    under another method no games are played and the last six have no effect (a
    ``UserWarning`` names those given).

    ``match``: the ``MatchState`` at the start of the game (scores by colour; its
    ``on_roll`` and ``cube`` are not read): every decision is then judged at that score
    by ``cube_decision(position, cube_state, match=state)``, ``state`` being the score
    with the side on roll and the cube before that turn (Zadeh's model through the match
    equity table; ``method`` other than ``"auto"``, ``tables`` and the rollout arguments
    have no effect, a ``UserWarning`` names those given).  In the Crawford game there is
    no cube and so no row; a side that needs no more points than the stake (a dead cube)
    has no decision.

    One row per turn where the side on roll could raise (the cube in the middle or its
    own, below the cap, not its first turn) or raised.  Losses in money play are in
    points (per unit stake times the stake): ``double_loss``: what the side on roll lost
    by its choice (``max(no double, the opponent's best answer)`` minus what its choice is
    worth against that best answer), ``take_loss``: what the opponent lost by its answer
    (its answer's value to the raiser minus the best answer's).  At a match score the
    decision values are match winning chances; ``double_mwc_loss`` and ``take_mwc_loss``
    are those losses in match winning chance, and ``double_loss`` and ``take_loss`` the
    same in EMG (GNU Backgammon's money equivalent: the loser's MWC lost times
    ``met.emg_scale`` at the game's score, the unit of the move columns' ``emg_loss``).

    Returns
    -------
    pandas.DataFrame
        ``turn`` (1-based, as ``game_report``), ``side``, ``player``, ``stake``, ``owner``,
        ``played`` (``"no double"``, ``"double, take"``, ``"double, pass"``,
        ``"double, beaver"``), ``proper`` (``cube_decision``'s ``action``), the decision
        equities (at a match: match winning chances), ``method``, ``double_loss``,
        ``take_loss``, ``close`` (the raise would cost less than ``CLOSE`` points, EMG at
        a match, against the best action: GNU Backgammon's test of a close cube
        decision; False where no raise is possible) and, with ``match``,
        ``double_mwc_loss`` and ``take_mwc_loss``.

    Examples
    --------
    >>> import numpy as np
    >>> import nardy_fast as nf
    >>> me = np.zeros(24, int); me[18] = 1; me[22] = 1
    >>> you = np.zeros(24, int); you[20] = 2
    >>> rules = nf.Rules(cube="geometric")
    >>> rec = nf.random_game(seed=1, rules=rules, start=nf.Position(me, you))
    >>> ca = nf.cube_analysis(rec)
    >>> ca[["turn", "side", "played", "proper", "double_loss", "take_loss"]].round(3)
       turn   side     played           proper  double_loss  take_loss
    0     1  white  no double     double, pass         0.39        0.0
    1     2  black  no double  no double, take         0.00        0.0
    """
    import pandas as pd          # lazy: pandas is slow to import; import nardy_fast skips it
    if not isinstance(method, METHOD_OBJECTS):
        method = check_method(method, CUBE_METHODS)
    roll = _roll(n_games, root_entropy(seed), workers, client, progress, compute)
    if match is not None:                   # said once here: the table decides
        warn_unused("in cube_analysis with match= (the match equity table decides)",
                    {"method": "auto", "tables": None, "n_games": DEFAULT_GAMES,
                     "seed": None, "workers": None, "client": None, "progress": False,
                     "compute": None},
                    method=method, tables=tables, n_games=n_games, seed=seed,
                    workers=workers, client=client, progress=progress, compute=compute)
        roll = {}
    elif _name(method) != "rollout":        # said once here, not per decision
        warn_unused(f"in cube_analysis with method={method!r} (only method='rollout' "
                    "plays games)", {"n_games": DEFAULT_GAMES, "seed": None, "workers": None,
                                     "client": None, "progress": False, "compute": None},
                    n_games=n_games, seed=seed, workers=workers, client=client,
                    progress=progress, compute=compute)
        roll = {}

    record = as_record(record)
    rules = as_rules(record.rules)
    if rules.cube is None:
        raise ValueError("cube_analysis: the record's rules have no cube")
    if match is not None:
        _check_game_match(match, rules, record)
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
        first = pos.is_first_turn()
        nxt = next_stake(rules.cube, before.stake)
        may = (before.owner != "opponent" and not first
               and not (rules.cube == "arithmetic" and nxt > MAX_STAKE))
        state = None
        if match is not None:
            if match.crawford:                # no cube in the Crawford game
                continue
            state = MatchState(match.rules, match.score, pos.side, False,
                               CubeState(before.stake, before.owner))
            may = may and before.stake < state.away()[0]    # else a dead cube
        if not may and not acts:
            continue
        if state is None:
            d = cube_decision(pos, CubeState(before.stake, before.owner), rules=rules,
                              cube_probabilities=cube_probabilities, tables=tables,
                              method=method, plies=plies, **roll)
        else:
            d = cube_decision(pos, CubeState(before.stake, before.owner),
                              cube_probabilities=cube_probabilities, match=state,
                              plies=plies)
        if acts and state is not None and math.isnan(d["double_pass"]):
            # a raise the match gave the doubler no use for, made all the same: its
            # answer is still a decision (a pass gives the match away), so value both
            dt, dp = made_raise_values(d["p_win"], state, d["x"])
            d = {**d, "double_take": dt, "double_pass": dp}
            d["double_action"], d["take_action"], d["action"] = actions(d)
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
        gap = best - best_answer         # what the raise would cost: "close" below CLOSE
        row = {"turn": k + 1, "side": pos.side,
               "player": record.white if pos.side == "white" else record.black,
               "stake": before.stake, "owner": before.owner, "played": played,
               "proper": d["action"], "no_double": d["no_double"],
               "double_take": d["double_take"], "double_pass": d["double_pass"],
               "double_beaver": d["double_beaver"], "method": d["method"]}
        if state is None:
            row.update(double_loss=_at_least_0(dl) * before.stake,
                       take_loss=_at_least_0(tl) * before.stake,
                       close=bool(gap * before.stake < CLOSE))
        else:                                  # MWC, and EMG at the game's score
            dm, tm = _at_least_0(dl), _at_least_0(tl)
            start = _start_state(match, pos.side)
            row.update(close=bool(gap * emg_scale(start) < CLOSE),
                       double_loss=dm * emg_scale(start),
                       take_loss=tm * emg_scale(start.flipped()),
                       double_mwc_loss=dm, take_mwc_loss=tm)
        rows.append(row)
    cols = ["turn", "side", "player", "stake", "owner", "played", "proper", "no_double",
            "double_take", "double_pass", "double_beaver", "method", "double_loss",
            "take_loss", "close"]
    numeric = ["stake", "no_double", "double_take", "double_pass", "double_beaver",
               "double_loss", "take_loss"]
    if match is not None:
        cols += ["double_mwc_loss", "take_mwc_loss"]
        numeric += ["double_mwc_loss", "take_mwc_loss"]
    frame = pd.DataFrame(rows, columns=cols)            # numbers even without a row
    return frame.astype({c: int if c == "stake" else float for c in numeric}
                        | {"close": bool})


def _name(method):
    """The method's name, of a name or a method object (``Rollout(...)``: ``"rollout"``)."""
    return method.name if isinstance(method, METHOD_OBJECTS) else method


def _roll(n_games, seed, workers, client, progress, compute):
    """The rollout keywords a cube decision is passed on with.  With ``compute`` the flat
    ones go on only when set (``progress`` here defaults to False, ``cube_decision``'s
    to None), so that ``cube_decision`` refuses a field given both ways and nothing else."""
    roll = dict(n_games=n_games, seed=seed, workers=workers, client=client,
                progress=progress)
    if compute is not None:
        roll.update(compute=compute, progress=None if progress is False else progress)
    return roll


def _at_least_0(loss):
    """A loss (a difference of values, rounding may make it a hair below 0) at least 0;
    NaN stays NaN: a value the model could not give is not a loss of 0."""
    return loss if math.isnan(loss) else max(0.0, loss)


def _start_state(match, side):
    """The game's starting score ``match`` with ``side`` on roll and the cube at 1 in the
    middle: the state whose ``emg_scale`` turns the game's MWC into EMG (as the move
    columns do)."""
    return MatchState(match.rules, match.score, side, match.crawford)


def _check_game_match(match, rules, record):
    """``match`` is a ``MatchState`` of a match with the record's cube rules."""
    if not isinstance(match, MatchState):
        raise TypeError(f"match: expected a MatchState, got {type(match).__name__}")
    if match.rules.rules != rules:
        raise ValueError(f"match: the match's rules ({match.rules.rules.to_text()}) are "
                         f"not the record's ({rules.to_text()})")
    if match.crawford and record.cube:
        raise ValueError(f"match: the Crawford game is played without the cube, but the "
                         f"record has a cube action at turn {record.cube[0].before + 1}")


def cube_error_rates(analysis: pd.DataFrame) -> pd.DataFrame:
    """Per side of a ``cube_analysis``: ``double_decisions`` (turns it could raise),
    ``take_decisions`` (raises it answered), ``errors`` (a loss above 0.001 points),
    ``equity_lost`` (points), ``missed_doubles``, ``wrong_doubles``, ``wrong_takes``,
    ``wrong_passes`` and ``error_rate`` (points lost per decision x 1000).

    Returns
    -------
    pandas.DataFrame
        Indexed by ``side`` (``white``, ``black``); the columns above.

    Examples
    --------
    >>> import numpy as np
    >>> import nardy_fast as nf
    >>> me = np.zeros(24, int); me[18] = 1; me[22] = 1
    >>> you = np.zeros(24, int); you[20] = 2
    >>> rules = nf.Rules(cube="geometric")
    >>> rec = nf.random_game(seed=1, rules=rules, start=nf.Position(me, you))
    >>> ca = nf.cube_analysis(rec)
    >>> ca[["turn", "side", "played", "proper", "double_loss", "take_loss"]].round(3)
       turn   side     played           proper  double_loss  take_loss
    0     1  white  no double     double, pass         0.39        0.0
    1     2  black  no double  no double, take         0.00        0.0
    >>> rates = nf.cube_error_rates(ca)
    >>> rates[["double_decisions", "errors", "missed_doubles", "equity_lost"]].round(3)
           double_decisions  errors  missed_doubles  equity_lost
    side
    white                 1       1               1         0.39
    black                 1       0               0         0.00
    """
    require_columns(analysis, ("side", "played", "double_loss", "take_loss"),
                    "cube_error_rates", "cube_analysis")
    import pandas as pd          # lazy: pandas is slow to import; import nardy_fast skips it
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
