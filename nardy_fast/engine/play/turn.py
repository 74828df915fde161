"""The Python face of ``_turn``: a policy in the form the C game loops take.

``_turn.fill_player`` reads a ``LoopPolicy`` into its C twin ``_turn.player_t``; the game
loops (``_rollout``, ``_match``, ``_selfplay``) take them, and ``policy.Policy.c_form``
makes them from the policy names of the API.  It sits beside ``_turn``, below the policy
names and the game loops, so that a C loop needs nothing above it.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = ["LoopPolicy"]


@dataclass(frozen=True)
class LoopPolicy:
    """A policy as the C game loops take it: the Python twin of ``_turn.player_t``
    (``_turn.fill_player`` reads it).  ``kind`` as ``Policy.kind``; a net's ``Net``, its
    ``plies`` and the ``keep`` best 0-ply moves its search looks deeper at; a callable's
    ``fn``."""

    kind: str
    plies: int = 0
    net: Any = None
    keep: int = 0
    fn: Any = None
