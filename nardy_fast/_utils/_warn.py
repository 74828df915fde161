"""Warnings that point at the user's line.

A warning's ``stacklevel`` counted by hand goes stale when a decorator or another layer of
the package comes between the user's call and the ``warn``: the warning then names a line
inside the package.  ``warn_user`` walks out of the package instead.
"""
from __future__ import annotations

import sys
import warnings

__all__ = ["user_stacklevel", "warn_user"]

_PACKAGE = "nardy_fast."


def user_stacklevel(start: int = 1) -> int:
    """The ``stacklevel`` that makes ``warnings.warn``, called ``start`` frames below the
    caller of this function (1: the caller itself calls ``warn``), name the first line
    outside nardy_fast: the user's call (or the outermost frame when there is none)."""
    frame, level = sys._getframe(start), start
    while (frame.f_back is not None
           and frame.f_globals.get("__name__", "").startswith(_PACKAGE)):
        frame, level = frame.f_back, level + 1
    return level


def warn_user(message: str, category: type[Warning] = UserWarning) -> None:
    """``warnings.warn(message, category)`` naming the user's line, not the package's."""
    warnings.warn(message, category, stacklevel=user_stacklevel(2))
