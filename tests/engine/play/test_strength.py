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


def test_vs_greedy_says_the_games_and_standard_errors_of_its_figures():
    """The strength check of nardy-fast train logged a win rate and a points share against
    greedy without the games they rest on or their standard errors (its "games" is the
    training's games done): both come with it now, as play_match gives them."""
    from nardy_fast.engine.evaluation.evaluator import Evaluator
    from nardy_fast.engine.play.strength import vs_greedy
    ev = Evaluator.default()
    r = vs_greedy(ev, 7, 5)
    m = play_match(ev, "greedy", 7, seed=5, rules=ev.rules, workers=1, progress=False)
    assert r == {"vs_greedy_games": 8, "vs_greedy_win_rate": m["win_rate"],
                 "se_vs_greedy_win_rate": m["se_win_rate"],
                 "vs_greedy_points_share": m["points_share"],
                 "se_vs_greedy_points_share": m["se_points_share"]}
