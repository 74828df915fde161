"""Bad input gets a clear error that names it: paths, IDs, moves given as text."""
import os

import pytest

import nardy_fast as nf
from nardy_fast.app.cli import main

from helpers import run_cli


@pytest.mark.parametrize("argv, named", [
    (["study", "nope.txt", "--store", "s"], "ids_file nope.txt: no such file"),
    (["analyse", "nope.mat"], "record nope.mat: no such file"),
    (["report", "nope.txt"], "input nope.txt: no such file"),
])
def test_missing_input_files_are_named(capsys, tmp_path, monkeypatch, argv, named):
    monkeypatch.chdir(tmp_path)
    code, out, err = run_cli(capsys, *argv)
    assert code == 1 and err.strip() == f"nardy-fast: error: {named}"


def test_an_output_folder_that_is_a_file_is_named(capsys, tmp_path):
    afile = tmp_path / "afile"
    afile.write_text("x")
    code, out, err = run_cli(capsys, "matches", "random", "random", "-n", "1", "-o", str(afile),
                         "--no-progress")
    assert code == 1
    assert err.strip() == f"nardy-fast: error: -o/--out {afile}: a file, not a folder"
    assert "Errno" not in err


@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="needs /proc")
def test_a_store_that_cannot_be_made_is_named(capsys, tmp_path):
    ids = tmp_path / "ids.txt"
    ids.write_text("start\n")
    code, out, err = run_cli(capsys, "study", str(ids), "--store", "/proc/x", "-n", "10",
                         "--workers", "1", "--no-progress")
    assert code == 1 and "--store /proc/x: cannot make the study's folder" in err
    assert "[Errno" not in err


def test_study_store_none_is_a_type_error_naming_it():
    from nardy_fast.analysis.study import study
    with pytest.raises(TypeError, match="store=None"):
        study(["start"], 10, store=None)


def test_start_is_a_position_everywhere(tmp_path):
    from nardy_fast.analysis.study import read_position_ids
    assert nf.Position.from_id("start") == nf.Position.initial()
    ids = tmp_path / "ids.txt"
    ids.write_text("# the start\nstart\n")
    assert read_position_ids(ids) == [nf.Position.initial().id]


def test_play_takes_a_move_as_text():
    p = nf.Position.initial()
    for dice in [(6, 5), (3, 3), (4, 1)]:
        for m in p.legal_moves(dice):
            assert p.play(str(m)) == p.play(m) == p.play(str(m), dice=dice)
    with pytest.raises(ValueError, match="'1/7 7/13'"):
        p.play("1/7 7/13")
    with pytest.raises(ValueError, match="roll 66"):
        p.play("1/7 7/12", dice=(6, 6))
    with pytest.raises(TypeError, match="play"):
        p.play(3)


# -- records and transcripts -------------------------------------------------------------------
@pytest.mark.parametrize("text", ["", "\n\n", "; a comment\n;another\n"])
def test_an_empty_record_is_an_error_naming_the_file(capsys, tmp_path, text):
    p = tmp_path / "empty.mat"
    p.write_text(text)
    code, out, err = run_cli(capsys, "analyse", str(p))
    assert code == 1 and out == ""
    assert err.startswith(f"nardy-fast: error: {p}: no game record here")
    with pytest.raises(nf.RecordError if hasattr(nf, "RecordError") else ValueError,
                       match="no game record here"):
        nf.read_record(p)


def test_a_written_record_of_no_turns_still_reads(tmp_path):
    from nardy_fast.core.record import GameRecord, write_record
    write_record(GameRecord(), tmp_path / "g.mat")
    assert nf.read_record(tmp_path / "g.mat").turns == []


def _transcript(tmp_path):
    from nardy_fast.core.matchrecord import write_match
    from nardy_fast.engine.decisions.matchplay import simulate_matches
    rec = simulate_matches("random", "random", 1, length=3, seed=2, progress=False,
                           transcripts=True)["records"][0]
    path = tmp_path / "m.mat"
    write_match(rec, path)
    return path, rec


def test_a_truncated_transcript_is_a_match_so_far_and_a_bad_one_names_the_file(
        capsys, tmp_path):
    """A transcript cut in its last game is a match still being played: analysed so far
    (it was refused, "the match is not over"); a transcript whose last game breaks the
    rules is refused naming the file and the game."""
    path, rec = _transcript(tmp_path)
    text = path.read_text()
    cut = text.rindex("Game ")                          # keep the last game's first lines
    head = text[:text.index("\n", text.index("\n", cut + 40) + 1)] + "\n"
    path.write_text(head)
    code, out, err = run_cli(capsys, "analyse", str(path))
    assert code == 0, err
    assert "total" in out
    path.write_text(head + "  9) 66: 1/24 1/24\n")     # a turn line out of order
    code, out, err = run_cli(capsys, "analyse", str(path))
    assert code == 1
    # the file and the game named once, in that order ("game 2: m.mat game 2 line 5")
    assert err.startswith(f"nardy-fast: error: {path} game {len(rec.games)} line "), err


def test_a_transcript_of_no_game_is_an_error_naming_the_file(capsys, tmp_path):
    from nardy_fast.core.matchrecord import format_match, MatchRecord
    from nardy_fast.core.matchrules import MatchRules
    path = tmp_path / "m3.mat"
    path.write_text(format_match(MatchRecord(rules=MatchRules(length=3),
                                             players=("you", "engine"))))
    code, out, err = run_cli(capsys, "analyse", str(path))
    assert code == 1 and "No objects" not in err
    assert err.strip() == (f"nardy-fast: error: {path}: no game in this match transcript "
                           "(a header alone)")


# -- the cube, the match score ----------------------------------------------------------------
def test_a_stake_the_progression_cannot_reach_is_refused(capsys):
    from nardy_fast.engine.decisions.cube import cube_decision
    with pytest.raises(ValueError, match="stake=3: not a stake of the geometric cube"):
        cube_decision(nf.Position.initial(), nf.CubeState(3, "centre"))
    assert nf.CubeState(3, "centre").check("arithmetic").stake == 3
    with pytest.raises(ValueError, match="stops at 16"):
        nf.CubeState(17, "mover").check("arithmetic")
    code, out, err = run_cli(capsys, "cube", "start", "--stake", "3")
    assert code == 1 and "--stake 3: stake=3: not a stake of the geometric cube" in err
    code, out, err = run_cli(capsys, "cube", "start", "--stake", "4")
    assert code == 0


def test_match_score_range_is_the_one_allowed():
    from nardy_fast.core.matchrules import MatchRules, MatchState
    with pytest.raises(ValueError, match=r"in 0\.\.4 \(below the match length 5\)"):
        MatchState(MatchRules(length=5), score=(5, 0))
    for ok in range(5):
        MatchState(MatchRules(length=5), score=(ok, 0))       # 0..4 all allowed


# -- databases -------------------------------------------------------------------------------
def test_two_sided_of_no_checkers_is_refused(capsys):
    with pytest.raises(SystemExit) as e:
        main(["bearoff", "build", "--two-sided", "0"])
    assert e.value.code == 2
    assert "--two-sided: 0: expected an integer 1..15" in capsys.readouterr().err


# -- seeds ----------------------------------------------------------------------------------
@pytest.mark.parametrize("argv", [
    ["rollout", "start", "-n", "10"],
    ["matches", "random", "random", "-n", "1"],
    ["report", "ids.txt", "-o", "rep", "--method", "rollout", "-n", "10"],
    ["demo", "-o", "demo", "-n", "10"],
])
def test_a_negative_seed_is_a_usage_error_naming_seed_before_any_work(capsys, tmp_path,
                                                                     monkeypatch, argv):
    # it was the API's "seed=-1: must be >= 0", after report had written its pip report
    # and demo had made its folder
    monkeypatch.chdir(tmp_path)
    (tmp_path / "ids.txt").write_text("start\n")
    with pytest.raises(SystemExit) as e:
        main(argv + ["--seed", "-1"])
    out, err = capsys.readouterr()
    assert e.value.code == 2
    assert err.splitlines()[-1].endswith("error: argument --seed: -1: expected an integer >= 0")
    assert sorted(os.listdir(tmp_path)) == ["ids.txt"]          # nothing written


def test_a_seed_of_any_size_is_taken(capsys):
    code, out, err = run_cli(capsys, "matches", "random", "random", "-n", "1", "--seed",
                             str(2 ** 80), "--no-progress")
    assert code == 0, err
