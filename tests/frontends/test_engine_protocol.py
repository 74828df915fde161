"""``nardy-fast engine``: the line protocol driven through the real program (each command,
an error line that keeps it serving, quit, the end of the input, SIGTERM) and the
engine's answers and refusals checked against the public API."""
import queue
import signal
import subprocess
import sys
import threading
import warnings

import pytest

import nardy_fast as nf
from nardy_fast.app.protocol import Engine, cube_action_token
from nardy_fast.core.position import parse_steps
from nardy_fast.engine.decisions.cube import cube_decision
from nardy_fast.engine.evaluation.evaluator import RulesFallbackWarning

ENGINE = [sys.executable, "-m", "nardy_fast.app.cli", "engine", "--plies", "0"]
# a position of a random game whose roll 64 no checker can play: its move is a pass
PASS_ID, PASS_DICE = "BVQABAAAgAQAAAAAAAAAAAAEAAQERERFS", (6, 4)
MID = nf.Position.initial().play("1/7 7/12", (6, 5)).play("1/5 5/8", (4, 3))


def _run(script):
    r = subprocess.run(ENGINE, input=script, capture_output=True, text=True, timeout=120)
    return r.returncode, r.stdout.splitlines(), r.stderr


def _fields(line, head):
    words = line.split()
    assert words[0] == head, line
    return dict(w.split("=", 1) for w in words[1:])


def test_every_command_through_the_real_program():
    """One session: each command's answer is the public API's own, at 0-ply."""
    ev = nf.Evaluator.default()
    script = "\n".join([
        "nardy", "isready",
        f"position {MID.id}", "dice 6 2", "go", "eval", "cube",
        "position start", "dice 6 5", "go",
        f"position {PASS_ID}", f"dice {PASS_DICE[0]} {PASS_DICE[1]}", "go",
        f"position {MID.id}", "setoption name match value 5 2 1", "eval",
        "setoption name match value money", "setoption name cube value 2 black", "cube",
        "quit", "isready"]) + "\n"
    code, out, err = _run(script)
    assert code == 0 and err == "", err
    assert out[:4] == ["id name nardy-fast", f"id version {nf.__version__}", "nardyok",
                       "readyok"]
    best = ev.best_move(MID, (6, 2), plies=0)
    assert out[4] == f"bestmove {best}"
    # the move is in the record notation: a record of it replays
    rec = nf.GameRecord(start=MID).append((6, 2), parse_steps(out[4].split(" ", 1)[1]))
    assert rec.replay()[-1] == MID.play(best)
    o = ev.evaluate(MID, plies=0)
    e = _fields(out[5], "eval")
    assert list(e) == ["p_win", "p_mars_win", "equity"]
    assert (float(e["p_win"]), float(e["p_mars_win"]), float(e["equity"])) == pytest.approx(
        (o.p_win, o.p_mars_win, o.equity), abs=1e-6)
    d = cube_decision(MID, nf.CubeState(), plies=0)
    c = _fields(out[6], "cube")
    assert c["action"] == cube_action_token(d["action"])
    assert float(c["nd"]) == pytest.approx(d["no_double"], abs=1e-6)
    assert float(c["dt"]) == pytest.approx(d["double_take"], abs=1e-6)
    assert float(c["dp"]) == pytest.approx(d["double_pass"], abs=1e-6)
    assert out[7] == "bestmove 1/7 7/12"
    assert out[8] == "bestmove pass"
    m = _fields(out[9], "eval")                     # at a match: the score's chances too
    state = nf.MatchState(length=5, score=(2, 1), on_roll=MID.side)
    om = ev.evaluate(MID, plies=0, match=state)
    assert float(m["mwc"]) == pytest.approx(om.extra["mwc"], abs=1e-6)
    # the cube at 2 owned by Black: the side on roll (white) may not raise
    assert MID.side == "white"
    assert _fields(out[10], "cube")["action"] == "no-raise"
    assert len(out) == 11                           # nothing after quit


def test_a_bad_line_gets_one_error_line_and_the_engine_keeps_serving():
    script = "foo bar\nsetoption name plies value 7\ndice 7 1\nposition xyz\ngo now\n" \
             "isready\n"
    code, out, err = _run(script)
    assert code == 0
    assert len(out) == 6 and out[-1] == "readyok"
    assert all(line.startswith("error ") for line in out[:5])
    assert "unknown command 'foo'" in out[0]
    assert "plies 7" in out[1] and "0..2" in out[1]
    assert out[2].startswith("error dice:") and "7 1" in out[2]
    assert "xyz" in out[3]
    assert "'now'" in out[4]


def test_the_end_of_the_input_ends_the_engine_cleanly():
    code, out, err = _run("isready\n")              # no quit: stdin just closes
    assert (code, out, err) == (0, ["readyok"], "")


def test_each_reply_is_flushed_and_sigterm_stops_it_as_the_other_commands():
    """The answer arrives while the input stays open (flushed), and SIGTERM ends the
    engine with status 143 and the command line's 'interrupted' line."""
    p = subprocess.Popen(ENGINE, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
    lines = queue.Queue()
    threading.Thread(target=lambda: [lines.put(x) for x in p.stdout], daemon=True).start()
    try:
        p.stdin.write("isready\n")
        p.stdin.flush()
        assert lines.get(timeout=60) == "readyok\n"
        p.send_signal(signal.SIGTERM)
        assert p.wait(timeout=60) == 143
        assert p.stderr.read().strip() == "nardy-fast: interrupted"
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()


# -- the engine's answers in process ------------------------------------------------------
@pytest.mark.parametrize("line, words", [
    ("setoption plies 1", "expected 'setoption name <name> value <value>'"),
    ("setoption name depth value 1", "unknown option 'depth'"),
    ("setoption name plies value", "no value"),
    ("setoption name rules value head_rule=sometimes", "head_rule"),
    ("setoption name match value 5 5 1", "white=5"),
    ("setoption name match value 5 2", "expected '<length> <white points> <black points>'"),
    ("setoption name match value five 1 1", "must be numbers"),
    ("setoption name cube value 3 centre", "stake=3"),
    ("setoption name cube value 2 middle", "owner one of centre, white, black"),
    ("position start now", "expected 'position start' or 'position <ID>'"),
    ("dice", "expected 'dice <d1> <d2>'"),
    ("go", "no dice"),
    ("eval please", "takes no argument"),
])
def test_refusals_name_the_input_and_why(line, words):
    out = Engine(plies=0).handle(line)
    assert len(out) == 1 and out[0].startswith(f"error {line.split()[0]}: "), out
    assert words in out[0], out


def test_a_refused_setting_leaves_the_previous_one():
    eng = Engine(plies=0)
    eng.handle("setoption name match value 3 1 0")
    assert eng.handle("setoption name match value 3 3 0")[0].startswith("error")
    assert eng.match == (3, 1.0, 0.0, False)


@pytest.mark.parametrize("first, second", [
    ("setoption name match value 3 2 2", "setoption name cube value 2 white"),
    ("setoption name cube value 2 white", "setoption name match value 3 2 2"),
    ("setoption name cube value 1 black", "setoption name match value 5 4 3 crawford"),
])
def test_a_cube_the_match_cannot_have_is_refused_whichever_option_comes_first(first,
                                                                               second):
    eng = Engine(plies=0)
    assert eng.handle(first) == []
    before = (eng.match, eng.cube)
    out = eng.handle(second)
    assert len(out) == 1 and out[0].startswith("error setoption: cube "), out
    assert "at the match score" in out[0]
    assert (eng.match, eng.cube) == before


def test_a_cube_the_match_can_have_is_kept():
    eng = Engine(plies=0)
    eng.handle("setoption name match value 5 0 0")
    assert eng.handle("setoption name cube value 4 black") == []
    assert eng.cube == (4, "black")


def test_go_and_cube_refuse_a_finished_game():
    eng = Engine(plies=0)
    over = nf.Position.from_id("WAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAR").play("24/off", (6, 1))
    eng.handle(f"position {over.id}")
    eng.handle("dice 6 1")
    for cmd in ("go", "cube"):
        out = eng.handle(cmd)
        assert out[0].startswith(f"error {cmd}: the game of position") and "is over" in out[0]


def test_blacks_last_turn_under_draw_rule_is_played():
    """White has borne off; under draw_rule Black still has its last turn.  The engine
    refused ``go`` and ``cube`` there ("the game ... is over", the rules-blind
    ``Position.is_over``), so a duel from such a start forfeited the toolkit's own engine;
    and ``eval`` at a match score left out ``mwc`` and ``emg``."""
    last = "BAAAAAAAAAAAAAAAAAAAAAAAAMAAAAAAA"
    eng = Engine(plies=0)
    for line in ("setoption name rules value draw_rule=true",
                 "setoption name match value 5 2 1", f"position {last}", "dice 6 6"):
        assert eng.handle(line) == []
    best = nf.Evaluator.default(nf.Rules(draw_rule=True)).best_move(
        nf.Position.from_id(last), (6, 6), plies=0)
    assert eng.handle("go") == [f"bestmove {best}"]
    assert set(_fields(eng.handle("eval")[0], "eval")) >= {"mwc", "emg"}
    eng = Engine(plies=0)                   # without draw_rule the game is over there
    eng.handle(f"position {last}")
    eng.handle("dice 6 6")
    assert eng.handle("go")[0].startswith("error go: the game of position")


def test_the_documented_session_is_what_the_engine_says():
    """docs/engine-protocol.md writes a session out (what goes each way); its numbers had
    gone stale when the nets changed.  Replayed here, line for line."""
    import pathlib
    import re
    page = pathlib.Path(__file__).resolve().parents[2] / "docs" / "engine-protocol.md"
    block = re.search(r"## A session.*?```text\n(.*?)```", page.read_text(), re.S).group(1)
    sent = [ln[2:] for ln in block.splitlines() if ln.startswith("> ")]
    said = [ln[2:] for ln in block.splitlines() if ln.startswith("< ")]
    code, out, err = _run("\n".join(sent) + "\n")
    assert code == 0, err
    assert out == said


def test_options_change_the_answers():
    """plies and rules are the evaluator's: a 2-ply best move is Evaluator.best_move's at
    2 plies, and under other rules the move is one of their legal moves."""
    eng = Engine(plies=0)
    eng.handle(f"position {MID.id}")
    eng.handle("dice 3 1")
    eng.handle("setoption name plies value 2")
    assert eng.handle("go") == [f"bestmove {nf.Evaluator.default().best_move(MID, (3, 1), 2)}"]
    rules = nf.Rules.from_text("head_rule=generalized")
    eng.handle(f"setoption name rules value {rules.to_text()}")
    assert eng.rules == rules
    with warnings.catch_warnings():          # no shipped net of these rules: the classic one
        warnings.simplefilter("ignore", RulesFallbackWarning)
        move = eng.handle("go")[0].split(" ", 1)[1]
    assert move in {str(m) for m in MID.legal_moves((3, 1), rules)}


@pytest.mark.parametrize("line", ["x" * 100_000, "position " + "A" * 100_000,
                                  "dice " + "6 " * 50_000])
def test_a_very_long_line_gets_a_short_error_line(line):
    """A line of 100 000 characters was answered with an error line that repeated it
    whole ('error unknown command 'xxx...'', 100 000 characters and more: 20 MB for a
    20 MB line) for the front end to read.  A line longer than any command is refused
    whole, with its length."""
    out = Engine(plies=0).handle(line + "\n")
    assert out == [f"error line too long: {len(line.strip())} characters; a command is at most "
                   "4096"]
    assert Engine(plies=0).handle("dice 6 5" + " " * 5000) == []   # spaces: not refused


def test_rules_whose_cube_cannot_have_the_stake_set_are_refused():
    """'setoption name cube value 3 white' under the arithmetic cube, then rules of the
    geometric cube: the rules were taken, and every 'cube' after answered "error cube:
    stake=3: not a stake of the geometric cube".  The rules are refused, as a stake is
    when set after them, and the settings stay as they were."""
    eng = Engine(plies=0)
    eng.handle("setoption name rules value cube=arithmetic")
    assert eng.handle("setoption name cube value 3 white") == []
    out = eng.handle("setoption name rules value cube=geometric")
    assert len(out) == 1 and out[0].startswith("error setoption: rules 'cube=geometric': "
                                               "the cube set (3 white): stake=3"), out
    assert eng.rules.cube == "arithmetic" and eng.cube == (3, "white")
    assert eng.handle("cube")[0].startswith("cube action=")


@pytest.mark.parametrize("first, second", [
    ("setoption name rules value draw_rule=true", "setoption name match value 5 4 0 crawford"),
    ("setoption name rules value draw_rule=true cube=geometric",
     "setoption name match value 5 2 0"),
    ("setoption name match value 5 4 0 crawford", "setoption name rules value draw_rule=true"),
])
def test_a_match_the_model_cannot_play_under_draw_rule_is_refused(first, second):
    """Under draw_rule, a match in its Crawford game (or with the cube in the rules) was
    taken, and then every 'eval', 'go' and 'cube' answered "error ...: the cube in a
    match with draws ...".  The second setting is refused with that reason instead, and
    the session keeps answering."""
    eng = Engine(plies=0)
    assert eng.handle(first) == []
    before = (eng.rules, eng.match)
    out = eng.handle(second)
    assert len(out) == 1 and out[0].startswith("error setoption: "), out
    assert "the cube in a match with draws" in out[0]
    assert (eng.rules, eng.match) == before
    eng.handle("dice 6 5")
    assert eng.handle("eval")[0].startswith("eval ")
    assert eng.handle("go")[0].startswith("bestmove ")


def test_eval_of_a_finished_game_at_a_match_score_gives_the_match_figures():
    """At a match score, 'eval' of a finished game left out ``mwc`` and ``emg`` (the
    protocol says they follow at a match score), so a front end reading them failed at
    the end of each game.  They are there: here White has won a mars, 2 points, at 1-0
    in a match to 3, so the match is over and Black, on roll, has no chance left."""
    over = "BAAAAAAAAAAAAAAAAAAAAAAAA8AAAAAAA"
    eng = Engine(plies=0)
    for line in ("setoption name match value 3 1 0", f"position {over}"):
        assert eng.handle(line) == []
    e = _fields(eng.handle("eval")[0], "eval")
    assert list(e) == ["p_win", "p_mars_win", "equity", "mwc", "emg"]
    assert (e["p_win"], e["equity"], e["mwc"]) == ("0.000000", "-2.000000", "0.000000")
    eng.handle("setoption name match value 3 0 1")       # 2-1 to White: Black needs 2
    o = nf.Evaluator.default().evaluate(
        nf.Position.from_id(over), plies=0,
        match=nf.MatchState(nf.MatchRules(length=3), (0, 1), "black"))
    e = _fields(eng.handle("eval")[0], "eval")
    assert float(e["mwc"]) == pytest.approx(o.extra["mwc"], abs=1e-6)
    assert 0 < o.extra["mwc"] < 1


def test_eval_under_the_draw_rule_gives_the_chance_of_a_draw():
    """Under ``draw_rule`` 'eval' gave P(win) and the equity but not the chance of a draw,
    which ``evaluate``, ``rollout`` and ``bearoff query`` give, so a front end could not
    tell a draw from a loss.  A ``p_draw=`` field now follows ``equity`` under
    ``draw_rule`` (and no other rules), before the match fields."""
    race = "BAAAAAAAAAAAAAAAAAAAAAAAAIyMRYTMS"         # both homes: draws are likely
    rules = nf.Rules(draw_rule=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RulesFallbackWarning)
        o = nf.Evaluator.default(rules).evaluate(race, plies=0)
        eng = Engine(plies=0, rules=rules)
        assert eng.handle(f"position {race}") == []
        e = _fields(eng.handle("eval")[0], "eval")
        assert list(e) == ["p_win", "p_mars_win", "equity", "p_draw"]
        assert (float(e["p_win"]), float(e["equity"]), float(e["p_draw"])) == \
            pytest.approx((o.p_win, o.equity, o.p_draw), abs=1e-6)
        assert 0.1 < o.p_draw < 0.9
        eng.handle("setoption name match value 5 2 1")
        assert list(_fields(eng.handle("eval")[0], "eval")) == \
            ["p_win", "p_mars_win", "equity", "p_draw", "mwc", "emg"]
    eng = Engine(plies=0)
    eng.handle(f"position {race}")
    assert list(_fields(eng.handle("eval")[0], "eval")) == ["p_win", "p_mars_win", "equity"]
