"""The projection's bias benchmark script (benchmarks/bench_clip.py): sizes that measure
nothing and bad positions or estimators refused by name before any work."""
import sys
from pathlib import Path

import pytest

from helpers import load_script, script_refusal

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_clip.py"


@pytest.mark.parametrize("argv, says", [
    (["--reps", "0"], "--reps 0: expected >= 2 (the bias's SE is the spread between "
                      "rollouts)"),
    (["--reps", "1"], "--reps 1: expected >= 2"),
    (["--games", "0"], "--games 0: expected >= 1"),
    (["--seed", "-1"], "--seed -1: expected >= 0"),
    (["--position", "XYZ"], "--position position ID 'XYZ': expected 33 characters, got 3"),
    (["--estimator", "foo"], "--estimator foo: unknown estimator; expected True, False, "
                             "None or one of"),
])
def test_bad_sizes_and_inputs_are_refused_by_name(monkeypatch, capsys, argv, says):
    """--reps 0 ended in an IndexError of the first rollout's output, --reps 1 printed
    'nan' as every SE of the bias, --games 0, a bad position or estimator ended in the
    rollout's traceback, naming n_games, position or variance_reduction."""
    assert f"error: {says}" in script_refusal(monkeypatch, capsys, BENCH, argv)


def test_an_estimate_not_moved_has_no_bias(monkeypatch, capsys):
    """The equity of a rollout whose estimates were not moved differed from the raw one
    by its rounding (5.55e-17), printed as a bias of -5.55e-17 and -0.000 of an SE."""
    script = load_script(BENCH)
    monkeypatch.setattr(sys, "argv", [str(BENCH), "--reps", "2", "--games", "36"])
    script.main()
    rows = {ln.split()[0]: ln.split()[1:] for ln in capsys.readouterr().out.splitlines()}
    assert rows["equity"][0] == "0"                                   # moved
    assert rows["equity"][3:] == ["0.00e+00", "0.00e+00", "0.000"]    # bias, SE, bias/SE1
