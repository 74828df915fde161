"""Move marks (``report.mark``, ``report.MARKS``) at, just below and just above each threshold.

The thresholds are the documented ones (README, "The evaluator"; ``report.py``'s column
list): a move losing at least 0.04 points is "doubtful", at least 0.08 an "error", at
least 0.16 a "blunder"; the mark is the highest threshold reached, "" below them all.
They are written out here, not read from ``MARKS``.
"""
import math

import pytest

from nardy_fast.analysis import report
from nardy_fast.core.record import random_game

# (threshold in points, the mark from it on), lowest first: from the documentation
DOCUMENTED = [(0.04, "doubtful"), (0.08, "error"), (0.16, "blunder")]
EPS = 1e-9


def expected_mark(loss):
    """The mark by the documented rule: the highest threshold reached."""
    out = ""
    for threshold, name in DOCUMENTED:
        if loss >= threshold:
            out = name
    return out


def test_marks_table_is_the_documented_one():
    assert [(t, n) for n, t in report.MARKS] == DOCUMENTED


@pytest.mark.parametrize("k", range(len(DOCUMENTED)))
def test_each_threshold_below_at_and_above(k):
    threshold, name = DOCUMENTED[k]
    below = DOCUMENTED[k - 1][1] if k else ""
    assert report.mark(threshold - EPS) == below
    assert report.mark(threshold) == name
    assert report.mark(threshold + EPS) == name
    # just below the next threshold the mark is still this one
    top = DOCUMENTED[k + 1][0] if k + 1 < len(DOCUMENTED) else 10.0
    assert report.mark(top - EPS) == name


@pytest.mark.parametrize("loss, want", [
    (0.0, ""), (-0.01, ""), (0.5, "blunder"), (2.0, "blunder"), (math.nan, ""),
])
def test_marks_far_from_the_thresholds(loss, want):
    assert report.mark(loss) == want


@pytest.fixture(scope="module")
def analysed():
    """An analysed game of random moves (many of them bad), evaluator at 0-ply."""
    rec = random_game(seed=31, max_turns=60)
    return report.game_report(rec, analyse=True)


def test_game_report_marks_follow_the_equity_loss(analysed):
    rows = analysed[analysed["move"] != ""]
    assert len(rows) > 20
    for r in rows.itertuples():
        assert r.mark == expected_mark(r.equity_loss), (r.turn, r.equity_loss, r.mark)
    # a random game has moves of every kind: each mark is exercised
    assert {expected_mark(x) for x in rows["equity_loss"]} >= {"", "doubtful", "error",
                                                               "blunder"}


def test_error_rates_count_each_mark(analysed):
    rates = report.error_rates(analysed)
    dec = analysed[(analysed["move"] != "") & (analysed["n_moves"] > 1)]
    for side in rates.index:
        mine = dec[dec["side"] == side]["equity_loss"]
        for _, name in DOCUMENTED:
            want = sum(expected_mark(x) == name for x in mine)
            assert rates.loc[side, "n_" + name] == want, (side, name)

