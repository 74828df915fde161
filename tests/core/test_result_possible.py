"""Possible distributions (``core.result.possible_values``, ``nearest_possible``): the
nearest possible point is possible, leaves a possible one alone, and is never farther than
the input from any possible distribution (the projection's guarantee that bounds the bias
of a rollout's adjustment, ``engine.variance``)."""
import math

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from nardy_fast.core.result import (PROBABILITIES, Outcome, nearest_possible,
                                    possibility_gap, possible_values)

CLASSIC = (1.0, 2.0, 2.0, 2.0)
EXTENDED = (1.0, 2.0, 3.0, 4.0)
SETTINGS = [dict(draws=d, points=p) for d in (False, True) for p in (None, CLASSIC, EXTENDED)]


def equity_of(x, points):
    oin, mars, koks, home = points
    w, l, d, mw, ml, kw, kl, hw, hl = x[:9]
    return (oin * (w - l) + (mars - oin) * (mw - ml) + (koks - mars) * (kw - kl)
            + (home - mars) * (hw - hl))


def possible(rng, draws, points):
    """A random possible distribution (and its equity) under ``draws`` and ``points``."""
    w, l, d = rng.dirichlet([1.0, 1.0, 1.0 if draws else 1e-9])
    if not draws:
        w, l, d = w / (w + l), l / (w + l), 0.0
    mw, ml = w * rng.uniform(), l * rng.uniform()
    kw, hw, _ = mw * rng.dirichlet([1, 1, 1])
    kl, hl, _ = ml * rng.dirichlet([1, 1, 1])
    x = np.array([w, l, d, mw, ml, kw, kl, hw, hl, 0.0])
    x[9] = equity_of(x, points) if points else rng.normal()
    return x


raw_values = st.lists(st.floats(-0.3, 1.3), min_size=9, max_size=9).map(
    lambda v: v + [0.0]).flatmap(
    lambda v: st.floats(-5, 5).map(lambda e: np.array(v[:9] + [e])))


@settings(max_examples=60, deadline=None)
@given(raw_values, st.sampled_from(SETTINGS), st.integers(0, 2 ** 32 - 1))
def test_the_nearest_possible_point_is_possible_and_never_farther(z, kw, seed):
    p = possible_values(z, **kw)
    assert possibility_gap(p, **kw) <= 1e-9
    assert np.allclose(possible_values(p, **kw), p, atol=1e-12)      # idempotent
    rng = np.random.default_rng(seed)
    for _ in range(20):
        t = possible(rng, **kw)
        if kw["points"] is None:
            t[9] = z[9]               # the equity is not moved: compare like with like
        assert np.linalg.norm(p - t) <= np.linalg.norm(z - t) + 1e-9
    if kw["points"] is None:
        assert p[9] == z[9]
    else:
        assert p[9] == pytest.approx(equity_of(p, kw["points"]), abs=1e-9)


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(SETTINGS), st.integers(0, 2 ** 32 - 1))
def test_a_possible_distribution_is_left_as_it_is(kw, seed):
    t = possible(np.random.default_rng(seed), **kw)
    assert possibility_gap(t, **kw) <= 1e-12
    assert np.array_equal(possible_values(t, **kw), t)


def test_a_probability_over_one_by_rounding_comes_back_at_one():
    """A one-game rollout truncated in a race valued P(win) 1 + 2.2e-16 (the table's sum):
    within rounding of the possible set, yet no probability above 1 is shown."""
    z = np.array([1.0 + 2.2e-16, 0.0, 0.0, 0.4, 0.0, 0.1, 0.0, 0.05, 0.0, 0.0])
    z[9] = equity_of(z, CLASSIC)
    assert possibility_gap(z, draws=False, points=CLASSIC) <= 1e-12
    p = possible_values(z, draws=False, points=CLASSIC)
    assert p[0] == 1.0 and (p[:9] >= 0).all() and (p[:9] <= 1).all()
    y = np.array([z[0], 0.0, 0.0, 0.4, 0.0, 0.0, 0.0, 0.0, 0.0])
    o = nearest_possible(Outcome(p_win=z[0], p_mars_win=0.4, p_lose=0.0, p_mars_loss=0.0,
                                 equity=equity_of(y, CLASSIC), method="rollout"),
                         draws=False, points=CLASSIC, record=True)
    assert o.p_win == 1.0 and o.extra["clipped"] == ""


def test_the_issue_case_nests_and_keeps_the_equity_identity():
    """P(lose) 0 with P(mars loss) 0.009 and P(koks loss) 0.012 (the issue's rollout):
    the nearest possible point has koks + home mars <= mars <= lose."""
    z = np.array([1.0, 0.0, 0.0, 0.3, 0.009, 0.0, 0.012, 0.0, 0.0, 0.0])
    z[9] = equity_of(z, EXTENDED)
    p = possible_values(z, draws=False, points=EXTENDED)
    w, l, d, mw, ml, kw_, kl, hw, hl, e = p
    assert d == 0 and w + l == pytest.approx(1.0)
    assert kl + hl <= ml <= l and kw_ + hw <= mw <= w
    assert e == pytest.approx(equity_of(p, EXTENDED))
    assert possibility_gap(z, draws=False, points=EXTENDED) == pytest.approx(0.009)   # P(mars loss) over P(lose)


def test_no_draws_without_the_draw_rule():
    z = np.array([0.5, 0.3, 0.0, 0, 0, 0, 0, 0, 0, 0.2])
    assert possible_values(z, draws=False, points=CLASSIC)[2] == 0.0
    assert possible_values(z, draws=True, points=CLASSIC)[2] > 0.0


def test_nearest_possible_records_the_move_and_keeps_the_errors():
    o = Outcome(p_win=1.0, p_mars_win=0.3, p_lose=0.0, p_mars_loss=0.009, equity=1.3,
                method="rollout", p_koks_loss=0.012, se_p_win=0.01, se_equity=0.02,
                games=12)
    n = nearest_possible(o, draws=False, points=CLASSIC, record=True)
    assert set(n.extra["clipped"].split(",")) >= {"p_lose", "p_mars_loss", "p_koks_loss"}
    z = np.array([getattr(o, k) for k in PROBABILITIES] + [o.equity])
    zn = np.array([getattr(n, k) for k in PROBABILITIES] + [n.equity])
    assert n.extra["adjustment"] == pytest.approx(np.linalg.norm(zn - z))
    assert n.extra["equity_adjustment"] == pytest.approx(n.equity - o.equity)
    assert (n.se_p_win, n.se_equity, n.games) == (0.01, 0.02, 12)
    same = nearest_possible(n, draws=False, points=CLASSIC, record=True)
    assert same.extra["clipped"] == "" and same.extra["adjustment"] == 0.0
    assert nearest_possible(n, draws=False, points=CLASSIC) is n


def test_nearest_possible_leaves_a_missing_estimate_alone():
    nan = math.nan
    o = Outcome(p_win=nan, p_mars_win=nan, p_lose=nan, p_mars_loss=nan, equity=nan,
                method="rollout")
    assert nearest_possible(o, record=True) is o


def test_bad_values_are_errors_naming_them():
    with pytest.raises(ValueError, match="values"):
        possible_values([0.5, 0.5])
    with pytest.raises(ValueError, match="values"):
        possible_values([math.nan] * 10)
    with pytest.raises(TypeError, match="outcome"):
        nearest_possible({"p_win": 1.0})


def test_the_kinds_a_board_rules_out_are_held_at_zero():
    """The nearest possible point filled in kinds the boards rule out: an estimate
    breaking only the nesting of the losses came back with P(mars win) 2e-19 for a side
    that has borne off a checker (and a rollout's with 1e-4: the equity's tie to the
    points spreads the move over every kind).  Held at 0 by ``ruled_out``, they stay
    exactly 0."""
    from nardy_fast.core.result import ruled_out
    mover, opponent = np.zeros(24, int), np.zeros(24, int)
    mover[[10, 23]] = [5, 10]                 # 15 on the board, none on points 1-6
    opponent[[0, 20]] = [10, 4]               # one checker off
    ruled = ruled_out(mover, opponent)
    assert set(ruled) == {"p_mars_win", "p_koks_win", "p_home_mars_win", "p_koks_loss"}
    # P(win) .05, P(mars loss) .004 with P(home mars loss) .006 above it
    x = np.array([0.05, 0.95, 0.0, 0.0, 0.004, 0.0, 0.0, 0.0, 0.006, 0.0])
    x[9] = equity_of(x, EXTENDED)
    z = possible_values(x, draws=False, points=EXTENDED, ruled_out=ruled)
    assert possibility_gap(z, draws=False, points=EXTENDED) <= 1e-12
    for name in ruled:
        assert z[PROBABILITIES.index(name)] == 0.0, name
    assert possibility_gap(z, draws=False, points=EXTENDED, ruled_out=ruled) <= 1e-12
    with pytest.raises(ValueError, match="ruled_out"):
        possible_values(x, ruled_out=["p_mars"])
