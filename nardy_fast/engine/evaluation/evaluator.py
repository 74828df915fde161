"""The evaluator: a trained network (``_net``) with exact race values and n-ply search.

Probabilities are from the view of the side on roll, before it rolls.  Boards follow the
package convention: ``(n, 2, 24)`` uint8, side on roll first, each board in its own
side's numbering.
"""
from __future__ import annotations

import dataclasses
import os

import numpy as np

from nardy_fast._utils import _dbfile
from nardy_fast._utils._warn import warn_user
from nardy_fast.engine.evaluation import _search, met, nets
from nardy_fast.core._checks import check_count, check_dice, check_plies, usable_cores
from nardy_fast.core._state import check_boards, roll_weights, unreachable_rows
from nardy_fast.engine.evaluation._net import N_INPUTS, OUTPUT_NAMES, Net
# the registry of the shipped nets, importable from here as before
from nardy_fast.engine.evaluation.nets import (DATA, DEFAULT_NET, KIND, PLAY_FIELDS, play_rules,
                                    shipped_net_for, shipped_nets)
from nardy_fast.core.matchrules import MatchState, check_match
from nardy_fast.core.finish import final_outcome
from nardy_fast.core.position import (BLACK, WHITE, Position, as_position, contact_mask,
                                      position_list)
from nardy_fast.tables.race import complete_rows, complete_table_for, default_race_tables
from nardy_fast.tables.racevalue import race_table_value
from nardy_fast.core.result import NOT_MEASURED, Outcome, nearest_possible, ruled_out
from nardy_fast.core.rules import OUTCOMES, as_rules, check_flag
from nardy_fast.tables import race12 as _r12

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, overload

if TYPE_CHECKING:
    from nardy_fast.core.rules import RulesLike
    import numpy.typing as npt
    import pandas as pd

    from nardy_fast.core.position import Move

__all__ = ["Evaluator", "DATA", "DEFAULT_NET", "KIND", "PLAY_FIELDS", "RulesFallbackWarning",
           "play_rules", "shipped_nets", "shipped_net_for", "DECISION_PLIES", "BULK_PLIES"]

ENCODING = 1              # version of the input encoding (_net.pyx)
# the header entries of a net file that save writes itself (not the evaluator's meta)
_FILE_KEYS = ("encoding", "n_inputs", "n_hidden", "n_hidden2", "outputs", "rules")

# The look-ahead defaults of the command line, one family by what is asked
# (benchmarks/RESULTS.md; README, "How accurate the quick answers are"):
# - a single decision a person asks for and waits on (a hint, a cube decision, the
#   engine's move in a game): 2 plies.  The move chosen loses 0.0020 points per decision
#   against 0.0029 at 1 ply and 0.0039 at 0-ply (the decision benchmark's 2,000 checker
#   decisions against 1,296-game rollouts), and a 2-ply hint takes a median 0.06 s, 90th
#   percentile 0.14 s on a quiet 2-core machine: a person does not notice the wait.
# - bulk work over many positions or turns (a game's analysis, every legal move of every
#   turn; a study of a file of positions): 0-ply, about 1 ms a position, so that a game
#   or a thousand positions take seconds, not minutes (2 plies is about 70 times the
#   cost).
DECISION_PLIES = 2
BULK_PLIES = 0

# Positions valued by one call into the C search, by plies (at 2 plies or more, per
# thread: the search values a call's positions on every usable core): about 0.2-0.5 s of
# one core's work (one position at 3 plies: about 0.5 s, 2 s with ``keep = 0``).  The
# search holds the interpreter until its call returns, so a large batch (or a deep hint's
# moves) is valued in blocks of these, and Ctrl-C stops it at the end of a block
# (``KeyboardInterrupt``) instead of at the end of the batch (80,000 positions at 2
# plies: minutes).  Each position is valued on its own: any block size gives the same
# values.
VALUE_BLOCK = {0: 1 << 16, 1: 2048, 2: 32, 3: 1}


class RulesFallbackWarning(UserWarning):
    """``Evaluator.default(rules)``: no shipped net was trained under these move rules; a
    net trained under other ones serves them."""


class Evaluator:
    """A position evaluator: the network, and the exact tables where a race is covered.

    Parameters
    ----------
    net : _net.Net
    rules : Rules, optional
        The move rules the net was trained under (default classic).
    meta : dict, optional
        Description kept with the weights (training settings, ...).
    exact : bool
        Value races of both homes from the bear-off tables, and races without contact
        from the race database once it is built (``race12``; method ``"one_sided12"``)
        (default True).  Here and in the methods' ``exact``, anything but True or False
        is a ``TypeError`` naming it (a text such as ``"false"`` would switch it on).
    keep : int
        Moves searched deeper after a 0-ply ranking (the move filter of ``_search``; 0:
        every move).
    rollout_net : _net.Net, optional
        A faster net that plays the games of rollouts, studies, matches and the other game
        loops of a ``"net"`` policy, where ``net`` judges positions and moves (evaluations,
        hints, cube decisions, analysis).  None (default): ``net`` does both.  The
        shipped classic evaluator has one (``nets.rollout_file``): v7, the two-layer net
        of 256 + 64 units, plays while a wider one judges.

    Attributes
    ----------
    net : _net.Net
        The net that judges.
    rollout_net : _net.Net
        The net that plays game loops (``net`` itself when none was given).
    rules, exact, keep
        As given.  These and the two nets are fixed once the evaluator is made (setting
        one is an ``AttributeError``): its search is built from them, and
        ``Evaluator.default()`` is shared by every function of the process.  Make
        another evaluator instead (``with_rules``, or ``Evaluator(ev.net, ...)``).

    Examples
    --------
    >>> import nardy_fast as nf
    >>> ev = nf.Evaluator.default()
    >>> o = ev.evaluate(nf.Position.initial())
    >>> o.method, round(o.p_win, 2), round(o.equity, 2)
    ('net 0-ply', 0.59, 0.27)
    """

    def __init__(self, net: Net, rules: RulesLike = None,
                 meta: Mapping[str, Any] | None = None, exact: bool = True,
                 keep: int = 4, rollout_net: Net | None = None) -> None:
        if not isinstance(net, Net):
            raise TypeError(f"net: expected a nardy_fast.engine.evaluation._net.Net, got {type(net).__name__}")
        if rollout_net is not None and not isinstance(rollout_net, Net):
            raise TypeError(f"rollout_net: expected a nardy_fast.engine.evaluation._net.Net or None, "
                            f"got {type(rollout_net).__name__}")
        self.net = net
        self.rollout_net = net if rollout_net is None else rollout_net
        self.rules = as_rules(rules)
        self.meta = dict(meta or {})
        self.exact = check_flag(exact, "exact")
        self.keep = check_count(keep, "keep", 0)
        self._search = None
        self._search_r12 = None
        self._search_complete = None    # the complete two-sided table its search uses
        self._search_net = None         # the net alone (``exact=False`` of a call)
        self._rollout_ev = None

    # fixed where the evaluator is made: its searchers are built from them, and
    # Evaluator.default() is one object shared by every function of the process
    _FIXED = ("net", "rollout_net", "rules", "exact", "keep")

    def __setattr__(self, name: str, value: Any) -> None:
        if name in self._FIXED and name in self.__dict__:
            raise AttributeError(
                f"Evaluator.{name}: fixed where the evaluator is made (its search is built "
                f"from it); make another: Evaluator(ev.net, rules=..., exact=..., keep=..., "
                f"rollout_net=...), or ev.with_rules(rules)")
        object.__setattr__(self, name, value)

    def __reduce__(self):                     # workers rebuild the search themselves
        return (Evaluator, (self.net, self.rules, self.meta, self.exact, self.keep,
                            None if self.rollout_net is self.net else self.rollout_net))

    def rollout_evaluator(self) -> Evaluator:
        """The evaluator of ``rollout_net`` (same rules, tables and move filter): what the
        game loops of a ``"net"`` policy play, and what the luck nets and the match
        tables' start data of the rollouts are made with.  ``self`` when the two nets are
        one."""
        if self.rollout_net is self.net:
            return self
        if self._rollout_ev is None:
            self._rollout_ev = Evaluator(self.rollout_net, rules=self.rules,
                                         meta={"role": "rollout_net"}, exact=self.exact,
                                         keep=self.keep)
        return self._rollout_ev

    # -- files --------------------------------------------------------------------------
    def save(self, path: str | os.PathLike[str]) -> str:
        """Write the weights of ``net`` to ``path`` (the package's database format,
        atomically); a ``rollout_net`` apart from it is saved by saving
        ``rollout_evaluator()``.

        The file records ``rules`` and the net's shape beside ``meta``; a ``meta`` key of
        theirs (``_FILE_KEYS``: ``"rules"``, ``"encoding"``, ...) is a ``ValueError``
        naming it, and nothing is written (it would take the place of the evaluator's
        own: the file would load under other rules, or not at all).
        """
        taken = sorted(set(self.meta) & set(_FILE_KEYS))
        if taken:
            raise ValueError(f"meta: {', '.join(map(repr, taken))} is written by save (the "
                             "evaluator's rules and the net's shape); keep such notes "
                             "under another key")
        meta = {"encoding": ENCODING, "n_inputs": N_INPUTS, "n_hidden": self.net.n_hidden,
                "outputs": list(OUTPUT_NAMES), "rules": self.rules.to_dict(), **self.meta}
        if self.net.n_hidden2:
            meta["n_hidden2"] = self.net.n_hidden2
        return _dbfile.write_db(path, KIND, meta, self.net.arrays())

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> Evaluator:
        """Read weights written by ``save``.

        Raises
        ------
        TypeError
            ``path`` is no file path (``path: expected a file path (str or os.PathLike),
            got NoneType``).
        DatabaseError
            (A ``ValueError``, naming the file.) The file is not a net of this version,
            its arrays are missing or do not fit, or the rules it records are no rules.
        """
        meta, arrays = _dbfile.read_db(path, KIND)
        if meta.get("encoding") != ENCODING or meta.get("n_inputs") != N_INPUTS:
            raise _dbfile.DatabaseError(
                f"{os.fspath(path)}: a net for input encoding {meta.get('encoding')} with "
                f"{meta.get('n_inputs')} inputs; this version reads encoding {ENCODING} "
                f"with {N_INPUTS}")
        missing = [k for k in ("w1", "b1", "w2", "b2") if k not in arrays]
        if missing:
            raise _dbfile.DatabaseError(f"{os.fspath(path)}: bad weights: no array "
                                        f"{', '.join(map(repr, missing))}")
        try:
            net = Net(arrays["w1"], arrays["b1"], arrays["w2"], arrays["b2"],
                      arrays.get("w3"), arrays.get("b3"), arrays.get("w4"))
        except (TypeError, ValueError) as e:
            raise _dbfile.DatabaseError(f"{os.fspath(path)}: bad weights: {e}") from None
        try:                    # the file's rules, named by the file as its weights are
            rules = as_rules(meta.pop("rules", None))
        except (TypeError, ValueError) as e:
            raise _dbfile.DatabaseError(f"{os.fspath(path)}: bad rules: {e}") from None
        for k in _FILE_KEYS:
            meta.pop(k, None)
        return cls(net, rules=rules, meta=meta)

    @classmethod
    def default(cls, rules: RulesLike = None) -> Evaluator:
        """The net shipped for ``rules`` (None: the classic net, classic rules), loaded once
        per process.

        The shipped net trained under the same move rules (``PLAY_FIELDS``) as ``rules``
        serves them, judging moves under ``rules`` (``with_rules``); when none was, the
        classic net does, with a ``RulesFallbackWarning`` (once per rules) and
        ``meta["fallback"]`` naming the rules it was trained under.
        """
        if rules is None:
            return cls._shipped(os.path.basename(nets.DEFAULT_NET))
        rules = as_rules(rules)
        if rules not in _CACHE:
            name = nets.shipped_net_for(rules)
            if name is None:
                base = cls.default()
                trained = play_rules(base.rules)
                ev = Evaluator(base.net, rules=rules, meta={**base.meta, "fallback": trained},
                               exact=base.exact, keep=base.keep,
                               rollout_net=base.rollout_net)
                warn_user(f"Evaluator.default: no shipped net was trained under "
                          f"{play_rules(rules)}; the one trained under {trained} serves "
                          "these rules", RulesFallbackWarning)
            else:
                ev = cls._shipped(name).with_rules(rules)
            _CACHE[rules] = ev
        return _CACHE[rules]

    @classmethod
    def _shipped(cls, name):
        """The shipped net file ``name`` (in ``nets.DATA``) with its rollout net
        (``nets.rollout_file``) if one is shipped, loaded once per process."""
        key = ("file", name)
        if key not in _CACHE:
            ev = cls.load(os.path.join(nets.DATA, name))
            rollout = nets.rollout_file(name)
            if rollout is not None:
                ev = Evaluator(ev.net, rules=ev.rules, meta=ev.meta, exact=ev.exact,
                               keep=ev.keep,
                               rollout_net=cls.load(os.path.join(nets.DATA, rollout)).net)
            _CACHE[key] = ev
        return _CACHE[key]

    def with_rules(self, rules: RulesLike) -> Evaluator:
        """The same nets judging moves and equities under other ``rules``."""
        return Evaluator(self.net, rules=rules, meta=self.meta, exact=self.exact,
                         keep=self.keep,
                         rollout_net=None if self.rollout_net is self.net else self.rollout_net)

    # -- evaluation ---------------------------------------------------------------------
    def _race12(self):
        """The race database valuing races without contact, or None (not built, not
        exact, or rules it does not serve: ``race12.supports``)."""
        if not self.exact or not _r12.supports(self.rules):
            return None
        return _r12.cached_race12()

    def searcher(self):
        """The C searcher of this evaluator (``engine._search.Searcher``): its net, rules,
        exact tables and race database, built on first use and rebuilt when the race
        database or the complete two-sided table it uses changes (one built since).  For
        the engine's own batch loops (luck, the luck net's data) that call its ``values``
        / ``equities`` / ``rank`` many times without the checks and conversions of
        ``probabilities`` and ``evaluate``; values are from the view of the side on roll
        of each position."""
        db = self._race12()
        complete = complete_table_for(self.rules) if self.exact else None
        if (self._search is None or self._search_r12 is not db
                or self._search_complete is not complete):
            tables = default_race_tables(self.rules) if self.exact else None
            self._search = _search.Searcher(self.net, self.rules, tables, keep=self.keep,
                                            race12=None if db is None else db.tables)
            self._search_r12 = db
            self._search_complete = complete
        return self._search

    def _net_searcher(self):
        """The searcher of the net alone, no table or race database at the root or the
        leaves: ``exact=False`` in a call (``searcher()`` itself when ``self.exact`` is
        False)."""
        if not self.exact:
            return self.searcher()
        if self._search_net is None:
            self._search_net = _search.Searcher(self.net, self.rules, None, keep=self.keep)
        return self._search_net

    def probabilities(self, boards: npt.ArrayLike, plies: int = 0, exact: bool | None = None,
                      sides: Sequence[str] | None = None
                      ) -> tuple[npt.NDArray[np.float64], list[str]]:
        """Probabilities ``(n, 7)`` (``OUTPUT_NAMES``) and the method of each row.

        Parameters
        ----------
        boards : array_like of uint8, shape (n, 2, 24) or (2, 24)
            Side on roll first, each board in its own numbering.
        plies : {0, 1, 2, 3}
        exact : bool, optional
            Races of both homes from the bear-off tables (``race_probabilities``), races
            without contact from the race database when built (``race12``); default the
            evaluator's ``exact``.
        sides : sequence of str, optional
            Colour on roll of each row, ``"white"`` or ``"black"``, one per row
            (``draw_rule`` only; default White).  Another count of colours, or another
            colour, is a ``ValueError`` naming ``sides``.

        Returns
        -------
        values : ndarray of float64, shape (n, 7)
        methods : list of str
            ``"net 0-ply"`` ... or the race method (``"two_sided"``, ``"one_sided"``).
        """
        vals, methods, _ = self._values(boards, plies, exact, sides, outcomes=False)
        return vals, methods

    def _values(self, boards, plies, exact, sides, outcomes=True):
        """``probabilities`` plus ``{row: Outcome}`` of the rows valued by a race table
        (their draws, under ``draw_rule``, are in the Outcome, not in the seven values).
        ``outcomes=False``: the rows the complete two-sided table values are looked up
        at once (``race.complete_rows``), get no Outcome and are not searched."""
        b = check_boards(boards)
        plies = check_plies(plies, _search.MAX_SEARCH_PLIES)
        exact = self.exact if exact is None else check_flag(exact, "exact")
        if sides is not None:
            sides = _check_sides(sides, len(b))
        methods = [f"net {plies}-ply"] * len(b)
        races = {}
        rest = np.flatnonzero(~contact_mask(b)) if exact else np.empty(0, dtype=np.intp)
        done = np.empty(0, dtype=np.intp)          # rows of the complete table, not searched
        if not outcomes and rest.size:
            rows, w, mw, ml = complete_rows(b[rest], self.rules)
            done, rest = rest[rows], np.delete(rest, rows)
        search = self.searcher() if exact else self._net_searcher()
        if done.size == 0:
            vals = _values_in_blocks(search, b, plies).astype(np.float64)
        else:
            vals = np.empty((len(b), len(OUTPUT_NAMES)), dtype=np.float64)
            searched = np.delete(np.arange(len(b)), done)
            if searched.size:
                vals[searched] = _values_in_blocks(search, b[searched], plies)
            # race_outcome's values for a race of both homes (every mars a home mars, no
            # koks), cut to [0, 1] as its Outcome is
            zero = np.zeros_like(w)
            vals[done] = np.clip(np.column_stack([w, mw, zero, mw, ml, zero, ml]), 0.0, 1.0)
            for k in done:
                methods[k] = "two_sided"
        if plies and self.rules.opening_roll == "opening_dice":
            # the start, White's first roll: one of the opening dice, never a double
            for k in np.flatnonzero((b[:, 0, 0] == 15) & (b[:, 1, 0] == 15)):
                if sides is None or sides[k] == WHITE:
                    weights = roll_weights(b[k, 0], b[k, 1], self.rules)
                    vals[k] = weights @ search.roll_values(b[k, 0], b[k, 1], plies - 1)
        if exact:
            db = self._race12()
            for k in rest:
                side = WHITE if sides is None else sides[k]
                pos = Position.from_boards(b[k, 0], b[k, 1], side)
                o = race_table_value(pos, self.rules, db)
                if o is None:
                    continue
                vals[k] = [getattr(o, name) for name in OUTPUT_NAMES]
                methods[k] = o.method
                races[int(k)] = o
        _warn_unreachable(b, methods)
        return vals, methods, races

    def equities(self, values: npt.ArrayLike) -> npt.NDArray[np.float64]:
        """Equities (points per game, side on roll) of probabilities ``(n, 7)``
        (``OUTPUT_NAMES``); another shape is a ``ValueError`` naming ``values``."""
        shape = np.shape(values)
        if len(shape) != 2 or shape[1] != len(OUTPUT_NAMES):
            raise ValueError(f"values: expected probabilities of shape (n, "
                             f"{len(OUTPUT_NAMES)}) ({', '.join(OUTPUT_NAMES)}), got shape "
                             f"{shape}")
        return self.searcher().equities(values)

    @overload
    def evaluate(self, x: Position | str, plies: int = 0, exact: bool | None = None,
                 match: MatchState | None = None) -> Outcome: ...

    @overload
    def evaluate(self, x: npt.ArrayLike | Sequence[Position | str], plies: int = 0,
                 exact: bool | None = None, match: MatchState | None = None
                 ) -> Outcome | pd.DataFrame | npt.NDArray[np.float64]: ...

    def evaluate(self, x: Position | str | npt.ArrayLike | Sequence[Position | str],
                 plies: int = 0, exact: bool | None = None, match: MatchState | None = None
                 ) -> Outcome | pd.DataFrame | npt.NDArray[np.float64]:
        """Evaluate for the side on roll: one ``Outcome`` for a ``Position`` or an ID.

        Parameters
        ----------
        x : Position or position ID
            (An array ``(n, 2, 24)`` of uint8 boards, side on roll first, gives an
            ``ndarray (n,)`` of equities, as ``evaluate_boards``.  A list of positions is
            a TypeError: ``evaluate_many`` gives their frame, ``outcomes`` a list of
            ``Outcome``.)
        plies : {0, 1, 2, 3}
            Look-ahead (module ``_search``): 0 is the net itself.
        exact : bool, optional
            Races of both homes from the bear-off tables (default: ``self.exact``).
        match : MatchState, optional
            The match score (``nardy_fast.core.matchrules``); its ``on_roll`` must be the
            positions' side on roll, and its game's move rules and ``draw_rule`` this
            evaluator's (``ValueError`` naming those that differ).  Adds the match
            winning chance of the side on roll (``extra["mwc"]``, the net's outcome
            probabilities through the match equity table,
            ``nardy_fast.engine.evaluation.met``) and its money equivalent
            ``extra["emg"]``.

        Returns
        -------
        Outcome
            ``method`` says how: ``"net 0-ply"`` ..., the race table's name, or
            ``"final"`` for a finished game.

        Raises
        ------
        TypeError
            ``x`` is a list (or a Series or array) of positions or IDs, or an empty
            list, or neither a position nor boards (``position:
            expected a Position or a position ID, got NoneType``, ``as_position``).
        ValueError
            A malformed ID (naming ``position``), or boards of another shape or that are
            no position (``evaluate_boards``).
        """
        if isinstance(x, (list, tuple)):
            if not x or all(isinstance(p, (Position, str)) for p in x):
                raise TypeError(f"Evaluator.evaluate: x is a list of {len(x)} positions; "
                                "evaluate one Position or ID, or use evaluate_many (a "
                                "DataFrame) or outcomes (a list of Outcomes)")
        elif not hasattr(x, "__array__"):        # a Position, an ID, or None, 5, ...: named
            return self.outcomes([as_position(x, "position")], plies, exact, match)[0]
        elif np.asarray(x).dtype.kind in "OUS":  # a Series or array of IDs or Positions
            raise TypeError(f"Evaluator.evaluate: x is a {type(x).__name__} of "
                            f"{np.size(x)} positions, not boards; evaluate one Position or "
                            "ID, or use evaluate_many (a DataFrame) or outcomes (a list of "
                            "Outcomes)")
        return self.evaluate_boards(x, plies, exact, match)

    def evaluate_boards(self, boards: npt.ArrayLike, plies: int = 0, exact: bool | None = None,
                        match: MatchState | None = None) -> npt.NDArray[np.float64]:
        """Equities ``ndarray (n,)`` (points per game, side on roll) of boards
        ``(n, 2, 24)`` uint8, side on roll first, each in its own numbering; with
        ``match``, match winning chances.  Under ``draw_rule`` a race's value counts its
        draws (the race table's Outcome, as ``outcomes`` gives it; White on roll), which
        the seven probabilities leave out."""
        if self.rules.draw_rule:
            vals, _, races = self._values(boards, plies, exact, None)
        else:
            (vals, _), races = self.probabilities(boards, plies, exact), {}
        if match is not None:
            check_match(match, [], rules=self.rules, rules_name="the evaluator's rules")
            out = met.mwc_of_values(vals, match)
            for j, o in races.items():
                out[j] = met.match_extra(o, match)["mwc"]
            return out
        out = self.equities(vals)
        for j, o in races.items():
            out[j] = o.equity
        return out

    def evaluate_many(self, positions: Iterable[Position | str], plies: int = 0,
                      exact: bool | None = None, match: MatchState | None = None) -> pd.DataFrame:
        """A DataFrame, one row per position indexed by ID (name ``"position"``, as every
        frame keyed by position ID; ``"id"`` before 0.3.0): the ``OUTPUT_NAMES``
        columns, ``p_lose``, under ``draw_rule`` ``p_draw`` (as ``win_report``'s; the
        three sum to 1), ``equity`` and ``method`` (with ``match``: ``mwc``, ``emg``).
        ``positions``: an iterable of Positions or IDs, or one of them
        (``core.position.position_list``)."""
        import pandas as pd                 # lazy: pandas is slow to import
        positions = position_list(positions)
        outs = self.outcomes(positions, plies, exact, match)
        draws = ["p_draw"] if self.rules.draw_rule else []
        columns = [OUTPUT_NAMES[0], "p_lose", *OUTPUT_NAMES[1:], *draws, "equity", "method"]
        frame = pd.DataFrame([[getattr(o, c) for c in columns] for o in outs],
                             columns=columns, index=pd.Index([p.id for p in positions],
                                                             name="position"))
        if match is not None:
            frame["mwc"] = [o.extra["mwc"] for o in outs]
            frame["emg"] = [o.extra["emg"] for o in outs]
        return frame

    def outcomes(self, positions: Iterable[Position | str], plies: int = 0,
                 exact: bool | None = None, match: MatchState | None = None) -> list[Outcome]:
        """One ``Outcome`` per ``Position`` (side on roll's view; ``method`` says how:
        ``"net 0-ply"`` ... or the race table's name).  A finished game (the side that
        just moved has borne off all 15) gets its result (``finish.final_outcome``,
        method ``"final"``).  With ``match`` (a ``MatchState``) ``extra`` adds ``mwc``,
        ``se_mwc`` (0) and ``emg`` (``met.match_extra``; see ``evaluate``)."""
        positions = position_list(positions)
        if match is not None:
            check_match(match, positions, rules=self.rules,
                        rules_name="the evaluator's rules")
        out = [final_outcome(p, self.rules) if p.is_over() else None for p in positions]
        live = [k for k, o in enumerate(out) if o is None]
        if live:
            vals, methods, races = self._values(
                np.stack([positions[k].boards for k in live]), plies, exact,
                [positions[k].side for k in live])
            eqs = self.equities(vals)
            points = tuple(self.rules.points(kind) for kind in OUTCOMES)
            for j, (k, v, m, e) in enumerate(zip(live, vals, methods, eqs)):
                if j in races:         # the table's Outcome: its draws and their equity
                    out[k] = dataclasses.replace(races[j], extra={**races[j].extra,
                                                                  "plies": int(plies)})
                    continue
                d = dict(zip(OUTPUT_NAMES, (float(a) for a in v)))
                # the net's float32 outputs can break a nesting or pass 1 by rounding;
                # the kinds the boards rule out stay 0
                out[k] = nearest_possible(
                    Outcome(p_lose=1.0 - d["p_win"], equity=float(e), method=m,
                            extra={"plies": int(plies)}, **d, **NOT_MEASURED),
                    draws=self.rules.draw_rule, points=points,
                    ruled_out=ruled_out(positions[k].mover, positions[k].opponent))
        if match is not None:
            for o in out:      # built here: their extra takes the entries in place
                o.extra.update(met.match_extra(o, match))
        return out

    # -- moves --------------------------------------------------------------------------
    def hint(self, position: Position | str, dice: tuple[int, int], plies: int = 0,
             match: MatchState | None = None) -> pd.DataFrame:
        """Every legal move of ``dice`` ranked by equity (side on roll's view), or with
        ``match`` (a ``MatchState``) by match winning chance.

        All moves are valued at 0-ply; with ``plies >= 1`` the best ``keep`` of them are
        valued again at ``plies`` (each resulting position searched ``plies`` deep), as
        GNU Backgammon's move filters do.

        Returns
        -------
        pandas.DataFrame
            One row per move, best first: ``rank``, ``move`` (steps, 1-based points of the
            side on roll), ``equity``, ``equity_loss`` (points per game lost against the
            best move, as ``move_report``'s: >= 0 among the rows valued at one depth; a
            row left at 0-ply after the rows searched deeper, its ``plies`` smaller, is
            set against a deeper value and may show a small negative loss, as the moves
            below GNU Backgammon's filter do), the ``OUTPUT_NAMES`` probabilities with
            ``p_lose`` after ``p_win`` (``1 - p_win - p_draw``, as ``evaluate_many``'s;
            under ``draw_rule`` also ``p_draw``), ``plies`` (depth of that row's value),
            ``method`` (how that row was valued: ``"net N-ply"``; ``"final"`` for a move
            that ends the game, ``"final (last turn)"`` for White's last checker off under
            ``draw_rule``, Black's last turn valued exactly; the table's name,
            ``"two_sided"``, ``"one_sided"`` or ``"one_sided12"``, for a race the exact
            tables value, ``"one_sided 2-ply"`` where such a race was searched deeper on the
            tables' values; under ``draw_rule`` such a race takes the table's value, as
            ``evaluate`` gives it, and its name), ``id_after`` (the position ID after the
            move, as ``move_report``'s and ``nardy-fast moves``'; ``""`` for a move that
            ends the game with both sides off, a draw under ``draw_rule``).  ``diff``
            (``-equity_loss``) and ``position`` (``id_after``) are the old names of
            the same values, deprecated: kept as columns until 0.4.0.  With ``match``: also
            ``mwc`` (the side on roll's match winning chance after the move), ``mwc_loss``
            (lost against the best move, as ``equity_loss``; ``mwc_diff`` is its
            negative) and ``emg``, and the order is by ``mwc``: every move at 0-ply, the
            best ``keep`` again at ``plies`` (the moves inside the search are still chosen
            by equity).
        """
        import pandas as pd                 # lazy: pandas is slow to import
        position = as_position(position)
        d1, d2 = check_dice(dice)
        plies = check_plies(plies, _search.MAX_SEARCH_PLIES)
        if match is None:
            res, vals, used, eqs, methods, draws = self._rank(position, d1, d2, plies)
        else:
            check_match(match, [position], rules=self.rules,
                        rules_name="the evaluator's rules")
            res, vals, used, eqs, mwc, methods, draws = self._match_rank(position, d1, d2,
                                                                          plies, match)
        moves = {m.board: m for m in position.legal_moves((d1, d2), self.rules)}
        rows = []
        for k in range(len(res)):
            m = moves[tuple(int(x) for x in res[k])]
            diff = float(eqs[k] - eqs[0])
            row = {"rank": k + 1, "move": str(m), "equity": float(eqs[k]),
                   "equity_loss": -diff + 0.0, "diff": diff}
            probs = dict(zip(OUTPUT_NAMES, (float(a) for a in vals[k])))
            row["p_win"] = probs.pop("p_win")
            # the opponent's P(win) after the move, as every frame of outcomes gives it
            row["p_lose"] = max(0.0, 1.0 - row["p_win"] - float(draws[k])) + 0.0
            row.update(probs)
            if self.rules.draw_rule:
                row["p_draw"] = float(draws[k])
            row["plies"] = int(used[k])
            # "" where the move ends the game with both sides off (a draw under
            # draw_rule: a result, not a position), as game_report's ids
            ended = not (any(m.board) or position.opponent.any())
            after = None if ended else position.play(m)
            row["method"] = (self._move_method(m, after, int(used[k]))
                             if methods[k].startswith("net ") else methods[k])
            row["id_after"] = row["position"] = "" if ended else after.id
            if match is not None:
                lost = float(mwc[0] - mwc[k])
                row.update(mwc=float(mwc[k]), mwc_loss=lost + 0.0, mwc_diff=-lost + 0.0,
                           emg=float(met.emg(mwc[k], match)))
            rows.append(row)
        return pd.DataFrame(rows)

    def _move_method(self, move, after, plies):
        """How ``Searcher.rank`` valued the result of ``move`` (``after``: the position it
        leaves, None for a draw), searched ``plies`` deep: ``"final"`` where the mover bore
        off its last checker (the game's result), the race table's name where the tables
        value ``after`` (``race_table_value``, as the searcher's leaves; ``"NAME N-ply"``
        where it was searched deeper on their values), else ``"net N-ply"``."""
        if not any(move.board):
            return "final"
        if self.exact and not after.is_contact():
            o = race_table_value(after, self.rules, self._race12())
            if o is not None:
                return o.method if plies == 0 else f"{o.method} {plies}-ply"
        return f"net {plies}-ply"

    def _rank(self, position, d1, d2, plies):
        """``Searcher.rank`` (money play) with every value a possible distribution
        (``_possible``) and, under ``draw_rule``, the results that end the game and those
        the race tables value taken as ``evaluate`` values them (``_exact_rows``); where
        a value changed, the rows ranked together are ordered again (stably)."""
        res, vals, used, eqs = _rank_in_blocks(self.searcher(), position, d1, d2, plies,
                                               keep=self.keep)
        methods = [f"net {int(u)}-ply" for u in used]
        draws = np.zeros(len(res))
        clipped, eqs2 = self._possible(vals, eqs, position.opponent, res)
        final = self._exact_rows(position, res)
        if clipped is vals and not final:
            return res, vals, used, eqs, methods, draws
        vals, eqs = clipped.astype(np.float64), eqs2.astype(np.float64)
        for k, o in final.items():
            vals[k] = [getattr(o, name) for name in OUTPUT_NAMES]
            eqs[k], methods[k], draws[k] = o.equity + 0.0, o.method, o.p_draw
        # the search ranks the best ``keep`` (all at 0-ply) together, then the rest
        n = len(res)
        top = n if plies == 0 or self.keep <= 0 else min(self.keep, n)
        order = np.concatenate([block[np.argsort(-eqs[block], kind="stable")]
                                for block in (np.arange(top), np.arange(top, n))])
        return (res[order], vals[order], used[order], eqs[order],
                [methods[k] for k in order], draws[order])

    def _possible(self, vals, eqs, opponent, results):
        """``(vals, eqs)`` with every row of ``vals`` (``(n, 7)``, ``OUTPUT_NAMES``) a
        possible distribution: a value searched at 1 ply or more averages the rolls in
        float32, which can pass 1 (P(win) 1.0000002, an equity above the largest win) or,
        flipped, fall below 0; such a row is moved to the nearest possible one
        (``nearest_possible``, as ``outcomes`` does, the kinds that the mover's result
        ``results[k]`` and the ``opponent``'s board rule out held at 0) and its equity
        recomputed.  The same arrays when no row needed it, else float64 copies."""
        w, mw, kw, hw, ml, kl, hl = np.asarray(vals, dtype=np.float64).T
        bad = np.flatnonzero((np.asarray(vals) < 0).any(axis=1) | (w > 1) | (mw > w)
                             | (kw + hw > mw) | (ml > 1 - w) | (kl + hl > ml))
        if bad.size == 0:
            return vals, eqs
        vals = np.array(vals, dtype=np.float64)
        eqs = np.array(eqs, dtype=np.float64)
        points = tuple(self.rules.points(kind) for kind in OUTCOMES)
        for k in bad:
            d = dict(zip(OUTPUT_NAMES, (float(a) for a in vals[k])))
            o = nearest_possible(Outcome(p_lose=1.0 - d["p_win"], equity=float(eqs[k]),
                                         method="net", **d, **NOT_MEASURED),
                                 draws=self.rules.draw_rule, points=points,
                                 ruled_out=ruled_out(results[k], opponent))
            vals[k] = [getattr(o, name) for name in OUTPUT_NAMES]
            eqs[k] = o.equity + 0.0
        return vals, eqs

    def _final_rows(self, position, results):
        """``{row: Outcome}`` (the mover's view, exact, ``final_outcome``) of the results
        the colour-blind search cannot value under ``draw_rule``: White bearing off its
        last checker (Black then has its last turn), and every result of Black's last
        turn (a draw when it bears off its last checker, else the loss as scored)."""
        if not self.rules.draw_rule:
            return {}
        last_turn = not position.opponent.any()
        if not last_turn and position.side != WHITE:
            return {}
        other = BLACK if position.side == WHITE else WHITE
        out = {}
        for k, board in enumerate(results):
            if board.any() and not last_turn:
                continue
            if not board.any() and last_turn:
                out[k] = Outcome(0.0, 0.0, 0.0, 0.0, 0.0, "final", p_draw=1.0)
            else:
                after = Position(position.opponent, board, other)
                out[k] = final_outcome(after, self.rules).flipped()
        return out

    def _exact_rows(self, position, results):
        """``{row: Outcome}`` (the mover's view) of the results whose value under
        ``draw_rule`` the colour-blind search cannot give: those that end the game
        (``_final_rows``) and those that leave a race a table values
        (``racevalue.race_table_value``, as ``evaluate`` values the position: the
        table's Outcome of the opponent, flipped; the search values such a race as
        without ``draw_rule``, Black's last turn left out).  Empty without ``draw_rule``
        or ``exact``."""
        out = {}
        if self.rules.draw_rule and self.exact:
            other = BLACK if position.side == WHITE else WHITE
            db = self._race12()
            for k, board in enumerate(results):
                board = np.asarray(board, dtype=np.uint8)
                if not board.any() or not position.opponent.any():
                    continue                        # the game ends: _final_rows
                after = Position(position.opponent, board, other)
                if after.is_contact():
                    continue
                o = race_table_value(after, self.rules, db)
                if o is not None:
                    out[k] = o.flipped()
        out.update(self._final_rows(position, results))
        return out

    def _match_rank(self, position, d1, d2, plies, match):
        """``Searcher.rank`` ordered by match winning chance (``hint``), with its methods
        and draws; the values searched deeper made possible (``_possible``) before their
        chances are read, and under ``draw_rule`` the results ``_exact_rows`` values
        taken from it, draws and all, and not searched."""
        s = self.searcher()
        res, vals, used, eqs = s.rank(position.mover, position.opponent, d1, d2, 0)
        methods = [f"net {int(u)}-ply" for u in used]
        draws = np.zeros(len(res))
        mwc = met.mwc_of_values(vals, match)
        exact = self._exact_rows(position, res)
        if exact:
            vals, eqs = vals.astype(np.float64), eqs.astype(np.float64)
            for k, o in exact.items():
                vals[k] = [getattr(o, name) for name in OUTPUT_NAMES]
                eqs[k], draws[k] = o.equity + 0.0, o.p_draw
                mwc[k] = met.match_extra(o, match)["mwc"]
                methods[k] = o.method
        order = np.lexsort((np.arange(len(mwc)), -mwc))
        if plies > 0:
            top = [k for k in order[:self.keep if self.keep > 0 else len(order)]
                   if res[k].any() and k not in exact]
            if top:
                b = np.stack([np.stack([position.opponent, res[k]]) for k in top])
                deep = _values_in_blocks(s, b.astype(np.uint8), plies).astype(np.float64)
                deep = np.concatenate([1.0 - deep[:, :1], deep[:, 4:7], deep[:, 1:4]], 1)
                made, deep_eqs = self._possible(deep, s.equities(deep), position.opponent,
                                                res[top])
                if made is not deep:             # keep the corrected values as they are
                    vals = vals.astype(np.float64)
                vals[top] = made
                used[top] = plies
                eqs[top] = deep_eqs
                mwc[top] = met.mwc_of_values(made, match)
            n_top = self.keep if self.keep > 0 else len(order)
            head = order[:n_top][np.lexsort((np.arange(len(order[:n_top])),
                                             -mwc[order[:n_top]]))]
            order = np.concatenate([head, order[n_top:]])
        return (res[order], vals[order], used[order], eqs[order], mwc[order],
                [methods[k] for k in order], draws[order])

    def best_move(self, position: Position | str, dice: tuple[int, int], plies: int = 0,
                  match: MatchState | None = None) -> Move:
        """The best ``Move`` of ``dice`` for the side on roll (see ``hint``; with
        ``match`` the one of the highest match winning chance)."""
        position = as_position(position)
        d1, d2 = check_dice(dice)
        if match is None:
            res = self._rank(position, d1, d2,
                             check_plies(plies, _search.MAX_SEARCH_PLIES))[0]
        else:
            check_match(match, [position], rules=self.rules,
                        rules_name="the evaluator's rules")
            res = self._match_rank(position, d1, d2, check_plies(plies, _search.MAX_SEARCH_PLIES),
                                   match)[0]
        best = tuple(int(x) for x in res[0])
        return next(m for m in position.legal_moves((d1, d2), self.rules) if m.board == best)


def _warn_unreachable(boards, methods):
    """Warn when the net valued boards that no game reaches (``_state.unreachable_rows``):
    its values there are extrapolations far from any game it learnt, not estimates (2
    checkers on point 18 against 2 home, 13 of each off: P(win) 0.0001 at 0-ply, where
    the race is about even)."""
    rows = [int(k) for k in unreachable_rows(boards) if methods[k].startswith("net")]
    if rows:
        k = rows[0]
        first = Position.from_boards(boards[k, 0], boards[k, 1]).id
        warn_user(f"{len(rows)} of {len(boards)} positions valued by the net are reached "
                  f"by no game (the first: row {k}, {first}): a side has borne off "
                  "checkers while others are outside its home, so the net's values there "
                  "are extrapolations, not estimates; a rollout (its policy plays them "
                  "home) or a race table values such a race")


def _values_in_blocks(search, boards, plies, *, threads=None, block=None):
    """``search.values(boards, plies)`` (a ``_search.Searcher``'s, ``(n, 7)`` float32) in
    blocks of ``block`` positions (None: ``VALUE_BLOCK[plies]``), times ``threads`` at 2
    plies or more (None: the usable cores, the search's default), so that Ctrl-C stops a
    large batch between two blocks; the same values whatever the blocks."""
    size = VALUE_BLOCK[plies] if block is None else block
    if plies >= 2:
        size *= usable_cores() if threads is None else threads
    if len(boards) <= size:
        return search.values(boards, plies)
    out = np.empty((len(boards), len(OUTPUT_NAMES)), dtype=np.float32)
    for start in range(0, len(boards), size):
        out[start:start + size] = search.values(boards[start:start + size], plies)
    return out


def _rank_in_blocks(search, position, d1, d2, plies, *, keep, block=None):
    """``search.rank(position.mover, position.opponent, d1, d2, plies)`` of a searcher
    made with ``keep``, the results searched deeper valued by ``_values_in_blocks``: a
    3-ply hint of every move (``keep = 0``) is up to a minute of one C call, which Ctrl-C
    could not stop.  Every result ranked at 0-ply, the best ``keep`` (0: all) but the wins
    valued again ``plies`` deep, flipped to the mover's view as the search flips them,
    and ranked again among themselves; the same results, values, plies and equities in
    the same order as ``rank``'s, whatever the blocks."""
    res, vals, used, eqs = search.rank(position.mover, position.opponent, d1, d2, 0)
    if plies == 0:
        return res, vals, used, eqs
    top = len(res) if keep <= 0 else min(keep, len(res))
    deep = np.array([k for k in range(top) if res[k].any()], dtype=np.intp)  # a win: exact
    if deep.size:
        pairs = np.stack([np.broadcast_to(position.opponent, res[deep].shape), res[deep]],
                         axis=1).astype(np.uint8)
        v = _values_in_blocks(search, pairs, plies, block=block).astype(np.float64)
        # the mover's view: P(win) 1 - the opponent's (in double, rounded once, as the
        # search does), the win kinds and the loss kinds trading places
        flipped = np.concatenate([1.0 - v[:, :1], v[:, 4:7], v[:, 1:4]], 1).astype(np.float32)
        vals[deep], used[deep] = flipped, plies
        eqs[deep] = search.equities(flipped)
    order = np.concatenate([_search._order(np.arange(top), eqs, res),
                            np.arange(top, len(res))])
    return res[order], vals[order], used[order], eqs[order]


def _check_sides(sides, n):
    """``sides`` (``probabilities``): a list of ``n`` colours, each ``"white"`` or
    ``"black"``; else a ``TypeError`` or ``ValueError`` naming ``sides``."""
    if isinstance(sides, str) or not isinstance(sides, Iterable):
        raise TypeError(f"sides: expected a sequence of colours ('white' or 'black'), one "
                        f"per board, got {type(sides).__name__}")
    sides = list(sides)
    if len(sides) != n:
        raise ValueError(f"sides: {len(sides)} colours for {n} boards; expected one per "
                         "board")
    for k, side in enumerate(sides):
        if side not in (WHITE, BLACK):
            raise ValueError(f"sides[{k}]={side!r}: expected 'white' or 'black'")
    return sides


_CACHE = {}
