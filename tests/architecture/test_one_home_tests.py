"""One home for each shared piece of the tests, and for the evaluator's searcher:

- no test module imports from ``conftest`` (it holds settings and fixtures only; the
  plain helpers are imported from ``tests/helpers.py``);
- no public function of ``tests/helpers.py`` is defined again in another test file, and
  no fixture of ``conftest.py`` is defined again in a test module (a copy drifts);
- nobody outside ``engine/evaluation/evaluator.py`` calls ``Evaluator._searcher()``: the searcher is
  ``Evaluator.searcher()``.

The naive reference modules (``tests/naive*.py``) are exempt from the second rule: they
share no code with the package or with the helpers on purpose (``tests/naive.py``).
Each check is also run on a planted copy, which it must find.
"""
from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parents[1]
ROOT = TESTS.parent
CONFTEST_IMPORT = re.compile(r"^\s*(from\s+conftest\s+import|import\s+conftest)\b", re.M)
SEARCHER_CALL = re.compile(r"\._searcher\(")


def checked_files(root=TESTS):
    """Every Python file under the tests folder but the helpers and the naive references."""
    return sorted(p for p in root.rglob("*.py")
                  if p.name != "helpers.py" and not p.name.startswith("naive"))


def conftest_imports(paths):
    """(file, line) of each import from conftest."""
    return [(p.name, text[:m.start()].count("\n") + 1)
            for p in paths for text in [p.read_text()]
            for m in CONFTEST_IMPORT.finditer(text)]


def _functions(tree):
    """Names of every function defined in a parsed module, at any depth."""
    return {n.name for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef,
                                                              ast.AsyncFunctionDef))}


def _is_fixture(node):
    for d in node.decorator_list:
        target = d.func if isinstance(d, ast.Call) else d
        if ast.unparse(target) in ("pytest.fixture", "fixture"):
            return True
    return False


def helper_names(helpers=TESTS / "helpers.py"):
    """The public functions (and classes) of the helpers module."""
    tree = ast.parse(Path(helpers).read_text())
    return {n.name for n in tree.body
            if isinstance(n, (ast.FunctionDef, ast.ClassDef)) and not n.name.startswith("_")}


def fixture_names(conftest=TESTS / "conftest.py"):
    tree = ast.parse(Path(conftest).read_text())
    return {n.name for n in tree.body if isinstance(n, ast.FunctionDef) and _is_fixture(n)}


def copies(paths, helpers=TESTS / "helpers.py", conftest=TESTS / "conftest.py"):
    """(file, name) of each helper or conftest fixture defined again in a test file."""
    shared, fixtures = helper_names(helpers), fixture_names(conftest)
    out = []
    for p in paths:
        if p.name == "conftest.py":
            continue
        tree = ast.parse(p.read_text())
        classes = {n.name for n in ast.walk(tree) if isinstance(n, ast.ClassDef)}
        out += [(p.name, name) for name in sorted((_functions(tree) | classes) & shared)]
        out += [(p.name, n.name) for n in tree.body
                if isinstance(n, ast.FunctionDef) and n.name in fixtures and _is_fixture(n)]
    return out


def searcher_calls(root=ROOT):
    """(file, line) of each ``._searcher(`` call outside engine/evaluation/evaluator.py, in the
    package, the tests, the benchmarks, the tools and the experiments."""
    out = []
    for folder in ("nardy_fast", "tests", "benchmarks", "tools", "experiments"):
        for p in sorted((Path(root) / folder).rglob("*.py*")):
            if p.suffix not in (".py", ".pyx", ".pxd", ".pyi") or p.name == "evaluator.py":
                continue
            if p == Path(__file__).resolve():
                continue
            text = p.read_text()
            out += [(str(p.relative_to(root)), text[:m.start()].count("\n") + 1)
                    for m in SEARCHER_CALL.finditer(text)]
    return out


# --- the tree as it is ------------------------------------------------------------------

def test_no_test_imports_from_conftest():
    assert conftest_imports(checked_files()) == []


def test_no_helper_or_fixture_is_defined_twice():
    assert copies(checked_files()) == []


def test_the_searcher_is_reached_by_its_public_name():
    assert searcher_calls() == []


def test_the_helpers_are_what_the_tests_import():
    names = helper_names()
    assert {"board", "boards_upto", "flip", "small_default_mars", "run_cli"} <= names
    assert {"mars_tables", "db7", "played", "middle"} <= fixture_names()


# --- planted copies ----------------------------------------------------------------------

@pytest.fixture
def planted(tmp_path):
    """A tests folder of its own: helpers and conftest copied, plus one clean test."""
    (tmp_path / "helpers.py").write_text((TESTS / "helpers.py").read_text())
    (tmp_path / "conftest.py").write_text((TESTS / "conftest.py").read_text())
    (tmp_path / "core").mkdir()
    (tmp_path / "core" / "test_clean.py").write_text(
        "from helpers import board\n\n\ndef test_x():\n    assert board(p1=1).sum() == 1\n")
    return tmp_path


def _check(root):
    files = checked_files(root)
    return (conftest_imports(files),
            copies(files, root / "helpers.py", root / "conftest.py"))


def test_a_clean_planted_folder_passes(planted):
    assert _check(planted) == ([], [])


@pytest.mark.parametrize("code", ["from conftest import board\n",
                                  "def f():\n    import conftest\n"])
def test_a_planted_conftest_import_is_found(planted, code):
    (planted / "core" / "test_bad.py").write_text(code)
    assert conftest_imports(checked_files(planted)) == [
        ("test_bad.py", 1 if code.startswith("from") else 2)]


@pytest.mark.parametrize("code, name", [
    ("import numpy as np\n\n\ndef board(spec):\n    return np.zeros(24)\n", "board"),
    ("def test_x():\n    def flip(v):\n        return v\n", "flip"),
    ("class Page:\n    pass\n", "Page"),
    ("import pytest\n\n\n@pytest.fixture(scope='module')\ndef db7():\n    return 7\n", "db7"),
])
def test_a_planted_copy_is_found(planted, code, name):
    (planted / "engine").mkdir()
    (planted / "engine" / "test_bad.py").write_text(code)
    assert copies(checked_files(planted), planted / "helpers.py",
                  planted / "conftest.py") == [("test_bad.py", name)]


def test_a_planted_searcher_call_is_found(tmp_path):
    for folder in ("nardy_fast/engine/evaluation", "nardy_fast/engine/play", "tests", "benchmarks"):
        (tmp_path / folder).mkdir(parents=True)
    (tmp_path / "nardy_fast/engine/evaluation/evaluator.py").write_text("s = self._searcher()\n")
    assert searcher_calls(tmp_path) == []                  # its home may
    (tmp_path / "nardy_fast/engine/play/luck.py").write_text("x = 1\ns = ev._searcher()\n")
    (tmp_path / "benchmarks/bench.py").write_text("s = ev._searcher().values(b, 0)\n")
    assert sorted(searcher_calls(tmp_path)) == [("benchmarks/bench.py", 1),
                                                ("nardy_fast/engine/play/luck.py", 2)]
