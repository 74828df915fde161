"""Which table values a race position, and the ``Outcome`` it gives.

The Python twin of ``_racevalue.race_table_value`` (the C decision of the search's leaves
and the rollouts' truncation): a race of both homes (every checker of both sides on its
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
    if not boards[:, :18].any():
        return race_probabilities(position, rules)
    if race12 is not None and not boards[:, :12].any() and race12.covers(position):
        return race12_probabilities(position, rules, race12)
    return None                          # no table covers a checker on points 1-12
