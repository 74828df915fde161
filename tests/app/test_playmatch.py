"""A match against the engine in the terminal (``nardy_fast.app.playmatch``): what the
human is told as the match goes on."""
import re

import nardy_fast as nf
from nardy_fast.app import playmatch


def _engine_as_human(monkeypatch):
    """The human plays the engine's 0-ply moves."""
    ev = nf.Evaluator.default()
    monkeypatch.setattr(playmatch, "_human_move",
                        lambda pos, dice, *a, **kw: ev.best_move(pos, dice))


def test_each_game_s_end_and_the_match_s_winner_are_said(tmp_path, monkeypatch):
    """``play --match`` said nothing when a game ended: the human learnt of a lost game,
    and of its points, only from the next 'you need' line, and the last line gave the
    score without saying who had won the match."""
    _engine_as_human(monkeypatch)
    said = []
    rec = playmatch.play_match_terminal(2, plies=0, seed=5, out=str(tmp_path / "m.mat"),
                                        input_fn=None, print_fn=said.append)
    text = "\n".join(map(str, said))
    lines = re.findall(r"^game (\d+): (.*) wins \((\w+), (\d+) points?\); score: (.*)$",
                       text, re.M)
    assert [int(k) for k, *_ in lines] == list(range(1, len(rec.games) + 1))
    for (k, winner, kind, points, score), game, after in zip(
            lines, rec.games, rec._running_scores()[1:]):
        res = game.result()
        assert winner == (game.white if res["winner"] == "white" else game.black)
        assert (kind, float(points)) == (res["kind"], res["points"])
        assert score == ", ".join(f"{n} {v:g}" for n, v in after.items())
    final = rec.final_score()
    champion = max(final, key=final.get)
    assert re.search(rf"^score: .*: {re.escape(champion)} wins? the match to 2$", text,
                     re.M)
