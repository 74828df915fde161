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


@pytest.mark.parametrize("call, names", [
    (lambda: report.evaluate(nf.Position.initial(), method="rollout", n_games=36, seed=1,
                             workers=1, policy="greedy", plies=1), "plies"),
    (lambda: report.win_report([_positions()[1]], method="rollout", n_games=36, seed=1,
                               workers=1, policy="greedy", plies=2), "plies"),
    (lambda: report.game_report(nf.random_game(seed=1, max_turns=3), method="rollout",
                                n_games=36, workers=1, policy="greedy", plies=1), "plies"),
])
def test_plies_under_rollouts_warn(call, names):
    with pytest.warns(UserWarning, match=f"^{names}: no effect with method='rollout'") as rec:
        call()
    assert len([w for w in rec if "no effect" in str(w.message)]) == 1   # said once
    assert rec[0].filename == __file__


def test_plies_of_a_database_warn():
    me = [0] * 23 + [2]
    race = nf.Position.from_boards(me, me)
    with pytest.warns(UserWarning, match="^plies: no effect with method='exact'"):
        report.evaluate(race, method="exact", plies=1)
    with warnings.catch_warnings():
        warnings.simplefilter("error", UserWarning)
        report.evaluate(race, plies=1)                  # auto: the net where no table is


def test_game_report_with_the_cube_names_n_games():
    rec = nf.GameRecord(rules=nf.Rules(cube="geometric"),
                        start=nf.Position.from_boards([0] * 18 + [1] + [0] * 5,
                                                      [0] * 23 + [1]))
    rec.append((6, 5), ((19, "off"),))
    with pytest.warns(UserWarning, match="^n_games: no effect with method="):
        report.game_report(rec, cube=True, n_games=100)


def _study_ids():
    return [p.id for p in _positions()[1:3]]


@pytest.mark.parametrize("kw, names", [
    (dict(seed=5), "seed"), (dict(policy="greedy"), "policy"),
    (dict(truncate=None), "truncate"), (dict(variance_reduction=False), "variance_reduction"),
    (dict(seed=5, policy="greedy"), "seed, policy")])
def test_study_rollout_arguments_under_net_warn(tmp_path, kw, names):
    pytest.importorskip("pyarrow")
    with pytest.warns(UserWarning, match=f"^{names}: no effect with method='net'") as rec:
        nf.study(_study_ids(), 0, store=tmp_path / "s", method="net", workers=1,
                 progress=False, **kw)
    assert rec[0].filename == __file__


def test_study_plies_under_rollout_warn_and_defaults_are_silent(tmp_path):
    pytest.importorskip("pyarrow")
    with pytest.warns(UserWarning, match="^plies: no effect with method='rollout'"):
        nf.study(_study_ids(), 36, store=tmp_path / "r", policy="greedy", plies=1,
                 workers=1, progress=False)
    with warnings.catch_warnings():
        warnings.simplefilter("error", UserWarning)
        nf.study(_study_ids(), 36, store=tmp_path / "r2", seed=3, policy="greedy",
                 truncate=None, workers=1, progress=False)
        nf.study(_study_ids(), 0, store=tmp_path / "n", method="net", plies=1, workers=1,
                 progress=False)
