"""Error rates of the cube model against cube-aware rollouts (money play, centred cube).

Positions: the decisions of ``bench_errors.py`` (seeded self-play of the shipped net, every
``--every``-th ply, all phases but races of both homes), kept where the model's cubeless
P(win) of the side on roll lies in the doubling window ``--low .. --high``, with the cube
centred at stake 1 and the classic rules with the geometric cube.

For each position, the model's decision is ``cube_decision(position)`` (the default
``method="auto"``: the exact cubeful race table where it covers the race, else Janowski's
model on the net's 0-ply P(win) with the position's cube efficiency).  The judge is
``cube_decision(position, method="rollout", n_games=--games, seed=k)``: rollouts of no
double and of double/take, both sides then playing the cube by the model, on the same
dice (common random numbers), the net at 0-ply with its default variance reduction.

Losses, per unit stake, by the judge's equities (the doubler's view):
- the doubler's: ``max(ND, min(DT, DP)) - judged(model's action)``, the action judged as
  ``ND`` for no double and ``min(DT, DP)`` for a double (the taker answers well);
- the taker's, as if doubled: ``judged(model's answer) - min(DT, DP)`` with ``DT`` for
  take and ``DP = 1`` for pass.
The judge's SE of a loss is at most ``sqrt(se_ND^2 + se_DT^2)``.

A study that resumes: one JSON file per position in ``--store`` (atomic), a rerun skips
those there.

    python benchmarks/bench_cube_errors.py [--positions 150] [--games 1296] \
        [--store cube_errors_store] [--summary]
"""
import argparse
import json
import math
import os
import time

import numpy as np

import nardy_fast as nf
from nardy_fast.engine.cube import cube_decision
from nardy_fast.engine.evaluator import Evaluator
from bench_errors import decisions, write_atomic

RULES = nf.Rules(cube="geometric")


def candidates(n, every, seed, low, high):
    """``n`` seeded positions whose model P(win) is in [low, high]."""
    ev = Evaluator.default()
    out = []
    for pos, _ in decisions(ev, 20 * n, every, seed):
        if pos.is_first_turn():
            continue
        p = cube_decision(pos, rules=RULES)["p_win"]
        if low <= p <= high:
            out.append(pos)
            if len(out) == n:
                break
    return out


def judge(k, pos, args):
    t = time.process_time()
    model = cube_decision(pos, rules=RULES)
    roll = cube_decision(pos, rules=RULES, method="rollout", n_games=args.games, seed=k,
                         workers=args.workers)
    nd, dt = roll["no_double"], roll["double_take"]
    dp = roll["double_pass"]
    answer = min(dt, dp)
    best = max(nd, answer)
    doubled = model["double_action"] != "no double"
    taken = model["take_action"] != "pass"
    return {
        "position": pos.id, "model_method": model["method"], "p_win_model": model["p_win"],
        "x": model["x"], "model_double": doubled, "model_take": taken,
        "nd": nd, "dt": dt, "dp": dp, "se_nd": roll["se_no_double"],
        "se_dt": roll["se_double_take"], "p_win_rollout": roll["p_win"],
        "doubler_loss": best - (answer if doubled else nd),
        "taker_loss": (dt if taken else dp) - answer,
        "judge_se": math.hypot(roll["se_no_double"], roll["se_double_take"]),
        "cpu_s": time.process_time() - t}


def summary(store):
    rows = [json.load(open(os.path.join(store, f))) for f in sorted(os.listdir(store))
            if f.endswith(".json")]
    if not rows:
        print("no positions rated yet")
        return
    n = len(rows)
    print(f"{n} cube decisions (model P(win) {min(r['p_win_model'] for r in rows):.2f}-"
          f"{max(r['p_win_model'] for r in rows):.2f}); judge SE of a loss: rms "
          f"{math.sqrt(np.mean([r['judge_se'] ** 2 for r in rows])):.4f}")
    for who in ("doubler", "taker"):
        loss = np.array([r[who + "_loss"] for r in rows])
        wrong = (loss > 0).mean()
        print(f"  {who}: mean loss {loss.mean():.4f} per decision (SE "
              f"{loss.std(ddof=1) / math.sqrt(n):.4f}), wrong {wrong:.0%}, losses >= 0.08: "
              f"{(loss >= 0.08).mean():.0%}")
    judged = {(True, True): "double/take", (True, False): "double/pass",
              (False, True): "no double", (False, False): "no double"}
    model = [judged[(r["model_double"], r["model_take"])] for r in rows]
    truth = []
    for r in rows:
        ans = min(r["dt"], r["dp"])
        truth.append("no double" if r["nd"] >= ans else
                     "double/take" if r["dt"] <= r["dp"] else "double/pass")
    print("  model action vs the rollouts' (rows: model):")
    for a in ("no double", "double/take", "double/pass"):
        counts = {b: sum(m == a and t == b for m, t in zip(model, truth))
                  for b in ("no double", "double/take", "double/pass")}
        print(f"    {a:12s} " + ", ".join(f"{b}: {c}" for b, c in counts.items()))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--positions", type=int, default=150)
    ap.add_argument("--games", type=int, default=1296)
    ap.add_argument("--every", type=int, default=7)
    ap.add_argument("--low", type=float, default=0.55)
    ap.add_argument("--high", type=float, default=0.95)
    ap.add_argument("--seed", type=int, default=18)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--store", default="cube_errors_store")
    ap.add_argument("--summary", action="store_true")
    args = ap.parse_args()
    os.makedirs(args.store, exist_ok=True)
    if not args.summary:
        t = time.perf_counter()
        for k, pos in enumerate(candidates(args.positions, args.every, args.seed,
                                           args.low, args.high)):
            path = os.path.join(args.store, f"{k:05d}.json")
            if not os.path.exists(path):
                write_atomic(path, judge(k, pos, args))
        print(f"rated in {time.perf_counter() - t:.0f} s", flush=True)
    summary(args.store)


if __name__ == "__main__":
    main()
