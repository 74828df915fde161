"""Same seeds, same numbers: fingerprint a commit's results through the public API.

Runs the demo and a set of seeded rollouts (every policy, variance-reduction estimator
and truncation kind, with their ``extra`` keys), reports, evaluations, cube decisions
(stakes, owners, plies 0 and 2, beaver, arithmetic, match play), match tables, whole
matches, studies, the bear-off tables, the cube analysis of a record and of a match, the
luck of a game, the strength check, the first steps of TD, supervised and luck-net
training, and the main command-line commands' output and analysis page, and writes
every number (and a hash of every file written) to a JSON file.  Run it on two commits
and compare; a refactoring that changes no behaviour must give identical files:

    python tools/same_numbers.py -o before.json          # on the old commit
    python tools/same_numbers.py -o after.json           # on the new commit
    python tools/same_numbers.py --compare before.json after.json

The rule that keeps it runnable on either side of a move of modules: it uses only names
that both layouts export, ``nardy_fast.<name>`` (and attributes of their results), and
the command line through ``nardy_fast.app.cli.main``.  What a run of one commit cannot
reproduce is removed (dates, times of day, durations, the temporary folder's name; see
``_stable``).  The results depend on the bear-off tables found in the data folder: the
mars table is never built here, and whether it was found is recorded ("mars table
loaded"), as the rollouts' truncation uses it; compare runs that found the same tables.

It takes about 55 s on one core (Python 3.11, 2026-12-03; progress to stderr gives the
time of each part), of which 30 s are the rollouts, reports, studies and demo at the top.
"""
import argparse
import contextlib
import hashlib
import io
import json
import math
import os
import re
import sys
import tempfile
import time
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

    t0 = time.perf_counter()
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
                         method="net", plies=1, progress=False)
        out["study evaluate 1-ply"] = _floats(frame)
    with tempfile.TemporaryDirectory() as d:
        try:                          # lazy: the demo module's home moved with the layers
            from nardy_fast.app import demo
        except ImportError:           # the flat layout of 0.1: nardy_fast.demo
            from nardy_fast import demo
        demo.run(out=d, n_games=300, seed=5, workers=1, quiet=True)
        for name in sorted(os.listdir(d)):
            if name.endswith((".csv", ".txt")):
                with open(os.path.join(d, name), "rb") as f:
                    out[f"demo {name}"] = hashlib.sha256(f.read()).hexdigest()
    print(f"core: {time.perf_counter() - t0:.0f} s", file=sys.stderr)
    for part in (_variance_reduction, _truncation, _cube, _tables, _records, _training,
                 _cli):
        t = time.perf_counter()
        part(nf, out)
        print(f"{part.__name__[1:]}: {time.perf_counter() - t:.0f} s", file=sys.stderr)
    return out


def _extra(o):
    """An outcome's ``extra`` keys, without any that measure time (not reproducible)."""
    extra = getattr(o, "extra", None) or {}
    return {k: _floats(v) for k, v in extra.items()
            if not any(w in k for w in ("time", "second", "elapsed", "rate_per"))}


def _variance_reduction(nf, out):
    """The variance-reduction estimators and 1-ply policies, with their extra keys."""
    middle = nf.Position.from_id(MIDDLE)
    for vr in ("luck", "luck:2", "luck-net"):
        r = nf.rollout(middle, 144, seed=21, workers=1, variance_reduction=vr,
                       progress=False)
        out[f"rollout vr={vr}"] = _outcome(r)
        out[f"rollout vr={vr} extra"] = _extra(r)
    r = nf.rollout(middle, 36, policy="net:1", seed=22, workers=1, progress=False,
                   variance_reduction=True)
    out["rollout net:1 vr"] = _outcome(r)
    out["rollout net:1 vr extra"] = _extra(r)
    r = nf.rollout(middle, 1296, seed=23, workers=1, progress=False)
    out["rollout plain extra"] = _extra(r)


def _truncation(nf, out):
    """Truncation kinds on race positions (race12 needs its database: its absence is
    recorded as the error's type, which is the same on both sides of a refactor)."""
    races = nf.race_sample(3, seed=5, kind="race")
    out["race_sample race"] = [p.id for p in races]
    out["race_sample bearoff"] = [p.id for p in nf.race_sample(3, seed=5)]
    for kind in ("bearoff", "race12", None):   # None: play every game out
        try:
            r = nf.rollout(races[0], 648, seed=24, workers=1, truncate=kind, progress=False)
            out[f"rollout truncate={kind}"] = _outcome(r)
        except Exception as e:   # race12 without its database
            out[f"rollout truncate={kind}"] = f"error {type(e).__name__}"
    try:
        out["race12_probabilities"] = _outcome(nf.race12_probabilities(races[0]))
    except Exception as e:
        out["race12_probabilities"] = f"error {type(e).__name__}"
    out["race_report"] = _floats(nf.race_report(races, method="auto"))
    out["pip_report"] = _floats(nf.pip_report(races + [MIDDLE]))


def _cube(nf, out):
    """The cube model's values: stakes, owners, plies, beaver, arithmetic, match play."""
    for plies in (0, 2):
        for stake, owner in ((1, "centre"), (2, "mover"), (4, "opponent")):
            d = nf.cube_decision(MIDDLE, nf.CubeState(stake=stake, owner=owner),
                                 method="janowski", plies=plies)
            out[f"cube_decision plies={plies} stake={stake} {owner}"] = _floats(d)
    for name, rules in (("beaver", nf.Rules(cube="geometric", beaver=True)),
                        ("arithmetic", nf.Rules(cube="arithmetic"))):
        out[f"cube_decision {name}"] = _floats(nf.cube_decision(MIDDLE, rules=rules,
                                                                 plies=0))
    race = nf.race_sample(1, seed=6)[0]
    out["cube_decision exact race"] = _floats(nf.cube_decision(race, method="auto"))
    five = nf.MatchRules(length=5, rules=nf.Rules(cube="geometric"))
    out["cube_decision at 2-3 of 5"] = _floats(nf.cube_decision(
        MIDDLE, match=nf.MatchState(length=five, score=(2, 3)), plies=0))
    for p in (0.3, 0.7, 0.85):
        for score in ((0, 0), (2, 3), (4, 2)):
            st = nf.MatchState(length=five, score=score)
            out[f"match_cube_decision {p} {score}"] = _floats(nf.match_cube_decision(p, st))
    for score in ((0, 0), (1, 2), (2, 2)):
        out[f"outcome_values {score} of 3"] = _floats(nf.outcome_values(
            nf.MatchState(length=3, score=score)))
    out["start_distribution"] = _floats(nf.start_distribution())
    out["start_distribution match 3"] = _floats(nf.start_distribution(
        nf.MatchRules(length=3)))


def _tables(nf, out):
    """The bear-off tables: one-sided and two-sided queries, the mars table (a query a
    table does not cover is recorded as the error's type)."""
    races = nf.race_sample(6, seed=7)
    one = nf.bearoff.one_sided(progress=False)
    two = nf.bearoff.two_sided(progress=False)
    mars = nf.bearoff.mars_table(build=False, progress=False)
    out["mars table loaded"] = mars is not None
    for p in races:
        a, b = p.boards[0][18:], p.boards[1][18:]
        for name, table in (("two_sided", two), ("mars", mars)):
            if table is None:
                continue
            try:
                out[f"bearoff {name} {p.id}"] = _floats(table.probabilities(a, b))
            except ValueError as e:
                out[f"bearoff {name} {p.id}"] = f"error {type(e).__name__}"
        out[f"bearoff race_probabilities {p.id}"] = _outcome(nf.race_probabilities(p))
    homes = [p.boards[0][18:] for p in races] + [p.boards[1][18:] for p in races]
    out["bearoff one_sided mean_turns"] = _floats([one.mean_turns(h) for h in homes])
    out["bearoff one_sided distribution"] = _floats(list(one.distribution(homes[0])))
    out["bearoff one_sided epc"] = _floats([one.epc(h) for h in homes])


def _records(nf, out):
    """Cube analysis of a record, a whole match analysed with the cube."""
    rec = nf.random_game(seed=4)
    cubed = nf.random_game(seed=4, rules=nf.Rules(cube="geometric"))
    out["cube_analysis"] = _floats(nf.cube_analysis(cubed, method="janowski", workers=1))
    m = nf.play_one_match("greedy", "random", nf.MatchRules(
        length=3, rules=nf.Rules(cube="geometric")), seed=3)
    with tempfile.TemporaryDirectory() as d:
        nf.write_match(m, os.path.join(d, "m.txt"))
        out["play_one_match"] = _file_hash(os.path.join(d, "m.txt"))
    frame = nf.analyse_match(m, progress=False, cube=True, workers=1)
    out["analyse_match cube"] = _floats(frame)
    out["error_rates"] = _floats(nf.error_rates(nf.game_report(rec, analyse=True,
                                                               workers=1)))
    out["vs_greedy"] = _floats(nf.vs_greedy(nf.Evaluator.default(), 40, seed=3))


def _file_hash(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def _training(nf, out):
    """The first steps of TD, supervised and luck-net training on tiny seeded inputs:
    the hash of the net file each writes (the supervised and luck-net fits are reached
    through the command line, their only public path)."""
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "td.nfdb")
        nf.train_self_play(path, 40, seed=3, threads=1, checkpoint_every=20,
                           check_every=0, progress=False)
        # the net's values, not the file's hash: the checkpoint written by
        # train_self_play differs between two runs of one seed (its bookkeeping, not
        # its weights: the values below are identical)
        ev = nf.Evaluator.load(path)
        for pid in (MIDDLE, RACE, nf.Position.initial().id):
            out[f"train_self_play 40 games evaluate {pid}"] = _outcome(
                ev.evaluate(nf.Position.from_id(pid)))
        runs = (("train 30 games", "cli.nfdb", ["train", "-n", "30", "--seed", "4",
                                                 "--threads", "1", "--check-every", "0"]),
                ("train-net 1 round", "sup.nfdb", ["train-net", "--rounds", "1", "--games",
                                                   "6", "--epochs", "1", "--seed", "4",
                                                   "--no-progress"]),
                ("train-luck 6 games", "luck.nfdb", ["train-luck", "-n", "6", "--hidden",
                                                     "16", "--middle", "0", "--epochs", "1",
                                                     "--seed", "4", "--no-progress"]))
        for name, file, argv in runs:
            path = os.path.join(d, file)
            out[f"cli {name}"] = _cli_run(argv + ["-o", path])
            out[f"cli {name} file"] = _net_hash(path) if os.path.exists(path) else None


def _net_hash(path):
    """A hash of a net file's arrays and of its metadata without the durations it records
    (``seconds``, ``*_seconds``): the file's bytes differ between two runs of one seed by
    the time the training took, its weights do not."""
    import numpy as np
    from nardy_fast._utils import _dbfile
    header, _ = _dbfile.read_header(path)
    meta, arrays = _dbfile.read_db(path, header.get("kind"))
    h = hashlib.sha256(json.dumps(_timeless(meta), sort_keys=True, default=str).encode())
    for key in sorted(arrays):
        h.update(key.encode())
        h.update(np.ascontiguousarray(arrays[key]).tobytes())
    return h.hexdigest()


def _timeless(x):
    if isinstance(x, dict):
        return {k: _timeless(v) for k, v in x.items()
                if not (k == "seconds" or k.endswith("_seconds") or k in ("date", "time"))}
    if isinstance(x, list):
        return [_timeless(v) for v in x]
    return x


# Not reproducible between two runs of one commit, so not fingerprinted: dates and times
# of day (the page's settings, a report's header) become placeholders; lines stating a
# duration or a speed are left out; the temporary folder's name becomes <tmp>.  The
# toolkit's version (the page's settings) becomes <version>: a release changes no number.
_DATE = re.compile(r"\d{4}-\d\d-\d\d")
_CLOCK = re.compile(r"\d\d:\d\d(:\d\d)?(\.\d+)?([+-]\d\d:?\d\d|Z|\s*UTC)?")
_DURATION = re.compile(r"(\bseconds?\b|\d\s*m?s\b|\belapsed\b|/s\b|per second|\btook\b)",
                       re.IGNORECASE)
_TMP = re.compile(re.escape(tempfile.gettempdir()) + r"[/\\][^/\\\s]+")
_VERSION = re.compile(r"\b(nardy[_-]fast) \d+\.\d+\.\d+(?:[.+-]?[A-Za-z0-9]+)*")


def _stable(text):
    """``text``'s lines, with the run-dependent parts above removed."""
    lines = []
    for line in text.splitlines():
        line = _CLOCK.sub("<time>", _DATE.sub("<date>", _TMP.sub("<tmp>", line)))
        line = _VERSION.sub(r"\1 <version>", line)
        if not _DURATION.search(line):
            lines.append(line)
    return lines


def _cli_run(argv):
    """Run ``nardy-fast ARGV`` in this process: its exit code and its standard output
    (``_stable``); standard error (warnings, progress) is not kept."""
    from nardy_fast.app import cli
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf), contextlib.redirect_stderr(io.StringIO()):
        try:
            code = cli.main(argv)
        except SystemExit as e:
            code = e.code
    return {"code": code, "stdout": _stable(buf.getvalue())}


def _cli(nf, out):
    """The main commands' standard output (and the analysis page's HTML, hashed)."""
    rec = nf.random_game(seed=4, rules=nf.Rules(cube="geometric"))
    m = nf.play_one_match("greedy", "random", nf.MatchRules(length=3), seed=3)
    with tempfile.TemporaryDirectory() as d:
        game = os.path.join(d, "game.txt")
        with open(game, "w") as f:
            f.write(rec.to_text())
        match = os.path.join(d, "match.txt")
        nf.write_match(m, match)
        ids = os.path.join(d, "ids.txt")
        with open(ids, "w") as f:
            f.write("\n".join([MIDDLE, RACE, "start"]) + "\n")
        runs = {
            "show": ["show", MIDDLE],
            "moves": ["moves", MIDDLE, "63"],
            "rollout": ["rollout", MIDDLE, "-n", "648", "--seed", "9", "--workers", "1",
                        "--no-progress"],
            "hint": ["hint", MIDDLE, "52", "--plies", "1"],
            "hint json": ["hint", MIDDLE, "52", "--plies", "0", "--json"],
            "cube": ["cube", MIDDLE, "--plies", "0"],
            "cube json beaver": ["cube", MIDDLE, "--plies", "2", "--beaver", "--json"],
            "met": ["met", "--length", "5"],
            "matches": ["matches", "net", "greedy", "-n", "6", "--length", "3", "--seed",
                        "2", "--no-progress"],
            "bearoff query": ["bearoff", "query", RACE],
            "analyse": ["analyse", game, "--cube", "--workers", "1", "--no-progress",
                        "--html", os.path.join(d, "page.html")],
            "analyse match": ["analyse", match, "--workers", "1", "--no-progress"],
            "rollout truncate none": ["rollout", RACE, "-n", "324", "--seed", "9",
                                      "--workers", "1", "--truncate", "none",
                                      "--no-progress"],
            "report": ["report", ids, "-o", os.path.join(d, "rep"), "-n", "300",
                       "--seed", "3", "--workers", "1", "--no-progress"],
        }
        for name, argv in runs.items():
            out[f"cli {name}"] = _cli_run(argv)
        page = os.path.join(d, "page.html")
        if os.path.exists(page):
            with open(page, encoding="utf-8") as f:
                html = "\n".join(_stable(f.read()))
            out["page html"] = hashlib.sha256(html.encode()).hexdigest()
        rep = os.path.join(d, "rep")
        for name in sorted(os.listdir(rep)) if os.path.isdir(rep) else ():
            if name.endswith(".csv"):
                out[f"cli report {name}"] = _file_hash(os.path.join(rep, name))


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
