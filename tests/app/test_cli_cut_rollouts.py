"""A rollout keeps its finished games on Ctrl-C or SIGTERM and returns: the commands that
show or write an answer resting on several rollouts (``report``, ``analyse``, ``cube``)
stop there instead of presenting cut rollouts as whole (they wrote or printed them with
exit status 0, the signal swallowed).  The library functions behind them raise
``KeyboardInterrupt`` at the cut rollout (``engine.play.rollout.stop_if_interrupted``),
so no later rollout is started."""
import os
import re
import signal
import time

import pytest

import nardy_fast as nf
from nardy_fast.engine.play import rollout as rollout_mod

from helpers import run_cli

MIDDLE = "WlgAAAAEAEQACAQAAAAAAAAAQABAAAhIg"       # a contact position where White may double


# the library's own stop, named by the command the player typed (not the library's function)
def cut_line(command):
    return (rf"nardy-fast: interrupted: {command}: stopped at an interrupted rollout \(no "
            r"answer rests on cut rollouts\)")


@pytest.fixture
def sigterm_in_first_rollout(monkeypatch):
    """The first ``run_chunks`` plays its chunks, then SIGTERM arrives and is taken as
    Ctrl-C there (``run_chunks`` returns True: interrupted); later ones run as usual."""
    real, calls = rollout_mod.run_chunks, []

    def run_chunks(fn, specs, on_result, **kw):
        calls.append(1)
        cut = real(fn, specs, on_result, **kw)
        if len(calls) > 1:
            return cut
        try:
            os.kill(os.getpid(), signal.SIGTERM)
            time.sleep(10)                       # the command's handler raises here
        except KeyboardInterrupt:
            return True
        raise AssertionError("SIGTERM was not taken as Ctrl-C")
    monkeypatch.setattr(rollout_mod, "run_chunks", run_chunks)
    return calls


def test_report_writes_nothing_after_a_cut_rollout(capsys, tmp_path,
                                                    sigterm_in_first_rollout):
    ids = tmp_path / "ids.txt"
    ids.write_text(f"start\n{MIDDLE}\n")
    out_dir = tmp_path / "rep"
    code, out, err = run_cli(capsys, "report", str(ids), "-o", str(out_dir), "--method",
                             "rollout", "-n", "36", "--policy", "random", "--workers", "1",
                             "--no-progress")
    assert sigterm_in_first_rollout == [1]
    assert code == 143 and out == ""
    assert re.fullmatch(cut_line("report"), err.strip())
    assert not out_dir.exists()


def test_analyse_shows_nothing_after_a_cut_rollout(capsys, tmp_path,
                                                   sigterm_in_first_rollout):
    record = tmp_path / "g.txt"
    nf.write_record(nf.random_game(seed=1, max_turns=4), str(record))
    code, out, err = run_cli(capsys, "analyse", str(record), "--method", "rollout", "-n",
                             "36", "--policy", "random", "--workers", "1", "--no-progress",
                             "-o", str(tmp_path / "a"))
    assert sigterm_in_first_rollout == [1]
    assert code == 143 and out == ""
    assert re.fullmatch(cut_line("analyse") + "; nothing shown or written", err.strip())
    assert not (tmp_path / "a").exists()


def test_cube_shows_no_decision_after_a_cut_rollout(capsys, sigterm_in_first_rollout):
    code, out, err = run_cli(capsys, "cube", MIDDLE, "--method", "rollout", "-n", "36",
                             "--workers", "1", "--no-progress")
    assert sigterm_in_first_rollout == [1]       # the no double rollout cut: no other
    assert code == 143 and out == ""
    assert re.fullmatch(cut_line("cube"), err.strip())


def test_a_signal_of_an_earlier_command_is_forgotten(capsys, sigterm_in_first_rollout):
    run_cli(capsys, "cube", MIDDLE, "--method", "rollout", "-n", "36", "--workers", "1",
            "--no-progress")
    code, out, err = run_cli(capsys, "cube", MIDDLE, "--method", "rollout", "-n", "36",
                             "--workers", "1", "--no-progress")
    assert code == 0 and "proper action" in out, err
