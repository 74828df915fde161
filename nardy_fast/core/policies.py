"""The core's policies: Python choosers of one move among the legal ones.

A *chooser* is ``choose(position, moves, rng) -> Move``: ``moves`` are the distinct legal
results of the roll (``Position.legal_moves``), ``rng`` a ``numpy.random.Generator``.  The
core names two, in ``POLICIES``, the only table of them:

- ``"random"``: uniform over the moves (one draw of ``rng.integers``);
- ``"race"``: the move with the fewest pips, then the most checkers off; ties at random.

``record.random_game`` plays them; the engine's policies (``engine.policy``) extend this
vocabulary with the net and the greedy heuristic, and its ``"random"`` is the one here
(``random_move`` in Python, ``_turn.player_t`` in the C loops).
"""
from __future__ import annotations

import numpy as np

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, TypeAlias

if TYPE_CHECKING:
    from nardy_fast.core.position import Move, Position

__all__ = ["POLICIES", "Chooser", "random_move", "race_move", "as_chooser"]

# What a chooser is: ``choose(position, moves, rng) -> Move`` (for annotations).
Chooser: TypeAlias = "Callable[[Position, Sequence[Move], np.random.Generator], Move]"

_PIP_WEIGHTS = np.arange(24, 0, -1)        # pips of a checker on each point, own numbering


def random_move(position: Position, moves: Sequence[Move], rng: np.random.Generator) -> Move:
    """A move drawn uniformly from ``moves`` (one ``rng.integers`` draw)."""
    return moves[int(rng.integers(len(moves)))]


def race_move(position: Position, moves: Sequence[Move], rng: np.random.Generator) -> Move:
    """The move leaving the fewest pips, then the most checkers off; ties at random (one
    ``rng.random`` draw per move)."""
    keys = [(int(np.dot(m.board, _PIP_WEIGHTS)) * 16 + sum(m.board), rng.random())
            for m in moves]
    return moves[min(range(len(moves)), key=keys.__getitem__)]


POLICIES: dict[str, Chooser] = {"random": random_move, "race": race_move}


def as_chooser(policy: str | Chooser, name: str = "policy") -> Chooser:
    """The chooser of ``policy``: a name of ``POLICIES`` or a callable (returned as is).

    Raises
    ------
    ValueError
        An unknown name (or another value), naming ``name`` and the accepted ones.
    """
    if callable(policy):
        return policy
    if isinstance(policy, str) and policy in POLICIES:
        return POLICIES[policy]
    raise ValueError(f"{name}={policy!r}: expected "
                     + ", ".join(repr(k) for k in POLICIES) + " or a callable")
