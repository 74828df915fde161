"""The decision benchmark's rollouts: their cost and the standard error of the
difference between two candidates of a decision (common random numbers).

The build (``nardy-fast benchmark build``) rolls out every candidate of a decision with
the same seed, so the rolls of the candidates' games are shared and the difference
between two candidates (what a player's loss is) is known better than either equity.  A
rollout reports each equity's SE, not the SE of a difference; this script measures it:
the first ``--decisions`` checker decisions of a small plan (``decisionbuild.plan``,
``--seed``; of ``--phases``, default the contact ones) are rolled out ``--repeats`` times with different seeds, ``--games`` games
each (the build's rollout: the judging net at 0-ply, ``decisionbuild._roll``), and the
spread between repeats of each candidate's equity minus the best candidate's gives the
SE of the difference, scaled to the build's ``--build-games`` by the square root of the
games ratio.  The same candidates against the best of the next repeat (another seed) give
the difference's SE had the rollouts been independent (repeat ``k`` has the seed 1000 x
``--seed`` + ``k``).  Printed, after the seeds: the median SE of one
candidate's equity, of a difference with the same seed and with independent seeds, and
the CPU-seconds per candidate rollout of ``--games`` games.  The rollouts keep their
games (``rollout_games``, the build's rollout settings), so the script also prints the
median paired SE that each repeat reports for a difference (``RolloutGames.difference``):
it should match the spread between repeats.

    python benchmarks/bench_decisionbench.py [--decisions 6] [--repeats 4] [--games 324]

``--score FILE``: instead, the toolkit's players (``decisionbench.PLAYERS``) scored on
the benchmark file ``FILE`` (``decisionbench.score``), one Markdown table row each: the
error rate in millipoints per decision with its SE, and the decisions, for checker play,
the double and the take (the README's table), then checker play per phase.
"""
import argparse
import os
import time

import numpy as np

import nardy_fast as nf
from nardy_fast.analysis import decisionbench, decisionbuild


def _blunders(n):
    return f"{n} blunder{'' if n == 1 else 's'}"


def _rate(rate, se, n):
    """``rate +- se`` (millipoints); a single decision has no spread to give an SE."""
    return f"{rate:.1f} +- {se:.1f}" if n > 1 else f"{rate:.1f} (one decision: no SE)"


def score_table(path):
    """The Markdown rows of the toolkit's players on the benchmark file ``path``: the
    README's table (checker play, double, take), then checker play per phase."""
    df = decisionbench.read_bench(path)
    print(f"{path}: {(df['type'] == 'checker').sum()} checker and "
          f"{(df['type'] == 'cube').sum()} cube decisions")
    print("| player | checker play | double | take |")
    print("|---|---|---|---|")
    tables = {}
    for player in decisionbench.PLAYERS:
        t = tables[player] = decisionbench.score(df, player).set_index(["type", "phase"])
        cells = []
        for typ in ("checker", "double", "take"):
            if (typ, "all") not in t.index:
                cells.append("-")
                continue
            r = t.loc[(typ, "all")]
            cells.append(f"{_rate(r['error_rate'], r['se'], r['decisions'])} "
                         f"({int(r['decisions'])}, {_blunders(int(r['blunders']))})")
        print(f"| `{player}` | " + " | ".join(cells) + " |")
    # the phases in the order of the scoring's table (the game's order)
    phases = [ph for typ, ph in next(iter(tables.values())).index
              if typ == "checker" and ph != "all"]
    print()
    print("checker play per phase, error rate in millipoints +- SE (decisions):")
    print("| player | " + " | ".join(phases) + " |")
    print("|---|" + "---|" * len(phases))
    for player, t in tables.items():
        cells = [f"{_rate(*t.loc[('checker', ph), ['error_rate', 'se', 'decisions']])} "
                 f"({int(t.loc[('checker', ph), 'decisions'])})" for ph in phases]
        print(f"| `{player}` | " + " | ".join(cells) + " |")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--decisions", type=int, default=6)
    ap.add_argument("--repeats", type=int, default=4)
    ap.add_argument("--games", type=int, default=324)
    ap.add_argument("--build-games", type=int, default=decisionbuild.DEFAULTS["games"])
    ap.add_argument("--seed", type=int, default=3)
    ap.add_argument("--phases", default="opening,middle,late",
                    help="the phases of the decisions measured (default: contact)")
    ap.add_argument("--score", metavar="FILE", default=None,
                    help="score the toolkit's players on FILE instead")
    a = ap.parse_args()
    if a.score:
        if not os.path.isfile(a.score):
            ap.error(f"--score {a.score}: no such file")
        try:
            score_table(a.score)
        except decisionbench.BenchmarkFileError as e:
            ap.error(f"--score {e}")
        return
    for name, least in (("decisions", 1), ("repeats", 2), ("games", 1), ("build_games", 1),
                        ("seed", 0)):
        if getattr(a, name) < least:
            ap.error(f"--{name.replace('_', '-')} {getattr(a, name)}: expected >= {least}"
                     + (" (the SE is the spread between repeats)" if name == "repeats"
                        else ""))
    phases = a.phases.split(",")
    unknown = [p for p in phases if p not in decisionbench.PHASES]
    if unknown:
        ap.error(f"--phases {a.phases}: {', '.join(unknown)} not of "
                 f"{', '.join(decisionbench.PHASES)}")
    rows = [r for r in decisionbuild.plan({"source_games": 12, "n_checker": 40, "n_cube": 0,
                                           "seed": a.seed})
            if r["type"] == "checker" and r["phase"] in phases][:a.decisions]
    if not rows:
        ap.error(f"--phases {a.phases}: the plan of --seed {a.seed} has no checker "
                 "decision of them")
    judge = decisionbuild.judge_evaluator()
    scale = (a.games / a.build_games) ** 0.5
    se_one, se_diff, se_indep, se_paired = [], [], [], []
    cpu, n_roll = 0.0, 0
    for r in rows:
        eq = []
        afters = [nf.Position.from_id(i) for i in r["ids_after"]]
        for k in range(a.repeats):
            t = time.process_time()
            # the build's rollout (decisionbuild._roll), its games kept
            rg = nf.rollout_games(afters, a.games, policy=judge, seed=1000 * a.seed + k,
                                  workers=1, progress=False)
            cpu += time.process_time() - t
            n_roll += len(r["moves"])
            eq.append([-o.equity for o in rg.outcomes])           # the mover's view
            se_one += [o.se_equity * scale for o in rg.outcomes]
            se_paired += [rg.difference(j, 0)[1] * scale for j in range(1, len(afters))]
        eq = np.array(eq)                             # repeats x candidates
        diff = eq - eq[:, :1]
        se_diff += list(diff[:, 1:].std(axis=0, ddof=1) * scale)
        # the same candidates against the best of the next repeat (another seed): what
        # the difference's SE would be with independent rollouts
        indep = eq - np.roll(eq[:, :1], 1, axis=0)
        se_indep += list(indep[:, 1:].std(axis=0, ddof=1) * scale)
    print(f"{len(rows)} decisions ({', '.join(r['phase'] for r in rows)}) of the plan of "
          f"seed {a.seed}, {a.repeats} repeats of {a.games} games (rollout seeds "
          f"{1000 * a.seed}-{1000 * a.seed + a.repeats - 1}), scaled to {a.build_games} "
          "games:")
    print(f"  median SE of a candidate's equity      {np.median(se_one):.4f}")
    print(f"  median SE of a difference of two (CRN) {np.median(se_diff):.4f}")
    print(f"  ... with independent seeds             {np.median(se_indep):.4f}")
    print(f"  median paired SE the rollouts report   {np.median(se_paired):.4f}")
    print(f"  CPU-seconds per candidate rollout of {a.games} games: {cpu / n_roll:.2f}")


if __name__ == "__main__":
    main()
