"""The package's layers: imports flow one way, and the layout table of the contributors'
page (``docs/contributors.md``) is the tree.

``lint-imports`` (import-linter, configured in ``pyproject.toml``) checks the Python
modules, function-level imports included; it cannot read Cython, so this test reads every
``import``/``cimport`` of the ``.py``, ``.pyx`` and ``.pxd`` files itself.
"""
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "nardy_fast"
LAYERS = ["core", "tables", "engine", "analysis", "app"]      # bottom to top
SOURCES = (".py", ".pyx", ".pxd")
IMPORT = re.compile(r"^\s*(?:from|import|cimport)\s+nardy_fast\.(\w+)", re.M)
LAYOUT = re.compile(r"<!-- layout -->(.*?)<!-- /layout -->", re.S)


def _modules():
    return sorted(p for layer in LAYERS for p in (PACKAGE / layer).iterdir()
                  if p.suffix in SOURCES and p.name != "__init__.py")


def upward_imports(path, text):
    """``(module, imported layer)`` for each import of ``text`` (the file at ``path``)
    from a layer above the file's own."""
    own = LAYERS.index(path.parent.name)
    return [(path.name, m) for m in IMPORT.findall(text)
            if m in LAYERS and LAYERS.index(m) > own]


@pytest.mark.parametrize("path", _modules(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_no_module_imports_from_a_layer_above(path):
    assert upward_imports(path, path.read_text(encoding="utf-8")) == []


def test_the_checker_sees_a_back_import():
    """A C module of the core cimporting the engine is caught (the check can fail)."""
    path = PACKAGE / "core" / "_movegen.pyx"
    bad = "from nardy_fast.engine._net cimport Net\n"
    assert upward_imports(path, bad) == [("_movegen.pyx", "engine")]


def test_every_module_lives_in_a_layer():
    stray = [p.name for p in PACKAGE.iterdir() if p.suffix in SOURCES
             and p.name not in ("__init__.py", "__init__.pxd")]
    assert stray == [], "modules outside the layer folders"


def _readme_layout():
    """``{layer: set of file names}`` from the layout table of ``docs/contributors.md`` (one row per module
    group: the layer folder in the first column, the files in backticks in the second)."""
    text = (ROOT / "docs" / "contributors.md").read_text(encoding="utf-8")
    found = LAYOUT.search(text)
    assert found, "docs/contributors.md has no <!-- layout --> table"
    table, layer = {}, None
    for line in found.group(1).splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) < 3 or cells[1].startswith("-") or cells[1] == "modules":
            continue
        m = re.match(r"`(\w+)/`", cells[0])
        if m:
            layer = m.group(1)
        if layer is None:
            continue
        for name in re.findall(r"`([\w.]+\.(?:py|pyx|pxd))`", cells[1]):
            table.setdefault(layer, set()).add(name)
        for stem in re.findall(r"`(\w+)\.pyx/\.pxd`", cells[1]):
            table.setdefault(layer, set()).update({f"{stem}.pyx", f"{stem}.pxd"})
    return table


def test_readme_layout_table_is_the_tree():
    table = _readme_layout()
    tree = {layer: {p.name for p in (PACKAGE / layer).iterdir()
                    if p.suffix in SOURCES and p.name != "__init__.py"} for layer in LAYERS}
    for layer in LAYERS:
        assert table.get(layer, set()) == tree[layer], (
            f"docs/contributors.md layout table, {layer}/: missing {sorted(tree[layer] - table.get(layer, set()))}, "
            f"not in the tree {sorted(table.get(layer, set()) - tree[layer])}")


def test_import_linter_contract_holds(monkeypatch):
    """The same check as ``lint-imports`` in CI, run from the test suite."""
    from importlinter import configuration
    from importlinter.application.use_cases import lint_imports
    configuration.configure()
    monkeypatch.chdir(ROOT)
    assert lint_imports(cache_dir=None, no_logo=True) is True
