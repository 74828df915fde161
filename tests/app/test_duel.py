"""``nardy-fast duel``: the toolkit's own engine at two settings in mirrored pairs (both
seats, the same dice, reproducible for a seed), forfeits named (an illegal move, a program
that ends or hangs), and the standard error of a hand-written transcript."""
import json
import math
import os
import shlex
import signal
import subprocess
import sys
import time

import numpy as np
import pytest

import nardy_fast as nf
from nardy_fast.app import cli
from nardy_fast.app.duel import (DuelStopped, duel_points, duel_summary, play_duel,
                                 read_transcript)
from nardy_fast.core.record import RecordError

ENGINE = f"{shlex.quote(sys.executable)} -m nardy_fast.app.cli engine"

# a program that greets, then answers every 'go' by FAULT (a format of one argument)
SCRIPT = """
import os, pathlib, sys, time
for line in sys.stdin:
    w = line.split()
    if not w:
        continue
    if w[0] == "nardy":
        print("id name scripted"); print("id version 0"); print("nardyok", flush=True)
    elif w[0] == "isready":
        print("readyok", flush=True)
    elif w[0] == "go":
        FAULT
    elif w[0] == "quit":
        break
"""
FAULTS = {
    # no checker stands on point 13 at the start: never a legal move there
    "illegal": 'print("bestmove 13/19", flush=True)',
    "error": 'print("error go: out of ideas", flush=True)',
    "dies": 'print("boom", file=sys.stderr, flush=True); sys.exit(3)',
    "hangs": "time.sleep(600)",
    "long": 'print("bestmove " + "1/2 " * 100_000, flush=True)',
    "long error": 'print("error go: " + "no " * 100_000, flush=True)',
    # says it was asked (its process id in the file MARK), then thinks forever
    "waits": "pathlib.Path(MARK).write_text(str(os.getpid())); time.sleep(600)",
}


def _script(tmp_path, fault):
    path = tmp_path / f"{fault.replace(' ', '_')}.py"
    path.write_text(SCRIPT.replace("FAULT", FAULTS[fault]).replace(
        "MARK", repr(str(tmp_path / "asked"))))
    return f"{shlex.quote(sys.executable)} {shlex.quote(str(path))}"


def test_the_engine_against_itself_mirrors_each_pair():
    """Plies 0 against plies 0: A is White in a pair's first game and Black in its second,
    turn k of both has the same dice, so the same program in both seats plays the same
    game twice and A's points in the pair sum to 0; every record replays."""
    r = play_duel(f"{ENGINE} --plies 0", f"{ENGINE} --plies 0", 2, seed=7, progress=False)
    g1, g2 = r["records"]
    assert (g1.tags["A"], g2.tags["A"]) == ("white", "black")
    assert [t.dice for t in g1.turns] == [t.dice for t in g2.turns]
    assert [t.steps for t in g1.turns] == [t.steps for t in g2.turns]
    assert g1.replay()[-1].is_over() and g1.result()["winner"] is not None
    assert r["points"].shape == (1, 2) and r["points"].sum() == 0
    assert r["games"] == 2 and r["ppg"] == 0.0 and math.isnan(r["se_ppg"])
    assert r["names"] == ["nardy-fast", "nardy-fast"]
    assert r["forfeits"] == {"A": 0, "B": 0}


def test_two_settings_of_the_engine_are_reproducible_for_a_seed(tmp_path, capsys):
    """Plies 0 against plies 1, twice through the command with one seed: the same
    transcripts, and the figures printed are those of the transcript."""
    outs = []
    for k in range(2):
        path = tmp_path / f"duel{k}.txt"
        code = cli.main(["duel", f"{ENGINE} --plies 0", f"{ENGINE} --plies 1", "-n", "2",
                         "--seed", "11", "--transcript", str(path), "--json",
                         "--no-progress"])
        assert code == 0
        r = json.loads(capsys.readouterr().out)
        assert r.pop("transcript") == str(path)
        outs.append((path.read_text(), r))
    (text, r), (text2, r2) = outs
    assert text == text2 and r == r2
    records = read_transcript(tmp_path / "duel0.txt")
    assert [rec.tags["A"] for rec in records] == ["white", "black"]
    assert [rec.tags["Seed"] for rec in records] == ["11", "11"]
    assert r["points"] == duel_points(records).tolist()
    assert r["ppg"] == pytest.approx(np.mean(r["points"]))
    for rec in records:
        assert rec.replay()[-1].is_over()


def test_an_illegal_move_loses_the_game_by_forfeit_named(tmp_path, capsys):
    """A program that answers a move no roll allows forfeits each game, named with its
    move; a forfeit scores the most a game can (a mars, 2 points, classic)."""
    path = tmp_path / "duel.txt"
    code = cli.main(["duel", _script(tmp_path, "illegal"), f"{ENGINE} --plies 0", "-n", "2",
                     "--seed", "1", "--transcript", str(path), "--no-progress"])
    out = capsys.readouterr().out
    assert code == 0
    assert "forfeits: A 2, B 0" in out and "A scored -2.000 points per game" in out
    g1, g2 = read_transcript(path)
    for rec, side in ((g1, "white"), (g2, "black")):
        why = rec.tags["Forfeit"]
        assert why.startswith(f"{side} (A): engine A (") and "played '13/19'" in why
    assert len(g1.turns) == 0 and len(g2.turns) == 1       # B moved first in game 2


@pytest.mark.parametrize("fault, words", [
    ("error", "answered 'go' with 'error go: out of ideas'"),
])
def test_an_error_answer_is_a_forfeit(tmp_path, fault, words):
    r = play_duel(_script(tmp_path, fault), _script(tmp_path, fault), 2, seed=1,
                  progress=False)
    assert r["forfeits"] == {"A": 1, "B": 1}             # each program is White once
    assert words in r["records"][0].tags["Forfeit"]


@pytest.mark.parametrize("fault, words, length", [
    ("long", "played '1/2 1/2 1/2 ", "399,999"),
    ("long error", "with 'error go: no no no ", "300,009"),
])
def test_a_very_long_answer_is_cut_short_in_the_forfeit(tmp_path, fault, words, length):
    """A move (or an error line) of 400 000 characters was copied whole into the
    game's Forfeit tag and the transcript (400 kB a game).  The answer is shown cut to
    its first characters, with its length, as every error message of the package cuts a
    long input (``core.position._shown``); the length is the answer's own (it had been
    that of its ``repr``, quotes and escapes included)."""
    r = play_duel(_script(tmp_path, fault), _script(tmp_path, fault), 2, seed=1,
                  progress=False)
    why = r["records"][0].tags["Forfeit"]
    assert words in why and len(why) < 1000, len(why)
    assert f"'... ({length} characters)" in why, why


@pytest.mark.parametrize("fault, words", [
    ("dies", "ended with exit status 3; its last words on stderr: boom"),
    ("hangs", "hung: no answer to 'go' within 0.5 s (--timeout)"),
])
def test_a_program_that_ends_or_hangs_is_named_and_stops_the_duel(tmp_path, capsys, fault,
                                                                  words):
    a = _script(tmp_path, fault)
    with pytest.raises(DuelStopped) as e:
        play_duel(a, _script(tmp_path, "illegal"), 4, seed=1, timeout=0.5, progress=False)
    assert str(e.value).startswith(f"engine A ({a!r})") and words in str(e.value)
    assert len(e.value.records) == 1
    assert e.value.records[0].tags["Forfeit"].startswith("white (A): ")
    # the command: the games finished are reported, then the error, status 1
    code = cli.main(["duel", a, _script(tmp_path, "illegal"), "-n", "4", "--timeout", "0.5",
                     "--no-progress"])
    out, err = capsys.readouterr()
    assert code == 1 and "forfeits: A 1, B 0" in out
    assert err.startswith(f"nardy-fast: error: engine A ({a!r})") and words in err


def test_sigterm_stops_the_duel_and_its_programs(tmp_path):
    """SIGTERM while a program thinks: the duel stops as every command does (status 143,
    'interrupted after ...'), and the program it started is stopped with it."""
    a = _script(tmp_path, "waits")
    p = subprocess.Popen([sys.executable, "-m", "nardy_fast.app.cli", "duel", a, a, "-n", "2",
                          "--timeout", "600", "--no-progress"], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
    mark = tmp_path / "asked"
    try:
        deadline = time.monotonic() + 120
        while not (mark.exists() and mark.read_text()) and time.monotonic() < deadline:
            time.sleep(0.05)                     # until program A is asked for a move
        assert mark.exists(), "program A was never asked for a move"
        p.send_signal(signal.SIGTERM)
        out, err = p.communicate(timeout=60)
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
    assert p.returncode == 143
    assert err.strip().endswith("nardy-fast: interrupted after 0 of 2 games"), err
    with pytest.raises(ProcessLookupError):
        os.kill(int(mark.read_text()), 0)        # the program is gone (stopped and reaped)


@pytest.mark.parametrize("argv, words", [
    (["nonexistent-program-xyz", ENGINE, "-n", "2"], "engine A ('nonexistent-program-xyz'): "
                                                     "cannot start it"),
    (["", ENGINE, "-n", "2"], "engine A: the command is empty"),
    ([ENGINE, ENGINE, "-n", "1"], "-n/--games 1: a duel plays pairs of games"),
    ([ENGINE, ENGINE, "-n", "2", "--timeout", "0"], "--timeout 0: expected a positive"),
    ([ENGINE, ENGINE, "-n", "2", "--transcript", "no/such/folder/t.txt"],
     "--transcript no/such/folder/t.txt: no such folder"),
])
def test_bad_input_gets_a_clear_error(argv, words, capsys):
    code = cli.main(["duel", *argv, "--no-progress"])
    err = capsys.readouterr().err
    assert code == 1 and words in err, err


def test_an_existing_transcript_is_kept_unless_force(tmp_path, capsys):
    """An existing --transcript file is refused before the duel, and left as it
    was; --force replaces it with the duel's records."""
    path = tmp_path / "mine.txt"
    path.write_text("my notes\n")
    argv = ["duel", _script(tmp_path, "illegal"), f"{ENGINE} --plies 0", "-n", "2",
            "--seed", "1", "--transcript", str(path), "--no-progress"]
    assert cli.main(argv) == 1
    err = capsys.readouterr().err
    assert f"--transcript {path}: exists" in err and "--force replaces it" in err, err
    assert path.read_text() == "my notes\n"
    assert cli.main([*argv, "--force"]) == 0
    assert len(read_transcript(path)) == 2


# -- the standard error of a transcript ------------------------------------------------
ONE_LEFT = nf.Position(np.eye(24, dtype=int)[23], np.eye(24, dtype=int)[23])  # oin
ALL_ON = nf.Position(np.eye(24, dtype=int)[23], 15 * np.eye(24, dtype=int)[0])  # mars


def _record(pair, a, start, body, forfeit=None):
    tags = [f'; [Pair "{pair}"]', f'; [A "{a}"]', f'; [Start "{start.id}"]']
    if forfeit:
        tags.append(f'; [Forfeit "{forfeit}"]')
    return "\n".join(["; nardy_fast game record 1", *tags, "", body, ""])


def test_the_standard_error_of_a_hand_written_transcript(tmp_path):
    """Two pairs written by hand.  Pair 1: White bears its last checker off in both games
    (1 point, an oin): A +1 as White, -1 as Black, mean 0.  Pair 2: A as White wins a
    mars (+2), then B as White forfeits (A +2, the forfeit's mars), mean 2.  ppg = 4 / 4
    = 1; the pair means 0 and 2 have the standard deviation sqrt(2), so the standard
    error over 2 pairs is sqrt(2) / sqrt(2) = 1."""
    path = tmp_path / "tiny.txt"
    path.write_text("\n".join([
        _record(1, "white", ONE_LEFT, "  1) 61: 24/off"),
        _record(1, "black", ONE_LEFT, "  1) 52: 24/off"),
        _record(2, "white", ALL_ON, "  1) 33: 24/off"),
        _record(2, "black", ALL_ON, "", forfeit="white (B): engine B hung"),
    ]))
    records = read_transcript(path)
    assert duel_points(records).tolist() == [[1.0, -1.0], [2.0, 2.0]]
    s = duel_summary(records)
    assert s["games"] == 4 and s["ppg"] == 1.0
    assert s["se_ppg"] == pytest.approx(1.0, abs=1e-12)
    assert s["forfeits"] == {"A": 0, "B": 1}


def test_a_bad_transcript_is_refused_by_file_and_line(tmp_path):
    path = tmp_path / "bad.txt"
    path.write_text("no records here\n")
    with pytest.raises(RecordError, match="bad.txt: no game record here"):
        read_transcript(path)
    good = _record(1, "white", ONE_LEFT, "  1) 61: 24/off")
    path.write_text(good + "\n" + _record(1, "black", ONE_LEFT, "  1) 52: 24/of"))
    # the second record's move is on the file's line 13 (6 lines, a blank, 6 more)
    with pytest.raises(RecordError, match=r"bad.txt line 13: step .24/of."):
        read_transcript(path)


def test_a_duel_refuses_the_cube_and_names_a_bad_start(capsys):
    """Under cube rules no program was asked to double, each game scored 1 and a forfeit
    2; ``--start foo`` did not name the option."""
    from nardy_fast.app.cli import main
    assert main(["duel", "a", "b", "-n", "2", "--rules", "cube=geometric"]) == 1
    assert capsys.readouterr().err.strip() == (
        "nardy-fast: error: rules: cube='geometric': a duel plays without the cube (no "
        "program is asked to double); leave the cube out of the rules")
    assert main(["duel", "a", "b", "-n", "2", "--start", "foo"]) == 1
    assert capsys.readouterr().err.startswith("nardy-fast: error: --start: position ID 'foo'")


def test_a_transcript_not_in_utf8_is_named(tmp_path):
    """A transcript in another encoding gave the codec's "'utf-8' codec can't decode
    byte 0xe9", naming no file (``nardy-fast analyse FILE --game K`` reads it)."""
    path = tmp_path / "latin1.txt"
    path.write_bytes(nf.random_game(seed=1).to_text().replace("random", "Jos\xe9")
                     .encode("latin-1"))
    with pytest.raises(RecordError, match=r"latin1\.txt: not a UTF-8 text file"):
        read_transcript(path)


def test_a_long_transcript_is_read_in_time_linear_in_its_length(tmp_path, monkeypatch):
    """Each record of a transcript is parsed from its own lines, numbered from where it
    starts in the file: before, each was handed to the parser behind a blank line for
    every line above it, so reading a file of many records took time quadratic in its
    length (a 40 MB file of 16,000 games, minutes before its first game was analysed)."""
    from nardy_fast.app import duel
    one = nf.random_game(seed=1, max_turns=4).to_text()
    path = tmp_path / "long.txt"
    path.write_text("\n".join([one] * 50))
    seen = []
    parse = duel.parse_record

    def spy(text, *args, **kwargs):
        seen.append(len(text))
        return parse(text, *args, **kwargs)

    monkeypatch.setattr(duel, "parse_record", spy)
    assert len(read_transcript(path)) == 50
    assert max(seen) <= len(one) + 2, seen
    # a bad step in the last record is still named by its line in the file
    assert one.splitlines()[5].startswith("  1) 34: 1/4 4/8")
    path.write_text("\n".join([one] * 49 + [one.replace("4/8", "4/of", 1)]))
    line = 49 * (len(one.splitlines()) + 1) + 6
    with pytest.raises(RecordError, match=rf"long.txt line {line}: step '4/of'"):
        read_transcript(path)


@pytest.mark.parametrize("json_out", [False, True])
def test_an_interrupted_duel_names_the_programs_it_greeted(tmp_path, capsys, monkeypatch,
                                                           json_out):
    """Ctrl-C after a pair: the summary of the games finished names the programs by their
    'id name', as a finished duel's does (it called them '?')."""
    from nardy_fast.app import duel
    played, play = [], duel._play_game

    def play_one_pair(*args):
        if len(played) == 2:
            raise KeyboardInterrupt
        played.append(1)
        return play(*args)

    monkeypatch.setattr(duel, "_play_game", play_one_pair)
    a = _script(tmp_path, "illegal")
    code = cli.main(["duel", a, a, "-n", "4", "--seed", "1", "--no-progress"]
                    + (["--json"] if json_out else []))
    out, err = capsys.readouterr()
    assert code == 130 and err.strip() == "nardy-fast: interrupted after 2 of 4 games"
    if json_out:
        assert json.loads(out)["names"] == ["scripted", "scripted"]
    else:
        assert out.splitlines()[0] == f"A: {a} (scripted); B: {a} (scripted)"
