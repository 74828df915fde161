"""The rollout-size bias benchmark (benchmarks/bench_rollout_sizes.py): bad sizes refused
by name before any work, and a small run whose rows agree with the rollouts it names."""
import math
import sys
from pathlib import Path

import pytest

from helpers import load_script, script_refusal

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_rollout_sizes.py"


@pytest.mark.parametrize("argv, says", [
    (["--sizes", "0,36"], "--sizes 0,36: every size must be >= 1 game"),
    (["--sizes", "a"], "--sizes a: expected comma-separated whole numbers"),
    (["--seeds", "1"], "--seeds 1: expected >= 2"),
    (["--seed", "-1"], "--seed -1: expected >= 0"),
    (["--positions", "race2,foo"], "--positions: unknown foo (race2, middle)"),
    (["--estimator", "luck"], "--estimator luck: expected luck-net or none"),
    (["--reference-games", "1000"], "--reference-games 1000: expected a positive "
                                    "multiple of 1296"),
])
def test_bad_input_is_refused_by_name(monkeypatch, capsys, argv, says):
    assert f"error: {says}" in script_refusal(monkeypatch, capsys, BENCH, argv)


def test_the_exact_race_row_is_its_rollouts_mean_against_the_truth(monkeypatch, capsys):
    script = load_script(BENCH)
    monkeypatch.setattr(sys, "argv", [str(BENCH), "--sizes", "36", "--seeds", "20",
                                      "--positions", "race2"])
    script.main()
    out = capsys.readouterr().out.splitlines()
    name, games, mean, se, ref, z, *_ = out[1].split()
    assert (name, games) == ("race2", "36")
    assert float(ref) == pytest.approx(2 * (1 - 5 * 27 / 1296) - 1, abs=1e-4)
    import nardy_fast as nf
    eq = [nf.rollout(script.race2(), 36, seed=k, policy="random", truncate=None,
                     workers=1, progress=False).equity for k in range(20)]
    assert float(mean) == pytest.approx(sum(eq) / 20, abs=1e-4)
    assert abs(float(z)) < 4 and math.isfinite(float(z))
