"""Kinds of contact positions that nets tend to get wrong: one definition for the
accuracy benchmark's strata and for the training that weighs them.

A position (side on roll first, each board in its own numbering, ``ply`` the half-moves
played before it in its game) is of the first of these kinds that fits it:

``heavy_head``
    after ply 24 (12 turns each), a side still has 6 or more checkers on its head;
``prime``
    a side has a block (consecutive points it holds; one checker holds a point) of 5 or
    6 points with at least one opposing checker behind it;
``trapped``
    a side has 3 or more checkers behind an opposing block of 4;
``behind``
    one side is 40 or more pips behind the other;
``plain``
    none of these.

The checkers of ``other`` behind a block of ``owner`` whose first point is ``owner``'s
index ``i`` are those on ``other``'s indices before ``(i + 12) mod 24`` (that point seen
from ``other``'s side).
"""
from __future__ import annotations

import numpy as np

__all__ = ["KINDS", "position_kinds", "position_kind"]

# The kinds, in the order they are tried; "plain" is none of them.
KINDS = ("heavy_head", "prime", "trapped", "behind", "plain")

_HEAVY_AFTER_PLY = 24     # heavy head: strictly after this ply
_HEAVY_HEAD = 6           # checkers still on the head
_PRIME = 5                # a block of at least this length with a checker behind it
_TRAP_BLOCK = 4           # a block of exactly this length ...
_TRAPPED = 3              # ... with at least this many checkers behind it
_BEHIND_PIPS = 40         # pip deficit of "behind"
_PIP_WEIGHTS = np.arange(24, 0, -1, dtype=np.int64)   # index i is 24 - i pips from home


def position_kinds(boards, plies):
    """The kind of each position (module docstring), as an index into ``KINDS``.

    Parameters
    ----------
    boards : array_like of int, shape (n, 2, 24)
        Checkers per point, side on roll first, each board in its own numbering.
    plies : array_like of int, shape (n,) or scalar
        Half-moves played in each position's game before it.

    Returns
    -------
    ndarray of int8, shape (n,)
        ``KINDS.index(kind)`` of each position.
    """
    b = np.asarray(boards)
    if b.ndim != 3 or b.shape[1:] != (2, 24):
        raise ValueError(f"boards: expected shape (n, 2, 24), got {b.shape}")
    b = b.astype(np.int64)
    n = len(b)
    ply = np.broadcast_to(np.asarray(plies, dtype=np.int64), (n,))
    heavy = (ply > _HEAVY_AFTER_PLY) & (b[:, :, 0].max(axis=1) >= _HEAVY_HEAD)
    prime = np.zeros(n, dtype=bool)
    trapped = np.zeros(n, dtype=bool)
    for s in (0, 1):
        held = b[:, s] > 0
        run = np.zeros((n, 25), dtype=np.int64)          # run[:, i]: held points from i on
        for i in range(23, -1, -1):
            run[:, i] = np.where(held[:, i], run[:, i + 1] + 1, 0)
        starts = held.copy()
        starts[:, 1:] &= ~held[:, :-1]
        before = np.zeros((n, 25), dtype=np.int64)       # before[:, k]: other's on [0, k)
        before[:, 1:] = np.cumsum(b[:, 1 - s], axis=1)
        for i in range(24):
            n_behind = before[:, (i + 12) % 24]
            length = np.where(starts[:, i], run[:, i], 0)
            prime |= (length >= _PRIME) & (n_behind >= 1)
            trapped |= (length == _TRAP_BLOCK) & (n_behind >= _TRAPPED)
    pips = b @ _PIP_WEIGHTS
    behind = np.abs(pips[:, 0] - pips[:, 1]) >= _BEHIND_PIPS
    out = np.full(n, KINDS.index("plain"), dtype=np.int8)
    for name, mask in reversed((("heavy_head", heavy), ("prime", prime),
                                ("trapped", trapped), ("behind", behind))):
        out[mask] = KINDS.index(name)
    return out


def position_kind(board, ply):
    """The kind of one position ``board`` (2, 24) at ``ply``, by name (``KINDS``)."""
    b = np.asarray(board)
    if b.shape != (2, 24):
        raise ValueError(f"board: expected shape (2, 24), got {b.shape}")
    return KINDS[position_kinds(b[None], ply)[0]]
