"""Move-generator throughput on a fixed, seeded set of realistic positions.

Positions: every position of random games from the start (uniform over distinct legal
results, seed 12345), both sides on roll, all phases; each is enumerated for all 21 rolls.
Prints (position, roll) enumerations per second on one core at C level
(``successor_counts``: a nogil loop over ``gen_successors``) and through the Python
``successors`` call (uint8 numpy boards in, one call per position and roll).  Median of
``--repeats`` runs.

    python benchmarks/bench_movegen.py [--games 60] [--repeats 7]
"""
import argparse
import statistics
import time

import numpy as np

from nardy_fast import Rules, successors
from nardy_fast.core._movegen import ROLLS, successor_counts


def sample_positions(n_games, seed):
    """Boards (mover, opponent) of every position met in ``n_games`` random games."""
    rng = np.random.default_rng(seed)
    movers, opps = [], []
    for _ in range(n_games):
        m = np.zeros(24, np.uint8); m[0] = 15
        o = m.copy()
        while m.sum() and o.sum():
            movers.append(m); opps.append(o)
            d1, d2 = rng.integers(1, 7, size=2)
            succ = successors(m, o, int(d1), int(d2))
            m, o = o, succ[rng.integers(len(succ))]
    return np.array(movers), np.array(opps)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=60)
    ap.add_argument("--repeats", type=int, default=7)
    ap.add_argument("--seed", type=int, default=12345)
    args = ap.parse_args()
    for name, least in (("games", 1), ("repeats", 1), ("seed", 0)):
        if getattr(args, name) < least:
            ap.error(f"--{name} {getattr(args, name)}: expected >= {least}")

    movers, opps = sample_positions(args.games, args.seed)
    n = len(movers)
    counts = successor_counts(movers, opps)
    print(f"positions: {n} from {args.games} random games (seed {args.seed}); "
          f"enumerations per run: {n * 21}; mean distinct results per roll: {counts.mean():.1f}")

    for name, rules in [("classic", None),
                        ("block_transient", Rules(block_transient=True)),
                        ("generalized head", Rules(head_rule="generalized"))]:
        times = []
        for _ in range(args.repeats):
            t = time.perf_counter()
            successor_counts(movers, opps, rules)
            times.append(time.perf_counter() - t)
        med = statistics.median(times)
        print(f"C level ({name}): {n * 21 / med:,.0f} enumerations/s "
              f"(median of {args.repeats}, {med * 1e9 / (n * 21):.0f} ns each)")

    rolls = [tuple(int(x) for x in r) for r in ROLLS]
    sub = min(n, 2000)
    times = []
    for _ in range(args.repeats):
        t = time.perf_counter()
        for k in range(sub):
            m, o = movers[k], opps[k]
            for d1, d2 in rolls:
                successors(m, o, d1, d2)
        times.append(time.perf_counter() - t)
    med = statistics.median(times)
    print(f"Python successors(): {sub * 21 / med:,.0f} calls/s "
          f"(median of {args.repeats}, {sub * 21} calls per run)")


if __name__ == "__main__":
    main()
