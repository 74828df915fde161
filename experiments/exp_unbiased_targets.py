"""Does the judging net gain from targets that do not bootstrap on it? (issue 45)

``exp_reached_training.py`` found that v7 learns nothing from positions of games against
other players when they are labelled with its own 1-ply values: the large errors are the
net's bias in lopsided prime and heavy-head positions, and its look-ahead shares it.  A
self-play game's result with the luck of each roll taken out (``labels.blend_targets``
at ``lam = 1``) is an unbiased value of each of its positions under the policy that
played it (the rollout player, v7 at 0-ply): the luck terms have mean zero and the game
ends in a result or an exact race value.  This experiment fine-tunes v7 from the same
start on such targets:

- arm ``A`` (the control, as in ``exp_reached_training``): ``--selfplay-games`` self-play
  games from the initial position, targets at ``lam`` = ``--lam-control`` (0.7, as
  ``train-net`` labels);
- arm ``C``: the same games at ``lam = 1``;
- arm ``D``: arm C plus ``--continuations`` games of v7 against itself from each of
  ``--starts`` contact positions drawn (seeded) from ``--source-games`` games of v7
  against each opponent of the reached set (``bench_accuracy.reached_game``, seeds other
  than the benchmark's), every position of them at ``lam = 1``: the kinds of position
  users reach, valued without the net's bias;
- arm ``E``: arm A plus the continuations of arm D, those at ``lam = 1``.

Every position of the two accuracy files is dropped; each arm learns ``--epochs`` passes
at ``--lr`` (``supervised.fit``, the same order seed).  Then, as in
``exp_reached_training``: the held-out errors at ``--plies`` on the self-play and reached
sets, and each arm against v7 at 0-ply over ``--match-games`` shared-dice games.

    python experiments/exp_unbiased_targets.py --out-dir DIR [--selfplay-games 3000]
        [--starts 10000] [--continuations 2] [--epochs 3] [--lr 1e-4]

The labelled positions are kept in ``DIR/labels.npz`` or ``--labels`` (a rerun reads
them); the nets go to ``DIR/ARM.nfdb`` (``--arms``, default A,C,D).
"""
import argparse
import importlib.util
import os
import time

import numpy as np

from nardy_fast.core.position import contact_mask
from nardy_fast.engine.evaluation.evaluator import Evaluator
from nardy_fast.training.labels import blend_targets, lookahead_targets, selfplay_games

HERE = os.path.dirname(os.path.abspath(__file__))


def _load(name, path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def continuation_games(net, starts, per_start, seed):
    """``per_start`` self-play games of ``net`` at 0-ply from each of ``starts`` (side on
    roll first); game ``j`` of start ``i`` is game ``i * per_start + j`` of ``seed``.  As
    ``selfplay_games``' results."""
    games = [selfplay_games(net, per_start, seed, i * per_start, start=start)
             for i, start in enumerate(starts)]
    return tuple(np.concatenate(part) for part in zip(*games))


def labelled(args, ev, bench, reached):
    path = args.labels or os.path.join(args.out_dir, "labels.npz")
    if os.path.exists(path):
        z = np.load(path)
        return {k: z[k] for k in z.files}
    net = ev.net
    t = time.process_time()
    sp, after, lengths = selfplay_games(net, args.selfplay_games, args.seed)
    look = lookahead_targets(net, sp, 1)
    sp_ctl = blend_targets(look, after, lengths, args.lam_control)
    sp_one = blend_targets(look, after, lengths, 1.0)
    print(f"self-play: {len(sp)} positions of {args.selfplay_games} games, "
          f"{time.process_time() - t:.0f} CPU-s", flush=True)
    t = time.process_time()
    rb, _ = reached.source_positions(bench, ev, args.source_games, args.seed)
    rb = rb[contact_mask(rb)]
    rng = np.random.default_rng(args.seed)
    starts = rb[rng.choice(len(rb), size=min(args.starts, len(rb)), replace=False)]
    cp, cafter, clen = continuation_games(net, starts, args.continuations, args.seed + 7)
    ct = blend_targets(lookahead_targets(net, cp, 1), cafter, clen, 1.0)
    print(f"continuations: {len(cp)} positions of {len(clen)} games from {len(starts)} "
          f"starts (of {len(rb)} contact positions reached), "
          f"{time.process_time() - t:.0f} CPU-s", flush=True)
    out = dict(sp=sp, sp_ctl=sp_ctl, sp_one=sp_one, cp=cp, ct=ct)
    tmp = path + ".tmp.npz"
    np.savez(tmp, **out)
    os.replace(tmp, path)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    bench = _load("bench_accuracy", os.path.join(HERE, "..", "benchmarks",
                                                 "bench_accuracy.py"))
    reached = _load("exp_reached_training", os.path.join(HERE, "exp_reached_training.py"))
    reached.add_arm_options(ap, seed=4620)
    ap.add_argument("--starts", type=int, default=10000)
    ap.add_argument("--continuations", type=int, default=2)
    ap.add_argument("--lam-control", type=float, default=0.7)
    ap.add_argument("--arms", default="A,C,D")
    ap.add_argument("--labels", default=None,
                    help="the labelled positions' file (default DIR/labels.npz)")
    args = ap.parse_args()
    os.makedirs(args.out_dir, exist_ok=True)
    ev = Evaluator.default()
    d = labelled(args, ev, bench, reached)
    keys = reached.excluded_keys([args.selfplay_data, args.reached_data])
    sp_a, t_a = reached.drop(d["sp"], d["sp_ctl"], keys)
    sp_c, t_c = reached.drop(d["sp"], d["sp_one"], keys)
    cp, ct = reached.drop(d["cp"], d["ct"], keys)
    arms = {"A": (sp_a, t_a), "C": (sp_c, t_c),
            "D": (np.concatenate([sp_c, cp]), np.concatenate([t_c, ct])),
            "E": (np.concatenate([sp_a, cp]), np.concatenate([t_a, ct]))}
    reached.run_arms(args, ev, {k: arms[k] for k in args.arms.split(",")},
                     "exp_unbiased_targets")


if __name__ == "__main__":
    main()
