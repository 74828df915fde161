"""``nardy-fast analyse``: what it prints (forced moves, empty records, illegal turns,
integer counts, match totals), ``--cube`` on a game and on a match, and
``--progress/--no-progress``."""
import json
import re

import pytest

from nardy_fast.analysis import report
from nardy_fast.analysis.matchreport import game_state
from nardy_fast.analysis.page import listed_cube_decisions
from nardy_fast.core.matchrecord import write_match
from nardy_fast.core.matchrules import MatchRules
from nardy_fast.core.record import GameRecord, random_game, write_record
from nardy_fast.core.rules import Rules
from nardy_fast.engine.decisions.matchplay import play_one_match

from helpers import run_cli, ctrl_c_at_call


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    path = tmp_path_factory.mktemp("g") / "g.mat"
    write_record(random_game(seed=7, max_turns=3), path)       # turns 1 and 2 are forced
    return path


def _turn_lines(out):
    return [line for line in out.splitlines() if line[:4].strip().isdigit()]


def test_a_forced_move_prints_a_blank_loss(capsys, game):
    gr = report.game_report(game, analyse=True)
    code, out, err = run_cli(capsys, "analyse", str(game))
    assert code == 0
    lines = _turn_lines(out)
    played = gr[gr["move"] != ""]
    assert (played["n_moves"] == 1).sum() >= 1
    for line, (_, r) in zip(lines, played.iterrows()):
        if r["n_moves"] == 1:
            assert line[-11:].strip() == "", line
        else:
            assert line[-11:].strip() == f"{r['equity_loss']:.3f}"
    assert "blank: a forced move" in out


def test_counts_print_as_integers_and_no_nan(capsys, game):
    code, out, err = run_cli(capsys, "analyse", str(game))
    rates = out.split("\n\n")[1].splitlines()
    head = rates[0].split()
    for line in rates[2:]:
        cells = line.split()
        row = dict(zip(["side"] + head, cells))
        for c in ("turns", "decisions", "errors", "n_doubtful", "n_error", "n_blunder"):
            assert re.fullmatch(r"\d+", row[c]), (c, line)
    assert "NaN" not in out and "nan" not in out


def test_an_empty_record_is_an_error_naming_the_file(capsys, tmp_path):
    path = tmp_path / "none.mat"
    write_record(GameRecord(), path)
    code, out, err = run_cli(capsys, "analyse", str(path))
    assert code == 1 and "DataFrame" not in out + err
    assert err.strip() == (f"nardy-fast: error: {path}: the game record has no turn: "
                           "nothing to analyse")


def test_an_illegal_turn_names_the_file(capsys, tmp_path, game):
    bad = tmp_path / "illegal.mat"
    bad.write_text(game.read_text().replace("1/7 7/11", "1/7 7/12"))
    code, out, err = run_cli(capsys, "analyse", str(bad))
    assert code == 1
    assert re.match(rf"nardy-fast: error: {re.escape(str(bad))}: line \d+: turn 1 ", err), err


def test_cube_needs_rules_with_a_cube(capsys, game):
    code, out, err = run_cli(capsys, "analyse", str(game), "--cube")
    assert code == 1
    assert err.strip() == (f"nardy-fast: error: --cube: {game}: the record's rules have "
                           "no cube (rules: classic)")


def test_cube_on_a_game_lists_its_decisions(capsys, tmp_path):
    record = random_game(seed=3, max_turns=14, rules=Rules(cube="geometric"))
    path = tmp_path / "c.mat"
    write_record(record, path)
    code, out, err = run_cli(capsys, "analyse", str(path), "--cube")
    assert code == 0, err
    gr = report.game_report(record, analyse=True, cube=True)
    shown, rest = listed_cube_decisions(gr)
    assert (f"cube decisions: {len(shown)} listed (raises, close or wrong), {rest} "
            "other(s)") in out
    block = out[out.index("cube decisions:"):]
    for _, r in shown.iterrows():
        assert re.search(rf"^\s*{int(r['turn'])} {r['side']}\s+{re.escape(r['cube_played'])}"
                         rf"\s+{re.escape(r['cube_proper'])}\s+{r['cube_loss']:.3f}\s+"
                         rf"{r['take_loss']:.3f}$", block, re.M), r["turn"]


def test_cube_on_a_match_is_judged_at_the_score(capsys, tmp_path, monkeypatch):
    """The 3-point match of test_match_cube_analysis.py (a Crawford game, then a
    post-Crawford game where the leader owns a dead cube): the listed decisions are those
    of analyse_match(cube=True), none in the Crawford game, none of the leader's."""
    rec = play_one_match("greedy", "greedy", MatchRules(length=3, crawford=True,
                                                        rules=Rules(cube="geometric")),
                         seed=82, aware=False)
    path = tmp_path / "m.mat"
    write_match(rec, path)
    from nardy_fast.analysis import matchreport
    real = matchreport.game_report           # the moves' ranking is not under test here

    def quick(g, **kw):
        kw.update(analyse=True, method="net", cube_probabilities="pips")
        return real(g, **kw)
    monkeypatch.setattr(matchreport, "game_report", quick)
    made = []
    real_match = matchreport.analyse_match

    def keep(*a, **kw):                      # the command's own report, kept to compare
        made.append(real_match(*a, **kw))
        return made[-1]
    monkeypatch.setattr(matchreport, "analyse_match", keep)
    page = tmp_path / "m.html"
    code, out, err = run_cli(capsys, "analyse", str(path), "--cube", "--no-progress",
                             "--html", str(page))
    assert code == 0, err
    assert "NaN" not in out
    totals = [line.split() for line in out.splitlines() if " total " in line]
    assert len(totals) == 2 and all(t[2] == "both" for t in totals)
    rep, = made
    assert rep["cube_proper"].notna().any() and (rep["cube_mwc_loss"] >= 0).any()
    shown, rest = listed_cube_decisions(rep)
    block = out[out.index("cube decisions:"):]
    rows = [line.split()[:2] for line in block.splitlines()[2:]
            if line[:4].strip().isdigit()]
    assert rows == [[str(int(g)), str(int(t))] for g, t in zip(shown["game"], shown["turn"])]
    assert not (shown["game"] == 2).any()                   # the Crawford game
    post = game_state(rec, 2)
    leader = "white" if post.score[0] == 2 else "black"
    assert not ((shown["game"] == 3) & (shown["side"] == leader)).any()
    assert "(EMG, at each game's score)" in block
    links = re.findall(r'<table class="cube">.*?</table>', page.read_text())
    turns = [[int(t) for t in re.findall(r'href="#g\d+-t(\d+)"', table)] for table in links]
    assert turns == [shown.loc[shown["game"] == g, "turn"].astype(int).tolist()
                     for g in (1, 3)]


def test_progress_and_no_progress(capsys, game):
    code, out, err = run_cli(capsys, "analyse", str(game), "--no-progress")
    assert code == 0 and err == ""
    code, out2, err = run_cli(capsys, "analyse", str(game), "--progress")
    assert code == 0 and "analysing turns" in err
    assert _turn_lines(out2) == _turn_lines(out)
    with pytest.raises(SystemExit) as e:
        run_cli(capsys, "analyse", str(game), "--progress", "--no-progress")
    assert e.value.code == 2
    assert "not allowed with argument --progress" in capsys.readouterr().err


def test_a_bar_by_default_in_a_terminal(tmp_path, game):
    """In a terminal ``analyse`` shows its bar without being asked; --no-progress hides
    it (the real command in a pseudo-terminal)."""
    from ptyterm import Terminal
    for argv, bar in (([], True), (["--no-progress"], False)):
        t = Terminal(["analyse", str(game), *argv], tmp_path)
        try:
            assert t.wait() == 0, t.text
            assert ("analysing turns" in t.text) == bar, t.text
            assert "equity_loss" in t.text
        finally:
            t.close()


def test_ctrl_c_while_writing_the_out_folder_leaves_no_part_of_an_analysis(
        capsys, tmp_path, game, monkeypatch):
    """Ctrl-C between the -o files left the first of them alone in the folder, and the
    stop said only "interrupted"; this run's files are removed, and the stop says so."""
    from nardy_fast.app import cli
    real, calls = cli.save_frame, []

    def cut(*a, **k):
        calls.append(1)
        if len(calls) == 3:                  # the game report's CSV and HTML are written
            raise KeyboardInterrupt
        return real(*a, **k)
    monkeypatch.setattr(cli, "save_frame", cut)
    out = tmp_path / "out"
    code, _, err = run_cli(capsys, "analyse", str(game), "-o", str(out), "--no-progress")
    assert code == 130
    assert err.strip().endswith("while writing -o " + str(out) + ": the 2 file(s) written "
                                "so far removed (the analysis shown above is whole; run "
                                "again to write it)")
    assert list(out.iterdir()) == []


@pytest.mark.parametrize("args, said", [
    ((), "moves valued by --method auto (the bear-off tables where they apply, else "
         "the net at 0-ply)"),
    (("--plies", "1"), "moves valued by --method auto (the bear-off tables where they "
                       "apply, else the net at 1-ply)"),
    (("--method", "net", "--plies", "1"), "moves valued by --method net (net 1-ply)")])
def test_the_output_names_the_plies_the_moves_were_valued_at(capsys, game, tmp_path,
                                                             args, said):
    """The losses printed by ``analyse`` said "moves valued by --method auto" without the
    look-ahead of the net that valued them, and a match's said nothing of how its moves
    were valued: both name the net's plies."""
    code, out, err = run_cli(capsys, "analyse", str(game), *args)
    assert code == 0 and said in out, out
    m = play_one_match("random", "random", rules=MatchRules(length=1), seed=1)
    path = write_match(m, tmp_path / "m.txt")
    code, out, err = run_cli(capsys, "analyse", str(path), *args)
    assert code == 0 and said in out, out


def test_ctrl_c_during_the_analysis_says_how_far_it_got(capsys, tmp_path, game, monkeypatch):
    """Ctrl-C while a match (or a game) was analysed said only "nardy-fast: interrupted":
    it names the game the match stopped in, and that nothing was shown or written."""
    from nardy_fast.analysis import matchreport
    calls = ctrl_c_at_call(monkeypatch, matchreport, "game_report")
    m = play_one_match("random", "random", rules=MatchRules(length=3), seed=1)
    assert len(m.games) >= 2
    path = write_match(m, tmp_path / "m.txt")
    out_dir = tmp_path / "out"
    code, out, err = run_cli(capsys, "analyse", str(path), "-o", str(out_dir), "--no-progress")
    assert (code, out) == (130, "")
    assert err.strip() == (f"nardy-fast: interrupted: analyse: stopped in game 2 of "
                           f"{len(m.games)}; nothing shown or written")
    assert not out_dir.exists()

    def stop(*a, **k):
        raise KeyboardInterrupt
    monkeypatch.setattr(report, "game_report", stop)
    code, out, err = run_cli(capsys, "analyse", str(game), "--no-progress")
    assert (code, out) == (130, "")
    assert err.strip() == ("nardy-fast: interrupted: analyse: stopped before the end of the "
                           "game; nothing shown or written")


def test_json_of_a_game_is_the_analysis_the_text_shows(capsys, tmp_path, game):
    """``analyse --json``: one JSON object, the only thing on standard output (with -o and
    --html too, which still write their files), whose turns and error rates are those the
    text prints, each value beside the method that gave it."""
    code, text, err = run_cli(capsys, "analyse", str(game), "--no-progress")
    assert code == 0, err
    page, folder = tmp_path / "g.html", tmp_path / "out"
    code, out, err = run_cli(capsys, "analyse", str(game), "--no-progress", "--json",
                             "--html", str(page), "-o", str(folder))
    assert code == 0, err
    d = json.loads(out)
    assert page.exists() and (folder / "game_analysis.csv").exists()
    assert (d["match"], d["rules"], d["cube"], d["mars_scored"], d["unit"]) == \
        (False, "classic", None, True, "points")
    assert (d["settings"]["method"], d["settings"]["plies"]) == ("auto", 0)
    played = [t for t in d["turns"] if t["move"] != ""]
    for line, t in zip(_turn_lines(text), played):
        loss = "" if t["n_moves"] == 1 else f"{t['equity_loss']:.3f}"
        assert line.split()[:4] == [str(t["turn"]), t["side"], t["dice"], t["move"].split()[0]]
        assert line[-11:].strip() == loss, line
        for c in t["candidates"]:
            assert c["method"] == "net 0-ply" and isinstance(c["rank"], int)
        assert t["method"] == "net 0-ply" and t["candidates"] == [] or t["n_moves"] > 1
    rates = {r["side"]: r for r in d["error_rates"]}
    for line in text.split("\n\n")[1].splitlines()[2:]:
        side, _, _, decisions, errors, lost = line.split()[:6]
        assert (rates[side]["decisions"], rates[side]["errors"]) == (int(decisions),
                                                                   int(errors))
        assert f"{rates[side]['equity_lost']:.3f}" == lost


def test_json_of_a_cube_game_says_mars_does_not_score_and_how_each_cube_decision_was_valued(
        capsys, tmp_path):
    record = random_game(seed=3, max_turns=14, rules=Rules(cube="geometric"))
    path = tmp_path / "c.mat"
    write_record(record, path)
    code, text, err = run_cli(capsys, "analyse", str(path), "--cube", "--no-progress")
    code, out, err = run_cli(capsys, "analyse", str(path), "--cube", "--no-progress",
                             "--json")
    assert code == 0, err
    d = json.loads(out)
    assert (d["cube"], d["mars_scored"]) == ("geometric", False)
    judged = [t for t in d["turns"] if t.get("cube_played")]
    assert judged and all(t["cube_method"] for t in judged)
    said = re.search(r"^per player: (white .*)$", text, re.M).group(1)
    assert said == "; ".join(f"{who} (random) {v['decisions']} decision(s), "
                             f"{v['lost']:.3f} points lost"
                             for who, v in d["cube_totals"].items())


def test_json_of_a_match_and_ctrl_c(capsys, tmp_path, monkeypatch):
    """A match transcript's JSON has its games' turns at their scores and the error rates
    per game and in total; Ctrl-C before the end prints nothing on standard output, as
    the text does."""
    m = play_one_match("random", "random", rules=MatchRules(length=1), seed=1)
    path = write_match(m, tmp_path / "m.txt")
    code, text, err = run_cli(capsys, "analyse", str(path), "--no-progress", "--method",
                              "net")
    code, out, err = run_cli(capsys, "analyse", str(path), "--no-progress", "--method",
                             "net", "--json")
    assert code == 0, err
    d = json.loads(out)
    assert (d["match"], d["match_rules"], d["unit"]) == (True, "length=1", "EMG")
    assert d["final_score"] == m.final_score()
    assert {t["game"] for t in d["turns"]} == {1}
    totals = [line.split() for line in text.splitlines() if " total " in line]
    assert [(t[3], float(t[7])) for t in totals] == [
        (r["player"], round(r["equity_lost"], 3)) for r in d["error_rates"]
        if r["game"] == "total"]
    from nardy_fast.analysis import matchreport
    ctrl_c_at_call(monkeypatch, matchreport, "game_report", call=1)
    code, out, err = run_cli(capsys, "analyse", str(path), "--no-progress", "--json")
    assert (code, out) == (130, "")
    assert err.startswith("nardy-fast: interrupted: analyse: stopped in game 1 of 1")


def test_cube_decisions_say_how_they_were_valued(capsys, tmp_path):
    """Under --method rollout the moves are rolled out but the cube decisions are judged
    as game_report(cube=True) judges them (the cube model); the text said neither, so its
    losses read as rolled out.  It now names the cube decisions' methods."""
    record = random_game(seed=3, max_turns=14, rules=Rules(cube="geometric"))
    path = tmp_path / "c.mat"
    write_record(record, path)
    code, out, err = run_cli(capsys, "analyse", str(path), "--cube", "--method", "rollout",
                             "-n", "8", "--workers", "1", "--no-progress")
    assert code == 0, err
    gr = report.game_report(record, analyse=True, cube=True)
    methods = sorted(set(gr["cube_method"].dropna()) - {""})
    assert methods and all(m != "rollout" for m in methods)
    block = out[out.index("cube decisions:"):]
    assert f"cube decisions valued by: {', '.join(methods)}" in block
