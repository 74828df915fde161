"""What the analysis page says about a golden game: the candidates of each turn, the
result, the settings, the index of errors and blunders, "best" only where the played
move is not a best one, and the boards drawn with one set of symbols
(nardy_fast.analysis.page; the page in a browser: test_page.py).

The golden game: a seeded random race from a fixed position (White all home, Black's 15
checkers on its points 13-18), which White wins by mars; names Ann and Bob.
"""
import json
import re

import numpy as np
import pytest

from nardy_fast import __version__
from nardy_fast.analysis.page import board, to_html
from nardy_fast.analysis.report import CANDIDATES, game_report
from nardy_fast.core.position import Position
from nardy_fast.core.record import random_game

from helpers import Page, played_rows as played


def _start():
    me = np.zeros(24, int)
    me[18:24] = [3, 3, 3, 2, 2, 2]
    you = np.zeros(24, int)
    you[12:18] = [3, 3, 3, 2, 2, 2]
    return Position(me, you)


@pytest.fixture(scope="module")
def golden():
    record = random_game(seed=0, start=_start(), white="Ann", black="Bob")
    report = game_report(record, analyse=True, seed=1)
    return record, report, to_html(report, record=record)


def _text(page):
    return re.sub(r"\s+", " ", " ".join(Page(page).text))


def test_the_result_is_stated(golden):
    record, _, page = golden
    assert record.result() == {"winner": "white", "kind": "mars", "points": 2.0}
    assert "Ann (white) wins by mars: 2 points." in _text(page)


def test_the_settings_are_stated(golden):
    _, report, page = golden
    st = report.attrs["settings"]
    assert st["method"] == "auto" and st["plies"] == 0
    assert re.fullmatch(r"sha256:[0-9a-f]{16}", st["net"])
    assert st["version"] == __version__
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", st["date"])
    dl = Page(page).by_class("settings", "dl")
    assert len(dl) == 1
    text = _text(page)
    for k in ("method auto", "plies 0", f"net {st['net']}", f"nardy_fast {__version__}",
              f"date {st['date']}"):
        assert k in text


def test_candidates_are_the_ranking_of_each_turn(golden):
    """Up to 5 moves of the turn's ranking (computed once, with the analysis), the played
    one always among them, the best first, losses against the best."""
    _, report, page = golden
    tables = Page(page).by_class("cand", "table")
    decisions = played(report)[played(report)["n_moves"] > 1]
    assert len(tables) == len(decisions)
    for _, r in decisions.iterrows():
        cands = json.loads(r["candidates"])
        assert set(cands[0]) <= set(CANDIDATES)
        assert cands[0]["rank"] == 1 and cands[0]["equity_loss"] == 0
        assert [c["rank"] for c in cands] == sorted(c["rank"] for c in cands)
        top = [c for c in cands if c["rank"] <= 5]
        assert len(top) == min(5, r["n_moves"])
        mine = [c for c in cands if c["played"]]
        assert len(mine) == 1
        assert mine[0]["equity_loss"] == pytest.approx(r["equity_loss"], abs=1e-6)
        assert mine[0]["equity"] == pytest.approx(r["equity_played"], abs=1e-6)
        assert r["rank_played"] == mine[0]["rank"] or (
            mine[0]["equity_loss"] == 0 and r["rank_played"] == 1)
        assert r["best_move"] == cands[0]["move"] or r["rank_played"] == 1
    text = _text(page)
    first = json.loads(decisions.iloc[0]["candidates"])[0]
    assert (f"1 {first['move']} {first['equity']:+.3f} 0.000 {first['p_win']:.1%} "
            f"{first['p_mars_win']:.1%} {first['p_lose']:.1%} {first['p_mars_loss']:.1%}"
            in text)


def test_the_number_of_candidates_is_a_setting():
    record = random_game(seed=0, start=_start(), max_turns=3)
    rep = game_report(record, analyse=True, seed=1, n_candidates=2)
    for c in rep["candidates"]:
        if c:
            top = [m for m in json.loads(c) if m["rank"] <= 2]
            assert 1 <= len(top) <= 2
    with pytest.raises(ValueError, match="n_candidates"):
        game_report(record, analyse=True, n_candidates=0)
    with pytest.warns(UserWarning, match="n_candidates"):
        game_report(record, n_candidates=2)


def test_the_index_links_every_error_and_blunder(golden):
    _, report, page = golden
    p = Page(page)
    wrong = played(report)[played(report)["mark"].isin(["error", "blunder"])]
    assert len(wrong) >= 2
    index = [e for e in p.elements if e[0] == "a" and "table" in e[3]
             and e[1].get("href", "").startswith("#g1-t")]
    assert [a[1]["href"] for a in index] == [f"#g1-t{t}" for t in wrong["turn"]]
    anchors = {e[1]["id"] for e in p.by_class("decision", "article")}
    assert {a[1]["href"][1:] for a in index} <= anchors
    text = _text(page)
    for _, r in wrong.iterrows():
        assert f"{r['move']} {r['best_move']} {r['equity_loss']:.3f} {r['mark']}" in text


def test_best_only_where_the_played_move_is_not_best(golden):
    """A move ranked first (a tie of equal equity included) shows no "best"; a report
    without ``rank_played`` shows it only where the loss shows."""
    _, report, _ = golden
    rep = report.copy()
    rows = played(rep)[(played(rep)["n_moves"] > 1) & (played(rep)["rank_played"] == 1)]
    k = rows.index[0]
    rep.loc[k, "best_move"] = "1/2 3/4"          # another move of the same equity
    text = _text(to_html(rep))
    assert "best: 1/2 3/4" not in text
    old = rep.drop(columns=["rank_played", "candidates"])
    old.loc[k, "equity_loss"] = 0.0
    assert "best: 1/2 3/4" not in _text(to_html(old))
    old.loc[k, "equity_loss"] = 0.05
    assert "best: 1/2 3/4" in _text(to_html(old))
    shown = _text(to_html(report)).count("best: ")
    assert shown == int((played(report)["rank_played"] > 1).sum())


def test_boards_reuse_one_set_of_symbols_and_are_small(golden):
    record, report, page = golden
    p = Page(page)
    symbols = [e[1]["id"] for e in p.elements if e[0] == "symbol"]
    assert sorted(symbols) == ["nb-b", "nb-board", "nb-w"]
    boards = p.by_class("board", "div")
    assert len(boards) == len(played(report))
    uses = [e for e in p.elements if e[0] == "use"]
    assert {u[1]["href"] for u in uses} == {"#nb-board", "#nb-w", "#nb-b"}
    first = board(Position.initial())
    # the start: 15 + 15 checkers, drawn at most 5 high, with their counts
    assert first.count('href="#nb-w"') == 5 and first.count('href="#nb-b"') == 5
    assert ">15</text>" in first and "White (on roll)" in first
    assert len(first.encode()) < 2000
    per_turn = len(page.encode()) / len(played(report))
    assert per_turn < 5000, per_turn


def test_board_places_checkers_as_plot_board():
    """White's point 1 is the top right column, Black's point 1 the bottom left
    (``core.diagram.plot_board``'s layout): the checkers' x and y."""
    me = np.zeros(24, int)
    me[0] = 1                                   # White's point 1
    you = np.zeros(24, int)
    you[0] = 2                                  # Black's point 1
    svg = board(Position(me, you))
    w = re.findall(r'href="#nb-w" x="([\d.]+)" y="([\d.]+)"', svg)
    b = re.findall(r'href="#nb-b" x="([\d.]+)" y="([\d.]+)"', svg)
    assert len(w) == 1 and len(b) == 2
    assert float(w[0][0]) == 250 and float(w[0][1]) < 150      # top right
    assert all(float(x) == 10 and float(y) > 150 for x, y in b)    # bottom left


def test_the_page_says_how_the_luck_was_valued():
    """The luck of the rolls is valued by the net at 0-ply (or the bear-off tables)
    whatever the plies of the analysis, but the page said only "Luck: what the rolls
    gained against the average roll": a page of a 2-ply analysis seemed to give 2-ply
    luck."""
    import nardy_fast as nf
    from nardy_fast.analysis.page import to_html
    rec = nf.random_game(seed=2, max_turns=4)
    html = to_html(nf.game_report(rec, analyse=True, plies=1), record=rec)
    assert ("Luck: what the rolls gained against the average roll, valued by the net at "
            "0-ply (the bear-off tables where they apply) whatever the plies above") in html
