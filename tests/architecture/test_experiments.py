"""The experiments (``experiments/exp_*.py``) use public names only (experiments/README.md):
the names of ``nardy_fast`` and those in the ``__all__`` of a module with no private part
in its path; never a private module or a private name."""
import ast
import importlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPTS = sorted((ROOT / "experiments").glob("exp_*.py"))


def private_uses(text):
    """``(line, what)`` for each import of ``text`` that reaches past the public names."""
    out = []
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.Import):
            out += [(node.lineno, a.name) for a in node.names
                    if a.name.startswith("nardy_fast.")
                    and any(part.startswith("_") for part in a.name.split("."))]
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("nardy_fast"):
            if any(part.startswith("_") for part in node.module.split(".")):
                out.append((node.lineno, node.module))
                continue
            module = importlib.import_module(node.module)
            public = set(getattr(module, "__all__", ())) | (
                set(dir(module)) - {n for n in dir(module) if n.startswith("_")}
                if node.module == "nardy_fast" else set())
            out += [(node.lineno, f"{node.module}.{a.name}") for a in node.names
                    if a.name not in public]
    return out


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.name)
def test_an_experiment_uses_public_names_only(script):
    assert private_uses(script.read_text(encoding="utf-8")) == []


def test_the_check_sees_a_private_module_and_a_private_name():
    text = ("from nardy_fast.engine.evaluation import _search\n"
            "from nardy_fast.training.lucknet import _centred, luck_data\n"
            "from nardy_fast.training.train import training_tables\n"
            "import nardy_fast.training._selfplay\n"
            "from nardy_fast import Evaluator\n")
    assert private_uses(text) == [(1, "nardy_fast.engine.evaluation._search"),
                                  (2, "nardy_fast.training.lucknet._centred"),
                                  (3, "nardy_fast.training.train.training_tables"),
                                  (4, "nardy_fast.training._selfplay")]
