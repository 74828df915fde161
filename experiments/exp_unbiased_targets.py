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
import pandas as pd

from nardy_fast.core.position import contact_mask
from nardy_fast.core.rng import block_bit_generator
from nardy_fast.core.rules import CLASSIC
from nardy_fast.engine.evaluation.evaluator import Evaluator
from nardy_fast.engine.play.strength import play_match
from nardy_fast.training import _selfplay
from nardy_fast.training.labels import blend_targets, lookahead_targets, selfplay_games
from nardy_fast.training.supervised import fit
from nardy_fast.training.train import training_tables

HERE = os.path.dirname(os.path.abspath(__file__))


def _load(name, path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def continuation_games(net, starts, per_start, seed):
    """``per_start`` self-play games of ``net`` at 0-ply from each of ``starts`` (side on
    roll first); game ``j`` of start ``i`` draws its dice from
    ``block_bit_generator(seed, i * per_start + j)``.  As ``selfplay_games``' results."""
    pos, nxt, lens = [], [], []
    tables = training_tables()
    for i, start in enumerate(starts):
        bitgens = [block_bit_generator(seed, i * per_start + j) for j in range(per_start)]
        p, n, l, _ = _selfplay.play_games(net, start, rules=CLASSIC, tables=tables,
                                          bitgens=bitgens)
        pos.append(p)
        nxt.append(n)
        lens.append(l)
    return np.concatenate(pos), np.concatenate(nxt), np.concatenate(lens)


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
    ap.add_argument("--out-dir", required=True)
    ap.add_argument("--selfplay-games", type=int, default=3000)
    ap.add_argument("--source-games", type=int, default=500)
    ap.add_argument("--starts", type=int, default=10000)
    ap.add_argument("--continuations", type=int, default=2)
    ap.add_argument("--seed", type=int, default=4620)
    ap.add_argument("--lam-control", type=float, default=0.7)
    ap.add_argument("--epochs", type=int, default=3)
    ap.add_argument("--lr", type=float, default=1e-4)
    ap.add_argument("--batch", type=int, default=128)
    ap.add_argument("--arms", default="A,C,D")
    ap.add_argument("--labels", default=None,
                    help="the labelled positions' file (default DIR/labels.npz)")
    ap.add_argument("--plies", default="0,2")
    ap.add_argument("--selfplay-data", default=os.path.join(
        HERE, "..", "benchmarks", "data", "accuracy.parquet"))
    ap.add_argument("--reached-data", default=os.path.join(
        HERE, "..", "benchmarks", "data", "accuracy_reached.parquet"))
    ap.add_argument("--match-games", type=int, default=20000)
    ap.add_argument("--match-seed", type=int, default=4530)
    args = ap.parse_args()
    os.makedirs(args.out_dir, exist_ok=True)
    bench = _load("bench_accuracy", os.path.join(HERE, "..", "benchmarks",
                                                 "bench_accuracy.py"))
    reached = _load("exp_reached_training", os.path.join(HERE, "exp_reached_training.py"))
    ev = Evaluator.default()
    d = labelled(args, ev, bench, reached)
    keys = reached.excluded_keys([args.selfplay_data, args.reached_data])
    sp_a, t_a = reached.drop(d["sp"], d["sp_ctl"], keys)
    sp_c, t_c = reached.drop(d["sp"], d["sp_one"], keys)
    cp, ct = reached.drop(d["cp"], d["ct"], keys)
    arms = {"A": (sp_a, t_a), "C": (sp_c, t_c),
            "D": (np.concatenate([sp_c, cp]), np.concatenate([t_c, ct])),
            "E": (np.concatenate([sp_a, cp]), np.concatenate([t_a, ct]))}
    nets = {"v7": ev}
    for name in args.arms.split(","):
        boards, targets = arms[name]
        path = os.path.join(args.out_dir, f"{name}.nfdb")
        if os.path.exists(path):
            nets[name] = Evaluator.load(path)
            continue
        t = time.process_time()
        rng = np.random.default_rng(args.seed)
        net, loss = fit(ev.net, ev.net.encode(boards), targets.astype(np.float32),
                        args.epochs, args.batch, args.lr, rng)
        e = Evaluator(net, rules=ev.rules,
                      meta={"experiment": f"exp_unbiased_targets {name}"})
        e.save(path)
        nets[name] = e
        print(f"arm {name}: {len(boards)} positions, {args.epochs} epochs at {args.lr}, "
              f"loss {loss:.5f}, {time.process_time() - t:.0f} CPU-s", flush=True)
    plies = [int(p) for p in args.plies.split(",")]
    frames = [pd.read_parquet(args.selfplay_data), pd.read_parquet(args.reached_data)]
    print("held-out mean absolute equity error (positions):")
    for name, e in nets.items():
        cells = {}
        for frame in frames:
            cells.update(reached.held_out_errors(e, frame, plies))
        print(f"  {name}: " + "; ".join(f"{s} {p}-ply {v:.4f} ({n})"
                                         for (s, p), (v, n) in cells.items()), flush=True)
    for name in [a for a in args.arms.split(",")] if args.match_games else ():
        t = time.perf_counter()
        m = play_match(nets[name], ev, args.match_games, seed=args.match_seed,
                       progress=False)
        print(f"  {name} 0-ply vs v7 0-ply: {m['games']} games, {m['ppg']:+.4f} points per "
              f"game (SE {m['se_ppg']:.4f}); {time.perf_counter() - t:.0f} s wall", flush=True)


if __name__ == "__main__":
    main()
