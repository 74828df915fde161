"""The command line of match play: ``met``, ``analyse`` of a match, ``play --match``."""
import pytest

import nardy_fast as nf
from nardy_fast.app.cli import build_parser, cmd_play, main
from nardy_fast.core.matchrecord import read_match, write_match
from nardy_fast.core.matchrules import MatchRules
from nardy_fast.engine.matchplay import play_one_match


@pytest.fixture(scope="module")
def played():
    return play_one_match("net", "net", MatchRules(length=2), seed=5)


def test_cli_met_and_analyse(played, tmp_path, capsys):
    assert main(["met", "--length", "3"]) == 0
    out = capsys.readouterr().out
    m = nf.match_equity_table(3)
    assert f"{m.loc[1, 2]:.3f}" in out
    path = write_match(played, tmp_path / "m.mat")
    assert main(["analyse", str(path), "--games", "36"]) == 0
    out = capsys.readouterr().out
    assert "total" in out and "mwc_lost" in out


def test_cli_play_match_quits_and_saves(tmp_path):
    out = tmp_path / "m.mat"
    answers = iter(["quit"] * 50)
    args = build_parser().parse_args(["play", "--match", "1", "--plies", "0", "--seed", "1",
                                      "-o", str(out)])
    cmd_play(args, input_fn=lambda prompt: next(answers))
    assert read_match(out).games == []
