"""Nets with a second hidden layer (engine/evaluation/_net.pyx, supervised.deepen, train-net --hidden2)."""
import pickle

import numpy as np
import pytest

import nardy_fast as nf
from nardy_fast._utils import _dbfile
from nardy_fast.core.rng import child_seed
from nardy_fast.engine.evaluation._net import Net
from nardy_fast.engine.evaluation.evaluator import ENCODING, KIND, Evaluator
from nardy_fast.training.labels import lookahead_targets, selfplay_games
from nardy_fast.training.supervised import (average_nets, deepen, fit, loss_grads,
                                         train_supervised, widen)
from nardy_fast.training.train import train

from helpers import on_both_kernel_paths
from naive_net import np_encode, np_forward, positions_from_games


def _deep(seed=3):
    return Net.random(16, seed, n_hidden2=8)


def test_outputs_match_a_numpy_forward_pass():
    net = _deep()
    boards = positions_from_games(2, seed=4)[::7]
    want = np.array([np_forward(net, b[0], b[1]) for b in boards])
    np.testing.assert_allclose(net.outputs(boards), want, atol=2e-6)
    # the second layer counts: without it the outputs differ
    one = Net(net.w1, net.b1, net.w2, net.b2)
    assert np.abs(one.outputs(boards) - want).max() > 1e-3


def test_the_candidates_of_a_roll_match_one_by_one():
    """net_eval_many (the incremental first layer) against net_eval, and so every search,
    self-play and rollout through it."""
    net = _deep(5)
    boards = positions_from_games(2, seed=6)
    me, base = boards[10, 0], boards[10, 1]
    cands = boards[::5, 1]
    one = net.outputs(np.stack([np.stack([me, c]) for c in cands]))
    np.testing.assert_allclose(net.outputs_many(me, base, cands), one, atol=1e-6)


def _changed(net, b1=0.0, b3=0.0, w4=1.0):
    """``net`` with ``b1`` and ``b3`` moved by the given amounts (scalars or arrays) and
    ``w4`` scaled by the given factor."""
    a = net.arrays()
    return Net(a["w1"], a["b1"] + b1, a["w2"], a["b2"], a["w3"], a["b3"] + b3,
               a["w4"] * w4)


def _hidden(net, boards):
    """The two hidden layers ``(h, h2)`` of boards in float64 numpy (as ``np_forward``)."""
    x = np.array([np_encode(*b) for b in boards])
    h = np.maximum(0.0, net.b1 + x @ net.w1.astype(np.float64))
    return h, np.maximum(0.0, net.b3 + h @ net.w3.T.astype(np.float64))


def _kernel_cases():
    """Nets for the two paths of src/nf_deep.h: the shape benchmarked (256 + 64), tails of
    the first layer's tiles (40 units) and of the second layer's blocks (72 = 64 + 8),
    most of h zero, all of it zero, and h2 with many zeros.  The second layer's outgoing
    weights are scaled up from ``Net.random``'s so that it moves the outputs by tenths."""
    rng = np.random.default_rng(12)
    base = _changed(Net.random(256, 21, n_hidden2=64), w4=20.0)
    return {
        "256+64": base,
        "40+72": _changed(Net.random(40, 22, n_hidden2=72), w4=20.0),
        "16+8": _changed(Net.random(16, 23, n_hidden2=8), w4=20.0),
        "h mostly zero": _changed(base, b1=-1.5),
        "h all zero": _changed(base, b1=-1e3, b3=rng.normal(0.0, 0.5, 64)),
        "h2 mostly zero": _changed(base, b3=rng.normal(-1.5, 0.5, 64)),
    }


KERNEL_CASES = _kernel_cases()


@pytest.mark.parametrize("case", list(KERNEL_CASES))
def test_both_paths_of_the_two_layer_kernel_give_the_same_bits(case):
    """src/nf_deep.h: the AVX2 path and the plain loops give the same bits, on positions
    (net_eval) and on the candidates of rolls (net_eval_many); both match numpy."""
    net = KERNEL_CASES[case]
    boards = positions_from_games(2, seed=13)[::4]
    h, h2 = _hidden(net, boards)
    zero_h, zero_h2 = (h == 0).mean(), (h2 == 0).mean()
    assert {"h mostly zero": zero_h > 0.8, "h all zero": zero_h == 1,
            "h2 mostly zero": zero_h2 > 0.7}.get(case, 0.2 < zero_h < 0.8)
    assert zero_h2 < 1 and (case == "h all zero" or 0 < zero_h < 1)
    rolls = list(zip(boards[::3], [(6, 5), (2, 2), (4, 1)] * 20))

    def compute():
        many = [net.outputs_many(opp, me, nf.successors(me, opp, *dice))
                for (me, opp), dice in rolls]
        return net.outputs(boards), np.concatenate(many)

    generic, avx2 = on_both_kernel_paths(compute)
    for a, b in zip(generic, avx2):
        assert a.shape == b.shape and np.array_equal(a, b)
    want = np.array([np_forward(net, *b) for b in boards])
    np.testing.assert_allclose(avx2[0], want, rtol=0, atol=2e-6)
    # the candidates against one-by-one evaluation of the same boards
    cands = [np.stack([np.stack([opp, c]) for c in nf.successors(me, opp, *dice)])
             for (me, opp), dice in rolls]
    np.testing.assert_allclose(avx2[1], net.outputs(np.concatenate(cands)), rtol=0,
                               atol=1e-6)


def test_a_zero_second_layer_gives_the_one_layer_bits():
    """With ``w4 = 0`` the two-layer kernel's outputs are the one-layer kernel's, bit for
    bit, on both paths: the first layer and its dot products are summed in one order."""
    start = Net.random(256, 24)
    deep = deepen(start, 64, seed=2)
    boards = positions_from_games(1, seed=14)[::3]
    me, base = boards[5]

    def compute():
        cands = nf.successors(me, base, 6, 3)
        return ([n.outputs(boards) for n in (start, deep)]
                + [n.outputs_many(me, base, cands) for n in (start, deep)])

    for one, two, one_many, two_many in on_both_kernel_paths(compute):
        assert np.array_equal(one, two) and np.array_equal(one_many, two_many)


def test_the_transposed_second_layer_follows_the_weights(tmp_path):
    """Net.w3t is w3 transposed, made with the net: after a copy, a pickle and a file it is
    the new net's, not saved, digested or among arrays(); w3 and w3t are read-only."""
    net = KERNEL_CASES["256+64"]
    boards = positions_from_games(1, seed=15)[::6]
    assert net.w3t.shape == (256, 64) and net.w3t.flags.c_contiguous
    np.testing.assert_array_equal(net.w3t, net.w3.T)
    Evaluator(net).save(tmp_path / "t.nfdb")
    for other in (net.copy(), pickle.loads(pickle.dumps(net)),
                  Evaluator.load(tmp_path / "t.nfdb").net):
        np.testing.assert_array_equal(other.w3t, other.w3.T)
        assert other.digest() == net.digest() and "w3t" not in other.arrays()
        assert np.array_equal(other.outputs(boards), net.outputs(boards))
    for a in (net.w3, net.w3t):
        with pytest.raises(ValueError, match="read-only"):
            a[0, 0] = 1.0
    # another w3 (its units permuted) makes another w3t and other outputs
    a = net.arrays()
    perm = Net(a["w1"], a["b1"], a["w2"], a["b2"], a["w3"][::-1], a["b3"], a["w4"])
    np.testing.assert_array_equal(perm.w3t, a["w3"][::-1].T)
    assert not np.allclose(perm.outputs(boards), net.outputs(boards), atol=1e-4)
    np.testing.assert_allclose(perm.outputs(boards),
                               [np_forward(perm, *b) for b in boards], rtol=0, atol=2e-6)
    assert Net.random(16, 1).w3t is None


def test_deepen_starts_with_the_start_nets_outputs_and_is_seeded():
    start = Net.random(16, 7)
    deep = deepen(start, 8, seed=1)
    boards = positions_from_games(1, seed=8)[::5]
    assert deep.n_hidden2 == 8 and not deep.w4.any()
    np.testing.assert_allclose(deep.outputs(boards), start.outputs(boards), atol=1e-6)
    np.testing.assert_array_equal(deepen(start, 8, seed=1).w3, deep.w3)
    assert not np.array_equal(deepen(start, 8, seed=2).w3, deep.w3)
    with pytest.raises(ValueError, match="hidden2 = 12"):
        deepen(start, 12, seed=1)
    assert deepen(deep, 8, seed=1) is deep                  # already that wide


def test_deepen_widens_a_second_layer_keeping_the_outputs():
    """A two-layer net's second layer grows by new units whose outgoing weights are zero:
    the same outputs, its own units first, the new ones seeded, never narrowed."""
    deep = _deep(4)
    deep = Net(**{**deep.arrays(), "w4": deep.w4 + 0.3})   # a layer that counts
    wider = deepen(deep, 24, seed=1)
    boards = positions_from_games(1, seed=9)[::3]
    assert wider.n_hidden2 == 24 and wider.n_hidden == deep.n_hidden
    np.testing.assert_allclose(wider.outputs(boards), deep.outputs(boards), atol=1e-6)
    np.testing.assert_array_equal(wider.w3[:8], deep.w3)
    np.testing.assert_array_equal(wider.w4[:, :8], deep.w4)
    assert not wider.w4[:, 8:].any() and not wider.b3[8:].any()
    assert wider.w3[8:].std() > 0.1                           # new units learn at once
    np.testing.assert_array_equal(deepen(deep, 24, seed=1).w3, wider.w3)
    assert not np.array_equal(deepen(deep, 24, seed=2).w3, wider.w3)
    with pytest.raises(ValueError, match="hidden2 = 8: .* 24 units already.*not narrowed"):
        deepen(wider, 8, seed=1)


def test_widen_keeps_a_second_layers_outputs():
    """The first layer of a two-layer net grows with zero weights out of the new units to
    the outputs and to the second layer."""
    deep = _deep(6)
    deep = Net(**{**deep.arrays(), "w4": deep.w4 + 0.3})
    wide = widen(deep, 32, seed=1)
    boards = positions_from_games(1, seed=10)[::3]
    assert (wide.n_hidden, wide.n_hidden2) == (32, 8)
    np.testing.assert_allclose(wide.outputs(boards), deep.outputs(boards), atol=1e-6)
    assert not wide.w3[:, 16:].any() and not wide.w2[:, 16:].any()
    np.testing.assert_array_equal(wide.w3[:, :16], deep.w3)
    np.testing.assert_array_equal(wide.w4, deep.w4)
    both = deepen(wide, 16, seed=1)                           # train-net --hidden --hidden2
    np.testing.assert_allclose(both.outputs(boards), deep.outputs(boards), atol=1e-6)


def test_files_pickles_copies_and_digests_keep_the_second_layer(tmp_path):
    net = _deep()
    Evaluator(net).save(tmp_path / "d.nfdb")
    back = Evaluator.load(tmp_path / "d.nfdb")
    assert back.net.n_hidden2 == 8 and back.net.digest() == net.digest()
    assert "n_hidden2" not in back.meta
    assert pickle.loads(pickle.dumps(net)).digest() == net.digest()
    assert net.copy().digest() == net.digest()
    assert set(net.arrays()) == {"w1", "b1", "w2", "b2", "w3", "b3", "w4"}
    one = Net(net.w1, net.b1, net.w2, net.b2)
    assert one.digest() != net.digest() and set(one.arrays()) == {"w1", "b1", "w2", "b2"}


def test_bad_second_layers_are_refused():
    a = _deep().arrays()
    base = (a["w1"], a["b1"], a["w2"], a["b2"])
    with pytest.raises(ValueError, match="needs all three"):
        Net(*base, a["w3"], a["b3"])
    with pytest.raises(ValueError, match="w3: expected shape"):
        Net(*base, a["w3"][:4], a["b3"][:4], a["w4"][:, :4])
    with pytest.raises(ValueError, match="w3: expected shape"):
        Net(*base, a["w3"][:, :8], a["b3"], a["w4"])
    with pytest.raises(ValueError, match="w4: expected shape"):
        Net(*base, a["w3"], a["b3"], a["w4"].T)
    bad = a["b3"].copy()
    bad[0] = np.nan
    with pytest.raises(ValueError, match="b3: weights must be finite"):
        Net(*base, a["w3"], bad, a["w4"])


def test_loss_grads_of_the_second_layer_match_finite_differences():
    rng = np.random.default_rng(1)
    p = {"w1": rng.normal(0, 0.3, (198, 8)), "b1": rng.normal(0, 0.1, 8),
         "w2": rng.normal(0, 0.3, (7, 8)), "b2": rng.normal(0, 0.1, 7),
         "w3": rng.normal(0, 0.5, (8, 8)), "b3": rng.normal(0, 0.1, 8),
         "w4": rng.normal(0, 0.3, (7, 8))}
    x = (rng.random((5, 198)) < 0.3).astype(np.float64)
    t = rng.random((5, 7))
    _, grads = loss_grads(p, x, t)
    for k, idx in (("w1", (3, 2)), ("w1", (10, 7)), ("b1", (4,)), ("w2", (6, 1)),
                   ("b2", (2,)), ("w3", (1, 5)), ("w3", (7, 0)), ("b3", (3,)),
                   ("w4", (2, 6)), ("w4", (0, 0))):
        h = 1e-6
        q = {a: b.copy() for a, b in p.items()}
        q[k][idx] += h
        up = loss_grads(q, x, t)[0]
        q[k][idx] -= 2 * h
        down = loss_grads(q, x, t)[0]
        assert grads[k][idx] == pytest.approx((up - down) / (2 * h) / len(x), rel=1e-4,
                                              abs=1e-8)


def test_a_round_of_train_net_hidden2_learns_as_by_hand(tmp_path):
    """train-net --hidden2 8: the start deepened (seeded), its 1-ply targets of the round's
    games, fit with the round's order; the second layer learns (w4 leaves zero)."""
    start = Evaluator(Net.random(16, 9))
    kw = dict(epochs=1, batch=64, lr=3e-4)
    ev = train_supervised(tmp_path / "h.nfdb", seed=5, init=start, hidden2=8, rounds=1,
                          games=2, progress=False, **kw)
    deep = deepen(start.net, 8, seed=5)
    pos, _, _ = selfplay_games(deep, 2, seed=5)
    targets = lookahead_targets(deep, pos)
    want, _ = fit(deep, deep.encode(pos), targets, kw["epochs"], kw["batch"], kw["lr"],
                  np.random.default_rng(child_seed(5, 0)))
    assert ev.net.n_hidden2 == 8 and ev.meta["training"]["hidden2"] == 8
    np.testing.assert_allclose(ev.net.w4, want.w4, atol=1e-6)
    np.testing.assert_allclose(ev.net.w1, want.w1, atol=1e-6)
    assert ev.net.w4.any()
    # a one-layer run records no hidden2 (its checkpoints from before resume)
    one = train_supervised(tmp_path / "o.nfdb", seed=5, init=start, rounds=1, games=2,
                           progress=False, **kw)
    assert "hidden2" not in one.meta["training"]


def test_td_training_and_averaging_check_the_shape(tmp_path):
    deep = Evaluator(_deep())
    with pytest.raises(ValueError, match="second hidden layer"):
        deep.net.copy().sgd(positions_from_games(1)[:2], np.zeros((2, 7), np.float32), 0.1)
    with pytest.raises(ValueError, match="init: a net with a second hidden layer"):
        train(tmp_path / "t.nfdb", n_games=10, seed=1, init=deep, threads=1,
              check_every=0, progress=False)
    other = Evaluator(_deep(4))
    mean = average_nets([deep, other])
    np.testing.assert_allclose(mean.net.w4, (deep.net.w4 + other.net.w4) / 2, atol=1e-7)
    with pytest.raises(ValueError, match="only nets of one shape average"):
        average_nets([deep, Evaluator(Net.random(16, 3))])


def test_an_interrupted_hidden2_run_resumes_to_the_same_weights(tmp_path):
    start = Evaluator(Net.random(16, 9))
    kw = dict(seed=3, init=start, hidden2=8, rounds=2, games=2, epochs=1, progress=False)
    whole = train_supervised(tmp_path / "a.nfdb", **kw)
    train_supervised(tmp_path / "b.nfdb", until=1, **kw)
    lines = []
    resumed = train_supervised(tmp_path / "b.nfdb", log=lines.append, **kw)
    assert [ln["round"] for ln in lines] == [2]
    assert resumed.net.digest() == whole.net.digest()


def test_a_file_whose_second_layer_does_not_fit_names_itself(tmp_path):
    a = _deep().arrays()
    path = tmp_path / "bad.nfdb"
    _dbfile.write_db(path, KIND, {"encoding": ENCODING, "n_inputs": 198},
                     {**a, "w4": a["w4"][:, :4]})
    with pytest.raises(_dbfile.DatabaseError, match=r"bad\.nfdb: bad weights: w4"):
        Evaluator.load(path)
