"""A value from the net does not look exact (issue "Analysis a player can trust at a
glance": ``report ids.txt`` printed ``se_* = 0`` and ``ci95_low == ci95_high`` for net
values).  The convention: the net's standard errors are NaN (not measured), so it has
no confidence interval; exact tables keep 0 (exact), rollouts their measured errors."""
import math

import pandas as pd

import nardy_fast as nf
from nardy_fast.app import cli
from nardy_fast.core.result import NOT_MEASURED, PROBABILITIES
from nardy_fast.engine.decisions.valuation import value_positions

from helpers import ids_of

CONTACT = ids_of(2)
RACE = "BAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAn"     # a short race: the exact two-sided table


def test_the_evaluator_marks_its_errors_not_measured():
    for plies in (0, 1):
        (o,) = nf.Evaluator.default().outcomes(CONTACT[:1], plies=plies)
        assert o.method == f"net {plies}-ply" and o.games == 0
        assert all(math.isnan(getattr(o, "se_" + n)) for n in PROBABILITIES)
        assert math.isnan(o.se_equity)
        assert all(math.isnan(v) for v in o.ci95("equity") + o.ci95("p_win"))
        d = o.to_dict()
        assert math.isnan(d["ci95_equity_low"]) and math.isnan(d["ci95_p_win_high"])


def test_exact_values_keep_standard_errors_of_0_and_rollouts_theirs():
    (exact,) = value_positions([RACE], "auto")
    assert exact.method == "two_sided" and exact.se_equity == 0.0
    assert exact.ci95("equity") == (exact.equity, exact.equity)
    o = nf.rollout(CONTACT[0], 36, seed=1, workers=1, progress=False)
    assert o.se_equity > 0 and o.ci95("equity")[0] < o.equity < o.ci95("equity")[1]


def test_the_report_command_leaves_the_net_rows_errors_empty(tmp_path, capsys):
    ids = tmp_path / "ids.txt"
    ids.write_text("\n".join(CONTACT + [RACE]) + "\n")
    assert cli.main(["report", str(ids), "-o", str(tmp_path / "out")]) == 0
    capsys.readouterr()
    wr = pd.read_csv(tmp_path / "out" / "win_report.csv")
    net = wr[wr["method"].str.startswith("net")]
    exact = wr[wr["method"] == "two_sided"]
    assert len(net) == 2 and len(exact) == 1
    for col in ("se_p_win", "se_equity", "ci95_equity_low", "ci95_equity_high"):
        assert net[col].isna().all(), col                  # empty cells: not measured
        assert exact[col].notna().all(), col
    assert (exact["se_equity"] == 0).all()


def test_the_match_chance_of_a_net_value_has_no_standard_error():
    from nardy_fast.core.matchrules import MatchState
    side = nf.Position.from_id(CONTACT[0]).side
    (o,) = nf.Evaluator.default().outcomes(CONTACT[:1],
                                           match=MatchState(5, (1, 2), on_roll=side))
    assert 0 <= o.extra["mwc"] <= 1 and math.isnan(o.extra["se_mwc"])


def test_not_measured_names_every_standard_error():
    assert set(NOT_MEASURED) == {"se_" + n for n in PROBABILITIES + ("equity",)}


def test_a_one_sided_approximation_does_not_look_exact():
    """The one-sided tables' turns convolved are an approximation (two independent
    bear-offs): their errors are not measured either, where the exact tables' are 0."""
    import numpy as np
    me = np.zeros(24, int); me[18:24] = [3, 2, 2, 3, 3, 2]        # 15 checkers home
    you = np.zeros(24, int); you[18:24] = [2, 3, 3, 2, 2, 3]
    o = nf.race_probabilities(nf.Position(me, you))
    assert o.method == "one_sided"
    assert math.isnan(o.se_equity) and math.isnan(o.se_p_win)
    assert all(math.isnan(v) for v in o.ci95("equity"))
    (exact,) = value_positions([RACE], "auto")
    assert exact.se_equity == 0.0


def test_the_html_report_leaves_not_measured_cells_empty(tmp_path):
    """The HTML export shows a value that was not measured as an empty cell, as the CSV
    does, not as the word NaN."""
    ids = tmp_path / "ids.txt"
    ids.write_text("\n".join(CONTACT[:1] + [RACE]) + "\n")
    assert cli.main(["report", str(ids), "-o", str(tmp_path / "out")]) == 0
    page = (tmp_path / "out" / "win_report.html").read_text(encoding="utf-8")
    assert "NaN" not in page and "nan" not in page
    assert "net 0-ply" in page and "two_sided" in page
