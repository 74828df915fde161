"""Shared-dice strength matches (``nardy_fast.engine.play.strength.play_match``): symmetry (a
player against itself scores exactly zero) and the net against greedy."""
import numpy as np

from nardy_fast.engine.play.strength import play_match


def test_shared_dice_cancel_between_equal_players():
    m = play_match("greedy", "greedy", 60, seed=2, workers=1, progress=False)
    np.testing.assert_array_equal(m["points"][:, 0], -m["points"][:, 1])
    assert m["ppg"] == 0.0 and m["win_rate"] == 0.5


def test_net_beats_greedy():
    m = play_match("net", "greedy", 200, seed=4, workers=1, progress=False)
    assert m["games"] == 200
    assert m["win_rate"] > 0.6 and m["ppg"] > 3 * m["se_ppg"]


def test_vs_greedy_names_an_evaluator_that_is_not_one():
    """``vs_greedy("net", ...)`` failed deep inside with "'str' object has no attribute
    'rules'"; it names ``evaluator`` now (the function takes an Evaluator, ``play_match``
    a player's name)."""
    import pytest

    from nardy_fast.engine.play.strength import vs_greedy
    for bad in ("net", None):
        with pytest.raises(TypeError, match=r"vs_greedy: evaluator=.*expected an Evaluator"):
            vs_greedy(bad, 2, 1)
