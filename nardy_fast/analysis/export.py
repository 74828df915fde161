"""Export report frames atomically (a temporary name, then a rename): CSV, Parquet
(pyarrow) and standalone HTML pages; ``save`` picks the format by the file's suffix."""
from __future__ import annotations

import functools
import html
import os

from nardy_fast._utils._frames import require_columns
from nardy_fast._utils._io import atomic_write, check_path
from nardy_fast._utils._optional import require
from nardy_fast.core.result import shown

__all__ = ["save", "to_csv", "to_html", "to_parquet"]


def to_csv(frame, path, **kwargs):
    """Write ``frame`` as CSV (no index unless it is named), atomically; returns the path."""
    kwargs.setdefault("index", frame.index.name is not None)
    return atomic_write(path, lambda p: frame.to_csv(p, **kwargs))


def to_parquet(frame, path, **kwargs):
    """Write ``frame`` as Parquet with pyarrow, atomically; returns the path."""
    if kwargs.get("engine", "pyarrow") == "pyarrow":       # optional: named when missing
        require("pyarrow", extra="parquet", feature="a Parquet file")
    kwargs.setdefault("engine", "pyarrow")
    return atomic_write(path, lambda p: frame.to_parquet(p, **kwargs))


def to_html(frame, path, title=None, float_format=None, **kwargs):
    """Write ``frame`` as a standalone HTML page (a table), atomically; returns the path.
    A missing value (NaN: not measured, e.g. a net value's standard error) is an empty
    cell, as in the CSV, not the word NaN.  Numbers have 4 decimals (``float_format``
    None), a value that rounds to zero without a minus sign (``core.result.shown``)."""
    kwargs.setdefault("index", frame.index.name is not None)
    kwargs.setdefault("na_rep", "")
    if float_format is None:
        float_format = functools.partial(shown, spec=".4f")
    table = frame.to_html(float_format=float_format, border=0, classes="nardy", **kwargs)
    title = html.escape(title or "nardy_fast report")
    page = ("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">"
            f"<title>{title}</title>\n<style>"
            "body{font-family:sans-serif} table.nardy{border-collapse:collapse;font-size:13px}"
            " table.nardy td,table.nardy th{padding:2px 8px;border-bottom:1px solid #ddd;"
            "text-align:right;white-space:nowrap}"       # a move, a method: one line each
            " table.nardy th{white-space:normal;vertical-align:bottom}</style></head>\n"
            f"<body><h1>{title}</h1>\n{table}\n</body></html>\n")

    def write(p):
        with open(p, "w", encoding="utf-8") as f:
            f.write(page)

    return atomic_write(path, write)


_WRITERS = {".csv": to_csv, ".parquet": to_parquet, ".pq": to_parquet, ".html": to_html,
            ".htm": to_html}


def save(frame, path, **kwargs):
    """Write ``frame`` by the suffix of ``path``: ``.csv``, ``.parquet``/``.pq``, ``.html``.

    Returns
    -------
    str
        The path written.

    Raises
    ------
    TypeError
        ``frame`` is no DataFrame, or ``path`` no file path (``path: expected a file
        path (str or os.PathLike), got int``).
    ValueError
        The suffix of ``path`` is none of these.

    Examples
    --------
    >>> import os, tempfile
    >>> import pandas as pd
    >>> import nardy_fast as nf
    >>> path = os.path.join(tempfile.mkdtemp(), "races.csv")
    >>> nf.save_frame(nf.pip_report(nf.race_sample(3, seed=1)), path) == path
    True
    >>> len(pd.read_csv(path))
    3
    """
    require_columns(frame, (), "save_frame")
    name = check_path(path)
    ext = os.path.splitext(name)[1].lower()
    if ext not in _WRITERS:
        raise ValueError(f"{name}: unknown report format {ext or '(none)'!r}; "
                         "expected .csv, .parquet or .html")
    return _WRITERS[ext](frame, path, **kwargs)
