"""``nardy-fast hint`` and ``cube`` at a match score (``--length``, ``--score``,
``--crawford``, ``--crawford-game``; ``hint --cube``): the same numbers as the API's
``match=``, the text labelled as match winning chances, and each option that does not
fit named."""
import json
import math

import pytest

import nardy_fast as nf
from nardy_fast.app.cli import main

PID = "W7gAAAAAAAAAAAQAQAAAAAAAAAAAAAAAA"      # the README's position: White's 5-2 to play
CUBE = nf.Rules(cube="geometric")


def run(capsys, argv):
    code = main(argv)
    out, err = capsys.readouterr()
    assert code == 0, err
    return out


def test_hint_at_a_score_ranks_by_the_apis_match_chances(capsys):
    pos = nf.Position.from_id(PID)
    state = nf.MatchState(length=5, score=(2, 3), on_roll=pos.side)
    want = nf.Evaluator.default().hint(pos, (5, 2), plies=0, match=state)
    rows = json.loads(run(capsys, ["hint", PID, "5-2", "--plies", "0", "--length", "5",
                                   "--score", "2-3", "--json"]))
    assert [r["move"] for r in rows] == list(want["move"])
    assert [r["mwc"] for r in rows] == pytest.approx(list(want["mwc"]), abs=1e-12)
    assert [r["mwc_loss"] for r in rows] == pytest.approx(list(-want["mwc_diff"]), abs=1e-12)
    assert rows[0]["mwc_loss"] == 0 and all(r["mwc_loss"] >= 0 for r in rows)
    text = run(capsys, ["hint", PID, "5-2", "--plies", "0", "--length", "5", "--score", "2-3"])
    assert "at 2-3 (White-Black) in a match to 5" in text and "mwc_loss" in text
    assert "-0.0000" not in text                       # the best move loses nothing, unsigned


def test_hint_with_the_cube_uses_the_cubeful_table(capsys):
    pos = nf.Position.from_id(PID)
    cubeful = nf.MatchState(length=nf.MatchRules(length=5, rules=CUBE), score=(2, 3))
    want = nf.Evaluator.default().hint(pos, (5, 2), plies=0, match=cubeful)
    rows = json.loads(run(capsys, ["hint", PID, "5-2", "--plies", "0", "--length", "5",
                                   "--score", "2-3", "--cube", "--json"]))
    assert [r["mwc"] for r in rows] == pytest.approx(list(want["mwc"]), abs=1e-12)
    cubeless = json.loads(run(capsys, ["hint", PID, "5-2", "--plies", "0", "--length", "5",
                                       "--score", "2-3", "--json"]))
    assert rows[0]["mwc"] != pytest.approx(cubeless[0]["mwc"], abs=1e-4)
    # the two texts said the same words over these different chances
    text = run(capsys, ["hint", PID, "5-2", "--plies", "0", "--length", "5", "--score",
                        "2-3", "--cube"])
    assert ("at 2-3 (White-Black) in a match to 5, with the cube: each legal move" in text
            and "through the cubeful match equity table" in text)
    text = run(capsys, ["hint", PID, "5-2", "--plies", "0", "--length", "5", "--score",
                        "2-3"])
    assert "with the cube" not in text and "cubeful" not in text


@pytest.mark.parametrize("score, crawford, words", [
    ("2-3", [], "at 2-3 (White-Black) in a match to 5:"),
    ("2-3", ["--crawford"], "at 2-3 (White-Black) in a match to 5, under the Crawford rule:"),
    ("4-2", ["--crawford"], "at 4-2 (White-Black) in a match to 5, post-Crawford:"),
    ("4-2", ["--crawford-game"], "at 4-2 (White-Black) in a match to 5, the Crawford game:")])
def test_the_output_says_whether_the_match_plays_the_crawford_rule(capsys, score, crawford,
                                                                   words):
    """The Crawford rule changes the chances at 2-3 (its game is to come), so the text
    and the JSON say whether it was taken: the two outputs differed only in their
    numbers."""
    argv = ["cube", PID, "--plies", "0", "--length", "5", "--score", score] + crawford
    assert words in run(capsys, argv)
    got = json.loads(run(capsys, argv + ["--json"]))
    assert got["crawford"] == bool(crawford)
    hint = run(capsys, ["hint", PID, "5-2", "--plies", "0", "--length", "5", "--score", score,
                        "--cube"] + crawford)
    assert words.removesuffix(":") + ", with the cube:" in hint


@pytest.mark.parametrize("score, crawford", [((2, 3), None), ((4, 2), "--crawford-game"),
                                             ((4, 2), "--crawford")])
def test_cube_at_a_score_is_the_apis_match_decision(capsys, score, crawford):
    pos = nf.Position.from_id(PID)
    rules = nf.MatchRules(length=5, crawford=crawford is not None, rules=CUBE)
    cube = nf.CubeState(first_turn=pos.is_first_turn())
    state = nf.MatchState(length=rules, score=score, on_roll=pos.side, cube=cube,
                          crawford=crawford == "--crawford-game")
    want = nf.cube_decision(pos, cube, plies=0, match=state)
    argv = ["cube", PID, "--plies", "0", "--length", "5", "--score", f"{score[0]}-{score[1]}"]
    argv += [crawford] if crawford else []
    got = json.loads(run(capsys, argv + ["--json"]))
    assert got["length"] == 5 and got["score"] == list(map(float, score))
    assert got["crawford_game"] == (crawford == "--crawford-game")
    for key in ("no_double", "double_take", "double_pass", "equity"):
        if math.isnan(want[key]):
            assert got[key] is None
        else:
            assert got[key] == pytest.approx(want[key], abs=1e-12)
    text = run(capsys, argv)
    assert "the values are the match winning chances of the side on roll" in text
    assert f"match winning chance {want['equity']:.4f}" in text
    assert "per unit stake" not in text and " nan" not in text


@pytest.mark.parametrize("argv, named", [
    (["hint", PID, "52", "--score", "2-3"], "--score: a match score needs the match's length"),
    (["cube", PID, "--crawford"], "--crawford: a match score needs the match's length"),
    (["hint", PID, "52", "--length", "5", "--score", "5-0"],
     "--score: white=5: expected a whole number of points in 0..4"),
    (["hint", PID, "52", "--length", "5", "--crawford"],
     "--crawford: the Crawford rule is a rule of the cube; add --cube"),
    (["cube", PID, "--length", "5", "--score", "1-1", "--crawford-game"],
     "--crawford-game: crawford=True: the Crawford game needs a side 1 point from"),
    (["cube", PID, "--length", "5", "--method", "rollout"],
     "--method rollout: at a match score the match equity table decides"),
    (["cube", PID, "--length", "3", "--stake", "8"], "--stake/--owner: cube=8"),
    (["hint", PID, "52", "--length", "5", "--rules", "mars_points=2.5"],
     "--rules: mars_points=2.5: a match's score holds whole points only"),
])
def test_options_that_do_not_fit_are_named(capsys, argv, named):
    code = main(argv)
    out, err = capsys.readouterr()
    assert code == 1 and out == "" and err.startswith(f"nardy-fast: error: {named}"), err


def test_a_score_that_is_not_two_numbers_is_refused_by_argparse(capsys):
    with pytest.raises(SystemExit) as e:
        main(["hint", PID, "52", "--length", "5", "--score", "2-x"])
    assert e.value.code == 2
    assert "--score: '2-x': expected White's points, then Black's" in capsys.readouterr().err


@pytest.mark.parametrize("argv", [
    ["hint", "start", "65"], ["cube", "start"], ["met"], ["matches", "random", "random"],
])
def test_a_length_beyond_the_longest_match_is_named_as_length(capsys, argv):
    """It was the API's 'length=100: must be 1..64', and in hint and cube named --score."""
    with pytest.raises(SystemExit) as e:
        main(argv + ["--length", "100"])
    err = capsys.readouterr().err
    assert e.value.code == 2
    assert err.splitlines()[-1].endswith("error: argument --length: 100: expected an integer "
                                         "1..64")


@pytest.mark.parametrize("argv", [
    ["cube", PID, "--length", "5"], ["hint", PID, "52", "--length", "5", "--cube"],
    ["met", "--length", "5", "--cube"],
])
def test_the_cube_with_draws_is_refused_in_the_commands_words(capsys, argv):
    """It said 'cube=True with draws', an argument no command-line user gave."""
    assert main(argv + ["--rules", "draw_rule=true"]) != 0
    err = capsys.readouterr().err
    assert "the cube in a match with draws (draw_rule=true)" in err
    assert "cube=True" not in err
