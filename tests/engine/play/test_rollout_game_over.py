"""A rollout cannot start from a finished game, and says why (the finished positions
themselves: tests/core/test_position_game_states.py)."""
import numpy as np
import pytest

import nardy_fast as nf
from nardy_fast import Position, Rules

from helpers import board

DRAW = Rules(draw_rule=True)
EMPTY = np.zeros(24, np.uint8)
LAST = board(p24=1)                     # one checker on the last point


@pytest.mark.parametrize("m, o, side, rules, why", [
    (LAST, EMPTY, "white", Rules(), "black has borne off all 15 checkers, and white gets "
                                    "no last turn"),
    (LAST, EMPTY, "white", DRAW, "black has borne off all 15 checkers, and white gets no"),
    (LAST, EMPTY, "black", Rules(), "white has borne off all 15 checkers, and black gets "
                                    "no last turn \\(draw_rule is off\\)"),
    (LAST, EMPTY, "black", DRAW, ": black's last turn \\(draw_rule\\): rollouts start"),
    (EMPTY, LAST, "white", Rules(), "the game is over: white, on roll, has already borne off all 15"),
    (EMPTY, LAST, "black", DRAW, "black, on roll, has already borne off all 15"),
])
def test_rollout_says_why_the_game_is_over(m, o, side, rules, why):
    with pytest.raises(ValueError, match=why):
        nf.rollout(Position.from_boards(m, o, side), 10, rules=rules, workers=1,
                   progress=False, truncate=None)
