"""``training.lucknet``: a killed luck-net run continues from its checkpoint to the same
weights.  (What the training learns and its reproducibility: tests/engine/play/test_lucknet.py;
the command: tests/app/test_cli_train.py.)"""
import json
import os

import numpy as np
import pytest

from nardy_fast.training import lucknet as luck_training


@pytest.fixture(scope="module")
def data():
    return luck_training.luck_data(4, seed=5)


def _interrupt_after(n):
    """A stand-in for ``_grads`` that raises KeyboardInterrupt on its ``n``-th call."""
    real = luck_training._grads
    calls = {"n": 0}

    def grads(*args):
        calls["n"] += 1
        if calls["n"] == n:
            raise KeyboardInterrupt
        return real(*args)
    return grads


def test_a_killed_training_continues_to_the_same_weights(tmp_path, monkeypatch, data):
    settings = dict(hidden=16, middle=(8,), epochs=5, seed=2, data=data)
    whole, meta = luck_training.train_luck_net(**settings)
    n_train = len(data[0]) - len(data[0]) // 10
    per_epoch = -(-n_train // 256)
    folder = tmp_path / "run.partial"
    monkeypatch.setattr(luck_training, "_grads", _interrupt_after(2 * per_epoch + 2))
    with pytest.raises(KeyboardInterrupt):
        luck_training.train_luck_net(**settings, checkpoint=folder)
    with np.load(folder / "epoch.npz") as z:
        assert int(z["epochs_done"]) == 2 and int(z["t"]) == 2 * per_epoch
    monkeypatch.undo()
    calls = {"n": 0}
    real = luck_training._grads

    def counting(*args):
        calls["n"] += 1
        return real(*args)
    monkeypatch.setattr(luck_training, "_grads", counting)
    resumed, meta2 = luck_training.train_luck_net(**settings, checkpoint=folder)
    assert calls["n"] == 3 * per_epoch                     # epochs 3-5 only
    for k, a in whole.arrays().items():
        np.testing.assert_array_equal(a, resumed.arrays()[k], err_msg=k)
    assert meta2["r2_equity"] == meta["r2_equity"]


def test_a_checkpoint_of_other_settings_is_refused_by_name(tmp_path, data):
    folder = tmp_path / "run.partial"
    luck_training.train_luck_net(hidden=16, middle=(), epochs=1, seed=2, data=data,
                                 checkpoint=folder)
    with pytest.raises(ValueError, match=r"run\.partial: made with other settings \(hidden: 16 there, 24 now\)"):
        luck_training.train_luck_net(hidden=24, middle=(), epochs=1, seed=2, data=data,
                                     checkpoint=folder)
    (tmp_path / "file").write_text("x")
    with pytest.raises(ValueError, match="file: exists and is not a folder"):
        luck_training.train_luck_net(hidden=16, middle=(), epochs=1, seed=2, data=data,
                                     checkpoint=tmp_path / "file")


def test_killed_labelling_continues_where_it_stopped(tmp_path, monkeypatch, data):
    folder = tmp_path / "data.partial"
    real_bar = luck_training.progress_bar
    seen = {"n": 0}

    def bar(iterable, stop=None, **options):
        for item in real_bar(iterable, **options):
            if stop is not None and seen["n"] == stop:
                raise KeyboardInterrupt
            seen["n"] += 1
            yield item
    monkeypatch.setattr(luck_training, "progress_bar",
                        lambda it, **o: bar(it, stop=37, **o))
    with pytest.raises(KeyboardInterrupt):
        luck_training.luck_data(4, seed=5, checkpoint=folder, chunk=10)
    assert sorted(os.listdir(folder)) == ["data.json", "values_00000.npy", "values_00001.npy",
                                          "values_00002.npy"]
    assert json.loads((folder / "data.json").read_text())["positions"] == len(data[0])
    seen["n"] = 0
    monkeypatch.setattr(luck_training, "progress_bar", lambda it, **o: bar(it, **o))
    boards, values = luck_training.luck_data(4, seed=5, checkpoint=folder, chunk=10)
    assert seen["n"] == len(data[0]) - 30                  # the 30 saved are not redone
    np.testing.assert_array_equal(boards, data[0])
    np.testing.assert_array_equal(values, data[1])
    with pytest.raises(ValueError, match=r"\(chunk: 10 there, 20 now\)"):
        luck_training.luck_data(4, seed=5, checkpoint=folder, chunk=20)


def test_the_step_is_cut_to_three_tenths_for_the_last_three_tenths_of_the_epochs(monkeypatch):
    """With a constant gradient Adam's step is the step size itself (both moments
    unbiased to the gradient), so the total move counts the epochs at each size: 10
    epochs of one minibatch, cut at epoch int(0.7 * 10) = 7."""
    params = [np.zeros((2, 3), np.float32), np.zeros(3, np.float32)]
    monkeypatch.setattr(luck_training, "_grads",
                        lambda params, *a: ([np.ones_like(p) for p in params], None))
    x = np.zeros((200, 2), np.float32)
    luck_training._adam(params, x, x, None, 10, 1e-3, np.random.default_rng(0), False)
    for p in params:
        np.testing.assert_allclose(p, -(7 + 3 * 0.3) * 1e-3, rtol=1e-5)


def test_too_little_memory_is_refused_before_any_work(tmp_path, monkeypatch):
    """A run larger than the memory available stops at once, naming the games and the
    way out, with no checkpoint folder made."""
    from nardy_fast._utils import _resources
    monkeypatch.setattr(_resources, "available_memory", lambda: 10 ** 9)
    partial = tmp_path / "run.partial"
    n = 10 ** 9 // luck_training.BYTES_PER_GAME + 1
    with pytest.raises(MemoryError, match=rf"training a luck net on {n:,} games needs "
                                          r"about .* give fewer games"):
        luck_training.train_luck_net(n, hidden=16, middle=(), epochs=1, checkpoint=partial)
    assert not partial.exists()


def test_refining_starts_from_the_given_net(tmp_path, data):
    """``init=``: the weights start at the given net's (a step too small to move them
    leaves them there), the shape is the start's, the run is seeded, and the start is
    recorded by digest and by its file's meta."""
    start, start_meta = luck_training.train_luck_net(hidden=16, middle=(8,), epochs=2,
                                                     seed=2, data=data)
    still, meta = luck_training.train_luck_net(epochs=1, seed=2, data=data, init=start,
                                               lr=1e-30)
    assert (still.n_hidden, still.middle_units) == (16, (8,))
    for k, a in start.arrays().items():
        np.testing.assert_allclose(still.arrays()[k], a, rtol=0, atol=1e-6, err_msg=k)
    assert meta["init"]["digest"] == start.digest()
    assert meta["r2_equity"] == pytest.approx(start_meta["r2_equity"], abs=1e-6)
    a, _ = luck_training.train_luck_net(epochs=2, seed=2, data=data, init=start, lr=1e-3)
    b, _ = luck_training.train_luck_net(epochs=2, seed=2, data=data, init=start, lr=1e-3)
    moved = False
    for k, w in a.arrays().items():
        np.testing.assert_array_equal(w, b.arrays()[k], err_msg=k)
        moved |= not np.array_equal(w, start.arrays()[k])
    assert moved
    path = tmp_path / "start.nfdb"
    from nardy_fast.engine.play.lucknet import save_luck_net
    save_luck_net(path, start, start_meta)
    c, meta_c = luck_training.train_luck_net(epochs=2, seed=2, data=data, init=str(path),
                                             lr=1e-3)
    for k, w in a.arrays().items():
        np.testing.assert_array_equal(w, c.arrays()[k], err_msg=k)
    assert meta_c["init"]["epochs"] == 2 and meta_c["init"]["hidden"] == 16
    assert meta_c["init"]["digest"] == meta["init"]["digest"]


def test_refining_refuses_another_shape_step_or_start(tmp_path, data):
    start, _ = luck_training.train_luck_net(hidden=16, middle=(8,), epochs=1, seed=2,
                                            data=data)
    with pytest.raises(ValueError, match=r"init: a luck net of 16\+8 units; hidden=24"):
        luck_training.train_luck_net(hidden=24, epochs=1, data=data, init=start)
    with pytest.raises(ValueError, match=r"middle=\(\)"):
        luck_training.train_luck_net(middle=(), epochs=1, data=data, init=start)
    for lr in (0, -1e-3, float("nan"), float("inf"), "x"):
        with pytest.raises(ValueError, match="the step must be a positive number"):
            luck_training.train_luck_net(hidden=16, middle=(), epochs=1, data=data, lr=lr)
    with pytest.raises(TypeError, match="expected a LuckNet or a luck net file"):
        luck_training.train_luck_net(epochs=1, data=data, init=3)
    folder = tmp_path / "run.partial"
    luck_training.train_luck_net(epochs=1, seed=2, data=data, init=start, checkpoint=folder)
    other, _ = luck_training.train_luck_net(hidden=16, middle=(8,), epochs=1, seed=3,
                                            data=data)
    with pytest.raises(ValueError, match=r"run\.partial: made with other settings \(init:"):
        luck_training.train_luck_net(epochs=1, seed=2, data=data, init=other,
                                     checkpoint=folder)


def test_labels_at_one_ply_are_the_searchers_and_are_kept_apart(tmp_path):
    """``luck_data(plies=1)``: each position's values are ``Searcher.roll_values`` at 1
    ply (recomputed here), on the same positions as at 0 ply; a checkpoint of 0-ply
    labels is refused for 1-ply ones by name; other plies are refused."""
    zero = luck_training.luck_data(1, seed=5)
    folder = tmp_path / "one.partial"
    boards, values = luck_training.luck_data(1, seed=5, plies=1, checkpoint=folder, chunk=7)
    np.testing.assert_array_equal(boards, zero[0])
    searcher = luck_training._evaluator(None).searcher()
    for k in (0, len(boards) // 2, len(boards) - 1):
        np.testing.assert_array_equal(values[k], searcher.roll_values(boards[k, 0],
                                                                      boards[k, 1], 1))
    assert not np.array_equal(values, zero[1])
    again = luck_training.luck_data(1, seed=5, plies=1, checkpoint=folder, chunk=7)[1]
    np.testing.assert_array_equal(again, values)
    with pytest.raises(ValueError, match=r"one\.partial: made with other settings \(plies"):
        luck_training.luck_data(1, seed=5, checkpoint=folder, chunk=7)
    for bad in (2, -1, True, "1"):
        with pytest.raises(ValueError, match="expected 0 or 1"):
            luck_training.luck_data(1, seed=5, plies=bad)


def test_refining_on_other_games_than_the_start_warns():
    """``train-luck --init`` with another ``-n`` or ``--seed`` than the start was trained
    on said nothing, though its held-out split is then not the start's."""
    from nardy_fast.training.lucknet import _warn_other_games
    with pytest.warns(UserWarning, match=r"init: n_games=150 \(the start's 48000\), "
                      r"seed=3 \(the start's 1\): other games"):
        _warn_other_games({"n_games": 48000, "seed": 1}, 150, 3)
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        _warn_other_games({"n_games": 48000, "seed": 1}, 48000, 1)
        _warn_other_games({}, 10, 2)                # a start without a record: nothing
