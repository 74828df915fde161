"""Error rates of the players against net rollouts, on decisions from net self-play.

Decisions: positions with more than one legal result met in seeded self-play games of
the shipped net (every ``--every``-th ply, all phases but races of both homes), each with
a seeded roll.  For each decision the candidates are the best ``--top`` moves at 2-ply
and the choice of every tested player (``greedy``, net 0-, 1-, 2-ply, and 3-ply on every
``--every3``-th decision); each candidate's resulting position is rolled out by the net at
0-ply (``--games`` games, truncated at the bear-off, the first two rolls stratified, the
same seed for every candidate of a decision: common random numbers, so the differences
between candidates, which is what a loss is, carry much less noise than each equity).

A player's loss on a decision is the best rolled-out equity minus its choice's; the
figures are the mean loss per decision (points; its SE from the spread over decisions),
the share of blunders (loss >= 0.16), and the judge's own SE per decision:
``sqrt(se_best^2 + se_choice^2)``, an upper bound (common random numbers make the
covariance positive).  The time each player took per decision is kept too.

It is a study that resumes: every decision is written to ``--store`` (one JSON file per
decision, written under a temporary name and renamed), and a rerun skips the decisions
already there, so a killed run loses at most the decision in flight.  The store keeps the
settings that judge a decision (``settings.json``: ``--games``, ``--seed``, ``--top``,
``--every``, ``--every3``); a rerun with other settings is refused naming each, so that a
store never mixes decisions judged differently (``--decisions`` may grow).

``--extend NET --label L`` rates another net on the same decisions with the same judge:
its 0-, 1- and 2-ply choices are added to each stored decision as ``L 0-ply`` ...,
and only the candidates not rolled out yet are (same seed and games, so the equities of
the others are reused exactly: ``--games`` and ``--seed`` must be the store's).

    python benchmarks/bench_errors.py [--decisions 300] [--games 1296] [--workers 2]
        [--store errors_store] [--every3 5] [--summary]
"""
import argparse
import json
import math
import os
import time

import numpy as np

import nardy_fast as nf
from nardy_fast._utils._settings import setting_differences
from nardy_fast.training import _selfplay
from nardy_fast.analysis.report import MARKS
from nardy_fast.engine.play._policies import greedy_scores
from nardy_fast.engine.evaluation.evaluator import Evaluator
from nardy_fast.core.rng import block_bit_generator
from nardy_fast.core.rules import CLASSIC
from nardy_fast.training.train import training_tables

BLUNDER = dict(MARKS)["blunder"]          # the analysis' own mark (points lost)
PLAYERS = ("greedy", "0-ply", "1-ply", "2-ply", "3-ply")
SETTINGS = "settings.json"                # the store's settings, beside its decisions
JUDGED_BY = ("games", "seed", "top", "every", "every3")   # what a stored decision depends on


def decisions(ev, n, every, seed):
    """``n`` seeded (position, dice) decisions with more than one legal result."""
    start = np.asarray(nf.Position.initial().boards)
    rng = np.random.default_rng(seed)
    out, g = [], 0
    while len(out) < n:
        pos, *_ = _selfplay.play_games(ev.net, start, rules=CLASSIC, tables=training_tables(),
                                       bitgens=[block_bit_generator(seed, g)])
        g += 1
        for b in pos[rng.integers(every):: every]:
            dice = tuple(int(d) for d in rng.integers(1, 7, 2))
            if len(nf.successors(b[0], b[1], *dice)) > 1 and len(out) < n:
                out.append((nf.Position.from_boards(b[0], b[1]), dice))
    return out


def choices(ev, pos, dice, with3):
    """Each player's chosen position (ID after the move), its seconds, and the 2-ply hint."""
    moves = pos.legal_moves(dice)
    boards = [np.array(m.board, np.uint8) for m in moves]
    g = greedy_scores(np.stack(boards), pos.opponent)
    order = sorted(range(len(moves)), key=lambda i: (-g[i], bytes(boards[i])))
    chosen, secs, hint2 = {"greedy": pos.play(moves[order[0]]).id}, {}, None
    for p in (0, 1, 2, 3) if with3 else (0, 1, 2):
        t = time.process_time()
        h = ev.hint(pos, dice, plies=p)
        secs[f"{p}-ply"] = time.process_time() - t
        chosen[f"{p}-ply"] = h["position"].iloc[0]
        if p == 2:
            hint2 = h
    return chosen, secs, hint2


def judge(k, pos, dice, ev, args):
    """The record of decision ``k``: choices, candidates' rolled-out equities (mover's
    view) and SEs."""
    chosen, secs, hint2 = choices(ev, pos, dice, args.every3 and k % args.every3 == 0)
    cands = sorted(set(hint2["position"].iloc[:args.top]) | set(chosen.values()))
    frame = nf.rollout_many(cands, args.games, policy="net", seed=args.seed + k,
                            workers=args.workers, progress=False)
    return dict(k=k, position=pos.id, dice=list(dice), chosen=chosen, seconds=secs,
                equity={c: -float(frame.loc[c, "equity"]) for c in cands},
                se={c: float(frame.loc[c, "se_equity"]) for c in cands})


def _decision_files(store):
    return [f for f in sorted(os.listdir(store))
            if f.startswith("decision_") and f.endswith(".json")]


def store_differences(store, args):
    """This run's settings that differ from those ``store`` was made with (the rollouts of
    ``--extend`` only depend on ``--games`` and ``--seed``), described; a new store
    records this run's.  A store made before its settings were kept is not checked."""
    keys = ("games", "seed") if args.extend else JUDGED_BY
    wanted = {k: getattr(args, k) for k in JUDGED_BY}
    path = os.path.join(store, SETTINGS)
    if os.path.exists(path):
        with open(path) as f:
            recorded = json.load(f)
        return setting_differences({f"--{k}": recorded.get(k) for k in keys},
                                   {f"--{k}": wanted[k] for k in keys},
                                   recorded_as="in the store", wanted_as="now")
    if not _decision_files(store) and not args.extend:
        write_atomic(path, wanted)
    return []


def extend(store, net_path, label, args):
    """Add another net's choices (``label`` 0/1/2-ply) to every decision in ``store``."""
    ev = Evaluator.load(net_path)
    for f in _decision_files(store):
        path = os.path.join(store, f)
        r = json.load(open(path))
        if f"{label} 2-ply" in r["chosen"]:
            continue
        pos, dice = nf.Position.from_id(r["position"]), tuple(r["dice"])
        for p in (0, 1, 2):
            t = time.process_time()
            r["chosen"][f"{label} {p}-ply"] = ev.hint(pos, dice, plies=p)["position"].iloc[0]
            r["seconds"][f"{label} {p}-ply"] = time.process_time() - t
        new = sorted(set(r["chosen"].values()) - set(r["equity"]))
        if new:
            frame = nf.rollout_many(new, args.games, policy="net", seed=args.seed + r["k"],
                                    workers=args.workers, progress=False)
            for c in new:
                r["equity"][c] = -float(frame.loc[c, "equity"])
                r["se"][c] = float(frame.loc[c, "se_equity"])
        write_atomic(path, r)


def write_atomic(path, obj):
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(obj, f)
    os.replace(tmp, path)


def summary(store):
    recs = [json.load(open(os.path.join(store, f))) for f in _decision_files(store)]
    print(f"{len(recs)} decisions judged ({store})")
    loss = {}
    players = list(PLAYERS) + sorted({p for r in recs for p in r["chosen"]} - set(PLAYERS))
    for p in players:
        rows = []
        for r in recs:
            if p not in r["chosen"]:
                continue
            best = max(r["equity"], key=r["equity"].get)
            c = r["chosen"][p]
            rows.append((r["k"], r["equity"][best] - r["equity"][c],
                         math.hypot(r["se"][best], r["se"][c]) if c != best else 0.0,
                         r["seconds"].get(p, math.nan)))
        if not rows:
            continue
        a = np.array(rows)
        loss[p] = dict(zip(a[:, 0].astype(int), a[:, 1]))
        se = a[:, 1].std(ddof=1) / math.sqrt(len(a))
        missed = a[:, 2] > 0                      # the choice is not the rolled-out best
        judge_se = f"{np.sqrt(np.mean(a[missed, 2] ** 2)):.4f}" if missed.any() else "-"
        secs = f"{np.median(a[:, 3]):.3f} s" if not np.isnan(a[:, 3]).any() else "-"
        print(f"{p:>7}: {a[:, 1].mean():.4f} points lost per decision (SE {se:.4f}, 95% CI "
              f"{a[:, 1].mean() - 1.96 * se:.4f}..{a[:, 1].mean() + 1.96 * se:.4f}), "
              f"blunders {100 * (a[:, 1] >= BLUNDER).mean():.1f}%, best move missed in "
              f"{100 * missed.mean():.0f}%, judge SE of those losses <= {judge_se} (rms), "
              f"median time per decision {secs} ({len(a)} decisions)")
    labels = sorted({p.rsplit(" ", 1)[0] for p in players if " " in p})
    pairs = [("1-ply", "2-ply"), ("0-ply", "1-ply"), ("2-ply", "3-ply")] + [
        (d, f"{lb} {d}") for lb in labels for d in ("0-ply", "1-ply", "2-ply")]
    for a, b in pairs:
        if a in loss and b in loss:
            ks = sorted(set(loss[a]) & set(loss[b]))
            d = np.array([loss[a][k] - loss[b][k] for k in ks])
            print(f"{a} - {b} on the same {len(ks)} decisions: {d.mean():+.4f} "
                  f"(SE {d.std(ddof=1) / math.sqrt(len(d)):.4f})")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--decisions", type=int, default=300)
    ap.add_argument("--games", type=int, default=1296)
    ap.add_argument("--top", type=int, default=3)
    ap.add_argument("--every", type=int, default=7)
    ap.add_argument("--every3", type=int, default=5, help="3-ply on every n-th decision (0: never)")
    ap.add_argument("--workers", type=int, default=None)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--store", default="errors_store")
    ap.add_argument("--summary", action="store_true", help="only print the summary")
    ap.add_argument("--extend", default=None, metavar="NET",
                    help="rate this net file too, on the stored decisions")
    ap.add_argument("--label", default="new", help="name of the --extend net's players")
    args = ap.parse_args()
    os.makedirs(args.store, exist_ok=True)
    differ = store_differences(args.store, args) if args.extend or not args.summary else []
    if differ:
        ap.error(f"--store {args.store}: made with other settings (" + "; ".join(differ)
                 + "); give the store's settings, or another --store to start afresh")
    if args.extend:
        extend(args.store, args.extend, args.label, args)
    elif not args.summary:
        ev = Evaluator.default()
        t0 = time.perf_counter()
        for k, (pos, dice) in enumerate(decisions(ev, args.decisions, args.every, args.seed)):
            path = os.path.join(args.store, f"decision_{k:05d}.json")
            if os.path.exists(path):
                continue
            write_atomic(path, judge(k, pos, dice, ev, args))
            print(f"  decision {k + 1}/{args.decisions}, {time.perf_counter() - t0:.0f} s",
                  flush=True)
    summary(args.store)


if __name__ == "__main__":
    main()
