"""The decision benchmark: a versioned file of rolled-out decisions, and the score of a
player on it.

A benchmark file is one Parquet table, one row per decision, with its schema's name and
version in the file's metadata (key ``SCHEMA``: a JSON object with ``schema_version`` and
the settings of the build, ``settings``).  Two kinds of decision share the table
(``type``):

``"checker"``
    the side on roll of ``position`` has rolled ``dice1``, ``dice2`` and chooses among the
    legal moves; the candidates (``moves``, ``ids_after``) are the moves the build's
    filter kept, each with its rolled-out equity (``equities``) and standard error
    (``ses``);
``"cube"``
    the side on roll of ``position``, before rolling, with the cube ``cube_stake`` in the
    middle (``cube_owner="centre"``) or on its side (``"mover"``), decides whether to
    double, and the opponent whether to take: ``no_double``, ``double_take`` and
    ``double_pass`` are the cubeful equities of the three outcomes.

Every equity is in points per game of money play under the rules' scoring (``rules``
in the metadata), from the view of the side on roll of ``position`` (the mover), per unit
of the current stake for the cube; the checker candidates' equities are cubeless.

Columns (``COLUMNS``, in this order):

=================  =========  ==========================================================
column             type       meaning
=================  =========  ==========================================================
``decision``       int64      the decision's number in the build (0, 1, ...): its order
``type``           str        ``"checker"`` or ``"cube"``
``part``           str        ``"heldout"`` (never to be trained on) or ``"public"``
``source``         str        the players of the game it came from, ``"net-greedy"``, ...
``player``         str        which of them was on roll (``"net"``, ``"greedy"``, ...)
``game``           int64      the game's number in the build
``ply``            int64      half-moves played in that game before ``position``
``phase``          str        ``PHASES``: ``opening``, ``middle`` or ``late`` contact,
                              ``race``, ``bearoff``
``kind``           str        the contact kind (``nardy_fast.engine.evaluation.kinds.KINDS``); ``""``
                              out of contact
``position``       str        the position ID (``Position.from_id``), mover on roll
``dice1, dice2``   int64      the roll (checker play); 0 for the cube
``moves``          list[str]  the candidate moves, steps in the mover's 1-based points
                              (``Move.__str__``: ``"1/7 7/12"``), best rolled out first
``ids_after``      list[str]  the position ID after each candidate (opponent on roll)
``equities``       list[f64]  each candidate's rolled-out cubeless equity, mover's view
``ses``            list[f64]  their standard errors
``prior``          list[f64]  each candidate's 0-ply equity (the filter's ranking)
``cube_stake``     int64      the cube's stake (1 for checker play)
``cube_owner``     str        ``"centre"`` or ``"mover"`` (``""`` for checker play)
``no_double``      f64        cubeful equity if the mover does not double (cube: NaN
                              for checker play, as the three below)
``double_take``    f64        if it doubles and the opponent takes
``double_pass``    f64        if it doubles and the opponent passes (1.0)
``se_no_double``   f64        standard error of ``no_double``
``se_double_take`` f64        standard error of ``double_take``
``games``          int64      games of each rollout of the decision
``seed``           str        the rollouts' seed (an int written in decimal; every
                              candidate of a decision has the same: common random
                              numbers)
=================  =========  ==========================================================

``score`` gives a player's error rate on a file: for each decision the equity the
player's choice loses against the best choice by rollout, averaged, in millipoints
(1/1000 point) per decision, by type (``checker``, ``double``, ``take``) and phase.
"""
from __future__ import annotations

import json
import math
import os

from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from nardy_fast._utils._io import atomic_write
from nardy_fast._utils._optional import require_parquet
from nardy_fast._utils._progress import progress_bar
from nardy_fast.core.cubestate import CubeState
from nardy_fast.core.position import Position
from nardy_fast.core.rules import as_rules
from nardy_fast.engine.decisions.cube import cube_decision, cube_rules
from nardy_fast.engine.evaluation.evaluator import Evaluator
from nardy_fast.engine.play.policy import Policy

__all__ = ["SCHEMA", "SCHEMA_VERSION", "COLUMNS", "PHASES", "PARTS", "TYPES", "BLUNDER",
           "BenchmarkFileError", "write_bench", "read_bench", "bench_settings",
           "decision_losses", "score", "toolkit_player", "PLAYERS", "TIE"]

SCHEMA = "nardy_fast.decisionbench"
SCHEMA_VERSION = 1
PHASES = ("opening", "middle", "late", "race", "bearoff")
PARTS = ("heldout", "public")
TYPES = ("checker", "cube")
# A decision whose choice loses at least this many points is counted as a blunder
# (the report's mark of the same name, ``analysis.report.MARKS``).
BLUNDER = 0.16
# Equities this close (points) are one value: a loss under it is the float rounding of
# exact table values (-1.0 and -1.0000000000000002 of one bear-off), scored as 0.
TIE = 1e-12
PLAYERS = ("net", "net:1", "net:2", "greedy")

_LISTS = ("moves", "ids_after", "equities", "ses", "prior")
COLUMNS = ("decision", "type", "part", "source", "player", "game", "ply", "phase", "kind",
           "position", "dice1", "dice2", "moves", "ids_after", "equities", "ses", "prior",
           "cube_stake", "cube_owner", "no_double", "double_take", "double_pass",
           "se_no_double", "se_double_take", "games", "seed")


class BenchmarkFileError(ValueError):
    """A file that is not a decision benchmark of this schema version (the message names
    the file and what is wrong)."""


def _pyarrow():
    """``(pyarrow, pyarrow.parquet)``, imported when a benchmark file is read or written
    (pyarrow is slow to import, and optional: an ``ImportError`` names the extra)."""
    return require_parquet("a decision benchmark file (Parquet)")


def _schema():
    pa, _ = _pyarrow()
    s, f, i = pa.string(), pa.float64(), pa.int64()
    types = {"decision": i, "type": s, "part": s, "source": s, "player": s, "game": i,
             "ply": i, "phase": s, "kind": s, "position": s, "dice1": i, "dice2": i,
             "moves": pa.list_(s), "ids_after": pa.list_(s), "equities": pa.list_(f),
             "ses": pa.list_(f), "prior": pa.list_(f), "cube_stake": i, "cube_owner": s,
             "no_double": f, "double_take": f, "double_pass": f, "se_no_double": f,
             "se_double_take": f, "games": i, "seed": s}
    return pa.schema([(c, types[c]) for c in COLUMNS])


def write_bench(path: str | os.PathLike[str], rows: list[Mapping[str, Any]],
                settings: Mapping[str, Any], *, replace: bool = True) -> str:
    """Write decision rows (dicts with every column of ``COLUMNS``) and the build's
    ``settings`` (JSON-serialisable) to the Parquet file ``path``, atomically (a
    temporary name, then renamed).  ``replace=False``: ``FileExistsError`` rather than
    replace a file.  Returns ``path``."""
    pa, pq = _pyarrow()
    schema = _schema()
    missing = [c for r in rows[:1] for c in COLUMNS if c not in r]
    if missing:
        raise ValueError(f"rows: missing columns {missing}")
    table = pa.Table.from_pylist([{c: r[c] for c in COLUMNS} for r in rows], schema=schema)
    meta = {SCHEMA: json.dumps({"schema_version": SCHEMA_VERSION,
                                "settings": dict(settings)}, sort_keys=True)}
    table = table.replace_schema_metadata({k.encode(): v.encode() for k, v in meta.items()})
    return atomic_write(path, lambda tmp: pq.write_table(table, tmp), replace=replace)


def _metadata(path):
    _, pq = _pyarrow()
    name = os.fspath(path)
    try:
        schema = pq.read_schema(name)
    except FileNotFoundError:
        raise
    except Exception as e:         # pyarrow's errors for a file that is not Parquet
        raise BenchmarkFileError(f"{name}: not a Parquet file ({e})") from None
    raw = (schema.metadata or {}).get(SCHEMA.encode())
    if raw is None:
        raise BenchmarkFileError(f"{name}: not a decision benchmark (no {SCHEMA!r} entry "
                                 "in its metadata)")
    try:
        meta = json.loads(raw)
    except ValueError:
        raise BenchmarkFileError(f"{name}: its {SCHEMA!r} metadata is not JSON") from None
    if not isinstance(meta, dict):
        raise BenchmarkFileError(f"{name}: its {SCHEMA!r} metadata is a JSON "
                                 f"{type(meta).__name__}, not an object")
    version = meta.get("schema_version")
    if version != SCHEMA_VERSION:
        raise BenchmarkFileError(f"{name}: schema version {version!r}; this version of "
                                 f"nardy_fast reads version {SCHEMA_VERSION}")
    if not isinstance(meta.get("settings"), dict):
        raise BenchmarkFileError(f"{name}: its {SCHEMA!r} metadata has no 'settings' "
                                 "object")
    names = list(schema.names)
    if names != list(COLUMNS):
        missing = [c for c in COLUMNS if c not in names]
        unknown = [c for c in names if c not in COLUMNS]
        what = "; ".join([f"missing columns {missing}"] * bool(missing)
                         + [f"columns not in the schema {unknown}"] * bool(unknown))
        if not what:
            what = f"columns in the order {names}"
        raise BenchmarkFileError(f"{name}: {what}; schema version {SCHEMA_VERSION} has "
                                 f"{list(COLUMNS)}")
    return meta


def bench_settings(path: str | os.PathLike[str]) -> dict[str, Any]:
    """The build settings recorded in the benchmark file ``path`` (``BenchmarkFileError``
    if it is not a benchmark of this schema version)."""
    return dict(_metadata(path)["settings"])


def read_bench(path: str | os.PathLike[str]):
    """The decisions of the benchmark file ``path`` as a DataFrame (columns ``COLUMNS``;
    list columns hold Python lists).

    Raises
    ------
    FileNotFoundError
        No such file.
    BenchmarkFileError
        Not a Parquet file, not a decision benchmark, another schema version, other
        columns, a truncated or damaged file, or rows that contradict the schema (an
        unknown ``type``, ``phase`` or ``part``; a ``position`` that is no position ID;
        dice outside 1..6, or a cube that is none; candidate lists of unequal length; an
        equity that is not a number).
    """
    _, pq = _pyarrow()
    _metadata(path)
    name = os.fspath(path)
    try:
        df = pq.read_table(name).to_pandas()
    except Exception as e:         # a truncated or damaged file
        raise BenchmarkFileError(f"{name}: cannot read its rows ({e})") from None
    for col, allowed in (("type", TYPES), ("phase", PHASES), ("part", PARTS)):
        bad = sorted(set(df[col]) - set(allowed))
        if bad:
            raise BenchmarkFileError(f"{name}: column {col!r} has {bad}; expected values "
                                     f"of {list(allowed)}")
    for c in _LISTS:
        df[c] = [list(v) if v is not None else [] for v in df[c]]
    bad = [int(k) for k, p in zip(df["decision"], df["position"]) if not _is_id(p)]
    if bad:
        raise BenchmarkFileError(f"{name}: decisions {bad[:5]} have a 'position' that is "
                                 "not a position ID")
    checker = (df["type"] == "checker").to_numpy()
    dice_ok = np.where(checker, df["dice1"].between(1, 6) & df["dice2"].between(1, 6),
                       df["cube_owner"].isin(("centre", "mover")) & (df["cube_stake"] >= 1))
    bad = df["decision"][~np.asarray(dice_ok, dtype=bool)].astype(int).tolist()
    if bad:
        raise BenchmarkFileError(f"{name}: decisions {bad[:5]} have dice outside 1..6 "
                                 "(checker play) or a cube that is none (a 'cube_owner' "
                                 "other than 'centre' or 'mover', a 'cube_stake' under 1)")
    bad = [int(r["decision"]) for _, r in df[df["type"] == "checker"].iterrows()
           if len({len(r[c]) for c in _LISTS}) != 1 or not r["moves"]]
    if bad:
        raise BenchmarkFileError(f"{name}: checker decisions {bad[:5]} have candidate "
                                 "lists of unequal length or none")
    finite = [np.isfinite(np.asarray(e, dtype=np.float64)).all() if t == "checker"
              else np.isfinite([nd, dt]).all()
              for t, e, nd, dt in zip(df["type"], df["equities"], df["no_double"],
                                      df["double_take"])]
    bad = df["decision"][~np.asarray(finite, dtype=bool)].astype(int).tolist()
    if bad:
        raise BenchmarkFileError(f"{name}: decisions {bad[:5]} have equities that are not "
                                 "numbers (NaN or infinite): no rollout finished them")
    return df


def _is_id(text):
    try:
        Position.from_id(text)
    except (TypeError, ValueError):
        return False
    return True


# -- scoring -------------------------------------------------------------------------

def _cube_choice(d):
    """``(doubles, takes)`` from a ``cube_decision`` result."""
    return d["double_action"] == "double", d["take_action"] in ("take", "beaver")


def toolkit_player(name: str, rules=None):
    """The toolkit player ``name`` (``PLAYERS``) as the two functions ``score`` takes:
    ``(move(position, dice) -> Move, cube(position, cube_state) -> (doubles, takes))``.

    ``"net"``, ``"net:1"``, ``"net:2"``: the shipped evaluator's best move at 0, 1 or 2
    plies (``Evaluator.best_move``) and its cube decision at the same depth
    (``cube_decision(plies=)``); ``"greedy"``: the greedy policy's move and the cube
    model on the pip-count estimate (``cube_probabilities="pips"``).

    Raises
    ------
    ValueError
        ``name`` is not one of ``PLAYERS``.
    """
    if name not in PLAYERS:
        raise ValueError(f"player {name!r}: expected one of {', '.join(PLAYERS)} (or an "
                         "external engine's command)")
    rules = as_rules(rules)
    crules = cube_rules(rules)
    if name == "greedy":
        choose = Policy.of("greedy").chooser(rules)

        def move(position, dice):
            return choose(position, position.legal_moves(dice, rules), None)

        def cube(position, state):
            return _cube_choice(cube_decision(position, state, rules=crules,
                                              cube_probabilities="pips"))
        return move, cube
    plies = int(name.partition(":")[2] or 0)
    ev = Evaluator.default(rules)

    def move(position, dice):
        return ev.best_move(position, dice, plies=plies)

    def cube(position, state):
        return _cube_choice(cube_decision(position, state, rules=crules, plies=plies))
    return move, cube


def _loss(value):
    """A choice's loss (points): 0 for a tie within float rounding (under ``TIE``)."""
    return 0.0 if value < TIE else value


def _after(pos, dice, chosen, decision):
    """The position ID after the player's ``chosen`` move (a ``Move``, its text in the
    record notation, or an ID), or a ``ValueError`` naming the decision when it is none
    of them (a text that is neither a legal move's nor an ID is returned as it is, and
    refused by ``_check_legal``)."""
    if isinstance(chosen, str):
        try:
            Position.from_id(chosen)
        except ValueError:          # not an ID: the move's text, if it is a legal one
            try:
                return pos.play(chosen, dice).id
            except ValueError:
                pass
        return chosen
    try:
        return pos.play(chosen).id
    except (TypeError, ValueError, AttributeError) as e:
        raise ValueError(f"decision {decision}: the player's move {chosen!r} for "
                         f"{dice[0]}{dice[1]} in {pos.id} is not a move ({e})") from None


def _check_legal(pos, dice, after, chosen, decision):
    """A ``ValueError`` naming the decision when ``after`` is no legal move's result: an
    illegal answer was counted as a legal move outside the candidates (charged the
    last candidate's loss, a lower bound for a move the filter dropped)."""
    if after not in {pos.play(m).id for m in pos.legal_moves(dice)}:
        what = repr(chosen) if isinstance(chosen, str) else f"'{chosen}'"
        raise ValueError(f"decision {decision}: the player's move {what} is not a legal "
                         f"move of {dice[0]}{dice[1]} in {pos.id}")


def _cube_answer(answer, pos, decision):
    """The player's cube ``answer`` as ``(doubles, takes)``, or a ``ValueError`` naming
    the decision when it is not a pair of booleans (a pair of words such as
    ``("no-double", "pass")`` was read as double and take)."""
    if not (isinstance(answer, (tuple, list)) and len(answer) == 2
            and all(isinstance(x, (bool, np.bool_)) for x in answer)):
        raise ValueError(f"decision {decision}: the player's cube answer {answer!r} in "
                         f"{pos.id} is not a pair of booleans (doubles, takes)")
    return bool(answer[0]), bool(answer[1])


def decision_losses(df, move: Callable[..., Any] | None,
                    cube: Callable[..., Any] | None = None, *, progress=None):
    """The equity each choice of a player loses on the decisions of ``df`` (``read_bench``).

    Parameters
    ----------
    df : DataFrame
        Benchmark decisions.
    move : callable or None
        ``move(position, (d1, d2))`` -> the chosen move: a ``Move``, its text in the
        record notation (``"1/7 7/12"``, as the file's ``moves``), or the position ID
        after it (``str``).  None: checker decisions are not scored.
    cube : callable or None
        ``cube(position, cube_state)`` -> ``(doubles, takes)``, two booleans: whether the
        mover doubles, and whether the opponent, doubled, takes.  None: cube decisions are
        not scored.
    progress : bool or None
        A bar over the decisions (``_utils._progress``).

    Returns
    -------
    DataFrame
        One row per scored choice: ``decision``, ``type`` (``"checker"``, ``"double"``,
        ``"take"``), ``phase``, ``part``, ``loss`` (points per unit stake, >= 0, against
        the best choice by rollout; a loss under ``TIE`` is 0) and ``outside`` (True
        when the chosen move is not among the candidates: it is then given the last
        candidate's loss, a lower bound).

        A double is scored against the best of no double and the opponent's best answer
        (``max(no_double, min(double_take, double_pass))``), taking the opponent's best
        answer; a take or pass against the better answer for the taker
        (``min(double_take, double_pass)``, in the mover's view).
    """
    import pandas as pd            # lazy: pandas is slow to import
    out = []
    types = [t for t, f in (("checker", move), ("cube", cube)) if f is not None]
    todo = df[df["type"].isin(types)]
    for r in progress_bar(todo.itertuples(index=False), desc="scoring", unit="decision",
                          total=len(todo), progress=progress):
        pos = Position.from_id(r.position)
        base = {"decision": int(r.decision), "phase": r.phase, "part": r.part}
        if r.type == "checker":
            dice = (int(r.dice1), int(r.dice2))
            chosen = move(pos, dice)
            after = _after(pos, dice, chosen, r.decision)
            eqs = np.asarray(r.equities, dtype=float)
            best = float(eqs.max())
            ids = list(r.ids_after)
            if after in ids:
                loss, outside = best - float(eqs[ids.index(after)]), False
            else:       # a legal move the filter dropped (an illegal one is refused)
                _check_legal(pos, dice, after, chosen, r.decision)
                loss, outside = best - float(eqs.min()), True
            out.append({**base, "type": "checker", "loss": _loss(loss),
                        "outside": outside})
        else:
            doubles, takes = _cube_answer(cube(pos, CubeState(int(r.cube_stake),
                                                              r.cube_owner)),
                                          pos, r.decision)
            nd, dt, dp = float(r.no_double), float(r.double_take), float(r.double_pass)
            answer = min(dt, dp)
            best = max(nd, answer)
            out.append({**base, "type": "double",
                        "loss": _loss(best - (answer if doubles else nd)), "outside": False})
            out.append({**base, "type": "take",
                        "loss": _loss((dt if takes else dp) - answer), "outside": False})
    return pd.DataFrame(out, columns=["decision", "type", "phase", "part", "loss",
                                      "outside"])


def _summary(losses):
    import pandas as pd            # lazy: pandas is slow to import
    rows = []
    groups = [(t, p, g) for (t, p), g in losses.groupby(["type", "phase"], sort=False)]
    groups += [(t, "all", g) for t, g in losses.groupby("type", sort=False)]
    order = {"checker": 0, "double": 1, "take": 2}
    for t, p, g in groups:
        x = g["loss"].to_numpy(dtype=float)
        n = len(x)
        rows.append({"type": t, "phase": p, "decisions": n,
                     "error_rate": 1000.0 * x.mean(),
                     "se": 1000.0 * x.std(ddof=1) / math.sqrt(n) if n > 1 else math.nan,
                     "blunders": int((x >= BLUNDER).sum()),
                     "outside": int(g["outside"].sum())})
    out = pd.DataFrame(rows, columns=["type", "phase", "decisions", "error_rate", "se",
                                      "blunders", "outside"])
    phase_order = {p: i for i, p in enumerate(PHASES + ("all",))}
    out = out.sort_values(["type", "phase"], key=lambda s: s.map(order) if s.name == "type"
                          else s.map(phase_order), kind="stable")
    return out.reset_index(drop=True)


def score(path_or_df, player: str | tuple[Callable[..., Any], Callable[..., Any] | None]
          = "net", *, part: str = "all", rules=None, progress=None):
    """A player's error rate on a decision benchmark, per type of decision and phase.

    Parameters
    ----------
    path_or_df : str, os.PathLike or DataFrame
        A benchmark file (``read_bench``) or its decisions.
    player : str or (move, cube)
        A toolkit player (``PLAYERS``: ``"net"``, ``"net:1"``, ``"net:2"``,
        ``"greedy"``; ``toolkit_player``) or the pair of functions ``decision_losses``
        takes (``cube`` may be None: cube decisions are then not scored).
    part : {"all", "heldout", "public"}
        Which part of the file to score.
    rules : Rules or None
        The rules the file was built under (None: classic).
    progress : bool or None
        A bar over the decisions.

    Returns
    -------
    DataFrame
        One row per ``type`` (``"checker"``, ``"double"``, ``"take"``) and ``phase``
        (``PHASES``, then ``"all"``): ``decisions``, ``error_rate`` (the mean equity lost
        per decision against the best choice by rollout, in millipoints: points x 1000),
        ``se`` (its standard error over the decisions, millipoints, NaN for a single
        decision; the rollouts' own noise is not in it), ``blunders`` (choices losing at least ``BLUNDER`` points)
        and ``outside`` (moves not among the file's candidates, counted at the worst
        candidate's loss).

    Raises
    ------
    ValueError
        An unknown player name or part.
    BenchmarkFileError
        A file that is not a benchmark of this schema version.
    """
    if part not in ("all",) + PARTS:
        raise ValueError(f"part={part!r}: expected 'all', 'heldout' or 'public'")
    if isinstance(player, str):
        move, cube = toolkit_player(player, rules)
    else:
        try:
            move, cube = player
        except (TypeError, ValueError):
            raise TypeError("player: expected a name of PLAYERS or a pair (move, cube) of "
                            "functions") from None
    df = read_bench(path_or_df) if isinstance(path_or_df, (str, os.PathLike)) else path_or_df
    if part != "all":
        df = df[df["part"] == part]
    return _summary(decision_losses(df, move, cube, progress=progress))
