"""The scripts of ``make bench``, the quick set (benchmarks/bench_movegen.py,
bench_bearoff.py, bench_rollout.py, bench_cube.py): sizes that measure nothing refused by
name before any work; figures that say their clock."""
import sys
from pathlib import Path

import pytest

from helpers import load_script

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


@pytest.mark.parametrize("name, argv, says", [
    ("movegen", ["--games", "0"], "--games 0: expected >= 1"),
    ("movegen", ["--repeats", "0"], "--repeats 0: expected >= 1"),
    ("movegen", ["--seed", "-1"], "--seed -1: expected >= 0"),
    ("bearoff", ["--runs", "0"], "--runs 0: expected >= 1"),
    ("bearoff", ["--queries", "9"], "--queries 9: expected >= 10 (a tenth of them time "
                                    "TwoSided.p_win)"),
    ("bearoff", ["--two-sided", "6", "0"], "--two-sided 0: expected checkers 1..14"),
    ("bearoff", ["--scale", "16"], "--scale 16: expected checkers 1..14"),
    ("bearoff", ["--threads", "2", "0"], "--threads 0: expected >= 1"),
    ("rollout", ["--repeats", "0"], "--repeats 0: expected >= 1"),
    ("rollout", ["--games", "3"], "--games 3: expected >= 4 (greedy runs play a quarter"),
    ("rollout", ["--mids", "0"], "--mids 0: expected >= 1"),
    ("rollout", ["--seeds", "1"], "--seeds 1: expected >= 2"),
    ("cube", ["--builds", "6", "--runs", "0"], "--runs 0: expected >= 1"),
    ("cube", ["--builds", "6", "15"], "--builds 15: expected checkers 1..14"),
    ("cube", ["--rollout", "--games", "0"], "--games 0: expected >= 1"),
])
def test_sizes_that_measure_nothing_are_refused_by_name(monkeypatch, capsys, name, argv,
                                                        says):
    """Each ended in a traceback (no median of no runs, a division by zero, a rollout's
    or a solver's refusal, a failed child process, numpy unable to allocate 41.5 GiB) or
    printed a figure of nothing (a 0-checker table)."""
    path = BENCHMARKS / f"bench_{name}.py"
    script = load_script(path)
    monkeypatch.setattr(sys, "argv", [str(path), *argv])
    with pytest.raises(SystemExit) as e:
        script.main()
    assert e.value.code == 2
    assert f"error: {says}" in capsys.readouterr().err


@pytest.mark.slow
def test_cube_rollout_figures_say_their_clock_and_their_se(monkeypatch, capsys):
    """The games per second of the cube-aware rollouts were wall-clock seconds, printed as
    "games/s" beside "equity +0.082 +- 0.113", and recorded among the CPU-second figures
    (benchmarks/RESULTS.md: speeds are per CPU-second unless a row says wall)."""
    path = BENCHMARKS / "bench_cube.py"
    script = load_script(path)
    monkeypatch.setattr(sys, "argv", [str(path), "--rollout", "--games", "20", "--runs", "1"])
    assert script.main() == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 4
    for text in lines:
        assert " games/CPU-s  (" in text and " games/s wall; equity " in text
        assert " (SE " in text and "+-" not in text


def test_bearoff_throughputs_are_per_cpu_second_with_the_wall_clock_beside(capsys):
    """The query throughputs were the wall clock's, printed as plain boards/s or calls/s
    (benchmarks/RESULTS.md: speeds are per CPU-second unless a row says wall), and the
    build, save and load times plain seconds, the wall clock's too."""
    script = load_script(BENCHMARKS / "bench_bearoff.py")
    assert script.main(["--runs", "1", "--queries", "1000", "--two-sided", "6"]) == 0
    lines = capsys.readouterr().out.splitlines()[1:]
    rates = [ln for ln in lines if "/s" in ln]
    assert len(rates) == 5
    for text in rates:
        assert "/CPU-s " in text and "/s wall" in text
    times = [ln for ln in lines if ln not in rates]
    assert len(times) == 4 and all(" s wall " in ln for ln in times)



def test_bearoff_times_the_two_sided_queries_on_pairs_a_game_reaches(capsys):
    """TwoSided.p_win was timed on boards made of the queries' boards mod 2, among them
    the empty board against itself (both sides off), which the table refuses: every run
    with the 8-checker table (the default) ended there in a ValueError's traceback."""
    script = load_script(BENCHMARKS / "bench_bearoff.py")
    assert script.main(["--runs", "1", "--queries", "1000", "--two-sided", "8"]) == 0
    assert "TwoSided.p_win vectorised" in capsys.readouterr().out.splitlines()[-1]
