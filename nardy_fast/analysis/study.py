"""Bulk studies that resume: many positions rolled out (or evaluated), kept on disk.

``study(positions, n_games, store=PATH, seed=S)`` rolls out every distinct position (an ID
or a ``Position``) for ``n_games`` games, or evaluates it (``method="net"``, n plies),
writing the results to ``PATH`` batch by batch as they finish.  Run it again, after Ctrl-C,
a crash or a ``kill -9``, and it reads what the store holds, skips those positions and
plays the rest: at most the batches in flight are lost.  ``read_study(PATH)`` reads a store
back into one pandas DataFrame.

Seeds
-----
Position ``p`` of a study with seed ``S`` is rolled out exactly as
``rollout(p, n_games, seed=position_seed(S, p), workers=1, ...)`` would: its seed is the
first 16 bytes of SHA-256 of ``"nardy_fast.study|<S>|<position ID>"`` read as a big-endian
integer.  A row therefore depends on the study's settings and the position only: never on
the batch size, the worker count, a Dask cluster, where the study was interrupted, the
order of the positions or which other positions the study holds (a study can be extended
later with more positions).  A position listed twice is studied once: one row per distinct
ID, in the order of first appearance.  Positions are independent (no common random
numbers between them, unlike ``rollout_many``).

Store
-----
A folder holding ``_study.json`` (the manifest: the study's identity -- method, rules,
seed, policy, n_games, truncation, plies, the variance reduction asked of ``rollout`` and
the estimator it chose, the mars table truncated games use and the complete two-sided
table when one is built, a digest of the net and, with the ``"luck-net"`` estimator, of
the luck net file -- written before the first results)
and Parquet files: ``part-<run>-<k>.parquet``, one per finished batch, and
``compact-<run>-<k>.parquet``, into which every ``COMPACT_EVERY`` batches of a run (and
the rest at its end) are merged, so that a study of millions of positions stays a few
hundred files.  Every file is written to a temporary name and renamed; each carries the
identity's digest and a SHA-256 of its values in its schema metadata, and page checksums.
A store of another study, a file of another study, or a corrupt or truncated file is
refused with a ``ValueError`` naming the difference or the file, before anything is
written.  Rows repeated across files (a merge killed before it removed its inputs, or two
processes running the same study at once) are identical and read once.

Why Parquet and not DuckDB: ``pyarrow`` is already the package's Parquet extra, DuckDB
would be one more compiled dependency.  Appending a batch is writing one new file and
renaming it, which is atomic on every local file system, so a killed study never leaves
a half-written result that looks whole and needs no database lock or journal; a DuckDB
file is a single-writer database whose on-disk format changes between releases.  A
Parquet folder is read as one table by pandas, pyarrow, polars, Dask, Spark -- and by
DuckDB itself (``SELECT * FROM 'store/*.parquet'``) -- while a DuckDB file is read by
DuckDB alone.  What Parquet lacks, in-place updates and transactions over several files,
a study does not need: results are only ever added, and a repeated row is harmless.

Columns (one row per position, index ``position``: its ID)
----------------------------------------------------------
``equity`` (points per game, side on roll, under the rules' scoring), ``se_equity``,
``n_games`` (games played; 0 when evaluated), the probabilities of ``QUANTITIES`` (per
game, side on roll before it rolls, each in [0, 1]) each with its standard error
``se_<name>`` (``Outcome.se_<name>``: every probability of a rollout has one; NaN for
evaluations, which measure none, and in stores written before rollouts reported them all),
``mean_length`` (plies; NaN when evaluated) and ``method`` (``"rollout"``, ``"net 1-ply"``
or the exact race table's name).
"""
from __future__ import annotations

import hashlib
import inspect
import json
import math
import os
import re
import socket
import time

from nardy_fast.engine.evaluation.evaluator import Evaluator
from nardy_fast.engine.play.lucknet import DEFAULT_LUCK_NET
from nardy_fast.engine.evaluation.nets import DATA, DEFAULT_NET, rollout_file, shipped_net_for
from nardy_fast.core import rng as _rng
from nardy_fast.core._checks import check_count, check_plies
from nardy_fast._utils._io import atomic_write, atomic_write_text
from nardy_fast._utils._optional import require_parquet
from nardy_fast._utils._warn import warn_user
from nardy_fast._utils._progress import progress_bar
from nardy_fast._utils._settings import setting_differences
from nardy_fast.core.methods import check_method, methods_of, warn_unused
from nardy_fast._utils._resources import _alive
from nardy_fast._utils._version import __version__
from nardy_fast.core.cubestate import CubeState
from nardy_fast.core.matchrules import MatchRules, MatchState
from nardy_fast.core.position import Position, as_position, position_items
from nardy_fast.core.rules import as_rules
from nardy_fast.engine.evaluation import met
from nardy_fast.engine.evaluation._search import MAX_SEARCH_PLIES
from nardy_fast.engine.play.parallel import parallelism, run_chunks
from nardy_fast.engine.play.policy import NAMES as POLICIES, Policy
from nardy_fast.engine.play.rollout import DEFAULT_CHUNK_GAMES, as_served, rollout
from nardy_fast.engine.decisions.methods import (METHOD_OBJECTS, Net, Rollout, method_or_flat,
                                                refuse_flat)
from nardy_fast._utils.compute import Compute, resolve_compute

from collections.abc import Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from nardy_fast.core.rules import RulesLike
    from nardy_fast.core.rng import SeedLike
    from nardy_fast.engine.play.policy import PolicyLike
    import pandas as pd
    from dask.distributed import Client


__all__ = ["study", "read_study", "read_position_ids", "position_seed", "QUANTITIES",
           "COLUMNS", "METHODS", "COMPACT_EVERY", "MANIFEST"]

KIND = "nardy_fast.study"
FORMAT = 1                       # version of the store layout
MANIFEST = "_study.json"   # "_": pyarrow and pandas skip it when reading the folder
METHODS = methods_of("rollout", "net")
# A method as stores written before 0.3.0 may name it ("evaluate", the old name of "net"):
# read, never accepted as an argument.  A store's identity keeps the spelling it was
# written with, so it resumes as is.
_STORED_SPELLINGS = {"evaluate": "net"}
QUANTITIES = ("p_win", "p_lose", "p_draw", "p_mars_win", "p_mars_loss", "p_koks_win",
              "p_koks_loss", "p_home_mars_win", "p_home_mars_loss")
COLUMNS = (("position", "equity", "se_equity", "n_games")
           + tuple(c for q in QUANTITIES for c in (q, "se_" + q)) + ("mean_length", "method"))
COMPACT_EVERY = 256              # a run's part files are merged once this many are written
EVAL_BATCH = {0: 2048, 1: 128, 2: 8, 3: 1}   # positions per task of an evaluation study
_META_KEY = b"nardy_fast.study"                # schema metadata: the identity's digest
_SUM_KEY = b"nardy_fast.study.values"          # and the SHA-256 of the file's values
_PROBE_GAMES = 36


# ----------------------------------------------------------------------------------------
# seeds and input

def position_seed(seed: SeedLike, position: Position | str) -> int:
    """The ``rollout`` seed of ``position`` (a Position or ID) in a study of ``seed``
    (an int or SeedSequence): an int from SHA-256 of the study's entropy and the ID."""
    entropy = _rng.root_entropy(seed)
    pid = as_position(position).id
    return _rng.text_seed(KIND, entropy, pid)


def read_position_ids(path: str | os.PathLike[str]) -> list[str]:
    """The position IDs of a text file, one per line (blank lines and ``#`` comments
    skipped); a bad ID, or a finished game, which a study does not take, raises
    ``ValueError`` naming the file and line, and so does a file that is not UTF-8 text."""
    ids = []
    try:
        with open(path, encoding="utf-8-sig") as f:    # a byte-order mark is dropped
            lines = list(f)
    except UnicodeDecodeError as e:
        raise ValueError(f"{os.fspath(path)}: not a UTF-8 text file ({e.reason})") from None
    for n, line in enumerate(lines, 1):
        text = line.split("#", 1)[0].strip()
        if not text:
            continue
        try:
            pos = Position.from_id(text)
            _check_not_over(pos, pos.id)
        except ValueError as e:
            raise ValueError(f"{os.fspath(path)} line {n}: {e}") from None
        ids.append(pos.id)
    if not ids:
        raise ValueError(f"{os.fspath(path)}: no position IDs in the file")
    return ids


def _distinct_ids(positions, known=frozenset()):
    """The distinct IDs of ``positions``, in order of first appearance (checked: a bad
    ID or a finished game raises ``ValueError`` naming its index; IDs in ``known``, those
    of the store, were checked when they were studied)."""
    ids, seen = [], set()
    for i, p in enumerate(position_items(positions)):
        if isinstance(p, str) and p in known:
            if p not in seen:
                seen.add(p)
                ids.append(str(p))                    # a numpy array's items are np.str_
            continue
        pos = as_position(p, f"positions[{i}]")
        _check_not_over(pos, f"positions[{i}] ({pos.id})")
        if pos.id not in seen:
            seen.add(pos.id)
            ids.append(pos.id)
    if not ids:
        raise ValueError("positions: empty; expected at least one position")
    return ids


def _check_not_over(pos, name):
    """A ``ValueError`` naming ``name`` if ``pos`` is a finished game, or Black's last
    turn under ``draw_rule`` (the same board: a side has borne off every checker)."""
    if pos.is_over():
        raise ValueError(f"{name}: a side has borne off every checker (the game is over, "
                         "or under draw_rule Black has its last turn); a study takes "
                         "positions where both sides have checkers on the board")


# ----------------------------------------------------------------------------------------
# the study's identity

def _policy_text(policy):
    """A policy (or a tuple: side on roll, opponent) recorded by name: ``"net"``,
    ``"net/greedy"`` (``engine.policy``: names only, a study's identity must be text)."""
    parts = policy if isinstance(policy, tuple) else (policy,)
    if len(parts) not in (1, 2) or not all(isinstance(p, str) for p in parts):
        raise ValueError(f"policy={policy!r}: a study records its policy by name; expected "
                         f"one of {', '.join(map(repr, POLICIES))} or a tuple of two")
    names = tuple(Policy.of(p).name for p in parts)
    return "/".join(names) if len(set(names)) > 1 else names[0]


def _rollout_options(variance_reduction):
    """``(keyword arguments for rollout, the value recorded)``: ``variance_reduction`` is
    passed on only where ``rollout`` has it (None: rollout's own default, recorded)."""
    params = inspect.signature(rollout).parameters
    if "variance_reduction" not in params:
        if variance_reduction is not None:
            raise ValueError("variance_reduction: this version's rollout has no variance "
                             "reduction; leave it None")
        return {}, None
    if variance_reduction is None:
        return {}, _recorded(params["variance_reduction"].default)
    return {"variance_reduction": variance_reduction}, _recorded(variance_reduction)


def _recorded(value):
    """``value`` as the manifest's JSON records it (others by their ``repr``)."""
    return value if isinstance(value, (bool, int, float, str, type(None))) else repr(value)


def _match_text(match):
    """A MatchState as a study's identity records it (JSON values; ``_match_state`` reads
    it back)."""
    if not isinstance(match, MatchState):
        raise TypeError(f"match: expected a MatchState, got {type(match).__name__}")
    cube = match.cube
    return {"rules": match.rules.to_text(), "score": list(match.score),
            "on_roll": match.on_roll, "crawford": match.crawford,
            "cube": None if cube is None else [cube.stake, cube.owner, cube.first_turn]}


def _match_state(text):
    """The MatchState of ``_match_text``'s record."""
    cube = text["cube"]
    return MatchState(MatchRules.from_text(text["rules"]), tuple(text["score"]),
                      text["on_roll"], text["crawford"],
                      None if cube is None else CubeState(*cube))


def _with_match_columns(frame, identity):
    """``frame`` with the columns ``mwc``, ``se_mwc`` (NaN for the net) and ``emg`` when the
    study was made at a match score (its identity's ``match``): derived from the stored
    probabilities by ``met.match_extra``, as ``rollout(..., match=)`` derives them."""
    if "match" not in identity:
        return frame
    state = _match_state(identity["match"])
    extras = [met.match_extra(_RowOutcome(row), state) for row in frame.itertuples()]
    for key in ("mwc", "se_mwc", "emg"):
        frame[key] = [e[key] for e in extras]
    return frame


class _RowOutcome:
    """A stored row read as the Outcome fields ``met.mwc_of_outcome`` uses."""

    def __init__(self, row):
        for q in QUANTITIES:
            setattr(self, q, getattr(row, q))
        self.games = 0 if row.method != "rollout" else int(row.n_games)
        self.se_equity = row.se_equity             # NaN: not measured (the net)


def _net_digest(rules):
    """The digest of the shipped net file that serves ``rules`` (``Evaluator.default``:
    the one trained under their move rules, else the classic one), and of its rollout net
    file after it when one is shipped (``nets.rollout_file``)."""
    name = shipped_net_for(rules) or os.path.basename(DEFAULT_NET)
    return _files_digest(os.path.join(DATA, f_name) for f_name in (name, rollout_file(name))
                         if f_name is not None)


def _files_digest(paths):
    """``"sha256:"`` and the first 16 hex digits of the SHA-256 of the files' bytes, one
    after the other."""
    h = hashlib.sha256()
    for path in paths:
        with open(path, "rb") as f:
            h.update(f.read())
    return "sha256:" + h.hexdigest()[:16]


class _Settings:
    """The checked arguments of a study: ``identity`` (what the manifest records and a
    resumed study must match) and ``spec`` (what each batch task gets).  ``method`` is a
    name of ``METHODS`` (``study`` checks it); ``stored``, the method of the store's
    manifest, keeps an old store's spelling of it in the identity."""

    def __init__(self, method, n_games, seed, policy, rules, truncate, plies,
                 variance_reduction, stored=None, match=None):
        self.rules = as_rules(rules)
        # the store's spelling where it names this method by an old name ("evaluate")
        spelling = stored if isinstance(stored, str) and _STORED_SPELLINGS.get(stored) == method \
            else method
        ident = {"method": spelling, "rules": self.rules.to_text()}
        if match is not None:             # absent without a match: older stores resume
            ident["match"] = _match_text(match)
        if method == "net":
            if n_games not in (None, 0):
                raise ValueError(f"n_games={n_games!r}: method='net' plays no games; "
                                 "pass 0")
            ident.update(plies=check_plies(plies, MAX_SEARCH_PLIES), net=_net_digest(self.rules))
            self.options = {}
        else:
            if truncate not in ("bearoff", "race12", None):
                raise ValueError(f"truncate={truncate!r}: expected 'bearoff', 'race12' or "
                                 "None")
            self.options, vr = _rollout_options(variance_reduction)
            ident.update(n_games=check_count(n_games, "n_games", 1),
                         seed=_rng.root_entropy(seed), policy=_policy_text(policy),
                         truncate=truncate or "none", variance_reduction=vr,
                         dice=_rng.DICE_SCHEME)
            if "net" in ident["policy"]:
                ident["net"] = _net_digest(self.rules)
            ident["mars_table"], ident["estimator"], complete = self._probe(ident)
            if complete:        # absent without the table: stores made before resume
                ident["two_sided_complete"] = complete
            if ident["estimator"] == "luck-net":     # its luck changes every VR value
                ident["luck_net"] = _files_digest([DEFAULT_LUCK_NET])
        self.identity = ident
        self.key = hashlib.sha256(json.dumps(ident, sort_keys=True).encode()).hexdigest()[:32]

    def _probe(self, ident):
        """A rollout of a short race (both sides home) with the study's settings: checks
        every argument through ``rollout`` itself before anything is written; returns the
        mars table (its checkers, 0 for none) truncated games use here, the estimator
        (``extra["estimator"]``, ``"none"`` for plain rollouts) and the complete two-sided
        table they use (its checkers, 0 for none)."""
        home = [0] * 23 + [15]
        o = rollout(Position.from_boards(home, home), min(ident["n_games"], _PROBE_GAMES),
                    policy=self.policy(ident), seed=0, rules=self.rules,
                    truncate=_truncation(ident),
                    workers=1, progress=False, **self.options)
        return (int(o.extra.get("mars_table", 0)), str(o.extra.get("estimator", "none")),
                int(o.extra.get("two_sided_complete", 0)))

    @staticmethod
    def policy(ident):
        parts = ident["policy"].split("/")
        return parts[0] if len(parts) == 1 else tuple(parts)

    def spec(self, ids):
        return {"ids": list(ids), "identity": self.identity, "rules": self.rules,
                "options": self.options}


# ----------------------------------------------------------------------------------------
# batches (run in the workers)

def _row(pid, o):
    o = as_served(o)           # a race valued at the start by a table: its method, 0 games
    row = {"position": pid, "equity": float(o.equity), "se_equity": float(o.se_equity),
           "n_games": int(o.games)}
    for q in QUANTITIES:
        row[q] = float(getattr(o, q))
        row["se_" + q] = float(getattr(o, "se_" + q, math.nan))
    row["mean_length"] = float(o.mean_length)
    row["method"] = str(o.method)
    return row


def _truncation(identity):
    """The ``truncate`` of ``rollout`` that a study of this identity passes (its identity
    records None as ``"none"``)."""
    return None if identity["truncate"] == "none" else identity["truncate"]


def _evaluates(identity):
    """Whether a study of this identity evaluates with the net (by either spelling)."""
    return _STORED_SPELLINGS.get(identity["method"], identity["method"]) == "net"


def _run_batch(spec):
    """Worker entry point: one batch of position IDs -> a list of rows (``COLUMNS``)."""
    ident = spec["identity"]
    if _evaluates(ident):
        return _evaluate_batch(spec)
    rows = []
    for pid in spec["ids"]:
        o = rollout(pid, ident["n_games"], policy=_Settings.policy(ident),
                    seed=position_seed(ident["seed"], pid), rules=spec["rules"],
                    truncate=_truncation(ident),
                    workers=1, progress=False, **spec["options"])
        if o.extra.get("interrupted") or o.games != ident["n_games"]:
            raise KeyboardInterrupt           # Ctrl-C inside this process's rollout
        if int(o.extra.get("mars_table", 0)) != ident["mars_table"]:
            raise ValueError(
                f"a worker on {socket.gethostname()} truncates with the mars table of "
                f"{o.extra.get('mars_table')} checkers, the study with "
                f"{ident['mars_table']}: build the same table there, or run locally")
        complete, wanted = (int(o.extra.get("two_sided_complete", 0)),
                            ident.get("two_sided_complete", 0))
        if complete != wanted:
            raise ValueError(
                f"a worker on {socket.gethostname()} truncates with {_complete_text(complete)}"
                f", the study with {_complete_text(wanted)}: give it the same tables "
                "(NARDY_FAST_DATA), or run locally")
        rows.append(_row(pid, o))
    return rows


def _complete_text(checkers):
    """The complete two-sided table of ``checkers`` (0: none), for messages."""
    return (f"the complete two-sided table of {checkers} checkers" if checkers
            else "no complete two-sided table")


def _evaluate_batch(spec):
    ev = Evaluator.default(spec["rules"])
    outs = ev.outcomes(spec["ids"], plies=spec["identity"]["plies"])
    return [_row(pid, o) for pid, o in zip(spec["ids"], outs)]


# ----------------------------------------------------------------------------------------
# the store

def _pyarrow():
    return require_parquet("a study store (a Parquet dataset)")   # optional: named


def _schema(pa, key):
    types = {"position": pa.string(), "n_games": pa.int64(), "method": pa.string()}
    return pa.schema([(c, types.get(c, pa.float64())) for c in COLUMNS],
                     metadata={_META_KEY: key.encode()})


def _problem(table, key, pa):
    """What is wrong with a table read from a store of study ``key``, or None."""
    meta = table.schema.metadata or {}
    if meta.get(_META_KEY) != key.encode():
        return (f"results of another study (its digest "
                f"{meta.get(_META_KEY, b'none').decode(errors='replace')}, the manifest's "
                f"{key})")
    if not table.schema.equals(_schema(pa, key)):   # names and types (not the metadata)
        return f"its columns or their types are not a study's ({', '.join(table.column_names)})"
    if meta.get(_SUM_KEY) != _values_digest(table).encode():
        return "corrupt study file (its values do not match their checksum)"
    return None


def _values_digest(table):
    """SHA-256 (hex) of a table's values, column by column: page checksums do not cover
    the page headers, this does."""
    h = hashlib.sha256()
    for name in COLUMNS:
        column = table.column(name)
        if name in ("position", "method"):
            h.update("\0".join(column.to_pylist()).encode())
        else:
            h.update(column.to_numpy().tobytes())
    return h.hexdigest()


_TEMP = re.compile(r"^\.(.+?\.(?:parquet|json))\.(.+)-(\d+)\.[^.]*\.tmp")


class _Store:
    """A study folder: its manifest, its Parquet files, writing a batch and merging."""

    def __init__(self, path):
        if not isinstance(path, (str, os.PathLike)):
            raise TypeError(f"store={path!r}: expected the path of the study's folder (str "
                            "or os.PathLike)")
        self.path = os.fspath(path)
        if os.path.exists(self.path) and not os.path.isdir(self.path):
            raise ValueError(f"store={self.path}: a file, not a study folder")
        self.manifest = self._read_manifest()
        self.run = f"{time.time_ns():x}-{os.getpid()}"
        self.written, self.small = 0, []

    def _read_manifest(self):
        path = os.path.join(self.path, MANIFEST)
        if not os.path.exists(path):
            if os.path.isdir(self.path) and self.files():
                raise ValueError(f"store={self.path}: has files but no {MANIFEST}: not a "
                                 "study store (refused, nothing written)")
            return None
        try:
            with open(path, encoding="utf-8") as f:
                manifest = json.load(f)
            ok = (manifest.get("kind") == KIND and isinstance(manifest.get("identity"), dict)
                  and isinstance(manifest.get("key"), str))
        except (OSError, UnicodeDecodeError, ValueError, AttributeError) as e:
            raise ValueError(f"{path}: corrupt or truncated study manifest ({e}); refused, "
                             "nothing written") from None
        if not ok:
            raise ValueError(f"{path}: not a nardy_fast study manifest; refused")
        if manifest.get("format") != FORMAT:
            raise ValueError(f"{path}: study store format {manifest.get('format')}; this "
                             f"version reads format {FORMAT}")
        return manifest

    def files(self):
        """The visible files of the folder (results and anything else), sorted."""
        return sorted(f for f in os.listdir(self.path) if not f.startswith("."))

    def check(self, settings):
        """Refuse a store of another study, naming every field that differs."""
        if self.manifest is None:
            return
        stored, wanted = self.manifest["identity"], settings.identity
        diff = setting_differences(stored, wanted, recorded_as="in the store",
                                   wanted_as="here",
                                   unrecorded={"dice": _rng.EARLIER_DICE_SCHEME})
        if diff:
            earlier = "dice" in wanted and "dice" not in stored    # a rollout store of 0.3.0
            hint = ("; its games drew their dice by an earlier scheme, which a seed no "
                    "longer replays: start another store (read_study and 'nardy-fast "
                    "study show' still read this one)" if earlier
                    else "; use another store or the same settings")
            raise ValueError(f"store={self.path} belongs to another study ("
                             + "; ".join(diff) + ")" + hint)

    def read(self, key):
        """The rows stored, as a DataFrame indexed by position ID (repeats read once)."""
        pa, pq = _pyarrow()
        tables = []
        for name in self.files():
            if name == MANIFEST:
                continue
            path = os.path.join(self.path, name)
            if not name.endswith(".parquet"):
                raise ValueError(f"{path}: not a file of a study store; refused")
            tables.append(self._read_part(path, key, pa, pq))
        if not tables:
            return _empty_frame(key)
        frame = pa.concat_tables(tables).to_pandas().set_index("position")
        return frame[~frame.index.duplicated(keep="first")]

    @staticmethod
    def _read_part(path, key, pa, pq):
        try:
            table = pq.read_table(path, page_checksum_verification=True)
            problem = _problem(table, key, pa)
        except (pa.ArrowException, OSError, ValueError, TypeError) as e:
            problem = f"corrupt or truncated study file ({e})"
        if problem:
            raise ValueError(f"{path}: {problem}; refused, nothing written (move the file "
                             "away to recompute its positions)")
        return table

    def remove_stale_temps(self):
        """Remove the temporary files that killed processes of this host left."""
        host = socket.gethostname()
        for name in os.listdir(self.path):
            m = _TEMP.match(name)
            if m and m.group(2) == host and not _alive(int(m.group(3))):
                try:
                    os.unlink(os.path.join(self.path, name))
                except OSError:
                    pass

    def start(self, settings):
        """Write the manifest of a new store (before its first results)."""
        if self.manifest is not None:
            return
        manifest = {"kind": KIND, "format": FORMAT, "key": settings.key,
                    "identity": settings.identity, "columns": list(COLUMNS),
                    "nardy_fast": __version__,
                    "created": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}
        atomic_write_text(os.path.join(self.path, MANIFEST),
                          json.dumps(manifest, indent=1) + "\n")
        self.manifest = manifest

    def add(self, rows, settings):
        """Write one finished batch as a part file; merge the run's parts every
        ``COMPACT_EVERY``."""
        pa, _ = _pyarrow()
        self.start(settings)
        table = pa.Table.from_pylist(rows, schema=_schema(pa, settings.key))
        name = f"part-{self.run}-{self.written:07d}.parquet"
        self.written += 1
        self._write(name, table)
        self.small.append((name, table))
        if len(self.small) >= COMPACT_EVERY:
            self.compact()

    def compact(self):
        """Merge this run's part files into one (written first, then the parts removed)."""
        if len(self.small) < 2:
            return
        pa, _ = _pyarrow()
        names, tables = zip(*self.small)
        self._write(f"compact-{self.run}-{self.written:07d}.parquet", pa.concat_tables(tables))
        self.written += 1
        for name in names:
            os.unlink(os.path.join(self.path, name))
        self.small = []

    def _write(self, name, table):
        _, pq = _pyarrow()
        table = table.replace_schema_metadata({**table.schema.metadata,
                                               _SUM_KEY: _values_digest(table).encode()})
        atomic_write(os.path.join(self.path, name),
                     lambda tmp: pq.write_table(table, tmp, write_page_checksum=True))


# ----------------------------------------------------------------------------------------
# running

def _batch_size(batch_size, identity, n_todo, parallelism):
    """Positions per task: given, or about ``DEFAULT_CHUNK_GAMES`` games (evaluations:
    ``EVAL_BATCH``), shrunk so that every worker gets about 4 tasks."""
    if batch_size is not None:
        return check_count(batch_size, "batch_size", 1)
    if _evaluates(identity):
        size = EVAL_BATCH[identity["plies"]]
    else:
        size = max(1, DEFAULT_CHUNK_GAMES // identity["n_games"])
    return max(1, min(size, -(-n_todo // (4 * parallelism))))


def _run(store, settings, todo, batch, workers, client, progress, total):
    """Play the batches of ``todo``, writing each as it finishes; (new rows, interrupted)."""
    specs = [settings.spec(todo[k:k + batch]) for k in range(0, len(todo), batch)]
    new = []
    bar = progress_bar(total=total, initial=total - len(todo), desc="study", unit="pos",
                       smoothing=0.1, bar_format="{l_bar}{bar}| {n_fmt}/{total_fmt} "
                       "[{elapsed}<{remaining}, {rate_noinv_fmt}]", progress=progress)

    def on_result(i, rows):
        store.add(rows, settings)
        new.extend(rows)
        bar.update(len(rows))

    try:
        interrupted = run_chunks(_run_batch, specs, on_result,
                                 sizes=[len(s["ids"]) for s in specs], workers=workers,
                                 client=client, progress=False, desc="study")
    except (ConnectionError, ChildProcessError) as e:   # the Dask cluster lost, or a
        store.compact()                                  # worker died: its work is kept
        raise type(e)(f"{e}; {total - len(todo) + len(new)} of {total} positions are kept "
                      f"in {store.path}: run the study again to resume") from None
    finally:
        bar.close()
    store.compact()              # not after an error: the parts written stay as they are
    return new, interrupted


# the arguments of study that act only under method="rollout", and their defaults
_ROLLOUT_ONLY = {"seed": None, "policy": "net", "truncate": "bearoff",
                 "variance_reduction": None}


@method_or_flat("plies", "policy", "truncate", "variance_reduction")
def study(positions: Iterable[Position | str], n_games: int | None = None,
          store: str | os.PathLike[str] | None = None, seed: SeedLike = None, *,
          method: str | Rollout | Net = "rollout", plies: int = 0,
          policy: PolicyLike = "net",
          rules: RulesLike = None, truncate: str | None = "bearoff",
          variance_reduction: bool | str | None = None, workers: int | None = None,
          client: Client | None = None, batch_size: int | None = None,
          progress: bool | None = None, match: MatchState | None = None,
          compute: Compute | None = None) -> pd.DataFrame:
    """Run or resume a study: every position rolled out (or evaluated), kept in ``store``.

    ``method`` may also be ``nardy_fast.Net(plies)`` or
    ``nardy_fast.Rollout(RolloutSettings(n_games, policy=, truncate=,
    variance_reduction=))``, which hold their own settings: ``plies``, ``policy``,
    ``truncate`` and ``variance_reduction`` then stay at their defaults and ``n_games``
    is None or the settings' (``TypeError`` otherwise); a study has no ``dice``, cube or
    ``chunk_size`` (``ValueError``).  Every argument after ``seed`` is keyword-only.

    Parameters
    ----------
    positions : iterable of Position or position IDs (list, pandas Series, ...)
        Each distinct position is studied once.  Not finished games.
    n_games : int or None
        Games per position (``method="rollout"``, required there); 0 or None for
        ``"net"``; None or the settings' with a method object (below).
    store : str or path
        The study's folder (created if needed; required); see :mod:`nardy_fast.analysis.study`.
    seed : None, int or numpy.random.SeedSequence
        The study's seed (position seeds: ``position_seed``).  None: the store's seed when
        it has one, else fresh entropy (recorded in the manifest).
    method : {"rollout", "net"}
        Roll out with ``rollout``, or evaluate with the shipped net at ``plies`` plies
        (``Evaluator.evaluate``; exact tables in races of both homes).  Stores written
        with ``"evaluate"``, the name of ``"net"`` before 0.3.0, resume and read as
        before.
    plies : int
        ``method="net"``: the evaluator's look-ahead, 0 (default) to 3.
    policy, rules, truncate
        As for ``rollout`` (policies by name only: ``"net"``, ``"greedy"``, ... or a tuple
        of two).
    variance_reduction : None or a value ``rollout`` takes
        Passed to ``rollout`` when given (None: its default); part of the identity.
        ``seed``, ``policy``, ``truncate`` and ``variance_reduction`` set under
        ``method="net"``, or ``plies`` under ``"rollout"``, have no effect: a
        ``UserWarning`` names them.
    workers, client
        ``1``: this process; None: all local cores (a process pool); ``n``: a pool of n;
        ``client``: a ``dask.distributed.Client``.  They never change the numbers.
    batch_size : int or None
        Positions per task and per file written (default: about ``DEFAULT_CHUNK_GAMES``
        games, at least 4 tasks per worker).  At most the batches running are lost when a
        study is killed; the numbers never depend on it.
    progress : bool or None
        A bar with positions per second and the time left.  True: a bar; False: none;
        None (default): a bar when standard error is a terminal (``core._progress``).
    match : MatchState or None
        The match score (its ``on_roll`` every position's side): the frame adds ``mwc``,
        ``se_mwc`` (NaN for the net) and ``emg`` (as ``rollout(..., match=)``: from the stored
        probabilities, so the store's files are those of a money study).  Part of the
        identity: a store made at another score, or without one, is refused.
    compute : Compute or None
        ``workers``, ``client`` and ``progress`` as one object (``nardy_fast.Compute``;
        then leave those keywords out).

    Returns
    -------
    pandas.DataFrame
        One row per distinct position (index ``position``, first-appearance order) with
        the ``COLUMNS`` of :mod:`nardy_fast.analysis.study`, old rows from the store and new ones
        alike.  ``attrs``: ``study`` (the identity), ``store``, ``from_store`` (positions
        found done in the store and so skipped: a resumed study), ``complete`` (False after
        Ctrl-C: the rows finished so far, with a warning; run again to resume).

    Raises
    ------
    ValueError
        A bad position (naming its index), argument, a store of another study (naming
        what differs), a corrupt or truncated store file (naming it).

    Examples
    --------
    >>> import os, tempfile
    >>> import nardy_fast as nf
    >>> store = os.path.join(tempfile.mkdtemp(), "races.study")
    >>> st = nf.study(nf.race_sample(2, seed=1), 72, store, seed=1, policy="random",
    ...               truncate=None, workers=1, progress=False)
    >>> st[["n_games", "p_win", "equity"]].round(3)
                                       n_games  p_win  equity
    position
    WAAAAAAAAAAAAAAAAAAAAAAAAIBIBECEh       72  0.153  -0.694
    WAAAAAAAAAAAAAAAAAAAAAAAAIgICIBIh       72  0.931   0.861
    >>> nf.read_study(store).equals(st)
    True
    """
    import pandas as pd          # lazy: pandas is slow to import; import nardy_fast skips it
    if store is None:
        raise TypeError("study: store=None: expected the folder that keeps the study's "
                        "results (required; created if needed), e.g. store='races.study'")
    if isinstance(method, METHOD_OBJECTS):
        method, n_games, plies, policy, truncate, variance_reduction = _from_object(
            method, n_games, plies, policy, truncate, variance_reduction)
    elif n_games is None and method == "rollout":
        raise TypeError("study: n_games is required with method='rollout' (games per "
                        "position), or pass method=Rollout(RolloutSettings(n_games))")
    compute = resolve_compute("study", compute, workers=workers, client=client,
                              progress=progress)
    workers, client, progress = compute.workers, compute.client, compute.progress
    if batch_size is not None:         # here: refused before the store's folder is made
        check_count(batch_size, "batch_size", 1)
    _pyarrow()                         # the store is Parquet: a missing pyarrow named now,
                                       # not after the first batch of games
    method = check_method(method, METHODS)
    if method == "net":
        warn_unused("with method='net' (it plays no games)", _ROLLOUT_ONLY, seed=seed,
                    policy=policy, truncate=truncate,
                    variance_reduction=variance_reduction)
    else:
        warn_unused(f"with method={method!r} (its players are policy=)", {"plies": 0},
                    plies=plies)
    st = _Store(store)
    stored = None if st.manifest is None else st.manifest["identity"]
    if seed is None and stored is not None:
        seed = stored.get("seed")
    settings = _Settings(method, n_games, seed, policy, rules, truncate, plies,
                         variance_reduction, None if stored is None else stored.get("method"),
                         match)
    st.check(settings)
    done = st.read(settings.key) if os.path.isdir(st.path) else None
    known = set() if done is None else set(done.index)
    ids = _distinct_ids(positions, known)
    if match is not None:
        for pid in ids:
            if Position.from_id(pid).side != match.on_roll:
                raise ValueError(f"match: on_roll={match.on_roll!r} but position {pid} "
                                 f"has {Position.from_id(pid).side} on roll")
    todo = [p for p in ids if p not in known]
    if todo:
        try:
            os.makedirs(st.path, exist_ok=True)
        except OSError as e:
            raise type(e)(f"store={st.path}: cannot make the study's folder "
                          f"({e.strerror or e})") from None
        st.remove_stale_temps()
        batch = _batch_size(batch_size, settings.identity, len(todo),
                            parallelism(workers, client))
        new, interrupted = _run(st, settings, todo, batch, workers, client, progress,
                                len(ids))
    else:
        new, interrupted = [], False
    frames = [] if done is None else [done]
    if new:
        frames.append(pd.DataFrame(new, columns=list(COLUMNS)).set_index("position"))
    frame = pd.concat(frames) if frames else _empty_frame(settings.key)
    present = set(frame.index)
    frame = frame.loc[[p for p in ids if p in present]]
    frame = _with_match_columns(frame, settings.identity)
    frame.attrs.update(study=dict(settings.identity), store=st.path,
                       complete=len(frame) == len(ids),
                       from_store=len(set(ids) & known))
    if interrupted:
        warn_user(f"study interrupted: {len(frame)} of {len(ids)} positions done, kept in "
                  f"{st.path}; run it again to resume", RuntimeWarning)
    return frame


def _from_object(method, n_games, plies, policy, truncate, variance_reduction):
    """``study``'s flat ``(method, n_games, plies, policy, truncate, variance_reduction)``
    of a method object (``Rollout`` or ``Net``), refusing flat values beside it."""
    refuse_flat("study", method, plies=(plies, 0), policy=(policy, "net"),
                truncate=(truncate, "bearoff"), variance_reduction=(variance_reduction, None))
    if isinstance(method, Net):
        return "net", n_games, method.plies or 0, policy, truncate, variance_reduction
    if not isinstance(method, Rollout):
        raise ValueError(f"study: method={method!r}: expected Rollout(...), Net(...), "
                         "'rollout' or 'net'")
    st = method.settings
    extra = [f for f in ("dice", "chunk_size", "cube", "cube_state", "cube_probabilities")
             if getattr(st, f) is not None]
    if extra:
        raise ValueError(f"study: method=Rollout(settings): {', '.join(extra)}: a study "
                         "does not take them; leave them None")
    if n_games is not None and n_games != st.n_games:
        raise TypeError("study: n_games given both as an argument and in the Rollout's "
                        "settings; pass None")
    return "rollout", st.n_games, 0, st.policy, st.truncate, st.variance_reduction


def _empty_frame(key):
    pa, _ = _pyarrow()
    return _schema(pa, key).empty_table().to_pandas().set_index("position")


def read_study(store: str | os.PathLike[str]) -> pd.DataFrame:
    """A study store read back: one DataFrame indexed by position ID (sorted), the
    ``COLUMNS`` of :mod:`nardy_fast.analysis.study`; ``attrs["study"]`` is its identity.  A folder
    that is no study, a corrupt or truncated file: ``ValueError`` naming it.

    Returns
    -------
    pandas.DataFrame
        One row per position of the store, indexed by position ID.

    Examples
    --------
    >>> import os, tempfile
    >>> import nardy_fast as nf
    >>> store = os.path.join(tempfile.mkdtemp(), "races.study")
    >>> st = nf.study(nf.race_sample(2, seed=1), 72, store, seed=1, policy="random",
    ...               truncate=None, workers=1, progress=False)
    >>> st[["n_games", "p_win", "equity"]].round(3)
                                       n_games  p_win  equity
    position
    WAAAAAAAAAAAAAAAAAAAAAAAAIBIBECEh       72  0.153  -0.694
    WAAAAAAAAAAAAAAAAAAAAAAAAIgICIBIh       72  0.931   0.861
    >>> nf.read_study(store).equals(st)
    True
    """
    st = _Store(store)
    if st.manifest is None:
        raise ValueError(f"store={st.path}: no study here (no {MANIFEST})")
    frame = _with_match_columns(st.read(st.manifest["key"]).sort_index(),
                                st.manifest["identity"])
    frame.attrs.update(study=dict(st.manifest["identity"]), store=st.path)
    return frame
