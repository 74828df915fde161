"""Experiment: fine-tune the net on rollout labels (Monte Carlo targets) instead of 1-ply
look-ahead targets, to see whether the net can learn to agree with its own rollouts.

Two steps, each resumable:

``--label``: contact positions from seeded 0-ply self-play of the net (``labels.
selfplay_positions``, seed ``--seed``; every ``--every``-th position before a move, the
accuracy set's positions left out), each labelled by a 0-ply rollout of the net
(``--games`` games, the default variance reduction, truncated at the bear-off; seed
``--seed * 1_000_003 + k``), written in chunks to a Parquet file (a temporary name, then
renamed).  ``--workers`` processes label chunks side by side.

``--fit``: the net trained on the labels (``supervised.fit``: Adam, cross-entropy of the
seven outputs against the rollout's probabilities, ``--epochs`` passes), saved to
``--out``.  Then ``bench_accuracy.py --report --net OUT`` and ``--versus OUT`` judge it.

    python experiments/exp_rollout_labels.py --label --positions 20000 --games 72 --workers 2
    python experiments/exp_rollout_labels.py --fit --out rl.nfdb
"""
import argparse
import os
import time
from concurrent.futures import ProcessPoolExecutor

import numpy as np
import pandas as pd

import nardy_fast as nf
from nardy_fast.core.position import contact_mask
from nardy_fast.training.labels import board_keys, selfplay_positions
from nardy_fast.training.supervised import fit

OUTPUTS = ("p_win", "p_mars_win", "p_koks_win", "p_home_mars_win", "p_mars_loss",
           "p_koks_loss", "p_home_mars_loss")
HERE = os.path.dirname(os.path.abspath(__file__))


def positions(n, seed, every, net):
    """``n`` contact positions (side on roll first) from self-play, none of the accuracy
    set's."""
    held = set(board_keys(np.stack([nf.Position.from_id(p).boards for p in pd.read_parquet(
        os.path.join(HERE, "..", "benchmarks", "data", "accuracy.parquet")).position])))
    out, first = [], 0
    while sum(len(o) for o in out) < n:
        pos = selfplay_positions(net, 200, seed, first)[::every]
        first += 200
        contact = contact_mask(pos)
        keep = [k for k, key in enumerate(board_keys(pos)) if contact[k] and key not in held]
        out.append(pos[keep])
    return np.concatenate(out)[:n]


def label_chunk(args):
    boards, games, seed0 = args
    rows = []
    for k, b in enumerate(boards):
        o = nf.rollout(nf.Position.from_boards(b[0], b[1]), games, seed=seed0 + k, workers=1,
                       progress=False)
        rows.append([getattr(o, q) for q in OUTPUTS] + [o.equity, o.se_equity])
    return np.array(rows)


def label(path, n, games, seed, every, workers, chunk=500):
    net = nf.Evaluator.default().net
    boards = positions(n, seed, every, net)
    done = pd.read_parquet(path) if os.path.exists(path) else None
    start = 0 if done is None else len(done)
    print(f"{len(boards)} positions, {start} labelled before", flush=True)
    t0 = time.perf_counter()
    jobs = [(boards[i:i + chunk], games, seed * 1_000_003 + i)
            for i in range(start, len(boards), chunk)]
    with ProcessPoolExecutor(workers) as pool:
        for i, rows in zip(range(start, len(boards), chunk), pool.map(label_chunk, jobs)):
            frame = pd.DataFrame(rows, columns=list(OUTPUTS) + ["equity", "se_equity"])
            frame["board"] = [bytes(b.reshape(-1)) for b in boards[i:i + len(rows)]]
            done = frame if done is None else pd.concat([done, frame], ignore_index=True)
            done.to_parquet(path + ".tmp", index=False)
            os.replace(path + ".tmp", path)
            print(f"  {len(done)}/{len(boards)} labelled, {time.perf_counter() - t0:.0f} s",
                  flush=True)


def fit_labels(path, out, epochs, lr, seed):
    frame = pd.read_parquet(path)
    boards = np.stack([np.frombuffer(b, dtype=np.uint8).reshape(2, 24) for b in frame.board])
    targets = np.clip(frame[list(OUTPUTS)].to_numpy(np.float32), 0.0, 1.0)
    ev = nf.Evaluator.default()
    net = ev.net.copy()
    t = time.process_time()
    net, loss = fit(net, net.encode(boards), targets, epochs, 128, lr,
                    np.random.default_rng(seed))
    print(f"fit {len(frame)} positions, {epochs} epochs: loss {loss:.5f}, "
          f"{time.process_time() - t:.0f} CPU-s", flush=True)
    nf.Evaluator(net, rules=nf.CLASSIC, meta={"training": {
        "method": "rollout labels", "positions": len(frame), "epochs": epochs, "lr": lr,
        "seed": seed, "init": ev.net.digest()}}).save(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", default="rollout_labels.parquet")
    ap.add_argument("--label", action="store_true")
    ap.add_argument("--fit", action="store_true")
    ap.add_argument("--positions", type=int, default=20000)
    ap.add_argument("--games", type=int, default=72)
    ap.add_argument("--every", type=int, default=4)
    ap.add_argument("--seed", type=int, default=2025)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--out", default="rl.nfdb")
    ap.add_argument("--epochs", type=int, default=3)
    ap.add_argument("--lr", type=float, default=3e-4)
    a = ap.parse_args()
    if a.label:
        label(a.data, a.positions, a.games, a.seed, a.every, a.workers)
    if a.fit:
        fit_labels(a.data, a.out, a.epochs, a.lr, a.seed)


if __name__ == "__main__":
    main()
