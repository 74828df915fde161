"""Rollout throughput, scaling and variance reduction.

Complete games per second on one core, per CPU second of this process (other load on a
shared machine does not count; ``--wall`` for wall-clock seconds), at C level
(``_rollout.play_blocks``: the nogil game loop) and through ``rollout(workers=1)``
(chunking, merging, results), for the random and greedy policies, from the start and from
a seeded set of middle-game positions (random games from the start, seed 12345, stopped
after 30-60 plies); then the same workload on a 2-process pool and on a Dask
``LocalCluster`` of 2 worker processes (wall clock); then what stratified rolls and
bear-off truncation gain; and OpenSpiel's backgammon random games for comparison when
``open_spiel`` is installed (``pip install open_spiel``).  Throughput figures are the
median of ``--repeats`` runs; games are played to the end (``truncate=None``) unless
stated.

    python benchmarks/bench_rollout.py [--games 20000] [--repeats 5] [--no-dask]
"""
import argparse
import os
import statistics
import time

import numpy as np

import nardy_fast as nf
from nardy_fast.core import rng as nrng
from nardy_fast.core._movegen import successors
from nardy_fast.engine.play._rollout import QUANTITIES, play_blocks
from nardy_fast.engine.play.policy import Policy
from nardy_fast.core.rules import CLASSIC

EQ = 1 + QUANTITIES.index("equity")
# Single-process figures are per CPU-second of this process (robust on a shared machine);
# --wall switches them to wall-clock seconds.  Pool and Dask figures are always wall clock.
CLOCK = time.process_time
WALL = time.perf_counter


def middle_positions(n, seed=12345):
    """n positions after 30-60 random plies from the start (side on roll first)."""
    g = np.random.default_rng(seed)
    out = []
    while len(out) < n:
        b = [np.zeros(24, np.uint8), np.zeros(24, np.uint8)]
        b[0][0] = b[1][0] = 15
        s, plies = 0, int(g.integers(30, 61))
        for _ in range(plies):
            c = successors(b[s], b[1 - s], int(g.integers(1, 7)), int(g.integers(1, 7)))
            b[s] = c[g.integers(len(c))]
            s = 1 - s
        if b[0].sum() and b[1].sum():
            out.append(nf.Position.from_boards(b[s], b[1 - s]))
    return out


def c_level(position, n_games, policy, seed=1, truncate=False, tables=None, stratify=True,
            dice=None):
    """(seconds, tally) of play_blocks over n_games in this process."""
    n_blocks = -(-n_games // nrng.BLOCK_GAMES)
    t = CLOCK()
    loop_policy = Policy.of(policy).c_form()
    tally, _ = play_blocks(position.boards, rules=CLASSIC, policies=(loop_policy, loop_policy),
                           side0_white=True, dice=dice, opening_dice=False,
                           truncate=truncate, tables=tables, entropy=seed, first_block=0,
                           n_blocks=n_blocks, n_games=n_games,
                           block_games=nrng.BLOCK_GAMES, stratify=stratify)
    return CLOCK() - t, tally


def median_rate(fn, n, repeats):
    times = [fn() for _ in range(repeats)]
    return n / statistics.median(times)


def load():
    """The 1-minute load average and core count: wall-clock scaling needs idle cores."""
    try:
        return f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores"
    except OSError:
        return "load average unknown"


def line(label, value, unit="games/s", note=""):
    print(f"{label:<64} {value:>10,.0f} {unit}{'  ' + note if note else ''}", flush=True)


def bench_single_core(args, mids, tables):
    n = args.games
    start = nf.Position.initial()
    rates = {}
    for policy in ("random", "greedy"):
        nn = n if policy == "random" else n // 4
        pm = max(1, nn // len(mids))
        tab = tables if policy == "greedy" else None
        r = median_rate(lambda: c_level(start, nn, policy, tables=tab)[0], nn, args.repeats)
        line(f"C level, {policy}, from the start", r)
        rates[policy, "start"] = r
        r = median_rate(lambda: sum(c_level(p, pm, policy, tables=tab)[0] for p in mids),
                        pm * len(mids), args.repeats)
        line(f"C level, {policy}, {len(mids)} middle-game positions", r)
        rates[policy, "mid"] = r
        r = median_rate(lambda: timed_rollout(start, nn, policy, workers=1), nn, args.repeats)
        line(f"rollout(workers=1), {policy}, from the start", r)
    return rates


def timed_rollout(position, n, policy, clock=None, **kw):
    clock = clock or CLOCK
    t = clock()
    nf.rollout(position, n, policy=policy, seed=1, truncate=kw.pop("truncate", None),
               progress=False, **kw)
    return clock() - t


def bench_scaling(args):
    start = nf.Position.initial()
    n = 2 * args.games
    timed_rollout(start, 4 * nrng.BLOCK_GAMES, "random", workers=2)     # start the pool
    one = median_rate(lambda: timed_rollout(start, n, "random", WALL, workers=1), n,
                      args.repeats)
    two = median_rate(lambda: timed_rollout(start, n, "random", WALL, workers=2,
                                            chunk_size=2 * nrng.BLOCK_GAMES), n, args.repeats)
    line("rollout, random, 1 process (wall clock)", one)
    line("rollout, random, 2-process pool, already started (wall clock)", two,
         note=f"speed-up {two / one:.2f}x; {load()}")
    ng = n // 4
    one_g = median_rate(lambda: timed_rollout(start, ng, "greedy", WALL, workers=1), ng,
                        args.repeats)
    two_g = median_rate(lambda: timed_rollout(start, ng, "greedy", WALL, workers=2,
                                              chunk_size=nrng.BLOCK_GAMES), ng, args.repeats)
    line("rollout, greedy, 1 process (wall clock)", one_g)
    line("rollout, greedy, 2-process pool (wall clock)", two_g,
         note=f"speed-up {two_g / one_g:.2f}x; {load()}")
    return one, two


def bench_dask(args, one):
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        print("dask: distributed not installed, skipped")
        return
    start = nf.Position.initial()
    n = 2 * args.games
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                      dashboard_address=None) as cluster, Client(cluster) as client:
        timed_rollout(start, 2 * nrng.BLOCK_GAMES, "random", WALL, client=client)  # warm up
        r = median_rate(lambda: timed_rollout(start, n, "random", WALL, client=client,
                                              chunk_size=2 * nrng.BLOCK_GAMES),
                        n, args.repeats)
        line("rollout, random, Dask LocalCluster, 2 worker processes (wall)", r,
             note=f"{r / one:.2f}x one process; {load()}")


def variance_per_game(tally):
    """Per-game variance of the equity estimate implied by the tally's total."""
    cnt = tally[..., 0].sum()
    s = tally[..., EQ].sum()
    q = tally[..., EQ + len(QUANTITIES)].sum()
    return (q - s * s / cnt) / (cnt - 1), s / cnt


def race_positions(n, seed=54321):
    """n positions of random games at the first ply without contact (a pure race), not yet
    a race of both homes."""
    g = np.random.default_rng(seed)
    out = []
    while len(out) < n:
        b = [np.zeros(24, np.uint8), np.zeros(24, np.uint8)]
        b[0][0] = b[1][0] = 15
        s = 0
        while b[0].sum() and b[1].sum():
            p = nf.Position.from_boards(b[s], b[1 - s])
            if not p.is_contact():
                if not p.is_bearoff():
                    out.append(p)
                break
            c = successors(b[s], b[1 - s], int(g.integers(1, 7)), int(g.integers(1, 7)))
            b[s] = c[g.integers(len(c))]
            s = 1 - s
    return out


def bench_variance(args, mids, tables):
    """Stratification: the in-run ratio of plain to within-stratum variance (first roll),
    and the spread of estimates over independent seeds with and without stratification.
    Truncation: per-game variance and games/s with and without it (greedy)."""
    p0 = nf.Position.initial()
    after = p0.play(p0.legal_moves((6, 5))[0])        # a move decision: Black on roll
    races = race_positions(4)
    trunc = "bearoff" if tables is not None else None
    for label, pos in [("start", p0), ("after the opening 6-5, Black on roll", after),
                       ("middle game #0", mids[0]), ("race #0", races[0])]:
        for policy in ("random", "greedy"):
            r = nf.rollout(pos, 36 * 200, policy=policy, seed=7, truncate=trunc, workers=1,
                           progress=False)
            print(f"stratified first roll, {policy}, {label}: in-run variance ratio "
                  f"{r.extra['variance_reduction_equity']:.2f}x (se_equity "
                  f"{r.extra['se_equity_unstratified']:.4f} -> {r.se_equity:.4f})", flush=True)
    k, n = args.seeds, 36 * 20
    for policy in ("random", "greedy"):
        tab = tables if policy == "greedy" else None
        est = {strat: [variance_per_game(c_level(after, n, policy, seed=s + 1, tables=tab,
                                                 stratify=strat)[1])[1] for s in range(k)]
               for strat in (True, False)}
        v_s, v_n = np.var(est[True], ddof=1), np.var(est[False], ddof=1)
        band = np.exp(1.96 * np.sqrt(4.0 / (k - 1)))   # ratio of two variances, no effect
        print(f"stratified first two rolls, {policy}, after the opening 6-5: variance of the "
              f"equity estimate over {k} seeds x {n} games {v_n / v_s:.2f}x smaller "
              f"(sd {np.sqrt(v_n):.4f} -> {np.sqrt(v_s):.4f}; no-effect 95% band "
              f"{1 / band:.2f}-{band:.2f})", flush=True)
    if tables is None:
        print("truncation: nardy_fast.tables.bearoff not available, skipped")
        return
    for label, ps in [(f"{len(mids)} middle-game positions", mids),
                      (f"{len(races)} race positions", races)]:
        pm = max(500, args.games // 20)          # games per position
        tot = {}
        for tr in (False, True):
            t = CLOCK()
            vs = [variance_per_game(c_level(p, pm, "greedy", tables=tables, truncate=tr)[1])[0]
                  for p in ps]
            tot[tr] = (CLOCK() - t, float(np.mean(vs)))
        speed = tot[False][0] / tot[True][0]
        vr = tot[False][1] / tot[True][1]
        print(f"bear-off truncation, greedy, {label}: per-game variance of the equity "
              f"{vr:.2f}x smaller, games/s {speed:.2f}x higher: {vr * speed:.2f}x fewer "
              "CPU seconds for the same standard error", flush=True)


def bench_openspiel(args, c_random_start):
    try:
        import pyspiel
    except ImportError:
        print("OpenSpiel: open_spiel not installed (pip install open_spiel), skipped")
        return
    game = pyspiel.load_game("backgammon")
    g = np.random.default_rng(1)

    def play(n):
        t = CLOCK()
        for _ in range(n):
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    outcomes, probs = zip(*state.chance_outcomes())
                    state.apply_action(outcomes[g.choice(len(outcomes), p=probs)])
                else:
                    acts = state.legal_actions()
                    state.apply_action(acts[g.integers(len(acts))])
        return CLOCK() - t

    n = args.openspiel_games
    r = median_rate(lambda: play(n), n, max(1, args.repeats // 2))
    line("OpenSpiel backgammon, random games (Python-driven)", r,
         note=f"nardy_fast C level random from the start is {c_random_start / r:,.0f}x")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20000, help="games per random-policy run")
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--mids", type=int, default=8, help="middle-game positions")
    ap.add_argument("--seeds", type=int, default=30, help="seeds for the variance study")
    ap.add_argument("--openspiel-games", type=int, default=200)
    ap.add_argument("--no-dask", action="store_true")
    ap.add_argument("--wall", action="store_true",
                    help="single-process figures per wall-clock second, not CPU second")
    args = ap.parse_args()
    for name, least, why in (("games", 4, " (greedy runs play a quarter of them)"),
                             ("repeats", 1, ""), ("mids", 1, ""),
                             ("seeds", 2, " (the variance study's spread between seeds)"),
                             ("openspiel_games", 1, "")):
        if getattr(args, name) < least:
            ap.error(f"--{name.replace('_', '-')} {getattr(args, name)}: expected >= "
                     f"{least}{why}")
    global CLOCK
    if args.wall:
        CLOCK = time.perf_counter

    try:
        from nardy_fast.engine.play.rollout import _bearoff_tables
        tables = _bearoff_tables()
    except ValueError:
        tables = None
    mids = middle_positions(args.mids)
    print(f"nardy_fast {nf.__version__}; block {nrng.BLOCK_GAMES} games; "
          f"bear-off databases {'loaded' if tables is not None else 'unavailable'}; "
          f"median of {args.repeats} runs; greedy runs use a quarter of the games; "
          f"single-process figures per {'wall' if args.wall else 'CPU'} second")
    rates = bench_single_core(args, mids, tables)
    one, _ = bench_scaling(args)
    if not args.no_dask:
        bench_dask(args, one)
    bench_variance(args, mids, tables)
    bench_openspiel(args, rates["random", "start"])


if __name__ == "__main__":
    main()
