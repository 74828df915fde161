"""Is the judge's error against the rollouts predictable from what it sees? (issue 45)

The accuracy benchmark's largest errors are lopsided primes and positions with a mars at
stake, and the issue names new inputs as one lever.  Before any net is given new inputs,
this asks whether they carry what the net misses: the judge's residual (a position's
rollout equity less the judge's 0-ply equity, points per game, side on roll's view) is
regressed on

- ``features``: 28 counts a hand-written evaluator would use for primes and mars, for
  each side as the block's owner: the longest block with an opposing checker behind it
  (its length / 6, and whether it is 5+ or 6), the opposing checkers behind it / 15, a
  containment score (checkers behind a block of 4+ times its length beyond 3, / 45), the
  side's checkers outside its home / 15, the pips they need to reach it / 200, whether it
  has borne off none, its head's checkers / 15; the pip difference / 100, its square and
  absolute value, and four products of these (``features`` below);
- the judge's own second-layer units (64), its first-layer units (384), and these with
  the features,

by ridge regression (standardised columns, penalty ``lam * n``) fitted on the rollout
labels of ``DIR`` (``exp_reached_rollout_labels.py --label``: 72-game rollouts of the
rollout player) and scored twice:

- on a random 15 % of those labels kept out of the fit: the residual's variance before and
  after, beside the labels' own noise (the mean squared SE), so that the part of the true
  residual explained can be read;
- on both accuracy files (every part: 1,190 positions of 2,592-game rollouts): the mean
  absolute equity error of the judge corrected by the fit, per source, and the worst.

``--boosted`` adds gradient-boosted trees (scikit-learn's ``HistGradientBoostingRegressor``,
not a dependency of the package: install it to use this) on the same columns, and on
the raw boards with the features.

    python experiments/exp_reached_rollout_labels.py --label --out-dir DIR --seed 4800 \\
        --selfplay-games 1300 --source-games 180 --games 72 --workers 2
    python experiments/exp_residual_features.py --labels DIR [--boosted]
"""
import argparse
import os
import time

import numpy as np
import pandas as pd

import nardy_fast as nf

HERE = os.path.dirname(os.path.abspath(__file__))
BENCH_DATA = os.path.join(HERE, "..", "benchmarks", "data")
PIP_WEIGHTS = np.arange(24, 0, -1)          # index i is 24 - i pips from home
HOME = 18                                    # a side's home is its indices 18..23


def features(boards):
    """The 28 columns of the module docstring, float64, shape (n, 28), of boards
    ``(n, 2, 24)`` (side on roll first, each in its own numbering)."""
    b = np.asarray(boards).astype(np.int64)
    n = len(b)
    cols = []
    for s in (0, 1):
        held = b[:, s] > 0
        run = np.zeros((n, 25), np.int64)            # run[:, i]: held points from i on
        for i in range(23, -1, -1):
            run[:, i] = np.where(held[:, i], run[:, i + 1] + 1, 0)
        starts = held.copy()
        starts[:, 1:] &= ~held[:, :-1]
        before = np.zeros((n, 25), np.int64)         # before[:, k]: the other's on [0, k)
        before[:, 1:] = np.cumsum(b[:, 1 - s], axis=1)
        best = np.zeros(n)
        trapped = np.zeros(n)
        contain = np.zeros(n)
        for i in range(24):
            behind = before[:, (i + 12) % 24]         # the kinds module's convention
            length = np.where(starts[:, i] & (behind > 0), run[:, i], 0)
            longer = length > best
            best = np.where(longer, length, best)
            trapped = np.where(longer, behind, trapped)
            contain = np.maximum(contain, np.where(length >= 4, behind * (length - 3), 0))
        outside = b[:, s, :HOME]
        cols += [best / 6, best >= 5, best == 6, trapped / 15, contain / 45,
                 outside.sum(1) / 15, (outside * (HOME - np.arange(HOME))).sum(1) / 200,
                 b[:, s].sum(1) == 15, b[:, s, 0] / 15]
    pips = b @ PIP_WEIGHTS
    d = (pips[:, 0] - pips[:, 1]) / 100.0
    cols += [d, d ** 2, np.abs(d)]
    f = np.stack([np.asarray(c, dtype=np.float64) for c in cols], axis=1)
    # the side on roll's and the other's trapped checkers times the pip difference; each
    # side's longest block times the other's trapped checkers
    return np.concatenate([f, f[:, [3, 12]] * d[:, None], f[:, [0, 9]] * f[:, [12, 3]]],
                          axis=1)


def hidden_units(ev, boards):
    """The judge's first- and second-layer units of ``boards`` (its forward pass)."""
    a = ev.net.arrays()
    h = np.maximum(ev.net.encode(boards) @ a["w1"] + a["b1"], 0)
    return h, np.maximum(h @ a["w3"].T + a["b3"], 0)


def equity0(ev, boards):
    vals, _ = ev.probabilities(boards, plies=0)
    return ev.equities(vals)


def ridge(x, y, lam):
    """A ridge fit of ``y`` on the standardised columns of ``x``: the predictor."""
    mu, sd = x.mean(0), x.std(0) + 1e-9
    xs = (x - mu) / sd
    w = np.linalg.solve(xs.T @ xs + lam * len(x) * np.eye(x.shape[1]), xs.T @ (y - y.mean()))
    return lambda z: ((z - mu) / sd) @ w + y.mean()


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--labels", required=True, help="the --out-dir of "
                    "exp_reached_rollout_labels.py --label")
    ap.add_argument("--lams", default="0.001,0.01,0.1")
    ap.add_argument("--boosted", action="store_true")
    ap.add_argument("--seed", type=int, default=0, help="the kept-out 15 %%'s draw")
    args = ap.parse_args()
    t0 = time.process_time()
    ev = nf.Evaluator.default()
    with np.load(os.path.join(args.labels, "labels.boards.npz")) as z:
        train = z["boards"]
    labels = pd.read_parquet(os.path.join(args.labels, "labels.parquet"))
    frame = pd.concat([pd.read_parquet(os.path.join(BENCH_DATA, "accuracy.parquet"))
                       .assign(source="self-play"),
                       pd.read_parquet(os.path.join(BENCH_DATA, "accuracy_reached.parquet"))],
                      ignore_index=True)
    bench = np.stack([np.asarray(nf.Position.from_id(p).boards)
                      for p in frame.position]).astype(np.uint8)
    r_train = labels.equity.to_numpy() - equity0(ev, train)
    r_bench = frame.equity.to_numpy() - equity0(ev, bench)
    out = np.random.default_rng(args.seed).random(len(train)) < 0.15
    noise = float((labels.se_equity.to_numpy()[out] ** 2).mean())
    v0 = float(r_train[out].var())
    print(f"{len(train)} labelled positions; kept out {int(out.sum())}: residual variance "
          f"{v0:.5f}, of it the labels' noise {noise:.5f} (true residual about "
          f"{v0 - noise:.5f})")
    source = frame.source.to_numpy()

    def show(name, fitted_out, fitted_bench):
        v1 = float(((r_train[out] - fitted_out) ** 2).mean())
        c = np.abs(r_bench - fitted_bench)
        per = pd.Series(c).groupby(source).mean()
        print(f"  {name}: kept-out variance {v1:.5f} ({(v0 - v1) / (v0 - noise):+.0%} of "
              f"the true residual); accuracy files {c.mean():.4f} ("
              + ", ".join(f"{k} {v:.4f}" for k, v in per.items())
              + f"), worst {c.max():.3f}", flush=True)
    c0 = np.abs(r_bench)
    print("  the judge as it is: accuracy files " + f"{c0.mean():.4f} ("
          + ", ".join(f"{k} {v:.4f}" for k, v in pd.Series(c0).groupby(source).mean().items())
          + f"), worst {c0.max():.3f}")
    f_train, f_bench = features(train), features(bench)
    h_train, h2_train = hidden_units(ev, train)
    h_bench, h2_bench = hidden_units(ev, bench)
    arms = {"features": (f_train, f_bench), "second layer": (h2_train, h2_bench),
            "first layer": (h_train, h_bench),
            "second layer + features": (np.c_[h2_train, f_train], np.c_[h2_bench, f_bench]),
            "both layers + features": (np.c_[h_train, h2_train, f_train],
                                       np.c_[h_bench, h2_bench, f_bench])}
    for name, (x, xb) in arms.items():
        for lam in (float(v) for v in args.lams.split(",")):
            fit = ridge(x[~out], r_train[~out], lam)
            show(f"ridge on {name}, lam {lam:g}", fit(x[out]), fit(xb))
    if args.boosted:
        try:
            from sklearn.ensemble import HistGradientBoostingRegressor  # optional: --boosted
        except ImportError:
            raise SystemExit("--boosted needs scikit-learn (pip install scikit-learn)")
        boosted = {"features": arms["features"],
                   "second layer + features": arms["second layer + features"],
                   "raw boards + features": (np.c_[train.reshape(len(train), -1), f_train],
                                             np.c_[bench.reshape(len(bench), -1), f_bench])}
        for name, (x, xb) in boosted.items():
            m = HistGradientBoostingRegressor(max_iter=300, learning_rate=0.05,
                                              max_leaf_nodes=31, l2_regularization=1.0,
                                              random_state=args.seed)
            m.fit(x[~out], r_train[~out])
            show(f"boosted trees on {name}", m.predict(x[out]), m.predict(xb))
    print(f"{time.process_time() - t0:.0f} CPU-s")


if __name__ == "__main__":
    main()
