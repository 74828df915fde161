"""Same seeds, same numbers: fingerprint a commit's results through the public API.

Runs the demo and a set of seeded rollouts, reports and evaluations, and writes every
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
