"""Benchmarks of the complete two-sided bear-off table (``nardy_fast.tables.bearoff_complete``).

Builds (wall and CPU time, size on disk) of the out-of-core table at the given sizes in a
temporary store, then query speed (single calls through the Python API, batched arrays),
and, with ``--errors STORE``, the one-sided approximation's error over every pair of a
finished table.

    python benchmarks/bench_twosided.py --sizes 10 12
    python benchmarks/bench_twosided.py --sizes --store STORE            # queries only
    python benchmarks/bench_twosided.py --sizes --errors STORE           # errors, all pairs
    python benchmarks/bench_twosided.py --sizes --check STORE            # vs plain Python
    python benchmarks/bench_twosided.py --sizes 10 12 --cubeful          # cubeful builds
    python benchmarks/bench_twosided.py --sizes --cube-check 8           # vs CubefulRace
    python benchmarks/bench_twosided.py --sizes --cube-decisions STORE   # cube decisions
    python benchmarks/bench_twosided.py --sizes --cube-decisions STORE --within 10
    python benchmarks/bench_twosided.py --sizes --dask 12                # LocalCluster

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

from nardy_fast._utils._dbfile import DatabaseError
from nardy_fast.engine.evaluation.cubemodel import live_take_point
from nardy_fast.tables import bearoff as bo
from nardy_fast.tables import bearoff_complete as bc

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests"))
import naive_bearoff  # noqa: E402  (the plain-Python recursion the tests use)


def du(path):
    return sum(os.path.getsize(os.path.join(path, f)) for f in os.listdir(path))


def bench_build(n, threads, cubeful=False, keep=None):
    """Build the table of ``n`` checkers (then, ``cubeful``, its cubeful equities as a
    second pass, timed apart) in a temporary store (``keep``: this folder, kept)."""
    store = keep or tempfile.mkdtemp(prefix=f"ts{n}-")
    try:
        for cube in (False, True) if cubeful else (False,):
            c0, t0 = time.process_time(), time.perf_counter()
            table = bc.build_complete(n, store=store, threads=threads, progress=False,
                                      cubeful=cube)
            wall, cpu = time.perf_counter() - t0, time.process_time() - c0
            size = sum(os.path.getsize(os.path.join(store, f)) for f in os.listdir(store)
                       if f.startswith("cube-" if cube else "shard-"))
            print(f"build {n}x{n}{' cubeful equities' if cube else ''} "
                  f"({bo.n_boards(n):,}^2 pairs, {len(bc.shard_order(n))} shards, "
                  f"threads={threads}): wall {wall:.1f} s, CPU {cpu:.1f} s, "
                  f"{size / 1e6:.1f} MB on disk, peak RSS so far "
                  f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1e6:.2f} GB",
                  flush=True)
        bench_queries(table)
    finally:
        if keep is None:
            shutil.rmtree(store)


def cube_check(n):
    """The complete table's cubeful equities of ``n`` checkers against the float64
    in-memory ``CubefulRace`` (the same recursion on unrounded values), every pair."""
    from nardy_fast.tables.cuberace import CubefulRace
    store = tempfile.mkdtemp(prefix=f"tsc{n}-")
    try:
        table = bc.build_complete(n, store=store, progress=False, cubeful=True)
        exact = np.asarray(CubefulRace.build(n, progress=False).values)
        m = bo.n_boards(n)
        step = 2 / 65535
        worst, tot, cnt = np.zeros(3), np.zeros(3), 0
        for a0 in range(1, m, 512):
            ia, ib = np.meshgrid(np.arange(a0, min(m, a0 + 512)), np.arange(1, m),
                                 indexing="ij")
            ia, ib = ia.ravel(), ib.ravel()
            err = np.abs(table.cubeful_of_indices(ia, ib) - exact[ia, ib, :3])
            worst = np.maximum(worst, err.max(axis=0))
            tot += err.sum(axis=0)
            cnt += len(ia)
        print(f"cubeful {n}x{n} vs float64 CubefulRace, {cnt:,} pairs: max |error| "
              f"(centre, mover, opponent) {', '.join(f'{w / step:.2f}' for w in worst)} "
              f"steps, mean {', '.join(f'{t / cnt / step:.3f}' for t in tot)} steps "
              f"(step 2/65535)")
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
    # the same pairs as positions through the evaluator (boards (n, 2, 24), homes on
    # points 19-24), which serves every bear-off from the complete table in the data
    # folder when it is there (NARDY_FAST_DATA) and says which table answered
    from nardy_fast.engine.evaluation.evaluator import Evaluator
    n_ev = min(n_batch, 200_000)
    boards = np.zeros((n_ev, 2, 24), dtype=np.uint8)
    boards[:, 0, 18:] = a6[:n_ev]
    boards[:, 1, 18:] = b6[:n_ev]
    ev = Evaluator.default()
    _, methods = ev.probabilities(boards[:1000])
    t0 = time.perf_counter()
    ev.probabilities(boards)
    through_ev = n_ev / (time.perf_counter() - t0)
    print(f"  Evaluator.probabilities on {n_ev:,} bear-off positions (n, 2, 24): "
          f"{through_ev / 1e6:.2f} M/s; tables that answered: "
          f"{sorted(set(np.asarray(methods).tolist()))}", flush=True)


def one_sided_approximation(m):
    """``approx(ia)``: the one-sided approximation's (P(win), P(loss), P(mars win), P(mars
    loss)) of the boards ``ia`` on roll against every board 1 .. m - 1, arrays (len(ia),
    m - 1): the convolution of the two sides' independent turn distributions."""
    one = bo.one_sided()
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

    def approx(ia):
        win = tx[ia] @ tail_t0[1:].T                   # on roll wins iff Ta <= Tb
        lose = tail_t1[ia] @ tx[1:].T                  # loses iff Tb < Ta
        mwin = np.minimum(tx[ia] @ tail_f0[1:].T, win)
        mloss = np.minimum(tail_f1[ia] @ tx[1:].T, lose)
        return win, lose, mwin, mloss
    return approx


def one_sided_errors(table, rows=256, worst=10):
    """|exact - one-sided approximation| in P(win) and in equity (classic points) over every
    pair of boards with checkers on both sides."""
    m = bo.n_boards(table.max_checkers)
    approx = one_sided_approximation(m)
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
        win, lose, mwin, mloss = approx(ia)
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


def janowski(p, x, owner):
    """Janowski's model (``cubemodel.model_equities``, geometric cube at stake 1, no
    mars) on arrays: (no double, double/take) of P(win) ``p`` and efficiency ``x`` for the
    cube ``owner`` ("centre" or "mover")."""
    tp = live_take_point("geometric", 1)
    dead = 2 * p - 1
    if owner == "centre":
        live = np.clip(-1 + 2 * (p - tp) / (1 - 2 * tp), -1, 1)
    else:
        live = np.minimum(1, -1 + 2 * p / (1 - tp))
    take_live = np.maximum(-1, -1 + 2 * (p - tp) / (1 - tp))
    return (1 - x) * dead + x * live, 2 * ((1 - x) * dead + x * take_live)


def cube_decisions(table, rows=256):
    """How many cube decisions of bear-offs change between the exact cubeful equities and
    Janowski's model (the toolkit's cube model, ``x`` by the side on roll's pips) on the
    one-sided approximation's P(win), and on the exact cubeless P(win), over every pair
    of boards with checkers on both sides: the double (double / no double, "too good"
    counted as no double) and the take (take / pass), for the centred cube and the cube
    owned by the side on roll; with what the wrong choices cost (exact equity per unit
    stake of the side that chose)."""
    from nardy_fast.engine.evaluation.cubemodel import RACE_EFFICIENCY, model_equities
    from nardy_fast.core.cubestate import CubeState
    rng = np.random.default_rng(0)                      # the array model is the package's
    for p, x in rng.random((200, 2)):
        for owner in ("centre", "mover"):
            e = model_equities(p, x, CubeState(1, owner))
            nd, dt = janowski(np.array(p), np.array(x), owner)
            assert abs(nd - e["no_double"]) < 1e-12 and abs(dt - e["double_take"]) < 1e-12
    m = bo.n_boards(table.max_checkers)
    approx = one_sided_approximation(m)
    pips = bo.board_of(np.arange(m)) @ np.arange(1, 7)
    xs, ys = zip(*RACE_EFFICIENCY)
    names = ("one-sided + model", "exact cubeless + model")
    keys = [(o, src, what) for o in ("centre", "mover") for src in names
            for what in ("double", "take")]
    wrong = dict.fromkeys(keys, 0)
    cost = dict.fromkeys(keys, 0.0)
    exact_n = {(o, w): 0 for o in ("centre", "mover") for w in ("double", "take")}
    n = 0
    t0 = time.perf_counter()
    for a0 in range(1, m, rows):
        a1 = min(m, a0 + rows)
        ia = np.arange(a0, a1)
        A = np.repeat(ia, m - 1)
        B = np.tile(np.arange(1, m), a1 - a0)
        R = table.cubeful_of_indices(A, B)
        w = table.probabilities_of_indices(A, B)[0]
        p1 = approx(ia)[0].ravel()
        x = np.interp(pips[A], xs, ys)
        e_dt = 2 * R[:, 2]
        e_take = e_dt <= 1.0                              # the taker's exact choice
        e_d = np.minimum(e_dt, 1.0)                       # doubled: the taker's best answer
        for k, owner in ((0, "centre"), (1, "mover")):
            e_nd = R[:, k]
            e_double = e_d > e_nd
            exact_n[owner, "double"] += int(e_double.sum())
            exact_n[owner, "take"] += int(e_take.sum())
            for src, p in zip(names, (p1, w)):
                nd, dt = janowski(p, x, owner)
                double = np.minimum(dt, 1.0) > nd
                take = dt <= 1.0
                bad = double != e_double
                wrong[owner, src, "double"] += int(bad.sum())
                cost[owner, src, "double"] += float(np.abs(e_d - e_nd)[bad].sum())
                bad = take != e_take
                wrong[owner, src, "take"] += int(bad.sum())
                cost[owner, src, "take"] += float(np.abs(e_dt - 1.0)[bad].sum())
        n += len(A)
        if (a0 // rows) % 20 == 0:
            print(f"  {a1:,} of {m:,} boards on roll, {time.perf_counter() - t0:.0f} s",
                  file=sys.stderr, flush=True)
    print(f"cube decisions, {table.max_checkers}x{table.max_checkers}, {n:,} pairs "
          f"(geometric cube, stake 1; exact: the cubeful equities)")
    for owner in ("centre", "mover"):
        print(f"  cube {owner}: exact doubles {exact_n[owner, 'double']:,} "
              f"({exact_n[owner, 'double'] / n:.2%}), exact takes {exact_n[owner, 'take']:,} "
              f"({exact_n[owner, 'take'] / n:.2%})")
        for src in names:
            for what in ("double", "take"):
                k = wrong[owner, src, what]
                print(f"    {src}: {what} decisions changed {k:,} ({k / n:.3%}), cost "
                      f"{cost[owner, src, what] / max(k, 1):.4f} per changed decision, "
                      f"{cost[owner, src, what] / n:.2e} per pair")


def sub_table(store, n):
    """The table of 0..n checkers inside a larger store (its first shards, cubeless and
    cubeful, each finished: a build under way will do), loaded through a temporary store
    of links to them."""
    import json
    with open(os.path.join(store, bc.MANIFEST)) as f:
        man = json.load(f)
    sub = tempfile.mkdtemp(prefix=f"sub{n}-")
    shards = bc.shard_order(n)
    for cube, key in ((False, "done"), (True, "cube_done")):
        missing = [s for s in shards if bc.shard_name(*s, cube) not in man.get(key, {})]
        if missing:
            raise SystemExit(f"{store}: shard {missing[0]} {'(cubeful) ' if cube else ''}"
                             f"not finished")
        for s in shards:
            name = bc.shard_name(*s, cube)
            os.symlink(os.path.join(os.path.abspath(store), name), os.path.join(sub, name))
    man.update(max_checkers=n, complete=True, cube_complete=True, shards=shards,
               **{key: {k: v for k, v in man[key].items()
                        if os.path.exists(os.path.join(sub, k))}
                  for key in ("done", "cube_done")})
    with open(os.path.join(sub, bc.MANIFEST), "w") as f:
        json.dump(man, f)
    return bc.CompleteTwoSided.load(sub, verify=False)


def critical_path(times):
    """The longest chain of dependent shards (``bearoff_complete.shard_deps``) of the
    shard times ``{(i, j): seconds}``: (its length in seconds, the chain)."""
    longest = {}
    for s in sorted(times, key=bc.shard_order(15).index):
        best = max(((longest[d][0], d) for d in bc.shard_deps(*s) if d in longest),
                   default=(0.0, None))
        longest[s] = (best[0] + times[s], best[1])
    end = max(longest, key=lambda s: longest[s][0])
    length, chain = longest[end][0], [end]
    while longest[chain[-1]][1] is not None:
        chain.append(longest[chain[-1]][1])
    return length, chain[::-1]


def list_schedule(times, workers):
    """Makespan of the shards on ``workers`` workers, each shard started as soon as its
    dependencies are done and a worker is free (build order first), with the measured
    times: what the Dask scheduler does, without its overheads."""
    order = [s for s in bc.shard_order(15) if s in times]
    done, free = {}, [0.0] * workers
    for s in order:
        ready = max((done[d] for d in bc.shard_deps(*s) if d in done), default=0.0)
        w = min(range(workers), key=lambda k: max(free[k], ready))
        start = max(free[w], ready)
        done[s] = free[w] = start + times[s]
    return max(done.values())


def dask_build(n):
    """``nardy-fast bearoff build --two-sided n`` on a Dask LocalCluster (2 workers, 1
    thread each) against the local build on 2 threads, one after the other in one run:
    wall times, the stores compared byte for byte, each shard's compute time on the
    cluster (the scheduler's task stream), the bytes each shard reads from and writes to
    the shared store (what a cluster moves: the tasks return only a name and a checksum),
    and the scaling on paper: the longest chain of dependent shards and the makespan of
    a list schedule of the measured shard times on 2, 16 and 64 workers."""
    import subprocess
    from dask.distributed import Client, LocalCluster, get_task_stream
    exe = os.path.join(os.path.dirname(sys.executable), "nardy-fast")
    base = tempfile.mkdtemp(prefix=f"tsdask{n}-")
    try:
        cmd = [exe, "bearoff", "build", "--two-sided", str(n), "--no-progress"]
        t0 = time.perf_counter()
        c0 = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run(cmd + ["--store", os.path.join(base, "local"), "--threads", "2"],
                       check=True, stdout=subprocess.DEVNULL)
        c1 = resource.getrusage(resource.RUSAGE_CHILDREN)
        local = time.perf_counter() - t0
        print(f"local build {n}x{n}, 2 threads: wall {local:.1f} s, CPU "
              f"{c1.ru_utime + c1.ru_stime - c0.ru_utime - c0.ru_stime:.1f} s", flush=True)
        with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                          dashboard_address=None) as cluster, Client(cluster) as client:
            client.run(lambda: __import__("nardy_fast.tables.bearoff_complete"))   # warm
            with get_task_stream(client) as ts:      # records every client's tasks
                t0 = time.perf_counter()
                subprocess.run(cmd + ["--store", os.path.join(base, "dask"), "--scheduler",
                                      cluster.scheduler_address], check=True,
                               stdout=subprocess.DEVNULL)
                wall = time.perf_counter() - t0
            stream = ts.data
        times = {}
        for rec in stream:
            name = str(rec["key"])
            m = [bc.shard_name(*s) for s in bc.shard_order(n) if bc.shard_name(*s) in name]
            if m:
                s = tuple(int(x) for x in m[0][6:11].split("-"))
                times[s] = sum(x["stop"] - x["start"] for x in rec["startstops"]
                               if x["action"] == "compute")
        a, b = _bytes(os.path.join(base, "local")), _bytes(os.path.join(base, "dask"))
        print(f"Dask LocalCluster build {n}x{n}, 2 workers x 1 thread: wall {wall:.1f} s "
              f"({local / wall:.2f}x the local build's speed), shard compute "
              f"{sum(times.values()):.1f} s over {len(times)} shards; stores bit-identical: "
              f"{a == b} ({len(a)} shards)",
              flush=True)
        size = {s: os.path.getsize(os.path.join(base, "dask", bc.shard_name(*s)))
                for s in bc.shard_order(n)}
        reads = {s: sum(size[d] for d in bc.shard_deps(*s)) for s in size}
        total = sum(times.values())
        cp, chain = critical_path(times)
        big = max(times, key=times.get)
        print(f"  shards: largest {list(big)} {times[big]:.1f} s ({times[big] / total:.0%} "
              f"of the work); longest chain {cp:.1f} s = {cp / total:.0%} of the work "
              f"({' '.join(f'{i}-{j}' for i, j in chain)}): speed-up <= "
              f"{total / cp:.2f}x with any number of workers")
        print(f"  store traffic: {sum(reads.values()) / 1e6:.0f} MB read, "
              f"{sum(size.values()) / 1e6:.0f} MB written in all; the largest shard reads "
              f"{reads[big] / 1e6:.0f} MB, writes {size[big] / 1e6:.0f} MB")
        for w in (1, 2, 16, 64):
            mk = list_schedule(times, w)
            print(f"  list schedule of the measured shard times on {w} workers: "
                  f"{mk:.1f} s, speed-up {total / mk:.2f}x")
    finally:
        shutil.rmtree(base)


def _bytes(store):
    return {f: open(os.path.join(store, f), "rb").read() for f in sorted(os.listdir(store))
            if f.endswith(".nfdb")}


def python_check(table, points=2, lam=0.5):
    """The full table against a plain-Python memoised recursion
    (``tests/naive_bearoff.py``: its own move generator, float64, ties to the smaller
    final index) on every pair of boards of 15 checkers or fewer with all checkers on the lowest ``points`` points, and all 15 checkers on points
    1-3 against up to 3 on points 1-2 (either side on roll), mars included."""
    val = naive_bearoff.cubeless(15, lam)
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
    ap.add_argument("--cubeful", action="store_true",
                    help="the builds of --sizes also build the cubeful equities (timed "
                         "apart)")
    ap.add_argument("--keep", metavar="DIR",
                    help="build the (one) size of --sizes into DIR and keep it")
    ap.add_argument("--cube-check", type=int, metavar="N",
                    help="the cubeful equities of N checkers against the float64 "
                         "CubefulRace, every pair")
    ap.add_argument("--cube-decisions", metavar="STORE",
                    help="cube decisions changed between this table's cubeful equities "
                         "and the cube model, every pair")
    ap.add_argument("--within", type=int, metavar="N",
                    help="--cube-decisions over the pairs of at most N checkers of STORE "
                         "(its first shards; a build under way will do)")
    ap.add_argument("--dask", type=int, metavar="N",
                    help="the build of N checkers on a Dask LocalCluster (2 workers x 1 "
                         "thread) against the local one on 2 threads, shard times, "
                         "traffic, scaling on paper")
    args = ap.parse_args(argv)
    for option, sizes, hi in (("--sizes", args.sizes, bc.MAX), ("--dask", [args.dask], bc.MAX),
                              ("--within", [args.within], bc.MAX),
                              ("--cube-check", [args.cube_check], 14)):   # CubefulRace's
        bad = [n for n in sizes if n is not None and not 1 <= n <= hi]
        if bad:
            ap.error(f"{option} {bad[0]}: expected checkers 1..{hi}")
    if args.keep and len(args.sizes) != 1:
        ap.error(f"--keep {args.keep}: keeps the build of one size of --sizes, not of "
                 f"{len(args.sizes)} (--sizes {' '.join(map(str, args.sizes))})")

    def table(option, store):
        """The finished table of ``store``, or a refusal naming ``option``."""
        try:
            return bc.CompleteTwoSided.load(store, verify=False)
        except (DatabaseError, OSError) as e:
            ap.error(f"{option} {e}")
    stores = {"--cube-decisions": args.cube_decisions, "--store": args.store,
              "--check": args.check, "--errors": args.errors}
    for option, store in stores.items():       # before any build: refused at once
        if store is not None and not os.path.isfile(os.path.join(store, bc.MANIFEST)):
            ap.error(f"{option} {store}: no {bc.MANIFEST}: not a complete two-sided table")
    checked = table("--check", args.check) if args.check else None
    if checked is not None and checked.max_checkers < bc.MAX:
        ap.error(f"--check {args.check}: a table of {checked.max_checkers} checkers; the "
                 f"check needs the complete table ({bc.MAX})")
    if args.dask:
        dask_build(args.dask)
    for n in args.sizes:
        bench_build(n, args.threads, args.cubeful, args.keep)
    if args.cube_check:
        cube_check(args.cube_check)
    if args.cube_decisions:
        cube_decisions(table("--cube-decisions", args.cube_decisions)
                       if args.within is None else sub_table(args.cube_decisions, args.within))
    if args.store:
        bench_queries(table("--store", args.store))
    if checked is not None:
        python_check(checked)
    if args.errors:
        one_sided_errors(table("--errors", args.errors))


if __name__ == "__main__":
    main()
