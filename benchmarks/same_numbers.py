"""Same seeds, same numbers: fingerprint a commit's results through the public API.

Runs the demo and a set of seeded rollouts, reports, evaluations, cube decisions, match
tables, whole matches, studies and the luck of a game, and writes every
number (and a hash of every CSV the demo writes) to a JSON file.  Run it on two commits
and compare; a refactoring that changes no behaviour must give identical files:

    python benchmarks/same_numbers.py -o before.json          # on the old commit
    python benchmarks/same_numbers.py -o after.json           # on the new commit
    python benchmarks/same_numbers.py --compare before.json after.json

Only names that both layouts export are used (``nardy_fast.<name>``), so the script runs
unchanged on either side of a move of modules.
"""
import argparse
import hashlib
import json
import math
import os
import sys
import tempfile
import warnings

MIDDLE = "WlgAAAAEAEQACAQAAAAAAAAAQABAAAhIg"
RACE = "W" + "A" * 28 + "ERER"


def _floats(obj):
    """Plain JSON values: numbers kept exactly (repr of floats), frames as dicts."""
    if hasattr(obj, "to_dict") and hasattr(obj, "columns"):
        return {str(k): _floats(v) for k, v in obj.to_dict(orient="index").items()}
    if isinstance(obj, dict):
        return {str(k): _floats(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_floats(v) for v in obj]
    if hasattr(obj, "item") and not isinstance(obj, (str, bytes)):
        obj = obj.item()
    if isinstance(obj, float):
        return "nan" if math.isnan(obj) else repr(obj)
    if isinstance(obj, (int, str, bool)) or obj is None:
        return obj
    return str(obj)


def _outcome(o):
    keep = ("p_win", "p_mars_win", "p_mars_loss", "p_lose", "equity", "se_equity", "method")
    return {k: _floats(getattr(o, k, None)) for k in keep}


def fingerprint():
    warnings.simplefilter("ignore")
    import numpy as np
    import nardy_fast as nf

    out = {}
    start = nf.Position.initial()
    middle = nf.Position.from_id(MIDDLE)
    for pol in ("net", "greedy", "random", ("net", "greedy")):
        r = nf.rollout(start, 2592, policy=pol, seed=11, workers=1)
        out[f"rollout {pol}"] = _outcome(r)
    r = nf.rollout(middle, 2592, seed=12, workers=2, dice=(6, 3))
    out["rollout middle 6-3 workers=2"] = _outcome(r)
    out["rollout_many"] = _floats(nf.rollout_many([MIDDLE, start.id], 1296, seed=3,
                                                  workers=1))
    ev = nf.Evaluator.default()
    for plies in (0, 1, 2):
        out[f"evaluate {plies}-ply"] = _outcome(ev.evaluate(middle, plies=plies))
    boards = np.stack([middle.boards, start.boards])
    out["evaluate array"] = _floats(list(ev.evaluate(boards)))
    out["hint 1-ply"] = _floats(ev.hint(middle, (6, 3), plies=1))
    out["win_report"] = _floats(nf.win_report([MIDDLE, start.id]))
    out["move_report"] = _floats(nf.move_report(middle, (5, 2)))
    out["race"] = _outcome(nf.race_probabilities(nf.Position.from_id(RACE)))
    out["cube_report"] = _floats(nf.cube_report([MIDDLE], rules=nf.Rules(cube="geometric")))
    out["cube_decision janowski"] = _floats(nf.cube_decision(MIDDLE, method="janowski"))
    out["cube_decision rollout"] = _floats(nf.cube_decision(MIDDLE, method="rollout",
                                                            n_games=300, seed=8, workers=1))
    out["evaluate_many 1-ply"] = _floats(ev.evaluate_many([MIDDLE, start.id], plies=1))
    # match play: the stored and computed tables, cubeful, and whole matches
    out["met 5 stored"] = _floats(nf.match_equity_table(5))
    out["met 3 cube computed"] = _floats(nf.match_equity_table(3, cube=True, stored=False))
    out["met 3 computed"] = _floats(nf.match_equity_table(3, stored=False))
    m = nf.simulate_matches("net", "greedy", 12, length=3, seed=1, progress=False)
    out["simulate_matches"] = _floats({k: m[k] for k in sorted(m) if k != "games"})
    st = nf.MatchState(length=5, score=(2, 3))
    out["rollout at 2-3 of 5"] = _outcome(nf.rollout(middle, 648, seed=13, workers=1,
                                                     match=st, progress=False))
    # luck and analysis of a whole game (the luck columns are the luck estimator's)
    rec = nf.random_game(seed=4)
    out["game_report analyse"] = _floats(nf.game_report(rec, analyse=True, n_games=50,
                                                         seed=2, workers=1))
    with tempfile.TemporaryDirectory() as d:
        frame = nf.study([MIDDLE, start.id, RACE], 300, os.path.join(d, "s.parquet"),
                         seed=7, workers=1, progress=False)
        out["study"] = _floats(frame)
        frame = nf.study([MIDDLE, start.id], 0, os.path.join(d, "e.parquet"), seed=7,
                         method="evaluate", plies=1, progress=False)
        out["study evaluate 1-ply"] = _floats(frame)
    with tempfile.TemporaryDirectory() as d:
        from nardy_fast import demo   # old layout: the module; new layout: an alias
        demo.run(out=d, n_games=300, seed=5, workers=1, quiet=True)
        for name in sorted(os.listdir(d)):
            if name.endswith((".csv", ".txt")):
                with open(os.path.join(d, name), "rb") as f:
                    out[f"demo {name}"] = hashlib.sha256(f.read()).hexdigest()
    return out


def compare(a_path, b_path):
    with open(a_path) as f:
        a = json.load(f)
    with open(b_path) as f:
        b = json.load(f)
    keys = sorted(set(a) | set(b))
    bad = [k for k in keys if a.get(k) != b.get(k)]
    for k in bad:
        print(f"DIFFERS: {k}")
    print(f"{len(keys) - len(bad)} of {len(keys)} results identical")
    return 1 if bad else 0


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-o", "--output", help="write the fingerprint here")
    ap.add_argument("--compare", nargs=2, metavar=("BEFORE", "AFTER"))
    args = ap.parse_args(argv)
    if args.compare:
        return compare(*args.compare)
    data = fingerprint()
    text = json.dumps(data, indent=1, sort_keys=True)
    if args.output:
        with open(args.output, "w") as f:
            f.write(text)
    else:
        print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
