"""The exact one-sided bear-off database (``OneSided``): every board's turn distributions.

Built by the C solver ``_onesided.pyx``; boards and indices as in ``nardy_fast.tables.bearoff``
(which re-exports ``OneSided``).  ``RULES_META`` is the rules note every bear-off database
file records.

What is exact here is each board's distribution of turns under the play that minimises
its expected turns.  Winning chances convolved from two such distributions
(``race.race_probabilities``' ``method="one_sided"``) are an approximation, named
"one-sided approximation" wherever it is shown (``core.methods.method_label``): the two
sides' bear-offs are not independent and the best play depends on the opponent
(``nardy_fast.tables.race`` measures the error against the exact tables).
"""
from __future__ import annotations

import math
import os
import sys
import time

import numpy as np

from nardy_fast.tables import _board6, _onesided
from nardy_fast.core._checks import as_board6, as_indices, as_table, check_int
from nardy_fast._utils._progress import show_progress
from nardy_fast._utils._dbfile import DatabaseError, read_db, table_path, write_db
from nardy_fast.core.position import PIPS_PER_ROLL

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy.typing as npt

__all__ = ["OneSided", "RULES_META", "n_boards"]

RULES_META = {"rule_book": "sections 5-6 (bearing off)",
               "variants": "none: bear-off play does not depend on any Rules field"}


def n_boards(max_checkers: int) -> int:
    """Number of boards of at most ``max_checkers`` checkers: C(max_checkers + 6, 6)."""
    return math.comb(int(max_checkers) + 6, 6)


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
    mean, mean_first_off_array : ndarray of float64, shape (m,)
        The expectations (computed by the recursion, not from the rows); the queries for
        one board are ``mean_turns(board6)`` and ``mean_first_off(board6)``.
    max_checkers : int
        Boards of at most this many checkers are covered; ``m = C(max_checkers + 6, 6)``.
    """

    kind = "one_sided"

    def __init__(self, turns, first_off, mean, mean_first_off, max_checkers=15, path=None):
        self.path = table_path(path)
        self.max_checkers = int(max_checkers)
        m = n_boards(self.max_checkers)
        arrays = {"turns": turns, "first_off": first_off, "mean": mean,
                  "mean_first_off": mean_first_off}
        for name, arr in arrays.items():
            as_table(arr, (m,) + (None,) * (arr.ndim - 1), name)
        self.turns, self.first_off, self.mean = turns, first_off, mean
        self.mean_first_off_array = mean_first_off

    @property
    def n_boards(self) -> int:
        """Boards covered: C(max_checkers + 6, 6)."""
        return self.turns.shape[0]

    def __repr__(self):
        return (f"OneSided(max_checkers={self.max_checkers}, boards={self.n_boards}, "
                f"turns columns={self.turns.shape[1]})")

    def __reduce__(self):
        """Pickles as its file path when it has one (workers memory-map it), else as data."""
        if self.path is not None:
            return (type(self).load, (self.path, False))
        return (type(self), (np.asarray(self.turns), np.asarray(self.first_off),
                             np.asarray(self.mean), self.mean_first_off_array.copy(),
                             self.max_checkers))

    # build / files ---------------------------------------------------------------------
    @classmethod
    def build(cls, max_checkers: int = 15, progress: bool | None = None) -> OneSided:
        """Solve every board of at most ``max_checkers`` (0..15) checkers exactly.

        ``progress`` prints one summary line to stderr (the build takes well under a
        second): True, False, or None (when standard error is a terminal).
        """
        mc = check_int(max_checkers, 0, 15, "max_checkers")
        t0 = time.perf_counter()
        turns, first, mean, mean_first = _onesided.build_one_sided(mc)
        if show_progress(progress):
            print(f"one-sided bear-off database: {turns.shape[0]:,} boards in "
                  f"{time.perf_counter() - t0:.2f} s", file=sys.stderr)
        return cls(turns, first, mean, mean_first, mc)

    def save(self, path: str | os.PathLike[str]) -> str:
        """Write the database to ``path`` (atomically: a temporary name, then a rename)."""
        meta = {"max_checkers": self.max_checkers, "n_boards": self.n_boards,
                "index": "colex-v1", "rules": RULES_META,
                "objective": "min expected turns; first_off: min expected turns to first off"}
        return write_db(path, self.kind, meta, {"turns": self.turns,
                                                "first_off": self.first_off,
                                                "mean": self.mean,
                                                "mean_first_off": self.mean_first_off_array})

    @classmethod
    def load(cls, path: str | os.PathLike[str], verify: bool = True) -> OneSided:
        """Memory-map a database written by ``save``; ``DatabaseError`` if it is damaged."""
        meta, arrays = read_db(path, cls.kind, verify=verify)
        try:
            return cls(arrays["turns"], arrays["first_off"], arrays["mean"],
                       arrays["mean_first_off"], int(meta["max_checkers"]),
                       path=os.fspath(path))
        except (KeyError, ValueError, TypeError) as e:
            raise DatabaseError(f"{os.fspath(path)}: inconsistent contents ({e})") from None

    # queries ---------------------------------------------------------------------------
    def index_of(self, boards: npt.ArrayLike) -> int | npt.NDArray[np.intp]:
        """Indices of boards (see ``index_of``), checked against this database's size."""
        b, single = as_board6(boards, "boards", self.max_checkers)
        idx = _board6.indices_of(b)
        return int(idx[0]) if single else idx

    def board_of(self, indices: int | npt.ArrayLike) -> npt.NDArray[np.uint8]:
        """Boards of indices: ndarray of uint8, shape (6,) or (n, 6)."""
        idx, single = as_indices(indices, self.n_boards)
        b = _board6.boards_of(idx)
        return b[0] if single else b

    def _row(self, table, board6):
        b, single = as_board6(board6, "board6", self.max_checkers)
        if not single:
            raise ValueError(f"board6: expected one board, got shape {np.shape(board6)}; "
                             f"use the *_many methods for stacks")
        return table[int(_board6.indices_of(b)[0])]

    def distribution(self, board6: npt.ArrayLike) -> npt.NDArray[np.float64]:
        """P(exactly t own turns to bear off all), t = 0 .. T-1: ndarray of float64."""
        return self._row(self.turns, board6)

    def mean_turns(self, board6: npt.ArrayLike) -> float:
        """Expected own turns to bear off all checkers, starting on roll."""
        return float(self._row(self.mean, board6))

    def first_off_distribution(self, board6: npt.ArrayLike) -> npt.NDArray[np.float64]:
        """P(first checker off on own turn t), t = 0 .. T1-1: ndarray of float64."""
        return self._row(self.first_off, board6)

    def mean_first_off(self, board6: npt.ArrayLike) -> float:
        """Expected own turns until the first checker is off (0 when one already is)."""
        return float(self._row(self.mean_first_off_array, board6))

    def mean_turns_many(self, boards: npt.ArrayLike) -> npt.NDArray[np.float64]:
        """Expected turns of each board of an (n, 6) or (n, 24) stack: float64, shape (n,)."""
        b, _ = as_board6(boards, "boards", self.max_checkers)
        return _board6.take_rows(self.mean, b)

    def mean_first_off_many(self, boards: npt.ArrayLike) -> npt.NDArray[np.float64]:
        """Expected turns to the first checker off for each board: float64, shape (n,)."""
        b, _ = as_board6(boards, "boards", self.max_checkers)
        return _board6.take_rows(self.mean_first_off_array, b)

    def epc(self, board6: npt.ArrayLike) -> float | npt.NDArray[np.float64]:
        """Effective pip count: mean turns x 49/6; float, or float64 (n,) for a stack."""
        b, single = as_board6(board6, "board6", self.max_checkers)
        e = _board6.take_rows(self.mean, b) * PIPS_PER_ROLL
        return float(e[0]) if single else e
