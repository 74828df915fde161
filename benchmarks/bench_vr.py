"""Variance-reduced rollouts (luck): efficiency, bias, races and speed.

A fixed, seeded set of positions from net self-play (the shipped net at 0-ply, seed
``--seed``): contact positions from the opening (plies 4-14), the middle game (20-40) and
late contact (the last 10 contact plies of a game), and no-contact races (neither side
entirely home).  For each position, at equal games and equal checker play:

- the SE ratio plain / VR of the equity (both from the same games: the VR run also
  tallies the plain values), and the efficiency ratio ``1 / (SE^2 x CPU-seconds)`` VR over
  plain (the plain CPU time from a plain run of the same games: the same seed, and at
  0-ply the same moves; ``compare``'s docstring has the older measure beside it);
- no bias: z = (VR mean - plain mean) / combined SE, the plain rollout with ``--bias-x``
  times the games;
- races of both homes played out (``truncate=None``): the VR mean against the exact
  tables;
- speed: games per CPU-second, plain and VR, at 0, 1 and 2 plies from the start.

CPU seconds are this process's (``time.process_time``; workers=1), so other load on the
machine does not count.  Sizes are arguments: the defaults are the reduced run recorded
in ``benchmarks/RESULTS.md``.

    python benchmarks/bench_vr.py [--contact 100] [--races 20] [--games 324]
        [--games1 36] [--positions1 30] [--estimators luck-net,luck] [--bias-x 10]
        [--luck-nets FILE,...]

``--luck-nets`` also runs the 0-ply ``luck-net`` estimator with each luck net file in
place of the shipped one (``nardy-fast train-luck``), on the same positions, seeds and so
the same games, against the same plain rollouts: two luck nets compared in one run.
"""
import argparse
import math
import statistics
import time

import numpy as np

import nardy_fast as nf
from nardy_fast.engine.play import rollout as rollout_module
from nardy_fast.engine.evaluation.evaluator import Evaluator
from nardy_fast.engine.play.lucknet import load_luck_net
from nardy_fast.engine.play.rollout import rollout

CLOCK = time.process_time


def self_play_positions(n_contact, n_races, seed):
    """(contact, races): positions from 0-ply net self-play games, a third each from the
    opening, the middle game and late contact; races with neither side entirely home."""
    ev = Evaluator.default()
    g = np.random.default_rng(seed)
    buckets = {"opening": [], "middle": [], "late": []}
    races = []
    per = -(-n_contact // 3)
    while min(len(b) for b in buckets.values()) < per or len(races) < n_races:
        pos, history = nf.Position.initial(), []
        while pos.phase == "contact":
            history.append(pos)
            d = (int(g.integers(1, 7)), int(g.integers(1, 7)))
            pos = pos.play(ev.best_move(pos, d))
        race_plies = []
        while pos.phase == "race":
            race_plies.append(pos)
            d = (int(g.integers(1, 7)), int(g.integers(1, 7)))
            pos = pos.play(ev.best_move(pos, d))
        n = len(history)
        picks = {"opening": history[4:min(15, n)], "middle": history[20:min(41, n)],
                 "late": history[max(0, n - 10):]}
        for name, cand in picks.items():
            if cand and len(buckets[name]) < per:
                buckets[name].append(cand[int(g.integers(len(cand)))])
        if race_plies and len(races) < n_races:
            races.append(race_plies[int(g.integers(len(race_plies)))])
    contact = [p for name in ("opening", "middle", "late") for p in buckets[name]]
    return contact[:n_contact], races


def timed(pos, n, policy, vr, seed):
    t = CLOCK()
    r = rollout(pos, n, policy=policy, seed=seed, variance_reduction=vr, workers=1,
                progress=False)
    return r, CLOCK() - t


_PLAIN = {}


def compare(positions, n, policy, estimator, bias_x, seed):
    """Per position: SE ratio, efficiency ratio, z against a longer plain rollout (each
    plain rollout played once, shared by the estimators).

    The efficiency divides by the CPU time of a plain rollout of the very same games (the
    VR run's seed: at 0-ply the luck changes no move, so both play identical games, as
    ``compare_same_games`` checks), so that both runs carry the same fixed cost per call;
    ``eff_bias`` is the older measure, which took the plain time from the bias run of
    ``bias_x`` times the games divided by ``bias_x`` (and so charged the VR run alone with
    the fixed cost of a call, a large share for short games)."""
    rows = []
    for i, pos in enumerate(positions):
        vr, tv = timed(pos, n, policy, estimator, seed + i)
        key = (pos.id, n * bias_x, policy, seed + 10_000 + i)
        if key not in _PLAIN:
            _PLAIN[key] = timed(pos, n * bias_x, policy, False, seed + 10_000 + i)
        plain, tp = _PLAIN[key]
        if vr.se_equity == 0 and plain.se_equity == 0:    # valued exactly (race database)
            continue
        key = (pos.id, n, policy, seed + i)
        if key not in _PLAIN:
            _PLAIN[key] = timed(pos, n, policy, False, seed + i)
        same, ts = _PLAIN[key]
        assert math.isclose(same.se_equity, vr.extra["se_equity_plain"], rel_tol=1e-9), \
            "not the same games"
        ratio = vr.extra["luck_variance_ratio"]
        z = (vr.equity - plain.equity) / math.hypot(vr.se_equity, plain.se_equity)
        rows.append(dict(se_ratio=math.sqrt(ratio), eff=ratio * ts / tv,
                         eff_bias=ratio * tp / bias_x / tv, z=z,
                         gps_vr=n / tv, gps_plain=n / ts))
    return rows


def compare_same_games(positions, n, policy, seed, estimator="luck"):
    """Per position, at checker play deeper than the luck (1-ply, 2-ply): the variance
    ratio of the VR run's own plain and reduced values (the same games), and the CPU
    ratio of a plain run of the very same games (same seed: the luck does not change a
    move at these depths, so both runs play identical games).  No bias check here: the
    two runs are not independent (``--bias1`` runs one)."""
    rows = []
    for i, pos in enumerate(positions):
        vr, tv = timed(pos, n, policy, estimator, seed + i)
        if vr.se_equity == 0:                              # valued exactly (race database)
            continue
        plain, tp = timed(pos, n, policy, False, seed + i)
        assert math.isclose(plain.se_equity, vr.extra["se_equity_plain"], rel_tol=1e-9), \
            "not the same games"
        ratio = vr.extra["luck_variance_ratio"]
        rows.append(dict(se_ratio=math.sqrt(ratio), eff=ratio * tp / tv, z=0.0,
                         gps_vr=n / tv, gps_plain=n / tp))
    return rows


def summary(rows, label):
    se = statistics.median(r["se_ratio"] for r in rows)
    eff = statistics.median(r["eff"] for r in rows)
    zs = [r["z"] for r in rows]
    agree = sum(abs(z) <= 3 for z in zs) / len(zs)
    worst = max(zs, key=abs)
    older = ""
    if "eff_bias" in rows[0]:
        older = (f" (plain time from the bias run: "
                 f"{statistics.median(r['eff_bias'] for r in rows):.2f})")
    print(f"{label}: {len(rows)} positions; median SE ratio plain/VR {se:.2f}, median "
          f"efficiency VR/plain {eff:.2f}{older}; bias: {agree:.0%} within 3 SE, worst z "
          f"{worst:+.2f}; games/CPU-s plain {statistics.median(r['gps_plain'] for r in rows):.0f}"
          f", VR {statistics.median(r['gps_vr'] for r in rows):.0f}", flush=True)


def home_races(n, seed):
    """(positions, exact P(win)) of random races of both homes (random bear-off play)."""
    from nardy_fast.tables.race import race_probabilities
    g = np.random.default_rng(seed)
    out = []
    while len(out) < n:
        a, b = (np.bincount(g.integers(18, 24, size=k), minlength=24).astype(np.uint8)
                for k in g.integers(3, 16, size=2))
        pos = nf.Position.from_boards(a, b)
        exact = race_probabilities(pos)
        if exact.method == "two_sided":
            out.append((pos, exact.p_win))
    return out


def races_vs_exact(n_races, n, seed, estimator="luck"):
    zs = []
    for i, (pos, exact) in enumerate(home_races(n_races, seed)):
        r = rollout(pos, n, seed=seed + i, truncate=None, variance_reduction=estimator,
                    workers=1, progress=False)
        zs.append((r.p_win - exact) / r.se_p_win if r.se_p_win > 0 else 0.0)
    print(f"races of both homes played out, VR ({estimator}) vs the exact tables "
          f"({n_races} races, {n} "
          f"games): mean z {statistics.mean(zs):+.2f}, worst z {max(zs, key=abs):+.2f}",
          flush=True)


def third_roll(pos, n, seed):
    """What stratifying the third random roll could still gain: the share of the per-game
    variance explained by that roll (one-way ANOVA over its 36 values, less the share
    noise alone gives), for the plain and the luck-reduced equity of the same games."""
    from nardy_fast.core import rng as nrng
    from nardy_fast.engine.play._rollout import PER_GAME_WIDTH, play_blocks
    from nardy_fast.engine.play.policy import Policy
    from nardy_fast.engine.play.rollout import _bearoff_tables
    p = Policy.of("net").c_form()
    per = np.zeros((n, PER_GAME_WIDTH))
    play_blocks(pos.boards, rules=nf.Rules(), policies=(p, p), side0_white=True, dice=None,
                opening_dice=False, truncate=True, tables=_bearoff_tables(),
                entropy=nrng.root_entropy(seed), first_block=0,
                n_blocks=-(-n // nrng.BLOCK_GAMES), n_games=n,
                block_games=nrng.BLOCK_GAMES, variance_reduction=0, per_game=per)
    r3 = per[:, 4].astype(int)
    for col, name in ((0, "plain"), (1, "luck-reduced")):
        y = per[r3 >= 0, col]
        g = r3[r3 >= 0]
        means = np.bincount(g, y, 36) / np.maximum(np.bincount(g, None, 36), 1)
        between = np.mean((means[g] - y.mean()) ** 2)
        share = max(0.0, between / y.var() - 35 / len(y))
        print(f"third roll ({n} games, {pos.id}): explains {share:.1%} of the {name} "
              f"equity's variance (variance {y.var():.4f})", flush=True)


def speed(games, repeats):
    start = nf.Position.initial()
    for (plies, vr), n in zip(((0, False), (0, "luck"), (0, "luck-net"), (1, False),
                               (1, "luck"), (2, False), (2, "luck")), games):
        policy = f"net:{plies}"
        rates = [n / timed(start, n, policy, vr, 1 + k)[1] for k in range(repeats)]
        print(f"speed from the start, {policy}, {'VR ' + vr if vr else 'plain'}: "
              f"{statistics.median(rates):.2f} games/CPU-s ({n} games, median of "
              f"{repeats})", flush=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--contact", type=int, default=100)
    ap.add_argument("--races", type=int, default=20)
    ap.add_argument("--games", type=int, default=324, help="VR games per position, 0-ply")
    ap.add_argument("--positions0", type=int, default=30, help="positions at 0-ply")
    ap.add_argument("--games1", type=int, default=36, help="VR games per position, 1-ply")
    ap.add_argument("--positions1", type=int, default=20, help="positions at 1-ply")
    ap.add_argument("--bias1", type=int, default=0,
                    help="1-ply positions also checked against an independent plain "
                         "rollout of --bias-x times the games")
    ap.add_argument("--estimators", default="luck-net,luck",
                    help="0-ply estimators (the first one also plays the races)")
    ap.add_argument("--luck-nets", default="",
                    help="comma list of luck net files to compare with the shipped one")
    ap.add_argument("--bias-x", type=int, default=10)
    ap.add_argument("--seed", type=int, default=2024)
    ap.add_argument("--speed-games", default="2592,324,2592,36,36,1,1",
                    help="games of: 0-ply plain, VR luck, VR luck-net, 1-ply plain, VR, "
                         "2-ply plain, VR")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--skip", default="", help="comma list of parts to skip: "
                    "zero,one,races,third,speed")
    a = ap.parse_args()
    skip = set(a.skip.split(","))
    contact, races = self_play_positions(a.contact, a.races, a.seed)
    print(f"positions: {len(contact)} contact, {len(races)} no-contact races (seed {a.seed})",
          flush=True)
    every = np.linspace(0, len(contact) - 1, a.positions0).round().astype(int)
    set0 = [contact[i] for i in every] + races[:max(1, a.races * a.positions0 // a.contact)]
    if "zero" not in skip:
        for est in a.estimators.split(","):
            summary(compare(set0, a.games, "net", est, a.bias_x, a.seed),
                    f"0-ply, {est}, {a.games} games")
        shipped = rollout_module.default_luck_net
        for path in filter(None, a.luck_nets.split(",")):
            net, meta = load_luck_net(path)
            rollout_module.default_luck_net = lambda net=net: net   # one process (workers=1)
            try:
                summary(compare(set0, a.games, "net", "luck-net", a.bias_x, a.seed),
                        f"0-ply, luck-net {path} ("
                        f"{'+'.join(map(str, [net.n_hidden, *net.middle_units]))} units, "
                        f"R^2 {meta['r2_equity']:.3f}), {a.games} games")
            finally:
                rollout_module.default_luck_net = shipped
    if "one" not in skip:
        every = np.linspace(0, len(contact) - 1, a.positions1).round().astype(int)
        set1 = [contact[i] for i in every] + races[:max(1, a.races * a.positions1 // a.contact)]
        summary(compare_same_games(set1, a.games1, "net:1", a.seed),
                f"1-ply, luck, {a.games1} games (same games plain and VR; no bias check)")
        if a.bias1:
            summary(compare(set1[:a.bias1], a.games1, "net:1", "luck", a.bias_x, a.seed),
                    f"1-ply bias, luck, {a.games1} games against plain x {a.bias_x}")
    if "races" not in skip:
        races_vs_exact(8, 1296, a.seed, a.estimators.split(",")[0])
    if "third" not in skip:
        third_roll(contact[len(contact) // 2], 2592, a.seed)
    if "speed" not in skip:
        speed([int(x) for x in a.speed_games.split(",")], a.repeats)


if __name__ == "__main__":
    main()
