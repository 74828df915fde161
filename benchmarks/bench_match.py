"""Match play benchmarks (issue 16): speed of match-aware evaluation, the match equity table
against simulated matches, match-aware against money play.

    python benchmarks/bench_match.py speed
    python benchmarks/bench_match.py table --games 40000 --cube-matches 300
    python benchmarks/bench_match.py aware --pairs 300
    python benchmarks/bench_match.py aware --cube --pairs 2000 --scores 2:0:0,2:1:0,3:0:0
    python benchmarks/bench_match.py aware-games --pairs 2000 --scores 2:1:0,2:0:0
    python benchmarks/bench_match.py aware-decisions --decisions 300 --games 1296

``table``: cubeless, matches to 3, 5 and 7 between two copies of the shipped evaluator
(0-ply, money play: their moves do not depend on the score), assembled from independent
games played by the C game loop (``match.play_match``: the first game of each shared-dice
pair, the first mover's points), the next game's first mover by ``MatchRules.starter``.
At every score reached at the start of a game (with its first mover, or thrown for) the
share of matches won is compared with the table's value there (``MetSolver.value``): z =
(share - table) / SE, SE from the table's value.  Cubeful: ``simulate_matches`` with the
cube (Python loop; ``--cube-matches`` per length) against the cubeful table.
``aware``: from a score, the match-aware evaluator against the money-play one, in pairs
of matches on the same seed (shared dice) with the sides swapped; ``--cube``: matches
with the cube (the aware side's cube by the table, the money side's by the money model).
``aware-decisions``: the decisions where the two choose differently, each judged by
rollouts of both results at the score (below).
"""
from __future__ import annotations

import argparse
import math
import os
import time
from collections import defaultdict

import numpy as np

import nardy_fast as nf
from nardy_fast.engine.evaluation import met
from nardy_fast.engine.play.strength import play_match
from nardy_fast.engine.decisions.matchplay import play_one_match
from nardy_fast.core.matchrules import MatchRules, MatchState
from nardy_fast.core.record import random_game


def speed(reps=300):
    """Median seconds of a 0-ply evaluation of 64 positions, money vs match-aware, and
    of one hint."""
    ev = nf.Evaluator.default()
    ps = [random_game(seed=s, max_turns=24).positions()[-1] for s in range(64)]
    ps = [p for p in ps if not p.is_over()]
    boards = np.stack([p.boards for p in ps])
    state = MatchState(7, (3, 5), "white")
    pos = ps[0]
    st1 = MatchState(7, (3, 5), pos.side)

    def med(fn):
        ts = []
        for _ in range(reps):
            t = time.perf_counter()
            fn()
            ts.append(time.perf_counter() - t)
        return float(np.median(ts))
    med(lambda: ev.evaluate(boards, match=state))           # warm the caches
    a = med(lambda: ev.evaluate(boards))
    b = med(lambda: ev.evaluate(boards, match=state))
    c = med(lambda: ev.best_move(pos, (6, 3)))
    d = med(lambda: ev.best_move(pos, (6, 3), match=st1))
    e = med(lambda: ev.evaluate(pos))
    f = med(lambda: ev.evaluate(pos, match=st1))
    print(f"evaluate {len(ps)} boards 0-ply: money {a * 1e3:.3f} ms, match "
          f"{b * 1e3:.3f} ms, ratio {b / a:.3f}")
    print(f"evaluate one Position 0-ply: money {e * 1e3:.3f} ms, match {f * 1e3:.3f} ms, "
          f"ratio {f / e:.3f}")
    print(f"best_move, roll 63, 0-ply: money {c * 1e3:.3f} ms, match {d * 1e3:.3f} ms, "
          f"ratio {d / c:.3f}")


def _games(n, seed, workers):
    """First-mover points of ``n`` games between two copies of the net."""
    r = play_match("net", "net", 2 * n, seed=seed, workers=workers, progress=False)
    return r["points"][:, 0]


def _assemble(points, length, mr, rng_seed):
    """Matches to ``length`` from a stream of games (first mover's points): a list of
    visited (i, j, s, won) per match for side X (the first match's first side)."""
    rng = np.random.default_rng(rng_seed)
    solver_rule = met.MetSolver(mr, met.start_distribution())
    k, visits = 0, []
    while True:
        i = j = length
        s = 2
        path = []
        while i > 0 and j > 0:
            if k >= len(points):
                return visits
            path.append((i, j, s))
            first = int(rng.integers(2)) if s == 2 else s         # 0: X starts
            pts = points[k]
            k += 1
            x_won = (pts > 0) == (first == 0)
            if x_won:
                i -= abs(pts)
            else:
                j -= abs(pts)
            s = solver_rule.next_starter(first, 0 if x_won else 1)
        visits.append((path, i <= 0))


def _worst_z(visits, value):
    stats = defaultdict(lambda: [0, 0])
    for path, won in visits:
        for state in set(path):
            stats[state][0] += 1
            stats[state][1] += won
    worst, n_states = 0.0, 0
    for (i, j, s), (n, w) in stats.items():
        if n < 30:
            continue
        v = value(i, j, s)
        se = math.sqrt(max(v * (1 - v), 1e-12) / n)
        z = (w / n - v) / se
        n_states += 1
        worst = max(worst, abs(z))
    return worst, n_states


def save_points(path, pts):
    """The games' points to ``path`` itself (``np.save`` of a name without ``.npy`` adds
    it, and the file was then never found again), whole or not at all."""
    tmp = f"{path}.tmp"
    with open(tmp, "wb") as f:
        np.save(f, pts)
    os.replace(tmp, path)


def table(games, cube_matches, seed, workers, points=None):
    """``points``: an .npy file of the games' first-mover points, made if missing (the
    games do not depend on the table, so they can be played first)."""
    t = time.perf_counter()
    if points and os.path.exists(points):
        pts = np.load(points)
    else:
        pts = _games(games, seed, workers)
        if points:
            save_points(points, pts)
    print(f"{len(pts)} games of net vs net ({time.perf_counter() - t:.0f} s)")
    mr = MatchRules()
    solver = met.MetSolver(mr, met.start_distribution())
    for length in (3, 5, 7):
        visits = _assemble(pts, length, mr, seed + length)
        z, n = _worst_z(visits, solver.value)
        print(f"cubeless to {length}: {len(visits)} matches, {n} scores with >= 30 visits, "
              f"worst |z| {z:.2f}")
    if not cube_matches:
        return
    cmr = MatchRules(rules=nf.Rules(cube="geometric"))
    csolver = met.MetSolver(cmr, met.start_distribution(), cube=True)
    from concurrent.futures import ProcessPoolExecutor
    with ProcessPoolExecutor(workers) as pool:
        for length in (3, 5, 7):
            t = time.perf_counter()
            visits = list(pool.map(_cube_match, [(seed, length, m) for m in range(cube_matches)],
                                   chunksize=8))
            z, n = _worst_z(visits, csolver.value)
            print(f"cubeful to {length}: {cube_matches} matches in "
                  f"{time.perf_counter() - t:.0f} s, {n} scores with >= 30 visits, "
                  f"worst |z| {z:.2f}", flush=True)


def _cube_match(args):
    """One match with the cube between two match-aware copies of the net: the scores it
    visited (away, away, first mover) and whether A won."""
    seed, length, m = args
    mr = MatchRules(length=length, rules=nf.Rules(cube="geometric"))
    rec = play_one_match("net", "net", mr, seed=np.random.SeedSequence(seed, spawn_key=(length, m)),
                         aware=True)
    path = []
    for g, sc in zip(rec.games, rec.scores):
        first = 0 if g.white == "A" else 1
        s = 2 if not path else first
        path.append((length - int(sc["A"]), length - int(sc["B"]), s))
    return path, rec.final_score()["A"] >= length


def _aware_pair(args):
    """One pair of matches on one seed: the aware side's share of the two."""
    seed, mr, score, m = args
    ev = nf.Evaluator.default(mr.rules)
    ss = np.random.SeedSequence(seed, spawn_key=(mr.length, *score, m))
    one = play_one_match(ev, ev, mr, seed=ss, aware=(True, False), score=score)
    two = play_one_match(ev, ev, mr, seed=ss, aware=(False, True), score=score)
    return 0.5 * ((one.final_score()["A"] >= mr.length)
                  + (two.final_score()["B"] >= mr.length)), len(one.games) + len(two.games)


def aware(pairs, seed, scores, cube=False, crawford=False, workers=2):
    """Pairs of matches on one seed (the same dice): A aware at score sa against B money
    at sb, then A money at sa against B aware at sb; the aware side's share of the two
    (0.5 exactly if awareness changed nothing).  With ``cube``: matches with the cube,
    the aware side's cube by the table, the money side's by the money model."""
    from concurrent.futures import ProcessPoolExecutor
    rules = nf.Rules(cube="geometric") if cube else nf.Rules()
    with ProcessPoolExecutor(workers) as pool:
        for length, sa, sb in scores:
            mr = MatchRules(length=length, rules=rules, crawford=crawford)
            t = time.perf_counter()
            out = list(pool.map(_aware_pair, [(seed, mr, (sa, sb), m) for m in range(pairs)],
                                chunksize=16))
            wins = np.array([w for w, _ in out])
            games = sum(g for _, g in out)
            se = wins.std(ddof=1) / math.sqrt(pairs)
            print(f"match to {length}{' cube' if cube else ''}"
                  f"{' crawford' if crawford else ''}, score {sa}-{sb} (A-B), seats "
                  f"swapped: {pairs} pairs ({games} games) in {time.perf_counter() - t:.0f} s: "
                  f"aware wins {wins.mean():.4f} (SE {se:.4f}, z {(wins.mean() - 0.5) / se:+.2f})",
                  flush=True)


class _AtPlies:
    """An evaluator choosing its moves at ``plies`` (``best_move(..., plies=)``)."""

    def __init__(self, ev, plies):
        self.ev, self.plies = ev, plies

    def best_move(self, position, dice, match=None):
        return self.ev.best_move(position, dice, plies=self.plies, match=match)

    def evaluate(self, position, **kw):
        return self.ev.evaluate(position, **kw)


def aware_games(pairs, seed, scores, plies=0):
    """Match-aware against money play, one game per pair member, valued by the table.

    For a score, each pair plays the game at that score twice on the same dice: player A
    aware against B money, then A money against B aware (A the same colour in both, White
    in even pairs).  Each game is valued by A's match winning chance after it
    (``met.outcome_values`` at the score: the table's chance for what follows), so a
    pair scores the aware side's expected share of matches, ``(mwc_A1 + 1 - mwc_A2) / 2``
    (exactly 0.5 when awareness changes no move), with much less noise than whole
    matches played out.
    """
    from nardy_fast.core.position import BLACK, WHITE
    from nardy_fast.engine.decisions.matchplay import _Game, _play_game
    ev = nf.Evaluator.default() if plies == 0 else _AtPlies(nf.Evaluator.default(), plies)
    for length, sa, sb in scores:
        mr = MatchRules(length=length)
        t = time.perf_counter()
        share = np.empty(pairs)
        differ = 0
        for m in range(pairs):
            col = {WHITE: "A", BLACK: "B"} if m % 2 == 0 else {WHITE: "B", BLACK: "A"}
            a_col = WHITE if col[WHITE] == "A" else BLACK
            score = {"A": float(sa), "B": float(sb)}
            state = MatchState(mr, (score[col[WHITE]], score[col[BLACK]]), a_col)
            values = met.outcome_values(state)
            mwc, texts = [], []
            for a_aware in (True, False):
                rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(
                    length, sa, sb, m)))
                game = _Game(mr, col, score, False)
                aware = {c: (col[c] == "A") == a_aware for c in col}
                res = _play_game(game, {WHITE: ev, BLACK: ev}, aware, rng)
                if res["kind"] == "draw":
                    mwc.append(values["draw"])
                else:
                    mwc.append(values[("win_" if res["winner"] == a_col else "loss_")
                                      + res["kind"]])
                texts.append(game.rec.to_text())
            differ += texts[0] != texts[1]
            share[m] = 0.5 * (mwc[0] + 1.0 - mwc[1])
        print(f"{plies}-ply, match to {length}, score {sa}-{sb} (A-B), one game a member: {pairs} pairs "
              f"in {time.perf_counter() - t:.0f} s, games differing in {differ}: aware "
              f"share {share.mean():.4f} (SE {share.std(ddof=1) / math.sqrt(pairs):.4f})",
              flush=True)


def _mover_mwc(r, values):
    """The mover's match winning chance from a rollout ``r`` of the position after its
    move (the other side on roll) and ``values`` (``met.outcome_values`` of the mover):
    the other side's outcome kinds (``met.distribution_of``), each a kind of the mover's
    with win and loss swapped."""
    def mover(kind):
        side, _, what = kind.partition("_")
        return kind if kind == "draw" else ("loss_" if side == "win" else "win_") + what
    return sum(p * values[mover(k)] for k, p in met.distribution_of(r).items())


def aware_decisions(n, games, seed, scores):
    """The decisions where match-aware and money play part, judged by rollouts.

    Decisions: ``bench_errors.decisions`` (seeded self-play of the shipped net, a seeded
    roll each), the side on roll at ``A`` of the score.  Where the match-aware choice
    (``best_move(..., match=)``, 0-ply) differs from the money one, both results are
    rolled out (``games`` games, 0-ply, the default variance reduction, the same seed for
    both: common random numbers) and valued at the score (``met.outcome_values`` of the
    kinds of result).  The gain of awareness on a decision is the aware result's match
    winning chance minus the money one's; its mean over the decisions and its SE from
    their spread, and the same per decision met (differing or not).
    """
    from nardy_fast.engine.play.rollout import rollout
    from bench_errors import decisions
    ev = nf.Evaluator.default()
    pool = decisions(ev, n, 3, seed)
    for length, sa, sb in scores:
        mr = MatchRules(length=length)
        t = time.perf_counter()
        gains = []
        for k, (pos, dice) in enumerate(pool):
            score = (sa, sb) if pos.side == "white" else (sb, sa)
            state = MatchState(mr, score, pos.side)
            aware = ev.best_move(pos, dice, match=state)
            money = ev.best_move(pos, dice)
            if aware == money:
                continue
            values = met.outcome_values(state)
            mwc = [_mover_mwc(rollout(pos.play(m), games, seed=seed + k, workers=1,
                                      progress=False), values) for m in (aware, money)]
            gains.append(mwc[0] - mwc[1])
        g = np.array(gains)
        se = g.std(ddof=1) / math.sqrt(len(g)) if len(g) > 1 else math.nan
        print(f"match to {length}, score {sa}-{sb} (mover-other): {len(pool)} decisions, "
              f"{len(g)} differ; gain of awareness per differing decision {g.mean():+.5f} "
              f"(SE {se:.5f}, z {g.mean() / se:+.2f}), per decision "
              f"{g.sum() / len(pool):+.5f}; {time.perf_counter() - t:.0f} s", flush=True)


def scores(text):
    """argparse type: ``"2:1:0,3:0:2"`` -> ``[(2, 1, 0), (3, 0, 2)]``, each LENGTH:A:B a
    score a match can stand at."""
    out = []
    for sc in text.split(","):
        try:
            length, a, b = (int(x) for x in sc.split(":"))
            MatchState(length, (a, b), "white")
        except ValueError as e:
            why = str(e) if str(e).startswith(("score", "length")) else "expected LENGTH:A:B"
            raise argparse.ArgumentTypeError(f"{sc!r}: {why}") from None
        out.append((length, a, b))
    return out


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="what", required=True)
    sub.add_parser("speed")
    t = sub.add_parser("table")
    t.add_argument("--games", type=int, default=40_000)
    t.add_argument("--cube-matches", type=int, default=300)
    t.add_argument("--seed", type=int, default=16)
    t.add_argument("--workers", type=int, default=2)
    t.add_argument("--points", default=None, help=".npy file of the games (made if missing)")
    t.add_argument("--games-only", action="store_true", help="only play the games")
    a = sub.add_parser("aware")
    a.add_argument("--pairs", type=int, default=300)
    a.add_argument("--seed", type=int, default=16)
    a.add_argument("--scores", type=scores, default="2:1:0,2:0:0",
                   help="comma list of LENGTH:A:B scores")
    a.add_argument("--cube", action="store_true", help="matches with the cube")
    a.add_argument("--crawford", action="store_true", help="the Crawford rule (with --cube)")
    a.add_argument("--workers", type=int, default=2)
    g = sub.add_parser("aware-games")
    g.add_argument("--pairs", type=int, default=2000)
    g.add_argument("--seed", type=int, default=16)
    g.add_argument("--scores", type=scores, default="2:1:0,2:0:0,3:2:0,3:0:2",
                   help="comma list of LENGTH:A:B scores")
    g.add_argument("--plies", type=int, default=0, help="both players' look-ahead")
    d = sub.add_parser("aware-decisions")
    d.add_argument("--decisions", type=int, default=300)
    d.add_argument("--games", type=int, default=1296)
    d.add_argument("--seed", type=int, default=16)
    d.add_argument("--scores", type=scores, default="2:1:1,2:1:0,2:0:1,3:0:2,3:2:0",
                   help="comma list of LENGTH:MOVER:OTHER scores")
    args = p.parse_args()
    if args.what == "speed":
        speed()
    elif args.what == "table":
        if args.games_only:
            if args.points is None:
                p.error("table --games-only: give --points FILE to keep the games in")
            save_points(args.points, _games(args.games, args.seed, args.workers))
        else:
            table(args.games, args.cube_matches, args.seed, args.workers, args.points)
    elif args.what == "aware-decisions":
        aware_decisions(args.decisions, args.games, args.seed,
                        args.scores)
    elif args.what == "aware-games":
        aware_games(args.pairs, args.seed,
                    args.scores,
                    args.plies)
    else:
        aware(args.pairs, args.seed,
              args.scores,
              args.cube, args.crawford, args.workers)


if __name__ == "__main__":
    main()
