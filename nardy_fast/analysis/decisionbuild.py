"""The decision benchmark's build: positions from seeded games between the net and other
players, their candidates rolled out, written to a benchmark file that resumes.

The plan (deterministic from the settings, recomputed on every run):

1. ``source_games`` games (``core.record.random_game``, game ``g`` seeded with
   ``rng.text_seed("decisionbench", seed, "game", g)``) between the shipped net at 0-ply
   and, in turn, the greedy policy (``"net-greedy"``), the net with random errors
   (``"net-noisy"``: every move's 0-ply equity plus a normal error of standard deviation
   ``noise`` points, the highest played) and the net at 1-ply (``"net-net:1"``); the net
   plays White in even rounds of three games, Black in odd ones.
2. Every turn of those games is a possible checker decision (the dice rolled and at least
   two distinct legal results, none of which ends the game) and a possible cube decision
   (the position before the roll, not a side's first turn).  Its phase: ``race`` and
   ``bearoff`` as ``Position.phase``; contact positions are ``opening`` (plies 0-14),
   ``late`` (the last 12 plies before contact ended) or ``middle``.  Cube decisions are
   kept where the net's 0-ply cubeless P(win) of the mover is in ``CUBE_WINDOW`` (where
   a double can be right or close).
3. Each phase gets an equal share of ``n_checker`` and of ``n_cube`` decisions, drawn
   (seeded) with at most one per game, phase and type; the cube decisions alternate the
   centred cube (stake 1) and the mover's cube (stake 2).  The decisions are then
   shuffled (seeded) into one order, so that any first part of the file is a stratified
   sample.  A decision from an even game is ``heldout``, from an odd one ``public``.
4. The candidates of a checker decision: its legal moves ranked at 0-ply by the judging
   net, those within ``window`` points of the best, at least ``min_candidates`` and at
   most ``max_candidates``.

The rollouts: decision ``k`` with seed ``rng.text_seed("decisionbench", seed, "rollout",
k)`` for every rollout of it (common random numbers: ``rollout_many``; the dice scheme,
``rng.DICE_SCHEME``, is recorded), ``games`` games each, played by the judging net at
0-ply (the shipped evaluator's ``net``, not its faster ``rollout_net``; the shipped file
was rolled out by v7, the judge of its time, with the dice of 0.3.0),
truncated at the bear-off with exact race values, the rollouts' default variance
reduction (recorded).  A checker candidate is the position after the move rolled out
cubeless (its equity negated: the mover's view); a cube decision is rolled out cube-aware
(``rollout(cube_state=)``, the cube decided in the games by the cube model on the
shipped evaluator's 0-ply values, as ``cube_decision(method="rollout")``): no double
with the current cube and no raise before the first roll, double/take at twice the stake
with the cube on the opponent's side, per unit of the current stake.

Resumable: the finished decisions are written every ``batch`` decisions (a temporary
name, then renamed); a rerun with the same settings continues after the last finished
one, and a file of other settings is refused, naming the settings that differ.  The plan
is kept beside the file (``plan_path``: ``FILE.plan.json``) so that a rerun need not play
the source games again, and removed once the file holds every planned decision; without
it the plan is made anew, the same.
"""
from __future__ import annotations

import hashlib
import json
import math
import os
import time

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from nardy_fast._utils._io import atomic_write_text
from nardy_fast._utils._progress import progress_bar
from nardy_fast._utils._settings import setting_differences
from nardy_fast._utils._version import __version__
from nardy_fast.analysis.decisionbench import (BenchmarkFileError, PHASES, SCHEMA_VERSION,
                                               TYPES, _pyarrow,
                                               bench_settings, read_bench, write_bench)
from nardy_fast.core import record as _record
from nardy_fast.core.cubestate import CubeState
from nardy_fast.engine.evaluation.kinds import KINDS, position_kinds
from nardy_fast.core.position import Position
from nardy_fast.core.rng import DICE_SCHEME, EARLIER_DICE_SCHEME, text_seed
from nardy_fast.engine.decisions.cube import cube_rules
from nardy_fast.engine.evaluation import nets
from nardy_fast.engine.evaluation.evaluator import Evaluator
from nardy_fast.engine.play.policy import Policy
from nardy_fast.engine.play.rollout import (Stopped, rollout, rollout_outcomes,
                                             stop_if_interrupted, valued_by_cube_model)

__all__ = ["DEFAULTS", "SOURCES", "CUBE_WINDOW", "build", "judge_evaluator", "plan",
           "plan_path", "reroll"]

SOURCES = ("net-greedy", "net-noisy", "net-net:1")
CUBE_WINDOW = (0.55, 0.95)
# How a cube decision in the bear-off is valued: by the exact cubeful race table where it
# covers the race, else its games are played out (not Janowski's model at the start, nor
# after a first roll that brings every game home: rollout.valued_by_cube_model); a
# file that does not record it valued the former by the model (EARLIER_CUBE_BEAROFF).
CUBE_BEAROFF = "exact table, else played out"
EARLIER_CUBE_BEAROFF = "exact table, else the cube model"
OPENING_PLIES = 15          # contact plies 0-14 are the opening
LATE_PLIES = 12             # the last 12 plies before contact ended are late
DEFAULTS = {"n_checker": 2000, "n_cube": 300, "games": 1296, "seed": 1,
            "source_games": 900, "noise": 0.1, "window": 0.12, "min_candidates": 3,
            "max_candidates": 6}


def judge_evaluator() -> Evaluator:
    """The shipped judging net as an evaluator whose games it plays itself (its
    ``rollout_net`` is its ``net``): the rollout player of the benchmark."""
    return Evaluator.load(nets.DEFAULT_NET)     # a loaded net plays its own rollouts


def _net_digest(path=nets.DEFAULT_NET):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        h.update(f.read())
    return h.hexdigest()[:16]


# The bear-off tables a rollout's truncated games were valued by (``rollout``'s extra):
# the mars table's size and the complete two-sided table's (0: not built), recorded in a
# file's settings (``_tables``) since they depend on what the machine had built.
TABLES = ("mars_table", "two_sided_complete")


def _tables(extra):
    return {k: extra[k] for k in TABLES if k in extra}


def _player_of(settings, path):
    """An evaluator of the shipped net whose digest the benchmark file ``path`` records
    (its rollout player, playing its own games); ``BenchmarkFileError`` when this version
    ships no such net."""
    want = settings.get("net_sha256")
    for name in sorted(os.listdir(nets.DATA)):
        if name.endswith(".nfdb") and _net_digest(os.path.join(nets.DATA, name)) == want:
            return Evaluator.load(os.path.join(nets.DATA, name))   # plays its own games
    raise BenchmarkFileError(f"{os.fspath(path)}: rolled out by the net of sha256 {want!r} "
                             f"({settings.get('net')!r}), which this version does not ship")


def _settings(options):
    ev = Evaluator.default()
    return {**options, "schema_version": SCHEMA_VERSION, "rules": "classic",
            "rollout_player": "judging net at 0-ply",
            "net": os.path.basename(nets.DEFAULT_NET), "net_sha256": _net_digest(),
            "net_hidden": [int(ev.net.n_hidden), int(ev.net.n_hidden2)],
            "truncate": "bearoff", "cube_bearoff": CUBE_BEAROFF,
            "variance_reduction": "default", "dice": DICE_SCHEME,
            "cube_probabilities": "shipped evaluator, 0-ply",
            "sources": list(SOURCES), "cube_window": list(CUBE_WINDOW)}


# -- the source games ----------------------------------------------------------------

def _noisy_chooser(ev, noise):
    searcher = ev.searcher()

    def noisy(position, moves, rng):
        if len(moves) == 1:
            return moves[0]
        d1, d2 = moves[0].dice
        res, _, _, eqs = searcher.rank(position.mover, position.opponent, d1, d2, 0)
        pick = int(np.argmax(np.asarray(eqs, dtype=float) + rng.normal(0.0, noise, len(eqs))))
        board = tuple(int(x) for x in res[pick])
        return next(m for m in moves if m.board == board)
    noisy.__name__ = "noisy"
    return noisy


def _source_game(g, seed, noise, ev):
    """The turns of source game ``g``: ``(source, players by side, [(ply, position,
    dice, n_results, ends), ...])``."""
    source = SOURCES[g % len(SOURCES)]
    other = source.split("-", 1)[1]
    if other == "noisy":
        other_choose = _noisy_chooser(ev, noise)
    else:
        other_choose = Policy.of(other).chooser()
    net_choose = Policy.of("net").chooser()
    net_white = (g // len(SOURCES)) % 2 == 0
    players = {"white": "net" if net_white else other, "black": other if net_white else "net"}
    turns = []

    def choose(position, moves, rng):
        mine = net_choose if players[position.side] == "net" else other_choose
        ends = any(position.play(m).is_over() for m in moves)
        turns.append((len(turns), position, moves[0].dice, len(moves), ends))
        return mine(position, moves, rng)
    _record.random_game(seed=text_seed("decisionbench", seed, "game", g), policy=choose,
                        white=players["white"], black=players["black"])
    return source, players, turns


def _phases(turns):
    """The phase of each turn's position (module docstring)."""
    contact = [t[1].phase == "contact" for t in turns]
    end = max((i for i, c in enumerate(contact) if c), default=-1) + 1
    out = []
    for i, (_, pos, _, _, _) in enumerate(turns):
        if pos.phase != "contact":
            out.append(pos.phase)
        elif i < OPENING_PLIES:
            out.append("opening")
        elif i >= end - LATE_PLIES:
            out.append("late")
        else:
            out.append("middle")
    return out


def plan(options: Mapping[str, Any], *, progress=None) -> list[dict[str, Any]]:
    """The decisions of a build, in order, without their rollouts (module docstring):
    dicts with every column but the rolled-out ones."""
    o = {**DEFAULTS, **options}
    ev = Evaluator.default()
    pool = []
    for g in progress_bar(range(o["source_games"]), desc="source games", unit="game",
                          progress=progress):
        source, players, turns = _source_game(g, o["seed"], o["noise"], ev)
        for (ply, pos, dice, n, ends), phase in zip(turns, _phases(turns)):
            pool.append({"game": g, "ply": ply, "position": pos, "dice": dice,
                         "checker_ok": n >= 2 and not ends,
                         "cube_ok": not pos.is_first_turn() and not pos.is_over(),
                         "phase": phase, "source": source,
                         "player": players[pos.side]})
    rng = np.random.default_rng(text_seed("decisionbench", o["seed"], "draw"))
    cube_pool = [p for p in pool if p["cube_ok"]]
    if cube_pool:
        pw = ev.evaluate_many([p["position"] for p in cube_pool])["p_win"].to_numpy()
        cube_pool = [p for p, w in zip(cube_pool, pw) if CUBE_WINDOW[0] <= w <= CUBE_WINDOW[1]]
    chosen = []
    for typ, candidates, total in (("checker", [p for p in pool if p["checker_ok"]],
                                    o["n_checker"]), ("cube", cube_pool, o["n_cube"])):
        for i, phase in enumerate(PHASES):
            quota = total // len(PHASES) + (1 if i < total % len(PHASES) else 0)
            if quota == 0:
                continue
            these = [p for p in candidates if p["phase"] == phase]
            seen, picked = set(), []
            for j in rng.permutation(len(these)):
                p = these[j]
                if p["game"] in seen:
                    continue
                seen.add(p["game"])
                picked.append(p)
                if len(picked) == quota:
                    break
            chosen += [(typ, p) for p in picked]
    order = rng.permutation(len(chosen))
    out = []
    n_cube = 0
    for k, j in enumerate(order):
        typ, p = chosen[j]
        pos = p["position"]
        kind = ""
        if pos.phase == "contact":
            kind = KINDS[int(position_kinds(np.asarray(pos.boards)[None], p["ply"])[0])]
        row = {"decision": k, "type": typ, "part": "heldout" if p["game"] % 2 == 0
               else "public", "source": p["source"], "player": p["player"],
               "game": p["game"], "ply": p["ply"], "phase": p["phase"], "kind": kind,
               "position": pos.id, "dice1": 0, "dice2": 0, "moves": [], "ids_after": [],
               "equities": [], "ses": [], "prior": [], "cube_stake": 1, "cube_owner": "",
               "no_double": float("nan"), "double_take": float("nan"),
               "double_pass": float("nan"), "se_no_double": float("nan"),
               "se_double_take": float("nan"), "games": o["games"],
               "seed": str(text_seed("decisionbench", o["seed"], "rollout", k))}
        if typ == "checker":
            d1, d2 = p["dice"]
            hint = ev.hint(pos, (d1, d2), plies=0)
            n_keep = int(((hint["equity_loss"] <= o["window"]).sum()))
            n_keep = min(max(n_keep, o["min_candidates"]), o["max_candidates"], len(hint))
            hint = hint.iloc[:n_keep]
            row.update(dice1=d1, dice2=d2, moves=list(hint["move"]),
                       ids_after=list(hint["id_after"]), prior=[float(x) for x in
                                                                hint["equity"]])
        else:
            row.update(cube_stake=1 if n_cube % 2 == 0 else 2,
                       cube_owner="centre" if n_cube % 2 == 0 else "mover")
            n_cube += 1
        out.append(row)
    return out


def plan_path(path: str | os.PathLike[str]) -> str:
    """The file beside the benchmark ``path`` that keeps its plan: ``FILE.plan.json``."""
    return os.fspath(path) + ".plan.json"


def _cached_plan(path, options, settings, progress):
    """``plan(options)``, kept in ``plan_path(path)`` (JSON, with the settings it was made
    with) so that a rerun does not play the source games again; a kept plan of other
    settings, or one that cannot be read, is made anew."""
    kept = plan_path(path)
    try:
        with open(kept, encoding="utf-8") as f:
            saved = json.load(f)
        if saved.get("settings") == json.loads(json.dumps(settings)):
            return saved["plan"]
    except (OSError, ValueError, AttributeError):
        pass
    todo = plan(options, progress=progress)
    atomic_write_text(kept, json.dumps({"settings": settings, "plan": todo}))
    return todo


# -- the rollouts --------------------------------------------------------------------

def _roll(row, judge, workers, what="build"):
    """``row`` with its rollouts (module docstring); the rollout extra of the last one.
    Ctrl-C in a rollout stops ``what`` (``"build"``, ``"reroll"``) there, a ``Stopped``
    whether the rollout returned the games it finished or had finished none: the cut
    decision is not written (``build`` writes the finished ones)."""
    try:
        return _rolled(row, judge, workers, what)
    except Stopped:
        raise
    except KeyboardInterrupt:       # before any chunk of a rollout finished
        raise Stopped(what, cut_rollout=True) from None


def _rolled(row, judge, workers, what):
    seed = int(row["seed"])
    kw = dict(policy=judge, seed=seed, workers=workers, progress=False)
    if row["type"] == "checker":
        outs = rollout_outcomes([Position.from_id(i) for i in row["ids_after"]],
                                row["games"], **kw)
        stop_if_interrupted(outs, what)
        eqs = [-o.equity for o in outs]
        order = sorted(range(len(eqs)), key=lambda i: (-eqs[i], i))
        row = {**row, **{c: [row[c][i] for i in order] for c in ("moves", "ids_after",
                                                                  "prior")},
               "equities": [float(eqs[i]) for i in order],
               "ses": [float(outs[i].se_equity) for i in order]}
        return row, outs[0].extra
    pos = Position.from_id(row["position"])
    kw["rules"] = cube_rules(None)
    k = int(row["cube_stake"])
    nd = rollout(pos, row["games"], cube_state=CubeState(k, row["cube_owner"], True), **kw)
    stop_if_interrupted([nd], what)
    if valued_by_cube_model(nd):
        # a bear-off only the cube model would value: its games are played out
        kw["truncate"] = None
        nd = rollout(pos, row["games"], cube_state=CubeState(k, row["cube_owner"], True),
                     **kw)
        stop_if_interrupted([nd], what)
    dt = rollout(pos, row["games"], cube_state=CubeState(2 * k, "opponent"), **kw)
    stop_if_interrupted([dt], what)
    row = {**row, "no_double": float(nd.equity), "double_take": 2.0 * float(dt.equity),
           "double_pass": 1.0, "se_no_double": float(nd.se_equity),
           "se_double_take": 2.0 * float(dt.se_equity)}
    return row, nd.extra


def build(path: str | os.PathLike[str], *, n_checker: int = DEFAULTS["n_checker"],
          n_cube: int = DEFAULTS["n_cube"], games: int = DEFAULTS["games"],
          seed: int = DEFAULTS["seed"], source_games: int = DEFAULTS["source_games"],
          noise: float = DEFAULTS["noise"], window: float = DEFAULTS["window"],
          min_candidates: int = DEFAULTS["min_candidates"],
          max_candidates: int = DEFAULTS["max_candidates"], batch: int = 10,
          workers: int | None = 1, limit: int | None = None, progress=None,
          log=None) -> dict[str, Any]:
    """Build (or continue building) the decision benchmark file ``path``.

    Parameters
    ----------
    path : str or os.PathLike
        The Parquet file (``decisionbench`` format); an existing one is continued.
    n_checker, n_cube : int
        Checker-play and cube decisions to draw (equal shares per phase; fewer when the
        source games offer fewer).
    games : int
        Games of every rollout (one per candidate, two per cube decision).
    seed : int
        The seed of everything (the source games, the draw, the rollouts).
    source_games : int
        Games played to draw the positions from.
    noise : float
        Standard deviation, in points, of the noisy net's errors.
    window, min_candidates, max_candidates
        The candidate filter (module docstring).
    batch : int
        Decisions between two writes of the file.
    workers : int or None
        The rollouts' workers (``rollout``; the results do not depend on them).
    limit : int or None
        Stop after this many decisions in all (the file then holds the first ``limit``);
        None: all of them.
    progress : bool or None
        Bars over the source games and the decisions.
    log : callable or None
        Called with one line of text after every write (decisions done, rate).

    Returns
    -------
    dict
        ``done`` (decisions in the file), ``total`` (decisions planned), ``path``.

    Raises
    ------
    BenchmarkFileError
        ``path`` exists and is not a benchmark, or was built with other settings (the
        message names them).
    KeyboardInterrupt
        Ctrl-C: the finished decisions are written first.
    """
    options = {"n_checker": int(n_checker), "n_cube": int(n_cube), "games": int(games),
               "seed": int(seed), "source_games": int(source_games), "noise": float(noise),
               "window": float(window), "min_candidates": int(min_candidates),
               "max_candidates": int(max_candidates)}
    for k in ("n_checker", "n_cube"):
        if options[k] < 0:
            raise ValueError(f"{k}={options[k]}: expected >= 0")
    if options["n_checker"] + options["n_cube"] < 1:
        raise ValueError("n_checker=0, n_cube=0: a benchmark of no decision; ask for one "
                         "at least")
    for k, value in (("games", options["games"]), ("source_games", options["source_games"]),
                     ("min_candidates", options["min_candidates"]), ("batch", batch)):
        if value < 1:
            raise ValueError(f"{k}={value}: expected >= 1")
    if options["max_candidates"] < options["min_candidates"]:
        raise ValueError(f"max_candidates={options['max_candidates']}: expected >= "
                         f"min_candidates={options['min_candidates']}")
    for k in ("noise", "window"):           # a standard deviation, a width: in points
        if not (math.isfinite(options[k]) and options[k] >= 0):
            raise ValueError(f"{k}={options[k]}: expected a finite number of points >= 0")
    _pyarrow()              # the file is Parquet: a missing pyarrow named before any game
    settings = _settings(options)
    rows = []
    if os.path.exists(path):
        old = bench_settings(path)
        differ = setting_differences(old, settings,
                                     ignore=("package_version", "estimator", "luck_net",
                                             *TABLES),
                                     unrecorded={"dice": EARLIER_DICE_SCHEME,
                                                 "cube_bearoff": EARLIER_CUBE_BEAROFF})
        if differ:
            raise BenchmarkFileError(
                f"{os.fspath(path)}: built with other settings (" + ", ".join(differ)
                + "); give another file to start afresh")
        rows = read_bench(path).to_dict("records")
    todo = _cached_plan(path, options, settings, progress)
    if [r["position"] for r in rows] != [r["position"] for r in todo[:len(rows)]]:
        raise BenchmarkFileError(f"{os.fspath(path)}: its decisions are not this build's "
                                 "plan (made by another version of the build?)")
    stop = len(todo) if limit is None else min(int(limit), len(todo))
    judge = judge_evaluator()
    done_at_start = len(rows)
    t0, c0 = time.time(), time.process_time()
    extra = {}
    saved = len(rows) if os.path.exists(path) else -1       # the rows the file holds

    def save():
        nonlocal saved
        meta = {**settings, "package_version": __version__,
                "estimator": extra.get("estimator"), "luck_net": extra.get("luck_net"),
                **_tables(extra)}
        write_bench(path, rows, meta)
        saved = len(rows)
        if log is not None:
            n = len(rows) - done_at_start
            wall = time.time() - t0
            rate = (f", {(time.process_time() - c0) / n:.1f} CPU-s of this process per "
                    "decision") if n else ""
            log(f"{len(rows)}/{len(todo)} decisions written to {os.fspath(path)} "
                f"({n} this run, {wall:.0f} s{rate})")

    bar = progress_bar(total=stop, desc="decisions", unit="decision", initial=min(len(rows), stop),
                       progress=progress)
    try:
        for k in range(len(rows), stop):
            row, extra = _roll(todo[k], judge, workers)
            rows.append(row)
            bar.update(1)
            if len(rows) % batch == 0:
                save()
    except KeyboardInterrupt as e:      # saved below; say what is kept, and how to go on
        bar.close()
        if len(rows) != saved:
            save()
        kept = (f"{len(rows)} of {len(todo)} decisions kept in {os.fspath(path)}, the same "
                "build resumes")
        if isinstance(e, Stopped):              # at a cut rollout: the command names itself
            raise e.keeping(kept) from None
        raise KeyboardInterrupt(f"{str(e) or 'build: interrupted'}; {kept}") from None
    finally:
        bar.close()
        if len(rows) != saved:       # once: a batch's save is not written again
            save()
    if len(rows) == len(todo) and os.path.exists(plan_path(path)):
        os.remove(plan_path(path))          # the file is complete: no rerun needs it
    return {"done": len(rows), "total": len(todo), "path": os.fspath(path)}


def reroll(path: str | os.PathLike[str], out: str | os.PathLike[str], *,
           types: Sequence[str] = TYPES, phases: Sequence[str] = PHASES,
           decisions: Sequence[int] | None = None, workers: int | None = 1,
           progress=None) -> dict[str, Any]:
    """Roll out some decisions of the benchmark file ``path`` again with this version,
    into the new file ``out``; the others are copied as they are.

    A file built before 2026-12-07 needs it twice over.  Its cube decisions were rolled
    out in games that scored a mars at twice the stake, where the rule book (section 7a)
    scores a game with the cube at the stake whatever its kind; those in the bear-off
    that the exact cubeful race table does not cover were valued by Janowski's model, not
    played.  And its checker candidates valued at the start by the one-sided bear-off
    approximation carry a standard error of 0, as if exact, where this version gives NaN
    (not measured).  ``reroll(old, new, types=["cube"])`` mends the first, and
    ``phases=["bearoff"]`` the second.

    Each decision keeps its seed and is rolled out as ``build`` rolls it out now, by the
    net the file names (``net_sha256``).  The settings of ``out`` list every such run in
    ``rerolled`` (the types, phases, version, dice scheme and the bear-off tables built,
    ``TABLES``), and take this version's ``cube_bearoff`` once every cube decision is
    rolled out again.

    Parameters
    ----------
    path : str or os.PathLike
        A complete or partial benchmark file.
    out : str or os.PathLike
        The file to write (atomically, once every chosen decision is rolled out); it must
        not exist.
    types : sequence of str
        The types of decision to roll out again (``decisionbench.TYPES``).
    phases : sequence of str
        Their phases (``decisionbench.PHASES``).
    decisions : sequence of int or None
        Only these decisions (the ``decision`` column), of those types and phases; None:
        every one of them.
    workers : int or None
        The rollouts' workers (the results do not depend on them).
    progress : bool or None
        A bar over the decisions rolled out.

    Returns
    -------
    dict
        ``rerolled`` (decisions rolled out again), ``decisions`` (all), ``path``
        (``out``).

    Raises
    ------
    FileExistsError
        ``out`` exists, or was made while the decisions were rolled out (it is never
        overwritten).
    ValueError
        ``out`` is ``path``; an unknown type or phase, or none; a decision the file does
        not hold.
    BenchmarkFileError
        ``path`` is not a benchmark, or was rolled out by a net this version does not ship.
    KeyboardInterrupt
        Ctrl-C: nothing is written.

    Examples
    --------
    >>> import os, tempfile
    >>> from nardy_fast.analysis import decisionbuild
    >>> folder = tempfile.mkdtemp()
    >>> small = os.path.join(folder, "small.parquet")
    >>> decisionbuild.build(small, n_checker=1, n_cube=1, source_games=3, games=36,
    ...                     progress=False)["done"]
    2
    >>> decisionbuild.reroll(small, os.path.join(folder, "again.parquet"), types=["cube"],
    ...                      progress=False)["rerolled"]
    1
    """
    types, phases = _chosen(types, TYPES, "types"), _chosen(phases, PHASES, "phases")
    if os.path.abspath(out) == os.path.abspath(path):
        raise ValueError(f"{os.fspath(out)}: the file read; give a new file to write")
    if os.path.exists(out):
        raise FileExistsError(f"{os.fspath(out)}: exists; give a new file to write")
    settings = bench_settings(path)
    rows = read_bench(path).to_dict("records")
    judge = _player_of(settings, path)
    if decisions is not None:
        held = {int(r["decision"]) for r in rows}
        decisions = sorted({int(d) for d in decisions})
        missing = [d for d in decisions if d not in held]
        if missing or not decisions:
            raise ValueError(f"decisions={missing or decisions}: expected one or more of "
                             f"the file's decisions (0 .. {max(held)})")
    chosen = [k for k, r in enumerate(rows) if r["type"] in types and r["phase"] in phases
              and (decisions is None or int(r["decision"]) in decisions)]
    bar = progress_bar(total=len(chosen), desc="decisions", unit="decision",
                       progress=progress)
    extra = {}
    try:
        for k in chosen:
            rows[k], extra = _roll(rows[k], judge, workers, "reroll")
            bar.update(1)
    except KeyboardInterrupt as e:      # at a cut rollout (Stopped), or between two
        stop = e if isinstance(e, Stopped) else Stopped("reroll", "between two decisions")
        raise stop.keeping("nothing written") from None
    finally:
        bar.close()
    runs = [*settings.get("rerolled", []),
            {"types": types, "phases": phases,
             **({} if decisions is None else {"decisions": decisions}),
             "package_version": __version__,
             "dice": DICE_SCHEME, **_tables(extra)}]
    settings = {**settings, "rerolled": runs}
    if "cube" in types and set(phases) == set(PHASES) and decisions is None:
        settings["cube_bearoff"] = CUBE_BEAROFF
    try:
        write_bench(out, rows, settings, replace=False)
    except FileExistsError:         # made by someone else while the rollouts ran
        raise FileExistsError(f"{os.fspath(out)}: exists (made while the decisions were "
                              "rolled out); nothing written, give a new file to write"
                              ) from None
    return {"rerolled": len(chosen), "decisions": len(rows), "path": os.fspath(out)}


def _chosen(values, allowed, name):
    if isinstance(values, str):
        values = [values]
    values = list(values)
    bad = [v for v in values if v not in allowed]
    if bad or not values:
        raise ValueError(f"{name}={values!r}: expected one or more of {', '.join(allowed)}")
    return [v for v in allowed if v in values]
