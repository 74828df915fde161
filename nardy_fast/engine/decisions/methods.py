"""How a value is found, as an object: ``Auto``, ``Exact``, ``Net`` and ``Rollout``.

``method=`` of ``cube_decision``, the reports (``evaluate``, ``win_report``,
``move_report``, ``game_report``) and ``value_positions`` takes one of these objects or
its name (``"auto"``, ``"exact"``, ``"net"``, ``"rollout"``, ...; ``core.methods``).  Each
object holds only the settings that act under its method: ``Net(plies=2)`` has no games
to set, ``Rollout(settings)`` no look-ahead, so an argument with no effect cannot be
written.  The name plus flat keywords (``method="rollout", n_games=2000``) stays as a
convenience that builds the same object (``method_object``); there an argument with no
effect gives a ``UserWarning`` (``core.methods.warn_unused``), and with an object it is a
``TypeError``.

What each means for a position's value (``value_positions``) and for a cube decision
(``cube_decision``):

- ``Auto(plies)``: an exact table where one covers the position, else the net at
  ``plies`` (a cube decision: Janowski's model on the net's probabilities);
- ``Exact(table)``: an exact table only (``ValueError`` where none serves);
- ``Net(plies)``: the evaluator at ``plies`` (a cube decision: the model on it, its
  ``"janowski"``);
- ``Rollout(settings)``: games played as ``settings`` (``RolloutSettings``) say.
"""
from __future__ import annotations

import dataclasses

from nardy_fast.core._checks import check_plies
from nardy_fast.engine.evaluation._search import MAX_SEARCH_PLIES
from nardy_fast.engine.play.rollout import DEFAULT_GAMES
from nardy_fast.engine.play.settings import RolloutSettings
from nardy_fast._utils._settings import callers_error, held_by

from collections.abc import Callable
from typing import Any, TypeVar, Union

# ``method_object``, ``method_or_flat`` and ``refuse_flat`` are the package's helpers, not public
__all__ = ["Auto", "Exact", "Net", "Rollout", "Method", "METHOD_OBJECTS"]

F = TypeVar("F", bound=Callable[..., Any])

EXACT_TABLES = ("auto", "two_sided", "one_sided")


def _plies(obj: Any) -> None:
    if obj.plies is not None:
        try:
            object.__setattr__(obj, "plies", check_plies(obj.plies, MAX_SEARCH_PLIES))
        except (TypeError, ValueError) as e:
            raise type(e)(f"{type(obj).__name__}: {e}") from None


@dataclasses.dataclass(frozen=True)
class Auto:
    """An exact table where one covers the position, else the evaluator.

    Parameters
    ----------
    plies : int or None
        Look-ahead of the evaluator where no table serves, 0..3 plies (turns of either
        side); None: the function's default (0 for a position's value, ``CUBE_PLIES``
        for a cube decision).

    Examples
    --------
    >>> import nardy_fast as nf
    >>> nf.win_report(nf.Position.initial(), method=nf.Auto(plies=0))["method"].tolist()
    ['net 0-ply']
    """

    plies: int | None = None
    name = "auto"

    def __post_init__(self) -> None:
        _plies(self)


@dataclasses.dataclass(frozen=True)
class Exact:
    """An exact table only: the bear-off databases for a position's value, the cubeful
    race table for a cube decision; a position no table covers is a ``ValueError``.

    Parameters
    ----------
    table : {"auto", "two_sided", "one_sided"}
        Which bear-off table values a position (``race_probabilities``' ``method``):
        ``"auto"`` (default) the best that covers it.  A cube decision reads the cubeful
        race table and takes ``"auto"`` only.

    Examples
    --------
    >>> import nardy_fast as nf
    >>> race = nf.race_sample(1, seed=1)
    >>> nf.win_report(race, method=nf.Exact("one_sided"))["method"].tolist()
    ['one_sided']
    >>> nf.Exact("three_sided")
    Traceback (most recent call last):
    ...
    ValueError: Exact: table='three_sided': expected one of 'auto', 'two_sided', 'one_sided'
    """

    table: str = "auto"

    def __post_init__(self) -> None:
        if self.table not in EXACT_TABLES:
            raise ValueError(f"Exact: table={self.table!r}: expected one of "
                             + ", ".join(map(repr, EXACT_TABLES)))

    @property
    def name(self) -> str:
        """The method's name: ``"exact"``, ``"two_sided"`` or ``"one_sided"``."""
        return "exact" if self.table == "auto" else self.table


@dataclasses.dataclass(frozen=True)
class Net:
    """The evaluator (``Evaluator.default(rules)``: the shipped net, race databases in
    races of both homes) at ``plies``; for a cube decision, Janowski's model on its
    outcome distribution.

    Parameters
    ----------
    plies : int or None
        Look-ahead, 0..3 plies; None: the function's default (as ``Auto``).

    Examples
    --------
    >>> import nardy_fast as nf
    >>> rules = nf.Rules(cube="geometric")
    >>> d = nf.cube_decision(nf.Position.initial(), rules=rules,
    ...                      method=nf.Net(plies=0))
    >>> d["method"]
    'janowski (net 0-ply)'
    >>> nf.cube_decision(nf.Position.initial(), method=nf.Net(plies=0),
    ...                  n_games=100)
    Traceback (most recent call last):
    ...
    TypeError: cube_decision: n_games: not with method=Net(plies=0); a method object ...
    """

    plies: int | None = None
    name = "net"

    def __post_init__(self) -> None:
        _plies(self)


@dataclasses.dataclass(frozen=True)
class Rollout:
    """Games played to the end (Monte Carlo, with standard errors), as ``settings`` say.

    Parameters
    ----------
    settings : RolloutSettings or None
        How the games are played (``nardy_fast.RolloutSettings``); None:
        ``RolloutSettings(DEFAULT_GAMES)`` (500 games of the net's 0-ply moves).  The
        seed is the call's (``seed=``), and so is where they run (``compute=``).  A cube
        decision sets each rollout's ``cube_state`` itself: leave it None.

    Examples
    --------
    >>> import nardy_fast as nf
    >>> m = nf.Rollout(nf.RolloutSettings(1296, policy="random", truncate=None))
    >>> m.settings.n_games, m.name
    (1296, 'rollout')
    """

    settings: RolloutSettings | None = None
    name = "rollout"

    def __post_init__(self) -> None:
        if self.settings is None:
            object.__setattr__(self, "settings", RolloutSettings(DEFAULT_GAMES))
        elif not isinstance(self.settings, RolloutSettings):
            raise TypeError(f"Rollout: settings={self.settings!r}: expected a "
                            "RolloutSettings or None")


Method = Union[Auto, Exact, Net, Rollout]
METHOD_OBJECTS = (Auto, Exact, Net, Rollout)


_NOT_WITH = ("{func}: {names}: not with method={value!r}; a method object holds its own "
             "settings (Net(plies=...), Rollout(RolloutSettings(...)))")


def method_or_flat(*names: str) -> Callable[[F], F]:
    """Decorator of a public function that takes ``method=`` as a name or a method object:
    the user's call that passes a method object and writes any of the flat keywords
    ``names`` beside it (which the object holds, or has no use for), even at its default,
    is a ``TypeError`` naming them (``held_by``).  The package's own forwarding calls pass
    every flat keyword; ``refuse_flat`` checks their values."""
    return held_by("method", names, lambda value: isinstance(value, METHOD_OBJECTS),
                   _NOT_WITH, outside_only=True)


def refuse_flat(func: str, method: Method, **given: tuple[Any, Any]) -> None:
    """A ``TypeError`` naming the flat keywords of ``given`` (``name=(value, default)``)
    set away from their defaults beside a method object ``method``, which holds (or has
    no use for) them (the values a forwarding call passes on; ``method_or_flat`` checks
    what the user wrote)."""
    bad = [k for k, (v, d) in given.items() if not (v is d or _equal(v, d))]
    if bad:
        raise TypeError(_NOT_WITH.format(func=func, names=", ".join(bad), value=method))


def _equal(v: Any, d: Any) -> bool:
    try:
        return type(v) is type(d) and bool(v == d)
    except (TypeError, ValueError):
        return False


def method_object(method: str | Method, *, func: str | None = None, plies: int | None = None,
                  n_games: int = DEFAULT_GAMES, policy: Any = "net",
                  truncate: str | None = "bearoff", **rollout: Any) -> Method:
    """The method object of ``method`` (returned as is when it is one) or of its name
    with the flat keywords: ``"auto"`` -> ``Auto(plies)``, ``"exact"`` /
    ``"two_sided"`` / ``"one_sided"`` -> ``Exact(table)``, ``"net"`` and
    ``"janowski"`` -> ``Net(plies)``, ``"rollout"`` -> ``Rollout(RolloutSettings(n_games,
    policy=, truncate=, **rollout))``.  The name is not checked here (the caller's
    ``check_method`` says which it takes).  Given ``func``, a bad flat keyword is an
    error of that function, the one the caller wrote (``win_report: plies=4: ...``), not
    of the object built from it (``callers_error``)."""
    if isinstance(method, METHOD_OBJECTS):
        return method
    owner = ("RolloutSettings" if method == "rollout" else "Exact"
             if method in ("exact", "two_sided", "one_sided") else
             "Net" if method in ("net", "janowski") else "Auto")
    try:
        if owner == "RolloutSettings":
            return Rollout(RolloutSettings(n_games, policy=policy, truncate=truncate,
                                           **rollout))
        if owner == "Exact":
            return Exact("auto" if method == "exact" else method)
        return Net(plies) if owner == "Net" else Auto(plies)
    except (TypeError, ValueError) as e:     # named as the caller's argument
        if func is None:
            raise
        raise callers_error(e, func, owner) from None
