"""The analysis page (``analysis.page.to_html``): CPU time and size for a played match.

A match of ``--length`` points between two greedy players (``play_one_match``, seed
``--seed``), analysed with ``matchreport.analyse_match`` (net 0-ply, the default), then
written as a page; prints the turns, the CPU-seconds of the analysis and of the page
(medians of ``--repeats`` page builds), and the page's size.

    python benchmarks/bench_page.py [--length 1] [--seed 5] [--repeats 3]
"""
import argparse
import statistics
import time

from nardy_fast.analysis.matchreport import analyse_match
from nardy_fast.analysis.page import to_html
from nardy_fast.core.matchrules import MatchRules
from nardy_fast.engine.matchplay import play_one_match


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--length", type=int, default=1)
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--repeats", type=int, default=3)
    a = ap.parse_args()
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
    print(f"{len(record.games)} game(s), {turns} turns; analyse_match {t_analyse:.1f} CPU-s; "
          f"to_html median {med:.2f} CPU-s ({1000 * med / turns:.0f} ms per turn) of "
          f"{a.repeats}; page {len(text.encode()) / 1e6:.2f} MB "
          f"({len(text.encode()) / turns / 1e3:.0f} kB per turn)")


if __name__ == "__main__":
    main()
