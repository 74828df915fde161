"""Bias of keeping variance-reduced probabilities in [0, 1] (``engine.variance``).

One position whose P(koks win) is near 0, rolled out ``--reps`` times with the default
(variance-reduced) estimator, ``--games`` games each, seeds ``--seed``, ``--seed`` + 1, ...
For each rollout the uncut probabilities are kept (``rollout.keep_in_range`` wrapped) beside
the cut ones.  Printed per probability: how many rollouts cut it, the mean uncut and cut
estimates over the rollouts, the bias of the cut (mean of cut - uncut, which is >= 0 at
the lower end, with its standard error over the rollouts) and that bias over the mean
standard error of one rollout.  The uncut mean over independent rollouts is unbiased, so
the difference is the cut's bias at this position and rollout size.  CPU seconds are this
process's (workers=1).

    python benchmarks/bench_clip.py [--reps 120] [--games 1000] [--seed 1]
        [--position WlgAAAAEAEQACAQAAAAAAAAAQABAAAhIg]
"""
import argparse
import statistics
import time

import numpy as np

import nardy_fast as nf
from nardy_fast.core.result import PROBABILITIES
from nardy_fast.engine import rollout as _rollout


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--reps", type=int, default=120)
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--position", default="WlgAAAAEAEQACAQAAAAAAAAAQABAAAhIg")
    a = ap.parse_args()
    raw = []
    keep = _rollout.keep_in_range

    def spy(o):
        raw.append(o)
        return keep(o)

    _rollout.keep_in_range = spy
    cut = []
    t0 = time.process_time()
    for k in range(a.reps):
        cut.append(nf.rollout(a.position, a.games, seed=a.seed + k, workers=1,
                              progress=False))
    cpu = time.process_time() - t0
    _rollout.keep_in_range = keep
    print(f"position {a.position}: {a.reps} rollouts x {a.games} games, "
          f"estimator {cut[0].extra['estimator']}, {cpu:.1f} CPU-s")
    print(f"{'probability':18s} {'cut in':>6s} {'mean uncut':>11s} {'mean cut':>10s} "
          f"{'bias':>9s} {'SE(bias)':>9s} {'bias/SE1':>8s}")
    for name in PROBABILITIES:
        u = np.array([getattr(o, name) for o in raw])
        c = np.array([getattr(o, name) for o in cut])
        d = c - u
        se1 = statistics.median(getattr(o, "se_" + name) for o in raw)
        n_cut = int((np.abs(d) > 1e-12).sum())
        print(f"{name:18s} {n_cut:6d} {u.mean():11.6f} {c.mean():10.6f} {d.mean():9.2e} "
              f"{d.std(ddof=1) / np.sqrt(len(d)):9.2e} "
              f"{(d.mean() / se1 if se1 > 0 else float('nan')):8.3f}")
    eq = np.array([o.equity for o in cut]) - np.array([o.equity for o in raw])
    print(f"equity changed by the cut in {int((eq != 0).sum())} of {a.reps} rollouts")


if __name__ == "__main__":
    main()
