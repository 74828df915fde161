"""Speed of the evaluator: evaluations, net-policy games, 2-ply hints, self-play.

Positions: middle-game positions (plies 20-60) of seeded self-play games of the shipped
net (``--seed``), the side on roll first.  Figures, one core each, median of
``--repeats`` runs, by the wall clock:

- C-level evaluations per second on the candidates of real positions: a 1-ply search of
  each position (``_search.Searcher.values``: per roll the legal results are generated
  and evaluated together by ``net_eval_many``) divided into the number of candidates;
  the move generation is included, so this is a lower bound of the net alone;
- net-policy rollout games per second from the start (``rollout(policy="net")``, one
  worker, truncated at the bear-off), and ``("net", "greedy")``;
- 2-ply hint time (``Evaluator.hint(plies=2)``) over ``--hints`` positions with a seeded
  roll each: median and 90th percentile;
- self-play training games per second (``_selfplay.play_games``, one thread);
- with ``--races N``: the raw net's P(win) (``exact=False``) against the exact two-sided
  table on every race of 1..N checkers a side (mean and worst absolute error).  The
  evaluator answers these races from the tables; the net never trained on them.

    python benchmarks/bench_net.py [--repeats 5] [--hints 100] [--races 6]
"""
import argparse
import statistics
import time

import numpy as np

import nardy_fast as nf
from nardy_fast.training import _selfplay
from nardy_fast.core._movegen import successor_counts
from nardy_fast.engine.evaluation.evaluator import Evaluator
from nardy_fast.core.rng import block_bit_generator
from nardy_fast.core.rules import CLASSIC
from nardy_fast.training.train import training_tables


def middle_positions(ev, n, seed):
    start = np.asarray(nf.Position.initial().boards)
    out = []
    g = 0
    while len(out) < n:
        pos, _, lengths, _ = _selfplay.play_games(ev.net, start, rules=CLASSIC,
                                                  tables=training_tables(),
                                                  bitgens=[block_bit_generator(seed, g)])
        g += 1
        out += [p for p in pos[20:61:10] if p[:, :18].any()]
    return np.ascontiguousarray(out[:n], dtype=np.uint8)


def race_accuracy(ev, n):
    from nardy_fast.tables import bearoff
    two = bearoff.two_sided()
    all6 = np.asarray(bearoff.board_of(np.arange(two.p_win_table.shape[0])), dtype=np.uint8)
    idx = [i for i in range(1, len(all6)) if all6[i].sum() <= n]
    b6 = all6[idx]
    boards24 = np.zeros((len(idx), 24), np.uint8)
    boards24[:, 18:] = b6[:, ::-1]
    errs = []
    for a in range(len(idx)):
        pair = np.empty((len(idx), 2, 24), np.uint8)
        pair[:, 0] = boards24[a]
        pair[:, 1] = boards24
        net = ev.net.outputs(pair)[:, 0]
        exact = two.p_win_table[idx[a], idx]
        errs.append(np.abs(net - exact))
    e = np.concatenate(errs)
    print(f"raw net P(win) against the two-sided table, {len(e)} races of 1..{n} checkers "
          f"a side: mean |error| {e.mean():.4f}, worst {e.max():.4f}")


def timed(fn, repeats):
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--hints", type=int, default=100)
    ap.add_argument("--games", type=int, default=2592)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--races", type=int, default=0)
    args = ap.parse_args()
    for name, least in (("repeats", 1), ("hints", 1), ("games", 1), ("seed", 0),
                        ("races", 0)):
        if getattr(args, name) < least:
            ap.error(f"--{name} {getattr(args, name)}: expected >= {least}")
    if args.races:
        from nardy_fast.tables import bearoff
        top = bearoff.two_sided().max_checkers
        if args.races > top:
            ap.error(f"--races {args.races}: expected checkers 1..{top} (the two-sided "
                     "table's)")
    ev = Evaluator.default()
    if args.races:
        race_accuracy(ev, args.races)
        return
    boards = middle_positions(ev, max(args.hints, 200), args.seed)

    searcher = ev.searcher()
    n_cands = int(successor_counts(boards[:, 0], boards[:, 1]).sum())
    t = timed(lambda: searcher.values(boards, 1), args.repeats)
    print(f"evaluations at C level: {n_cands / t / 1e6:.2f} M/s wall "
          f"({n_cands} candidates of {len(boards)} positions x 21 rolls, "
          f"{1e9 * t / n_cands:.0f} ns each, move generation included)")
    t = timed(lambda: ev.net.outputs(boards), args.repeats)
    print(f"full evaluations (no incremental layer), Net.outputs: "
          f"{len(boards) / t / 1e6:.2f} M/s wall")

    start = nf.Position.initial()
    for pol in ("net", ("net", "greedy"), "greedy"):
        t = timed(lambda: nf.rollout(start, args.games, policy=pol, seed=1, workers=1,
                                     progress=False), args.repeats)
        print(f"rollout games/s wall, policy {pol}: {args.games / t:.0f}")

    rng = np.random.default_rng(args.seed)
    times = []
    for b in boards[:args.hints]:
        pos = nf.Position.from_boards(b[0], b[1])
        dice = tuple(int(d) for d in rng.integers(1, 7, 2))
        t = time.perf_counter()
        ev.hint(pos, dice, plies=2)
        times.append(time.perf_counter() - t)
    print(f"2-ply hint: median {statistics.median(times):.3f} s wall, "
          f"90th percentile {np.percentile(times, 90):.3f} s wall ({args.hints} positions)")

    start_b = np.asarray(start.boards)
    t = timed(lambda: _selfplay.play_games(ev.net, start_b, rules=CLASSIC,
                                           tables=training_tables(),
                                           bitgens=[block_bit_generator(9, g)
                                                    for g in range(200)]), args.repeats)
    print(f"self-play games/s wall (one thread): {200 / t:.0f}")


if __name__ == "__main__":
    main()
