"""An argument that has no effect in a call says so: rollout arguments under a method that
plays no games warn, naming them; notebook 01 passes none."""
import ast
import json
import pathlib
import warnings

import pytest

import nardy_fast as nf
from nardy_fast.analysis import report

ROOT = pathlib.Path(__file__).resolve().parents[2]


def _positions():
    return nf.random_game(seed=1, max_turns=30).positions()[::10]


@pytest.mark.parametrize("call", [
    lambda: report.win_report(_positions(), n_games=300, seed=1),
    lambda: report.win_report(_positions(), method="net", policy="greedy"),
    lambda: report.move_report(_positions()[1], (6, 3), n_games=300),
    lambda: report.evaluate(nf.Position.initial(), truncate=None),
    lambda: report.game_report(nf.random_game(seed=1, max_turns=6), n_games=100),
])
def test_rollout_arguments_without_rollouts_warn(call):
    with pytest.warns(UserWarning, match="no effect with method=") as rec:
        call()
    assert rec[0].filename == __file__          # the warning names the caller's line


def test_no_warning_when_the_arguments_act_or_are_left_alone():
    with warnings.catch_warnings():
        warnings.simplefilter("error", UserWarning)
        report.win_report(_positions()[:2], method="rollout", n_games=36, workers=1,
                          policy="greedy")
        report.win_report(_positions(), seed=3)
        report.move_report(_positions()[1], (6, 3))
        report.game_report(nf.random_game(seed=1, max_turns=6), analyse=True)


def test_quick_start_notebook_passes_no_argument_that_does_nothing():
    nb = json.loads((ROOT / "notebooks" / "01_quick_start.ipynb").read_text())
    calls = 0
    for cell in nb["cells"]:
        if cell["cell_type"] != "code":
            continue
        for node in ast.walk(ast.parse("".join(cell["source"]))):
            if isinstance(node, ast.Call):
                kw = {k.arg: k.value for k in node.keywords}
                if "n_games" in kw:
                    calls += 1
                    method = kw.get("method")
                    assert isinstance(method, ast.Constant) and method.value == "rollout", \
                        ast.unparse(node)
    assert calls >= 2
