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


def test_a_hint_in_a_match_ranks_by_match_winning_chances(tmp_path):
    """In a match 'hint' ranked the moves by money equity, while the engine plays, and the
    blunder note judges, by match winning chances: at 2-0 or 0-2 in a match to 3, or 1-1
    in a match to 2, one hint in seven put first a move the engine would not play.  It
    ranks them as the engine does."""
    prompts, said = [], []
    answers = iter(["hint", "quit"])

    def answer(prompt):
        prompts.append(prompt)
        return next(answers)
    playmatch.play_match_terminal(3, plies=0, seed=1, out=str(tmp_path / "m.mat"),
                                  input_fn=answer, print_fn=said.append)
    text = "\n".join(map(str, said))
    pos = nf.Position.from_id(re.findall(r"^id (\S+)$", text, re.M)[0])
    dice = tuple(int(c) for c in re.match(r"your move \((\d\d)", prompts[0]).group(1))
    hint = nf.Evaluator.default().hint(pos, dice, plies=0,
                                       match=nf.MatchState(3, (0, 0), pos.side))
    shown = re.findall(r"^ +(\d)\. (.+?) +(\d\.\d{3}) +(\d\.\d{3})$", text, re.M)
    assert re.search(r"rank +move +mwc +mwc_loss", text)
    assert [(m.strip(), float(w)) for _, m, w, _ in shown] == \
        [(r.move, round(r.mwc, 3)) for r in hint.head(5).itertuples()]
