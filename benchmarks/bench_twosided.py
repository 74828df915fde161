"""Benchmarks of the complete two-sided bear-off table (``nardy_fast.tables.bearoff_complete``).

Builds (wall and CPU time, size on disk) of the out-of-core table at the given sizes in a
temporary store, then query speed (single calls through the Python API, batched arrays),
and, with ``--errors STORE``, the one-sided approximation's error over every pair of a
finished table.

    python benchmarks/bench_twosided.py --sizes 10 12
    python benchmarks/bench_twosided.py --sizes --store STORE            # queries only
    python benchmarks/bench_twosided.py --sizes --errors STORE           # errors, all pairs

The full 15-checker build is a command of its own (``nardy-fast bearoff build
--two-sided 15 --store STORE``, ``benchmarks/RESULTS.md``); it is never run here unless
asked (``--sizes 15``).
"""
import argparse
import heapq
import os
import resource
import shutil
import sys
import tempfile
import time

import numpy as np

from nardy_fast.tables import bearoff as bo
from nardy_fast.tables import bearoff_complete as bc


def du(path):
    return sum(os.path.getsize(os.path.join(path, f)) for f in os.listdir(path))


def bench_build(n, threads):
    store = tempfile.mkdtemp(prefix=f"ts{n}-")
    try:
        c0, t0 = time.process_time(), time.perf_counter()
        table = bc.build_complete(n, store=store, threads=threads, progress=False)
        wall, cpu = time.perf_counter() - t0, time.process_time() - c0
        size = du(store)
        print(f"build {n}x{n} ({bo.n_boards(n):,}^2 pairs, {len(bc.shard_order(n))} shards, "
              f"threads={threads}): wall {wall:.1f} s, CPU {cpu:.1f} s, "
              f"{size / 1e6:.1f} MB on disk, peak RSS so far "
              f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1e6:.2f} GB", flush=True)
        bench_queries(table)
    finally:
        shutil.rmtree(store)


def bench_queries(table, n_batch=1_000_000, seed=1):
    m = bo.n_boards(table.max_checkers)
    rng = np.random.default_rng(seed)
    ia = rng.integers(1, m, n_batch)
    ib = rng.integers(1, m, n_batch)
    a6, b6 = bo.board_of(ia), bo.board_of(ib)
    k = 20_000
    t0 = time.perf_counter()
    for x in range(k):
        table.p_win(a6[x], b6[x])
    single = k / (time.perf_counter() - t0)
    t0 = time.perf_counter()
    table.probabilities_of_indices(ia, ib)
    by_index = n_batch / (time.perf_counter() - t0)
    t0 = time.perf_counter()
    table.probabilities(a6, b6)
    by_board = n_batch / (time.perf_counter() - t0)
    print(f"queries {table.max_checkers}x{table.max_checkers}: single p_win "
          f"{single / 1e3:.1f} k/s; batched {n_batch:,} random pairs: "
          f"{by_index / 1e6:.1f} M/s by index, {by_board / 1e6:.1f} M/s from board6 "
          f"stacks", flush=True)


def one_sided_errors(table, rows=256, worst=10):
    """|exact - one-sided approximation| in P(win) and in equity (classic points) over every
    pair of boards with checkers on both sides."""
    one = bo.one_sided()
    m = bo.n_boards(table.max_checkers)
    tx = np.asarray(one.turns[:m])
    fx = np.asarray(one.first_off[:m])
    T = tx.shape[1]
    fx = np.pad(fx, ((0, 0), (0, max(0, T - fx.shape[1]))))[:, :T]

    def tail(p, shift):                                 # [:, t] = P(X >= t + shift)
        c = np.cumsum(p[:, ::-1], axis=1)[:, ::-1]
        out = np.zeros_like(p)
        out[:, :T - shift] = c[:, shift:]
        return out

    tail_t0, tail_t1 = tail(tx, 0), tail(tx, 1)
    tail_f0, tail_f1 = tail(fx, 0), tail(fx, 1)
    bins = np.linspace(0, 1, 100_001)
    hist = {"p_win": np.zeros(len(bins) - 1, np.int64), "equity": np.zeros(len(bins) - 1, np.int64)}
    tot = {"p_win": 0.0, "equity": 0.0}
    heap = {"p_win": [], "equity": []}
    ib_all = np.arange(1, m)
    n = 0
    t0 = time.perf_counter()
    for a0 in range(1, m, rows):
        a1 = min(m, a0 + rows)
        ia = np.arange(a0, a1)
        win = tx[ia] @ tail_t0[1:].T                   # on roll wins iff Ta <= Tb
        lose = tail_t1[ia] @ tx[1:].T                  # loses iff Tb < Ta
        mwin = np.minimum(tx[ia] @ tail_f0[1:].T, win)
        mloss = np.minimum(tail_f1[ia] @ tx[1:].T, lose)
        A = np.repeat(ia, m - 1)
        B = np.tile(ib_all, a1 - a0)
        w, mw, ml = table.probabilities_of_indices(A, B)
        w, mw, ml = (x.reshape(a1 - a0, m - 1) for x in (w, mw, ml))
        errs = {"p_win": np.abs(w - win),
                "equity": np.abs((2 * w - 1 + mw - ml) - (win - lose + mwin - mloss))}
        for key, e in errs.items():
            hist[key] += np.bincount(np.minimum(e * (len(bins) - 1), len(bins) - 2)
                                     .astype(np.int64).ravel(), minlength=len(bins) - 1)
            tot[key] += float(e.sum())
            flat = np.argpartition(e.ravel(), -worst)[-worst:]
            for f in flat:
                item = (float(e.ravel()[f]), int(ia[f // (m - 1)]), int(ib_all[f % (m - 1)]))
                if len(heap[key]) < worst:
                    heapq.heappush(heap[key], item)
                else:
                    heapq.heappushpop(heap[key], item)
        n += (a1 - a0) * (m - 1)
        if (a0 // rows) % 20 == 0:
            print(f"  {a1:,} of {m:,} boards on roll, {time.perf_counter() - t0:.0f} s",
                  file=sys.stderr, flush=True)
    for key in ("p_win", "equity"):
        cum = np.cumsum(hist[key])
        p99 = bins[np.searchsorted(cum, 0.99 * n) + 1]
        print(f"one-sided approximation, {key}, {n:,} pairs: mean {tot[key] / n:.2e}, "
              f"p99 {p99:.1e}, max {max(heap[key])[0]:.4f}")
        for e, a, b in sorted(heap[key], reverse=True):
            fa = "-".join(str(int(c)) for c in bo.board_of(a))
            fb = "-".join(str(int(c)) for c in bo.board_of(b))
            print(f"    {e:.4f}  on roll {fa}  opponent {fb}  exact (P(win), P(mars win), "
                  f"P(mars loss)) "
                  f"{table.probabilities(bo.board_of(a), bo.board_of(b))}")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", type=int, nargs="*", default=[10, 12])
    ap.add_argument("--threads", type=int, default=None)
    ap.add_argument("--store", help="also time queries on this finished table")
    ap.add_argument("--errors", metavar="STORE",
                    help="the one-sided approximation's error over every pair of this table")
    args = ap.parse_args(argv)
    for n in args.sizes:
        bench_build(n, args.threads)
    if args.store:
        bench_queries(bc.CompleteTwoSided.load(args.store, verify=False))
    if args.errors:
        one_sided_errors(bc.CompleteTwoSided.load(args.errors, verify=False))


if __name__ == "__main__":
    main()
