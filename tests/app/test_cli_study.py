"""``nardy-fast study``: a resumed study says what it skipped; ``study show`` and ``study
export`` read a store."""
import json

import pandas as pd
import pytest

from nardy_fast.analysis.study import read_study
from nardy_fast.app.cli import main

from helpers import run_cli

IDS = ["start", "WlgAAAAEAEQACAQAAAAAAAAAQABAAAhIg", "BaAAAARAAEQAgEAAAAAAAAAAAAAEAICED"]


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    folder = tmp_path_factory.mktemp("study")
    ids = folder / "ids.txt"
    ids.write_text("\n".join(IDS[:2]) + "\n")
    argv = ["study", str(ids), "--store", str(folder / "s"), "-n", "36", "--workers", "1",
            "--no-progress", "--policy", "greedy"]
    assert main(argv) == 0
    ids.write_text("\n".join(IDS) + "\n")
    return folder, argv


def test_a_resumed_study_says_what_it_skipped(capsys, store):
    folder, argv = store
    code, out, err = run_cli(capsys, *argv)              # the third position is new
    assert code == 0
    assert out.splitlines()[0] == (f"resumed: 2 of 3 positions were already in "
                                   f"{folder / 's'} (skipped), 1 studied now")
    code, out, err = run_cli(capsys, *argv)              # nothing new
    assert "resumed: 3 of 3 positions were already" in out and "0 studied now" in out


def test_study_show(capsys, store):
    folder, argv = store
    main(argv)
    capsys.readouterr()
    frame = read_study(folder / "s")
    code, out, err = run_cli(capsys, "study", "show", str(folder / "s"))
    assert code == 0 and err == ""
    assert out.splitlines()[0] == f"{folder / 's'}: {len(frame)} position(s)"
    assert "  policy: greedy" in out and "  n_games: 36" in out
    assert all(pid in out for pid in frame.index)
    code, out, err = run_cli(capsys, "study", "show", str(folder / "nope"))
    assert code == 1 and err.strip() == f"nardy-fast: error: store {folder / 'nope'}: no such folder"


@pytest.mark.parametrize("ext", ["csv", "parquet", "json"])
def test_study_export(capsys, store, ext):
    folder, argv = store
    main(argv)
    capsys.readouterr()
    out_file = folder / f"out.{ext}"
    code, out, err = run_cli(capsys, "study", "export", str(folder / "s"), "-o", str(out_file))
    assert code == 0
    want = read_study(folder / "s")
    if ext == "csv":
        got = pd.read_csv(out_file, index_col="position")
    elif ext == "parquet":
        got = pd.read_parquet(out_file)
    else:
        got = pd.DataFrame([json.loads(line) for line in out_file.read_text().splitlines()])
        got = got.set_index("position")
    assert list(got.index) == list(want.index)
    assert got["equity"].tolist() == pytest.approx(want["equity"].tolist())
    assert [f.name for f in folder.iterdir() if ".tmp" in f.name] == []


def test_study_export_refuses_an_unknown_format(capsys, store):
    folder, argv = store
    main(argv)
    capsys.readouterr()
    code, out, err = run_cli(capsys, "study", "export", str(folder / "s"), "-o", "x.xlsx")
    assert code == 1 and "expected a .csv, .parquet or .json file" in err


def test_study_says_which_options_have_no_effect(capsys, tmp_path):
    pytest.importorskip("pyarrow")
    ids = tmp_path / "ids.txt"
    ids.write_text(IDS[1] + "\n")
    code, out, err = run_cli(capsys, "study", str(ids), "--store", str(tmp_path / "n"),
                         "--method", "net", "--workers", "1", "--no-progress")
    assert code == 0 and "warning" not in err, err     # the rollout options' defaults
    code, out, err = run_cli(capsys, "study", str(ids), "--store", str(tmp_path / "r"), "-n",
                         "36", "--workers", "1", "--no-progress", "--policy", "greedy",
                         "--plies", "1")
    assert code == 0
    assert "nardy-fast: warning: plies: no effect with method='rollout'" in err, err
