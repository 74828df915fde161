"""The tests mirror the package: a test module under ``tests/<layer>/`` uses nothing from a
layer above ``<layer>`` (the package's order, core < tables < engine < analysis < app;
docs/contributors.md, "Layout").

What counts as using a layer, in a test module (its imports at the top and inside
functions alike):

- an import of ``nardy_fast.<layer>`` or of a module under it;
- a name of the public API (``from nardy_fast import rollout``, ``nf.rollout`` after
  ``import nardy_fast as nf``): the layer of the module ``nardy_fast/__init__.py`` takes
  it from (``nf.rollout`` is engine, ``nf.Position`` core), or of the old flat module it
  names (``_MOVED``);
- a string naming a module, ``"nardy_fast.<layer>..."`` (``importlib.import_module``,
  ``python -m``, ``monkeypatch.setattr`` by path);
- a function of ``tests/helpers.py``: the highest layer its body uses (``run_cli`` drives
  the command line: app).

Driving the command line in a child process (``nardy-fast ...`` as a program) is not
seen here; such tests live in ``tests/app`` by review.
"""
from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent
PACKAGE = TESTS.parent / "nardy_fast"
LAYERS = ("core", "tables", "engine", "env", "analysis", "app")
RANK = {name: k for k, name in enumerate(LAYERS)}
MODULE_PATH = re.compile(r"\bnardy_fast\.(" + "|".join(LAYERS) + r")\b")


def _layer_of_module(module):
    """The layer of a dotted module name under nardy_fast, or None."""
    parts = module.split(".")
    if parts[0] == "nardy_fast" and len(parts) > 1 and parts[1] in RANK:
        return parts[1]
    return None


def public_layers():
    """Each public name of ``nardy_fast`` (and each old flat module name) -> its layer."""
    tree = ast.parse((PACKAGE / "__init__.py").read_text())
    out = {layer: layer for layer in LAYERS}
    # the public names' imports sit under ``if TYPE_CHECKING:`` (the package imports each
    # at first use, ``_EXPORTS``): read the top level and the bodies of its ``if``s
    body = [n for top in tree.body for n in ([top] + (top.body if isinstance(top, ast.If)
                                                       else []))]
    for node in body:
        if isinstance(node, ast.ImportFrom) and node.module:
            layer = _layer_of_module(node.module)
            if layer is not None:
                for alias in node.names:
                    out[alias.asname or alias.name] = layer
        elif isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == "_MOVED" for t in node.targets):
            out.update(ast.literal_eval(node.value))
    return out


PUBLIC = public_layers()


def _uses(tree, helper_layers):
    """(layer, line, what) for each use of a layer in a parsed module (module docstring)."""
    found = []
    public_aliases = set()            # names bound to the package itself: nf, nardy_fast
    docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                  if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef,
                                       ast.AsyncFunctionDef))
                  and node.body and isinstance(node.body[0], ast.Expr)
                  and isinstance(node.body[0].value, ast.Constant)}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name == "nardy_fast":
                    public_aliases.add(alias.asname or "nardy_fast")
                elif alias.asname is None and alias.name.startswith("nardy_fast."):
                    public_aliases.add("nardy_fast")
                layer = _layer_of_module(alias.name)
                if layer:
                    found.append((layer, node.lineno, f"import {alias.name}"))
        elif isinstance(node, ast.ImportFrom) and node.module:
            layer = _layer_of_module(node.module)
            if layer:
                found.append((layer, node.lineno, f"from {node.module} import ..."))
            elif node.module == "nardy_fast":
                for alias in node.names:
                    if alias.name in PUBLIC:
                        found.append((PUBLIC[alias.name], node.lineno,
                                      f"from nardy_fast import {alias.name}"))
            elif node.module == "helpers":
                for alias in node.names:
                    if helper_layers.get(alias.name):
                        found.append((helper_layers[alias.name], node.lineno,
                                      f"from helpers import {alias.name}"))
        elif (isinstance(node, ast.Constant) and isinstance(node.value, str)
              and id(node) not in docstrings):
            for m in MODULE_PATH.finditer(node.value):
                found.append((m.group(1), node.lineno, f"the string {m.group(0)!r}"))
    for node in ast.walk(tree):
        if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                and node.value.id in public_aliases and node.attr in PUBLIC):
            found.append((PUBLIC[node.attr], node.lineno, f"{node.value.id}.{node.attr}"))
    return found


def helper_layers():
    """Each function of tests/helpers.py -> the highest layer its body uses (or None),
    through the module-level imports and the other helpers it calls."""
    tree = ast.parse((TESTS / "helpers.py").read_text())
    imported = {}                       # module-level name -> layer
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.module:
            for alias in node.names:
                name = alias.asname or alias.name
                layer = (_layer_of_module(node.module) if node.module != "nardy_fast"
                         else PUBLIC.get(alias.name))
                if layer:
                    imported[name] = layer
    functions = {node.name: node for node in tree.body
                 if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))}
    calls = {name: {n.id for n in ast.walk(fn) if isinstance(n, ast.Name)}
             for name, fn in functions.items()}
    out = {name: None for name in functions}
    changed = True
    while changed:                       # to a fixed point through helpers calling helpers
        changed = False
        for name, names in calls.items():
            layers = [imported[n] for n in names if n in imported]
            layers += [out[n] for n in names if n in out and out[n]]
            top = max(layers, key=RANK.__getitem__) if layers else None
            if top != out[name]:
                out[name], changed = top, True
    return out


def misfiled(path, layer, helpers=None):
    """The uses of layers above ``layer`` in the test module at ``path``."""
    helpers = helper_layers() if helpers is None else helpers
    tree = ast.parse(Path(path).read_text())
    return sorted({(line, what, used) for used, line, what in _uses(tree, helpers)
                   if RANK[used] > RANK[layer]})


HELPERS = helper_layers()
TEST_FILES = sorted(p for layer in LAYERS for p in (TESTS / layer).glob("*.py"))


@pytest.mark.parametrize("path", TEST_FILES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_a_test_module_uses_no_layer_above_its_folder(path):
    bad = misfiled(path, path.parent.name, HELPERS)
    assert not bad, (f"tests/{path.parent.name}/{path.name} uses a layer above "
                     f"{path.parent.name}; move the test to the layer it tests: {bad}")


def test_every_layer_has_its_test_folder():
    assert [layer for layer in LAYERS if not (TESTS / layer).is_dir()] == []
    assert [p.name for p in TESTS.iterdir() if p.is_dir() and p.name not in LAYERS
            and not p.name.startswith((".", "_")) and p.name != "data"] == []


def test_public_names_are_placed_by_their_home():
    assert PUBLIC["Position"] == "core" and PUBLIC["rollout"] == "engine"
    assert PUBLIC["bearoff"] == "tables" and PUBLIC["cube_report"] == "analysis"
    assert HELPERS["board"] is None and HELPERS["run_cli"] == "app"
    assert HELPERS["boards_upto"] == "tables"


@pytest.mark.parametrize("layer, code, used", [
    ("core", "from nardy_fast.engine.play.rollout import rollout\n", "engine"),
    ("tables", "def f():\n    from nardy_fast.app.cli import main\n", "app"),
    ("core", "import nardy_fast as nf\nnf.rollout\n", "engine"),
    ("engine", "from nardy_fast import cube_report\n", "analysis"),
    ("engine", "import importlib\nimportlib.import_module('nardy_fast.analysis.study')\n",
     "analysis"),
    ("analysis", "from helpers import run_cli\n", "app"),
    ("core", "import nardy_fast.tables.bearoff\n", "tables"),
])
def test_a_planted_misfiled_use_is_found(tmp_path, layer, code, used):
    path = tmp_path / "test_planted.py"
    path.write_text(code)
    bad = misfiled(path, layer, HELPERS)
    assert bad and all(u == used for _, _, u in bad), bad
    assert misfiled(path, used, HELPERS) == []                 # in its own layer: fine


def test_a_use_of_the_same_layer_or_below_is_fine(tmp_path):
    path = tmp_path / "test_planted.py"
    path.write_text("import nardy_fast as nf\nfrom nardy_fast.core.rules import Rules\n"
                    "from helpers import board\nnf.Position.initial()\n")
    assert misfiled(path, "core", HELPERS) == []
