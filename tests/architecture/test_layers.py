"""The package's layers: imports flow one way, and the layout table of the contributors'
page (``docs/contributors.md``) is the tree.

``lint-imports`` (import-linter, configured in ``pyproject.toml``; run here and by ``make
test``) checks the Python modules, function-level imports included: the layers, the order
inside each folder with one, and no import circle.  It cannot read Cython, nor see an
import of a compiled module, so this test reads the ``import``/``cimport`` lines of the
``.pyx`` and ``.pxd`` files, and the ``.py`` files' imports of compiled modules, against the
same contracts.
"""
import ast
import re
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "nardy_fast"
LAYERS = ["_utils", "core", "tables", "engine", "env", "analysis", "training", "app"]   # bottom to top
# (env, analysis and training are side by side above the engine: pyproject.toml's contract
# keeps them apart)
SOURCES = (".py", ".pyx", ".pxd")
IMPORT = re.compile(r"^\s*(?:from|import|cimport)\s+nardy_fast\.(\w+)", re.M)
LAYOUT = re.compile(r"<!-- layout -->(.*?)<!-- /layout -->", re.S)


CYTHON = (".pyx", ".pxd")


def _modules():
    """The Cython modules (the Python ones: the layers contract)."""
    return sorted(p for layer in LAYERS for p in (PACKAGE / layer).rglob("*")
                  if p.suffix in CYTHON)


def _layer_of(path):
    return path.relative_to(PACKAGE).parts[0]


def upward_imports(path, text):
    """``(module, imported layer)`` for each import of ``text`` (the file at ``path``)
    from a layer above the file's own (``analysis`` and ``training`` are side by side:
    neither imports the other)."""
    own = LAYERS.index(_layer_of(path))
    side = {"analysis", "training", "env"}
    return [(path.name, m) for m in IMPORT.findall(text)
            if m in LAYERS and (LAYERS.index(m) > own
                                or (m != _layer_of(path) and {m, _layer_of(path)} <= side))]


@pytest.mark.parametrize("path", _modules(),
                         ids=lambda p: p.relative_to(PACKAGE).as_posix())
def test_no_module_imports_from_a_layer_above(path):
    assert upward_imports(path, path.read_text(encoding="utf-8")) == []


def test_the_checker_sees_a_back_import():
    """A C module of the core cimporting the engine is caught (the check can fail)."""
    path = PACKAGE / "core" / "_movegen.pyx"
    bad = "from nardy_fast.engine.evaluation._net cimport Net\n"
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
        m = re.match(r"`([\w/]+)/`", cells[0])
        if m:
            layer = m.group(1)
        if layer is None:
            continue
        for name in re.findall(r"`([\w.]+\.(?:py|pyx|pxd))`", cells[1]):
            table.setdefault(layer, set()).add(name)
        for stem in re.findall(r"`(\w+)\.pyx/\.pxd`", cells[1]):
            table.setdefault(layer, set()).update({f"{stem}.pyx", f"{stem}.pxd"})
    return table


def _folders():
    """Every folder of the package holding modules, as ``layer`` or ``layer/part``."""
    return sorted({p.parent.relative_to(PACKAGE).as_posix()
                   for layer in LAYERS for p in (PACKAGE / layer).rglob("*")
                   if p.suffix in SOURCES and p.name != "__init__.py"})


def test_readme_layout_table_is_the_tree():
    table = _readme_layout()
    tree = {folder: {p.name for p in (PACKAGE / folder).iterdir()
                     if p.suffix in SOURCES and p.name != "__init__.py"} for folder in _folders()}
    assert sorted(table) == sorted(tree), "docs/contributors.md layout table: folders"
    for layer in tree:
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


# -- the order inside the engine ---------------------------------------------------------
# One list: the engine's layers contract in pyproject.toml (import-linter checks the .py
# files against it; the tests below check the .pyx/.pxd files, which it cannot read, and
# the imports of the compiled modules).

FROM = re.compile(r"^[ \t]*from[ \t]+([\w.]+)[ \t]+c?import[ \t]+(\([^)]*\)|[^\n#]*)", re.M)
PLAIN = re.compile(r"^[ \t]*c?import[ \t]+([\w. \t,]+)", re.M)


def _all_modules():
    """``{dotted name: [files]}`` of the package's modules (.py, .pyx and .pxd; a
    package is its ``__init__``)."""
    out = {}
    for p in sorted(PACKAGE.rglob("*")):
        if p.suffix in SOURCES:
            name = ".".join(p.relative_to(ROOT).with_suffix("").parts)
            out.setdefault(name.removesuffix(".__init__"), []).append(p)
    return out


MODULES = _all_modules()


def imported_modules(path, text, modules=MODULES):
    """The package's modules imported by ``text`` (the file at ``path``), wherever the
    import stands (at the top, in a function, under ``TYPE_CHECKING``): for ``from X
    import a, b``, X and each ``X.a`` that is a module."""
    pairs = []                                   # (base, names)
    if path.suffix == ".py":
        own = ".".join(path.relative_to(ROOT).with_suffix("").parts)
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.Import):
                pairs += [(a.name, []) for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    pkg = own.split(".")[:len(own.split(".")) - node.level]
                    base = ".".join(pkg + ([base] if base else []))
                pairs.append((base, [a.name for a in node.names]))
    else:
        for base, names in FROM.findall(text):
            pairs.append((base, [n.split()[0] for n in names.strip("() \t").replace("\n", " ")
                                 .split(",") if n.strip()]))
        for names in PLAIN.findall(text):
            pairs += [(n.split()[0], []) for n in names.split(",") if n.strip()]
    found = set()
    for base, names in pairs:
        found.update(m for m in [base] + [f"{base}.{n}" for n in names] if m in modules)
    return found


def _orders():
    """``[(container, {part: rank})]`` from every layers contract with containers in
    ``pyproject.toml`` (0 the lowest tier); a compiled module is written in parentheses."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    out = []
    for c in config["tool"]["importlinter"]["contracts"]:
        for container in c.get("containers", []):
            layers = c["layers"]
            out.append((container, {name.strip().strip("()"): len(layers) - 1 - k
                                    for k, layer in enumerate(layers)
                                    for name in layer.split("|")}))
    return out


ORDERS = _orders()


def _part(module, container, ranks):
    """The part of ``container`` (a name of its contract) that ``module`` is or lies in."""
    if not module.startswith(container + "."):
        return None
    head = module[len(container) + 1:].split(".")[0]
    return head if head in ranks else None


def _compiled(module):
    """Whether a module of the package is a compiled one (no ``.py`` file)."""
    return all(p.suffix != ".py" for p in MODULES.get(module, [Path("x.py")]))


def order_breaches(path, text, orders=ORDERS):
    """``(module, imported module)`` for each import of ``text`` (the file at ``path``)
    from its own tier or one above, in any container's order (``ORDERS``); of a ``.py``
    file, its imports of compiled modules only (the others: import-linter)."""
    own = ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
    out = set()
    for m in imported_modules(path, text):
        if path.suffix == ".py" and not _compiled(m):
            continue
        for container, ranks in orders:
            a, b = _part(own, container, ranks), _part(m, container, ranks)
            if a and b and a != b and ranks[b] >= ranks[a]:
                out.add((own, m))
    return sorted(out)


def _ordered_files():
    return sorted(p for container, _ in ORDERS
                  for p in (PACKAGE / Path(*container.split(".")[1:])).rglob("*")
                  if p.suffix in SOURCES and p.name != "__init__.py")


def test_every_module_of_an_ordered_folder_has_its_place():
    """A new module of a folder with an order (the engine's parts, training) is placed in
    that folder's layers contract (``pyproject.toml``), and the contract names no module
    that is gone."""
    for container, ranks in ORDERS:
        folder = PACKAGE / Path(*container.split(".")[1:])
        tree = {p.stem for p in folder.iterdir()
                if (p.suffix in SOURCES and p.name != "__init__.py")
                or (p.is_dir() and (p / "__init__.py").exists())}
        assert sorted(tree - set(ranks)) == [], f"{container}: not in the order"
        assert sorted(set(ranks) - tree) == [], f"{container}: the order names modules that are gone"


@pytest.mark.parametrize("path", _ordered_files(),
                         ids=lambda p: p.relative_to(PACKAGE).as_posix())
def test_modules_import_only_from_the_tiers_below(path):
    assert order_breaches(path, path.read_text(encoding="utf-8")) == []


def test_the_order_check_sees_a_back_cimport_and_a_sibling_import():
    """The check can fail: the search cimporting the turn (a part above), a C loop
    importing its sibling (a tier's modules are independent), and the net importing the
    match table (a tier above, in its own part)."""
    ev = PACKAGE / "engine" / "evaluation"
    up = "from nardy_fast.engine.play._turn cimport (movebuf_t,\n    legal_results)\n"
    assert order_breaches(ev / "_search.pyx", up) == [
        ("nardy_fast.engine.evaluation._search", "nardy_fast.engine.play._turn")]
    side = "def f():\n    from nardy_fast.engine.play import _match\n"
    assert order_breaches(PACKAGE / "engine" / "play" / "_rollout.pyx", side) == [
        ("nardy_fast.engine.play._rollout", "nardy_fast.engine.play._match")]
    up = "from nardy_fast.engine.evaluation.met import match_equity\n"
    assert order_breaches(ev / "_net.pyx", up) == [
        ("nardy_fast.engine.evaluation._net", "nardy_fast.engine.evaluation.met")]
    # a Python module: its import of a compiled module above is found, of a Python one left
    # to import-linter
    up = "from nardy_fast.engine.evaluation import _search\nfrom nardy_fast.engine.evaluation import met\n"
    assert order_breaches(ev / "cubemodel.py", up) == [
        ("nardy_fast.engine.evaluation.cubemodel", "nardy_fast.engine.evaluation._search")]


# -- no import circles -------------------------------------------------------------------

# A circle of Python modules is import-linter's (the acyclic_siblings contract, with its one
# deliberate circle, position <-> diagram); a circle through a compiled module is found here.


def import_graph(extra=None):
    """``{module: set of imported modules}`` of the package, counting every import
    (``imported_modules``); ``extra``: ``{file: text}`` read in place of those files."""
    extra = extra or {}
    graph = {}
    for name, paths in MODULES.items():
        for p in paths:
            text = extra.get(p) or p.read_text(encoding="utf-8")
            graph.setdefault(name, set()).update(imported_modules(p, text) - {name})
    return graph


def import_circles(graph):
    """The strongly connected components of more than one module (Tarjan), as frozensets."""
    index, low, stack, on, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = set()
            while True:
                w = stack.pop()
                on.discard(w)
                comp.add(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(frozenset(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def compiled_circles(graph):
    """The circles (``import_circles``) through at least one compiled module."""
    return [c for c in import_circles(graph) if any(_compiled(m) for m in c)]


def test_no_import_circle_through_a_compiled_module():
    """No circle through a compiled module, counting the imports inside functions and the
    Cython ones."""
    assert [sorted(c) for c in compiled_circles(import_graph())] == []


def test_the_circle_count_sees_a_planted_circle():
    """The count can fail: a cimport of ``_turn`` from ``_search`` (which ``_turn``
    cimports) closes a circle."""
    engine = PACKAGE / "engine"
    search = engine / "evaluation" / "_search.pyx"
    planted = search.read_text(encoding="utf-8") + "\nfrom nardy_fast.engine.play._turn cimport pick\n"
    circles = compiled_circles(import_graph({search: planted}))
    assert frozenset({"nardy_fast.engine.evaluation._search", "nardy_fast.engine.play._turn"}) in circles


def unexplained_inner_imports(text):
    """``(line, statement)`` of each import written inside a function of ``text`` with no
    comment saying why: none on its line, or on the line above the block of imports it
    belongs to (a comment line, or a ``try:`` with its reason)."""
    lines = text.splitlines()
    out = []
    for fn in ast.walk(ast.parse(text)):
        if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        for node in ast.walk(fn):
            if not isinstance(node, (ast.Import, ast.ImportFrom)):
                continue
            k = node.lineno - 1
            if "#" in lines[k]:
                continue
            k -= 1
            while k >= 0 and lines[k].strip().startswith(("from ", "import ")):
                k -= 1                               # the block of imports it belongs to
            if k < 0 or "#" not in lines[k]:          # e.g. "# lazy: ..." or "try:  # ..."
                out.append((node.lineno, lines[node.lineno - 1].strip()))
    return sorted(set(out))


@pytest.mark.parametrize("path", sorted(PACKAGE.rglob("*.py")),
                         ids=lambda p: p.relative_to(PACKAGE).as_posix())
def test_every_import_inside_a_function_says_why(path):
    """An import left inside a function (a lazy import of a slow or optional library, a
    command loading only what it runs) carries a comment saying why: an import written
    there to dodge a circle is what the layers forbid, so none may stay unexplained."""
    assert unexplained_inner_imports(path.read_text(encoding="utf-8")) == []


def test_the_inner_import_check_sees_an_unexplained_import():
    text = ("def f():\n    # lazy: pandas is slow to import\n    import pandas as pd\n"
            "    import numpy as np\n    return pd, np\n\n\n"
            "def g():\n    x = 1\n    from nardy_fast.engine.evaluation import met\n    return met, x\n")
    assert unexplained_inner_imports(text) == [
        (10, "from nardy_fast.engine.evaluation import met")]


def test_import_nardy_fast_leaves_the_slow_libraries_for_later():
    """``import nardy_fast`` (and so every ``nardy-fast`` command's start) does not load
    pandas, matplotlib, pyarrow or tqdm: the functions that need them import them when
    called (each such import says so), so no module may import them at its top."""
    import subprocess
    import sys
    code = ("import sys, nardy_fast; print(sorted(m for m in ('pandas', 'matplotlib', "
            "'pyarrow', 'dask', 'tqdm') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.strip()
    assert out == "[]"
