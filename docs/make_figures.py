"""Draw the README's figure (``docs/images/game_chart.png``) from a seeded game.

Run: ``python docs/make_figures.py`` (a few seconds; the same figure every time).
"""
import pathlib

import matplotlib

matplotlib.use("Agg")

import nardy_fast as nf  # noqa: E402
from nardy_fast.analysis import plot  # noqa: E402
from nardy_fast.core.diagram import save_figure  # noqa: E402

OUT = pathlib.Path(__file__).parent / "images"


def main():
    record = nf.random_game(seed=2026)                     # two random players
    frame = nf.game_report(record, analyse=True, seed=1)
    ax = plot.game_chart(frame)
    ax.set_title("A random game: the pip counts, and White's P(win) by the shipped net")
    OUT.mkdir(exist_ok=True)
    save_figure(ax, OUT / "game_chart.png", dpi=90)


if __name__ == "__main__":
    main()
