"""The rollout player: speed and strength of each candidate net playing the game loops.

The candidates are the shipped nets, each alone (it judges and plays): the judging net
(``net_classic.nfdb``, two layers of 384 + 64 units), v7, the default rollout player
(``rollout_classic.nfdb``, 256 + 64 units; it judged from 0.3.0 until the wider net),
and the one-layer net v7 was deepened from (v6, ``onelayer_classic.nfdb``), the rollout
player up to 0.3.0.  In one run, on fixed seeded inputs:

- speed: ``--runs`` plain 0-ply rollouts of ``--games`` games from the start for each
  net (``workers=1``, no variance reduction, truncated at the bear-off, seeds 0, 1, ...;
  the nets alternate run by run, so a change in the machine's load touches all alike,
  after an untimed rollout of each, so that the first timed run does not carry the
  process's one-time costs); prints the median games per CPU-second of this process;
- strength: each net against the next one (the judge against v7, v7 against v6), both
  at 0-ply, over ``--pairs`` pairs of shared-dice games from the start
  (``nardy_fast.engine.play.strength.play_match``, seed ``--seed``): points per game of
  the first with its SE (pairs as the unit).

    python benchmarks/bench_rollplayer.py --games 1296 --runs 7 --pairs 10000
"""
import argparse
import os
import statistics
import time

import nardy_fast as nf
from nardy_fast.engine.evaluation import nets
from nardy_fast.engine.evaluation.evaluator import Evaluator
from nardy_fast.engine.play.strength import play_match

WARM_UP = 36           # games of an untimed rollout per net before the timed runs


def candidates():
    """``{name: Evaluator}``: each shipped net alone (it judges and plays), strongest
    first."""
    judge = Evaluator.load(nets.DEFAULT_NET)
    player = nets.rollout_file(os.path.basename(nets.DEFAULT_NET))
    v7 = Evaluator.load(os.path.join(nets.DATA, player))
    one = Evaluator.load(nets.ONE_LAYER_NET)
    return {f"judge ({os.path.basename(nets.DEFAULT_NET)}, {judge.net.n_hidden}+"
            f"{judge.net.n_hidden2} units)": judge,
            f"v7 ({player}, {v7.net.n_hidden}+{v7.net.n_hidden2} units)": v7,
            f"v6 ({os.path.basename(nets.ONE_LAYER_NET)}, {one.net.n_hidden} units)": one}


def speed(players, games, runs):
    start = nf.Position.initial()
    secs = {name: [] for name in players}
    for ev in players.values():        # untimed: the first rollout's one-time costs
        nf.rollout(start, WARM_UP, policy=ev, seed=0, workers=1, variance_reduction=False,
                   progress=False)
    for run in range(runs):
        for name, ev in players.items():
            t = time.process_time()
            nf.rollout(start, games, policy=ev, seed=run, workers=1,
                       variance_reduction=False, progress=False)
            secs[name].append(time.process_time() - t)
    for name in players:
        s = secs[name]
        print(f"speed, {name}: {games / statistics.median(s):.0f} games/CPU-s (median of "
              f"{runs}; range {games / max(s):.0f}-{games / min(s):.0f})", flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=1296, help="games per speed run")
    ap.add_argument("--runs", type=int, default=7, help="speed runs per net")
    ap.add_argument("--pairs", type=int, default=10000,
                    help="pairs of shared-dice games of the strength match (0: skip)")
    ap.add_argument("--seed", type=int, default=4501)
    ap.add_argument("--workers", type=int, default=None, help="of the strength match")
    args = ap.parse_args()
    players = candidates()
    if args.runs:
        speed(players, args.games, args.runs)
    if args.pairs:
        items = list(players.items())
        for (na, a), (nb, b) in zip(items, items[1:]):
            t = time.perf_counter()
            m = play_match(a, b, 2 * args.pairs, seed=args.seed, workers=args.workers,
                           progress=False)
            print(f"strength, {na} against {nb}, 0-ply, {m['games']} shared-dice games "
                  f"(seed {args.seed}): {m['ppg']:+.4f} points/game (SE {m['se_ppg']:.4f}), "
                  f"won {100 * m['win_rate']:.1f}% (SE {100 * m['se_win_rate']:.1f}); "
                  f"{time.perf_counter() - t:.0f} s wall", flush=True)


if __name__ == "__main__":
    main()
