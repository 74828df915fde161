"""Bulk studies (``nardy_fast.analysis.study``): positions per hour, time to resume after a kill.

The issue's measure is a 10,000-position study at 1,296 net-played games each; that is
hours of CPU on this machine, so this script measures a reduced study of ``--positions``
positions (contact positions from net self-play: plies 20, 30, ..., 60 of seeded games)
in this process (``workers=1``: CPU seconds of this process, robust on a shared machine)
and extrapolates linearly, saying so.  Then it kills a study with SIGKILL after a few
batches (a child process), resumes it and reports the time from the restart until the
study is back at work, the positions lost, and whether every number equals the
uninterrupted study's (a study of fewer than ``KILL_AFTER`` batches of 2 finishes before
the kill: said so); and the time to resume (read and check) a finished store of
``--store-size`` evaluated positions.  Interrupted (Ctrl-C), it prints no figure of the
study it stopped.

    python benchmarks/bench_study.py [--positions 200] [--games 1296] [--kill 24]
"""
import argparse
import importlib
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import warnings

import numpy as np

import nardy_fast as nf
from nardy_fast.training import _selfplay
from nardy_fast.engine.evaluation.evaluator import Evaluator
from nardy_fast.core.record import random_game
from nardy_fast.core.rng import block_bit_generator
from nardy_fast.core.rules import CLASSIC
from nardy_fast.training.train import training_tables

study_mod = importlib.import_module("nardy_fast.analysis.study")
SEED = 2026
KILL_AFTER = 4                 # the killed study's batches stored before the kill


def run_study(ids, games, store, **kw):
    """``nf.study`` of every position of ``ids``, or SystemExit if it was interrupted (the
    study keeps what it finished and returns it: no figure of this script holds then, and
    its store is in a temporary folder removed on the way out)."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", "study interrupted", RuntimeWarning)
        frame = nf.study(ids, games, store=store, workers=1, progress=False, **kw)
    if len(frame) < len(ids):
        sys.exit(f"bench_study.py: interrupted: {len(frame)} of {len(ids)} positions of "
                 "the study done; no figures")
    return frame


def selfplay_positions(n, seed=7):
    """IDs of ``n`` distinct positions at plies 20, 30, ..., 60 of self-play games of the
    rollout player (the net that plays the studies' games; the set stays the same when
    only the judge changes), not both sides home (White on roll: the self-play boards are
    side-on-roll first)."""
    ev = Evaluator.default().rollout_evaluator()
    start = np.asarray(nf.Position.initial().boards)
    out, g = [], 0
    while len(out) < n:
        pos, _, _, _ = _selfplay.play_games(ev.net, start, rules=CLASSIC,
                                            tables=training_tables(),
                                            bitgens=[block_bit_generator(seed, g)])
        g += 1
        for p in pos[20:61:10]:
            pid = nf.Position.from_boards(p[0], p[1]).id
            if p[:, :18].any() and pid not in out:
                out.append(pid)
    return out[:n]


def main_study(ids, games, folder):
    store = os.path.join(folder, "main")
    t, c = time.perf_counter(), time.process_time()
    frame = run_study(ids, games, store, seed=SEED)
    wall, cpu = time.perf_counter() - t, time.process_time() - c
    per_hour = len(ids) / cpu * 3600
    print(f"study of {len(ids)} positions x {games} games, net 0-ply, workers=1: "
          f"{wall:.1f} s wall, {cpu:.1f} s CPU")
    print(f"  {per_hour:,.0f} positions per CPU-hour ({len(ids) * games / cpu:,.0f} games "
          f"per CPU-second); mean SE of the equity {frame['se_equity'].mean():.4f}")
    hours = 10_000 / per_hour
    print(f"  extrapolated (linear, not measured): 10,000 positions x {games} games = "
          f"{hours:.1f} CPU-hours, {hours / 2:.1f} h on 2 idle cores")
    return frame


def killed_study(ids, games, folder, reference):
    """Kill a study after a few batches, resume it, compare with the reference rows."""
    store = os.path.join(folder, "killed")
    script = (f"import nardy_fast as nf\n"
              f"nf.study({ids!r}, {games}, store={store!r}, seed={SEED}, workers=1, "
              f"batch_size=2, progress=False)\n")
    proc = subprocess.Popen([sys.executable, "-c", script])
    try:
        while (not (os.path.isdir(store) and len(_parts(store)) >= KILL_AFTER)
               and proc.poll() is None):
            time.sleep(0.02)
    finally:                           # also when this script is stopped meanwhile
        if proc.poll() is None:
            os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
    kept = len(nf.read_study(store))
    first = {}
    run = study_mod._run_batch

    def timed(spec):                   # notes when the resumed study is back at work
        first.setdefault("t", time.perf_counter())
        return run(spec)

    study_mod._run_batch = timed
    t = time.perf_counter()
    try:
        frame = run_study(ids, games, store, seed=SEED)
    finally:
        study_mod._run_batch = run
    total = time.perf_counter() - t
    same = frame.equals(reference.loc[ids])
    back = f"{first['t'] - t:.2f} s" if first else "- (nothing left)"
    if kept == len(ids):
        print(f"not killed: the study of {len(ids)} positions finished before the kill "
              f"(after {KILL_AFTER} batches of 2: --kill {2 * KILL_AFTER + 2} or more); "
              f"run again: {total:.1f} s; identical to the uninterrupted study: {same}")
        return same
    print(f"killed (SIGKILL) after {kept} of {len(ids)} positions were stored (batches of "
          f"2: at most 2 in flight lost); resumed: back at work after {back}, finished in "
          f"{total:.1f} s; identical to the uninterrupted study: {same}")
    return same


def _parts(store):
    return [f for f in os.listdir(store) if f.endswith(".parquet") and f[0] != "."]


def resume_large(n, folder):
    """A finished store of ``n`` evaluated positions: time to resume (read + check)."""
    ids, k = {}, 0
    while len(ids) < n:
        ids.update((p.id, None) for p in random_game(seed=k, max_turns=300).positions()[2::2]
                   if not p.is_over())
        k += 1
    ids = list(ids)[:n]
    store = os.path.join(folder, "large")
    run_study(ids, 0, store, method="net")
    times = []
    for _ in range(3):
        t = time.perf_counter()
        run_study(ids, 0, store, method="net")
        times.append(time.perf_counter() - t)
    t = time.perf_counter()
    frame = nf.read_study(store)
    read = time.perf_counter() - t
    print(f"finished store of {len(frame):,} positions ({len(_parts(store))} files): "
          f"resume (all done) {sorted(times)[1]:.2f} s (median of 3), read_study {read:.2f} s")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=200)
    ap.add_argument("--games", type=int, default=1296)
    ap.add_argument("--kill", type=int, default=24, help="positions of the killed study")
    ap.add_argument("--store-size", type=int, default=10_000)
    args = ap.parse_args()
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    ids = selfplay_positions(args.positions)
    folder = tempfile.mkdtemp(prefix="bench_study.")
    try:
        reference = main_study(ids, args.games, folder)
        killed_study(ids[:args.kill], args.games, folder, reference)
        resume_large(args.store_size, folder)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
