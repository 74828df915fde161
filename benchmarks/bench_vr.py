"""Variance-reduced rollouts (luck): efficiency, bias, races and speed.

A fixed, seeded set of positions from net self-play (the shipped rollout player at
0-ply, ``Evaluator.default().rollout_evaluator()``, seed ``--seed``: the set stays the
same when only the judge changes): contact positions from the opening (plies 4-14), the
middle game (20-40) and late contact (the last 10 contact plies of a game), and
no-contact races (neither side entirely home).  For each position, at equal games and
equal checker play:

- the SE ratio plain / VR of the equity (both from the same games: the VR run also
  tallies the plain values), and the efficiency ratio ``1 / (SE^2 x CPU-seconds)`` VR over
  plain (the plain CPU time from a plain run of the same games: the same seed, and at
  0-ply the same moves; ``compare``'s docstring has the older measure beside it);
- no bias: z = (VR mean - plain mean) / combined SE, the plain rollout with ``--bias-x``
  times the games;
- races of both homes played out (``truncate=None``): the VR mean against the exact
  tables;
- speed: games per CPU-second, plain and VR, at 0, 1 and 2 plies from the start.

The variances are the rollouts' own, within the first roll's 36 strata (``rollout``'s
stratified formula), so every position needs at least two games per stratum
(``MIN_STRATIFIED`` = 72); with fewer, the rollout falls back to the i.i.d. formula,
whose reduced variance still holds the first roll's luck (stratified, so never
subtracted) and so understates the efficiency (on the default 1-ply set: 8.9 at 36
games, 20.3 at 144).  Smaller ``--games`` or ``--games1`` are refused.

CPU seconds are this process's (``time.process_time``; workers=1), so other load on the
machine does not count.  Sizes are arguments: the defaults are the reduced run recorded
in ``benchmarks/RESULTS.md``.

    python benchmarks/bench_vr.py [--contact 100] [--races 20] [--games 324]
        [--games1 144] [--positions1 20] [--estimators luck-net,luck] [--bias-x 10]
        [--luck-nets FILE,...]

``--phases N`` plays ``N`` games of each 0-ply position in a Python loop of the rollout's
own play and says where the variance the ``luck-net`` estimator leaves comes from, per
phase (``phases``): the luck net's error against the exact luck, and the net's gap
between its 1-ply and 0-ply values, which even the exact luck leaves; then the luck net's
contact error by the roll's number in the game (``TURN_BUCKETS``: which rolls an exact
luck of the first few rolls, whose positions the games share, would reach).

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
from nardy_fast._utils._dbfile import DatabaseError
from nardy_fast.engine.play import rollout as rollout_module
from nardy_fast.engine.evaluation.evaluator import Evaluator
from nardy_fast.engine.play.lucknet import load_luck_net
from nardy_fast.engine.play.rollout import rollout

CLOCK = time.process_time


def self_play_positions(n_contact, n_races, seed):
    """(contact, races): positions from 0-ply self-play games of the rollout player, a
    third each from the opening, the middle game and late contact; races with neither
    side entirely home."""
    ev = Evaluator.default().rollout_evaluator()
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
MIN_STRATIFIED = 72          # two games in each of the first roll's 36 strata
PARTS = ("zero", "one", "races", "third", "speed")       # what --skip may name


def compare(positions, n, policy, estimator, bias_x, seed):
    """Per position: SE ratio, efficiency ratio, z against a longer plain rollout (each
    plain rollout of the bias check played once, shared by the estimators).

    The efficiency divides by the CPU time of a plain rollout of the very same games (the
    VR run's seed: at 0-ply the luck changes no move, so both play identical games, as
    ``compare_same_games`` checks), timed right after the VR run, for every estimator and
    luck net: so both runs carry the same fixed cost per call and the same state of the
    machine.  (Until 2026-12-05 the plain run was timed once, beside the first estimator's
    VR runs and the bias runs, and reused: an arm timed later then read 2-5 % faster, the
    shipped luck net against a copy of itself 3.51 against 3.68.)  The bias runs are all
    played before any run is timed.  ``eff_bias`` is the older measure, which took the
    plain time from the bias run of ``bias_x`` times the games divided by ``bias_x`` (and
    so charged the VR run alone with the fixed cost of a call, a large share for short
    games)."""
    bias = []
    for i, pos in enumerate(positions):
        key = (pos.id, n * bias_x, policy, seed + 10_000 + i)
        if key not in _PLAIN:
            _PLAIN[key] = timed(pos, n * bias_x, policy, False, seed + 10_000 + i)
        bias.append(_PLAIN[key])
    rows = []
    for i, (pos, (plain, tp)) in enumerate(zip(positions, bias)):
        vr, tv = timed(pos, n, policy, estimator, seed + i)
        if (vr.se_equity == 0 and plain.se_equity == 0          # valued exactly (race database)
                or math.isnan(vr.se_equity) or math.isnan(plain.se_equity)):  # or the
            continue                            # one-sided approximation after one roll
        same, ts = timed(pos, n, policy, False, seed + i)
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
        if vr.se_equity == 0 or math.isnan(vr.se_equity):   # valued by the race tables
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


def phase_terms(pos, n, seed, luck_net=None):
    """Per game of ``n`` 0-ply games from ``pos`` (the shipped rollout player, a Python
    loop truncated at the bear-off as the rollouts are; game ``j``'s first roll is the
    ordered roll ``j mod 36`` and its luck is not counted, as the rollouts stratify it;
    every later roll is counted), in the view
    of the side on roll at ``pos``: the result (the exact bear-off table's equity at the
    truncation, or the final result) and, per phase of the position before each roll
    (``"contact"``, ``"race"``), the sums of three terms:

    - ``err``: the exact 0-ply luck of the roll minus the luck net's (the variance the luck
      net's prediction error leaves; each term has mean zero given the past);
    - ``gap``: the 1-ply value of the position (the mean over the rolls of the values after
      the best move) minus the 0-ply value the previous move was chosen by (the net's own
      inconsistency: what even the exact 0-ply luck leaves);
    - ``luck``: the luck net's luck;

    ``end``: the truncation's value minus the 0-ply value of the move that reached it;
    ``value0``: the 0-ply value of the first move (constant within its stratum);
    ``turns``: the squared contact errors of the luck net, summed per ``TURN_BUCKETS``
    group of the roll's number (1: the first counted roll).  The
    result less every luck-net luck is the ``luck-net`` estimator's value; less every
    exact luck, the exact ``luck`` estimator's (``value0`` + the gaps + ``end``)."""
    from nardy_fast.core.finish import final_outcome
    from nardy_fast.core.position import bearoff_mask, contact_mask
    from nardy_fast.engine.play.luck import ROLLS, WEIGHTS
    from nardy_fast.engine.play.rollout import default_luck_net
    ev = Evaluator.default().rollout_evaluator()
    s = ev.searcher()
    net = default_luck_net() if luck_net is None else luck_net
    index = {}
    for k, (a, b) in enumerate(ROLLS):
        index[(a, b)] = index[(b, a)] = k
    g = np.random.default_rng(seed)
    games = []
    for j in range(n):
        me, opp, side, sign = pos.mover.copy(), pos.opponent.copy(), pos.side, 1.0
        row = {"contact": np.zeros(3), "race": np.zeros(3), "end": 0.0,
               "turns": np.zeros(len(TURN_BUCKETS))}
        turn = 0                     # rolls played in this game before this one
        previous = None              # the 0-ply value of the last move, start side's view
        while True:
            b = np.stack([me, opp]).astype(np.uint8)
            p = nf.Position.from_boards(me, opp, side)
            if p.is_over() or bearoff_mask(b):
                value = (final_outcome(p, ev.rules).equity if p.is_over()
                         else float(ev.evaluate(p).equity))
                row["result"] = sign * value
                row["end"] = 0.0 if previous is None else sign * value - previous
                break
            phase = "contact" if contact_mask(b) else "race"
            eq = s.equities(s.roll_values(me, opp, 0))
            eqn = s.equities(net.rolls(b[None])[0])
            if previous is None:                      # the stratified first roll
                d1, d2 = 1 + j % 36 // 6, 1 + j % 6
            else:
                d1, d2 = int(g.integers(1, 7)), int(g.integers(1, 7))
            r = index[(d1, d2)]
            exact, predicted = eq[r] - WEIGHTS @ eq, eqn[r] - WEIGHTS @ eqn
            if previous is None:
                exact = predicted = 0.0
            if previous is not None:
                row[phase][1] += sign * (WEIGHTS @ eq) - previous
            else:                                     # constant within the stratum
                row["value0"] = sign * eq[r]
            row[phase][0] += sign * (exact - predicted)
            row[phase][2] += sign * predicted
            if phase == "contact" and turn:
                row["turns"][_turn_bucket(turn)] += (exact - predicted) ** 2
            turn += 1
            previous = sign * eq[r]
            res = s.rank(me, opp, d1, d2, 0)[0][0]
            me, opp = opp, res.copy()
            side = "black" if side == "white" else "white"
            sign = -sign
        row["stratum"] = j % 36
        games.append(row)
    return games


# the counted rolls' numbers (1: the roll after the stratified first) grouped for the
# luck net's contact error per turn of the game
TURN_BUCKETS = ((1, 1), (2, 2), (3, 5), (6, 10), (11, 20), (21, 40), (41, 10**9))


def _turn_bucket(turn):
    return next(i for i, (a, b) in enumerate(TURN_BUCKETS) if a <= turn <= b)


def _within(x, strata):
    """The variance of ``x`` within the strata (each value less its stratum's mean; the
    rollouts' stratified variance of one game), ``strata`` an int array."""
    counts = np.bincount(strata)
    means = np.bincount(strata, x) / np.maximum(counts, 1)
    dof = len(x) - np.count_nonzero(counts)
    return float(((x - means[strata]) ** 2).sum() / max(dof, 1))


def phases(positions, n, seed):
    """Where the variance left by the luck net at 0-ply comes from, per phase
    (``phase_terms``), summed over ``positions`` (each one's variances within the first
    roll's strata).  ``err``'s are mean squares (martingale differences: their sum's
    variance, the cross terms between rolls being zero); the rest variances; the parts
    need not add up to the whole (covariances between them)."""
    tot = {k: 0.0 for k in ("plain", "luck-net", "luck", "err contact", "err race",
                            "gap contact", "gap race", "end")}
    by_turn = np.zeros(len(TURN_BUCKETS))
    t = CLOCK()
    for i, pos in enumerate(positions):
        rows = phase_terms(pos, n, seed + 20_000 + i)
        st = np.array([r["stratum"] for r in rows])
        res = np.array([r["result"] for r in rows])
        luck = np.array([r["contact"][2] + r["race"][2] for r in rows])
        err = {ph: np.array([r[ph][0] for r in rows]) for ph in ("contact", "race")}
        exact = luck + err["contact"] + err["race"]
        tot["plain"] += _within(res, st)
        tot["luck-net"] += _within(res - luck, st)
        tot["luck"] += _within(res - exact, st)
        for ph in ("contact", "race"):
            tot[f"err {ph}"] += np.mean(err[ph] ** 2)
            tot[f"gap {ph}"] += _within(np.array([r[ph][1] for r in rows]), st)
        tot["end"] += _within(np.array([r["end"] for r in rows]), st)
        by_turn += np.mean([r["turns"] for r in rows], axis=0)
    secs = CLOCK() - t
    print(f"variance per phase, 0-ply, {len(positions)} positions x {n} games (summed "
          f"over the positions; {secs:.0f} CPU-s):", flush=True)
    for k, v in tot.items():
        share = f"{v / tot['luck-net']:.0%} of luck-net's" if k not in (
            "plain", "luck-net") else ""
        print(f"  {k:12s} {v:.4f}  {share}", flush=True)
    print(f"  ratio plain / luck-net {tot['plain'] / tot['luck-net']:.2f}, plain / exact "
          f"luck {tot['plain'] / tot['luck']:.2f}", flush=True)
    print("  the luck net's contact error by the roll's number in the game (1: the first "
          "counted roll):", flush=True)
    for (a, b), v in zip(TURN_BUCKETS, by_turn):
        name = f"{a}" if a == b else (f"{a}-{b}" if b < 10**9 else f"{a}+")
        print(f"    rolls {name:6s} {v:.4f}  {v / tot['err contact']:.0%} of the contact "
              f"error", flush=True)


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
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--contact", type=int, default=100)
    ap.add_argument("--races", type=int, default=20)
    ap.add_argument("--games", type=int, default=324, help="VR games per position, 0-ply")
    ap.add_argument("--positions0", type=int, default=30, help="positions at 0-ply")
    ap.add_argument("--games1", type=int, default=144, help="VR games per position, 1-ply")
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
    ap.add_argument("--phases", type=int, default=0,
                    help="games per position of the per-phase variance of the 0-ply "
                         "luck-net estimator (a Python loop; 0: skip)")
    ap.add_argument("--skip", default="", help="comma list of parts to skip: "
                    "zero,one,races,third,speed")
    a = ap.parse_args()
    for name in ("games", "games1"):
        if getattr(a, name) < MIN_STRATIFIED:
            ap.error(f"--{name} {getattr(a, name)}: at least {MIN_STRATIFIED} games (two "
                     "per stratum of the first roll) give the stratified variances the "
                     "efficiency is measured by")
    for name, least in (("contact", 1), ("races", 0), ("positions0", 1), ("positions1", 1),
                        ("bias1", 0), ("bias_x", 1), ("seed", 0), ("repeats", 1),
                        ("phases", 0)):
        if getattr(a, name) < least:
            ap.error(f"--{name.replace('_', '-')} {getattr(a, name)}: expected >= {least}")
    try:
        speed_games = [int(x) for x in a.speed_games.split(",")]
    except ValueError:
        speed_games = []
    if len(speed_games) != 7 or min(speed_games) < 1:
        ap.error(f"--speed-games {a.speed_games}: expected 7 numbers of games >= 1")
    skip = set(filter(None, a.skip.split(",")))
    if skip - set(PARTS):
        ap.error(f"--skip {a.skip}: {', '.join(sorted(skip - set(PARTS)))} not of "
                 f"{','.join(PARTS)}")
    for name, part in (("positions0", "zero"), ("positions1", "one")):
        if getattr(a, name) > a.contact and part not in skip:
            ap.error(f"--{name} {getattr(a, name)}: expected at most --contact "
                     f"{a.contact} (the positions are chosen among the contact ones)")
    for est in a.estimators.split(","):
        try:
            nf.RolloutSettings(a.games, variance_reduction=est)
        except ValueError as e:
            ap.error(f"--estimators {a.estimators}: {est}: {str(e).rpartition(': ')[2]}")
    try:
        luck_nets = [(path, *load_luck_net(path))
                     for path in filter(None, a.luck_nets.split(","))]
    except DatabaseError as e:
        ap.error(f"--luck-nets {e}")
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
        for path, net, meta in luck_nets:
            rollout_module.default_luck_net = lambda net=net: net   # one process (workers=1)
            try:
                summary(compare(set0, a.games, "net", "luck-net", a.bias_x, a.seed),
                        f"0-ply, luck-net {path} ("
                        f"{'+'.join(map(str, [net.n_hidden, *net.middle_units]))} units, "
                        f"R^2 {meta['r2_equity']:.3f}), {a.games} games")
            finally:
                rollout_module.default_luck_net = shipped
    if a.phases:
        phases(set0, a.phases, a.seed)
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
        speed(speed_games, a.repeats)


if __name__ == "__main__":
    main()
