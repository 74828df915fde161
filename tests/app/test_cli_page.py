"""The analysis page from the command line: ``nardy-fast analyse --html`` of a game and of
a match transcript (the page itself: tests/analysis/test_page.py)."""
import re

import pytest

from nardy_fast.app.cli import main
from nardy_fast.core.record import write_record

from helpers import Page, played_rows as played, unwritable_folder


def test_cli_analyse_html(analysed_game, tmp_path, capsys):
    record, report = analysed_game
    path = tmp_path / "g.txt"
    write_record(record, path)
    out = tmp_path / "page.html"
    assert main(["analyse", str(path), "--html", str(out), "--seed", "1"]) in (0, None)
    assert "wrote the analysis page" in capsys.readouterr().out
    p = Page(out.read_text(encoding="utf-8"))
    assert len(p.by_class("board", "div")) == len(played(report))


def test_cli_analyse_html_keeps_an_existing_file_unless_force(analysed_game, tmp_path,
                                                              capsys):
    """An existing --html file is refused before the analysis, and left as it was;
    --force replaces it with the page."""
    record, _ = analysed_game
    path = tmp_path / "g.txt"
    write_record(record, path)
    out = tmp_path / "mine.html"
    out.write_text("my page")
    argv = ["analyse", str(path), "--html", str(out), "--plies", "0", "--no-progress"]
    assert main(argv) == 1
    captured = capsys.readouterr()
    assert captured.out == "" and f"--html {out}: exists" in captured.err
    assert "--force replaces it" in captured.err and out.read_text() == "my page"
    assert main([*argv, "--force"]) in (0, None)
    assert out.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")


def test_an_html_path_no_file_can_be_made_in_is_refused_before_the_analysis(
        analysed_game, tmp_path, capsys, monkeypatch):
    """--html in a folder where no file can be made failed after the whole analysis (a
    rollout analysis: minutes), naming a temporary file; it is refused first, by option."""
    record, _ = analysed_game
    path = tmp_path / "g.txt"
    write_record(record, path)
    shut = unwritable_folder(monkeypatch, tmp_path)
    analysed = []
    monkeypatch.setattr("nardy_fast.analysis.report.game_report",
                        lambda *a, **k: analysed.append(1))
    assert main(["analyse", str(path), "--html", str(shut / "p.html"), "--no-progress"]) == 1
    assert capsys.readouterr().err.strip() == (
        f"nardy-fast: error: --html {shut / 'p.html'}: cannot write in {shut} (Permission "
        "denied)")
    assert analysed == [] and list(shut.iterdir()) == []


@pytest.mark.slow
def test_cli_analyse_html_of_a_match(tmp_path, capsys):
    """A real match transcript through ``nardy-fast analyse --html``: a section per game
    under the score the transcript gives before it, one board per turn of every game."""
    from nardy_fast.core.matchrecord import write_match
    from nardy_fast.core.matchrules import MatchRules
    from nardy_fast.engine.decisions.matchplay import play_one_match
    record = play_one_match("greedy", "greedy", rules=MatchRules(length=1), seed=5,
                            names=("Ann", "Bob"))
    path = tmp_path / "m.mat"
    write_match(record, path)
    out = tmp_path / "m.html"
    assert main(["analyse", str(path), "--html", str(out), "--seed", "1"]) in (0, None)
    p = Page(out.read_text(encoding="utf-8"))
    assert len(p.by_class("game", "section")) == len(record.games)
    assert len(p.by_class("board", "div")) == sum(len(g.turns) for g in record.games)
    text = re.sub(r"\s+", " ", " ".join(p.text))
    for game, score in zip(record.games, record.scores):
        assert (f"Score before the game: {game.white} (White) {score[game.white]:g}, "
                f"{game.black} (Black) {score[game.black]:g}") in text
