"""Rollout labels (nardy_fast.training.rolloutlabels): the positions, their rollouts,
the fit, the checkpoint and ``nardy-fast train-rollouts``."""
import json
import os
import re

import numpy as np
import pytest

import nardy_fast as nf
from nardy_fast.core.position import contact_mask
from nardy_fast.core.rng import DICE_SCHEME, EARLIER_DICE_SCHEME
from nardy_fast.engine.evaluation.evaluator import Evaluator
from nardy_fast.training import rolloutlabels as rl
from nardy_fast.training.labels import board_keys, selfplay_positions
from nardy_fast.training.reached import reached_positions

from helpers import cut_rollout_runs

SMALL = dict(selfplay_games=3, source_games=1, seed=21)


@pytest.fixture(scope="module")
def small():
    return rl.label_positions(**SMALL)


def test_positions_are_the_games_contact_positions_once_each(small):
    boards, kind = small
    ev = Evaluator.default()
    sp = selfplay_positions(ev.net, 3, 21)[::rl.ROLLOUT_DEFAULTS["every"]]
    rb, src = reached_positions(ev, 1, 21)
    rb, src = rb[::rl.ROLLOUT_DEFAULTS["every_reached"]], src[::2]
    # recomputed in plain Python: contact, first visit, in order
    want, seen = [], set()
    for b, k in list(zip(sp, ["self-play"] * len(sp))) + list(zip(rb, src)):
        key = b.tobytes()
        if contact_mask(b[None])[0] and key not in seen:
            seen.add(key)
            want.append((b, k))
    assert len(boards) == len(want) > 0
    assert all(np.array_equal(b, w) and k == wk for b, k, (w, wk) in zip(boards, kind, want))
    assert set(kind) == {"self-play", "greedy", "noisy", "net1"}
    again = rl.label_positions(**SMALL)
    assert np.array_equal(again[0], boards) and list(again[1]) == list(kind)


def test_excluded_positions_are_never_labelled(small):
    boards, kind = small
    out, _ = rl.label_positions(**SMALL, exclude=boards[::3])
    assert len(out) == len(boards) - len(boards[::3])
    assert not set(board_keys(out)) & set(board_keys(boards[::3]))


@pytest.mark.parametrize("bad, match", [
    (dict(selfplay_games=0, source_games=0), "no positions"),
    (dict(every=0), "every"), (dict(selfplay_games=-1), "selfplay_games")])
def test_bad_position_settings_are_named(bad, match):
    with pytest.raises(ValueError, match=match):
        rl.label_positions(**{**SMALL, **bad})


def test_labels_are_the_rollouts_of_the_documented_seeds_whatever_the_chunks(small):
    boards = small[0][:7]
    a, stopped = rl.rollout_labels(boards, games=6, seed=3, workers=1, chunk=3)
    assert not stopped and a.shape == (7, len(rl.LABELS))
    for k in (0, 4, 6):                       # the same as a rollout of seed 3 * stride + k
        o = nf.rollout(nf.Position.from_boards(*boards[k]), 6, seed=3 * 1_000_003 + k,
                       workers=1, progress=False)
        assert list(a[k]) == [getattr(o, q) for q in rl.LABELS]
    b, _ = rl.rollout_labels(boards, games=6, seed=3, workers=2, chunk=2)
    np.testing.assert_array_equal(a, b)


def test_a_killed_labelling_continues_to_the_same_labels(small, tmp_path, monkeypatch):
    boards = small[0][:9]
    whole, _ = rl.rollout_labels(boards, games=4, seed=5, workers=1, chunk=3)
    folder = tmp_path / "run.partial"
    calls = []
    real = rl._label_chunk

    def dies_on_the_third(spec):
        calls.append(spec[2])
        if len(calls) == 3:
            raise KeyboardInterrupt
        return real(spec)
    monkeypatch.setattr(rl, "_label_chunk", dies_on_the_third)
    part, stopped = rl.rollout_labels(boards, games=4, seed=5, workers=1, chunk=3,
                                      checkpoint=folder)
    assert stopped and np.isnan(part[6:]).all()
    np.testing.assert_array_equal(part[:6], whole[:6])
    assert sorted(os.listdir(folder)) == ["labels.json", "values_00000.npy",
                                          "values_00001.npy"]
    calls.clear()
    monkeypatch.setattr(rl, "_label_chunk", lambda spec: calls.append(spec[2]) or real(spec))
    again, stopped = rl.rollout_labels(boards, games=4, seed=5, workers=1, chunk=3,
                                       checkpoint=folder)
    assert not stopped and calls == [5 * 1_000_003 + 6]    # only the chunk not saved
    np.testing.assert_array_equal(again, whole)
    os.remove(folder / "values_00000.npy")     # a gap before saved chunks (workers finish
    calls.clear()                              # out of order): only it is made again
    again, _ = rl.rollout_labels(boards, games=4, seed=5, workers=1, chunk=3,
                                 checkpoint=folder)
    assert calls == [5 * 1_000_003]
    np.testing.assert_array_equal(again, whole)
    with pytest.raises(ValueError, match=r"\(games: 4 there, 8 now\)"):
        rl.rollout_labels(boards, games=8, seed=5, workers=1, chunk=3, checkpoint=folder)
    with pytest.raises(ValueError, match="boards"):
        rl.rollout_labels(boards[:8], games=4, seed=5, workers=1, chunk=3,
                          checkpoint=folder)
    # a checkpoint of the dice of 0.3.0 (no scheme recorded) is not continued
    recorded = json.loads((folder / "labels.json").read_text())
    assert recorded["dice"] == DICE_SCHEME
    del recorded["dice"]
    (folder / "labels.json").write_text(json.dumps(recorded))
    with pytest.raises(ValueError, match=re.escape(f"dice: '{EARLIER_DICE_SCHEME}' there, "
                                                   f"'{DICE_SCHEME}' now")):
        rl.rollout_labels(boards, games=4, seed=5, workers=1, chunk=3, checkpoint=folder)


def test_the_fit_moves_the_net_toward_the_labels(small):
    ev = Evaluator.default()
    boards = small[0][:40]
    labels, _ = rl.rollout_labels(boards, games=8, seed=1, workers=1)

    def cross_entropy(evaluator):
        p = np.clip(evaluator.probabilities(boards, plies=0)[0], 1e-6, 1 - 1e-6)
        t = labels[:, :7]
        return float(-(t * np.log(p) + (1 - t) * np.log(1 - p)).mean())

    net, loss = rl.fit_rollout_labels(ev, boards, labels, epochs=4, lr=1e-3, batch=8,
                                      seed=2)
    assert cross_entropy(Evaluator(net, rules=ev.rules)) < cross_entropy(ev)
    net2, loss2 = rl.fit_rollout_labels(ev, boards, labels, epochs=4, lr=1e-3, batch=8,
                                        seed=2)
    assert net2.digest() == net.digest() and loss2 == loss          # seeded
    bad = labels.copy()
    bad[3, 0] = np.nan
    with pytest.raises(ValueError, match="not labelled"):
        rl.fit_rollout_labels(ev, boards, bad)
    with pytest.raises(ValueError, match="shape"):
        rl.fit_rollout_labels(ev, boards, labels[:5])


def test_train_on_rollouts_resumes_records_and_refuses_other_settings(tmp_path):
    settings = dict(SMALL, games=2, epochs=1)
    a = rl.train_on_rollouts(tmp_path / "a.nfdb", **settings)
    folder = tmp_path / "b.partial"
    b = rl.train_on_rollouts(tmp_path / "b.nfdb", checkpoint=folder, **settings)
    assert a.net.digest() == b.net.digest()
    c = rl.train_on_rollouts(tmp_path / "c.nfdb", checkpoint=folder, **settings)  # all kept
    assert c.net.digest() == a.net.digest()
    t = Evaluator.load(tmp_path / "b.nfdb").meta["training"]
    start = Evaluator.default()
    assert t["method"] == "rollout labels" and t["init_digest"] == start.net.digest()
    assert t["init"] == start.meta["training"] and t["games"] == 2
    assert sum(t["positions"].values()) == len(rl.label_positions(**SMALL)[0])
    assert json.loads((folder / "settings.json").read_text())["seed"] == 21
    with pytest.raises(ValueError, match=r"\(games: 2 there, 3 now\)"):
        rl.train_on_rollouts(tmp_path / "d.nfdb", checkpoint=folder, **{**settings,
                                                                        "games": 3})
    with pytest.raises(TypeError, match="unknown settings"):
        rl.train_on_rollouts(tmp_path / "e.nfdb", rounds=3)


def test_cli_train_rollouts(tmp_path, capsys):
    import pandas as pd

    from nardy_fast.app.cli import build_parser, main
    boards, _ = rl.label_positions(**SMALL)
    pd.DataFrame({"position": [nf.Position.from_boards(*b).id for b in boards[:5]]}) \
        .to_parquet(tmp_path / "held.parquet")
    out = tmp_path / "net.nfdb"
    args = ["train-rollouts", "-o", str(out), "--selfplay-games", "3", "--source-games",
            "1", "--seed", "21", "--games", "2", "--epochs", "1", "--workers", "1",
            "--exclude", str(tmp_path / "held.parquet"), "--no-progress"]
    assert main(args) == 0
    assert f"{len(boards) - 5} positions, each rolled out 2 games" in capsys.readouterr().out
    assert not (tmp_path / "net.nfdb.partial").exists()
    assert Evaluator.load(out).meta["training"]["method"] == "rollout labels"
    assert main(args) == 1                                      # not overwritten
    assert "exists" in capsys.readouterr().err
    parsed = build_parser().parse_args(["train-rollouts", "-o", "x.nfdb"])
    for key, value in rl.ROLLOUT_DEFAULTS.items():              # one set of defaults
        assert getattr(parsed, key) == value, key


@pytest.mark.parametrize("bad, match", [
    (dict(games=0), "games=0"), (dict(lr=-1.0), "lr=-1.0"), (dict(lr=float("nan")), "lr"),
    (dict(selfplay_games=0, source_games=0), "no positions"), (dict(epochs=0), "epochs")])
def test_bad_settings_are_refused_before_any_work_or_file(tmp_path, bad, match):
    with pytest.raises(ValueError, match=match):
        rl.train_on_rollouts(tmp_path / "x.nfdb", checkpoint=tmp_path / "x.partial", **bad)
    assert os.listdir(tmp_path) == []


def test_cli_names_a_bad_exclude_file(tmp_path, capsys):
    import pandas as pd

    from nardy_fast.app.cli import main
    pd.DataFrame({"board": ["x"]}).to_parquet(tmp_path / "other.parquet")
    for path, said in ((tmp_path / "nope.parquet", "cannot read it"),
                       (tmp_path / "other.parquet", "a column 'position'")):
        assert main(["train-rollouts", "-o", str(tmp_path / "n.nfdb"), "--exclude",
                     str(path)]) == 1
        err = capsys.readouterr().err
        assert f"--exclude {path}: " in err and said in err
    assert sorted(os.listdir(tmp_path)) == ["other.parquet"]


def test_a_start_of_other_rules_is_refused_before_any_work_or_file(tmp_path):
    """The positions are of classic games and the labels classic rollouts: a start of
    another rule set would be written out carrying rules it never saw."""
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")             # the classic net serves the variant
        variant = Evaluator.default(nf.Rules(head_rule="generalized"))
    with pytest.raises(ValueError, match="init: a net of the rules 'head_rule=generalized'"):
        rl.train_on_rollouts(tmp_path / "x.nfdb", init=variant,
                             checkpoint=tmp_path / "x.partial")
    assert os.listdir(tmp_path) == []

def test_a_cut_rollout_labels_nothing(small, monkeypatch):
    """Ctrl-C in a position's rollout (in this process): its chunk stops there, unlabelled
    (it once took the cut rollout's figures as the label and went on)."""
    runs = cut_rollout_runs(monkeypatch, at=2)
    labels, stopped = rl.rollout_labels(small[0][:3], games=4, seed=5, workers=1, chunk=3)
    assert stopped and runs == [1, 1] and np.isnan(labels).all()
