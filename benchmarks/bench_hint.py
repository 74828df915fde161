"""Time per decision of ``Evaluator.hint`` at 0, 1, 2 and 3 plies.

    python benchmarks/bench_hint.py [--positions 100] [--deep 10] [--seed 2026]

Seeded middle-game positions from self-play (``bench_net.middle_positions``), one seeded
roll each; every legal move ranked at 0-ply, the best ``keep`` (4) re-ranked at the depth
asked.  3-ply runs on the first ``--deep`` positions only (seconds each; ``--deep 0``
skips it; at most ``--positions``).  Prints the median and 90th percentile of the wall
time per decision.
"""
from __future__ import annotations

import argparse
import os
import sys
import time

import numpy as np

import nardy_fast as nf
from nardy_fast.engine.evaluation.evaluator import Evaluator

sys.path.insert(0, os.path.dirname(__file__))
from bench_net import middle_positions  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=100)
    ap.add_argument("--deep", type=int, default=10)
    ap.add_argument("--seed", type=int, default=2026)
    args = ap.parse_args()
    for name, least in (("positions", 1), ("deep", 0), ("seed", 0)):
        if getattr(args, name) < least:
            ap.error(f"--{name} {getattr(args, name)}: expected >= {least}")
    ev = Evaluator.default()
    boards = middle_positions(ev, args.positions, args.seed)
    rng = np.random.default_rng(args.seed)
    dice = [tuple(int(d) for d in rng.integers(1, 7, 2)) for _ in boards]
    for plies in (0, 1, 2, 3):
        n = min(args.deep, args.positions) if plies == 3 else args.positions
        if n <= 0:                       # --deep 0: no 3-ply run
            continue
        times = []
        for b, d in zip(boards[:n], dice[:n]):
            pos = nf.Position.from_boards(b[0], b[1], "white")
            t = time.perf_counter()
            ev.hint(pos, d, plies=plies)
            times.append(time.perf_counter() - t)
        print(f"{plies}-ply hint, {len(times)} positions: median {np.median(times):.4f} s "
              f"wall, 90th percentile {np.percentile(times, 90):.4f} s wall", flush=True)


if __name__ == "__main__":
    main()
