"""The complete two-sided table's benchmark script (benchmarks/bench_twosided.py): bad
sizes and stores refused by name before any build."""
import sys
from pathlib import Path

import pytest

import nardy_fast.tables.bearoff_complete as bc
from helpers import load_script

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_twosided.py"


@pytest.fixture(scope="module")
def script():
    return load_script(BENCH)


@pytest.fixture(scope="module")
def small_store(tmp_path_factory):
    store = tmp_path_factory.mktemp("ts") / "three"
    bc.build_complete(3, store=store, progress=False)
    return store


def _refusal(script, monkeypatch, capsys, *argv):
    monkeypatch.setattr(sys, "argv", [str(BENCH), *argv])
    with pytest.raises(SystemExit) as e:
        script.main()
    assert e.value.code == 2
    return capsys.readouterr().err


@pytest.mark.parametrize("argv, says", [
    (["--keep", "KEPT"], "--keep KEPT: keeps the build of one size of --sizes, not of 2 "
                         "(--sizes 10 12)"),
    (["--sizes", "0"], "--sizes 0: expected checkers 1..15"),
    (["--sizes", "16"], "--sizes 16: expected checkers 1..15"),
    (["--sizes", "--cube-check", "0"], "--cube-check 0: expected checkers 1..14"),
    (["--sizes", "3", "--store", "no-such-store"],
     "--store no-such-store: no manifest.json: not a complete two-sided table"),
    (["--sizes", "3", "--errors", "no-such-store"],
     "--errors no-such-store: no manifest.json: not a complete two-sided table"),
])
def test_bad_sizes_and_stores_are_refused_by_name(script, monkeypatch, capsys, tmp_path,
                                                  argv, says):
    """--keep with the default sizes built the 10-checker table into the folder, then
    ended in a ValueError of the store holding another size; --sizes 0 ended in numpy's
    'low >= high', --cube-check 0 printed nothing, and a missing store a DatabaseError's
    traceback (after the builds of --sizes)."""
    monkeypatch.chdir(tmp_path)
    assert f"error: {says}" in _refusal(script, monkeypatch, capsys, *argv)
    assert not (tmp_path / "KEPT").exists()


def test_the_python_check_needs_the_complete_table(script, monkeypatch, capsys,
                                                   small_store):
    """It ended in a ValueError of the 15-checker boards the smaller table does not
    cover."""
    err = _refusal(script, monkeypatch, capsys, "--sizes", "--check", str(small_store))
    assert (f"error: --check {small_store}: a table of 3 checkers; the check needs the "
            "complete table (15)") in err
