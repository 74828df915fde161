"""The net file of a training run, which is also its checkpoint: one rule for TD self-play
(``train``) and supervised training (``supervised``).

A run writes its net to its ``path`` after every stretch of work, with the run's settings
and how much is done in the net's ``meta["training"]``.  The same command with the same
settings finds that file and continues the run.  Any other file there (a net of another
run, a user's own net, something that is not a net) is refused by name rather than
replaced, unless the caller asks for it to be replaced.
"""
from __future__ import annotations

import os

from nardy_fast.engine.evaluation.evaluator import Evaluator

__all__ = ["run_checkpoint"]


def run_checkpoint(path, settings, done_key, *, defaults=None, replace=False):
    """The checkpoint of this run at ``path``, if there is one.

    Parameters
    ----------
    path : str or os.PathLike
        The run's net file.
    settings : dict
        The settings a checkpoint of this run holds in ``meta["training"]`` (those that
        may change between two calls of one run, such as the rounds asked for, left out).
    done_key : str
        The ``meta["training"]`` key of the work done (``"games_done"``,
        ``"rounds_done"``).
    defaults : dict, optional
        The value of a setting a checkpoint of an older version does not hold.
    replace : bool
        True: a file at ``path`` that is not this run's checkpoint is to be written over
        (the result is then ``(None, 0)``); False: it is refused.

    Returns
    -------
    (Evaluator or None, int)
        The checkpointed net and the work done (games or rounds); ``(None, 0)`` when
        there is no file at ``path``.

    Raises
    ------
    ValueError
        ``path`` holds something else than a checkpoint of this run and not ``replace``;
        the message says what (not a net, a net of no run, the settings that differ).
    """
    if not os.path.exists(path):
        return None, 0
    defaults = defaults or {}
    try:
        ev = Evaluator.load(path)
    except (OSError, ValueError) as e:
        text = str(e)
        why = "not a net: " + text.removeprefix(f"{os.fspath(path)}: ")
    else:
        held = ev.meta.get("training", {})
        differ = [(k, old, v) for k, v in settings.items()
                  if (old := held.get(k, defaults.get(k))) != v]
        done = int(held.get(done_key, 0) or 0)
        if not differ and done > 0:
            return ev, done
        why = ("a net that holds no run of this kind" if done == 0 else
               "a run of other settings: " + ", ".join(
                   f"{k} {old!r} there, {new!r} here" for k, old, new in differ[:4])
               + (", ..." if len(differ) > 4 else ""))
    if replace:
        return None, 0
    raise ValueError(f"{os.fspath(path)}: exists and is not a checkpoint of this run "
                     f"({why}); write to another file, or ask to replace it (--force, "
                     "replace=True)")
