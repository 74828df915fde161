"""How a rollout plays its games: ``RolloutSettings``, one frozen object checked once.

``rollout``, ``rollout_many`` and ``rollout_outcomes`` (``engine.play.rollout``) take
either their flat keywords (``n_games``, ``policy``, ``truncate``, ...) or one
``settings=RolloutSettings(...)``; the flat keywords build the same object, so both give
the same games.  The cube decisions, the reports and the studies hand the object on
(``nardy_fast.Rollout(settings)``) instead of copying a dozen arguments.

What is not in it, and why: the ``seed`` (a settings object names *how* to play, and is
reused for many calls, each of which should get its own seed or share one on purpose:
``rollout_many`` gives every position the same one), the ``rules`` and the ``match``
score (they say which game the position belongs to, and every method of valuing it, not
only a rollout, needs them), and where the games run (``workers``, ``client``,
``progress``: ``nardy_fast.Compute``, which changes no result).
"""
from __future__ import annotations

import dataclasses

import numpy as np

from nardy_fast.core import cubestate
from nardy_fast.core._checks import check_count, check_dice
from nardy_fast._utils._settings import callers_error, held_by
from nardy_fast.engine.play.policy import policy_pair
from nardy_fast.engine.play.variance import check_estimator

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from nardy_fast.core.cubestate import CubeState
    from nardy_fast.engine.play.policy import PolicyLike

__all__ = ["RolloutSettings", "TRUNCATIONS", "resolve_settings", "settings_or_flat"]

TRUNCATIONS = ("bearoff", "race12", None)
# The most games of one rollout: its tallies count games in float64, exact up to 2**53
# (a larger count overflowed deep in the game loops, naming nothing).
MAX_GAMES = 2 ** 53


@dataclasses.dataclass(frozen=True)
class RolloutSettings:
    """How a rollout plays its games (not where: ``Compute``; not from what seed).

    Every field has the meaning of ``rollout``'s argument of the same name (see there for
    the details); all are checked here, once, and a bad one raises an error naming it.

    Parameters
    ----------
    n_games : int
        Games to play from each position, 1 to ``MAX_GAMES`` (2**53).
    policy : str, Evaluator, callable or tuple of two
        How both sides choose their moves (a tuple: side on roll, opponent):
        ``"net"`` (default: the shipped evaluator at 0-ply), ``"net:1"``, ``"net:2"``,
        ``"greedy"``, ``"random"``, an ``Evaluator`` or a scoring callable.
    truncate : {"bearoff", "race12", None}
        Where a game stops and adds the race databases' probabilities (default
        ``"bearoff"``: both sides all home); ``None`` plays every game out.
    variance_reduction : None, bool or str
        The luck estimator subtracted from each game (``engine.play.variance``): ``None``
        (default: where it pays), ``True``, ``False``/``"none"``, ``"luck"``,
        ``"luck:K"``, ``"luck-net"``; luck needs net policies for both sides.
    dice : None or (int, int)
        The first roll of the side on roll, fixed (each die 1..6), else random.
    chunk_size : int or None
        Games per task, rounded up to whole blocks (``core.rng.BLOCK_GAMES``); never
        changes the results.  None: about 4 chunks per worker.
    cube : bool or None
        Whether the cube is in play: None (default) as the rules say, True the rules'
        cube (geometric if they name none), False none.
    cube_state : CubeState or None
        The cube's stake and owner at the start, with the cube in play (default:
        centred at stake 1); None without the cube.
    cube_probabilities : None, "pips" or callable
        The side on roll's cubeless P(win) for the cube decisions outside the exact
        tables: None (default) the evaluator at 0-ply, ``"pips"`` a pip-count
        estimate, or ``f(position) -> P(win)``.

    Raises
    ------
    TypeError, ValueError
        A field of the wrong type or value, named (``RolloutSettings: n_games=0: must be
        >= 1``); ``cube=False`` with a ``cube_state``.

    Examples
    --------
    >>> import nardy_fast as nf
    >>> s = nf.RolloutSettings(1296, policy="random", truncate=None)
    >>> r = nf.rollout(nf.Position.initial(), settings=s, seed=1,
    ...                compute=nf.Compute(workers=1, progress=False))
    >>> r.games, r.extra["policy"]
    (1296, 'random')
    """

    n_games: int
    policy: PolicyLike = "net"
    truncate: str | None = "bearoff"
    variance_reduction: bool | str | None = None
    dice: tuple[int, int] | None = None
    chunk_size: int | None = None
    cube: bool | None = None
    cube_state: CubeState | None = None
    cube_probabilities: Callable[..., Any] | str | None = None

    def __post_init__(self) -> None:
        try:
            self._check()
        except (TypeError, ValueError) as e:
            raise type(e)(f"RolloutSettings: {e}") from None

    def _check(self) -> None:
        put = object.__setattr__
        put(self, "n_games", check_count(self.n_games, "n_games", 1))
        if self.n_games > MAX_GAMES:
            raise ValueError(f"n_games={self.n_games}: at most {MAX_GAMES:,} (2**53) games "
                             "in one rollout")
        policies = policy_pair(self.policy)
        if self.truncate not in TRUNCATIONS:
            raise ValueError(f"truncate={self.truncate!r}: expected 'bearoff', 'race12' "
                             "or None")
        check_estimator(self.variance_reduction, policies)
        if self.dice is not None:
            put(self, "dice", check_dice(self.dice))
        if self.chunk_size is not None:
            put(self, "chunk_size", check_count(self.chunk_size, "chunk_size", 1))
        if self.cube is not None:
            if not isinstance(self.cube, (bool, np.bool_)):
                raise TypeError(f"cube: expected True, False or None (the cube in play; its "
                                f"stake and owner are cube_state=), got "
                                f"{type(self.cube).__name__}")
            put(self, "cube", bool(self.cube))
        if self.cube_state is not None:
            if not isinstance(self.cube_state, cubestate.CubeState):
                raise TypeError(f"cube_state: expected a CubeState or None, got "
                                f"{type(self.cube_state).__name__}")
            if self.cube is False:
                raise ValueError("cube=False: no cube in play, so no cube_state")
        p = self.cube_probabilities
        if not (p is None or (isinstance(p, str) and p == "pips") or callable(p)):
            raise TypeError("cube_probabilities: expected None (the evaluator), 'pips' or a "
                            "callable position -> P(win)")

    def replace(self, **changes: Any) -> RolloutSettings:
        """A copy with ``changes`` (checked again)."""
        return dataclasses.replace(self, **changes)


_FIELDS = {f.name: f.default for f in dataclasses.fields(RolloutSettings)}
_FIELDS["n_games"] = None


# a function that takes settings= beside the fields as flat keywords: one or the other
# (n_games=None, which says "not given", may stand beside settings=; resolve_settings)
settings_or_flat = held_by(
    "settings", set(_FIELDS) - {"n_games"}, lambda value: value is not None,
    "{func}: {names} given both as a keyword and in settings=; pass one of them")


def resolve_settings(func: str, settings: RolloutSettings | None,
                     **flat: Any) -> RolloutSettings:
    """The ``RolloutSettings`` of a call to ``func`` given ``settings=`` and its flat
    keywords ``flat`` (a subset of the fields; each at its default when not given): the
    object as it is, or one made from the flat keywords (``func``, decorated with
    ``settings_or_flat``, refuses a flat keyword passed beside ``settings``, even at its
    default, before it runs); ``n_games`` is needed from one of the two, and only one."""
    if settings is None:
        if flat.get("n_games") is None:
            raise TypeError(f"{func}: n_games: missing; pass the number of games or "
                            "settings=RolloutSettings(n_games, ...)")
        try:
            return RolloutSettings(**flat)
        except (TypeError, ValueError) as e:     # named as the caller's argument
            raise callers_error(e, func, "RolloutSettings") from None
    if not isinstance(settings, RolloutSettings):
        raise TypeError(f"{func}: settings={settings!r}: expected a "
                        "nardy_fast.RolloutSettings or None")
    if flat.get("n_games") is not None:
        raise TypeError(f"{func}: n_games given both as a keyword and in settings=; pass "
                        "one of them")
    return settings
