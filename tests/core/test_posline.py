"""opornik's one-line position notation: ``Position.from_text`` / ``to_text``
(``nardy_fast.core.posline``)."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import game_positions, hand_positions
from nardy_fast import Position

# The lines opornik's documentation gives (its LogasAI benchmark page: the line format and
# the relay example; the same first line in the issue), with what each one is: the counts
# on our points (point = 25 - opornik's, each side its own numbering), the side on roll
# and the roll.
OPORNIK_EXAMPLES = [
    ("white=24:13,18:2 black=24:15 turn=W dice=3,1",
     {"white": {1: 13, 7: 2}, "black": {1: 15}, "side": "white", "dice": (3, 1)}),
    ("white=24:13,13:1,7:1 black=24:15 turn=W dice=3,1",
     {"white": {1: 13, 12: 1, 18: 1}, "black": {1: 15}, "side": "white", "dice": (3, 1)}),
]

# The optional words of the documented format ``[white-off=N] [black-off=N] [first]``.
OPTIONAL_EXAMPLES = [
    ("white=6:3,1:2 black=3:5,2:4 white-off=10 black-off=6 turn=B dice=6,6",
     {"white": {19: 3, 24: 2}, "black": {22: 5, 23: 4}, "side": "black", "dice": (6, 6)}),
    ("white=24:15 black=24:15 turn=W dice=6,6 first",
     {"white": {1: 15}, "black": {1: 15}, "side": "white", "dice": (6, 6)}),
    ("white=13:1,24:14 black=24:15 turn=B first",         # after White's opening 6-5
     {"white": {1: 14, 12: 1}, "black": {1: 15}, "side": "black", "dice": None}),
]


def counts(board):
    return {i + 1: int(c) for i, c in enumerate(board) if c}


@pytest.mark.parametrize("line, want", OPORNIK_EXAMPLES + OPTIONAL_EXAMPLES)
def test_reads_the_documented_lines(line, want):
    pos, dice = Position.from_text_and_dice(line)
    assert counts(pos.white) == want["white"]
    assert counts(pos.black) == want["black"]
    assert pos.side == want["side"] and dice == want["dice"]
    assert Position.from_text(line) == pos


@pytest.mark.parametrize("line, want", OPORNIK_EXAMPLES)
def test_writes_the_documented_lines_back(line, want):
    """The writer gives the documented lines word for word: points from the head down."""
    pos, dice = Position.from_text_and_dice(line)
    assert pos.to_text(dice) == line


@pytest.mark.parametrize("line, want", OPORNIK_EXAMPLES + OPTIONAL_EXAMPLES)
def test_pips_are_opornik_points(line, want):
    """opornik counts a checker on its point p as p pips to go: our pip counts agree."""
    pos = Position.from_text(line)
    pips = {}
    for word in line.split():
        key, _, value = word.partition("=")
        if key in ("white", "black"):
            pips[key] = sum(int(p) * int(c) for p, c in
                            (item.split(":") for item in value.split(",") if item))
    mine, theirs = pos.pips
    assert (pips[pos.side], pips["black" if pos.side == "white" else "white"]) == \
        (mine, theirs)


@pytest.mark.parametrize("line", [
    "white=24:15 black=24:15 turn=W first=true", "white=24:15 black=24:15 turn=W first=1",
    "white=24:15 black=24:15 turn=W first=TRUE", "white=,24:15, black=24:15 turn=W",
    "white=18:0,,24:15 black=24:15 turn=W"])
def test_first_values_and_empty_items(line):
    """``first``, ``first=true``, ``first=1`` mark a first turn; empty items between
    commas and a count of 0 are nothing."""
    assert Position.from_text(line) == Position.initial()


def test_start_and_finished():
    start = Position.initial()
    assert start.to_text() == "white=24:15 black=24:15 turn=W first"
    assert Position.from_text("turn=W black=24:15 white=24:15") == start   # any order
    done = Position.from_text("white= white-off=15 black=24:15 turn=B")
    assert done.is_over() and done.off == (0, 15)
    assert done.to_text() == "white= black=24:15 white-off=15 turn=B first"
    assert Position.from_text(done.to_text()) == done


@settings(max_examples=150, deadline=None)
@given(st.one_of(game_positions(), hand_positions()), st.none() | st.tuples(
    st.integers(1, 6), st.integers(1, 6)))
def test_round_trip(pos, dice):
    line = pos.to_text(dice)
    assert Position.from_text_and_dice(line) == (pos, dice)
    assert ("first" in line.split()) == pos.is_first_turn()


@pytest.mark.parametrize("line, words", [
    ("white=24:15 turn=W", "no black="),
    ("white=24:14 black=24:15 turn=W", "white has 14 checker(s) on the board and 0 off"),
    ("white=24:14 white-off=2 black=24:15 turn=W", "14 checker(s) on the board and 2 off"),
    ("white=24:15,1:1 black=24:15 turn=W", "white has 16 checkers on the board"),
    ("white=24:15 black=24:15 turn=X", "turn=X: expected W or B"),
    ("white=24:15 black=24:15 turn=W dice=7,1", "dice=7,1"),
    ("white=24:15 black=24:15 turn=W dice=3", "dice=3"),
    ("white=24:15 black=24:15 turn=W play=13/10", "unknown word 'play=13/10'"),
    ("white=24:15 black=24:15 turn=W turn=B", "turn is given twice"),
    ("white=25:15 black=24:15 turn=W", "point 25 is outside 1..24"),
    ("white=24:10,24:5 black=24:15 turn=W", "point 24 is given twice"),
    ("white=24:16 black=24:15 turn=W", "16 checkers on point 24"),
    ("white=24-15 black=24:15 turn=W", "'24-15' is not point:count"),
    ("white=24:15 black=24:15 turn", "'turn' needs '=' and a value"),
    ("white=24:15 black=24:15 white-off=x turn=W", "white-off=x"),
    ("white=24:15 black=12:15 turn=W", "held by both sides"),
    ("white=24:13,18:2 black=24:15 turn=W first", "first: white is on roll with 13"),
    ("white=24:15 black=24:15 turn=W first=false", "its first turn"),
    ("white=24:15 black=24:15 turn=W first=0", "first=0: white is on roll with all 15"),
    ("white=24:15 black=24:15 turn=W first=yes", "first=yes: expected first"),
    ("white=24:13,18:2 black=24:15 turn=W first=1", "first: white is on roll with 13"),
    ("white= white-off=15 black= black-off=15 turn=W", "both sides have borne off"),
])
def test_refused_naming_the_word(line, words):
    with pytest.raises(ValueError) as e:
        Position.from_text(line)
    assert words in str(e.value) and "position line" in str(e.value)


def test_not_text():
    with pytest.raises(TypeError, match="expected str"):
        Position.from_text(None)
