"""The analysis page (``analysis.page.to_html``): CPU time and size for a played match.

A match of ``--length`` points between two greedy players (``play_one_match``, seed
``--seed``), analysed with ``matchreport.analyse_match`` (net 0-ply, the default), then
written as a page; prints the turns, the CPU-seconds of the analysis and of the page
(medians of ``--repeats`` page builds), the page's size, and per turn: the page's bytes
and milliseconds, and those of its board alone (``analysis.page.board``, a small SVG on
the page's symbols).  ``--compare`` also draws every turn's board with
``core.diagram.board_svg`` (the matplotlib SVG the page drew before, 0.2-0.3 s each) in
the same run: its bytes and milliseconds per turn.  The target: at most 5 kB and 20 ms
per turn.

    python benchmarks/bench_page.py [--length 1] [--seed 5] [--repeats 3] [--compare]
"""
import argparse
import statistics
import time

from nardy_fast.analysis.matchreport import analyse_match
from nardy_fast.analysis.page import board, to_html
from nardy_fast.core.matchrules import MAX_LENGTH, MatchRules
from nardy_fast.core.position import Position
from nardy_fast.engine.decisions.matchplay import play_one_match


def _per_turn(draw, ids):
    """(bytes, CPU-ms) per position of ``draw(id)``."""
    t0 = time.process_time()
    size = sum(len(draw(i).encode()) for i in ids)
    return size / len(ids), 1000 * (time.process_time() - t0) / len(ids)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--length", type=int, default=1)
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--compare", action="store_true",
                    help="also time the matplotlib board (core.diagram.board_svg)")
    a = ap.parse_args()
    for name, least in (("length", 1), ("repeats", 1), ("seed", 0)):
        if getattr(a, name) < least:
            ap.error(f"--{name} {getattr(a, name)}: expected >= {least}")
    if a.length > MAX_LENGTH:
        ap.error(f"--length {a.length}: expected 1..{MAX_LENGTH} points")
    record = play_one_match("greedy", "greedy", rules=MatchRules(length=a.length),
                            seed=a.seed, names=("Ann", "Bob"))
    turns = sum(len(g.turns) for g in record.games)
    t0 = time.process_time()
    rep = analyse_match(record, seed=1)
    t_analyse = time.process_time() - t0
    times = []
    for _ in range(a.repeats):
        t0 = time.process_time()
        text = to_html(rep, record=record)
        times.append(time.process_time() - t0)
    med = statistics.median(times)
    size = len(text.encode())
    print(f"{len(record.games)} game(s), {turns} turns; analyse_match {t_analyse:.1f} CPU-s; "
          f"to_html median {med:.2f} CPU-s ({1000 * med / turns:.1f} ms per turn) of "
          f"{a.repeats}; page {size / 1e6:.3f} MB ({size / turns / 1e3:.2f} kB per turn)")
    ids = [i for i, m in zip(rep["id"], rep["move"]) if m != ""]
    b, ms = _per_turn(lambda i: board(Position.from_id(i)), ids)
    print(f"board (page.board, SVG on shared symbols): {b / 1e3:.2f} kB, {ms:.2f} ms per turn")
    if a.compare:
        from nardy_fast.core.diagram import board_svg
        b, ms = _per_turn(lambda i: board_svg(Position.from_id(i)), ids)
        print(f"board (core.diagram.board_svg, matplotlib): {b / 1e3:.1f} kB, {ms:.0f} ms "
              "per turn")


if __name__ == "__main__":
    main()
