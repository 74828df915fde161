"""Speed through the public API, the same script on any commit (before/after a refactoring).

Per CPU-second of this process (robust on a shared machine), median of ``--repeats`` runs:
greedy and net rollouts of the start (one process), the evaluator on an array of boards,
the move generator on a seeded set of positions and a 1-ply hint.  Only names that every
layout exports (``nardy_fast.<name>``) are used.

    python benchmarks/bench_api_speed.py [--repeats 5]
"""
import argparse
import statistics
import time
import warnings

import numpy as np

import nardy_fast as nf

MIDDLE = "WlgAAAAEAEQACAQAAAAAAAAAQABAAAhIg"


def cpu(fn, repeats):
    times = []
    for _ in range(repeats):
        t = time.process_time()
        fn()
        times.append(time.process_time() - t)
    return statistics.median(times)


def positions(n, seed=7):
    rec = nf.random_game(seed=seed)
    ps = [p for p in rec.positions() if not p.is_over()]
    rng = np.random.default_rng(seed)
    return [ps[i] for i in rng.integers(0, len(ps), size=n)]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=5)
    args = ap.parse_args(argv)
    if args.repeats < 1:
        ap.error(f"--repeats {args.repeats}: expected >= 1")
    warnings.simplefilter("ignore")
    start = nf.Position.initial()
    ev = nf.Evaluator.default()
    middle = nf.Position.from_id(MIDDLE)
    ps = positions(400)
    boards = np.stack([p.boards for p in ps] * 25)           # 10,000 boards
    rows = []
    n = 20_000
    t = cpu(lambda: nf.rollout(start, n, policy="greedy", seed=1, workers=1,
                               progress=False), args.repeats)
    rows.append(("rollout, greedy, start", n / t, "games/CPU-s"))
    n = 5_000
    t = cpu(lambda: nf.rollout(start, n, policy="net", seed=1, workers=1, progress=False),
            args.repeats)
    rows.append(("rollout, net 0-ply, start", n / t, "games/CPU-s"))
    t = cpu(lambda: ev.evaluate(boards), args.repeats)
    rows.append(("Evaluator.evaluate(array), 0-ply", len(boards) / t, "boards/CPU-s"))
    rolls = [(d1, d2) for d1 in range(1, 7) for d2 in range(d1, 7)]

    def movegen():
        for p in ps:
            for d1, d2 in rolls:
                nf.successors(p.mover, p.opponent, d1, d2)
    t = cpu(movegen, args.repeats)
    rows.append(("successors", len(ps) * len(rolls) / t, "calls/CPU-s"))
    ev.hint(middle, (6, 3), plies=1)            # warm: the first search loads its tables
    t = cpu(lambda: ev.hint(middle, (6, 3), plies=1), args.repeats)
    rows.append(("hint, 1-ply, one middle-game roll", 1.0 / t, "hints/CPU-s"))
    for name, value, unit in rows:
        print(f"{name:<38s} {value:>12,.0f} {unit}")


if __name__ == "__main__":
    main()
