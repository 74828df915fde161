"""Playing strength of the evaluator: shared-dice matches (``nardy_fast.engine.play.strength``).

Each pair of games uses one dice sequence twice, each player moving first once, so most
of the luck cancels.  Prints, for each match, player A's share of the games won, points
per game and share of the points, with standard errors (pairs as the independent unit).

    python benchmarks/bench_strength.py [--games 10000] [--games-1ply 1000]
                                        [--games-2ply 200] [--workers 2]

Matches: 0-ply net vs greedy (``--games``), 1-ply vs 0-ply (``--games-1ply``), 2-ply vs
1-ply (``--games-2ply``; 0 skips a match).  Seeds are fixed, so a rerun gives the same
figures; each match's time is the wall clock's.
"""
import argparse
import time

from nardy_fast.engine.play.strength import play_match


def report(name, m, seconds):
    print(f"{name}: {m['games']} games, won {100 * m['win_rate']:.1f}% "
          f"(SE {100 * m['se_win_rate']:.1f}), {m['ppg']:+.3f} points/game "
          f"(SE {m['se_ppg']:.3f}), points share {100 * m['points_share']:.1f}% "
          f"(SE {100 * m['se_points_share']:.1f}); {seconds:.0f} s wall")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=10000)
    ap.add_argument("--games-1ply", type=int, default=1000)
    ap.add_argument("--games-2ply", type=int, default=200)
    ap.add_argument("--workers", type=int, default=None)
    ap.add_argument("--seed", type=int, default=2026)
    args = ap.parse_args()
    for name in ("games", "games_1ply", "games_2ply"):
        if getattr(args, name) != 0 and getattr(args, name) < 4:
            ap.error(f"--{name.replace('_', '-')} {getattr(args, name)}: expected 0 (skip "
                     "the match) or >= 4 (two pairs: the SE is the spread between pairs)")
    if not (args.games or args.games_1ply or args.games_2ply):
        ap.error("--games, --games-1ply and --games-2ply all 0: no match to play")
    for name, least in (("workers", 1), ("seed", 0)):
        if getattr(args, name) is not None and getattr(args, name) < least:
            ap.error(f"--{name} {getattr(args, name)}: expected >= {least}")
    for name, a, b, n in (("net 0-ply vs greedy", "net", "greedy", args.games),
                          ("net 1-ply vs net 0-ply", "net:1", "net", args.games_1ply),
                          ("net 2-ply vs net 1-ply", "net:2", "net:1", args.games_2ply)):
        if n:
            t = time.perf_counter()
            m = play_match(a, b, n, seed=args.seed, workers=args.workers, progress=False)
            report(name, m, time.perf_counter() - t)


if __name__ == "__main__":
    main()
