"""Experiment: would the main net's hidden units make a better luck net?

The position before a roll is the one the previous move chose, so the main net's hidden
units of it are computed anyway during a rollout.  This measures the held-out R^2 of
the equity luck (``nardy_fast.training.lucknet.luck_r2``'s measure) of 64-unit luck nets trained as
``train_luck_net`` trains (its loss, Adam, 12 epochs, the step cut after 70%) on three
inputs: the board encoding (as shipped), the main net's hidden units, both; beside them
the shipped luck net and a linear fit (ridge 1e-2) on each input.

Data: ``nardy_fast.training.lucknet.luck_data(--games, seed 3)`` (contact positions of
self-play of the shipped net and their exact per-roll values), a fifth held out (seed 0).
The loss and its Adam steps are ``train_luck_net``'s, written out below (``centred``,
``grads``, ``adam``: notes/2026-12-04-exp_luck_inputs.md).

    python experiments/exp_luck_inputs.py --games 1500 [--cache luck.npz]
"""
import argparse
import os
import time

import numpy as np

import nardy_fast as nf
from nardy_fast.engine.play.luck import WEIGHTS
from nardy_fast.engine.play.lucknet import default_luck_net
from nardy_fast.training.lucknet import luck_data


def centred(v, weights=WEIGHTS):
    """Per-roll values ``(n, 21, k)`` minus their mean over the rolls (``weights``)."""
    return v - np.einsum("r,nrk->nk", weights, v)[:, None, :]


def grads(params, x, y, weight, weights32):
    """Gradients of ``sum(weight * (centred prediction - y)^2) / len(x)`` over ``params``,
    the ``(w, b)`` pairs of the layers in order (``x @ w + b``, ReLU between them)."""
    acts = [x]                                          # each layer's input
    for w, c in zip(params[:-2:2], params[1:-2:2]):
        acts.append(np.maximum(acts[-1] @ w + c, 0.0))
    out = (acts[-1] @ params[-2] + params[-1]).reshape(len(x), len(WEIGHTS), 7)
    grad = 2.0 * weight * (centred(out, weights32).reshape(len(x), -1) - y) / len(x)
    out = []
    for k in range(len(params) // 2 - 1, -1, -1):
        out[:0] = [acts[k].T @ grad, grad.sum(0)]
        if k:
            grad = (grad @ params[2 * k].T) * (acts[k] > 0)
    return out


def adam(params, x, y, weight, epochs, lr, g, batch=256):
    """Minimise sum(weight * (centred prediction - y)^2) by Adam, in place (the step cut
    by 0.3 after 70% of the epochs)."""
    weights32 = WEIGHTS.astype(np.float32)
    m = [np.zeros_like(p) for p in params]
    v = [np.zeros_like(p) for p in params]
    b1_, b2_, eps, t = 0.9, 0.999, 1e-8, 0
    idx = np.arange(len(x))
    for epoch in range(epochs):
        if epoch == int(0.7 * epochs):
            lr *= 0.3
        g.shuffle(idx)
        for s0 in range(0, len(idx), batch):
            b = idx[s0:s0 + batch]
            t += 1
            for p, gp, mm, vv in zip(params, grads(params, x[b], y[b], weight, weights32),
                                     m, v):
                mm *= b1_
                mm += (1 - b1_) * gp
                vv *= b2_
                vv += (1 - b2_) * gp * gp
                p -= (lr * (mm / (1 - b1_ ** t))
                      / (np.sqrt(vv / (1 - b2_ ** t)) + eps)).astype(np.float32)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=1500)
    ap.add_argument("--hidden", type=int, default=64)
    ap.add_argument("--cache", default=None)
    args = ap.parse_args()
    ev = nf.Evaluator.default()
    eq = ev.searcher().equities(np.vstack([np.zeros(7), np.eye(7)]).astype(np.float32))
    c = eq[1:] - eq[0]                  # what each output adds to the equity
    t = time.process_time()
    if args.cache and os.path.exists(args.cache):
        d = np.load(args.cache)
        boards, values = d["b"], d["v"]
    else:
        boards, values = luck_data(args.games, 3, ev)
        if args.cache:
            np.savez(args.cache, b=boards, v=values)
    print(f"{len(boards)} positions, {time.process_time() - t:.0f} CPU-s", flush=True)
    truth = centred(values.astype(np.float64)) @ c                 # (n, 21) equity luck
    n = len(boards)
    order = np.random.default_rng(0).permutation(n)
    te, tr = order[:n // 5], order[n // 5:]

    def r2(pred):
        var = (WEIGHTS * truth[te] ** 2).sum(1).mean()
        return 1 - (WEIGHTS * (truth[te] - pred) ** 2).sum(1).mean() / var

    print(f"the shipped luck net: {r2(centred(default_luck_net().rolls(boards[te]).astype(np.float64)) @ c):.3f}")
    a = ev.net.arrays()
    x = ev.net.encode(boards)
    h = np.maximum(x @ a["w1"] + a["b1"], 0).astype(np.float32)
    y = centred(values.astype(np.float32)).reshape(n, -1)
    ca = np.abs(c)
    weight = (np.repeat(WEIGHTS, 7).reshape(21, 7) * (0.5 + ca / ca.max())).reshape(-1)
    for name, f in (("board encoding", x), ("hidden units", h),
                    ("both", np.hstack([x, h]))):
        f1 = np.hstack([f, np.ones((n, 1))]).astype(np.float64)
        w = np.linalg.solve(f1[tr].T @ f1[tr] + 1e-2 * np.eye(f1.shape[1]),
                            f1[tr].T @ truth[tr])
        lin = f1[te] @ w
        lin -= (lin * WEIGHTS).sum(1, keepdims=True)
        g = np.random.default_rng(1)
        k = args.hidden
        params = [g.standard_normal((f.shape[1], k)) * np.sqrt(2.0 / f.shape[1]), np.zeros(k),
                  g.standard_normal((k, y.shape[1])) * 0.1 / np.sqrt(k), np.zeros(y.shape[1])]
        params = [p.astype(np.float32) for p in params]
        adam(params, f[tr], y[tr], weight.astype(np.float32), 12, 1e-3, g)
        w1, b1, w2, b2 = params
        out = (np.maximum(f[te] @ w1 + b1, 0) @ w2 + b2).reshape(len(te), 21, 7)
        mlp = centred(out.astype(np.float64)) @ c
        print(f"{name}: {k}-unit luck net {r2(mlp):.3f}, linear {r2(lin):.3f}", flush=True)


if __name__ == "__main__":
    main()
