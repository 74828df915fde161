"""Figures: each function draws into a given Axes (or a new one) and returns it."""
import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402
from matplotlib.patches import Circle  # noqa: E402

from nardy_fast import Position  # noqa: E402
from nardy_fast.plot import (board_png, bearoff_distribution, convergence_chart,  # noqa: E402
                             game_chart, plot_board, race_chart, save_figure)
from nardy_fast.record import random_game  # noqa: E402
from nardy_fast.report import (convergence_report, game_report, race_report,  # noqa: E402
                               race_sample)

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


@pytest.fixture(autouse=True)
def _close():
    yield
    plt.close("all")


def texts(ax):
    return [t.get_text() for t in ax.texts]


@pytest.mark.parametrize("seed, turn", [(1, 0), (1, 25), (2, 60), (3, 90)])
def test_plot_board_draws_every_checker_group(seed, turn):
    ps = random_game(seed=seed).positions()
    pos = ps[min(turn, len(ps) - 1)]
    fig, ax = plt.subplots()
    assert plot_board(pos, ax=ax) is ax
    circles = [p for p in ax.patches if isinstance(p, Circle)]
    counts = [int(c) for c in np.concatenate([pos.white, pos.black]) if c]
    assert len(circles) == sum(min(c, 5) for c in counts)
    labels = texts(ax)
    # counts shown for stacks, both numberings 1..24, pips of both sides, the ID
    for c in counts:
        if c > 1:
            assert str(c) in labels
    assert sum(1 for t in labels if t.isdigit() and 1 <= int(t) <= 24) >= 48
    wp, bp = pos.pips if pos.side == "white" else pos.pips[::-1]
    assert any(f"pips {wp}" in t for t in labels) and any(f"pips {bp}" in t for t in labels)
    assert any("(on roll)" in t and t.lower().startswith(pos.side) for t in labels)
    assert pos.id in labels


def test_plot_board_new_axes_and_errors():
    ax = plot_board(Position.initial().id)
    assert ax.figure is not None
    with pytest.raises(TypeError, match="plot_board"):
        plot_board(3)


def test_png_and_repr():
    data = board_png(Position.initial())
    assert data.startswith(PNG_MAGIC)
    assert Position.initial()._repr_png_().startswith(PNG_MAGIC)


def test_save_figure(tmp_path):
    ax = plot_board(Position.initial())
    p = save_figure(ax, tmp_path / "b.png")
    assert open(p, "rb").read(8) == PNG_MAGIC
    save_figure(ax.figure, tmp_path / "b.svg")
    assert sorted(x.name for x in tmp_path.iterdir()) == ["b.png", "b.svg"]


def test_race_chart_exact_and_rollout():
    rolled = race_report(race_sample(6, seed=2, kind="race"), n_games=36, truncate=None,
                         workers=1, epc=False)
    fig, ax = plt.subplots()
    assert race_chart(rolled, ax=ax) is ax
    assert ax.get_legend() is not None
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert "P(win), rollout" in labels and "P(mars win), rollout" in labels
    assert "pip difference" in ax.get_xlabel()
    with pytest.raises(ValueError, match="'p_win'"):
        race_chart(pd.DataFrame({"pip_diff": [1]}))


def test_race_chart_with_database():
    exact = race_report(race_sample(20, seed=2, kind="bearoff"))
    ax = race_chart(exact)
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert "P(win), exact" in labels


def test_bearoff_distribution():
    from nardy_fast import bearoff
    a, b = race_sample(2, seed=5, kind="bearoff")
    fig, ax = plt.subplots()
    assert bearoff_distribution([a, b], ax=ax, labels=["A", "B"]) is ax
    db = bearoff.one_sided()
    heights = [p.get_height() for p in ax.patches]
    da = np.asarray(db.distribution(np.ascontiguousarray(a.mover[::-1][:6])), float)
    db_ = np.asarray(db.distribution(np.ascontiguousarray(b.mover[::-1][:6])), float)
    assert sum(heights) == pytest.approx(da.sum() + db_.sum(), abs=1e-6)
    assert any(t.get_text().startswith("A: mean") for t in ax.get_legend().get_texts())
    with pytest.raises(ValueError, match="outside its home"):
        bearoff_distribution(Position.initial())
    with pytest.raises(ValueError, match="one or two"):
        bearoff_distribution([a, b, a])


def test_convergence_chart():
    cv = convergence_report(Position.initial(), [36, 72], seed=1, truncate=None, workers=1)
    fig, ax = plt.subplots()
    assert convergence_chart(cv, ax=ax) is ax
    line = ax.get_lines()[0]
    assert list(line.get_xdata()) == [36, 72]
    assert list(line.get_ydata()) == pytest.approx(cv["equity"].tolist())
    assert ax.get_xscale() == "log"
    assert convergence_chart(cv, column="p_win").get_ylabel() == "probability"
    with pytest.raises(ValueError, match="se_equity"):
        convergence_chart(cv.drop(columns="se_equity"))


def test_game_chart():
    rec = random_game(seed=8, max_turns=30)
    gr = game_report(rec, win_prob=False)
    ax = game_chart(gr)
    assert [list(l.get_ydata()) for l in ax.get_lines()] == [gr["pips_white"].tolist(),
                                                           gr["pips_black"].tolist()]
    assert not hasattr(ax, "right_ax")
    gr["p_win_white"] = np.linspace(0.5, 1, len(gr))
    fig, ax2 = plt.subplots()
    assert game_chart(gr, ax=ax2) is ax2
    assert list(ax2.right_ax.get_lines()[0].get_ydata()) == gr["p_win_white"].tolist()
    with pytest.raises(ValueError, match="pips_black"):
        game_chart(gr.drop(columns="pips_black"))


def test_race_chart_doubling_window():
    from nardy_fast.cube import doubling_window
    exact = race_report(race_sample(20, seed=2, kind="bearoff"))
    ax = race_chart(exact, cube="geometric", efficiency=0.0)
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    # dead cube: double from P(win) 1/2, the opponent passes above 3/4
    assert "double, take (0.50-0.75, x = 0.00)" in labels and "double, pass" in labels
    assert doubling_window(0.0) == pytest.approx((0.5, 0.75))


def test_plot_board_cube():
    from matplotlib.patches import Rectangle
    from nardy_fast import CubeState
    pos = Position.initial()
    ax = plot_board(pos, cube=CubeState(4, "opponent"))
    assert "4" in texts(ax)
    squares = [p for p in ax.patches if isinstance(p, Rectangle) and p.get_zorder() == 5]
    assert len(squares) == 1 and squares[0].get_y() < 6      # Black's side (bottom)
