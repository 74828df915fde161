"""The race database of races without contact (``nardy_fast.race12``): checks and errors.

    python benchmarks/bench_race12.py --check            # against the 6-point database
    python benchmarks/bench_race12.py --convolution 20000 --seed 1
    python benchmarks/bench_race12.py --races 1000 --games 2592 --seed 1 --out races.csv

``--check``: every board with all checkers home against ``bearoff.one_sided()`` (CDF and
mean turns), and the file's size.  ``--convolution``: the one-sided convolution against the
exact two-sided table on seeded pairs of home boards of at most 8 checkers (the error of
the method itself, where an exact value exists).  ``--races``: a seeded set of races
without contact (15 checkers a side on points 13-24, not both home, pip counts within 12)
rolled out by the net (0-ply, games played out to the race of both homes and truncated
there with the exact tables): P(win) error of the net and of the database's convolution
against the rollouts.  Results are appended to ``--out`` one race a line, each with the
``--games`` and ``--seed`` it was rolled out with, and a rerun resumes from it: with other
``--games`` or ``--seed`` it is refused, naming each (``--races`` may grow).  Needs the
database built (``nardy-fast bearoff build --race12``).
"""
from __future__ import annotations

import argparse
import csv
import os
import time

import numpy as np

import nardy_fast as nf
from nardy_fast._utils._settings import setting_differences
from nardy_fast.tables import bearoff, race12
from nardy_fast.tables.race import race_probabilities


def check(db):
    one = bearoff.one_sided()
    worst_cdf = worst_mean = 0.0
    for i in range(one.n_boards):
        c = np.zeros(12, np.uint8)
        c[:6] = one.board_of(i)
        want = np.cumsum(one.turns[i])
        got = np.cumsum(db.distribution(c))
        k = min(len(want), len(got))
        worst_cdf = max(worst_cdf, float(np.abs(got[:k] - want[:k]).max()),
                        float(np.abs(1.0 - got[k:]).max(initial=0.0)),
                        float(np.abs(1.0 - want[k:]).max(initial=0.0)))
        worst_mean = max(worst_mean, abs(db.mean_turns(c) - one.mean[i]) / one.mean[i]
                         if one.mean[i] else 0.0)
    size = os.path.getsize(db.path) if db.path else 0
    print(f"{one.n_boards} boards all home: worst CDF difference {worst_cdf:.2e} "
          f"(quantum 1/65535 = {1 / 65535:.2e}), worst relative mean {worst_mean:.1e}")
    print(f"file {db.path}: {size / 1e9:.2f} GB, {db.n_boards:,} boards, "
          f"{sum(db.arrays[d + '_cdf'].size for d in race12.DISTS) / db.n_boards:.1f} "
          f"CDF entries per board")


def home_side(rng, n_max):
    b = np.zeros(24, np.uint8)
    np.add.at(b, rng.integers(18, 24, int(rng.integers(1, n_max + 1))), 1)
    return b


def convolution(db, n, seed):
    rng = np.random.default_rng(seed)
    two, one = bearoff.two_sided(), bearoff.one_sided()
    e12, e1 = [], []
    for _ in range(n):
        pos = nf.Position.from_boards(home_side(rng, 8), home_side(rng, 8), "white")
        exact = race_probabilities(pos, tables=two).p_win
        e12.append(race12.race12_probabilities(pos, tables=db).p_win - exact)
        e1.append(race_probabilities(pos, tables=one).p_win - exact)
    for name, e in (("one_sided12 (quantised file)", e12), ("one_sided (float64)", e1)):
        e = np.abs(e)
        print(f"{name} vs two_sided, {n} pairs <= 8 checkers: mean |error| {e.mean():.5f}, "
              f"worst {e.max():.5f}")


def race_side(rng):
    b = np.zeros(24, np.uint8)
    np.add.at(b, rng.integers(12, 24, 15), 1)
    return b


def race_set(n, seed):
    """n seeded races without contact, not both home, pips within 12."""
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < n:
        a, b = race_side(rng), race_side(rng)
        pos = nf.Position.from_boards(a, b, "white")
        if (a[:18].any() or b[:18].any()) and abs(pos.pips[0] - pos.pips[1]) <= 12:
            out.append(pos)
    return out


FIELDS = ["id", "pips_on_roll", "pips_other", "net", "one_sided12", "rollout", "se",
          "games", "seed"]
SETTINGS = ("games", "seed")          # what a race's rollout depends on (--games, --seed)


def out_differences(out, games, seed):
    """The settings of this run that differ from those the races in ``out`` were rolled
    out with, described.  A file made before its lines kept them is not checked."""
    if not os.path.exists(out):
        return []
    with open(out, newline="") as f:
        first = next(csv.DictReader(f), None)
    if first is None or any(k not in first for k in SETTINGS):
        return []
    return setting_differences({f"--{k}": int(first[k]) for k in SETTINGS},
                               {"--games": games, "--seed": seed},
                               recorded_as="in the file", wanted_as="now")


def races(db, n, games, seed, out):
    done, header = {}, None
    if os.path.exists(out):
        with open(out) as f:
            reader = csv.DictReader(f)
            done = {row["id"]: row for row in reader}
            header = reader.fieldnames               # a file made before: its own columns
    net = nf.Evaluator(nf.Evaluator.default().net, exact=False)
    fields, new = header or FIELDS, header is None
    t0 = time.perf_counter()
    with open(out, "a", newline="") as f:
        w = csv.DictWriter(f, fieldnames=fields, extrasaction="ignore")
        if new:
            w.writeheader()
        for k, pos in enumerate(race_set(n, seed)):
            if pos.id in done:
                continue
            r = nf.rollout(pos, games, seed=seed * 100000 + k, truncate="bearoff",
                           workers=1, progress=False)
            w.writerow({"id": pos.id, "pips_on_roll": pos.pips[0], "pips_other": pos.pips[1],
                        "net": net.evaluate(pos).p_win,
                        "one_sided12": race12.race12_probabilities(pos, tables=db).p_win,
                        "rollout": r.p_win, "se": r.se_p_win, "games": games,
                        "seed": seed})
            f.flush()
            if k % 20 == 0:
                print(f"{k + 1}/{n} races, {time.perf_counter() - t0:.0f} s", flush=True)
    summary(out)


def summary(out):
    with open(out) as f:
        rows = list(csv.DictReader(f))
    roll = np.array([float(r["rollout"]) for r in rows])
    se = np.array([float(r["se"]) for r in rows])
    print(f"{len(rows)} races, rollout SE per race: mean {se.mean():.4f}")
    for name in ("net", "one_sided12"):
        e = np.array([float(r[name]) for r in rows]) - roll
        print(f"{name:12s} P(win) - rollout: mean |error| {np.abs(e).mean():.4f}, worst "
              f"{np.abs(e).max():.4f}, mean {e.mean():+.4f}, RMS {np.sqrt((e ** 2).mean()):.4f}"
              f" (RMS net of rollout noise {np.sqrt(max(0.0, (e ** 2).mean() - (se ** 2).mean())):.4f})")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--convolution", type=int, default=0, metavar="PAIRS")
    ap.add_argument("--races", type=int, default=0)
    ap.add_argument("--games", type=int, default=2592)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", default="race12_races.csv")
    args = ap.parse_args()
    for name, least in (("convolution", 0), ("races", 0), ("games", 1), ("seed", 0)):
        if getattr(args, name) < least:
            ap.error(f"--{name} {getattr(args, name)}: expected >= {least}")
    if not (args.check or args.convolution or args.races):
        ap.error("nothing to do: give --check, --convolution PAIRS or --races N")
    differ = out_differences(args.out, args.games, args.seed) if args.races else []
    if differ:
        ap.error(f"--out {args.out}: races rolled out with other settings ("
                 + "; ".join(differ) + "); give the file's settings, or another --out to "
                 "start afresh")
    db = race12.race12()
    if db is None:
        raise SystemExit("build the database first: nardy-fast bearoff build --race12")
    if args.check:
        check(db)
    if args.convolution:
        convolution(db, args.convolution, args.seed)
    if args.races:
        races(db, args.races, args.games, args.seed, args.out)


if __name__ == "__main__":
    main()
