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

import numpy as np

from nardy_fast.core import record as _record
from nardy_fast.core.policies import POLICIES as CORE_POLICIES, random_move
from nardy_fast.core.rules import as_rules
from nardy_fast.engine.play._policies import greedy_scores
from nardy_fast.engine.evaluation.evaluator import Evaluator
# the C loops' form of a policy, importable from here as before
from nardy_fast.engine.play.turn import LoopPolicy

__all__ = ["NAMES", "Policy", "LoopPolicy", "policy_pair", "random_game"]

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

    def chooser(self, rules=None):
        """The core's form of this policy (``core.policies.Chooser``: ``choose(position,
        moves, rng) -> Move``), for the Python game loop (``core.gameloop``) under
        ``rules``: a net plays ``Evaluator.best_move`` at its plies (the shipped net is
        ``Evaluator.default(rules)``), ``"random"`` the core's ``random_move``, greedy and
        a callable the move of the highest score (the first on ties; scores that are
        not one number per move, or NaN, are a ``ValueError``).  Only ``"random"`` draws
        from ``rng``."""
        if self.kind == "random":
            return random_move
        if self.kind == "net":
            rules = as_rules(rules)
            ev = self.evaluator if self.evaluator is not None else Evaluator.default(rules)
            ev = ev if ev.rules == rules else ev.with_rules(rules)
            plies = self.plies

            def net(position, moves, rng):
                if len(moves) == 1:
                    return moves[0]
                best = ev.best_move(position, moves[0].dice, plies=plies)
                return next(m for m in moves if m.board == best.board)
            net.__name__ = self.name
            return net
        score = greedy_scores if self.kind == "greedy" else self.fn

        def by_score(position, moves, rng):
            boards = np.array([m.board for m in moves], dtype=np.uint8)
            scores = np.asarray(score(boards, position.opponent), dtype=np.float64)
            if scores.shape != (len(moves),):      # refused as the C loops refuse them
                raise ValueError(f"policy {score!r} returned shape {scores.shape} for "
                                 f"{len(moves)} candidates: expected ({len(moves)},)")
            if np.isnan(scores).any():
                raise ValueError(f"policy {score!r} returned NaN scores")
            return moves[int(np.argmax(scores))]
        by_score.__name__ = self.name
        return by_score


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


def random_game(seed=None, rules=None, start=None, max_turns=2000, policy="random",
                white=None, black=None):
    """Play a game by ``policy`` on both sides and return its ``GameRecord``
    (``core.record.random_game`` with every policy name of the package).

    Parameters
    ----------
    seed : int or None
        Seed of ``numpy.random.default_rng``: the dice, and the random choices of
        ``"random"`` and ``"race"`` (the net and greedy choose without it); one seed, one
        game.
    rules : Rules, dict or None
    start : Position, str or None
        First position (a Position or an ID); default the initial position.
    max_turns : int
        Stop after this many turns even if the game is not over.
    policy : str, Evaluator, Policy or callable
        A name the other functions take (``NAMES``: ``"net"`` / ``"net:0"``, ``"net:1"``,
        ``"net:2"``, ``"greedy"``, ``"random"``), an ``Evaluator`` (its net at 0-ply), a
        ``Policy``, the core's ``"race"`` (``core.policies``), or a chooser
        ``policy(position, moves, rng) -> Move``.
    white, black : str or None
        The players' names in the record; None (default): the policy's name.

    Returns
    -------
    GameRecord
        The game played (``start``, the turns; over unless ``max_turns`` stopped it).

    Examples
    --------
    >>> import nardy_fast as nf
    >>> rec = nf.random_game(seed=3, policy="race")
    >>> len(rec.turns), rec.result()["winner"]
    (97, 'white')
    >>> nf.random_game(seed=3, policy="greedy").white
    'greedy'
    """
    if isinstance(policy, str) and policy in CORE_POLICIES:
        choose = name = policy
    elif callable(policy) and not isinstance(policy, Evaluator):
        choose, name = policy, getattr(policy, "__name__", "random")
    else:
        try:
            p = Policy.of(policy, kinds=("net", "greedy", "random"))
        except (ValueError, TypeError) as e:
            names = ", ".join(map(repr, NAMES + tuple(n for n in CORE_POLICIES
                                                     if n not in NAMES)))
            raise type(e)(f"policy={policy!r}: expected one of {names}, an Evaluator, a "
                          "Policy or a chooser policy(position, moves, rng) -> Move") \
                from None
        choose, name = p.chooser(rules), p.name
    return _record.random_game(seed=seed, rules=rules, start=start, max_turns=max_turns,
                               policy=choose, white=name if white is None else white,
                               black=name if black is None else black)
