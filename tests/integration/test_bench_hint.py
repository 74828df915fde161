"""The hint speed benchmark script (benchmarks/bench_hint.py): sizes that measure nothing
refused by name before any work, and the 3-ply line counting the positions it timed."""
import sys
from pathlib import Path

import pytest

from helpers import load_script

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_hint.py"


@pytest.fixture(scope="module")
def script():
    return load_script(BENCH)


@pytest.mark.parametrize("argv, says", [
    (["--positions", "0"], "--positions 0: expected >= 1"),
    (["--positions", "-1", "--deep", "0"], "--positions -1: expected >= 1"),
    (["--deep", "-1"], "--deep -1: expected >= 0"),
    (["--seed", "-3"], "--seed -3: expected >= 0"),
])
def test_sizes_that_measure_nothing_are_refused_by_name(script, monkeypatch, capsys, argv,
                                                        says):
    """--positions 0 ended in numpy's IndexError of a percentile of nothing, --positions -1
    printed nothing, --seed -3 ended in numpy's 'expected non-negative integer'."""
    monkeypatch.setattr(sys, "argv", [str(BENCH), *argv])
    with pytest.raises(SystemExit) as e:
        script.main()
    assert e.value.code == 2
    assert f"error: {says}" in capsys.readouterr().err


def test_the_3_ply_line_counts_the_positions_timed(script, monkeypatch, capsys):
    """--deep above --positions timed every position and printed --deep as their number."""
    timed = []
    monkeypatch.setattr(script.Evaluator, "hint",
                        lambda self, pos, dice, plies: timed.append(plies))
    monkeypatch.setattr(sys, "argv", [str(BENCH), "--positions", "2", "--deep", "5"])
    script.main()
    assert timed.count(3) == 2
    out = capsys.readouterr().out
    assert "3-ply hint, 2 positions: " in out


def test_the_times_say_their_clock(script, monkeypatch, capsys):
    """The times per decision, the wall clock's, were printed as plain seconds."""
    monkeypatch.setattr(script.Evaluator, "hint", lambda self, pos, dice, plies: None)
    monkeypatch.setattr(sys, "argv", [str(BENCH), "--positions", "2", "--deep", "0"])
    script.main()
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 3
    assert all(" s wall, 90th percentile " in ln and ln.endswith(" s wall") for ln in lines)
