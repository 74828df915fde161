"""A study store's standard error columns: each is the rollout's own (issue 26, item 9:
``se_p_lose`` was NaN)."""
import math

import pytest

pytest.importorskip("pyarrow")

import nardy_fast as nf  # noqa: E402
from nardy_fast.analysis.study import QUANTITIES, position_seed  # noqa: E402

IDS = ["WlgAAAAEAEQACAQAAAAAAAAAQABAAAhIg"]
GAMES = 72


def test_every_probability_column_has_its_rollouts_standard_error(tmp_path):
    frame = nf.study(IDS, GAMES, store=tmp_path / "s", seed=4, workers=1, policy="greedy",
                     progress=False)
    o = nf.rollout(IDS[0], GAMES, seed=position_seed(4, IDS[0]), policy="greedy",
                   workers=1, progress=False)
    row = frame.loc[IDS[0]]
    for q in QUANTITIES:
        se = row["se_" + q]
        assert not math.isnan(se), q
        assert se == getattr(o, "se_" + q), q
        assert 0.0 <= row[q] <= 1.0, q
    assert row["se_p_lose"] > 0            # a contact position: not a sure loss


def test_report_frames_give_every_probability_its_standard_error():
    """win_report showed p_lose (and the extended and draw probabilities) without an SE
    column; each now has the rollout's own."""
    rules = nf.Rules(scoring="extended", draw_rule=True)
    frame = nf.win_report([IDS[0]], method="rollout", n_games=GAMES, seed=2, rules=rules,
                          policy="greedy", workers=1)
    o = nf.rollout(IDS[0], GAMES, seed=2, rules=rules, policy="greedy", workers=1,
                   progress=False)
    for q in QUANTITIES:
        assert q in frame.columns and "se_" + q in frame.columns, q
        assert frame["se_" + q].iloc[0] == getattr(o, "se_" + q), q
