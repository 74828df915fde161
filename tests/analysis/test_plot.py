"""Figures: each function draws into a given Axes (or a new one) and returns it."""
import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402
from matplotlib.patches import Circle  # noqa: E402

from nardy_fast import Position  # noqa: E402
from nardy_fast.analysis.plot import (bearoff_distribution, convergence_chart,  # noqa: E402
                                      game_chart, race_chart)
from nardy_fast.analysis.report import (convergence_report, game_report,  # noqa: E402
                                        race_report, race_sample)
from nardy_fast.core.diagram import board_png, plot_board, save_figure  # noqa: E402
from nardy_fast.core.methods import method_label  # noqa: E402
from nardy_fast.core.record import random_game  # noqa: E402

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


def column_x(c):
    """The documented layout: 12 columns of width 1 left to right, a bar of width 1
    between the halves; centre of column c."""
    return c + 0.5 + (1 if c >= 6 else 0)


def test_plot_board_of_a_finished_game_has_no_side_on_roll():
    """The last board of a game Black won (``nardy-fast report``'s final_board.png) was
    titled "White on roll" with White's box marked "(on roll)", as if the game went on."""
    final = random_game(seed=5).positions()[-1]
    assert final.is_over() and final.side == "white" and final.off == (0, 15)
    ax = plot_board(final)
    assert ax.get_title().startswith("Black has borne off all 15 (game over)   ·   pips W ")
    assert not any("on roll" in t for t in texts(ax))
    assert plot_board(Position.initial()).get_title().startswith("White on roll")


def test_plot_board_layout():
    """Points, checkers and labels where the layout puts them: top row White's points
    12..1 from left to right (Black's 24..13), bottom row White's 13..24 (Black's 1..12);
    triangles of width 1 from the board's edge; checkers inside the board, not
    overlapping; point numbers of both sides beside their own row."""
    from matplotlib.patches import Polygon
    pos = random_game(seed=2).positions()[40]
    fig, ax = plt.subplots()
    plot_board(pos, ax=ax)
    tri = [p.get_xy()[:3].tolist() for p in ax.patches if isinstance(p, Polygon)]
    want = []
    for c in range(12):
        x = column_x(c)
        want.append([[x - 0.5, 12], [x + 0.5, 12], [x, 7.2]])      # top row, from y = 12
    for c in range(12):
        x = column_x(c)
        want.append([[x - 0.5, 0], [x + 0.5, 0], [x, 4.8]])        # bottom row, from y = 0
    assert tri == [[pytest.approx(v) for v in t] for t in want]
    circles = [p for p in ax.patches if isinstance(p, Circle)]
    for c in circles:
        (x, y), r = c.center, c.radius
        assert 0 < y - r and y + r < 12                              # inside the board
    for a, b in ((a, b) for i, a in enumerate(circles) for b in circles[i + 1:]):
        d = np.hypot(*np.subtract(a.center, b.center))
        assert d >= a.radius + b.radius                              # no overlap
    labels = {}
    for t in ax.texts:
        labels.setdefault(round(t.get_position()[1], 2), {})[t.get_text()] = \
            t.get_position()[0]
    top_w, top_b, bot_w, bot_b = (labels[y] for y in (12.35, 12.95, -0.35, -0.95))
    for p in range(1, 13):
        assert top_w[str(p)] == pytest.approx(column_x(12 - p))      # White 12..1
        assert bot_b[str(p)] == pytest.approx(column_x(p - 1))       # Black 1..12
    for p in range(13, 25):
        assert bot_w[str(p)] == pytest.approx(column_x(p - 13))      # White 13..24
        assert top_b[str(p)] == pytest.approx(column_x(24 - p))      # Black 24..13
    # stack counts: bold, size 9, on the last checker drawn of their point
    counts = [t for t in ax.texts if t.get_fontweight() == "bold" and t.get_text().isdigit()]
    assert counts and all(t.get_fontsize() == 9 for t in counts)


def test_new_axes_size():
    assert race_chart(pd.DataFrame({"pip_diff": [1], "p_win": [0.5], "p_mars_win": [0.0],
                                    "method": ["one_sided"]})).figure.get_size_inches() \
        .tolist() == [7, 4]
    assert plot_board(Position.initial()).figure.get_size_inches().tolist() == [7.5, 5.2]


def test_plot_board_new_axes_and_errors():
    ax = plot_board(Position.initial().id)
    assert ax.figure is not None
    with pytest.raises(TypeError, match="plot_board"):
        plot_board(3)


@pytest.mark.slow
def test_png_and_repr():
    data = board_png(Position.initial())
    assert data.startswith(PNG_MAGIC)
    assert Position.initial()._repr_png_().startswith(PNG_MAGIC)


@pytest.mark.slow
def test_save_figure(tmp_path):
    ax = plot_board(Position.initial())
    p = save_figure(ax, tmp_path / "b.png")
    assert open(p, "rb").read(8) == PNG_MAGIC
    save_figure(ax.figure, tmp_path / "b.svg")
    assert sorted(x.name for x in tmp_path.iterdir()) == ["b.png", "b.svg"]


def test_race_chart_exact_and_rollout():
    rolled = race_report(race_sample(6, seed=2, kind="race"), method="rollout", n_games=36,
                         truncate=None, workers=1, epc=False)
    fig, ax = plt.subplots()
    assert race_chart(rolled, ax=ax) is ax
    assert ax.get_legend() is not None
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    # the rollouts' games and what the bars are, beside the method (it said "rollout")
    assert "P(win), rollout (36 games), 95% bars" in labels
    assert "P(mars win), rollout (36 games), 95% bars" in labels
    assert "pip difference" in ax.get_xlabel()
    with pytest.raises(ValueError, match="'p_win'"):
        race_chart(pd.DataFrame({"pip_diff": [1]}))


def test_race_chart_points_and_bin_means():
    """A hand-made frame: the dots are its rows, the lines the bin means (2 bins of
    [-10, 0] and (0, 10]: x means -7 and 7)."""
    x = [-10, -8, -6, -4, 4, 6, 8, 10]
    p_win = [0.1, 0.2, 0.3, 0.4, 0.6, 0.7, 0.8, 0.9]
    p_mars = [0.0, 0.0, 0.1, 0.1, 0.2, 0.2, 0.3, 0.5]
    frame = pd.DataFrame({"pip_diff": x, "p_win": p_win, "p_mars_win": p_mars,
                          "method": "two_sided"})
    ax = race_chart(frame, bins=2)
    dots = [c.get_offsets().tolist() for c in ax.collections]
    assert dots == [[[a, b] for a, b in zip(x, p_win)], [[a, b] for a, b in zip(x, p_mars)]]
    lines = [ln for ln in ax.get_lines()
             if list(ln.get_xdata()) != [0, 0]]        # not the axvline at 0
    assert [list(ln.get_xdata()) for ln in lines] == [[-7, 7], [-7, 7]]
    assert list(lines[0].get_ydata()) == pytest.approx([0.25, 0.75])
    assert list(lines[1].get_ydata()) == pytest.approx([0.05, 0.3])


def test_race_chart_with_database():
    exact = race_report(race_sample(20, seed=2, kind="bearoff"))
    ax = race_chart(exact)
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert "P(win), exact" in labels


def test_bearoff_distribution():
    from nardy_fast.tables import bearoff
    a, b = race_sample(2, seed=5, kind="bearoff")
    fig, ax = plt.subplots()
    assert bearoff_distribution([a, b], ax=ax, labels=["A", "B"]) is ax
    db = bearoff.one_sided()
    heights = [p.get_height() for p in ax.patches]
    da = np.asarray(db.distribution(np.ascontiguousarray(a.mover[::-1][:6])), float)
    db_ = np.asarray(db.distribution(np.ascontiguousarray(b.mover[::-1][:6])), float)
    nz = lambda d: d[np.flatnonzero(d > 1e-9)[0]:np.flatnonzero(d > 1e-9)[-1] + 1]
    assert heights == pytest.approx(list(nz(da)) + list(nz(db_)), abs=1e-12)
    assert any(t.get_text().startswith("A: mean") for t in ax.get_legend().get_texts())
    with pytest.raises(ValueError, match="outside its home"):
        bearoff_distribution(Position.initial())
    with pytest.raises(ValueError, match="one or two"):
        bearoff_distribution([a, b, a])


def test_bearoff_distribution_names_the_bad_position():
    """A bad ID was Position.from_id's error alone ("position ID 'x': ..."), naming no
    item; each item is now read by ``as_position`` and named by its index."""
    a, = race_sample(1, seed=5, kind="bearoff")
    with pytest.raises(ValueError, match=r"^positions\[1\]: position ID 'x'"):
        bearoff_distribution([a, "x"])
    with pytest.raises(ValueError, match=r"^positions\[0\] \(W.*\): the side on roll has "
                                         "checkers outside its home"):
        bearoff_distribution(Position.initial())


@pytest.mark.slow
def test_bearoff_distribution_bars_are_the_distribution():
    """Two tiny positions: every bar (height and place) against the turn distribution of
    the rule book's brute force (tests/naive_race.py), the legend against its mean."""
    import naive_race
    boards = [(0, 0, 0, 0, 0, 1), (0, 0, 1, 2, 0, 1)]  # point 24 first: 1 on 19; 4 checkers
    ps = [Position.from_boards(naive_race.to24(b), naive_race.to24((1, 0, 0, 0, 0, 0)))
          for b in boards]
    fig, ax = plt.subplots()
    bearoff_distribution(ps, ax=ax, labels=["A", "B"])
    bars = list(ax.patches)
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    width = 0.8 / 2
    for k, b in enumerate(boards):
        want = naive_race.turn_distribution(b)
        ts = [t for t, p in enumerate(want) if p > 0]       # no gaps in these
        mine, bars = bars[:len(ts)], bars[len(ts):]
        assert [p.get_height() for p in mine] == pytest.approx([want[t] for t in ts],
                                                               abs=1e-12)
        centres = [p.get_x() + p.get_width() / 2 for p in mine]
        assert centres == pytest.approx([t + (k - 0.5) * width for t in ts])
        mean = naive_race.mean_turns(b)
        assert legend[k] == f"{'AB'[k]}: mean {mean:.3f} turns, EPC {mean * 49 / 6:.1f} pips"
    assert bars == []
    # one checker on point 19: 2 turns after the 9 rolls of fewer than 6 pips
    assert naive_race.turn_distribution(boards[0]) == pytest.approx((0, 27 / 36, 9 / 36))


def test_convergence_chart():
    cv = convergence_report(Position.initial(), [36, 72], seed=1, truncate=None, workers=1)
    fig, ax = plt.subplots()
    assert convergence_chart(cv, ax=ax) is ax
    line = ax.get_lines()[0]
    assert list(line.get_xdata()) == [36, 72]
    assert list(line.get_ydata()) == pytest.approx(cv["equity"].tolist())
    assert ax.get_xscale() == "log"
    assert convergence_chart(cv, column="p_win").get_ylabel() == "probability (side on roll)"
    with pytest.raises(ValueError, match="se_equity"):
        convergence_chart(cv.drop(columns="se_equity"))
    # a race_report's table rows (0 games) drew a log axis from 0 after a warning
    with pytest.raises(ValueError, match="a row of 0 games"):
        convergence_chart(cv.assign(games=[0, 72]))


def test_convergence_chart_says_whose_chances_it_draws():
    """The axis said "equity (points)" or "probability" without whose: the race chart's
    say the side on roll, as the report's numbers are."""
    cv = convergence_report(Position.initial(), [36, 72], seed=1, truncate=None, workers=1)
    assert convergence_chart(cv).get_ylabel() == "equity (points, side on roll)"
    assert convergence_chart(cv, column="p_win").get_ylabel() == "probability (side on roll)"


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


def test_game_chart_of_a_short_game_is_readable():
    """A game of one turn had its turns ticked 1.0, 1.2, ... 2.0, and a record of no turn
    (one position: ``nardy-fast report`` of it) drew an empty frame under a legend of
    three lines, each a single point and so invisible."""
    gr = game_report(random_game(seed=1, max_turns=1))
    ax = game_chart(gr)
    ax.figure.canvas.draw()
    lo, hi = ax.get_xlim()
    ticks = [t for t in ax.get_xticks() if lo <= t <= hi]
    assert ticks and all(t == int(t) for t in ticks)
    one = game_report(random_game(seed=1, max_turns=0))
    assert len(one) == 1
    ax = game_chart(one)
    lines = ax.get_lines() + ax.right_ax.get_lines()
    assert len(lines) == 3 and all(line.get_marker() not in ("None", "", None)
                                   for line in lines)
    assert all(line.get_marker() in ("None", "", None) for line in game_chart(gr).get_lines())


def test_race_chart_bin_mean_of_one_pip_difference_is_drawn():
    """Rows all at one pip difference fall in one bin: its mean line was a single point,
    drawn as nothing under its legend entry."""
    one = race_report(race_sample(1, seed=1) * 6)
    ax = race_chart(one)
    means = [line for line in ax.get_lines() if "mean of each bin" in line.get_label()]
    assert len(means) == 2 and all(len(line.get_xdata()) == 1 for line in means)
    assert all(line.get_marker() not in ("None", "", None) for line in means)
    means = [line for line in race_chart(race_report(race_sample(12, seed=1))).get_lines()
             if "mean of each bin" in line.get_label()]
    assert all(line.get_marker() in ("None", "", None) for line in means)


def test_bearoff_distribution_ticks_whole_turns():
    """A board with every checker off (0 turns, certainly) had its turns ticked -0.4,
    -0.3, ... 0.4."""
    for board in ([0] * 6, race_sample(1, seed=1)[0]):
        ax = bearoff_distribution(board)
        ax.figure.canvas.draw()
        lo, hi = ax.get_xlim()
        ticks = [t for t in ax.get_xticks() if lo <= t <= hi]
        assert ticks and all(t == int(t) for t in ticks)


def test_race_chart_doubling_window():
    from nardy_fast.engine.evaluation.cubemodel import doubling_window
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


def test_game_chart_says_how_the_win_chances_were_obtained():
    """The curve of White's chances is labelled with the report's methods as people read
    them (it said only "P(White wins)", a net's estimate looking like a fact); the
    finished game's row, which values nothing, is not among them."""
    rec = random_game(seed=1)
    gr = game_report(rec)
    assert "final" in set(gr["method"]) and "net 0-ply" in set(gr["method"])
    label = game_chart(gr).right_ax.get_lines()[0].get_label()
    assert label.startswith("P(White wins) (net 0-ply")
    assert "game over" not in label
    for m in set(gr["method"]) - {"final"}:
        assert method_label(m) in label
    plt.close("all")


def test_bearoff_distribution_labels_one_a_position():
    """Fewer labels than positions raised a bare IndexError ("list index out of range"),
    and one position's label given as a str was cut to its first letter ("M: mean ...")."""
    ps = race_sample(2, seed=1)
    with pytest.raises(ValueError, match=r"^bearoff_distribution: labels: 1 for 2 "
                                         r"position\(s\); expected one a position$"):
        bearoff_distribution(ps, labels=["A"])
    with pytest.raises(ValueError, match="labels: 3 for 2"):
        bearoff_distribution(ps, labels=["A", "B", "C"])
    ax = bearoff_distribution(ps[0], labels="Mine")
    assert [t.get_text() for t in ax.get_legend().get_texts()][0].startswith("Mine: mean ")
    ax = bearoff_distribution(ps, labels=("A", "B"))
    assert [t.get_text()[:2] for t in ax.get_legend().get_texts()] == ["A:", "B:"]
    plt.close("all")


def test_game_chart_of_rollouts_gives_their_games():
    """A game analysed by rollouts was labelled "P(White wins) (rollout)": how many games
    stood behind each point was not said.  It comes from the report's settings."""
    rec = random_game(seed=1, max_turns=3)
    gr = game_report(rec, method="rollout", n_games=36, seed=1, workers=1, truncate=None,
                     progress=False)
    label = game_chart(gr).right_ax.get_lines()[0].get_label()
    assert label == "P(White wins) (rollout of 36 games a position)"
    gr.attrs = {}                                 # a report read back from a file
    assert game_chart(gr).right_ax.get_lines()[0].get_label() == "P(White wins) (rollout)"
    plt.close("all")


def test_bearoff_distribution_refuses_counts_it_cannot_read():
    """A board given as counts was cast to uint8 before any check: 2.5 checkers drew the
    board with 2, and -2 became 254 ("258 checkers").  They are now refused as the
    database refuses them, naming the position."""
    with pytest.raises(TypeError, match=r"^positions\[0\]: expected integer checker "
                                        r"counts, got dtype float64"):
        bearoff_distribution([0, 0, 2.5, 1, 0, 3])
    with pytest.raises(ValueError, match=r"^positions\[1\] idx 2: -2 checkers, counts "
                                         r"must be >= 0"):
        bearoff_distribution([[0, 0, 2, 1, 0, 3], [0, 0, -2, 1, 0, 3]])
    board = np.zeros(24)
    board[20] = 2.9
    with pytest.raises(TypeError, match=r"^positions\[0\]: expected integer"):
        bearoff_distribution(board)
    board = np.zeros(24, np.int64)
    board[4] = 3
    with pytest.raises(ValueError, match=r"^positions\[0\]: 3 checker\(s\) on point 5, "
                                         r"outside the home"):
        bearoff_distribution(board)
    ax = bearoff_distribution(np.array([0, 0, 2, 1, 0, 3], np.int16))    # any integer type
    assert ax.get_legend().get_texts()[0].get_text() == \
        "position: mean 4.318 turns, EPC 35.3 pips"


@pytest.mark.parametrize("bins", [0, -3, True, 2.5, "12", [0], [3, 1], [[0, 1]]])
def test_race_chart_names_bad_bins(bins):
    """``bins``: a count of at least 1 or increasing edges; numpy's own error named
    neither ``race_chart`` nor what fits, and one edge drew an empty line."""
    import nardy_fast as nf
    frame = nf.race_report(nf.race_sample(8, seed=1))
    with pytest.raises((TypeError, ValueError), match=r"^race_chart: bins="):
        nf.race_chart(frame, bins=bins)
    plt.close("all")
