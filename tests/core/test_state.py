"""The evaluator's input check of raw boards (``core._state.check_boards``): every row at
once in C (``_movegen.first_bad_position``), and the first bad row named with the move
generator's own message (``check_position``)."""
import re

import numpy as np
import pytest

import nardy_fast as nf
from nardy_fast.core._movegen import check_position, first_bad_position
from nardy_fast.core._state import check_boards, unreachable_rows


def _positions(n, seed):
    """n positions of games going on, from seeded random games (side on roll first)."""
    out = []
    for g in range(n):
        rec = nf.random_game(seed=seed + g)
        out += [p.boards for p in rec.positions() if not p.is_over()][::7]
    return np.array(out[:n], dtype=np.uint8)


def _plain_first_bad(boards):
    """The first bad row by the per-row rules, written out plainly."""
    for k, (m, o) in enumerate(boards):
        try:
            check_position(m, o)
        except ValueError:
            return k
        if not m.any() or not o.any():
            return k
    return -1


def test_good_boards_pass_as_uint8():
    b = _positions(40, 1)
    out = check_boards(b.astype(np.int64))
    assert out.dtype == np.uint8 and out.flags.c_contiguous and np.array_equal(out, b)
    assert first_bad_position(b) == -1
    assert check_boards(b[0]).shape == (1, 2, 24)


@pytest.mark.parametrize("shape", [(29, 48), (2, 25), (5, 24, 2), (48,), (3, 2, 2, 24)])
def test_a_wrong_shape_is_named_as_given(shape):
    """A 2-D array is read as one position: its wrong shape was named with the axis
    added for it (``got (1, 29, 48)`` for boards of shape (29, 48))."""
    with pytest.raises(ValueError, match=rf"got {re.escape(str(shape))}$"):
        check_boards(np.zeros(shape, np.uint8))


@pytest.mark.parametrize("spoil, message", [
    (lambda b: b.__setitem__((0, 3), 16), "mover point 4: 16 checkers"),
    (lambda b: b.__setitem__((1, 0), 0) or b.__setitem__(1, 0), "the game is over"),
    (lambda b: b.__setitem__(0, 0), "the game is over"),
])
def test_the_first_bad_row_is_named_with_its_error(spoil, message):
    b = _positions(30, 2)
    bad = b[17].copy()
    spoil(bad)
    b[17] = bad
    b[25] = bad
    with pytest.raises(ValueError, match=rf"^boards\[17\]: .*{message}"):
        check_boards(b)
    assert first_bad_position(b) == _plain_first_bad(b) == 17


def test_a_point_held_by_both_sides_and_counts_uint8_cannot_hold():
    b = _positions(10, 3).astype(np.int64)
    both = b.copy()
    m, o = both[4]
    i = int(np.flatnonzero(m)[0])
    o[(i + 12) % 24] += 1
    o[np.flatnonzero(o)[-1]] -= 1 if o.sum() > 15 else 0
    with pytest.raises(ValueError, match=r"^boards\[4\]: .*held by both sides"):
        check_boards(both)
    wide = b.copy()
    wide[6, 0, 0] = 300                                  # 300 would wrap to 44 in uint8
    with pytest.raises(ValueError, match=r"^boards\[6\]: "):
        check_boards(wide)
    neg = b.copy()
    neg[2, 1, 5] = -1
    with pytest.raises(ValueError, match=r"^boards\[2\]: "):
        check_boards(neg)


def test_the_c_check_agrees_with_the_rules_row_by_row():
    rng = np.random.default_rng(11)
    for _ in range(200):
        b = rng.integers(0, 3, size=(5, 2, 24)).astype(np.uint8)
        b[rng.random(5) < 0.3, 1] = 0
        assert first_bad_position(b) == _plain_first_bad(b)


def test_unreachable_rows_are_the_boards_no_game_reaches():
    """A side bears off only with every checker home, and a checker home stays there: a
    board with a checker off and one outside the home (points 1-18) is reached by no game,
    whichever side it is; a race of both homes, a bear-off, or 15 checkers anywhere are."""
    start = np.zeros(24, np.uint8)
    start[0] = 15
    home13 = np.zeros(24, np.uint8)
    home13[18:20] = [6, 7]                 # 13 home, 2 off: a bear-off under way
    out = home13.copy()
    out[17] = 1                            # and one more on point 18, outside: unreachable
    out[18] -= 1
    rows = np.array([[start, start], [home13, start], [out, start], [start, out],
                     [home13, home13], [out, out]], dtype=np.uint8)
    assert unreachable_rows(rows).tolist() == [2, 3, 5]
    assert unreachable_rows(rows[:2]).tolist() == []
