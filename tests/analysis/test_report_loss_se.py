"""The standard error of a move's ``equity_loss`` (``se_equity_loss``): 0 where the values
are exact, NaN for the net, and for rollouts the paired one, from the per-game
differences of the two moves' games (``value_positions_paired``, ``rollout_games``)."""
import json
import math

import numpy as np
import pytest

import nardy_fast as nf
from nardy_fast.analysis.page import to_html
from nardy_fast.engine.decisions.valuation import value_positions_paired

ROLL = dict(method="rollout", n_games=144, seed=3, policy="greedy", truncate=None,
            workers=1, progress=False)


def contact():
    return nf.random_game(seed=3, policy="greedy").positions()[12]


def test_a_rollout_move_report_gives_the_paired_error_of_each_loss():
    pos = contact()
    mr = nf.move_report(pos, (4, 2), **ROLL)
    assert mr["se_equity_loss"].iloc[0] == 0.0                 # the best against itself
    afters = [nf.Position.from_id(i) for i in mr["id_after"]]
    rg = nf.rollout_games(afters, 144, seed=3, policy="greedy", truncate=None, workers=1,
                          progress=False)
    for k in range(1, len(mr)):
        d, se = rg.difference(0, k)
        assert mr["equity_loss"].iloc[k] == pytest.approx(-d, abs=1e-12)   # mover's view
        assert mr["se_equity_loss"].iloc[k] == pytest.approx(se, rel=1e-12)
        bound = mr["se_equity"].iloc[0] + mr["se_equity"].iloc[k]
        assert 0 < mr["se_equity_loss"].iloc[k] < bound
    assert list(mr.columns[:7]) == ["rank", "move", "id_after", "method", "equity",
                                    "equity_loss", "se_equity_loss"]


def test_exact_approximate_and_net_losses():
    few = nf.Position.from_boards([0] * 18 + [0, 2, 0, 1, 1, 1], [0] * 18 + [0, 0, 1, 1, 0, 2])
    exact = nf.move_report(few, (6, 3))                        # the two-sided table
    assert (exact["method"] == "two_sided").all() and len(exact) > 1
    assert (exact["se_equity_loss"] == 0).all()
    race = nf.race_sample(1, seed=2)[0]        # 15 a side: the one-sided approximation,
    approx = nf.move_report(race, (6, 5))      # its error not measured
    assert (approx["method"] == "one_sided").all()
    assert approx["se_equity_loss"].iloc[1:].isna().all()
    net = nf.move_report(contact(), (4, 2))
    assert net["se_equity_loss"].iloc[0] == 0
    assert net["se_equity_loss"].iloc[1:].isna().all()         # the net's error: unmeasured


def test_paired_values_of_a_mix():
    """A bear-off of the two-sided table is exact (SE 0): a difference with a rolled-out
    position has that position's own SE; two rolled-out positions the paired one; one
    valued by the one-sided approximation has an unmeasured error (NaN)."""
    race = nf.Position.from_boards([0] * 18 + [0, 2, 0, 1, 1, 1],
                                   [0] * 18 + [0, 0, 1, 1, 0, 2])
    big = nf.race_sample(1, seed=2)[0]                         # 15 a side: one-sided
    a, b = (nf.Position.from_id(i) for i in
            nf.move_report(contact(), (4, 2))["id_after"].iloc[:2])
    pv = value_positions_paired([a, race, b, big], "rollout", n_games=144, seed=3,
                                policy="greedy", truncate="bearoff", workers=1,
                                progress=False)
    assert pv.outcomes[1].se_equity == 0                       # valued at the start
    assert math.isnan(pv.se_difference(0, 3)) and math.isnan(pv.se_difference(1, 3))
    assert pv.se_difference(0, 1) == pv.outcomes[0].se_equity
    assert pv.se_difference(0, 2) == pytest.approx(pv.games.difference(0, 2)[1])
    assert pv.se_difference(2, 0) == pv.se_difference(0, 2)
    assert pv.se_difference(1, 1) == 0
    net = value_positions_paired([a, b], "net")
    assert net.games is None and math.isnan(net.se_difference(0, 1))


def test_an_analysed_game_carries_the_played_moves_error_to_its_page():
    rec = nf.random_game(seed=4, policy="greedy", max_turns=6)
    gr = nf.game_report(rec, analyse=True, **ROLL)
    several = gr[gr["n_moves"] > 1]
    assert len(several) and (several["se_equity_loss"] >= 0).all()
    lost = several[several["rank_played"] > 1]
    assert (lost["se_equity_loss"] > 0).all()
    cands = json.loads(several["candidates"].iloc[0])
    assert all("se_equity_loss" in c for c in cands)
    page = to_html(gr, record=rec)
    se = float(lost["se_equity_loss"].iloc[0])
    assert f"(SE {se:.3f})" in page                            # a loss with its error
    assert '<span class="se">SE ' in page                      # and each candidate's
    net = nf.game_report(rec, analyse=True)
    plain = to_html(net, record=rec)
    assert "SE " not in plain
    # the net's losses have no SE: JSON null, not NaN (not JSON: strict readers refused
    # the column), read back by the page as not measured
    text = net.loc[net["n_moves"] > 1, "candidates"].iloc[0]
    assert "NaN" not in text and '"se_equity_loss":null' in text
    cands = json.loads(text, parse_constant=lambda name: 1 / 0)   # no NaN, Infinity
    assert [c["se_equity_loss"] for c in cands[1:]] == [None] * (len(cands) - 1)
    assert cands[0]["se_equity_loss"] == 0.0           # the best against itself: exact


def test_the_cli_shows_the_error_under_rollouts(tmp_path, capsys):
    from nardy_fast.app.cli import main
    rec = nf.random_game(seed=4, policy="greedy", max_turns=6)
    path = tmp_path / "game.txt"
    nf.write_record(rec, path)
    main(["analyse", str(path), "--method", "rollout", "--games", "72", "--seed", "2",
          "--workers", "1", "--no-progress"])
    out = capsys.readouterr().out
    assert "equity_loss (SE)" in out and "standard error" in out
    rows = [ln for ln in out.splitlines() if ln[:4].strip().isdigit() and "(" in ln]
    assert rows and all(np.isfinite(float(r.rsplit("(", 1)[1].rstrip(")"))) for r in rows)


def test_at_a_match_score_the_loss_in_emg_has_no_standard_error():
    """At a score ``equity_loss`` holds the EMG loss, whose error the rollouts do not
    give: its ``se_equity_loss`` is NaN, not the money loss's."""
    rec = nf.random_game(seed=4, policy="greedy", max_turns=6)
    gr = nf.game_report(rec, analyse=True, match=nf.MatchState(5, (1, 3), "white"),
                        **ROLL)
    several = gr[gr["n_moves"] > 1]
    assert len(several) and several["se_equity_loss"].isna().all()
