"""Positions: constructors and validation, IDs, legal moves and play, swap, pips, diagram."""
from __future__ import annotations

import base64
import copy
import pickle

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from helpers import START, dice, game_positions, hand_positions, pts, rules_variants
from nardy_fast import Move, Position, Rules, successors
from nardy_fast.core.position import bearoff_mask, contact_mask

from naive_net import positions_from_games


def any_position():
    return st.one_of(game_positions(), hand_positions())


def make_id(side, on_roll, opponent):
    """An ID written from the module's definition (independent of Position.id)."""
    raw = bytes(16 * a + b for a, b in zip(on_roll, opponent))
    return side + base64.urlsafe_b64encode(raw).decode()


# --- constructors and validation -----------------------------------------------------
def test_initial():
    p = Position.initial()
    assert p.side == "white"
    assert p.boards.shape == (2, 24) and p.boards.dtype == np.uint8
    assert p.boards.tolist() == [START, START]
    assert p.pips == (15 * 24, 15 * 24)
    assert p.off == (0, 0)
    assert not p.is_over() and not p.is_bearoff() and p.is_contact()


def test_from_boards_keeps_sides_and_colour():
    m, o = pts({1: 14, 12: 1}), START
    p = Position.from_boards(m, o, "black")
    assert p.mover.tolist() == m and p.opponent.tolist() == o
    assert p.side == "black"
    assert p.black.tolist() == m and p.white.tolist() == o


def test_boards_are_read_only_copies():
    m = np.array(START, np.uint8)
    p = Position.from_boards(m, START)
    m[0] = 3
    assert p.mover[0] == 15
    with pytest.raises(ValueError):
        p.boards[0, 0] = 1


@pytest.mark.parametrize("mover, opponent, words", [
    (pts({1: 16}), START, "mover point 1"),
    (START, pts({24: 16}), "opponent point 24"),
    ([15, -1] + [0] * 22, START, "mover point 2"),
    (pts({1: 10, 2: 6}), START, "16 checkers"),
    (START, pts({1: 15, 7: 1}), "16 checkers"),
    (pts({1: 14, 13: 1}), START, "both"),                      # mover 13 = opponent 1
    (pts({20: 1}), pts({8: 1}), "both"),                       # mover 20 = opponent 8
    (START[:23], START, "shape"),
])
def test_from_boards_rejects_invalid(mover, opponent, words):
    with pytest.raises(ValueError, match=words):
        Position.from_boards(mover, opponent)


@pytest.mark.parametrize("side", ["White", "w", "red", None, 0])
def test_bad_side(side):
    with pytest.raises(ValueError, match="side"):
        Position.from_boards(START, START, side)


def test_non_integer_boards_rejected():
    with pytest.raises(TypeError):
        Position.from_boards([15.0] + [0.0] * 23, START)


# --- IDs -----------------------------------------------------------------------------
def test_initial_id_by_definition():
    assert Position.initial().id == make_id("W", START, START)
    assert len(Position.initial().id) == 33


@given(any_position())
def test_id_round_trip(pos):
    assert Position.from_id(pos.id) == pos
    assert Position.from_id(pos.id).side == pos.side
    assert pos.id == make_id(pos.side[0].upper(), pos.mover.tolist(), pos.opponent.tolist())
    assert pos.id[0] in "WB" and len(pos.id) == 33
    assert set(pos.id[1:]) <= set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                                  "0123456789-_")


@given(any_position(), any_position())
def test_distinct_positions_have_distinct_ids(p, q):
    assert (p.id == q.id) == (p == q)


START_ID = make_id("W", START, START)


@pytest.mark.parametrize("text, words", [
    (START_ID[:-1], "33 characters"),                  # too short
    (START_ID + "A", "33 characters"),                 # too long
    ("", "33 characters"),
    ("w" + START_ID[1:], "'W' or 'B'"),                # bad side letter
    ("X" + START_ID[1:], "'W' or 'B'"),
    (START_ID[:5] + "*" + START_ID[6:], "base64"),     # bad character
    (START_ID[:5] + " " + START_ID[6:], "base64"),
    (START_ID[:-1] + "=", "URL-safe"),                 # padding is not in the alphabet
    ("W" + "_" * 32, "checkers"),                      # 15 + 15 on every point
    (make_id("W", pts({1: 14, 13: 1}), START), "both"),    # a point held by both sides
    (make_id("B", pts({1: 10, 2: 6}), START), "16"),       # too many checkers
])
def test_malformed_ids(text, words):
    with pytest.raises(ValueError, match=words) as info:
        Position.from_id(text)
    assert "position ID" in str(info.value)


@pytest.mark.parametrize("text", [None, 33, b"W" + b"A" * 32])
def test_id_wrong_type(text):
    with pytest.raises(TypeError, match="position ID"):
        Position.from_id(text)


def test_standard_base64_characters_rejected():
    """'+' and '/' would give a second ID for the same position."""
    text = START_ID.replace("_", "/", 1)
    with pytest.raises(ValueError, match="URL-safe"):
        Position.from_id(text)


# --- legal moves and play ------------------------------------------------------------
@given(game_positions(), dice(), rules_variants())
def test_legal_moves_match_successors(pos, roll, rules):
    d1, d2 = roll
    moves = pos.legal_moves((d1, d2), rules)
    want = sorted(successors(pos.mover, pos.opponent, d1, d2, rules).tolist())
    assert sorted(list(m.board) for m in moves) == want
    for m in moves:
        assert isinstance(m, Move)
        assert m.dice == (d1, d2) and m.origin == pos.id
        # the steps replay to the board
        b = pos.mover.astype(int).tolist()
        for f, t in m.steps:
            b[f - 1] -= 1
            if t != "off":
                assert t > f
                b[t - 1] += 1
        assert tuple(b) == m.board
        if not m.steps:
            assert str(m) == "pass" and list(m.board) == pos.mover.tolist()
        after = pos.play(m)
        assert after.side != pos.side
        assert after.mover.tolist() == pos.opponent.tolist()
        assert after.opponent.tolist() == list(m.board)


def test_play_checks_its_argument():
    p = Position.initial()
    q = Position.from_boards(pts({1: 14, 12: 1}), START, "black")
    move = q.legal_moves((2, 1))[0]
    with pytest.raises(ValueError, match="generated for"):
        p.play(move)
    with pytest.raises(TypeError, match="Move"):
        p.play(tuple(move.board))


def test_legal_moves_bad_dice():
    with pytest.raises(ValueError, match=r"dice\[1\]"):
        Position.initial().legal_moves((3, 0))
    with pytest.raises(ValueError, match="dice"):
        Position.initial().legal_moves((3, 4, 5))


def test_legal_moves_old_two_dice_form_is_refused():
    """``legal_moves(6, 3, rules)``, the form before 0.3.0, is a TypeError, not a roll; the
    two-argument form is named with its replacement (it said only "dice=6: expected two
    dice", which does not tell the reader what to write)."""
    pos = Position.initial()
    with pytest.raises(TypeError, match=r"legal_moves\(\(6, 3\)\)"):
        pos.legal_moves(6, 3)
    with pytest.raises(TypeError, match="dice=7: expected two dice"):
        pos.legal_moves(7, 3)                   # not a die: the roll's own message
    with pytest.raises(TypeError):
        pos.legal_moves(6, 3, Rules(head_rule="generalized"))


def test_a_whole_game_by_play():
    import random
    rng = random.Random(7)
    p = Position.initial()
    for _ in range(400):
        if p.is_over():
            break
        moves = p.legal_moves((rng.randint(1, 6), rng.randint(1, 6)))
        q = p.play(rng.choice(moves))
        assert sum(q.off) >= sum(p.off)
        p = q
    assert p.is_over()
    assert 15 in p.off


@pytest.mark.parametrize("boards, side, rules, words", [
    # White finished, Black on roll: no last turn without draw_rule
    ((pts({24: 1}), [0] * 24), "black", None,
     "white has borne off all 15 checkers, and black gets no last turn"),
    # the side on roll has finished: it cannot be on roll again
    (([0] * 24, pts({24: 1})), "white", None, "white, on roll, has already borne off"),
    (([0] * 24, pts({24: 1})), "white", Rules(draw_rule=True), "white, on roll, has"),
])
def test_a_finished_game_has_no_legal_moves(boards, side, rules, words):
    """Its moves would lead to no position (it returned a move, which hint ranked +1.0)."""
    p = Position.from_boards(*boards, side)
    assert p.is_over()
    with pytest.raises(ValueError, match=f"position {p.id}: the game is over: {words}"):
        p.legal_moves((6, 5), rules)


def test_blacks_last_turn_under_draw_rule_has_its_moves():
    p = Position.from_boards(pts({24: 1}), [0] * 24, "black")    # White has finished
    assert [m.steps for m in p.legal_moves((6, 5), Rules(draw_rule=True))] == [
        ((24, "off"),)]


# --- swap, pips, classification ------------------------------------------------------
@given(any_position())
def test_swap(pos):
    s = pos.swap()
    assert s.side != pos.side
    assert s.mover.tolist() == pos.opponent.tolist()
    assert s.opponent.tolist() == pos.mover.tolist()
    assert s.white.tolist() == pos.white.tolist() and s.black.tolist() == pos.black.tolist()
    assert s.swap() == pos
    assert s.pips == pos.pips[::-1] and s.off == pos.off[::-1]


@given(any_position())
def test_pips_and_off(pos):
    for row, pip, off in zip(pos.boards, pos.pips, pos.off):
        assert pip == sum(int(n) * (25 - (i + 1)) for i, n in enumerate(row))
        assert off == 15 - int(row.sum())


def test_pips_by_hand():
    p = Position.from_boards(pts({19: 2, 24: 1}), pts({1: 1, 13: 1}))
    assert p.pips == (2 * 6 + 1, 24 + 12)
    assert p.off == (12, 13)


def test_classification():
    home = pts({19: 5, 24: 5})
    assert Position.from_boards(home, home).is_bearoff()
    assert not Position.from_boards(home, pts({18: 1})).is_bearoff()
    assert not Position.from_boards(home, pts({13: 3})).is_contact()
    assert Position.from_boards(home, pts({11: 3})).is_contact()    # mover 23
    assert Position.from_boards([0] * 24, START).is_over()


def test_contact_mask_is_is_contact_board_by_board():
    """The vectorised form, on the boards of two games (every phase) and hand-made ones:
    the same answer as ``is_contact``, for any leading shape."""
    home = pts({19: 5, 24: 5})
    made = np.stack([np.stack([home, pts({13: 3})]), np.stack([home, pts({11: 3})]),
                     np.stack([pts({12: 1, 19: 14}), pts({13: 15})])]).astype(np.uint8)
    b = np.concatenate([positions_from_games(2, seed=4), made])
    want = [Position.from_boards(x[0], x[1]).is_contact() for x in b]
    assert want[-3:] == [False, True, True] and want.count(False) > 3
    assert contact_mask(b).tolist() == want
    even = len(b) // 2 * 2                            # boards in pairs: shape (m, 2, 2, 24)
    assert contact_mask(b[:even].reshape(-1, 2, 2, 24)).reshape(-1).tolist() == want[:even]
    assert contact_mask(b[-1]).shape == () and bool(contact_mask(b[-1]))


def test_bearoff_mask_is_is_bearoff_board_by_board():
    """The same for the bear-off (both sides entirely home): boards of two games played
    into the bear-off and hand-made ones, the same answer as ``is_bearoff``."""
    home = pts({19: 5, 24: 5})
    made = np.stack([np.stack([home, pts({24: 3})]), np.stack([home, pts({18: 1, 24: 2})]),
                     np.stack([pts({11: 1, 19: 14}), home])]).astype(np.uint8)
    b = np.concatenate([positions_from_games(2, seed=4), made])
    want = [Position.from_boards(x[0], x[1]).is_bearoff() for x in b]
    assert want[-3:] == [True, False, False]
    assert bearoff_mask(b).tolist() == want
    assert bearoff_mask(b[-3]).shape == () and bool(bearoff_mask(b[-3]))


# --- diagram, equality, pickling -----------------------------------------------------
@given(any_position())
def test_diagram_shows_both_numberings(pos):
    text = pos.diagram()
    rows = text.splitlines()
    numbers = [r for r in rows if r.split()[0] in ("white", "black")
               and all(x.isdigit() or x == "|" for x in r.split()[1:])]
    white = [r for r in numbers if r.startswith("white")]
    black = [r for r in numbers if r.startswith("black")]
    assert len(white) == 2 and len(black) == 2
    # each column: White's point p above/below Black's point p + 12 (wrapped)
    seen = []
    for w, b in [(white[0], black[0]), (white[1], black[1])]:
        wn = [int(x) for x in w.split()[1:] if x != "|"]
        bn = [int(x) for x in b.split()[1:] if x != "|"]
        assert len(wn) == len(bn) == 12
        for wp, bp in zip(wn, bn):
            assert bp == (wp + 11) % 24 + 1
        seen += wn
    assert sorted(seen) == list(range(1, 25))
    assert pos.side in text and pos.id in text
    assert str(pos.pips[0]) in text


def test_diagram_start_cells():
    text = Position.initial().diagram()
    assert "W15" in text and "B15" in text


@given(any_position())
def test_pickle_copy_and_hash(pos):
    q = pickle.loads(pickle.dumps(pos))
    assert q == pos and hash(q) == hash(pos) and q.side == pos.side
    assert copy.deepcopy(pos) == pos
    assert pos != pos.swap()
    assert eval(repr(pos), {"Position": Position}) == pos


def test_equality_with_other_types():
    assert Position.initial() != Position.initial().id
    assert len({Position.initial(), Position.initial()}) == 1


def test_position_list_reads_one_position_or_an_iterable_of_them():
    """One reading of a ``positions`` argument: an ID is one position (it was read as 33
    one-character IDs: "positions[0]: position ID 'W': expected 33 characters"), a single
    Position one position (it was "'Position' object is not iterable")."""
    import pandas as pd
    from nardy_fast.core.position import position_list
    start = Position.initial()
    assert position_list(start) == [start] and position_list(start.id) == [start]
    assert position_list(p for p in [start, start]) == [start, start]
    assert position_list(pd.Series(["start", start.id], index=[7, 8])) == [start, start]
    assert position_list(pd.Index([start.id])) == [start]
    assert position_list(np.stack([start.boards])) == [start]
    assert position_list([]) == []
    for bad in (5, None):
        with pytest.raises(TypeError, match=r"^positions: expected a Position, a position "
                                            r"ID or an iterable of them, got "):
            position_list(bad)
    with pytest.raises(ValueError, match=r"^positions\[1\]: position ID 'x'"):
        position_list([start, "x"])


def test_a_frame_of_positions_is_refused_naming_its_index_and_columns():
    """A DataFrame iterates over its column names: a frame keyed by position ID (or with
    a column of IDs) was read as the IDs 'p_win', 'equity', ... ("positions[0]: position
    ID 'p_win': expected 33 characters")."""
    import pandas as pd
    from nardy_fast.core.position import position_list
    frame = pd.DataFrame({"position": [Position.initial().id], "equity": [0.2]})
    with pytest.raises(TypeError, match=r"^positions: a DataFrame.*index.*column"):
        position_list(frame)
    assert position_list(frame["position"]) == [Position.initial()]


def test_position_items_are_the_items_not_yet_read():
    """``position_items`` is ``position_list``'s reading of the argument's shape alone (a
    study skips reading the IDs its store has already checked): one Position or ID is one
    item, a Series gives its values, a bad item passes unread, a non-iterable is named."""
    import pandas as pd
    from nardy_fast.core.position import position_items
    start = Position.initial()
    assert position_items(start) == [start] and position_items(start.id) == [start.id]
    assert position_items(pd.Series(["x", start.id], index=[7, 8])) == ["x", start.id]
    assert position_items(iter(["x"])) == ["x"]
    with pytest.raises(TypeError, match=r"^store_ids: expected a Position, a position ID "
                                        r"or an iterable of them, got NoneType$"):
        position_items(None, "store_ids")


def test_is_over_under_rules_keeps_blacks_last_turn():
    """White off, Black on roll: over under the classic rules, Black's last turn under
    draw_rule (``legal_moves`` gives it moves).  Without rules ``is_over`` is the classic
    answer, as before; callers that hold rules (the environments, the engine, the duel)
    pass them, and refused that position as over."""
    last = Position.from_id("BAAAAAAAAAAAAAAAAAAAAAAAAMAAAAAAA")
    draw = Rules(draw_rule=True)
    assert last.is_over() and last.is_over(Rules())
    assert not last.is_over(draw) and not last.is_over("draw_rule=true")
    assert last.legal_moves((6, 6), draw)[0].steps
    white_done = Position.from_id("WAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAQ")   # Black has finished
    assert white_done.is_over(draw)                 # White gets no last turn
    assert not Position.initial().is_over(draw)


def test_a_huge_text_read_as_an_id_is_not_copied_whole_into_the_message():
    """A file read as one position ID (``nardy-fast study FILE`` of a 60 MB file with no
    line break) gave an error message holding the whole file; now the message shows the
    text's start and its length."""
    text = "W" + "A" * 10 ** 6
    with pytest.raises(ValueError) as e:
        Position.from_id(text)
    msg = str(e.value)
    assert len(msg) < 200, len(msg)
    assert msg.startswith("position ID 'WAAAA") and "1,000,001 characters" in msg
    assert "expected 33 characters" in msg
    with pytest.raises(ValueError, match=r"^position ID 'Wxyz': expected 33 characters, "
                                         r"got 4$"):
        Position.from_id("Wxyz")


def test_one_helper_cuts_every_long_text_a_message_quotes():
    """``_shown``, the one helper of the package's messages (positions, records, a duel's
    answers): the text quoted whole up to ``limit`` characters, else its start and its
    own length; ``quote=False`` for a text that is a message already."""
    from nardy_fast.core.position import _shown
    assert _shown("1/7") == "'1/7'" and _shown("1/7", quote=False) == "1/7"
    assert _shown("x" * 40) == repr("x" * 40)
    assert _shown("ab" * 3000, 4) == "'abab'... (6,000 characters)"
    assert _shown("ab" * 3000, 4, quote=False) == "abab... (6,000 characters)"
