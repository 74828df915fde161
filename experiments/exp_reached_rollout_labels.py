"""Does the judge agree better with the rollouts after learning rollout labels of the
positions users reach? (issue 45)

The accuracy benchmark's largest errors are lopsided prime and heavy-head positions,
and the judge's look-ahead shares them, so look-ahead targets cannot remove them
(``exp_reached_training.py``).  Rollout labels do not bootstrap on the net there.

``--label``: the positions and labels of ``nardy-fast train-rollouts`` (the package's
``rolloutlabels.label_positions`` and ``rollout_labels``; its module docstring says
which), with this script's options: contact positions of ``--selfplay-games`` self-play
games of the shipped judge and of ``--source-games`` games of it against each opponent
of the reached set (seed ``--seed``), none of the three benchmark files' (``--exclude``),
each rolled out ``--games`` games by the rollout player.  The positions are written first
(``DIR/labels.boards.npz``), the labels checkpointed per ``--chunk`` positions in
``DIR/labels.partial`` (a killed run continues with the same numbers), then written to
``DIR/labels.parquet``.

``--fit``: arms fine-tuned from the judge (``supervised.fit``: Adam on the cross-entropy
of the seven outputs against the rollout's probabilities, not clipped), then their
held-out errors on both accuracy files and their matches against the judge at 0-ply
(``exp_reached_training.run_arms``).  Arms: ``R`` (the rollout labels) and, with
``--anchor N``, ``RA``: the same plus ``N`` self-play games' look-ahead targets of the
judge (``train-net``'s labels, ``--lam``), which hold its play; with ``--two-ply``, ``T2``:
the same positions labelled by the judge's own 2-ply value instead (``labels.lookahead_targets``
with ``keep=1``, kept in ``DIR/two_ply.npy``: no noise, but the judge's own bias), and
``B2``: the mean of the two labels.  ``--pool DIR`` (repeatable) adds the labels of
other ``--label`` folders (other seeds) to the arms' ``R``; ``--equity-weight W`` adds
``W`` times each position's squared equity error to the cross-entropy
(``exp_reached_training.equity_term``), so the fit weighs the outputs as the equity does.

    python experiments/exp_reached_rollout_labels.py --label --out-dir DIR --workers 2
    python experiments/exp_reached_rollout_labels.py --fit --out-dir DIR [--anchor 1000]
"""
import argparse
import os
import time

import numpy as np
import pandas as pd

import nardy_fast as nf
from nardy_fast.training.rolloutlabels import LABELS, label_positions, rollout_labels
from nardy_fast.training.labels import (blend_targets, board_keys, lookahead_targets,
                                        selfplay_games)

from exp_reached_training import (HERE, add_arm_options, excluded_boards, excluded_keys,
                                  run_arms)

BENCH_DATA = os.path.join(HERE, "..", "benchmarks", "data")
EXCLUDE = [os.path.join(BENCH_DATA, f) for f in
           ("accuracy.parquet", "accuracy_reached.parquet", "decisions.parquet")]


def training_boards(args, ev):
    """The positions to label (uint8, shape (n, 2, 24)) and their kinds: the package's
    ``rolloutlabels.label_positions``, what ``nardy-fast train-rollouts`` labels."""
    return label_positions(ev, selfplay_games=args.selfplay_games,
                           source_games=args.source_games, every=args.every,
                           every_reached=args.every_reached, seed=args.seed,
                           exclude=excluded_boards(args.exclude))


def label(args):
    """The positions (``DIR/labels.boards.npz``), then their rollouts
    (``rolloutlabels.rollout_labels``, checkpointed in ``DIR/labels.partial``), written
    to ``DIR/labels.parquet`` when all are done (``label_boards``)."""
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
    label_boards(args.out_dir, boards, kind, games=args.games, seed=args.seed,
                 workers=args.workers, chunk=args.chunk)


def label_boards(out_dir, boards, kind, *, games, seed, workers, chunk):
    """``rolloutlabels.rollout_labels`` of ``boards`` (checkpointed in
    ``out_dir/labels.partial``: a killed run continues with the same numbers), written
    with their ``kind`` to ``out_dir/labels.parquet`` when all are done."""
    path = os.path.join(out_dir, "labels.parquet")
    t0 = time.perf_counter()
    labels, stopped = rollout_labels(boards, games=games, seed=seed, workers=workers,
                                     chunk=chunk,
                                     checkpoint=os.path.join(out_dir, "labels.partial"))
    if stopped:
        raise SystemExit("interrupted: the labels made so far are kept in "
                         f"{out_dir}/labels.partial")
    frame = pd.DataFrame(labels, columns=list(LABELS))
    frame["kind"] = kind
    frame.to_parquet(path + ".tmp", index=False)
    os.replace(path + ".tmp", path)
    print(f"  {len(frame)} labelled, {time.perf_counter() - t0:.0f} s", flush=True)


def pool_labels(folder):
    """The positions and the seven learnt labels of a ``--label`` folder."""
    z = np.load(os.path.join(folder, "labels.boards.npz"))
    frame = pd.read_parquet(os.path.join(folder, "labels.parquet"))
    return z["boards"][:len(frame)], frame[list(LABELS[:7])].to_numpy(np.float32)


def fit_arms(args):
    ev = nf.Evaluator.load(args.init) if args.init else nf.Evaluator.default()
    boards, targets = pool_labels(args.out_dir)
    labelled = len(boards)
    if args.use:
        boards, targets = boards[:args.use], targets[:args.use]
    for extra in args.pool or ():         # more folders of --label, learnt with these
        b, t = pool_labels(extra)
        boards, targets = np.concatenate([boards, b]), np.concatenate([targets, t])
    n = len(boards)
    tag = (f"{args.lr:g}x{args.epochs}" + (f"_{n}" if n != labelled else "")
           + (f"_eq{args.equity_weight:g}" if args.equity_weight else ""))
    arms = {f"R_{tag}": (boards, targets)}
    if args.anchor:
        sp, after, lengths = selfplay_games(ev.net, args.anchor, args.seed + 7)
        sp_t = blend_targets(lookahead_targets(ev.net, sp, 1), after, lengths, args.lam)
        held = excluded_keys(args.exclude)
        keep = np.array([k not in held for k in board_keys(sp)])
        arms[f"RA{args.anchor}_{tag}"] = (np.concatenate([boards, sp[keep]]),
                      np.concatenate([targets, sp_t[keep].astype(np.float32)]))
    if args.two_ply:
        path = os.path.join(args.out_dir, "two_ply.npy")
        if os.path.exists(path):
            two = np.load(path)[:n]
        else:
            t = time.process_time()
            two = lookahead_targets(ev.net, boards, 2, threads=args.workers, keep=1)
            np.save(path, two)
            print(f"2-ply labels of {n} positions: {time.process_time() - t:.0f} CPU-s",
                  flush=True)
        arms[f"T2_{tag}"] = (boards, two.astype(np.float32))
        arms[f"B2_{tag}"] = (boards, ((two + targets) / 2).astype(np.float32))
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
    ap.add_argument("--two-ply", action="store_true", help="also the arms T2 and B2")
    ap.add_argument("--pool", action="append", default=None,
                    help="--fit: another --label folder whose labels are learnt too "
                         "(repeat for several)")
    ap.add_argument("--equity-weight", type=float, default=0.0,
                    help="--fit: add W times each position's squared equity error to the "
                         "cross-entropy (exp_reached_training.equity_term)")
    ap.add_argument("--exclude", action="append", default=None)
    ap.add_argument("--init", default=None, help="the net to fine-tune (default: the "
                    "shipped judge)")
    args = ap.parse_args()
    if args.two_ply and args.pool:
        ap.error("--two-ply labels the --out-dir positions only: not with --pool")
    args.exclude = args.exclude or EXCLUDE
    os.makedirs(args.out_dir, exist_ok=True)
    if args.label:
        label(args)
    if args.fit:
        fit_arms(args)


if __name__ == "__main__":
    main()
