"""Error rates of the players against net rollouts, on decisions from net self-play.

Decisions: positions with more than one legal result met in seeded self-play games of
the shipped net (every ``--every``-th ply, all phases but races of both homes), each with
a seeded roll.  For each decision the candidates are the best ``--top`` moves at 2-ply
and the choice of every tested player (``greedy``, net 0-, 1-, 2-ply); each candidate's
resulting position is rolled out by the net (``--games`` games, truncated at the bear-off,
stratified, the same seed for every candidate: common random numbers).  A player's loss
on a decision is the best rolled-out equity minus its choice's; the figures are the mean
loss per decision (points) and the share of blunders (loss >= 0.16).

    python benchmarks/bench_errors.py [--decisions 300] [--games 1296] [--workers 2]
"""
import argparse
import time

import numpy as np

import nardy_fast as nf
from nardy_fast.engine import _selfplay
from nardy_fast.engine._policies import greedy_scores
from nardy_fast.engine.evaluator import Evaluator
from nardy_fast.core.rng import block_bit_generator
from nardy_fast.core.rules import CLASSIC
from nardy_fast.engine.train import training_tables


def decisions(ev, n, every, seed):
    start = np.asarray(nf.Position.initial().boards)
    rng = np.random.default_rng(seed)
    out, g = [], 0
    while len(out) < n:
        pos, *_ = _selfplay.play_games(ev.net, start, rules=CLASSIC, tables=training_tables(),
                                       bitgens=[block_bit_generator(seed, g)])
        g += 1
        for b in pos[rng.integers(every):: every]:
            dice = tuple(int(d) for d in rng.integers(1, 7, 2))
            if len(nf.successors(b[0], b[1], *dice)) > 1 and len(out) < n:
                out.append((nf.Position.from_boards(b[0], b[1]), dice))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--decisions", type=int, default=300)
    ap.add_argument("--games", type=int, default=1296)
    ap.add_argument("--top", type=int, default=3)
    ap.add_argument("--every", type=int, default=7)
    ap.add_argument("--workers", type=int, default=None)
    ap.add_argument("--seed", type=int, default=2026)
    args = ap.parse_args()
    ev = Evaluator.default()
    players = ("greedy", "0-ply", "1-ply", "2-ply")
    loss = {p: [] for p in players}
    t0 = time.perf_counter()
    for k, (pos, dice) in enumerate(decisions(ev, args.decisions, args.every, args.seed)):
        moves = pos.legal_moves(dice)
        boards = [np.array(m.board, np.uint8) for m in moves]
        hint2 = ev.hint(pos, dice, plies=2)
        chosen = {}
        g = greedy_scores(np.stack(boards), pos.opponent)
        order = sorted(range(len(moves)), key=lambda i: (-g[i], bytes(boards[i])))
        chosen["greedy"] = pos.play(moves[order[0]]).id
        for p in (0, 1):
            chosen[f"{p}-ply"] = ev.hint(pos, dice, plies=p)["position"].iloc[0]
        chosen["2-ply"] = hint2["position"].iloc[0]
        cands = sorted(set(hint2["position"].iloc[:args.top]) | set(chosen.values()))
        frame = nf.rollout_many(cands, args.games, policy="net", seed=args.seed + k,
                                workers=args.workers, progress=False)
        mover_eq = -frame["equity"]
        best = mover_eq.max()
        for p in players:
            loss[p].append(best - mover_eq[chosen[p]])
        if (k + 1) % 25 == 0:
            print(f"  {k + 1} decisions, {time.perf_counter() - t0:.0f} s", flush=True)
    for p in players:
        a = np.array(loss[p])
        print(f"{p:>7}: {a.mean():.4f} points lost per decision (SE "
              f"{a.std(ddof=1) / np.sqrt(len(a)):.4f}), blunders {100 * (a >= 0.16).mean():.1f}%"
              f" ({len(a)} decisions)")
    print(f"time {time.perf_counter() - t0:.0f} s")


if __name__ == "__main__":
    main()
