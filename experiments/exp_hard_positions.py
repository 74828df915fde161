"""Does the judge gain from longer rollouts of the positions where its own look-ahead
disagrees with it? (issue 45)

Three rounds of 72-game rollout labels of positions like the benchmark's (up to 281,738
of them, ``2026-12-05-more-rollout-labels.md``) moved the held-out errors by less than
their SE: most of those positions the judge already values well, and each label's own
noise (SD 0.037) is larger than what is left of its error there.  On the accuracy files'
dev part, the judge's 0-ply error correlates with how far its 2-ply value is from its
0-ply value (0.71; the top fifth of that gap holds errors of 0.070 on average against
0.019 below it).  So this experiment spends the same labelling time on fewer positions,
chosen where the gap is large, each rolled out more games.

``--mine``: contact positions of ``--selfplay-games`` self-play games of the judge and
``--source-games`` games against each reached-set opponent (the package's
``rolloutlabels.label_positions``, seed ``--seed``, none of the three benchmark files'),
valued at 0 and 1 ply (``Evaluator.probabilities``); the ``--stage`` share with the
largest 1-ply gap is valued at 2 plies (``labels.lookahead_targets``, ``keep=1``); the
``--hard`` positions with the largest 2-ply gap are kept (``DIR/hard.npz``), with
``--anchor`` others drawn at random (seed ``--seed``) whose targets are the judge's own
0-ply values: they hold the judge where it is not corrected.

``--label``: the hard positions rolled out ``--games`` games each by the rollout player
(``rolloutlabels.rollout_labels``, checkpointed in ``DIR/labels.partial`` per
``--chunk``; a killed run continues with the same numbers).

``--validate``: the labelled hard positions split 6 to 1 (seed 1); for each of a few
settings (``GRID``: step, passes, anchors per hard position), a fit on the six parts,
then the mean absolute equity error of the kept part before and after, how far the fit
moves the judge's 0-ply equity on 3,000 anchor positions it did not learn, and the dev
part's errors at 0-ply.

``--fit``: arms fine-tuned from the judge (``supervised.fit`` with the equity term of
``exp_reached_training.equity_term``), their errors on the accuracy files' ``--part``
and, with ``--match-games``, their matches against the judge at 0-ply
(``exp_reached_training.run_arms``).  ``--use N`` fits on the first N labels.

    python experiments/exp_hard_positions.py --mine --out-dir DIR
    python experiments/exp_hard_positions.py --label --out-dir DIR --workers 2
    python experiments/exp_hard_positions.py --validate --out-dir DIR
    python experiments/exp_hard_positions.py --fit --out-dir DIR --part dev --match-games 0
"""
import argparse
import os
import time

import numpy as np
import pandas as pd

import nardy_fast as nf
from nardy_fast.training.labels import lookahead_targets
from nardy_fast.training.lucknet import equity_coefficients
from nardy_fast.training.rolloutlabels import LABELS, label_positions

from exp_reached_rollout_labels import EXCLUDE, label_boards
from nardy_fast.training.supervised import fit as fit_net

from exp_reached_training import (add_arm_options, equity_term, excluded_boards,
                                  held_out_errors, run_arms)

# --validate's settings: (Adam step, passes, anchor positions per hard position)
GRID = [(5e-5, 1, 1), (5e-5, 3, 2), (1e-4, 3, 2), (3e-5, 3, 3)]


def mine(args):
    ev = nf.Evaluator.default()
    coef = equity_coefficients(ev.searcher())
    t = time.process_time()
    boards, kind = label_positions(ev, selfplay_games=args.selfplay_games,
                                   source_games=args.source_games, every=args.every,
                                   every_reached=1, seed=args.seed,
                                   exclude=excluded_boards(EXCLUDE))
    print(f"{len(boards)} candidates, {time.process_time() - t:.0f} CPU-s", flush=True)
    t = time.process_time()
    v0, _ = ev.probabilities(boards, plies=0)
    v1, _ = ev.probabilities(boards, plies=1)
    e0, e1 = v0 @ coef, v1 @ coef
    gap1 = np.abs(e1 - e0)
    stage = np.argsort(-gap1, kind="stable")[:int(len(boards) * args.stage)]
    print(f"0 and 1 ply: {time.process_time() - t:.0f} CPU-s; 1-ply gap: median "
          f"{np.median(gap1):.4f}, the staged {len(stage)} from {gap1[stage].min():.4f}",
          flush=True)
    t = time.perf_counter()
    v2 = lookahead_targets(ev.net, boards[stage], 2, threads=args.workers, keep=1)
    gap2 = np.abs(v2 @ coef - e0[stage])
    order = np.argsort(-gap2, kind="stable")[:args.hard]
    hard = stage[order]
    print(f"2 ply of the staged: {time.perf_counter() - t:.0f} s wall; the {len(hard)} "
          f"hardest from a 2-ply gap of {gap2[order].min():.4f} (median of the staged "
          f"{np.median(gap2):.4f})", flush=True)
    rest = np.setdiff1d(np.arange(len(boards)), hard)
    anchor = np.sort(np.random.default_rng(args.seed).choice(rest, args.anchor,
                                                             replace=False))
    kinds, counts = np.unique(kind[hard], return_counts=True)
    print("hard by kind: " + ", ".join(f"{k} {c}" for k, c in zip(kinds, counts)))
    path = os.path.join(args.out_dir, "hard.npz")
    np.savez(path + ".tmp.npz", boards=boards[hard], kind=kind[hard],
             gap2=gap2[order], anchor=boards[anchor], anchor_targets=v0[anchor])
    os.replace(path + ".tmp.npz", path)


def label(args):
    z = np.load(os.path.join(args.out_dir, "hard.npz"))
    label_boards(args.out_dir, z["boards"], z["kind"], games=args.games,
                 seed=args.seed + 100, workers=args.workers, chunk=args.chunk)


def hard_labels(folder):
    """The hard positions' labels (``LABELS``), from ``labels.parquet``: ``--label``
    writes it when every position is labelled."""
    return pd.read_parquet(os.path.join(folder, "labels.parquet"))[list(LABELS)].to_numpy()


def fit(args):
    ev = nf.Evaluator.default()
    z = np.load(os.path.join(args.out_dir, "hard.npz"))
    lab = hard_labels(args.out_dir)
    n = min(len(lab), args.use or len(lab))
    hb, ht = z["boards"][:n], lab[:n, :7].astype(np.float32)
    na = int(args.anchor_share * n)
    ab, at = z["anchor"][:na], z["anchor_targets"][:na].astype(np.float32)
    tag = f"{args.lr:g}x{args.epochs}_n{n}_a{na}_eq{args.equity_weight:g}"
    arms = {f"H_{tag}": (np.concatenate([hb, ab]), np.concatenate([ht, at]))}
    run_arms(args, ev, arms, "hard positions")


def validate(args):
    ev = nf.Evaluator.default()
    coef = equity_coefficients(ev.searcher())
    z = np.load(os.path.join(args.out_dir, "hard.npz"))
    boards, anchor = z["boards"], z["anchor"]
    anchor_t = z["anchor_targets"].astype(np.float32)
    lab = hard_labels(args.out_dir)
    perm = np.random.default_rng(1).permutation(len(lab))
    val, train = np.sort(perm[:len(lab) // 7]), np.sort(perm[len(lab) // 7:])
    kept = anchor[-3000:]                 # never among a fit's anchors below (3 x train)
    frames = [pd.read_parquet(args.selfplay_data), pd.read_parquet(args.reached_data)]

    def equity(e, b):
        return e.probabilities(b, plies=0)[0] @ coef - 1.0   # the coefficients' constant

    start_kept = equity(ev, kept)

    def report(name, e):
        cells = {}
        for frame in frames:
            cells.update(held_out_errors(e, frame, [0], "dev"))
        mean = np.mean([v for (s, _), (v, _) in cells.items() if not s.startswith("worst")])
        print(f"{name}: hard kept part {np.abs(lab[val, 7] - equity(e, boards[val])).mean():.4f}; "
              f"anchor drift {np.abs(equity(e, kept) - start_kept).mean():.4f}; dev 0-ply "
              + ", ".join(f"{s} {v:.4f}" for (s, _), (v, _) in cells.items())
              + f"; mean of the four {mean:.4f}", flush=True)

    print(f"{len(train)} hard positions fitted, {len(val)} kept", flush=True)
    report("start", ev)
    for lr, epochs, share in GRID:
        na = min(int(share * len(train)), len(anchor) - len(kept))
        b = np.concatenate([boards[train], anchor[:na]])
        t = np.concatenate([lab[train, :7].astype(np.float32), anchor_t[:na]])
        net, _ = fit_net(ev.net, ev.net.encode(b), t, epochs, args.batch, lr,
                         np.random.default_rng(5), equity=equity_term(ev, args.equity_weight))
        report(f"{lr:g} x {epochs}, {na} anchors", nf.Evaluator(net, rules=ev.rules))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_arm_options(ap, seed=5100)
    for flag in ("--mine", "--label", "--validate", "--fit"):
        ap.add_argument(flag, action="store_true")
    ap.add_argument("--every", type=int, default=2)
    ap.add_argument("--stage", type=float, default=0.25)
    ap.add_argument("--hard", type=int, default=20000)
    ap.add_argument("--anchor", type=int, default=60000)
    ap.add_argument("--anchor-share", type=float, default=1.0,
                    help="anchor positions per hard one in a fit")
    ap.add_argument("--games", type=int, default=288)
    ap.add_argument("--chunk", type=int, default=200)
    ap.add_argument("--use", type=int, default=0)
    ap.add_argument("--equity-weight", type=float, default=100.0)
    args = ap.parse_args()
    os.makedirs(args.out_dir, exist_ok=True)
    if args.mine:
        mine(args)
    if args.label:
        label(args)
    if args.validate:
        validate(args)
    if args.fit:
        fit(args)


if __name__ == "__main__":
    main()
