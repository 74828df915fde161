"""Experiment: does a second hidden layer fit the shipped net's own 1-ply values closer?

``exp_fit_gap.py`` found that a one-hidden-layer net's 0-ply value stops about 0.018
points per game from the shipped net's 1-ply value on unseen contact positions, whatever
its width, step or loss.  This asks the same of a net with a second hidden layer beside
the first, the engine's two-layer net (``_net.pyx``)::

    h1 = relu(x @ w1 + b1)                      # the shipped net's layer, 256 units
    h2 = relu(b3 + w3 @ h1)                     # the new layer, H2 units
    out = sigmoid(b2 + w2 @ h1 + w4 @ h2)       # seven outputs

started at the shipped net: its ``w1, b1, w2, b2``, ``w4 = 0`` and ``w3`` small and
random, so the start computes exactly the shipped net; the gradients are
``supervised.loss_grads``', the outputs the formula above in numpy (the engine's
``Net.outputs`` to 1e-6).  The same data as
``exp_fit_gap.py`` (``--games`` games of seed 77 labelled by pure 1-ply targets; the test:
contact positions of 100 games of seed 78; "learnt": as many contact positions of the
training set), the same loss (cross-entropy of the seven outputs), Adam with batches of
128, ``--lr`` for all epochs but the last, a third of it for the last.  The gap printed is
the mean absolute difference, points per game, between the trained net's 0-ply equity
and the shipped net's 1-ply equity; "rollouts": its 0-ply equity's mean absolute error
against the accuracy set's rollouts (``benchmarks/data/accuracy.parquet``, all 350
positions and the held-out part).  ``--h2 0``: no second layer (the one-layer net, the
control on the same data and code).  ``--lam L``: the targets corrected by the rest of
each game as ``train-net --lam L`` corrects them (``labels.blend_targets``; the gap
is still measured against the pure 1-ply value).

    python experiments/exp_depth.py --games 2500 --epochs 8 --h2 64 128 --lr 3e-4
"""
import argparse
import os
import time

import numpy as np
import pandas as pd

import nardy_fast as nf

from nardy_fast.core.position import contact_mask
from nardy_fast.training.labels import (blend_targets, lookahead_targets, selfplay_games,
                                        selfplay_positions)
from nardy_fast.training.supervised import loss_grads

ACCURACY = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "benchmarks",
                        "data", "accuracy.parquet")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=2500)
    ap.add_argument("--epochs", type=int, default=8)
    ap.add_argument("--h2", type=int, nargs="+", default=[64])
    ap.add_argument("--lr", type=float, default=3e-4)
    ap.add_argument("--cache", default=None, help="an .npz to keep the labelled data in")
    ap.add_argument("--seed", type=int, default=5,
                    help="the new layer's weights (and SEED + 6: the order)")
    ap.add_argument("--lam", type=float, default=0.0,
                    help="targets corrected by the rest of each game (train-net --lam)")
    args = ap.parse_args()
    shipped = nf.Evaluator.default()
    # equity = eq0 + coef . outputs under the net's rules: the equity of no outcome, and
    # what each output adds
    eq = shipped.searcher().equities(np.vstack([np.zeros(7), np.eye(7)]).astype(np.float32))
    coef = (eq[1:] - eq[0]).astype(np.float32)
    eq0 = float(eq[0])
    t0 = time.process_time()
    try:
        d = np.load(args.cache)
        train, targets, test, want, seen, want_seen = (
            d[k] for k in ("train", "targets", "test", "want", "seen", "want_seen"))
    except (TypeError, FileNotFoundError):
        train, after, lengths = selfplay_games(shipped.net, args.games, seed=77, first=0)
        test = selfplay_positions(shipped.net, 100, seed=78, first=0)
        test = test[contact_mask(test)]
        targets = lookahead_targets(shipped.net, train, 1, threads=1)
        if args.lam:
            targets = blend_targets(targets, after, lengths, args.lam)
        want = shipped.evaluate(test, plies=1)
        seen = train[contact_mask(train)][:len(test)]
        want_seen = shipped.evaluate(seen, plies=1)
        if args.cache:
            np.savez(args.cache, train=train, targets=targets, test=test, want=want,
                     seen=seen, want_seen=want_seen)
    print(f"{len(train)} training positions, {len(test)} test contact positions, "
          f"{time.process_time() - t0:.0f} CPU-s", flush=True)
    net = shipped.net
    frame = pd.read_parquet(ACCURACY)
    accuracy = np.stack([np.asarray(nf.Position.from_id(p).boards) for p in frame.position])
    held = (frame.split == "heldout").to_numpy()

    encoded = {k: net.encode(b) for k, b in (("accuracy", accuracy), ("test", test),
                                              ("seen", seen))}

    def equities(p, x):               # the engine's forward pass of the weights p
        h = np.maximum(x @ p["w1"] + p["b1"], 0)
        z = p["b2"] + h @ p["w2"].T
        if p.get("w3") is not None:
            z = z + np.maximum(h @ p["w3"].T + p["b3"], 0) @ p["w4"].T
        return eq0 + (0.5 + 0.5 * np.tanh(z / 2)) @ coef      # the sigmoid, no overflow

    def rollouts(p):
        e = np.abs(equities(p, encoded["accuracy"]) - frame.equity.to_numpy())
        return f"rollouts {e.mean():.4f} (held-out {e[held].mean():.4f})"

    def gap(p, boards, value):
        return np.abs(equities(p, encoded[boards]) - value).mean()
    x = net.encode(train)
    t = targets.astype(np.float32)
    a = net.arrays()
    for h2 in args.h2:
        rng = np.random.default_rng(args.seed)
        p = dict(a)                   # the net's layout (_net.pyx), w4 = 0: v6 to start
        if h2:
            p.update(w3=(rng.standard_normal((256, h2)) * np.sqrt(2 / 256)).T,
                     b3=np.zeros(h2), w4=np.zeros((7, h2)))
        p = {k: np.array(v, dtype=np.float32) for k, v in p.items()}
        print(f"  h2 {h2}: start gap {gap(p, 'test', want):.4f}; {rollouts(p)}", flush=True)
        m = {k: np.zeros_like(v) for k, v in p.items()}
        v2 = {k: np.zeros_like(v) for k, v in p.items()}
        step, order_rng = 0, np.random.default_rng(args.seed + 6)
        for ep in range(args.epochs):
            tt = time.process_time()
            lr = np.float32(args.lr if ep < args.epochs - 1 else args.lr / 3)
            order, total = order_rng.permutation(len(x)), 0.0
            for i in range(0, len(x), 128):
                idx = order[i:i + 128]
                loss, g = loss_grads(p, x[idx], t[idx])
                total += loss
                step += 1
                c1, c2 = 1 - 0.9 ** step, 1 - 0.999 ** step
                for k in p:
                    m[k] = 0.9 * m[k] + 0.1 * g[k]
                    v2[k] = 0.999 * v2[k] + 0.001 * g[k] ** 2
                    p[k] -= lr * (m[k] / c1) / (np.sqrt(v2[k] / c2) + 1e-8)
            print(f"  h2 {h2}, epoch {ep + 1}: loss {total / len(x):.5f}, gap "
                  f"{gap(p, 'test', want):.4f} (learnt {gap(p, 'seen', want_seen):.4f}); "
                  f"{rollouts(p)}; {time.process_time() - tt:.0f} CPU-s", flush=True)


if __name__ == "__main__":
    main()
