"""The luck net: its C forward pass, its file, its training, and the luck it serves.

The unbiasedness claim of ``variance.py`` is that *any* per-roll function gives an
unbiased luck; it is checked with a net of random weights (large, meaningless luck),
where a wrong mean over the rolls or a luck counted after the move would show as a bias.
"""
import math

import numpy as np
import pytest

import nardy_fast as nf
from helpers import on_both_kernel_paths
from nardy_fast.core._dbfile import DatabaseError
from nardy_fast.engine import lucknet, rollout as rollout_mod
from nardy_fast.engine.evaluator import DEFAULT_NET, Evaluator
from nardy_fast.engine.lucknet import LuckNet, load_luck_net, save_luck_net
from nardy_fast.engine._net import N_INPUTS  # private on purpose: the input count
from nardy_fast.engine.rollout import rollout

FAST = dict(workers=1, progress=False)


def random_luck_net(hidden=16, seed=0, scale=1.0):
    g = np.random.default_rng(seed)
    return LuckNet(g.standard_normal((N_INPUTS, hidden)) * 0.3 * scale,
                   g.standard_normal(hidden) * 0.1 * scale,
                   g.standard_normal((147, hidden)) * 0.3 * scale,
                   g.standard_normal(147) * 0.1 * scale)


def self_play_position(plies, seed):
    """The position after `plies` plies of 0-ply net self-play (seeded dice)."""
    ev = Evaluator.default()
    g = np.random.default_rng(seed)
    pos = nf.Position.initial()
    for _ in range(plies):
        pos = pos.play(ev.best_move(pos, (int(g.integers(1, 7)), int(g.integers(1, 7)))))
    return pos


def test_forward_pass_matches_numpy():
    net = random_luck_net(24, seed=3)
    ev = Evaluator.default()
    boards = np.stack([np.array(self_play_position(p, 1).boards) for p in (0, 9, 30)])
    x = ev.net.encode(boards).astype(np.float64)
    want = (np.maximum(x @ net.w1 + net.b1, 0) @ net.w2.T + net.b2).reshape(-1, 21, 7)
    np.testing.assert_allclose(net.rolls(boards), want, rtol=1e-5, atol=1e-5)


def test_both_paths_of_the_luck_net_give_the_same_bits():
    """The luck net runs the evaluation net's kernel (``_net.net_layers``): its AVX2 path
    for many outputs and the plain loops give the same 147 values."""
    net = random_luck_net(24, seed=3)
    shipped = lucknet.default_luck_net()
    boards = np.stack([np.array(self_play_position(p, 1).boards) for p in range(0, 60, 3)])
    generic, avx2 = on_both_kernel_paths(
        lambda: (net.rolls(boards), shipped.rolls(boards)))
    for a, b in zip(generic, avx2):
        assert np.array_equal(a, b)


@pytest.mark.parametrize("shapes,match", [
    (((N_INPUTS, 12), (12,), (147, 12), (147,)), "multiple of 8"),
    (((N_INPUTS - 1, 16), (16,), (147, 16), (147,)), rf"expected shape \({N_INPUTS}, H\)"),
    (((N_INPUTS, 16), (16,), (7, 16), (147,)), "w2: expected shape"),
    (((N_INPUTS, 16), (8,), (147, 16), (147,)), "b1: expected shape"),
])
def test_bad_shapes_refused(shapes, match):
    with pytest.raises(ValueError, match=match):
        LuckNet(*(np.zeros(s) for s in shapes))


def test_non_finite_weights_refused():
    w = [np.zeros((N_INPUTS, 8)), np.zeros(8), np.zeros((147, 8)), np.zeros(147)]
    w[2][3, 1] = np.nan
    with pytest.raises(ValueError, match="w2: not finite"):
        LuckNet(*w)


def test_file_round_trip_and_refusals(tmp_path):
    net = random_luck_net(16, seed=1)
    path = tmp_path / "luck.nfdb"
    save_luck_net(path, net, {"note": "test"})
    back, meta = load_luck_net(path)
    assert meta["note"] == "test" and meta["n_hidden"] == 16
    for k, a in net.arrays().items():
        np.testing.assert_array_equal(back.arrays()[k], a)
    with pytest.raises(DatabaseError, match="expected 'luck_net'"):
        load_luck_net(DEFAULT_NET)                       # an evaluation net, not a luck net
    raw = path.read_bytes()
    (tmp_path / "cut.nfdb").write_bytes(raw[:len(raw) - 100])
    with pytest.raises(DatabaseError, match="cut.nfdb"):
        load_luck_net(tmp_path / "cut.nfdb")


def test_shipped_luck_net_loads_and_states_its_training():
    _, meta = load_luck_net(lucknet.DEFAULT_LUCK_NET)
    assert meta["r2_equity"] > 0.3 and meta["positions"] > 10_000
    # a new shipped rollout net comes with a luck net trained on it (nardy-fast
    # train-luck): the luck nets serve the rollouts
    assert meta["evaluator"] == Evaluator.default().rollout_net.digest()
    assert lucknet.default_luck_net() is lucknet.default_luck_net()


def test_training_is_reproducible_and_learns():
    data = lucknet.luck_data(6, seed=5)
    boards, values = data
    assert boards.shape[1:] == (2, 24) and values.shape == (len(boards), 21, 7)
    assert boards[:, :, :12].any(axis=(1, 2)).all()              # contact only
    a, meta = lucknet.train_luck_net(hidden=16, epochs=60, seed=2, data=data)
    b, _ = lucknet.train_luck_net(hidden=16, epochs=60, seed=2, data=data)
    for k in a.arrays():
        np.testing.assert_array_equal(a.arrays()[k], b.arrays()[k])
    assert lucknet.luck_r2(a, boards, values) > 0.2               # fits what it saw
    assert lucknet.luck_r2(random_luck_net(16), boards, values) < 0.0
    assert meta["hidden"] == 16 and meta["positions"] == len(boards)
    with pytest.raises(ValueError, match="multiple of 8"):
        lucknet.train_luck_net(hidden=12, data=data)


@pytest.mark.parametrize("seed", [0, 1])
def test_the_c_luck_of_any_values_has_mean_zero(seed):
    from nardy_fast.engine._luck import roll_lucks        # private on purpose: the C luck
    values = random_luck_net(16, seed, scale=3.0).rolls(
        np.array([nf.Position.initial().boards]))[0]
    lucks = roll_lucks(values, nf.Rules())
    weights = np.array([1 / 36 if a == b else 2 / 36 for a in range(1, 7)
                        for b in range(a, 7)])
    assert np.abs(weights @ lucks).max() < 1e-9
    np.testing.assert_allclose(lucks[:, :7], values - weights @ values, atol=1e-6)
    assert np.abs(lucks).max() > 0.1


def test_the_other_sides_luck_is_side_0s_bad_luck():
    from nardy_fast.engine._luck import side0_luck      # private on purpose: the C luck
    values = random_luck_net(16, 2, scale=3.0).rolls(np.array([nf.Position.initial().boards]))[0]
    for dice in ((6, 5), (2, 2), (1, 4)):
        own, eq0 = side0_luck(values, dice, 0, nf.Rules())
        other, eq1 = side0_luck(values, dice, 1, nf.Rules())
        # side 1's P(win) luck is side 0's P(loss) luck; its mars, koks and home-mars
        # wins are side 0's losses of the same kind, and the reverse
        want = np.concatenate([[-own[0]], own[4:7], own[1:4]])
        np.testing.assert_allclose(other, want, atol=1e-12)
        assert eq1 == pytest.approx(-eq0, abs=1e-12) and abs(eq0) > 1e-3
        assert np.abs(own[1:]).min() > 0                       # every output has luck


def test_any_luck_net_is_unbiased(monkeypatch):
    """A random net's luck is large noise with mean zero: the reduced mean of the same
    games stays within its error of the plain one (a mean over the rolls with wrong
    weights, or the luck of the roll after the move, would move it by many SEs)."""
    monkeypatch.setattr(rollout_mod, "default_luck_net", lambda: random_luck_net(16, 4))
    pos = self_play_position(30, 2)
    r = rollout(pos, 2592, seed=6, variance_reduction="luck-net", **FAST)
    assert r.extra["estimator"] == "luck-net"
    assert r.extra["luck_variance_ratio"] < 0.5                   # it adds variance here
    diff = r.equity - r.extra["equity_plain"]
    assert abs(diff) < 4 * math.hypot(r.se_equity, r.extra["se_equity_plain"])
    assert abs(r.p_win - r.extra["p_win_plain"]) < 4 * r.se_p_win


def test_a_constant_luck_net_is_what_the_rollout_uses(monkeypatch):
    """Values equal over the rolls (here all -1) mean no luck at all: the reduced results
    are the plain ones exactly, so nothing else (the 21 move choices of the exact luck)
    was counted in their place."""
    monkeypatch.setattr(rollout_mod, "default_luck_net", lambda: LuckNet(
        np.zeros((N_INPUTS, 8)), np.zeros(8), np.zeros((147, 8)), np.full(147, -1.0)))
    pos = self_play_position(30, 2)
    r = rollout(pos, 1296, seed=6, variance_reduction="luck-net", **FAST)
    assert r.equity == pytest.approx(r.extra["equity_plain"], abs=1e-12)   # rounding only
    assert r.p_win == pytest.approx(r.extra["p_win_plain"], abs=1e-12)
    assert r.extra["luck_variance_ratio"] == pytest.approx(1.0, abs=1e-9)


def test_shipped_luck_net_removes_variance_at_0ply():
    pos = self_play_position(24, 3)
    plain = rollout(pos, 1296, seed=8, variance_reduction=False, **FAST)
    vr = rollout(pos, 1296, seed=8, variance_reduction="luck-net", **FAST)
    assert vr.extra["se_equity_plain"] == pytest.approx(plain.se_equity, rel=1e-12)
    assert vr.extra["luck_variance_ratio"] > 1.3
    assert vr.extra["luck_net"] == "luck_classic.nfdb"
    se = math.hypot(plain.se_equity, vr.se_equity)
    assert abs(plain.equity - vr.equity) < 4 * se
