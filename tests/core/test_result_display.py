"""``print(outcome)`` is one short line saying how the numbers were obtained (it dumped
1.5 kB with the 30 keys of ``extra``), and notebooks get a small table."""

from nardy_fast.core.result import NOT_MEASURED, Outcome

Z95 = 1.959963984540054


def outcome(**kw):
    base = dict(p_win=0.583, p_mars_win=0.1, p_lose=0.417, p_mars_loss=0.05, equity=0.251,
                method="rollout")
    base.update(kw)
    return Outcome(**base)


def rollout_outcome(**kw):
    extra = {f"key_{k}": k for k in range(30)} | {"policy": "net"}
    return outcome(se_p_win=0.006 / Z95, se_equity=0.018 / Z95, games=1296, extra=extra,
                   **kw)


def test_a_rollout_prints_its_margins_games_and_policy():
    o = rollout_outcome()
    assert str(o) == "P(win) 0.583 ± 0.006, equity +0.251 ± 0.018 (rollout, 1,296 games, net)"
    assert "key_29" in repr(o)                       # repr keeps every field


def test_an_interrupted_rollout_says_so():
    o = rollout_outcome()
    o.extra["interrupted"] = True
    assert str(o).endswith("(rollout, 1,296 games, net, interrupted)")


def test_an_exact_value_says_exact_and_shows_no_margin():
    s = str(outcome(method="two_sided"))
    assert s == "P(win) 0.583, equity +0.251 (exact, two_sided)"


def test_a_net_value_names_its_plies_and_shows_no_margin():
    s = str(outcome(method="net 1-ply", **NOT_MEASURED))
    assert s == "P(win) 0.583, equity +0.251 (net 1-ply: error not measured)"
    assert "±" not in s and "nan" not in s


def test_draws_are_shown_when_possible():
    s = str(outcome(p_win=0.5, p_lose=0.4, p_draw=0.1, method="two_sided"))
    assert "P(draw) 0.100" in s


def test_the_html_table_has_every_row_and_its_margin():
    o = rollout_outcome(p_koks_win=0.02, se_p_koks_win=0.001)
    h = o._repr_html_()
    assert h.startswith("<table>") and h.endswith("</table>")
    assert "<caption>rollout, 1,296 games, net</caption>" in h
    for label in ("P(win)", "P(mars win)", "P(lose)", "P(mars loss)", "P(koks win)",
                  "equity", "95% margin"):
        assert label in h, label
    assert "± 0.006" in h and "+0.2510" in h
    net = outcome(method="net 0-ply", **NOT_MEASURED)._repr_html_()
    assert "±" not in net and "margin" not in net and "net 0-ply" in net
    assert "nan" not in net


def test_a_rollout_of_one_game_says_its_error_is_not_measured():
    """A one-game rollout printed "(rollout, 1 games, net)" with no margin, as an exact
    value prints: one game has no spread, so its standard errors are NaN, and the line
    now says that the error is not measured."""
    o = outcome(games=1, extra={"policy": "net"}, **NOT_MEASURED)
    assert str(o) == ("P(win) 0.583, equity +0.251 "
                      "(rollout, 1 game, net, error not measured)")
    assert "<caption>rollout, 1 game, net, error not measured</caption>" in o._repr_html_()


def test_an_equity_that_rounds_to_zero_is_shown_without_a_minus_sign():
    """A level race's equity is -5.6e-17 by float rounding: '+0.000', never '-0.000'."""
    o = Outcome(p_win=0.4, p_mars_win=0.0, p_lose=0.4, p_mars_loss=0.0, equity=-5.6e-17,
                method="two_sided", p_draw=0.2, **NOT_MEASURED)
    assert "equity +0.000" in str(o) and "-0.000" not in o._repr_html_()
    small = Outcome(p_win=0.4, p_mars_win=0.0, p_lose=0.6, p_mars_loss=0.0, equity=-0.002,
                    method="two_sided", **NOT_MEASURED)
    assert "equity -0.002" in str(small)
