"""The cube's state beside a position (даве, rule book section 7a): vocabulary only.

``CubeState(stake, owner, first_turn)`` travels beside a ``Position`` (it is not part of
the position ID, so every ID stays valid): the stake, who may raise (``"centre"``: either
side, ``"mover"``: the side on roll, ``"opponent"``), and whether this is the first turn
(no raise then).  "No raise on the first turn of the game" (section 7a) is read, as the
head rule's first turn (section 3), from the position: no side raises while it has all 15
checkers on its head (``Position.is_first_turn``; records, rollouts and the command line
apply it so).  ``Position.diagram(cube=...)`` and ``plot_board(..., cube=...)`` show it.

``CubeReplay`` applies a game record's cube actions on replay.  The cube
model and decisions live in ``nardy_fast.engine.decisions.cube``; cube reports in
``nardy_fast.analysis.cubereport``.
"""
from __future__ import annotations

from dataclasses import dataclass

from nardy_fast.core._checks import check_count
from nardy_fast.core.rules import check_flag

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from nardy_fast.core.rules import Rules

__all__ = ["CubeState", "CENTRED", "OWNERS", "MAX_STAKE", "next_stake", "CubeReplay",
           "check_cube_state"]

OWNERS = ("centre", "mover", "opponent")
MAX_STAKE = 16                 # arithmetic stakes: the cap (the cube is dead there)

@dataclass(frozen=True)
class CubeState:
    """The cube beside a position, from the side on roll's point of view.

    Parameters
    ----------
    stake : int
        The current stake (1 at the start; 2, 4, ... or 2, 3, ... after raises).
    owner : {"centre", "mover", "opponent"}
        Who may raise next: either side (the cube in the middle), the side on roll, or
        the opponent.
    first_turn : bool
        The first turn of the game: no raise (rule book section 7a).

    Examples
    --------
    >>> from nardy_fast import CubeState
    >>> cube = CubeState(stake=2, owner="opponent")
    >>> cube.stake, cube.owner, cube == CubeState()
    (2, 'opponent', False)
    """

    stake: int = 1
    owner: str = "centre"
    first_turn: bool = False

    def __post_init__(self):
        object.__setattr__(self, "stake", check_count(self.stake, "stake", 1))
        if self.owner not in OWNERS:
            raise ValueError(f"owner={self.owner!r}: expected one of "
                             + ", ".join(repr(o) for o in OWNERS))
        object.__setattr__(self, "first_turn", check_flag(self.first_turn, "first_turn"))

    def check(self, progression: str | Rules) -> CubeState:
        """This cube, or ``ValueError`` when ``stake`` cannot occur under ``progression``
        (``"geometric"``: 1, 2, 4, 8, ...; ``"arithmetic"``: 1, 2, ..., ``MAX_STAKE``; a
        ``Rules`` gives its ``cube``).  ``CubeState`` alone does not know the progression:
        every function that takes a cube and rules checks it so."""
        progression = getattr(progression, "cube", progression)
        if progression == "geometric":
            if self.stake & (self.stake - 1):
                raise ValueError(f"stake={self.stake}: not a stake of the geometric cube "
                                 "(1, 2, 4, 8, ...)")
        elif progression == "arithmetic":
            if self.stake > MAX_STAKE:
                raise ValueError(f"stake={self.stake}: the arithmetic cube stops at "
                                 f"{MAX_STAKE}")
        else:
            raise ValueError(f"progression={progression!r}: expected 'geometric' or "
                             "'arithmetic'")
        return self

    @property
    def may_raise(self) -> bool:
        """True when the side on roll may raise now."""
        return self.owner != "opponent" and not self.first_turn

    def passed(self) -> CubeState:
        """The same cube seen by the other side once the turn has passed."""
        owner = {"centre": "centre", "mover": "opponent", "opponent": "mover"}[self.owner]
        return CubeState(self.stake, owner, False)

    def taken(self, progression: str = "geometric") -> CubeState:
        """The cube after the side on roll's raise was taken (still its turn): the next
        stake, owned by the opponent."""
        return CubeState(next_stake(progression, self.stake), "opponent", self.first_turn)

    def text(self, side: str | None = None) -> str:
        """One line: ``cube: stake 2, owned by black`` (``side``: the side on roll, to name
        the owner by colour)."""
        if self.owner == "centre":
            who = "in the middle"
        else:
            on_roll = self.owner == "mover"
            if side is None:
                who = "owned by the side on roll" if on_roll else "owned by the opponent"
            else:
                other = "black" if side == "white" else "white"
                who = f"owned by {side if on_roll else other}"
        first = ", first turn (no raise)" if self.first_turn else ""
        return f"cube: stake {self.stake}, {who}{first}"


CENTRED = CubeState()


def check_cube_state(cube: object, name: str = "cube") -> CubeState | None:
    """``cube`` if it is a ``CubeState`` or None, else a ``TypeError`` naming ``name``: the
    check of the displays that take a cube beside a position (``Position.diagram``,
    ``plot_board``)."""
    if cube is not None and not isinstance(cube, CubeState):
        raise TypeError(f"{name}: expected a CubeState or None, got {type(cube).__name__}")
    return cube


def next_stake(progression: str, stake: int) -> int:
    """The stake after a raise: ``2 * stake`` (geometric) or ``stake + 1`` (arithmetic)."""
    if progression == "geometric":
        return 2 * stake
    if progression == "arithmetic":
        return stake + 1
    raise ValueError(f"progression={progression!r}: expected 'geometric' or 'arithmetic'")


@dataclass
class CubeReplay:
    """The cube while a game record is replayed, for ``record``: the ``stake``, the
    ``owner`` colour (None: in the middle), the raise waiting for an answer ``pending``
    (``(doubler colour, stake)`` or None) and the ``result`` of a dropped raise (a
    ``GameRecord.result`` dict, or None)."""

    stake: int = 1
    owner: str | None = None
    pending: tuple | None = None
    result: dict | None = None

    def step(self, c, rules, position):
        """Apply the record's cube action ``c`` (``record.CubeAction``) before a turn from
        ``position``.  ValueError when it breaks the rules (section 7a)."""
        if rules.cube is None:
            raise ValueError("a cube action, but the rules have no cube "
                             "(Rules cube=geometric or arithmetic)")
        if self.result is not None:
            raise ValueError("the game was already over")
        if c.action == "double":
            self._raise(c, rules, position)
            return
        if self.pending is None:
            raise ValueError("no raise to answer")
        doubler, offered = self.pending
        if c.side == doubler:
            raise ValueError(f"{c.side} answers its own raise")
        if c.action == "drop":
            self.result = {"winner": doubler, "kind": "drop", "points": float(self.stake)}
        elif c.action == "take":
            if c.stake != offered:
                raise ValueError(f"takes {c.stake}, the raise was to {offered}")
            self.stake, self.owner = offered, c.side
        else:
            if not rules.beaver:
                raise ValueError("a beaver, but the rules have beaver=false")
            want = next_stake(rules.cube, offered)
            if c.stake != want:
                raise ValueError(f"beaver to {c.stake}, expected {want}")
            self.stake, self.owner = c.stake, c.side
        self.pending = None

    def _raise(self, c, rules, position):
        if self.pending is not None:
            raise ValueError(f"the raise to {self.pending[1]} was not answered")
        if c.side != position.side:
            raise ValueError(f"only the side on roll ({position.side}) may raise")
        if self.owner not in (None, c.side):
            raise ValueError(f"{self.owner} owns the cube, {c.side} may not raise")
        if position.is_first_turn():
            raise ValueError("no raise on the first turn (rule book 7a)")
        want = next_stake(rules.cube, self.stake)
        if c.stake != want:
            raise ValueError(f"raise to {c.stake}, the next stake is {want}")
        self.pending = (c.side, c.stake)

    def seen_by(self, side):
        """The ``CubeState`` seen by ``side`` (a colour)."""
        owner = ("centre" if self.owner is None
                 else "mover" if self.owner == side else "opponent")
        return CubeState(self.stake, owner)
