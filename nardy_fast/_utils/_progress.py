"""Progress bars: the one meaning of every ``progress=`` argument of the package.

``progress`` is ``True`` (show a bar), ``False`` (none) or ``None``, the default of every
public function: a bar when standard error is a terminal, where a person waits for it;
none in a pipe, a log file, a test run or a notebook.  Every bar is a ``tqdm.auto`` bar
made by ``progress_bar`` (a plain one when it is not shown); a bar never changes a result.
"""
from __future__ import annotations

import sys
import threading

import numpy as np

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tqdm import tqdm

__all__ = ["show_progress", "progress_bar", "progress_callback"]


def show_progress(progress: bool | None) -> bool:
    """Whether ``progress`` shows a bar: ``True``, ``False``, or ``None`` (when standard
    error is a terminal).

    Raises
    ------
    TypeError
        ``progress`` is not True, False or None.
    """
    if progress is None:
        return bool(getattr(sys.stderr, "isatty", lambda: False)())
    if not isinstance(progress, (bool, np.bool_)):
        raise TypeError(f"progress={progress!r}: expected True, False or None (a bar when "
                        "standard error is a terminal)")
    return bool(progress)


def progress_bar(iterable: Iterable[Any] | None = None, *, desc: str, unit: str = "it",
                 total: float | None = None, progress: bool | None = None,
                 **options: Any) -> tqdm:
    """A ``tqdm`` bar over ``iterable`` (or of ``total`` units, moved by ``update``),
    shown as ``show_progress(progress)`` says (otherwise a silent one, whose ``update``
    and ``close`` do nothing).

    Parameters
    ----------
    iterable : iterable, optional
    desc : str
        The bar's label.
    unit : str
        What one step counts (``"game"``, ``"pos"``, ``"turn"``, ...).
    total : number, optional
        Units of the whole work (default: ``len(iterable)``).
    progress : bool or None
        See ``show_progress``.
    **options
        Passed to ``tqdm`` (``initial``, ``unit_scale``, ``smoothing``, ...).
    """
    show = show_progress(progress)
    # lazy: tqdm is slow to import and import nardy_fast skips it.  A silent bar is the
    # plain one: tqdm.auto would look for the notebook's widgets, and warn in a notebook
    # without them ("IProgress not found") though it draws nothing.
    if show:
        from tqdm.auto import tqdm      # lazy: see above
    else:
        from tqdm.std import tqdm       # lazy: see above
    _thread_lock_once()
    return tqdm(iterable, desc=desc, unit=unit, total=total, disable=not show, **options)


_LOCKED = []      # non-empty once this process's bars have their thread lock


def _thread_lock_once() -> None:
    """Give this process's bars a thread lock, once, before its first bar, in place of
    tqdm's default, which adds a multiprocessing lock: a named semaphore.  A bar is only
    ever drawn by the process that made it, so a thread lock serves; and a process killed
    on Ctrl-C (a pool worker whose chunk ran a nested, silent rollout) could not unlink
    the semaphore, which the resource tracker then reported leaked when the command
    ended ("2 leaked semaphore objects" after train-rollouts on two workers)."""
    if not _LOCKED:
        from tqdm.std import tqdm           # lazy: see progress_bar
        tqdm.set_lock(threading.RLock())
        _LOCKED.append(True)


def progress_callback(progress: bool | None, desc: str) -> Callable[[float | None], None]:
    """A callback taking the percentage done (None closes the bar), for the builders that
    report from C (``progress_bar`` of 100 units)."""
    bar = progress_bar(total=100, desc=desc, unit="%", leave=False, progress=progress)
    state = {"done": 0}

    def update(pct):
        if pct is None:
            bar.close()
            return
        pct = int(pct)
        bar.update(pct - state["done"])
        state["done"] = pct
    return update

