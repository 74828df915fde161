"""The input check of the functions that read a report (a pandas ``DataFrame``).

The package's charts and summaries take a frame that one of its reports made; given
something else they say which report makes what they need, rather than fail deep inside
pandas.
"""
from __future__ import annotations

from collections.abc import Iterable

__all__ = ["require_columns"]


def require_columns(frame, columns: Iterable[str], who: str, maker: str | None = None,
                    *, rows: bool = False) -> None:
    """Check that ``frame`` is a ``DataFrame`` with each of ``columns``.

    Parameters
    ----------
    frame : object
        What the caller was given.
    columns : iterable of str
        The columns ``who`` reads.
    who : str
        The public function, named in the message (``"race_chart"``).
    maker : str, optional
        What makes such a frame, named in the message (``"report.race_report"``).
    rows : bool
        The frame must have a row (a chart of none would be an empty picture).

    Raises
    ------
    TypeError
        ``frame`` is not a ``DataFrame``.
    ValueError
        A column is missing: the first, by name; or ``rows`` and the frame has none.
    """
    use = f" (use {maker})" if maker else ""
    cols = getattr(frame, "columns", None)
    if cols is None or not hasattr(frame, "loc"):
        raise TypeError(f"{who}: expected a pandas DataFrame{use}, got "
                        f"{type(frame).__name__}")
    for col in columns:
        if col not in cols:
            raise ValueError(f"{who}: the frame has no {col!r} column{use}")
    if rows and len(frame) == 0:
        raise ValueError(f"{who}: the frame has no rows, so nothing to draw")
