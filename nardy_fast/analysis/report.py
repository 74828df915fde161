"""Tidy pandas reports of positions, decisions and games, and their export.

Every report is a ``pandas.DataFrame`` with one row per observation (a position, a legal
move, a turn).  Inputs: a ``Position``, a position ID, a list of either, or a
``pandas.Series`` of IDs (its index is kept).  "Mover" is the side on roll in that row's
position; probabilities are per game for the mover before it rolls (rule book section 7).

Columns
-------
=====================  ======  ===========================================================
column                 unit    meaning
=====================  ======  ===========================================================
id                     --      position ID (``Position.id``)
side                   --      colour on roll, ``"white"`` or ``"black"``
pips_mover/_opponent   pips    pip count: sum over checkers on the board of 25 - point
pip_diff               pips    ``pips_mover - pips_opponent`` (negative: the mover leads)
head_*                 chk     checkers on the side's point 1 (its head)
home_*                 chk     checkers in the side's home (points 19-24)
off_*                  chk     checkers borne off
points_*               points  points the side holds (one checker holds a point)
block_*                points  longest run of consecutive points held, along the other
                               side's path (what blocks it; 6 is a full block)
epc_*                  pips    effective pip count: mean turns to bear off (one-sided
                               bear-off database) x 49/6; NaN unless all the side's
                               checkers on the board are in its home
phase                  --      ``"over"``, ``"bearoff"`` (both sides all home), ``"race"``
                               (no contact left) or ``"contact"``
method                 --      ``"two_sided"``/``"one_sided"``/``"mars"`` (bear-off
                               database), ``"net 0-ply"``/``"net 1-ply"``/``"net 2-ply"``
                               (the evaluator, ``Evaluator.default()``), ``"rollout"``
                               (its policy in ``extra``), or ``"final"`` (the game is over)
p_win, p_lose          prob.   winning / losing the game, any way
p_mars_win/_loss       prob.   winning / losing by mars (koks and home mars included)
p_koks_*, p_home_mars_*  prob. the mars refinements (``scoring="extended"`` only)
p_draw                 prob.   a draw (``draw_rule=True`` only)
equity                 points  expected points for the mover under the rules' scoring
se_*                   --      standard error of that estimate, one per probability shown
                               and the equity (0 for exact methods)
ci95_*_low/_high       --      normal 95% confidence bounds of ``p_win`` and ``equity``
games                  games   games rolled out (0 for exact methods)
move                   --      the steps of a move, ``"1/7 7/11"`` (mover's numbering)
id_after               --      position ID after the move (the opponent on roll)
rank                   --      1 = the best move by equity
equity_loss            points  equity of the best move minus this move's (>= 0)
se_equity_loss         points  its standard error: 0 for exact methods, NaN for the net;
                               for rollouts the paired one, from the games' differences
                               (the moves' games throw the same dice game by game)
mark                   --      ``""``, ``"doubtful"`` (equity_loss >= 0.04), ``"error"``
                               (>= 0.08) or ``"blunder"`` (>= 0.16): ``MARKS``
turn                   --      1-based turn (one side's move) of a game record
player                 --      the player's name in a game record
dice                   --      the roll, ``"64"``
mwc, se_mwc            prob.   the mover's match winning chance at ``match=`` and its SE
emg                    points  its money equivalent (GNU Backgammon's EMG)
mwc_loss, emg_loss     --      match winning chance lost against the best move, and in EMG
rank_played            --      the played move's rank in ``game_report(analyse=True)``
candidates             --      the best moves of that turn's ranking and the played one, JSON
                               text of dicts with the fields ``CANDIDATES``
luck                   points  one roll's luck (the mover's view)
luck_white_total       points  White's net luck so far (also ``luck_white``, its older name)
=====================  ======  ===========================================================

``*`` is ``mover`` or ``opponent``.  ``nardy_fast.analysis.export.save(frame, path)``
(``nf.save_frame``) writes CSV, Parquet (pyarrow) or HTML by the file suffix, atomically.

Ctrl-C during a report's rollouts raises ``KeyboardInterrupt`` at once
(``engine.play.rollout.stop_if_interrupted``): one ``rollout`` returns the games it
finished, but no report row rests on a cut rollout, and no later rollout is started.
"""
from __future__ import annotations

import dataclasses
import datetime
import json
import math
import os

import numpy as np

from nardy_fast.analysis.cubereport import cube_analysis
from nardy_fast.engine.decisions.cube import CUBE_PLIES
from nardy_fast.analysis.study import _net_digest
from nardy_fast.core._checks import check_count, check_dice
from nardy_fast._utils._frames import require_columns
from nardy_fast._utils._progress import progress_bar, show_progress
from nardy_fast._utils._version import __version__
from nardy_fast.core.position import (BLACK, PIPS_PER_ROLL, WHITE, Position, as_position,
                                      position_list)
from nardy_fast.core.rng import root_entropy
from nardy_fast.core.methods import check_method, method_label, warn_unused
from nardy_fast.core.position import apply_steps
from nardy_fast.core.cubestate import CubeState
from nardy_fast.core.record import GameRecord, as_record
from nardy_fast.core.result import Outcome
from nardy_fast.core.rules import as_rules, check_flag
from nardy_fast.tables.bearoff import one_sided
from nardy_fast.engine.play.luck import game_luck
from nardy_fast.engine.evaluation.met import emg_scale, match_extra
from nardy_fast.engine.play.rollout import rollout, stop_if_interrupted
from nardy_fast.engine.play.settings import resolve_settings
from nardy_fast.engine.decisions.methods import (METHOD_OBJECTS, Rollout, method_or_flat,
                                                refuse_flat)
from nardy_fast._utils.compute import Compute, resolve_compute
from nardy_fast.engine.decisions.valuation import (DEFAULT_GAMES, METHODS,
                                          ROLLOUT_DEFAULTS as _ROLLOUT_DEFAULTS,
                                          _value_positions, warn_plies_unused,
                                          warn_rollout_unused)

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from nardy_fast.core.rules import RulesLike
    from nardy_fast.core.rng import SeedLike
    from nardy_fast.engine.play.policy import PolicyLike
    import pandas as pd
    from dask.distributed import Client

    from nardy_fast.core.matchrules import MatchState
    from nardy_fast.engine.decisions.methods import Method

__all__ = ["as_positions", "pip_report", "win_report", "move_report", "game_report",
           "error_rates", "convergence_report", "race_sample", "race_report", "evaluate",
           "with_cube_columns", "analysis_settings", "CANDIDATES",
           "evaluate_many", "mark", "MARKS", "METHODS"]

EPC_FACTOR = PIPS_PER_ROLL       # pips per turn: the mean roll (8 1/6 pips with doubles)
# Marks of a move by the equity it loses against the best (points; GNU Backgammon's
# thresholds for doubtful, bad and very bad moves): the highest threshold reached.
MARKS = (("doubtful", 0.04), ("error", 0.08), ("blunder", 0.16))

_PROB = ["p_win", "p_mars_win", "p_lose", "p_mars_loss"]
_EXT = ["p_koks_win", "p_koks_loss", "p_home_mars_win", "p_home_mars_loss"]
_SE = ["se_p_win", "se_p_mars_win", "se_p_mars_loss", "se_equity"]
_CI = ["ci95_p_win_low", "ci95_p_win_high", "ci95_equity_low", "ci95_equity_high"]


# -- inputs ------------------------------------------------------------------------------
def as_positions(positions: Position | str | Iterable[Position | str] | pd.Series | pd.DataFrame
                 ) -> tuple[list[Position], pd.Index | None]:
    """``(list of Position, index or None)`` from a Position, an ID, any iterable of them
    (``core.position.position_list``), a Series (its index kept) or a DataFrame with an
    ``id`` column (that column, its index kept) or keyed by position ID (an index named
    ``"position"``, as ``evaluate_many``, ``rollout_many`` and ``read_study`` give).

    Raises ``TypeError`` for other types and ``ValueError`` naming the bad item.
    """
    import pandas as pd          # lazy: pandas is slow to import; import nardy_fast skips it

    if isinstance(positions, pd.DataFrame):
        if "id" in positions.columns:
            positions = positions["id"]
        elif positions.index.name == "position":
            positions = positions.index.to_series()
        else:
            raise ValueError("positions: a DataFrame needs an 'id' column of position IDs "
                             "or an index named 'position' (a frame keyed by position ID)")
    index = positions.index if isinstance(positions, pd.Series) else None
    return position_list(positions), index


def _seeded(frame, seed):
    """``frame`` with the seed its random numbers came from in ``frame.attrs["seed"]``."""
    frame.attrs["seed"] = seed
    return frame


def _frame(rows, index=None, columns=None):
    import pandas as pd          # lazy: pandas is slow to import; import nardy_fast skips it

    df = pd.DataFrame(rows, columns=columns)
    if index is not None:
        df.index = index
    return df


# -- pip report --------------------------------------------------------------------------
# the pip report's columns, in order (the module table)
PIP_COLUMNS = ("id", "side", "pips_mover", "pips_opponent", "pip_diff", "head_mover",
               "head_opponent", "home_mover", "home_opponent", "off_mover", "off_opponent",
               "points_mover", "points_opponent", "block_mover", "block_opponent",
               "epc_mover", "epc_opponent", "phase")


def _longest_block(board, other_path=True):
    """Longest run of held points; along the other side's path (mover idx 12..23, 0..11)."""
    held = np.asarray(board) > 0
    if other_path:
        held = np.roll(held, -12)
    best = run = 0
    for h in held:
        run = run + 1 if h else 0
        best = max(best, run)
    return best


def _epc_many(boards, db):
    """EPC (pips) of each side board, NaN where a checker is outside the home."""
    boards = np.asarray(boards, dtype=np.uint8).reshape(-1, 24)
    out = np.full(len(boards), np.nan)
    ok = ~boards[:, :18].any(axis=1)
    if db is None or not ok.any():
        return out
    b6 = np.ascontiguousarray(boards[ok][:, 23:17:-1])
    out[ok] = np.asarray(db.mean_turns_many(b6), dtype=float) * EPC_FACTOR
    return out


def pip_report(positions: Position | str | Iterable[Position | str] | pd.Series, epc: bool = True) -> pd.DataFrame:
    """Race statistics of each position: pips, head, home, off, points, blocks, EPC, phase.

    Parameters
    ----------
    positions : Position, str, an iterable of them or pandas.Series
        Positions or IDs (a Series keeps its index).
    epc : bool
        Fill ``epc_mover``/``epc_opponent`` from the one-sided bear-off database (built on
        first use; NaN where a side is not all home).

    Returns
    -------
    pandas.DataFrame
        One row per position; columns ``id, side, pips_mover, pips_opponent, pip_diff,
        head_*, home_*, off_*, points_*, block_*, epc_*, phase`` (see the module table).

    Examples
    --------
    >>> row = pip_report(Position.initial()).iloc[0]
    >>> int(row.pips_mover), int(row.pip_diff), int(row.head_mover), row.phase
    (360, 0, 15, 'contact')
    """
    pos_list, index = as_positions(positions)
    rows = []
    for p in pos_list:
        pm, po = p.pips
        om, oo = p.off
        row = {"id": p.id, "side": p.side, "pips_mover": pm, "pips_opponent": po,
               "pip_diff": pm - po}
        row["head_mover"], row["head_opponent"] = int(p.mover[0]), int(p.opponent[0])
        row["home_mover"] = int(p.mover[18:].sum())
        row["home_opponent"] = int(p.opponent[18:].sum())
        row["off_mover"], row["off_opponent"] = om, oo
        for name, b in (("mover", p.mover), ("opponent", p.opponent)):
            row[f"points_{name}"] = int((b > 0).sum())
        for name, b in (("mover", p.mover), ("opponent", p.opponent)):
            row[f"block_{name}"] = _longest_block(b)
        rows.append(row)
    if not pos_list:                  # no rows: the columns all the same
        return _frame(rows, index, columns=list(PIP_COLUMNS))
    df = _frame(rows, index)
    db = one_sided() if epc else None
    boards = np.stack([p.boards for p in pos_list])
    df["epc_mover"] = _epc_many(boards[:, 0], db)
    df["epc_opponent"] = _epc_many(boards[:, 1], db)
    df["phase"] = [p.phase for p in pos_list]
    return df


# -- evaluation --------------------------------------------------------------------------
def _draw_outcome():
    return Outcome(0.0, 0.0, 0.0, 0.0, 0.0, "final", p_draw=1.0)


@method_or_flat("n_games", "policy", "truncate", "plies")
def evaluate(position: Position | str, method: str | Method = "auto", *,
             n_games: int = DEFAULT_GAMES,
             seed: SeedLike = None,
             rules: RulesLike = None, policy: PolicyLike = "net",
             truncate: str | None = "bearoff", workers: int | None = None,
             client: Client | None = None,
             progress: bool | None = None, plies: int = 0,
             compute: Compute | None = None) -> Outcome:
    """The ``Outcome`` of one position for the side on roll.

    ``method``: ``"auto"`` (the bear-off databases when both sides are all home: exact where
    the two-sided table covers the race, else the one-sided approximation; elsewhere the
    evaluator at ``plies``), ``"exact"`` (the databases only; ``ValueError`` otherwise),
    ``"two_sided"`` or ``"one_sided"`` (that table, as ``race_probabilities`` forces it),
    ``"net"`` (the evaluator, ``Evaluator.default()``, whose races of both homes come from
    the databases too) or ``"rollout"`` (games played by ``policy``, default the
    evaluator's 0-ply moves).  A finished game gives method ``"final"``.  The rollout
    arguments go to ``nardy_fast.engine.play.rollout``.  ``method`` may be a method object
    (``nardy_fast.Auto``, ``Exact``, ``Net``, ``Rollout``: it holds its own settings) and
    ``compute`` a ``nardy_fast.Compute``; every argument after ``method`` is
    keyword-only.
    """
    return _outcomes("evaluate", [position], method, n_games=n_games, seed=seed,
                     rules=rules, policy=policy, truncate=truncate, workers=workers,
                     client=client, progress=progress, plies=plies, compute=compute)[0]


@method_or_flat("n_games", "policy", "truncate", "plies")
def evaluate_many(positions: Iterable[Position | str], method: str | Method = "auto", *,
                  n_games: int = DEFAULT_GAMES,
                  seed: SeedLike = None,
                  rules: RulesLike = None, policy: PolicyLike = "net",
                  truncate: str | None = "bearoff", workers: int | None = None,
                  client: Client | None = None,
                  progress: bool | None = None, plies: int = 0,
                  compute: Compute | None = None) -> list[Outcome]:
    """``evaluate`` for a list of Positions: a list of Outcome, in order
    (``engine.valuation.value_positions``, where the ``method`` dispatch lives).  The
    evaluator takes them as one batch, the rollouts share one run (the same seed for each
    position: common random numbers, as ``rollout_many`` says).  Rollout arguments changed from their defaults
    under another method, and ``plies`` under ``"rollout"`` or a database's method (they
    would change nothing), give a ``UserWarning`` naming them."""
    return _outcomes("evaluate_many", positions, method, n_games=n_games, seed=seed,
                     rules=rules, policy=policy, truncate=truncate, workers=workers,
                     client=client, progress=progress, plies=plies, compute=compute)


def _outcomes(func, positions, method, *, n_games=DEFAULT_GAMES, seed=None, rules=None,
              policy="net", truncate="bearoff", workers=None, client=None, progress=None,
              plies=0, compute=None, keep_games=False):
    """``engine.decisions.valuation.value_positions`` (``keep_games``: its ``_paired``
    twin, a ``PairedValues``) called by the public function ``func``, which its messages
    name: a bad flat keyword is the argument the caller wrote (``win_report: plies=4``),
    not one of the helper's or of the method object it builds."""
    valued = _value_positions(func, positions, method, n_games, seed, rules, policy,
                              truncate, workers, client, progress, plies, compute,
                              keep_games=keep_games)
    return valued if keep_games else valued.outcomes


def _outcome_columns(rules):
    cols = list(_PROB)
    if rules.scoring == "extended":
        cols += _EXT
    if rules.draw_rule:
        cols.append("p_draw")
    more = ["se_" + c for c in cols if "se_" + c not in _SE]     # every probability's SE
    return cols + ["equity"] + _SE + more + _CI + ["games"]


def _outcome_row(o, rules):
    d = o.to_dict()
    return {k: d.get(k, math.nan) for k in _outcome_columns(rules)}


@method_or_flat("n_games", "policy", "truncate", "plies")
def win_report(positions: Position | str | Iterable[Position | str] | pd.Series,
               method: str | Method = "auto", *,
               n_games: int = DEFAULT_GAMES,
               seed: SeedLike = None,
               rules: RulesLike = None, policy: PolicyLike = "net",
               truncate: str | None = "bearoff", workers: int | None = None,
               client: Client | None = None,
               progress: bool | None = None, plies: int = 0,
               match: MatchState | None = None,
               compute: Compute | None = None) -> pd.DataFrame:
    """Win, mars and equity of each position for the side on roll.

    ``method`` may be a method object (``nardy_fast.Auto``, ``Exact``, ``Net``,
    ``Rollout``), which holds its own settings (``n_games``, ``policy``, ``truncate`` and
    ``plies`` beside it: ``TypeError``).  Every argument after ``method`` is keyword-only.

    Parameters
    ----------
    positions : Position, str, an iterable of them or pandas.Series
    method : {"auto", "exact", "two_sided", "one_sided", "net", "rollout"}
        ``"auto"``: the bear-off databases when both sides are all home (exact where the
        two-sided table covers the race, else the one-sided approximation, as the row's
        ``method`` says), else the evaluator at ``plies``; ``"exact"`` (or a table's name)
        raises ``ValueError`` for a position outside the database; ``"net"``: the
        evaluator; ``"rollout"``: games played by ``policy`` (see ``evaluate``).
    n_games, seed, policy, truncate, workers, client, progress
        Passed to ``nardy_fast.rollout_many`` (the same seed for every row).
    plies : {0, 1, 2, 3}
        Look-ahead of the evaluator.
    rules : Rules, dict or None
    match : MatchState or None
        The match score (by colour; ``nardy_fast.core.matchrules``): adds ``mwc``, ``se_mwc``
        (the side on roll's match winning chance and its SE, ``met.match_extra``)
        and ``emg`` (its money equivalent).
    compute : Compute or None
        ``workers``, ``client`` and ``progress`` as one object (``nardy_fast.Compute``).

    Returns
    -------
    pandas.DataFrame
        ``id, side, method, p_win, p_mars_win, p_lose, p_mars_loss`` (+ koks/home mars
        with extended scoring, ``p_draw`` with the draw rule), ``equity, se_*, ci95_*,
        games`` (see the module table), and the match columns.

    Examples
    --------
    >>> import nardy_fast as nf
    >>> races = nf.race_sample(3, seed=1)
    >>> nf.win_report(races)[["p_win", "p_mars_win", "equity", "method"]].round(4)
        p_win  p_mars_win  equity     method
    0  0.1385         0.0 -0.7230  two_sided
    1  0.9500         0.0  0.8999  one_sided
    2  0.9489         0.0  0.8978  two_sided
    """
    return _win_frame("win_report", positions, method, n_games=n_games, seed=seed,
                      rules=rules, policy=policy, truncate=truncate, workers=workers,
                      client=client, progress=progress, plies=plies, match=match,
                      compute=compute)


def _win_frame(func, positions, method, *, match=None, **kw):
    """``win_report``'s frame, called by the public function ``func`` (its messages name
    it); ``kw``: the flat keywords of ``_outcomes``."""
    seed = root_entropy(kw.pop("seed", None))
    rules = as_rules(kw.pop("rules", None))
    pos_list, index = as_positions(positions)
    outs = _outcomes(func, pos_list, method, seed=seed, rules=rules, **kw)
    stop_if_interrupted(outs, func)
    rows = [{"id": p.id, "side": p.side, "method": o.method, **_outcome_row(o, rules),
             **_match_row(o, p.side, match)} for p, o in zip(pos_list, outs)]
    extra = [] if match is None else ["mwc", "se_mwc", "emg"]
    return _seeded(_frame(rows, index, ["id", "side", "method"] + _outcome_columns(rules)
                          + extra), seed)


def _state_for(side, match):
    """The match state with ``side`` on roll (``match`` gives the scores by colour)."""
    return match if side == match.on_roll else match.flipped()


def _turn_states(record, match):
    """The ``MatchState`` of each position of ``record`` (turns, then the final one):
    ``match`` (the score at the start of the game, by colour) with the position's side on
    roll and the cube its dice are thrown with (``GameRecord.cube_states``): a game whose
    raise was taken is played for the cube's stake."""
    cubes = record.cube_states() if record.cube else []
    states = []
    for k, pos in enumerate(record.positions()):
        state = _state_for(pos.side, match)
        if k < len(cubes) and (cubes[k].stake, cubes[k].owner) != (1, "centre"):
            state = dataclasses.replace(state, cube=CubeState(cubes[k].stake, cubes[k].owner))
        states.append(state)
    return states


def _match_row(o, side, match):
    """The match columns ``mwc``, ``se_mwc``, ``emg`` of an Outcome of ``side`` on roll at
    the score ``match`` (``met.match_extra``); none without a match."""
    return {} if match is None else match_extra(o, _state_for(side, match))


def _add_losses(frame, side, match):
    """Add ``mwc_loss``, ``emg_loss`` to a ``move_report`` frame (best first) of
    ``side``'s moves; returns the match columns to show."""
    frame["mwc_loss"] = frame["mwc"].iloc[0] - frame["mwc"]
    frame["emg_loss"] = frame["mwc_loss"] * emg_scale(_state_for(side, match))
    return ["mwc", "se_mwc", "mwc_loss", "emg_loss"]


def _turn_losses(frame, after_id):
    """The played move's losses from a match ``move_report``: ``mwc_loss``, ``emg_loss``,
    and ``equity_loss`` and ``mark`` in EMG (error rates then count EMG)."""
    row = frame.loc[frame["id_after"] == after_id]
    m = float(row["mwc_loss"].iloc[0]) if len(row) else float("nan")
    e = float(row["emg_loss"].iloc[0]) if len(row) else float("nan")
    return {"mwc_loss": m, "emg_loss": e, "equity_loss": e, "mark": mark(e)}


# -- move report -------------------------------------------------------------------------
@method_or_flat("n_games", "policy", "truncate", "plies")
def move_report(position: Position | str, dice: tuple[int, int], *,
                n_games: int = DEFAULT_GAMES,
                seed: SeedLike = None, method: str | Method = "auto",
                rules: RulesLike = None,
                policy: PolicyLike = "net",
                truncate: str | None = "bearoff", workers: int | None = None,
                client: Client | None = None, progress: bool | None = None, plies: int = 0,
                match: MatchState | None = None,
                compute: Compute | None = None) -> pd.DataFrame:
    """Every legal move of ``position`` for ``dice``, ranked by the mover's equity (with
    ``match``, a ``MatchState`` by colour: by the mover's match winning chance ``mwc``,
    with ``mwc_loss`` and its money equivalent ``emg_loss``).

    Each move is scored by the position after it, the opponent on roll: the mover's
    equity is minus the opponent's (``method`` as in ``evaluate``: exact database in a
    bear-off, else the evaluator at ``plies`` by default; with ``"rollout"`` the same
    seed for every move, so the moves' games throw the same dice game by game: common
    random numbers, ``rollout_many``).
    ``method`` may be a method object (``nardy_fast.Auto``, ``Exact``, ``Net``,
    ``Rollout``) and ``compute`` a ``nardy_fast.Compute``, as in ``win_report``; every
    argument after ``dice`` is keyword-only.

    Returns
    -------
    pandas.DataFrame
        One row per distinct legal result, best first: ``rank, move, id_after, method,
        equity, equity_loss, se_equity_loss, p_win, p_mars_win, p_lose, p_mars_loss, ...,
        se_*, ci95_*, games`` (mover's view; see the module table).  Under
        ``"rollout"``, ``se_equity_loss`` is the standard error of the difference from the
        per-game differences (``value_positions_paired``), about half the sum of the two
        moves' ``se_equity`` with the default variance reduction.

    Examples
    --------
    >>> mr = move_report(Position.initial(), (6, 5))   # one legal move
    >>> mr[["rank", "move", "equity_loss"]].to_dict("records")
    [{'rank': 1, 'move': '1/7 7/12', 'equity_loss': 0.0}]
    """
    seed = root_entropy(seed)
    rules = as_rules(rules)
    pos = as_position(position, "position")
    d1, d2 = check_dice(dice)
    moves = pos.legal_moves((d1, d2), rules)
    # a move leaving both sides off (Black's last turn, draw_rule) is a draw: no position
    draws = [not any(m.board) and not pos.opponent.any() for m in moves]
    afters = [None if d else pos.play(m) for m, d in zip(moves, draws)]
    valued = _outcomes(
        "move_report", [a for a in afters if a is not None], method, n_games=n_games,
        seed=seed, rules=rules, policy=policy, truncate=truncate, workers=workers,
        client=client, progress=progress, plies=plies, compute=compute, keep_games=True)
    outs = valued.outcomes
    stop_if_interrupted(outs, "move_report")
    rows, k = [], 0
    for m, after in zip(moves, afters):
        # the mover's view of the opponent's Outcome
        o = _draw_outcome() if after is None else outs[k].flipped()
        rows.append({"move": str(m) if m.steps else "pass",
                     "id_after": "" if after is None else after.id,
                     "method": o.method, **_outcome_row(o, rules),
                     **_match_row(o, pos.side, match), "_valued": -1 if after is None else k})
        k += after is not None
    cols = ["rank", "move", "id_after", "method", "equity", "equity_loss",
            "se_equity_loss"] + [c for c in _outcome_columns(rules) if c != "equity"]
    key = "equity" if match is None else "mwc"
    df = _frame(rows)
    df = df.sort_values(key, ascending=False, kind="mergesort").reset_index(drop=True)
    df["equity_loss"] = df["equity"].iloc[0] - df["equity"]
    df["se_equity_loss"] = _loss_se(valued, df["_valued"].to_numpy())
    if match is not None:
        cols += _add_losses(df, pos.side, match)
    df["rank"] = np.arange(1, len(df) + 1)
    return _seeded(df[cols], seed)


def _loss_se(valued, order):
    """The standard error of each move's ``equity_loss`` (``order``: each row's index in
    ``valued.outcomes``, best first, -1 for a draw, which is exact): the paired one where
    the moves were rolled out together (``PairedValues.se_difference``)."""
    best = int(order[0])
    out = np.empty(len(order))
    for r, i in enumerate(order):
        i = int(i)
        if i < 0 or best < 0:                      # a draw: exact, the other's own SE
            other = best if i < 0 else i
            out[r] = 0.0 if other < 0 else valued.outcomes[other].se_equity
        else:
            out[r] = valued.se_difference(best, i)
    return out


# -- game report -------------------------------------------------------------------------
@method_or_flat("n_games", "policy", "truncate", "plies")
def game_report(record: GameRecord | str | os.PathLike[str], *, win_prob: bool = True,
                analyse: bool = False, n_games: int = DEFAULT_GAMES,
                seed: SeedLike = None, method: str | Method = "auto",
                policy: PolicyLike = "net",
                truncate: str | None = "bearoff", workers: int | None = None,
                client: Client | None = None, progress: bool | None = None, plies: int = 0,
                cube: bool = False,
                cube_probabilities: Callable[[Position], float | Outcome | Mapping[str, float]] | str | None = None,
                match: MatchState | None = None, n_candidates: int = 5,
                compute: Compute | None = None) -> pd.DataFrame:
    """One row per turn of a game record, plus a last row for the final position.

    ``method`` may be a method object (``nardy_fast.Auto``, ``Exact``, ``Net``,
    ``Rollout``), which holds its own settings (``n_games``, ``policy``, ``truncate`` and
    ``plies`` beside it: ``TypeError``); ``attrs["settings"]`` records its name and
    settings.  Every argument after ``record`` is keyword-only.

    Parameters
    ----------
    record : GameRecord or str
        A record, or the path of a record file.
    win_prob : bool
        Evaluate each position before its turn (``p_win`` etc. for the mover,
        ``p_win_white`` for White).
    analyse : bool
        Also rank the legal moves of every turn (``move_report``, by default with the
        evaluator at ``plies``): ``n_moves``, ``best_move``, ``equity_played``,
        ``equity_best``, ``equity_loss`` (points, >= 0), ``se_equity_loss`` (its
        standard error: the paired one under ``"rollout"``, ``move_report``; NaN at a
        match score, where ``equity_loss`` is in EMG), ``mark`` (``MARKS``),
        ``rank_played`` (the played move's rank, 1 = the best; ties share the best rank
        when their equity is the same) and ``candidates`` (``CANDIDATES``: the best
        ``n_candidates`` moves of the ranking, and the played one, as JSON text; "" for a
        forced move).  With
        ``method="rollout"`` every legal move is rolled out (``n_games`` each) unless the
        database applies.  Adds each roll's luck (``nardy_fast.engine.play.luck``): ``luck`` (points,
        the mover's view), ``luck_white`` (White's luck minus Black's so far) and, on the
        last row, ``result_white`` (points White won; NaN if not over) and
        ``luck_adjusted_white`` (``result_white - luck_white``); ``luck_summary`` gives
        the totals per player.  ``luck_white_total`` is ``luck_white`` under a name
        that says it is a running total (``luck_white`` is kept).
    n_games, seed, method, policy, truncate, workers, client, plies
        How ``win_prob`` values each position and ``analyse`` ranks each turn's moves, as
        ``win_report`` and ``move_report`` take them.
    cube_probabilities : callable, "pips" or None
        ``cube``: the cubeless source of the cube model, as ``cube_decision`` takes it
        (None: the evaluator).
    progress : bool or None
        A progress bar: the rollouts' (``win_prob`` only) or one per analysed turn;
        True: a bar; False: none; None (default): a bar when standard error is a terminal
        (``core._progress``).
    cube : bool
        With a cube in the record's rules (the other columns are then cubeless: win
        probabilities and moves under the same rules without the cube, every kind of win
        scoring 1 as in the cube game, ``Rules.cubeless``): judge the cube
        actions (``cube.cube_analysis``; cubeless probabilities from
        ``cube_probabilities``, default the evaluator; without ``cube`` it has no effect,
        a ``UserWarning`` says so): columns ``cube_played``,
        ``cube_proper``, ``cube_loss`` (points the side on roll lost by its raise or no
        raise), ``take_loss`` (points the opponent lost by its answer) and
        ``cube_method`` (how the decision was valued, ``cube_decision``'s ``method``);
        ``cube.cube_error_rates`` sums them per side.  With ``match`` the cube is judged
        at the score (``cube_analysis(match=)``; none in the Crawford game): the two
        losses are then in EMG, with ``cube_mwc_loss`` and ``take_mwc_loss`` in match
        winning chance.
    match : MatchState or None
        The score at the start of the game (by colour): ``win_prob`` adds ``mwc`` (the
        mover's match winning chance), ``analyse`` ranks moves by it and adds
        ``mwc_loss`` and ``emg_loss`` (``error_rates`` then counts them too).  Each turn
        is valued at the cube its dice are thrown with (a raise taken: the new stake);
        ``emg_loss`` is on the scale of the game's start, as the cube's losses.
    n_candidates : int
        ``analyse``: how many of the best moves each turn's ``candidates`` keeps (>= 1).
    compute : Compute or None
        ``workers``, ``client`` and ``progress`` as one object (``nardy_fast.Compute``).

    Returns
    -------
    pandas.DataFrame
        ``turn, line, side, player, dice, move, id, pips_white, pips_black, pips_mover,
        pips_opponent, off_white, off_black, phase`` and, as asked, ``method, p_win,
        p_mars_win, p_lose, p_mars_loss`` (under extended scoring ``p_koks_win,
        p_koks_loss, p_home_mars_win, p_home_mars_loss``, under ``draw_rule``
        ``p_draw``, as ``win_report``), ``equity, se_equity, p_win_white``, the analysis
        and the cube columns.  The last row (``turn`` = number of turns + 1, ``move``
        empty) is the final position.  ``attrs["settings"]`` records how the analysis
        was made (``analysis_settings``).

    Examples
    --------
    >>> import nardy_fast as nf
    >>> rec = nf.random_game(seed=1, max_turns=6)
    >>> gr = nf.game_report(rec)
    >>> gr[["turn", "side", "dice", "move", "pips_white", "pips_black", "p_win_white"]].round(3)
       turn   side dice                  move  pips_white  pips_black  p_win_white
    0     1  white   34               1/4 4/8         360         360        0.591
    1     2  black   56              1/6 6/12         353         360        0.586
    2     3  white   11  8/9 9/10 10/11 11/12         353         349        0.554
    3     4  black   62             1/7 12/14         349         349        0.405
    4     5  white   63             1/7 12/15         349         341        0.410
    5     6  black   52             1/6 14/16         340         341        0.411
    6     7  white                                    340         334        0.444
    """
    n_candidates = check_count(n_candidates, "n_candidates", 1)
    seed = root_entropy(seed)
    obj = None
    if isinstance(method, METHOD_OBJECTS):      # the object goes on; its name and settings
        refuse_flat("game_report", method, n_games=(n_games, DEFAULT_GAMES),   # are recorded
                    policy=(policy, "net"), truncate=(truncate, "bearoff"), plies=(plies, 0))
        obj, method = method, method.name
    win_prob, analyse, cube = (check_flag(win_prob, "win_prob"),
                               check_flag(analyse, "analyse"), check_flag(cube, "cube"))
    record = as_record(record)
    rules = as_rules(record.rules)
    if rules.cube is not None:        # the win and move columns stay cubeless
        rules = rules.cubeless()
    positions = record.positions()
    if not cube:
        warn_unused("with cube=False (only the cube analysis uses it)",
                    {"cube_probabilities": None}, cube_probabilities=cube_probabilities)
    if not analyse:
        warn_unused("with analyse=False (only the moves' ranking keeps candidates)",
                    {"n_candidates": 5}, n_candidates=n_candidates)
    if check_method(method, METHODS) != "rollout":     # said once, here, not per turn
        given = dict(n_games=n_games, policy=policy, truncate=truncate, workers=workers,
                     client=client)                    # the cube analysis plays no games
        warn_rollout_unused(method, **given)
        n_games, policy, truncate, workers, client = (
            _ROLLOUT_DEFAULTS[k] for k in ("n_games", "policy", "truncate", "workers",
                                           "client"))
    elif plies:                                        # likewise once, here
        warn_plies_unused("rollout", plies)
        plies = 0
    compute = resolve_compute("game_report", compute, workers=workers, client=client,
                              progress=progress)
    progress = compute.progress
    if obj is None:
        kw = dict(n_games=n_games, policy=policy, truncate=truncate, plies=plies)
    else:
        kw = {}
        if isinstance(obj, Rollout):                # for the record (analysis_settings)
            n_games, policy, truncate = (obj.settings.n_games, obj.settings.policy,
                                         obj.settings.truncate)
        elif getattr(obj, "plies", None) is not None:
            plies = obj.plies
    kw.update(seed=seed, rules=rules, match=match, n_candidates=n_candidates,
              compute=dataclasses.replace(
                  compute, progress=show_progress(progress) and not analyse))
    method_arg = method if obj is None else obj
    outs = _outcomes("game_report", positions, method_arg,
                     **{k: v for k, v in kw.items() if k not in ("match", "n_candidates")}) \
        if win_prob else None
    stop_if_interrupted(outs or [], "game_report")      # each turn's: in move_report
    kw["compute"] = dataclasses.replace(compute, progress=False)
    rows = []
    lucks = _luck_columns(record) if analyse else None
    states = None if match is None else _turn_states(record, match)
    bar = progress_bar(total=len(record.turns), desc="analysing turns", unit="turn",
                       progress=show_progress(progress) and analyse)
    for k, pos in enumerate(positions):
        if k:
            bar.update(1)
        turn = record.turns[k] if k < len(record.turns) else None
        pm, po = pos.pips
        om, oo = pos.off
        white_first = pos.side == WHITE
        row = {"turn": k + 1, "line": _line_no(record, k), "side": pos.side,
               "player": record.white if pos.side == WHITE else record.black,
               "dice": f"{turn.dice[0]}{turn.dice[1]}" if turn else "",
               "move": (" ".join(f"{a}/{b}" for a, b in turn.steps) or "pass") if turn else "",
               "id": pos.id,
               "pips_white": pm if white_first else po, "pips_black": po if white_first else pm,
               "pips_mover": pm, "pips_opponent": po,
               "off_white": om if white_first else oo, "off_black": oo if white_first else om,
               "phase": pos.phase}
        if win_prob:
            o = outs[k]
            row.update({"method": o.method, "p_win": o.p_win, "p_mars_win": o.p_mars_win,
                        "p_lose": o.p_lose, "p_mars_loss": o.p_mars_loss})
            if rules.scoring == "extended":       # worth more than a mars: as win_report
                row.update({k: getattr(o, k) for k in _EXT})
            if rules.draw_rule:                   # P(win) + P(lose) is then below 1
                row["p_draw"] = o.p_draw
            row.update({"equity": o.equity, "se_equity": o.se_equity,
                        "p_win_white": o.p_win if white_first else o.p_lose})
            if match is not None:
                row["mwc"] = _match_row(o, pos.side, states[k])["mwc"]
        if analyse:
            turn_kw = kw if match is None else {**kw, "match": states[k], "start": match}
            row.update(_analyse_turn(pos, turn, method_arg, turn_kw))
            row.update(lucks[k])
        rows.append(row)
    bar.close()
    frame = _frame(rows)
    if cube:
        frame = with_cube_columns(frame, record, cube_probabilities, match=match)
    frame.attrs["settings"] = analysis_settings(
        method=method, plies=plies, rules=rules, n_games=n_games, policy=policy,
        truncate=truncate, seed=seed,
        cube=cube, cube_probabilities=cube_probabilities)
    return _seeded(frame, seed)


def analysis_settings(method: str = "auto", plies: int = 0, rules: RulesLike = None,
                      n_games: int = DEFAULT_GAMES, policy: PolicyLike = "net",
                      truncate: str | None = "bearoff", seed: SeedLike = None,
                      cube: bool = False,
                      cube_probabilities: object = None) -> dict[str, object]:
    """How an analysis was made, as plain values (``game_report``'s ``attrs["settings"]``,
    shown by the analysis page): ``method``, ``plies`` (the evaluator's look-ahead; None
    under rollouts), ``net`` (the SHA-256 digest of the shipped net file(s) that serve
    the rules), ``rollout`` (``n_games``, ``policy``, ``truncate``, ``seed`` under
    ``method="rollout"``, else None), ``cube`` (the cube model's cubeless source, or
    None without the cube analysis), ``version`` (the toolkit's) and ``date`` (UTC, ISO
    8601, to the second)."""
    rollout_ = check_method(method, METHODS) == "rollout"
    source = None
    if cube:
        source = (f"evaluator ({CUBE_PLIES} plies)" if cube_probabilities is None else
                  str(cube_probabilities) if isinstance(cube_probabilities, str)
                  else getattr(cube_probabilities, "__name__", "a function"))
    return {"method": method, "plies": None if rollout_ else int(plies),
            "net": _net_digest(as_rules(rules)),
            "rollout": {"n_games": int(n_games), "policy": str(policy),
                        "truncate": truncate, "seed": None if seed is None else str(seed)}
            if rollout_ else None,
            "cube": source, "version": __version__,
            "date": datetime.datetime.now(datetime.timezone.utc)
            .strftime("%Y-%m-%dT%H:%M:%SZ")}


def with_cube_columns(frame: pd.DataFrame, record: GameRecord,
                      cube_probabilities: Callable[[Position], float | Outcome | Mapping[str, float]] | str | None = None,
                      match: MatchState | None = None) -> pd.DataFrame:
    """``frame`` (a ``game_report`` of ``record``) joined on ``turn`` with the cube
    columns of ``game_report(..., cube=True)``: ``cube_played``, ``cube_proper``,
    ``cube_loss``, ``take_loss``, ``cube_close``, ``cube_method``
    (``cubereport.cube_analysis`` of the record: its ``close`` and ``method``, how the
    decision was valued: ``"exact"``, ``"janowski (net 2-ply)"``, ...; with
    ``match``, the score at the start of the game, judged at the score: the losses in
    EMG, and in match winning chance ``cube_mwc_loss``, ``take_mwc_loss``)."""
    ca = cube_analysis(record, cube_probabilities=cube_probabilities, match=match)
    src = ["played", "proper", "double_loss", "take_loss", "close", "method"]
    names = ["cube_played", "cube_proper", "cube_loss", "take_loss", "cube_close",
             "cube_method"]
    if match is not None:
        src += ["double_mwc_loss", "take_mwc_loss"]
        names += ["cube_mwc_loss", "take_mwc_loss"]
    ca = ca.set_index("turn")[src]
    ca.columns = names
    return frame.join(ca, on="turn")


def _luck_columns(record):
    """The luck columns of ``game_report`` per row (turns, then the final position)."""
    lucks = game_luck(record)
    total = lucks[-1]["luck_white"] if lucks else 0.0
    res = record.result()
    white = float("nan") if res is None else (
        0.0 if res["winner"] is None else res["points"] * (1 if res["winner"] == WHITE else -1))
    last = {"luck": float("nan"), "luck_white": total, "result_white": white,
            "luck_adjusted_white": white - total}
    rows = lucks + [last] * (len(record.positions()) - len(lucks))
    return [{**r, "luck_white_total": r["luck_white"]} for r in rows]


def _line_no(record, k):
    offset = 1 if record.start.side == BLACK else 0
    return (k + offset) // 2 + 1


# The fields of each move in ``game_report``'s ``candidates`` (the mover's view; those of
# the rules and the match only when they apply).
CANDIDATES = ("rank", "move", "played", "equity", "equity_loss", "se_equity_loss",
              "p_win", "p_mars_win",
              "p_koks_win", "p_lose", "p_mars_loss", "p_koks_loss", "mwc", "mwc_loss",
              "emg_loss", "method")


def _candidates(mr, after_id, n):
    """The JSON text of the best ``n`` rows of a ``move_report`` and the played one."""
    keep = [c for c in CANDIDATES if c in mr.columns or c == "played"]
    top = mr.head(n)
    played = mr["id_after"] == after_id
    if not played.head(n).any():
        top = mr[(mr.index < n) | played]
    out = []
    for i, r in top.iterrows():
        row = {}
        for c in keep:
            v = bool(played.iloc[i]) if c == "played" else r[c]
            row[c] = v if isinstance(v, (str, bool)) else (
                int(v) if c == "rank" else _json_number(float(v)))
        out.append(row)
    return json.dumps(out, separators=(",", ":"), allow_nan=False)


def _json_number(x):
    """``x`` rounded for the candidates' JSON, or None (JSON ``null``) where it is NaN: a
    standard error not measured.  ``NaN`` is not JSON, and strict readers refuse it.  A
    value that rounds to zero is 0.0, never -0.0 (a loss of -2e-16 from float rounding)."""
    return None if math.isnan(x) else round(x, 6) + 0.0


def _analyse_turn(pos, turn, method, kw):
    kw = dict(kw)
    n = kw.pop("n_candidates", 5)
    start = kw.pop("start", None)           # a match game's score at its start
    empty = {"n_moves": 0, "best_move": "", "equity_played": math.nan,
             "equity_best": math.nan, "equity_loss": math.nan,
             "se_equity_loss": math.nan, "mark": "",
             "rank_played": math.nan, "candidates": ""}
    if kw.get("match") is not None:                 # a match: losses in MWC and EMG
        empty.update(mwc_loss=math.nan, emg_loss=math.nan)
    if turn is None:
        return empty
    moves = pos.legal_moves(turn.dice, kw["rules"])
    played = _board_after(pos, turn)
    if len(moves) == 1:
        best = str(moves[0]) if moves[0].steps else "pass"
        out = {"n_moves": 1, "best_move": best, "equity_played": math.nan,
               "equity_best": math.nan, "equity_loss": 0.0, "se_equity_loss": 0.0,
               "mark": "", "rank_played": 1, "candidates": ""}
        if kw.get("match") is not None:
            out.update(mwc_loss=0.0, emg_loss=0.0)
        return out
    mr = move_report(pos, turn.dice, method=method, **kw)
    if start is not None:       # EMG on the scale of the game's start, as the cube's losses
        mr["emg_loss"] = mr["mwc_loss"] * emg_scale(_state_for(pos.side, start))
    after_id = "" if not (any(played) or pos.opponent.any()) else \
        Position(pos.opponent, played, BLACK if pos.side == WHITE else WHITE).id
    mine = mr.loc[mr["id_after"] == after_id, "equity"]
    eq_played = float(mine.iloc[0]) if len(mine) else math.nan
    eq_best = float(mr["equity"].iloc[0])
    best = mr["move"].iloc[0]
    if mr["id_after"].iloc[0] == after_id:          # the played move, in its own step order
        best = " ".join(f"{a}/{b}" for a, b in turn.steps) or "pass"
    key = "mwc" if "mwc" in mr.columns else "equity"
    at = mr.index[mr["id_after"] == after_id]
    rank = (int((mr[key] > mr.loc[at[0], key]).sum()) + 1) if len(at) else math.nan
    se_loss = mr.loc[at[0], "se_equity_loss"] if len(at) else math.nan
    out = {"n_moves": len(mr), "best_move": best, "equity_played": eq_played,
           "equity_best": eq_best, "equity_loss": eq_best - eq_played,
           "se_equity_loss": float(se_loss),
           "mark": mark(eq_best - eq_played), "rank_played": rank,
           "candidates": _candidates(mr, after_id, n)}
    if "mwc_loss" in mr.columns:                    # equity_loss in EMG: its SE unknown
        out.update(_turn_losses(mr, after_id), se_equity_loss=math.nan)
    return out


def mark(equity_loss: float) -> str:
    """The mark of a move losing ``equity_loss`` points (``MARKS``; "" below them all)."""
    out = ""
    for name, threshold in MARKS:
        if equity_loss >= threshold:
            out = name
    return out


def _board_after(pos, turn):
    return apply_steps(pos.mover, pos.opponent, turn.dice, turn.steps)


def error_rates(report: pd.DataFrame) -> pd.DataFrame:
    """Per side of an analysed ``game_report``: decisions, equity lost, error rate.

    Returns a DataFrame indexed by ``side`` with ``player, turns, decisions`` (turns with
    more than one legal move), ``errors`` (equity_loss > 0.001 points), ``equity_lost``
    (points; EMG at a match), ``error_rate`` (mean points lost per decision, x 1000:
    "millipoints"), at a match ``mwc_lost`` and ``mwc_error_rate`` (match winning
    chances lost, in total and per decision x 1000) and,
    when the report has marks, ``n_doubtful``, ``n_error``, ``n_blunder``: the moves of
    each mark (the highest threshold of ``MARKS`` the move reached).

    Returns
    -------
    pandas.DataFrame
        Indexed by ``side`` (``white``, ``black``); the columns above.

    Examples
    --------
    >>> import nardy_fast as nf
    >>> rec = nf.random_game(seed=1, max_turns=6)
    >>> gr = nf.game_report(rec, analyse=True, progress=False)
    >>> nf.error_rates(gr)[["decisions", "equity_lost", "error_rate", "n_blunder"]].round(3)
           decisions  equity_lost  error_rate  n_blunder
    side
    white          2        0.432     215.936          1
    black          2        0.099      49.445          0
    """
    require_columns(report, ("equity_loss", "side", "player", "turn", "move", "n_moves"),
                    "error_rates", "game_report(..., analyse=True)")
    played = report[report["move"] != ""]
    dec = played[played["n_moves"] > 1]
    out = played.groupby("side", sort=False).agg(player=("player", "first"),
                                                 turns=("turn", "size"))
    g = dec.groupby("side", sort=False)["equity_loss"]
    out["decisions"] = g.size().reindex(out.index, fill_value=0)
    out["errors"] = (g.apply(lambda s: int((s > 1e-3).sum()))   # a count, even of none
                     .reindex(out.index, fill_value=0).astype(int))
    out["equity_lost"] = g.sum().reindex(out.index, fill_value=0.0)
    out["error_rate"] = 1000 * out["equity_lost"] / out["decisions"].where(out["decisions"] > 0)
    if "mwc_loss" in dec.columns:                  # a match: the losses in match chances
        m = dec.groupby("side", sort=False)["mwc_loss"]
        out["mwc_lost"] = m.sum().reindex(out.index, fill_value=0.0)
        out["mwc_error_rate"] = (1000 * out["mwc_lost"]
                                 / out["decisions"].where(out["decisions"] > 0))
    if "mark" in dec.columns:
        for name, _ in MARKS:
            out["n_" + name] = (
                (dec["mark"] == name).groupby(dec["side"], sort=False).sum()
                .reindex(out.index, fill_value=0).astype(int))
    return out


# -- convergence and race ----------------------------------------------------------------
def _game_counts(n_games) -> list[int]:
    """``convergence_report``'s sizes: a sequence of whole numbers of games (one number
    is one size), each named when it is not one."""
    if isinstance(n_games, (int, np.integer)) and not isinstance(n_games, bool):
        n_games = (n_games,)
    if isinstance(n_games, (str, bytes)) or not isinstance(n_games, Iterable):
        raise TypeError(f"n_games={n_games!r}: expected numbers of games, e.g. "
                        "(100, 200, 400)")
    sizes = [check_count(n, f"n_games[{i}]") for i, n in enumerate(n_games)]
    if not sizes:
        raise ValueError("n_games: empty; expected at least one number of games")
    return sizes


def convergence_report(position: Position | str,
                       n_games: Sequence[int] = (100, 200, 400, 800, 1600), *,
                       seed: SeedLike = None,
                       rules: RulesLike = None, policy: PolicyLike = "net",
                       truncate: str | None = "bearoff", workers: int | None = None,
                       client: Client | None = None,
                       progress: bool | None = None,
                       compute: Compute | None = None) -> pd.DataFrame:
    """Rollouts of increasing size with one seed: the estimate against games played.

    Returns a DataFrame with one row per size: ``games, p_win, se_p_win, equity,
    se_equity, ci95_*`` (see the module table).  A given seed makes the first games of a
    larger rollout those of the smaller ones when the rollout runs its chunks in order, so
    the rows trace one run.  ``n_games`` is the sizes in games (one number: one size).
    ``progress``: a bar over each rollout's games, as for ``rollout``; ``compute``:
    ``workers``, ``client`` and ``progress`` as one object (``nardy_fast.Compute``).
    Every argument after ``n_games`` is keyword-only.  A position that ``truncate`` ends
    at once (a race of both homes under ``"bearoff"``: a table values it before the first
    roll, so no game is rolled out) is a ``ValueError`` saying so.

    Returns
    -------
    pandas.DataFrame
        One row per size, in the order of ``n_games``: the columns above.

    Examples
    --------
    >>> import nardy_fast as nf
    >>> cr = nf.convergence_report(nf.race_sample(1, seed=1)[0], n_games=(36, 72, 144), seed=1,
    ...                            policy="random", truncate=None, workers=1)
    >>> cr[["games", "p_win", "se_p_win", "equity"]].round(3)
       games  p_win  se_p_win  equity
    0     36  0.139     0.058  -0.722
    1     72  0.181     0.042  -0.639
    2    144  0.188     0.027  -0.625
    """
    seed = root_entropy(seed)
    pos = as_position(position, "position")
    sizes = _game_counts(n_games)
    rules = as_rules(rules)
    compute = resolve_compute("convergence_report", compute, workers=workers,
                              client=client, progress=progress)
    rows = []
    for n in sizes:
        settings = resolve_settings("convergence_report", None, n_games=n, policy=policy,
                                    truncate=truncate)
        o = rollout(pos, settings=settings, seed=seed, rules=rules, compute=compute)
        stop_if_interrupted([o], "convergence_report")
        table = o.extra.get("valued_at_start")
        if table:                    # every game ends before its first roll: no estimate
            raise ValueError(f"convergence_report: position {pos.id} is valued before its "
                             f"first roll ({method_label(table)}, truncate={truncate!r}): "
                             "no game is rolled out; truncate=None rolls it out")
        d = o.to_dict()
        rows.append({"games": o.games or n, "p_win": o.p_win, "se_p_win": o.se_p_win,
                     "p_mars_win": o.p_mars_win, "se_p_mars_win": o.se_p_mars_win,
                     "equity": o.equity, "se_equity": o.se_equity,
                     **{k: d[k] for k in _CI}})
    return _seeded(_frame(rows), seed)


def race_sample(n: int = 200, seed: SeedLike = None,
                kind: str = "bearoff") -> list[Position]:
    """Random race positions (no contact), White on roll, as a list of Positions.

    ``kind="bearoff"``: every checker of both sides in its home (or off: each side keeps
    1..15 checkers); ``kind="race"``: checkers anywhere on the side's points 13-24.

    Returns
    -------
    list of Position
        ``n`` positions, White on roll.

    Examples
    --------
    >>> import nardy_fast as nf
    >>> races = nf.race_sample(2, seed=1)
    >>> [(p.pips, p.is_contact(), p.is_bearoff()) for p in races]
    [((26, 17), False, True), ((22, 35), False, True)]
    """
    seed = root_entropy(seed)
    if kind not in ("bearoff", "race"):
        raise ValueError(f"kind={kind!r}: expected 'bearoff' or 'race'")
    n = check_count(n, "n", 1)
    rng = np.random.default_rng(seed)
    lo = 18 if kind == "bearoff" else 12
    out = []
    for _ in range(n):
        sides = []
        for _side in range(2):
            k = int(rng.integers(1, 16)) if kind == "bearoff" else 15
            b = np.zeros(24, np.uint8)
            np.add.at(b, rng.integers(lo, 24, size=k), 1)
            sides.append(b)
        out.append(Position.from_boards(sides[0], sides[1], WHITE))
    return out


@method_or_flat("n_games", "policy", "truncate")
def race_report(positions: Position | str | Iterable[Position | str] | pd.Series,
                method: str | Method = "auto", *,
                n_games: int = DEFAULT_GAMES,
                seed: SeedLike = None,
                rules: RulesLike = None, policy: PolicyLike = "net",
                truncate: str | None = "bearoff", workers: int | None = None,
                client: Client | None = None,
                epc: bool = True, progress: bool | None = None,
                compute: Compute | None = None) -> pd.DataFrame:
    """``pip_report`` joined with ``win_report`` (one row per position): the data of the
    race chart (``plot.race_chart``).  ``progress``: a bar over the rollouts' games
    (``method="rollout"``), as for ``win_report``; ``method`` may be a method object and
    ``compute`` a ``nardy_fast.Compute``, as there.  Every argument after ``method`` is
    keyword-only.

    Returns
    -------
    pandas.DataFrame
        One row per position: ``pip_report``'s columns, then ``win_report``'s.

    Examples
    --------
    >>> import nardy_fast as nf
    >>> rr = nf.race_report(nf.race_sample(3, seed=1))
    >>> rr[["pip_diff", "p_win", "equity", "method"]].round(3)
       pip_diff  p_win  equity     method
    0         9  0.138  -0.723  two_sided
    1       -13  0.950   0.900  one_sided
    2        -7  0.949   0.898  two_sided
    """
    seed = root_entropy(seed)
    pos_list, index = as_positions(positions)     # once: an iterator is read one time
    pr = pip_report(pos_list, epc=epc)
    wr = _win_frame("race_report", pos_list, method, n_games=n_games, seed=seed,
                    rules=rules, policy=policy, truncate=truncate, workers=workers,
                    client=client, progress=progress, compute=compute)
    if index is not None:                          # a Series' (or frame's) index, kept
        pr.index = wr.index = index
    return _seeded(pr.join(wr.drop(columns=["id", "side"])), seed)
