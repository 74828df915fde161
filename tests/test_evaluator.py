"""The evaluation network, its search, self-play training and matches.

Expected values come from independent computations written here: a numpy forward pass
from the encoding documented in ``_net.pyx``, a Python expectimax over ``successors``,
finite differences of the loss, a Python TD(lambda) recursion, and symmetry (a player
against itself with shared dice scores exactly zero).
"""
import math

import numpy as np
import pytest

import nardy_fast as nf
from nardy_fast import _selfplay
from nardy_fast._dbfile import DatabaseError
from nardy_fast._net import N_INPUTS, OUTPUT_NAMES, Net
from nardy_fast.evaluator import Evaluator
from nardy_fast.match import play_match
from nardy_fast.rng import block_bit_generator
from nardy_fast.rules import CLASSIC, Rules
from nardy_fast.train import train, training_tables


# -- independent reference implementations ------------------------------------------------
def np_encode(me, opp):
    """The input encoding as the _net.pyx docstring states it."""
    x = []
    for b in (me, opp):
        for c in b:
            c = int(c)
            x += [c >= 1, c >= 2, c >= 3, (c - 3) / 4 if c > 3 else 0.0]
    for b in (me, opp):
        b = np.asarray(b, dtype=np.int64)
        x += [(15 - b.sum()) / 15, (b * np.arange(24, 0, -1)).sum() / 360, b[18:].sum() / 15]
    return np.array(x, dtype=np.float64)


def np_forward(net, me, opp):
    x = np_encode(me, opp)
    h = np.maximum(0.0, net.b1 + x @ net.w1.astype(np.float64))
    return 1.0 / (1.0 + np.exp(-(net.b2 + net.w2.astype(np.float64) @ h)))


def np_equity(v, rules=CLASSIC):
    """Equity of the seven outputs under the rules' points (clipped outputs)."""
    w, mw, kw, hw, ml, kl, hl = v
    oin, mars = rules.points("oin"), rules.points("mars")
    koks, hm = rules.points("koks"), rules.points("home_mars")
    return ((w - mw) * oin + (mw - kw - hw) * mars + kw * koks + hw * hm
            - ((1 - w) - ml) * oin - (ml - kl - hl) * mars - kl * koks - hl * hm)


def positions_from_games(n_games=3, seed=5):
    """Positions of a few seeded self-play games of a random net (varied, legal)."""
    net = Net.random(16, seed)
    pos, *_ = _selfplay.play_games(net, np.asarray(nf.Position.initial().boards),
                                   rules=CLASSIC, tables=training_tables(),
                                   bitgens=[block_bit_generator(seed, g)
                                            for g in range(n_games)])
    return pos


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
    assert ev.meta["training"]["games_done"] > 0


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


def test_evaluate_ids_and_positions():
    ev = Evaluator.default()
    p = nf.Position.initial()
    o = ev.evaluate(p)
    assert o.method == "net 0-ply" and o.p_win + o.p_lose == pytest.approx(1.0)
    frame = ev.evaluate([p.id, p.swap().id])
    assert list(frame.index) == [p.id, p.swap().id]
    assert frame.loc[p.id, "equity"] == pytest.approx(o.equity)


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
    moves = pos.legal_moves(6, 3)
    h0 = ev.hint(pos, (6, 3))
    assert len(h0) == len(moves) and set(h0["move"]) == {str(m) for m in moves}
    assert (h0["equity"].diff().dropna() <= 0).all() and h0["diff"].iloc[0] == 0
    for row in h0.itertuples():
        after = nf.Position.from_id(row.position)
        assert row.equity == pytest.approx(-ev.evaluate(after).equity, abs=1e-6)
    h1 = ev.hint(pos, (6, 3), plies=1)
    assert h1["plies"].iloc[0] == 1 and h1["method"].iloc[0] == "net 1-ply"
    assert str(ev.best_move(pos, (6, 3), plies=1)) == h1["move"].iloc[0]


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


# -- self-play and training -----------------------------------------------------------------
def test_lambda_targets_follow_the_recursion():
    rng = np.random.default_rng(1)
    lengths = np.array([4, 1, 3])
    nxt = rng.random((lengths.sum(), 7)).astype(np.float32)
    z = rng.random((3, 7)).astype(np.float32)
    lam = 0.6

    def flip(v):
        return np.array([1 - v[0], v[4], v[5], v[6], v[1], v[2], v[3]])

    want, base = [], 0
    for g, T in enumerate(lengths):
        targets = [None] * T
        G = z[g].astype(np.float64)
        for t in range(T - 1, -1, -1):
            targets[t] = flip(G)
            if t >= 1:
                G = (1 - lam) * nxt[base + t - 1] + lam * targets[t]
        want += targets
        base += T
    got = _selfplay.lambda_targets(nxt, lengths, z, lam)
    np.testing.assert_allclose(got, np.array(want), rtol=0, atol=1e-6)


def test_self_play_games_do_not_depend_on_how_they_are_split():
    net = Net.random(16, 2)
    start = np.asarray(nf.Position.initial().boards)
    kw = dict(rules=CLASSIC, tables=training_tables())
    whole = _selfplay.play_games(net, start, bitgens=[block_bit_generator(4, g)
                                                      for g in range(4)], **kw)
    parts = [_selfplay.play_games(net, start, bitgens=[block_bit_generator(4, g)
                                                       for g in r], **kw)
             for r in ((0, 1), (2, 3))]
    for k in range(4):
        np.testing.assert_array_equal(whole[k], np.concatenate([p[k] for p in parts]))


def test_finished_games_end_with_the_result():
    """White bears off its last checker at once: one ply, and the final value is the
    loser's (on roll) view: lost, by koks (Black has all 15, one on its point 1)."""
    me = np.zeros(24, np.uint8)
    me[23] = 1
    opp = np.zeros(24, np.uint8)
    opp[[0, 12]] = [1, 14]
    pos, nxt, lengths, final = _selfplay.play_games(
        Net.random(16, 2), np.stack([me, opp]), rules=CLASSIC, tables=training_tables(),
        bitgens=[block_bit_generator(8, 0)])
    assert lengths.tolist() == [1]
    np.testing.assert_array_equal(final[0], [0, 0, 0, 0, 1, 1, 0])
    np.testing.assert_array_equal(nxt[0], final[0])


def test_training_is_reproducible_across_threads_and_resumes(tmp_path):
    kw = dict(games=64, seed=3, hidden=16, batch=16, progress=False)
    a = train(tmp_path / "a.nfdb", threads=1, **kw)
    b = train(tmp_path / "b.nfdb", threads=2, **kw)
    np.testing.assert_array_equal(a.net.w1, b.net.w1)
    train(tmp_path / "c.nfdb", threads=1, until=32, **kw)
    assert Evaluator.load(tmp_path / "c.nfdb").meta["training"]["games_done"] == 32
    c = train(tmp_path / "c.nfdb", threads=1, **kw)
    np.testing.assert_array_equal(a.net.w1, c.net.w1)
    assert not np.array_equal(a.net.w1, Net.random(16, 3).w1)     # it learnt something


# -- matches and the net policy -------------------------------------------------------------
def test_shared_dice_cancel_between_equal_players():
    m = play_match("greedy", "greedy", 60, seed=2, workers=1, progress=False)
    np.testing.assert_array_equal(m["points"][:, 0], -m["points"][:, 1])
    assert m["ppg"] == 0.0 and m["win_rate"] == 0.5


def test_net_beats_greedy():
    m = play_match("net", "greedy", 200, seed=4, workers=1, progress=False)
    assert m["games"] == 200
    assert m["win_rate"] > 0.6 and m["ppg"] > 3 * m["se_ppg"]


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


# -- command line and terminal play ---------------------------------------------------------
def test_cli_hint_prints_the_ranking(capsys):
    from nardy_fast.cli import main
    pid = "WlgAAAAEAEQACAQAAAAAAAAAQABAAAhIg"
    assert main(["hint", pid, "63", "--json", "--top", "3"]) == 0
    import json
    rows = json.loads(capsys.readouterr().out)
    want = Evaluator.default().hint(nf.Position.from_id(pid), (6, 3)).head(3)
    assert [r["move"] for r in rows] == list(want["move"])


def test_cli_hint_rejects_bad_dice():
    from nardy_fast.cli import main
    with pytest.raises(SystemExit) as e:
        main(["hint", "start", "73"])
    assert e.value.code == 2


def test_play_in_the_terminal(tmp_path):
    """The human (White) asks for a hint, types a wrong move, then a legal one, quits."""
    out = tmp_path / "game.mat"
    said = []
    answers = iter(["hint", "1/9", "quit"])
    from nardy_fast.play import play_terminal

    def answer(prompt):
        said.append(prompt)
        return next(answers)

    record = play_terminal(side="white", plies=0, seed=3, out=str(out), input_fn=answer,
                           print_fn=said.append)
    assert out.exists() and record.turns == []
    assert any("not a move" in s or "not legal" in s for s in said if isinstance(s, str))
    assert any(s.strip().startswith("1.") for s in said if isinstance(s, str))


def test_engine_plays_a_whole_game_against_itself(tmp_path):
    """The engine on both sides through the terminal loop: a finished, replayable record."""
    from nardy_fast.play import play_terminal
    ev = Evaluator.default()
    seen = []

    def human(prompt):                      # plays the engine's own best move
        pos, dice = seen[-1]
        return str(ev.best_move(pos, dice))

    import nardy_fast.play as play_mod
    orig = play_mod._human_move

    def spy(pos, dice, moves, ev_, input_fn, print_fn):
        seen.append((pos, dice))
        return orig(pos, dice, moves, ev_, input_fn, print_fn)

    play_mod._human_move = spy
    try:
        record = play_terminal(side="black", plies=0, seed=5, out=str(tmp_path / "g.mat"),
                               input_fn=human, print_fn=lambda *a: None)
    finally:
        play_mod._human_move = orig
    assert record.result() is not None
    again = nf.read_record(tmp_path / "g.mat")
    assert again.positions()[-1] == record.positions()[-1]
