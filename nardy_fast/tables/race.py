"""Exact and near-exact winning chances of a pure race (both sides entirely in their homes).

Two methods, chosen per position:

``"two_sided"`` (exact)
    Both sides have at most ``TwoSided.max_checkers`` checkers (default database: 8), so
    neither can be marsed and each side's best play maximises its probability of winning;
    the two-sided table gives that probability exactly.  Or one side still has all 15
    checkers (none off) and the other at most ``MarsTable.max_checkers`` (default table:
    8): the mars table gives the exact probabilities of winning and of mars under the
    play maximising each side's expected points, when it was built for the same ratio of
    mars to oin points as ``rules`` (the cached default is built per ratio on first use).

    Once the complete two-sided table (``bearoff_complete``: every pair of boards of up
    to 15 checkers, with mars, 16-bit: see its bound there) has been built for the rules'
    points (``nardy-fast bearoff build --two-sided 15``), it values every race of both
    homes, first; ``extra["two_sided_complete_max_checkers"]`` says so (and
    ``extra["two_sided_complete_points"]`` the points it was built for).  One built for
    other points (the classic table in a cube game, where every win scores 1) values the
    races where no mars is possible, both sides having borne off a checker, as exactly:
    they are played alike whatever a mars scores (``complete_table_for``).

``"one_sided"`` (the standard approximation)
    Otherwise each side is assumed to follow its own one-sided policy independently of the
    other: ``Ta``, ``Tb`` are the turns the side on roll and the opponent need to bear off
    all (play minimising expected turns), ``Fa``, ``Fb`` the turns until their first checker
    is off (play minimising that expectation).  The side on roll wins iff ``Ta <= Tb``; it
    wins a mars iff also ``Fb >= Ta`` (the opponent has none off after its ``Ta - 1``
    turns) and loses a mars iff ``Tb < Ta`` and ``Fa > Tb``.  The error comes from treating
    the two as independent and from ignoring that the best play depends on the opponent
    (e.g. racing for the last checker, or saving the mars); ``tests/tables/test_race.py``
    measures it against the two-sided table: over all races of at most 8 checkers a side, the
    error in P(win) is at most 0.014 and 0.0009 on average (asserted on a sample of 400
    pairs: <= 0.0145, < 0.0015 on average),
    and against the exact mars table (classic points): 15 against <= 2 checkers, every
    pair, at most 3e-7 in P(win) and 1e-15 in P(mars) (asserted on a sample: <= 3e-7,
    < 1e-14); 15 against <= 8, a sample of 1/679 of the pairs with either side on roll
    (``benchmarks/bench_bearoff.py --mars 8``), at most 0.002 in P(win) and 0.0022 in
    P(mars): with all 15 checkers left a side can rarely win, and saving the mars is
    mostly a matter of getting one checker off soonest, which the one-sided policy does.
    Mars probabilities are clipped to the win / loss probabilities.

In a pure race no koks is possible and every mars loser has all 15 checkers home, so
every mars is a *home mars*: ``p_home_mars_*`` equal ``p_mars_*`` and, with
``scoring="extended"``, a mars scores ``Rules.home_mars_points``.

With ``draw_rule=True`` the one-sided method is always used, with the last-turn rule of
the rule book (section 7): the side that moved first in the game is White.
"""
from __future__ import annotations

import numpy as np

from nardy_fast.tables import bearoff as _bo
from nardy_fast.tables.bearoff_complete import CompleteTwoSided, complete_two_sided, serving
from nardy_fast.tables._racetables import RaceTables
from nardy_fast.core._state import finished_reason
from nardy_fast.core.finish import final_outcome
from nardy_fast.core.methods import check_method, methods_of
from nardy_fast.core.position import WHITE, Position, as_position
from nardy_fast.core.result import NOT_MEASURED, Outcome, clip_probabilities
from nardy_fast.core.rules import as_rules

from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from nardy_fast.core.rules import RulesLike
    from nardy_fast.core.rules import Rules
    from nardy_fast.tables.bearoff import MarsTable, TwoSided
    from nardy_fast.tables.onesided import OneSided

# race_outcome, the tables' one conversion to an Outcome, is for the tables' own modules
# (race12): its ``method`` is the Outcome's label, not a choice of method.
__all__ = ["race_probabilities", "mars_table_for", "complete_table_for", "race_tables",
           "default_race_tables", "complete_rows", "METHODS"]

METHODS = methods_of("auto", "exact", "two_sided", "one_sided")
_TABLES = {}                  # (one, two, mars) -> RaceTables: built once per set of databases


def race_tables(one: OneSided | None = None, two: TwoSided | None = None,
                mars: MarsTable | None = None, complete: CompleteTwoSided | None = None
                ) -> RaceTables:
    """The ``RaceTables`` (C race values) of these databases, built once per set: the one
    cache of race tables in the package (the evaluator, rollouts, training and
    ``race_probabilities`` all take theirs from here).  ``complete``: the complete
    two-sided table (``bearoff_complete``), used first where it covers a race."""
    key = (one, two, mars, complete)
    tables = _TABLES.get(key)
    if tables is None:
        if len(_TABLES) >= 16:
            _TABLES.clear()
        tables = _TABLES[key] = RaceTables(one, two, mars, complete)
    return tables


def default_race_tables(rules: RulesLike = None, mars: bool = True) -> RaceTables:
    """The race tables of the default databases: the one- and two-sided ones (built on
    first use, cached on disk) and, with ``mars``, the cached mars table that
    ``race_probabilities`` uses under ``rules`` (never built here), and the complete
    two-sided table when it has been built (``nardy-fast bearoff build --two-sided 15``;
    ``complete_table_for``), which then values every race of both homes it serves.
    ``mars=False``: neither, so that the result does not depend on which optional tables
    a machine has built (rollouts attach theirs per chunk; training)."""
    rules = as_rules(rules)
    table = mars_table_for(rules, _bo.DEFAULT_MARS) if mars else None
    complete = complete_table_for(rules) if mars else None
    return race_tables(_bo.one_sided(), _bo.two_sided(), table, complete)


def complete_table_for(rules: Rules) -> CompleteTwoSided | None:
    """The built complete two-sided table valuing races under ``rules``, as it serves them
    (``bearoff_complete.serving``): the one built for the rules' points, every race it
    covers; else the one built for classic points (``nardy-fast bearoff build --two-sided
    15``), only the races where no mars is possible (both sides have borne off a checker).
    None under ``draw_rule`` (the table has no draw rule) or when none is built.  This is
    the one place that choice is made (``race_probabilities``, ``complete_rows``,
    ``default_race_tables`` and rollout truncation)."""
    if rules.draw_rule:
        return None
    for points in (rules, None):
        table = serving(complete_two_sided(points), rules)
        if table is not None:
            return table
    return None


def complete_rows(boards: np.ndarray, rules: RulesLike = None
                  ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The rows of ``boards`` that ``race_probabilities`` values from the built complete
    two-sided table under its default ``method="auto"``, with their values, for many
    positions at once (one lookup in C; ``Evaluator.probabilities`` on arrays).

    Parameters
    ----------
    boards : ndarray of uint8, shape (n, 2, 24)
        Side on roll first, each board in its own numbering (trusted: checked by the
        caller).
    rules : Rules, dict or None

    Returns
    -------
    rows : ndarray of intp
        The races of both homes (no checker off points 19-24, neither side finished)
        that the complete table covers; none without the table or under ``draw_rule``.
    p_win, p_mars_win, p_mars_loss : ndarray of float64
        Their probabilities, the side on roll's view: the same floats as
        ``race_probabilities`` (before its ``Outcome`` cuts them to [0, 1]).
    """
    complete = complete_table_for(as_rules(rules))
    b = np.asarray(boards)
    none = np.empty(0, dtype=np.float64)
    if complete is None or b.shape[0] == 0:
        return np.empty(0, dtype=np.intp), none, none, none
    counts = b.sum(axis=2, dtype=np.int64)
    homes = (b[:, :, :18].sum(axis=2, dtype=np.int64) == 0).all(axis=1)
    rows = np.flatnonzero(homes & (counts > 0).all(axis=1)
                          & (counts.max(axis=1) <= complete.max_checkers))
    if rows.size == 0:
        return rows, none, none, none
    # board6: checkers i + 1 pips from off, the 24-point board's last six points reversed
    w, mw, ml = complete.probabilities(np.ascontiguousarray(b[rows, 0, :17:-1]),
                                       np.ascontiguousarray(b[rows, 1, :17:-1]))
    return rows, np.asarray(w, np.float64), np.asarray(mw, np.float64), \
        np.asarray(ml, np.float64)


def _databases(tables):
    """(OneSided, TwoSided, [MarsTable], explicit) from the ``tables`` argument."""
    if tables is None:
        return None, None, [], False
    if isinstance(tables, (_bo.OneSided, _bo.TwoSided, _bo.MarsTable)):
        tables = [tables]
    if isinstance(tables, dict):
        tables = list(tables.values())
    one = two = None
    mars = []
    try:
        items = list(tables)
    except TypeError:
        raise TypeError("tables: expected a OneSided, a TwoSided, a MarsTable, or a "
                        f"sequence of them, got {type(tables).__name__}") from None
    for db in items:
        if isinstance(db, _bo.OneSided):
            one = db
        elif isinstance(db, _bo.TwoSided):
            two = db
        elif isinstance(db, _bo.MarsTable):
            mars.append(db)
        elif db is not None:
            raise TypeError(f"tables: {type(db).__name__} is not a OneSided, TwoSided "
                            f"or MarsTable")
    return one, two, mars, True


def mars_table_for(rules: Rules, fewest: int, two: TwoSided | None = None,
                   mars: Sequence[MarsTable] = (), explicit: bool = False) -> MarsTable | None:
    """The MarsTable serving a race of 15 checkers against ``fewest`` under ``rules``, or
    None: the given ``mars`` tables first, then the TwoSided's (``TwoSided.mars_for``), then
    (no databases given) the cached default for these points (never built here).  This is
    the one place that choice is made (``race_probabilities`` and rollout truncation)."""
    if rules.draw_rule:
        return None
    candidates = list(mars)
    if two is not None:
        candidates.append(two.mars_for(rules, fewest))
    if not explicit and fewest <= _bo.DEFAULT_MARS:
        candidates.append(_bo.mars_table(_bo.DEFAULT_MARS, rules, build=False))
    for table in candidates:
        if (table is not None and table.all_checkers == 15 and fewest <= table.max_checkers
                and table.matches(rules)):
            return table
    return None


def _unused_mars(rules: Rules, fewest: int, two: TwoSided | None,
                 mars: Sequence[MarsTable]) -> str | None:
    """Why the mars tables given (``tables``, or a given TwoSided's ``.mars``) do not serve
    a race of 15 checkers against ``fewest`` under ``rules``, or None (none given)."""
    given = list(mars) + ([two.mars] if two is not None and two.mars is not None else [])
    oin, home_mars, _ = _bo.mars_points(rules)
    for table in given:
        if (table.all_checkers == 15 and fewest <= table.max_checkers
                and not table.matches(rules)):
            return (f"the mars table given was built for oin {table.points[0]:g} and mars "
                    f"{table.points[1]:g} points, these rules score oin {oin:g} and "
                    f"(home) mars {home_mars:g}")
    for table in given:
        if table.all_checkers != 15 or fewest > table.max_checkers:
            return (f"the mars table given covers {table.all_checkers} checkers against "
                    f"at most {table.max_checkers}, this race has 15 against {fewest}")
    return None


def _build_words(rules: Rules) -> tuple[str, str]:
    """What a note adds to the build it names under ``rules``: ``("", "")`` for classic
    points (the default tables'), else ``(" for these rules' points (oin 1, home mars
    1)", " --rules 'cube=geometric'")``: other points (a cube game's, every win 1) need
    tables of their own."""
    oin, mars, _ = _bo.mars_points(rules)
    if (oin, mars) == _bo.mars_points(None)[:2]:
        return "", ""
    return (f" for these rules' points (oin {oin:g}, home mars {mars:g})",
            f" --rules '{rules.to_text()}'")


def race_probabilities(position: Position | str, rules: RulesLike = None,
                       tables: OneSided | TwoSided | MarsTable
                       | Sequence[OneSided | TwoSided | MarsTable] | None = None,
                       method: str = "auto") -> Outcome:
    """Winning, mars and expected points of a pure bear-off race for the side on roll.

    Parameters
    ----------
    position : Position or str
        The position or its ID.  Both sides have all their checkers on the board in their
        homes (points 19-24), and neither has finished; or, under ``draw_rule``, Black on
        roll with its last turn after White has finished (valued exactly, as
        ``Evaluator.evaluate`` does).
    rules : Rules, dict or None
        Scoring (``scoring``, points per outcome) and ``draw_rule``; None is classic.
    tables : OneSided, TwoSided, MarsTable, or a sequence of them, optional
        The exact tables (bear-off databases) to use instead of the cached defaults (``bearoff.one_sided()`` and
        ``bearoff.two_sided()``, built on first use, and ``bearoff.mars_table()`` for the
        rules' points if it has been built: a long build, so it is never built implicitly;
        times in ``benchmarks/RESULTS.md``).  When given, only
        these (and a given TwoSided's ``.mars``) are used: pass just a ``OneSided`` to
        force the one-sided method.
    method : {"auto", "exact", "two_sided", "one_sided"}
        ``"auto"`` uses the exact two-sided or mars table when one covers the race (and
        ``draw_rule`` is off), else the one-sided convolution; ``"exact"`` (or its table's
        name, ``"two_sided"``) forces the exact table (``ValueError`` where none covers
        the race), ``"one_sided"`` the convolution.

    Returns
    -------
    Outcome
        ``method`` is ``"two_sided"`` or ``"one_sided"`` (``"final (last turn)"`` for
        Black's last turn); ``extra`` holds the checkers of both sides and the databases'
        sizes.

    Raises
    ------
    ValueError
        Not a race of both homes, a finished game, or a method that cannot serve it.

    Examples
    --------
    >>> import numpy as np
    >>> import nardy_fast as nf
    >>> me = np.zeros(24, int); me[18] = 1          # one checker on point 19: 27 rolls of 36
    >>> you = np.zeros(24, int); you[23] = 1        # the opponent surely finishes next turn
    >>> o = nf.race_probabilities(nf.Position(me, you))
    >>> o.method, round(o.p_win, 4), round(o.equity, 4)
    ('two_sided', 0.75, 0.5)
    """
    if isinstance(position, str):                    # an ID, as every function takes it
        position = as_position(position)
    if not isinstance(position, Position):
        raise TypeError(f"position: expected a Position or a position ID, got "
                        f"{type(position).__name__}")
    rules = as_rules(rules)
    method = check_method(method, METHODS)
    forced = method in ("exact", "two_sided")
    boards = position.boards
    counts = boards.sum(axis=1)
    if counts[0] and not counts[1] and finished_reason(position, rules) is None:
        return final_outcome(position, rules)          # Black's last turn (draw_rule)
    for row, who in ((0, "side on roll"), (1, "opponent")):
        if counts[row] == 0:
            raise ValueError(f"the game is over: the {who} has borne off all 15 checkers")
        outside = np.flatnonzero(boards[row, :18])
        if outside.size:
            raise ValueError(f"not a race of both homes: the {who} has checkers on point "
                             f"{int(outside[0]) + 1} (all must be on points 19-24)")
    na, nb = int(counts[0]), int(counts[1])
    one, two, mars, explicit = _databases(tables)

    use_two = forced or (method == "auto" and not rules.draw_rule)
    table = None
    complete = complete_table_for(rules) if use_two and not explicit else None
    if complete is not None and not complete.covers(na, nb):
        complete = None
    if use_two and complete is None:
        if max(na, nb) == 15:
            if forced or not rules.draw_rule:
                table = mars_table_for(rules, min(na, nb), two, mars, explicit)
            covered = table is not None
        else:
            if two is None and not explicit:
                if max(na, nb) <= _bo.DEFAULT_TWO_SIDED or forced:
                    two = _bo.two_sided()
            covered = two is not None and max(na, nb) <= two.max_checkers
        if forced:
            if rules.draw_rule:
                raise ValueError(f"method={method!r}: the two-sided table has no draw rule; "
                                 "use method='one_sided' with draw_rule=True")
            if not covered:
                if max(na, nb) == 15:
                    points, given = _build_words(rules)
                    whole = (f"the complete two-sided table{points}, nardy-fast bearoff "
                             f"build --two-sided 15{given}"
                             + (", used when tables= is not given" if explicit else ""))
                    if min(na, nb) < 15:
                        have = ("no mars table for these points covers it (MarsTable.build "
                                f"with these rules and max_checkers >= {min(na, nb)}, or "
                                f"{whole})")
                    else:           # a mars table holds 15 checkers against at most 14
                        have = f"no exact table for these points covers it ({whole})"
                    unused = _unused_mars(rules, min(na, nb), two, mars)
                    if unused:
                        have += f": {unused}"
                else:
                    have = "no two-sided database" if two is None else \
                        f"the two-sided database covers at most {two.max_checkers} checkers"
                raise ValueError(f"method={method!r}: the sides have {na} and {nb} "
                                 f"checkers, {have}")
        use_two = covered

    extra = {"checkers": (na, nb)}
    if complete is not None:
        values = race_tables(complete=complete)
        extra["two_sided_complete_max_checkers"] = complete.whole.max_checkers
        extra["two_sided_complete_points"] = complete.points
    elif use_two and table is not None:
        values = race_tables(mars=table)
        extra["mars_max_checkers"] = table.max_checkers
        extra["mars_points"] = table.points
    elif use_two:
        values = race_tables(two=two)
        extra["two_sided_max_checkers"] = two.max_checkers
    else:
        unused = (_unused_mars(rules, min(na, nb), two, mars) if max(na, nb) == 15
                  and method != "one_sided" and not rules.draw_rule else None)
        if one is None:
            if explicit:
                why = (unused or ("under draw_rule the race is the one-sided approximation's "
                                  "(the two-sided tables have no draw rule)"
                                  if rules.draw_rule else
                                  "the tables given do not cover this race"))
                raise ValueError(f"tables: no OneSided database given, and {why}")
            one = _bo.one_sided()
        if max(na, nb) > one.max_checkers:
            raise ValueError(f"the one-sided database covers at most {one.max_checkers} "
                             f"checkers, the sides have {na} and {nb}")
        values = race_tables(one=one)
        if unused:
            extra["note"] = f"approximate: {unused}"
        elif method == "one_sided" or explicit:
            pass            # the caller's choice: no table built would change the value
        elif max(na, nb) == 15 and min(na, nb) <= _bo.DEFAULT_MARS and not rules.draw_rule:
            points, given = _build_words(rules)
            extra["note"] = (f"approximate: build the exact mars table{points} once with "
                             + ("nardy_fast.tables.bearoff.mars_table()" if not given else
                                "nardy_fast.tables.bearoff.mars_table(rules=...) or "
                                f"nardy-fast bearoff build --mars {_bo.DEFAULT_MARS}{given}")
                             + " (time and size: the documentation's benchmark figures)")
        elif not rules.draw_rule:
            points, given = _build_words(rules)
            extra["note"] = ("approximate: no exact table covers the race; build the "
                             f"complete two-sided table{points} once with nardy-fast bearoff "
                             f"build --two-sided 15{given} (time and size: the "
                             "documentation's benchmark figures)")
    p_win, p_mw, p_ml, p_draw, used = values.probabilities(
        boards[0], boards[1], rules.draw_rule, position.side == WHITE)
    used = "one_sided" if used == "one_sided" else "two_sided"
    return race_outcome(rules, p_win, p_mw, p_ml, p_draw, used, extra)


def race_outcome(rules: Rules, p_win: float, p_mars_win: float, p_mars_loss: float,
                 p_draw: float, method: str, extra: dict,
                 p_home_mars_win: float | None = None,
                 p_home_mars_loss: float | None = None) -> Outcome:
    """The ``Outcome`` of a race valued by a table: the one conversion of a race table's
    probabilities (the side on roll's view) for ``race_probabilities`` and
    ``race12.race12_probabilities``.

    Parameters
    ----------
    rules : Rules
        The points of each kind of win (equity in points, the side on roll's view).
    p_win, p_mars_win, p_mars_loss, p_draw : float
        Probabilities from the table; ``P(lose) = max(0, 1 - P(win) - P(draw))``.
    method, extra
        The Outcome's ``method`` and ``extra``.
    p_home_mars_win, p_home_mars_loss : float, optional
        None (both): a race of both homes, where every mars is a home mars.

    Returns
    -------
    Outcome
        Probabilities cut to [0, 1] (a sum of the tables' float64 terms can pass 1 by a
        rounding step); standard errors 0 for an exact table, NaN (not measured) for the
        one-sided approximations (``method`` ``"one_sided..."``).
    """
    p_lose = max(0.0, 1.0 - p_win - p_draw)
    if p_home_mars_win is None or p_home_mars_loss is None:
        # a race of both homes: every mars is a home mars (this form of the sum is kept so
        # the values stay bit-identical)
        oin = rules.points("oin")
        mars = rules.points("home_mars")
        equity = ((oin * (p_win - p_mars_win) + mars * p_mars_win)
                  - (oin * (p_lose - p_mars_loss) + mars * p_mars_loss))
        p_home_mars_win, p_home_mars_loss = p_mars_win, p_mars_loss
    else:
        oin, mars, home = (rules.points(k) for k in ("oin", "mars", "home_mars"))
        equity = (oin * (p_win - p_mars_win) + mars * (p_mars_win - p_home_mars_win)
                  + home * p_home_mars_win - oin * (p_lose - p_mars_loss)
                  - mars * (p_mars_loss - p_home_mars_loss) - home * p_home_mars_loss)
    # an approximation (the one-sided tables' turns convolved) has an error nobody
    # measured: its standard errors are NaN, as a net value's, where an exact table's are 0
    unknown = NOT_MEASURED if method.startswith("one_sided") else {}
    return clip_probabilities(Outcome(
        p_win=p_win, p_mars_win=p_mars_win, p_lose=p_lose, p_mars_loss=p_mars_loss,
        equity=float(equity), method=method, p_draw=p_draw,
        p_home_mars_win=p_home_mars_win, p_home_mars_loss=p_home_mars_loss, extra=extra,
        **unknown))
