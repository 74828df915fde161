"""Rollouts report every probability inside [0, 1] with its standard error (issue 26,
items 8 and 9); a variance-reduced rollout's move to a possible distribution keeps the
standard errors of the raw means and records how far the equity moved."""
import math

import pytest

import nardy_fast as nf
from nardy_fast.core.result import PROBABILITIES
from nardy_fast.engine.play import rollout as rollout_mod

FAST = dict(workers=1, progress=False)
# The issue's case: P(koks win) came out -0.000755 from 1,000 variance-reduced games (with
# the shipped net of then); with today's rollout net (v7), luck net and dice (game by
# game, rng.DICE_SCHEME), seed 8 of the same position gives -0.00013 (a seed is chosen so
# that the cut is exercised; seeds 1-7 come out positive, and a new luck
# net or dice scheme may need another).
NEAR_ZERO = "WlgAAAAEAEQACAQAAAAAAAAAQABAAAhIg"
NEAR_ZERO_SEED = 8


@pytest.fixture(scope="module")
def raw_and_reported():
    raw = []
    keep = rollout_mod.keep_in_range

    def spy(o, *args, **kwargs):
        raw.append(o)
        return keep(o, *args, **kwargs)

    rollout_mod.keep_in_range = spy
    try:
        reported = nf.rollout(NEAR_ZERO, 1000, seed=NEAR_ZERO_SEED, **FAST)
    finally:
        rollout_mod.keep_in_range = keep
    return (raw[0] if raw else None), reported


def test_the_issue_case_has_a_negative_reduced_mean(raw_and_reported):
    """The case exercises the cut: the uncut variance-reduced mean is below 0."""
    raw, _ = raw_and_reported
    assert raw.extra["estimator"] != "none" and raw.p_koks_win < 0


def test_no_probability_outside_0_1_is_reported(raw_and_reported):
    raw, o = raw_and_reported
    for name in PROBABILITIES:
        assert 0.0 <= getattr(o, name) <= 1.0, name
    assert "p_koks_win" in o.extra["clipped"].split(",")
    assert o.p_koks_win + o.p_home_mars_win <= o.p_mars_win + 1e-12
    d = o.to_dict()
    assert all(0.0 <= d[name] <= 1.0 for name in PROBABILITIES)
    assert 0.0 <= d["ci95_p_win_low"] <= d["ci95_p_win_high"] <= 1.0


def test_the_errors_are_kept_and_the_equity_move_recorded(raw_and_reported):
    raw, o = raw_and_reported
    assert o.equity == raw.equity + o.extra["equity_adjustment"]
    assert all(getattr(o, "se_" + n) == getattr(raw, "se_" + n) for n in PROBABILITIES)


def test_every_probability_of_a_rollout_has_a_standard_error():
    """Plain games played out, the draw rule on: each probability is a mean of 0/1
    values, so its standard error is close to the binomial sqrt(p (1 - p) / (n - 1)): the
    stratified formula removes the between-strata part (smaller), and its 36 strata's
    n_h - 1 denominators can make it larger by at most sqrt((n - 1) / (n - 36))."""
    n = 2592
    o = nf.rollout(nf.Position.initial(), n, policy="random", seed=5, truncate=None,
                   rules=nf.Rules(draw_rule=True), variance_reduction=False, **FAST)
    for name in ("p_win", "p_lose", "p_draw", "p_mars_win", "p_mars_loss"):
        p = getattr(o, name)
        assert 0 < p < 1, name
        binomial = math.sqrt(p * (1 - p) / (n - 1))
        se = getattr(o, "se_" + name)
        assert 0.8 * binomial < se <= binomial * math.sqrt((n - 1) / (n - 36)), name
        lo, hi = o.ci95(name)
        assert lo < p < hi
    # P(lose) is not 1 - P(win) under the draw rule, so its SE is its own
    assert o.se_p_lose != o.se_p_win
