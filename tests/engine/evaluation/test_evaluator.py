"""The evaluation network, its search and the Evaluator; the net as a rollout policy.

Expected values come from independent computations written here: a numpy forward pass
from the encoding documented in ``_net.pyx``, a Python expectimax over ``successors``,
and finite differences of the loss.
"""
import math
import re

import numpy as np
import pytest
from hypothesis import assume, given, settings, strategies as st

import nardy_fast as nf
from helpers import ALL_VARIANTS, game_positions, on_both_kernel_paths
from naive_net import np_encode, np_equity, np_forward, positions_from_games
from nardy_fast.engine.evaluation._net import N_INPUTS, Net  # private on purpose: the C net kernel
from nardy_fast.tables.bearoff import DatabaseError
from nardy_fast.core.result import PROBABILITIES, possibility_gap
from nardy_fast.core.rules import OUTCOMES, Rules
from nardy_fast.engine.evaluation.evaluator import Evaluator


@pytest.fixture(scope="module")
def small_net():
    return Net.random(32, 7)


@pytest.fixture(scope="module")
def boards():
    return positions_from_games()[::9]


# -- the network ----------------------------------------------------------------------------
def test_encoding_matches_the_documented_one(small_net, boards):
    got = small_net.encode(boards)
    assert got.shape == (len(boards), N_INPUTS)
    for k in range(0, len(boards), 5):
        np.testing.assert_allclose(got[k], np_encode(*boards[k]), rtol=0, atol=1e-7)


def test_forward_pass_matches_numpy(small_net, boards):
    got = small_net.outputs(boards)
    want = np.array([np_forward(small_net, *b) for b in boards])
    np.testing.assert_allclose(got, want, rtol=0, atol=2e-6)


def test_incremental_candidates_equal_full_evaluation(small_net, boards):
    for me, opp in boards[::4]:
        for dice in ((6, 6), (5, 2), (1, 1)):
            cands = nf.successors(me, opp, *dice)
            got = small_net.outputs_many(opp, me, cands)
            full = small_net.outputs(np.stack([np.stack([opp, c]) for c in cands]))
            np.testing.assert_allclose(got, full, rtol=0, atol=2e-6)


@pytest.mark.parametrize("n_hidden", [8, 40, 256])
def test_both_paths_of_the_hidden_layer_give_the_same_bits(boards, n_hidden):
    """src/nf_hidden.h: the eight-lane (AVX2) path and the plain loops do the same sums in
    the same order; 8 and 40 units reach the tail of 8, 256 only the tiles of 32."""
    net = Net.random(n_hidden, 11)

    def compute():
        many = [net.outputs_many(opp, me, nf.successors(me, opp, 6, 5))
                for me, opp in boards[::6]]
        return net.outputs(boards), np.concatenate(many)

    generic, avx2 = on_both_kernel_paths(compute)
    for a, b in zip(generic, avx2):
        assert np.array_equal(a, b)
    want = np.array([np_forward(net, *b) for b in boards[::5]])
    np.testing.assert_allclose(avx2[0][::5], want, rtol=0, atol=2e-6)


def test_sgd_step_follows_the_cross_entropy_gradient():
    """One tiny step changes w2[0, j] by -lr * dL/dw2 with dL/dz = out - target."""
    net = Net.random(16, 3)
    me, opp = positions_from_games(1, 9)[20]
    target = np.linspace(0.1, 0.9, 7, dtype=np.float32)[None]
    x = np_encode(me, opp)
    h = np.maximum(0.0, net.b1 + x @ net.w1.astype(np.float64))
    out = np_forward(net, me, opp)
    lr = 1e-3
    before = net.w2.copy()
    net.sgd(np.array([[me, opp]]), target, lr)
    want = before - lr * np.outer(out - target[0], h)
    np.testing.assert_allclose(net.w2, want, rtol=0, atol=1e-6)


def test_bad_weights_are_refused():
    with pytest.raises(ValueError, match="w1"):
        Net(np.zeros((10, 8)), np.zeros(8), np.zeros((7, 8)), np.zeros(7))
    with pytest.raises(ValueError, match="multiple of 8"):
        Net(np.zeros((N_INPUTS, 12)), np.zeros(12), np.zeros((7, 12)), np.zeros(7))
    w1 = np.zeros((N_INPUTS, 8))
    w1[0, 0] = np.nan
    with pytest.raises(ValueError, match="finite"):
        Net(w1, np.zeros(8), np.zeros((7, 8)), np.zeros(7))


# -- files ----------------------------------------------------------------------------------
def test_save_load_round_trip_and_corruption(tmp_path, small_net):
    path = tmp_path / "net.nfdb"
    Evaluator(small_net, meta={"note": "x"}).save(path)
    ev = Evaluator.load(path)
    assert ev.meta["note"] == "x"
    np.testing.assert_array_equal(ev.net.w1, small_net.w1)
    raw = bytearray(path.read_bytes())
    raw[-5] ^= 0xFF
    bad = tmp_path / "bad.nfdb"
    bad.write_bytes(bytes(raw))
    with pytest.raises(DatabaseError, match="bad.nfdb"):
        Evaluator.load(bad)
    bad.write_bytes(bytes(raw[: len(raw) // 2]))
    with pytest.raises(DatabaseError, match="bad.nfdb"):
        Evaluator.load(bad)


def test_default_net_loads_and_has_training_record():
    ev = Evaluator.default()
    assert ev.net.n_hidden % 8 == 0
    t = ev.meta["training"]     # self-play (TD) games or look-ahead rounds done
    if t.get("method") == "rollout labels":     # a net fine-tuned on rollouts: its start's
        assert t["games"] > 0 and sum(t["positions"].values()) > 0
        t = t["init"]
    runs = t["sources"] if t.get("method") == "average" else [t]   # or a mean of runs
    assert len(runs) >= (2 if t.get("method") == "average" else 1)
    for r in runs:              # a finished run, or a round of one (a run's snapshots)
        assert r.get("games_done", 0) > 0 or 0 < r.get("rounds_done", 0) <= r.get("rounds", -1)
    if t.get("method") == "average":   # finished runs, or distinct rounds of one run
        finished = all(r.get("rounds_done") == r.get("rounds") for r in runs)
        one_run = {(r.get("seed"), r.get("init")) for r in runs}
        assert finished or (len(one_run) == 1
                            and len({r["rounds_done"] for r in runs}) == len(runs))


# -- evaluation contracts -------------------------------------------------------------------
def test_evaluate_array_returns_equities_row_by_row(boards):
    ev = Evaluator.default()
    b = np.ascontiguousarray(boards[:12], dtype=np.uint8)
    eq = ev.evaluate(b, plies=0)
    assert isinstance(eq, np.ndarray) and eq.shape == (len(b),)
    for k in range(len(b)):
        v = ev.net.outputs(b[k:k + 1])[0].astype(np.float64)
        v[1] = min(v[1], v[0])
        v[2] = min(v[2], v[1])
        v[3] = min(v[3], v[1] - v[2])
        v[4] = min(v[4], 1 - v[0])
        v[5] = min(v[5], v[4])
        v[6] = min(v[6], v[4] - v[5])
        if not b[k][:, :18].any():
            continue                             # a race: the tables' value
        assert eq[k] == pytest.approx(np_equity(v), abs=1e-5)


def test_equities_refuse_values_of_another_shape():
    """``equities`` read seven values a row whatever the array's width: a (3, 2) array
    gave an equity read from memory past its end.  Another shape than (n, 7) is refused,
    naming ``values``; (n, 7) gives one equity a row."""
    ev = Evaluator.default()
    v = np.full((3, 7), 0.0)
    v[:, 0] = 0.5
    assert ev.equities(v).shape == (3,)
    for bad in (np.full((3, 2), 0.5), np.zeros((1, 10)), np.zeros(7)):
        with pytest.raises(ValueError, match=r"values: expected probabilities of shape"):
            ev.equities(bad)


def test_evaluate_ids_and_positions():
    ev = Evaluator.default()
    p = nf.Position.initial()
    o = ev.evaluate(p)
    assert o.method == "net 0-ply" and o.p_win + o.p_lose == pytest.approx(1.0)
    frame = ev.evaluate_many([p.id, p.swap().id])
    assert list(frame.index) == [p.id, p.swap().id]
    assert frame.loc[p.id, "equity"] == pytest.approx(o.equity)
    with pytest.raises(TypeError, match="list of 2 positions.*evaluate_many"):
        ev.evaluate([p.id, p.swap().id])                   # a frame before 0.3.0
    np.testing.assert_array_equal(ev.evaluate_boards(np.stack([p.boards])),
                                  ev.evaluate(np.stack([p.boards])))


def test_evaluate_names_a_series_of_ids_as_positions_not_boards():
    """A report's ``id`` column (a Series of IDs), an array of IDs or an empty list went
    to ``evaluate_boards`` and came back as "boards: expected integer counts, got dtype
    object": the message of the list of positions points to ``evaluate_many`` now."""
    import pandas as pd
    ev = Evaluator.default()
    p = nf.Position.initial()
    ids = nf.pip_report([p, p.swap()])["id"]
    for x, n in ((ids, 2), (np.array([p.id]), 1), (pd.Series([p, p]), 2), ([], 0)):
        with pytest.raises(TypeError, match=f"of {n} positions.*evaluate_many"):
            ev.evaluate(x)
    assert list(ev.evaluate_many(ids)["equity"]) == [ev.evaluate(i).equity for i in ids]


def _finished(mover_checkers, side="white"):
    """The side on roll has ``mover_checkers`` {index: count}; its opponent is all off."""
    me = np.zeros(24, np.uint8)
    for i, c in mover_checkers.items():
        me[i] = c
    return nf.Position(me, np.zeros(24, np.uint8), side=side)


def test_a_finished_game_evaluates_to_its_result():
    """The winning move's position used to be refused; its value is the game's result.
    By hand (rule book section 6): the loser with 12 off has lost an oin (1 point), with
    none off a mars (2 points; under extended scoring a koks, 3, when a checker is still
    on its head)."""
    ev = Evaluator.default()
    o = ev.evaluate(_finished({20: 3}))
    assert (o.p_win, o.p_lose, o.p_mars_loss, o.equity, o.method) == \
        (0.0, 1.0, 0.0, -1.0, "final")
    o = ev.evaluate(_finished({18: 15}))
    assert (o.p_lose, o.p_mars_loss, o.equity) == (1.0, 1.0, -2.0)
    ext = ev.with_rules(Rules(scoring="extended")).evaluate(_finished({0: 1, 18: 14}))
    assert (ext.p_koks_loss, ext.equity) == (1.0, -3.0)
    frame = ev.evaluate_many([_finished({20: 3}), nf.Position.initial()])
    assert list(frame["method"]) == ["final", "net 0-ply"]


def test_black_s_last_turn_under_draw_rule_is_valued_exactly():
    """White has finished first; Black is on roll with its last turn (draw_rule).  Two
    checkers on Black's point 24: every roll bears both off, a sure draw.  One checker on
    point 13 (12 pips from off, 14 off already): only 3-3, 4-4, 5-5 and 6-6 carry it home
    and off (4/36), otherwise an oin is lost: equity -32/36."""
    ev = Evaluator.default().with_rules(Rules(draw_rule=True))
    o = ev.evaluate(_finished({23: 2}, side="black"))
    assert o.p_draw == pytest.approx(1.0, abs=1e-15) and o.p_lose == 0.0
    o = ev.evaluate(_finished({12: 1}, side="black"))
    assert o.p_draw == pytest.approx(4 / 36, abs=1e-15)
    assert o.equity == pytest.approx(-32 / 36, abs=1e-15)
    assert o.p_mars_loss == 0.0 and o.method == "final (last turn)"
    # White on roll after Black finished: no last turn (Black moved second)
    o = ev.evaluate(_finished({12: 1}, side="white"))
    assert (o.p_draw, o.equity) == (0.0, -1.0)


def test_races_of_both_homes_are_exact_and_switchable():
    ev = Evaluator.default()
    me = np.zeros(24, np.uint8)
    opp = np.zeros(24, np.uint8)
    me[[20, 23]] = [2, 3]
    opp[[19, 22]] = [3, 1]
    pos = nf.Position.from_boards(me, opp)
    exact = nf.race_probabilities(pos)
    o = ev.evaluate(pos)
    assert o.method == exact.method == "two_sided"
    assert o.p_win == pytest.approx(exact.p_win, abs=1e-12)
    assert ev.evaluate(pos, exact=False).method == "net 0-ply"


def test_a_complete_table_built_later_serves_the_search_of_an_earlier_evaluator():
    """An evaluator's search kept the race tables of its first use: a complete two-sided
    table built afterwards in the data folder valued the positions at the root but not
    the search's leaves, until a restart.  The search now takes it up on its next use,
    as an evaluator made after the build does."""
    import shutil
    from nardy_fast.tables import bearoff_complete as bc
    me, opp = np.zeros(24, np.uint8), np.zeros(24, np.uint8)
    me[[19, 21, 23]] = 1
    opp[[18, 20, 22]] = 1
    pos = nf.Position.from_boards(me, opp)
    ev = Evaluator(Evaluator.default().net)
    before = ev.hint(pos, (2, 1), plies=1)["equity"].tolist()
    store = bc.default_store(4)
    bc.build_complete(4, progress=False, threads=1)
    try:
        after = ev.hint(pos, (2, 1), plies=1)["equity"].tolist()
        fresh = Evaluator(Evaluator.default().net).hint(pos, (2, 1), plies=1)
        assert after == fresh["equity"].tolist() != before
    finally:
        shutil.rmtree(store)
        bc._LOADED.clear()


def test_one_ply_is_the_expectimax_of_zero_ply():
    """plies=1: the mean over the 21 rolls of the best 0-ply move's value."""
    ev = Evaluator(Evaluator.default().net, keep=0)
    for me, opp in positions_from_games(2, 11)[30::40][:3]:
        total = 0.0
        for d1 in range(1, 7):
            for d2 in range(d1, 7):
                best = -math.inf
                for c in nf.successors(me, opp, d1, d2):
                    if not c.any():
                        v = 2.0 if opp.sum() == 15 else 1.0     # classic: mars or oin
                    else:
                        v = -ev.evaluate(np.array([[opp, c]]), plies=0)[0]
                    best = max(best, v)
                total += best * (1 if d1 == d2 else 2) / 36
        got = ev.evaluate(np.array([[me, opp]]), plies=1)[0]
        assert got == pytest.approx(total, abs=2e-5)


def test_hint_ranks_every_legal_move():
    ev = Evaluator.default()
    pos = nf.Position.from_id("WlgAAAAEAEQACAQAAAAAAAAAQABAAAhIg")
    moves = pos.legal_moves((6, 3))
    h0 = ev.hint(pos, (6, 3))
    assert len(h0) == len(moves) and set(h0["move"]) == {str(m) for m in moves}
    assert (h0["equity"].diff().dropna() <= 0).all() and h0["diff"].iloc[0] == 0
    for row in h0.itertuples():
        after = nf.Position.from_id(row.position)
        assert row.equity == pytest.approx(-ev.evaluate(after).equity, abs=1e-6)
    h1 = ev.hint(pos, (6, 3), plies=1)
    assert h1["plies"].iloc[0] == 1 and h1["method"].iloc[0] == "net 1-ply"
    assert str(ev.best_move(pos, (6, 3), plies=1)) == h1["move"].iloc[0]


@pytest.mark.parametrize("rules", [None, Rules(scoring="extended")])
def test_a_searched_hint_gives_possible_values(rules):
    """A hint at 1 or 2 plies averaged the rolls in float32 and showed P(win)
    1.0000002, P(koks win) above it and an equity above the largest win (2.000001 points
    with classic scoring) for a sure koks: every row is now a possible distribution, its
    equity the expected points of its probabilities, as ``evaluate`` gives."""
    from nardy_fast.core.result import possibility_gap
    ev = Evaluator.default(rules)
    me, you = np.zeros(24, int), np.zeros(24, int)
    me[23], you[0], you[10] = 3, 14, 1              # a sure koks whatever the roll
    pos = nf.Position(me, you)
    points = tuple(ev.rules.points(kind) for kind in ("oin", "mars", "koks", "home_mars"))
    for plies in (1, 2):
        h = ev.hint(pos, (2, 1), plies=plies)
        assert h["method"].iloc[0] == f"net {plies}-ply"
        for row in h.itertuples():
            z = [row.p_win, 1 - row.p_win, 0.0, row.p_mars_win, row.p_mars_loss,
                 row.p_koks_win, row.p_koks_loss, row.p_home_mars_win,
                 row.p_home_mars_loss, row.equity]
            assert possibility_gap(z, draws=False, points=points) <= 1e-12, row
        assert h["equity"].iloc[0] == pytest.approx(ev.rules.points("koks"), abs=1e-6)
        assert str(ev.best_move(pos, (2, 1), plies=plies)) == h["move"].iloc[0]
    # at a match score too (the moves searched deeper, before their chances are read)
    from nardy_fast.core.matchrules import MatchRules, MatchState
    state = MatchState(MatchRules(length=5, rules=ev.rules), (2, 3), "white")
    h = ev.hint(pos, (2, 1), plies=2, match=state)
    row = h.iloc[0]
    z = [row.p_win, 1 - row.p_win, 0.0, row.p_mars_win, row.p_mars_loss, row.p_koks_win,
         row.p_koks_loss, row.p_home_mars_win, row.p_home_mars_loss, row.equity]
    assert possibility_gap(z, draws=False, points=points) <= 1e-12, row


def test_a_hint_under_draw_rule_values_the_moves_that_end_the_game_exactly():
    """The search is colour-blind: on Black's last turn under ``draw_rule`` the hint
    showed bearing off every checker as a win (+1.0, p_win 1.0, "net 0-ply") where it is
    a draw, the other moves at 1 ply with p_win -2.4e-07; and White's last checker off as
    a sure win where Black's last turn may still draw.  Those moves are now valued as the
    game ends (``final_outcome``), with their draws."""
    from nardy_fast.core._scoring import score_loss
    rules = Rules(draw_rule=True, scoring="extended")
    ev = Evaluator.default(rules)
    black = np.zeros(24, int)
    black[18], black[20] = 2, 1
    last = nf.Position(black, np.zeros(24, int), "black")      # White has borne off
    for plies in (0, 1):
        h = ev.hint(last, (6, 6), plies=plies)                   # every checker off
        assert h.loc[0, ["equity", "p_win", "p_draw"]].tolist() == [0.0, 0.0, 1.0]
        assert h.loc[0, "method"] == "final"
        h = ev.hint(last, (2, 1), plies=plies)                   # no draw: a loss
        for row in h.itertuples():
            move = next(m for m in last.legal_moves((2, 1), rules) if str(m) == row.move)
            kind, points = score_loss(np.array(move.board), rules)
            assert row.equity == -points and row.p_win == 0 and row.p_draw == 0
            assert row.method == "final"
    white = np.zeros(24, int)
    white[22], white[23] = 1, 1
    opp = np.zeros(24, int)
    opp[18], opp[20] = 2, 1
    pos = nf.Position(white, opp, "white")
    h = ev.hint(pos, (6, 5))                                     # White bears off its last
    after = nf.Position.from_id(h.loc[0, "id_after"])
    blacks = ev.evaluate(after)                                  # Black's last turn
    assert 0 < blacks.p_draw < 1
    assert h.loc[0, "equity"] == pytest.approx(-blacks.equity)
    assert h.loc[0, "p_draw"] == pytest.approx(blacks.p_draw)
    assert str(ev.best_move(pos, (6, 5))) == h.loc[0, "move"]
    assert "p_draw" not in Evaluator.default().hint(pos, (6, 5)).columns


def test_a_hint_under_draw_rule_values_the_races_it_leaves_as_evaluate_does():
    """Black to play 5-5 under ``draw_rule`` with none off, against White's last checker:
    White finishes next turn, then Black has its last turn.  Bringing every checker home
    (17/22) lets that turn bear one off, an oin lost; the hint valued that race with the
    colour-blind search (no last turn) as a mars lost, -2.0 under the table's name
    ("one_sided"), tied with the move that leaves a checker out, and ranked that one
    first.  Each row is now minus ``evaluate`` of its ``id_after``, at any depth."""
    rules = Rules(draw_rule=True)
    ev = Evaluator.default(rules)
    me, opp = np.zeros(24, int), np.zeros(24, int)
    for point, n in {9: 1, 12: 1, 20: 1, 21: 1, 22: 3, 23: 1, 24: 7}.items():
        me[point - 1] = n
    opp[22] = 1
    pos = nf.Position(me, opp, "black")
    for plies in (0, 1, 2):
        h = ev.hint(pos, (5, 5), plies=plies)
        for row in h.itertuples():
            after = ev.evaluate(nf.Position.from_id(row.id_after), plies=plies)
            assert row.equity == pytest.approx(-after.equity, abs=1e-9), row
        best = nf.Position.from_id(h.loc[0, "id_after"])
        assert not best.opponent[:18].any()                       # all home
        assert h.loc[0, "p_mars_loss"] == 0.0 and h.loc[0, "equity"] > h.loc[1, "equity"]
        assert str(ev.best_move(pos, (5, 5), plies=plies)) == h.loc[0, "move"]


def test_a_hint_at_a_match_score_under_draw_rule_values_the_end_of_the_game():
    """At a match score under ``draw_rule`` the hint skipped what the money hint does:
    White's last checker off against Black's two on its point 24 (Black's last turn bears
    both off: a draw) showed a sure win (P(win) 1, the match winning chance of a won
    game, method "final"), and Black's last turn was a ValueError ("the game is over")
    from inside the hint.  Both are valued as the game ends now, draws and all."""
    from nardy_fast.engine.evaluation import met
    rules = Rules(draw_rule=True)
    ev = Evaluator.default(rules)
    me, opp = np.zeros(24, int), np.zeros(24, int)
    me[23], opp[23] = 1, 2
    pos = nf.Position(me, opp, "white")
    state = nf.MatchState(nf.MatchRules(3, rules=rules), (0, 0), "white")
    h = ev.hint(pos, (6, 1), match=state)
    money = ev.hint(pos, (6, 1))
    assert h.loc[0, ["p_win", "p_draw", "method"]].tolist() == \
        money.loc[0, ["p_win", "p_draw", "method"]].tolist() == [0.0, 1.0, "final (last turn)"]
    assert h.loc[0, "mwc"] == pytest.approx(met.outcome_values(state)["draw"], abs=1e-12)
    black = np.zeros(24, int)
    black[18], black[23] = 1, 1
    last = nf.Position(black, np.zeros(24, int), "black")       # White has borne off
    state = nf.MatchState(nf.MatchRules(3, rules=rules), (0, 0), "black")
    h = ev.hint(last, (2, 1), match=state)
    money = ev.hint(last, (2, 1))
    assert sorted(h["equity"]) == sorted(money["equity"])
    assert set(h["method"]) == {"final"}
    loss = met.outcome_values(state)["loss_oin"]
    np.testing.assert_allclose(h["mwc"], loss, atol=1e-12)


@pytest.mark.parametrize("bad, err, match", [
    (np.zeros((2, 3, 24), np.uint8), ValueError, "shape"),
    (np.full((1, 2, 24), 1.5), TypeError, "integer"),
    (np.zeros((1, 2, 24), np.uint8), ValueError, "over"),
])
def test_bad_boards_rejected(bad, err, match):
    with pytest.raises(err, match=match):
        Evaluator.default().evaluate(bad)


def test_bad_plies_and_dice_rejected():
    ev = Evaluator.default()
    p = nf.Position.initial()
    with pytest.raises(ValueError, match="plies"):
        ev.evaluate(p, plies=7)
    with pytest.raises(ValueError, match="dice"):
        ev.hint(p, (0, 3))
    for bad in (True, 1.0, "1"):                     # a bool is not a number of plies
        with pytest.raises(TypeError, match="plies"):
            ev.best_move(p, (6, 3), plies=bad)


# -- the net as a rollout policy ---------------------------------------------------------
@pytest.mark.slow
def test_net_rollouts_are_reproducible_across_workers():
    p = nf.Position.from_id("WlgAAAAEAEQACAQAAAAAAAAAQABAAAhIg")
    kw = dict(n_games=1296, seed=5, progress=False)
    r1 = nf.rollout(p, policy=("net", "greedy"), workers=1, **kw)
    r2 = nf.rollout(p, policy=("net", "greedy"), workers=2, chunk_size=1, **kw)
    assert r1.equity == r2.equity and r1.extra["policy"] == "net/greedy"


def test_unknown_policy_rejected():
    with pytest.raises(ValueError, match="policy"):
        nf.rollout(nf.Position.initial(), 10, policy="nett", progress=False)


@pytest.mark.parametrize("side", ["white", "black"])
def test_races_keep_their_draws_under_draw_rule(side):
    """Under ``draw_rule`` a race valued by the tables keeps its draws: ``evaluate`` is
    ``race_probabilities`` (P(draw), P(lose), the equity of a draw as 0), and its match
    winning chance values a draw as a draw (once a draw counted as a loss: an equity of
    -0.68 for -0.27 here)."""
    from nardy_fast.engine.evaluation import met
    from nardy_fast.tables.race import race_probabilities
    rules = nf.Rules(draw_rule=True)
    me, opp = np.zeros(24, np.uint8), np.zeros(24, np.uint8)
    me[[18, 19, 20]] = 1
    opp[[19, 20, 21]] = 1
    pos = nf.Position.from_boards(me, opp, side)
    want = race_probabilities(pos, rules)
    got = Evaluator.default(rules).evaluate(pos)
    assert want.p_draw > 0.3
    for name in ("p_win", "p_draw", "p_lose", "p_mars_loss", "equity"):
        assert getattr(got, name) == pytest.approx(getattr(want, name), abs=1e-12), name
    state = nf.MatchState(nf.MatchRules(3, rules=rules), (1, 1), side)
    mwc = Evaluator.default(rules).evaluate(pos, match=state).extra["mwc"]
    assert mwc == pytest.approx(met.mwc_of_outcome(want, state)[0], abs=1e-12)


def test_evaluate_many_and_outcomes_take_one_position_or_id():
    """evaluate_many(ID) read the ID's characters as positions and evaluate_many(Position)
    failed with "'Position' object is not iterable"; each is now one position
    (``core.position.position_list``), and a non-iterable is named."""
    ev = Evaluator.default()
    start = nf.Position.initial()
    frame = ev.evaluate_many(start.id)
    assert frame.index.tolist() == [start.id]
    assert frame.equals(ev.evaluate_many(start)) and frame.equals(ev.evaluate_many([start]))
    assert ev.outcomes(start)[0] == ev.evaluate(start)
    with pytest.raises(TypeError, match=r"^positions: expected a Position, a position ID"):
        ev.evaluate_many(5)


@pytest.mark.parametrize("bad", ["false", "no", 0])
def test_exact_must_be_true_or_false(bad):
    """exact="false" was taken as True (bool of a text): the race tables answered where
    the caller asked for the net; it is now a TypeError naming exact, as Evaluator(net,
    exact=...) is.  keep is a count >= 0 (2.7 was taken as 2, text failed in int())."""
    ev = Evaluator.default()
    race = nf.race_sample(1, seed=1)[0]
    assert ev.evaluate(race, exact=False).method == "net 0-ply"
    for call in (lambda: ev.evaluate(race, exact=bad), lambda: ev.evaluate_many([race], exact=bad),
                 lambda: Evaluator(ev.net, exact=bad)):
        with pytest.raises(TypeError, match=r"^exact=.*: expected True or False"):
            call()
    for keep, error in ((2.7, TypeError), ("2", TypeError), (-1, ValueError)):
        with pytest.raises(error, match=r"^keep="):
            Evaluator(ev.net, keep=keep)
    assert Evaluator(ev.net, keep=np.int64(0)).keep == 0


@pytest.mark.parametrize("bad, kind", [(None, "NoneType"), (5, "int")])
def test_load_names_a_path_that_is_no_path(bad, kind):
    """It was Python's bare "expected str, bytes or os.PathLike object, not NoneType"."""
    with pytest.raises(TypeError, match=rf"^path: expected a file path \(str or "
                                        rf"os\.PathLike\), got {kind}$"):
        Evaluator.load(bad)


def test_evaluate_names_a_position_that_is_none():
    """evaluate(None) was read as boards ("boards: expected integer counts, got dtype
    object") and a bad ID was named positions[0]; each now names the position."""
    ev = Evaluator.default()
    for bad, kind in ((None, "NoneType"), (5, "int"), ({}, "dict")):
        with pytest.raises(TypeError, match=rf"^position: expected a Position or a "
                                            rf"position ID, got {kind}$"):
            ev.evaluate(bad)
    with pytest.raises(ValueError, match=r"^position: position ID 'x'"):
        ev.evaluate("x")


def test_exact_false_is_the_net_alone_in_a_race_of_both_homes():
    """``exact=False`` in a call is the raw net, as an evaluator made with ``exact=False``
    is: it returned the bear-off tables' values (the searcher's own tables) labelled
    "net 0-ply"."""
    ev = nf.Evaluator.default()
    pos = nf.race_sample(1, seed=1)[0]                 # a race of both homes
    table = nf.race_probabilities(pos)
    raw = ev.evaluate(pos, exact=False)
    net_only = nf.Evaluator(ev.net, rules=ev.rules, exact=False)
    assert raw.method == "net 0-ply" and ev.evaluate(pos).method == table.method
    assert raw.p_win == pytest.approx(float(ev.net.outputs(pos.boards[None])[0, 0]),
                                      abs=1e-6)
    assert raw.p_win == net_only.evaluate(pos).p_win
    assert abs(raw.p_win - table.p_win) > 0.01
    for plies in (1, 2):          # the leaves too: no table anywhere
        assert ev.evaluate(pos, plies=plies, exact=False).p_win == pytest.approx(
            net_only.evaluate(pos, plies=plies).p_win, abs=1e-9)


@pytest.mark.parametrize("rules, said", [({"head_rule": "bogus"}, "head_rule='bogus'"),
                                         (5, "got int"), ({"foo": 1}, "foo")])
def test_load_names_the_file_whose_rules_are_no_rules(tmp_path, small_net, rules, said):
    """A net file whose recorded rules were no rules failed with the rules' own message
    ("head_rule='bogus': expected one of ...", "rules: expected a Rules object ...")
    that named neither the file nor its rules; it is now a ``DatabaseError`` naming
    both, as a file of bad weights is, and a missing array is named by its name."""
    from nardy_fast._utils._dbfile import read_db, write_db
    from nardy_fast.engine.evaluation.nets import KIND
    good = tmp_path / "good.nfdb"
    Evaluator(small_net).save(good)
    meta, arrays = read_db(good, KIND)
    bad = tmp_path / "bad.nfdb"
    write_db(bad, KIND, {**meta, "rules": rules}, arrays)
    with pytest.raises(DatabaseError, match=rf"^{re.escape(str(bad))}: bad rules: .*{said}"):
        Evaluator.load(bad)
    write_db(bad, KIND, meta, {k: v for k, v in arrays.items() if k != "b2"})
    with pytest.raises(DatabaseError, match=rf"^{re.escape(str(bad))}: bad weights: no array 'b2'$"):
        Evaluator.load(bad)


def test_a_searched_hint_at_a_match_score_gives_possible_values():
    """At a match score the hint's searched rows skipped the correction of the money
    hint: in a lost bear-off (White 5 checkers on its points 19-21 against Black's 4 on
    its 23-24) at 1 and 2 plies every move showed P(win) -2.4e-07 (and an equity of
    -1.0000005 points resting on it); each row is now a possible
    distribution, and its match winning chance is that of its values."""
    from nardy_fast.core.result import possibility_gap
    from nardy_fast.engine.evaluation import met
    ev = Evaluator.default()
    pos = nf.Position.from_id("WAAAAAAAAAAAAAAAAAAAAAAAAECAgAAIC")
    state = nf.MatchState(nf.MatchRules(5), (2, 3), pos.side)
    points = tuple(ev.rules.points(kind) for kind in ("oin", "mars", "koks", "home_mars"))
    names = ["p_win", "p_mars_win", "p_koks_win", "p_home_mars_win", "p_mars_loss",
             "p_koks_loss", "p_home_mars_loss"]
    for plies in (1, 2):
        h = ev.hint(pos, (1, 2), plies=plies, match=state)
        assert (h["plies"] == plies).any()
        for row in h.itertuples():
            z = [row.p_win, 1 - row.p_win, 0.0, row.p_mars_win, row.p_mars_loss,
                 row.p_koks_win, row.p_koks_loss, row.p_home_mars_win,
                 row.p_home_mars_loss, row.equity]
            assert possibility_gap(z, draws=False, points=points) <= 1e-12, row
            assert -max(points) <= row.emg <= max(points), row
        values = h[names].to_numpy()
        np.testing.assert_allclose(h["mwc"], met.mwc_of_values(values, state), atol=1e-12)


def test_evaluate_many_gives_p_draw_under_draw_rule():
    """Under ``draw_rule`` White's last checker against Black's on its point 21 is a draw
    but for Black's 1-2: ``evaluate_many`` showed P(win) 0.056 and P(lose) 0 with no
    P(draw), a frame whose probabilities did not sum to 1; it has ``p_draw`` now, as
    ``evaluate``'s Outcome and ``win_report`` have."""
    rules = nf.Rules(draw_rule=True)
    ev = Evaluator.default(rules)
    me, opp = np.zeros(24, np.uint8), np.zeros(24, np.uint8)
    me[22], opp[20] = 1, 1
    pos = nf.Position.from_boards(me, opp, "white")
    o = ev.evaluate(pos)
    row = ev.evaluate_many([pos]).iloc[0]
    assert o.p_draw > 0.9
    assert row["p_draw"] == o.p_draw
    assert row["p_win"] + row["p_lose"] + row["p_draw"] == pytest.approx(1.0, abs=1e-12)
    assert "p_draw" not in Evaluator.default().evaluate_many([pos]).columns


def test_probabilities_names_sides_that_do_not_fit_the_boards():
    """``probabilities(boards, sides=...)`` with one colour for two boards failed with
    Python's "list index out of range" at the race row, a text gave its letters as
    colours ("side='w'"), and a bad colour was named ``side``; each is now named as
    ``sides``."""
    ev = Evaluator.default(nf.Rules(draw_rule=True))
    me, opp = np.zeros(24, np.uint8), np.zeros(24, np.uint8)
    me[22], opp[20] = 1, 1
    boards = np.stack([nf.Position.initial().boards, np.stack([me, opp])])
    with pytest.raises(ValueError, match=r"^sides: 1 colours for 2 boards"):
        ev.probabilities(boards, sides=["white"])
    with pytest.raises(TypeError, match=r"^sides: expected a sequence of colours"):
        ev.probabilities(boards, sides="white")
    with pytest.raises(ValueError, match=r"^sides\[1\]='x': expected 'white' or 'black'"):
        ev.probabilities(boards, sides=["white", "x"])
    vals, methods = ev.probabilities(boards, sides=("black", "white"))
    assert methods[1] == "one_sided" and vals[1, 0] == pytest.approx(1 / 18)


@pytest.mark.parametrize("key, note", [("rules", {}), ("rules", "my own notes"),
                                       ("encoding", "v2")])
def test_save_refuses_meta_that_would_replace_the_file_s_own_entries(tmp_path, small_net,
                                                                    key, note):
    """``meta={"rules": {}}`` took the place of the evaluator's rules in the file: a net
    saved under ``block_rule="home"`` loaded as classic, and ``meta={"encoding": "v2"}``
    wrote a file that would not load; such a meta is now refused by name and nothing is
    written."""
    path = tmp_path / "net.nfdb"
    ev = Evaluator(small_net, rules=Rules(block_rule="home"), meta={key: note, "x": 1})
    with pytest.raises(ValueError, match=rf"^meta: '{key}' is written by save"):
        ev.save(path)
    assert not path.exists()
    Evaluator(small_net, rules=Rules(block_rule="home"), meta={"x": 1}).save(path)
    back = Evaluator.load(path)
    assert back.rules == Rules(block_rule="home") and back.meta == {"x": 1}


def test_a_hints_losses_are_not_negative_among_the_rows_of_one_depth():
    """The docstring's promise: >= 0 among rows valued at one depth (a row left at 0-ply
    below the searched ones is set against a deeper value and may show a small negative
    loss, as here, where the fifth move was -0.0021)."""
    h = Evaluator.default().hint("BAAAAAAAAAAAQAAAQEBAAAAAAAAAAMBRw", (1, 1), plies=1)
    deep = h[h["plies"] == 1]
    assert (deep["equity_loss"] >= 0).all()
    assert list(deep.index) == list(range(len(deep)))          # the searched rows first
    best0 = h["equity"].iloc[0]
    assert (h["equity_loss"] == best0 - h["equity"]).all()      # one identity for all rows


def test_searched_values_keep_the_kinds_the_boards_rule_out_at_zero():
    """A value searched at 1 ply or more that passed 1 by float32 rounding was moved to
    the nearest possible distribution, and the move filled in kinds the boards rule out:
    ``evaluate`` at 1 ply gave P(koks win) 1e-22 against a side with no checker on its
    points 1-6, and a hint's row P(mars loss) 2.4e-07 for the side that had just borne
    off four checkers.  They stay exactly 0."""
    from nardy_fast.core.result import ruled_out
    ev = Evaluator.default()
    for pid in ("BAAAAAAAAAAAAAAAAAAEAAAAAAAAAAAUp", "BAAAAAAAAAAAAAAAAAAAAAQEAAAABAgNH"):
        pos = nf.Position.from_id(pid)
        for plies in (1, 2):
            o = ev.evaluate(pos, plies=plies)
            assert 0.0 <= o.p_win <= 1.0
            for name in ruled_out(pos.mover, pos.opponent):
                assert getattr(o, name) == 0.0, (pid, plies, name)
    pos = nf.Position.from_id("WAAAAAAAAAAAAAAAAAAAAAAAAAAAAAACS")
    for match in (None, nf.MatchState(5, (2, 3), "white")):
        h = ev.hint(pos, (4, 4), plies=1, match=match)
        row = h.iloc[0]
        assert row["move"] == "24/off 24/off 24/off 24/off"
        assert (row["p_win"], row["p_mars_loss"], row["equity"]) == (0.0, 0.0, -1.0)


# -- Ctrl-C in a large batch -----------------------------------------------------------------
class _CtrlCAfterFirstCall:
    """A searcher valuing as ``search`` does, counting the positions it values, that is
    sent Ctrl-C during its first call (the KeyboardInterrupt is raised when it returns)."""

    def __init__(self, search):
        self.search, self.valued = search, 0

    def values(self, boards, plies):
        out = self.search.values(boards, plies)
        self.valued += len(boards)
        raise KeyboardInterrupt

    def equities(self, values):
        return self.search.equities(values)

    def rank(self, me, opp, d1, d2, plies):
        return self.search.rank(me, opp, d1, d2, plies)


@pytest.mark.parametrize("plies", [1, 2])
def test_a_large_batch_gives_the_same_values_whatever_its_blocks(monkeypatch, small_net,
                                                                  boards, plies):
    from nardy_fast.engine.evaluation import evaluator
    monkeypatch.setattr(evaluator, "usable_cores", lambda: 1)
    b = boards[:15] if plies == 2 else boards
    ev = Evaluator(small_net, exact=False)
    positions = [nf.Position.from_boards(*x) for x in b[:9]]
    want, want_frame = ev.probabilities(b, plies)[0], ev.evaluate_many(positions, plies)
    for size in (1, 7):
        monkeypatch.setitem(evaluator.VALUE_BLOCK, plies, size)
        np.testing.assert_array_equal(ev.probabilities(b, plies)[0], want)
        assert ev.evaluate_many(positions, plies).equals(want_frame)


@pytest.mark.parametrize("plies", [1, 2])
def test_ctrl_c_stops_a_large_batch_at_the_end_of_a_block(monkeypatch, small_net, boards,
                                                           plies):
    """The C search holds the interpreter until its call returns: the batch is valued in
    blocks (``VALUE_BLOCK``), so that Ctrl-C stops it after one block, not all of them."""
    from nardy_fast.engine.evaluation import evaluator
    monkeypatch.setattr(evaluator, "usable_cores", lambda: 1)
    monkeypatch.setitem(evaluator.VALUE_BLOCK, plies, 3)
    b = boards[:12]
    ev = Evaluator(small_net, exact=False)
    ev._search = _CtrlCAfterFirstCall(ev.searcher())
    with pytest.raises(KeyboardInterrupt):
        ev.probabilities(b, plies)
    assert ev._search.valued == 3


# a contact position where 6-3 has 20 legal moves
MANY_MOVES = "WrBAAAAAAAAARAAARAAAQAAAAABAAAAEA"


@pytest.mark.parametrize("plies", [1, 2])
def test_a_deep_hint_ranks_as_the_search_whatever_its_blocks(monkeypatch, small_net, plies):
    """The moves a hint searches deeper are valued in blocks (``VALUE_BLOCK``): the same
    results, values, plies and equities in the same order as the search's own ranking,
    for every block size and ``keep``."""
    from nardy_fast.engine.evaluation import evaluator
    monkeypatch.setattr(evaluator, "usable_cores", lambda: 1)
    pos = nf.Position.from_id(MANY_MOVES)
    for keep in (0, 3):
        ev = Evaluator(small_net, exact=False, keep=keep)
        want = ev.searcher().rank(pos.mover, pos.opponent, 6, 3, plies)
        frame = ev.hint(pos, (6, 3), plies=plies)
        assert len(want[0]) == 20 and (frame["plies"] == plies).sum() == (keep or 20)
        for size in (1, 7, 64):
            monkeypatch.setitem(evaluator.VALUE_BLOCK, plies, size)
            got = evaluator._rank_in_blocks(ev.searcher(), pos, 6, 3, plies, keep=keep)
            for w, g in zip(want, got):
                assert w.dtype == g.dtype
                np.testing.assert_array_equal(g, w)
            assert ev.hint(pos, (6, 3), plies=plies).equals(frame)


@pytest.mark.parametrize("match", [None, nf.MatchState(5, (2, 3), "white")])
def test_ctrl_c_stops_a_deep_hint_at_the_end_of_a_block(monkeypatch, small_net, match):
    """A hint searching every move deeper (``keep = 0``) valued them in one C call, which
    holds the interpreter: Ctrl-C waited for the whole ranking (minutes at 3 plies).  The
    moves are valued in blocks (``VALUE_BLOCK``), so Ctrl-C stops it after one block."""
    from nardy_fast.engine.evaluation import evaluator
    monkeypatch.setattr(evaluator, "usable_cores", lambda: 1)
    monkeypatch.setitem(evaluator.VALUE_BLOCK, 1, 3)
    ev = Evaluator(small_net, exact=False, keep=0)
    ev._search = _CtrlCAfterFirstCall(ev.searcher())
    with pytest.raises(KeyboardInterrupt):
        ev.hint(MANY_MOVES, (6, 3), plies=1, match=match)
    assert ev._search.valued == 3


def test_the_net_valuing_a_board_no_game_reaches_warns():
    """Two checkers on point 18 against two home, 13 of each off (the race table's
    example): no game reaches it, and the net's 0-ply value (P(win) about 0.0001 of a race
    that is about even) is an extrapolation.  The evaluator says so, naming the first
    such row; a reachable board and a race the tables value give no warning."""
    import warnings
    me = np.zeros(24, int)
    me[17] = 2
    you = np.zeros(24, int)
    you[18] = you[20] = 1
    ev = Evaluator.default()
    odd = nf.Position(me, you)
    with pytest.warns(UserWarning, match=r"1 of 2 positions .* reached by no game \(the "
                                         r"first: row 1, " + re.escape(odd.id)):
        ev.probabilities(np.stack([nf.Position.initial().boards, odd.boards]))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ev.evaluate(nf.Position.initial())
        home = np.zeros(24, int)
        home[18:20] = 1
        ev.evaluate(nf.Position(home, you))          # a race of both homes: exact


# -- invariants over reachable positions, under every rule variant ---------------------------
# every move-rule variant, and the scorings, the draw rule and the cubes
VARIANTS = ALL_VARIANTS + [
    Rules(scoring="extended"), Rules(draw_rule=True),
    Rules(draw_rule=True, scoring="extended", head_rule="generalized"),
    Rules(scoring="extended", oin_points=0.5, mars_points=2.5, koks_points=5,
          home_mars_points=7),
    Rules(cube="geometric"), Rules(cube="arithmetic", beaver=True, autodouble=True)]
_JUDGES = {}


def judge(rules):
    """The shipped net judging under ``rules`` with no move filter (``keep=0``: a 1-ply
    value is the whole expectimax), the race tables where they cover the race."""
    if rules not in _JUDGES:
        _JUDGES[rules] = Evaluator(Evaluator.default().net, rules=rules, keep=0)
    return _JUDGES[rules]


def win_points(loser, rules):
    """The points of a win over ``loser`` (24 counts) by the rule book, section 7."""
    if loser.sum() < 15:
        return rules.points("oin")
    if loser[:6].any():
        return rules.points("koks")
    return rules.points("home_mars" if loser[18:].sum() == 15 else "mars")


@st.composite
def variant_positions(draw):
    """``(rules, position)``: a rule variant and a live position of a game played under it."""
    rules = draw(st.sampled_from(VARIANTS))
    pos = draw(game_positions(rules))
    assume(not pos.is_over(rules))
    return rules, pos


@settings(max_examples=40, deadline=None)
@given(variant_positions(), st.sampled_from([0, 1]))
def test_every_evaluation_is_a_possible_distribution(rp, plies):
    """At 0 and 1 ply, under every rule variant: each probability in [0, 1] (never NaN or
    -0.0), win + lose (+ draw) = 1, each kind of mars within the win or loss it belongs
    to, draws only under ``draw_rule``, and the equity the points of the probabilities
    (with a cube every win is worth the stake: rule book 7a)."""
    rules, pos = rp
    o = judge(rules).evaluate(pos, plies=plies)
    values = [getattr(o, name) for name in PROBABILITIES] + [o.equity]
    points = tuple(rules.points(kind) for kind in OUTCOMES)
    assert possibility_gap(values, draws=rules.draw_rule, points=points) <= 1e-9, o
    for v in values:
        assert v == v and (v != 0 or math.copysign(1.0, v) > 0), (o, v)   # no NaN, no -0.0
    for name in PROBABILITIES:
        assert 0.0 <= getattr(o, name) <= 1.0, (name, o)
    if not rules.draw_rule:
        assert o.p_draw == 0.0, o
    assert o.extra["plies"] == plies


@settings(max_examples=25, deadline=None)
@given(variant_positions().filter(lambda rp: not rp[0].draw_rule))
def test_one_ply_is_the_expectimax_of_the_flipped_zero_ply_values(rp):
    """Without draws (no last turn for Black): the 1-ply equity is the mean over the 21
    rolls of the best move's value, a move that ends the game scoring its win (rule book
    section 7), any other the negated 0-ply equity of the position it leaves, valued from
    the other side (the one-sided race approximation is no expectimax: not compared); and
    the value does not depend on the colour on roll."""
    rules, pos = rp
    ev = judge(rules)
    me, you = pos.mover, pos.opponent
    other = "black" if pos.side == "white" else "white"
    total = 0.0
    for d1 in range(1, 7):
        for d2 in range(d1, 7):
            best = -math.inf
            for c in nf.successors(me, you, d1, d2, rules):
                if not c.any():
                    v = win_points(you, rules)
                else:
                    v = -ev.evaluate(nf.Position.from_boards(you, c, other)).equity
                best = max(best, v)
            total += best * (1 if d1 == d2 else 2) / 36
    one = ev.evaluate(pos, plies=1)
    if one.method.startswith("net"):
        assert one.equity == pytest.approx(total, abs=3e-5)
    elif one.method == "two_sided":     # a race the table values exactly: its expectimax
        assert one.equity == pytest.approx(total, abs=1e-9)
    twin = nf.Position.from_boards(me, you, other)
    for plies in (0, 1):
        assert ev.evaluate(twin, plies=plies) == ev.evaluate(pos, plies=plies)


@pytest.mark.parametrize("match", [None, nf.MatchState(nf.MatchRules(5, rules=Rules(draw_rule=True)), (1, 2))])
def test_boards_under_draw_rule_count_a_race_s_draws(match):
    """An array of boards gave a level race's draws to the loser: -0.305 where its
    Position gave +0.000 (the seven probabilities have no draw)."""
    ev = Evaluator.default(Rules(draw_rule=True))
    me = [0] * 18 + [2, 2, 2, 3, 3, 2]
    pos = nf.Position.from_boards(me, me)
    contact = nf.Position.initial()
    by_board = ev.evaluate(np.array([pos.boards, contact.boards]), match=match)
    want = [ev.evaluate(p, match=match) for p in (pos, contact)]
    if match is None:
        assert by_board == pytest.approx([o.equity for o in want], abs=1e-6)
        assert abs(by_board[0]) < 1e-9 and want[0].p_draw > 0.2
    else:
        assert by_board == pytest.approx([o.extra["mwc"] for o in want], abs=1e-6)


@pytest.mark.parametrize("name, value", [("exact", "no"), ("exact", False), ("keep", -1),
                                         ("keep", 0), ("rules", Rules(cube="geometric")),
                                         ("net", None), ("rollout_net", None)])
def test_an_evaluator_s_settings_are_fixed_where_it_is_made(small_net, name, value):
    """ev.exact = "no" was taken (a truthy text: the tables stayed on), ev.keep = -1 was
    taken, and any change after the first search was half heard: the search kept what it
    was built with while the rest read the new value.  On Evaluator.default() it changed
    every function's answers in the process.  Setting one is now an AttributeError naming
    it, and the evaluator is unchanged."""
    ev = Evaluator(small_net)
    before = ev.evaluate(nf.Position.initial(), plies=1)
    with pytest.raises(AttributeError, match=rf"^Evaluator\.{name}: fixed where"):
        setattr(ev, name, value)
    assert (ev.exact, ev.keep, ev.rules, ev.net) == (True, 4, Rules(), small_net)
    assert ev.evaluate(nf.Position.initial(), plies=1) == before
    shared = Evaluator.default()
    with pytest.raises(AttributeError):
        shared.exact = False
    assert shared.exact is True
    ev.meta["note"] = "free"          # the notes stay the caller's to write
    assert ev.with_rules(Rules(cube="geometric")).rules.cube == "geometric"


@pytest.mark.parametrize("rules, match_rules", [
    (Rules(draw_rule=True), Rules()), (Rules(), Rules(draw_rule=True)),
    (Rules(block_rule="home"), Rules()),
])
def test_values_at_a_match_of_other_rules_are_refused(rules, match_rules):
    """An evaluator of draw_rule at a match without draws gave its draws to the match's
    table, which scored them as half-point draws; now each match= use names the rules."""
    ev = Evaluator.default(rules)
    state = nf.MatchState(nf.MatchRules(length=3, rules=match_rules), (0, 0))
    words = r"the evaluator's rules are .* \(they differ in (draw_rule|block_rule)\)"
    pos = nf.Position.initial()
    for call in (lambda: ev.evaluate(pos, match=state),
                 lambda: ev.hint(pos, (6, 5), match=state),
                 lambda: ev.best_move(pos, (6, 5), match=state),
                 lambda: ev.evaluate_boards(pos.boards[None], match=state)):
        with pytest.raises(ValueError, match=words):
            call()


@pytest.mark.parametrize("plies", [1, 2])
def test_the_starts_look_ahead_throws_the_opening_dice(plies):
    """Under opening_roll="opening_dice" White's first roll is one of the 15 non-doubles
    (rule book section 8); the start's value at 1 ply averaged the 21 rolls, doubles
    included, as under "rethrow".  Recomputed here from the moves of each roll."""
    rules = Rules(opening_roll="opening_dice")
    ev = Evaluator.default(rules)
    start = nf.Position.initial()
    rolls = [(a, b) for a in range(1, 7) for b in range(a + 1, 7)]
    best = [ev.hint(start, roll, plies=plies - 1).equity[0] for roll in rolls]
    got = ev.evaluate(start, plies=plies)
    assert got.equity == pytest.approx(np.mean(best), abs=2e-5)
    assert ev.evaluate_many([start], plies=plies).equity.iloc[0] == got.equity
    rethrow = Evaluator.default().evaluate(start, plies=plies).equity
    assert abs(got.equity - rethrow) > 1e-3           # the doubles are left out
