"""One vocabulary of ``method`` (README, "The vocabulary"; nardy_fast.core.methods): every
public function and command that takes a method accepts names of ``METHODS`` only, says
which in the same error message, and its command line offers the same names."""
import argparse
import importlib
import inspect
import pkgutil
import re

import numpy as np
import pytest

import nardy_fast as nf
from nardy_fast.analysis import report
from nardy_fast.app.cli import build_parser
from nardy_fast.core.methods import METHODS, check_method
from nardy_fast.engine.decisions import cube, valuation
from nardy_fast.tables import race

study = importlib.import_module("nardy_fast.analysis.study")   # the module (nf.study: the function)


def race_position():
    me, you = np.zeros(24, int), np.zeros(24, int)
    me[18], you[23] = 1, 1              # both home: every table serves it
    return nf.Position(me, you)


# public function -> (its accepted names, a call with method=m)
CALLS = {
    "race_probabilities": (race.METHODS, lambda m, tmp: nf.race_probabilities(
        race_position(), method=m)),
    "cube_decision": (cube.METHODS, lambda m, tmp: nf.cube_decision(
        race_position(), method=m)),
    "cube_report": (cube.METHODS, lambda m, tmp: nf.cube_report(
        [race_position()], method=m)),
    "cube_analysis": (cube.METHODS, lambda m, tmp: nf.cube_analysis(
        nf.GameRecord(rules=nf.Rules(cube="geometric"), start=race_position()), method=m)),
    "evaluate": (report.METHODS, lambda m, tmp: report.evaluate(race_position(), method=m)),
    "evaluate_many": (report.METHODS, lambda m, tmp: report.evaluate_many(
        [race_position()], method=m)),
    "win_report": (report.METHODS, lambda m, tmp: nf.win_report(race_position(), method=m)),
    "move_report": (report.METHODS, lambda m, tmp: nf.move_report(
        race_position(), (6, 5), method=m)),
    "race_report": (report.METHODS, lambda m, tmp: nf.race_report(
        [race_position()], method=m)),
    "analysis_settings": (report.METHODS, lambda m, tmp: report.analysis_settings(
        method=m)),
    "game_report": (report.METHODS, lambda m, tmp: nf.game_report(
        nf.random_game(seed=1, max_turns=4), method=m)),
    "value_position": (valuation.METHODS, lambda m, tmp: valuation.value_position(
        race_position(), method=m)),
    "value_positions": (valuation.METHODS, lambda m, tmp: valuation.value_positions(
        [race_position()], method=m)),
    "value_positions_paired": (valuation.METHODS, lambda m, tmp:
                               valuation.value_positions_paired([race_position()], method=m)),
    "study": (study.METHODS, lambda m, tmp: nf.study(
        [nf.Position.initial()], 0, store=tmp / "s", method=m, progress=False)),
}
# the commands with --method -> the public function whose names they offer
COMMANDS = {"cube": "cube_decision", "report": "win_report", "study": "study"}


def public_functions():
    """Every public function or method of the package that takes ``method``."""
    found = {}
    modules = [nf]
    for layer in ("core", "tables", "engine", "training", "analysis"):
        package = importlib.import_module(f"nardy_fast.{layer}")
        modules += [importlib.import_module(m.name)
                    for m in pkgutil.walk_packages(package.__path__, package.__name__ + ".")
                    if not m.name.rpartition(".")[2].startswith("_")]
    for mod in modules:
        for name in getattr(mod, "__all__", []):
            obj = getattr(mod, name, None)
            members = [(name, obj)]
            if inspect.isclass(obj):
                members = [(a, f) for a, f in vars(obj).items() if not a.startswith("_")]
            for fname, f in members:
                f = getattr(f, "__func__", f)
                try:
                    params = inspect.signature(f).parameters
                except (TypeError, ValueError):
                    continue
                if "method" in params:
                    found[fname] = f
    return found


def test_every_function_taking_method_is_checked_here():
    assert set(public_functions()) - {"check_method"} == set(CALLS)


@pytest.mark.parametrize("name", sorted(CALLS))
def test_accepted_names_are_of_the_vocabulary(name):
    accepted, _ = CALLS[name]
    assert set(accepted) <= set(METHODS), set(accepted) - set(METHODS)
    assert len(set(accepted)) == len(accepted)
    assert accepted[0] == ("rollout" if name == "study" else "auto")
    default = inspect.signature(public_functions()[name]).parameters["method"].default
    assert default == accepted[0]


@pytest.mark.parametrize("name", sorted(CALLS))
def test_an_unknown_method_names_the_accepted_ones(name, tmp_path):
    accepted, call = CALLS[name]
    with pytest.raises(ValueError) as e:
        call("montecarlo", tmp_path)
    m = re.fullmatch(r"method='montecarlo': expected one of (.*)", str(e.value))
    assert m, str(e.value)
    assert tuple(re.findall(r"'(\w+)'", m.group(1))) == tuple(accepted)


def method_choices(command):
    sub = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    action = next(a for a in sub.choices[command]._actions if "--method" in a.option_strings)
    return action.choices, action.default


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_the_command_line_offers_the_functions_names(command):
    choices, default = method_choices(command)
    accepted = CALLS[COMMANDS[command]][0]
    assert list(choices) == list(accepted)        # no old spelling ("evaluate": 0.3.0)
    assert default == accepted[0]


def test_exact_forces_the_exact_race_table():
    pos = race_position()
    exact = nf.race_probabilities(pos, method="exact")
    assert exact == nf.race_probabilities(pos, method="two_sided")
    assert exact.method == "two_sided" and exact.p_win == 0.75     # 27 rolls of 36
    assert nf.race_probabilities(pos, method="one_sided").method == "one_sided"
    far = nf.Position.from_boards([0] * 18 + [15, 0, 0, 0, 0, 0], [0] * 23 + [15])
    with pytest.raises(ValueError, match="method='exact': the sides have 15 and 15"):
        nf.race_probabilities(far, method="exact", tables=nf.bearoff.one_sided())


def test_the_reports_force_a_table_by_its_name():
    pos = race_position()
    for name in ("two_sided", "one_sided"):
        o = report.evaluate(pos, method=name)
        assert o == nf.race_probabilities(pos, method=name)
    assert report.evaluate(pos, method="exact") == nf.race_probabilities(pos)
    assert report.evaluate(nf.Position.initial(), method="net").method == "net 0-ply"


def test_check_method():
    assert check_method("net", ("auto", "net")) == "net"
    with pytest.raises(ValueError, match=r"^method=3: expected one of 'auto', 'net'$"):
        check_method(3, ("auto", "net"))
    with pytest.raises(ValueError, match="method='evaluate'"):
        check_method("evaluate", ("auto", "net"))           # the name before 0.3.0
    with pytest.raises(TypeError):
        check_method("evaluate", ("net",), {"evaluate": "net"})    # no table of old names


def test_every_functions_methods_are_drawn_from_the_vocabulary():
    for accepted in (race.METHODS, valuation.METHODS, valuation.TABLE_METHODS,
                     report.METHODS, cube.METHODS, study.METHODS):
        assert type(accepted) is tuple and accepted
        assert set(accepted) <= set(METHODS), accepted
    assert report.METHODS is valuation.METHODS


def test_the_race_tables_names_are_not_methods():
    """``_racetables`` names the table that served a value (``TABLE_NAMES``: "mars" is a
    table, not a method anyone may ask for); it has no ``METHODS`` any more."""
    racetables = importlib.import_module("nardy_fast.tables._racetables")   # private
    assert racetables.TABLE_NAMES == ("one_sided", "two_sided", "mars")
    assert not hasattr(racetables, "METHODS")
