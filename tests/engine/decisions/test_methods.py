"""The method objects (engine/decisions/methods.py: ``Auto``, ``Exact``, ``Net``,
``Rollout``): checked where made, naming the bad field; the same values as the method's
name with flat keywords; a flat keyword beside an object is an error, not a warning;
``cube_decision`` and ``value_positions`` take keywords only after their first
arguments."""
import warnings

import numpy as np
import pytest

import nardy_fast as nf
from nardy_fast.engine.decisions.methods import method_object
from nardy_fast.engine.decisions.valuation import value_positions

HERE = nf.Compute(workers=1, progress=False)
FAST = nf.RolloutSettings(72, policy="random", truncate=None)


def _race():
    me = np.zeros(24, int); me[18] = 1
    you = np.zeros(24, int); you[23] = 1
    return nf.Position(me, you)


@pytest.mark.parametrize("make, error, says", [
    (lambda: nf.Net(plies=9), ValueError, r"Net: plies=9"),
    (lambda: nf.Auto(plies="2"), TypeError, r"Auto: plies='2'"),
    (lambda: nf.Exact(table="three_sided"), ValueError, r"Exact: table='three_sided'"),
    (lambda: nf.Rollout(settings=500), TypeError, r"Rollout: settings=500"),
])
def test_each_bad_field_is_refused_by_name(make, error, says):
    with pytest.raises(error, match=says):
        make()


def test_names_build_the_objects():
    assert method_object("net", plies=2) == nf.Net(2)
    assert method_object("two_sided") == nf.Exact("two_sided")
    assert method_object("rollout", n_games=72, policy="random", truncate=None) == \
        nf.Rollout(FAST)
    assert nf.Rollout().settings.n_games == nf.DEFAULT_GAMES
    assert [m.name for m in (nf.Auto(), nf.Exact(), nf.Net(), nf.Rollout())] == \
        ["auto", "exact", "net", "rollout"]


def test_value_positions_objects_give_the_flat_values():
    pos = ["start", nf.race_sample(1, seed=3)[0]]
    flat = value_positions(pos, "rollout", n_games=72, policy="random", truncate=None,
                           seed=3, workers=1, progress=False)
    obj = value_positions(pos, nf.Rollout(FAST), seed=3, compute=HERE)
    assert [o.to_dict() for o in obj] == [o.to_dict() for o in flat]
    assert value_positions(pos, nf.Net(1)) == value_positions(pos, "net", plies=1)
    assert value_positions(pos[1:], nf.Exact("one_sided")) == \
        value_positions(pos[1:], "one_sided")


def test_a_flat_keyword_beside_an_object_is_an_error_not_a_warning():
    with pytest.raises(TypeError, match="value_positions: n_games, plies: not with "
                                        r"method=Net\(plies=1\)"):
        value_positions(["start"], nf.Net(1), n_games=100, plies=2)
    with pytest.raises(TypeError, match="cube_decision: n_games: not with"):
        nf.cube_decision(_race(), method=nf.Rollout(FAST), n_games=100)
    with warnings.catch_warnings():                 # the flat form still only warns
        warnings.simplefilter("error")
        with pytest.raises(UserWarning, match="n_games: no effect"):
            value_positions(["start"], "net", n_games=100)


def test_cube_decision_objects_give_the_flat_decisions():
    rules = nf.Rules(cube="geometric")
    race = _race()
    assert nf.cube_decision(race, rules=rules, method=nf.Exact()) == \
        nf.cube_decision(race, rules=rules, method="exact")
    start = nf.Position.initial()
    assert nf.cube_decision(start, rules=rules, method=nf.Net(plies=0)) == \
        nf.cube_decision(start, rules=rules, method="janowski", plies=0)
    flat = nf.cube_decision(race, rules=rules, method="rollout", n_games=72, seed=2,
                            workers=1, progress=False)
    settings = nf.RolloutSettings(72, cube_probabilities=None)
    obj = nf.cube_decision(race, rules=rules, method=nf.Rollout(settings), seed=2,
                           compute=HERE)
    assert obj == flat and obj["method"] == "rollout"
    with pytest.raises(ValueError, match="leave the settings' cube and cube_state unset"):
        nf.cube_decision(race, rules=rules, seed=2, method=nf.Rollout(
            nf.RolloutSettings(72, cube_state=nf.CENTRED)))
    with pytest.raises(ValueError, match="use Exact"):
        nf.cube_decision(race, rules=rules, method=nf.Exact("two_sided"))


@pytest.mark.parametrize("call", [
    lambda: nf.cube_decision(_race(), nf.CENTRED, None),
    lambda: value_positions(["start"], "auto", 100),
])
def test_arguments_after_the_first_are_keyword_only(call):
    with pytest.raises(TypeError, match="positional"):
        call()
