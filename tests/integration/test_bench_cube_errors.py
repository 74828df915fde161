"""The cube benchmark's script against cube-aware rollouts
(benchmarks/bench_cube_errors.py): a store that resumes keeps the settings its positions
were chosen and judged with."""
import json
from pathlib import Path

import pytest

from helpers import load_script, run_script

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"
BENCH = BENCHMARKS / "bench_cube_errors.py"


@pytest.fixture(scope="module")
def script():
    with pytest.MonkeyPatch.context() as mp:
        mp.syspath_prepend(str(BENCHMARKS))             # it imports bench_errors
        yield load_script(BENCH)


def test_a_rerun_with_other_settings_is_refused_by_name(script, monkeypatch, capsys,
                                                        tmp_path):
    """A rerun with another --games or --play-x kept the positions stored, judged the new
    ones with its own settings and summarised both as one set."""
    store = str(tmp_path / "store")
    run_script(monkeypatch, script, "--positions", "2", "--games", "8", "--store", store)
    assert json.loads((tmp_path / "store" / "settings.json").read_text())["games"] == 8
    capsys.readouterr()
    with pytest.raises(SystemExit) as e:
        run_script(monkeypatch, script, "--positions", "3", "--games", "16", "--play-x", "0.5",
             "--store", store)
    assert e.value.code == 2
    assert (f"error: --store {store}: made with other settings (--games: 8 in the store, "
            "16 now; --play-x: None in the store, 0.5 now)") in capsys.readouterr().err
    assert sorted(p.name for p in (tmp_path / "store").iterdir()) == [
        "00000.json", "00001.json", "settings.json"]
    run_script(monkeypatch, script, "--summary", "--store", store)     # reads the positions only
    assert "2 cube decisions" in capsys.readouterr().out


def test_the_summary_reads_several_stores_together(script, monkeypatch, capsys, tmp_path):
    """The figures of three seeds' stores are one summary of all their positions."""
    stores = []
    for seed in (1, 2):
        stores.append(str(tmp_path / f"s{seed}"))
        run_script(monkeypatch, script, "--positions", "1", "--games", "8", "--seed", str(seed),
             "--store", stores[-1])
    capsys.readouterr()
    run_script(monkeypatch, script, "--summary", "--store", stores[0], "--and-store", stores[1])
    assert capsys.readouterr().out.startswith("2 cube decisions")
    with pytest.raises(SystemExit):
        run_script(monkeypatch, script, "--store", stores[0], "--and-store", stores[1])
    assert "--and-store: only with --summary" in capsys.readouterr().err


def test_a_single_decision_is_said_to_have_no_se(script, monkeypatch, capsys, tmp_path,
                                                 recwarn):
    """The summary of a store of one position printed 'SE nan' for the doubler's and the
    taker's loss, with numpy's warnings of a variance of one value."""
    run_script(monkeypatch, script, "--positions", "1", "--games", "8", "--seed", "1", "--store",
         str(tmp_path / "s"))
    out = capsys.readouterr().out
    assert "nan" not in out
    for who in ("doubler", "taker"):
        assert f"  {who}: mean loss 0.0000 per decision (one decision: no SE), " in out
    assert not [w for w in recwarn if issubclass(w.category, RuntimeWarning)]
