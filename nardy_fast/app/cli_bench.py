"""The decision benchmark's commands of ``nardy-fast``: ``benchmark build`` (the file of
rolled-out decisions, ``analysis.decisionbuild``), ``benchmark reroll`` (some of its
decisions rolled out again) and ``benchmark score`` (a player's
error rate on it, ``analysis.decisionbench``; an external engine through the engine
protocol, ``app.duel.EngineProcess``)."""
from __future__ import annotations

import os
import shlex
import shutil
import sys
import warnings

from nardy_fast.analysis import decisionbench
from nardy_fast.analysis.decisionbench import PLAYERS
from nardy_fast.analysis.decisionbuild import DEFAULTS, build, reroll
from nardy_fast.app._args import (CliError, Interrupted, add_command, add_options, add_progress,
                                  check_timeout, in_option_words, json_text, log_file,
                                  path_name, positive_int)
from nardy_fast.app.duel import DEFAULT_TIMEOUT, EngineFault, EngineProcess
from nardy_fast.core.position import read_move
from nardy_fast.core.rules import CLASSIC

__all__ = ["PARSERS", "cmd_benchmark_build", "cmd_benchmark_reroll",
           "cmd_benchmark_score", "engine_player", "player_of"]


def _parser_benchmark(sub):
    s = sub.add_parser("benchmark", help="build the decision benchmark, roll some of its "
                                         "decisions out again, or score a player on it",
                       description="The decision benchmark: positions with dice and their "
                                   "candidate moves, and cube decisions, each rolled out "
                                   "(a Parquet file); a player's error rate on it.")
    bsub = s.add_subparsers(dest="action", metavar="ACTION")
    bsub.required = True
    b = add_command(bsub, "build", cmd_benchmark_build,
                    help="build (or continue) a benchmark file")
    b.add_argument("file", type=path_name, metavar="FILE",
                   help="the Parquet file (continued if it exists)")
    b.add_argument("--checker", type=int, default=DEFAULTS["n_checker"], metavar="N",
                   help="checker-play decisions (default {})".format(DEFAULTS["n_checker"]))
    b.add_argument("--cube", type=int, default=DEFAULTS["n_cube"], metavar="N",
                   help="cube decisions (default {})".format(DEFAULTS["n_cube"]))
    b.add_argument("-n", "--games", type=positive_int, default=DEFAULTS["games"],
                   help="games of every rollout (default {})".format(DEFAULTS["games"]))
    b.add_argument("--source-games", type=int, default=DEFAULTS["source_games"],
                   metavar="N", help="games played to draw the positions from (default "
                                     "{})".format(DEFAULTS["source_games"]))
    b.add_argument("--noise", type=float, default=DEFAULTS["noise"], metavar="POINTS",
                   help="the noisy net's error, standard deviation in points (default "
                        "{})".format(DEFAULTS["noise"]))
    b.add_argument("--window", type=float, default=DEFAULTS["window"], metavar="POINTS",
                   help="candidates within this many points of the best at 0-ply (default "
                        "{})".format(DEFAULTS["window"]))
    b.add_argument("--min-candidates", type=positive_int,
                   default=DEFAULTS["min_candidates"], metavar="N",
                   help="at least N candidates (default {})".format(
                       DEFAULTS["min_candidates"]))
    b.add_argument("--max-candidates", type=positive_int,
                   default=DEFAULTS["max_candidates"], metavar="N",
                   help="at most N candidates (default {})".format(
                       DEFAULTS["max_candidates"]))
    b.add_argument("--batch", type=positive_int, default=10, metavar="K",
                   help="write the file every K decisions (default 10)")
    b.add_argument("--limit", type=positive_int, default=None, metavar="N",
                   help="stop once the file holds N decisions (default: all of them)")
    b.add_argument("--log", type=path_name, default=None, metavar="FILE",
                   help="append a line to FILE at every write (decisions done, CPU time)")
    add_options(b, "seed", "workers", seed=DEFAULTS["seed"], workers=1)
    add_progress(b)
    r = add_command(bsub, "reroll", cmd_benchmark_reroll,
                    help="roll some of a file's decisions out again, into a new file")
    r.add_argument("file", type=path_name, metavar="FILE", help="the benchmark file read")
    r.add_argument("out", type=path_name, metavar="OUT",
                   help="the file written (a new one: never overwritten)")
    r.add_argument("--type", dest="types", action="append", choices=decisionbench.TYPES,
                   help="roll out the decisions of this type again (repeat it for both; "
                        "default both)")
    r.add_argument("--phase", dest="phases", action="append", choices=decisionbench.PHASES,
                   help="and of this phase (repeat it for several; default every phase)")
    r.add_argument("--decision", dest="decisions", type=int, action="append", metavar="N",
                   help="only this decision (its number; repeat it for several; default "
                        "every decision of those types and phases)")
    add_options(r, "workers", workers=1)
    add_progress(r)
    c = add_command(bsub, "score", cmd_benchmark_score,
                    help="a player's error rate on a benchmark file")
    c.add_argument("file", type=path_name, metavar="FILE", help="the benchmark file")
    c.add_argument("--player", default="net", metavar="PLAYER",
                   help="'net', 'net:1', 'net:2', 'greedy', or an engine's command line "
                        "(quoted, e.g. \"nardy-fast engine --plies 0\"): it is asked "
                        "'go' for the checker decisions and 'cube' for the cube ones "
                        "(default 'net')")
    c.add_argument("--part", default="all", choices=["all", "heldout", "public"],
                   help="which part of the file (default all)")
    c.add_argument("--no-cube", dest="cube", action="store_false",
                   help="score the checker decisions only")
    add_options(c, "timeout", "json")
    add_progress(c)


def cmd_benchmark_build(args):
    """Build the decision benchmark FILE, or continue it: positions from seeded games
    between the net and other players (greedy, the net with random errors, the net at
    1-ply), drawn by phase; the candidate moves of each checker decision and the no
    double / double-take of each cube decision rolled out by the judging net at 0-ply,
    with the same seed for every rollout of a decision.  The file is written every --batch
    decisions; a rerun with the same options continues it, and Ctrl-C keeps what is
    finished."""
    log_file(args.log)                          # before the work, not after it

    def log(line):
        print(line, flush=True)
        if args.log:
            with open(args.log, "a", encoding="utf-8") as f:
                f.write(line + "\n")
    try:
        out = build(args.file, n_checker=args.checker, n_cube=args.cube, games=args.games,
                    seed=args.seed, source_games=args.source_games, noise=args.noise,
                    window=args.window, min_candidates=args.min_candidates,
                    max_candidates=args.max_candidates, batch=args.batch,
                    workers=args.workers, limit=args.limit, progress=args.progress, log=log)
    except decisionbench.BenchmarkFileError as e:
        raise CliError(str(e)) from None
    except ValueError as e:                     # a setting refused: in the option's words
        raise CliError(in_option_words(str(e), _OPTIONS)) from None
    print(f"{out['done']} of {out['total']} decisions in {out['path']}")


def cmd_benchmark_reroll(args):
    """Roll out some decisions of the benchmark FILE again with this version, and write
    the whole benchmark to the new file OUT (the others copied).  A file built before
    2026-12-07 wants its cube decisions rolled out again (``--type cube``: their games
    had scored a mars at twice the stake, and a bear-off was valued by Janowski's model)
    and its bear-off ones (``--phase bearoff``: the one-sided approximation's values had
    an SE of 0, as if exact).  Ctrl-C writes nothing."""
    if not os.path.exists(args.file):
        raise CliError(f"{args.file}: no such benchmark file")
    try:
        out = reroll(args.file, args.out, types=args.types or decisionbench.TYPES,
                     phases=args.phases or decisionbench.PHASES,
                     decisions=args.decisions, workers=args.workers,
                     progress=args.progress)
    except (decisionbench.BenchmarkFileError, FileExistsError, ValueError) as e:
        raise CliError(str(e)) from None
    print(f"{out['rerolled']} decisions rolled out again; {out['decisions']} decisions in "
          f"{out['path']}")


# build()'s keywords -> benchmark build's options
_OPTIONS = {"n_checker": "--checker", "n_cube": "--cube", "games": "-n/--games",
            "source_games": "--source-games", "min_candidates": "--min-candidates",
            "max_candidates": "--max-candidates", "noise": "--noise", "window": "--window",
            "batch": "--batch"}


def player_of(text: str, *, timeout: float = DEFAULT_TIMEOUT):
    """The ``(move, cube)`` pair of ``--player text`` (``decisionbench.score``) and the
    engine process to close (None for a toolkit player).

    Raises
    ------
    CliError
        ``text`` is neither a toolkit player (``PLAYERS``) nor a command line (a program
        with arguments, a path, or a program found on the PATH).
    """
    if text in PLAYERS:
        return decisionbench.toolkit_player(text), None
    try:
        argv = shlex.split(text)
    except ValueError:
        argv = []
    looks_like_command = bool(argv) and (len(argv) > 1 or os.sep in argv[0]
                                         or shutil.which(argv[0]) is not None)
    if not looks_like_command:
        raise CliError(f"--player {text!r}: expected one of {', '.join(PLAYERS)} or an "
                       "engine's command line (a program on the PATH or a path, with its "
                       "arguments)")
    try:
        engine = EngineProcess(text, "under test", timeout=timeout)
        return engine_player(engine), engine
    except EngineFault as e:
        raise CliError(f"--player: {e}") from None


def engine_player(engine: EngineProcess):
    """The ``(move, cube)`` pair of an engine speaking the protocol (greeted here):
    ``position``, ``dice``, ``go`` -> ``bestmove`` for a move (read with the record
    notation's reader, ``read_move``, so an illegal answer is an error naming it);
    ``setoption name cube``, ``position``, ``cube`` -> ``cube action=`` for a cube
    decision."""
    engine.greet(CLASSIC)

    def move(position, dice):
        try:
            text = engine.best_move(position, dice)
        except ValueError as e:         # an 'error' line instead of 'bestmove'
            raise EngineFault(f"{engine}, in {position.id} with dice {dice[0]}{dice[1]}: "
                              f"{e}") from None
        try:
            return read_move(position, text, dice)
        except ValueError as e:
            raise EngineFault(f"{engine} answered 'go' in {position.id} with dice "
                              f"{dice[0]}{dice[1]} by {text!r}: {e}") from None

    def cube(position, state):
        owner = "centre" if state.owner == "centre" else position.side
        where = f"in {position.id} with the cube {state.stake} {owner}"
        try:
            engine.send(f"setoption name cube value {state.stake} {owner}")
            engine.send(f"position {position.id}")
            engine.send("cube")
            reply = engine.expect("cube", "cube")
        except (ValueError, EngineFault) as e:  # an 'error' line, or none: no 'cube'?
            what = (f"{e}, {where}" if isinstance(e, EngineFault)
                    else f"{engine}, {where}: {e}")
            raise EngineFault(f"{what}; an engine without the 'cube' command is scored "
                              "with --no-cube") from None
        fields = dict(w.split("=", 1) for w in reply.split() if "=" in w)
        action = fields.get("action", "")
        roller, _, taker = action.partition("/")
        if roller not in ("double", "no-double", "too-good", "no-raise") \
                or taker not in ("take", "pass", "beaver"):
            raise EngineFault(f"{engine} answered 'cube' in {position.id} with {reply!r}: "
                              "expected 'action=<double|no-double|too-good>/<take|pass>'")
        return roller == "double", taker in ("take", "beaver")
    return move, cube


def _check_some_to_score(args, df):
    """A ``CliError`` when ``--part`` and ``--no-cube`` leave no decision of the file
    ``df`` to score (an empty table was printed), saying what the file holds."""
    todo = df if args.part == "all" else df[df["part"] == args.part]
    if not args.cube:
        todo = todo[todo["type"] == "checker"]
    if len(todo):
        return
    asked = [f"--part {args.part}"] * (args.part != "all") + ["--no-cube"] * (not args.cube)
    holds = ", ".join(f"{n} {v}" for col in ("type", "part")
                      for v, n in df[col].value_counts(sort=False).items())
    raise CliError(f"{args.file}: no decision to score"
                   + (f" with {' '.join(asked)}" if asked else "")
                   + f" (it holds {len(df)} decisions" + (f": {holds}" if holds else "")
                   + ")")


def cmd_benchmark_score(args):
    """Score a player on the decision benchmark FILE: for each decision the equity its
    choice loses against the best by rollout; the mean per decision in millipoints
    (points x 1000) with its standard error, the decisions and the blunders (a loss of
    0.16 points or more), per type of decision (checker, double, take) and phase."""
    check_timeout(args.timeout)
    if not os.path.exists(args.file):
        raise CliError(f"{args.file}: no such benchmark file")
    try:
        df = decisionbench.read_bench(args.file)
    except decisionbench.BenchmarkFileError as e:
        raise CliError(str(e)) from None
    _check_some_to_score(args, df)
    (move, cube), engine = player_of(args.player, timeout=args.timeout)
    if engine is None and args.timeout != DEFAULT_TIMEOUT:
        warnings.warn(f"--timeout: no effect with --player {args.player} (a player of the "
                      "toolkit, not a program answering the engine protocol)", UserWarning)
    try:
        table = decisionbench.score(df, (move, cube if args.cube else None),
                                    part=args.part, progress=args.progress)
    except EngineFault as e:
        raise CliError(str(e)) from None
    except KeyboardInterrupt:
        raise Interrupted("while scoring: no error rate is shown of part of the decisions "
                          "(each phase's needs all of them); nothing was written") from None
    finally:
        if engine is not None:
            engine.close()
    if args.json:
        print(json_text({"file": args.file, "player": args.player, "part": args.part,
                         "unit": "millipoints per decision",
                         "rows": table.to_dict("records")}))
        return
    print(f"{args.player} on {args.file} ({args.part}): error rate in millipoints per "
          "decision (mean equity lost against the best by rollout x 1000)")
    print(table.to_string(index=False, float_format=lambda v: f"{v:.1f}", na_rep="-"))
    if table["se"].isna().any():
        print("se -: one decision, too few for a standard error")
    sys.stdout.flush()


PARSERS = (_parser_benchmark,)
