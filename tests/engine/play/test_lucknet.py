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
from nardy_fast._utils._dbfile import DatabaseError
from nardy_fast.engine.play.luck import WEIGHTS
from nardy_fast.engine.play import lucknet, rollout as rollout_mod
from nardy_fast.training import lucknet as luck_training
from nardy_fast.engine.evaluation.evaluator import DEFAULT_NET, Evaluator
from nardy_fast.engine.play.lucknet import LuckNet, load_luck_net, save_luck_net
from nardy_fast.engine.evaluation._net import N_INPUTS  # private on purpose: the input count
from nardy_fast.engine.play.rollout import rollout

FAST = dict(workers=1, progress=False)


def random_luck_net(hidden=16, seed=0, scale=1.0):
    g = np.random.default_rng(seed)
    return LuckNet(g.standard_normal((N_INPUTS, hidden)) * 0.3 * scale,
                   g.standard_normal(hidden) * 0.1 * scale,
                   g.standard_normal((147, hidden)) * 0.3 * scale,
                   g.standard_normal(147) * 0.1 * scale)


def random_deep_luck_net(hidden=24, middle=(16,), seed=0):
    """A luck net with middle layers, random weights."""
    g = np.random.default_rng(seed)
    widths = (hidden, *middle)
    layers = [(g.standard_normal((b, a)) * 0.3, g.standard_normal(b) * 0.1)
              for a, b in zip(widths[:-1], widths[1:])]
    return LuckNet(g.standard_normal((N_INPUTS, hidden)) * 0.3, g.standard_normal(hidden) * 0.1,
                   g.standard_normal((147, widths[-1])) * 0.3, g.standard_normal(147) * 0.1,
                   layers)


def numpy_rolls(net, x):
    """The luck net's forward pass in float64 numpy."""
    h = np.maximum(x @ net.w1 + net.b1, 0)
    for w, b in net.middle:
        h = np.maximum(h @ w.T + b, 0)
    return (h @ net.w2.T + net.b2).reshape(-1, 21, 7)


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


@pytest.mark.parametrize("hidden,middle", [(24, (16,)), (72, (24, 16)), (40, (8, 16, 8, 24))])
def test_forward_pass_with_middle_layers_matches_numpy(hidden, middle):
    net = random_deep_luck_net(hidden, middle, seed=3)
    assert net.n_hidden == hidden and net.middle_units == middle
    # the kernel's transposed copies: derived, read-only, the padding of w2t zero
    for (w, _), t in zip(net.middle, net.wt):
        np.testing.assert_array_equal(t, w.T)
        assert not t.flags.writeable
    np.testing.assert_array_equal(net.w2t[:, :147], net.w2.T)
    assert net.w2t.shape == (middle[-1], 152) and not net.w2t[:, 147:].any()
    assert not net.w2t.flags.writeable
    # what the copies are derived from cannot change under them; the caller's arrays
    # stay the caller's
    assert not net.w2.flags.writeable and not net.middle[0][0].flags.writeable
    w = np.ones((8, 16), dtype=np.float32)
    LuckNet(np.zeros((N_INPUTS, 16)), np.zeros(16), np.zeros((147, 8)), np.zeros(147),
            [(w, np.zeros(8))])
    assert w.flags.writeable
    ev = Evaluator.default()
    boards = np.stack([np.array(self_play_position(p, 1).boards) for p in (0, 9, 30)])
    x = ev.net.encode(boards).astype(np.float64)
    np.testing.assert_allclose(net.rolls(boards), numpy_rolls(net, x), rtol=1e-5, atol=1e-5)
    # every middle layer is used: without its ReLU, or its bias, the values move
    for l in range(len(middle)):
        for wrong in ("relu", "bias"):
            h = np.maximum(x @ net.w1 + net.b1, 0)
            for k, (w, b) in enumerate(net.middle):
                z = h @ w.T + (0 if (k == l and wrong == "bias") else b)
                h = z if (k == l and wrong == "relu") else np.maximum(z, 0)
            bad = (h @ net.w2.T + net.b2).reshape(-1, 21, 7)
            assert np.abs(net.rolls(boards) - bad).max() > 1e-3, (l, wrong)


def test_both_paths_of_the_luck_net_give_the_same_bits():
    """Without middle layers the luck net runs the evaluation net's kernel
    (``_net.net_layers``), with them its own (``src/nf_luck.h``, fused multiply-adds):
    either way the vector path and the plain loops give the same 147 values."""
    net = random_luck_net(24, seed=3)
    deep = random_deep_luck_net(24, (16,), seed=4)
    wide = random_deep_luck_net(72, (24, 16), seed=5)
    # every layer in blocks of 64 units and of 8: 136 = 2 x 64 + 8, 72 = 64 + 8, and
    # the outputs' rows of 152 = 2 x 64 + 3 x 8
    blocks = random_deep_luck_net(136, (72, 64), seed=6)
    shipped = lucknet.default_luck_net()
    boards = np.stack([np.array(self_play_position(p, 1).boards) for p in range(0, 60, 3)])
    generic, avx2 = on_both_kernel_paths(
        lambda: (net.rolls(boards), deep.rolls(boards), wide.rolls(boards),
                 blocks.rolls(boards), shipped.rolls(boards)))
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


@pytest.mark.parametrize("middle,w2_cols,match", [
    ([((12, 16), (12,))], 12, "multiple of 8"),
    ([((8, 24), (8,))], 8, r"wm0: expected shape \(W, 16\)"),
    ([((8, 16), (16,))], 8, "bm0: expected shape"),
    ([((8, 16), (8,))], 16, r"w2: expected shape \(147, 8\)"),
    ([((8, 16), (8,)), ((8, 16), (8,))], 8, r"wm1: expected shape \(W, 8\)"),
    ([((8, 16),)], 8, "middle layer 0: expected a pair"),
    ([((8, 16), (8,))] + [((8, 8), (8,))] * 4, 8, "5 middle layers; at most 4"),
])
def test_bad_middle_layers_refused(middle, w2_cols, match):
    layers = [tuple(np.zeros(shape) for shape in layer) for layer in middle]
    with pytest.raises(ValueError, match=match):
        LuckNet(np.zeros((N_INPUTS, 16)), np.zeros(16), np.zeros((147, w2_cols)),
                np.zeros(147), layers)


def test_non_finite_weights_refused():
    w = [np.zeros((N_INPUTS, 8)), np.zeros(8), np.zeros((147, 8)), np.zeros(147)]
    w[2][3, 1] = np.nan
    with pytest.raises(ValueError, match="w2: not finite"):
        LuckNet(*w)
    wm = np.zeros((8, 8))
    wm[0, 0] = np.inf
    with pytest.raises(ValueError, match="wm0: not finite"):
        LuckNet(np.zeros((N_INPUTS, 8)), np.zeros(8), np.zeros((147, 8)), np.zeros(147),
                [(wm, np.zeros(8))])


def test_file_round_trip_and_refusals(tmp_path):
    net = random_luck_net(16, seed=1)
    path = tmp_path / "luck.nfdb"
    save_luck_net(path, net, {"note": "test"})
    back, meta = load_luck_net(path)
    assert meta["note"] == "test" and meta["n_hidden"] == 16
    for k, a in net.arrays().items():
        np.testing.assert_array_equal(back.arrays()[k], a)
    assert meta["middle_units"] == [] and back.middle == () and back.w2t is None
    deep = random_deep_luck_net(24, (16, 8), seed=2)
    save_luck_net(tmp_path / "deep.nfdb", deep)
    back, meta = load_luck_net(tmp_path / "deep.nfdb")
    assert (meta["n_hidden"], meta["middle_units"]) == (24, [16, 8])
    assert set(back.arrays()) == {"w1", "b1", "w2", "b2", "wm0", "bm0", "wm1", "bm1"}
    for k, a in deep.arrays().items():
        np.testing.assert_array_equal(back.arrays()[k], a)
    boards = np.array([nf.Position.initial().boards])
    assert np.array_equal(back.rolls(boards), deep.rolls(boards))
    import pickle
    assert np.array_equal(pickle.loads(pickle.dumps(deep)).rolls(boards), deep.rolls(boards))
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
    # made by `nardy-fast train-luck` twice, as the command's help says: with its
    # defaults, then refined from that net with LUCK_REFINE on the same games and seed; a
    # change of LUCK_DEFAULTS or LUCK_REFINE comes with the net it makes
    defaults, refine = luck_training.LUCK_DEFAULTS, luck_training.LUCK_REFINE
    first = {k: meta["init"][k] for k in defaults}
    assert first == {**defaults, "middle": list(defaults["middle"])}
    assert {k: meta[k] for k in defaults} == {**first, **refine}
    assert meta["r2_equity"] > meta["init"]["r2_equity"]


def test_training_is_reproducible_and_learns():
    data = luck_training.luck_data(6, seed=5)
    boards, values = data
    assert boards.shape[1:] == (2, 24) and values.shape == (len(boards), 21, 7)
    assert boards[:, :, :18].any(axis=(1, 2)).all()              # none a bear-off
    assert not boards[:, :, :12].any(axis=(1, 2)).all()          # races before it too
    a, meta = luck_training.train_luck_net(hidden=16, middle=(), epochs=60, seed=2, data=data)
    b, _ = luck_training.train_luck_net(hidden=16, middle=0, epochs=60, seed=2, data=data)
    for k in a.arrays():
        np.testing.assert_array_equal(a.arrays()[k], b.arrays()[k])
    assert luck_training.luck_r2(a, boards, values) > 0.2               # fits what it saw
    assert luck_training.luck_r2(random_luck_net(16), boards, values) < 0.0
    assert meta["hidden"] == 16 and meta["positions"] == len(boards)
    assert meta["middle"] == [] and a.middle_units == ()
    with pytest.raises(ValueError, match="multiple of 8"):
        luck_training.train_luck_net(hidden=12, data=data)
    with pytest.raises(ValueError, match="middle width=12: expected a multiple of 8"):
        luck_training.train_luck_net(hidden=16, middle=(16, 12), data=data)
    with pytest.raises(ValueError, match="at most 4 middle layers"):
        luck_training.train_luck_net(hidden=16, middle=(8,) * 5, data=data)


def test_training_with_middle_layers_is_reproducible_and_learns():
    data = luck_training.luck_data(6, seed=5)
    boards, values = data
    a, meta = luck_training.train_luck_net(hidden=32, middle=(16, 16), epochs=60, seed=2, data=data)
    b, _ = luck_training.train_luck_net(hidden=32, middle=(16, 16), epochs=60, seed=2, data=data)
    assert (a.n_hidden, a.middle_units, meta["middle"]) == (32, (16, 16), [16, 16])
    for k in a.arrays():
        np.testing.assert_array_equal(a.arrays()[k], b.arrays()[k])
    assert luck_training.luck_r2(a, boards, values) > 0.2               # fits what it saw


@pytest.mark.parametrize("widths", [(12, 8), (12, 8, 16), (12, 8, 16, 8)])
def test_training_gradients_equal_finite_differences(widths):
    """``_grads`` (the back-propagation of both shapes) against central differences of
    the loss it differentiates, in float64, with targets and weights as training has
    them: centred targets and per-roll weights ``p_r a_k`` (what lets the gradient skip
    the centring's own derivative)."""
    g = np.random.default_rng(9)
    dims = list(widths) + [147]
    params = []
    for a, b in zip(dims[:-1], dims[1:]):
        params += [g.standard_normal((a, b)) * 0.5, g.standard_normal(b) * 0.2]
    x = np.abs(g.standard_normal((5, widths[0])))
    w = WEIGHTS
    y = luck_training._centred(g.standard_normal((5, 21, 7)), w).reshape(5, 147)
    weight = (w[:, None] * (g.random(7) + 0.5)).reshape(-1)

    def loss(ps):
        _, centred = luck_training._grads(ps, x, y, weight, w)
        return float((weight * (centred - y) ** 2).sum() / len(x))

    grads, _ = luck_training._grads(params, x, y, weight, w)
    for k, p in enumerate(params):
        for i in g.choice(p.size, size=min(6, p.size), replace=False):
            e = np.zeros(p.size)
            e[i] = 1e-6
            up = [q if j != k else q + e.reshape(q.shape) for j, q in enumerate(params)]
            dn = [q if j != k else q - e.reshape(q.shape) for j, q in enumerate(params)]
            num = (loss(up) - loss(dn)) / 2e-6
            assert grads[k].reshape(-1)[i] == pytest.approx(num, rel=1e-4, abs=1e-7), (k, i)


@pytest.mark.parametrize("seed", [0, 1])
def test_the_c_luck_of_any_values_has_mean_zero(seed):
    from nardy_fast.engine.play._luck import roll_lucks        # private on purpose: the C luck
    values = random_luck_net(16, seed, scale=3.0).rolls(
        np.array([nf.Position.initial().boards]))[0]
    lucks = roll_lucks(values, nf.Rules())
    weights = np.array([1 / 36 if a == b else 2 / 36 for a in range(1, 7)
                        for b in range(a, 7)])
    assert np.abs(weights @ lucks).max() < 1e-9
    np.testing.assert_allclose(lucks[:, :7], values - weights @ values, atol=1e-6)
    assert np.abs(lucks).max() > 0.1


def test_the_other_sides_luck_is_side_0s_bad_luck():
    from nardy_fast.engine.play._luck import side0_luck      # private on purpose: the C luck
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


@pytest.mark.parametrize("make", [lambda: random_luck_net(16, 4),
                                  lambda: random_deep_luck_net(16, (8, 8), 4)],
                         ids=["one layer", "middle layer"])
def test_any_luck_net_is_unbiased(monkeypatch, make):
    """A random net's luck is large noise with mean zero: the reduced mean of the same
    games stays within its error of the plain one (a mean over the rolls with wrong
    weights, or the luck of the roll after the move, would move it by many SEs)."""
    monkeypatch.setattr(rollout_mod, "default_luck_net", make)
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


def test_the_luck_net_counts_races_before_the_bear_off(monkeypatch):
    """The luck net serves every position before the bear-off (it learnt races as well as
    contact): in a race with both sides still outside their homes its luck moves the
    reduced value; in a bear-off played out (``truncate=None``) it counts none."""
    monkeypatch.setattr(rollout_mod, "default_luck_net", lambda: random_luck_net(16, 4))
    race = np.zeros(24, dtype=np.uint8)
    race[12], race[16], race[20] = 5, 5, 5                 # own points 13, 17, 21
    pos = nf.Position.from_boards(race, race)
    assert pos.phase == "race"
    r = rollout(pos, 72, seed=3, variance_reduction="luck-net", **FAST)
    assert abs(r.equity - r.extra["equity_plain"]) > 1e-3
    home = np.zeros(24, dtype=np.uint8)
    home[18:] = [3, 3, 3, 2, 2, 2]
    off = nf.Position.from_boards(home, home)
    assert off.phase == "bearoff"
    r = rollout(off, 72, seed=3, variance_reduction="luck-net", truncate=None, **FAST)
    assert r.equity == r.extra["equity_plain"]


def test_shipped_luck_net_removes_variance_at_0ply():
    pos = self_play_position(24, 3)
    plain = rollout(pos, 1296, seed=8, variance_reduction=False, **FAST)
    vr = rollout(pos, 1296, seed=8, variance_reduction="luck-net", **FAST)
    assert vr.extra["se_equity_plain"] == pytest.approx(plain.se_equity, rel=1e-12)
    assert vr.extra["luck_variance_ratio"] > 1.3
    assert vr.extra["luck_net"] == "luck_classic.nfdb"
    se = math.hypot(plain.se_equity, vr.se_equity)
    assert abs(plain.equity - vr.equity) < 4 * se


def test_a_luck_net_digest_is_the_sha256_of_its_named_arrays():
    """``LuckNet.digest()``: SHA-256 over the arrays in name order, each its name and
    shape then its float32 bytes (recomputed here); any weight changes it."""
    import hashlib

    net = random_deep_luck_net(24, (16,), seed=3)
    h = hashlib.sha256()
    for name, a in sorted(net.arrays().items()):
        h.update(f"{name}{a.shape}".encode())
        h.update(np.asarray(a, dtype=np.float32).tobytes())
    assert net.digest() == h.hexdigest()
    w = {k: np.array(a) for k, a in net.arrays().items()}
    w["bm0"][0] += 1.0
    assert LuckNet.from_arrays(w).digest() != net.digest()
