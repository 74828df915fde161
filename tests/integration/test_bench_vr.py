"""The variance reduction's benchmark script (benchmarks/bench_vr.py): sizes that measure
nothing and unknown parts, estimators and luck nets refused by name before any work."""
from pathlib import Path

import pytest

from helpers import load_script, script_refusal

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_vr.py"


@pytest.mark.parametrize("argv, says", [
    (["--contact", "0"], "--contact 0: expected >= 1"),
    (["--races", "-1"], "--races -1: expected >= 0"),
    (["--positions0", "0"], "--positions0 0: expected >= 1"),
    (["--positions1", "0"], "--positions1 0: expected >= 1"),
    (["--contact", "10"], "--positions0 30: expected at most --contact 10 (the positions "
                          "are chosen among the contact ones)"),
    (["--bias-x", "0"], "--bias-x 0: expected >= 1"),
    (["--repeats", "0"], "--repeats 0: expected >= 1"),
    (["--phases", "-1"], "--phases -1: expected >= 0"),
    (["--seed", "-1"], "--seed -1: expected >= 0"),
    (["--speed-games", "2592,324"], "--speed-games 2592,324: expected 7 numbers of games "
                                    ">= 1"),
    (["--speed-games", "1,1,1,1,1,1,0"], "--speed-games 1,1,1,1,1,1,0: expected 7"),
    (["--skip", "one,thrid"], "--skip one,thrid: thrid not of zero,one,races,third,speed"),
    (["--estimators", "luck-net,lcuk"], "--estimators luck-net,lcuk: lcuk: unknown "
                                        "estimator; expected"),
    (["--luck-nets", "no-such.nfdb"], "--luck-nets no-such.nfdb: cannot read database"),
])
def test_bad_sizes_and_inputs_are_refused_by_name(monkeypatch, capsys, argv, says):
    """--contact 0 ended in an IndexError, --repeats 0 in 'no median for empty data'
    after every other part, --positions0 above --contact counted positions twice, a
    misspelt --skip part was run, a misspelt estimator or a missing luck net ended in a
    traceback after the positions' self-play and the parts before it."""
    assert f"error: {says}" in script_refusal(monkeypatch, capsys, BENCH, argv)
