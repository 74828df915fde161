"""Where and how visibly work runs: the compute context ``Compute`` (workers, a Dask
client, a progress bar).

Every function that plays games or builds tables in parallel (``rollout``,
``rollout_many``, ``cube_decision``, the reports, ``study``, the tables' builds) takes
the same three settings.  ``Compute`` holds them once, checked where it is made, so a
caller can make one and pass it on (``compute=``) instead of copying three arguments
through every layer.  None of them changes a result: only where the work runs and whether
a bar shows it.  Imports nothing of the package (``_utils`` is its lowest layer); public
as ``nardy_fast.Compute``.
"""
from __future__ import annotations

import dataclasses

import numpy as np

from nardy_fast._utils._settings import callers_error

from typing import Any

__all__ = ["Compute", "COMPUTE_FIELDS", "resolve_compute"]

COMPUTE_FIELDS = ("workers", "client", "progress")


@dataclasses.dataclass(frozen=True)
class Compute:
    """Where a computation runs and whether it shows a bar; never what it computes.

    Parameters
    ----------
    workers : int or None
        Local processes: ``1`` runs in this process; ``n >= 1`` a pool of ``n``
        processes; ``None`` (default) every usable core (each function may run a small
        job, or a Python policy, in this process instead).
    client : dask.distributed.Client or None
        Run the work on this Dask cluster instead of local processes (``workers`` is
        then not used).
    progress : bool or None
        A progress bar: ``True`` a bar, ``False`` none, ``None`` (default) a bar when
        standard error is a terminal (``nardy_fast._utils._progress``).

    Raises
    ------
    TypeError
        ``workers`` not an integer or None, ``progress`` not True, False or None, or a
        ``client`` that is no Dask client (a number, a string, a cluster object: one
        with no ``map``).
    ValueError
        ``workers < 1``, or a ``client`` that has been closed.

    Examples
    --------
    >>> import nardy_fast as nf
    >>> nf.Compute(workers=1, progress=False)
    Compute(workers=1, client=None, progress=False)
    >>> nf.Compute(workers=0)
    Traceback (most recent call last):
    ...
    ValueError: Compute: workers=0: must be >= 1 (or None: every usable core)
    """

    workers: int | None = None
    client: Any = None
    progress: bool | None = None

    def __post_init__(self) -> None:
        w = self.workers
        if w is not None:
            if isinstance(w, (bool, np.bool_)) or not isinstance(w, (int, np.integer)):
                raise TypeError(f"Compute: workers={w!r}: expected an integer >= 1 or None")
            if w < 1:
                raise ValueError(f"Compute: workers={w}: must be >= 1 (or None: every "
                                 "usable core)")
            object.__setattr__(self, "workers", int(w))
        c = self.client
        if c is not None and (isinstance(c, (bool, int, float, str, bytes, np.generic))
                              or not callable(getattr(c, "map", None))):
            raise TypeError(f"Compute: client={c!r}: expected a dask.distributed.Client or "
                            "None (for a cluster object, dask.distributed.Client(cluster))")
        _check_open(self.client, "Compute: client")
        p = self.progress
        if p is not None:
            if not isinstance(p, (bool, np.bool_)):
                raise TypeError(f"Compute: progress={p!r}: expected True, False or None "
                                "(a bar when standard error is a terminal)")
            object.__setattr__(self, "progress", bool(p))


def resolve_compute(func: str, compute: Compute | None, **flat: Any) -> Compute:
    """The ``Compute`` of a call to ``func`` given ``compute=`` and its flat keywords
    ``flat`` (``workers=``, ``client=``, ``progress=``; ``None`` is not given): the object
    as it is, or one made from the flat keywords.  Both at once for the same field is a
    ``TypeError`` naming it (which one should win is not for the function to guess)."""
    if compute is None:
        try:
            return Compute(**flat)
        except (TypeError, ValueError) as e:     # named as the caller's argument
            raise callers_error(e, func, "Compute") from None
    if not isinstance(compute, Compute):
        raise TypeError(f"{func}: compute={compute!r}: expected a nardy_fast.Compute or None")
    both = [k for k, v in flat.items() if v is not None]
    if both:
        raise TypeError(f"{func}: {', '.join(both)} given both as a keyword and in compute=; "
                        "pass one of them")
    _check_open(compute.client, f"{func}: compute.client")     # closed since it was made
    return compute


def _check_open(client: Any, name: str) -> None:
    """``ValueError`` naming ``name`` if ``client`` is a Dask client that has been closed
    (Dask itself said ``Client is closed. Can't send update-graph message.`` from deep in
    its own code, once the work was sent)."""
    if getattr(client, "status", None) in ("closing", "closed"):
        raise ValueError(f"{name}={client!r}: the Dask client is closed; pass an open "
                         "client (or None: local processes)")
