"""Exact bear-off databases: one-sided turn distributions and two-sided winning chances.

Once all of a side's checkers are in its home (points 19-24), nothing can block it, and
its bear-off is backgammon's one-sided bear-off (rule book sections 5 and 6).  The tables
here are exact (float64, computed by the Cython solver in ``_bearoff.pyx``) and depend on
no rule variant.

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

Cache folder
------------
``one_sided()`` and ``two_sided()`` build their default database on first use and keep it
in the folder named by the environment variable ``NARDY_FAST_DATA`` or, without it,
``$XDG_CACHE_HOME/nardy_fast`` (``~/.cache/nardy_fast``).  Files carry a header with a
checksum (``_dbfile``); a damaged cache file is rebuilt with a warning.
"""
from __future__ import annotations

import math
import os
import sys
import time
import warnings

import numpy as np

from nardy_fast import _bearoff
from nardy_fast._dbfile import DatabaseError, read_db, write_db

__all__ = ["OneSided", "TwoSided", "DatabaseError", "one_sided", "two_sided", "index_of",
           "board_of", "epc", "data_dir", "N_BOARDS", "PIPS_PER_ROLL"]

N_BOARDS = 54264                 # boards of at most 15 checkers on 6 points: C(21, 6)
PIPS_PER_ROLL = 49 / 6           # average pips of a roll (doubles count four times)
DATA_ENV = "NARDY_FAST_DATA"
DEFAULT_TWO_SIDED = 8
_RULES_META = {"rule_book": "sections 5-6 (bearing off)",
               "variants": "none: bear-off play does not depend on any Rules field"}


def data_dir():
    """The cache folder of the default databases (see the module docstring)."""
    env = os.environ.get(DATA_ENV)
    if env:
        return os.path.abspath(os.path.expanduser(env))
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "nardy_fast")


def n_boards(max_checkers):
    """Number of boards of at most ``max_checkers`` checkers: C(max_checkers + 6, 6)."""
    return math.comb(int(max_checkers) + 6, 6)


# ----------------------------------------------------------------------------------------
# validation

def _as_boards(boards, name="board6", max_checkers=15):
    """Validated boards as ``(uint8 (n, 6) C-contiguous, single)``."""
    a = np.asarray(boards)
    if a.dtype.kind not in "iub":
        raise TypeError(f"{name}: expected integer checker counts, got dtype {a.dtype}")
    single = a.ndim == 1
    if a.ndim not in (1, 2) or a.shape[-1] not in (6, 24):
        raise ValueError(f"{name}: expected shape (6,), (24,), (n, 6) or (n, 24), got "
                         f"shape {a.shape}")
    a2 = a.reshape(-1, a.shape[-1])
    if a2.size:
        if a.dtype.kind != "u" and (a2 < 0).any():
            r, i = np.argwhere(a2 < 0)[0]
            raise ValueError(f"{name}{'' if single else f'[{r}]'} idx {i}: "
                             f"{a2[r, i]} checkers, counts must be >= 0")
        if a2.shape[1] == 24:
            out = a2[:, :18] != 0
            if out.any():
                r, i = np.argwhere(out)[0]
                raise ValueError(f"{name}{'' if single else f'[{r}]'}: {a2[r, i]} "
                                 f"checker(s) on point {i + 1}, outside the home "
                                 f"(points 19-24)")
            a2 = a2[:, :17:-1]
        tot = a2.sum(axis=1, dtype=np.int64)
        big = tot > max_checkers
        if big.any():
            r = int(np.argmax(big))
            limit = ("at most 15" if max_checkers == 15
                     else f"this database covers at most {max_checkers}")
            raise ValueError(f"{name}{'' if single else f'[{r}]'}: {tot[r]} checkers, "
                             f"{limit}")
    elif a2.shape[1] == 24:
        a2 = a2[:, :17:-1]
    return np.ascontiguousarray(a2, dtype=np.uint8), single


def _as_indices(indices, limit):
    a = np.asarray(indices)
    if a.dtype.kind not in "iu":
        raise TypeError(f"indices: expected integers, got dtype {a.dtype}")
    single = a.ndim == 0
    a1 = a.reshape(-1)
    if a1.size and (a1.min() < 0 or a1.max() >= limit):
        bad = a1[(a1 < 0) | (a1 >= limit)][0]
        raise ValueError(f"index {bad}: must be 0..{limit - 1}")
    return np.ascontiguousarray(a1, dtype=np.intp), single


def index_of(boards):
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
    b, single = _as_boards(boards, "boards")
    idx = _bearoff.indices_of(b)
    return int(idx[0]) if single else idx


def board_of(indices):
    """Board of each index: ndarray of uint8, shape (6,) for one index, else (n, 6)."""
    idx, single = _as_indices(indices, N_BOARDS)
    b = _bearoff.boards_of(idx)
    return b[0] if single else b


def epc(board6, db=None):
    """Effective pip count: expected turns to bear off x 49/6 (the mean pips of a roll).

    ``db`` is a ``OneSided`` (default: ``one_sided()``).  Returns a float for one board,
    an ndarray of float64, shape (n,), for a stack.
    """
    return (db if db is not None else one_sided()).epc(board6)


# ----------------------------------------------------------------------------------------
# one-sided

class _LookupTable(np.ndarray):
    """A read-only float64 table (one value per board index) that also answers
    ``table(board6)`` queries, so ``db.mean_first_off`` is both the array and the query."""

    def __array_finalize__(self, obj):
        self._lookup = None

    def __call__(self, board6):
        if self._lookup is None:
            raise TypeError("only the database's own table can be called with a board")
        return self._lookup(board6)

    def __array_wrap__(self, arr, context=None, return_scalar=False):
        arr = arr.view(np.ndarray)
        return arr[()] if return_scalar else arr


def _lookup_table(arr, fn):
    view = arr.view(_LookupTable)
    view._lookup = fn
    return view


class OneSided:
    """Exact one-sided bear-off database.

    Attributes
    ----------
    turns : ndarray of float64, shape (m, T)
        ``turns[i, t]``: probability that board ``i`` needs exactly ``t`` of its own turns
        to bear off all its checkers, starting on roll, under the play minimising the
        expected number of turns.  Every row sums to 1; no tail is cut.
    first_off : ndarray of float64, shape (m, T1)
        ``first_off[i, t]``: probability that the first checker comes off on turn ``t``
        under the play minimising that expectation; ``[1, 0, ...]`` when the board has
        fewer than 15 checkers (one is already off).
    mean, mean_first_off : ndarray of float64, shape (m,)
        The expectations (computed by the recursion, not from the rows).
        ``mean_first_off`` is also callable: ``db.mean_first_off(board6)`` is the query
        (``mean_first_off_array`` is the plain ndarray).
    max_checkers : int
        Boards of at most this many checkers are covered; ``m = C(max_checkers + 6, 6)``.
    """

    kind = "one_sided"

    def __init__(self, turns, first_off, mean, mean_first_off, max_checkers=15, path=None):
        self.max_checkers = int(max_checkers)
        m = n_boards(self.max_checkers)
        arrays = {"turns": turns, "first_off": first_off, "mean": mean,
                  "mean_first_off": mean_first_off}
        for name, arr in arrays.items():
            if arr.dtype != np.float64 or not arr.flags.c_contiguous or arr.shape[0] != m:
                raise ValueError(f"{name}: expected C-contiguous float64 with {m} rows")
            if isinstance(arr, np.ndarray) and arr.flags.writeable and arr.base is None:
                arr.flags.writeable = False
        self.turns, self.first_off, self.mean = turns, first_off, mean
        # the array of expectations, callable as the query mean_first_off(board6)
        self.mean_first_off = _lookup_table(mean_first_off, self._mean_first_off_of)
        self.path = path

    def __repr__(self):
        return (f"OneSided(max_checkers={self.max_checkers}, boards={self.n_boards}, "
                f"turns columns={self.turns.shape[1]})")

    @property
    def n_boards(self):
        return self.turns.shape[0]

    # build / files ---------------------------------------------------------------------
    @classmethod
    def build(cls, max_checkers=15, progress=True):
        """Solve every board of at most ``max_checkers`` (0..15) checkers exactly.

        ``progress`` prints one summary line to stderr (the build takes well under a
        second).
        """
        mc = _check_max(max_checkers, 15, "max_checkers")
        t0 = time.perf_counter()
        turns, first, mean, mean_first = _bearoff.build_one_sided(mc)
        if progress:
            print(f"one-sided bear-off database: {turns.shape[0]:,} boards in "
                  f"{time.perf_counter() - t0:.2f} s", file=sys.stderr)
        return cls(turns, first, mean, mean_first, mc)

    def save(self, path):
        """Write the database to ``path`` (atomically: a temporary name, then a rename)."""
        meta = {"max_checkers": self.max_checkers, "n_boards": self.n_boards,
                "index": "colex-v1", "rules": _RULES_META,
                "objective": "min expected turns; first_off: min expected turns to first off"}
        return write_db(path, self.kind, meta, {"turns": self.turns,
                                                "first_off": self.first_off,
                                                "mean": self.mean,
                                                "mean_first_off": self.mean_first_off})

    @classmethod
    def load(cls, path, verify=True):
        """Memory-map a database written by ``save``; ``DatabaseError`` if it is damaged."""
        meta, arrays = read_db(path, cls.kind, verify=verify)
        try:
            return cls(arrays["turns"], arrays["first_off"], arrays["mean"],
                       arrays["mean_first_off"], int(meta["max_checkers"]),
                       path=os.fspath(path))
        except (KeyError, ValueError, TypeError) as e:
            raise DatabaseError(f"{os.fspath(path)}: inconsistent contents ({e})") from None

    # queries ---------------------------------------------------------------------------
    def index_of(self, boards):
        """Indices of boards (see ``index_of``), checked against this database's size."""
        b, single = _as_boards(boards, "boards", self.max_checkers)
        idx = _bearoff.indices_of(b)
        return int(idx[0]) if single else idx

    def board_of(self, indices):
        """Boards of indices: ndarray of uint8, shape (6,) or (n, 6)."""
        idx, single = _as_indices(indices, self.n_boards)
        b = _bearoff.boards_of(idx)
        return b[0] if single else b

    def _row(self, table, board6):
        b, single = _as_boards(board6, "board6", self.max_checkers)
        if not single:
            raise ValueError(f"board6: expected one board, got shape {np.shape(board6)}; "
                             f"use the *_many methods for stacks")
        return table[int(_bearoff.indices_of(b)[0])]

    def distribution(self, board6):
        """P(exactly t own turns to bear off all), t = 0 .. T-1: ndarray of float64."""
        return self._row(self.turns, board6)

    def mean_turns(self, board6):
        """Expected own turns to bear off all checkers, starting on roll."""
        return float(self._row(self.mean, board6))

    def first_off_distribution(self, board6):
        """P(first checker off on own turn t), t = 0 .. T1-1: ndarray of float64."""
        return self._row(self.first_off, board6)

    def _mean_first_off_of(self, board6):
        return float(self._row(self.mean_first_off.view(np.ndarray), board6))

    @property
    def mean_first_off_array(self):
        """``mean_first_off`` as a plain ndarray of float64, shape (m,)."""
        return self.mean_first_off.view(np.ndarray)

    def mean_turns_many(self, boards):
        """Expected turns of each board of an (n, 6) or (n, 24) stack: float64, shape (n,)."""
        b, _ = _as_boards(boards, "boards", self.max_checkers)
        return _bearoff.take_rows(self.mean, b)

    def mean_first_off_many(self, boards):
        """Expected turns to the first checker off for each board: float64, shape (n,)."""
        b, _ = _as_boards(boards, "boards", self.max_checkers)
        return _bearoff.take_rows(self.mean_first_off_array, b)

    def epc(self, board6):
        """Effective pip count: mean turns x 49/6; float, or float64 (n,) for a stack."""
        b, single = _as_boards(board6, "board6", self.max_checkers)
        e = _bearoff.take_rows(self.mean, b) * PIPS_PER_ROLL
        return float(e[0]) if single else e


# ----------------------------------------------------------------------------------------
# two-sided

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
        15-checker table (54,264 squared) does not fit in memory; races with a 15-checker
        side use the one-sided tables (``race_probabilities``).
    """

    kind = "two_sided"

    def __init__(self, p_win_table, max_checkers, path=None):
        self.max_checkers = int(max_checkers)
        m = n_boards(self.max_checkers)
        t = p_win_table
        if t.dtype != np.float64 or t.shape != (m, m) or not t.flags.c_contiguous:
            raise ValueError(f"p_win_table: expected C-contiguous float64 of shape ({m}, {m})")
        if isinstance(t, np.ndarray) and t.flags.writeable and t.base is None:
            t.flags.writeable = False
        self.p_win_table = t
        self.path = path

    def __repr__(self):
        return f"TwoSided(max_checkers={self.max_checkers}, boards={self.n_boards})"

    @property
    def n_boards(self):
        return self.p_win_table.shape[0]

    @classmethod
    def build(cls, max_checkers=DEFAULT_TWO_SIDED, progress=True, threads=None):
        """Solve every pair of boards of at most ``max_checkers`` (0..14) checkers exactly.

        Memory: one float64 table of ``C(max_checkers + 6, 6) ** 2`` entries (72 MB for 8,
        513 MB for 10, 2.8 GB for 12).  ``progress`` shows a tqdm bar when tqdm is
        installed (a line per 10% otherwise).  ``threads``: worker threads when the
        extension was compiled with OpenMP (``nardy_fast._bearoff.OPENMP``; default: all
        cores), ignored otherwise; the table is identical for any number of threads.
        """
        mc = _check_max(max_checkers, 14, "max_checkers")
        if threads is None:
            threads = (os.cpu_count() or 1) if _bearoff.OPENMP else 1
        threads = _check_max(threads, 1024, "threads")
        if threads < 1:
            raise ValueError(f"threads={threads}: must be >= 1")
        m = n_boards(mc)
        table = np.empty((m, m), dtype=np.float64)
        t0 = time.perf_counter()
        solver = _bearoff.TwoSidedSolver(mc, table, threads)
        # shells grow linearly in cost: cut them into ~100 steps of equal work
        steps = sorted({int(m * math.sqrt(k / 100)) for k in range(1, 101)} | {m})
        bar = None
        if progress:
            try:
                from tqdm.auto import tqdm
                bar = tqdm(total=100, desc=f"two-sided bear-off {mc}x{mc}", unit="%",
                           leave=False)
            except ImportError:
                bar = None
        done = 0
        for k, stop in enumerate(steps):
            solver.run(stop)
            pct = round(100 * (stop / m) ** 2)
            if bar is not None:
                bar.update(pct - done)
            elif progress and pct // 10 > done // 10:
                print(f"two-sided bear-off {mc}x{mc}: {pct}%", file=sys.stderr)
            done = pct
        solver.finish()
        if bar is not None:
            bar.close()
        if progress:
            print(f"two-sided bear-off database: {m:,} x {m:,} in "
                  f"{time.perf_counter() - t0:.2f} s", file=sys.stderr)
        return cls(table, mc)

    def save(self, path):
        """Write the database to ``path`` (atomically: a temporary name, then a rename)."""
        meta = {"max_checkers": self.max_checkers, "n_boards": self.n_boards,
                "index": "colex-v1", "rules": _RULES_META,
                "objective": "each side maximises its expected points (= P(win), no mars "
                             "below 15 checkers)"}
        return write_db(path, self.kind, meta, {"p_win": self.p_win_table})

    @classmethod
    def load(cls, path, verify=True):
        """Memory-map a database written by ``save``; ``DatabaseError`` if it is damaged."""
        meta, arrays = read_db(path, cls.kind, verify=verify)
        try:
            return cls(arrays["p_win"], int(meta["max_checkers"]), path=os.fspath(path))
        except (KeyError, ValueError, TypeError) as e:
            raise DatabaseError(f"{os.fspath(path)}: inconsistent contents ({e})") from None

    def covers(self, board6):
        """True when the board (6 or 24 counts) has at most ``max_checkers`` checkers."""
        b, _ = _as_boards(board6, "board6")
        return bool(b.sum() <= self.max_checkers)

    def p_win(self, on_roll6, opponent6):
        """P(the side on roll wins): a float for two boards, float64 (n,) for stacks."""
        a, sa = _as_boards(on_roll6, "on_roll6", self.max_checkers)
        b, sb = _as_boards(opponent6, "opponent6", self.max_checkers)
        if a.shape[0] != b.shape[0] and not (sa or sb):
            raise ValueError(f"on_roll6 and opponent6: {a.shape[0]} and {b.shape[0]} boards")
        ia = _bearoff.indices_of(a)
        ib = _bearoff.indices_of(b)
        p = self.p_win_table[ia, ib]
        return float(p[0]) if (sa and sb) else p


# ----------------------------------------------------------------------------------------
# cached defaults

_CACHE = {}


def _check_max(value, limit, name):
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{name}={value!r}: expected an integer 0..{limit}")
    if not 0 <= value <= limit:
        raise ValueError(f"{name}={value}: must be 0..{limit}")
    return int(value)


def _cached(cls, filename, build):
    path = os.path.join(data_dir(), filename)
    db = _CACHE.get(path)
    if db is not None:
        return db
    if os.path.exists(path):
        try:
            db = cls.load(path)
        except DatabaseError as e:
            warnings.warn(f"rebuilding the damaged cache file: {e}", RuntimeWarning,
                          stacklevel=3)
    if db is None:
        build().save(path)
        db = cls.load(path, verify=False)
    _CACHE[path] = db
    return db


def one_sided():
    """The default one-sided database (15 checkers), built on first use and cached on
    disk (see the module docstring) and in memory."""
    return _cached(OneSided, "bearoff-one-sided-15.nfdb",
                   lambda: OneSided.build(15, progress=False))


def two_sided(max_checkers=DEFAULT_TWO_SIDED):
    """The two-sided database of ``max_checkers`` (default 8) checkers, built on first use
    (about a second for 8) and cached like ``one_sided()``."""
    mc = _check_max(max_checkers, 14, "max_checkers")
    return _cached(TwoSided, f"bearoff-two-sided-{mc}.nfdb",
                   lambda: TwoSided.build(mc, progress=False))
