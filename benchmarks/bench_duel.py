"""Duels: how many games fewer mirrored pairs need than independent games for one SE.

A duel (``nardy-fast duel``) plays mirrored pairs: both games of a pair throw the same
dice turn by turn, each program White in one of them, and the pair is the unit of the
standard error.  The same scheme runs in process, fast, as ``engine.strength.play_match``
(the C game loop, pair ``p``'s dice from the seed and ``p``), so this script measures it
there, for players of the toolkit's own:

- ``var_pair``: the variance of a pair's mean points, the duel's unit; mirrored pairs
  reach the standard error ``s`` with ``N_pair = 2 * var_pair / s**2`` games;
- independent games (no dice shared) reach it with ``N_ind = var / s**2`` games, where
  ``var`` is the variance of one game's points: ``var_alt``, the mean of the two seats'
  variances, when the colours alternate (the fair design: A White in every other game),
  or ``var_rand``, the variance of all games pooled (which adds the seat's effect on the
  mean), when each game's colours are drawn at random;
- the **variance ratio** ``var_alt / (2 * var_pair)`` is how many times as many games
  independent play needs for the same standard error (1: no gain), and ``var_rand / (2 *
  var_pair)`` the same against colours drawn at random; its 95% interval is a bootstrap
  over pairs (1,000 resamples);
- ``check``: ``var_alt`` measured again on games that share no dice, game 1 of pair
  ``p`` (A White) with game 2 of pair ``p + 1`` (A Black): twice the variance of their
  means.

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
from nardy_fast.engine.play.strength import play_match

BOOT = 1000


def variances(points):
    """``{var_alt, var_rand, var_pair, check}`` of A's points ``(pairs, 2)`` (module
    docstring)."""
    var_alt = float(np.var(points, axis=0, ddof=1).mean())
    var_rand = float(np.var(points.ravel(), ddof=1))
    var_pair = float(np.var(points.mean(axis=1), ddof=1))
    shifted = np.stack([points[:-1, 0], points[1:, 1]], axis=1)     # no shared dice
    check = 2 * float(np.var(shifted.mean(axis=1), ddof=1))
    return dict(var_alt=var_alt, var_rand=var_rand, var_pair=var_pair, check=check)


def ratio(v, key="var_alt"):
    return v[key] / (2 * v["var_pair"]) if v["var_pair"] else np.inf


def bootstrap(points, rng):
    """The 95% bootstrap interval (over pairs) of the ratio against alternating colours."""
    n = len(points)
    out = [ratio(variances(points[rng.integers(0, n, n)])) for _ in range(BOOT)]
    with np.errstate(invalid="ignore"):          # between two resamples of ratio inf
        ends = np.percentile(out, [2.5, 97.5])
    return np.where(np.isnan(ends), np.inf, ends)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pairs", type=int, default=5000,
                    help="pairs of the other matches (0 skips them)")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--pairs-1ply", type=int, default=500,
                    help="pairs of the 1-ply against 0-ply match (0 skips it)")
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--duel-games", type=int, default=20,
                    help="games of the timed nardy-fast duel (0 skips it)")
    args = ap.parse_args()
    for name in ("pairs", "pairs_1ply"):
        if getattr(args, name) != 0 and getattr(args, name) < 3:
            ap.error(f"--{name.replace('_', '-')} {getattr(args, name)}: expected 0 (skip "
                     "the matches) or >= 3 (variances between pairs, and the check's "
                     "between pair p and pair p + 1)")
    for name, least in (("duel_games", 0), ("workers", 1), ("seed", 0)):
        if getattr(args, name) < least:
            ap.error(f"--{name.replace('_', '-')} {getattr(args, name)}: expected >= {least}")
    if not (args.pairs or args.pairs_1ply or args.duel_games):
        ap.error("--pairs, --pairs-1ply and --duel-games all 0: nothing to measure")
    # the player "net" of play_match is the classic evaluator's rollout net (v7, the
    # one its game loops play with); the wider net that judges is a close opponent of
    # it, as two settings of one engine are
    judge = nf.Evaluator(nf.Evaluator.default().net)
    rng = np.random.default_rng(args.seed)
    print(f"mirrored pairs per match as listed, seed {args.seed}; variances of A's "
          "points (points per game squared)")
    print(f"{'match':<34s} {'pairs':>6s} {'ppg (A)':>8s} {'var_alt':>8s} {'check':>6s} "
          f"{'var_rand':>8s} {'var_pair':>8s} {'ratio':>6s} {'95% interval':>13s} "
          f"{'r_rand':>6s} {'s wall':>6s}")
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
        v = variances(pts)
        # var_pair 0: identical players, each pair's two games the same game mirrored
        span = "-" if not v["var_pair"] else "{:.2f}-{:.2f}".format(*bootstrap(pts, rng))
        print(f"{name:<34s} {len(pts):6d} {m['ppg']:+8.3f} {v['var_alt']:8.3f} "
              f"{v['check']:6.3f} {v['var_rand']:8.3f} {v['var_pair']:8.3f} "
              f"{ratio(v):6.2f} {span:>13s} {ratio(v, 'var_rand'):6.2f} "
              f"{sec:6.0f}")
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
