"""The ``method`` dispatch (``engine.valuation``) gives what each valuer gives when called
directly, number for number, and ``met.with_match`` is the Outcome at a match score by
hand: the outcome kinds' chances times the table's chances at the scores they lead to."""
import math

import numpy as np
import pytest

import nardy_fast as nf
from nardy_fast.core.finish import final_outcome
from nardy_fast.core.matchrules import MatchRules, MatchState
from nardy_fast.core.record import random_game
from nardy_fast.core.result import Outcome
from nardy_fast.engine.evaluation import met
from nardy_fast.engine.evaluation.evaluator import Evaluator
from nardy_fast.engine.play.rollout import rollout, rollout_many
from nardy_fast.engine.decisions.valuation import value_position, value_positions
from nardy_fast.tables.race import race_probabilities

from helpers import cut_rollout_runs

ROLL = dict(n_games=100, seed=5, policy="greedy", workers=1, progress=False)


def same(a, b):
    """Outcomes ``a`` and ``b`` hold the same values (NaN equal to NaN), extras too."""
    da, db = a.to_dict(), b.to_dict()
    assert da.keys() == db.keys()
    for k, v in da.items():
        w = db[k]
        assert v == w or (isinstance(v, float) and math.isnan(v) and math.isnan(w)), k


@pytest.fixture(scope="module")
def contact():
    """Two contact positions of a seeded game, the same side on roll."""
    ps = [p for p in random_game(seed=3, max_turns=16).positions() if not p.is_bearoff()]
    return [ps[-1], ps[-3]]


def bearoff():
    me, you = np.zeros(24, np.uint8), np.zeros(24, np.uint8)
    me[[18, 20]], you[[19, 23]] = 1, 2
    return nf.Position.from_boards(me, you)


def finished():
    me = np.zeros(24, np.uint8)
    me[20] = 2
    return nf.Position.from_boards(me, np.zeros(24, np.uint8))


@pytest.mark.parametrize("plies", [0, 1])
def test_net_is_the_evaluators_batch(contact, plies):
    want = Evaluator.default().outcomes(contact, plies)
    for got, w in zip(value_positions(contact, "net", plies=plies), want):
        same(got, w)


def test_auto_takes_the_database_the_net_or_the_result_in_order(contact):
    rules = nf.Rules()
    got = value_positions([bearoff(), contact[0], finished(), contact[1].id], "auto")
    assert [o.method for o in got] == ["two_sided", "net 0-ply", "final", "net 0-ply"]
    same(got[0], race_probabilities(bearoff(), rules=rules, method="auto"))
    same(got[1], Evaluator.default(rules).outcomes([contact[0]])[0])
    same(got[2], final_outcome(finished(), rules))
    same(got[3], Evaluator.default(rules).outcomes([contact[1]])[0])


@pytest.mark.parametrize("method", ["exact", "two_sided", "one_sided"])
def test_a_database_by_name(method):
    same(value_position(bearoff(), method), race_probabilities(bearoff(), method=method))


def test_a_database_outside_its_races_names_the_position(contact):
    with pytest.raises(ValueError, match=r"positions\[1\] \(" + contact[0].id):
        value_positions([bearoff(), contact[0]], "exact")


def test_one_rollout_is_rollout(contact):
    same(value_position(contact[0], "rollout", **ROLL), rollout(contact[0], **ROLL))


def test_several_rollouts_are_rollout_manys_rows_with_one_seed(contact):
    got = value_positions(contact + [bearoff()], "rollout", **ROLL)
    frame = rollout_many(contact + [bearoff()], **ROLL)
    last = frame.iloc[-1]                   # the bear-off: valued at the start, its table's
    assert (got[-1].method, got[-1].games) == (last["extra_valued_at_start"], 0)
    assert (got[-1].p_win, got[-1].equity) == (last["p_win"], last["equity"])
    for o, (_, row) in zip(got[:-1], frame.iloc[:-1].iterrows()):
        d = o.to_dict()
        assert list(d) == list(row.index)
        for k, v in d.items():
            w = row[k]
            assert v == w or (isinstance(v, float) and math.isnan(v) and math.isnan(w)), k
    for o, p in zip(got, contact):          # each as its own rollout with the same seed
        r = rollout(p, **ROLL)
        assert (o.p_win, o.equity, o.se_equity) == (r.p_win, r.equity, r.se_equity)


def test_arguments_without_effect_say_so(contact):
    with pytest.warns(UserWarning, match="n_games: no effect with method='net'"):
        value_positions(contact, "net", n_games=1000)
    with pytest.warns(UserWarning, match="plies: no effect with method='two_sided'"):
        value_positions([bearoff()], "two_sided", plies=1)


# -- with_match ----------------------------------------------------------------------------
def test_with_match_by_hand_at_2_away_3_away():
    """White needs 2, Black 3, in a 5-point match thrown for every game and no Crawford
    game: each kind of win or loss leads to a score whose chance is a table entry."""
    mr = MatchRules(length=5, starter="opening_roll", crawford=False)
    state = MatchState(mr, (3, 2), "white")
    assert state.away() == (2, 3)
    m = met.match_equity_table(5, rules=mr)
    assert m.loc[2, 2] == pytest.approx(0.5)
    o = Outcome(p_win=0.55, p_mars_win=0.15, p_lose=0.45, p_mars_loss=0.10, equity=0.2,
                method="test", extra={"kept": 1})
    # a win by oin (1 point) leaves 1-away 3-away, by mars (2 points) wins the match; a
    # loss by oin leaves 2-away 2-away, by mars 2-away 1-away
    mwc = 0.40 * m.loc[1, 3] + 0.15 * 1.0 + 0.35 * m.loc[2, 2] + 0.10 * m.loc[2, 1]
    w, lo = m.loc[1, 3], m.loc[2, 2]               # a single game won / lost
    got = met.with_match(o, state)
    assert got.extra["mwc"] == pytest.approx(mwc, abs=1e-12)
    assert got.extra["emg"] == pytest.approx((2 * mwc - (w + lo)) / (w - lo), abs=1e-12)
    assert got.extra["se_mwc"] == 0.0 and got.extra["kept"] == 1
    assert o.extra == {"kept": 1}                  # the input is left as it was
    assert (got.p_win, got.equity, got.method) == (o.p_win, o.equity, o.method)
    # with games, the SE of the kinds' multinomial: sqrt(var / games)
    g = met.with_match(Outcome(0.55, 0.15, 0.45, 0.10, 0.2, "rollout", games=400), state)
    p = np.array([0.40, 0.15, 0.35, 0.10])
    x = np.array([m.loc[1, 3], 1.0, m.loc[2, 2], m.loc[2, 1]])
    assert g.extra["se_mwc"] == pytest.approx(math.sqrt((p @ x**2 - (p @ x)**2) / 400),
                                              abs=1e-12)


def test_the_evaluator_and_rollouts_use_with_match(contact):
    pos = contact[0]
    state = MatchState(5, (2, 3), pos.side)
    ev = Evaluator.default()
    want = met.with_match(ev.evaluate(pos), state).extra
    got = ev.evaluate(pos, match=state).extra
    assert {k: got[k] for k in ("mwc", "se_mwc", "emg")} == {
        k: want[k] for k in ("mwc", "se_mwc", "emg")}
    r = rollout(pos, match=state, **ROLL)
    assert r.extra["mwc"] == met.with_match(rollout(pos, **ROLL), state).extra["mwc"]


def test_with_match_names_a_wrong_argument(contact):
    o = Evaluator.default().evaluate(contact[0])
    with pytest.raises(TypeError, match="outcome: expected an Outcome, got str"):
        met.with_match("0.5", MatchState(5, (2, 3), contact[0].side))
    with pytest.raises(TypeError, match="state: expected a MatchState, got tuple"):
        met.with_match(o, (5, 2, 3))

def test_a_cut_run_of_several_rollouts_gives_no_rows(monkeypatch):
    """Ctrl-C in the one run of several positions' rollouts: KeyboardInterrupt, not
    Outcomes of the games finished (0-game NaN rows for the positions not reached)."""
    runs = cut_rollout_runs(monkeypatch)
    positions = random_game(seed=2, max_turns=8).positions()[2:5]
    with pytest.raises(KeyboardInterrupt, match="^value_positions: stopped at an interrupted rollout"):
        value_positions(positions, "rollout", **ROLL)
    assert runs == [1]


def test_a_cut_rollout_of_one_position_keeps_its_games(monkeypatch):
    """One position is one rollout: as ``rollout``, its finished games, marked."""
    cut_rollout_runs(monkeypatch)
    o = value_position(random_game(seed=2, max_turns=8).positions()[3], "rollout", **ROLL)
    assert o.extra["interrupted"] is True and o.games == 100


def test_a_race_a_rollout_values_at_the_start_is_served_by_its_table():
    """Under ``method="rollout"`` a race of both homes plays no roll (the truncation values
    every game at the start by a table): it was returned as ``method="rollout"`` with
    the games asked for, so reports and studies showed an exact value, or the one-sided
    approximation, as a rollout of n games.  It is now the table's value, as
    ``method="auto"`` gives it, with 0 games; a contact position stays a rollout."""
    from nardy_fast.engine.decisions.valuation import value_positions_paired
    exact, approx = "WAAAAAAAAAAAAAAAAAAAAAAAAARIREhAw", "WAAAAAAAAAAAAAAAAAAAAAAAAIjQxEzMR"
    pv = value_positions_paired([exact, approx, "start"], "rollout", n_games=36, seed=2,
                                workers=1)
    a, b, c = pv.outcomes
    assert (a.method, a.games, a.se_equity) == ("two_sided", 0, 0.0)
    assert (b.method, b.games) == ("one_sided", 0) and math.isnan(b.se_equity)
    assert c.method == "rollout" and c.games == 36 and c.se_equity > 0
    table = value_positions([exact, approx], "auto")
    assert a.equity == pytest.approx(table[0].equity, abs=1e-9)
    assert b.equity == pytest.approx(table[1].equity, abs=1e-9)
    assert pv.se_difference(0, 2) == c.se_equity         # exact against rolled out
    assert math.isnan(pv.se_difference(1, 2))            # the approximation: not measured
