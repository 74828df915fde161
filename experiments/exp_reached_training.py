"""Does the judging net gain from positions of games against other players? (issue 45)

The accuracy benchmark's reached set (``benchmarks/bench_accuracy.py --reached``) showed
the net less accurate on positions of its games against greedy play, a noisy net and the
net at 1-ply than on its own self-play positions.  This experiment fine-tunes the shipped
judge (v7) twice from the same start, on the same self-play round, and differs only in
whether positions of such games are added:

- arm ``A`` (the control): ``--selfplay-games`` self-play games of v7 at 0-ply (seed
  ``--seed``), every position labelled with v7's 1-ply value corrected by the rest of its
  game (``labels.blend_targets``, ``--lam``), as a round of ``train-net`` labels them;
- arm ``B``: the same, plus every position (both sides on roll) of ``--source-games``
  games of v7 against each of the reached set's opponents (``bench_accuracy.reached_game``,
  seeds ``--seed + 100 (k + 1)``, other seeds than the benchmark's), labelled with v7's
  1-ply value alone (the rest of such a game is not v7's play, so it does not correct it).

Both drop every position of the two accuracy files and learn ``--epochs`` passes at step
``--lr`` (Adam, ``supervised.fit``; the same order seed).  Then, for v7, A and B: the
mean absolute equity error at ``--plies`` on the held-out parts of the self-play set and
of the reached set (per source), against their labels (``--selfplay-data``,
``--reached-data``: the rollouts of the rollout player), and each arm against v7 at 0-ply
over ``--match-games`` shared-dice games (points per game, SE).

    python experiments/exp_reached_training.py --out-dir DIR [--selfplay-games 3000]
        [--source-games 500] [--epochs 3] [--lr 1e-4] [--match-games 20000]

``--cache FILE.npz`` keeps the labelled positions (a rerun with the same sizes and seed
reads them); the nets go to ``DIR/A.nfdb`` and ``DIR/B.nfdb``.
"""
import argparse
import importlib.util
import os
import time

import numpy as np
import pandas as pd

import nardy_fast as nf
from nardy_fast.engine.evaluation.evaluator import Evaluator
from nardy_fast.engine.play.strength import play_match
from nardy_fast.training.labels import (blend_targets, board_keys, lookahead_targets,
                                        selfplay_games)
from nardy_fast.training.lucknet import equity_coefficients
from nardy_fast.training.supervised import fit

HERE = os.path.dirname(os.path.abspath(__file__))
BENCH = os.path.join(HERE, "..", "benchmarks", "bench_accuracy.py")


def _bench():
    spec = importlib.util.spec_from_file_location("bench_accuracy", BENCH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def source_positions(bench, ev, n_games, seed):
    """Every position before a turn (both sides' checkers on the board) of ``n_games``
    games of v7 against each opponent of the reached set; (boards, source names)."""
    boards, names = [], []
    for k, source in enumerate(bench.SOURCES):
        s = seed + 100 * (k + 1)
        for g in range(n_games):
            for p in bench.reached_game(source, g, s, ev).positions():
                if p.mover.any() and p.opponent.any() and not p.is_over():
                    boards.append(np.asarray(p.boards))
                    names.append(source)
    return np.stack(boards).astype(np.uint8), np.array(names)


def labelled(args, ev, bench):
    """The two arms' positions and targets (cached in ``args.cache``)."""
    if args.cache and os.path.exists(args.cache):
        z = np.load(args.cache)
        return z["sp"], z["sp_t"], z["rb"], z["rb_t"], z["rb_src"]
    net = ev.net
    t = time.process_time()
    sp, after, lengths = selfplay_games(net, args.selfplay_games, args.seed)
    sp_t = lookahead_targets(net, sp, 1)
    if args.lam > 0:
        sp_t = blend_targets(sp_t, after, lengths, args.lam)
    print(f"self-play: {len(sp)} positions of {args.selfplay_games} games, "
          f"{time.process_time() - t:.0f} CPU-s", flush=True)
    t = time.process_time()
    rb, rb_src = source_positions(bench, ev, args.source_games, args.seed)
    rb_t = lookahead_targets(net, rb, 1)
    print(f"games against {', '.join(bench.SOURCES)}: {len(rb)} positions of "
          f"{args.source_games} games each, {time.process_time() - t:.0f} CPU-s", flush=True)
    if args.cache:
        tmp = args.cache + ".tmp.npz"
        np.savez(tmp, sp=sp, sp_t=sp_t, rb=rb, rb_t=rb_t, rb_src=rb_src)
        os.replace(tmp, args.cache)
    return sp, sp_t, rb, rb_t, rb_src


def excluded_boards(paths):
    """The boards of every position (column ``position``) of the Parquet files."""
    return np.stack([np.asarray(nf.Position.from_id(p).boards) for path in paths
                     for p in pd.read_parquet(path, columns=["position"]).position])


def excluded_keys(paths):
    return set(board_keys(excluded_boards(paths)))


def drop(boards, targets, keys):
    keep = np.array([k not in keys for k in board_keys(boards)], dtype=bool)
    return boards[keep], targets[keep]


def held_out_errors(ev, frame, plies, part="heldout"):
    """Mean absolute equity error of ``ev`` at each of ``plies`` on ``frame``'s labelled
    rows of ``part`` (``"heldout"`` or ``"dev"``), per source (``"self-play"`` where the
    file has none)."""
    frame = frame[(frame.split == part) & (frame.games > 0)]
    boards = np.stack([np.asarray(nf.Position.from_id(p).boards) for p in frame.position])
    source = frame["source"].to_numpy() if "source" in frame else np.full(len(frame),
                                                                          "self-play")
    out = {}
    for plies_ in plies:
        vals, _ = ev.probabilities(boards, plies=plies_)
        err = np.abs(ev.equities(vals) - frame.equity.to_numpy())
        for s in np.unique(source):
            out[(s, plies_)] = (float(err[source == s].mean()), int((source == s).sum()))
        name = "worst (self-play)" if "source" not in frame else "worst (reached)"
        out[(name, plies_)] = (float(err.max()), len(err))
    return out


def add_arm_options(ap, seed):
    """The options every fine-tuning experiment of this kind shares (this one and
    ``exp_unbiased_targets.py``)."""
    ap.add_argument("--out-dir", required=True)
    ap.add_argument("--selfplay-games", type=int, default=3000)
    ap.add_argument("--source-games", type=int, default=500)
    ap.add_argument("--seed", type=int, default=seed)
    ap.add_argument("--epochs", type=int, default=3)
    ap.add_argument("--lr", type=float, default=1e-4)
    ap.add_argument("--batch", type=int, default=128)
    ap.add_argument("--plies", default="0,2")
    ap.add_argument("--selfplay-data", default=os.path.join(
        HERE, "..", "benchmarks", "data", "accuracy.parquet"))
    ap.add_argument("--reached-data", default=os.path.join(
        HERE, "..", "benchmarks", "data", "accuracy_reached.parquet"))
    ap.add_argument("--part", default="heldout", choices=("heldout", "dev"),
                    help="the accuracy files' part the errors are measured on (choose "
                         "settings on dev, report held out)")
    ap.add_argument("--match-games", type=int, default=20000)
    ap.add_argument("--match-seed", type=int, default=4530)
    ap.add_argument("--workers", type=int, default=1)


def equity_term(ev, weight):
    """``fit``'s ``equity=``: ``weight`` times each position's squared equity error, by
    the outputs' equity coefficients under ``ev``'s rules (``lucknet.equity_coefficients``:
    what each output adds to the equity); None for a weight of 0."""
    if not weight:
        return None
    return float(weight), equity_coefficients(ev.searcher()).astype(np.float32)


def run_arms(args, ev, arms, experiment):
    """Fine-tune ``ev``'s net on each arm ``{name: (boards, targets)}`` (or read
    ``DIR/name.nfdb`` when it is there), then print the held-out errors of ``ev`` and of
    each arm, and each arm's match against ``ev`` at 0-ply."""
    nets = {"start": ev}
    for name, (boards, targets) in arms.items():
        path = os.path.join(args.out_dir, f"{name}.nfdb")
        if os.path.exists(path):
            nets[name] = Evaluator.load(path)
            continue
        t = time.process_time()
        rng = np.random.default_rng(args.seed)
        net, loss = fit(ev.net, ev.net.encode(boards), targets.astype(np.float32),
                        args.epochs, args.batch, args.lr, rng,
                        equity=equity_term(ev, getattr(args, "equity_weight", 0.0)))
        e = Evaluator(net, rules=ev.rules, meta={"experiment": f"{experiment} {name}"})
        e.save(path)
        nets[name] = e
        print(f"arm {name}: {len(boards)} positions, {args.epochs} epochs at {args.lr}, "
              f"loss {loss:.5f}, {time.process_time() - t:.0f} CPU-s", flush=True)
    plies = [int(p) for p in args.plies.split(",")]
    frames = [pd.read_parquet(args.selfplay_data), pd.read_parquet(args.reached_data)]
    print(f"mean absolute equity error on the {args.part} part (positions):")
    for name, e in nets.items():
        cells = {}
        for frame in frames:
            cells.update(held_out_errors(e, frame, plies, args.part))
        print(f"  {name}: " + "; ".join(f"{s} {p}-ply {v:.4f} ({n})"
                                         for (s, p), (v, n) in cells.items()), flush=True)
    # the start's own net plays: an Evaluator's policy plays its rollout_net, which for
    # the shipped evaluator is another net (v7) than the one it judges with
    start = Evaluator(ev.net, rules=ev.rules)
    for name in arms if args.match_games else ():     # 0: no matches
        t = time.perf_counter()
        m = play_match(nets[name], start, args.match_games, seed=args.match_seed,
                       workers=args.workers, progress=False)
        print(f"  {name} 0-ply vs the start 0-ply: {m['games']} games, {m['ppg']:+.4f} points per "
              f"game (SE {m['se_ppg']:.4f}); {time.perf_counter() - t:.0f} s wall", flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_arm_options(ap, seed=4520)
    ap.add_argument("--lam", type=float, default=0.7)
    ap.add_argument("--cache", default=None)
    args = ap.parse_args()
    os.makedirs(args.out_dir, exist_ok=True)
    bench = _bench()
    ev = Evaluator.default()
    sp, sp_t, rb, rb_t, rb_src = labelled(args, ev, bench)
    keys = excluded_keys([args.selfplay_data, args.reached_data])
    sp, sp_t = drop(sp, sp_t, keys)
    rb, rb_t = drop(rb, rb_t, keys)
    arms = {"A": (sp, sp_t), "B": (np.concatenate([sp, rb]), np.concatenate([sp_t, rb_t]))}
    run_arms(args, ev, arms, "exp_reached_training")


if __name__ == "__main__":
    main()
