"""Exact bear-off databases: one-sided turn distributions, two-sided winning chances and
the mars extension (a side with all 15 checkers against one with a few).

Once all of a side's checkers are in its home (points 19-24), nothing can block it, and
its bear-off is backgammon's one-sided bear-off (rule book sections 5 and 6).  The tables
here are exact (float64, computed by the Cython solvers ``_onesided``, ``_twosided`` and ``_mars``) and depend on
no rule variant.  Race probabilities convolved from two one-sided distributions are not:
they are the "one-sided approximation" (``nardy_fast.tables.onesided``).

Board convention
----------------
Every function takes ``board6``: 6 checker counts, ``board6[i]`` = checkers on the point a
die of ``i + 1`` bears off from, i.e. the mover's own point ``24 - i``.  A 24-point board in
the side's own numbering is accepted too (``board6[i] = board[23 - i]``; checkers outside
the home are an error).  Stacks ``(n, 6)`` or ``(n, 24)`` make vectorised queries.

Index
-----
``index_of(board6) = sum_{k=0}^{5} C(S_k + k, k + 1)`` with ``S_k = board6[5] + ... +
board6[5 - k]`` (the colexicographic rank of the checkers' "stars and bars").  Boards with
fewer checkers come first: every board of at most ``n`` checkers has an index below
``C(n + 6, 6)``, so the empty board is 0 and the 54,264 boards of at most 15 checkers are
``0 .. 54263``; every move leads to a smaller index.

Databases
---------
``OneSided`` (every board of <= 15: turn distributions), ``TwoSided`` (both sides of <= N
checkers, default 8: P(win); no mars is possible), ``MarsTable`` (one side with all 15
checkers, none off, against 1..N, default 8: P(win) and P(mars) under the play maximising
each side's expected points for given oin / mars points).

Cache folder
------------
``one_sided()``, ``two_sided()`` and ``mars_table()`` build their default database on
first use and keep it in the cache folder ``data_dir()`` (``NARDY_FAST_DATA``, else
``$XDG_CACHE_HOME/nardy_fast``); see ``nardy_fast._utils.datadir``.

Examples
--------
>>> import nardy_fast as nf
>>> nf.bearoff.one_sided()
OneSided(max_checkers=15, boards=54264, turns columns=31)
"""
from __future__ import annotations

import math
import os
import sys
import time

import numpy as np

from nardy_fast.core._state import impossible_state
from nardy_fast.core.rules import as_rules
from nardy_fast.tables import _board6, _mars, _twosided
from nardy_fast.core._checks import as_board6, as_indices, as_table, check_int, check_threads
from nardy_fast._utils._progress import progress_callback, show_progress
from nardy_fast._utils._dbfile import DatabaseError, DbWriter, read_db, table_path, write_db
from nardy_fast._utils._resources import check_memory
from nardy_fast._utils.datadir import DATA_ENV, cached, data_dir
from nardy_fast.tables.onesided import RULES_META, OneSided, n_boards
from nardy_fast.core.position import PIPS_PER_ROLL

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from nardy_fast.core.rules import RulesLike
    import numpy.typing as npt


__all__ = ["OneSided", "TwoSided", "MarsTable", "DatabaseError", "one_sided", "two_sided",
           "mars_table", "mars_points", "index_of", "board_of", "to_board6", "epc", "data_dir", "DATA_ENV", "N_BOARDS",
           "PIPS_PER_ROLL"]

N_BOARDS = 54264                 # boards of at most 15 checkers on 6 points: C(21, 6)
DEFAULT_TWO_SIDED = 8
MARS_THREADS_MIN_Y = 400         # MarsTable.build uses one thread below this many Y boards
DEFAULT_MARS = 8                 # Y checkers of the default mars table (see MarsTable), as
                                 # the two-sided default (build time: benchmarks/RESULTS.md)

# ----------------------------------------------------------------------------------------
# index <-> board

def to_board6(boards: npt.ArrayLike) -> npt.NDArray[np.uint8]:
    """board6 of 24-point boards with every checker home (board6 rows pass as they are):
    ndarray of uint8, shape (6,) for one board, else (n, 6); ValueError naming a checker
    outside the home."""
    b, single = as_board6(boards, "board")
    return b[0] if single else b


def index_of(boards: npt.ArrayLike) -> int | npt.NDArray[np.intp]:
    """Index of each board (see the module docstring).

    Parameters
    ----------
    boards : array_like of int, shape (6,), (24,), (n, 6) or (n, 24)

    Returns
    -------
    int, or ndarray of intp, shape (n,)

    Examples
    --------
    >>> index_of([0, 0, 0, 0, 0, 0]), index_of([1, 0, 0, 0, 0, 0]), index_of([0] * 5 + [15])
    (0, 1, 54263)
    """
    b, single = as_board6(boards, "boards")
    idx = _board6.indices_of(b)
    return int(idx[0]) if single else idx


def board_of(indices: int | npt.ArrayLike) -> npt.NDArray[np.uint8]:
    """Board of each index: ndarray of uint8, shape (6,) for one index, else (n, 6)."""
    idx, single = as_indices(indices, N_BOARDS)
    b = _board6.boards_of(idx)
    return b[0] if single else b


def epc(board6: npt.ArrayLike, tables: OneSided | None = None
        ) -> float | npt.NDArray[np.float64]:
    """Effective pip count: expected turns to bear off x 49/6 (the mean pips of a roll).

    ``tables`` is the ``OneSided`` database (default: ``one_sided()``).  Returns a float for one board, an ndarray of float64,
    shape (n,), for a stack.
    """
    return (tables if tables is not None else one_sided()).epc(board6)


# ----------------------------------------------------------------------------------------
# two-sided


def check_not_both_off(a, b, single):
    """``ValueError`` (``core._state.impossible_state``'s reason) when a pair of the board
    stacks ``a``, ``b`` (n, 6) has both boards empty: no game reaches that state, so no
    table answers for it (it read P(win) 0)."""
    both = ~(a.any(axis=1) | b.any(axis=1))
    if both.any():
        k = int(np.argmax(both))
        raise ValueError(f"on_roll6 and opponent6{'' if single else f'[{k}]'}: "
                         f"{impossible_state(a[k], b[k])}")

class TwoSided:
    """Exact two-sided bear-off database for boards of at most ``max_checkers`` checkers.

    Attributes
    ----------
    p_win_table : ndarray of float64, shape (m, m), m = C(max_checkers + 6, 6)
        ``p_win_table[a, b]``: probability that the side on roll with board index ``a``
        wins against board index ``b``, both sides playing to maximise their own expected
        points.  Below 15 checkers no mars is possible (a checker is already off), so that
        is the probability of winning.  Column 0 (the opponent has borne off everything)
        is 0; row 0 is 1 except ``[0, 0] = 0``.
    max_checkers : int
        At most 14: a side with all 15 checkers would bring mars into play, and the
        15-checker table (54,264 squared) does not fit in memory.  Races of a side with
        all 15 checkers against one of at most N are the ``MarsTable``'s.
    mars : MarsTable or None
        The exact mars extension (15 checkers against <= N), when attached: by
        ``build(mars=True)``, the constructor, or, for the cached default ``two_sided()``,
        on first access (``mars_table()``: built once, then cached).
    """

    kind = "two_sided"

    def __init__(self, p_win_table, max_checkers, path=None, mars=None):
        self.max_checkers = int(max_checkers)
        m = n_boards(self.max_checkers)
        self.p_win_table = as_table(p_win_table, (m, m), "p_win_table")
        self.path = table_path(path)
        if mars is not None and not isinstance(mars, MarsTable):
            raise TypeError(f"mars: expected a MarsTable or None, got {type(mars).__name__}")
        self._mars = mars
        self._mars_default = False      # two_sided(): attach mars_table() on first access

    @property
    def mars(self) -> MarsTable | None:
        """The attached ``MarsTable`` (or None); see the class docstring.  For the cached
        default (``two_sided()``) it is the classic ``mars_table()`` if that has been built."""
        if self._mars is None and self._mars_default:
            self._mars = mars_table(min(self.max_checkers, DEFAULT_MARS), build=False)
        return self._mars

    def mars_for(self, rules: RulesLike = None, fewest: int = 0) -> MarsTable | None:
        """The attached ``MarsTable`` if it serves races of 15 checkers against ``fewest``
        under ``rules`` (same ratio of mars to oin points), else None.  For the cached
        default (``two_sided()``) that is the classic ``mars_table()`` when it has been
        built and covers ``fewest`` (loaded only then)."""
        table = self._mars
        if (table is None and self._mars_default
                and fewest <= min(self.max_checkers, DEFAULT_MARS)
                and mars_points(rules)[2] == mars_points(None)[2]):
            table = self.mars
        if (table is not None and table.all_checkers == 15 and fewest <= table.max_checkers
                and table.matches(rules)):
            return table
        return None

    @mars.setter
    def mars(self, table: MarsTable | None) -> None:
        if table is not None and not isinstance(table, MarsTable):
            raise TypeError(f"mars: expected a MarsTable or None, got {type(table).__name__}")
        self._mars = table

    def use_default_mars(self) -> TwoSided:
        """Attach the classic ``mars_table()`` on first access when it has been built (the
        cached default ``two_sided()`` does this; it never builds it); returns self."""
        self._mars_default = True
        return self

    def __repr__(self):
        return f"TwoSided(max_checkers={self.max_checkers}, boards={self.n_boards})"

    @property
    def n_boards(self) -> int:
        return self.p_win_table.shape[0]

    def __reduce__(self):
        """Pickles as its file path when it has one (workers memory-map it), else as data."""
        if self.path is not None and self._mars is None and not self._mars_default:
            return (type(self).load, (self.path, False))
        return (_two_sided_restore, (self.path, None if self.path else
                                     np.asarray(self.p_win_table), self.max_checkers,
                                     self._mars, self._mars_default))

    @classmethod
    def build(cls, max_checkers: int = DEFAULT_TWO_SIDED, progress: bool | None = None,
              threads: int | None = None, mars: bool = False,
              rules: RulesLike = None) -> TwoSided:
        """Solve every pair of boards of at most ``max_checkers`` (0..14) checkers exactly.

        ``mars=True`` also builds the ``MarsTable`` of 15 checkers against at most
        ``max_checkers`` for the points of ``rules`` (default classic) and attaches it as
        ``.mars`` (in memory: see ``MarsTable.build`` for its time and memory; save it
        with ``.mars.save(path)``).

        Memory: one float64 table of ``C(max_checkers + 6, 6) ** 2`` entries (72 MB for 8,
        513 MB for 10, 2.8 GB for 12).  ``progress``: a bar and a summary line (True,
        False, or None: when standard error is a terminal).  ``threads``: POSIX threads
        solving each board together (None: every usable core; capped at the usable
        cores); the table is bit-identical for any number.  The threads meet three times
        per board, so expect a gain only with idle cores (see ``benchmarks/RESULTS.md``).
        """
        mc = check_int(max_checkers, 0, 14, "max_checkers")
        threads = check_threads(threads)
        progress = show_progress(progress)
        m = n_boards(mc)
        check_memory(8 * m * m, f"the two-sided bear-off database of {mc} checkers",
                     "use a smaller max_checkers")
        table = np.empty((m, m), dtype=np.float64)
        t0 = time.perf_counter()
        solver = _twosided.TwoSidedSolver(mc, table, threads)
        # shells grow linearly in cost: cut them into ~100 steps of equal work
        steps = sorted({int(m * math.sqrt(k / 100)) for k in range(1, 101)} | {m})
        bar = progress_callback(progress, f"two-sided bear-off {mc}x{mc}")
        try:
            for stop in steps:
                solver.run(stop)
                bar(100 * (stop / m) ** 2)
            solver.finish()
        finally:
            bar(None)
        if progress:
            print(f"two-sided bear-off database: {m:,} x {m:,} in "
                  f"{time.perf_counter() - t0:.2f} s", file=sys.stderr)
        mt = MarsTable.build(mc, rules, progress=progress, threads=threads) if mars else None
        return cls(table, mc, mars=mt)

    def save(self, path: str | os.PathLike[str]) -> str:
        """Write the database to ``path`` (atomically: a temporary name, then a rename)."""
        meta = {"max_checkers": self.max_checkers, "n_boards": self.n_boards,
                "index": "colex-v1", "rules": RULES_META,
                "objective": "each side maximises its expected points (= P(win), no mars "
                             "below 15 checkers)"}
        return write_db(path, self.kind, meta, {"p_win": self.p_win_table})

    @classmethod
    def load(cls, path: str | os.PathLike[str], verify: bool = True) -> TwoSided:
        """Memory-map a database written by ``save``; ``DatabaseError`` if it is damaged."""
        meta, arrays = read_db(path, cls.kind, verify=verify)
        try:
            return cls(arrays["p_win"], int(meta["max_checkers"]), path=os.fspath(path))
        except (KeyError, ValueError, TypeError) as e:
            raise DatabaseError(f"{os.fspath(path)}: inconsistent contents ({e})") from None

    def covers(self, board6: npt.ArrayLike) -> bool:
        """True when the board (6 or 24 counts) has at most ``max_checkers`` checkers."""
        b, _ = as_board6(board6, "board6")
        return bool(b.sum() <= self.max_checkers)

    def p_win(self, on_roll6: npt.ArrayLike, opponent6: npt.ArrayLike) -> float | npt.NDArray[np.float64]:
        """P(the side on roll wins): a float for two boards, float64 (n,) for stacks.  Two
        empty boards (both sides off) are no state of a game: ``ValueError``."""
        a, sa = as_board6(on_roll6, "on_roll6", self.max_checkers)
        b, sb = as_board6(opponent6, "opponent6", self.max_checkers)
        if a.shape[0] != b.shape[0] and not (sa or sb):
            raise ValueError(f"on_roll6 and opponent6: {a.shape[0]} and {b.shape[0]} boards")
        check_not_both_off(a, b, sa and sb)
        ia = _board6.indices_of(a)
        ib = _board6.indices_of(b)
        p = self.p_win_table[ia, ib]
        return float(p[0]) if (sa and sb) else p

    def probabilities(self, on_roll6: npt.ArrayLike, opponent6: npt.ArrayLike
                      ) -> tuple[float | npt.NDArray[np.float64], float | npt.NDArray[np.float64], float | npt.NDArray[np.float64]]:
        """``(P(win), P(mars win), P(mars loss))`` of the side on roll for one pair of boards.

        Both sides with at most ``max_checkers`` (and fewer than 15) checkers: the exact
        table, no mars possible.  A side with all 15 checkers against at most N: the
        attached mars table (``.mars``) when it covers the pair.  Otherwise ValueError.
        """
        a, sa = as_board6(on_roll6, "on_roll6", 15)
        b, sb = as_board6(opponent6, "opponent6", 15)
        if not (sa and sb):
            raise ValueError("probabilities: expects one board per side (use p_win for stacks)")
        na, nb = int(a.sum()), int(b.sum())
        if max(na, nb) <= self.max_checkers and max(na, nb) < 15:
            return self.p_win(a[0], b[0]), 0.0, 0.0
        table = self.mars if max(na, nb) == 15 else None
        if table is not None and min(na, nb) <= table.max_checkers:
            return tuple(float(x) for x in table.probabilities(a[0], b[0]))
        raise ValueError(f"the sides have {na} and {nb} checkers: the two-sided table covers "
                         f"at most {self.max_checkers} each" + (
                             "" if max(na, nb) < 15 else
                             ", and no mars table covering 15 against "
                             f"{min(na, nb)} is attached (bearoff.mars_table())"))

    def p_mars_win(self, on_roll6: npt.ArrayLike, opponent6: npt.ArrayLike) -> float | npt.NDArray[np.float64]:
        """P(the side on roll wins a mars), see ``probabilities``."""
        return self.probabilities(on_roll6, opponent6)[1]

    def p_mars_loss(self, on_roll6: npt.ArrayLike, opponent6: npt.ArrayLike) -> float | npt.NDArray[np.float64]:
        """P(the side on roll loses a mars), see ``probabilities``."""
        return self.probabilities(on_roll6, opponent6)[2]


# ----------------------------------------------------------------------------------------
# mars extension: a side with all its checkers home (none off) against <= N checkers

def mars_points(rules: RulesLike) -> tuple[float, float, float]:
    """``(oin points, mars points, lam)`` of ``rules`` for a mars table: every mars of a
    race is a home mars; ``lam = (mars - oin) / (2 oin)`` weighs P(mars) in the play."""
    r = as_rules(rules)
    oin, mars = float(r.points("oin")), float(r.points("home_mars"))
    if not oin > 0 or not mars >= oin:
        raise ValueError(f"rules: oin {oin} and (home) mars {mars} points: the mars table "
                         f"needs 0 < oin <= mars")
    return oin, mars, (mars - oin) / (2.0 * oin)


class MarsTable:
    """Exact race probabilities when one side still has all its checkers (none off).

    Side X has all ``all_checkers`` (T, 15 in the game) checkers in its home, none borne
    off; side Y has between 1 and ``max_checkers`` (N < T) checkers in its home (so Y has
    borne some off and X cannot win a mars).  The outcomes are: X wins (an oin), Y wins a
    mars (Y finishes before X has any checker off), Y wins an oin.  Each side maximises
    its own expected points: with ``o`` points for an oin and ``M`` for a (home) mars,
    Y's expected points are ``o (1 - 2 P(X wins)) + (M - o) P(Y mars)``, so both sides
    play for ``V = P(X wins) - lam P(Y mars)``, ``lam = (M - o) / (2 o)`` (classic 1 and 2:
    0.5), X maximising it, Y minimising it.  Optimal play depends on ``lam`` (e.g. X
    bearing a checker off to save the mars instead of racing), so a table is valid for
    the rules with the same ratio ``M / o``; ``points`` records which were used.  Once X
    has a checker off the race is one of <= T - 1 against <= N checkers without mars, and
    both sides maximise P(win): the builder solves those exactly as well (a rectangular
    two-sided table, kept in memory during the build only).  Equal values are broken
    towards the smaller final board index, so the stored probabilities are those of one
    optimal play.

    Attributes
    ----------
    x_on_roll : ndarray of float64, shape (n_x, 2, m_y)
        X on roll: ``[i, 0, j]`` = P(X wins), ``[i, 1, j]`` = P(Y wins a mars), for X's
        board of index ``C(T + 5, 6) + i`` (its ``n_x = C(T + 5, 5)`` boards of exactly T
        checkers) and Y's board of index ``j`` (``m_y = C(N + 6, 6)``).  ``j = 0`` (Y has
        finished) holds the convention (0, 1).
    y_on_roll : ndarray of float64, shape (n_x, 2, m_y)
        The same with Y on roll.
    max_checkers, all_checkers : int
        N and T.
    points : tuple of float
        The (oin, mars) points the play maximises; ``lam`` the resulting weight.
    """

    kind = "mars"

    def __init__(self, x_on_roll, y_on_roll, max_checkers, all_checkers=15,
                 points=(1.0, 2.0), path=None):
        self.max_checkers = int(max_checkers)
        self.all_checkers = int(all_checkers)
        if not 0 <= self.max_checkers < self.all_checkers <= 15:
            raise ValueError(f"max_checkers={max_checkers}, all_checkers={all_checkers}: "
                             f"need 0 <= max_checkers < all_checkers <= 15")
        oin, mars = (float(p) for p in points)
        self.points = (oin, mars)
        self.lam = (mars - oin) / (2.0 * oin)
        self.x_offset = n_boards(self.all_checkers - 1)
        shape = (n_boards(self.all_checkers) - self.x_offset, 2, n_boards(self.max_checkers))
        self.x_on_roll = as_table(x_on_roll, shape, "x_on_roll")
        self.y_on_roll = as_table(y_on_roll, shape, "y_on_roll")
        self.path = table_path(path)

    def __repr__(self):
        return (f"MarsTable(max_checkers={self.max_checkers}, all_checkers="
                f"{self.all_checkers}, points={self.points})")

    @property
    def shape(self) -> tuple[int, ...]:
        return self.x_on_roll.shape

    def __reduce__(self):
        """Pickles as its file path when it has one (workers memory-map it), else as data."""
        if self.path is not None:
            return (type(self).load, (self.path, False))
        return (type(self), (np.asarray(self.x_on_roll), np.asarray(self.y_on_roll),
                             self.max_checkers, self.all_checkers, self.points))

    def matches(self, rules: RulesLike) -> bool:
        """True when ``rules`` score oin and (home) mars in the ratio this table used (the
        optimal play, hence every stored probability, depends only on that ratio)."""
        return math.isclose(mars_points(rules)[2], self.lam, rel_tol=0, abs_tol=1e-12)

    # build / files ---------------------------------------------------------------------
    @classmethod
    def build(cls, max_checkers: int = DEFAULT_MARS, rules: RulesLike = None,
              all_checkers: int = 15, path: str | os.PathLike[str] | None = None,
              progress: bool | None = None, threads: int | None = None) -> MarsTable:
        """Solve every (X with all ``all_checkers`` home, Y of <= ``max_checkers``) race.

        Memory and time (T = 15, classic): the race table ``C(T + 5, 6) x C(N + 6, 6)``
        float64 (38,760 x 3,003: 931 MB for N = 8; 286 MB for N = 6) and the Y-on-roll
        half (744 MB for N = 8, 229 MB for N = 6) are held during the build; the
        X-on-roll half too without ``path``.  See ``benchmarks/RESULTS.md`` for times.

        Parameters
        ----------
        max_checkers : int
            N, 0 .. all_checkers - 1 (default 8).
        rules : Rules, dict or None
            Supplies the oin and home-mars points the sides play for (default classic:
            1 and 2).
        all_checkers : int
            T, the checkers of a side (15; smaller values give the same problem in
            miniature, for tests).
        path : str or os.PathLike, optional
            Stream the X-on-roll half to this file while solving (it is never held in
            memory whole) and return the table memory-mapped from it.
        progress : bool or None
            A bar and a summary line: True, False, or None (when standard error is a
            terminal).
        threads : int or None
            POSIX threads solving each X board together (None: every usable
            core; capped at the usable cores).  The table is bit-identical for any number.

        """
        progress = show_progress(progress)
        T = check_int(all_checkers, 0, 15, "all_checkers")
        if T < 1:
            raise ValueError("all_checkers=0: must be 1..15")
        N = check_int(max_checkers, 0, T - 1, "max_checkers")
        oin, mars, lam = mars_points(rules)
        threads = check_threads(threads)
        nx = n_boards(T) - n_boards(T - 1)
        my = n_boards(N)
        check_memory(8 * my * (n_boards(T - 1) + 2 * nx * (1 if path else 2)),
                     f"the mars table {T} vs <= {N}", "use a smaller max_checkers")
        t0 = time.perf_counter()
        y_on = np.empty((nx, 2, my), dtype=np.float64)
        if my < MARS_THREADS_MIN_Y:     # too little work per X board to pay for the threads
            threads = 1
        solver = _mars.MarsSolver(T, N, lam, y_on, threads)
        n_race = solver.n_race
        # work per X board ~ its finals: race boards, then mars boards in ~100 steps total
        share = n_race / (n_race + nx)
        bar = progress_callback(progress, f"mars table {T} vs <= {N}")
        steps = 60
        for k in range(1, steps + 1):
            solver.run_race(1 + (n_race - 1) * k // steps)
            bar(100 * share * k / steps)
        writer = None
        x_on = None
        if path is not None:
            meta = cls._meta(N, T, (oin, mars))
            writer = DbWriter(path, cls.kind, meta,
                              {"x_on_roll": ("<f8", (nx, 2, my)),
                               "y_on_roll": ("<f8", (nx, 2, my))})
            block = max(1, min(nx, (8 << 20) // (16 * my)))
            buf = np.empty((block, 2, my), dtype=np.float64)
        else:
            x_on = np.empty((nx, 2, my), dtype=np.float64)
        try:
            done = 0
            while done < nx:
                if writer is not None:
                    k = solver.run_mars(buf)
                    writer.write("x_on_roll", buf[:k])
                else:
                    k = solver.run_mars(x_on[done:done + max(1, nx // 40)])
                done += k
                bar(100 * (share + (1 - share) * done / nx))
            solver.release()
            if writer is not None:
                writer.write("y_on_roll", y_on)
                writer.close()
        except BaseException:
            if writer is not None:
                writer.abort()
            raise
        finally:
            bar(None)
        if progress:
            print(f"mars table: {nx:,} boards of {T} x {my:,} boards of <= {N} in "
                  f"{time.perf_counter() - t0:.1f} s", file=sys.stderr)
        if writer is not None:
            del y_on
            return cls.load(path, verify=False)
        return cls(x_on, y_on, N, T, (oin, mars))

    @staticmethod
    def _meta(N, T, points):
        return {"max_checkers": N, "all_checkers": T, "index": "colex-v1",
                "points": {"oin": points[0], "mars": points[1]},
                "lambda": (points[1] - points[0]) / (2 * points[0]),
                "rules": RULES_META,
                "objective": "each side maximises its expected points: V = P(X wins) - "
                             "lambda P(Y mars), lambda = (mars - oin) / (2 oin); ties to "
                             "the smaller final board index",
                "layout": "[i, 0 / 1, j]: P(X wins) / P(Y wins a mars); X board index "
                          "C(T+5,6) + i (all T checkers home), Y board index j"}

    def save(self, path: str | os.PathLike[str]) -> str:
        """Write the table to ``path`` (atomically: a temporary name, then a rename)."""
        return write_db(path, self.kind, self._meta(self.max_checkers, self.all_checkers,
                                                    self.points),
                        {"x_on_roll": self.x_on_roll, "y_on_roll": self.y_on_roll})

    @classmethod
    def load(cls, path: str | os.PathLike[str], verify: bool = True) -> MarsTable:
        """Memory-map a table written by ``save`` or ``build(path=...)``; ``DatabaseError``
        if it is damaged."""
        meta, arrays = read_db(path, cls.kind, verify=verify)
        try:
            pts = meta["points"]
            return cls(arrays["x_on_roll"], arrays["y_on_roll"], int(meta["max_checkers"]),
                       int(meta["all_checkers"]), (float(pts["oin"]), float(pts["mars"])),
                       path=os.fspath(path))
        except (KeyError, ValueError, TypeError) as e:
            raise DatabaseError(f"{os.fspath(path)}: inconsistent contents ({e})") from None

    # queries ---------------------------------------------------------------------------
    def covers(self, on_roll6: npt.ArrayLike, opponent6: npt.ArrayLike) -> bool:
        """True when one board has exactly ``all_checkers`` checkers and the other 1 ..
        ``max_checkers`` (a single pair of boards, 6 or 24 counts)."""
        a, _ = as_board6(on_roll6, "on_roll6")
        b, _ = as_board6(opponent6, "opponent6")
        na, nb = int(a[0].sum()), int(b[0].sum())
        T, N = self.all_checkers, self.max_checkers
        return (na == T and 1 <= nb <= N) or (nb == T and 1 <= na <= N)

    def probabilities(self, on_roll6: npt.ArrayLike, opponent6: npt.ArrayLike
                      ) -> tuple[float | npt.NDArray[np.float64], float | npt.NDArray[np.float64], float | npt.NDArray[np.float64]]:
        """(P(win), P(mars win), P(mars loss)) of the side on roll (each a float for two
        boards, float64 (n,) for stacks).  One board of each pair must have all
        ``all_checkers`` checkers, the other 1 .. ``max_checkers``."""
        a, sa = as_board6(on_roll6, "on_roll6")
        b, sb = as_board6(opponent6, "opponent6")
        if a.shape[0] != b.shape[0]:
            if sa:
                a = np.repeat(a, b.shape[0], axis=0)
            elif sb:
                b = np.repeat(b, a.shape[0], axis=0)
            else:
                raise ValueError(f"on_roll6 and opponent6: {a.shape[0]} and {b.shape[0]} "
                                 f"boards")
        na = a.sum(axis=1, dtype=np.int64)
        nb = b.sum(axis=1, dtype=np.int64)
        T, N = self.all_checkers, self.max_checkers
        x_first = (na == T) & (nb >= 1) & (nb <= N)
        y_first = (nb == T) & (na >= 1) & (na <= N)
        bad = ~(x_first | y_first)
        if bad.any():
            k = int(np.argmax(bad))
            raise ValueError(f"boards{'' if sa and sb else f'[{k}]'}: {na[k]} and {nb[k]} "
                             f"checkers; this mars table needs one side with all {T} and "
                             f"the other with 1..{N}")
        ia = _board6.indices_of(a)
        ib = _board6.indices_of(b)
        ix = np.where(x_first, ia, ib) - self.x_offset
        iy = np.where(x_first, ib, ia)
        xw = self.x_on_roll[ix, 0, iy]
        xm = self.x_on_roll[ix, 1, iy]
        yw = self.y_on_roll[ix, 0, iy]
        ym = self.y_on_roll[ix, 1, iy]
        p_win = np.where(x_first, xw, 1.0 - yw)
        p_mw = np.where(x_first, 0.0, ym)
        p_ml = np.where(x_first, xm, 0.0)
        if sa and sb:
            return float(p_win[0]), float(p_mw[0]), float(p_ml[0])
        return p_win, p_mw, p_ml

    def p_win(self, on_roll6: npt.ArrayLike, opponent6: npt.ArrayLike) -> float | npt.NDArray[np.float64]:
        """P(the side on roll wins) (see ``probabilities``)."""
        return self.probabilities(on_roll6, opponent6)[0]

    def p_mars_win(self, on_roll6: npt.ArrayLike, opponent6: npt.ArrayLike) -> float | npt.NDArray[np.float64]:
        """P(the side on roll wins a mars): nonzero only when the side on roll is Y."""
        return self.probabilities(on_roll6, opponent6)[1]

    def p_mars_loss(self, on_roll6: npt.ArrayLike, opponent6: npt.ArrayLike) -> float | npt.NDArray[np.float64]:
        """P(the side on roll loses a mars): nonzero only when it is X (all checkers)."""
        return self.probabilities(on_roll6, opponent6)[2]


def _two_sided_restore(path, table, max_checkers, mars, mars_default):
    ts = TwoSided.load(path, False) if path is not None else TwoSided(table, max_checkers)
    ts.mars = mars
    return ts.use_default_mars() if mars_default else ts


# ----------------------------------------------------------------------------------------
# cached defaults

def one_sided(progress: bool | None = None) -> OneSided:
    """The default one-sided database (15 checkers), built on first use and cached on
    disk (see the module docstring) and in memory.  ``progress``: a bar while it is built
    (None: when stderr is a terminal)."""
    return cached(OneSided, "bearoff-one-sided-15.nfdb",
                  lambda: OneSided.build(15, progress=progress), expect={"max_checkers": 15})


def two_sided(max_checkers: int = DEFAULT_TWO_SIDED, progress: bool | None = None) -> TwoSided:
    """The two-sided database of ``max_checkers`` (default 8) checkers, built on first use
    and cached like ``one_sided()`` (``progress`` likewise).  Its ``.mars`` is the classic
    ``mars_table(min(max_checkers, DEFAULT_MARS))`` when that has been built (loaded on
    first access; never built implicitly)."""
    mc = check_int(max_checkers, 0, 14, "max_checkers")
    ts = cached(TwoSided, f"bearoff-two-sided-{mc}.nfdb",
                lambda: TwoSided.build(mc, progress=progress), expect={"max_checkers": mc})
    return ts.use_default_mars()


def mars_table(max_checkers: int = DEFAULT_MARS, rules: RulesLike = None,
               build: bool = True, threads: int | None = None,
               progress: bool | None = None) -> MarsTable | None:
    """The ``MarsTable`` of 15 checkers against at most ``max_checkers`` (default 8) for
    the oin / home-mars points of ``rules`` (default classic), built on first use
    (streamed to the cache file; time and memory in ``benchmarks/RESULTS.md``) and cached
    like ``one_sided()``.  The file name records N and the points.

    ``build=False`` only loads: None when the table is not in the cache.  This is how
    ``race_probabilities`` and ``TwoSided.mars`` use it, so that no query starts a long
    build; build it once with ``mars_table()`` or ``nardy-fast bearoff build --mars``.
    ``threads``: as in ``MarsTable.build`` (the table is the same for any number).
    ``progress``: as in ``one_sided``.
    """
    mc = check_int(max_checkers, 0, 14, "max_checkers")
    oin, mars, _ = mars_points(rules)
    name = f"bearoff-mars-15x{mc}-oin{oin:g}-mars{mars:g}.nfdb"

    def make():
        path = os.path.join(data_dir(), name)
        return MarsTable.build(mc, rules, path=path, progress=progress,
                               threads=threads)
    return cached(MarsTable, name, make if build else None, saved=True,
                  expect={"max_checkers": mc, "all_checkers": 15, "points": (oin, mars)})
