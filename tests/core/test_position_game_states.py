"""Positions are states of a game: both sides off is rejected; one side off is a finished
game (or Black's last turn under draw_rule); a draw has no final position (rollouts from a
finished game: tests/engine/play/test_rollout_game_over.py)."""
import numpy as np
import pytest

from nardy_fast import GameRecord, Position, Rules
from nardy_fast.core.record import random_game

from helpers import board

DRAW = Rules(draw_rule=True)


EMPTY = np.zeros(24, np.uint8)
LAST = board(p24=1)                     # one checker on the last point


@pytest.mark.parametrize("text", ["W" + "A" * 32, "B" + "A" * 32])
def test_both_sides_off_is_rejected_with_the_reason(text):
    with pytest.raises(ValueError, match="both sides have borne off all 15 checkers: no "
                                         "game reaches this"):
        Position.from_id(text)
    with pytest.raises(ValueError, match="both sides have borne off"):
        Position.from_boards(EMPTY, EMPTY, "white" if text[0] == "W" else "black")


@pytest.mark.parametrize("side", ["white", "black"])
def test_one_side_off_is_a_finished_game(side):
    for m, o in ((LAST, EMPTY), (EMPTY, LAST)):
        p = Position.from_boards(m, o, side)
        assert p.is_over() and Position.from_id(p.id) == p


def last_race():
    return Position.from_boards(LAST, LAST, "white")


def test_a_draw_has_no_final_position():
    rec = GameRecord(rules=DRAW, start=last_race())
    rec.append((6, 5), ((24, "off"),))
    rec.append((3, 1), ((24, "off"),))
    assert rec.result() == {"winner": None, "kind": "draw", "points": 0.0}
    positions = rec.positions()
    assert len(positions) == 2                  # before each turn; none after the draw
    assert positions[1].side == "black" and positions[1].off == (14, 15)
    assert GameRecord.from_text(rec.to_text()).result()["kind"] == "draw"
    # without the draw rule White wins at once and the game has a final position
    rec = GameRecord(start=last_race())
    rec.append((6, 5), ((24, "off"),))
    assert rec.result()["winner"] == "white" and rec.final.is_over()


def test_random_games_under_the_draw_rule_end_in_valid_positions():
    kinds = set()
    for seed in range(40):
        rec = random_game(seed, rules=DRAW, start=last_race())
        kinds.add(rec.result()["kind"])
        for p in rec.positions():
            assert min(p.off) < 15
    assert "draw" in kinds
