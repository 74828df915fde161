"""Rollouts of every size against the truth: the bias over seeds, and whether the standard
error each rollout reports is the spread its estimate has between seeds.

For each position and each size ``n``, ``--seeds`` rollouts of ``n`` games with seeds
``--seed``, ``--seed`` + 1, ... (``workers=1``).  Printed per row: the mean of their
equities, its standard error over the seeds, the reference value and the bias in units
of that standard error (``z``; a rollout of any size is unbiased, so ``|z|`` beyond about
3 is a defect), then the spread of the estimates between seeds (their standard
deviation) beside the root-mean-square of the SEs the rollouts reported (the reported SE
should not be clearly smaller than the spread; it may be larger, being conservative about
the second roll's stratification).

The positions:

- ``race2``: one checker on point 20 against one on point 19, played out by the random
  policy (``truncate=None``); the first two rolls decide it, so its P(win) is known
  exactly, ``1 - 5 * 27 / 1296`` (the side on roll fails to bear off with 5 of the 36
  rolls, and then loses to 27 of the opponent's), and its equity is ``2 P(win) - 1``;
- ``middle``: a middle-game position of the accuracy set, rolled out by the net at 0-ply
  (its reference: ``--reference-games`` games with seed 10**6, a multiple of 1,296, whose
  own SE is printed and enters ``z``).

CPU seconds are this process's.

    python benchmarks/bench_rollout_sizes.py [--sizes 36,72,500] [--seeds 200] [--seed 0]
        [--positions race2,middle] [--estimator luck-net|none] [--reference-games 31104]
"""
import argparse
import math
import time

import numpy as np

import nardy_fast as nf

MIDDLE = "WiCAAAREBEAAAAREAAAAQAAAAEAEBAAAA"


def race2():
    mover, opp = np.zeros(24, np.uint8), np.zeros(24, np.uint8)
    mover[19], opp[18] = 1, 1                   # points 20 and 19, each its own numbering
    return nf.Position.from_boards(mover, opp)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", default="36,72,500",
                    help="comma-separated game counts of the rollouts (each >= 1)")
    ap.add_argument("--seeds", type=int, default=200,
                    help="rollouts per position and size (>= 2: the bias's SE is their spread)")
    ap.add_argument("--seed", type=int, default=0, help="the first rollout's seed (>= 0)")
    ap.add_argument("--positions", default="race2,middle",
                    help="comma-separated: race2 (exact), middle (a long rollout)")
    ap.add_argument("--estimator", default="luck-net",
                    help="variance_reduction of the middle position's rollouts: luck-net "
                         "(the default) or none")
    ap.add_argument("--reference-games", type=int, default=31104,
                    help="games of the middle position's reference rollout (a multiple of "
                         "1296)")
    a = ap.parse_args()
    try:
        sizes = [int(s) for s in a.sizes.split(",")]
    except ValueError:
        ap.error(f"--sizes {a.sizes}: expected comma-separated whole numbers")
    if not sizes or min(sizes) < 1:
        ap.error(f"--sizes {a.sizes}: every size must be >= 1 game")
    if a.seeds < 2:
        ap.error(f"--seeds {a.seeds}: expected >= 2 (the bias's SE is the spread between "
                 "rollouts)")
    if a.seed < 0:
        ap.error(f"--seed {a.seed}: expected >= 0")
    names = a.positions.split(",")
    unknown = sorted(set(names) - {"race2", "middle"})
    if unknown:
        ap.error(f"--positions: unknown {', '.join(unknown)} (race2, middle)")
    if a.estimator not in ("luck-net", "none"):
        ap.error(f"--estimator {a.estimator}: expected luck-net or none")
    if a.reference_games < 1296 or a.reference_games % 1296:
        ap.error(f"--reference-games {a.reference_games}: expected a positive multiple of "
                 "1296 (whole blocks)")
    vr = a.estimator if a.estimator != "none" else False
    print(f"{'position':8} {'games':>6} {'mean':>9} {'SE':>7} {'reference':>10} {'z':>6} "
          f"{'spread':>7} {'rms SE':>7} {'CPU-s':>6}")
    for name in names:
        if name == "race2":
            pos, kw = race2(), dict(policy="random", truncate=None)
            ref, ref_se = 2 * (1 - 5 * 27 / 1296) - 1, 0.0
        else:
            pos, kw = nf.Position.from_id(MIDDLE), dict(variance_reduction=vr)
            o = nf.rollout(pos, a.reference_games, seed=10**6, workers=1, progress=False,
                           **kw)
            ref, ref_se = o.equity, o.se_equity
            print(f"# {name}: the reference, {o.games} games (seed 10**6): {ref:+.4f} "
                  f"(SE {ref_se:.4f})", flush=True)
        for n in sizes:
            t = time.process_time()
            outs = [nf.rollout(pos, n, seed=a.seed + k, workers=1, progress=False, **kw)
                    for k in range(a.seeds)]
            cpu = time.process_time() - t
            eq = np.array([o.equity for o in outs])
            se = np.array([o.se_equity for o in outs])
            mean, se_mean = eq.mean(), eq.std(ddof=1) / math.sqrt(len(eq))
            both = math.hypot(se_mean, ref_se)
            z = (mean - ref) / both if both > 0 else (0.0 if mean == ref else math.inf)
            print(f"{name:8} {n:6d} {mean:+9.4f} {se_mean:7.4f} {ref:+10.4f} {z:+6.2f} "
                  f"{eq.std(ddof=1):7.4f} {math.sqrt((se ** 2).mean()):7.4f} {cpu:6.1f}",
                  flush=True)


if __name__ == "__main__":
    main()
