"""The match play benchmark's script (benchmarks/bench_match.py): its refusals, and the
games' file kept under the name given."""
from pathlib import Path

import numpy as np
import pytest

from helpers import load_script, run_script

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_match.py"


@pytest.fixture(scope="module")
def script():
    return load_script(BENCH)


@pytest.mark.parametrize("argv, says", [
    (["table", "--games-only", "--games", "2"],
     "table --games-only: give --points FILE to keep the games in"),
    (["aware", "--scores", "2:1:0,2:x:0"], "argument --scores: '2:x:0': expected LENGTH:A:B"),
    (["aware-games", "--scores", "3:1"], "argument --scores: '3:1': expected LENGTH:A:B"),
    (["aware-decisions", "--scores", "2:3:0"], "argument --scores: '2:3:0': score: white=3: "
                                               "expected a whole number of points in 0..1"),
])
def test_bad_settings_are_refused_by_name(script, monkeypatch, capsys, argv, says):
    """--games-only without --points played every game, then ended in a TypeError of
    np.save; a score that is not LENGTH:A:B, or not one a match can stand at, ended in a
    ValueError's traceback."""
    with pytest.raises(SystemExit) as e:
        run_script(monkeypatch, script, *argv)
    assert e.value.code == 2
    assert f"error: {says}" in capsys.readouterr().err


def test_the_games_file_is_kept_under_its_name(script, monkeypatch, tmp_path):
    """np.save added .npy to a name without it, so the next run never found the file
    --points named and played every game again."""
    games = tmp_path / "games"
    run_script(monkeypatch, script, "table", "--games-only", "--games", "20", "--workers", "1",
         "--points", str(games))
    assert [p.name for p in tmp_path.iterdir()] == ["games"]
    assert np.load(games).shape == (20,)
