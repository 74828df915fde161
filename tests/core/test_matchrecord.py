"""``core.matchrecord``: a match transcript's score lines, checked with the range they
must be in."""
import pytest

from nardy_fast.core.matchrecord import read_match
from nardy_fast.core.record import RecordError


@pytest.mark.parametrize("score", [2, 5])
def test_a_first_score_past_the_match_names_the_range_it_must_be_in(tmp_path, score):
    """A 2-point match's first score line of 2 (or 5) said "each score must be in 0..2",
    though 2 is refused: 0..1."""
    path = tmp_path / "m.txt"
    path.write_text(" 2 point match\n\n Game 1\n"
                    f" Alice : 0                         Bob : {score}\n"
                    "  1) 34: 1/4 4/8\n")
    with pytest.raises(RecordError, match=r"each score must be in 0\.\.1 \(below the "
                       r"length, 2\)"):
        read_match(path).replay()
