"""opornik's one-line position notation, read and written (``Position.from_text``,
``Position.to_text``).

opornik, an open long-nardy engine, gives a position and a roll on one line of
``key=value`` words separated by spaces::

    white=24:13,18:2 black=24:15 turn=W dice=3,1

``white=`` and ``black=``
    The side's checkers as ``point:count`` pairs separated by commas, the points in **that
    side's own path numbered backwards**: 24 is its head, 19-24 its first quarter, 1-6 its
    home, and a checker bears off past point 1.  A checker on point ``p`` has ``p`` pips
    to go.  So opornik's point ``p`` is this package's point ``25 - p`` of the same side
    (our 1 is the head, 19-24 the home; rule book section 1), for White and Black alike:
    ``white=24:13,18:2`` is 13 white checkers on our point 1 and 2 on our point 7.  A side
    with no checker on the board is ``white=`` with nothing after the ``=``.
``white-off=N``, ``black-off=N``
    Checkers borne off (default 0).  The side's checkers on the board and off must make
    15.
``turn=W`` or ``turn=B``
    The side on roll (``white`` and ``black`` are read too).
``dice=d1,d2``
    The roll, each die 1..6.  Optional here: a position has no dice (``Position`` holds
    the boards and the side on roll), so ``Position.from_text`` reads and checks them and
    leaves them out, and ``Position.from_text_and_dice`` returns them beside the
    position.  opornik's own reader wants them.
``first``
    The side on roll is making its first turn of the game (opornik applies the head
    rule's first-turn exception only with it).  In this package the first turn is the
    position itself: the side on roll has all 15 checkers on its head (rule book section
    3).  So ``to_text`` writes ``first`` exactly then, and ``from_text`` refuses ``first``
    for a side that has left its head (and ``first=false`` for one that has not); a line
    without ``first`` whose side on roll still has all 15 on its head is read as that
    side's first turn all the same.

Words may come in any order.  Anything else (an unknown key, a key twice, a point outside
1..24 or twice, a count outside 0..15, a bad roll) is a ``ValueError`` naming the word.
"""
from __future__ import annotations

import re
from typing import NamedTuple

import numpy as np

from nardy_fast.core._checks import check_dice

__all__ = ["PositionLine", "parse_position_line", "format_position_line", "OPORNIK_KEYS"]

OPORNIK_KEYS = ("white", "black", "white-off", "black-off", "turn", "dice", "first")
_PAIR = re.compile(r"^(\d+):(\d+)$")
_TURN = {"w": "white", "white": "white", "b": "black", "black": "black"}
_FIRST = {"": True, "true": True, "1": True, "false": False, "0": False}


class PositionLine(NamedTuple):
    """A line read by ``parse_position_line``: the boards in this package's numbering."""

    white: np.ndarray
    """White's 24 counts, White's own numbering (index ``i`` = point ``i + 1``)."""
    black: np.ndarray
    """Black's 24 counts, Black's own numbering."""
    side: str
    """``"white"`` or ``"black"``: on roll."""
    dice: tuple[int, int] | None
    """The roll of ``dice=``, None without one."""


def _side_counts(name, value):
    """``"24:13,18:2"`` -> a board of 24 counts in our numbering (point = 25 - theirs)."""
    board = np.zeros(24, np.int64)
    seen = set()
    for item in value.split(","):
        item = item.strip()
        if not item:
            continue
        m = _PAIR.match(item)
        if m is None:
            raise ValueError(f"{name}={value}: {item!r} is not point:count (e.g. 24:15)")
        point, count = int(m.group(1)), int(m.group(2))
        if not 1 <= point <= 24:
            raise ValueError(f"{name}={value}: point {point} is outside 1..24")
        if point in seen:
            raise ValueError(f"{name}={value}: point {point} is given twice")
        if count > 15:
            raise ValueError(f"{name}={value}: {count} checkers on point {point}, "
                             "expected 0..15")
        seen.add(point)
        board[24 - point] = count
    return board


def _count(name, value, lo, hi):
    if not value.isdigit() or not lo <= int(value) <= hi:
        raise ValueError(f"{name}={value}: expected a whole number {lo}..{hi}")
    return int(value)


def parse_position_line(text: str) -> PositionLine:
    """Read opornik's one-line notation (module docstring) into boards in this package's
    numbering.  The boards are not yet a ``Position`` (``Position.from_text`` makes one
    and checks it as ``Position.from_boards`` does); this checks the words and that each
    side has 15 checkers in all, on the board and off.

    Returns
    -------
    PositionLine
        ``(white, black, side, dice)``.

    Examples
    --------
    >>> line = parse_position_line("white=24:13,18:2 black=24:15 turn=W dice=3,1")
    >>> int(line.white[0]), int(line.white[6]), int(line.black[0]), line.side, line.dice
    (13, 2, 15, 'white', (3, 1))
    """
    if not isinstance(text, str):
        raise TypeError(f"position line: expected str, got {type(text).__name__}")
    words = {}
    for word in text.split():
        key, eq, value = word.partition("=")
        if key not in OPORNIK_KEYS:
            raise ValueError(f"position line {text.strip()!r}: unknown word {word!r} "
                             f"(expected {', '.join(k + '=' for k in OPORNIK_KEYS[:-1])} "
                             "or first)")
        if key in words:
            raise ValueError(f"position line {text.strip()!r}: {key} is given twice")
        if key != "first" and not eq:
            raise ValueError(f"position line {text.strip()!r}: {word!r} needs '=' and a "
                             "value")
        words[key] = value
    try:
        return _read_words(words)
    except ValueError as e:
        raise ValueError(f"position line {text.strip()!r}: {e}") from None


def _read_words(words):
    for key in ("white", "black", "turn"):
        if key not in words:
            raise ValueError(f"no {key}= (the line needs white=, black= and turn=)")
    boards = {}
    for colour in ("white", "black"):
        board = _side_counts(colour, words[colour])
        off = _count(f"{colour}-off", words.get(f"{colour}-off", "0"), 0, 15)
        on = int(board.sum())
        if on + off != 15:
            raise ValueError(f"{colour} has {on} checker(s) on the board and {off} off: "
                             f"expected 15 in all (give {colour}-off=N for those borne off)"
                             if on < 15 or off else
                             f"{colour} has {on} checkers on the board, expected 15 in all")
        boards[colour] = board
    side = _TURN.get(words["turn"].lower())
    if side is None:
        raise ValueError(f"turn={words['turn']}: expected W or B")
    dice = None
    if "dice" in words:
        try:
            dice = check_dice(words["dice"])
        except ValueError:
            raise ValueError(f"dice={words['dice']}: expected two dice 1..6 as d1,d2 "
                             "(e.g. dice=3,1)") from None
    if "first" in words:
        first = _FIRST.get(words["first"].lower())
        if first is None:
            raise ValueError(f"first={words['first']}: expected first, first=true or "
                             "first=false")
        on_head = boards[side][0] == 15
        if first and not on_head:
            raise ValueError(f"first: {side} is on roll with {boards[side][0]} checker(s) on "
                             "its head (opornik's 24), and a first turn has all 15 there")
        if not first and on_head:
            raise ValueError(f"first={words['first']}: {side} is on roll with all 15 "
                             "checkers on its head, which is its first turn (rule book "
                             "section 3)")
    return PositionLine(boards["white"], boards["black"], side, dice)


def format_position_line(white, black, side: str, dice=None) -> str:
    """opornik's one-line notation of two boards in this package's numbering (module
    docstring): each side's points from its head down (``24:13,18:2``), ``-off`` counts
    when not 0, ``turn``, then ``dice`` when given and ``first`` when the side on roll has
    all 15 checkers on its head.

    Examples
    --------
    >>> import numpy as np
    >>> w = np.zeros(24, int); w[0], w[6] = 13, 2
    >>> b = np.zeros(24, int); b[0] = 15
    >>> format_position_line(w, b, "white", (3, 1))
    'white=24:13,18:2 black=24:15 turn=W dice=3,1'
    """
    words = []
    for colour, board in (("white", white), ("black", black)):
        counts = [int(c) for c in board]
        words.append(f"{colour}=" + ",".join(f"{25 - (i + 1)}:{c}"
                                              for i, c in enumerate(counts) if c))
    for colour, board in (("white", white), ("black", black)):
        off = 15 - int(sum(int(c) for c in board))
        if off:
            words.append(f"{colour}-off={off}")
    words.append(f"turn={'W' if side == 'white' else 'B'}")
    if dice is not None:
        d1, d2 = check_dice(dice)
        words.append(f"dice={d1},{d2}")
    if int((white if side == "white" else black)[0]) == 15:
        words.append("first")
    return " ".join(words)
