"""The bulk study benchmark's script (benchmarks/bench_study.py): no figure of a study it
did not finish, and no kill claimed that did not happen."""
import importlib
from pathlib import Path

import pytest

from helpers import ctrl_c_at_call, load_script, run_script

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_study.py"
SMALL = ("--positions", "4", "--games", "8", "--kill", "4", "--store-size", "10")


@pytest.fixture(scope="module")
def script():
    return load_script(BENCH)


def test_an_interrupted_study_prints_no_figures(script, monkeypatch, capsys):
    """Ctrl-C in the timed study printed its positions per CPU-hour as if every position
    had been done, then ended in a KeyError of the rows it had not done."""
    study_mod = importlib.import_module("nardy_fast.analysis.study")
    ctrl_c_at_call(monkeypatch, study_mod, "_run_batch", call=1)
    with pytest.raises(SystemExit) as e:
        run_script(monkeypatch, script, *SMALL)
    assert e.value.code == ("bench_study.py: interrupted: 0 of 4 positions of the study "
                            "done; no figures")
    assert "per CPU-hour" not in capsys.readouterr().out


def test_a_study_that_finished_before_the_kill_is_not_called_killed(script, monkeypatch,
                                                                   capsys):
    """A study of fewer batches than the kill waits for finished first, and the output
    said "killed (SIGKILL) after 4 of 4 positions were stored"."""
    run_script(monkeypatch, script, *SMALL)
    out = capsys.readouterr().out
    assert "not killed: the study of 4 positions finished before the kill" in out
    assert "killed (SIGKILL)" not in out
