"""The end of a game (``nardy_fast.core.finish``): who won and by what, and the value of a
finished position for the side on roll, as the rule book scores it (section 7: an oin,
the loser has borne off a checker, is 1 point; a loss with none off is a mars, 2 points,
and under extended scoring a koks 3 and a home mars 4).  (Every kind of finish in records
and the C game loop: tests/core/test_record_cube.py; Black's last turn under the draw
rule: tests/core/test_position_game_states.py.)"""
import numpy as np
import pytest

from nardy_fast import Position, Rules
from nardy_fast.core.finish import final_outcome, game_result

from helpers import board

EMPTY = np.zeros(24, np.uint8)


def finished(loser_board):
    """White has just borne off its last checker; Black, on roll, has ``loser_board``."""
    return Position.from_boards(loser_board, EMPTY, "black")


def test_a_game_in_play_has_no_result():
    assert game_result(Position.initial()) is None
    with pytest.raises(ValueError, match="not over"):
        final_outcome(Position.initial())


def test_an_oin_is_one_point_to_the_side_that_finished():
    p = finished(board(p24=1))                      # Black has borne off 14
    assert game_result(p) == {"winner": "white", "kind": "oin", "points": 1.0}
    # the side named as finisher must be the one with no checkers left
    assert game_result(p, finisher="black") is None
    o = final_outcome(p)
    assert (o.p_win, o.p_lose, o.p_mars_loss, o.equity, o.method) == (0.0, 1.0, 0.0, -1.0,
                                                                      "final")


# rule book, section 7: none off is a mars; a koks when a checker is still on the loser's
# points 1-6, a home mars when all 15 are in its home (19-24); points classic and extended
@pytest.mark.parametrize("loser, kind, classic, extended", [
    (board(p13=15), "mars", 2.0, 2.0),
    (board(p1=1, p13=14), "koks", 2.0, 3.0),
    (board(p19=5, p24=10), "home_mars", 2.0, 4.0)])
def test_a_loss_with_no_checker_off_is_a_mars_of_its_kind(loser, kind, classic, extended):
    for scoring, points in (("classic", classic), ("extended", extended)):
        rules = Rules(scoring=scoring)
        assert game_result(finished(loser), rules) == {"winner": "white", "kind": kind,
                                                       "points": points}
        o = final_outcome(finished(loser), rules)
        assert (o.p_lose, o.p_mars_loss, o.equity) == (1.0, 1.0, -points)
        assert (o.p_koks_loss, o.p_home_mars_loss) == (float(kind == "koks"),
                                                       float(kind == "home_mars"))
