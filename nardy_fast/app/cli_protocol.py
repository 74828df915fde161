"""The protocol's commands of ``nardy-fast``: ``engine`` (answer the engine protocol on
stdin/stdout, ``app.protocol``) and ``duel`` (two programs that speak it play mirrored
pairs of games, ``app.duel``)."""
from __future__ import annotations

import math
import os
import sys

from nardy_fast.app._args import (CliError, Interrupted, add_command, add_options,
                                  add_progress, check_timeout, json_text, new_file,
                                  path_name, positive_int, start_position)
from nardy_fast.app.duel import (DuelStopped, EngineFault, duel_summary, play_duel,
                                 write_transcript)
from nardy_fast.app.protocol import DEEPEST_PLIES, serve
from nardy_fast.core.rules import as_rules
from nardy_fast.engine.evaluation.evaluator import DECISION_PLIES

__all__ = ["PARSERS", "cmd_engine", "cmd_duel"]


def _parser_engine(sub):
    s = add_command(sub, "engine", cmd_engine,
                    help="answer the engine protocol on stdin/stdout (for other programs)")
    s.add_argument("--plies", type=int, default=DECISION_PLIES,
                   choices=list(range(DEEPEST_PLIES + 1)),
                   help=f"the look-ahead of 'go', 'eval' and 'cube' until 'setoption name "
                        f"plies' changes it (default {DECISION_PLIES})")
    add_options(s, "rules")


def cmd_engine(args):
    """Answer the engine protocol on standard input and output, a line at a time, until
    'quit' or the end of the input: 'nardy', 'isready', 'setoption name <n> value <v>'
    (plies, rules, match, cube), 'position <ID | start>', 'dice <d1> <d2>', 'go' (->
    'bestmove <move>' in the record notation), 'eval', 'cube', 'quit'.  A line it cannot
    parse gets one 'error <what and why>' line, and it keeps serving.  The specification
    is the documentation page 'The engine protocol and duels'."""
    stdin = sys.stdin
    if hasattr(stdin, "reconfigure"):
        stdin.reconfigure(errors="replace")      # bytes that are no UTF-8: an error line
    serve(stdin, sys.stdout, plies=args.plies, rules=args.rules)


def _parser_duel(sub):
    s = add_command(sub, "duel", cmd_duel,
                    help="two programs that speak the engine protocol play mirrored pairs "
                         "of games")
    s.add_argument("a", metavar="COMMAND_A",
                   help="program A's command line, quoted (e.g. \"nardy-fast engine "
                        "--plies 0\")")
    s.add_argument("b", metavar="COMMAND_B", help="program B's command line, quoted")
    s.add_argument("-n", "--games", type=positive_int, required=True,
                   help="games in all, rounded up to whole pairs (at least 2)")
    add_options(s, "seed", "rules")
    s.add_argument("--start", default=None, metavar="POSITION",
                   help="the position every game starts from (default: the start)")
    s.add_argument("--transcript", type=path_name, default=None, metavar="FILE",
                   help="write every game's record to FILE, one after the other "
                        "(refused if it exists unless --force)")
    s.add_argument("--force", action="store_true",
                   help="replace an existing --transcript file")
    add_options(s, "timeout", "json")
    add_progress(s)


def cmd_duel(args):
    """Start both programs, play --games games in mirrored pairs (the dice of a pair's two
    games the same turn by turn, A White in the first and Black in the second; pair p's
    dice from --seed and p alone), check every move against the legal moves and print A's
    points per game with its standard error (between pairs, the pair being the unit).
    An illegal or missing answer loses the game by forfeit (the most points a game can
    score), named; a program that ends or hangs (--timeout) ends the duel, named, with the
    games finished reported and kept."""
    if args.games < 2:
        raise CliError(f"-n/--games {args.games}: a duel plays pairs of games; expected at "
                       "least 2")
    check_timeout(args.timeout)
    if args.transcript is not None:
        _check_out_file(args.transcript, args.force)
    start = None if args.start is None else start_position(args.start)
    done, names = [], []
    stopped = None
    try:
        r = play_duel(args.a, args.b, args.games, seed=args.seed, rules=args.rules,
                      start=start, timeout=args.timeout, progress=args.progress,
                      on_game=done.append, on_greet=names.extend)
    except EngineFault as e:
        raise CliError(str(e)) from None
    except DuelStopped as e:
        stopped = CliError(f"{e} (after {len(e.records)} game(s); the duel stopped)")
        r = dict(duel_summary(e.records), seed=args.seed, names=e.names, records=e.records)
    except KeyboardInterrupt:
        stopped = Interrupted(f"after {len(done)} of {args.games} games")
        r = dict(duel_summary(done), seed=args.seed, names=names or None, records=done)
    if args.transcript is not None and r["records"]:
        write_transcript(r["records"], args.transcript)
    _print_duel(args, r)
    if stopped is not None:
        raise stopped


def _check_out_file(path, force):
    new_file(path, force, "--transcript", what="a transcript of an earlier duel?")
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise CliError(f"--transcript {path}: no such folder {folder}")


def _print_duel(args, r):
    rules = as_rules(args.rules)
    if args.json:
        out = {k: v for k, v in r.items() if k not in ("records", "points")}
        out.update(a=args.a, b=args.b, rules=rules.to_text(),
                   points=r["points"].tolist(), transcript=args.transcript)
        print(json_text(out))
        return
    names = [n or "?" for n in (r.get("names") or [None, None])]
    print(f"A: {args.a} ({names[0]}); B: {args.b} ({names[1]})")
    n = r["games"]
    print(f"{n} games in {n // 2} mirrored pair(s) (each program White in one game of a "
          f"pair, the same dice), seed {r['seed']}, rules {rules.to_text()}")
    if len(r["records"]) > n:
        print(f"({len(r['records']) - n} game(s) of an unfinished pair left out of the "
              "figures)")
    if n:
        se = (f"SE {r['se_ppg']:.3f}" if not math.isnan(r["se_ppg"])
              else "SE not measured: one pair")
        print(f"A scored {r['ppg']:+.3f} points per game ({se}; the pair is the unit), "
              f"won {r['win_rate']:.3f} of the games (a draw counting half)")
    f = r["forfeits"]
    print(f"forfeits: A {f['A']}, B {f['B']}")
    if args.transcript is not None and r["records"]:
        print(f"transcript of {len(r['records'])} game(s) written to {args.transcript}")


PARSERS = (_parser_engine, _parser_duel)
