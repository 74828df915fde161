"""Would the luck net predict better from the judging net's hidden units? (issue 45)

At 0-ply the luck net's error in contact positions is 76 % of the variance a rollout
keeps (``bench_vr.py --phases``); the issue's 3.5x needs it about halved.  The luck net
reads the evaluation net's 198 inputs.  A 0-ply rollout has already evaluated each
position it reaches with the judging net (v7), as the position after the previous move,
so v7's hidden units of that position (256 + 64, the side on roll's view) would cost the
luck net nothing but the wider first layer.  This experiment measures what they are worth
before any kernel changes: luck nets of the shipped shape (``LUCK_DEFAULTS``' widths,
epochs and step) trained on the same positions and targets (``training.lucknet``'s data,
loss and Adam) from

- ``inputs``: the 198 inputs (the shipped luck net's view);
- ``hidden``: v7's 320 hidden units alone;
- ``both``: the 198 inputs and the 320 hidden units.

Each arm's held-out R^2 of the equity luck (``lucknet.luck_r2``'s measure, on the same
tenth of the positions) is printed.

    python experiments/exp_luck_features.py --games 3000 [--epochs 16] [--arms ...]

The labelled positions are kept in ``--cache`` (npz) for reruns.
"""
import argparse
import os
import time

import numpy as np

from nardy_fast.engine.evaluation.evaluator import Evaluator
from nardy_fast.engine.play.luck import ROLLS, WEIGHTS
from nardy_fast.training import lucknet as L


def hidden_units(net, x):
    """The judging net's hidden activations (n, H [+ H2]) of encoded positions ``x``."""
    p = net.arrays()
    h = np.maximum(x @ p["w1"] + p["b1"], 0.0)
    if p.get("w3") is not None and net.n_hidden2:
        h2 = np.maximum(h @ p["w3"].T + p["b3"], 0.0)
        return np.concatenate([h, h2], axis=1).astype(np.float32)
    return h.astype(np.float32)


def r2(params, x, values, c):
    acts = x
    for w, b in zip(params[:-2:2], params[1:-2:2]):
        acts = np.maximum(acts @ w + b, 0.0)
    out = (acts @ params[-2] + params[-1]).reshape(len(x), len(ROLLS), 7)
    truth = L._centred(values.astype(np.float64)) @ c
    pred = L._centred(out.astype(np.float64)) @ c
    return 1.0 - ((WEIGHTS * (truth - pred) ** 2).sum(1).mean()
                  / (WEIGHTS * truth ** 2).sum(1).mean())


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=3000)
    ap.add_argument("--seed", type=int, default=4640)
    ap.add_argument("--epochs", type=int, default=L.LUCK_DEFAULTS["epochs"])
    ap.add_argument("--arms", default="inputs,hidden,both")
    ap.add_argument("--cache", default=None)
    args = ap.parse_args()
    ev = Evaluator.default().rollout_evaluator()
    if args.cache and os.path.exists(args.cache):
        z = np.load(args.cache)
        boards, values = z["boards"], z["values"]
    else:
        t = time.process_time()
        boards, values = L.luck_data(args.games, args.seed, ev, progress=False)
        print(f"{len(boards)} positions of {args.games} games labelled, "
              f"{time.process_time() - t:.0f} CPU-s", flush=True)
        if args.cache:
            tmp = args.cache + ".tmp.npz"
            np.savez(tmp, boards=boards, values=values)
            os.replace(tmp, args.cache)
    x_in = ev.net.encode(np.ascontiguousarray(boards, dtype=np.uint8))
    x_h = hidden_units(ev.net, x_in)
    x_h /= x_h.std(axis=0) + 1e-3             # a fixed scale, foldable into the weights
    feats = {"inputs": x_in, "hidden": x_h, "both": np.concatenate([x_in, x_h], axis=1)}
    y = L._centred(values.astype(np.float32)).reshape(len(boards), -1)
    c_signed = L._equity_coefficients(ev.searcher())
    c = np.abs(c_signed)
    weight = (np.repeat(WEIGHTS, 7).reshape(len(ROLLS), 7)
              * (0.5 + c / c.max())).reshape(-1).astype(np.float32)
    hidden, middle, lr = (L.LUCK_DEFAULTS["hidden"], L.LUCK_DEFAULTS["middle"],
                          L.LUCK_DEFAULTS["lr"])
    for name in args.arms.split(","):
        x = np.ascontiguousarray(feats[name])
        g = np.random.default_rng(args.seed)
        order = g.permutation(len(x))
        n_test = len(x) // 10
        test, train = order[:n_test], order[n_test:]
        widths = [x.shape[1], hidden, *middle]
        params = []
        for a, b in zip(widths[:-1], widths[1:]):
            params += [g.standard_normal((a, b)) * np.sqrt(2.0 / a), np.zeros(b)]
        params += [g.standard_normal((widths[-1], y.shape[1])) * 0.1 / np.sqrt(widths[-1]),
                   np.zeros(y.shape[1])]
        params = [p.astype(np.float32) for p in params]
        t = time.process_time()
        L._adam(params, x, y, weight, args.epochs, lr, g, False, rows=train)
        print(f"{name}: {x.shape[1]} features, held-out R^2 of the equity luck "
              f"{r2(params, x[test], values[test], c_signed):.4f} "
              f"({n_test} positions), {time.process_time() - t:.0f} CPU-s", flush=True)


if __name__ == "__main__":
    main()
