"""Duels: how many games fewer mirrored pairs need than independent games for one SE.

A duel (``nardy-fast duel``) plays mirrored pairs: both games of a pair throw the same
dice turn by turn, each program White in one of them, and the pair is the unit of the
standard error.  The same scheme runs in process, fast, as ``engine.strength.play_match``
(the C game loop, pair ``p``'s dice from the seed and ``p``), so this script measures it
there, for players of the toolkit's own:

- ``var_game``: the variance of one game's points (A's view), pooling both seats: what an
  independent game, its seat drawn at random, varies by;
- ``var_pair``: the variance of a pair's mean points, the duel's unit;
- for one standard error ``s``, independent games need ``N_ind = var_game / s**2`` games
  and mirrored pairs ``N_pair = 2 * var_pair / s**2``: the **variance ratio**
  ``var_game / (2 * var_pair)`` is how many times as many games independent play needs
  (1: no gain); its 95% interval is a bootstrap over pairs (1,000 resamples);
- a check of ``var_game`` by games that do not share dice: game 1 of pair ``p`` with
  game 2 of pair ``p + 1`` (independent dice), whose pair variance times 2 estimates it
  again.

``--duel-games N`` also times the real command (``nardy-fast duel`` of ``nardy-fast engine
--plies 0`` against itself, N games) to show what the protocol costs per game.

    python benchmarks/bench_duel.py [--pairs 5000] [--pairs-1ply 500] [--seed 2026]
                                    [--workers 1] [--duel-games 20]
"""
import argparse
import os
import shlex
import subprocess
import sys
import time

import numpy as np

import nardy_fast as nf
from nardy_fast.engine.strength import play_match

BOOT = 1000


def ratio(points):
    """``(var_game, var_pair, ratio, unpaired check of var_game)`` of A's points
    ``(pairs, 2)``."""
    var_game = float(np.var(points.ravel(), ddof=1))
    var_pair = float(np.var(points.mean(axis=1), ddof=1))
    shifted = np.stack([points[:-1, 0], points[1:, 1]], axis=1)     # no shared dice
    check = 2 * float(np.var(shifted.mean(axis=1), ddof=1))
    return var_game, var_pair, var_game / (2 * var_pair) if var_pair else np.inf, check


def bootstrap(points, rng):
    n = len(points)
    out = []
    for _ in range(BOOT):
        sample = points[rng.integers(0, n, n)]
        out.append(ratio(sample)[2])
    return np.percentile(out, [2.5, 97.5])


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pairs", type=int, default=5000)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--pairs-1ply", type=int, default=500,
                    help="pairs of the 1-ply against 0-ply match (0 skips it)")
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--duel-games", type=int, default=20)
    args = ap.parse_args()
    # the player "net" of play_match is the classic evaluator's rollout net (one layer,
    # the one its game loops play with); the two-layer net that judges is a close
    # opponent of it, as two settings of one engine are
    judge = nf.Evaluator(nf.Evaluator.default().net)
    rng = np.random.default_rng(args.seed)
    print(f"mirrored pairs per match as listed, seed {args.seed}; variances of A's "
          "points (points per game squared)")
    print(f"{'match':<34s} {'pairs':>6s} {'ppg (A)':>8s} {'var_game':>9s} {'var_pair':>9s} "
          f"{'check':>7s} {'ratio':>6s} {'95% interval':>14s} {'s':>5s}")
    for name, a, b, pairs in (("net 0-ply vs greedy", "net", "greedy", args.pairs),
                              ("judging net vs rollout net, 0-ply", judge, "net", args.pairs),
                              ("net 1-ply vs net 0-ply", "net:1", "net", args.pairs_1ply),
                              ("net 0-ply vs itself", "net", "net", args.pairs)):
        if not pairs:
            continue
        t = time.perf_counter()
        m = play_match(a, b, 2 * pairs, seed=args.seed, workers=args.workers,
                       progress=False)
        sec = time.perf_counter() - t
        pts = m["points"]
        vg, vp, r, check = ratio(pts)
        lo, hi = bootstrap(pts, rng) if vp > 0 else (float("nan"), float("nan"))
        print(f"{name:<34s} {len(pts):6d} {m['ppg']:+8.3f} {vg:9.3f} {vp:9.3f} {check:7.3f} "
              + (f"{r:6.2f} {f'{lo:.2f}-{hi:.2f}':>14s}" if vp > 0 else
                 f"{'inf':>6s} {'(var_pair 0)':>14s}") + f" {sec:5.0f}")
    if args.duel_games:
        engine = f"{shlex.quote(sys.executable)} -m nardy_fast.app.cli engine --plies 0"
        cmd = [sys.executable, "-m", "nardy_fast.app.cli", "duel", engine, engine,
               "-n", str(args.duel_games), "--seed", str(args.seed), "--no-progress"]
        t = time.perf_counter()
        r = subprocess.run(cmd, capture_output=True, text=True, env=os.environ)
        sec = time.perf_counter() - t
        if r.returncode:
            sys.exit(r.stderr)
        print(f"nardy-fast duel, engine --plies 0 against itself, {args.duel_games} games "
              f"over the protocol: {sec:.1f} s wall, {args.duel_games / sec:.1f} games/s "
              "(two engine start-ups included)")


if __name__ == "__main__":
    main()
