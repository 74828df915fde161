"""Cube games in records and in the C game loop, ending in every kind of finish.

Rule book, section 7: a win is an oin (the loser has borne off a checker), a mars (none
off), a koks (none off, a checker on the loser's points 1-6) or a home mars (none off, all
15 in the loser's home); classic scoring 1 / 2 / 2 / 2 points, extended 1 / 2 / 3 / 4.
Section 7a: with the cube there is no mars and no oin: the game is won at the stake; a
pass loses the stake before the raise.  Every expected score below is worked out by hand
in the comments from these two sections.

The games start from hand-set end positions: the side on roll has one checker on its
point 24 (any roll bears it off), the other side's board decides the kind of finish.
"""
import pytest

import nardy_fast as nf
from nardy_fast.core.cubestate import CubeState
from nardy_fast.core.record import GameRecord, RecordError
from nardy_fast.core.rules import Rules

from helpers import board


ONE_ON_24 = {24: 1}                   # 14 off; the mover's point 24 is the loser's point 12
LOSERS = {                            # the loser's board (never on its point 12)
    "oin": {24: 14},                  # one checker off
    "mars": {13: 10, 19: 5},          # none off, none on 1-6, not all home
    "koks": {20: 14, 3: 1},           # none off, one on point 3 (first quarter)
    "home_mars": {20: 15},            # none off, all 15 in the home
}
BOOK = {"classic": {"oin": 1, "mars": 2, "koks": 2, "home_mars": 2},
        "extended": {"oin": 1, "mars": 2, "koks": 3, "home_mars": 4}}


def start(kind, side="white"):
    """The side on roll (``side``) wins on its next roll; the loser's board by ``kind``."""
    return nf.Position.from_boards(board(ONE_ON_24), board(LOSERS[kind]), side)


def finish(rec, dice=(6, 1)):
    """Append the turn that bears off the mover's last checker."""
    pos = rec.positions()[-1]
    move = next(m for m in pos.legal_moves(dice, rec.rules) if sum(m.board) == 0)
    rec.append(dice, move.steps)
    return rec


def play_on(rec, dice):
    """Append a legal turn that does not end the game (the first such move)."""
    pos = rec.positions()[-1]
    move = next(m for m in pos.legal_moves(dice, rec.rules) if sum(m.board) > 0)
    rec.append(dice, move.steps)
    return rec


def round_trip(rec):
    """The record written and read back (the Result tag is then checked on replay)."""
    back = GameRecord.from_text(rec.to_text())
    assert back.result() == rec.result()
    return back


@pytest.mark.parametrize("scoring", ["classic", "extended"])
@pytest.mark.parametrize("kind", list(LOSERS))
def test_without_cube_each_finish_scores_its_points(kind, scoring):
    rec = finish(GameRecord(rules=Rules(scoring=scoring), start=start(kind)))
    res = rec.result()
    assert res == {"winner": "white", "kind": kind, "points": BOOK[scoring][kind]}
    round_trip(rec)


@pytest.mark.parametrize("scoring", ["classic", "extended"])
@pytest.mark.parametrize("kind", list(LOSERS))
def test_with_the_cube_every_finish_wins_the_stake(kind, scoring):
    """White doubles to 2, Black takes, White bears off: 2 points whatever the finish
    (a mars at stake 2 is 2 points, not 2 x 2; a home mars under extended scoring is not
    4 x 2); the result still names the finish."""
    rec = GameRecord(rules=Rules(scoring=scoring, cube="geometric"), start=start(kind))
    rec.append_cube("double", 2).append_cube("take")
    finish(rec)
    assert rec.result() == {"winner": "white", "kind": kind, "points": 2.0}
    assert round_trip(rec).cube_states()[-1].stake == 2


@pytest.mark.parametrize("kind", list(LOSERS))
def test_a_cube_game_never_doubled_wins_one_point(kind):
    """The cube in the middle at stake 1: every finish is worth 1 (no mars, no oin)."""
    rec = finish(GameRecord(rules=Rules(cube="geometric", scoring="extended"),
                            start=start(kind)))
    assert rec.result() == {"winner": "white", "kind": kind, "points": 1.0}


def test_black_wins_at_the_stake():
    """Black on roll with one checker on its point 24, White's board a koks.  Black
    doubles to 2, White takes, Black bears off: black wins 2 (not a koks's 2 x 2)."""
    rec = GameRecord(rules=Rules(cube="geometric"), start=start("koks", side="black"))
    rec.append_cube("double", 2).append_cube("take")
    finish(rec)
    assert rec.result() == {"winner": "black", "kind": "koks", "points": 2.0}


def test_raise_take_redouble_take_then_a_mars():
    """White has two checkers, on its points 13 and 24; Black has 15 on its points 13/19
    (a mars if Black loses now).  White doubles to 2, Black takes; White rolls 21 and
    does not finish; Black redoubles to 4 (its cube), White takes; Black rolls 21; White
    rolls 66 and bears off.  White wins at stake 4: 4 points (not a mars's 8)."""
    white = board({13: 1, 24: 1})
    black = board(LOSERS["mars"])
    rec = GameRecord(rules=Rules(cube="geometric"),
                     start=nf.Position.from_boards(white, black, "white"))
    rec.append_cube("double", 2).append_cube("take")
    play_on(rec, (2, 1))
    rec.append_cube("double", 4).append_cube("take")
    play_on(rec, (2, 1))
    finish(rec, (6, 6))
    states = rec.cube_states()
    assert [s.stake for s in states] == [2, 4, 4, 4]
    assert rec.result() == {"winner": "white", "kind": "mars", "points": 4.0}
    round_trip(rec)


@pytest.mark.parametrize("progression, offered", [("geometric", 2), ("arithmetic", 2)])
def test_a_drop_loses_the_stake_before_the_raise(progression, offered):
    """White doubles at stake 1, Black drops: White wins 1 point (the stake before the
    raise), whatever Black's position (here it would be a koks)."""
    rec = GameRecord(rules=Rules(cube=progression), start=start("koks"))
    rec.append_cube("double", offered).append_cube("drop")
    assert rec.result() == {"winner": "white", "kind": "drop", "points": 1.0}
    round_trip(rec)


def test_a_drop_after_a_take_loses_the_taken_stake():
    """Arithmetic: White raises 1 -> 2, Black takes; White plays on; Black raises 2 -> 3,
    White drops: Black wins 2 (the stake before that raise)."""
    white = board({13: 1, 24: 1})
    rec = GameRecord(rules=Rules(cube="arithmetic"),
                     start=nf.Position.from_boards(white, board(LOSERS["mars"]), "white"))
    rec.append_cube("double", 2).append_cube("take")
    play_on(rec, (2, 1))
    rec.append_cube("double", 3).append_cube("drop")
    assert rec.result() == {"winner": "black", "kind": "drop", "points": 2.0}


@pytest.mark.parametrize("kind", ["mars", "home_mars"])
def test_a_beavered_game_is_won_at_the_beaver_stake(kind):
    """White doubles to 2, Black beavers to 4 (takes and raises at once, keeping the cube),
    White bears off: White wins 4 (not 4 x 2 for a mars)."""
    rec = GameRecord(rules=Rules(cube="geometric", beaver=True, scoring="extended"),
                     start=start(kind))
    rec.append_cube("double", 2).append_cube("beaver", 4)
    finish(rec)
    assert rec.result() == {"winner": "white", "kind": kind, "points": 4.0}
    assert rec.cube_states()[-1].stake == 4
    round_trip(rec)


def test_a_cube_draw_is_worth_nothing():
    """draw_rule: White (who moved first) bears off its last checker, Black has one last
    turn and bears off its last checker too: a draw, 0 points, whatever the stake."""
    rules = Rules(cube="geometric", draw_rule=True)
    white = board(ONE_ON_24)
    black = board({24: 1})
    rec = GameRecord(rules=rules, start=nf.Position.from_boards(white, black, "white"))
    rec.append_cube("double", 2).append_cube("take")
    finish(rec)
    finish(rec)
    assert rec.result() == {"winner": None, "kind": "draw", "points": 0.0}


def test_a_wrong_result_tag_is_refused():
    """A written record claiming the mars's 4 points at stake 2 does not replay."""
    rec = GameRecord(rules=Rules(cube="geometric"), start=start("mars"))
    rec.append_cube("double", 2).append_cube("take")
    finish(rec)
    text = rec.to_text()
    assert '"white mars 2"' in text                 # ended by mars, scored at the stake
    with pytest.raises(RecordError):
        GameRecord.from_text(text.replace('"white mars 2"', '"white mars 4"')).result()


def test_a_cube_game_result_names_how_it_ended_and_scores_the_stake():
    """One vocabulary for the kind of a win, cube or not (``oin``, ``mars``, ...), the
    points the stake with the cube; a tag in the spelling before 0.3.0 (``win``) reads."""
    rec = GameRecord(rules=Rules(cube="geometric"), start=start("mars"))
    rec.append_cube("double", 2).append_cube("take")
    finish(rec)
    assert rec.result() == {"winner": "white", "kind": "mars", "points": 2.0}
    text = rec.to_text()
    old = GameRecord.from_text(text.replace('"white mars 2"', '"white win 2"'))
    assert old.result() == rec.result()
    with pytest.raises(RecordError):
        GameRecord.from_text(text.replace('"white mars 2"', '"white oin 2"'))


# -- the C game loop ---------------------------------------------------------------------
@pytest.mark.parametrize("kind", list(LOSERS))
def test_cube_rollouts_win_the_stake_whatever_the_finish(kind):
    """The side on roll wins on its roll in every game.  With the cube at stake 2 and the
    cube model's P(win) = 1 it does not double (too good: a pass gains nothing), and wins
    2, i.e. 1 per unit of the starting stake, in every game; without the cube it wins the
    rule book's points of the finish (extended scoring)."""
    pos = start(kind)
    kw = dict(n_games=72, seed=3, workers=1, truncate=None, progress=False)
    plain = nf.rollout(pos, rules=Rules(scoring="extended"), **kw)
    assert plain.equity == pytest.approx(BOOK["extended"][kind], abs=1e-12)
    cubed = nf.rollout(pos, rules=Rules(scoring="extended", cube="geometric"),
                       cube_state=CubeState(2), cube_probabilities=lambda p: 1.0, **kw)
    assert cubed.equity == pytest.approx(1.0, abs=1e-12)
    assert cubed.se_equity == pytest.approx(0.0, abs=1e-12)
