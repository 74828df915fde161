"""A typed move against the legal ones (``core.position.read_move``): a step may join the
dice of one checker when the result is a legal move's ("1/7" for 5-1), and a refused
move names the rule that refuses it, found from the move generator's legal set."""
import dataclasses

import pytest

import nardy_fast as nf
from nardy_fast.core._movegen import successors, successors_with_steps
from nardy_fast.core.position import read_move
from nardy_fast.core.record import format_steps
from nardy_fast.core.rules import CLASSIC

ROLLS = [(a, b) for a in range(1, 7) for b in range(1, a + 1)]


def _positions(games=3, every=6):
    for seed in range(games):
        yield from nf.core.record.random_game(seed=seed, max_turns=60).positions()[::every]


def _joined(steps):
    """The steps with each checker's consecutive steps joined: 1/6 6/7 -> 1/7."""
    out = []
    for a, t in steps:
        if out and out[-1][1] == a and a != "off":
            out[-1] = (out[-1][0], t)
        else:
            out.append((a, t))
    return out


def test_a_joined_step_reads_as_the_legal_move_it_leaves():
    """Each legal move, written with its checkers' steps joined, reads back as itself."""
    joined = 0
    for pos in [nf.Position.initial(), *_positions(games=2, every=10)]:
        for dice in ROLLS:
            for m in pos.legal_moves(dice):
                text = format_steps(tuple(_joined(m.steps))) or "pass"
                joined += len(_joined(m.steps)) < len(m.steps)
                assert read_move(pos, text, dice) == m, (pos.id, dice, text)
    assert joined > 100
    start = nf.Position.initial()
    assert read_move(start, "1/7", (5, 1)) == read_move(start, "1/6 6/7", (5, 1))
    assert start.play("1/7", dice="51") == start.play("1/6 6/7", dice=(5, 1))


@pytest.mark.parametrize("text, dice, reason", [
    ("1/7 1/6", (6, 5), "the head rule: only one checker may leave the head this turn"),
    ("1/4(3) 4/7", (3, 3), "the head rule: at most 2 checkers may leave the head this turn"),
    ("1/7", (6, 5), "must play both dice"),
    ("pass", (6, 5), "must play both dice"),
    ("1/4(2)", (3, 3), "must play all four dice"),
    ("1/9", (6, 5), "step 1/9: moves 8 pips, dice left [5, 6]"),
    ("1/2", (2, 2), "step 1/2: moves 1 pip, dice left [2, 2, 2, 2]"),
])
def test_the_rule_that_refuses_a_move_at_the_start(text, dice, reason):
    with pytest.raises(ValueError) as e:
        read_move(nf.Position.initial(), text, dice)
    assert str(e.value) == f"not legal for {dice[0]}{dice[1]}: {reason}"


def test_text_that_is_no_move_says_so():
    with pytest.raises(ValueError, match=r"^not a move: step '7/'"):
        read_move(nf.Position.initial(), "1/7 7/", (6, 5))


def _block_maker():
    """The mover on its points 1 (10 checkers) and 2-6, the opponent all on its head: a
    checker to point 7 would make six points in a row with no opponent checker ahead."""
    mover, opponent = [0] * 24, [0] * 24
    mover[0], opponent[0] = 10, 15
    for p in range(1, 6):
        mover[p] = 1
    return nf.Position(mover, opponent)


@pytest.mark.parametrize("relaxed, reason", [
    (dict(block_rule="none"), "the six-block rule: six points in a row may be held only "
                              "with an opponent checker ahead of it"),
    (dict(larger_die_rule=False), "must play the larger die"),
])
def test_block_and_larger_die_are_named_where_the_generator_refuses_them(relaxed, reason):
    """Every move legal only once the rule is relaxed is refused naming that rule."""
    seen = 0
    for pos in [_block_maker(), *_positions()]:
        for d1, d2 in ROLLS:
            legal = {tuple(b) for b in successors(pos.mover, pos.opponent, d1, d2,
                                                  CLASSIC).tolist()}
            boards, steps = successors_with_steps(pos.mover, pos.opponent, d1, d2,
                                                  dataclasses.replace(CLASSIC, **relaxed))
            for b, s in zip(boards.tolist(), steps.tolist()):
                if tuple(b) in legal:
                    continue
                pairs = tuple((s[k] + 1, "off" if s[k + 1] == 24 else s[k + 1] + 1)
                              for k in range(0, 8, 2) if s[k] != 255)
                with pytest.raises(ValueError) as e:
                    read_move(pos, format_steps(pairs), (d1, d2))
                assert reason in str(e.value), (pos.id, d1, d2, pairs, str(e.value))
                seen += 1
    assert seen >= 3
