"""Error rates of the cube model against cube-aware rollouts (money play, centred cube).

Positions: the decisions of ``bench_errors.py`` (seeded self-play of the shipped net, every
``--every``-th ply, all phases but races of both homes), kept where the model's cubeless
P(win) of the side on roll at 0-ply (``cube_decision(position, plies=0)``, so that the
set of positions does not move with the cube's default depth) lies in the doubling
window ``--low .. --high``, with the cube centred at stake 1 and the classic rules with
the geometric cube.

For each position, the model's decision is ``cube_decision(position)`` (the default
``method="auto"``: the exact cubeful race table where it covers the race, else Janowski's
model on the net's P(win) at ``cube.CUBE_PLIES`` plies, 2, with the position's cube
efficiency; stores made before that default were at 0-ply: ``--summary --model-plies
2`` re-rates them).  The judge is
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
those there.  The store keeps the settings that choose and judge its positions
(``settings.json``: ``--games``, ``--seed``, ``--every``, ``--low``, ``--high``,
``--play-x``); a rerun with other settings is refused naming each, so that a store never
mixes positions judged differently (``--positions`` may grow).

``--summary --points OIN MARS KOKS HOME_MARS`` also judges, against the same stored
rollouts, the model as it would decide if a game with the cube scored each kind of win at
these points per stake (``cubemodel.win_loss_values`` of the net's 0-ply outcome
distribution: ``W`` and ``L`` of GNU Backgammon's form for gammons).  The rule book scores
the stake whatever the kind with the cube, and so do the rollouts that judge, so this is
the counterfactual of a mars-aware cube in the game as it is played.  ``--summary
--x-contact X`` likewise judges the model with the contact efficiency ``X`` instead of
``cubemodel.CONTACT_EFFICIENCY`` (from the stored model P(win); a diagnostic: the judge's
games still play the cube with the shipped value).  ``--play-x X`` plays and judges with
the contact efficiency ``X`` (the model's and the judge's cube-aware rollouts both: the
experiment the diagnostic calls for); use a store of its own.  ``--summary --model-plies
N`` judges the model deciding on the shipped net's ``N``-ply outcome distribution
(``cube_decision(..., plies=N)``) instead of its 0-ply one (a diagnostic too: the judge's
games still decide at 0-ply), and ``--model-net NET`` on another net's
(``cube_probabilities=lambda p: ev.evaluate(p, plies=N)``; e.g. the net shipped before,
against the same judge).

    python benchmarks/bench_cube_errors.py [--positions 150] [--games 1296] \
        [--store cube_errors_store] [--summary [--and-store STORE ...] [--points 1 2 2 2]]
"""
import argparse
import json
import math
import os
import time

import numpy as np

import nardy_fast as nf
from nardy_fast._utils._settings import setting_differences
from nardy_fast.engine.evaluation import cubemodel
from nardy_fast.engine.decisions.cube import cube_decision
from nardy_fast.engine.evaluation.evaluator import Evaluator
from bench_errors import decisions, write_atomic

RULES = nf.Rules(cube="geometric")
SETTINGS = "settings.json"                # the store's settings, beside its positions
JUDGED_BY = ("games", "seed", "every", "low", "high", "play_x")


def candidates(n, every, seed, low, high):
    """``n`` seeded positions whose model P(win) is in [low, high]."""
    ev = Evaluator.default()
    out = []
    for pos, _ in decisions(ev, 20 * n, every, seed):
        if pos.is_first_turn():
            continue
        p = cube_decision(pos, rules=RULES, plies=0)["p_win"]
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


def rejudge(r):
    """The losses of row ``r`` for its ``model_double`` / ``model_take``."""
    answer = min(r["dt"], r["dp"])
    best = max(r["nd"], answer)
    r["doubler_loss"] = best - (answer if r["model_double"] else r["nd"])
    r["taker_loss"] = (r["dt"] if r["model_take"] else r["dp"]) - answer
    return r


def with_x_contact(rows, x):
    """The rows with the model's decision at contact efficiency ``x`` (contact positions
    decided by the model; the stored P(win))."""
    out = []
    for r in rows:
        r = dict(r)
        if r["model_method"] != "exact" and r["x"] == cubemodel.CONTACT_EFFICIENCY:
            roller, taker, _ = cubemodel.actions(cubemodel.model_equities(r["p_win_model"], x))
            r.update(model_double=roller != "no double", model_take=taker != "pass", x=x)
        out.append(rejudge(r))
    return out


def with_points(rows, points):
    """The rows with the model's decision as it would be with ``points`` per stake for
    (oin, mars, koks, home mars): W and L of the net's 0-ply outcome distribution; the
    rollouts' equities (the judge) unchanged."""
    ev = Evaluator.default(RULES)
    out = []
    for r in rows:
        pos = nf.Position.from_id(r["position"])
        model = cube_decision(pos, rules=RULES)
        r = dict(r)
        if model["method"] != "exact":
            p, w, l = cubemodel.win_loss_values(ev.evaluate(pos), points)
            e = cubemodel.model_equities(min(1.0, max(0.0, p)), model["x"], wins=w, losses=l)
            roller, taker, _ = cubemodel.actions(e)
            r.update(model_double=roller != "no double", model_take=taker != "pass",
                     W=w, L=l)
        out.append(rejudge(r))
    return out


def with_model_plies(rows, plies, net=None):
    """The rows with the model's decision on the ``plies``-ply outcome distribution of
    ``net`` (a file; None: the shipped net), for the contact positions decided by the
    model; the rollouts' equities unchanged."""
    if net is None:
        source = dict(plies=plies)                      # the API being measured
    else:
        ev = Evaluator.load(net)
        source = dict(cube_probabilities=lambda p: ev.evaluate(p, plies=plies))
    out = []
    for r in rows:
        r = dict(r)
        if r["model_method"] != "exact":
            model = cube_decision(nf.Position.from_id(r["position"]), rules=RULES, **source)
            r.update(model_double=model["double_action"] != "no double",
                     model_take=model["take_action"] != "pass", p_win_model=model["p_win"])
        out.append(rejudge(r))
    return out


def _position_files(store):
    return [f for f in sorted(os.listdir(store)) if f.endswith(".json") and f != SETTINGS]


def store_differences(store, args):
    """This run's settings that differ from those ``store`` was made with, described; a
    new store records this run's.  A store made before its settings were kept is not
    checked."""
    wanted = {k: getattr(args, k) for k in JUDGED_BY}
    path = os.path.join(store, SETTINGS)
    if os.path.exists(path):
        with open(path) as f:
            recorded = json.load(f)
        option = {k: f"--{k.replace('_', '-')}" for k in JUDGED_BY}
        return setting_differences({option[k]: recorded.get(k) for k in JUDGED_BY},
                                   {option[k]: wanted[k] for k in JUDGED_BY},
                                   recorded_as="in the store", wanted_as="now")
    if not _position_files(store):
        write_atomic(path, wanted)
    return []


def summary(stores, points=None, x_contact=None, model_plies=None, model_net=None):
    """The figures of the positions of one store or several (a list: their positions
    together, e.g. the stores of three seeds)."""
    stores = [stores] if isinstance(stores, str) else stores
    rows = [json.load(open(os.path.join(store, f))) for store in stores
            for f in _position_files(store)]
    if not rows:
        print("no positions rated yet")
        return
    if x_contact is not None:
        rows = with_x_contact(rows, x_contact)
        print(f"the model with contact efficiency {x_contact}")
    if model_plies is not None or model_net is not None:
        rows = with_model_plies(rows, model_plies or 0, model_net)
        print(f"the model on the {model_plies or 0}-ply outcome distribution of "
              f"{model_net or 'the shipped net'}")
    if points is not None:
        rows = with_points(rows, points)
        ws = [r["W"] for r in rows if "W" in r]
        ls = [r["L"] for r in rows if "L" in r]
        print(f"the model with {tuple(points)} points per stake (oin, mars, koks, home "
              f"mars): W {np.mean(ws):.3f} (max {max(ws):.3f}), L {np.mean(ls):.3f} (max "
              f"{max(ls):.3f}) over {len(ws)} model decisions")
    n = len(rows)
    print(f"{n} cube decisions (model P(win) {min(r['p_win_model'] for r in rows):.2f}-"
          f"{max(r['p_win_model'] for r in rows):.2f}); judge SE of a loss: rms "
          f"{math.sqrt(np.mean([r['judge_se'] ** 2 for r in rows])):.4f}")
    for who in ("doubler", "taker"):
        loss = np.array([r[who + "_loss"] for r in rows])
        wrong = (loss > 0).mean()
        se = (f"SE {loss.std(ddof=1) / math.sqrt(n):.4f}" if n > 1 else
              "one decision: no SE")
        print(f"  {who}: mean loss {loss.mean():.4f} per decision ({se}), wrong "
              f"{wrong:.0%}, losses >= 0.08: {(loss >= 0.08).mean():.0%}")
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
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--positions", type=int, default=150)
    ap.add_argument("--games", type=int, default=1296)
    ap.add_argument("--every", type=int, default=7)
    ap.add_argument("--low", type=float, default=0.55)
    ap.add_argument("--high", type=float, default=0.95)
    ap.add_argument("--seed", type=int, default=18)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--store", default="cube_errors_store")
    ap.add_argument("--summary", action="store_true")
    ap.add_argument("--and-store", dest="more_stores", action="append", default=[],
                    metavar="STORE", help="with --summary: this store's positions too "
                                          "(repeat it for several)")
    ap.add_argument("--points", type=float, nargs=4, default=None,
                    metavar=("OIN", "MARS", "KOKS", "HOME_MARS"))
    ap.add_argument("--x-contact", type=float, default=None)
    ap.add_argument("--play-x", type=float, default=None)
    ap.add_argument("--model-plies", type=int, choices=(0, 1, 2), default=None)
    ap.add_argument("--model-net", default=None, metavar="NET")
    args = ap.parse_args()
    if args.play_x is not None:     # the model and the judge's cube, in this process
        if not 0.0 <= args.play_x <= 1.0:
            ap.error(f"--play-x {args.play_x}: expected a cube efficiency in [0, 1]")
        cubemodel.CONTACT_EFFICIENCY = args.play_x
    if args.more_stores and not args.summary:
        ap.error("--and-store: only with --summary (one store is rated at a time)")
    for store in args.more_stores:
        if not os.path.isdir(store):
            ap.error(f"--and-store {store}: no such store")
    os.makedirs(args.store, exist_ok=True)
    differ = [] if args.summary else store_differences(args.store, args)
    if differ:
        ap.error(f"--store {args.store}: made with other settings (" + "; ".join(differ)
                 + "); give the store's settings, or another --store to start afresh")
    if not args.summary:
        t = time.perf_counter()
        for k, pos in enumerate(candidates(args.positions, args.every, args.seed,
                                           args.low, args.high)):
            path = os.path.join(args.store, f"{k:05d}.json")
            if not os.path.exists(path):
                write_atomic(path, judge(k, pos, args))
        print(f"rated in {time.perf_counter() - t:.0f} s", flush=True)
    summary([args.store, *args.more_stores], args.points, args.x_contact, args.model_plies,
            args.model_net)


if __name__ == "__main__":
    main()
