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
