"""Exact cubeful equities of bear-off races (rule book section 7a).

With the cube every game is won or lost at the stake: no mars, no oin.  So when both sides
have all their checkers home and at most ``max_checkers`` left, the money equity of the
side on roll is exact for every cube state, as in GNU Backgammon's cubeful two-sided
bear-off databases: a centred cube, a cube owned by the side on roll, one owned by the
opponent, and a dead cube (no more raises: the cubeless equity ``2 P(win) - 1``).  The
solver is ``_cuberace.pyx``; the recursion and the table layout are in its docstring and
``_cuberace.pxd``.

Progressions
------------
``"geometric"`` (stakes 1, 2, 4, ...): the equity per unit stake does not depend on the
stake, so one table serves every stake; the cube has no cap (money play).

``"arithmetic"`` (stakes 1, 2, 3, ...): a raise from ``k`` to ``k + 1`` is worth less the
higher ``k`` is, so the equity per unit stake depends on the stake.  The solver runs one
table per stake from the cap ``max_stake`` (where the cube is dead: no raise above it)
down to 1, each using the next stake's table (and the one after it for the beaver), and
keeps the tables of stakes ``1 .. stakes``; cube decisions are exact at stakes ``k`` with
``k + 1 <= stakes`` (``k + 2`` with the beaver).  The cap changes the values at stake 1 only
through games that reach it (``benchmarks/bench_cube.py --cap`` measures how little).

``beaver``: the side offered a raise may take and raise again at once, keeping the cube
(geometric: to 4 times the stake before the raise, arithmetic: to ``k + 2``).

Table
-----
``values``: float64, shape ``(m, m, 4)`` (geometric) or ``(stakes, m, m, 4)``
(arithmetic, index ``stake - 1``), ``m = C(max_checkers + 6, 6)`` bear-off board indices
(``bearoff.index_of``).  Entry ``[x, y, k]``: the equity of the side on roll (board ``x``)
against ``y``, per unit of the current stake, when it rolls now *without raising*, for
cube state ``k`` (0 centre, 1 owned by the side on roll, 2 by the opponent, 3 dead).  The
cube decision before the roll follows from it (``CubefulRace.decision``).

Files use the database format of ``_dbfile`` (header, version, CRC-32, atomic writes);
``cubeful_race()`` builds the default table on first use and caches it beside the bear-off
databases (``datadir.data_dir()``).
"""
from __future__ import annotations

import math
import os
import sys
import time

import numpy as np

from nardy_fast.tables import _board6, _cuberace
from nardy_fast.core._checks import as_board6, check_int
from nardy_fast.core.rules import check_flag
from nardy_fast._utils._progress import show_progress
from nardy_fast._utils._dbfile import DatabaseError, read_db, table_path, write_db
from nardy_fast._utils.datadir import cached

__all__ = ["CubefulRace", "cubeful_race", "OWNERS", "DEFAULT_MAX_CHECKERS",
           "DEFAULT_MAX_STAKE", "DEFAULT_STAKES"]

OWNERS = ("centre", "mover", "opponent")   # cube states 0, 1, 2 (3: dead)
DEFAULT_MAX_CHECKERS = 6                   # 924 boards a side: 0.3 s CPU (geometric), 27 MB
DEFAULT_MAX_STAKE = 16                     # arithmetic cap (see benchmarks/bench_cube.py)
DEFAULT_STAKES = 4                         # arithmetic stakes kept: 1 .. 4
_PROGRESSIONS = ("geometric", "arithmetic")


def _next_stake(progression, stake):
    return 2 * stake if progression == "geometric" else stake + 1


class CubefulRace:
    """Exact cubeful money equities of races of at most ``max_checkers`` a side.

    Attributes
    ----------
    values : ndarray of float64
        See the module docstring (``(m, m, 4)`` or ``(stakes, m, m, 4)``).
    max_checkers : int
    progression : {"geometric", "arithmetic"}
    beaver : bool
    max_stake : int or None
        Arithmetic: the cap (the cube is dead there); geometric: None (no cap).
    stakes : int or None
        Arithmetic: tables kept for stakes 1 .. ``stakes``; geometric: None.
    """

    kind = "cubeful_race"

    def __init__(self, values, max_checkers, progression="geometric", beaver=False,
                 max_stake=None, stakes=None, path=None):
        if progression not in _PROGRESSIONS:
            raise ValueError(f"progression={progression!r}: expected 'geometric' or "
                             f"'arithmetic'")
        self.max_checkers = check_int(max_checkers, 0, 14, "max_checkers")
        m = math.comb(self.max_checkers + 6, 6)
        shape = (m, m, 4) if progression == "geometric" else (stakes, m, m, 4)
        if values.dtype != np.float64 or values.shape != shape or \
                not values.flags.c_contiguous:
            raise ValueError(f"values: expected C-contiguous float64 of shape {shape}, got "
                             f"{values.dtype} {values.shape}")
        if isinstance(values, np.ndarray) and values.flags.writeable and values.base is None:
            values.flags.writeable = False
        self.values = values
        self.progression = progression
        self.beaver = bool(beaver)
        self.max_stake = None if progression == "geometric" else int(max_stake)
        self.stakes = None if progression == "geometric" else int(stakes)
        self.path = table_path(path)

    def __repr__(self):
        extra = "" if self.progression == "geometric" else \
            f", max_stake={self.max_stake}, stakes={self.stakes}"
        return (f"CubefulRace(max_checkers={self.max_checkers}, "
                f"progression={self.progression!r}, beaver={self.beaver}{extra})")

    @property
    def n_boards(self):
        return self.values.shape[-2]

    def __reduce__(self):
        if self.path is not None:
            return (type(self).load, (self.path, False))
        return (type(self), (np.asarray(self.values).copy(), self.max_checkers,
                             self.progression, self.beaver, self.max_stake, self.stakes))

    # build / files ---------------------------------------------------------------------
    @classmethod
    def build(cls, max_checkers=DEFAULT_MAX_CHECKERS, progression="geometric", beaver=False,
              max_stake=DEFAULT_MAX_STAKE, stakes=DEFAULT_STAKES, progress=None):
        """Solve every pair of boards of at most ``max_checkers`` (0..14) checkers.

        Memory: ``32 m**2`` bytes per table (27 MB for 6 checkers, 288 MB for 8); the
        arithmetic build holds ``stakes`` tables and up to three working ones.  Time: one
        table (four cube states) takes about 4 times the cubeless ``TwoSided.build`` on
        one thread (6 checkers: 0.3 s of CPU, 8: 4 s; ``benchmarks/RESULTS.md``); the
        arithmetic build solves ``max_stake`` tables.  One thread.
        ``max_stake`` (arithmetic, >= 2) and ``stakes`` (1 .. ``max_stake``) are ignored
        for the geometric cube.  ``progress`` prints a line per table to stderr
        (True, False, or None: when standard error is a terminal).
        """
        mc = check_int(max_checkers, 0, 14, "max_checkers")
        progress = show_progress(progress)
        if progression not in _PROGRESSIONS:
            raise ValueError(f"progression={progression!r}: expected 'geometric' or "
                             f"'arithmetic'")
        beaver = check_flag(beaver, "beaver")
        t0 = time.perf_counter()
        fstart, flist = _cuberace.final_lists(mc)
        m = math.comb(mc + 6, 6)
        if progression == "geometric":
            values = np.empty((m, m, 4), dtype=np.float64)
            _cuberace.solve_level(fstart, flist, values, None, values if beaver else None,
                                  2.0, 4.0, True)
            _cuberace.transpose_table(values)
            if progress:
                print(f"cubeful race (geometric{', beaver' if beaver else ''}): {m:,} x "
                      f"{m:,} in {time.perf_counter() - t0:.2f} s", file=sys.stderr)
            return cls(values, mc, progression, beaver)
        cap = check_int(max_stake, 2, 1 << 20, "max_stake")
        keep = check_int(stakes, 1, cap, "stakes")
        values = np.empty((keep, m, m, 4), dtype=np.float64)
        above = [None, None]                # tables of stakes k + 1, k + 2
        for k in range(cap, 0, -1):
            t = values[k - 1] if k <= keep else np.empty((m, m, 4), dtype=np.float64)
            nxt, nxt2 = above
            _cuberace.solve_level(
                fstart, flist, t, nxt if nxt is not None else t,
                nxt2 if (beaver and nxt2 is not None) else None,
                (k + 1) / k, (k + 2) / k, k < cap)
            above = [t, nxt]
            if progress:
                print(f"cubeful race (arithmetic): stake {k} of {cap} done, "
                      f"{time.perf_counter() - t0:.1f} s", file=sys.stderr)
        for k in range(keep):
            _cuberace.transpose_table(values[k])
        return cls(values, mc, progression, beaver, cap, keep)

    def save(self, path):
        """Write the table to ``path`` (atomically: a temporary name, then a rename)."""
        meta = {"max_checkers": self.max_checkers, "n_boards": self.n_boards,
                "index": "colex-v1", "progression": self.progression,
                "beaver": self.beaver, "max_stake": self.max_stake, "stakes": self.stakes,
                "rules": {"rule_book": "sections 6 and 7a (bearing off, the cube)"},
                "objective": "each side maximises its cubeful money equity"}
        return write_db(path, self.kind, meta, {"values": self.values})

    @classmethod
    def load(cls, path, verify=True):
        """Memory-map a table written by ``save``; ``DatabaseError`` if it is damaged."""
        meta, arrays = read_db(path, cls.kind, verify=verify)
        try:
            return cls(arrays["values"], int(meta["max_checkers"]), meta["progression"],
                       bool(meta["beaver"]), meta["max_stake"], meta["stakes"],
                       path=os.fspath(path))
        except (KeyError, ValueError, TypeError) as e:
            raise DatabaseError(f"{os.fspath(path)}: inconsistent contents ({e})") from None

    # queries ---------------------------------------------------------------------------
    def covers(self, on_roll6, opponent6, stake=1, owner="centre"):
        """True when both boards have at most ``max_checkers`` checkers and the decision at
        ``stake`` is exact (arithmetic: the stakes it needs are kept)."""
        a = int(np.sum(on_roll6))
        b = int(np.sum(opponent6))
        if max(a, b) > self.max_checkers:
            return False
        if self.progression == "geometric":
            return True
        need = stake + (0 if owner == "opponent" else (2 if self.beaver else 1))
        return stake <= self.stakes and (need <= self.stakes or stake >= self.max_stake)

    def _entry(self, stake, x, y):
        if self.progression == "geometric":
            return self.values[x, y]
        if stake > self.max_stake:
            raise ValueError(f"stake={stake}: above the cap max_stake={self.max_stake}")
        if stake > self.stakes:
            raise ValueError(f"stake={stake}: this table keeps stakes 1..{self.stakes} "
                             f"(CubefulRace.build(stakes=...))")
        return self.values[stake - 1, x, y]

    def decision(self, on_roll6, opponent6, stake=1, owner="centre"):
        """The exact cube decision of the side on roll, per unit of the current stake.

        Parameters
        ----------
        on_roll6, opponent6 : array_like of int, shape (6,) or (24,)
            Boards of the side on roll and of the opponent (``bearoff`` convention), each
            of 1 .. ``max_checkers`` checkers.
        stake : int
            The current stake (a geometric table serves every stake).
        owner : {"centre", "mover", "opponent"}
            Who may raise: either side, the side on roll, the opponent.

        Returns
        -------
        dict
            ``no_double`` (roll without raising), ``double_take``, ``double_pass`` (= 1),
            ``double_beaver`` (NaN without beaver), ``dead`` (the cubeless equity
            ``2 P(win) - 1``), ``p_win`` and ``equity`` (after the best actions; when the
            side on roll may not raise, ``no_double``).  The raise values are NaN when the
            side on roll may not raise (``owner="opponent"`` or the arithmetic cap).
        """
        if owner not in OWNERS:
            raise ValueError(f"owner={owner!r}: expected one of {', '.join(map(repr, OWNERS))}")
        stake = check_int(stake, 1, 1 << 40, "stake")
        boards = [np.asarray(b) for b in (on_roll6, opponent6)]
        idx = []
        for name, b in zip(("on_roll6", "opponent6"), boards):
            bb, single = as_board6(b, name, self.max_checkers)
            if not single:
                raise ValueError(f"{name}: expected one board")
            if int(bb.sum()) == 0:
                raise ValueError(f"{name}: no checkers left, the game is over")
            idx.append(int(_board6.indices_of(bb)[0]))
        x, y = idx
        k = OWNERS.index(owner)
        row = self._entry(stake, x, y)
        nd = float(row[k])
        dead = float(row[3])
        out = {"no_double": nd, "double_take": math.nan, "double_pass": 1.0,
               "double_beaver": math.nan, "dead": dead,
               # cut to [0, 1]: a sure loss is stored as -1 - 2e-16
               "p_win": min(max((dead + 1.0) / 2.0, 0.0), 1.0)}
        can_raise = owner != "opponent" and (self.progression == "geometric"
                                             or stake < self.max_stake)
        if not can_raise:
            out["double_pass"] = math.nan
            out["equity"] = nd
            return out
        n1 = _next_stake(self.progression, stake)
        out["double_take"] = n1 / stake * float(self._entry(n1, x, y)[2])
        take = out["double_take"]
        if self.beaver and (self.progression == "geometric" or n1 < self.max_stake):
            n2 = _next_stake(self.progression, n1)
            out["double_beaver"] = n2 / stake * float(self._entry(n2, x, y)[2])
            take = min(take, out["double_beaver"])
        out["equity"] = max(nd, min(take, 1.0))
        return out


def cubeful_race(progression="geometric", beaver=False, max_checkers=DEFAULT_MAX_CHECKERS):
    """The default ``CubefulRace`` for a progression and beaver, built on first use (for 6
    checkers about 0.3 s of CPU geometric, 4 s arithmetic) and cached on disk beside
    the bear-off databases (``datadir.data_dir()``) and in memory."""
    mc = check_int(max_checkers, 0, 14, "max_checkers")
    if progression not in _PROGRESSIONS:
        raise ValueError(f"progression={progression!r}: expected 'geometric' or 'arithmetic'")
    tag = "geo" if progression == "geometric" else \
        f"ari-cap{DEFAULT_MAX_STAKE}-k{DEFAULT_STAKES}"
    return cached(CubefulRace, f"cuberace-{tag}{'-beaver' if beaver else ''}-{mc}.nfdb",
                  lambda: CubefulRace.build(mc, progression, beaver),
                  expect={"max_checkers": mc, "progression": progression,
                          "beaver": bool(beaver)})
