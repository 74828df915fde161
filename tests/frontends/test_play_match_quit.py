"""``nardy-fast play --match``: ``quit`` (or Ctrl-D, Ctrl-C) during a game keeps that
game's turns in the transcript, as an unfinished last game that scores nothing and reads
back; the finished games before it are kept as they were."""
import os

import pytest

import nardy_fast as nf
from nardy_fast.app import playmatch
from nardy_fast.core.matchrecord import read_match
from nardy_fast.core.record import RecordError
from ptyterm import Terminal


def test_quit_in_the_second_game_keeps_both_games(tmp_path, monkeypatch):
    """The human plays the engine's moves until the second game has begun, then quits."""
    ev = nf.Evaluator.default()
    started = []
    real_played = playmatch._GameInPlay.played

    def played(self, name, pos, dice, move):
        if pos == nf.Position.initial():
            started.append(name)
        real_played(self, name, pos, dice, move)
    monkeypatch.setattr(playmatch._GameInPlay, "played", played)

    asked_in_second = []

    def human(pos, dice, moves, ev_, input_fn, print_fn, **kw):
        if len(started) >= 2:
            asked_in_second.append(pos)
            if len(asked_in_second) > 1:
                return None                         # quit: the second game has turns
        return ev.best_move(pos, dice)
    monkeypatch.setattr(playmatch, "_human_move", human)
    said = []
    rec = playmatch.play_match_terminal(3, plies=0, seed=5, out=str(tmp_path / "m.mat"),
                                        input_fn=None, print_fn=said.append)
    assert len(rec.games) == 2
    first, second = rec.games
    assert first.result() is not None and second.result() is None and second.turns
    back = read_match(tmp_path / "m.mat")
    assert [g.turns for g in back.games] == [first.turns, second.turns]
    assert back.final_score() == rec.final_score() == rec._running_scores()[1]
    with pytest.raises(RecordError, match="game 2: the match is not over"):
        back.replay()
    for g in back.games:                            # each game replays on its own
        g.replay()
    assert (f"match transcript saved to {tmp_path / 'm.mat'} (1 finished game and game 2 "
            f"unfinished, {len(second.turns)} turn") in "\n".join(map(str, said))


def test_quit_typed_in_the_terminal_keeps_the_game_in_play(tmp_path):
    """The real command: the engine opens (seed 3), the human answers, the engine plays
    again, the human types quit: the transcript holds those three turns."""
    t = Terminal(["play", "--match", "3", "--plies", "0", "--seed", "3", "-o", "m.mat"],
                 tmp_path)
    try:
        m = t.expect(r"engine rolled (\d)(\d) and plays ([^\n]*)\n", timeout=180)
        pos = nf.Position.initial().play(m.group(3).strip(),
                                         dice=(int(m.group(1)), int(m.group(2))))
        m = t.expect(r"your move \((\d)(\d)")
        t.send(str(pos.legal_moves((int(m.group(1)), int(m.group(2))))[0]) + "\r")
        t.expect(r"(?s)your move \(\d\d.*your move \(\d\d")
        t.send("quit\r")
        assert t.wait() == 0
    finally:
        t.close()
    assert "match transcript saved to m.mat (game 1 unfinished, 3 turns)" in t.text
    assert os.listdir(tmp_path) == ["m.mat"]
    game = read_match(tmp_path / "m.mat").games[0]
    assert [turn.side for turn in game.turns] == ["white", "black", "white"]
    assert game.positions()[1] == pos


@pytest.mark.parametrize("flag", [["--side", "black"], ["--start", "start"]])
def test_a_match_refuses_a_colour_or_a_start_by_name(tmp_path, flag, capsys):
    """Each game of a match starts from the start, the opening throw deciding the colours:
    ``--side`` and ``--start`` are refused by name (before: silently ignored)."""
    from nardy_fast.app import cli
    assert cli.main(["play", "--match", "3", "-o", str(tmp_path / "m.mat"), *flag]) == 1
    err = capsys.readouterr().err
    assert f"{flag[0]} {flag[1]}: not with --match" in err
    assert not (tmp_path / "m.mat").exists()


def test_a_match_is_played_under_the_rules_given(monkeypatch, tmp_path):
    """``play --match --rules ...`` plays the match under those rules (before: classic,
    whatever was given)."""
    from nardy_fast.app import cli
    seen = {}

    def fake(length, evaluator=None, **kw):
        seen["rules"] = None if evaluator is None else evaluator.rules
    monkeypatch.setattr(cli.cli_engine, "play_match_terminal", fake)
    assert cli.main(["play", "--match", "3", "-o", str(tmp_path / "m.mat"), "--rules",
                     "scoring=extended"]) == 0
    assert seen["rules"] is not None and seen["rules"].scoring == "extended"


def test_a_match_with_the_cube_is_refused_by_name(tmp_path, capsys):
    """``play --match 3 --rules cube=geometric`` asked the human for a move, then failed at
    the first cube decision with a traceback (AttributeError: '_Human' object has no
    attribute 'evaluate'), the move typed lost: the match is played without the cube."""
    from nardy_fast.app import cli
    from nardy_fast.core.rules import Rules
    from nardy_fast.engine.evaluation.evaluator import Evaluator
    assert cli.main(["play", "--match", "3", "-o", str(tmp_path / "m.mat"), "--rules",
                     "cube=geometric"]) == 1
    err = capsys.readouterr().err
    assert "--rules cube=geometric: not with --match" in err
    with pytest.raises(ValueError, match="rules: cube=geometric: a match against the "
                       "engine in the terminal is played without the cube"):
        playmatch.play_match_terminal(3, plies=0, seed=1, out=str(tmp_path / "m.mat"),
                                      input_fn=lambda prompt: "1/5 5/10",
                                      print_fn=lambda *a: None,
                                      evaluator=Evaluator.default(Rules(cube="geometric")))
    assert not (tmp_path / "m.mat").exists()
