"""The Python face of ``_turn``: a policy in the form the C game loops take.

The home of a C loop's policy is ``_turn.player_t`` (its kinds: ``_turn.KINDS``, the
``PLAYER_*`` codes); a ``LoopPolicy`` is its Python view, checked when it is made, which
``_turn.fill_player`` reads into the struct.  The game loops (``_rollout``, ``_match``,
``_selfplay``) take them, and ``policy.Policy.c_form`` makes them from the policy names of
the API.  It sits just above ``_turn``, below the policy names and the game loops, so that
a C loop needs nothing above it.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from nardy_fast.engine.play._turn import KINDS

__all__ = ["LoopPolicy"]


@dataclass(frozen=True)
class LoopPolicy:
    """A policy as the C game loops take it: the Python view of ``_turn.player_t``
    (``_turn.fill_player`` reads it).  ``kind``: a name of ``_turn.KINDS`` (as
    ``Policy.kind``); a net's ``Net``, its ``plies`` and the ``keep`` best 0-ply moves its
    search looks deeper at; a callable's ``fn``.

    Raises
    ------
    ValueError
        A ``kind`` outside ``_turn.KINDS``, a net policy without its ``net``, a Python
        policy whose ``fn`` is not callable, or negative ``plies`` or ``keep``.
    """

    kind: str
    plies: int = 0
    net: Any = None
    keep: int = 0
    fn: Any = None

    def __post_init__(self):
        if self.kind not in KINDS:
            raise ValueError(f"LoopPolicy kind={self.kind!r}: expected one of "
                             + ", ".join(map(repr, KINDS)))
        if self.kind == "net" and self.net is None:
            raise ValueError("LoopPolicy kind='net': net=None (expected a _net.Net)")
        if self.kind == "python" and not callable(self.fn):
            raise ValueError(f"LoopPolicy kind='python': fn={self.fn!r} is not callable")
        if self.plies < 0 or self.keep < 0:
            raise ValueError(f"LoopPolicy plies={self.plies!r}, keep={self.keep!r}: "
                             "expected >= 0")
