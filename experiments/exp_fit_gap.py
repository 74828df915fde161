"""Experiment: how closely can a net fit the shipped net's own 1-ply values?

A net trained on look-ahead targets learns its 1-ply value; its 0-ply value then errs
against its own rollouts by at least about the 1-ply error plus what it misses of that
target.  This measures the miss: positions of seeded 0-ply self-play of the shipped net
(``--games`` games, seed 77, every position; the test set: 100 other games, seed 78,
contact positions only), the training ones labelled by the shipped net's pure 1-ply
targets (``labels.lookahead_targets``, no correction by the game), then for each width
in ``--hidden`` the shipped net widened to it (``supervised.widen``: the new units
small and random in, zero out, so the start is the shipped net) and trained on them
(``supervised.fit``, Adam, batches of 128, ``--lr`` for all epochs but the last, a third
of it for the last; one seeded order).  ``--equity-weight W`` adds ``W`` times each
position's squared equity error to the cross-entropy (``fit(..., equity=(W, c))``, ``c``
the outputs' equity coefficients under the net's rules).  After each epoch: the mean
absolute gap, in points per game, between the trained net's 0-ply equity and the
shipped net's 1-ply equity on the test positions, and on as many contact positions of
the training set (learnt: a gap much smaller there than on the test positions would be
a net that fits what it saw and does not generalise).

    python experiments/exp_fit_gap.py --games 2500 --epochs 8 --hidden 256 512 --lr 1e-4 \
        [--equity-weight 10]
"""
import argparse
import time

import numpy as np

import nardy_fast as nf
from nardy_fast.core.position import contact_mask
from nardy_fast.training.labels import lookahead_targets, selfplay_positions
from nardy_fast.training.supervised import fit, widen


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=2500)
    ap.add_argument("--epochs", type=int, default=8)
    ap.add_argument("--hidden", type=int, nargs="+", default=[256])
    ap.add_argument("--lr", type=float, default=1e-4)
    ap.add_argument("--equity-weight", type=float, default=0.0)
    args = ap.parse_args()
    shipped = nf.Evaluator.default()
    equity = None
    if args.equity_weight:
        # what each output adds to the equity under the net's rules
        rows = np.vstack([np.zeros(7), np.eye(7)]).astype(np.float32)
        eq = shipped.searcher().equities(rows)
        equity = (args.equity_weight, eq[1:] - eq[0])
    t = time.process_time()
    train = selfplay_positions(shipped.net, args.games, seed=77, first=0)
    test = selfplay_positions(shipped.net, 100, seed=78, first=0)
    test = test[contact_mask(test)]
    targets = lookahead_targets(shipped.net, train, 1, threads=1)
    want = shipped.evaluate(test, plies=1)
    seen = train[contact_mask(train)][:len(test)]                   # learnt
    want_seen = shipped.evaluate(seen, plies=1)
    print(f"{len(train)} training positions, {len(test)} test contact positions, "
          f"{time.process_time() - t:.0f} CPU-s", flush=True)

    def gap(net, boards=test, value=want):
        return np.abs(nf.Evaluator(net).evaluate(boards, plies=0) - value).mean()
    print(f"the shipped net: mean |0-ply - its 1-ply| on the test positions "
          f"{gap(shipped.net):.4f}", flush=True)
    for h in args.hidden:
        net = widen(shipped.net.copy(), h, seed=5)
        x = net.encode(train)
        rng = np.random.default_rng(11)
        for ep in range(args.epochs):
            t = time.process_time()
            lr = args.lr if ep < args.epochs - 1 else args.lr / 3
            net, loss = fit(net, x, targets, 1, 128, lr, rng, equity)
            print(f"  hidden {h}, epoch {ep + 1}: loss {loss:.5f}, gap {gap(net):.4f} "
                  f"(on as many learnt positions {gap(net, seen, want_seen):.4f}; "
                  f"{time.process_time() - t:.0f} CPU-s)", flush=True)


if __name__ == "__main__":
    main()
