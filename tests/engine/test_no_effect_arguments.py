"""An argument that has no effect in a call says so (a UserWarning naming it and why):
cube_decision, cube_report, cube_analysis and match_equity_table; their defaults, and the
arguments where they act, stay silent."""
import warnings

import numpy as np
import pytest

import nardy_fast as nf
from nardy_fast import CubeState, MatchRules, MatchState, Position, Rules
from nardy_fast.core.record import GameRecord

GEO = Rules(cube="geometric")


def _race(me_point, you_point):
    me, you = np.zeros(24, int), np.zeros(24, int)
    me[me_point - 1], you[you_point - 1] = 1, 1
    return Position(me, you)


def _contact():
    return nf.random_game(seed=3, max_turns=12).positions()[10]


def _match():
    return MatchState(MatchRules(length=5, rules=GEO), (1, 2))


def _warned(call, names, why):
    """Runs ``call``; returns its result after checking one UserWarning names every one
    of ``names`` (and only them) with ``why``, pointing at this file."""
    with pytest.warns(UserWarning, match="no effect") as rec:
        out = call()
    ours = [w for w in rec if "no effect" in str(w.message)]
    assert len(ours) == 1, [str(w.message) for w in ours]
    text = str(ours[0].message)
    assert text.split(":")[0].split(", ") == names, text
    assert why in text, text
    assert ours[0].filename == __file__         # the warning names the caller's line
    return out


def _same(a, b):
    """Two decisions equal, NaN equal to NaN."""
    return a.keys() == b.keys() and all(
        a[k] == b[k] or (isinstance(a[k], float) and np.isnan(a[k]) and np.isnan(b[k]))
        for k in a)


def _silent(call):
    with warnings.catch_warnings():
        warnings.simplefilter("error", UserWarning)
        return call()


@pytest.mark.parametrize("kw, names", [
    (dict(n_games=300), ["n_games"]), (dict(seed=1), ["seed"]),
    (dict(workers=2), ["workers"]), (dict(progress=True), ["progress"]),
    (dict(n_games=300, seed=1, workers=1), ["n_games", "seed", "workers"])])
@pytest.mark.parametrize("method", ["auto", "janowski"])
def test_cube_decision_rollout_arguments_without_rollouts_warn(kw, names, method):
    d = _warned(lambda: nf.cube_decision(_contact(), rules=GEO, method=method, **kw),
                names, f"with method={method!r}")
    assert _same(d, nf.cube_decision(_contact(), rules=GEO, method=method))  # no effect


def test_cube_decision_tables_without_a_table_read_warn():
    _warned(lambda: nf.cube_decision(_race(19, 24), rules=GEO, method="janowski",
                                     tables=False), ["tables"], "no cubeful race table")


def test_cube_decision_at_a_match_score_names_what_the_table_ignores():
    pos = _contact()
    d = _warned(lambda: nf.cube_decision(pos, rules=GEO, method="rollout", n_games=100,
                                         seed=2, match=_match()),
                ["rules", "method", "n_games", "seed"], "with match=")
    assert _same(d, nf.cube_decision(pos, match=_match()))


def test_cube_decision_defaults_and_acting_arguments_are_silent():
    pos = _contact()
    _silent(lambda: nf.cube_decision(pos, rules=GEO))
    _silent(lambda: nf.cube_decision(pos, match=_match(), x=0.6))
    _silent(lambda: nf.cube_decision(_race(19, 24), rules=GEO, tables=False))
    _silent(lambda: nf.cube_decision(_race(19, 24), rules=GEO, method="rollout",
                                     n_games=36, seed=1, workers=1))


def test_cube_report_and_cube_analysis():
    positions = [_contact(), _race(19, 24)]
    _warned(lambda: nf.cube_report(positions, rules=GEO, n_games=100, workers=1),
            ["n_games", "workers"], "with method='auto'")
    _silent(lambda: nf.cube_report(positions, rules=GEO, seed=4))   # recorded in attrs
    _silent(lambda: nf.cube_report(positions[1:], rules=GEO, method="rollout", n_games=36,
                                   seed=4, workers=1))
    rec = GameRecord(rules=GEO, start=_race(19, 24))
    rec.append((6, 5), ((19, "off"),))
    _warned(lambda: nf.cube_analysis(rec, n_games=100, seed=1), ["n_games", "seed"],
            "only method='rollout' plays games")
    _silent(lambda: nf.cube_analysis(rec))
    _silent(lambda: nf.game_report(rec, cube=True))


def test_match_equity_table_efficiency_without_the_cube_warns():
    m = _warned(lambda: nf.match_equity_table(3, x=0.5), ["x"], "with cube=False")
    assert m.equals(nf.match_equity_table(3))
    _silent(lambda: nf.match_equity_table(3, cube=True, x=0.5))
    _silent(lambda: nf.match_equity_table(3))


def test_cube_decision_probabilities_of_an_exact_decision_warn():
    d = _warned(lambda: nf.cube_decision(_race(19, 24), rules=GEO, method="exact",
                                         cube_probabilities="pips"),
                ["cube_probabilities"], "with method='exact'")
    assert d["method"] == "exact"
    _silent(lambda: nf.cube_decision(_contact(), rules=GEO, cube_probabilities="pips"))


def test_game_report_cube_probabilities_without_the_cube_warn():
    rec = GameRecord(rules=GEO, start=_race(19, 24))
    rec.append((6, 5), ((19, "off"),))
    _warned(lambda: nf.game_report(rec, cube_probabilities="pips"), ["cube_probabilities"],
            "with cube=False")
    _silent(lambda: nf.game_report(rec, cube=True, cube_probabilities="pips"))
