"""The decision benchmark's script (benchmarks/bench_decisionbench.py): its refusals of
settings that measure nothing, and the seeds its output names."""
from pathlib import Path

import pytest

from helpers import load_script, run_script

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_decisionbench.py"


@pytest.fixture(scope="module")
def script():
    return load_script(BENCH)


@pytest.mark.parametrize("argv, says", [
    (["--decisions", "0"], "--decisions 0: expected >= 1"),
    (["--repeats", "1"], "--repeats 1: expected >= 2"),
    (["--games", "0"], "--games 0: expected >= 1"),
    (["--phases", "middle,bogus"], "--phases middle,bogus: bogus not of opening, middle,"),
    (["--score", "no-such-file.parquet"], "--score no-such-file.parquet: no such file"),
])
def test_settings_that_measure_nothing_are_refused_by_name(script, monkeypatch, capsys,
                                                           argv, says):
    """--decisions 0 and an unknown phase ended in a ZeroDivisionError, --repeats 1
    printed NaN for the SEs, --games 0 a rollout's traceback, a missing --score file
    pyarrow's."""
    with pytest.raises(SystemExit) as e:
        run_script(monkeypatch, script, *argv)
    assert e.value.code == 2
    assert f"error: {says}" in capsys.readouterr().err


def test_the_output_names_its_seeds(script, monkeypatch, capsys):
    """The figures were printed without the seeds that made them."""
    run_script(monkeypatch, script, "--decisions", "1", "--repeats", "2", "--games", "4",
         "--seed", "5")
    head = capsys.readouterr().out.splitlines()[0]
    assert "of the plan of seed 5" in head and "(rollout seeds 5000-5001)" in head


def test_a_single_decision_is_said_to_have_no_se(script, monkeypatch, capsys, tmp_path):
    """A group of one decision was printed as '+- nan' in the players' table and in the
    phases' table (one decision has no spread to give an SE)."""
    import math

    import pandas as pd
    decisions = pd.DataFrame({"type": ["checker"] * 3})
    scored = pd.DataFrame({
        "type": ["checker"] * 3, "phase": ["opening", "middle", "all"],
        "decisions": [1, 2, 3], "error_rate": [4.0, 1.0, 2.0],
        "se": [math.nan, 1.0, 1.2], "blunders": [0, 0, 0], "outside": [0, 0, 0]})
    monkeypatch.setattr(script.decisionbench, "read_bench", lambda path: decisions)
    monkeypatch.setattr(script.decisionbench, "PLAYERS", ("net",))
    monkeypatch.setattr(script.decisionbench, "score", lambda df, player: scored)
    script.score_table(str(tmp_path / "bench.parquet"))
    out = capsys.readouterr().out
    assert "nan" not in out
    assert "| `net` | 2.0 +- 1.2 (3, 0 blunders) | - | - |" in out
    assert "| `net` | 4.0 (one decision: no SE) (1) | 1.0 +- 1.0 (2) |" in out
