"""Interrupted commands keep their work and say so: the real ``nardy-fast`` in a
pseudo-terminal stopped with Ctrl-C or Ctrl-D, its exit status, message and files."""
import os
import re
import time

import pytest

from nardy_fast import Position
from nardy_fast.app import cli
from nardy_fast.engine.play import rollout as rollout_mod
from ptyterm import CTRL_C, CTRL_D, Terminal


@pytest.fixture
def term(tmp_path):
    made = []

    def start(*argv):
        t = Terminal(list(argv), tmp_path)
        made.append(t)
        return t

    yield start
    for t in made:
        t.close()


# -- rollout -------------------------------------------------------------------------------
@pytest.mark.slow
def test_rollout_ctrl_c_reports_the_games_played_and_exits_130(term):
    t = term("rollout", "start", "-n", "2000000", "--policy", "random", "--workers", "2",
             "--seed", "3")
    # the bar counts games: wait until some have finished, then press Ctrl-C
    t.expect(r"\| *(?:[1-9][\d.]*k?|0\.\d*[1-9]\d*k)/2\.00M", timeout=240)
    t.send(CTRL_C)
    pressed = time.monotonic()
    assert t.wait() == 130
    # ends promptly: the workers' unfinished chunks are dropped, not played out (generous
    # on a loaded machine; playing them out took minutes there)
    assert time.monotonic() - pressed < 60
    out = t.text
    m = re.search(r"interrupted after (\d+) of 2000000 games of ([^\s;]+)", out)
    assert m, out
    games = int(m.group(1))
    assert 0 < games < 2_000_000 and m.group(2) == Position.initial().id
    assert re.search(rf"games {games}  \(interrupted\)", out)
    assert "nan" not in out and "Traceback" not in out
    assert "± is 1.96 standard errors" in out
    assert "leaked semaphore" not in out        # the killed pool's queues were closed


def test_rollout_stopped_before_any_game_is_an_error_not_nans(monkeypatch, capsys):
    """No chunk finished: the API raises KeyboardInterrupt (nothing to estimate from) and
    the command says so with exit status 130, printing no NaN result."""
    monkeypatch.setattr(rollout_mod, "run_chunks", lambda *a, **k: True)   # Ctrl-C at once
    with pytest.raises(KeyboardInterrupt):
        rollout_mod.rollout(Position.initial(), 100, seed=1, workers=1, progress=False)
    code = cli.main(["rollout", "start", "-n", "100", "--workers", "1", "--no-progress"])
    out, err = capsys.readouterr()
    assert code == 130
    assert out == "" and "nan" not in err
    assert err.strip() == (f"nardy-fast: interrupted before the first chunk of games of "
                           f"{Position.initial().id} finished (a chunk's games count only "
                           "together)")


def test_rollout_interrupted_names_the_later_positions_not_rolled_out(monkeypatch, capsys):
    """Ctrl-C during the second of three positions: the first is printed, the message says
    the third was not rolled out."""
    real, calls = rollout_mod.run_chunks, []

    def second_interrupted(fn, specs, on_result, **kw):
        calls.append(1)
        return True if len(calls) == 2 else real(fn, specs, on_result, **kw)
    monkeypatch.setattr(rollout_mod, "run_chunks", second_interrupted)
    code = cli.main(["rollout", "start", "start", "start", "-n", "36", "--workers", "1",
                     "--no-progress", "--policy", "random"])
    out, err = capsys.readouterr()
    assert code == 130 and len(calls) == 2
    assert out.count("games 36") == 1
    assert "before the first chunk of games of" in err and "1 later position(s) not rolled out" in err


# -- SIGTERM: a batch scheduler's stop acts as Ctrl-C, status 143 ----------------------------
@pytest.mark.slow
def test_rollout_sigterm_to_the_job_reports_the_games_played_and_exits_143(term):
    """SIGTERM to the whole process group (a batch scheduler, ``timeout``): the workers
    leave it to the command, which prints the marked partial result, ends its pool without
    leaking its semaphores, and exits 143.  Before, it died at once with nothing printed."""
    import signal
    t = term("rollout", "start", "-n", "2000000", "--policy", "random", "--workers", "2",
             "--seed", "3")
    t.expect(r"\| *(?:[1-9][\d.]*k?|0\.\d*[1-9]\d*k)/2\.00M", timeout=240)
    os.killpg(t.pid, signal.SIGTERM)
    assert t.wait() == 143
    out = t.text
    m = re.search(r"interrupted after (\d+) of 2000000 games of ([^\s;]+)", out)
    assert m, out
    games = int(m.group(1))
    assert 0 < games < 2_000_000
    assert re.search(rf"games {games}  \(interrupted\)", out)
    assert "Traceback" not in out and "leaked semaphore" not in out


def _sigterm_after(calls, n):
    """Send this process SIGTERM on the ``n``-th call (counted in ``calls``)."""
    import signal
    calls.append(1)
    if len(calls) == n:
        os.kill(os.getpid(), signal.SIGTERM)
        time.sleep(5)              # the handler raises before this ends


def test_sigterm_in_a_rollout_prints_the_finished_games_and_exits_143(monkeypatch, capsys):
    import signal
    real, calls = rollout_mod.run_chunks, []

    def sigterm_after_first(fn, specs, on_result, **kw):
        def deliver(i, r):
            on_result(i, r)
            _sigterm_after(calls, 1)
        return real(fn, specs, deliver, **kw)

    monkeypatch.setattr(rollout_mod, "run_chunks", sigterm_after_first)
    before = signal.getsignal(signal.SIGTERM)
    code = cli.main(["rollout", "start", "-n", "5184", "--workers", "1", "--no-progress",
                     "--policy", "random", "--seed", "2"])
    out, err = capsys.readouterr()
    assert code == 143 == cli.SIGTERM_STATUS
    assert "games 1296  (interrupted)" in out
    assert "interrupted after 1296 of 5184 games" in err
    assert signal.getsignal(signal.SIGTERM) is before          # the handler is put back


def test_sigterm_in_a_study_keeps_the_finished_batches_to_resume(monkeypatch, capsys,
                                                                tmp_path):
    from helpers import ids_of
    from nardy_fast.analysis import study as study_mod
    ids = tmp_path / "ids.txt"
    ids.write_text("\n".join(ids_of(4)) + "\n")
    run, calls = study_mod._run_batch, []

    def sigterm_on_third(spec):
        _sigterm_after(calls, 3)
        return run(spec)

    monkeypatch.setattr(study_mod, "_run_batch", sigterm_on_third)
    argv = ["study", str(ids), "--store", str(tmp_path / "s"), "-n", "36", "--workers", "1",
            "--policy", "random", "--batch-size", "1", "--no-progress", "--seed", "1"]
    code = cli.main(argv)
    out, err = capsys.readouterr()
    assert code == 143
    assert "2 of 4 positions done" in out and "run the same command again" in err
    assert "warning" not in err, err       # said once, in the command's words
    monkeypatch.setattr(study_mod, "_run_batch", run)
    assert cli.main(argv) == 0
    out, _ = capsys.readouterr()
    assert "resumed: 2 of 4 positions were already" in out


# -- play ------------------------------------------------------------------------------------
def _play_first_turn(t):
    """Answer the first prompt (White, the human, at the start) with a legal move; return
    the position after the engine's reply is asked for."""
    m = t.expect(r"your move \((\d)(\d)")
    dice = (int(m.group(1)), int(m.group(2)))
    move = Position.initial().legal_moves(dice)[0]
    t.send(str(move) + "\r")
    return dice, move


@pytest.mark.slow
@pytest.mark.parametrize("key, status, said", [(CTRL_C, 130, "interrupted"),
                                                (CTRL_D, 0, "end of input")])
def test_play_stopped_by_ctrl_c_or_ctrl_d_saves_the_record(term, tmp_path, key, status,
                                                             said):
    from nardy_fast import read_record
    t = term("play", "--side", "white", "--plies", "0", "--seed", "3", "-o", "g.mat")
    dice, move = _play_first_turn(t)
    t.expect(r"engine rolled \d\d and plays .*\n(?:.*\n)*.*your move \(\d\d")
    if key == CTRL_C:
        t.interrupt()
    else:
        t.send(key)
    assert t.wait() == status
    out = t.text
    assert said in out and "Traceback" not in out and "EOFError" not in out
    assert "record saved to g.mat (2 turns, not finished)" in out
    rec = read_record(tmp_path / "g.mat")
    assert [turn.side for turn in rec.turns] == ["white", "black"]
    assert rec.turns[0].dice == dice and rec.positions()[1] == Position.initial().play(move)
    assert not [f for f in os.listdir(tmp_path) if f != "g.mat"]     # no temporary left


def test_play_with_piped_input_that_ends_saves_the_record(tmp_path):
    import subprocess
    import sys
    from nardy_fast import read_record
    r = subprocess.run([sys.executable, "-m", "nardy_fast.app.cli", "play", "--side", "white",
                        "--plies", "0", "--seed", "3", "-o", "g.mat"], cwd=tmp_path,
                       stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert "Traceback" not in r.stderr and "end of input" in r.stdout
    assert read_record(tmp_path / "g.mat").turns == []


def test_play_with_a_given_side_throws_no_opening_throw(tmp_path):
    """``--side white`` under the default rethrow rule: the opening throw would decide
    nothing, so none is thrown or printed; under opening_dice it is White's first roll
    and says so."""
    from nardy_fast.app.play import play_terminal
    from nardy_fast import Rules
    said = []
    play_terminal(side="white", plies=0, seed=3, out=str(tmp_path / "g.mat"),
                  input_fn=lambda p: "quit", print_fn=said.append)
    assert not [s for s in said if "opening throw" in str(s)]
    said = []
    play_terminal(side="white", plies=0, seed=3, out=str(tmp_path / "g.mat"),
                  input_fn=lambda p: "quit", print_fn=said.append,
                  rules=Rules(opening_roll="opening_dice"))
    assert [s for s in said if "White's first roll" in str(s)]
    assert not [s for s in said if "you " in str(s) and "the engine" in str(s)]


def test_play_help_command(tmp_path):
    from nardy_fast.app.play import HELP, play_terminal
    said = []
    answers = iter(["help", "quit"])
    play_terminal(side="white", plies=0, seed=3, out=str(tmp_path / "g.mat"),
                  input_fn=lambda p: next(answers), print_fn=said.append)
    assert any(HELP in str(s) for s in said)
    assert "'hint'" in HELP and "'quit'" in HELP and "1/7" in HELP


@pytest.mark.slow
def test_play_match_ctrl_c_keeps_the_game_in_play(term, tmp_path):
    """Ctrl-C at the human's first prompt (seed 3: the engine played the first turn): the
    transcript holds that unfinished game, readable back; status 130."""
    from nardy_fast.core.matchrecord import read_match
    t = term("play", "--match", "3", "--plies", "0", "--seed", "3", "-o", "m3.mat")
    t.expect(r"your move \(\d\d", timeout=180)
    t.interrupt()
    assert t.wait() == 130
    assert "match transcript saved to m3.mat (game 1 unfinished, 1 turn)" in t.text
    assert "Traceback" not in t.text
    assert os.listdir(tmp_path) == ["m3.mat"]
    rec = read_match(tmp_path / "m3.mat")
    assert len(rec.games) == 1 and len(rec.games[0].turns) == 1
    assert rec.games[0].white == "nardy_fast 0-ply" and rec.games[0].result() is None


# -- matches ---------------------------------------------------------------------------------
@pytest.mark.slow
def test_matches_ctrl_c_keeps_the_finished_matches_and_their_transcripts(term, tmp_path):
    from nardy_fast.core.matchrecord import read_match
    from nardy_fast.engine.decisions.matchplay import simulate_matches
    t = term("matches", "random", "random", "-n", "100000", "--length", "1", "--seed", "4",
             "-o", "out")
    t.expect(r"\| *(?:[3-9]|\d\d+)/100000", timeout=240)      # a few matches finished
    t.send(CTRL_C)
    assert t.wait() == 130
    out = t.text
    m = re.search(r"interrupted after (\d+) of 100000 matches", out)
    assert m, out
    n = int(m.group(1))
    assert re.search(rf"^{n} matches \(", out, re.M)
    files = sorted(os.listdir(tmp_path / "out"))
    assert files == [f"match-{k:04d}.mat" for k in range(1, n + 1)]
    full = simulate_matches("random", "random", n, length=1, seed=4, progress=False,
                            transcripts=True)                # the same first n matches
    for f, rec in zip(files, full["records"]):
        got = read_match(tmp_path / "out" / f)
        assert [g.positions()[-1] for g in got.games] == \
            [g.positions()[-1] for g in rec.games]
    assert f"A (random) won {full['wins_a']}: " in out


def test_matches_interrupted_before_any_match_leaves_nothing(monkeypatch, capsys, tmp_path):
    from nardy_fast.engine.decisions import matchplay

    def stop(*a, **k):
        raise KeyboardInterrupt
    monkeypatch.setattr(matchplay, "play_one_match", stop)
    code = cli.main(["matches", "random", "random", "-n", "5", "-o", str(tmp_path / "o"),
                     "--no-progress"])
    out, err = capsys.readouterr()
    assert code == 130 and out == ""
    assert "interrupted before any of the 5 matches finished" in err
    assert not (tmp_path / "o").exists()


def test_play_hint_prints_a_header_and_losses_not_below_zero(tmp_path):
    from nardy_fast.app.play import play_terminal
    said = []
    answers = iter(["hint", "quit"])
    play_terminal(side="white", plies=0, seed=3, out=str(tmp_path / "g.mat"),
                  input_fn=lambda p: next(answers), print_fn=said.append)
    lines = [str(s) for s in said]
    k = next(i for i, s in enumerate(lines) if s.split() == ["rank", "move", "equity",
                                                             "equity_loss"])
    rows = [s for s in lines[k + 1:] if re.match(r"\s+\d+\. ", s)]
    losses = [float(s.split()[-1]) for s in rows]
    assert rows and losses[0] == 0.0 and all(v >= 0 for v in losses)
    assert losses == sorted(losses)
