"""The cache folder of the default bear-off databases, and the in-memory cache over it.

``bearoff.one_sided()``, ``two_sided()`` and ``mars_table()`` build their database on first
use and keep it in the folder named by the environment variable ``NARDY_FAST_DATA`` or,
without it, ``$XDG_CACHE_HOME/nardy_fast`` (``~/.cache/nardy_fast``).  Files carry a header
with a checksum (``_dbfile``); a damaged cache file is rebuilt with a warning.
"""
from __future__ import annotations

import os

from nardy_fast._utils._dbfile import DatabaseError
from nardy_fast._utils._resources import cache_errors
from nardy_fast._utils._warn import warn_user

__all__ = ["DATA_ENV", "data_dir", "cached", "clear_memory"]

DATA_ENV = "NARDY_FAST_DATA"

_CACHE = {}                      # file path -> loaded database


def data_dir():
    """The cache folder of the default databases (see the module docstring)."""
    env = os.environ.get(DATA_ENV)
    if env:
        return os.path.abspath(os.path.expanduser(env))
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "nardy_fast")


def clear_memory(prefix=""):
    """Forget the loaded databases whose file name starts with ``prefix`` (all for "")."""
    for path in [p for p in _CACHE if os.path.basename(p).startswith(prefix)]:
        del _CACHE[path]


def cached(cls, filename, build, saved=False, expect=None):
    """The database cached as ``filename``: from memory, from disk, or ``build()`` (then
    saved, unless ``saved``: it wrote the file itself).  ``build=None``: None if absent
    or damaged (with a warning naming the file).

    ``cls`` has ``load(path, verify=True)``; a damaged file is rebuilt with a warning, and
    so is one whose attributes differ from ``expect`` (a dict: a database of another size
    under this name).
    """
    path = os.path.join(data_dir(), filename)
    db = _CACHE.get(path)
    if db is not None:
        return db
    if build is None and not os.path.exists(path):
        return None
    if os.path.exists(path):
        try:
            db = cls.load(path)
            wrong = [f"{k}={getattr(db, k)!r}, expected {v!r}"
                     for k, v in (expect or {}).items() if getattr(db, k) != v]
            if wrong:
                db = None
                raise DatabaseError(f"{path}: holds another table ({'; '.join(wrong)})")
        except DatabaseError as e:
            if build is None:             # a query: it never builds, so it cannot rebuild
                warn_user(f"not using the damaged cache file (building that table again "
                          f"replaces it): {e}", RuntimeWarning)
                return None
            warn_user(f"rebuilding the damaged cache file: {e}", RuntimeWarning)
    if db is None:
        if build is None:
            return None
        with cache_errors(os.path.dirname(path)):     # errors name the folder, NARDY_FAST_DATA
            db = build()
            if not saved:
                db.save(path)
        db = cls.load(path, verify=False)
    _CACHE[path] = db
    return db
