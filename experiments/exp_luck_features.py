"""What would let the luck net predict better: other inputs, or more units? (issue 45)

At 0-ply the luck net's error in contact positions is 76 % of the variance a rollout
keeps (``bench_vr.py --phases``); the issue's 3.5x needs it about halved.  The luck net
reads the evaluation net's 198 inputs.  This experiment trains luck nets on the same
positions and targets (``lucknet.luck_data``) from

- ``inputs``: the 198 inputs (the shipped luck net's view);
- ``hidden``: the judging net's (v7's) 320 hidden units alone.  A 0-ply rollout has
  already evaluated each position it reaches with v7, as the position after the previous
  move, so they would cost the luck net nothing but the wider first layer;
- ``both``: the 198 inputs and the 320 hidden units;
- ``dice``: the 198 inputs and 38 counts of what each die can do
  (``dice_features``: for each side and each die 1-6, the points that can move it, the
  checkers that can, and how many steps of the double can be chained; and whether the
  side is all home), cheap to compute from the board;
- ``dice+hidden``: all three.

``--hidden`` and ``--middle`` set the widths (default: the shipped luck net's,
``LUCK_DEFAULTS``).  Each net is trained here as ``train-luck`` trains (the squared
error of the centred per-roll values, weighed by the rolls' probabilities and the
outputs' equity weights; Adam in minibatches of 256, the step cut by 0.3 after 70 % of
the epochs), written out with public names only, and its held-out R^2 of the equity luck
(``lucknet.luck_r2``'s measure, on the same tenth of the positions) is printed.

    python experiments/exp_luck_features.py --games 3000 [--epochs 16] [--arms ...] \
        [--hidden 512 --middle 128,64]

The labelled positions are kept in ``--cache`` (npz) for reruns.
"""
import argparse
import os
import time

import numpy as np

from nardy_fast.engine.evaluation.evaluator import Evaluator
from nardy_fast.engine.play.luck import WEIGHTS
from nardy_fast.training.lucknet import LUCK_DEFAULTS, luck_data


def hidden_units(net, x):
    """The judging net's hidden activations (n, H [+ H2]) of encoded positions ``x``."""
    p = net.arrays()
    h = np.maximum(x @ p["w1"] + p["b1"], 0.0)
    if p.get("w3") is not None and net.n_hidden2:
        h2 = np.maximum(h @ p["w3"].T + p["b3"], 0.0)
        return np.concatenate([h, h2], axis=1).astype(np.float32)
    return h.astype(np.float32)


def side_dice_features(me, opp):
    """What each die can do for ``me`` (boards ``(n, 24)``, each in its own side's
    numbering; the opponent's point ``j`` is ``me``'s ``(j + 12) % 24``): for d = 1..6,
    the points that can move d pips (onto a point the opponent does not hold, or off when
    all are home) / 6, the checkers that can (the head counts once, a point at most four)
    / 15, and the steps of d that can be chained from them, up to four (the double) / 4;
    then whether ``me`` is all home.  ``(n, 19)`` float32."""
    n = len(me)
    me = me.astype(np.int16)
    block = np.roll(opp, -12, axis=1) > 0            # opp's idx (i+12)%24 -> my idx i
    allhome = me[:, :18].sum(1) == 0
    cap = np.minimum(me, 4)
    cap[:, 0] = np.minimum(me[:, 0], 1)
    feats = []
    pad = np.concatenate([block, np.zeros((n, 30), bool)], axis=1)   # idx >= 24: off
    offok = np.concatenate([np.zeros((n, 24), bool), np.repeat(allhome[:, None], 30, 1)], 1)
    openpt = ~pad & (np.arange(54) < 24) | offok                     # landing allowed
    has = me > 0
    for d in range(1, 7):
        o1 = openpt[:, d:d + 24] & has
        feats.append(o1.sum(1) / 6.0)
        feats.append((o1 * cap).sum(1) / 15.0)
        k = np.zeros((n, 24), np.int16)
        alive = has.copy()
        for s in range(1, 5):
            alive = alive & openpt[:, s * d:s * d + 24]      # s * d <= 24: in range
            k += alive
        feats.append(np.minimum((k * cap).sum(1), 4) / 4.0)
    feats.append(allhome.astype(np.float32))
    return np.stack(feats, 1).astype(np.float32)


def dice_features(boards):
    """``side_dice_features`` of the side on roll, then of its opponent: ``(n, 38)``."""
    b = np.asarray(boards)
    return np.concatenate([side_dice_features(b[:, 0], b[:, 1]),
                           side_dice_features(b[:, 1], b[:, 0])], 1)


def centred(v):
    """Per-roll values ``(n, 21, k)`` minus their mean over the rolls."""
    return v - np.einsum("r,nrk->nk", WEIGHTS.astype(v.dtype), v)[:, None, :]


def forward(params, x):
    for w, b in zip(params[:-2:2], params[1:-2:2]):
        x = np.maximum(x @ w + b, 0.0)
    return (x @ params[-2] + params[-1]).reshape(len(x), len(WEIGHTS), 7)


def train(params, x, y, weight, rows, epochs, lr, g, batch=256):
    """Adam on ``sum(weight * (centred prediction - y)^2) / batch``, in place."""
    m = [np.zeros_like(p) for p in params]
    v = [np.zeros_like(p) for p in params]
    t = 0
    for epoch in range(epochs):
        step = lr * 0.3 if epoch >= int(0.7 * epochs) else lr
        order = rows[g.permutation(len(rows))]
        for s0 in range(0, len(order), batch):
            b = order[s0:s0 + batch]
            acts = [x[b]]
            for w, c in zip(params[:-2:2], params[1:-2:2]):
                acts.append(np.maximum(acts[-1] @ w + c, 0.0))
            out = (acts[-1] @ params[-2] + params[-1]).reshape(len(b), len(WEIGHTS), 7)
            grad = 2.0 * weight * (centred(out).reshape(len(b), -1) - y[b]) / len(b)
            grads = []
            for k in range(len(params) // 2 - 1, -1, -1):
                grads[:0] = [acts[k].T @ grad, grad.sum(0)]
                if k:
                    grad = (grad @ params[2 * k].T) * (acts[k] > 0)
            t += 1
            for p, gp, mm, vv in zip(params, grads, m, v):
                mm[...] = 0.9 * mm + 0.1 * gp
                vv[...] = 0.999 * vv + 0.001 * gp * gp
                p -= (step * (mm / (1 - 0.9 ** t))
                      / (np.sqrt(vv / (1 - 0.999 ** t)) + 1e-8)).astype(np.float32)


def r2(params, x, values, c):
    truth = centred(values.astype(np.float64)) @ c
    pred = centred(forward(params, x).astype(np.float64)) @ c
    return 1.0 - ((WEIGHTS * (truth - pred) ** 2).sum(1).mean()
                  / (WEIGHTS * truth ** 2).sum(1).mean())


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=3000)
    ap.add_argument("--seed", type=int, default=4640)
    ap.add_argument("--epochs", type=int, default=LUCK_DEFAULTS["epochs"])
    ap.add_argument("--arms", default="inputs,hidden,both")
    ap.add_argument("--cache", default=None)
    ap.add_argument("--hidden", type=int, default=LUCK_DEFAULTS["hidden"])
    ap.add_argument("--middle", default=",".join(map(str, LUCK_DEFAULTS["middle"])),
                    help="middle layers' widths, comma-separated ('' for none)")
    args = ap.parse_args()
    ev = Evaluator.default().rollout_evaluator()
    if args.cache and os.path.exists(args.cache):
        z = np.load(args.cache)
        boards, values = z["boards"], z["values"]
    else:
        t = time.process_time()
        boards, values = luck_data(args.games, args.seed, ev, progress=False)
        print(f"{len(boards)} positions of {args.games} games labelled, "
              f"{time.process_time() - t:.0f} CPU-s", flush=True)
        if args.cache:
            tmp = args.cache + ".tmp.npz"
            np.savez(tmp, boards=boards, values=values)
            os.replace(tmp, args.cache)
    x_in = ev.net.encode(np.ascontiguousarray(boards, dtype=np.uint8))
    x_h = hidden_units(ev.net, x_in)
    x_h /= x_h.std(axis=0) + 1e-3             # a fixed scale, foldable into the weights
    x_d = dice_features(boards)
    feats = {"inputs": x_in, "hidden": x_h, "both": np.concatenate([x_in, x_h], axis=1),
             "dice": np.concatenate([x_in, x_d], axis=1),
             "dice+hidden": np.concatenate([x_in, x_d, x_h], axis=1)}
    y = centred(values.astype(np.float32)).reshape(len(boards), -1)
    rows = np.vstack([np.zeros(7), np.eye(7)]).astype(np.float32)
    eq = ev.equities(rows)
    c_signed = (eq[1:] - eq[0]).astype(np.float64)      # equity = eq0 + c . outputs
    c = np.abs(c_signed)
    weight = (np.repeat(WEIGHTS, 7).reshape(len(WEIGHTS), 7)
              * (0.5 + c / c.max())).reshape(-1).astype(np.float32)
    hidden, lr = args.hidden, LUCK_DEFAULTS["lr"]
    middle = [int(w) for w in args.middle.split(",") if w]
    for name in args.arms.split(","):
        x = np.ascontiguousarray(feats[name])
        g = np.random.default_rng(args.seed)
        order = g.permutation(len(x))
        n_test = len(x) // 10
        test, train_rows = order[:n_test], order[n_test:]
        widths = [x.shape[1], hidden, *middle]
        params = []
        for a, b in zip(widths[:-1], widths[1:]):
            params += [g.standard_normal((a, b)) * np.sqrt(2.0 / a), np.zeros(b)]
        params += [g.standard_normal((widths[-1], y.shape[1])) * 0.1 / np.sqrt(widths[-1]),
                   np.zeros(y.shape[1])]
        params = [p.astype(np.float32) for p in params]
        t = time.process_time()
        train(params, x, y, weight, train_rows, args.epochs, lr, g)
        print(f"{name}: {x.shape[1]} features, widths {widths[1:]}, held-out R^2 of the "
              f"equity luck {r2(params, x[test], values[test], c_signed):.4f} "
              f"({n_test} positions), {time.process_time() - t:.0f} CPU-s", flush=True)


if __name__ == "__main__":
    main()
