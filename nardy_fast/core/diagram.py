"""Board diagrams (matplotlib): ``plot_board``, ``board_png`` (``Position._repr_png_``) and
``save_figure``; the charts of the analysis layer are in ``nardy_fast.analysis.plot``.

The diagram shows the 24 points, checkers with counts, both sides' numbering, the side on
roll, pip counts, checkers off and, when given, the cube (``CubeState``).
"""
from __future__ import annotations

import io
import os
import re

from nardy_fast._utils._io import atomic_write
from nardy_fast.core.cubestate import check_cube_state
from nardy_fast.core.position import BLACK, WHITE, as_position

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

    from nardy_fast.core.cubestate import CubeState
    from nardy_fast.core.position import Position

__all__ = ["plot_board", "board_png", "board_svg", "save_figure", "new_axes"]

_WHITE_FILL, _BLACK_FILL = "#f7f3e8", "#2b2b2b"
_BOARD, _DARK, _LIGHT = "#e3c79f", "#9c5b2e", "#f4e2c2"
_MAX_STACK = 5


def new_axes(ax: Axes | None, figsize: tuple[float, float] = (7, 4)) -> Axes:
    if ax is not None:
        return ax
    # lazy: matplotlib is slow to import, and only pictures need it
    import matplotlib.pyplot as plt

    _, ax = plt.subplots(figsize=figsize)
    return ax


# -- board ------------------------------------------------------------------------------
def _column_x(c):
    """x centre of column c (0..11, left to right) with a bar between the halves."""
    return c + (1 if c >= 6 else 0) + 0.5


def plot_board(position: Position | str, ax: Axes | None = None, title: bool = True,
               cube: CubeState | None = None) -> Axes:
    """Draw a board diagram of ``position`` (a Position or an ID); returns the Axes.

    ``cube``: a ``nardy_fast.core.cubestate.CubeState`` (kept beside the position), drawn on the bar
    as a square with the stake: in the middle, or at the owner's side (White's top, Black's
    bottom); anything else is a ``TypeError`` naming ``cube``, before any drawing.  A
    finished game (``Position.is_over()``, phase ``"over"``) shows no side on roll: the
    title names the side that has borne off all 15.

    Layout as ``Position.diagram``: the top row is White's points 12..1 (Black's 24..13)
    from left to right, the bottom row White's 13..24 (Black's 1..12).  White moves from
    the top right along the top to the left, then along the bottom to the right; Black
    the opposite way round.  Each point is labelled in both numberings (``W`` and ``B``
    rows); a stack of more than one checker shows its count.

    Returns
    -------
    matplotlib.axes.Axes
        ``ax``, or a new figure's Axes when None.

    Examples
    --------
    >>> import nardy_fast as nf
    >>> ax = nf.plot_board(nf.Position.initial())
    >>> ax.get_title()
    'White on roll   ·   pips W 360  B 360'
    """
    # lazy: matplotlib is slow to import, and only pictures need it
    from matplotlib.patches import Circle, Polygon, Rectangle

    position = as_position(position, "plot_board")
    check_cube_state(cube)
    ax = new_axes(ax, figsize=(7.5, 5.2))
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
    over = position.is_over()                   # a side has borne off: no side is on roll
    roll_w, roll_b = (on_w and not over), (not on_w and not over)
    ax.text(13.3, 9, f"White{' (on roll)' if roll_w else ''}\npips {wp}\noff {wo}",
            ha="left", va="center", fontsize=9, fontweight="bold" if roll_w else "normal",
            bbox=dict(boxstyle="round", facecolor=_WHITE_FILL, edgecolor="black",
                      lw=2.5 if roll_w else 0.8))
    ax.text(13.3, 3, f"Black{' (on roll)' if roll_b else ''}\npips {bp}\noff {bo}",
            ha="left", va="center", fontsize=9, color="white",
            fontweight="bold" if roll_b else "normal",
            bbox=dict(boxstyle="round", facecolor=_BLACK_FILL,
                      edgecolor="#c0392b" if roll_b else _BLACK_FILL,
                      lw=2.5 if roll_b else 0.8))
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
        who = (f"{'White' if wo == 15 else 'Black'} has borne off all 15 (game over)"
               if over else f"{position.side.capitalize()} on roll")
        ax.set_title(f"{who}   ·   pips W {wp}  B {bp}", fontsize=11)
        ax.text(6.5, -1.7, position.id, ha="center", va="center", fontsize=7,
                family="monospace", color="#444444")
    ax.set_xlim(-1.0, 15.6)
    ax.set_ylim(-2.1, 13.5)
    ax.set_aspect("equal")
    ax.axis("off")
    return ax


def board_png(position: Position | str, dpi: int = 80) -> bytes:
    """PNG bytes of ``plot_board(position)`` (no pyplot state is touched)."""
    # lazy: matplotlib is slow to import, and only pictures need it
    # lazy: matplotlib is slow to import, and only pictures need it
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(7.5, 5.2))
    FigureCanvasAgg(fig)
    plot_board(position, ax=fig.add_subplot(111))
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=dpi, bbox_inches="tight")
    return buf.getvalue()


def board_svg(position: Position | str, cube: CubeState | None = None,
              id_prefix: str = "b") -> str:
    """``plot_board(position, cube=cube)`` as an inline SVG element (text, no XML header).

    The same drawing as ``board_png``; text stays text (``svg.fonttype = "none"``), and
    every ``id`` of the drawing (and each reference to it) starts with ``id_prefix`` so
    that several boards can share one HTML page.  No pyplot state is touched.
    """
    # lazy: matplotlib is slow to import, and only pictures need it
    # lazy: matplotlib is slow to import, and only pictures need it
    import matplotlib
    from matplotlib.backends.backend_svg import FigureCanvasSVG
    from matplotlib.figure import Figure

    if not isinstance(id_prefix, str) or not re.fullmatch(r"[A-Za-z][\w-]*", id_prefix):
        raise ValueError(f"id_prefix={id_prefix!r}: expected a letter, then letters, "
                         "digits, '_' or '-'")
    with matplotlib.rc_context({"svg.fonttype": "none", "svg.hashsalt": "nardy_fast"}):
        fig = Figure(figsize=(7.5, 5.2))
        FigureCanvasSVG(fig)
        plot_board(position, ax=fig.add_subplot(111), cube=cube)
        buf = io.StringIO()
        fig.savefig(buf, format="svg", bbox_inches="tight")
    text = buf.getvalue()
    text = text[text.index("<svg"):]
    text = re.sub(r"\s*<metadata>.*?</metadata>", "", text, flags=re.S)
    text = re.sub(r'id="([^"]+)"', rf'id="{id_prefix}-\1"', text)
    return re.sub(r'(url\(#|href="#)([^")]+)', rf"\1{id_prefix}-\2", text)


# -- race chart -------------------------------------------------------------------------
def save_figure(ax_or_fig: Axes | Figure, path: str | os.PathLike[str], dpi: int = 110) -> str:
    """Save the figure of an Axes (or a Figure) to ``path`` atomically; returns the path."""
    fig = getattr(ax_or_fig, "figure", ax_or_fig)
    ext = os.path.splitext(os.fspath(path))[1]
    return atomic_write(path, lambda tmp: fig.savefig(tmp, dpi=dpi, bbox_inches="tight",
                                                      format=ext.lstrip(".") or "png"))
