"""The one-sided database of races without contact (``Race12``) and the race values from it.

A race without contact: both sides have every checker on the last 12 points of their own
path (points 13-24, which are the other side's 1-12), so neither can ever meet the other.
Each side then races alone: the database holds, for every board of at most 15 checkers on
those 12 points (C(27, 12) = 17,383,860 boards), the distribution of the side's own turns
to bear off all checkers under the play minimising its expectation, the distribution of
turns to its first checker off (play minimising that; mars), and of turns until all its
checkers are home under that play (home mars).  ``race12_probabilities`` convolves the two
sides' distributions (method ``"one_sided12"``): the side on roll wins iff it needs no more
turns than the other, as ``race.py``'s one-sided method does for races of both homes.  Like
that method it is approximate: it ignores that the best play can depend on the opponent
(racing for the last checker, saving the mars); its error is measured in
``benchmarks/RESULTS.md`` (against the exact two-sided table and against rollouts).

Rules: the race is the same under every head rule, ``larger_die_rule``, ``block_transient``
and ``opening_roll`` (each die is always playable in such a race, so the dice rules never
bite; ``_race12solve.pyx``), and under ``block_rule`` "ahead" or "none" (the other side is
always ahead of any block).  ``block_rule="home"`` makes a block depend on the other side
(no block while it has no checker home or off), so the database does not serve it
(``supports``).  Storage: per board and distribution a window of its CDF, quantised to
1/65535 (``_race12.pxd``); sizes, build time and memory in ``benchmarks/RESULTS.md``.
"""
from __future__ import annotations

import math
import os
import sys
import time

import numpy as np

from nardy_fast.tables import _race12, _race12solve
from nardy_fast.core._checks import check_int
from nardy_fast._utils._dbfile import DatabaseError, read_db, table_path, write_db
from nardy_fast._utils._progress import progress_callback, show_progress
from nardy_fast._utils._resources import check_disk, check_memory
from nardy_fast._utils._warn import warn_user
from nardy_fast._utils.datadir import cached, data_dir
from nardy_fast.core._state import finished_reason
from nardy_fast.core.position import WHITE, Position, as_position
from nardy_fast.core.result import Outcome
from nardy_fast.tables.race import race_outcome
from nardy_fast.core.rules import as_rules

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from nardy_fast.core.rules import RulesLike
    import numpy.typing as npt


__all__ = ["Race12", "race12", "cached_race12", "race12_probabilities", "supports", "n_race_boards",
           "METHOD", "DEFAULT_NAME", "build_needs"]

METHOD = "one_sided12"
DEFAULT_NAME = "race-one-sided-12x15.nfdb"
DISTS = ("turns", "first", "home")
# Bytes per board while building (G tables 72, values 16, windows 18) and per window entry
# of the float32 pools (x 1.5: the room a growing pool may take), and of the file.
_BUILD_PER_BOARD = 72 + 16 + 18
_FILE_PER_BOARD = 8 + 18
_ENTRIES_PER_BOARD = 24          # pmf entries per board, all three distributions (measured)


def n_race_boards(points: int = 12, max_checkers: int = 15) -> int:
    """Boards of at most ``max_checkers`` checkers on ``points`` points: C(N + P, P)."""
    return math.comb(int(max_checkers) + int(points), int(points))


def build_needs(points: int = 12, max_checkers: int = 15) -> tuple[int, int]:
    """(memory, file) bytes a build of these sizes needs, estimated up front."""
    m = n_race_boards(points, max_checkers)
    pools = m * _ENTRIES_PER_BOARD * 4
    return (m * _BUILD_PER_BOARD + pools * 3 // 2 + pools // 2 + m * 18,
            m * _FILE_PER_BOARD + pools // 2)


def supports(rules: RulesLike) -> bool:
    """True when the database values races under ``rules`` (not ``block_rule="home"``)."""
    return as_rules(rules).block_rule != "home"


class Race12:
    """One-sided distributions of every board of at most ``max_checkers`` checkers on a
    side's last ``points`` points.

    Boards are 24-point boards in the side's own numbering (checkers only on points
    ``25 - points`` .. 24) or race boards ``c`` of 12 counts, ``c[i]`` = checkers on point
    24 - i (``c[:6]`` is ``board6``).  ``arrays`` holds ``offset`` (the index layout,
    ``_race12.pxd``), ``mean`` / ``mean_first`` (float32, own turns) and, per distribution
    ``turns``, ``first``, ``home``, the CDF windows ``*_lo``, ``*_n``, ``*_start``, ``*_cdf``.
    """

    kind = "race12"

    def __init__(self, arrays, points=12, max_checkers=15, path=None):
        self.points = check_int(points, 6, 12, "points")
        self.max_checkers = check_int(max_checkers, 0, 15, "max_checkers")
        self.path = table_path(path)
        m = n_race_boards(self.points, self.max_checkers)
        off = arrays["offset"]
        if off.shape != (math.comb(self.max_checkers + self.points - 6, self.points - 6) + 1,) \
                or int(off[-1]) != m:
            raise ValueError(f"offset: not the layout of {self.points} points, "
                             f"{self.max_checkers} checkers")
        for name in ("mean", "mean_first") + tuple(f"{d}_{k}" for d in DISTS
                                                   for k in ("lo", "n", "start")):
            if arrays[name].shape != (m,):
                raise ValueError(f"{name}: expected shape ({m},), got {arrays[name].shape}")
        self.arrays = arrays
        self._tables = None

    @property
    def n_boards(self) -> int:
        return int(self.arrays["offset"][-1])

    def __repr__(self):
        return f"Race12(points={self.points}, max_checkers={self.max_checkers})"

    def __reduce__(self):
        if self.path is not None:
            return (type(self).load, (self.path, False))
        return (type(self), (self.arrays, self.points, self.max_checkers))

    @property
    def tables(self):
        """The ``_race12.Race12Tables`` C code reads (made once)."""
        if self._tables is None:
            self._tables = _race12.Race12Tables(self.arrays, self.points, self.max_checkers)
        return self._tables

    # build / files ---------------------------------------------------------------------
    @classmethod
    def build(cls, points: int = 12, max_checkers: int = 15, progress: bool | None = None,
              path: str | os.PathLike[str] | None = None) -> Race12:
        """Solve every board (single-threaded; the default sizes take about 80 s of CPU,
        figures in ``benchmarks/RESULTS.md``).  Refused up front (``MemoryError``, or
        ``OSError`` ENOSPC with ``path``) when it would not fit in memory or on disk."""
        P = check_int(points, 6, 12, "points")
        N = check_int(max_checkers, 0, 15, "max_checkers")
        mem, disk = build_needs(P, N)
        check_memory(mem, f"the race database of {P} points, {N} checkers",
                     "build a smaller one (points=, max_checkers=) or free memory")
        if path is not None:
            folder = os.path.dirname(os.path.abspath(os.fspath(path)))
            os.makedirs(folder, exist_ok=True)
            check_disk(folder, disk)
        m = n_race_boards(P, N)
        progress = show_progress(progress)
        bar = progress_callback(progress, f"race database {P} points x {N}")
        t0 = time.perf_counter()
        try:
            raw = _race12solve.solve(P, N, lambda k: bar(100.0 * k / (2 * m)))
        finally:
            bar(None)
        arrays = {"offset": raw.pop("offset"),
                  "mean": raw.pop("mean").astype(np.float32),
                  "mean_first": raw.pop("mean_first").astype(np.float32)}
        for d in DISTS:
            pmf = raw.pop(d + "_pmf")
            lo, n, start = raw.pop(d + "_lo"), raw.pop(d + "_n"), raw.pop(d + "_start")
            (arrays[d + "_lo"], arrays[d + "_n"], arrays[d + "_start"],
             arrays[d + "_cdf"]) = _race12solve.cdf_windows(lo, n, start, pmf)
            del pmf
        if progress:
            print(f"race database: {arrays['mean'].shape[0]:,} boards in "
                  f"{time.perf_counter() - t0:.1f} s", file=sys.stderr)
        db = cls(arrays, P, N)
        if path is not None:
            db.save(path)
        return db

    def save(self, path: str | os.PathLike[str]) -> str:
        """Write the database to ``path`` atomically (a temporary name, then a rename)."""
        meta = {"points": self.points, "max_checkers": self.max_checkers,
                "n_boards": self.n_boards, "index": "race12-v1",
                "objective": "turns: min expected turns; first, home: min expected turns "
                             "to the first checker off",
                "quantisation": "CDF windows, 1/65535",
                "rules": "no contact: every Rules field but block_rule='home'"}
        return write_db(path, self.kind, meta, self.arrays)

    @classmethod
    def load(cls, path: str | os.PathLike[str], verify: bool = True) -> Race12:
        """Memory-map a database written by ``save``; ``DatabaseError`` if it is damaged."""
        meta, arrays = read_db(path, cls.kind, verify=verify)
        try:
            return cls(arrays, int(meta["points"]), int(meta["max_checkers"]),
                       path=os.fspath(path))
        except (KeyError, ValueError, TypeError) as e:
            raise DatabaseError(f"{os.fspath(path)}: inconsistent contents ({e})") from None

    # queries ---------------------------------------------------------------------------
    def race_board(self, board: npt.ArrayLike) -> npt.NDArray[np.uint8]:
        """The race board (12 counts, c[i] on point 24 - i) of a 24-point or race board;
        ValueError when it has checkers outside the last ``points`` points or too many."""
        b = np.asarray(board)
        if b.shape not in ((24,), (12,)) or b.dtype.kind not in "iu" or (b < 0).any():
            raise ValueError(f"board: expected 24 or 12 non-negative integer counts, "
                             f"got shape {b.shape}")
        c = b[23:11:-1] if b.shape == (24,) else b
        if b.shape == (24,) and b[:12].any():
            raise ValueError("board: checkers outside the last 12 points (no such race)")
        if c[self.points:].any():
            raise ValueError(f"board: checkers beyond the last {self.points} points")
        if int(c.sum()) > self.max_checkers:
            raise ValueError(f"board: {int(c.sum())} checkers, the database has at most "
                             f"{self.max_checkers}")
        return np.ascontiguousarray(c, dtype=np.uint8)

    def index_of(self, board: npt.ArrayLike) -> int:
        """Index of one board in this database."""
        c = self.race_board(board)
        return int(_race12.indices_of(self.arrays["offset"], self.points, c[None, :])[0])

    def _pmf(self, dist, board):
        i = self.index_of(board)
        a = self.arrays
        lo, n, s = int(a[dist + "_lo"][i]), int(a[dist + "_n"][i]), int(a[dist + "_start"][i])
        cdf = np.ones(lo + n + 1)
        cdf[:lo] = 0.0
        cdf[lo:lo + n] = a[dist + "_cdf"][s:s + n] / 65535.0
        return np.diff(cdf, prepend=0.0)

    def distribution(self, board: npt.ArrayLike) -> npt.NDArray[np.float64]:
        """P(exactly t own turns to bear off all), t = 0, 1, ...: float64 ndarray."""
        return self._pmf("turns", board)

    def first_off_distribution(self, board: npt.ArrayLike) -> npt.NDArray[np.float64]:
        """P(first checker off on own turn t): ``[1]`` when one is off already."""
        return self._pmf("first", board)

    def mean_turns(self, board: npt.ArrayLike) -> float:
        """Expected own turns to bear off all (float32 precision)."""
        return float(self.arrays["mean"][self.index_of(board)])

    def mean_first_off(self, board: npt.ArrayLike) -> float:
        """Expected own turns until the first checker is off (0 when one is)."""
        return float(self.arrays["mean_first"][self.index_of(board)])

    def covers(self, position: Position) -> bool:
        """True when both sides of ``position`` are on their last ``points`` points, with
        at most ``max_checkers`` checkers each, and the game is not over."""
        b = position.boards
        counts = b.sum(axis=1)
        return (not b[:, :24 - self.points].any() and bool((counts > 0).all())
                and int(counts.max()) <= self.max_checkers)


NOT_BUILT = ("the race database has not been built: nardy-fast bearoff build --race12 "
             "(or race12.race12(build=True))")


def race12(build: bool = False, progress: bool | None = None) -> Race12 | None:
    """The default database (12 points, 15 checkers) from the cache folder, or None when it
    has not been built, with a ``RuntimeWarning`` saying how to build it.
    ``build=True`` builds it when absent (about 80 s of CPU, 3.5 GB of memory;
    ``nardy-fast bearoff build --race12``); queries never do (they use ``cached_race12``,
    which says nothing)."""
    db = cached_race12(build, progress)
    if db is None:
        warn_user(f"race12() is None: {NOT_BUILT}", RuntimeWarning)
    return db


def cached_race12(build: bool = False, progress: bool | None = None) -> Race12 | None:
    """``race12`` without the warning: the database, or None when it has not been built
    (for the evaluator and rollouts, which use it once it is built)."""
    def make():
        return Race12.build(12, 15, progress=progress,
                            path=os.path.join(data_dir(), DEFAULT_NAME))
    return cached(Race12, DEFAULT_NAME, make if build else None, saved=True,
                  expect={"points": 12, "max_checkers": 15})


def race12_probabilities(position: Position | str, rules: RulesLike = None,
                         tables: Race12 | None = None) -> Outcome:
    """Winning, mars and expected points of a race without contact for the side on roll,
    by convolution of the one-sided distributions (method ``"one_sided12"``).

    ``position``: a ``Position`` or its ID.  ``tables``: a ``Race12`` (default: the cached
    ``race12()``; ValueError when it has not been built).  ValueError when the position is
    not such a race, or under rules the database does not serve (``supports``).

    Returns
    -------
    Outcome
        Probabilities and expected points for the side on roll, ``method``
        ``"one_sided12"``: an approximation (see the module docstring), so its ``se_*``
        are NaN (not measured).

    Examples
    --------
    >>> import numpy as np
    >>> import nardy_fast as nf
    >>> from nardy_fast.tables.race12 import Race12
    >>> db = Race12.build(points=7, progress=False)   # races on the last 7 points, in memory
    >>> me = np.zeros(24, int); me[17] = 2          # two checkers on point 18, outside home
    >>> you = np.zeros(24, int); you[18] = 1; you[20] = 1
    >>> o = nf.race12_probabilities(nf.Position(me, you), tables=db)
    >>> o.method, round(o.p_win, 3), round(o.equity, 3)
    ('one_sided12', 0.492, -0.017)
    """
    if isinstance(position, str):                    # an ID, as every function takes it
        position = as_position(position)
    if not isinstance(position, Position):
        raise TypeError(f"position: expected a Position or a position ID, got "
                        f"{type(position).__name__}")
    rules = as_rules(rules)
    if not supports(rules):
        raise ValueError("block_rule='home': a block depends on the other side's checkers, "
                         "the one-sided race database does not serve these rules")
    db = cached_race12() if tables is None else tables
    if db is None:
        raise ValueError(NOT_BUILT)
    if not db.covers(position):
        raise ValueError(_not_covered(db, position, rules))
    w, mw, ml, draw, hw, hl = db.tables.outcome(position.boards[0], position.boards[1],
                                                rules.draw_rule, position.side == WHITE)
    return race_outcome(rules, w, mw, ml, draw, METHOD,
                        {"checkers": tuple(int(v) for v in position.boards.sum(axis=1))},
                        p_home_mars_win=hw, p_home_mars_loss=hl)


def _not_covered(db, position, rules):
    """Why ``db`` does not cover ``position`` (``Race12.covers`` is False): the game is
    over, a side has more checkers than the database, or checkers outside its points."""
    reason = finished_reason(position, rules)
    if reason is not None:
        return f"the game is over: {reason}"
    b = position.boards
    counts = b.sum(axis=1)
    if not (counts > 0).all():
        return ("black's last turn under draw_rule (white has borne off all 15 checkers): "
                "not a race; race_probabilities values it")
    for row, who in ((0, "side on roll"), (1, "opponent")):
        if int(counts[row]) > db.max_checkers:
            return (f"the {who} has {int(counts[row])} checkers, this race database covers "
                    f"at most {db.max_checkers}")
    return (f"not a race without contact covered by the database: every checker must be "
            f"on its side's last {db.points} points")
