"""The race database's benchmark script (benchmarks/bench_race12.py): sizes that measure
nothing refused by name, and a resumed --races file that keeps to the settings its races
were rolled out with (the database itself is not needed: its values are stood in for)."""
import csv
from pathlib import Path
from types import SimpleNamespace

import pytest

from helpers import load_script, run_script

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_race12.py"


@pytest.fixture
def script(monkeypatch):
    script = load_script(BENCH)
    # the database (3.5 GB, built apart) stood in for: its P(win) of a race is 0.5
    monkeypatch.setattr(script.race12, "race12", lambda: "db")
    monkeypatch.setattr(script.race12, "race12_probabilities",
                        lambda pos, tables: SimpleNamespace(p_win=0.5))
    return script


@pytest.mark.parametrize("argv, says", [
    (["--races", "-1"], "--races -1: expected >= 0"),
    (["--convolution", "-1"], "--convolution -1: expected >= 0"),
    (["--races", "2", "--games", "0"], "--games 0: expected >= 1"),
    (["--races", "2", "--seed", "-1"], "--seed -1: expected >= 0"),
    ([], "nothing to do: give --check, --convolution PAIRS or --races N"),
])
def test_sizes_that_measure_nothing_are_refused_by_name(script, monkeypatch, capsys, argv,
                                                        says):
    """--games 0 ended in the rollout's traceback, --races -1 and no step at all printed
    nothing (or a summary of an empty file's nothing)."""
    with pytest.raises(SystemExit) as e:
        run_script(monkeypatch, script, *argv)
    assert e.value.code == 2
    assert f"error: {says}" in capsys.readouterr().err


def test_a_resume_keeps_to_the_files_settings(script, monkeypatch, capsys, tmp_path):
    """A rerun with another --games or --seed added races rolled out with its own settings
    to those of the file and summarised them all as one set."""
    out = tmp_path / "races.csv"
    run_script(monkeypatch, script, "--races", "2", "--games", "8", "--seed", "3", "--out",
         str(out))
    rows = list(csv.DictReader(open(out)))
    assert len(rows) == 2 and {(r["games"], r["seed"]) for r in rows} == {("8", "3")}
    capsys.readouterr()
    for argv, says in ((["--games", "16", "--seed", "3"], "--games: 8 in the file, 16 now"),
                       (["--games", "8", "--seed", "4"], "--seed: 3 in the file, 4 now")):
        with pytest.raises(SystemExit) as e:
            run_script(monkeypatch, script, "--races", "3", *argv, "--out", str(out))
        assert e.value.code == 2
        assert (f"error: --out {out}: races rolled out with other settings ({says}); give "
                "the file's settings, or another --out to start afresh"
                in capsys.readouterr().err)
    assert len(list(csv.DictReader(open(out)))) == 2
    run_script(monkeypatch, script, "--races", "3", "--games", "8", "--seed", "3", "--out", str(out))
    assert len(list(csv.DictReader(open(out)))) == 3           # --races may grow


def test_a_file_made_before_is_resumed_as_before(script, monkeypatch, tmp_path):
    """A file whose lines do not name their settings is not checked, and its new lines keep
    its columns."""
    out = tmp_path / "races.csv"
    run_script(monkeypatch, script, "--races", "1", "--games", "8", "--out", str(out))
    rows = list(csv.DictReader(open(out)))
    old = [k for k in rows[0] if k not in ("games", "seed")]
    with open(out, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=old, extrasaction="ignore")
        w.writeheader()
        w.writerows(rows)
    run_script(monkeypatch, script, "--races", "2", "--games", "12", "--out", str(out))
    lines = open(out).read().splitlines()
    assert len(lines) == 3 and lines[0] == ",".join(old)
    assert all(len(ln.split(",")) == len(old) for ln in lines)
