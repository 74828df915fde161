"""The one Python game loop (nardy_fast.core.gameloop): the first turn's dice by the
vocabulary's name ``dice`` (``first_dice``, its name before 0.3.0, refused)."""
import numpy as np
import pytest

from nardy_fast import GameRecord
from nardy_fast.core.gameloop import play_turns


def first(pos, dice, moves):
    return moves[0]


def game(seed, **kw):
    rng = np.random.default_rng(seed)
    return play_turns(GameRecord(), first, rng, max_turns=6, **kw)


def test_dice_is_the_first_turns_roll():
    rec = game(5, dice=(6, 5))
    assert rec.turns[0].dice == (6, 5)
    thrown = game(5)
    assert thrown.turns[0].dice != (6, 5)           # this seed throws another first roll
    assert [t.dice for t in rec.turns[1:]] == [t.dice for t in thrown.turns[:5]]


def test_first_dice_the_old_name_of_dice_is_refused():
    with pytest.raises(TypeError, match="first_dice"):
        game(5, first_dice=(6, 5))


def test_a_choice_of_none_stops_the_game():
    """``choose`` returning None (a player who quits) ends the loop there."""
    calls = []

    def quits_at_third(pos, dice, moves):
        calls.append(dice)
        return None if len(calls) == 3 else moves[0]
    rec = play_turns(GameRecord(), quits_at_third, np.random.default_rng(1))
    assert len(rec.turns) == 2 and len(calls) == 3


def test_before_roll_can_end_the_game():
    """``before_roll`` returning True (a dropped raise) ends the loop before the roll."""
    seen = []

    def drop_at_third(pos):
        seen.append(pos)
        return len(seen) == 3
    rec = play_turns(GameRecord(), first, np.random.default_rng(1), before_roll=drop_at_third)
    assert len(rec.turns) == 2 and len(seen) == 3
