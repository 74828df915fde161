"""Bad input gets a clear error that names it: paths, IDs, moves given as text."""
import os

import pytest

import nardy_fast as nf
from nardy_fast.app.cli import main


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("argv, named", [
    (["study", "nope.txt", "--store", "s"], "ids_file nope.txt: no such file"),
    (["analyse", "nope.mat"], "record nope.mat: no such file"),
    (["report", "nope.txt"], "input nope.txt: no such file"),
])
def test_missing_input_files_are_named(capsys, tmp_path, monkeypatch, argv, named):
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, *argv)
    assert code == 1 and err.strip() == f"nardy-fast: error: {named}"


def test_an_output_folder_that_is_a_file_is_named(capsys, tmp_path):
    afile = tmp_path / "afile"
    afile.write_text("x")
    code, out, err = run(capsys, "matches", "random", "random", "-n", "1", "-o", str(afile),
                         "--no-progress")
    assert code == 1
    assert err.strip() == f"nardy-fast: error: -o/--out {afile}: a file, not a folder"
    assert "Errno" not in err


@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="needs /proc")
def test_a_store_that_cannot_be_made_is_named(capsys, tmp_path):
    ids = tmp_path / "ids.txt"
    ids.write_text("start\n")
    code, out, err = run(capsys, "study", str(ids), "--store", "/proc/x", "-n", "10",
                         "--workers", "1", "--no-progress")
    assert code == 1 and "store=/proc/x: cannot make the study's folder" in err
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
