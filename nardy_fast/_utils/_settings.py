"""The one way to say which recorded settings differ from the wanted ones: a checkpoint, a
benchmark file or a study store made with other settings is refused naming each of them;
and the one way a settings object built from a function's flat keywords reports a bad
one: as the function's own error (``callers_error``); and the one way a function refuses a
flat keyword passed beside the object that holds it (``held_by``), even at its default."""
from __future__ import annotations

import functools
import inspect
import sys
from collections.abc import Callable, Collection
from typing import Any, TypeVar

__all__ = ["setting_differences", "callers_error", "held_by"]

F = TypeVar("F", bound=Callable[..., Any])


def setting_differences(recorded, wanted, *, ignore=(), unrecorded=None,
                        recorded_as="there", wanted_as="now"):
    """Every setting whose value differs between two mappings, described.

    Parameters
    ----------
    recorded, wanted : mapping of str to object
        The settings a file was made with, and the ones asked for now; a key missing from
        one of them counts as the value None there.
    ignore : collection of str
        Keys not compared (settings that may change without changing the results).
    unrecorded : mapping of str to object, optional
        What a key of ``wanted`` that ``recorded`` lacks stands for there: the value of a
        setting before it was recorded (``rng.EARLIER_DICE_SCHEME`` for ``"dice"``), shown
        by it when the two differ.
    recorded_as, wanted_as : str
        How the message names where each value comes from.

    Returns
    -------
    list of str
        ``"KEY: R RECORDED_AS, W WANTED_AS"`` (values by ``repr``), keys sorted; empty when
        the settings agree.
    """
    recorded = {**{k: v for k, v in (unrecorded or {}).items() if k in wanted}, **recorded}
    return [f"{k}: {recorded.get(k)!r} {recorded_as}, {wanted.get(k)!r} {wanted_as}"
            for k in sorted(set(recorded) | set(wanted))
            if k not in ignore and recorded.get(k) != wanted.get(k)]


def callers_error(error, func, owner):
    """``error``, raised by the settings object ``owner`` (its class name, which starts the
    message: ``"Compute: workers=0: ..."``) that ``func`` built from its flat keywords,
    reworded as ``func``'s (``"rollout: workers=0: ..."``): the caller never wrote
    ``owner``.  The same exception type; raise it ``from None``."""
    return type(error)(f"{func}: {str(error).removeprefix(owner + ': ')}")


def held_by(holder: str, names: Collection[str], holds: Callable[[Any], bool],
            message: str, *, outside_only: bool = False) -> Callable[[F], F]:
    """Decorator: a call that passes ``holder`` (e.g. ``settings=``) with a value that
    ``holds`` settings, and also passes any of ``names`` (flat keywords that value already
    holds; those the function does not take are skipped), is a ``TypeError`` naming them,
    before the function runs.

    A keyword counts as passed when the caller wrote it, even at its default, so that
    ``rollout(p, settings=S, truncate="bearoff")`` is refused rather than silently
    played with ``S.truncate``.  ``message`` is formatted with ``func`` (the function's
    name), ``names`` (those passed, comma-separated) and ``value`` (the holder's value).
    The signature, name and docstring stay the function's (``functools.wraps``).

    ``outside_only``: check only calls from outside the package (the user's), for
    functions that the package's own wrappers call with every flat keyword forwarded
    (those wrappers are decorated in their turn, and the function compares the values
    with their defaults itself).
    """
    def decorate(fn: F) -> F:
        signature = inspect.signature(fn)
        if holder not in signature.parameters:
            raise TypeError(f"held_by: {fn.__name__} has no parameter {holder!r}")
        flat = frozenset(names) & set(signature.parameters)   # those it takes flat
        # a flat keyword that may come by position: then every call is bound (else only
        # a call that writes one of them as a keyword, a fast path for the rest)
        by_position = any(signature.parameters[k].kind in (
            inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
            for k in flat)

        @functools.wraps(fn)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            if not by_position and flat.isdisjoint(kwargs):
                return fn(*args, **kwargs)          # no flat keyword written
            if outside_only and sys._getframe(1).f_globals.get(
                    "__name__", "").startswith("nardy_fast."):
                return fn(*args, **kwargs)
            try:
                passed = signature.bind_partial(*args, **kwargs).arguments
            except TypeError:
                return fn(*args, **kwargs)          # the function's own error
            if holder in passed and holds(passed[holder]):
                both = [k for k in signature.parameters if k in flat and k in passed]
                if both:
                    raise TypeError(message.format(func=fn.__name__, names=", ".join(both),
                                                   value=passed[holder]))
            return fn(*args, **kwargs)
        return wrapper  # type: ignore[return-value]
    return decorate
