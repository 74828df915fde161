"""Which boards are states of a game, and when a game is over (rule book section 7).

A game ends the moment a side bears off its 15th checker, except under ``draw_rule``: when
White (the side that moved first) finishes, Black plays one last turn.  Hence:

- **both sides off** is never a position: the game ended when the first side finished,
  and Black finishing in its last turn is a draw, a result that no position follows.
  ``Position`` rejects it (``impossible_state``).
- **one side off** is a finished game, or Black's last turn: a game record ends in such
  a position, and a finishing move leads to one.  ``Position`` accepts it
  (``Position.is_over()`` is true); functions that need the game to go on, like
  ``rollout``, reject it with the reason (``finished_reason``), which depends on the
  rules.
"""
from __future__ import annotations

import numpy as np

from nardy_fast.core._dice import ROLLS, WEIGHTS
from nardy_fast.core._movegen import check_position, first_bad_position

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy.typing as npt

__all__ = ["impossible_state", "finished_reason", "check_boards", "unreachable_rows",
           "roll_weights"]

# White's first roll from the start under opening_roll="opening_dice": a non-double, 1/15
_OPENING_WEIGHTS = np.array([0.0 if a == b else 1.0 / 15 for a, b in ROLLS])
_OPENING_WEIGHTS.flags.writeable = False


def impossible_state(on_roll, opponent):
    """Why two boards (checker counts) are no state of a game, or None if they are one."""
    if int(sum(on_roll)) == 0 and int(sum(opponent)) == 0:
        return ("both sides have borne off all 15 checkers: no game reaches this (it ends "
                "when the first side finishes; under draw_rule, Black finishing in its last "
                "turn makes a draw, a result, not a position)")
    return None


def finished_reason(position, rules):
    """Why the game of ``position`` is over under ``rules`` (a ``Rules``), or None if a
    side still has to move.

    Black on roll after White finished is Black's last turn under ``draw_rule``: that
    game is not over, and None is returned.
    """
    on_roll, opp = position.off
    side = position.side
    other = "black" if side == "white" else "white"
    if on_roll == 15:
        return f"{side}, on roll, has already borne off all 15 checkers"
    if opp != 15:
        return None
    if side == "white":
        return ("black has borne off all 15 checkers, and white gets no last turn (only "
                "black does, after white finishes, under draw_rule)")
    if not rules.draw_rule:
        return (f"{other} has borne off all 15 checkers, and black gets no last turn "
                "(draw_rule is off)")
    return None


def check_boards(boards: npt.ArrayLike) -> npt.NDArray[np.uint8]:
    """Validated ``(n, 2, 24)`` uint8 boards (a single ``(2, 24)`` becomes n = 1).

    The input check of the evaluator's raw boards: each pair (side on roll first, each
    board in its own side's numbering) must be a position (``check_position``) of a game
    that goes on (both sides keep checkers).  It lives here rather than in
    ``core._checks``, which the move generator imports.

    Raises
    ------
    TypeError
        Not integer counts.
    ValueError
        A wrong shape, or ``boards[k]`` no position or a finished game (naming ``k``).
    """
    a = np.asarray(boards)
    if a.dtype.kind not in "iu":
        raise TypeError(f"boards: expected integer counts, got dtype {a.dtype}")
    if a.ndim not in (2, 3) or a.shape[-2:] != (2, 24):
        raise ValueError(f"boards: expected shape (n, 2, 24) or (2, 24), got {a.shape}")
    if a.ndim == 2:
        a = a[None]
    if a.size and (a.min() < 0 or a.max() > 255):
        start = 0                          # counts uint8 cannot hold: name the row below
    else:
        a = np.ascontiguousarray(a, dtype=np.uint8)
        start = first_bad_position(a)      # every row checked at once, in C
        if start < 0:
            return a
    for k in range(start, len(a)):
        try:
            check_position(a[k, 0], a[k, 1])
        except ValueError as e:
            raise ValueError(f"boards[{k}]: {e}") from None
        if not a[k, 0].any() or not a[k, 1].any():
            raise ValueError(f"boards[{k}]: the game is over (a side has no checkers left)")
    return np.ascontiguousarray(a, dtype=np.uint8)


def unreachable_rows(boards: npt.NDArray[np.uint8]) -> npt.NDArray[np.intp]:
    """Rows of ``(n, 2, 24)`` boards that no game reaches: a side has borne off a checker
    while another of its checkers is outside its home (points 1-18 of its own numbering).
    A side bears off only with all its checkers home, and a checker home never leaves it
    (rule book, sections 5-6).  Such boards are positions (``Position`` takes them: the
    race tables' domains hold them), but a net trained on games never saw one."""
    b = np.asarray(boards)
    # the rows where a side has borne off (few in most batches), then among them those
    # where that side has a checker outside its home: half the time of both tests on
    # every row, which the evaluator pays on each batch (counts <= 15: uint8 sums hold)
    rows = np.flatnonzero((b.sum(axis=-1, dtype=np.uint8) < 15).any(axis=-1))
    if rows.size == 0:
        return rows
    s = b[rows]
    off = s.sum(axis=-1, dtype=np.uint8) < 15
    return rows[(off & s[..., :18].any(axis=-1)).any(axis=-1)]


def roll_weights(on_roll, opponent, rules):
    """The probabilities of the 21 rolls (``core._dice.ROLLS``) for the side on roll of
    the boards ``on_roll`` and ``opponent`` (White's, when both sides have all 15 checkers
    on their heads): ``WEIGHTS`` (1/36 a double, 2/36 another), but at the start under
    ``opening_roll="opening_dice"`` one of the 15 non-doubles, 1/15 each (rule book
    section 8: White plays the opening dice)."""
    if rules.opening_roll == "opening_dice" and on_roll[0] == 15 and opponent[0] == 15:
        return _OPENING_WEIGHTS
    return WEIGHTS
