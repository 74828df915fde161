"""Terminal play (``nardy_fast.app.play``): a human turn, and the engine against itself."""
import nardy_fast as nf
from nardy_fast.engine.evaluator import Evaluator


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

    def spy(pos, dice, moves, ev_, input_fn, print_fn):
        seen.append((pos, dice))
        return orig(pos, dice, moves, ev_, input_fn, print_fn)

    play_mod._human_move = spy
    try:
        record = play_terminal(side="black", plies=0, seed=5, out=str(tmp_path / "g.mat"),
                               input_fn=human, print_fn=lambda *a: None)
    finally:
        play_mod._human_move = orig
    assert record.result() is not None
    again = nf.read_record(tmp_path / "g.mat")
    assert again.positions()[-1] == record.positions()[-1]
