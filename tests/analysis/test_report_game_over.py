"""The move report of a drawing last turn (the draw rule; the finished positions
themselves: tests/core/test_position_game_states.py)."""
import numpy as np
import pytest

from nardy_fast import Position, Rules
from nardy_fast.analysis.report import move_report

from helpers import board

DRAW = Rules(draw_rule=True)
EMPTY = np.zeros(24, np.uint8)
LAST = board(p24=1)                     # one checker on the last point


def test_move_report_scores_a_drawing_last_turn_as_a_draw():
    pos = Position.from_boards(LAST, EMPTY, "black")     # White has finished
    mr = move_report(pos, (3, 1), rules=DRAW, workers=1)
    assert list(mr["id_after"]) == [""] and float(mr["p_draw"].iloc[0]) == 1.0
    assert float(mr["equity"].iloc[0]) == 0.0
    with pytest.raises(ValueError, match="both sides have borne off"):
        pos.play(pos.legal_moves((3, 1), DRAW)[0])        # a result, not a position
    with pytest.raises(ValueError, match="the game is over: white has borne off all 15 "
                                         r"checkers, and black gets no last turn \(draw_rule "
                                         r"is off\)"):
        pos.legal_moves((3, 1))                          # no last turn without draw_rule
