"""The analysed game or match as one HTML page (nardy_fast.analysis.page): one board per
turn, the graph, the totals, nothing fetched from elsewhere; rendered by a real browser
(headless Chromium) when one is installed (``make browser``), and required under CI."""
import os
import re
import shutil
import struct
import subprocess

import numpy as np
import pandas as pd
import pytest

from nardy_fast.analysis.page import to_html
from nardy_fast.analysis.report import MARKS, game_report
from nardy_fast.core.record import random_game

from helpers import Page, played_rows as played


@pytest.fixture(scope="module")
def page(analysed_game):
    record, report = analysed_game
    return to_html(report, record=record)


def test_one_board_per_turn_played(analysed_game, page):
    _, report = analysed_game
    p = Page(page)
    n = len(played(report))
    assert len(p.by_class("decision", "article")) == n
    boards = p.by_class("board", "div")
    assert len(boards) == n
    # each board holds one inline SVG drawing: the svg elements under a board div
    svgs = [e for e in p.elements if e[0] == "svg" and "div" in e[3]
            and "graph-svg" not in e[2]]
    assert len(svgs) == n
    ids = [e[1]["id"] for e in p.elements if "id" in e[1]]
    assert len(ids) == len(set(ids)), "ids repeat between the inline drawings"


def test_the_graph_has_a_point_per_turn_and_a_dot_per_mark(analysed_game, page):
    _, report = analysed_game
    p = Page(page)
    assert len(p.by_class("graph", "figure")) == 1
    line = [e for e in p.elements if e[0] == "polyline"]
    assert len(line) == 1
    points = line[0][1]["points"].split()
    assert len(points) == int(report["p_win_white"].notna().sum())
    ys = np.array([float(q.split(",")[1]) for q in points])
    # the y coordinate falls as White's chance rises: the same order as the report's values
    assert (np.argsort(-ys, kind="stable")
            == np.argsort(report["p_win_white"].to_numpy(), kind="stable")).all()
    assert len(p.by_class("graph-mark")) == int((report["mark"] != "").sum())


def test_moves_marks_losses_and_best_moves(analysed_game, page):
    _, report = analysed_game
    text = re.sub(r"\s+", " ", " ".join(Page(page).text))
    for _, r in played(report).iterrows():
        if r["n_moves"] > 1:
            assert f"equity lost {r['equity_loss']:.3f} points of {r['n_moves']} legal moves" \
                in text
        if r["n_moves"] > 1 and r["rank_played"] > 1:
            assert f"best: {r['best_move']}" in text
    marks = [e for e in Page(page).by_class("mark", "span")]
    assert len(marks) == int((played(report)["mark"] != "").sum())


def test_totals_per_player(analysed_game, page):
    """Each player's row: turns, decisions, marks, equity lost, error rate and luck,
    recomputed here from the report's columns."""
    _, report = analysed_game
    p = Page(page)
    table = p.by_class("totals", "table")
    assert table
    text = " ".join(p.text)
    for side, g in played(report).groupby("side"):
        dec = g[g["n_moves"] > 1]
        lost = dec["equity_loss"].sum()
        marks = " / ".join(str(int((dec["mark"] == m).sum())) for m, _ in MARKS)
        row = (f"{g['player'].iloc[0]} ({side}) {len(g)} {len(dec)} {marks} {lost:.3f} "
               f"{1000 * lost / len(dec):.1f} {g['luck'].sum():+.3f}")
        assert row in re.sub(r"\s+", " ", text), row


def test_no_cube_section_says_so(page):
    assert "No cube in these rules." in page


def test_self_contained(page):
    """Nothing is fetched: no script, style sheet, image or frame, and every link points
    inside the page."""
    p = Page(page)
    assert not [e for e in p.elements if e[0] in ("script", "link", "img", "iframe",
                                                   "object", "embed")]
    for tag, attrs, _, _ in p.elements:
        assert "src" not in attrs, tag
        for k in ("href", "xlink:href"):
            assert k not in attrs or attrs[k].startswith("#"), (tag, attrs[k])
    assert 'name="viewport"' in page


def test_a_match_page_shows_the_score_before_each_game(analysed_game):
    """A match-shaped frame (two games at given scores): a section per game under its
    score, the match totals per player name."""
    _, report = analysed_game
    other = game_report(random_game(seed=4, max_turns=8), analyse=True, seed=2)
    frames = []
    for k, (g, score) in enumerate(((report, (0, 0)), (other, (1, 2))), 1):
        f = g.copy()
        f.insert(0, "game", k)
        f.insert(1, "score_white", score[0])
        f.insert(2, "score_black", score[1])
        frames.append(f)
    match = pd.concat(frames, ignore_index=True)
    p = Page(to_html(match, title="A match"))
    assert len(p.by_class("game", "section")) == 2
    assert len(p.by_class("graph", "figure")) == 2
    assert len(p.by_class("board", "div")) == len(played(match))
    scores = [e for e in p.by_class("score")]
    assert len(scores) == 2
    text = re.sub(r"\s+", " ", " ".join(p.text))
    assert "Score before the game: random (White) 0, random (Black) 0" in text
    assert "Score before the game: random (White) 1, random (Black) 2" in text
    assert "Match totals" in text and "lost (EMG)" in text


def test_a_match_page_names_the_crawford_game_and_the_games_after_it():
    """Under the Crawford rule the game after a side first reaches one point from the
    length is played without the cube, the later ones with it again: the score line of
    each game says which, so that a game without a cube decision is not a puzzle.  Three
    short races of a match to 3 from 1-0: Ann wins the first (2-0: the Crawford game),
    Bob the second (2-1: post-Crawford)."""
    import nardy_fast as nf
    from nardy_fast.analysis.matchreport import analyse_match
    cube = nf.Rules(cube="geometric")
    race = nf.race_sample(1, seed=2)[0]
    games = [random_game(seed=s, start=race, white=w, black=b, rules=cube)
             for s, w, b in ((1, "Ann", "Bob"), (2, "Ann", "Bob"), (1, "Bob", "Ann"))]
    assert [g.result()["winner"] for g in games] == ["white", "black", "white"]
    rec = nf.MatchRecord(rules=nf.MatchRules(length=3, crawford=True, rules=cube),
                         players=("Ann", "Bob"), games=games,
                         scores=[{"Ann": 1, "Bob": 0}, {"Ann": 2, "Bob": 0},
                                 {"Ann": 2, "Bob": 1}])
    report = analyse_match(rec, cube=True, cube_probabilities=lambda pos: 0.3)
    text = re.sub(r"\s+", " ", " ".join(Page(to_html(report, record=rec)).text))
    assert "Score before the game: Ann (White) 1, Bob (Black) 0 Ann" in text
    assert ("Score before the game: Ann (White) 2, Bob (Black) 0 (the Crawford game: no "
            "cube)") in text
    assert "Score before the game: Bob (White) 1, Ann (Black) 2 (post-Crawford)" in text


def test_a_value_that_rounds_to_zero_has_no_minus_sign(analysed_game):
    """The net's luck of a roll in a lost position is a hair below zero (-0.00001): it
    was written "luck of the roll -0.000 points"."""
    record, report = analysed_game
    report = report.copy()
    report.attrs = dict(analysed_game[1].attrs)
    at = played(report).index
    report.loc[at[0], "luck"] = -1e-5
    report.loc[at[1], "luck"] = -0.002
    text = re.sub(r"\s+", " ", " ".join(Page(to_html(report, record=record)).text))
    assert "luck of the roll +0.000 points" in text
    assert "luck of the roll -0.002 points" in text
    assert not re.search(r"-0\.0+(?![0-9])", text)


def test_bad_input_is_named(analysed_game):
    record, report = analysed_game
    with pytest.raises(TypeError, match="report"):
        to_html(report.to_dict())
    with pytest.raises(ValueError, match="'mark'"):
        to_html(report.drop(columns=["mark"]))
    with pytest.raises(TypeError, match="record"):
        to_html(report, record="game.txt")


def test_a_record_of_another_game_is_refused(analysed_game):
    """The page states the record's result and draws its cube beside the report's boards:
    another game's record was taken as it came, and the page told of a game it did not
    show."""
    record, report = analysed_game
    other = random_game(seed=2)
    assert other.positions()[1].id != record.positions()[1].id
    with pytest.raises(ValueError, match=r"^record: not the game of report \(turn 2: "):
        to_html(report, record=other)
    to_html(report, record=record)


def test_written_atomically(analysed_game, tmp_path):
    record, report = analysed_game
    out = tmp_path / "g.html"
    text = to_html(report, out, record=record)
    assert out.read_text(encoding="utf-8") == text
    assert os.listdir(tmp_path) == ["g.html"]


# -- the real browser -----------------------------------------------------------------------
def chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    if os.environ.get("CI") == "true":
        pytest.fail("no Chromium found under CI: .ci/install-browser (make browser) "
                    "installs it")
    pytest.skip("no Chromium found (chromium, chromium-browser or google-chrome): "
                "run `make browser` to install it")


def run_browser(tmp_path, *args):
    cmd = [chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
           "--no-first-run", f"--user-data-dir={tmp_path / 'profile'}", *args]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=180)


def png_size(data):
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    return struct.unpack(">II", data[16:24])


def test_headless_chromium_renders_the_page(analysed_game, tmp_path):
    record, report = analysed_game
    page_path = tmp_path / "game.html"
    to_html(report, page_path, record=record)
    shot = tmp_path / "phone.png"
    r = run_browser(tmp_path, "--window-size=412,1600", f"--screenshot={shot}",
                    page_path.as_uri())
    assert r.returncode == 0, r.stderr[-2000:]
    assert "net::ERR" not in r.stderr and "Failed to load resource" not in r.stderr
    data = shot.read_bytes()
    assert png_size(data) == (412, 1600)                 # a phone-sized screenshot
    from matplotlib.image import imread
    pixels = imread(str(shot))[..., :3]
    dark = (pixels.mean(axis=2) < 0.5).mean()
    assert 0.01 < dark < 0.6, dark                       # drawn, not blank nor black
    # the DOM as the browser built it holds every board, the graph and the totals
    r = run_browser(tmp_path, "--dump-dom", page_path.as_uri())
    assert r.returncode == 0, r.stderr[-2000:]
    dom = Page(r.stdout)
    assert len(dom.by_class("board", "div")) == len(played(report))
    assert len(dom.by_class("graph", "figure")) == 1
    assert dom.by_class("totals", "table")


def test_cube_decisions_of_a_game_with_the_cube():
    """Under rules with a cube: a row per cube decision in the cube table and a cube line
    in each such turn; a report made without cube columns is judged from its record, the
    same as game_report(..., cube=True)."""
    import nardy_fast as nf
    record = random_game(seed=3, max_turns=14, rules=nf.Rules(cube="geometric"))
    judged = game_report(record, analyse=True, seed=1, cube=True)
    decided = judged["cube_played"].apply(lambda v: isinstance(v, str) and v != "")
    assert decided.any()
    p = Page(to_html(judged, record=record))
    rows = [e for e in p.elements if e[0] == "tr" and "table" in e[3]]
    cube_table = p.by_class("cube", "table")
    assert len(cube_table) == 1
    assert len(p.by_class("cube-decision")) == int(decided.sum())
    text = re.sub(r"\s+", " ", " ".join(p.text))
    for _, r in judged[decided].iterrows():
        assert (f"cube: {r['cube_played']}; proper {r['cube_proper']}; lost "
                f"{r['cube_loss'] + r['take_loss']:.3f} points") in text
    plain = game_report(record, analyse=True, seed=1)
    assert "cube_played" not in plain.columns
    plain.attrs["settings"]["date"] = judged.attrs["settings"]["date"]
    assert to_html(plain, record=record) == to_html(judged, record=record)
    assert rows


def test_tables_fit_a_phone_in_chromium(analysed_game, tmp_path):
    """At 412 px (a phone) the totals table is not cut off: its right edge is inside the
    viewport, as the browser lays it out.  The page is shown in a 412 px frame of a test
    page whose script measures it (the page itself has no script; headless Chromium's
    own window is at least 500 px wide while it loads)."""
    import html as _html
    record, report = analysed_game
    text = to_html(report, record=record)
    probe = ('<!DOCTYPE html><html><body style="margin:0"><iframe id="f" '
             'style="width:412px;height:900px;border:0" srcdoc="' + _html.escape(text)
             + '"></iframe><script>document.getElementById("f").onload=function(){'
             "var d=this.contentDocument,w=d.documentElement.clientWidth,out=[w];"
             "d.querySelectorAll('table.totals').forEach(function(t){"
             "out.push(Math.ceil(t.getBoundingClientRect().right))});"
             "document.body.setAttribute('data-fit',out.join(' '));};</script>"
             "</body></html>")
    page_path = tmp_path / "probe.html"
    page_path.write_text(probe, encoding="utf-8")
    r = run_browser(tmp_path, "--window-size=600,900", "--virtual-time-budget=10000",
                    "--dump-dom", page_path.as_uri())
    assert r.returncode == 0, r.stderr[-2000:]
    width, *rights = map(int, re.search(r'data-fit="([^"]*)"', r.stdout).group(1).split())
    assert width <= 412 and rights
    assert all(right <= width for right in rights), (width, rights)


def test_a_match_page_counts_each_player_s_cube_decisions_and_names_who_answered():
    """``short_match.MAT`` with the cube judged, hand-scored from its transcript: Alice
    raises in game 1 (Bob passes), answers Bob's raise in game 2 and redoubles (Bob
    passes): three cube decisions each.  Each player's cube loss is the sum of its
    raises' losses and its answers' losses, recomputed here from the report; the index
    names the answering player, not only its colour (an answer is the opponent's, and
    the players change colours between games)."""
    from pathlib import Path

    from nardy_fast.analysis.matchreport import analyse_match
    from nardy_fast.core.matlayout import read_mat
    rec = read_mat(Path(__file__).resolve().parents[1] / "data" / "mat" / "short_match.MAT")
    report = analyse_match(rec, cube=True, cube_probabilities=lambda pos: 0.3)
    p = Page(to_html(report, record=rec))
    text = re.sub(r"\s+", " ", " ".join(p.text))
    assert "cube decisions" in text and "cube lost (EMG)" in text
    judged = report[report["cube_played"].apply(lambda v: isinstance(v, str) and v != "")]
    assert len(judged) == 3
    lost = {"Alice": 0.0, "Bob": 0.0}
    for _, r in judged.iterrows():
        answerer = "Bob" if r["player"] == "Alice" else "Alice"
        lost[r["player"]] += r["cube_loss"]
        lost[answerer] += r["take_loss"]
    assert lost["Bob"] > 1          # the pass that gave the match away: 0.7 MWC
    for name in ("Alice", "Bob"):
        turns = int((report["player"] == name).sum() - (
            (report["player"] == name) & (report["move"] == "")).sum())
        assert re.search(rf"{name} {turns} \d+ [\d /]+ [\d.]+ [-\d.]+ [\d.]+% 3 "
                         rf"{lost[name]:.3f} ", text), (name, text)
    # each turn's cube line: the raise's loss and the answer's, each with the player it
    # is charged to (the line summed them under the raiser's turn, as if the raiser had
    # lost the answerer's pass), the passed raises' turns (no roll) included; and every
    # link of the page has its anchor
    html = to_html(report, record=rec)
    assert set(re.findall(r'href="#(g\d+-t\d+)"', html)) <= set(
        re.findall(r'id="(g\d+-t\d+)"', html))
    assert {"g1-t3", "g2-t6"} <= set(re.findall(r'href="#(g\d+-t\d+)"', html))
    for _, r in judged.iterrows():
        answerer = "Bob" if r["player"] == "Alice" else "Alice"
        other = "black" if r["side"] == "white" else "white"
        answer = r["cube_played"].split(", ")[1]
        assert (f"cube: {r['cube_played']}; proper {r['cube_proper']}; the raise lost "
                f"{r['cube_loss']:.3f} EMG ({r['player']}), the {answer} "
                f"{r['take_loss']:.3f} EMG ({answerer} ({other}))") in text, r["turn"]
    assert (judged["take_loss"] > 0).sum() == 2 and (judged["cube_loss"] > 0).any()
    assert p.by_class("index", "table")
    assert "2 6 Bob (white) answer: double, pass no double, take" in text
    assert "1 3 Bob (black) answer: double, pass" in text


def test_each_turn_gives_the_mover_s_winning_chance_before_it(analysed_game, page):
    """The note under each turn: the side on roll's chance, White's column for White and
    one less it for Black, recomputed from the report."""
    _, report = analysed_game
    text = re.sub(r"\s+", " ", " ".join(Page(page).text))
    sides = set()
    for _, r in played(report).iterrows():
        p = r["p_win_white"] if r["side"] == "white" else 1 - r["p_win_white"]
        assert f"P({r['side']} wins) before the roll {p:.1%}" in text, r["turn"]
        sides.add(r["side"])
    assert sides == {"white", "black"}


def test_cube_totals_names_bad_input():
    """``page.cube_totals`` is public: a frame that is not one, a key other than side or
    player, and a missing column are named, not a KeyError deep in pandas."""
    from nardy_fast.analysis.page import cube_totals
    with pytest.raises(TypeError, match="cube_totals: expected a pandas DataFrame"):
        cube_totals([1, 2])
    with pytest.raises(ValueError, match="key='colour'"):
        cube_totals(pd.DataFrame({"side": ["white"]}), "colour")
    with pytest.raises(ValueError, match="no 'side' column"):
        cube_totals(pd.DataFrame({"cube_played": ["double, take"]}))
    assert cube_totals(pd.DataFrame({"side": ["white"]})) == ({}, {})   # no cube judged


def test_a_turn_valued_by_tables_says_which():
    """A race's moves are valued by the bear-off tables, exact or the one-sided
    approximation, while the page's settings name only the net ("method auto, plies 0"):
    each such turn now names its tables, from the candidates' own ``method``."""
    import json

    import nardy_fast as nf
    rec = nf.random_game(seed=1, start=nf.race_sample(3, seed=5)[0])
    report = nf.game_report(rec, analyse=True)
    html = to_html(report, record=rec)
    notes = re.findall(r"moves valued by ([^<]*)</div>", html)
    want = []
    for text in report["candidates"]:
        if isinstance(text, str) and text:
            kinds = dict.fromkeys(c["method"] for c in json.loads(text))
            want.append(", ".join({"one_sided": "one-sided approximation",
                                   "two_sided": "exact (two-sided table)"}[m] for m in kinds))
    assert notes == want and "one-sided approximation" in notes
    net_only = to_html(nf.game_report(nf.random_game(seed=2, max_turns=6), analyse=True))
    assert "moves valued by" not in net_only


def test_with_the_cube_the_candidates_say_a_mars_does_not_score(analysed_game, page):
    """With the cube a game is won at the stake (rule book 7a), but the candidates' table
    headed its mars columns as in a game without it, beside an equity that counts them:
    they say they score nothing, the equity that it is the game's without the cube, and
    the note says why; a game without the cube keeps its plain headers."""
    import nardy_fast as nf
    record = random_game(seed=3, max_turns=14, rules=nf.Rules(cube="geometric"))
    report = game_report(record, analyse=True, seed=1)
    heads = re.findall(r'<table class="cand"><thead><tr>(.*?)</tr>',
                       to_html(report, record=record))
    assert heads
    for head in heads:
        assert re.findall(r"<th>(.*?)</th>", head) == [
            "#", "move", "equity (no cube)", "loss", "win", "mars (no score)", "lose",
            "mars (no score)"]
    assert "With the cube a game is won at the stake" in to_html(report, record=record)
    heads = re.findall(r'<table class="cand"><thead><tr>(.*?)</tr>', page)
    assert heads and all(re.findall(r"<th>(.*?)</th>", h) == [
        "#", "move", "equity", "loss", "win", "mars", "lose", "mars"] for h in heads)
    assert "With the cube" not in page
