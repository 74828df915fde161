"""The reports' match columns are ``met.with_match`` of the evaluator's Outcome (the one
home of an Outcome at a match score; the engine's side is in tests/engine/decisions/test_valuation.py)."""
from nardy_fast.analysis.report import win_report
from nardy_fast.core.matchrules import MatchState
from nardy_fast.core.record import random_game
from nardy_fast.engine.evaluation import met
from nardy_fast.engine.evaluation.evaluator import Evaluator


def test_win_report_at_a_score_is_with_match_of_the_evaluator():
    ps = [p for p in random_game(seed=3, max_turns=16).positions() if not p.is_bearoff()]
    pos = ps[-1]
    want = met.with_match(Evaluator.default().evaluate(pos), MatchState(5, (2, 3), pos.side))
    other = MatchState(5, (2, 3), "black" if pos.side == "white" else "white")
    row = win_report(pos, method="net", match=other).iloc[0]     # by colour: flipped
    assert row["mwc"] == want.extra["mwc"] and row["emg"] == want.extra["emg"]


def test_a_game_at_a_score_values_its_turns_at_the_cube_they_are_played_with():
    """In a match game whose raise was taken, every turn after the take was valued as if
    the game were still played for 1 point: ``mwc`` and the moves' ``mwc_loss`` (and so
    their ranking and ``emg_loss``) ignored the cube at 2.  They are valued at the cube
    of the turn; ``emg_loss`` stays on the scale of the game's start, as the cube
    decisions' losses are."""
    import pytest
    from nardy_fast.analysis.report import game_report, move_report
    from nardy_fast.core.matchrules import MatchRules
    from nardy_fast.core.record import parse_record
    from nardy_fast.core.rules import Rules
    rec = parse_record('; [Rules "cube=geometric"]\n'
                       "  1) 62: 1/7 7/9                     54: 1/6 6/10\n"
                       "  2) Doubles => 2                    Takes\n"
                       "  3) 33: 1/4 4/7 9/12 12/15          31: 1/4 4/5\n")
    mr = MatchRules(length=3, crawford=True, rules=Rules(cube="geometric"))
    gr = game_report(rec, analyse=True, match=MatchState(mr, (0, 0), "white"))
    positions, cubes = rec.positions(), rec.cube_states()
    for k in (2, 3):                                   # the turns after the take
        pos, turn = positions[k], rec.turns[k]
        state = MatchState(mr, (0, 0), pos.side, cube=cubes[k])
        assert state.stake == 2
        v = met.outcome_values(state)
        p = gr["p_win"][k]
        assert gr["mwc"][k] == pytest.approx(p * v["win_oin"] + (1 - p) * v["loss_oin"])
        moves = move_report(pos, turn.dice, match=state)
        played = moves.loc[moves["id_after"] == positions[k + 1].id, "mwc_loss"]
        assert gr["mwc_loss"][k] == pytest.approx(float(played.iloc[0]))
        start = MatchState(mr, (0, 0), pos.side)
        assert gr["emg_loss"][k] == pytest.approx(gr["mwc_loss"][k] * met.emg_scale(start))
