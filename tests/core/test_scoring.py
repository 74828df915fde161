"""One scoring function (``_scoring.score_game``) for the C game loop and the record replay.

Finished positions (the winner has borne off its last checker; random loser boards of 1..15
checkers, spread over the whole board, the first quarter, the home or the rest) are scored
twice, under every combination of the rule choices and flags: by the rollout's C game loop
(a one-game rollout from the position one checker earlier, where any roll finishes) and by
replaying the same finish as a game record.  Kind and points must agree, and both must
agree with the rule book's definitions written out here.  Black's last turn under
``draw_rule`` is checked the same way.
"""
from itertools import product

import numpy as np
import pytest

from nardy_fast import Position, Rules
# private on purpose: the C game loop's scoring itself
from nardy_fast.engine.play._rollout import QUANTITIES, play_blocks
from nardy_fast.engine.play.policy import LoopPolicy
from nardy_fast.core._scoring import gives_last_turn, ruled_out_kinds, score_loss
from nardy_fast.core.record import GameRecord, Turn
from nardy_fast.core.rules import CHOICES, CUBE_FIELDS, FLAGS

# the cubeless fields (a game with the cube is won at the stake: test_cube.py)
NAMES = [n for n in list(CHOICES) + list(FLAGS) if n not in CUBE_FIELDS]
VARIANTS = [Rules(**dict(zip(NAMES, values)),
                  oin_points=1.0, mars_points=2.5, koks_points=3.5, home_mars_points=5.0)
            for values in product(*[CHOICES.get(n, (False, True)) for n in NAMES])]
Q = {name: k for k, name in enumerate(QUANTITIES)}


def loser_boards(rng, n):
    """Random loser boards with nothing on idx 11 (the winner's last checker stands there)."""
    regions = [np.r_[0:11, 12:24], np.arange(0, 6), np.arange(18, 24), np.r_[6:11, 12:18]]
    out = []
    for _ in range(n):
        count = 15 if rng.random() < 0.6 else int(rng.integers(1, 15))
        pts = regions[int(rng.integers(len(regions)))]
        b = np.zeros(24, np.uint8)
        np.add.at(b, rng.choice(pts, size=count), 1)
        out.append(b)
    return out


def rule_book_kind(loser):
    """Rule book section 7, written out: oin, koks, home mars or mars."""
    if loser.sum() < 15:
        return "oin"
    if loser[:6].any():
        return "koks"
    return "home_mars" if loser[18:].sum() == 15 else "mars"


RANDOM = LoopPolicy("random")


def one_game(boards, rules, side0_white, seed=1):
    """Per-game quantities of one game played by the C loop from boards (side 0 on roll)."""
    tally, _ = play_blocks(np.asarray(boards, np.uint8), rules=rules,
                           policies=(RANDOM, RANDOM), side0_white=side0_white, dice=None,
                           opening_dice=False, truncate=False, tables=None, entropy=seed,
                           first_block=0, n_blocks=1, n_games=1, block_games=1)
    sums = tally[0].sum(axis=0)
    assert sums[0] == 1
    return {name: sums[1 + k] for name, k in Q.items()}


def winner_one_off():
    b = np.zeros(24, np.uint8)
    b[23] = 1                                   # its point 24: any roll bears it off
    return b


@pytest.mark.parametrize("rules", VARIANTS, ids=lambda r: r.to_text())
def test_c_loop_and_record_replay_score_alike(rules):
    rng = np.random.default_rng(abs(hash(rules.to_text())) % 2**32)
    for loser in loser_boards(rng, 20):
        # Black finishes (no last turn for White), so both paths score `loser` as it is
        start = Position.from_boards(winner_one_off(), loser, "black")
        record = GameRecord(rules=rules, start=start, turns=[Turn("black", (6, 5),
                                                                   ((24, "off"),))])
        res = record.result()
        kind = rule_book_kind(loser)
        assert res == {"winner": "black", "kind": kind, "points": rules.points(kind)}
        assert score_loss(loser, rules) == (kind, rules.points(kind))
        v = one_game([winner_one_off(), loser], rules, side0_white=False)
        assert v["p_win"] == 1 and v["equity"] == rules.points(kind)
        assert v["p_mars_win"] == (kind != "oin")
        assert v["p_koks_win"] == (kind == "koks")
        assert v["p_home_mars_win"] == (kind == "home_mars")


@pytest.mark.parametrize("draw_rule", [False, True])
def test_blacks_last_turn_alike(draw_rule):
    """White finishes first; Black, one checker from home, finishes in its last turn only
    under draw_rule: a draw in both paths, else White's oin."""
    rules = Rules(draw_rule=draw_rule)
    black = winner_one_off()
    start = Position.from_boards(winner_one_off(), black, "white")
    turns = [Turn("white", (3, 1), ((24, "off"),))]
    if draw_rule:
        turns.append(Turn("black", (2, 2), ((24, "off"),)))
    res = GameRecord(rules=rules, start=start, turns=turns).result()
    v = one_game([winner_one_off(), black], rules, side0_white=True)
    assert gives_last_turn(rules, True) == draw_rule
    assert not gives_last_turn(rules, False)
    if draw_rule:
        assert res == {"winner": None, "kind": "draw", "points": 0.0}
        assert v["p_draw"] == 1 and v["equity"] == 0 and v["p_win"] == 0
    else:
        assert res == {"winner": "white", "kind": "oin", "points": 1.0}
        assert v["p_win"] == 1 and v["equity"] == 1


def test_kinds_ruled_out_by_the_board():
    """``ruled_out_kinds``, the one rule the net's outputs (in C) and the projections (in
    Python) follow, against the rule book written out: a loser with a checker off can only
    lose an oin; one with no checker on its points 1-6 can never be koksed, since
    checkers only move forward; otherwise nothing is ruled out.  The kind its board
    scores now is never among them, unless an oin."""
    rng = np.random.default_rng(45)
    seen = set()
    for loser in loser_boards(rng, 400):
        ruled = ruled_out_kinds(loser)
        if loser.sum() < 15:
            expected = ("mars", "koks", "home_mars")
        elif not loser[:6].any():
            expected = ("koks",)
        else:
            expected = ()
        assert ruled == expected, loser
        assert score_loss(loser)[0] not in ruled
        seen.add(expected)
    assert len(seen) == 3
    with pytest.raises(ValueError, match="loser"):
        ruled_out_kinds(np.zeros(23, np.uint8))
