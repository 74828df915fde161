"""Terminal play (``nardy_fast.app.play``): a human turn, the engine against itself, the
opening throw, ``draw_rule``'s last turn and the rules."""
import re

import numpy as np

import nardy_fast as nf
from nardy_fast.app.play import play_terminal
from nardy_fast.core.rules import Rules
from nardy_fast.engine.evaluation.evaluator import Evaluator


def test_play_in_the_terminal(tmp_path):
    """The human (White) asks for a hint, types a wrong move, then a legal one, quits."""
    out = tmp_path / "game.mat"
    said = []
    answers = iter(["hint", "1/9", "quit"])
    from nardy_fast.app.play import play_terminal

    def answer(prompt):
        said.append(prompt)
        return next(answers)

    record = play_terminal(side="white", plies=0, seed=3, out=str(out), input_fn=answer,
                           print_fn=said.append)
    assert out.exists() and record.turns == []
    assert any("not a move" in s or "not legal" in s for s in said if isinstance(s, str))
    assert any(s.strip().startswith("1.") for s in said if isinstance(s, str))


def test_engine_plays_a_whole_game_against_itself(tmp_path):
    """The engine on both sides through the terminal loop: a finished, replayable record."""
    from nardy_fast.app.play import play_terminal
    ev = Evaluator.default()
    seen = []

    def human(prompt):                      # plays the engine's own best move
        pos, dice = seen[-1]
        return str(ev.best_move(pos, dice))

    import nardy_fast.app.play as play_mod
    orig = play_mod._human_move

    def spy(pos, dice, moves, ev_, input_fn, print_fn, **kw):
        seen.append((pos, dice))
        return orig(pos, dice, moves, ev_, input_fn, print_fn, **kw)

    play_mod._human_move = spy
    try:
        record = play_terminal(side="black", plies=0, seed=5, out=str(tmp_path / "g.mat"),
                               input_fn=human, print_fn=lambda *a: None)
    finally:
        play_mod._human_move = orig
    assert record.result() is not None
    again = nf.read_record(tmp_path / "g.mat")
    assert again.positions()[-1] == record.positions()[-1]


def _answers(*texts):
    it = iter(texts)
    return lambda prompt: next(it)


def test_the_opening_throw_decides_who_plays_white(tmp_path):
    """Rule book section 8: the higher die of the opening throw plays White.  The engine
    (0-ply) plays its turns; the human quits at its first turn."""
    seen = set()
    for seed in range(6):
        said = []
        rec = play_terminal(plies=0, seed=seed, out=str(tmp_path / f"{seed}.mat"),
                            input_fn=_answers("quit"), print_fn=said.append)
        you, engine = (int(x) for x in re.match(
            r"opening throw: you (\d), the engine (\d)", said[0]).groups())
        assert you != engine
        assert (rec.white == "you") == (you > engine)
        seen.add(rec.white)
        if rec.white != "you":                      # the engine, White, moved first
            assert len(rec.turns) == 1 and rec.turns[0].side == "white"
    assert seen == {"you", "nardy_fast 0-ply"}      # both outcomes occur in six games


def test_opening_dice_are_white_s_first_roll(tmp_path):
    """``opening_roll="opening_dice"``: White plays the two dice of the opening throw."""
    for seed in range(4):
        said = []
        rec = play_terminal(side="black", plies=0, seed=seed, out=str(tmp_path / "g.mat"),
                            input_fn=_answers("quit"), print_fn=said.append,
                            rules=Rules(opening_roll="opening_dice"))
        a, b = (int(x) for x in re.findall(r"\d", said[0])[:2])
        assert rec.turns[0].dice == (max(a, b), min(a, b))


def test_black_gets_its_last_turn_under_draw_rule(tmp_path):
    """White (the engine) bears off its last checker first; under draw_rule Black (the
    human) still plays its last turn, bears off both checkers, and the game is a draw."""
    white = np.zeros(24, np.uint8)
    white[23] = 1
    black = np.zeros(24, np.uint8)
    black[23] = 2
    start = nf.Position(white, black)
    rec = play_terminal(side="black", plies=0, seed=1, out=str(tmp_path / "g.mat"),
                        input_fn=_answers("24/off 24/off"), print_fn=lambda *a: None,
                        rules=Rules(draw_rule=True), start=start)
    assert [t.side for t in rec.turns] == ["white", "black"]
    assert rec.result() == {"winner": None, "kind": "draw", "points": 0.0}
    assert nf.read_record(tmp_path / "g.mat").rules.draw_rule


def test_a_draw_is_half_a_point_each(tmp_path):
    """Rule book section 7: a draw is 1/2 each.  The game's end said 'a draw (0 points
    each)', the record's net score."""
    white = np.zeros(24, np.uint8)
    white[23] = 1
    black = np.zeros(24, np.uint8)
    black[23] = 2
    said = []
    play_terminal(side="black", plies=0, seed=1, out=str(tmp_path / "g.mat"),
                  input_fn=_answers("24/off 24/off"), print_fn=said.append,
                  rules=Rules(draw_rule=True), start=nf.Position(white, black))
    assert "a draw (1/2 point each)" in said


def test_cli_play_takes_rules_and_a_start(tmp_path, monkeypatch):
    from nardy_fast.app.cli import main
    monkeypatch.setattr("builtins.input", lambda prompt: "quit")
    out = tmp_path / "g.mat"
    assert main(["play", "--rules", "scoring=extended", "--side", "white", "--plies", "0",
                 "--seed", "3", "-o", str(out)]) == 0
    assert nf.read_record(out).rules == Rules(scoring="extended")


OVER = "WAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAB"          # White has borne off every checker


def test_a_finished_start_is_refused_by_name(tmp_path, capsys):
    """``play --start`` of a finished game said 'you play white' and saved a record of no
    turn, 'not finished'; ``duel --start`` named 'start', not the option."""
    import pytest
    from nardy_fast.app.cli import main
    assert nf.Position.from_id(OVER).is_over()
    with pytest.raises(ValueError, match=f"start {OVER}: the game is over"):
        play_terminal(side="white", plies=0, start=OVER, out=str(tmp_path / "g.mat"),
                      input_fn=lambda prompt: "quit", print_fn=lambda *a: None)
    for argv in (["play", "-o", str(tmp_path / "g.mat")], ["duel", "a", "b", "-n", "2"]):
        assert main(argv + ["--start", OVER]) == 1
        out, err = capsys.readouterr()
        assert out == ""
        assert err.strip() == (f"nardy-fast: error: --start {OVER}: the game is over (a side "
                               "has borne off every checker): no game to play from there")
    assert not (tmp_path / "g.mat").exists()


def test_a_game_with_the_cube_is_refused_by_name(tmp_path, capsys):
    """``play --rules cube=geometric`` played a game in which neither side could raise, yet
    scored it by the cube's rule (rule book 7a): a koks won 1 point.  The game against the
    engine is played without the cube, as ``play --match`` already said."""
    import pytest
    from nardy_fast.app.cli import main
    assert main(["play", "--rules", "cube=geometric", "--plies", "0", "--seed", "1",
                 "-o", str(tmp_path / "g.mat")]) == 1
    assert "--rules cube=geometric: a game against the engine is played without the " \
           "cube" in capsys.readouterr().err
    with pytest.raises(ValueError, match="rules: cube=arithmetic: a game against the "
                       "engine in the terminal is played without the cube"):
        play_terminal(side="white", plies=0, seed=1, out=str(tmp_path / "g.mat"),
                      input_fn=lambda prompt: "quit", print_fn=lambda *a: None,
                      rules=Rules(cube="arithmetic"))
    assert not (tmp_path / "g.mat").exists()
