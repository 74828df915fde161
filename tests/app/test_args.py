"""``app._args``: the rollout options not given take their defaults, the command's own
games and the shared options' policy, seed and truncation; an option of
``action="store_given"`` is told given from not given whatever its value."""
import argparse
import os
import re

import pytest

from nardy_fast.app import cli
from nardy_fast.app._args import CliError, check_timeout, rollout_defaults, was_given


def test_rollout_defaults_fill_only_what_was_not_given():
    ns = argparse.Namespace(games=None, policy="greedy", seed=None, truncate=None)
    rollout_defaults(ns, 77)
    assert vars(ns) == {"games": 77, "policy": "greedy", "seed": 2026, "truncate": "bearoff"}


def test_the_commands_leave_their_rollout_options_not_given_until_filled():
    parser = cli.build_parser()
    for argv, games in ((["study", "ids.txt", "--store", "s"], cli.STUDY_GAMES),
                        (["report", "ids.txt"], cli.REPORT_GAMES),
                        (["analyse", "game.txt"], cli.DEFAULT_GAMES)):
        args = parser.parse_args(argv)
        assert args.games is None                     # "not given", until filled
        rollout_defaults(args, games)
        assert (args.games, args.seed, args.policy) == (games, 2026, "net")


def test_an_option_given_at_its_default_value_is_told_from_one_not_given():
    parser = cli.build_parser()
    for argv, want in ((["hint", "start", "61"], False),
                       (["hint", "start", "61", "--plies", "2"], True),     # the default
                       (["hint", "start", "61", "--plies", "0", "--plies", "2"], True),
                       (["analyse", "game.txt", "--plies", "0"], True),     # the default
                       (["analyse", "game.txt", "--method", "net"], False)):
        args = parser.parse_args(argv)
        assert was_given(args, "plies") is want, argv
        assert args.plies == (2 if argv[0] == "hint" else int(argv[-1]) if want else 0)
    assert not was_given(argparse.Namespace(plies=2), "plies")


def test_earlier_files_names_a_runs_files_and_remove_stale_keeps_the_users(tmp_path):
    """The one check of report, analyse -o and matches -o: the files of an earlier run
    (by name) are refused without force, returned with it; afterwards the ones not
    written again are removed and any other file is left."""
    from nardy_fast.app._args import CliError, earlier_files, remove_stale
    pattern = r"board_\d{2}\.png|pip_report\.csv"
    assert earlier_files(tmp_path / "none", pattern, False, "report") == []
    assert earlier_files(tmp_path, pattern, False, "report") == []       # empty folder
    for name in ("board_01.png", "board_02.png", "pip_report.csv", "mine.txt"):
        (tmp_path / name).write_text(name)
    with pytest.raises(CliError, match=r"-o/--out .*: holds 3 file\(s\) of an earlier "
                       r"report \(board_01\.png, board_02\.png, pip_report\.csv\); --force"):
        earlier_files(tmp_path, pattern, False, "report")
    old = earlier_files(tmp_path, pattern, True, "report")
    assert old == ["board_01.png", "board_02.png", "pip_report.csv"]
    remove_stale(tmp_path, old, [str(tmp_path / "board_01.png"), str(tmp_path / "x.csv")])
    assert sorted(p.name for p in tmp_path.iterdir()) == ["board_01.png", "mine.txt"]


@pytest.mark.parametrize("text", ["nan", "inf", "-1", "-0.5", "x"])
def test_step_size_refuses_what_trains_no_net(text):
    from nardy_fast.app._args import step_size
    with pytest.raises(argparse.ArgumentTypeError, match="expected a"):
        step_size(text)


def test_step_size_takes_zero_and_a_small_step():
    from nardy_fast.app._args import step_size
    assert step_size("0") == 0.0 and step_size("1e-3") == 0.001


def test_log_file_is_checked_before_the_work(tmp_path):
    from nardy_fast.app._args import CliError, log_file
    assert log_file(None) is None
    assert log_file(str(tmp_path / "run.log")) == str(tmp_path / "run.log")
    with pytest.raises(CliError, match="--log .*: a folder, not a file"):
        log_file(str(tmp_path))
    with pytest.raises(CliError, match="--log .*: no such folder"):
        log_file(str(tmp_path / "none" / "run.log"))


def test_an_out_file_below_a_file_is_refused_by_its_option(tmp_path, monkeypatch):
    """-o DIR/x.nfdb where DIR is a file stopped, once the work was done, with "[Errno 17]
    File exists: '/abs/DIR'"; it is refused before the work, naming the option and the
    file in the way, as given.  A folder not there yet is still made when written."""
    from nardy_fast.app._args import CliError, new_file
    monkeypatch.chdir(tmp_path)
    (tmp_path / "net.nfdb").write_bytes(b"a net")
    for out in ("net.nfdb/x.nfdb", os.path.join("net.nfdb", "a", "b", "x.nfdb")):
        with pytest.raises(CliError, match=rf"^-o/--out {re.escape(out)}: net\.nfdb is a "
                                           r"file, not a folder$"):
            new_file(out, False)
    assert new_file(os.path.join("new", "x.nfdb"), False) == os.path.join("new", "x.nfdb")


def _listener(answer):
    """A local TCP port that is no Dask scheduler: it accepts connections and sends
    ``answer`` (b"": says nothing, as a web server waiting for its request line)."""
    import socket
    import threading
    server = socket.create_server(("127.0.0.1", 0))
    held = []

    def serve():
        while True:
            try:
                conn, _ = server.accept()
            except OSError:                      # closed: the test is over
                return
            held.append(conn)
            if answer:
                conn.sendall(answer)
    threading.Thread(target=serve, daemon=True).start()
    return server


@pytest.mark.parametrize("answer", [b"", b"HTTP/1.1 400 Bad Request\r\n\r\n"])
def test_a_scheduler_address_where_no_scheduler_answers_is_named(answer, monkeypatch):
    """--scheduler at a port where another program listens (the dashboard's, typed for
    the scheduler's): one line naming the option, within the connection's bound; it
    waited for ever for a handshake (b""), or failed with a MemoryError ("Unable to
    allocate 3.07 EiB") when the program answered in its own protocol."""
    import threading
    pytest.importorskip("distributed")
    from nardy_fast.app import _args
    from nardy_fast._utils import scheduler
    monkeypatch.setattr(scheduler, "CONNECT_SECONDS", 1)
    server = _listener(answer)
    address = f"tcp://127.0.0.1:{server.getsockname()[1]}"
    got = []

    def connect():
        try:
            _args._client(address).close()
        except BaseException as e:               # the test looks at it
            got.append(e)
    thread = threading.Thread(target=connect, daemon=True)
    thread.start()
    thread.join(30)
    server.close()
    assert not thread.is_alive(), f"--scheduler {address}: still connecting after 30 s"
    assert len(got) == 1 and isinstance(got[0], _args.CliError), got
    assert str(got[0]).startswith(f"--scheduler {address}: ")


@pytest.mark.parametrize("argv", [
    ("rollout", "start", "-n", "36", "--workers", "1", "--no-progress"),
    ("bearoff", "build", "--two-sided", "3", "--store", "{tmp}", "--no-progress")])
@pytest.mark.parametrize("address", ["", " "])
def test_an_empty_scheduler_address_is_refused(argv, address, tmp_path, capsys):
    """``--scheduler "$SCHEDULER"`` with the variable unset: the command ran on this
    machine, saying nothing of the cluster asked for.  It is refused by name now, before
    any work."""
    argv = [a.format(tmp=tmp_path / "store") for a in argv] + ["--scheduler", address]
    assert cli.main(argv) == 1
    out, err = capsys.readouterr()
    assert out == "" and err == (f"nardy-fast: error: --scheduler {address!r}: no "
                                 "address; give the Dask scheduler's, e.g. "
                                 "tcp://host:8786, or leave the option out to run "
                                 "locally\n")
    assert not (tmp_path / "store").exists()


@pytest.mark.parametrize("seconds", [0.0, -1.0, float("inf"), float("nan"), 1e12])
def test_a_timeout_no_wait_takes_is_refused_by_name(seconds):
    """``--timeout`` (duel, benchmark score): a positive number of seconds that a wait for
    an answer can take; 1e12 passed and was an OverflowError traceback at the first wait."""
    said = re.escape(f"--timeout {seconds:g}: expected a positive number of seconds")
    with pytest.raises(CliError, match="^" + said):
        check_timeout(seconds)
    assert check_timeout(0.5) == 0.5 and check_timeout(86400.0) == 86400.0


@pytest.mark.parametrize("argv, option", [
    (["show", "start", "--png", ""], "--png"),
    (["play", "-o", ""], "-o/--out"),
    (["train", "-o", ""], "-o/--out"),
    (["train-net", "-o", "n.nfdb", "--snapshots", ""], "--snapshots"),
    (["train-luck", "-o", "l.nfdb", "--init", ""], "--init"),
    (["analyse", "game.txt", "--html", ""], "--html"),
    (["analyse", "game.txt", "-o", ""], "-o/--out"),
    (["bearoff", "build", "--out", ""], "--out"),
    (["duel", "a", "b", "-n", "2", "--transcript", ""], "--transcript"),
    (["benchmark", "build", ""], "FILE"),
    (["benchmark", "build", "b.parquet", "--log", ""], "--log"),
])
def test_an_empty_file_name_is_refused_naming_its_option(argv, option, capsys):
    """An empty file or folder name (``-o "$OUT"``, ``OUT`` unset) is refused by the
    parser, before any work: it was taken as none (``show --png ''`` and ``analyse
    --html ''`` wrote nothing, without a word), or failed after the work (``play -o ''``
    lost the game's record, ``train -o ''`` the net it trained) in words naming neither
    the option nor the value."""
    with pytest.raises(SystemExit) as e:
        cli.build_parser().parse_args(argv)
    assert e.value.code == 2
    assert f"argument {option}: '': an empty name" in capsys.readouterr().err


@pytest.mark.parametrize("command", [["rollout", "start"], ["study", "ids.txt", "--store", "s"]])
def test_more_games_than_a_rollout_counts_are_refused_by_the_parser(command, capsys):
    """``-n`` past 2**53 (``settings.MAX_GAMES``) is refused naming the option; it ended
    in an ``OverflowError`` traceback from the game loops."""
    with pytest.raises(SystemExit) as e:
        cli.build_parser().parse_args(command + ["-n", str(10 ** 23)])
    assert e.value.code == 2
    assert (f"argument -n/--games: {10 ** 23}: expected a positive integer up to 2**53"
            in capsys.readouterr().err)
    assert cli.build_parser().parse_args(command + ["-n", str(2 ** 53)]).games == 2 ** 53
