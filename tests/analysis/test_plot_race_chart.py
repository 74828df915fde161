"""race_chart names each row by how it was obtained, and its bin-mean lines have legend
entries (issue 26, item 10: every non-rollout row was called "exact")."""
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

from nardy_fast.analysis.plot import race_chart  # noqa: E402

METHODS = ["two_sided"] * 3 + ["one_sided"] * 2 + ["net 0-ply"] * 4 + ["rollout"] * 3


def frame():
    n = len(METHODS)
    return pd.DataFrame({"pip_diff": list(range(-n // 2, n - n // 2)),
                         "p_win": [0.05 + 0.07 * k for k in range(n)],
                         "p_mars_win": [0.01 * k for k in range(n)],
                         "se_p_win": 0.01, "se_p_mars_win": 0.005, "method": METHODS})


def legend(ax):
    return [t.get_text() for t in ax.get_legend().get_texts()]


def test_each_method_has_its_own_honest_label():
    labels = legend(race_chart(frame()))
    for q in ("P(win)", "P(mars win)"):
        assert f"{q}, exact" in labels
        assert f"{q}, one-sided approximation" in labels
        assert f"{q}, net 0-ply" in labels
        assert f"{q}, rollout, 95% bars" in labels      # no games column: none said


def test_points_per_label_are_the_rows_of_that_method():
    ax = race_chart(frame())
    f = frame()
    by_label = {c.get_label(): len(c.get_offsets()) for c in ax.collections
                if c.get_label().startswith("P(win)")}
    assert by_label == {"P(win), exact": 3, "P(win), one-sided approximation": 2,
                        "P(win), net 0-ply": 4}
    exact_x = sorted(f.loc[f["method"] == "two_sided", "pip_diff"])
    pts = next(c for c in ax.collections if c.get_label() == "P(win), exact").get_offsets()
    assert sorted(pts[:, 0].tolist()) == exact_x


def test_the_bin_mean_lines_are_in_the_legend():
    labels = legend(race_chart(frame(), bins=3))
    assert any(t.startswith("P(win), mean of each bin") for t in labels)
    assert any(t.startswith("P(mars win), mean of each bin") for t in labels)


@pytest.mark.parametrize("kw, message", [
    (dict(cube="bogus"), "cube='bogus': expected 'geometric' or 'arithmetic' (or None: "
                         "no doubling window)"),
    (dict(cube=True), "cube=True: expected 'geometric' or 'arithmetic'"),
    (dict(cube="geometric", efficiency=2), "efficiency=2: expected a cube efficiency, a "
                                           "number in 0..1"),
    (dict(cube="geometric", efficiency="high"), "efficiency='high': expected a cube "
                                                "efficiency"),
])
def test_a_bad_doubling_window_is_named_by_the_charts_arguments(kw, message):
    """``cube="bogus"`` was refused as "progression='bogus'", ``efficiency=2`` as "x=2"
    (the cube model's names, which race_chart's caller never wrote), and a text
    efficiency with the bare "unsupported operand type(s) for -: 'float' and 'str'"."""
    with pytest.raises(ValueError) as e:
        race_chart(frame(), **kw)
    assert str(e.value).startswith("race_chart: " + message), str(e.value)
    plt.close("all")
