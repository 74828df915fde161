"""Bias of reporting variance-reduced rollouts as possible distributions
(``engine.variance``, "Possible distributions reported").

One position, rolled out ``--reps`` times with the default (variance-reduced) estimator,
``--games`` games each, seeds ``--seed``, ``--seed`` + 1, ...  For each rollout the raw
estimates (``rollout.keep_in_range`` wrapped) are kept beside the reported ones, which are
the raw ones moved to the nearest possible distribution.  Printed per probability and for
the equity: how many rollouts moved it, the mean raw and reported estimates, the bias of
the move (mean of reported - raw, with its standard error over the rollouts) and that bias
over the median standard error of one rollout; then the mean and largest length of the
move (``extra["adjustment"]``), which bounds the length of the bias vector, and how many
raw estimates were impossible.  The raw mean over independent rollouts is unbiased, so
the difference is the move's bias at this position and rollout size.  CPU seconds are
this process's (workers=1).

    python benchmarks/bench_clip.py [--reps 120] [--games 1000] [--seed 1]
        [--position WlgAAAAEAEQACAQAAAAAAAAAQABAAAhIg] [--estimator luck-net]
"""
import argparse
import statistics
import time

import numpy as np

import nardy_fast as nf
from nardy_fast.core.result import PROBABILITIES
from nardy_fast.engine.play import rollout as _rollout


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--reps", type=int, default=120)
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--position", default="WlgAAAAEAEQACAQAAAAAAAAAQABAAAhIg")
    ap.add_argument("--estimator", default=None,
                    help="variance_reduction (default: the rollout's default)")
    a = ap.parse_args()
    for name, least in (("reps", 2), ("games", 1), ("seed", 0)):
        if getattr(a, name) < least:
            ap.error(f"--{name} {getattr(a, name)}: expected >= {least}"
                     + (" (the bias's SE is the spread between rollouts)" if name == "reps"
                        else ""))
    try:
        if nf.Position.from_id(a.position).is_over():
            ap.error(f"--position {a.position}: the game is over")
    except ValueError as e:
        ap.error(f"--position {e}")
    try:
        nf.RolloutSettings(a.games, variance_reduction=a.estimator)
    except ValueError as e:
        ap.error(f"--estimator {a.estimator}: {str(e).rpartition(': ')[2]}")
    raw = []
    keep = _rollout.keep_in_range

    def spy(o, *args, **kwargs):
        raw.append(o)
        return keep(o, *args, **kwargs)

    _rollout.keep_in_range = spy
    out = []
    t0 = time.process_time()
    for k in range(a.reps):
        out.append(nf.rollout(a.position, a.games, seed=a.seed + k, workers=1,
                              progress=False, variance_reduction=a.estimator))
    cpu = time.process_time() - t0
    _rollout.keep_in_range = keep
    print(f"position {a.position}: {a.reps} rollouts x {a.games} games, "
          f"estimator {out[0].extra['estimator']}, {cpu:.1f} CPU-s")
    print(f"{'estimate':18s} {'moved':>6s} {'mean raw':>11s} {'mean reported':>13s} "
          f"{'bias':>9s} {'SE(bias)':>9s} {'bias/SE1':>8s}")
    for name in PROBABILITIES + ("equity",):
        u = np.array([getattr(o, name) for o in raw])
        c = np.array([getattr(o, name) for o in out])
        d = np.where(np.abs(c - u) > 1e-12, c - u, 0.0)     # not moved: rounding only
        se1 = statistics.median(getattr(o, "se_" + name) for o in raw)
        moved = int((d != 0).sum())
        print(f"{name:18s} {moved:6d} {u.mean():11.6f} {c.mean():13.6f} {d.mean():9.2e} "
              f"{d.std(ddof=1) / np.sqrt(len(d)):9.2e} "
              f"{(d.mean() / se1 if se1 > 0 else float('nan')):8.3f}")
    adj = np.array([o.extra["adjustment"] for o in out])
    print(f"impossible raw estimates: {int((adj > 1e-12).sum())} of {a.reps}; "
          f"adjustment mean {adj.mean():.2e} (bounds |bias|), max {adj.max():.2e}")


if __name__ == "__main__":
    main()
