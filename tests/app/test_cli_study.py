"""``nardy-fast study``: the numbers of ``nardy_fast.study``, a bad ID file or a store of
another study refused, a resumed study that says what it skipped; ``study show`` and ``study
export`` read a store (the study itself: tests/analysis/test_study.py)."""
import json

import numpy as np
import pandas as pd
import pytest

import nardy_fast as nf
from nardy_fast.analysis.study import read_study
from nardy_fast.app.cli import main

from helpers import ids_of, run_cli

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


def test_study_show_gives_a_standard_error_only_to_rollouts(capsys, tmp_path):
    """``study show`` printed ``se_equity 0.0000`` beside the exact table's value of a race
    of both homes and ``NaN`` beside the one-sided approximation's: a standard error is
    now shown only for a rolled-out row, the others a dash (their method says why)."""
    exact, approx = "WAAAAAAAAAAAAAAAAAAAAAAAAARIREhAw", "WAAAAAAAAAAAAAAAAAAAAAAAAIjQxEzMR"
    ids = tmp_path / "ids.txt"
    ids.write_text("\n".join([IDS[1], exact, approx]) + "\n")
    store = tmp_path / "s"
    assert main(["study", str(ids), "--store", str(store), "-n", "36", "--workers", "1",
                 "--no-progress", "--policy", "greedy"]) == 0
    capsys.readouterr()
    code, out, err = run_cli(capsys, "study", "show", str(store))
    assert code == 0, err
    frame = read_study(store)
    lines = {line.split()[0]: line.split() for line in out.splitlines() if line.strip()}
    assert lines[exact][2] == "-" and lines[exact][-1] == "two_sided"
    assert lines[approx][2] == "-" and lines[approx][-1] == "one_sided"
    assert lines[IDS[1]][2] == f"{frame.loc[IDS[1], 'se_equity']:.4f}"
    assert "NaN" not in out



def test_a_study_shows_a_level_race_without_a_minus_zero(capsys, tmp_path):
    """A level 14 v 14 race under ``draw_rule`` has an equity of -3.9e-16 (float rounding):
    the study's mean equity and ``study show``'s row read 0, not -0.0000."""
    race = "WAAAAAAAAAAAAAAAAAAAAAAAAIiIiIiJE"
    ids = tmp_path / "ids.txt"
    ids.write_text(race + "\n")
    store = tmp_path / "s"
    code, out, err = run_cli(capsys, "study", str(ids), "--store", str(store), "--method",
                             "net", "--rules", "draw_rule=true", "--no-progress")
    assert code == 0, err
    assert "mean equity +0.0000 " in out and "-0.0000" not in out, out
    code, out, err = run_cli(capsys, "study", "show", str(store))
    assert code == 0, err
    assert "mean equity +0.0000 " in out and "-0.0000" not in out, out
    row = next(line.split() for line in out.splitlines() if line.startswith(race))
    assert row[1] == "0.0000"

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
    before = out_file.read_bytes()
    code, out, err = run_cli(capsys, "study", "export", str(folder / "s"), "-o", str(out_file))
    assert code == 1 and "exists; --force replaces it" in err      # not replaced unasked
    assert out_file.read_bytes() == before
    code, out, err = run_cli(capsys, "study", "export", str(folder / "s"), "-o", str(out_file),
                             "--force")
    assert code == 0 and out_file.read_bytes() == before


def test_study_export_refuses_a_file_inside_the_store(capsys, store):
    """``study export S -o S/all.parquet`` wrote into the store, which then refused to be
    read ("results of another study"), and ``-o S/_study.json --force`` replaced its
    manifest: a file inside the store is now refused, the store left as it was."""
    folder, argv = store
    main(argv)
    capsys.readouterr()
    s = folder / "s"
    before = sorted(f.name for f in s.iterdir())
    manifest = (s / "_study.json").read_bytes()
    for out_file, extra in ((s / "all.parquet", ()), (s / "_study.json", ("--force",))):
        code, out, err = run_cli(capsys, "study", "export", str(s), "-o", str(out_file),
                                 *extra)
        assert code == 1 and err == (f"nardy-fast: error: -o/--out {out_file}: inside the "
                                     f"store {s}, whose files are the study's; name a "
                                     "file outside it\n")
    assert sorted(f.name for f in s.iterdir()) == before
    assert (s / "_study.json").read_bytes() == manifest
    assert len(read_study(s)) == len(IDS)


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
    assert "nardy-fast: warning: --plies: no effect with --method rollout" in err, err
    # given at its default value (0) it was still asked for, and is named too
    code, out, err = run_cli(capsys, "study", str(ids), "--store", str(tmp_path / "r0"), "-n",
                             "36", "--workers", "1", "--no-progress", "--plies", "0")
    assert code == 0
    assert "nardy-fast: warning: --plies: no effect with --method rollout" in err, err


# --- the numbers of the function, and refusals -----------------------------------------

SEED = 11
GAMES = 36
STUDY_IDS = ids_of(12)


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    """The study of STUDY_IDS by the function, run once in this process."""
    pytest.importorskip("pyarrow")
    store = tmp_path_factory.mktemp("ref") / "s"
    return nf.study(STUDY_IDS, GAMES, store=store, seed=SEED, workers=1, policy="greedy",
                    progress=False)


def test_study_gives_the_numbers_of_the_function(reference, tmp_path, capsys):
    f = tmp_path / "ids.txt"
    f.write_text("\n".join(STUDY_IDS + STUDY_IDS[:2]) + "\n")
    argv = ["study", str(f), "--games", str(GAMES), "--seed", str(SEED), "--store",
            str(tmp_path / "s"), "--policy", "greedy", "--workers", "1", "--no-progress"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert f"{len(STUDY_IDS)} of {len(STUDY_IDS)} positions done" in out
    pd.testing.assert_frame_equal(nf.read_study(tmp_path / "s"), reference.sort_index())
    f.write_text(f"{STUDY_IDS[0]}\nW_bad\n")
    assert main(argv) == 1
    assert "ids.txt line 2" in capsys.readouterr().err
    argv[argv.index("--seed") + 1] = str(SEED + 1)
    f.write_text(f"{STUDY_IDS[0]}\n")
    assert main(argv) == 1
    assert "belongs to another study (--seed" in capsys.readouterr().err


def test_a_store_of_another_study_is_refused_in_the_options_words(capsys, tmp_path):
    """The command named what differs in the Python function's words ("store=S belongs to
    another study (n_games: 36 in the store, 72 here; policy: ...)"); it now names the
    options: --store, -n/--games, --policy, --truncate (the settings no option sets, such
    as the estimator, keep their names)."""
    f = tmp_path / "ids.txt"
    f.write_text(STUDY_IDS[0] + "\n")
    s = tmp_path / "s"
    argv = ["study", str(f), "--store", str(s), "--workers", "1", "--no-progress"]
    assert main(argv + ["-n", "36", "--policy", "greedy"]) == 0
    capsys.readouterr()
    code, out, err = run_cli(capsys, *argv, "-n", "72", "--policy", "random", "--truncate",
                             "none")
    assert code == 1
    assert err == (f"nardy-fast: error: --store {s} belongs to another study (-n/--games: "
                   "36 in the store, 72 here; --policy: 'greedy' in the store, 'random' "
                   "here; --truncate: 'bearoff' in the store, 'none' here); use another "
                   "store or the same settings\n")


def test_rollout_options_with_method_net_are_named(capsys, tmp_path):
    """They were dropped without a word (``analyse`` names them); --plies under rollouts
    was named in the API's words (``plies: ... method='rollout'``)."""
    ids = tmp_path / "ids.txt"
    ids.write_text("start\n")
    code, out, err = run_cli(capsys, "study", str(ids), "--store", str(tmp_path / "a"),
                             "--method", "net", "-n", "100", "--seed", "5", "--no-progress")
    assert code == 0
    assert err.strip() == ("nardy-fast: warning: -n/--games, --seed: no effect without "
                           "--method rollout (positions are valued by --method net)")
    code, out, err = run_cli(capsys, "study", str(ids), "--store", str(tmp_path / "b"),
                             "--method", "net", "--plies", "1", "--no-progress")
    assert code == 0 and err == ""
    code, out, err = run_cli(capsys, "study", str(ids), "--store", str(tmp_path / "c"), "-n",
                             "10", "--policy", "random", "--plies", "2", "--workers", "1",
                             "--no-progress")
    assert code == 0
    assert err.strip() == ("nardy-fast: warning: --plies: no effect with --method rollout "
                           "(the rollouts' players are --policy)")
    assert read_study(tmp_path / "c").attrs["study"]["n_games"] == 10


RACE_EXACT = "WAAAAAAAAAAAAAAAAAAAAAAAAARIREhAw"    # within the two-sided table: exact
RACE_APPROX = "WAAAAAAAAAAAAAAAAAAAAAAAAIjQxEzMR"   # beyond it: the one-sided approximation


def test_a_study_says_how_its_rows_were_obtained(capsys, tmp_path):
    """A race of both homes is valued at the start by a table: its row was stored as a
    rollout of n games (SE 0 or NaN), and the summary averaged the exact row's 0 into
    "mean SE ... (rollout rows)" and counted games never played; with -n 1 it called the
    rollouts "net values" (their SE is NaN).  Each row now names its table and 0 games,
    and the summary counts the rows of each kind."""
    ids = tmp_path / "ids.txt"
    ids.write_text(f"{RACE_EXACT}\n{RACE_APPROX}\nstart\n")
    code, out, err = run_cli(capsys, "study", str(ids), "--store", str(tmp_path / "s"),
                             "-n", "36", "--workers", "1", "--no-progress")
    assert code == 0, err
    frame = nf.read_study(tmp_path / "s")
    assert frame.loc[RACE_EXACT, "method"] == "two_sided"
    assert frame.loc[RACE_APPROX, "method"] == "one_sided"
    assert frame.loc[[RACE_EXACT, RACE_APPROX], "n_games"].tolist() == [0, 0]
    assert frame.loc[RACE_EXACT, "se_equity"] == 0.0
    assert np.isnan(frame.loc[RACE_APPROX, "se_equity"])
    se = frame.loc["W_wAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", "se_equity"]
    assert (f"mean SE {se:.4f} of 1 rollout(s); 1 exact; 1 approximation (error not "
            "measured); 36 game(s) played") in out, out
    code, out, err = run_cli(capsys, "study", str(ids), "--store", str(tmp_path / "s1"),
                             "-n", "1", "--workers", "1", "--no-progress")
    assert "1 rollout(s), no SE (fewer than 2 games); 1 exact" in out, out
    assert "net" not in out.split("mean equity")[1]


def test_a_study_under_cube_rules_says_what_its_equity_is(tmp_path, capsys):
    """Under cube rules a study's rollouts are cube-aware (a cubeful equity) and its net
    values cubeless (each win once): the mean's line says which, in the study and in
    ``study show``; without a cube it says neither."""
    ids = tmp_path / "ids.txt"
    ids.write_text("start\n")
    for method, words in (("rollout", "cubeful"), ("net", "cubeless")):
        store = str(tmp_path / method)
        code, out, err = run_cli(capsys, "study", str(ids), "--store", store, "-n", "36",
                                 "--workers", "1", "--no-progress", "--method", method,
                                 "--rules", "cube=geometric")
        assert code == 0, err
        assert words in [line for line in out.splitlines() if "mean equity" in line][0]
        code, out, err = run_cli(capsys, "study", "show", store)
        assert words in [line for line in out.splitlines() if "mean equity" in line][0]
    code, out, err = run_cli(capsys, "study", str(ids), "--store", str(tmp_path / "plain"),
                             "--method", "net", "--no-progress")
    assert "cube" not in [line for line in out.splitlines() if "mean equity" in line][0]


def test_study_show_of_a_folder_that_is_no_study_says_so_in_the_command_s_words(
        tmp_path, capsys):
    (tmp_path / "notes.txt").write_text("x\n")
    code, out, err = run_cli(capsys, "study", "show", str(tmp_path))
    assert code == 1 and out == ""
    assert f"store {tmp_path}: has files but no _study.json" in err and "store=" not in err
