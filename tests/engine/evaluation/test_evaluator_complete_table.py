"""The evaluator on arrays of bear-offs with the complete two-sided table built: the rows
it covers are looked up at once (``race.complete_rows``), and give the very floats and
methods that valuing each position alone gives (``Evaluator.outcomes``, through
``race_probabilities``)."""
import numpy as np

import nardy_fast as nf
from nardy_fast.engine.evaluation._net import OUTPUT_NAMES
from nardy_fast.engine.evaluation.evaluator import Evaluator
from nardy_fast.tables import race


def _home_boards(rng, n, most):
    """n positions of two home boards of 1..most checkers each (points 19-24)."""
    boards = np.zeros((n, 2, 24), dtype=np.uint8)
    for k in range(n):
        for side in (0, 1):
            for _ in range(int(rng.integers(1, most + 1))):
                boards[k, side, 18 + int(rng.integers(0, 6))] += 1
    return boards


def test_arrays_of_bearoffs_match_the_positions_one_by_one(built4):
    rng = np.random.default_rng(7)
    covered = _home_boards(rng, 60, 4)                 # in the 4-checker table
    beyond = _home_boards(rng, 20, 9)                  # some sides of 5-9: not in it
    contact = np.stack([nf.Position.initial().boards] * 3)
    boards = np.concatenate([covered, beyond, contact])
    ev = Evaluator.default()
    vals, methods = ev.probabilities(boards)
    rows, *_ = race.complete_rows(boards, ev.rules)
    assert set(rows.tolist()) == {k for k in range(len(boards))
                                  if boards[k].sum(axis=1).max() <= 4
                                  and boards[k, :, :18].sum() == 0}
    assert len(rows) >= 60
    one_by_one = ev.outcomes([nf.Position.from_boards(b[0], b[1]) for b in boards])
    for k, o in enumerate(one_by_one):
        assert methods[k] == o.method, k
        assert vals[k].tolist() == [getattr(o, name) for name in OUTPUT_NAMES], k
    assert methods[:60] == ["two_sided"] * 60


def test_no_table_no_rows_and_the_draw_rule_keeps_the_one_by_one_path(built4):
    boards = _home_boards(np.random.default_rng(8), 10, 3)
    assert race.complete_rows(boards, nf.Rules(draw_rule=True))[0].size == 0
    assert race.complete_rows(boards[:0], None)[0].size == 0
    assert race.complete_rows(boards, None)[0].tolist() == list(range(10))


def test_the_rows_values_are_race_outcomes_conversion(monkeypatch):
    """Each looked-up row holds what ``race.race_outcome`` makes of the table's three
    probabilities (a race of both homes: every mars a home mars, no koks; cut to [0, 1]),
    with values where mars is possible (the 4-checker table of the other tests has none)."""
    from nardy_fast.engine.evaluation import evaluator as ev_module
    boards = _home_boards(np.random.default_rng(9), 4, 3)
    w = np.array([0.6, 0.25, 1.0 + 2e-16, 0.5])
    mw, ml = np.array([0.2, 0.05, 0.3, 0.0]), np.array([0.1, 0.15, 0.0, 0.25])
    monkeypatch.setattr(ev_module, "complete_rows",
                        lambda b, rules: (np.arange(len(b)), w, mw, ml))
    ev = Evaluator.default()
    vals, methods = ev.probabilities(boards)
    assert methods == ["two_sided"] * 4
    for k in range(4):
        o = race.race_outcome(ev.rules, w[k], mw[k], ml[k], 0.0, "two_sided", {})
        assert vals[k].tolist() == [getattr(o, name) for name in OUTPUT_NAMES], k


def test_a_cube_games_arrays_take_the_classic_table_where_no_mars_is_possible(built4):
    """Under cube rules (every win 1) the table built for classic points values the races
    where both sides have borne off a checker, as under classic rules (the same play: no
    mars is possible); they had been searched and valued one by one instead."""
    boards = _home_boards(np.random.default_rng(10), 12, 4)
    cube = Evaluator.default(nf.Rules(cube="geometric"))
    vals, methods = cube.probabilities(boards)
    assert race.complete_rows(boards, cube.rules)[0].tolist() == list(range(12))
    assert methods == ["two_sided"] * 12
    assert np.array_equal(vals, Evaluator.default().probabilities(boards)[0])
