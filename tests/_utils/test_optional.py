"""``_utils._optional.require``: an optional dependency imported when a feature needs it,
and, when it is not installed, an ``ImportError`` naming the package and the extra."""
import sys

import pytest

from nardy_fast._utils._optional import require, require_parquet


def test_an_installed_module_is_returned():
    import json
    import os.path
    assert require("json", extra="parquet", feature="x") is json
    assert require("os.path", extra="parquet", feature="x") is os.path


def test_a_missing_one_is_named_with_its_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "pyarrow", None)
    monkeypatch.setitem(sys.modules, "pyarrow.parquet", None)   # as if never installed
    with pytest.raises(ImportError, match=r"^a study store \(Parquet\) needs pyarrow: pip "
                                          r"install 'nardy_fast\[parquet\]'$") as e:
        require("pyarrow.parquet", extra="parquet", feature="a study store (Parquet)")
    assert e.value.name.split(".")[0] == "pyarrow"          # the module that is missing
    monkeypatch.setitem(sys.modules, "pyspiel", None)     # a module of another name
    with pytest.raises(ImportError, match=r"^x needs open_spiel \(its module pyspiel\): "
                                          r"pip install 'nardy_fast\[rl\]'$"):
        require("pyspiel", extra="rl", feature="x", package="open_spiel")


def test_an_installed_module_whose_own_import_fails_keeps_its_error(monkeypatch, tmp_path):
    """Not "install it": it is installed, and its error says what is wrong."""
    (tmp_path / "half_installed.py").write_text("import no_such_module_inside\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(ModuleNotFoundError, match="no_such_module_inside"):
        require("half_installed", extra="rl", feature="x")


def test_require_parquet_names_its_feature_and_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "pyarrow", None)
    with pytest.raises(ImportError, match=r"^a study store needs pyarrow: pip install "
                                          r"'nardy_fast\[parquet\]'$"):
        require_parquet("a study store")
