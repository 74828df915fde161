"""The main job on a small default: ``python -m nardy_fast.app.demo`` or ``nardy-fast demo``.

Rolls out the start position and a few middle-game positions of a sample game (the net's
moves) and evaluates them with the evaluator, values a bear-off position by the bear-off
tables (exact where a two-sided table covers it, else the one-sided approximation), ranks the
moves of one decision, replays, graphs and marks the sample game, and writes the reports (CSV, HTML, Parquet) and figures (PNG) to a folder (default
``demo_output/``), then prints where.  Seeded: the same seed gives the same files.  The
files go into the folder together at the end: an interrupted run (Ctrl-C, SIGTERM) writes
none, and leaves an earlier run's files whole.

Outputs
-------
=============================  ==============================================================
file                           content
=============================  ==============================================================
``positions.txt``              the IDs of the positions analysed
``pip_report.{csv,html}``      ``report.pip_report`` of those positions
``win_report.{csv,html,parquet}``  ``report.win_report`` (rollouts by the net; a bear-off
                               position plays no roll: its row is the table's, its
                               ``method`` the table's and 0 games)
``evaluator_report.{csv,html}``  ``report.win_report`` by the evaluator at 1-ply
``move_report.{csv,html}``     ``report.move_report``: the legal moves of one decision ranked
                               by the evaluator at 1-ply; ``move_report_rollout``: by rollouts
``convergence.{csv,png}``      ``report.convergence_report`` of the start, and its chart
``race.{csv,png}``             bear-off races by the tables (each row's ``method``: exact
                               or the one-sided approximation) and rolled-out races: the
                               race chart
``bearoff_distribution.png``   turns to bear off of two bear-off positions
``sample_game.txt``            the sample game as a game record (``nardy_fast.core.record``)
``game_report.{csv,html}``     ``report.game_report`` of it, every move marked by the
                               evaluator; ``game_graph.png`` its graph; ``error_rates.csv``
``board_*.png``                board diagrams of the positions analysed
=============================  ==============================================================
"""
from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time


from nardy_fast.analysis import plot, report
from nardy_fast.analysis.export import save as save_frame
from nardy_fast.app._args import (SIGTERM_STATUS, CliError, out_folder, path_name,
                                  positive_int, seed as seed_type, sigterm_as_ctrl_c)
from nardy_fast._utils._io import atomic_write_text
from nardy_fast.core.diagram import plot_board, save_figure
from nardy_fast.core.position import Position
from nardy_fast.core.record import random_game, write_record
from nardy_fast.engine.play.rollout import Stopped

DEFAULT_GAMES = 2000          # games per rollout of the analysed positions
DEFAULT_SEED = 2026           # the demo's seed (``nardy-fast demo --seed``)
MOVE_GAMES = 300              # games per legal move in the move report
GAME_GAMES = 100              # games per position of the sample game's graph
RACE_EXACT, RACE_ROLLOUT = 80, 10


def _middle_positions(record, k=3):
    """``k`` contact positions spread through the record's game (White on roll)."""

    pos = record.positions()
    cands = [i for i, p in enumerate(pos) if p.phase == "contact" and i >= 10]
    if not cands:
        return []
    step = max(1, len(cands) // (k + 1))
    return [pos[cands[min(len(cands) - 1, step * (j + 1))]] for j in range(k)]


def _bearoff_position(record):

    for p in record.positions():
        if p.phase == "bearoff":
            return p
    return None


class _Output:
    """The demo's folder; ``files`` lists every file written, in order.  They are written
    to a hidden folder inside it, and moved into it by ``commit`` (or removed by
    ``discard``), so that the folder never holds part of a run."""

    def __init__(self, out):
        os.makedirs(out, exist_ok=True)
        self.out, self.files = out, []
        self.work = tempfile.mkdtemp(prefix=".demo-", dir=out)

    def path(self, name):
        return os.path.join(self.work, name)

    def commit(self):
        """Move the files written into the folder; returns their paths there."""
        moved = []
        for f in self.files:
            moved.append(os.path.join(self.out, os.path.basename(f)))
            os.replace(f, moved[-1])
        os.rmdir(self.work)
        self.files = moved
        return moved

    def discard(self):
        shutil.rmtree(self.work, ignore_errors=True)

    def table(self, df, stem, kinds=("csv", "html"), title=None):
        for k in kinds:
            kw = {"title": title or stem.replace("_", " ")} if k == "html" else {}
            self.files.append(save_frame(df, self.path(f"{stem}.{k}"), **kw))

    def figure(self, ax, name):
        # lazy: matplotlib is slow to import, and only pictures need it
        import matplotlib.pyplot as plt
        self.files.append(save_figure(ax, self.path(name)))
        plt.close(ax.figure)

    def text(self, name, text):
        self.files.append(atomic_write_text(self.path(name), text))


def _sample_game(o, seed):
    """1. A sample game and the positions to analyse: the start, three middle-game
    positions of the game and its first bear-off position."""
    game = random_game(seed=seed, policy="race", white="race policy", black="race policy")
    game.tags["Event"] = "nardy_fast demo"
    o.files.append(write_record(game, o.path("sample_game.txt")))
    middle = _middle_positions(game)
    bear = _bearoff_position(game)
    positions = [Position.initial()] + middle + ([bear] if bear is not None else [])
    o.text("positions.txt", "# position IDs analysed by the demo: start, middle game, "
           "bear-off\n" + "\n".join(p.id for p in positions) + "\n")
    return game, positions, middle


def _win_reports(o, positions, n_games, kw, say):
    """2. Pip and win reports (rollouts by the net; the evaluator at 1-ply), boards."""
    o.table(report.pip_report(positions), "pip_report")
    say(f"rolling out {len(positions)} positions, {n_games} games each (the net's moves) ...")
    wr = report.win_report(positions, method="rollout", n_games=n_games, **kw)
    o.table(report.win_report(positions, plies=1), "evaluator_report")
    try:
        import pyarrow  # noqa: F401
        o.table(wr, "win_report", ("csv", "html", "parquet"))
    except ImportError:
        o.table(wr, "win_report")
        say("(pyarrow is not installed: win_report.parquet skipped)")
    for k, p in enumerate(positions):
        o.figure(plot_board(p), f"board_{k + 1:02d}.png")
    return wr


def _decision(o, position, n_games, kw):
    """3. One decision: the moves of ``position`` for a 6-3, by the evaluator and rollouts."""
    mr = report.move_report(position, (6, 3), plies=1)
    o.table(mr, "move_report")
    o.table(report.move_report(position, (6, 3), method="rollout",
                               n_games=min(n_games, MOVE_GAMES), **kw), "move_report_rollout")
    return mr


def _convergence_and_races(o, start, n_games, seed, kw):
    """4.-6. The start's rollout converging; the race chart (bear-off races by the tables
    and a few rolled-out races); turns to bear off of two positions."""
    import pandas as pd          # lazy: pandas is slow to import; import nardy_fast skips it
    sizes = sorted({max(1, n_games // 8), max(1, n_games // 4), max(1, n_games // 2),
                    n_games, 2 * n_games})
    cv = report.convergence_report(start, n_games=sizes, **kw)
    o.table(cv, "convergence", ("csv",))
    o.figure(plot.convergence_chart(cv), "convergence.png")
    exact = report.race_report(report.race_sample(RACE_EXACT, seed, "bearoff"))
    rolled = report.race_report(report.race_sample(RACE_ROLLOUT, seed, "race"),
                                method="rollout", n_games=min(n_games, MOVE_GAMES), **kw)
    race = pd.concat([exact, rolled], ignore_index=True)
    o.table(race, "race", ("csv",))
    o.figure(plot.race_chart(race), "race.png")
    b1 = report.race_sample(1, seed, "bearoff")[0]
    b2 = report.race_sample(1, seed + 1, "bearoff")[0]
    o.figure(plot.bearoff_distribution([b1, b2], labels=["A", "B"]),
             "bearoff_distribution.png")


def _game(o, game):
    """7. The sample game, turn by turn, every move marked by the evaluator."""
    gr = report.game_report(game, analyse=True)
    o.table(gr, "game_report")
    o.table(report.error_rates(gr).reset_index(), "error_rates", ("csv",))
    o.figure(plot.game_chart(gr), "game_graph.png")


def run(out="demo_output", n_games=None, seed=DEFAULT_SEED, workers=None, quiet=False):
    """Run the demo job and return the list of files written (see the module docstring)."""
    # lazy: matplotlib is slow to import, and only pictures need it
    import matplotlib
    if "matplotlib.pyplot" not in sys.modules:
        matplotlib.use("Agg")
    n_games = DEFAULT_GAMES if n_games is None else int(n_games)
    if n_games < 1:
        raise ValueError(f"n_games={n_games}: expected a positive integer")
    say = (lambda *a: None) if quiet else (lambda *a: print(*a, flush=True))
    t0 = time.perf_counter()
    o = _Output(out)
    kw = dict(seed=seed, workers=workers)
    try:
        game, positions, middle = _sample_game(o, seed)
        say(f"sample game: {len(game.turns)} turns, result {game.result()}")
        wr = _win_reports(o, positions, n_games, kw, say)
        decision = middle[0] if middle else positions[0]
        mr = _decision(o, decision, n_games, kw)
        _convergence_and_races(o, positions[0], n_games, seed, kw)
        _game(o, game)
    except KeyboardInterrupt:
        o.discard()
        raise Stopped("demo", f"before writing its files to {out}",
                      kept=("run it again to write them",)) from None
    except BaseException:
        o.discard()
        raise
    o.commit()
    say("")
    say("the positions analysed: probabilities and equity (points per game) of the side on "
        "roll, by the method named")
    say(wr[["id", "side", "method", "p_win", "p_mars_win", "p_mars_loss", "equity",
            "se_equity", "games"]].to_string(index=False, float_format=lambda v: f"{v:.4f}"))
    say("")
    say(f"best moves for 6-3 in {decision.id}, by the evaluator at 1-ply (equity in points "
        f"per game, the mover's view):")
    say(mr[["rank", "move", "equity", "equity_loss"]].head(5)
        .to_string(index=False, float_format=lambda v: f"{v:+.4f}"))
    say("")
    say(f"wrote {len(o.files)} files to {os.path.abspath(out)} "
        f"in {time.perf_counter() - t0:.1f} s")
    return o.files


DESCRIPTION = ("Roll out the start position and a few middle-game positions, and write "
               "reports (CSV, HTML) and figures (PNG) to a folder.")


def add_arguments(parser):
    """The demo's options, for ``nardy-fast demo`` and ``python -m nardy_fast.app.demo``."""
    parser.add_argument("-o", "--out", type=path_name, default="demo_output",
                        help="output folder (default demo_output)")
    parser.add_argument("-n", "--games", type=positive_int, default=None,
                        help=f"games per rollout (default {DEFAULT_GAMES})")
    parser.add_argument("--seed", type=seed_type, default=DEFAULT_SEED,
                        help=f"random seed (default {DEFAULT_SEED})")
    parser.add_argument("--workers", type=positive_int, default=None, help="worker processes")


def main(argv=None):
    """``python -m nardy_fast.app.demo [options]``: the same as ``nardy-fast demo [options]``
    (an interrupt, Ctrl-C or SIGTERM, is one line, with exit status 130 or 143); returns
    the exit status."""
    parser = argparse.ArgumentParser(prog="python -m nardy_fast.app.demo",
                                     description=DESCRIPTION)
    add_arguments(parser)
    args = parser.parse_args(argv)
    try:
        out_folder(args.out)        # a file of that name, or no right: the option named
    except CliError as e:
        parser.error(str(e))
    with sigterm_as_ctrl_c() as stop:
        try:
            run(out=args.out, n_games=args.games, seed=args.seed, workers=args.workers)
        except KeyboardInterrupt as e:
            print(f"{parser.prog}: interrupted" + (f": {e}" if str(e) else ""),
                  file=sys.stderr)
            return SIGTERM_STATUS if stop.terminated else 130
    return 0


if __name__ == "__main__":
    sys.exit(main())
