"""Benchmarks of the complete two-sided bear-off table (``nardy_fast.tables.bearoff_complete``).

Builds (wall and CPU time, size on disk) of the out-of-core table at the given sizes in a
temporary store, then query speed (single calls through the Python API, batched arrays),
and, with ``--errors STORE``, the one-sided approximation's error over every pair of a
finished table.

    python benchmarks/bench_twosided.py --sizes 10 12
    python benchmarks/bench_twosided.py --sizes --store STORE            # queries only
    python benchmarks/bench_twosided.py --sizes --errors STORE           # errors, all pairs
    python benchmarks/bench_twosided.py --sizes --check STORE            # vs plain Python

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
    hist = {key: np.zeros(len(bins) - 1, np.int64) for key in ("p_win", "equity")}
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


def _steps(board, d):
    """Boards after one step of die d (board[i]: checkers on the point i + 1 bears off)."""
    out = set()
    if board[d - 1]:
        out.add(board[:d - 1] + (board[d - 1] - 1,) + board[d:])
    for i in range(d, 6):
        if board[i]:
            c = list(board)
            c[i] -= 1
            c[i - d] += 1
            out.add(tuple(c))
    if not out:
        for i in range(d - 2, -1, -1):
            if board[i]:
                out.add(board[:i] + (board[i] - 1,) + board[i + 1:])
                break
    return out


def python_check(table, points=2, lam=0.5):
    """The full table against a plain-Python memoised recursion (its own move generator,
    float64, ties to the smaller final index) on every pair of boards of 15 checkers or
    fewer with all checkers on the lowest ``points`` points, and all 15 checkers on points
    1-3 against up to 3 on points 1-2 (either side on roll), mars included."""
    import functools
    rolls = [(a, b, (1 if a == b else 2) / 36) for a in range(1, 7) for b in range(a, 7)]

    def finals(board, a, b):
        res = set()
        for seq in ([a] * 4,) if a == b else ([a, b], [b, a]):
            cur = {board}
            for d in seq:
                cur = set().union(*(_steps(x, d) if any(x) else {x} for x in cur))
            res |= cur
        return res

    @functools.lru_cache(maxsize=None)
    def val(a, b):
        tot = [0.0, 0.0, 0.0, 0.0]
        for d1, d2, p in rolls:
            best = None
            for f in sorted(finals(a, d1, d2), key=lambda x: bo.index_of(list(x))):
                if not any(f):
                    m = float(sum(b) == 15)
                    cand = (1.0 + lam * m, 1.0, m, 0.0)
                else:
                    ov, ow, omw, oml = val(b, f)
                    cand = (1.0 - ov, 1.0 - ow, oml, omw)
                if best is None or cand[0] > best[0]:
                    best = cand
            tot = [t + p * c for t, c in zip(tot, best)]
        return tuple(tot)

    import itertools
    boards = [tuple(c) + (0,) * (6 - points)
              for c in itertools.product(range(16), repeat=points) if 1 <= sum(c) <= 15]
    t0 = time.perf_counter()
    pairs = [(a, b) for a in boards for b in boards]
    # all 15 on points 1-3 (a 1-1 or 1-2 bears none off) against up to 3 on points 1-2:
    # where a side on roll can lose a mars
    full3 = [tuple(c) + (0,) * 3 for c in itertools.product(range(16), repeat=3)
             if sum(c) == 15]
    small = [b for b in boards if sum(b) <= 3]
    pairs += [(a, b) for a in full3 for b in small] + [(b, a) for a in full3 for b in small]
    ref = np.array([val(a, b) for a, b in pairs])
    A = np.array([p[0] for p in pairs])
    B = np.array([p[1] for p in pairs])
    v = table.value(A, B)
    w, mw, ml = table.probabilities(A, B)
    full = np.array([sum(a) == 15 or sum(b) == 15 for a, b in pairs])
    print(f"python check, {len(pairs):,} pairs on points 1-{points} and 15 on 1-3 "
          f"({int(full.sum()):,} with a side of 15; {time.perf_counter() - t0:.0f} s): "
          f"max |v - exact| {np.abs(v - ref[:, 0]).max():.2e}, P(win) "
          f"{np.abs(w - ref[:, 1]).max():.2e}, P(mars win) {np.abs(mw - ref[:, 2]).max():.2e}, "
          f"P(mars loss) {np.abs(ml - ref[:, 3]).max():.2e}; largest exact P(mars win) "
          f"{ref[:, 2].max():.3f}, P(mars loss) {ref[:, 3].max():.3f}")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", type=int, nargs="*", default=[10, 12])
    ap.add_argument("--threads", type=int, default=None)
    ap.add_argument("--store", help="also time queries on this finished table")
    ap.add_argument("--check", metavar="STORE",
                    help="this table against a plain-Python recursion, 15 checkers on the "
                         "low points")
    ap.add_argument("--errors", metavar="STORE",
                    help="the one-sided approximation's error over every pair of this table")
    args = ap.parse_args(argv)
    for n in args.sizes:
        bench_build(n, args.threads)
    if args.store:
        bench_queries(bc.CompleteTwoSided.load(args.store, verify=False))
    if args.check:
        python_check(bc.CompleteTwoSided.load(args.check, verify=False))
    if args.errors:
        one_sided_errors(bc.CompleteTwoSided.load(args.errors, verify=False))


if __name__ == "__main__":
    main()
