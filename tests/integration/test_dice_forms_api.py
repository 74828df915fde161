"""Every public function taking ``dice`` reads the roll by the one parser
(``core._checks.check_dice``): the text "65", "6-5", "6 5" as the pair (6, 5), and junk
refused naming it."""
import pytest

import nardy_fast as nf
from nardy_fast.engine.play.luck import roll_luck

FORMS = ("65", "6-5", "6 5", (6, 5))
JUNK = ("65x", "6--5", "x6x5x")


def test_engine_and_analysis_take_every_form_of_a_roll():
    ev = nf.Evaluator.default()
    p = nf.Position.initial()
    hint = ev.hint(p, (6, 5))
    rep = nf.move_report(p, (6, 5))
    for form in FORMS:
        assert ev.hint(p, form).equals(hint)
        assert ev.best_move(p, form) == ev.best_move(p, (6, 5))
        assert roll_luck(p, form, ev) == roll_luck(p, (6, 5), ev)
        assert nf.move_report(p, form).equals(rep)
    for junk in JUNK:
        for call in (lambda: ev.hint(p, junk), lambda: ev.best_move(p, junk),
                     lambda: roll_luck(p, junk, ev),
                     lambda: nf.move_report(p, junk),
                     lambda: nf.rollout(p, 8, dice=junk, workers=1)):
            with pytest.raises(ValueError, match=f"dice={junk!r}: expected two dice 1..6"):
                call()
