"""An argument that has no effect in a call says so (a UserWarning naming it and why):
cube_decision and match_equity_table; their defaults, and the arguments where they act,
stay silent (the reports: tests/analysis/test_report_no_effect.py)."""
import numpy as np
import pytest

import nardy_fast as nf
from nardy_fast import CubeState, MatchRules, MatchState, Rules

from helpers import seeded_contact as _contact, race_of_points as _race
from helpers import silent as _silent, warned as _warned

GEO = Rules(cube="geometric")


def _match():
    return MatchState(MatchRules(length=5, rules=GEO), (1, 2))


def _same(a, b):
    """Two decisions equal, NaN equal to NaN."""
    return a.keys() == b.keys() and all(
        a[k] == b[k] or (isinstance(a[k], float) and np.isnan(a[k]) and np.isnan(b[k]))
        for k in a)


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


def test_cube_decision_efficiency_of_an_exact_decision_warns():
    """An exact decision uses no cube efficiency: ``x`` given with method='exact' changed
    only the model's figures the result carried, which it no longer does."""
    d = _warned(lambda: nf.cube_decision(_race(19, 24), rules=GEO, method="exact", x=0.5),
                ["x"], "with method='exact'")
    assert _same(d, nf.cube_decision(_race(19, 24), rules=GEO, method="exact"))
    _silent(lambda: nf.cube_decision(_contact(), rules=GEO, x=0.5, plies=0))
