"""Speed of plain 0-ply net rollouts from the start, per net and per path of the net's
hidden layers (``src/nf_hidden.h``, ``src/nf_deep.h`` for a second layer: ``generic``
loops or ``avx2``; the same bits).

For each net file (``default``: the shipped net) and each path, ``--runs`` rollouts of
``--games`` games (``workers=1``, no variance reduction, truncated at the bear-off,
seeds 0, 1, ...); prints the median games per CPU-second of this process.  The paths
alternate run by run, so a change in the machine's load touches both alike, after an
untimed rollout of each net, so that the first timed path does not carry the process's
one-time costs.

    python benchmarks/bench_simd.py default nardy_fast/data/rollout_classic.nfdb \
        --games 1296 --runs 5
"""
import argparse
import statistics
import time

import nardy_fast as nf
from nardy_fast._utils._dbfile import DatabaseError
from nardy_fast.engine.evaluation import _net
from nardy_fast.engine.evaluation.evaluator import Evaluator

WARM_UP = 36           # games of an untimed rollout per net before the timed runs


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("nets", nargs="*", default=["default"],
                    help="net files ('default': the shipped net)")
    ap.add_argument("--games", type=int, default=1296)
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    for name in ("games", "runs"):
        if getattr(args, name) < 1:
            ap.error(f"--{name} {getattr(args, name)}: expected >= 1")
    try:
        evaluators = {name: Evaluator.default() if name == "default" else Evaluator.load(name)
                      for name in args.nets}
    except DatabaseError as e:
        ap.error(f"nets: {e}")
    start = nf.Position.initial()
    paths = (True, False) if _net.simd_path(False) == "avx2" else (True,)
    try:
        for name, ev in evaluators.items():
            secs = {g: [] for g in paths}
            nf.rollout(start, WARM_UP, policy=ev, seed=0, workers=1,   # untimed
                       variance_reduction=False, progress=False)
            for run in range(args.runs):
                for generic in paths:
                    _net.simd_path(generic)
                    t = time.process_time()
                    nf.rollout(start, args.games, policy=ev, seed=run, workers=1,
                               variance_reduction=False, progress=False)
                    secs[generic].append(time.process_time() - t)
            for generic in paths:
                print(f"{name}: {ev.net.n_hidden} hidden units, "
                      f"{'generic' if generic else 'avx2'}: "
                      f"{args.games / statistics.median(secs[generic]):.0f} games/CPU-s "
                      f"(median of {args.runs})", flush=True)
    finally:
        _net.simd_path(False)


if __name__ == "__main__":
    main()
