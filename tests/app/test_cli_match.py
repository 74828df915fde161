"""The command line of match play: ``met``, ``analyse`` of a match, ``play --match``."""
import json

import pytest

import nardy_fast as nf
from nardy_fast.app.cli import build_parser, main
from nardy_fast.app.cli_engine import cmd_play
from nardy_fast.core.matchrecord import read_match, write_match


def test_cli_met_and_analyse(played, tmp_path, capsys):
    assert main(["met", "--length", "3"]) == 0
    out = capsys.readouterr().out
    m = nf.match_equity_table(3)
    assert f"{m.loc[1, 2]:.3f}" in out
    path = write_match(played, tmp_path / "m.mat")
    assert main(["analyse", str(path), "--games", "36"]) == 0
    out = capsys.readouterr().out
    assert "total" in out and "mwc_lost" in out


def test_met_names_its_rules_in_the_heading_and_the_json(capsys):
    """Two tables of other rules under one heading (the arithmetic cube's 0.702 against
    the geometric's 0.686, or extended scoring) could not be told apart, and --json had
    no label at all."""
    from helpers import run_cli
    code, out, _ = run_cli(capsys, "met", "--length", "3", "--cube", "--rules",
                           "cube=arithmetic")
    assert code == 0 and "(cubeful; length=3 rules: cube=arithmetic)" in out.splitlines()[0]
    code, out, _ = run_cli(capsys, "met", "--length", "2", "--rules", "scoring=extended",
                           "--json")
    data = json.loads(out)
    assert data["match_rules"] == "length=2 rules: scoring=extended"
    assert data["cube"] is False


def test_met_says_its_chances_are_before_the_opening_roll(capsys):
    """The heading did not say when the chances hold: at 2-away each the table's 0.500 is
    not the 0.569 of a side that has just won a game and starts the next."""
    from helpers import run_cli
    code, out, _ = run_cli(capsys, "met", "--length", "3")
    assert code == 0
    assert out.splitlines()[0].endswith("row needs a, column needs b, before the opening roll")


def test_met_names_workers_without_rollout(capsys):
    """``met --workers 2`` reads the table and plays nothing: it was accepted silently."""
    from helpers import run_cli
    code, out, err = run_cli(capsys, "met", "--length", "2", "--workers", "2")
    assert code == 0 and "match equity table" in out
    assert err.strip() == ("nardy-fast: warning: --workers: no effect without --rollout "
                           "(the table is read, not rolled out)")
    code, out, err = run_cli(capsys, "met", "--length", "2")
    assert err == ""


def test_met_without_cube_names_the_cubeless_rules_it_uses(capsys):
    """``met --rules cube=geometric`` without --cube printed the cubeless table headed
    "cubeless; ... rules: cube=geometric", and --crawford with it a "cubeless, Crawford"
    table: rules the table does not use."""
    from helpers import run_cli
    code, out, err = run_cli(capsys, "met", "--length", "3", "--rules", "cube=geometric")
    assert code == 0
    assert out.splitlines()[0].startswith("match equity table (cubeless; length=3)")
    assert "--rules cube=geometric: no effect without --cube" in err
    code, out, _ = run_cli(capsys, "met", "--length", "3")
    assert out.splitlines()[0].startswith("match equity table (cubeless; length=3)")
    code, out, _ = run_cli(capsys, "met", "--length", "2", "--rules",
                           "cube=geometric scoring=extended", "--json")
    assert json.loads(out)["match_rules"] == "length=2 rules: scoring=extended"
    code, out, err = run_cli(capsys, "met", "--length", "3", "--rules", "cube=geometric",
                             "--crawford")
    assert code != 0 and "--crawford: the Crawford rule is a rule of the cube" in err
    code, out, _ = run_cli(capsys, "met", "--length", "3", "--cube", "--rules",
                           "cube=geometric")
    assert "(cubeful; length=3 rules: cube=geometric)" in out.splitlines()[0]

def test_cli_play_match_quits_and_saves(tmp_path):
    out = tmp_path / "m.mat"
    answers = iter(["quit"] * 50)
    args = build_parser().parse_args(["play", "--match", "1", "--plies", "0", "--seed", "1",
                                      "-o", str(out)])
    cmd_play(args, input_fn=lambda prompt: next(answers))
    assert not out.exists()        # no game finished: no transcript of a header alone


def test_cli_matches(tmp_path, capsys):
    """``nardy-fast matches``: A's share with its interval, the same for the same seed,
    transcripts that replay, money play named per player."""
    argv = ["matches", "net", "random", "-n", "3", "--length", "2", "--seed", "4",
            "--json", "--no-progress"]
    assert main(argv + ["-o", str(tmp_path)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["matches"] == 3 and out["wins_a"] == 3 and out["aware"] == [True, True]
    assert out["ci95"][0] < out["win_rate"] <= out["ci95"][1]
    recs = [read_match(tmp_path / f"match-{m:04d}.mat") for m in (1, 2, 3)]
    assert sum(len(r.games) for r in recs) == out["games"]
    assert all(r.replay()["A"] >= 2 for r in recs)
    assert main(argv) == 0
    assert json.loads(capsys.readouterr().out) == out
    assert main(["matches", "net", "net", "-n", "2", "--cube", "--money", "b",
                 "--no-progress"]) == 0
    text = capsys.readouterr().out
    assert "cube=geometric" in text and "B (net, money play)" in text
    with pytest.raises(SystemExit):
        build_parser().parse_args(["matches", "net", "gnubg"])
    blocked = tmp_path / "a-file"
    blocked.write_text("")
    assert main(["matches", "net", "net", "-n", "1", "-o", str(blocked), "--no-progress"]) == 1
    assert "a-file" in capsys.readouterr().err


def test_matches_leaves_no_transcripts_of_an_earlier_run_unasked(tmp_path, capsys):
    """A second run into the folder replaced match-0001.mat unasked and left the first
    run's match-0002.mat, match-0003.mat beside it, as if of one run."""
    out = tmp_path / "out"
    argv = ["matches", "random", "random", "--length", "1", "-o", str(out), "--no-progress"]
    assert main(argv + ["-n", "3"]) == 0
    first = {p.name: p.read_bytes() for p in out.iterdir()}
    (out / "notes.txt").write_text("mine")
    capsys.readouterr()
    assert main(argv + ["-n", "1", "--seed", "7"]) == 1
    assert capsys.readouterr().err.strip() == (
        f"nardy-fast: error: -o/--out {out}: holds 3 file(s) of an earlier run "
        "(match-0001.mat, match-0002.mat, match-0003.mat); --force replaces them, or name "
        "another folder")
    assert {p.name: p.read_bytes() for p in out.iterdir() if p.suffix == ".mat"} == first
    assert main(argv + ["-n", "1", "--seed", "7", "--force"]) == 0
    assert sorted(p.name for p in out.iterdir()) == ["match-0001.mat", "notes.txt"]
    assert (out / "match-0001.mat").read_bytes() != first["match-0001.mat"]


def test_cli_matches_cut_before_any_match_leaves_no_folder_it_made(tmp_path, monkeypatch):
    """Ctrl-C before a match finished: a folder the command made is removed (nothing was
    written); a folder the user had, even empty, stays."""
    from nardy_fast.app import cli_engine

    def cut(*args, **kwargs):
        raise KeyboardInterrupt
    monkeypatch.setattr(cli_engine, "simulate_matches", cut)
    argv = ["matches", "random", "random", "-n", "3", "--length", "1", "--seed", "4",
            "--no-progress", "-o"]
    made = tmp_path / "new"
    assert main(argv + [str(made)]) != 0
    assert not made.exists()
    mine = tmp_path / "mine"
    mine.mkdir()
    assert main(argv + [str(mine)]) != 0
    assert mine.is_dir()


def test_met_says_what_the_table_rests_on(capsys):
    """The table's chances come from a rollout of the start (its games and standard error)
    and, cubeful, from a cube model with an efficiency; ``met`` printed the chances alone."""
    from helpers import run_cli
    from nardy_fast.engine.evaluation import met
    start = met.start_distribution()
    code, out, _ = run_cli(capsys, "met", "--length", "2", "--cube")
    assert code == 0
    basis = out.splitlines()[1]
    assert f"{start['games']:,} games" in basis and f"{start['se_p_win']:.4f}" in basis
    assert f"cube efficiency {met.TABLE_EFFICIENCY}" in basis
    code, out, _ = run_cli(capsys, "met", "--length", "2", "--json")
    data = json.loads(out)
    assert data["start"]["games"] == start["games"]
    assert data["start"]["se_p_win"] == start["se_p_win"]
    assert data["x"] is None
