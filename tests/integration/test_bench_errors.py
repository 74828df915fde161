"""The error-rate benchmark's script (benchmarks/bench_errors.py): a store that resumes
keeps the settings its decisions were judged with."""
import json
from pathlib import Path

import pytest

from helpers import load_script, run_script

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_errors.py"
SMALL = ("--decisions", "2", "--games", "8", "--every3", "0")


@pytest.fixture(scope="module")
def script():
    return load_script(BENCH)


def test_a_rerun_with_other_settings_is_refused_by_name(script, monkeypatch, capsys,
                                                        tmp_path):
    """A rerun with another --games or --seed kept the decisions stored and judged the new
    ones with its own settings, then summarised both as one set; --extend rolled out the
    new candidates with its own --games and --seed beside the stored equities."""
    store = str(tmp_path / "store")
    run_script(monkeypatch, script, *SMALL, "--store", store)
    assert json.loads((tmp_path / "store" / "settings.json").read_text())["games"] == 8
    capsys.readouterr()
    for argv in (["--decisions", "3", "--games", "16", "--seed", "7", "--every3", "0"],
                 ["--extend", "no-such-net.nfdb", "--games", "16"]):
        with pytest.raises(SystemExit) as e:
            run_script(monkeypatch, script, *argv, "--store", store)
        assert e.value.code == 2
        err = capsys.readouterr().err
        assert f"error: --store {store}: made with other settings (--games: 8 in the store, " \
               "16 now" in err
    assert sorted(p.name for p in (tmp_path / "store").iterdir()) == [
        "decision_00000.json", "decision_00001.json", "settings.json"]
    run_script(monkeypatch, script, *SMALL, "--decisions", "3", "--store", store)   # grows
    assert "3 decisions judged" in capsys.readouterr().out
