"""Positions, position IDs, legal moves and a text diagram.

A ``Position`` holds both boards, each in its own side's numbering (idx = point - 1, point 1
the head, 19-24 the home), row 0 the side on roll, and the colour of the side on roll.

Position ID
-----------
``"W"`` or ``"B"`` (the colour on roll) followed by 32 characters: the URL-safe base64
(RFC 4648, no padding) of 24 bytes, byte ``i`` = ``16 * on_roll[i] + opponent[i]``, the
counts on each side's own point ``i + 1``.  The start is
``"W_wAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"``: byte 0 is 0xFF (15 and 15 on point 1), the others 0.
One position has one ID; ``Position.from_id(p.id) == p``.

Finished games
--------------
A position is a state of a game.  Both sides borne off is none (the game ended when the
first side finished; under ``draw_rule`` Black finishing in its last turn is a draw, a
result with no position after it), so ``Position`` raises ``ValueError`` saying so.  One
side borne off is kept, explicitly finished: ``is_over()`` is true, ``play`` of a finishing
move returns it and a game record ends in it; functions that need the game to go on
(``rollout``) reject it with the reason for the rules in force (see ``nardy_fast.core._state``).
"""
from __future__ import annotations

import base64
import binascii
import re
from dataclasses import dataclass, replace

import numpy as np

from nardy_fast.core._checks import check_dice
from nardy_fast.core.cubestate import check_cube_state
from nardy_fast.core._movegen import check_position, successors, successors_with_steps
from nardy_fast.core._state import finished_reason, impossible_state
from nardy_fast.core.posline import format_position_line, parse_position_line
from nardy_fast.core.rules import as_rules

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy.typing as npt
    from nardy_fast.core.cubestate import CubeState
    from nardy_fast.core.rules import Rules

__all__ = ["Position", "Move", "WHITE", "BLACK", "as_position", "position_items",
           "position_list", "PIPS_PER_ROLL", "parse_steps", "apply_steps", "read_move",
           "contact_mask"]

PIPS_PER_ROLL = 49 / 6           # average pips of a roll (doubles count four times)

WHITE, BLACK = "white", "black"
_SIDES = (WHITE, BLACK)
_ID_LEN = 33
START = "start"                 # the word for the initial position, wherever an ID goes
_ID_ALPHABET = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")


def _shown(text, limit=40, *, quote=True):
    """``repr(text)``, or for a longer text its first ``limit`` characters and its length:
    an error message quotes the input without copying a whole file read as one token (or
    a program's whole answer, ``app.duel``).  ``quote=False``: ``text`` itself, not its
    ``repr`` (a message quoted already)."""
    show = repr if quote else str
    if len(text) <= limit:
        return show(text)
    return f"{show(text[:limit])}... ({len(text):,} characters)"


def _is_die(x):
    """``x`` a single die as a number (1..6), not a roll: the first half of the old
    ``legal_moves(d1, d2)``."""
    return isinstance(x, (int, np.integer)) and not isinstance(x, bool) and 1 <= x <= 6


def _other(side):
    return BLACK if side == WHITE else WHITE


@dataclass(frozen=True)
class Move:
    """One legal move: the mover's board after it and one step list that reaches it.

    Attributes
    ----------
    board : tuple of int, length 24
        The mover's board after the move, mover's numbering.
    steps : tuple of (int, int or "off")
        ``(from_point, to_point)`` pairs, 1-based mover's points, in playing order; one
        representative of the step orders that give ``board``.  Empty for a pass.
    dice : tuple of int
        The roll.
    origin : str
        ID of the position the move was generated from.

    Examples
    --------
    >>> import nardy_fast as nf
    >>> pos = nf.Position.initial()
    >>> move = pos.legal_moves((6, 5))[0]
    >>> move.steps, move.dice, move.origin == pos.id
    (((1, 7), (7, 12)), (6, 5), True)
    """

    board: tuple[int, ...]
    steps: tuple[tuple[int, int | str], ...]
    dice: tuple[int, ...]
    origin: str

    def __str__(self) -> str:
        if not self.steps:
            return "pass"
        return " ".join(f"{a}/{b}" for a, b in self.steps)


def contact_mask(boards):
    """Which boards still have contact (``Position.is_contact``): a checker of either side
    on its own points 1-12.

    Parameters
    ----------
    boards : array_like of int, shape (..., 2, 24)
        Boards, each side in its own numbering.

    Returns
    -------
    ndarray of bool, shape (...)
    """
    return np.asarray(boards)[..., :12].any(axis=(-2, -1))


def bearoff_mask(boards):
    """Which boards are bear-offs (``Position.is_bearoff``): both sides' checkers on the
    board all in their homes (their own points 19-24).  ``boards`` and the result are
    shaped as ``contact_mask``'s."""
    return ~np.asarray(boards)[..., :18].any(axis=(-2, -1))


_NO_CHECKERS = bytes(24)          # a board of 24 points with no checker (as uint8 bytes)


class Position:
    """A long-nardy position: both boards and the side on roll.

    Use the constructors ``initial``, ``from_boards`` and ``from_id``.  ``boards`` is a
    read-only ``ndarray of uint8, shape (2, 24)``: row 0 the side on roll, row 1 the
    opponent, each in its own numbering.

    Examples
    --------
    >>> p = Position.initial()
    >>> p.id, p.pips
    ('W_wAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', (360, 360))
    >>> sorted(str(m) for m in p.legal_moves((3, 3)))
    ['1/4 1/4 4/7 4/7', '1/4 1/4 4/7 7/10']
    >>> q = p.play(p.legal_moves((6, 5))[0])
    >>> q.side, q.white[:12].tolist()
    ('black', [14, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1])
    >>> Position.from_id(q.id) == q
    True
    """

    __slots__ = ("_boards", "_side")

    def __init__(self, on_roll: npt.ArrayLike, opponent: npt.ArrayLike,
                 side: str = WHITE) -> None:
        if side not in _SIDES:
            raise ValueError(f"side={side!r}: expected 'white' or 'black'")
        m, o = check_position(on_roll, opponent)
        why = impossible_state(m, o)
        if why:
            raise ValueError(why)
        boards = np.stack([m, o]).astype(np.uint8)
        boards.flags.writeable = False
        self._boards = boards
        self._side = side

    # constructors ------------------------------------------------------------------
    @classmethod
    def initial(cls) -> Position:
        """The start: 15 checkers on each side's point 1, White on roll."""
        start = np.zeros(24, np.uint8)
        start[0] = 15
        return cls(start, start, WHITE)

    @classmethod
    def from_boards(cls, on_roll: npt.ArrayLike, opponent: npt.ArrayLike,
                    side: str = WHITE) -> Position:
        """From two 24-count boards, each in its own side's numbering.

        ``on_roll`` is the side to move, of colour ``side`` ("white" or "black").  Raises
        ``ValueError`` naming the point for counts outside 0..15, more than 15 checkers on
        a side, or a point held by both sides.
        """
        return cls(on_roll, opponent, side)

    @classmethod
    def from_id(cls, text: str) -> Position:
        """Decode a position ID (see the module docstring), or ``"start"`` (the initial
        position, as on the command line); ``ValueError`` if malformed."""
        if not isinstance(text, str):
            raise TypeError(f"position ID: expected str, got {type(text).__name__}")
        text = text.strip()
        if text == START:
            return cls.initial()
        if len(text) != _ID_LEN:
            raise ValueError(f"position ID {_shown(text)}: expected {_ID_LEN} characters, got "
                             f"{len(text)}")
        if text[0] not in "WB":
            raise ValueError(f"position ID {text!r}: must start with 'W' or 'B' (side on roll)")
        bad = set(text[1:]) - _ID_ALPHABET
        if bad:
            raise ValueError(f"position ID {text!r}: characters {''.join(sorted(bad))!r} are "
                             "not URL-safe base64 (A-Z a-z 0-9 - _)")
        try:
            raw = base64.b64decode(text[1:], altchars=b"-_", validate=True)
        except (binascii.Error, ValueError) as e:
            raise ValueError(f"position ID {text!r}: not URL-safe base64 ({e})") from None
        if len(raw) != 24:
            raise ValueError(f"position ID {text!r}: decodes to {len(raw)} bytes, expected 24")
        b = np.frombuffer(raw, dtype=np.uint8)
        try:
            return cls(b >> 4, b & 15, WHITE if text[0] == "W" else BLACK)
        except ValueError as e:
            raise ValueError(f"position ID {text!r}: {e}") from None

    @classmethod
    def from_text(cls, text: str) -> Position:
        """Read opornik's one-line notation (``nardy_fast.core.posline``).

        Each side's points are numbered along its own path backwards, 24 its head and 1-6
        its home: opornik's point ``p`` is our ``25 - p`` of the same side.  The roll of
        ``dice=`` is checked and left out (``from_text_and_dice`` returns it).

        Returns
        -------
        Position
            ``ValueError`` names a malformed word or an impossible position.

        Examples
        --------
        >>> p = Position.from_text("white=24:13,18:2 black=24:15 turn=W dice=3,1")
        >>> p.side, p.white[[0, 6]].tolist(), p.black[:1].tolist()
        ('white', [13, 2], [15])
        """
        return cls.from_text_and_dice(text)[0]

    @classmethod
    def from_text_and_dice(cls, text: str) -> tuple[Position, tuple[int, int] | None]:
        """``from_text`` with the roll of the line's ``dice=``.

        Returns
        -------
        (Position, (int, int) or None)
            The position and the roll (None for a line without ``dice=``).

        Examples
        --------
        >>> Position.from_text_and_dice("white=24:15 black=24:15 turn=W dice=6,5 first")
        (Position.from_id('W_wAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'), (6, 5))
        """
        line = parse_position_line(text)
        on_roll, opp = ((line.white, line.black) if line.side == WHITE
                        else (line.black, line.white))
        try:
            return cls(on_roll, opp, line.side), line.dice
        except ValueError as e:
            raise ValueError(f"position line {text.strip()!r}: {e} (our numbering: "
                             "opornik's point p is our 25 - p)") from None

    def to_text(self, dice: tuple[int, int] | str | None = None) -> str:
        """This position in opornik's one-line notation (``from_text`` reads it back),
        with ``dice=`` when ``dice`` is given (opornik's reader needs a roll) and
        ``first`` when the side on roll has all 15 checkers on its head.

        Returns
        -------
        str

        Examples
        --------
        >>> Position.initial().to_text((3, 1))
        'white=24:15 black=24:15 turn=W dice=3,1 first'
        """
        return format_position_line(self.white, self.black, self._side, dice)

    # properties --------------------------------------------------------------------
    @property
    def boards(self) -> npt.NDArray[np.uint8]:
        return self._boards

    @property
    def mover(self) -> npt.NDArray[np.uint8]:
        """Board of the side on roll, its own numbering."""
        return self._boards[0]

    @property
    def opponent(self) -> npt.NDArray[np.uint8]:
        """Board of the other side, its own numbering."""
        return self._boards[1]

    @property
    def side(self) -> str:
        """Colour on roll: "white" or "black"."""
        return self._side

    @property
    def white(self) -> npt.NDArray[np.uint8]:
        return self._boards[0] if self._side == WHITE else self._boards[1]

    @property
    def black(self) -> npt.NDArray[np.uint8]:
        return self._boards[1] if self._side == WHITE else self._boards[0]

    @property
    def id(self) -> str:
        raw = ((self._boards[0].astype(np.uint8) << 4) | self._boards[1]).tobytes()
        return ("W" if self._side == WHITE else "B") + base64.b64encode(raw, altchars=b"-_").decode()

    @property
    def off(self) -> tuple[int, int]:
        """Checkers borne off: (side on roll, opponent)."""
        s = self._boards.sum(axis=1)
        return int(15 - s[0]), int(15 - s[1])

    @property
    def pips(self) -> tuple[int, int]:
        """Pip counts (side on roll, opponent): sum over checkers of 25 - point."""
        w = np.arange(24, 0, -1)
        return int(self._boards[0] @ w), int(self._boards[1] @ w)

    def is_first_turn(self) -> bool:
        """True while the side on roll has all 15 checkers on its head (point 1): its first
        turn of the game (rule book sections 3 and 7a: the head rule's first turn, no
        raise of the cube)."""
        return bool(self._boards[0][0] == 15)

    def is_over(self, rules: Rules | str | None = None) -> bool:
        """True when the game is over: a side has borne off all 15 checkers.

        ``rules`` (None: classic): under ``draw_rule`` Black on roll after White has
        borne off is Black's last turn, not the end (``legal_moves`` gives its moves);
        without ``rules`` that position counts as over, as under the classic rules."""
        raw = self._boards.tobytes()          # (2, 24) uint8: a side's 24 bytes all zero
        if not (raw[:24] == _NO_CHECKERS or raw[24:] == _NO_CHECKERS):
            return False
        return rules is None or finished_reason(self, as_rules(rules)) is not None

    def is_bearoff(self) -> bool:
        """True when both sides have all their checkers on the board in their homes."""
        return bool(bearoff_mask(self._boards))

    def is_contact(self) -> bool:
        """True while the sides can still meet (block or stop each other).

        They have passed each other exactly when every checker of both sides is on its
        own points 13-24: the mover's are then on opponent points 1-12, behind all of the
        opponent's, and vice versa (``contact_mask``).
        """
        return bool(contact_mask(self._boards))

    # moves -------------------------------------------------------------------------
    @property
    def phase(self) -> str:
        """``"over"``, ``"bearoff"`` (both sides entirely home), ``"contact"`` or
        ``"race"`` (the sides have passed each other), tested in that order."""
        if self.is_over():
            return "over"
        if self.is_bearoff():
            return "bearoff"
        return "contact" if self.is_contact() else "race"

    def legal_moves(self, dice: tuple[int, int], rules: Rules | str | None = None
                    ) -> list[Move]:
        """The legal moves of the side on roll for the roll ``dice = (d1, d2)``, one per
        result (``legal_moves((6, 3))``, or the roll's text ``legal_moves("63")``,
        ``"6-3"``, ``"6 3"``: ``core._checks.check_dice``; one die, as in the form
        ``legal_moves(6, 3, rules)`` of before 0.3.0, is a TypeError naming it).

        Returns a list of ``Move``; a single move with no steps when no die can be played.
        A finished game has none: a ``ValueError`` says why it is over (Black's last turn
        after White finishes under ``draw_rule`` is a turn, with its moves).
        """
        if _is_die(dice) and _is_die(rules):     # the spelling of before 0.3.0
            raise TypeError(f"legal_moves({dice}, {rules}): the roll is one argument since "
                            f"0.3.0: legal_moves(({dice}, {rules}))")
        d1, d2 = check_dice(dice)
        if self.is_over():
            why = finished_reason(self, as_rules(rules))
            if why is not None:
                raise ValueError(f"position {self.id}: the game is over: {why}; no side "
                                 "moves")
        boards, steps = successors_with_steps(self._boards[0], self._boards[1], d1, d2,
                                              rules)
        origin, dice = self.id, (int(d1), int(d2))
        moves = []
        for b, s in zip(boards.tolist(), steps.tolist()):
            pairs = tuple((s[k] + 1, "off" if s[k + 1] == 24 else s[k + 1] + 1)
                          for k in range(0, 8, 2) if s[k] != 255)
            moves.append(Move(tuple(b), pairs, dice, origin))
        return moves

    def play(self, move: Move | str, dice: tuple[int, int] | None = None,
             rules: Rules | str | None = None) -> Position:
        """The position after ``move``, the other side on roll.

        ``move``: a ``Move`` from ``legal_moves`` of this position, or its text as records
        write it (``"1/7 7/12"``, ``"19/off 20/off"``; points in the mover's numbering).
        For a text, ``dice`` (default: every roll that allows it; the position after is
        the same whichever) and ``rules`` (default classic) say what is legal, and a move
        that no roll allows is a ``ValueError`` naming it.
        """
        if isinstance(move, str):
            return self._play_text(move, dice, rules)
        if dice is not None or rules is not None:
            raise TypeError("play(Move): dice and rules are for a move given as text; a "
                            "Move already carries its legality")
        if not isinstance(move, Move):
            raise TypeError(f"play: expected a Move or its text, got {type(move).__name__}")
        if move.origin != self.id:
            raise ValueError(f"move {move} was generated for position {move.origin}, not {self.id}")
        return Position(self._boards[1], np.array(move.board, np.uint8), _other(self._side))

    def _play_text(self, text, dice, rules):
        if dice is not None:
            d1, d2 = check_dice(dice)
            try:
                return self.play(read_move(self, text, (d1, d2), rules))
            except _Refused as e:
                if e.head == "not a move":
                    raise ValueError(e.reason) from None
                raise ValueError(f"move {text!r}: not a legal move of {self.side} for the "
                                 f"roll {d1}{d2}: {e.reason}") from None
        steps = parse_steps(text)
        rolls = [tuple(check_dice(dice))] if dice is not None else \
            [(a, b) for a in range(6, 0, -1) for b in range(a, 0, -1)]
        why = None
        for roll in rolls:
            try:
                board = tuple(int(x) for x in apply_steps(self.mover, self.opponent, roll,
                                                          steps))
            except ValueError as e:
                why = why or str(e)
                continue
            for m in self.legal_moves(roll, rules):
                if m.board == board and bool(m.steps) == bool(steps):
                    return self.play(m)
        where = f"the roll {rolls[0][0]}{rolls[0][1]}" if dice is not None else "any roll"
        raise ValueError(f"move {text!r}: not a legal move of {self.side} for {where}"
                         + (f" ({why})" if why and dice is not None else ""))

    def swap(self) -> Position:
        """The same boards with the other side on roll."""
        return Position(self._boards[1], self._boards[0], _other(self._side))

    # display -----------------------------------------------------------------------
    def diagram(self, cube: CubeState | None = None) -> str:
        """A text board.  Top row: White's points 12..1 (Black's 24..13); bottom row:
        White's 13..24 (Black's 1..12).  Both sides move counter-clockwise: White from the
        top right, Black from the bottom left.  Cells: ``W3`` = three white checkers.
        ``cube``: a ``nardy_fast.engine.decisions.cube.CubeState`` kept beside the position (not part of
        its ID), shown on a last line; anything else is a ``TypeError`` naming ``cube``."""
        check_cube_state(cube)
        white, black = self.white, self.black

        def cell(wpoint):
            widx = wpoint - 1
            bidx = (widx + 12) % 24
            if white[widx]:
                return f"W{white[widx]}"
            if black[bidx]:
                return f"B{black[bidx]}"
            return "."

        def row(points):
            left, right = points[:6], points[6:]
            return " ".join(f"{c:>3}" for c in left) + "  |" + " ".join(f"{c:>3}" for c in right)

        top = list(range(12, 0, -1))
        bottom = list(range(13, 25))
        bnum = lambda w: (w + 11) % 24 + 1          # white point -> black point
        wp, bp = self.pips if self._side == WHITE else self.pips[::-1]
        woff, boff = self.off if self._side == WHITE else self.off[::-1]
        lines = [
            "white " + row([str(p) for p in top]),
            "black " + row([str(bnum(p)) for p in top]),
            "      " + row([cell(p) for p in top]),
            "      " + row([cell(p) for p in bottom]),
            "black " + row([str(bnum(p)) for p in bottom]),
            "white " + row([str(p) for p in bottom]),
            f"{self._side} on roll | pips white {wp}, black {bp} | off white {woff}, black {boff}",
            f"id {self.id}",
        ]
        if cube is not None:
            lines.append(cube.text(self._side))
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.diagram()

    def _repr_png_(self):
        """Board diagram as PNG bytes for Jupyter (``nardy_fast.core.diagram.board_png``; the one import
        back from ``diagram`` to ``position``: Jupyter looks for this method on the class)."""
        # the package's one deliberate circle (diagram draws positions): see the docstring
        from nardy_fast.core.diagram import board_png
        return board_png(self)

    def __repr__(self) -> str:
        return f"Position.from_id({self.id!r})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Position):
            return NotImplemented
        return self._side == other._side and bool((self._boards == other._boards).all())

    def __hash__(self) -> int:
        return hash((self._side, self._boards.tobytes()))

    def __reduce__(self):
        return (Position.from_id, (self.id,))


def as_position(position: Position | str | npt.ArrayLike, name: str = "position") -> Position:
    """A ``Position`` from a Position, a position ID or a (2, 24) array of counts (side on
    roll first, White on roll); ``name`` labels the errors.

    Returns
    -------
    Position
        The position (``position`` itself when it is one).

    Examples
    --------
    >>> import nardy_fast as nf
    >>> pos = nf.as_position("W_wAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA")
    >>> pos == nf.Position.initial(), pos.pips
    (True, (360, 360))
    """
    if isinstance(position, Position):
        return position
    if isinstance(position, str):
        try:
            return Position.from_id(position)
        except ValueError as e:
            raise ValueError(f"{name}: {e}") from None
    if isinstance(position, (np.ndarray, list, tuple)):
        a = np.asarray(position)
        if a.shape != (2, 24):
            raise ValueError(f"{name}: expected a Position, a position ID or a (2, 24) array "
                             f"of counts, got shape {a.shape}")
        return Position.from_boards(a[0], a[1])
    raise TypeError(f"{name}: expected a Position or a position ID, got "
                    f"{type(position).__name__}")


def position_items(positions: Position | str | Iterable[Position | str],
                   name: str = "positions") -> list[Any]:
    """The items of a ``positions`` argument, not yet read: ``[positions]`` for a
    Position or an ID (one position), else the items of the iterable (a pandas Series or
    Index by its values).  ``position_list`` reads each; a caller that skips the reading
    of some items (IDs it has already checked) takes them from here.

    Returns
    -------
    list

    Raises
    ------
    TypeError
        ``positions`` is not iterable, or is a DataFrame (naming ``name``).
    """
    if isinstance(positions, (Position, str)):
        return [positions]
    if hasattr(positions, "columns") and hasattr(positions, "index"):   # a DataFrame
        raise TypeError(f"{name}: a DataFrame, whose items would be its column names; pass "
                        "its index (frame.index: frames keyed by position ID keep them "
                        "there) or a column of position IDs (frame[column])")
    if hasattr(positions, "tolist") and not isinstance(positions, np.ndarray):
        positions = positions.tolist()                # a pandas Series or Index of IDs
    try:
        return list(positions)
    except TypeError:
        raise TypeError(f"{name}: expected a Position, a position ID or an iterable of "
                        f"them, got {type(positions).__name__}") from None


def position_list(positions: Position | str | Iterable[Position | str],
                  name: str = "positions") -> list[Position]:
    """The ``Position`` of each item of ``positions``: a Position or an ID (one
    position), or any iterable of them (a list, a generator, a numpy array or a pandas
    Series or Index of IDs); ``name`` labels the errors (``positions[3]: ...``).

    The one reading of a ``positions`` argument (``Evaluator.evaluate_many`` and
    ``outcomes``, ``rollout_many``, ``value_positions``, the reports, ``cube_report``,
    ``study``): a position ID is one position, not the 33 characters it is made of.

    Returns
    -------
    list of Position

    Raises
    ------
    TypeError
        ``positions`` is not iterable, or an item is no position.
    ValueError
        An item is a malformed or impossible position (naming its index).

    Examples
    --------
    >>> import nardy_fast as nf
    >>> from nardy_fast.core.position import position_list
    >>> position_list("start"), len(position_list(nf.race_sample(2, seed=1)))
    ([Position.from_id('W_wAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA')], 2)
    """
    return [as_position(p, f"{name}[{i}]")
            for i, p in enumerate(position_items(positions, name))]


# -- the move notation --------------------------------------------------------------------
# ``"1/7 7/12"``, ``"19/off(2)"``, ``"pass"``: read by ``parse_steps`` into ``(from, to)``
# steps (each side's own point numbers 1-24, ``"off"`` to bear off) and played on a board
# by ``apply_steps``; game records (``record``) and ``Position.play`` (a move given as
# text) both read moves through here.
# a point of at most 9 digits (a longer number is no point, and int() refuses thousands)
_STEP = re.compile(r"^(\d{1,9})((?:/(?:\d{1,9}|off))+)(?:\((\d)\))?$", re.IGNORECASE)


def parse_steps(text: str) -> tuple[tuple[int, int | str], ...]:
    """``"1/7 7/11"``, ``"1/7/11"``, ``"19/off(2)"`` -> a tuple of ``(from, to)`` steps.

    ``"pass"`` or ``""`` -> ``()``.  ``ValueError`` names a malformed token.
    """
    out = []
    for tok in text.split():
        if tok.lower() == "pass":
            continue
        out.extend(_parse_step_token(tok))
    return tuple(out)


def _parse_step_token(tok):
    m = _STEP.match(tok)
    if not m:
        raise ValueError(f"step {_shown(tok)}: expected from/to such as 1/7, 20/off, 1/7/11 "
                         "or 1/7(2)")
    pts = [int(m.group(1))] + [p.lower() if p.lower() == "off" else int(p)
                               for p in m.group(2).split("/")[1:]]
    if "off" in pts[:-1]:
        raise ValueError(f"step {_shown(tok)}: 'off' can only be the last point")
    for p in pts:
        if p != "off" and not 1 <= p <= 24:
            raise ValueError(f"step {_shown(tok)}: point {p} is outside 1..24")
    chain = [(pts[k], pts[k + 1]) for k in range(len(pts) - 1)]
    reps = int(m.group(3)) if m.group(3) else 1
    if not 1 <= reps <= 4:
        raise ValueError(f"step {_shown(tok)}: repeat count must be 1..4")
    return chain * reps


def apply_steps(mover: npt.ArrayLike, opponent: npt.ArrayLike, dice: Sequence[int],
                steps: Iterable[tuple[int, int | str]]) -> npt.NDArray[np.uint8]:
    """The mover's board after playing ``steps`` (``(from, to)`` pairs, own numbering,
    ``to = "off"`` to bear off) with ``dice``, checked one step at a time (each step uses a
    remaining die and lands on a point the opponent does not hold); ValueError with the
    reason.  Whether the whole turn is legal (head, block, dice-usage rules) is for
    ``successors`` to say."""
    b = np.array(mover, dtype=np.int64)
    opp_at = np.roll(np.asarray(opponent) > 0, 12)     # mover idx held by the opponent
    left = [dice[0]] * 4 if dice[0] == dice[1] else [dice[0], dice[1]]
    for a, t in steps:
        step = f"{a}/{t}"
        if not 1 <= a <= 24:
            raise ValueError(f"step {step}: point {a} is outside 1..24")
        if b[a - 1] == 0:
            raise ValueError(f"step {step}: no checker of the mover on point {a}")
        if t == "off":
            if b[:18].any():
                raise ValueError(f"step {step}: cannot bear off while checkers are outside "
                                 "the home (points 19-24)")
            need = 25 - a
            if need in left:
                die = need
            else:
                bigger = sorted(d for d in left if d > need)
                if not bigger:
                    raise ValueError(f"step {step}: needs a die of at least {need}, dice left "
                                     f"{sorted(left) or 'none'}")
                die = bigger[0]
            b[a - 1] -= 1
        else:
            if not 1 <= t <= 24:
                raise ValueError(f"step {step}: point {t} is outside 1..24")
            die = t - a
            if die not in left:
                raise ValueError(f"step {step}: moves {die} pip{'' if die == 1 else 's'}, "
                                 f"dice left {sorted(left) or 'none'}")
            if opp_at[t - 1]:
                raise ValueError(f"step {step}: point {t} is held by the opponent")
            b[a - 1] -= 1
            b[t - 1] += 1
        left.remove(die)
    return b.astype(np.uint8)


# -- a typed move against the legal ones --------------------------------------------------
def read_move(position: Position, text: str, dice: Any, rules: Rules | str | None = None
              ) -> Move:
    """The legal move of ``dice`` that ``text`` denotes (``"1/7 7/12"``, ``"pass"``), else
    a ``ValueError`` saying why: ``"not a move: ..."`` for text that is no move, or
    ``"not legal for 65: ..."`` naming the rule that refuses it.

    Legal moves are their resulting positions (rule book section 5), so a step may join
    dice of one checker when the result is that of a legal move: ``"1/7"`` for 5-1 is
    ``1/6 6/7`` or ``1/2 2/7``, whichever is legal.  The reasons come from the move
    generator's legal set against the typed move: the head rule (more checkers leave the
    head than any legal move takes), the six-block rule and the larger die (the move is
    legal once that rule is relaxed), the dice (fewer played than can be), a step's own
    fault (``apply_steps``: pips no die left has, a point the opponent holds, bearing off
    early).
    """
    try:
        steps = parse_steps(text)
    except ValueError as e:
        raise _Refused("not a move", str(e)) from None
    d1, d2 = check_dice(dice)
    moves = position.legal_moves((d1, d2), rules)
    legal = {m.board: m for m in moves}
    try:
        board = tuple(int(x) for x in apply_steps(position.mover, position.opponent,
                                                  (d1, d2), steps))
        fault = None
    except ValueError as e:
        board, fault = _displaced(position.mover, steps), e
    m = legal.get(board)
    if m is not None and bool(m.steps) == bool(steps):
        return m
    reasons = _why_not(position, steps, board, fault, moves, (d1, d2), rules)
    raise _Refused(f"not legal for {d1}{d2}", "; ".join(reasons))


class _Refused(ValueError):
    """``read_move``'s refusal: ``"<head>: <reason>"``, the ``reason`` alone kept."""

    def __init__(self, head, reason):
        super().__init__(f"{head}: {reason}")
        self.head, self.reason = head, reason


def _displaced(mover, steps):
    """The mover's board after ``steps`` moved as given, each checker from its point to
    the other (dice unchecked); None when a step cannot be made (no checker there, not
    forward)."""
    b = [int(x) for x in mover]
    for a, t in steps:
        if b[a - 1] == 0 or (t != "off" and t <= a):
            return None
        b[a - 1] -= 1
        if t != "off":
            b[t - 1] += 1
    return tuple(b)


def _why_not(position, steps, board, fault, moves, dice, rules):
    """The rules that refuse the typed ``steps`` (result ``board``, None if none; ``fault``:
    ``apply_steps``'s error, None when each step has its die), from the legal ``moves``."""
    from nardy_fast.core.rules import as_rules      # rules imports nothing of this module
    rules = as_rules(rules)
    d1, d2 = dice
    out = []
    head = sum(1 for a, _ in steps if a == 1)
    head_max = max(sum(1 for a, _ in m.steps if a == 1) for m in moves)
    if head >= 2 and head > head_max:
        out.append("the head rule: only one checker may leave the head this turn"
                   if head_max <= 1 else f"the head rule: at most {head_max} checkers may "
                   "leave the head this turn")
    mover, opp = position.mover, position.opponent

    def legal_without(**relaxed):
        boards = successors(mover, opp, d1, d2, replace(rules, **relaxed))
        return board is not None and board in {tuple(b) for b in boards.tolist()}
    if (board is not None and rules.block_rule != "none"
            and legal_without(block_rule="none")):
        where = "ahead of it" if rules.block_rule == "ahead" else "in its home or off"
        out.append(f"the six-block rule: six points in a row may be held only with an "
                   f"opponent checker {where}")
    elif (board is not None and d1 != d2 and rules.larger_die_rule
          and legal_without(larger_die_rule=False)):
        out.append(f"must play the larger die ({max(d1, d2)}): only one die can be played")
    played_max = max(len(m.steps) for m in moves)
    if fault is None and len(steps) < played_max and not out:
        out.append("must play both dice" if played_max == 2 and d1 != d2 else
                   "must play all four dice" if played_max == 4 else
                   "must play a die: a turn passes only when no die can be played"
                   if played_max == 1 else
                   f"must play {played_max} of the four dice: as many as can be played")
    if not out and fault is not None:
        pips = sum((25 if t == "off" else t) - a for a, t in steps)
        roll = 4 * d1 if d1 == d2 else d1 + d2
        out.append(f"the move covers {pips} pips, the roll {roll}" if pips > roll and
                   all(t != "off" for _, t in steps) else str(fault))
    if not out and any(t == "off" for _, t in steps):
        out.append("bearing off: a die larger than a checker needs bears off only from the "
                   "farthest occupied point (rule book section 6)")
    if not out:
        out.append("no legal move leaves this position ('hint' lists them)")
    return out
