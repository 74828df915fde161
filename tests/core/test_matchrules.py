"""MatchRules and MatchState: fields checked, errors naming the field, text round trips."""
import pytest

from nardy_fast.core.cubestate import CubeState
from nardy_fast.core.matchrules import (MatchRules, MatchState, as_match_rules, check_match,
                                        check_score, stakes_upto)
from nardy_fast.core.rules import Rules

CUBE = Rules(cube="geometric")


def test_defaults_follow_the_sources():
    mr = MatchRules()
    assert (mr.length, mr.draw, mr.starter, mr.crawford, mr.cube) == (
        3, "half", "winner", False, False)


@pytest.mark.parametrize("kw, field", [
    (dict(length=0), "length"), (dict(length=65), "length"),
    (dict(draw="quarter"), "draw"), (dict(starter="loser"), "starter"),
    (dict(crawford=True), "crawford"),            # no cube
])
def test_bad_rules_name_the_field(kw, field):
    with pytest.raises((ValueError, TypeError), match=field):
        MatchRules(**kw)


def test_game_points_take_the_rules_scoring():
    ext = MatchRules(rules=Rules(scoring="extended"))
    assert [ext.game_points(k) for k in ("oin", "mars", "koks", "home_mars")] == [1, 2, 3, 4]
    classic = MatchRules()
    assert [classic.game_points(k) for k in ("oin", "mars", "koks", "home_mars")] == [1, 2, 2, 2]
    # with the cube: no mars, the stake
    assert MatchRules(rules=CUBE).game_points("mars", stake=4) == 4
    with pytest.raises(ValueError, match="outcome"):
        classic.game_points("gammon")


def test_draw_points_and_unit():
    drawn = Rules(draw_rule=True)
    assert MatchRules(rules=drawn).unit == 0.5
    assert MatchRules(rules=drawn, draw="one").unit == 1.0
    assert MatchRules().unit == 1.0                 # no draws without the draw rule
    assert [MatchRules(draw=d).draw_points() for d in ("half", "one", "replay")] == [0.5, 1, 0]



@pytest.mark.parametrize("rules, draw, word", [
    (Rules(mars_points=2.5), "half", "mars_points=2.5: a match's score holds whole points only"),
    (Rules(scoring="extended", koks_points=3.5), "half", "koks_points=3.5"),
    (Rules(oin_points=1.5), "half", "oin_points=1.5"),
    (Rules(draw_rule=True, mars_points=2.25), "half", "multiples of 0.5 points"),
    (Rules(draw_rule=True, mars_points=2.5), "one", "mars_points=2.5"),
])
def test_points_a_match_score_cannot_hold_are_refused(rules, draw, word):
    # a score moves by whole points (halves with half-point draws): a mars of 2.5 was
    # taken, then rounded to 2 by the match equity table, and a match played under it
    # stopped at its first mars with a score no state could hold
    with pytest.raises(ValueError, match=word):
        MatchRules(length=5, draw=draw, rules=rules)
    MatchRules(length=5, rules=Rules(draw_rule=True, mars_points=2.5))     # halves: fine
    MatchRules(length=5, rules=Rules(mars_points=2.5, cube="geometric"))   # the stake

@pytest.mark.parametrize("mr", [
    MatchRules(), MatchRules(length=7, starter="alternate"),
    MatchRules(length=5, crawford=True, rules=CUBE),
    MatchRules(length=11, draw="replay", rules=Rules(draw_rule=True, scoring="extended")),
])
def test_text_and_dict_round_trip(mr):
    assert MatchRules.from_text(mr.to_text()) == mr
    assert MatchRules.from_dict(mr.to_dict()) == mr


@pytest.mark.parametrize("text, word", [("length=x", "length"), ("size=3", "size"),
                                        ("crawford=maybe", "crawford"), ("3", "'3'"),
                                        ("length=5 length=7", "length is given twice")])
def test_bad_text_names_the_item(text, word):
    with pytest.raises(ValueError, match=word):
        MatchRules.from_text(text)


def test_as_match_rules():
    assert as_match_rules(None, 5) == MatchRules(length=5)
    assert as_match_rules(CUBE).rules == CUBE
    assert as_match_rules(MatchRules(length=3), 9).length == 9


def test_state_away_and_flip():
    s = MatchState(7, (2, 5), "black")
    assert s.away() == (2, 5)                    # black needs 2, white 5
    f = s.flipped()
    assert f.on_roll == "white" and f.away() == (5, 2)


@pytest.mark.parametrize("kw, field", [
    (dict(score=(3, 0)), "white"), (dict(score=(0, 4)), "black"),
    (dict(score=(-1, 0)), "white"), (dict(score=(0.5, 0)), "white"),
    (dict(score=(0,)), "score"), (dict(on_roll="red"), "on_roll"),
    (dict(crawford=True), "crawford"),
])
def test_bad_state_names_the_field(kw, field):
    with pytest.raises((ValueError, TypeError), match=field):
        MatchState(3, **kw)


@pytest.mark.parametrize("score, error, text", [
    ((float("nan"), 0), ValueError, "A=nan"), ((0, float("inf")), ValueError, "B=inf"),
    ((5, 0), ValueError, r"A=5: expected a whole number of points in 0\.\.4 \(below the "
                         r"match length 5\)"),
    (("1", 0), TypeError, "A='1'"), ((1, 2, 3), ValueError, r"expected \(A, B\)")])
def test_check_score_names_the_side(score, error, text):
    with pytest.raises(error, match=text):
        check_score(score, MatchRules(length=5), ("A", "B"))


def test_check_score_takes_halves_where_draws_are_worth_half():
    half = MatchRules(length=3, draw="half", rules=Rules(draw_rule=True))
    assert half.unit == 0.5 and check_score((1.5, 2.5), half) == (1.5, 2.5)
    with pytest.raises(ValueError, match="a multiple of 0.5 points in 0..2.5"):
        check_score((0.25, 0), half)
    assert check_score((2, 0), MatchRules(length=3)) == (2.0, 0.0)


def test_crawford_only_where_it_applies():
    mr = MatchRules(length=5, crawford=True, rules=CUBE)
    MatchState(mr, (4, 1), crawford=True)         # white one point away
    with pytest.raises(ValueError, match="crawford"):
        MatchState(mr, (3, 1), crawford=True)
    with pytest.raises(ValueError, match="cube"):
        MatchState(mr, (4, 1), crawford=True, cube=CubeState(2, "mover"))
    with pytest.raises(ValueError, match="Crawford game"):         # owned, even at 1
        MatchState(mr, (4, 1), crawford=True, cube=CubeState(1, "mover"))


def test_cube_values_the_match_can_have():
    mr = MatchRules(length=5, rules=CUBE)
    # stakes up to the first power of two reaching the larger need (5 -> 8)
    assert stakes_upto(CUBE, 5) == [1, 2, 4, 8]
    MatchState(mr, (0, 0), cube=CubeState(8, "opponent"))
    for bad in (3, 16):
        with pytest.raises(ValueError, match="cube"):
            MatchState(mr, (0, 0), cube=CubeState(bad, "opponent"))
    with pytest.raises(ValueError, match="cube"):                # no cube in this match
        MatchState(MatchRules(length=5), (0, 0), cube=CubeState(2, "opponent"))


def test_half_points_with_half_draws():
    mr = MatchRules(length=3, rules=Rules(draw_rule=True))
    assert MatchState(mr, (1.5, 0.5)).away() == (1.5, 2.5)
    with pytest.raises(ValueError, match="white"):
        MatchState(MatchRules(length=3), (1.5, 0))


def test_state_defaults_to_a_match_to_three_with_the_cube_at_one():
    state = MatchState(score=(2, 0))
    assert state.rules.length == 3 and state.away() == (1, 3)
    assert state.stake == 1


def test_numpy_scores_and_flags_are_taken():
    """A score of numpy integers (as read from an array) was refused as 'expected a
    number'; numpy floats and bools are taken as well."""
    import numpy as np
    s = MatchState(5, (np.int64(3), np.int32(1)), "white")
    assert s == MatchState(5, (3, 1), "white") and s.score == (3.0, 1.0)
    assert hash(s) == hash(MatchState(5, (3, 1), "white"))
    assert check_score((np.float64(1.5), np.uint8(0)),
                       MatchRules(5, rules=Rules(draw_rule=True))) == (1.5, 0.0)
    with pytest.raises(TypeError, match=r"score: white=np.True_: expected a number"):
        MatchState(5, (np.bool_(True), 1), "white")
    mr = MatchRules(5, crawford=np.bool_(True), rules=CUBE)
    assert mr.crawford is True and mr == MatchRules(5, crawford=True, rules=CUBE)
    state = MatchState(mr, (4, 1), "white", crawford=np.bool_(True))
    assert state.crawford is True


@pytest.mark.parametrize("bad", [None, 5, b"length=5"])
def test_match_rules_from_text_and_from_dict_name_what_is_not_text_or_a_mapping(bad):
    """MatchRules.from_text(None) failed with "'NoneType' object has no attribute
    'partition'"."""
    with pytest.raises(TypeError, match=r"^match rules text: expected str, got "):
        MatchRules.from_text(bad)
    with pytest.raises(TypeError, match=r"^match rules: expected a mapping"):
        MatchRules.from_dict(bad)


def test_a_state_from_another_process_hashes_as_one_made_here():
    """A state keeps its hash, and the hash of its colour (a text) differs from one
    process to the next: a state pickled in another process (a spawned worker, Dask)
    brought that process's hash, so it equalled a state made here but missed it in a
    set, a dict or a cache."""
    import copy
    import pickle
    import subprocess
    import sys

    code = ("import pickle, sys; from nardy_fast.core.matchrules import MatchRules, "
            "MatchState; from nardy_fast.core.rules import Rules; sys.stdout.buffer.write("
            "pickle.dumps(MatchState(MatchRules(5, rules=Rules(cube='geometric')), (1, 2), "
            "'black')))")
    data = subprocess.run([sys.executable, "-c", code], capture_output=True,
                          check=True).stdout
    here = MatchState(MatchRules(5, rules=Rules(cube="geometric")), (1, 2), "black")
    there = pickle.loads(data)
    assert there == here and hash(there) == hash(here) and there in {here}
    assert copy.deepcopy(here) == here and hash(copy.deepcopy(here)) == hash(here)


def test_crawford_stage_names_what_the_rule_makes_of_a_game():
    """The one home of the rule the match page and the cube's heading both word."""
    rules = MatchRules(5, crawford=True, rules=Rules(cube="geometric"))
    assert rules.crawford_stage((4, 3), crawford_game=True) == "crawford"
    assert rules.crawford_stage((4, 3)) == "post"
    assert rules.crawford_stage((2, 3)) == "before"
    assert MatchRules(5).crawford_stage((4, 3)) == ""


def test_a_score_of_minus_zero_is_zero_points():
    """A score of -0.0 (a computed one, such as -1 * 0.0) was kept as -0.0 and shown as
    "-0.0" in the state's repr and by anything printing it; it is 0 points."""
    state = MatchState(length=3, score=(-0.0, -0.0))
    assert [str(v) for v in state.score] == ["0.0", "0.0"]
    assert "score=(0.0, 0.0)" in repr(state)
    assert [str(v) for v in check_score((-0.0, 1), MatchRules(length=3))] == ["0.0", "1.0"]


def test_check_match_refuses_rules_that_are_not_the_matchs():
    """A value under other move rules, or with draws in a match that has none, was
    converted through the match's table without a word (a draw of a draw_rule evaluator
    counted as half a point of a match without draws)."""
    state = MatchState(MatchRules(length=3), (0, 0))
    with pytest.raises(ValueError, match=r"match: the match is played under the rules "
                       r"'classic', the evaluator's rules are 'draw_rule=true' \(they "
                       r"differ in draw_rule\)"):
        check_match(state, rules=Rules(draw_rule=True), rules_name="the evaluator's rules")
    with pytest.raises(ValueError, match=r"differ in head_rule, block_rule\)"):
        check_match(state, rules=Rules(head_rule="generalized", block_rule="home"))
    check_match(state, rules=Rules(scoring="extended"))      # the match scores the kinds
    check_match(state, rules=Rules(opening_roll="opening_dice"))
    cubeful = MatchState(MatchRules(length=3, rules=CUBE), (0, 0))
    check_match(cubeful, rules=CUBE.cubeless())      # a cube game's cubeless values
    check_match(cubeful, rules=Rules())


def test_a_match_state_and_its_rules_cannot_be_changed_in_place():
    """Both are values (hashed, shared by the positions of a match): a changed score or
    length would change what they are equal to after they were used as keys."""
    import dataclasses
    state = MatchState(length=3, score=(1, 0))
    with pytest.raises(dataclasses.FrozenInstanceError):
        state.score = (2, 0)
    with pytest.raises(dataclasses.FrozenInstanceError):
        state.rules.length = 5
    assert state.score == (1.0, 0.0) and state.rules.length == 3
