"""``nardy-fast train-luck`` and ``nardy-fast train-net`` (training itself:
tests/engine/play/test_lucknet.py, tests/training/test_supervised.py)."""
import pytest

from nardy_fast.engine.evaluation._net import Net      # private on purpose: a net of given size
from nardy_fast.engine.evaluation.evaluator import Evaluator
from nardy_fast.training.labels import board_keys, selfplay_positions
from nardy_fast.engine.play.lucknet import load_luck_net
from nardy_fast.training.lucknet import LUCK_DEFAULTS, train_luck_net
from helpers import ctrl_c_at_call, unwritable_folder


def test_cli_train_luck_writes_a_luck_net(tmp_path, capsys):
    from nardy_fast.app.cli import main
    out = tmp_path / "luck.nfdb"
    assert main(["train-luck", "-o", str(out), "-n", "5", "--hidden", "8", "--epochs", "2",
                 "--seed", "3", "--no-progress"]) == 0
    net, meta = load_luck_net(out)
    assert net.n_hidden == 8 and meta["n_games"] == 5 and meta["seed"] == 3
    assert net.middle_units == LUCK_DEFAULTS["middle"] and meta["epochs"] == 2
    assert f"{meta['positions']} positions" in capsys.readouterr().out
    assert not (tmp_path / "luck.nfdb.partial").exists()       # the checkpoint, gone
    assert main(["train-luck", "-o", str(out), "-n", "5", "--hidden", "8", "--middle", "0",
                 "--epochs", "1", "--no-progress", "--force"]) == 0
    net, meta = load_luck_net(out)
    assert net.middle_units == () and meta["middle"] == []
    assert meta["seed"] == LUCK_DEFAULTS["seed"]
    assert main(["train-luck", "-o", str(out), "-n", "5", "--hidden", "8", "--middle",
                 "16,8", "--epochs", "1", "--no-progress", "--force"]) == 0
    assert load_luck_net(out)[0].middle_units == (16, 8)
    with pytest.raises(SystemExit):
        main(["train-luck", "-o", str(out), "--middle", "16,x"])
    with pytest.raises(SystemExit):
        main(["train-luck", "-o", str(out), "--hidden", "0"])


def test_cli_train_luck_defaults_are_the_functions():
    """One set of defaults: the command's are ``train_luck_net``'s (``LUCK_DEFAULTS``)."""
    import inspect

    from nardy_fast.app.cli import build_parser
    args = build_parser().parse_args(["train-luck", "-o", "x.nfdb"])
    sig = inspect.signature(train_luck_net).parameters
    for key, attr in (("n_games", "games"), ("epochs", "epochs"), ("seed", "seed"),
                      ("lr", "lr")):
        assert getattr(args, attr) == LUCK_DEFAULTS[key] == sig[key].default, key
    # the shape: None in both, LUCK_DEFAULTS' when there is no --init (checked by the
    # command's own run in test_cli_train_luck_writes_a_luck_net), the start's with one
    for key in ("hidden", "middle"):
        assert getattr(args, key) is None and sig[key].default is None, key


def test_cli_train_luck_refines_a_net(tmp_path, capsys):
    from nardy_fast.app.cli import main
    start, refined = tmp_path / "start.nfdb", tmp_path / "refined.nfdb"
    common = ["-n", "4", "--seed", "3", "--no-progress"]
    assert main(["train-luck", "-o", str(start), "--hidden", "16", "--middle", "8",
                 "--epochs", "2", *common]) == 0
    assert main(["train-luck", "-o", str(refined), "--init", str(start), "--epochs", "1",
                 "--lr", "1e-4", *common]) == 0
    net, meta = load_luck_net(refined)
    first, first_meta = load_luck_net(start)
    assert (net.n_hidden, net.middle_units) == (16, (8,))
    assert meta["lr"] == 1e-4 and meta["epochs"] == 1
    assert meta["init"] == {"digest": first.digest(), **first_meta}
    capsys.readouterr()
    for bad, says in ((["--init", str(start), "--hidden", "24"], "--hidden 24"),
                      (["--init", str(tmp_path / "none.nfdb")], "none.nfdb"),
                      (["--lr", "0"], "--lr 0.0: the step must be a positive number")):
        assert main(["train-luck", "-o", str(tmp_path / "x.nfdb"), *bad, *common]) != 0
        assert says in capsys.readouterr().err
        assert not (tmp_path / "x.nfdb").exists()
        assert not (tmp_path / "x.nfdb.partial").exists()


def test_cli_train_net_resumes_and_excludes(tmp_path, capsys):
    import pandas as pd

    from nardy_fast.app.cli import main
    from nardy_fast.core.position import Position
    start = tmp_path / "start.nfdb"
    Evaluator(Net.random(16, 9)).save(start)
    held = selfplay_positions(Evaluator.load(start).net, 1, seed=3)[:30]
    ids = [Position.from_boards(b[0], b[1]).id for b in held]
    pd.DataFrame({"position": ids}).to_parquet(tmp_path / "held.parquet")
    out = tmp_path / "net.nfdb"
    args = ["train-net", "-o", str(out), "--init", str(start), "--seed", "3",
            "--rounds", "2", "--games", "2", "--epochs", "1", "--exclude",
            str(tmp_path / "held.parquet"), "--snapshots", str(tmp_path / "snaps")]
    assert main(args) == 0
    assert sorted(p.name for p in (tmp_path / "snaps").iterdir()) == [
        "round_001.nfdb", "round_002.nfdb"]
    assert (Evaluator.load(tmp_path / "snaps" / "round_002.nfdb").net.w1
            == Evaluator.load(out).net.w1).all()
    meta = Evaluator.load(out).meta["training"]
    assert meta["rounds_done"] == 2 and meta["excluded"] == len(set(board_keys(held)))
    assert "2 rounds" in capsys.readouterr().out


def test_cli_train_net_lam_and_progress_do_something(tmp_path, capsys):
    from nardy_fast.app.cli import main
    start = tmp_path / "start.nfdb"
    Evaluator(Net.random(16, 9)).save(start)
    base = ["train-net", "--init", str(start), "--seed", "3", "--rounds", "1", "--games",
            "2", "--epochs", "1"]
    assert main(base + ["-o", str(tmp_path / "a.nfdb"), "--lam", "0.7", "--progress"]) == 0
    out = capsys.readouterr().out
    assert "round 1, positions" in out                      # the line of --progress
    assert main(base + ["-o", str(tmp_path / "b.nfdb"), "--no-progress"]) == 0
    assert "round 1" not in capsys.readouterr().out
    a, b = Evaluator.load(tmp_path / "a.nfdb"), Evaluator.load(tmp_path / "b.nfdb")
    assert a.meta["training"]["lam"] == 0.7 and b.meta["training"]["lam"] == 0.0
    assert not (a.net.w1 == b.net.w1).all()                 # the corrected targets differ
    assert main(base + ["-o", str(tmp_path / "c.nfdb"), "--lam", "1.5"]) != 0
    assert "--lam 1.5: must be in [0, 1]" in capsys.readouterr().err


@pytest.mark.parametrize("argv, said", [
    (["--rounds", "0"], "--rounds 0: must be >= 1"),
    (["--lr-final", "0"], "--lr-final 0.0: must be a finite number > 0"),
    (["--lr", "inf"], "--lr inf: must be a finite number > 0"),
    (["--keep", "3"], "--keep 3: no effect with --plies 1 (it filters"),
    (["--plies", "5"], "--plies 5: expected 1 or 2")])
def test_cli_train_net_names_a_bad_setting_by_its_option(tmp_path, capsys, argv, said):
    """A setting refused by ``train_supervised`` (``rounds = 0: ...``) is said in the
    option's words, before any round is played and with no file written."""
    from nardy_fast.app.cli import main
    out = tmp_path / "n.nfdb"
    assert main(["train-net", "-o", str(out)] + argv) == 1
    assert capsys.readouterr().err.startswith(f"nardy-fast: error: {said}")
    assert not out.exists()


def test_cli_average_nets_writes_the_mean(tmp_path, capsys):
    from nardy_fast.app.cli import main
    paths = [tmp_path / f"{k}.nfdb" for k in "abc"]
    for p, (h, s) in zip(paths, ((16, 1), (16, 2), (24, 3))):
        Evaluator(Net.random(h, s)).save(p)
    out = tmp_path / "mean.nfdb"
    assert main(["average-nets", str(paths[0]), str(paths[1]), "-o", str(out)]) == 0
    assert "the mean of 2 nets" in capsys.readouterr().out
    a, b = (Evaluator.load(p).net.w1 for p in paths[:2])
    assert abs(Evaluator.load(out).net.w1 - (a + b) / 2).max() < 1e-6
    other = tmp_path / "other.nfdb"
    assert main(["average-nets", str(paths[0]), str(paths[2]), "-o", str(other)]) == 1
    assert f"{paths[2]}: 24 hidden units" in capsys.readouterr().err
    assert main(["average-nets", str(paths[0]), str(tmp_path / "none.nfdb"),
                 "-o", str(other)]) == 1
    assert "none.nfdb" in capsys.readouterr().err
    assert not other.exists()


def test_cli_net_outputs_are_not_replaced_unless_forced(tmp_path, capsys):
    """An existing -o file (a net a run made) is refused before any work, naming it and
    --force; with --force it is replaced."""
    from nardy_fast.app.cli import main
    paths = [tmp_path / f"{k}.nfdb" for k in "ab"]
    for p, s in zip(paths, (1, 2)):
        Evaluator(Net.random(16, s)).save(p)
    out = tmp_path / "kept.nfdb"
    out.write_bytes(b"a user's file")
    for argv in (["average-nets", str(paths[0]), str(paths[1]), "-o", str(out)],
                 ["train-luck", "-o", str(out), "-n", "2", "--hidden", "16", "--middle",
                  "0", "--epochs", "1", "--no-progress"]):
        assert main(argv) == 1
        err = capsys.readouterr().err.strip()
        assert err.startswith(f"nardy-fast: error: -o/--out {out}: exists (a ")
        assert err.endswith("; --force replaces it, or name another file")
        assert out.read_bytes() == b"a user's file"
        assert not (tmp_path / "kept.nfdb.partial").exists()     # no work was started
    assert main(["average-nets", str(paths[0]), str(paths[1]), "-o", str(out),
                 "--force"]) == 0
    assert Evaluator.load(out).net.n_hidden == 16
    assert main(["average-nets", str(paths[0]), str(paths[1]), "-o", str(tmp_path)]) == 1
    assert "a folder, not a file" in capsys.readouterr().err


@pytest.mark.parametrize("command", [["train", "-n", "16", "--check-every", "0"],
                                     ["train-net", "--rounds", "1", "--games", "2",
                                      "--epochs", "1", "--no-progress"]])
def test_cli_training_does_not_replace_a_file_that_is_not_its_checkpoint(tmp_path, capsys,
                                                                         command):
    """train and train-net write their net file as they go and continue a run found there;
    a user's file there is refused before any work, named, and left as it was; --force
    starts the run over it."""
    from nardy_fast.app.cli import main
    out = tmp_path / "mine.nfdb"
    out.write_bytes(b"a user's file")
    argv = [command[0], "-o", str(out), *command[1:]]
    assert main(argv) == 1
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"nardy-fast: error: {out}: exists and is not a checkpoint of "
                          "this run (not a net: "), err
    assert "--force" in err and out.read_bytes() == b"a user's file"
    if command[0] == "train":                     # the quick one: replaced when asked
        assert main([*argv, "--force"]) == 0
        assert Evaluator.load(out).meta["training"]["games_done"] == 16


def test_cli_train_luck_refuses_a_checkpoint_of_other_settings(tmp_path, capsys):
    """``OUT.partial`` of a run with other settings: one line naming the folder and the
    setting, the folder kept, no net written."""
    from nardy_fast.app.cli import main
    out = tmp_path / "luck.nfdb"
    partial = tmp_path / "luck.nfdb.partial"
    train_luck_net(2, hidden=16, middle=(), epochs=1, seed=3, checkpoint=partial)
    assert main(["train-luck", "-o", str(out), "-n", "2", "--hidden", "8", "--middle", "0",
                 "--epochs", "1", "--seed", "3", "--no-progress"]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [f"nardy-fast: error: checkpoint {partial}: made with other settings "
                   f"(hidden: 16 there, 8 now); remove the folder to start again"]
    assert partial.is_dir() and not out.exists()
    assert main(["train-luck", "-o", str(out), "-n", "2", "--hidden", "16", "--middle", "0",
                 "--epochs", "1", "--seed", "3", "--no-progress"]) == 0
    assert "luck.nfdb.partial exists: continuing" in capsys.readouterr().out
    assert out.exists() and not partial.exists()


def test_cli_train_luck_interrupted_says_where_its_progress_is(tmp_path, capsys,
                                                              monkeypatch):
    from nardy_fast.app.cli import main
    from nardy_fast.training import lucknet as luck_training

    def stop(*args):
        raise KeyboardInterrupt
    monkeypatch.setattr(luck_training, "_grads", stop)
    out = tmp_path / "luck.nfdb"
    assert main(["train-luck", "-o", str(out), "-n", "2", "--hidden", "8", "--epochs", "1",
                 "--no-progress"]) == 130
    err = capsys.readouterr().err
    assert f"kept in {out}.partial; the same command continues it" in err
    assert not out.exists() and (tmp_path / "luck.nfdb.partial" / "data.json").exists()


@pytest.mark.parametrize("option, value, says", [
    ("--lr", "nan", "argument --lr: nan: expected a finite number >= 0"),
    ("--lr-final", "-1", "argument --lr-final: -1: expected a finite number >= 0"),
    ("--check-every", "-5", "argument --check-every: -5: expected an integer >= 0"),
])
def test_train_refuses_a_step_or_a_check_that_makes_no_net(tmp_path, capsys, option, value,
                                                            says):
    """``train --lr nan`` exited 0 with a net that cannot load; ``--check-every -5``
    checked after every batch."""
    from nardy_fast.app.cli import main
    out = tmp_path / "t.nfdb"
    with pytest.raises(SystemExit):
        main(["train", "-o", str(out), "-n", "64", "--threads", "1", option, value])
    assert says in capsys.readouterr().err
    assert not out.exists()


def test_an_interrupted_labelling_says_what_its_partial_folder_holds(tmp_path):
    """train-rollouts and train-luck said "the labels made so far are kept" when no chunk
    had finished (the folder held only the settings): the stop now counts them."""
    import json
    from nardy_fast.app.cli_engine import _kept
    (tmp_path / "labels.json").write_text(json.dumps({"positions": 902, "chunk": 500}))
    assert _kept(tmp_path, "labels.json") == (
        "only the settings (no chunk of 500 labels finished yet)")
    (tmp_path / "values_00000.npy").write_bytes(b"")
    assert _kept(tmp_path, "labels.json") == "1 of 2 chunk(s) of labels (500 positions each)"
    assert _kept(tmp_path, "none.json") == "1 chunk(s) of labels"


def test_train_net_names_options_that_change_nothing(tmp_path, monkeypatch, capsys):
    """``--threads 2`` at 1 ply, and ``--lr`` when the one epoch takes ``--lr-final``,
    were accepted silently (the weights were byte-identical with any ``--lr``)."""
    from nardy_fast.app.cli import main
    from nardy_fast.training import supervised
    monkeypatch.setattr(supervised, "train_supervised",
                        lambda *a, **k: Evaluator(Net.random(8, 1), meta={
                            "training": {"rounds_done": 1}}))
    out = str(tmp_path / "n.nfdb")
    assert main(["train-net", "-o", out, "--threads", "2", "--epochs", "1", "--lr", "5",
                 "--lr-final", "1e-4"]) == 0
    err = capsys.readouterr().err
    assert "warning: --threads: no effect with --plies 1" in err
    assert "warning: --lr: no effect with --epochs 1 and --lr-final" in err
    assert main(["train-net", "-o", out, "--plies", "2", "--threads", "2", "--lr", "5"]) == 0
    assert "warning" not in capsys.readouterr().err


def test_force_starts_a_run_of_other_settings_again(tmp_path, capsys, monkeypatch):
    """--force on train-luck (and train-rollouts) printed "continuing the run kept there",
    then refused the folder of other settings ("remove the folder to start again")."""
    from nardy_fast.app.cli import main
    from nardy_fast.training import lucknet as luck_training
    calls = []

    def fake(*a, checkpoint=None, **k):
        calls.append(checkpoint)
        if len(calls) == 1:
            raise ValueError(f"checkpoint {checkpoint}: made with other settings (seed: 1 "
                             "there, 2 in this run); remove the folder to start again")
        raise KeyboardInterrupt                  # the new run starts: enough for the test
    monkeypatch.setattr(luck_training, "train_luck_net", fake)
    out = tmp_path / "l.nfdb"
    partial = tmp_path / "l.nfdb.partial"
    partial.mkdir()
    (partial / "train.json").write_text("{}")
    assert main(["train-luck", "-o", str(out), "-n", "5"]) == 1       # refused: no --force
    assert "made with other settings" in capsys.readouterr().err and partial.exists()
    calls.clear()
    assert main(["train-luck", "-o", str(out), "-n", "5", "--force"]) == 130
    assert "made with other settings, removed as --force asks; a new run" in \
        capsys.readouterr().out
    assert len(calls) == 2 and not (partial / "train.json").exists()


def test_cli_train_net_interrupted_says_what_it_kept(tmp_path, capsys, monkeypatch):
    """Ctrl-C in train-net printed "nardy-fast: interrupted" alone, though the net of
    every finished round was in the --out file: it now says how many, in the command's
    words."""
    from nardy_fast.app.cli import main
    from nardy_fast.training import supervised
    calls = ctrl_c_at_call(monkeypatch, supervised, "fit")
    start, out = tmp_path / "start.nfdb", tmp_path / "t.nfdb"
    Evaluator(Net.random(16, 9)).save(start)
    assert main(["train-net", "-o", str(out), "--init", str(start), "--rounds", "3",
                 "--games", "2", "--epochs", "1", "--no-progress"]) == 130
    err = capsys.readouterr().err
    assert f"nardy-fast: interrupted: train-net: 1 of 3 rounds kept in {out}" in err
    assert "the same command resumes" in err
    assert Evaluator.load(out).meta["training"]["rounds_done"] == 1


@pytest.mark.parametrize("option, value, says", [
    ("--hidden", "12", "--hidden 12: must be a multiple of 8 and at least the start net's 16"),
    ("--hidden2", "12", "--hidden2 12: expected a multiple of 8 up to 1024"),
    ("--hidden", "1000000000000", "--hidden 1000000000000: expected a multiple of 8 up to"),
])
def test_cli_train_net_names_a_bad_width_by_its_option(tmp_path, capsys, option, value,
                                                       says):
    """train-net --hidden 12 said "hidden = 12: ...", the library's keyword, where the
    other settings are named by their option."""
    from nardy_fast.app.cli import main
    start, out = tmp_path / "start.nfdb", tmp_path / "t.nfdb"
    Evaluator(Net.random(16, 9)).save(start)
    assert main(["train-net", "-o", str(out), "--init", str(start), "--rounds", "1",
                 "--games", "2", "--no-progress", option, value]) == 1
    assert f"nardy-fast: error: {says}" in capsys.readouterr().err
    assert not out.exists()


@pytest.mark.parametrize("argv, says", [
    (["train-rollouts", "--selfplay-games", "-1"], "--selfplay-games -1: must be >= 0"),
    (["train-rollouts", "--every-reached", "0"], "--every-reached 0: must be >= 1"),
    (["train-rollouts", "--lr", "0"], "--lr 0.0: the step must be a positive number"),
    (["train-luck", "--hidden", "12"], "--hidden 12: expected a multiple of 8 up to 1024"),
    (["train-luck", "--lr", "inf"], "--lr inf: the step must be a positive number"),
])
def test_cli_train_rollouts_and_luck_name_a_bad_setting_by_its_option(tmp_path, capsys,
                                                                      argv, says):
    """train-rollouts and train-luck said a setting refused in the library's keyword
    (``selfplay_games=-1: ...``, ``lr=0.0: ...``), where train-net names it by its
    option; before any work, with no file or partial folder written."""
    from nardy_fast.app.cli import main
    out = tmp_path / "x.nfdb"
    assert main([argv[0], "-o", str(out), "--no-progress", *argv[1:]]) == 1
    assert capsys.readouterr().err.startswith(f"nardy-fast: error: {says}")
    assert not out.exists() and not (tmp_path / "x.nfdb.partial").exists()


@pytest.mark.parametrize("command, said", [
    (["train", "-n", "16", "--threads", "1", "--check-every", "0"], "16 games"),
    (["train-net", "--rounds", "1", "--games", "2", "--epochs", "1", "--no-progress"],
     "1 round")])
def test_cli_training_run_again_on_its_finished_checkpoint_says_so(tmp_path, capsys,
                                                                   command, said):
    """The same command again on a finished run's net file writes nothing and says so
    (it said nothing, or that it wrote the file); a finished run says what it wrote."""
    from nardy_fast.app.cli import main
    out = tmp_path / "net.nfdb"
    argv = [command[0], "-o", str(out), *command[1:]]
    if command[0] == "train-net":
        start = tmp_path / "start.nfdb"
        Evaluator(Net.random(16, 9)).save(start)
        argv += ["--init", str(start)]
    assert main(argv) == 0
    assert capsys.readouterr().out.strip().splitlines()[-1] == f"wrote {out}: {said}"
    before = out.read_bytes()
    assert main(argv) == 0
    got = capsys.readouterr().out.strip()
    assert got.startswith(f"nothing to do: {out} holds this run, finished ({said}"), got
    assert "wrote" not in got and out.read_bytes() == before


@pytest.mark.parametrize("command", [["train", "-n", "16", "--check-every", "0"],
                                     ["train-net", "--rounds", "1", "--games", "2",
                                      "--epochs", "1", "--no-progress"]])
def test_cli_training_refuses_an_out_it_cannot_write_before_the_work(tmp_path, capsys,
                                                                      monkeypatch, command):
    """train and train-net found that no file could be made in -o's folder only at their
    first checkpoint, after the games of it (a round of train-net), and then said that the
    disk was full; they now say so first, naming -o/--out, and play no game."""
    from nardy_fast.app.cli import main
    from nardy_fast.training import supervised, train
    shut = unwritable_folder(monkeypatch, tmp_path)
    played = []
    monkeypatch.setattr(train, "ThreadPoolExecutor", lambda *a, **k: played.append(1))
    monkeypatch.setattr(supervised, "selfplay_games", lambda *a, **k: played.append(1))
    start = tmp_path / "start.nfdb"
    Evaluator(Net.random(8, 9)).save(start)
    init = ["--init", str(start)] if command[0] == "train-net" else []
    out = shut / "net.nfdb"
    assert main([command[0], "-o", str(out), *command[1:], *init]) == 1
    assert capsys.readouterr().err.strip() == (
        f"nardy-fast: error: -o/--out {out}: cannot write in {shut} (Permission denied)")
    assert played == [] and list(shut.iterdir()) == []


@pytest.mark.parametrize("name, frame, said", [
    ("gone.parquet", None, "cannot read it (no such file)"),
    ("folder", "folder", "a folder, not a file"),
    ("plain.csv", "text", "not a Parquet file ("),
    ("other.parquet", {"id": ["x"]}, "expected a column 'position' of position IDs; its "
                                     "columns are id"),
    ("short.parquet", {"position": ["zzz"]}, "row 0: position ID 'zzz': expected 33 "
                                             "characters, got 3"),
    ("numbers.parquet", {"position": [1, 2]}, "row 0: position ID: expected str, got int"),
])
def test_cli_train_net_names_a_bad_exclude_file_in_one_line(tmp_path, capsys, name, frame,
                                                            said):
    """A --exclude file without a 'position' column gave pyarrow's message of several
    lines, and a bad position ID in it a line naming neither --exclude nor the file: each
    is one line naming the option and the file (and the row of a bad ID), before the work."""
    import pandas as pd

    from nardy_fast.app.cli import main
    path = tmp_path / name
    if frame == "folder":
        path.mkdir()
    elif frame == "text":
        path.write_text("position\nzzz\n")
    elif frame is not None:
        pd.DataFrame(frame).to_parquet(path)
    out = tmp_path / "net.nfdb"
    assert main(["train-net", "-o", str(out), "--rounds", "1", "--games", "2", "--epochs",
                 "1", "--no-progress", "--exclude", str(path)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"nardy-fast: error: --exclude {path}: {said}"), err
    assert err.count("\n") == 1 and not out.exists()


def test_cli_train_net_names_a_snapshots_file_by_its_option(tmp_path, capsys):
    """--snapshots naming a file, not a folder, gave "[Errno 17] File exists: 'FILE'", in
    words naming neither the option nor the trouble; the file is left as it was."""
    from nardy_fast.app.cli import main
    start = tmp_path / "start.nfdb"
    Evaluator(Net.random(8, 9)).save(start)
    out = tmp_path / "net.nfdb"
    assert main(["train-net", "-o", str(out), "--init", str(start), "--rounds", "1",
                 "--games", "2", "--epochs", "1", "--no-progress", "--snapshots",
                 str(start)]) == 1
    assert capsys.readouterr().err.strip() == (
        f"nardy-fast: error: --snapshots {start}: a file, not a folder")
    assert not out.exists() and Evaluator.load(start).net.n_hidden == 8


def test_cli_train_interrupted_says_the_same_command_resumes(tmp_path, capsys, monkeypatch):
    """Ctrl-C in nardy-fast train after a checkpoint said "the same call resumes", the
    library's words: at the command line it is the same command."""
    import functools

    from nardy_fast.app.cli import main
    from nardy_fast.training import _selfplay, train
    monkeypatch.setattr(train, "train", functools.partial(train.train, checkpoint_every=32,
                                                          hidden=8))
    ctrl_c_at_call(monkeypatch, _selfplay, "lambda_targets", call=3)
    out = tmp_path / "t.nfdb"
    assert main(["train", "-o", str(out), "-n", "128", "--threads", "1",
                 "--check-every", "0"]) == 130
    err = capsys.readouterr().err
    assert f"nardy-fast: interrupted: train: 64 of 128 games kept in {out}" in err
    assert err.rstrip().endswith("; the same command resumes"), err
    assert Evaluator.load(out).meta["training"]["games_done"] == 64
