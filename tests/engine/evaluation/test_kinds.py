"""Kinds of contact positions (``engine.evaluation.kinds``) against a plain-loop reading of their
definition, on hand-made positions of each kind and on seeded boards with blocks of every
length at every start."""
from __future__ import annotations

import numpy as np
import pytest

from nardy_fast.engine.evaluation.kinds import KINDS, position_kind, position_kinds


def _runs(board):
    """(start index, length) of each run of held points of one board."""
    runs, i = [], 0
    while i < 24:
        if board[i]:
            j = i
            while j < 24 and board[j]:
                j += 1
            runs.append((i, j - i))
            i = j
        else:
            i += 1
    return runs


def plain_kind(b, ply):
    """The module docstring's definition, one position at a time in plain loops."""
    if ply > 24 and max(b[0][0], b[1][0]) >= 6:
        return "heavy_head"
    prime, trapped = False, False
    for s in (0, 1):
        other = b[1 - s]
        for start, length in _runs(b[s]):
            n_behind = sum(int(other[i]) for i in range((start + 12) % 24))
            if length >= 5 and n_behind >= 1:
                prime = True
            if length == 4 and n_behind >= 3:
                trapped = True
    if prime:
        return "prime"
    if trapped:
        return "trapped"
    pips = [sum(int(side[i]) * (24 - i) for i in range(24)) for side in b]
    if abs(pips[0] - pips[1]) >= 40:
        return "behind"
    return "plain"


def _board(me, opp):
    b = np.zeros((2, 24), dtype=np.uint8)
    for s, points in ((0, me), (1, opp)):
        for i, n in points.items():
            b[s, i] = n
    return b


# Hand-made positions (side on roll first, own numbering: index 0 is the head).
HEAD = _board({0: 7, 12: 2, 13: 2, 14: 2, 15: 2}, {0: 9, 12: 2, 13: 2, 14: 2})
# me holds 13..17 (5 points); opp's index of 13 is 1: its checker on 0 is behind
PRIME = _board({0: 5, 13: 2, 14: 2, 15: 2, 16: 2, 17: 2}, {0: 14, 5: 1})
# opp holds its 14..17 (4 points) = my 2..5; my 3 checkers on 0..1 are behind it
TRAPPED = _board({0: 2, 1: 1, 20: 12}, {14: 3, 15: 3, 16: 3, 17: 3, 23: 3})
BEHIND = _board({0: 11, 6: 4}, {20: 5, 21: 5, 22: 5})


@pytest.mark.parametrize("board, ply, expected", [
    (HEAD, 30, "heavy_head"), (HEAD, 24, "plain"), (PRIME, 10, "prime"),
    (TRAPPED, 10, "trapped"), (BEHIND, 10, "behind"), (BEHIND[::-1], 10, "behind")])
def test_hand_made_positions(board, ply, expected):
    assert plain_kind(board, ply) == expected
    assert position_kind(board, ply) == expected


def test_a_block_of_four_traps_only_three():
    b = TRAPPED.copy()
    b[0, 1], b[0, 2] = 0, 1            # a checker moved to my index 2: now on the block
    assert plain_kind(b, 10) == position_kind(b, 10) != "trapped"


def _seeded_boards(n, seed):
    """Boards with a run of every length 1..8 at every start, random other checkers."""
    rng = np.random.default_rng(seed)
    out = np.zeros((n, 2, 24), dtype=np.uint8)
    for k in range(n):
        for s in (0, 1):
            start, length = rng.integers(24), rng.integers(1, 9)
            for i in range(start, min(24, start + length)):
                out[k, s, i] = rng.integers(1, 3)
            left = 15 - int(out[k, s].sum())
            spots = rng.choice(24, size=rng.integers(1, 5), replace=False)
            for c in rng.multinomial(left, np.ones(len(spots)) / len(spots)).tolist():
                out[k, s, spots[0]] += c
                spots = spots[1:]
    return out


def test_every_kind_against_the_plain_loops():
    boards = _seeded_boards(3000, 25)
    plies = np.random.default_rng(26).integers(0, 60, len(boards))
    got = position_kinds(boards, plies)
    want = [plain_kind(b, int(p)) for b, p in zip(boards, plies)]
    assert [KINDS[k] for k in got] == want
    assert set(want) == set(KINDS)           # every kind is reached


def test_bad_shapes_are_named():
    with pytest.raises(ValueError, match="boards"):
        position_kinds(np.zeros((3, 24)), 0)
    with pytest.raises(ValueError, match="board"):
        position_kind(np.zeros((2, 23)), 0)
