"""Cube benchmarks: cubeful race builds against cubeless ones, the cube efficiency of races
and the cube model's decisions against the exact tables.

    python benchmarks/bench_cube.py --builds 6 8        # time and peak memory, one child
                                                        # process per build
    python benchmarks/bench_cube.py --efficiency        # fit x per pip bin (8 checkers)
    python benchmarks/bench_cube.py --model             # model vs exact decisions
    python benchmarks/bench_cube.py --cap               # arithmetic cap: stake-1 changes
    python benchmarks/bench_cube.py --rollout           # cubeful rollout games/CPU-s
    python benchmarks/bench_cube.py --functions         # microseconds per call of the
                                                        # cube model's Python functions

Figures go to ``benchmarks/RESULTS.md`` with the command, machine and date.
"""
import argparse
import json
import math
import os
import resource
import statistics
import subprocess
import sys
import time

import numpy as np

from nardy_fast.tables import _twosided, bearoff as bo
from nardy_fast.engine.evaluation.cubemodel import RACE_EFFICIENCY, model_equities, actions
from nardy_fast.tables.cuberace import CubefulRace

MAX_CHECKERS = 14               # the largest cubeful race table (CubefulRace)


def line(name, value, unit, extra=""):
    print(f"{name}: {value:,.3f} {unit}" + (f"  ({extra})" if extra else ""), flush=True)


def build_child(kind, n):
    """One build in this (fresh) process; prints a JSON line with wall, cpu, peak RSS."""
    c, w = time.process_time(), time.perf_counter()
    if kind == "cubeless":
        m = math.comb(n + 6, 6)
        table = np.empty((m, m))
        s = _twosided.TwoSidedSolver(n, table, 1)
        s.run(m)
        s.finish()
    elif kind == "geometric":
        CubefulRace.build(n, "geometric")
    elif kind == "geometric-beaver":
        CubefulRace.build(n, "geometric", beaver=True)
    else:
        CubefulRace.build(n, "arithmetic", max_stake=16, stakes=4)
    wall, cpu = time.perf_counter() - w, time.process_time() - c
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024       # Linux: KiB
    print(json.dumps({"wall": wall, "cpu": cpu, "peak": peak}))
    return 0


def bench_builds(sizes, runs):
    base = None
    for n in sizes:
        for kind in ("cubeless", "geometric", "geometric-beaver", "arithmetic"):
            if kind == "arithmetic" and n > 6:
                continue                   # 16 tables: see the 6-checker figure
            res = []
            for _ in range(runs if n <= 6 else 1):
                out = subprocess.run([sys.executable, os.path.abspath(__file__),
                                      "--child", kind, str(n)], capture_output=True,
                                     text=True, check=True)
                res.append(json.loads(out.stdout.strip().splitlines()[-1]))
            wall = statistics.median(r["wall"] for r in res)
            cpu = statistics.median(r["cpu"] for r in res)
            peak = max(r["peak"] for r in res) / 2**20
            if kind == "cubeless":
                base = wall
            label = {"cubeless": "cubeless TwoSided (P(win), one thread)",
                     "geometric": "cubeful geometric (4 cube states)",
                     "geometric-beaver": "cubeful geometric with beaver",
                     "arithmetic": "cubeful arithmetic, cap 16, stakes 1-4 kept"}[kind]
            line(f"{n} checkers, {label}", wall, "s",
                 f"cpu {cpu:.2f} s, peak RSS {peak:,.0f} MiB, x{wall / base:.1f} the "
                 f"cubeless build, {len(res)} run(s), load average "
                 f"{os.getloadavg()[0]:.2f}")


def race_arrays(n=8):
    t = CubefulRace.build(n, "geometric")
    v = t.values[1:, 1:]
    boards = bo.board_of(np.arange(t.n_boards))
    pips = (boards * np.arange(1, 7)).sum(axis=1)[1:]
    p = (v[..., 3] + 1) / 2
    return t, v, p, np.broadcast_to(pips[:, None], p.shape)


def live(p, owner, tp=0.2):
    cp = 1 - tp
    if owner == "centre":
        return np.clip(-1 + 2 * (p - tp) / (cp - tp), -1, 1)
    return np.clip(-1 + 2 * (p - tp) / (1 - tp), -1, 1)          # opponent's cube


def bench_efficiency(n=8, width=6):
    """Least squares x of the no double and double/take equities per pip bin."""
    _, v, p, pips = race_arrays(n)
    mask = (p > 0.15) & (p < 0.9)
    dead = 2 * p - 1
    a1, y1 = live(p, "centre") - dead, v[..., 0] - dead
    a2, y2 = 2 * (live(p, "opponent") - dead), 2 * v[..., 2] - 2 * dead
    fits = []
    for lo in range(0, 6 * n + 1, width):
        sel = mask & (pips >= lo) & (pips < lo + width)
        if sel.sum() < 100:
            continue
        x = (a1[sel] @ y1[sel] + a2[sel] @ y2[sel]) / (a1[sel] @ a1[sel] + a2[sel] @ a2[sel])
        fits.append((lo + width / 2, round(float(x), 3)))
        line(f"race efficiency, side on roll {lo}-{lo + width - 1} pips "
             f"({int(sel.sum()):,} positions)", x, "")
    sel = mask
    x = (a1[sel] @ y1[sel] + a2[sel] @ y2[sel]) / (a1[sel] @ a1[sel] + a2[sel] @ a2[sel])
    line("race efficiency, all bins", x, "")
    print("RACE_EFFICIENCY =", tuple(fits))


def bench_model(n=8, stride=7):
    """Model actions and equities against the exact table on every ``stride``-th pair with
    0.3 < p < 0.95, for the measured x, a constant 0.68 and a dead cube."""
    t, v, p, pips = race_arrays(n)
    xs, ys = zip(*RACE_EFFICIENCY)
    idx = np.argwhere((p > 0.3) & (p < 0.95))[::stride]
    for label, xfun in (("measured x(pips)", lambda q: float(np.interp(q, xs, ys))),
                        ("x = 0.68", lambda q: 0.68), ("x = 0 (dead cube)", lambda q: 0.0)):
        same_d = same_t = 0
        err = []
        for i, j in idx:
            row = v[i, j]
            ex = {"no_double": row[0], "double_take": 2 * row[2], "double_pass": 1.0,
                  "double_beaver": math.nan}
            ex["equity"] = max(row[0], min(2 * row[2], 1.0))
            mo = model_equities(float(p[i, j]), xfun(pips[i, j]))
            ae, am = actions(ex), actions(mo)
            same_d += (ae[0] == "double") == (am[0] == "double")
            same_t += ae[1] == am[1]
            err.append(abs(ex["equity"] - mo["equity"]))
        k = len(idx)
        line(f"model {label}: same double / no double", 100 * same_d / k, "%",
             f"{k:,} races of <= {n} checkers, 0.3 < p < 0.95")
        line(f"model {label}: same take / pass", 100 * same_t / k, "%")
        line(f"model {label}: mean |cubeful equity error|", float(np.mean(err)), "",
             f"max {max(err):.3f}")


def bench_cap(n=4):
    ref = CubefulRace.build(n, "arithmetic", max_stake=64, stakes=2).values[0]
    for cap in (4, 8, 16, 32):
        v = CubefulRace.build(n, "arithmetic", max_stake=cap, stakes=2).values[0]
        print(f"arithmetic cap {cap}: max |stake-1 value - cap 64 value|, {n} checkers: "
              f"{float(np.abs(v - ref).max()):.2e}", flush=True)


def bench_functions(runs):
    """Microseconds per call of the cube model's public Python functions (the C kernel
    ``_cubemodel`` behind thin wrappers), best of ``runs`` repeats."""
    import timeit
    from nardy_fast import Position
    from nardy_fast.core.cubestate import CubeState
    from nardy_fast.engine.evaluation import cubemodel as cm
    me, you = np.zeros(24, int), np.zeros(24, int)
    me[[19, 21]], you[12] = (2, 3), 15                      # a race, 19 pips on roll
    race = Position(me, you)
    cube = CubeState(2, "mover")
    cases = {
        "cash_point, arithmetic, stake 1": lambda: cm.cash_point(1.5, 1.2, 1, "arithmetic"),
        "model_equities, geometric, beaver": lambda: cm.model_equities(
            0.7, 0.8, cube, "geometric", True),
        "model_equities, arithmetic, beaver, W = 1.5, L = 1.2": lambda: cm.model_equities(
            0.7, 0.8, cube, "arithmetic", True, wins=1.5, losses=1.2),
        "take_point, arithmetic, stake 3": lambda: cm.take_point(0.8, 3, "arithmetic"),
        "doubling_window, arithmetic": lambda: cm.doubling_window(0.8, "arithmetic"),
        "efficiency, a race": lambda: cm.efficiency(race),
        "pip_probability": lambda: cm.pip_probability(race),
    }
    for name, f in cases.items():
        n = 200 if "window" in name else 5000
        best = min(timeit.repeat(f, number=n, repeat=max(runs, 3))) / n
        line(f"cube model, {name}", best * 1e6, "us per call")


def bench_rollout(games, runs):
    """Games per CPU-second of this process (and per wall-clock second beside) of
    rollout(workers=1) from the start, greedy, truncated at the bear-off: cubeless,
    geometric cube (the cube model on the evaluator's net, the default, and on the
    pip-count estimate), arithmetic cube with beaver (medians of runs); the last run's
    equity with its standard error."""
    import nardy_fast as nf
    from nardy_fast import Position, Rules
    start = Position.initial()
    geo, ari = Rules(cube="geometric"), Rules(cube="arithmetic", beaver=True)
    for rules in (geo, ari):
        nf.rollout(start, 1296, policy="greedy", rules=rules, workers=1,
                   progress=False)                              # tables cached first
    for label, rules, source in (("cubeless", Rules(), None),
                                 ("geometric cube, net cube model", geo, None),
                                 ("geometric cube, pip-count cube model", geo, "pips"),
                                 ("arithmetic cube, beaver, net cube model", ari, None)):
        kw = {} if rules.cube is None else {"cube_probabilities": source}
        rates, walls, r = [], [], None
        for k in range(runs):
            c, t = time.process_time(), time.perf_counter()
            r = nf.rollout(start, games, policy="greedy", seed=k, rules=rules, workers=1,
                           progress=False, **kw)
            rates.append(games / (time.process_time() - c))
            walls.append(games / (time.perf_counter() - t))
        extra = "" if rules.cube is None else (
            f"doubles/game {r.extra['doubles_per_game']:.2f}, passes/game "
            f"{r.extra['passes_per_game']:.2f}, mean final stake "
            f"{r.extra['mean_final_stake']:.2f}, ")
        line(f"rollout from the start, greedy, one core, {label}", statistics.median(rates),
             "games/CPU-s", f"{statistics.median(walls):,.0f} games/s wall; equity "
             f"{r.equity:+.3f} (SE {r.se_equity:.3f}), {extra}load average "
             f"{os.getloadavg()[0]:.2f}")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--builds", type=int, nargs="*", default=[])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--efficiency", action="store_true")
    ap.add_argument("--model", action="store_true")
    ap.add_argument("--cap", action="store_true")
    ap.add_argument("--rollout", action="store_true")
    ap.add_argument("--functions", action="store_true")
    ap.add_argument("--games", type=int, default=10368)
    ap.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    for name, least in (("runs", 1), ("games", 1)):
        if getattr(args, name) < least:
            ap.error(f"--{name} {getattr(args, name)}: expected >= {least}")
    bad = [n for n in args.builds if not 1 <= n <= MAX_CHECKERS]
    if bad:
        ap.error(f"--builds {bad[0]}: expected checkers 1..{MAX_CHECKERS} (the cubeful "
                 "race tables' sizes)")
    if args.child:
        return build_child(args.child[0], int(args.child[1]))
    if args.builds:
        bench_builds(args.builds, args.runs)
    if args.efficiency:
        bench_efficiency()
    if args.model:
        bench_model()
    if args.cap:
        bench_cap()
    if args.rollout:
        bench_rollout(args.games, max(args.runs, 3))
    if args.functions:
        bench_functions(args.runs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
