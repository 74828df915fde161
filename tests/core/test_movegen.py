"""The legal move generator (``nardy_fast.successors``) against the rule book.

- the worked examples of the rule book, section 9, with the results written out by hand;
- every public test vector (exact set of successors), for the generator and for the naive
  reference of ``naive.py``;
- invariants on random legal positions (checkers conserved, no landing on the opponent,
  the head limit, no forbidden block, as many dice as possible, the larger die, distinct
  results, dice order irrelevant);
- agreement with ``naive.py`` under every rules variant: a base class and one subclass per
  variant, on positions from random games, block-building games, near-blocks and hand set-ups;
- bad input: clear ``ValueError`` / ``TypeError`` naming the problem.
"""
from __future__ import annotations

import json
from itertools import permutations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import naive
from helpers import (ALL_VARIANTS, START, VECTORS, block_positions, dice, first_turn_positions,
                     game_positions, hand_positions, pts, roll_pairs, rules_variants)
from nardy_fast import CLASSIC, Position, Rules, successors
# private on purpose: the C generator's steps, checked move by move against its boards
from nardy_fast.core._movegen import successors_with_steps



def gen(mover, opponent, d1, d2, rules=None):
    """Sorted successor boards as lists (the vectors' format)."""
    return sorted(successors(mover, opponent, d1, d2, rules).tolist())


def pips(board):
    return sum(int(n) * (24 - i) for i, n in enumerate(board))


# --- rule book section 9: worked examples, results by hand --------------------------
WORKED = [
    # (name, mover, opponent, roll, expected results)
    ("1: start 6-6, two checkers to 7", START, START, (6, 6), [pts({1: 13, 7: 2})]),
    ("2: start 4-4, two checkers to 9", START, START, (4, 4), [pts({1: 13, 9: 2})]),
    ("3: start 3-3, 1+3 or 2+2", START, START, (3, 3),
     [pts({1: 13, 4: 1, 10: 1}), pts({1: 13, 7: 2})]),
    ("4: start 6-5, one checker to 12", START, START, (6, 5), [pts({1: 14, 12: 1})]),
    ("5: Black 4-4 after White's 5-5, stopped on 5", START, pts({1: 14, 21: 1}), (4, 4),
     [pts({1: 14, 5: 1})]),
    ("6: larger die", pts({5: 1, 24: 14}), START, (6, 2), [pts({11: 1, 24: 14})]),
]


@pytest.mark.parametrize("name, mover, opponent, roll, expected", WORKED,
                         ids=[w[0].split(":")[0] for w in WORKED])
@pytest.mark.parametrize("order", ["as given", "swapped"])
def test_worked_examples(name, mover, opponent, roll, expected, order):
    d1, d2 = roll if order == "as given" else roll[::-1]
    assert gen(mover, opponent, d1, d2) == sorted(expected)
    assert naive.naive_successors(mover, opponent, d1, d2) == sorted(expected)


def test_worked_example_5_follows_example_of_white():
    # White's 5-5 from the start puts one checker on White 21 (= Black 9), nothing else
    # (one checker from the head: 1 -> 6 -> 11 -> 16 -> 21).
    assert gen(START, START, 5, 5) == [pts({1: 14, 21: 1})]


def test_position_level_worked_example_1():
    moves = Position.initial().legal_moves((6, 6))
    assert [list(m.board) for m in moves] == [pts({1: 13, 7: 2})]
    assert sorted(m.steps for m in moves) == [((1, 7), (1, 7))]


# --- the public vectors ----------------------------------------------------------------
def _load_vectors():
    with open(VECTORS) as f:
        return [json.loads(line) for line in f]


CASES = _load_vectors()


def test_vectors_present():
    assert len(CASES) >= 400
    assert {tuple(sorted(c["dice"])) for c in CASES} == \
        {(a, b) for a in range(1, 7) for b in range(a, 7)}


@pytest.mark.parametrize("case", CASES, ids=[f"{i}-{c['tag']}" for i, c in enumerate(CASES)])
def test_public_vector(case):
    rules = Rules.from_dict(case["rules"])
    d1, d2 = case["dice"]
    assert gen(case["mover"], case["opponent"], d1, d2, rules) == case["successors"]
    assert gen(case["mover"], case["opponent"], d2, d1, case["rules"]) == case["successors"]


@pytest.mark.parametrize("case", CASES, ids=[f"{i}-{c['tag']}" for i, c in enumerate(CASES)])
def test_naive_on_public_vector(case):
    d1, d2 = case["dice"]
    assert naive.naive_successors(case["mover"], case["opponent"], d1, d2,
                                  case["rules"]) == case["successors"]


def test_naive_block_windows_by_hand():
    # opponent points k..k+5 in mover idx (rule book sections 1 and 4)
    assert naive.window_points(1) == [12, 13, 14, 15, 16, 17]     # mover 13..18
    assert naive.window_points(10) == [21, 22, 23, 0, 1, 2]       # mover 22..24, 1..3
    assert naive.window_points(19) == [6, 7, 8, 9, 10, 11]        # mover 7..12
    # mover 10..15 straddles the opponent's 24/1 seam: no window
    assert all(sorted(naive.window_points(k)) != list(range(9, 15)) for k in range(1, 20))


# --- hand-made rule cases (results by hand from the rule book) --------------------------
# The window k = 3 of the opponent's path (opponent points 3..8) is mover points 15..20.
WINDOW_15_20 = range(14, 20)
# 14 -> 20 with the 6 completes it (the 1 can then go 1 -> 2 or 14 -> 15).
NEAR_BLOCK = pts({1: 8, 14: 2, 15: 1, 16: 1, 17: 1, 18: 1, 19: 1})


def _holds(board, idxs):
    return all(board[i] for i in idxs)


def test_block_with_every_opponent_checker_behind_is_forbidden():
    behind = pts({1: 15})                     # all on opponent 1 (mover 13), behind 3..8
    res = gen(NEAR_BLOCK, behind, 6, 1)
    assert res and not any(_holds(b, WINDOW_15_20) for b in res)
    assert any(_holds(b, WINDOW_15_20) for b in gen(NEAR_BLOCK, behind, 6, 1,
                                                     Rules(block_rule="none")))


@pytest.mark.parametrize("opponent", [
    pts({1: 14, 9: 1}),                       # opponent 9 > 8: a checker ahead
    pts({1: 14}),                             # one opponent checker borne off
], ids=["checker ahead", "checker off"])
def test_block_with_a_checker_ahead_or_off_is_allowed(opponent):
    assert any(_holds(b, WINDOW_15_20) for b in gen(NEAR_BLOCK, opponent, 6, 1))


def test_block_rule_home_needs_a_checker_in_the_opponent_home():
    ahead_not_home = pts({1: 14, 9: 1})       # ahead of 3..8, but not in opponent 19..24
    res = gen(NEAR_BLOCK, ahead_not_home, 6, 1, Rules(block_rule="home"))
    assert res and not any(_holds(b, WINDOW_15_20) for b in res)
    in_home = pts({1: 14, 20: 1})             # opponent 20 = mover 8
    res = gen(NEAR_BLOCK, in_home, 6, 1, Rules(block_rule="home"))
    assert any(_holds(b, WINDOW_15_20) for b in res)


def test_six_points_across_the_opponent_seam_are_not_a_block():
    # mover 10..15 = opponent 22, 23, 24, 1, 2, 3: not six consecutive points of the
    # opponent's path, so completing them with 9 -> 13 is never forbidden.
    mover = pts({9: 2, 10: 1, 11: 1, 12: 1, 14: 2, 15: 2, 24: 6})
    opponent = pts({4: 15})                   # opponent 4 = mover 16
    res = gen(mover, opponent, 4, 4)
    assert any(_holds(b, range(9, 15)) for b in res)
    assert res == gen(mover, opponent, 4, 4, Rules(block_rule="none"))


def test_six_points_across_the_mover_seam_are_a_block():
    # mover 22, 23, 24, 1, 2, 3 = opponent 10..15, a block.  Every opponent checker is on
    # its points 1, 2 (behind) and none is off: 19 -> 24 with a 5 may not complete it.
    mover = pts({1: 1, 2: 1, 3: 1, 22: 1, 23: 1, 19: 10})
    opponent = pts({1: 10, 2: 5})
    seam = [21, 22, 23, 0, 1, 2]
    for d1, d2 in [(5, 5), (5, 1), (5, 2)]:
        assert not any(_holds(b, seam) for b in gen(mover, opponent, d1, d2)), (d1, d2)
    assert any(_holds(b, seam) for b in gen(mover, opponent, 5, 5, Rules(block_rule="none")))


def test_pass_keeps_the_board():
    # the opponent holds mover points 2..7 (its points 14..19): neither die can be played
    opponent = pts({14: 1, 15: 1, 16: 1, 17: 1, 18: 1, 19: 1, 1: 9})
    assert gen(START, opponent, 1, 6) == [START]
    assert naive.naive_successors(START, opponent, 1, 6) == [START]


def test_bear_off_by_exact_and_higher_die():
    # 3 takes 22 off exactly, 6 (higher than any) takes the farthest checker; the other
    # die then takes a checker off 24.  A 3 cannot take 24 off while 22 is occupied.
    assert gen(pts({22: 1, 24: 2}), START, 6, 3) == [pts({24: 1})]


def test_die_must_be_played_inside_the_home():
    # a 2 would bear off from 23 (empty) but 19 is farther from the edge: the 2 must be
    # played inside the home.  Plays: 19->21->22, 19->20->22, 19->21 and 24 off (1).
    assert gen(pts({19: 1, 24: 1}), START, 2, 1) == sorted([pts({22: 1, 24: 1}),
                                                            pts({21: 1})])


def test_enter_home_then_bear_off():
    # 17->19 brings the side home, then the 5 bears off from 20; or 17->19->24 / 17->22->24;
    # or 17->22 and 20->22.
    assert gen(pts({17: 1, 20: 14}), START, 2, 5) == sorted([
        pts({19: 1, 20: 13}), pts({20: 14, 24: 1}), pts({20: 13, 22: 2})])


def test_larger_die_rule_off_lets_the_mover_choose():
    # worked example 6 without the larger-die rule: 5 -> 11 or 5 -> 7
    mover = pts({5: 1, 24: 14})
    expected = sorted([pts({11: 1, 24: 14}), pts({7: 1, 24: 14})])
    assert gen(mover, START, 6, 2, Rules(larger_die_rule=False)) == expected


# --- invariants ----------------------------------------------------------------------
def _steps_list(row):
    return [(int(row[2 * k]), int(row[2 * k + 1])) for k in range(4) if row[2 * k] != 255]


def _dice_fit(steps, roll):
    """An assignment of roll dice to steps: each exact, or a bear-off by a higher die."""
    for perm in set(permutations(roll, len(steps))):
        if all(t - f == d or (t == 24 and f + d > 24) for (f, t), d in zip(steps, perm)):
            return perm
    return None


def check_invariants(mover, opponent, d1, d2, rules):
    rules = rules or CLASSIC
    mover = np.asarray(mover, np.uint8)
    opponent = np.asarray(opponent, np.uint8)
    boards, steps = successors_with_steps(mover, opponent, d1, d2, rules)
    roll = [d1] * 4 if d1 == d2 else [d1, d2]
    assert len(boards) >= 1
    # distinct results; the same set as successors(); the same for [b, a]
    assert len({b.tobytes() for b in boards}) == len(boards)
    assert sorted(boards.tolist()) == gen(mover, opponent, d1, d2, rules)
    assert gen(mover, opponent, d2, d1, rules) == gen(mover, opponent, d1, d2, rules)

    lists = [_steps_list(s) for s in steps]
    used = {len(s) for s in lists}
    assert len(used) == 1, f"results use different numbers of dice: {used}"
    n_used = used.pop()
    if n_used == 0:                                       # a pass
        assert boards.tolist() == [mover.tolist()]
    limit = naive.head_limit(mover.tolist(), opponent.tolist(), d1, d2, rules.head_rule)
    exempt = naive.held_windows(mover.tolist())

    def forbidden(b):
        return naive.has_forbidden_block(list(b), opponent.tolist(), rules.block_rule, exempt)

    for b, st_ in zip(boards, lists):
        # replay: every step moves an own checker forward to an open point or off
        cur = mover.astype(int).copy()
        for f, t in st_:
            assert cur[f] > 0, (st_, "moves a checker that is not there")
            cur[f] -= 1
            if t != 24:
                assert opponent[(t + 12) % 24] == 0, ("lands on the opponent", st_)
                cur[t] += 1
            else:
                assert not cur[:18].any(), ("bears off with a checker outside the home", st_)
            if not rules.block_transient:
                assert not forbidden(cur), ("forbidden block in passing", st_)
        assert cur.tolist() == b.tolist()
        perm = _dice_fit(st_, roll)
        assert perm is not None, ("steps do not match the dice", st_, roll)
        # conservation: count changes only by bear-offs; pips fall by the dice used
        n_off = sum(t == 24 for _, t in st_)
        assert int(b.sum()) == int(mover.sum()) - n_off
        drop = pips(mover) - pips(b)
        if n_off == 0:
            assert drop == sum(perm)
        else:
            assert drop <= sum(perm)
        # never on an opponent point
        assert not any(b[i] and opponent[(i + 12) % 24] for i in range(24))
        # the head: one checker, two only by the first-turn exception
        left = int(mover[0]) - int(b[0])
        assert left <= 1 or (left == 2 and mover[0] == 15 and d1 == d2 and
                             (rules.head_rule == "generalized" or d1 in (3, 4, 6)))
        # no forbidden block at the end
        assert not forbidden(b)
        # as many dice as possible: no remaining die could still be played
        if n_used < len(roll):
            rest = list(roll)
            for d in perm:
                rest.remove(d)
            heads = int(mover[0]) - int(b[0])
            for d in set(rest):
                for src in range(24):
                    t = naive.step_target(list(b), opponent.tolist(), src, d)
                    if t is None or (src == 0 and heads + 1 > limit):
                        continue
                    nb = naive.apply_step(list(b), src, t)
                    assert forbidden(nb), (f"die {d} still playable from {src + 1}", b)
    # the larger die when only one die is played
    if d1 != d2 and n_used == 1 and rules.larger_die_rule:
        big = max(d1, d2)
        big_ok = []
        for src in range(24):
            t = naive.step_target(mover.tolist(), opponent.tolist(), src, big)
            if t is not None and not forbidden(naive.apply_step(mover.tolist(), src, t)):
                big_ok.append(naive.apply_step(mover.tolist(), src, t))
        if big_ok:
            assert {tuple(b) for b in boards.tolist()} == {tuple(b) for b in big_ok}


@given(game_positions(), dice())
def test_invariants_classic_games(pos, roll):
    check_invariants(pos.mover, pos.opponent, *roll, CLASSIC)


@given(st.data(), rules_variants(), dice())
def test_invariants_variants(data, rules, roll):
    pos = data.draw(game_positions(rules=rules))
    check_invariants(pos.mover, pos.opponent, *roll, rules)


@pytest.mark.slow
@given(block_positions(), dice(), rules_variants())
def test_invariants_near_blocks(pos, roll, rules):
    check_invariants(pos.mover, pos.opponent, *roll, rules)


@given(game_positions(phases=("bearoff",)), dice(), rules_variants())
def test_invariants_bear_off(pos, roll, rules):
    check_invariants(pos.mover, pos.opponent, *roll, rules)


@pytest.mark.slow
@given(hand_positions(), dice(), rules_variants())
def test_invariants_hand_positions(pos, roll, rules):
    check_invariants(pos.mover, pos.opponent, *roll, rules)


@given(game_positions(), roll_pairs(), rules_variants())
def test_dice_order_irrelevant(pos, roll, rules):
    a, b = roll
    assert gen(pos.mover, pos.opponent, a, b, rules) == gen(pos.mover, pos.opponent, b, a, rules)


def test_first_turn_head_limit_all_rolls():
    # the start: two checkers leave the head for 6-6, 4-4, 3-3 only, else one
    for a in range(1, 7):
        for b in range(a, 7):
            for res in gen(START, START, a, b):
                left = 15 - res[0]
                assert left == (2 if a == b and a in (3, 4, 6) else 1), (a, b, res)


# --- agreement with naive.py, one subclass per rules variant ------------------------
class AgreesWithNaive:
    """Base: the generator equals naive.py under ``rules`` (set by each subclass)."""

    rules = CLASSIC

    def check(self, pos, roll):
        d1, d2 = roll
        want = naive.naive_successors(pos.mover, pos.opponent, d1, d2, self.rules)
        got = gen(pos.mover, pos.opponent, d1, d2, self.rules)
        assert got == want, (f"mover={pos.mover.tolist()} opponent={pos.opponent.tolist()} "
                             f"dice={roll} rules={self.rules}")

    @given(st.data(), dice())
    def test_random_games(self, data, roll):
        self.check(data.draw(game_positions(rules=self.rules)), roll)

    @pytest.mark.slow
    @given(st.data(), dice())
    def test_block_building_games(self, data, roll):
        self.check(data.draw(game_positions(rules=self.rules, policy="build")), roll)

    @pytest.mark.slow
    @given(block_positions(), dice())
    def test_near_blocks(self, pos, roll):
        self.check(pos, roll)

    @given(st.data(), dice())
    def test_bear_off(self, data, roll):
        self.check(data.draw(game_positions(rules=self.rules, phases=("bearoff",))), roll)

    @pytest.mark.slow
    @given(hand_positions(), dice())
    def test_hand_positions(self, pos, roll):
        self.check(pos, roll)

    @pytest.mark.slow
    @given(first_turn_positions(), dice())
    def test_first_turn_setups(self, pos, roll):
        self.check(pos, roll)

    def test_first_turns(self):
        # the mover's start against the start and every position after one opponent turn
        opponents = {tuple(START)}
        for a in range(1, 7):
            for b in range(a, 7):
                opponents.update(map(tuple, gen(START, START, a, b, self.rules)))
        for opp in sorted(opponents):
            pos = Position.from_boards(START, opp, "black")
            for a in range(1, 7):
                for b in range(a, 7):
                    self.check(pos, (a, b))


class TestClassic(AgreesWithNaive):
    rules = CLASSIC


class TestGeneralizedHead(AgreesWithNaive):
    rules = Rules(head_rule="generalized")


class TestBlockHome(AgreesWithNaive):
    rules = Rules(block_rule="home")


class TestBlockNone(AgreesWithNaive):
    rules = Rules(block_rule="none")


class TestBlockTransient(AgreesWithNaive):
    rules = Rules(block_transient=True)


class TestBlockHomeTransient(AgreesWithNaive):
    rules = Rules(block_rule="home", block_transient=True)


class TestNoLargerDie(AgreesWithNaive):
    rules = Rules(larger_die_rule=False)


class TestAllNonDefault(AgreesWithNaive):
    rules = Rules(head_rule="generalized", block_rule="home", block_transient=True,
                  larger_die_rule=False)


def test_variant_classes_cover_every_field_value():
    classes = AgreesWithNaive.__subclasses__()
    for field in ("head_rule", "block_rule", "block_transient", "larger_die_rule"):
        values = {getattr(c.rules, field) for c in classes}
        assert values == {getattr(r, field) for r in ALL_VARIANTS}, field


# --- bad input -----------------------------------------------------------------------
GOOD = START


@pytest.mark.parametrize("board, exc, words", [
    ([15] + [0] * 22, ValueError, "shape"),
    ([15] + [0] * 24, ValueError, "shape"),
    ([[15] + [0] * 23] * 2, ValueError, "shape"),
    ([16] + [0] * 23, ValueError, "point 1: 16 checkers"),
    ([14, -1] + [0] * 22, ValueError, "point 2: -1 checkers"),
    ([0] * 23 + [200], ValueError, "point 24: 200 checkers"),
    ([8] * 2 + [0] * 22, ValueError, "16 checkers"),
    ([15.0] + [0.0] * 23, TypeError, "integer"),
    (["a"] * 24, TypeError, "integer"),
    (None, TypeError, "integer"),
])
@pytest.mark.parametrize("which", ["mover", "opponent"])
def test_bad_board(board, exc, words, which):
    args = (board, GOOD) if which == "mover" else (GOOD, board)
    with pytest.raises(exc) as info:
        successors(*args, 3, 1)
    msg = str(info.value)
    assert words in msg and which in msg


def test_both_sides_on_one_point():
    # mover point 13 is the opponent's point 1 (its head)
    with pytest.raises(ValueError, match="both") as info:
        successors(pts({1: 14, 13: 1}), START, 3, 1)
    assert "13" in str(info.value)
    with pytest.raises(ValueError, match="both"):
        successors(pts({5: 1}), pts({17: 1}), 3, 1)


@pytest.mark.parametrize("d1, d2, exc, where", [
    (0, 3, ValueError, "dice[0]"),
    (3, 7, ValueError, "dice[1]"),
    (-1, 3, ValueError, "dice[0]"),
    (2.0, 3, TypeError, "dice[0]"),
    (3, 1.5, TypeError, "dice[1]"),
    ("3", 1, TypeError, "dice[0]"),
    (True, 1, TypeError, "dice[0]"),
    (None, 1, TypeError, "dice[0]"),
])
def test_bad_dice(d1, d2, exc, where):
    with pytest.raises(exc) as info:
        successors(START, START, d1, d2)
    assert where in str(info.value)


def test_numpy_integer_dice_accepted():
    assert gen(START, START, np.int64(6), np.uint8(5)) == gen(START, START, 6, 5)


@pytest.mark.parametrize("rules, exc, words", [
    ({"head_rule": "clasic"}, ValueError, "head_rule"),
    ({"block_rule": "always"}, ValueError, "block_rule"),
    ({"block_transient": "yes"}, TypeError, "block_transient"),
    ({"larger_die_rule": 1}, TypeError, "larger_die_rule"),
    ({"no_such_rule": True}, ValueError, "no_such_rule"),
    ("modern", ValueError, "modern"),
    (42, TypeError, "rules"),
])
def test_bad_rules(rules, exc, words):
    with pytest.raises(exc) as info:
        successors(START, START, 3, 1, rules)
    assert words in str(info.value)


def test_rules_as_dict_or_object_agree():
    mover, opp = pts({1: 14, 5: 1}), pts({1: 14, 21: 1})
    for r in ALL_VARIANTS:
        d = {k: getattr(r, k) for k in ("head_rule", "block_rule", "block_transient",
                                        "larger_die_rule")}
        assert gen(mover, opp, 4, 4, r) == gen(mover, opp, 4, 4, d)


def test_inputs_not_modified():
    m = np.array(pts({1: 13, 7: 2}), np.uint8)
    o = np.array(START, np.uint8)
    m0, o0 = m.copy(), o.copy()
    successors(m, o, 6, 6)
    successors_with_steps(m, o, 2, 1)
    assert (m == m0).all() and (o == o0).all()


def test_output_type():
    out = successors(START, START, 2, 1)
    assert out.dtype == np.uint8 and out.ndim == 2 and out.shape[1] == 24


def test_successors_take_the_dice_as_a_pair_too():
    """The API's ``dice`` pair and the generator's ``d1, d2`` give the same results."""
    rules = Rules(head_rule="generalized")
    for d in ((6, 6), (3, 5), (1, 2)):
        np.testing.assert_array_equal(successors(START, START, d), successors(START, START, *d))
        np.testing.assert_array_equal(successors(START, START, d, rules),
                                      successors(START, START, *d, rules=rules))
        np.testing.assert_array_equal(successors(START, START, list(d), rules=rules),
                                      successors(START, START, d[0], d[1], rules))
        b, st_ = successors_with_steps(START, START, d, rules)
        np.testing.assert_array_equal(b, successors(START, START, d, rules))
    with pytest.raises(ValueError):
        successors(START, START, (7, 1))
    with pytest.raises(TypeError):
        successors(START, START, 6)
    with pytest.raises(TypeError):
        successors(START, START, (6, 1), rules, rules)
