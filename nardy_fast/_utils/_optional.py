"""Optional dependencies, the extras of the package (``pip install 'nardy_fast[parquet]'``):
imported where a feature needs one, and, when it is not installed, an ``ImportError`` that
names the package and the extra that brings it, not Python's bare "No module named ...".
"""
from __future__ import annotations

import importlib
from types import ModuleType

__all__ = ["require", "require_parquet"]


def require(module: str, *, extra: str, feature: str, package: str | None = None) -> ModuleType:
    """The module ``module``, imported.

    Parameters
    ----------
    module : str
        The module to import (``"pyarrow.parquet"``).
    extra : str
        The extra of nardy_fast that installs it (``"parquet"``).
    feature : str
        What needs it, the start of the message (``"a study store (Parquet)"``).
    package : str or None
        The package to install when its name is not the module's (``"open_spiel"`` for
        ``pyspiel``); None: the module's top name.

    Raises
    ------
    ImportError
        The module is not installed: ``a study store (Parquet) needs pyarrow: pip install
        'nardy_fast[parquet]'`` (its ``name`` the missing module).  A module that is
        installed but fails in its own imports raises its own error.
    """
    try:
        return importlib.import_module(module)
    except ImportError as e:
        top = module.split(".")[0]
        if e.name is None or e.name.split(".")[0] != top:
            raise                 # installed, but something it imports is not: its error
        named = top if package in (None, top) else f"{package} (its module {top})"
        raise ImportError(f"{feature} needs {named}: pip install 'nardy_fast[{extra}]'",
                          name=e.name) from None


def require_parquet(feature: str) -> tuple[ModuleType, ModuleType]:
    """``(pyarrow, pyarrow.parquet)`` for ``feature`` (what needs them, as ``require``'s):
    the Parquet files of the package (the decision benchmark, a study store) read and write
    with both."""
    return (require("pyarrow", extra="parquet", feature=feature),
            require("pyarrow.parquet", extra="parquet", feature=feature))
