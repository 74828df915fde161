"""``nardy-fast play`` never destroys a record saved before: an existing ``-o`` file is
refused unless ``--force``, a record of no turn is never written over a file, and the
default name takes the first free of ``game.mat``, ``game-2.mat``, ...  The real command,
its standard input closed (the human's first prompt ends the game)."""
import os
import subprocess
import sys

import nardy_fast as nf

OLD = "; a game saved before\n"


def _play(cwd, *argv):
    return subprocess.run([sys.executable, "-m", "nardy_fast.app.cli", "play", "--plies", "0",
                           "--seed", "3", *argv], cwd=cwd, stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, timeout=300)


def test_an_existing_out_file_is_refused_before_the_game(tmp_path):
    (tmp_path / "g.mat").write_text(OLD)
    for argv in (("--side", "black", "-o", "g.mat"), ("--match", "1", "-o", "g.mat")):
        r = _play(tmp_path, *argv)
        assert r.returncode == 1
        assert r.stderr.strip() == ("nardy-fast: error: -o/--out g.mat: exists (a game saved "
                                    "before?); --force replaces it, or name another file")
        assert "your move" not in r.stdout                  # refused before any play
        assert (tmp_path / "g.mat").read_text() == OLD
        assert os.listdir(tmp_path) == ["g.mat"]


def test_force_replaces_a_file_but_never_by_a_record_of_no_turn(tmp_path):
    (tmp_path / "g.mat").write_text(OLD)
    r = _play(tmp_path, "--side", "white", "-o", "g.mat", "--force")   # no turn played
    assert r.returncode == 0, r.stderr
    assert "no turn played: g.mat left as it was" in r.stdout
    assert (tmp_path / "g.mat").read_text() == OLD
    r = _play(tmp_path, "--side", "black", "-o", "g.mat", "--force")   # the engine's turn
    assert r.returncode == 0, r.stderr
    assert "record saved to g.mat (1 turn, not finished)" in r.stdout
    assert len(nf.read_record(tmp_path / "g.mat").turns) == 1
    assert os.listdir(tmp_path) == ["g.mat"]                 # no temporary left


def test_the_default_name_never_destroys_the_last_game(tmp_path):
    for k in range(3):
        r = _play(tmp_path, "--side", "black")
        assert r.returncode == 0, r.stderr
    assert sorted(os.listdir(tmp_path)) == ["game-2.mat", "game-3.mat", "game.mat"]
    assert "game.mat exists: the record goes to game-3.mat" in r.stdout
    assert "record saved to game-3.mat" in r.stdout
    for name in os.listdir(tmp_path):
        assert len(nf.read_record(tmp_path / name).turns) == 1
    r = _play(tmp_path, "--side", "white")                  # no turn: nothing written
    assert "no turn played: game.mat left as it was" in r.stdout
    assert len(os.listdir(tmp_path)) == 3


def test_a_new_file_is_claimed_in_one_step(tmp_path):
    """``write_record(..., replace=False)``: FileExistsError, the file kept, no temporary."""
    import pytest
    path = tmp_path / "g.mat"
    path.write_text(OLD)
    rec = nf.random_game(seed=1, max_turns=3)
    with pytest.raises(FileExistsError):
        nf.write_record(rec, path, replace=False)
    assert path.read_text() == OLD and os.listdir(tmp_path) == ["g.mat"]
    nf.write_record(rec, tmp_path / "h.mat", replace=False)
    assert nf.read_record(tmp_path / "h.mat").turns == rec.turns
