"""Bear-off database benchmarks: build times and query throughput.

Usage::

    python benchmarks/bench_bearoff.py                 # one-sided, two-sided 6 and 8, queries
    python benchmarks/bench_bearoff.py --scale 10 11   # also single builds of larger tables
    python benchmarks/bench_bearoff.py --threads 1 2   # builds with 1, then 2 threads
    python benchmarks/bench_bearoff.py --only-mars --mars 6 7 8 --runs 3
                                                       # mars tables (15 vs <= N): build
                                                       # time and peak memory, one child
                                                       # process per build
    python benchmarks/bench_bearoff.py --only-builds --runs 3 --two-sided 8 --scale 10 \
        --threads 1 2                                  # both-core scaling of the builders
    python benchmarks/bench_bearoff.py --only-mars --mars 6 7 --runs 1 --threads 1 2

Each figure is the median of ``--runs`` runs, one line per figure: times by the wall clock,
with CPU time beside them; throughputs per CPU-second of this process, with the rate per
wall-clock second beside them.  C-level and Python-call-level throughputs are reported
apart.  Seeds are fixed.
"""
import argparse
import json
import math
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

from nardy_fast import Position, race_probabilities
from nardy_fast.tables import _board6, _onesided, _racetables, _twosided
from nardy_fast.tables import bearoff as bo


def timed(fn, runs):
    walls, cpus, out = [], [], None
    for _ in range(runs):
        c, w = time.process_time(), time.perf_counter()
        out = fn()
        walls.append(time.perf_counter() - w)
        cpus.append(time.process_time() - c)
    return statistics.median(walls), statistics.median(cpus), out


def line(name, value, unit, extra=""):
    print(f"{name:<52s} {value:>14,.3f} {unit:<12s} {extra}", flush=True)


def rate(name, n, unit, wall, cpu, extra=""):
    """A throughput line: ``n`` items per CPU-second of this process, per wall-clock
    second beside it."""
    line(name, n / cpu if cpu > 0 else float("inf"), f"{unit}/CPU-s",
         f"{n / wall:,.0f} {unit}/s wall" + (f"; {extra}" if extra else ""))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--two-sided", type=int, nargs="*", default=[6, 8],
                    help="two-sided sizes timed as medians")
    ap.add_argument("--scale", type=int, nargs="*", default=[],
                    help="larger two-sided sizes, one run each")
    ap.add_argument("--threads", type=int, nargs="+", default=[1],
                    help="thread counts of the builders, each timed in turn")
    ap.add_argument("--queries", type=int, default=1_000_000)
    ap.add_argument("--mars", type=int, nargs="*", default=[],
                    help="mars table sizes N (15 vs <= N) built in child processes")
    ap.add_argument("--only-mars", action="store_true", help="skip the other figures")
    ap.add_argument("--only-builds", action="store_true",
                    help="only the two-sided builds (and the mars builds)")
    ap.add_argument("--mars-child", nargs=3, metavar=("N", "PATH", "THREADS"),
                    help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    for name, least, why in (("runs", 1, ""),
                             ("queries", 10, " (a tenth of them time TwoSided.p_win)")):
        if getattr(args, name) < least:
            ap.error(f"--{name} {getattr(args, name)}: expected >= {least}{why}")
    for name, lo, hi in (("two_sided", 1, 14), ("scale", 1, 14), ("threads", 1, None),
                         ("mars", 1, 14)):
        bad = [n for n in getattr(args, name) if n < lo or (hi is not None and n > hi)]
        if bad:
            ap.error(f"--{name.replace('_', '-')} {bad[0]}: expected "
                     + (f"checkers {lo}..{hi}" if hi else f">= {lo}"))
    if args.mars_child:
        return mars_child(int(args.mars_child[0]), args.mars_child[1],
                          int(args.mars_child[2]))

    print(f"# nardy_fast bear-off benchmark, {time.strftime('%Y-%m-%d %H:%M')}, "
          f"{platform.processor() or platform.machine()}, {os.cpu_count()} cpus, "
          f"python {platform.python_version()}, numpy {np.__version__}, "
          f"POSIX threads {'yes' if _twosided.PTHREADS else 'no'}, load average "
          f"{os.getloadavg()[0]:.2f}; median of {args.runs} runs")

    if args.mars:
        bench_mars(args.mars, args.runs, args.threads)
    if args.only_mars:
        return 0
    if args.only_builds:
        bench_two_sided_builds(args)
        return 0

    # one-sided build ---------------------------------------------------------------
    wall, cpu, res = timed(lambda: _onesided.build_one_sided(15), args.runs)
    line("one-sided build, 15 checkers (54,264 boards)", wall, "s wall", f"cpu {cpu:.3f} s; "
         f"turns columns {res[0].shape[1]}, first-off columns {res[1].shape[1]}")
    db = bo.OneSided(*res, 15)

    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "one.nfdb")
        wall, cpu, _ = timed(lambda: db.save(path), args.runs)
        line("one-sided save (atomic, crc32)", wall, "s wall",
             f"{os.path.getsize(path):,} bytes")
        wall, cpu, _ = timed(lambda: bo.OneSided.load(path), args.runs)
        line("one-sided load (memory-mapped, crc32 verified)", wall, "s wall")

    # queries -------------------------------------------------------------------------
    rng = np.random.default_rng(2026)
    idx = rng.integers(0, bo.N_BOARDS, args.queries)
    boards = np.ascontiguousarray(bo.board_of(idx))
    n = len(boards)
    wall, cpu, _ = timed(lambda: db.mean_turns_many(boards), args.runs)
    rate("mean_turns_many (validated, Python call)", n, "boards", wall, cpu, f"n={n:,}")
    wall, cpu, _ = timed(lambda: _board6.take_rows(db.mean, boards), args.runs)
    rate("mean lookup, C level (take_rows)", n, "boards", wall, cpu, f"n={n:,}")
    wall, cpu, _ = timed(lambda: bo.index_of(boards), args.runs)
    rate("index_of (validated, Python call)", n, "boards", wall, cpu, f"n={n:,}")
    wall, cpu, _ = timed(lambda: bo.board_of(idx), args.runs)
    rate("board_of (validated, Python call)", n, "indices", wall, cpu, f"n={n:,}")
    small = boards[:20000]
    wall, cpu, _ = timed(lambda: [db.mean_turns(b) for b in small[:2000]], args.runs)
    rate("mean_turns, one board per call", 2000, "calls", wall, cpu)

    # two-sided builds ----------------------------------------------------------------
    bench_two_sided_builds(args)
    ts = bo.TwoSided.build(8, progress=False) if 8 in args.two_sided or not args.two_sided \
        else None

    # race probabilities --------------------------------------------------------------
    if ts is not None:
        pa = np.stack([np.zeros(24, np.uint8)] * 200)
        pa[:, 18:] = bo.board_of(rng.integers(1, ts.n_boards, 200))[:, ::-1]
        pb = np.stack([np.zeros(24, np.uint8)] * 200)
        pb[:, 18:] = bo.board_of(rng.integers(1, bo.N_BOARDS, 200))[:, ::-1]
        pos2 = [Position.from_boards(a, b) for a, b in zip(pa, pa[::-1])]
        pos1 = [Position.from_boards(a, b) for a, b in zip(pb, pb[::-1])]
        dbs = (db, ts)
        wall, cpu, _ = timed(lambda: [race_probabilities(p, tables=dbs) for p in pos2],
                             args.runs)
        rate("race_probabilities, two-sided path", len(pos2), "calls", wall, cpu)
        wall, cpu, _ = timed(lambda: [race_probabilities(p, tables=db) for p in pos1],
                             args.runs)
        rate("race_probabilities, one-sided path", len(pos1), "calls", wall, cpu)
        a6 = bo.index_of(pb[:, 18:][:, ::-1].copy())
        wall, cpu, _ = timed(lambda: [_racetables.race_one_sided(db.turns, db.first_off,
                                                                 a, b)
                                      for a, b in zip(a6, a6[::-1])], args.runs)
        rate("one-sided convolution (race_one_sided)", len(a6), "calls", wall, cpu)
        odd = boards[:n // 10] % 2                  # boards of the table's <= 8 checkers
        odd = odd[odd.any(axis=1)]                  # both sides off: no game reaches it
        wall, cpu, _ = timed(lambda: ts.p_win(odd, odd), args.runs)
        rate("TwoSided.p_win vectorised (validated)", len(odd), "pairs", wall, cpu)
    return 0


def bench_two_sided_builds(args):
    """Two-sided builds: ``--two-sided`` sizes as medians of ``--runs``, ``--scale`` sizes
    once, each for every ``--threads`` count (the solver directly: not capped at the
    usable cores)."""
    for size in args.two_sided:
        m = math.comb(size + 6, 6)
        for threads in args.threads:
            def build():
                table = np.empty((m, m))
                s = _twosided.TwoSidedSolver(size, table, threads)
                s.run(m)
                s.finish()
                return table
            wall, cpu, table = timed(build, args.runs)
            line(f"two-sided build {size}x{size} ({m:,}^2), threads={threads}", wall,
                 "s wall", f"cpu {cpu:.3f} s, load average {os.getloadavg()[0]:.2f}")
            del table
    for size in args.scale:
        m = math.comb(size + 6, 6)
        for threads in args.threads:
            table = np.empty((m, m))
            c, w = time.process_time(), time.perf_counter()
            s = _twosided.TwoSidedSolver(size, table, threads)
            s.run(m)
            s.finish()
            line(f"two-sided build {size}x{size} ({m:,}^2), threads={threads}, 1 run",
                 time.perf_counter() - w, "s wall", f"cpu {time.process_time() - c:.3f} s, "
                 f"table {table.nbytes / 2**20:,.0f} MiB, load average "
                 f"{os.getloadavg()[0]:.2f}")
            del table, s


def mars_child(n, path, threads):
    """One streamed MarsTable build in this (fresh) process: prints a JSON line."""
    c, w = time.process_time(), time.perf_counter()
    bo.MarsTable.build(n, path=path, progress=False, threads=threads)
    wall, cpu = time.perf_counter() - w, time.process_time() - c
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024     # Linux: KiB
    print(json.dumps({"wall": wall, "cpu": cpu, "peak": peak,
                      "bytes": os.path.getsize(path)}))
    return 0


def bench_mars(sizes, runs, thread_counts=(1,)):
    """Build time (wall, CPU) and peak resident memory of MarsTable.build(N, path=...),
    median of ``runs`` child processes each (for each thread count); then query
    throughput on the last table."""
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "mars.nfdb")
        for n in sizes:
            for threads in thread_counts:
                res = []
                for _ in range(runs):
                    out = subprocess.run([sys.executable, os.path.abspath(__file__),
                                          "--mars-child", str(n), path, str(threads)],
                                         check=True, capture_output=True, text=True)
                    res.append(json.loads(out.stdout.strip().splitlines()[-1]))
                med = {k: statistics.median(r[k] for r in res) for k in res[0]}
                line(f"mars table build 15 x <= {n} (streamed), threads={threads}",
                     med["wall"], "s wall",
                     f"cpu {med['cpu']:.1f} s, peak RSS {med['peak'] / 2**20:,.0f} MiB, "
                     f"file {med['bytes'] / 2**20:,.0f} MiB, load average "
                     f"{os.getloadavg()[0]:.2f}; runs "
                     + ", ".join(f"{r['wall']:.1f}" for r in res))
        mt = bo.MarsTable.load(path)
        nx, _, my = mt.shape
        rng = np.random.default_rng(2026)
        x = bo.board_of(mt.x_offset + rng.integers(0, nx, 100_000))
        y = bo.board_of(rng.integers(1, my, 100_000))
        wall, cpu, _ = timed(lambda: mt.probabilities(x, y), max(runs, 3))
        rate("MarsTable.probabilities vectorised (validated)", len(x), "pairs", wall, cpu)
        one = bo.one_sided()
        pos = [Position.from_boards(np.r_[np.zeros(18, np.uint8), a[::-1]],
                                    np.r_[np.zeros(18, np.uint8), b[::-1]])
               for a, b in zip(x[:200], y[:200])]
        wall, cpu, _ = timed(lambda: [race_probabilities(p, tables=(one, mt)) for p in pos],
                             max(runs, 3))
        rate("race_probabilities, mars-table path", len(pos), "calls", wall, cpu)
        # the one-sided approximation against the exact table (all pairs, both on roll)
        t, f = np.asarray(one.turns), np.asarray(one.first_off)
        ew = em = 0.0
        for i in range(0, nx, 97):
            for j in range(1, my, 7):
                ix = mt.x_offset + i
                pw, _, pml, _ = _racetables.race_one_sided(t, f, ix, j)
                ew = max(ew, abs(pw - mt.x_on_roll[i, 0, j]))
                em = max(em, abs(pml - mt.x_on_roll[i, 1, j]))
                pw, pmw, _, _ = _racetables.race_one_sided(t, f, j, ix)
                ew = max(ew, abs(1 - pw - mt.y_on_roll[i, 0, j]))
                em = max(em, abs(pmw - mt.y_on_roll[i, 1, j]))
        line(f"one-sided error vs mars table N={mt.max_checkers}: max |dP(win)|", ew, "",
             f"max |dP(mars)| {em:.4f} (every 97th X board x every 7th Y board)")


if __name__ == "__main__":
    sys.exit(main())
