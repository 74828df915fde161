"""Does the judge agree better with the rollouts after learning rollout labels of the
positions users reach? (issue 45)

The accuracy benchmark's largest errors are lopsided prime and heavy-head positions,
and the judge's look-ahead shares them, so look-ahead targets cannot remove them
(``exp_reached_training.py``).  Rollout labels do not bootstrap on the net there.

``--label``: training positions, none of the three benchmark files' (``--exclude``):

- every ``--every``-th contact position of ``--selfplay-games`` 0-ply self-play games of
  the shipped judge (``labels.selfplay_positions``, seed ``--seed``);
- every ``--every-reached``-th contact position of ``--source-games`` games of the judge
  against each opponent of the reached set (``exp_reached_training.source_positions``,
  seeds ``--seed + 100 (k + 1)``, other seeds than the benchmark's).

Each is labelled by a 0-ply rollout of the rollout player (``nf.rollout``'s default
policy, ``--games`` games, the default variance reduction, truncated at the bear-off;
seed ``--seed * 1_000_003 + k`` for the ``k``-th position).  The positions are written
first (``DATA.boards.npz``), the labels in chunks (a temporary name, then renamed), so a
killed run continues where it stopped with the same numbers.

``--fit``: arms fine-tuned from the judge (``supervised.fit``: Adam on the cross-entropy
of the seven outputs against the rollout's probabilities, not clipped), then their
held-out errors on both accuracy files and their matches against the judge at 0-ply
(``exp_reached_training.run_arms``).  Arms: ``R`` (the rollout labels) and, with
``--anchor N``, ``RA``: the same plus ``N`` self-play games' look-ahead targets of the
judge (``train-net``'s labels, ``--lam``), which hold its play.

    python experiments/exp_reached_rollout_labels.py --label --out-dir DIR --workers 2
    python experiments/exp_reached_rollout_labels.py --fit --out-dir DIR [--anchor 1000]
"""
import argparse
import os
import time
from concurrent.futures import ProcessPoolExecutor

import numpy as np
import pandas as pd

import nardy_fast as nf
from nardy_fast.core.position import contact_mask
from nardy_fast.training.labels import (blend_targets, board_keys, lookahead_targets,
                                        selfplay_games, selfplay_positions)

from exp_reached_training import (HERE, _bench, add_arm_options, excluded_keys,
                                  run_arms, source_positions)
from exp_rollout_labels import OUTPUTS, label_chunk

BENCH_DATA = os.path.join(HERE, "..", "benchmarks", "data")
EXCLUDE = [os.path.join(BENCH_DATA, f) for f in
           ("accuracy.parquet", "accuracy_reached.parquet", "decisions.parquet")]


def training_boards(args, ev):
    """The positions to label (uint8, shape (n, 2, 24)) and their kinds."""
    held = excluded_keys(args.exclude)
    sp = selfplay_positions(ev.net, args.selfplay_games, args.seed)[::args.every]
    rb, src = source_positions(_bench(), ev, args.source_games, args.seed)
    rb, src = rb[::args.every_reached], src[::args.every_reached]
    boards = np.concatenate([sp, rb]).astype(np.uint8)
    kind = np.concatenate([np.full(len(sp), "self-play"), src])
    keep = contact_mask(boards) & np.array([k not in held for k in board_keys(boards)])
    # one label per board: the first of repeated positions
    _, first = np.unique(np.array(board_keys(boards), dtype=object)[keep],
                         return_index=True)
    idx = np.flatnonzero(keep)[np.sort(first)]
    return boards[idx], kind[idx]


def label(args):
    path = os.path.join(args.out_dir, "labels.parquet")
    bpath = os.path.join(args.out_dir, "labels.boards.npz")
    if os.path.exists(bpath):
        z = np.load(bpath)
        boards, kind = z["boards"], z["kind"]
    else:
        t = time.process_time()
        boards, kind = training_boards(args, nf.Evaluator.default())
        np.savez(bpath + ".tmp.npz", boards=boards, kind=kind)
        os.replace(bpath + ".tmp.npz", bpath)
        print(f"{len(boards)} positions ({', '.join(f'{k} {int((kind == k).sum())}' for k in np.unique(kind))}), "
              f"{time.process_time() - t:.0f} CPU-s", flush=True)
    done = pd.read_parquet(path) if os.path.exists(path) else None
    start = 0 if done is None else len(done)
    t0 = time.perf_counter()
    chunk = args.chunk
    jobs = [(boards[i:i + chunk], args.games, args.seed * 1_000_003 + i)
            for i in range(start, len(boards), chunk)]
    with ProcessPoolExecutor(args.workers) as pool:
        for i, rows in zip(range(start, len(boards), chunk), pool.map(label_chunk, jobs)):
            frame = pd.DataFrame(rows, columns=list(OUTPUTS) + ["equity", "se_equity"])
            frame["kind"] = kind[i:i + len(rows)]
            done = frame if done is None else pd.concat([done, frame], ignore_index=True)
            done.to_parquet(path + ".tmp", index=False)
            os.replace(path + ".tmp", path)
            print(f"  {len(done)}/{len(boards)} labelled, {time.perf_counter() - t0:.0f} s",
                  flush=True)


def fit_arms(args):
    ev = nf.Evaluator.load(args.init) if args.init else nf.Evaluator.default()
    z = np.load(os.path.join(args.out_dir, "labels.boards.npz"))
    frame = pd.read_parquet(os.path.join(args.out_dir, "labels.parquet"))
    n = min(len(frame), args.use or len(frame))
    boards, targets = z["boards"][:n], frame[list(OUTPUTS)].to_numpy(np.float32)[:n]
    tag = f"{args.lr:g}x{args.epochs}" + (f"_{n}" if n < len(frame) else "")
    arms = {f"R_{tag}": (boards, targets)}
    if args.anchor:
        sp, after, lengths = selfplay_games(ev.net, args.anchor, args.seed + 7)
        sp_t = blend_targets(lookahead_targets(ev.net, sp, 1), after, lengths, args.lam)
        held = excluded_keys(args.exclude)
        keep = np.array([k not in held for k in board_keys(sp)])
        arms[f"RA{args.anchor}_{tag}"] = (np.concatenate([boards, sp[keep]]),
                      np.concatenate([targets, sp_t[keep].astype(np.float32)]))
    run_arms(args, ev, arms, "rollout labels of reached positions")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_arm_options(ap, seed=4600)
    ap.add_argument("--label", action="store_true")
    ap.add_argument("--fit", action="store_true")
    ap.add_argument("--games", type=int, default=72)
    ap.add_argument("--every", type=int, default=4)
    ap.add_argument("--every-reached", type=int, default=2)
    ap.add_argument("--chunk", type=int, default=500)
    ap.add_argument("--use", type=int, default=0, help="fit on the first N labels (0: all)")
    ap.add_argument("--anchor", type=int, default=0)
    ap.add_argument("--lam", type=float, default=0.7)
    ap.add_argument("--exclude", action="append", default=None)
    ap.add_argument("--init", default=None, help="the net to fine-tune (default: the "
                    "shipped judge)")
    args = ap.parse_args()
    args.exclude = args.exclude or EXCLUDE
    os.makedirs(args.out_dir, exist_ok=True)
    if args.label:
        label(args)
    if args.fit:
        fit_arms(args)


if __name__ == "__main__":
    main()
