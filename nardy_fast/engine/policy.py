"""Policies of the game loops, parsed once: the one home of policy names.

A policy chooses one side's moves in rollouts, strength matches and studies:

- ``"net"`` (= ``"net:0"``): the shipped evaluator's net at 0-ply; ``"net:1"``, ``"net:2"``:
  at 1 or 2 plies (the move filter of ``_search``); an ``Evaluator`` of one's own: its net
  at 0-ply;
- ``"greedy"``: the documented heuristic (``_policies``);
- ``"random"``: uniform over the distinct legal results, the core's policy of that name
  (``core.policies``, the one table of the core's simple policies, which this vocabulary
  extends; in Python ``core.policies.random_move``);
- a callable ``fn(candidates, opponent) -> scores`` (``"python"``): the highest score is
  played.

``Policy.of(p)`` checks any of these once and names it (``Policy.name``: ``"net"``,
``"net:1"``, ``"net (custom)"``, ``"greedy"``, the callable's name); ``Policy.c_form()``
is what the C loops take (a ``turn.LoopPolicy``, the twin of ``_turn.player_t``);
``policy_pair(policy)`` reads the ``(side on roll, opponent)`` pair of a rollout.

A player's look-ahead is part of its name (``"net:1"``), not a ``plies=`` argument: the
two sides of a rollout may play at different depths (``("net:2", "net")``), and results
and study stores record a player by its name.  ``plies=`` is the look-ahead of an
evaluation (``Evaluator.evaluate``, ``method="net"``), another thing.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, TypeAlias

from nardy_fast.engine.evaluator import Evaluator
# the C loops' form of a policy, importable from here as before
from nardy_fast.engine.turn import LoopPolicy

__all__ = ["NAMES", "Policy", "LoopPolicy", "policy_pair"]

NAMES = ("net", "greedy", "random", "net:1", "net:2")      # "net" = "net:0"
KINDS = ("net", "greedy", "random", "python")

# What the API accepts as a policy (``Policy.of`` reads each form): for annotations.
PolicyLike: TypeAlias = "str | Evaluator | Callable[..., Any] | tuple[Any, Any]"


@dataclass(frozen=True)
class Policy:
    """One side's policy: ``kind`` (``KINDS``), the ``plies`` of a net, the ``evaluator``
    of a net of one's own (None: the shipped net) or the callable ``fn``."""

    kind: str
    plies: int = 0
    evaluator: Any = None
    fn: Any = None

    @classmethod
    def of(cls, p, name="policy", kinds=KINDS):
        """The ``Policy`` of a name, an ``Evaluator``, a callable or a ``Policy``; only
        ``kinds`` are accepted (``ValueError``/``TypeError`` naming ``name`` otherwise)."""
        allowed = [n for n in NAMES if n.partition(":")[0] in kinds]
        what = ", ".join(map(repr, allowed)) + (", an Evaluator" if "net" in kinds else "") \
            + (" or a callable scoring the candidate boards" if "python" in kinds else "")
        if isinstance(p, Policy):
            out = p
        elif isinstance(p, Evaluator):
            out = cls("net", 0, p)
        elif isinstance(p, str):
            q = "net" if p == "net:0" else p
            if q not in NAMES:
                raise ValueError(f"{name}={p!r}: expected one of {what}")
            kind, _, plies = q.partition(":")
            out = cls(kind, int(plies or 0))
        elif callable(p):
            out = cls("python", fn=p)
        else:
            raise TypeError(f"{name}: expected one of {what}, got {type(p).__name__}")
        if out.kind not in kinds:
            raise ValueError(f"{name}={out.name!r}: expected one of {what}")
        return out

    @property
    def name(self):
        """The name for messages and results: ``"net"``, ``"net:1"``, ``"net (custom)"``,
        ``"greedy"``, ``"random"`` or the callable's name."""
        if self.kind == "net":
            if self.evaluator is not None:
                return "net (custom)"
            return "net" if self.plies == 0 else f"net:{self.plies}"
        if self.kind == "python":
            return getattr(self.fn, "__name__", type(self.fn).__name__)
        return self.kind

    @property
    def net_plies(self):
        """The look-ahead of a net policy, None for any other."""
        return self.plies if self.kind == "net" else None

    def c_form(self, rules=None):
        """What the C game loops take: the ``LoopPolicy`` of this policy (a net policy
        resolved to its evaluator's ``rollout_net`` and move filter ``keep``; the shipped
        net is the one for ``rules``, ``Evaluator.default(rules)``)."""
        if self.kind == "net":
            ev = self.evaluator if self.evaluator is not None else Evaluator.default(rules)
            return LoopPolicy("net", self.plies, net=ev.rollout_net, keep=ev.keep)
        return LoopPolicy(self.kind, fn=self.fn)


def policy_pair(policy, name="policy"):
    """``(side on roll, opponent)`` Policies of ``policy``: one policy for both sides (the
    same object twice) or a tuple of two."""
    if isinstance(policy, tuple):
        if len(policy) != 2:
            raise ValueError(f"{name}: a tuple must hold two policies (side on roll, "
                             f"opponent), got {len(policy)}")
        return tuple(Policy.of(p, name) for p in policy)
    p = Policy.of(policy, name)
    return (p, p)
