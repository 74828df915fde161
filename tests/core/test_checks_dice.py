"""One parser of a roll (``core._checks.check_dice``): the forms every ``dice`` argument
takes ("65", "6-5", "6,5", "6 5", (6, 5)) and the junk it refuses by name."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import nardy_fast as nf
from nardy_fast.core._checks import check_dice

DIE = st.integers(1, 6)
JUNK = ["65x", "6--5", "x6x5x", "6", "654", "7-5", "0 5", "6 - 5", "6/5", "6x5", "", "six",
        "6-", "-65", "6\n\n5"]


@settings(max_examples=60, deadline=None)
@given(DIE, DIE, st.sampled_from(["", "-", ",", " "]), st.sampled_from(["", " ", "  "]))
def test_each_written_roll_reads_back(d1, d2, sep, pad):
    """A roll written in any accepted form reads back as itself; the pair too."""
    assert check_dice(f"{pad}{d1}{sep}{d2}{pad}") == (d1, d2)
    assert check_dice((d1, d2)) == check_dice([d1, d2]) == check_dice(np.array([d1, d2])) \
        == (d1, d2)


@settings(max_examples=80, deadline=None)
@given(st.text(alphabet="0123456789- ,x/:ab", max_size=6))
def test_a_text_is_read_only_when_it_is_a_roll(text):
    """Any text: accepted exactly when it is two dice 1..6, apart by at most one
    separator; otherwise refused, naming the text."""
    core = text.strip()
    is_roll = (len(core) in (2, 3) and core[0] in "123456" and core[-1] in "123456"
               and (len(core) == 2 or core[1] in "-, "))
    if is_roll:
        assert check_dice(text) == (int(core[0]), int(core[-1]))
    else:
        with pytest.raises(ValueError, match=f"dice={text!r}: expected two dice 1..6"):
            check_dice(text)


@pytest.mark.parametrize("junk", JUNK)
def test_junk_is_refused_by_name(junk):
    with pytest.raises(ValueError) as e:
        check_dice(junk)
    assert str(e.value).startswith(f"dice={junk!r}: expected two dice 1..6 as '65', '6-5'")


def test_the_core_s_dice_arguments_take_every_form():
    """``legal_moves``, ``play`` (with the move's text) and ``GameRecord.append`` read the
    text of a roll as the pair, and refuse the junk the command line used to take."""
    from nardy_fast.core._movegen import successors
    p = nf.Position.initial()
    want = p.legal_moves((6, 5))
    boards = successors(p.mover, p.opponent, 6, 5).tolist()
    for form in ("65", "6-5", "6 5", "6,5", [6, 5]):
        assert p.legal_moves(form) == want
        assert successors(p.mover, p.opponent, form).tolist() == boards
        assert p.play("1/7 7/12", dice=form) == p.play(want[0])
        assert nf.GameRecord().append(form, ()).turns[0].dice == (6, 5)
    for junk in ("65x", "6--5", "x6x5x"):
        with pytest.raises(ValueError, match=f"dice={junk!r}"):
            p.legal_moves(junk)
        with pytest.raises(ValueError, match=f"dice={junk!r}"):
            nf.GameRecord().append(junk)
