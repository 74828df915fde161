"""The environments' speed benchmark script (benchmarks/bench_env.py): sizes that measure
nothing refused by name before any work."""
from pathlib import Path

import pytest

from helpers import load_script, script_refusal

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_env.py"


@pytest.mark.parametrize("argv, says", [
    (["--seconds", "0"], "--seconds 0.0: expected a number of seconds > 0"),
    (["--seconds", "-1"], "--seconds -1.0: expected a number of seconds > 0"),
    (["--seconds", "nan"], "--seconds nan: expected a number of seconds > 0"),
    (["--seconds", "inf"], "--seconds inf: expected a number of seconds > 0"),
    (["--envs", "0"], "--envs 0: expected >= 1"),
    (["--threads", "0"], "--threads 0: expected >= 1"),
    (["--rollout-games", "0"], "--rollout-games 0: expected >= 1"),
])
def test_sizes_that_measure_nothing_are_refused_by_name(monkeypatch, capsys, argv, says):
    """--envs 0 and --threads 0 ended in the environment's traceback naming n_envs and
    threads, --seconds 0 or below in numpy's 'need at least one array to concatenate'."""
    assert f"error: {says}" in script_refusal(monkeypatch, capsys, BENCH, argv)
