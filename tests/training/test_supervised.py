"""Look-ahead targets (training/labels.py) and supervised training (training/supervised.py)."""
import warnings
import dataclasses

import numpy as np
import pytest

from nardy_fast.core.rules import CLASSIC
from nardy_fast.engine.evaluation._net import Net
from nardy_fast.engine.evaluation.evaluator import Evaluator
from nardy_fast.core.rng import child_seed
from nardy_fast.training import _selfplay
from nardy_fast.training.labels import (board_keys, lookahead_targets, selfplay_games,
                                      selfplay_positions)
from nardy_fast.training.supervised import (average_nets, fit, kind_repeats, loss_grads, widen,
                                         snapshot_name, train_supervised)

from naive import naive_successors
from naive_net import np_equity, np_forward, positions_from_games
from helpers import flip, ctrl_c_at_call


def np_clip(v, me, opp):
    """mars <= win, koks <= mars, koks + home mars <= mars (each side), then the kinds the
    boards of ``me`` (on roll) and ``opp`` rule out set to 0, as _net.pxd says."""
    v = np.array(v, dtype=np.float64)
    for base, top in ((1, v[0]), (4, 1.0 - v[0])):
        v[base] = min(v[base], top)
        v[base + 1] = min(v[base + 1], v[base])
        if v[base + 1] + v[base + 2] > v[base]:
            v[base + 2] = v[base] - v[base + 1]
    for base, loser in ((1, np.asarray(opp)), (4, np.asarray(me))):
        if loser.sum() < 15:
            v[base:base + 3] = 0
        elif not loser[:6].any():
            v[base + 1] = 0
    return v


def expectimax_1ply(net, me, opp):
    """The value of (me on roll, opp) at 1 ply, from the rule book's move generator and a
    numpy forward pass: each roll's best move by me's 0-ply equity, averaged over the 36
    rolls.  For positions where no move ends the game or makes a race of both homes."""
    total = np.zeros(7)
    for d1 in range(1, 7):
        for d2 in range(1, 7):
            best, best_eq = None, -np.inf
            for c in naive_successors(me, opp, d1, d2):
                assert sum(c) == 15 and sum(c[:18]) > 0       # no win, no race: see docstring
                v = flip(np_clip(np_forward(net, opp, c), opp, c))
                e = np_equity(v, CLASSIC)
                if e > best_eq:
                    best, best_eq = v, e
            total += best / 36.0
    return total


def _contact_positions(n):
    """Positions of seeded self-play games in which no move can finish contact."""
    pos = positions_from_games(4, seed=11)
    ok = [b for b in pos if b[0, :18].sum() >= 5 and b[1, :18].sum() >= 5]
    return np.stack(ok[10::len(ok) // n][:n])


def test_lookahead_targets_match_a_python_expectimax():
    net = Net.random(16, 3)
    boards = _contact_positions(4)
    got = lookahead_targets(net, boards, plies=1)
    for b, g in zip(boards, got):
        np.testing.assert_allclose(g, expectimax_1ply(net, b[0], b[1]), atol=2e-5)


def expectimax_2ply_first_choice(net, me, opp):
    """The value of (me on roll, opp) at 2 plies with ``keep = 1``: each roll's best move
    by me's 0-ply equity (as ``expectimax_1ply`` chooses it), valued by the other side's
    1-ply expectimax and flipped, averaged over the 36 rolls."""
    total = np.zeros(7)
    for d1 in range(1, 7):
        for d2 in range(1, 7):
            best, best_eq = None, -np.inf
            for c in naive_successors(me, opp, d1, d2):
                e = np_equity(flip(np_clip(np_forward(net, opp, c), opp, c)), CLASSIC)
                if e > best_eq:
                    best, best_eq = c, e
            total += flip(expectimax_1ply(net, opp, np.asarray(best, np.uint8))) / 36.0
    return total


def test_two_ply_targets_of_the_first_choice_match_a_python_expectimax():
    net = Net.random(16, 5)
    b = _contact_positions(4)[1]
    got = lookahead_targets(net, b[None], plies=2, keep=1, threads=1)[0]
    np.testing.assert_allclose(got, expectimax_2ply_first_choice(net, b[0], b[1]), atol=5e-5)
    # keep = 1 is a filter of the full 2-ply search, not the same values
    assert not np.allclose(lookahead_targets(net, b[None], plies=2, keep=0, threads=1)[0],
                           got, atol=1e-6)


def test_lookahead_targets_check_their_input():
    net = Net.random(8, 1)
    for plies in (0, 3):
        with pytest.raises(ValueError, match="plies"):
            lookahead_targets(net, np.zeros((1, 2, 24), np.uint8), plies=plies)
    with pytest.raises(ValueError, match="boards"):
        lookahead_targets(net, np.zeros((2, 24), np.uint8))
    with pytest.raises(ValueError, match="keep"):
        lookahead_targets(net, np.zeros((1, 2, 24), np.uint8), plies=2, keep=-1)


def test_selfplay_positions_depend_on_game_numbers_only():
    net = Net.random(8, 2)
    both = selfplay_positions(net, 2, seed=7)
    first = selfplay_positions(net, 1, seed=7)
    second = selfplay_positions(net, 1, seed=7, first=1)
    np.testing.assert_array_equal(both, np.concatenate([first, second]))


@pytest.mark.parametrize("equity", [None, (0.7, np.array([2.0, 1, 0.5, 0, -1, -0.5, 0]))])
def test_loss_grads_match_finite_differences(equity):
    rng = np.random.default_rng(0)
    p = {"w1": rng.normal(0, 0.3, (198, 8)), "b1": rng.normal(0, 0.1, 8),
         "w2": rng.normal(0, 0.3, (7, 8)), "b2": rng.normal(0, 0.1, 7)}
    x = (rng.random((5, 198)) < 0.3).astype(np.float64)
    t = rng.random((5, 7))
    loss, grads = loss_grads(p, x, t, equity)
    if equity is not None:            # the added term, by its definition
        o = np_sigmoid(np.maximum(x @ p["w1"] + p["b1"], 0) @ p["w2"].T + p["b2"])
        plain = loss_grads(p, x, t)[0]
        assert loss - plain == pytest.approx(0.7 * (((o - t) @ equity[1]) ** 2).sum())
    for k, (i, *j) in (("w1", (3, 2)), ("w1", (10, 7)), ("b1", (4,)), ("w2", (6, 1)),
                       ("b2", (2,))):
        idx = (i, *j)
        h = 1e-6
        q = {a: b.copy() for a, b in p.items()}
        q[k][idx] += h
        up = loss_grads(q, x, t, equity)[0]
        q[k][idx] -= 2 * h
        down = loss_grads(q, x, t, equity)[0]
        assert grads[k][idx] == pytest.approx((up - down) / (2 * h) / len(x), rel=1e-4,
                                              abs=1e-8)


def np_sigmoid(z):
    return 1.0 / (1.0 + np.exp(-z))


def test_fit_lowers_the_loss_on_its_data():
    net = Net.random(16, 4)
    boards = positions_from_games(2, seed=4)
    targets = lookahead_targets(net, boards)
    x = net.encode(boards)
    before = loss_grads(net.arrays(), x, targets)[0] / len(x)
    trained, _ = fit(net, x, targets, 3, 64, 1e-3, np.random.default_rng(0))
    assert loss_grads(trained.arrays(), x, targets)[0] / len(x) < before


def testwiden_keeps_the_outputs():
    net = Net.random(16, 5)
    wide = widen(net, 32, seed=1)
    boards = positions_from_games(1, seed=6)[:20]
    assert wide.n_hidden == 32
    np.testing.assert_allclose(wide.outputs(boards), net.outputs(boards), atol=1e-6)
    with pytest.raises(ValueError, match="hidden"):
        widen(net, 12, seed=1)
    with pytest.raises(ValueError, match="start net.s 16"):      # wider, but not by 8s
        widen(net, net.n_hidden + 4, seed=1)


@pytest.mark.parametrize("hidden", [2048, 10 ** 12])
def test_widen_refuses_more_units_than_a_net_holds_by_name(hidden):
    """Past the most units of a layer, ``widen`` says so, as ``deepen`` does: 2048 was
    refused by the Net as a shape of ``w1`` (``train-net --hidden 2048``), 10**12 was a
    MemoryError asking for 466 TiB, neither naming the width."""
    with pytest.raises(ValueError, match=f"^hidden = {hidden}: expected a multiple of 8 up to"):
        widen(Net.random(16, 5), hidden, seed=1)


def test_resume_gives_the_uninterrupted_weights(tmp_path):
    start = Evaluator(Net.random(16, 9))
    kw = dict(seed=3, init=start, rounds=2, games=3, epochs=1, progress=False)
    whole = train_supervised(tmp_path / "a.nfdb", **kw)
    train_supervised(tmp_path / "b.nfdb", until=1, **kw)
    assert Evaluator.load(tmp_path / "b.nfdb").meta["training"]["rounds_done"] == 1
    resumed = train_supervised(tmp_path / "b.nfdb", **kw)
    for k, a in whole.net.arrays().items():
        np.testing.assert_array_equal(resumed.net.arrays()[k], a)
    assert not np.array_equal(whole.net.w1, start.net.w1)
    one = train_supervised(tmp_path / "c.nfdb", **{**kw, "rounds": 1})
    extended = train_supervised(tmp_path / "c.nfdb", **kw)        # 1 round -> 2 rounds
    np.testing.assert_array_equal(extended.net.w1, whole.net.w1)
    assert not np.array_equal(one.net.w1, whole.net.w1)


def test_a_checkpoint_past_the_rounds_asked_for_is_refused(tmp_path):
    # its net is two rounds on: returned as "1 round" it would be a silent wrong answer
    start = Evaluator(Net.random(16, 9))
    kw = dict(seed=3, init=start, games=3, epochs=1, progress=False)
    train_supervised(tmp_path / "a.nfdb", rounds=2, **kw)
    with pytest.raises(ValueError, match=r"a.nfdb: holds 2 rounds of this run, more than "
                                         r"the 1 asked for"):
        train_supervised(tmp_path / "a.nfdb", rounds=1, **kw)
    assert Evaluator.load(tmp_path / "a.nfdb").meta["training"]["rounds_done"] == 2
    again = train_supervised(tmp_path / "a.nfdb", rounds=2, **kw)     # as many: kept
    assert again.meta["training"]["rounds_done"] == 2


def test_a_run_of_other_settings_at_the_path_is_refused_not_replaced(tmp_path):
    """A checkpoint of another run (here another seed) is named with the settings that
    differ and left as it was; replace=True starts this run over it, as on a new file."""
    start = Evaluator(Net.random(16, 9))
    kw = dict(init=start, rounds=1, games=3, epochs=1, progress=False)
    train_supervised(tmp_path / "a.nfdb", seed=3, **kw)
    before = (tmp_path / "a.nfdb").read_bytes()
    with pytest.raises(ValueError, match=r"a.nfdb: exists and is not a checkpoint of this "
                                         r"run \(a run of other settings: seed 3 there, 4 "
                                         r"here\)"):
        train_supervised(tmp_path / "a.nfdb", seed=4, **kw)
    assert (tmp_path / "a.nfdb").read_bytes() == before
    over = train_supervised(tmp_path / "a.nfdb", seed=4, replace=True, **kw)
    new = train_supervised(tmp_path / "b.nfdb", seed=4, **kw)
    np.testing.assert_array_equal(over.net.w1, new.net.w1)


def test_snapshots_keep_each_rounds_net_across_a_resume(tmp_path):
    start = Evaluator(Net.random(16, 9))
    kw = dict(seed=3, init=start, rounds=2, games=3, epochs=1, progress=False)
    one = train_supervised(tmp_path / "one.nfdb", **{**kw, "rounds": 1})
    snaps = tmp_path / "snaps"
    train_supervised(tmp_path / "s.nfdb", until=1, snapshots=snaps, **kw)
    whole = train_supervised(tmp_path / "s.nfdb", snapshots=snaps, **kw)   # resumed
    assert sorted(p.name for p in snaps.iterdir()) == ["round_001.nfdb", "round_002.nfdb"]
    assert snapshot_name(12) == "round_012.nfdb"
    for name, net in (("round_001.nfdb", one), ("round_002.nfdb", whole)):
        kept = Evaluator.load(snaps / name)
        for k, a in net.net.arrays().items():
            np.testing.assert_array_equal(kept.net.arrays()[k], a)
    assert Evaluator.load(snaps / "round_001.nfdb").meta["training"]["rounds_done"] == 1
    with pytest.raises(FileExistsError, match="one.nfdb"):     # no folder: before a round
        train_supervised(tmp_path / "t.nfdb", snapshots=tmp_path / "one.nfdb", **kw)
    assert not (tmp_path / "t.nfdb").exists()


def test_snapshots_of_another_run_are_refused_not_replaced(tmp_path):
    """A file of the snapshots folder that a round would write over is refused, by name,
    before any round, unless it is that round's net of this run (a resume writes it
    again) or replace=True; it was written over without a word."""
    start = Evaluator(Net.random(16, 9))
    kw = dict(init=start, rounds=1, games=3, epochs=1, progress=False)
    snaps = tmp_path / "snaps"
    train_supervised(tmp_path / "a.nfdb", seed=3, snapshots=snaps, **kw)
    before = (snaps / "round_001.nfdb").read_bytes()
    with pytest.raises(ValueError, match=r"snapshots: .*round_001.nfdb exists and is not "
                                         r"the net of round 1 of this run"):
        train_supervised(tmp_path / "b.nfdb", seed=4, snapshots=snaps, **kw)
    assert (snaps / "round_001.nfdb").read_bytes() == before
    assert not (tmp_path / "b.nfdb").exists()                 # refused before a round
    (snaps / "round_002.nfdb").write_text("not a net")
    with pytest.raises(ValueError, match="round_002.nfdb exists"):
        train_supervised(tmp_path / "a.nfdb", seed=3, snapshots=snaps, **{**kw, "rounds": 2})
    (snaps / "round_002.nfdb").unlink()
    train_supervised(tmp_path / "c.nfdb", seed=3, snapshots=snaps, **kw)   # the same run
    over = train_supervised(tmp_path / "b.nfdb", seed=4, snapshots=snaps, replace=True, **kw)
    np.testing.assert_array_equal(Evaluator.load(snaps / "round_001.nfdb").net.w1,
                                  over.net.w1)


def test_excluded_positions_are_never_learnt(tmp_path):
    start = Evaluator(Net.random(16, 9))
    held = selfplay_positions(start.net, 1, seed=3)          # round 1's first game
    lines = []
    train_supervised(tmp_path / "n.nfdb", seed=3, init=start, rounds=1, games=2, epochs=1,
                     exclude=held, progress=False, log=lines.append)
    played = selfplay_positions(start.net, 2, seed=3)
    keys = set(board_keys(held))
    assert lines[0]["positions"] == sum(k not in keys for k in board_keys(played))
    assert lines[0]["positions"] < len(played)


def test_bad_settings_are_named(tmp_path):
    with pytest.raises(TypeError, match="epoch"):
        train_supervised(tmp_path / "x.nfdb", seed=1, epoch=2)
    with pytest.raises(ValueError, match="rounds"):
        train_supervised(tmp_path / "x.nfdb", seed=1, rounds=0)


@pytest.mark.parametrize("kw, error, said", [
    ({"rounds": 1.7}, TypeError, r"^rounds=1\.7: expected an integer$"),
    ({"games": "2"}, TypeError, r"^games='2': expected an integer$"),
    ({"lr": True}, TypeError, r"^lr=True: expected a number$"),
    ({"lam": "0.5"}, TypeError, r"^lam='0\.5': expected a number$"),
    ({"seed": 1.5}, TypeError, r"^seed=1\.5: expected None, a non-negative int"),
    ({"seed": -1}, ValueError, r"^seed=-1: must be >= 0$"),
])
def test_settings_of_the_wrong_type_are_refused_not_cut(tmp_path, kw, error, said):
    """train_supervised cut 1.7 rounds to 1 and a seed of 1.5 to 1, took "2" games for 2
    and lr=True for a step of 1, and a seed of -1 gave numpy's "expected non-negative
    integer": each is refused by name before any round, as train refuses them."""
    path = tmp_path / "x.nfdb"
    kw = {"seed": 1, "init": Evaluator(Net.random(8, 9)), "rounds": 1, "games": 2,
          "epochs": 1, "progress": False, **kw}
    with pytest.raises(error, match=said):
        train_supervised(path, **kw)
    assert not path.exists()


def turned(x, n):
    """``x`` (a difference of two values) seen ``n`` plies later: flip's linear part."""
    x = np.asarray(x, dtype=np.float64)
    for _ in range(n):
        x = flip(x) - flip(np.zeros(7))
    return x


def blend_by_hand(values, after, lengths, lam):
    """``Y_t = L_t + sum_{k > t} lam^(k - t) [L_k - V_k]`` per game (float64), each term
    turned to the view of the side on roll at ``s_t``; ``V_k = after[k - 1]``."""
    out, base = np.empty((len(values), 7)), 0
    for T in lengths:
        L, V = values[base: base + T], after[base: base + T]
        for t in range(T):
            y = np.asarray(L[t], dtype=np.float64)
            for k in range(t + 1, T):
                y = y + lam ** (k - t) * turned(L[k] - V[k - 1].astype(np.float64), k - t)
            out[base + t] = y
        base += T
    return out


def result_less_luck(values, after, lengths):
    """The definition at ``lam = 1``: the game's result from ``s_t``'s side, less the luck of
    every roll from ``s_t`` on (value after the move played minus the look-ahead value)."""
    out, base = np.empty((len(values), 7)), 0
    for T in lengths:
        L, V = values[base: base + T], after[base: base + T]
        for t in range(T):
            y = flip(V[T - 1]) if (T - 1 - t) % 2 == 0 else np.asarray(V[T - 1], np.float64)
            for k in range(t, T):                   # the luck of the roll at s_k
                y = y - turned(flip(V[k]) - L[k].astype(np.float64), k - t)
            out[base + t] = y
        base += T
    return out


@pytest.mark.parametrize("lam", [0.0, 0.3, 0.8, 1.0])
def test_blend_targets_match_the_sum_by_hand(lam):
    rng = np.random.default_rng(int(lam * 10))
    lengths = np.array([5, 1, 0, 9], dtype=np.int64)
    values = rng.random((lengths.sum(), 7), dtype=np.float32)
    after = rng.random((lengths.sum(), 7), dtype=np.float32)
    got = _selfplay.blend_targets(values, after, lengths, lam)
    np.testing.assert_allclose(got, blend_by_hand(values, after, lengths, lam), atol=2e-6)
    if lam == 0.0:
        np.testing.assert_array_equal(got, values)
    if lam == 1.0:
        np.testing.assert_allclose(got, result_less_luck(values, after, lengths), atol=2e-6)


def test_blend_targets_check_their_input():
    v, n = np.zeros((3, 7), np.float32), np.array([3])
    with pytest.raises(ValueError, match="lam"):
        _selfplay.blend_targets(v, v, n, 1.5)
    with pytest.raises(ValueError, match="lengths sum to 4"):
        _selfplay.blend_targets(v, v, np.array([4]), 0.5)
    with pytest.raises(ValueError, match="do not fit"):
        _selfplay.blend_targets(v, np.zeros((2, 7), np.float32), n, 0.5)


def test_a_blended_round_learns_the_blended_targets(tmp_path):
    """One round with lam = 0.6 ends with the weights of ``fit`` on targets made by hand:
    the frozen net's 1-ply values of every position of the round's games, corrected by
    the rest of each game, then the excluded positions dropped."""
    start = Evaluator(Net.random(16, 9))
    kw = dict(epochs=1, batch=64, lr=3e-4)
    pos, after, lengths = selfplay_games(start.net, 3, seed=5)
    held = pos[:4]
    ev = train_supervised(tmp_path / "l.nfdb", seed=5, init=start, rounds=1, games=3,
                          lam=0.6, exclude=held, progress=False, **kw)
    targets = blend_by_hand(lookahead_targets(start.net, pos), after, lengths, 0.6)
    keep = np.array([k not in set(board_keys(held)) for k in board_keys(pos)])
    want, _ = fit(start.net, start.net.encode(pos[keep]), targets[keep].astype(np.float32),
                  kw["epochs"], kw["batch"], kw["lr"], np.random.default_rng(child_seed(5, 0)))
    np.testing.assert_allclose(ev.net.w1, want.w1, atol=1e-6)
    assert ev.meta["training"]["lam"] == 0.6
    plain = train_supervised(tmp_path / "p.nfdb", seed=5, init=start, rounds=1, games=3,
                             exclude=held, progress=False, **kw)
    assert not np.allclose(plain.net.w1, ev.net.w1, atol=1e-6)
    with pytest.raises(ValueError, match="lam"):
        train_supervised(tmp_path / "x.nfdb", seed=1, lam=-0.1)


def test_a_round_of_two_ply_first_choice_targets(tmp_path):
    """plies = 2, keep = 1: the round learns the frozen net's 2-ply values with each roll's
    0-ply choice (``lookahead_targets(..., keep=1)``), whatever the threads; keep with
    plies = 1 is refused (it would do nothing)."""
    start = Evaluator(Net.random(16, 9))
    kw = dict(epochs=1, batch=64, lr=3e-4)
    ev = train_supervised(tmp_path / "k.nfdb", seed=5, init=start, rounds=1, games=2,
                          plies=2, keep=1, threads=2, progress=False, **kw)
    pos, _, _ = selfplay_games(start.net, 2, seed=5)
    targets = lookahead_targets(start.net, pos, plies=2, keep=1, threads=1)
    want, _ = fit(start.net, start.net.encode(pos), targets, kw["epochs"], kw["batch"],
                  kw["lr"], np.random.default_rng(child_seed(5, 0)))
    np.testing.assert_allclose(ev.net.w1, want.w1, atol=1e-6)
    assert ev.meta["training"]["keep"] == 1 and ev.meta["training"]["plies"] == 2
    with pytest.raises(ValueError, match="keep = 1: no effect with plies = 1"):
        train_supervised(tmp_path / "x.nfdb", seed=1, keep=1)
    with pytest.raises(ValueError, match="keep = -1"):
        train_supervised(tmp_path / "x.nfdb", seed=1, plies=2, keep=-1)


def test_a_checkpoint_from_before_lam_resumes(tmp_path):
    """A checkpoint whose settings lack a later setting (lam) was made with its default."""
    start = Evaluator(Net.random(16, 9))
    kw = dict(seed=3, init=start, rounds=2, games=2, epochs=1, progress=False)
    train_supervised(tmp_path / "a.nfdb", until=1, **kw)
    old = Evaluator.load(tmp_path / "a.nfdb")
    del old.meta["training"]["lam"]
    old.save(tmp_path / "a.nfdb")
    lines = []
    train_supervised(tmp_path / "a.nfdb", log=lines.append, **kw)
    assert [ln["round"] for ln in lines] == [2]


def test_loss_grads_of_far_logits_warn_nothing():
    """A logit of -200 (a net sure of an outcome) overflows exp(-z): the output is its
    limit 0 and no RuntimeWarning reaches the user of train-net."""
    import warnings
    p = {"w1": np.zeros((3, 8), np.float32), "b1": np.ones(8, np.float32),
         "w2": np.zeros((7, 8), np.float32), "b2": np.full(7, -200.0, np.float32)}
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        loss, g = loss_grads(p, np.zeros((2, 3), np.float32), np.zeros((2, 7), np.float32))
    assert np.isfinite(loss) and all(np.isfinite(v).all() for v in g.values())


def test_kind_repeats_even_out_the_kinds():
    """Rare kinds of contact positions are repeated up to ``balance`` times; races (no
    contact) and common kinds once; the repeats of a row follow it."""
    start = np.zeros((2, 24), dtype=np.uint8)
    start[:, 0] = 15                                   # the opening: plain at ply 0
    race = np.zeros((2, 24), dtype=np.uint8)
    race[0, 23], race[1, 12] = 15, 15                  # no contact, 165 pips apart
    boards = np.stack([start] * 60 + [start] * 3 + [race] * 2)
    plies = np.array([0] * 60 + [30] * 3 + [30] * 2)   # rows 60-62: a heavy head
    rows = kind_repeats(boards, plies, 3)              # 63 / 5 / 3 = 4.2: capped at 3
    assert rows.tolist() == list(range(60)) + [60] * 3 + [61] * 3 + [62] * 3 + [63, 64]
    assert kind_repeats(boards, plies, 9).tolist().count(60) == 4
    assert kind_repeats(boards, plies, 1).tolist() == list(range(65))


def test_a_balanced_round_learns_the_repeated_rows(tmp_path):
    """One round with ``balance`` ends with the weights of ``fit`` on the round's targets
    with the rows of ``kind_repeats``; the log counts the rows learnt."""
    start = Evaluator(Net.random(16, 9))
    kw = dict(epochs=1, batch=64, lr=3e-4)
    pos, after, lengths = selfplay_games(start.net, 3, seed=6)
    plies = np.concatenate([np.arange(n) for n in lengths])
    rows = kind_repeats(pos, plies, 4)
    assert len(rows) > len(pos)                         # something was repeated
    lines = []
    ev = train_supervised(tmp_path / "k.nfdb", seed=6, init=start, rounds=1, games=3,
                          balance=4, progress=False, log=lines.append, **kw)
    targets = lookahead_targets(start.net, pos)
    want, _ = fit(start.net, start.net.encode(pos)[rows], targets[rows], kw["epochs"],
                  kw["batch"], kw["lr"], np.random.default_rng(child_seed(6, 0)))
    np.testing.assert_allclose(ev.net.w1, want.w1, atol=1e-6)
    assert (lines[0]["positions"], lines[0]["learnt"]) == (len(pos), len(rows))
    assert ev.meta["training"]["balance"] == 4
    with pytest.raises(ValueError, match="balance"):
        train_supervised(tmp_path / "x.nfdb", seed=1, balance=0)


def test_average_nets_is_the_mean_of_the_weights():
    a, b, c = (Evaluator(Net.random(16, s)) for s in (9, 10, 11))
    b.meta["training"] = {"seed": 10, "rounds_done": 2}
    mean = average_nets([a, b, c])
    assert mean.meta["training"] == {"method": "average",
                                     "sources": [{}, {"seed": 10, "rounds_done": 2}, {}]}
    for k, w in mean.net.arrays().items():
        want = (a.net.arrays()[k].astype(np.float64) + b.net.arrays()[k]
                + c.net.arrays()[k]) / 3
        np.testing.assert_allclose(w, want, rtol=0, atol=1e-6)
    assert mean.meta["average"] == [a.net.digest(), b.net.digest(), c.net.digest()]
    with pytest.warns(UserWarning, match="net 2 has the weights of net 1: the mean counts "
                      "that net twice"):
        assert average_nets([a, a]).net.digest() == a.net.digest()


def test_average_nets_warns_of_nets_from_different_starts():
    """Two runs from random weights of other seeds averaged without a word (the
    function's own docstring: "the mean of unrelated nets is no net at all"); the rounds
    of one run, which share their start, average silently."""
    def run(seed, **t):
        ev = Evaluator(Net.random(16, seed))
        ev.meta["training"] = {"seed": seed, "hidden": 16, "games": 100, **t}
        return ev
    with pytest.warns(UserWarning, match=r"net 2 and net 1 were trained from different "
                      r"starts \(random weights of seed 2; random weights of seed 1\)"):
        average_nets([run(1), run(2)])
    start = "ab" * 32
    rounds = [run(s, method="lookahead", init=start) for s in (3, 4, 5)]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        average_nets(rounds)
        # a net and a run trained from it (its start is that net's weights): one line of
        # training, silent too, with or without that run's own rounds
        base = run(6)
        later = run(7, method="lookahead", init=base.net.digest())
        average_nets([base, later])
        average_nets([later, base, run(8, method="lookahead", init=base.net.digest())])
    with pytest.warns(UserWarning, match="trained from different starts"):
        average_nets([base, later, run(9)])                 # another seed: unrelated


def test_average_nets_refuses_what_does_not_average():
    a = Evaluator(Net.random(16, 9))
    with pytest.raises(ValueError, match="at least 2"):
        average_nets([a])
    with pytest.raises(ValueError, match="wide.nfdb: 24 hidden units"):
        average_nets([a, Evaluator(Net.random(24, 9))], names=["a.nfdb", "wide.nfdb"])
    # the rules in their text, not the repr of fourteen fields
    with pytest.raises(ValueError, match=r"^net 2: trained under other rules than net 1 "
                                         r"\('mars_points=3' against 'classic'\)$"):
        average_nets([a, Evaluator(a.net, rules=dataclasses.replace(CLASSIC, mars_points=3.0))])
    with pytest.raises(TypeError, match="net 2: expected an Evaluator"):
        average_nets([a, a.net])


def test_the_step_schedule_holds_then_moves_linearly_to_the_final_step():
    from nardy_fast.training.schedule import step_at
    assert [step_at(4.0, 1.0, f) for f in (0.0, 0.25, 0.5, 0.75, 1.0)] == [4, 4, 4, 2.5, 1]
    assert step_at(4.0, None, 1.0) == 4.0


def test_fit_takes_lr_final_at_its_last_epoch():
    """One epoch is all 'last': lr_final is its step; over two epochs the first keeps lr."""
    net = Net.random(16, 4)
    boards = positions_from_games(1, seed=4)
    targets = lookahead_targets(net, boards)
    x = net.encode(boards)

    def run(epochs, lr, **kw):
        return fit(net, x, targets, epochs, 64, lr, np.random.default_rng(0), **kw)[0]

    np.testing.assert_array_equal(run(1, 1e-3, lr_final=1e-4).w1, run(1, 1e-4).w1)
    np.testing.assert_array_equal(run(2, 1e-3, lr_final=1e-3).w1, run(2, 1e-3).w1)
    assert not np.array_equal(run(2, 1e-3, lr_final=1e-4).w1, run(2, 1e-3).w1)


def test_train_net_lr_final_is_a_setting_of_the_run(tmp_path):
    start = Evaluator(Net.random(16, 9))
    kw = dict(seed=5, init=start, rounds=1, games=2, epochs=1, batch=64, progress=False)
    ev = train_supervised(tmp_path / "a.nfdb", lr=1e-3, lr_final=1e-4, **kw)
    assert ev.meta["training"]["lr_final"] == 1e-4
    same = train_supervised(tmp_path / "b.nfdb", lr=1e-4, **kw)     # one epoch: its step
    np.testing.assert_allclose(ev.net.w1, same.net.w1, atol=1e-7)
    assert train_supervised(tmp_path / "c.nfdb", **kw).meta["training"]["lr_final"] is None
    with pytest.raises(ValueError, match="lr_final = 0.0: must be a finite number > 0"):
        train_supervised(tmp_path / "d.nfdb", lr_final=0.0, **kw)


@pytest.mark.parametrize("setting", ["lr", "lr_final"])
def test_train_net_refuses_an_infinite_step_before_any_round(tmp_path, setting):
    """An infinite step is refused with the other settings, before the round's games and
    targets: it trained a round and then failed to write a net of NaN weights (``w1:
    weights must be finite``), naming neither the step nor its value."""
    start = Evaluator(Net.random(16, 9))
    path = tmp_path / "n.nfdb"
    with pytest.raises(ValueError, match=f"^{setting} = inf: must be a finite number > 0"):
        train_supervised(path, seed=5, init=start, rounds=1, games=2, epochs=1, batch=64,
                         progress=False, **{setting: float("inf")})
    assert not path.exists()


def test_a_deepened_start_plays_and_labels_its_first_round_with_the_one_layer_path():
    """w4 = 0 (deepen's start) is the one-layer net: its rounds' self-play and targets run
    on the faster path; a second layer that learnt something is kept."""
    from nardy_fast.training.supervised import _inert_second_layer_dropped, deepen
    one = Net.random(16, 9)
    deep = deepen(one, 8, seed=1)
    frozen = _inert_second_layer_dropped(deep)
    assert frozen.n_hidden2 == 0 and frozen.digest() == one.digest()
    a = deep.arrays()
    a["w4"] = a["w4"] + 0.1
    learnt = Net(**a)
    assert _inert_second_layer_dropped(learnt).digest() == learnt.digest()


def test_an_interrupted_run_says_what_it_kept(tmp_path, monkeypatch):
    """Ctrl-C in train_supervised (nardy-fast train-net) said only "interrupted", though
    every finished round's net was on disk: the stop names the rounds kept and the file,
    and the run resumes from there to the uninterrupted weights."""
    from nardy_fast.training import supervised
    real = supervised.fit
    start = Evaluator(Net.random(16, 9))
    kw = dict(seed=3, init=start, rounds=2, games=3, epochs=1, progress=False)
    # in the second round: after round 1's save
    calls = ctrl_c_at_call(monkeypatch, supervised, "fit")
    path = tmp_path / "net.nfdb"
    with pytest.raises(KeyboardInterrupt, match=r"^train_supervised: 1 of 2 rounds kept in "
                       r".*net\.nfdb \(the net after round 1; .*\); the same call resumes$"):
        train_supervised(path, **kw)
    assert Evaluator.load(path).meta["training"]["rounds_done"] == 1
    calls[:] = [1]                           # the next fit is the stop: in round 1
    with pytest.raises(KeyboardInterrupt,
                       match=r"^train_supervised: no round finished yet, nothing kept$"):
        train_supervised(tmp_path / "other.nfdb", **{**kw, "games": 4})
    assert not (tmp_path / "other.nfdb").exists()
    monkeypatch.setattr(supervised, "fit", real)
    resumed = train_supervised(path, **kw)
    whole = train_supervised(tmp_path / "whole.nfdb", **kw)
    np.testing.assert_array_equal(resumed.net.w1, whole.net.w1)


def test_a_start_of_other_rules_is_refused_before_any_game(tmp_path):
    """train-net --init with a net trained under block_rule=home wrote a classic net from
    it without a word (train-rollouts refused such a start)."""
    from nardy_fast.core.rules import Rules
    start = Evaluator(Evaluator.default().net, rules=Rules(block_rule="home"))
    out = tmp_path / "n.nfdb"
    with pytest.raises(ValueError, match=r"init: a net of the rules 'block_rule=home'"):
        train_supervised(out, seed=1, init=start, rounds=1, games=2)
    assert not out.exists()
