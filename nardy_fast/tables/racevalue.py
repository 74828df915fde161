"""Which table values a race position, and the ``Outcome`` it gives.

The decision is the C one of the search's leaves and the rollouts' truncation
(``_racevalue.pxd``, ``race_table_kind``, through ``_racevalue.table_kind``): a race of both
homes (every checker of both sides on its
points 19-24) is valued by the bear-off tables (``race.race_probabilities``); any other race
without contact by the race12 database when one is given and covers it
(``race12.race12_probabilities``); any other position by no table.
"""
from __future__ import annotations

from nardy_fast.core.position import Position
from nardy_fast.core.result import Outcome
from nardy_fast.core.rules import RulesLike
from nardy_fast.tables.race import race_probabilities
from nardy_fast.tables.race12 import Race12, race12_probabilities
from nardy_fast.tables import _racevalue

__all__ = ["race_table_value"]


def race_table_value(position: Position, rules: RulesLike = None,
                     race12: Race12 | None = None) -> Outcome | None:
    """The tables' ``Outcome`` of ``position`` (the side on roll's view), or None.

    Parameters
    ----------
    position : Position
        Neither side finished.
    rules : Rules, dict or None
    race12 : Race12, optional
        The race database for races without contact (None: such races get no value).

    Returns
    -------
    Outcome or None
        ``race_probabilities`` of a race of both homes; ``race12_probabilities`` of
        another race ``race12`` covers; None when no table values the position.
    """
    boards = position.boards
    kind = _racevalue.table_kind(boards[0], boards[1],
                                 None if race12 is None else race12.tables)
    if kind == _racevalue.HOMES:
        return race_probabilities(position, rules)
    if kind == _racevalue.RACE12:
        return race12_probabilities(position, rules, race12)
    return None                          # no table covers it
