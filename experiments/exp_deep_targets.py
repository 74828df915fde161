"""Experiment: train the net's 0-ply value towards its own 2-ply value.

The shipped net's 0-ply equity errs against its own rollouts by about 0.041 and its 1-ply
by 0.036, the value it is trained towards; its 2-ply errs by 0.028.  A net cannot fit its
1-ply value closer than about 0.018 (``exp_fit_gap.py``), so trained on 1-ply targets its
0-ply value stays near ``sqrt(0.036^2 + 0.018^2)``.  Trained on 2-ply targets it might
reach ``sqrt(0.028^2 + gap^2)``, if the gap stays as small.  A full 2-ply target costs
0.12 CPU-s (every move of every roll searched at 1-ply); choosing each roll's move at
0-ply and valuing it at 1-ply (the search's ``keep = 1``) is as accurate on the accuracy
set (0.0281 against 0.0283 held out) at about 4 ms.

Positions: ``--games`` self-play games of the shipped net at 0-ply (``--seed``, default
77, every position before a move), labelled by the shipped net's 2-ply value with
``keep = 1`` (``--plies 1``: its 1-ply value, the control); then the shipped net is
trained on them (``supervised.fit``, Adam, batches of 128, ``--lr``, the last epoch of
several a third of it; ``--orders`` seeds of the order, one net each) and after each epoch its
0-ply equity is compared with the accuracy set's rollouts (mean absolute error, held-out
and dev parts, all).  ``--exclude`` drops the accuracy set's positions from the training
data (as ``train-net --exclude``), ``--rows A:B`` keeps rows A to B of the labelled
positions (a part of the games).  ``--out NET`` writes the last net.  The labels are
``labels.lookahead_targets(..., keep=1)`` (notes/2026-12-04-exp_deep_targets.md).

    python experiments/exp_deep_targets.py --games 2500 --epochs 4 --lr 1e-4 \
        --cache t2.npz [--out net.nfdb]
    python experiments/exp_deep_targets.py --games 1000 --seed 303 --epochs 1 --lr 1e-4 \
        --exclude --orders 11 12 --cache t303.npz
"""
import argparse
import os
import time

import numpy as np
import pandas as pd

import nardy_fast as nf
from nardy_fast.training.labels import board_keys, lookahead_targets, selfplay_positions
from nardy_fast.training.supervised import fit

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "benchmarks",
                    "data", "accuracy.parquet")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=2500)
    ap.add_argument("--first", type=int, default=0)
    ap.add_argument("--plies", type=int, choices=(1, 2), default=2)
    ap.add_argument("--epochs", type=int, default=4)
    ap.add_argument("--lr", type=float, default=1e-4)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--cache", default=None)
    ap.add_argument("--out", default=None)
    ap.add_argument("--seed", type=int, default=77)
    ap.add_argument("--exclude", action="store_true")
    ap.add_argument("--rows", default=None, metavar="A:B")
    ap.add_argument("--orders", type=int, nargs="+", default=[11])
    args = ap.parse_args()
    shipped = nf.Evaluator.default()
    frame = pd.read_parquet(DATA)
    boards = np.stack([np.asarray(nf.Position.from_id(p).boards) for p in frame.position])
    held = (frame.split == "heldout").to_numpy()

    def err(net):
        e = np.abs(nf.Evaluator(net).evaluate(boards, plies=0) - frame.equity.to_numpy())
        return e[held].mean(), e[~held].mean(), e.mean()

    t0 = time.process_time()
    if args.cache and os.path.exists(args.cache):
        d = np.load(args.cache)
        train, targets = d["train"], d["targets"]
    else:
        train = selfplay_positions(shipped.net, args.games, seed=args.seed, first=args.first)
        targets = lookahead_targets(shipped.net, train, args.plies, threads=args.threads,
                                    keep=1)
        if args.cache:
            np.savez(args.cache, train=train, targets=targets)
    print(f"{len(train)} positions labelled at {args.plies} plies, "
          f"{time.process_time() - t0:.0f} CPU-s", flush=True)
    if args.rows:
        a, b = (int(v) if v else None for v in args.rows.split(":"))
        train, targets = train[a:b], targets[a:b]
    if args.exclude:
        out = set(board_keys(boards))
        keep = np.array([k not in out for k in board_keys(train)], dtype=bool)
        train, targets = train[keep], targets[keep]
    print(f"{len(train)} positions learnt", flush=True)
    print("the shipped net: held-out %.4f, dev %.4f, all %.4f" % err(shipped.net), flush=True)
    x = shipped.net.encode(train)
    for order in args.orders:
        net, rng = shipped.net, np.random.default_rng(order)
        for ep in range(args.epochs):
            t = time.process_time()
            lr = args.lr if ep < args.epochs - 1 or args.epochs == 1 else args.lr / 3
            net, loss = fit(net, x, targets, 1, 128, lr, rng)
            h, d, a = err(net)
            print(f"  order {order}, epoch {ep + 1}: loss {loss:.5f}, 0-ply error held-out "
                  f"{h:.4f}, dev {d:.4f}, all {a:.4f} ({time.process_time() - t:.0f} "
                  f"CPU-s)", flush=True)
    if args.out:
        nf.Evaluator(net, meta={"experiment": "exp_deep_targets"}).save(args.out)


if __name__ == "__main__":
    main()
