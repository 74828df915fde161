"""Outcome (nardy_fast.core.result): every probability has its standard error and its
interval, and no probability outside [0, 1] leaves ``clip_probabilities``."""
import math

import pytest
from hypothesis import given, strategies as st

from nardy_fast.core.result import PROBABILITIES, Outcome, clip_probabilities

Z95 = 1.959963984540054


def outcome(**kw):
    base = dict(p_win=0.6, p_mars_win=0.1, p_lose=0.4, p_mars_loss=0.05, equity=0.25,
                method="rollout")
    base.update(kw)
    return Outcome(**base)


def test_every_probability_has_a_standard_error_field():
    o = outcome()
    for name in PROBABILITIES:
        assert getattr(o, "se_" + name) == 0.0                  # exact: no sampling error


def test_ci95_of_p_lose_uses_its_own_se():
    """Issue 26 item 9: ci95("p_lose") was the value twice (no se_p_lose field)."""
    o = outcome(se_p_lose=0.01)
    lo, hi = o.ci95("p_lose")
    assert (lo, hi) == pytest.approx((0.4 - Z95 * 0.01, 0.4 + Z95 * 0.01))


def test_ci95_of_a_probability_stays_in_0_1():
    o = outcome(p_koks_win=0.001, se_p_koks_win=0.002, p_win=0.999, se_p_win=0.01)
    lo, hi = o.ci95("p_koks_win")
    assert lo == 0.0 and hi == pytest.approx(0.001 + Z95 * 0.002)
    lo, hi = o.ci95("p_win")
    assert lo == pytest.approx(0.999 - Z95 * 0.01) and hi == 1.0
    lo, hi = outcome(se_equity=0.5).ci95("equity")             # equity: not cut
    assert (lo, hi) == pytest.approx((0.25 - Z95 * 0.5, 0.25 + Z95 * 0.5))


def test_ci95_of_an_unknown_name_is_an_error_naming_it():
    with pytest.raises(ValueError, match="p_loose"):
        outcome().ci95("p_loose")


def test_flipped_swaps_the_standard_errors_of_wins_and_losses():
    o = outcome(se_p_win=1.0, se_p_lose=2.0, se_p_koks_win=3.0, se_p_koks_loss=4.0,
                se_p_home_mars_win=5.0, se_p_home_mars_loss=6.0, se_p_draw=7.0)
    f = o.flipped()
    assert (f.se_p_win, f.se_p_lose, f.se_p_koks_win, f.se_p_koks_loss,
            f.se_p_home_mars_win, f.se_p_home_mars_loss, f.se_p_draw) == (2, 1, 4, 3, 6, 5, 7)
    assert f.flipped() == o



def test_a_draw_flipped_has_equity_plus_zero():
    """A sure draw seen by the other side is worth 0, not -0: ``nardy-fast hint --method
    rollout`` under draw_rule showed White's last checkers off, Black's last turn valued
    exactly, as equity -0.0000 (and --json as -0.0, its ci95_equity_low too)."""
    draw = Outcome(0.0, 0.0, 0.0, 0.0, 0.0, "final", p_draw=1.0)
    f = draw.flipped()
    assert math.copysign(1.0, f.equity) == 1.0
    assert math.copysign(1.0, f.ci95()[0]) == 1.0
    assert "equity +0.000" in str(f)

def test_to_dict_has_every_standard_error():
    d = outcome(se_p_lose=0.02).to_dict()
    assert d["se_p_lose"] == 0.02
    assert all("se_" + name in d for name in PROBABILITIES)


def test_clip_cuts_to_the_range_and_keeps_the_rest():
    o = outcome(p_koks_win=-0.000755, p_win=1.0000000000000004, p_lose=-4e-16,
                equity=-3.5, se_p_koks_win=0.001)
    c = clip_probabilities(o, record=True)
    assert c.p_koks_win == 0.0 and c.p_win == 1.0 and c.p_lose == 0.0
    assert c.equity == -3.5 and c.se_p_koks_win == 0.001            # unchanged
    assert c.extra["clipped"] == "p_koks_win"       # rounding steps are cut, not named
    assert clip_probabilities(outcome(), record=True).extra["clipped"] == ""
    plain = outcome()
    assert clip_probabilities(plain) is plain


def test_clip_leaves_nan_alone():
    c = clip_probabilities(outcome(p_win=math.nan))
    assert math.isnan(c.p_win)


def test_clip_refuses_what_is_not_an_outcome():
    with pytest.raises(TypeError, match="outcome"):
        clip_probabilities({"p_win": 2.0})


@given(x=st.floats(-2, 3), p=st.floats(0, 1))
def test_clip_never_moves_an_estimate_away_from_a_probability(x, p):
    c = clip_probabilities(outcome(p_koks_win=x)).p_koks_win
    assert 0.0 <= c <= 1.0
    assert abs(c - p) <= abs(x - p) + 1e-15


def test_an_outcome_equals_its_copy_from_another_process():
    """A net value's standard errors and an exact value's mean length are NaN: the
    default equality compared them as floats, so an Outcome sent through pickle (a
    process pool, Dask) was no longer equal to itself, and its hash changed."""
    import pickle

    net = outcome(method="net 0-ply", **{"se_" + name: float("nan")
                                         for name in (*PROBABILITIES, "equity")})
    for o in (net, outcome(), outcome(method="two_sided", mean_length=float("nan"))):
        back = pickle.loads(pickle.dumps(o))
        assert back == o and hash(back) == hash(o) and len({o, back}) == 1
    assert net != outcome(method="net 0-ply")                  # NaN is not 0
    assert outcome(equity=0.0) == outcome(equity=-0.0)
    assert outcome() != outcome(games=5) and outcome() != "rollout"


@given(st.lists(st.floats(-0.5, 1.5), min_size=10, max_size=10), st.booleans(),
       st.sampled_from([(1.0, 2.0, 2.0, 2.0), (1.0, 2.0, 3.0, 4.0), (0.5, 2.5, 5.0, 7.0)]))
def test_flipped_is_the_other_sides_view_of_any_possible_outcome(raw, draws, points):
    """Any possible distribution (the nearest to arbitrary numbers), under any scoring:
    its flip is possible too, from the other side (wins and losses swapped, the draw
    kept), its equity negated (a 0 as +0.0), and flipping twice gives it back."""
    from nardy_fast.core.result import possibility_gap, possible_values
    z = possible_values(raw, draws=draws, points=points)
    o = Outcome(**dict(zip(PROBABILITIES, z[:9].tolist())), equity=float(z[9]),
                method="test")
    f = o.flipped()
    values = [getattr(f, n) for n in PROBABILITIES] + [f.equity]
    assert possibility_gap(values, draws=draws, points=points) <= 1e-9
    assert (f.p_win, f.p_lose, f.p_draw) == (o.p_lose, o.p_win, o.p_draw)
    assert (f.p_mars_win, f.p_koks_win, f.p_home_mars_win) == (
        o.p_mars_loss, o.p_koks_loss, o.p_home_mars_loss)
    assert f.equity == -o.equity and math.copysign(1.0, f.equity) == (
        1.0 if o.equity <= 0 else -1.0)
    assert f.flipped() == o
