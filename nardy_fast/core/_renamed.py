"""Old spellings of the public API's arguments, kept until 0.3.0, the release that removes them.

``renamed(old="new", ...)`` wraps a function so that ``f(old=value)`` still works: it
becomes ``f(new=value)`` with a ``DeprecationWarning`` that names the new spelling and the
release that removes the old one (``REMOVED_IN``).  Giving both spellings is a
``TypeError``.  The signature, the docstring and pickling by reference are the function's
own (``functools.wraps``).
"""
from __future__ import annotations

import functools
import warnings
from collections.abc import Callable
from typing import Any, TypeVar

__all__ = ["REMOVED_IN", "renamed", "warn_renamed"]

REMOVED_IN = "0.3.0"

F = TypeVar("F", bound=Callable[..., Any])


def warn_renamed(func: str, old: str, new: str, stacklevel: int = 3) -> None:
    """The DeprecationWarning of ``func(old=...)``, now ``func(new=...)`` (removed in
    0.3.0); ``stacklevel`` 3 points at the caller of the function that calls this."""
    warnings.warn(f"{func}({old}=...) is deprecated: use {new}= (removed in {REMOVED_IN})",
                  DeprecationWarning, stacklevel=stacklevel)


def renamed(**old_to_new: str) -> Callable[[F], F]:
    """Decorator: the keyword arguments ``old`` of the function are now spelled ``new``."""
    def wrap(fn: F) -> F:
        @functools.wraps(fn)
        def call(*args, **kwargs):
            for old, new in old_to_new.items():
                if old in kwargs:
                    if new in kwargs:
                        raise TypeError(f"{fn.__name__}: {old}= is the old spelling of "
                                        f"{new}=; give {new}= only")
                    warn_renamed(fn.__name__, old, new)
                    kwargs[new] = kwargs.pop(old)
            return fn(*args, **kwargs)
        return call  # type: ignore[return-value]
    return wrap
