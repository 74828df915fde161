"""Self-play and TD(lambda) training: targets against a Python recursion, games that do
not depend on how they are split, reproducible training that resumes."""
import hashlib
import os
import signal
import time

import numpy as np
import pytest

import nardy_fast as nf
from nardy_fast.core.rng import block_bit_generator
from nardy_fast.core.rules import CLASSIC
from nardy_fast.training import _selfplay
from nardy_fast.engine.evaluation._net import Net      # private on purpose: nets of given weights
from nardy_fast.engine.evaluation.evaluator import Evaluator
from nardy_fast.engine.play.strength import vs_greedy
from nardy_fast.training.train import train, training_tables

from helpers import flip


def test_lambda_targets_follow_the_recursion():
    rng = np.random.default_rng(1)
    lengths = np.array([4, 1, 3])
    nxt = rng.random((lengths.sum(), 7)).astype(np.float32)
    z = rng.random((3, 7)).astype(np.float32)
    lam = 0.6

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
    kw = dict(n_games=64, seed=3, hidden=16, batch=16, progress=False)
    a = train(tmp_path / "a.nfdb", threads=1, **kw)
    b = train(tmp_path / "b.nfdb", threads=2, **kw)
    np.testing.assert_array_equal(a.net.w1, b.net.w1)
    train(tmp_path / "c.nfdb", threads=1, until=32, **kw)
    assert Evaluator.load(tmp_path / "c.nfdb").meta["training"]["games_done"] == 32
    c = train(tmp_path / "c.nfdb", threads=1, **kw)
    np.testing.assert_array_equal(a.net.w1, c.net.w1)
    assert not np.array_equal(a.net.w1, Net.random(16, 3).w1)     # it learnt something


def test_the_moves_of_self_play_score_classic_points_under_cube_rules(tmp_path):
    """The net chooses its self-play moves by the classic points (oin 1, mars 2) whatever
    the rules' scoring, and self-play has no cube: training under cube rules plays the
    games of the classic rules.  Once cube rules scored every win 1 their self-play had
    stopped counting a mars, and trained another net."""
    kw = dict(n_games=32, seed=3, hidden=8, batch=16, threads=1, progress=False)
    a = train(tmp_path / "a.nfdb", **kw)
    b = train(tmp_path / "b.nfdb", rules=nf.Rules(cube="geometric", beaver=True,
                                                   autodouble=True), **kw)
    np.testing.assert_array_equal(a.net.w1, b.net.w1)
    assert b.rules.cube == "geometric"


def test_training_can_start_from_a_net_and_resumes_only_from_the_same_start(tmp_path):
    """``init``: the weights of a given net (fine-tuning for a rule variant), recorded by
    digest, so a checkpoint made from another start is not resumed."""
    start = Evaluator(Net.random(16, 9))
    start.save(tmp_path / "start.nfdb")
    kw = dict(n_games=32, seed=4, batch=16, threads=1, progress=False,
              rules=nf.Rules(block_rule="none"))
    frozen = train(tmp_path / "f.nfdb", lr=0.0, lr_final=0.0, init=tmp_path / "start.nfdb",
                   **kw)
    np.testing.assert_array_equal(frozen.net.w1, start.net.w1)    # lr 0: still the start
    assert frozen.net.n_hidden == 16
    digest = frozen.meta["training"]["init"]
    assert len(digest) == 64 and digest == Evaluator.load(tmp_path / "f.nfdb").meta[
        "training"]["init"]
    assert digest == start.net.digest() == start.net.copy().digest()    # the net's identity
    assert Net.random(16, 10).digest() != digest
    a = train(tmp_path / "a.nfdb", init=start, **kw)
    assert not np.array_equal(a.net.w1, start.net.w1)             # it learnt from there
    other = Evaluator(Net.random(16, 10))
    train(tmp_path / "b.nfdb", init=start, until=16, **kw)
    before = (tmp_path / "b.nfdb").read_bytes()
    with pytest.raises(ValueError, match=r"b.nfdb: exists and is not a checkpoint of this "
                                         r"run \(a run of other settings: init '"):
        train(tmp_path / "b.nfdb", init=other, **kw)              # not a resume of start
    assert (tmp_path / "b.nfdb").read_bytes() == before            # and left as it was
    b = train(tmp_path / "b.nfdb", init=other, replace=True, **kw)  # asked: started over
    c = train(tmp_path / "c.nfdb", init=other, **kw)
    np.testing.assert_array_equal(b.net.w1, c.net.w1)


@pytest.mark.parametrize("content", ["not a net", "a net of no run"])
def test_a_file_that_is_not_a_checkpoint_of_the_run_is_not_replaced(tmp_path, content):
    """A user's file at the run's path (a text, a net that holds no run) is refused by
    name and left as it was; replace=True starts the run over it."""
    path = tmp_path / "mine.nfdb"
    if content == "not a net":
        path.write_text("my notes")
    else:
        Evaluator(Net.random(8, 1)).save(path)
    before = path.read_bytes()
    kw = dict(n_games=16, seed=4, hidden=8, batch=16, threads=1, progress=False)
    words = "not a net: " if content == "not a net" else "a net that holds no run"
    with pytest.raises(ValueError, match=f"exists and is not a checkpoint of this run "
                                         f"\\({words}"):
        train(path, **kw)
    assert path.read_bytes() == before
    ev = train(path, replace=True, **kw)
    assert Evaluator.load(path).meta["training"]["games_done"] == 16 == ev.meta[
        "training"]["games_done"]


def test_strength_checks_and_checkpoints_fall_on_their_counts(tmp_path):
    """``check_every=32`` with batches of 16: the check against greedy runs after games
    32 and 64 exactly, and a checkpoint is logged at every ``checkpoint_every``."""
    logs = []
    train(tmp_path / "n.nfdb", n_games=64, seed=3, hidden=16, batch=16, threads=1,
          progress=False, check_every=32, check_games=2, check=vs_greedy,
          checkpoint_every=16, log=logs.append)
    checks = [e["games"] for e in logs if "vs_greedy_win_rate" in e]
    assert checks == [32, 64]
    assert [e["games"] for e in logs if "seconds" in e] == [16, 32, 48, 64]


def test_a_strength_check_needs_its_callback(tmp_path):
    """Training does not import the strength matches: ``check_every`` without ``check``
    is refused before any game, naming the argument."""
    with pytest.raises(ValueError, match="check_every=32: needs the strength check, check="):
        train(tmp_path / "n.nfdb", n_games=64, seed=3, hidden=16, batch=16, threads=1,
              progress=False, check_every=32)
    assert not (tmp_path / "n.nfdb").exists()


def test_a_net_digest_is_the_sha256_of_its_float32_weights():
    """``Net.digest()``: SHA-256 over w1, b1, w2, b2 as float32 bytes, in that order (the
    identity training runs and luck nets record)."""
    net = Net.random(16, 2)
    h = hashlib.sha256()
    for a in (net.w1, net.b1, net.w2, net.b2):
        h.update(np.asarray(a, dtype=np.float32).tobytes())
    assert net.digest() == h.hexdigest()
    w = net.arrays()
    w["b2"][0] += 1.0
    assert Net(**w).digest() != net.digest()


@pytest.mark.parametrize("kw, error, says", [
    (dict(lam=5), ValueError, r"lam=5: expected a number in \[0, 1\]"),
    (dict(lam=float("nan")), ValueError, "lam=nan"),
    (dict(lr=float("nan")), ValueError, "lr=nan: expected a finite number >= 0"),
    (dict(lr_final=-1.0), ValueError, "lr_final=-1.0"),
    (dict(hidden=0), ValueError, "hidden=0: must be >= 1"),
    (dict(hidden=12), ValueError, r"^hidden=12: expected a multiple of 8 up to 1024$"),
    (dict(hidden=2000), ValueError, r"^hidden=2000: expected a multiple of 8 up to 1024$"),
    (dict(races=-1), ValueError, "races=-1: must be >= 0"),
    (dict(n_games=10.7), TypeError, "n_games=10.7: expected an integer"),
    (dict(check_every=-5), ValueError, "check_every=-5"),
])
def test_settings_that_would_train_no_net_are_refused_first(tmp_path, kw, error, says):
    """``lam=5``, ``lr=nan`` ... trained for the whole run and wrote weights that cannot
    load ("weights must be finite"), and the same command then refused the file as not
    its checkpoint; ``n_games=10.7`` was cut to 10, ``hidden=0`` divided by zero,
    ``hidden=12`` said "w1: expected shape (198, n_hidden) ...", naming no setting."""
    path = tmp_path / "net.nfdb"
    with pytest.raises(error, match=says):
        train(path, **{"n_games": 4, "seed": 1, "hidden": 8, "threads": 1,
                       "progress": False, **kw})
    assert not path.exists()


def test_an_interrupted_run_says_what_it_kept(tmp_path, monkeypatch):
    """Ctrl-C said only "interrupted" though a checkpoint was on disk: the stop names the
    games of the last checkpoint and the file, and the run resumes from there."""
    real, calls = _selfplay.lambda_targets, []

    def cut(*a, **k):
        calls.append(1)
        if len(calls) == 4:                  # in the fourth batch: after the checkpoint at 16
            raise KeyboardInterrupt
        return real(*a, **k)
    monkeypatch.setattr(_selfplay, "lambda_targets", cut)
    path = tmp_path / "net.nfdb"
    kw = dict(n_games=64, seed=3, hidden=8, batch=8, threads=1, checkpoint_every=16,
              progress=False)
    with pytest.raises(KeyboardInterrupt, match=rf"^train: 16 of 64 games kept in "
                       rf".*net\.nfdb \(its last checkpoint; .*\); the same call resumes$"):
        train(path, **kw)
    assert Evaluator.load(path).meta["training"]["games_done"] == 16
    monkeypatch.setattr(_selfplay, "lambda_targets", real)
    calls.clear()
    with pytest.raises(KeyboardInterrupt, match="^train: no checkpoint written yet"):
        monkeypatch.setattr(_selfplay, "lambda_targets", cut)
        train(tmp_path / "other.nfdb", **{**kw, "checkpoint_every": 100})


def test_ctrl_c_while_a_batch_is_played_is_taken_after_it(tmp_path, monkeypatch):
    """Ctrl-C while the pool's threads played a batch was raised wherever the main thread
    stood, inside the pool's locks too: about one Ctrl-C in sixty left a future's lock
    held and the command hung for ever.  It is now held while a batch is played and taken
    after it: the run stops, saying what it kept."""
    real, handlers = _selfplay.play_games, []

    def play(*a, **k):
        handlers.append(signal.getsignal(signal.SIGINT))
        if len(handlers) == 5:               # two calls a batch: the third batch's first
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(0.05)                 # the signal reaches the main thread meanwhile
        return real(*a, **k)
    monkeypatch.setattr(_selfplay, "play_games", play)
    path = tmp_path / "net.nfdb"
    with pytest.raises(KeyboardInterrupt, match=r"^train: 16 of 64 games kept in "):
        train(path, n_games=64, seed=3, hidden=8, batch=8, threads=2, checkpoint_every=16,
              progress=False)
    assert signal.default_int_handler not in handlers
    assert len(handlers) == 3 * 2            # the batch under way was played out
    assert Evaluator.load(path).meta["training"]["games_done"] == 16
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler



def test_a_resumed_run_records_the_seconds_of_the_whole_run(tmp_path):
    """The net's meta["training"]["seconds"] of a resumed run was the time of its last
    call alone, as though the run had taken only that: it now adds the seconds the
    checkpoint held (here set to 1000) to those of the call that resumed it."""
    path = tmp_path / "net.nfdb"
    kw = dict(n_games=32, seed=3, hidden=8, batch=8, threads=1, checkpoint_every=8,
              progress=False)
    train(path, until=16, **kw)
    held = Evaluator.load(path)
    held.meta["training"]["seconds"] = 1000.0
    held.save(path)
    train(path, **kw)
    t = Evaluator.load(path).meta["training"]
    assert t["games_done"] == 32 and 1000.0 <= t["seconds"] < 1100.0
