"""Matplotlib figures: board diagrams, race charts, bear-off distributions, rollout
convergence and game graphs.

Every function takes the data first and ``ax=None``: it draws into ``ax`` when given, else
into a new figure, and returns the ``Axes``.  The data are the frames of
``nardy_fast.report`` (column names as documented there) or positions.

============================  ===============================================================
function                      draws
============================  ===============================================================
``plot_board(position)``      the 24 points, checkers with counts, both sides' numbering,
                              the side on roll, pip counts and checkers off
``race_chart(frame)``         P(win) and P(mars win) of the side on roll against the pip
                              difference (``report.race_report``), exact and rollout rows
``bearoff_distribution(ps)``  P(bearing off in exactly t turns) of one or two positions
``convergence_chart(frame)``  a rollout estimate and its 95% band against games played
                              (``report.convergence_report``)
``game_chart(frame)``         pip counts of both sides and White's P(win) turn by turn
                              (``report.game_report``)
============================  ===============================================================

``board_png(position)`` renders a diagram to PNG bytes (``Position._repr_png_``).
"""
from __future__ import annotations

import io

import numpy as np

from nardy_fast.position import BLACK, WHITE, Position

__all__ = ["plot_board", "board_png", "race_chart", "bearoff_distribution",
           "convergence_chart", "game_chart", "save_figure"]

_WHITE_FILL, _BLACK_FILL = "#f7f3e8", "#2b2b2b"
_BOARD, _DARK, _LIGHT = "#e3c79f", "#9c5b2e", "#f4e2c2"
_MAX_STACK = 5


def _new_ax(ax, figsize=(7, 4)):
    if ax is not None:
        return ax
    import matplotlib.pyplot as plt

    _, ax = plt.subplots(figsize=figsize)
    return ax


# -- board ------------------------------------------------------------------------------
def _column_x(c):
    """x centre of column c (0..11, left to right) with a bar between the halves."""
    return c + (1 if c >= 6 else 0) + 0.5


def plot_board(position, ax=None, title=True, cube=None):
    """Draw a board diagram of ``position`` (a Position or an ID); returns the Axes.

    ``cube``: a ``nardy_fast.cube.CubeState`` (kept beside the position), drawn on the bar
    as a square with the stake: in the middle, or at the owner's side (White's top, Black's
    bottom).

    Layout as ``Position.diagram``: the top row is White's points 12..1 (Black's 24..13)
    from left to right, the bottom row White's 13..24 (Black's 1..12).  White moves from
    the top right along the top to the left, then along the bottom to the right; Black
    the opposite way round.  Each point is labelled in both numberings (``W`` and ``B``
    rows); a stack of more than one checker shows its count.
    """
    from matplotlib.patches import Circle, Polygon, Rectangle

    if isinstance(position, str):
        position = Position.from_id(position)
    if not isinstance(position, Position):
        raise TypeError(f"plot_board: expected a Position or a position ID, "
                        f"got {type(position).__name__}")
    ax = _new_ax(ax, figsize=(7.5, 5.2))
    white, black = position.white, position.black
    ax.add_patch(Rectangle((0, 0), 13, 12, facecolor=_BOARD, edgecolor="#5a3a1a", lw=2))
    ax.add_patch(Rectangle((6, 0), 1, 12, facecolor="#b08a5a", edgecolor="#5a3a1a", lw=1))
    r = 0.44
    for row in ("top", "bottom"):
        for c in range(12):
            wpoint = 12 - c if row == "top" else 13 + c
            x = _column_x(c)
            base, tip = (12, 7.2) if row == "top" else (0, 4.8)
            ax.add_patch(Polygon([(x - 0.5, base), (x + 0.5, base), (x, tip)],
                                 facecolor=_DARK if c % 2 == 0 else _LIGHT,
                                 edgecolor="none"))
            widx = wpoint - 1
            bidx = (widx + 12) % 24
            n, fill, ink = (int(white[widx]), _WHITE_FILL, "black") if white[widx] else \
                (int(black[bidx]), _BLACK_FILL, "white")
            sign = -1 if row == "top" else 1
            for k in range(min(n, _MAX_STACK)):
                y = base + sign * (r + 0.02 + 2 * (r + 0.02) * k)
                ax.add_patch(Circle((x, y), r, facecolor=fill, edgecolor="black", lw=1))
            if n > 1:
                y = base + sign * (r + 0.02 + 2 * (r + 0.02) * (min(n, _MAX_STACK) - 1))
                ax.text(x, y, str(n), ha="center", va="center", fontsize=9,
                        color=ink, fontweight="bold")
            bpoint = bidx + 1
            wy, by = (12.35, 12.95) if row == "top" else (-0.35, -0.95)
            ax.text(x, wy, str(wpoint), ha="center", va="center", fontsize=8)
            ax.text(x, by, str(bpoint), ha="center", va="center", fontsize=8, color="#666666")
    for y_w, y_b in ((12.35, 12.95), (-0.35, -0.95)):
        ax.text(-0.3, y_w, "W", ha="right", va="center", fontsize=8, fontweight="bold")
        ax.text(-0.3, y_b, "B", ha="right", va="center", fontsize=8, color="#666666",
                fontweight="bold")
    pm, po = position.pips
    om, oo = position.off
    wp, bp = (pm, po) if position.side == WHITE else (po, pm)
    wo, bo = (om, oo) if position.side == WHITE else (oo, om)
    on_w = position.side == WHITE
    ax.text(13.3, 9, f"White{' (on roll)' if on_w else ''}\npips {wp}\noff {wo}", ha="left",
            va="center", fontsize=9, fontweight="bold" if on_w else "normal",
            bbox=dict(boxstyle="round", facecolor=_WHITE_FILL, edgecolor="black",
                      lw=2.5 if on_w else 0.8))
    ax.text(13.3, 3, f"Black{'' if on_w else ' (on roll)'}\npips {bp}\noff {bo}", ha="left",
            va="center", fontsize=9, color="white", fontweight="normal" if on_w else "bold",
            bbox=dict(boxstyle="round", facecolor=_BLACK_FILL,
                      edgecolor="#c0392b" if not on_w else _BLACK_FILL,
                      lw=0.8 if on_w else 2.5))
    if cube is not None:
        owner = None if cube.owner == "centre" else (
            position.side if cube.owner == "mover" else
            (BLACK if position.side == WHITE else WHITE))
        cy = 6.0 if owner is None else (10.3 if owner == WHITE else 1.7)
        ax.add_patch(Rectangle((6.08, cy - 0.42), 0.84, 0.84, facecolor="#fdf6e3",
                               edgecolor="black", lw=1.2, zorder=5))
        ax.text(6.5, cy, str(cube.stake), ha="center", va="center", fontsize=9,
                fontweight="bold", zorder=6)
    if title:
        ax.set_title(f"{position.side.capitalize()} on roll   ·   pips W {wp}  B {bp}",
                     fontsize=11)
        ax.text(6.5, -1.7, position.id, ha="center", va="center", fontsize=7,
                family="monospace", color="#444444")
    ax.set_xlim(-1.0, 15.6)
    ax.set_ylim(-2.1, 13.5)
    ax.set_aspect("equal")
    ax.axis("off")
    return ax


def board_png(position, dpi=80):
    """PNG bytes of ``plot_board(position)`` (no pyplot state is touched)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(7.5, 5.2))
    FigureCanvasAgg(fig)
    plot_board(position, ax=fig.add_subplot(111))
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=dpi, bbox_inches="tight")
    return buf.getvalue()


# -- race chart -------------------------------------------------------------------------
def race_chart(frame, ax=None, x="pip_diff", bins=None, cube=None, efficiency=None):
    """P(win) and P(mars win) of the side on roll against ``x`` (default the pip
    difference, mover minus opponent) from a ``report.race_report`` frame.

    Exact rows (bear-off database) are dots, rollout rows crosses with 95% error bars;
    a line joins the mean of each ``x`` bin (``bins``: an int or edges; default about
    12 bins).  ``cube`` (``"geometric"`` or ``"arithmetic"``) overlays the doubling window
    of a centred cube at stake 1 (``cube.doubling_window``): P(win) from the double point
    to the opponent's pass point shaded as "double, take", above it "double, pass", for
    the cube efficiency ``efficiency`` (default: the race value at the frame's median
    pips of the side on roll, or 0.68).  Returns the Axes.
    """
    for col in (x, "p_win", "p_mars_win", "method"):
        if col not in frame.columns:
            raise ValueError(f"race_chart: the frame has no {col!r} column "
                             "(use report.race_report)")
    ax = _new_ax(ax)
    exact = frame["method"] != "rollout"
    for col, colour, label in (("p_win", "C0", "P(win)"), ("p_mars_win", "C3", "P(mars win)")):
        if exact.any():
            ax.scatter(frame.loc[exact, x], frame.loc[exact, col], s=12, color=colour,
                       alpha=0.5, label=f"{label}, exact")
        if (~exact).any():
            se = frame.loc[~exact, "se_" + col] if "se_" + col in frame else None
            ax.errorbar(frame.loc[~exact, x], frame.loc[~exact, col],
                        yerr=None if se is None else 1.96 * se, fmt="x", ms=4,
                        color=colour, alpha=0.6, elinewidth=0.8, label=f"{label}, rollout")
        if len(frame) >= 4:
            nb = bins if bins is not None else min(12, max(2, len(frame) // 8))
            edges = np.histogram_bin_edges(frame[x], bins=nb)
            idx = np.clip(np.digitize(frame[x], edges) - 1, 0, len(edges) - 2)
            g = frame.groupby(idx)
            centres = g[x].mean()
            ax.plot(centres, g[col].mean(), color=colour, lw=1.5)
    if cube is not None:
        from nardy_fast.cube import RACE_EFFICIENCY, doubling_window
        if efficiency is None:
            if "pips_mover" in frame.columns and len(frame):
                xs, ys = zip(*RACE_EFFICIENCY)
                efficiency = float(np.interp(frame["pips_mover"].median(), xs, ys))
            else:
                efficiency = 0.68
        lo, hi = doubling_window(efficiency, cube)
        ax.axhspan(lo, hi, color="C2", alpha=0.15,
                   label=f"double, take ({lo:.2f}-{hi:.2f}, x = {efficiency:.2f})")
        ax.axhspan(hi, 1.0, color="C1", alpha=0.12, label="double, pass")
    ax.axvline(0, color="grey", lw=0.7, ls=":")
    ax.set_xlabel("pip difference, side on roll minus opponent (pips)" if x == "pip_diff"
                  else x)
    ax.set_ylabel("probability (side on roll)")
    ax.set_ylim(-0.02, 1.02)
    ax.set_title("Race: win and mars against pip difference")
    ax.legend(fontsize=8, loc="best")
    return ax


# -- bear-off distribution ---------------------------------------------------------------
def _board6(item):
    if isinstance(item, str):
        item = Position.from_id(item)
    if isinstance(item, Position):
        b = item.mover
        if b[:18].any():
            raise ValueError(f"position {item.id}: the side on roll has checkers outside its "
                             "home; the bear-off database does not apply")
        return np.ascontiguousarray(b[23:17:-1], dtype=np.uint8)
    a = np.asarray(item)
    if a.shape == (24,):
        if a[:18].any():
            raise ValueError("board: checkers outside the home (points 19-24)")
        return np.ascontiguousarray(a[23:17:-1], dtype=np.uint8)
    if a.shape == (6,):
        return np.ascontiguousarray(a, dtype=np.uint8)
    raise ValueError(f"bear-off board: expected a Position, an ID, 24 or 6 counts, "
                     f"got shape {a.shape}")


def _single_board(x):
    """True for one Position, ID or board (not a list of them)."""
    if isinstance(x, (Position, str)):
        return True
    if isinstance(x, (list, tuple)) and x and isinstance(x[0], (Position, str, list, tuple,
                                                                np.ndarray)):
        return False
    return np.ndim(x) == 1


def bearoff_distribution(positions, ax=None, labels=None, db=None):
    """Bars of P(the side on roll bears off in exactly t turns) for one or two positions.

    ``positions``: a Position/ID/board, or a list of up to two (their side on roll must be
    all home; a board is 24 counts in own numbering or the 6 home counts, point 24 first).
    ``db``: a one-sided database (default ``bearoff.one_sided()``).  The legend gives the
    mean turns and the EPC (mean x 49/6 pips).  Returns the Axes.
    """
    if _single_board(positions):
        positions = [positions]
    positions = list(positions)
    if not 1 <= len(positions) <= 2:
        raise ValueError(f"bearoff_distribution: expected one or two positions, "
                         f"got {len(positions)}")
    if db is None:
        from nardy_fast.bearoff import one_sided
        db = one_sided()
    ax = _new_ax(ax)
    width = 0.8 / len(positions)
    for k, item in enumerate(positions):
        b6 = _board6(item)
        dist = np.asarray(db.distribution(b6), dtype=float)
        t = np.arange(len(dist))
        mean = float(db.mean_turns(b6))
        name = labels[k] if labels else (f"position {k + 1}" if len(positions) > 1 else
                                         "position")
        nz = np.flatnonzero(dist > 1e-9)
        if nz.size:
            t, dist = t[nz[0]:nz[-1] + 1], dist[nz[0]:nz[-1] + 1]
        ax.bar(t + (k - (len(positions) - 1) / 2) * width, dist, width=width,
               color=f"C{k}", alpha=0.85,
               label=f"{name}: mean {mean:.3f} turns, EPC {mean * 49 / 6:.1f} pips")
    ax.set_xlabel("turns to bear off (own turns)")
    ax.set_ylabel("probability")
    ax.set_title("Turns to bear off")
    ax.legend(fontsize=8)
    return ax


# -- convergence ------------------------------------------------------------------------
def convergence_chart(frame, ax=None, column="equity"):
    """A rollout estimate (``column``: ``"equity"`` or ``"p_win"``) and its 95% confidence
    band against games played, from ``report.convergence_report``; returns the Axes."""
    for col in ("games", column, "se_" + column):
        if col not in frame.columns:
            raise ValueError(f"convergence_chart: the frame has no {col!r} column "
                             "(use report.convergence_report)")
    import matplotlib.ticker

    ax = _new_ax(ax)
    f = frame.sort_values("games")
    g, est, se = f["games"].to_numpy(float), f[column].to_numpy(float), \
        f["se_" + column].to_numpy(float)
    ax.fill_between(g, est - 1.96 * se, est + 1.96 * se, color="C0", alpha=0.25,
                    label="95% confidence band")
    ax.plot(g, est, "o-", color="C0", ms=4, label=column)
    ax.axhline(est[-1], color="grey", lw=0.7, ls=":")
    ax.set_xscale("log")
    ax.set_xticks(g, [f"{int(x):,}" for x in g])
    ax.xaxis.set_minor_formatter(matplotlib.ticker.NullFormatter())
    ax.set_xlabel("games rolled out")
    ax.set_ylabel("equity (points)" if column == "equity" else "probability")
    ax.set_title(f"Rollout convergence: {column}")
    ax.legend(fontsize=8)
    return ax


# -- game graph -------------------------------------------------------------------------
def game_chart(frame, ax=None):
    """Pip counts of White and Black per turn and, when the frame has ``p_win_white``,
    White's win probability on a second axis (from ``report.game_report``).

    Returns the pip Axes; the probability Axes is ``ax.right_ax`` when drawn.
    """
    for col in ("turn", "pips_white", "pips_black"):
        if col not in frame.columns:
            raise ValueError(f"game_chart: the frame has no {col!r} column "
                             "(use report.game_report)")
    ax = _new_ax(ax, figsize=(8, 4))
    ax.plot(frame["turn"], frame["pips_white"], color="#b8860b", lw=1.6, label="White pips")
    ax.plot(frame["turn"], frame["pips_black"], color="black", lw=1.6, label="Black pips")
    ax.set_xlabel("turn (one side's move)")
    ax.set_ylabel("pips")
    handles, labels = ax.get_legend_handles_labels()
    if "p_win_white" in frame.columns:
        right = ax.twinx()
        right.plot(frame["turn"], frame["p_win_white"], color="C0", lw=1.2, ls="--",
                   label="P(White wins)")
        right.set_ylim(-0.02, 1.02)
        right.set_ylabel("P(White wins)")
        h2, l2 = right.get_legend_handles_labels()
        handles, labels = handles + h2, labels + l2
        ax.right_ax = right
    ax.legend(handles, labels, fontsize=8, loc="lower left")
    ax.set_title("Game graph")
    return ax


def save_figure(ax_or_fig, path, dpi=110):
    """Save the figure of an Axes (or a Figure) to ``path`` atomically; returns the path."""
    import os

    from nardy_fast._io import atomic_write

    fig = getattr(ax_or_fig, "figure", ax_or_fig)
    ext = os.path.splitext(os.fspath(path))[1]
    return atomic_write(path, lambda tmp: fig.savefig(tmp, dpi=dpi, bbox_inches="tight",
                                                      format=ext.lstrip(".") or "png"))
