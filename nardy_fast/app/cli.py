"""The ``nardy-fast`` command line: parse, call the public API, print.

Subcommands: ``show``, ``moves``, ``hint``, ``play``, ``rollout``, ``study`` (and ``study
show|export STORE``), ``bearoff build|query``, ``report``, ``analyse``, ``cube``, ``met``,
``matches``, ``train``, ``train-net``, ``average-nets``, ``train-rollouts``, ``train-luck``,
``engine``,
``duel``, ``demo``;
``nardy-fast <command> --help`` for each, ``nardy-fast --version``.  Bad input gives a one-line ``nardy-fast: error: ...`` on stderr
and exit status 1 (2 for a usage error); a Python warning is one line ``nardy-fast:
warning: ...``.  Ctrl-C prints what was finished, then ``nardy-fast: interrupted ...``, and
exits with status 130 (SIGTERM, as a batch scheduler stops a job, does the same with
status 143); files are written whole or not at all.  When the reader of standard output
leaves (``... | head -1``) the command stops quietly, status 141.  ``--json`` output has one
layout (``_args.json_text``).
"""
from __future__ import annotations

import argparse
import contextlib
import functools
import json
import math
import os
import re
import sys
import warnings


from nardy_fast.analysis import matchreport, plot, report
from nardy_fast.analysis.export import save as save_frame
from nardy_fast.analysis.report import DEFAULT_GAMES, METHODS as REPORT_METHODS
from nardy_fast.analysis.study import (METHODS as STUDY_METHODS, read_position_ids,
                                       read_study, study)
from nardy_fast.app import cli_bench, cli_engine, cli_protocol, demo
from nardy_fast.app.duel import read_transcript
from nardy_fast.app._args import (ROLLOUT_FLAGS, CliError, Interrupted, _client, _position,
                                  _truncate, add_command, add_options, add_progress,
                                  add_rollout_options, in_file, int_in, json_text, out_folder,
                                  given, new_file, path_name, picture_format, positive_int,
                                  read_text, earlier_files, remove_stale, rollout_defaults,
                                  was_given, close_client, in_option_words,
                                  SIGTERM_STATUS, sigterm_as_ctrl_c, CUBE_AWARE_WORDS,
                                  CUBELESS_WORDS)
from nardy_fast._utils._io import atomic_write
from nardy_fast._utils._version import __version__
from nardy_fast.core.diagram import plot_board, save_figure
from nardy_fast.core.matchrecord import looks_like_match, read_match
from nardy_fast.core.matlayout import looks_like_mat, read_mat, read_mat_game
from nardy_fast.core.methods import method_kind, method_label
from nardy_fast.core.position import PIPS_PER_ROLL, Position
from nardy_fast.core.record import MAGIC as RECORD_MAGIC, looks_like_record, read_record
from nardy_fast.core.result import shown
from nardy_fast.core.rules import CLASSIC, as_rules
from nardy_fast.engine.evaluation.evaluator import BULK_PLIES
from nardy_fast.engine.play.luck import LUCK_PLIES
from nardy_fast.engine.play.parallel import kill_pools
from nardy_fast.engine.play.rollout import Stopped, as_served, check_playable, rollout
from nardy_fast.engine.play.settings import RolloutSettings
from nardy_fast._utils.compute import Compute
from nardy_fast.tables import bearoff, race12
from nardy_fast.tables.bearoff_complete import (DEFAULT_MEMORY, build_complete, default_store,
                                              parse_memory)
from nardy_fast.tables.race import race_probabilities

__all__ = ["main", "build_parser"]

PROG = "nardy-fast"
DOCS_WIDTH = 64           # characters of a usage line on the documentation's page


def build_parser():
    """The argparse parser of ``nardy-fast``."""
    p = argparse.ArgumentParser(
        prog=PROG,
        description="Analyse long nardy: positions, legal moves, rollouts, bear-off "
                    "databases, reports and game records.  Positions are given by their "
                    "ID (see 'show'); 'start' is the initial position.",
        epilog=f"'{PROG} COMMAND --help' explains each command.")
    p.add_argument("--version", action="version", version=f"{PROG} {_version()}",
                   help="print the version of nardy_fast and exit")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for add in (
            _parser_show, _parser_moves, _parser_rollout, _parser_study, _parser_bearoff,
            _parser_report, _parser_analyse, *cli_engine.PARSERS, *cli_protocol.PARSERS,
            *cli_bench.PARSERS,
            _parser_demo,
            _parser_study_actions):
        add(sub)
    return p


def docs_parser():
    """``build_parser()`` as the documentation's page of the command line shows it: the
    hidden spellings ``study-show`` and ``study-export`` under their documented names,
    ``study show`` and ``study export``, right after ``study``; usage lines of
    ``DOCS_WIDTH`` characters."""
    p = build_parser()
    sub = next(a for a in p._actions if isinstance(a, argparse._SubParsersAction))
    named = {f"study {a}": sub.choices[f"study-{a}"] for a in STUDY_ACTIONS}
    choices = {}
    for name, parser in sub.choices.items():
        if name.startswith("study-"):
            continue
        choices[name] = parser
        if name == "study":
            choices.update(named)
    sub.choices = sub._name_parser_map = choices   # argparse keeps both names
    # short usage lines (argparse runs over by an unbroken option): whole in the page's
    # column at 1280 pixels
    narrow = functools.partial(argparse.HelpFormatter, width=DOCS_WIDTH)
    todo = [p]
    while todo:                               # the commands' own sub-commands too
        parser = todo.pop()
        parser.formatter_class = narrow
        todo += [q for a in parser._actions if isinstance(a, argparse._SubParsersAction)
                 for q in a.choices.values()]
    return p


def _version():
    """``nardy_fast.__version__`` (the installed package's metadata, ``core._version``)."""
    return __version__


# -- commands ----------------------------------------------------------------------------
def _parser_show(sub):
    s = add_command(sub, "show", cmd_show, help="print the diagram of a position")
    add_options(s, "position")
    s.add_argument("--png", type=path_name, metavar="FILE",
                   help="also draw the board to a picture file (.png, or another of "
                        "matplotlib's formats by its extension, such as .svg or .pdf); "
                        "refused if it exists unless --force")
    s.add_argument("--force", action="store_true", help="replace an existing --png file")


def cmd_show(args):
    """Print the text diagram, pips and phase of a position."""
    pos = _position(args.position)
    if args.png:                         # refused before anything is printed
        new_file(args.png, args.force, option="--png")
        picture_format(args.png, "--png")
    print(pos.diagram())
    print(f"phase {pos.phase}")
    if args.png:
        save_figure(plot_board(pos), args.png)
        print(f"board written to {args.png}")


def _parser_moves(sub):
    s = add_command(sub, "moves", cmd_moves, help="list the legal moves for a roll")
    add_options(s, "position", "dice", "rules", "json")


def cmd_moves(args):
    """List the distinct legal moves of the side on roll for a roll, with the position ID
    after each."""
    pos = _position(args.position)
    d1, d2 = args.dice
    moves = pos.legal_moves((d1, d2), args.rules)
    # "" where the move ends the game with both sides off (Black's last turn under
    # draw_rule: a draw, a result, not a position), as hint's and game_report's ids
    after = ["" if not (any(m.board) or pos.opponent.any()) else pos.play(m).id
             for m in moves]
    if args.json:
        print(json_text([{"move": str(m) if m.steps else "pass",
                          "steps": [[a, b] for a, b in m.steps],
                          "id_after": a} for m, a in zip(moves, after)]))
        return
    print(f"{pos.side} on roll, {d1}{d2}: {len(moves)} legal move(s)")
    for k, (m, a) in enumerate(zip(moves, after), 1):
        print(f"{k:4d}  {(str(m) if m.steps else 'pass'):<28s} "
              f"{a or '(a draw: both sides off)'}")


def _parser_rollout(sub):
    s = add_command(sub, "rollout", cmd_rollout, help="roll out positions (Monte Carlo)")
    s.add_argument("positions", nargs="+", help="position IDs ('start' for the initial one)")
    add_rollout_options(s, 10000)
    add_options(s, "rules")
    add_progress(s)
    out = s.add_mutually_exclusive_group()
    out.add_argument("--json", action="store_true", help="print JSON, one object per position")
    out.add_argument("--csv", action="store_true", help="print CSV")


def cmd_rollout(args):
    """Play games from each position to the end and report win, mars and equity with
    standard errors."""
    positions = [_position(t) for t in args.positions]
    for pos in positions:        # all before the first game: not after the others' rollouts
        try:
            check_playable(pos, as_rules(args.rules))
        except ValueError as e:
            raise CliError(str(e)) from None
    progress = args.progress            # None: a bar when stderr is a terminal
    client = _client(args.scheduler)
    rows = []
    stopped = None                      # the message of an interruption
    try:
        # one checked settings object and one compute context for every position
        settings = RolloutSettings(args.games, policy=args.policy, truncate=_truncate(args))
        compute = Compute(workers=args.workers, client=client, progress=progress)
        for pos in positions:
            try:
                o = rollout(pos, settings=settings, seed=args.seed, rules=args.rules,
                            compute=compute)
            except KeyboardInterrupt as e:
                # the rollout's own stop says why it has no games; a bare one is a second
                # Ctrl-C while the finished games were being counted
                stopped = (f"before the first chunk of games of {pos.id} finished (a "
                           "chunk's games count only together)" if str(e) else
                           f"while rolling out {pos.id}, before its games were counted")
                break
            # a race valued at the start by a table: its method, 0 games (as a study shows)
            # "position" last: the columns of --csv before it keep their places
            rows.append({"id": pos.id, "side": pos.side, **as_served(o).to_dict(),
                         "position": pos.id})
            if o.extra.get("interrupted"):
                stopped = (f"after {o.games} of {args.games} games of {pos.id}; its "
                           "figures above rest on those games only")
                break
    finally:
        close_client(client)
    _print_rollouts(args, rows)
    if stopped is not None:
        skipped = len(positions) - len(rows) - ("before" in stopped)
        if skipped > 0:
            stopped += f"; {skipped} later position(s) not rolled out"
        raise Interrupted(stopped)


def _print_rollouts(args, rows):
    if args.json:
        for r in rows:
            print(json_text(r, indent=None))          # JSON Lines: one per position
    elif args.csv:
        import pandas as pd          # lazy: pandas is slow to import; import nardy_fast skips it
        pd.DataFrame(rows).to_csv(sys.stdout, index=False)
    else:
        rules = as_rules(args.rules)
        cube = any(r.get("extra_cube") for r in rows)   # the rules' cube: cube-aware games
        if rows:
            print("probabilities and equity for the side on roll; equity in points per "
                  "game; ± is 1.96 standard errors (a 95% interval)"
                  + ("" if rules == CLASSIC else f"; rules: {rules.to_text()}")
                  + (f"; {CUBE_AWARE_WORDS}" if cube else ""))
        for r in rows:
            table = r.get("extra_valued_at_start") or ""
            if table:       # no roll played: every game is the table's value at the start
                exact = method_kind(table) == "exact"
                print(f"{r['id']}  {r['side']} on roll  no game played: "
                      f"{method_label(table)}" + ("" if exact else ", error not measured"))
                for line in _rollout_lines(r, rules, with_se=False):
                    print(line)
                print(f"  equity {shown(r['equity'], '+.4f')}")
                continue
            print(f"{r['id']}  {r['side']} on roll  games {r['games']}"
                  + ("  (interrupted)" if r.get("extra_interrupted") else ""))
            for line in _rollout_lines(r, rules, with_se=True):
                print(line)
            lo, hi = r["ci95_equity_low"], r["ci95_equity_high"]
            approx = int(r.get("extra_games_approximated") or 0)
            print(f"  equity {shown(r['equity'], '+.4f')}{_pm(r['se_equity'])}"
                  + (f"  95% CI [{shown(lo, '+.4f')}, {shown(hi, '+.4f')}]"
                     if lo == lo and hi == hi else
                     "  (error not measured: every game ended in a race the one-sided "
                     "approximation valued, alike for each first roll)" if approx
                     else "  (no standard error from fewer than 2 games)"))
            if approx and lo == lo:
                print(f"  {approx} of {r['games']} games ended in races an approximation "
                      "valued (one-sided): its error is not in the ±")


def _rollout_lines(r, rules, with_se):
    """The probability lines of a rollout's text: win and mars, then under ``draw_rule``
    the draws and losses (P(win) and P(lose) no longer add to 1), under extended scoring
    the koks and home mars of each side (worth more points than a mars)."""
    def p(label, key):
        return f"{label} {r[key]:.4f}" + (_pm(r[f'se_{key}']) if with_se else "")

    lines = [[p("P(win)", "p_win"), p("P(mars win)", "p_mars_win"),
              p("P(mars loss)", "p_mars_loss")]]
    if rules.draw_rule:
        lines.append([p("P(draw)", "p_draw"), p("P(lose)", "p_lose")])
    if rules.scoring == "extended":
        lines.append([p("P(koks win)", "p_koks_win"), p("P(home mars win)", "p_home_mars_win"),
                      p("P(koks loss)", "p_koks_loss"),
                      p("P(home mars loss)", "p_home_mars_loss")])
    return ["  " + "   ".join(items) for items in lines]


def _pm(se):
    """`` ± m`` (1.96 standard errors), or ``""`` where the standard error is not known
    (a rollout of one game): never ``± nan``."""
    return f" ± {1.96 * se:.4f}" if se == se else ""


def _parser_study(sub):
    s = add_command(sub, "study", cmd_study,
                    help="roll out a file of positions into a resumable store; 'study "
                         "show STORE', 'study export STORE -o FILE' read one")
    s.add_argument("ids_file", type=path_name, help="file of position IDs, one per line")
    s.add_argument("--store", type=path_name, required=True, metavar="PATH",
                   help="the study's folder")
    add_rollout_options(s, STUDY_GAMES)
    s.add_argument("--method", default="rollout",
                   choices=STUDY_METHODS,
                   help="roll out (default), or evaluate with the net at --plies")
    add_options(s, "plies", plies=BULK_PLIES)
    # None: "not given", so that rollout options given with --method net are named
    s.set_defaults(**{k: None for k in ROLLOUT_FLAGS})
    s.add_argument("--batch-size", type=positive_int, default=None, metavar="N",
                   help="positions per task and per file (default: about 10,000 games)")
    add_options(s, "rules")
    add_progress(s)


def cmd_study(args):
    """Roll out (or evaluate) every position of a file of position IDs (one per line, '#'
    comments), writing the results to a Parquet store as they finish; the same command run
    again resumes where it stopped, saying how many positions it skipped
    (nardy_fast.analysis.study).  'nardy-fast study show STORE' prints a store, 'nardy-fast
    study export STORE -o FILE' writes it to one CSV, Parquet or JSON Lines file."""
    ids = read_position_ids(in_file(args.ids_file, "ids_file"))
    roll = args.method == "rollout"        # the rollout options act only then
    unused = (given(args, ROLLOUT_FLAGS) if not roll
              else ["--plies"] if was_given(args, "plies") else [])
    if unused:
        warnings.warn(f"{', '.join(unused)}: no effect " + (
            f"without --method rollout (positions are valued by --method {args.method})"
            if not roll else "with --method rollout (the rollouts' players are --policy)"),
            UserWarning)
    rollout_defaults(args, STUDY_GAMES)
    progress = args.progress            # None: a bar when stderr is a terminal
    client = _client(args.scheduler)
    try:
        kw = dict(seed=args.seed, policy=args.policy, truncate=_truncate(args)) if roll \
            else {}
        with warnings.catch_warnings():     # said once, below, in the command's words
            warnings.filterwarnings("ignore", "study interrupted", RuntimeWarning)
            try:
                frame = study(ids, args.games if roll else 0, store=args.store,
                              method=args.method,
                              plies=args.plies if not roll else BULK_PLIES,
                              rules=args.rules, batch_size=args.batch_size,
                              compute=Compute(workers=args.workers, client=client,
                                              progress=progress), **kw)
            except (ValueError, OSError) as e:   # the store refused: in the options' words
                raise CliError(_in_study_words(str(e))) from None
    finally:
        close_client(client)
    n, done = len(set(ids)), frame.attrs.get("from_store", 0)
    if done:
        print(f"resumed: {done} of {n} positions were already in {args.store} (skipped), "
              f"{len(frame) - done} studied now")
    print(f"{args.store}: {len(frame)} of {n} positions done")
    if len(frame):
        print(f"  mean equity {shown(frame['equity'].mean(), '+.4f')} (points per game, "
              f"the side on roll's view{_study_equity(args.rules, args.method)}); "
              f"{_mean_se(frame)}; {int(frame['n_games'].sum()):,} game(s) played")
    if not frame.attrs["complete"]:
        raise Interrupted(f"after {len(frame)} of {n} positions, kept in {args.store}; run "
                          "the same command again to resume")


# the settings of a study's identity that an option of ``study`` sets
_STUDY_OPTIONS = {"n_games": "-n/--games", "seed": "--seed", "policy": "--policy",
                  "truncate": "--truncate", "method": "--method", "plies": "--plies",
                  "rules": "--rules"}


def _in_study_words(message):
    """``study``'s refusal in the command's words (``_in_settings_words``)."""
    return _in_settings_words(message, _STUDY_OPTIONS)


def _in_settings_words(message, options):
    """A refusal of a store (a study's, the complete table's) in the command's words:
    ``store=PATH`` as ``--store PATH``, ``key=value`` by the option of ``options``, and in
    the list of what differs from the store (``(n_games: 72 in the store, 144 here;
    ...)``) each setting an option sets by that option."""
    message = in_option_words(message, {"store": "--store", **options})
    return re.sub(r"(\(|; )(" + "|".join(map(re.escape, options)) + r"): ",
                  lambda m: m.group(1) + options[m.group(2)] + ": ", message)


# games per position of ``study`` (used by --method rollout only)
STUDY_GAMES = 1296


def _mean_se(frame):
    """How a study's rows were obtained, with the mean standard error of the rolled-out
    ones: ``"mean SE 0.0123 of 40 rollouts; 2 exact, 1 net 0-ply (error not
    measured)"``.  Read from each row's ``method``, not from its SE (NaN is the net's and
    the one-sided approximation's alike, and a rollout of one game has none)."""
    kinds = frame["method"].map(lambda m: method_kind(m) if isinstance(m, str) else "other")
    parts = []
    rolled = frame.loc[kinds == "rollout", "se_equity"]
    if len(rolled):
        known = rolled.dropna()
        parts.append(f"mean SE {known.mean():.4f} of {len(known)} rollout(s)" if len(known)
                     else f"{len(rolled)} rollout(s), no SE (fewer than 2 games)")
        if len(known) < len(rolled) and len(known):
            parts[-1] += f" ({len(rolled) - len(known)} without an SE: fewer than 2 games)"
    for kind, text in (("exact", "exact"), ("approximation", "approximation (error not "
                                                               "measured)")):
        if (kinds == kind).any():
            parts.append(f"{int((kinds == kind).sum())} {text}")
    nets = frame.loc[kinds == "net", "method"]
    for name, count in nets.value_counts(sort=False).items():
        parts.append(f"{count} {name} (error not measured)")
    return "; ".join(parts) if parts else "no row"


STUDY_ACTIONS = ("show", "export")     # ``study show|export STORE``


def _parser_study_actions(sub):
    # 'study show' and 'study export' (main turns them into these): the documented forms;
    # 'study-show' and 'study-export' still work but are not listed as commands of their own
    s = add_command(sub, "study-show", cmd_study_show, help=None, prog=f"{PROG} study show")
    s.add_argument("store", type=path_name, help="the study's folder")
    s.add_argument("--head", type=positive_int, default=10, metavar="N",
                   help="rows shown (default 10)")
    s = add_command(sub, "study-export", cmd_study_export, help=None,
                    prog=f"{PROG} study export")
    s.add_argument("store", type=path_name, help="the study's folder")
    s.add_argument("-o", "--out", type=path_name, required=True, metavar="FILE",
                   help="the file to write, outside the store: .csv, .parquet or .json "
                        "(JSON Lines, one position a line); refused if it exists unless "
                        "--force")
    add_options(s, "force")


def _study_equity(rules, method):
    """What a study's equity is under cube rules, for its mean's line: the rollouts' is
    cubeful (the rules' cube in play), the evaluator's cubeless; "" without a cube."""
    if as_rules(rules).cube is None:
        return ""
    return "; " + (CUBE_AWARE_WORDS if method == "rollout" else CUBELESS_WORDS)


def cmd_study_show(args):
    """Print a study store's settings (its identity), how many positions it holds, their
    mean equity and the first rows (nardy_fast.analysis.study.read_study)."""
    frame = _read_study(args.store)
    ident = frame.attrs["study"]
    print(f"{args.store}: {len(frame)} position(s)")
    for key in sorted(ident):
        print(f"  {key}: {ident[key]}")
    if len(frame):
        print(f"  mean equity {shown(frame['equity'].mean(), '+.4f')} (points per game, "
              "the side on roll's view"
              f"{_study_equity(ident.get('rules'), ident.get('method'))}); "
              f"{_mean_se(frame)}; {int(frame['n_games'].sum()):,} game(s) played")
        cols = [c for c in ("equity", "se_equity", "p_win", "p_mars_win", "p_mars_loss",
                            "n_games", "method") if c in frame.columns]
        rows = frame[cols].head(args.head).copy()
        # an SE only where games measured one: not 0.0000 beside an exact table's value,
        # nor NaN beside the net's or an approximation's (their method column says which)
        rows["se_equity"] = [f"{se:.4f}" if se == se and isinstance(m, str)
                             and method_kind(m) == "rollout" else "-"
                             for se, m in zip(rows["se_equity"], rows["method"])]
        print()
        print(rows.to_string(float_format=lambda v: shown(v, ".4f")))


def _read_study(store):
    if not os.path.isdir(store):
        raise CliError(f"store {store}: " + ("a file, not a study folder"
                                             if os.path.exists(store) else "no such folder"))
    try:
        return read_study(store)
    except ValueError as e:              # not a study's folder: in the command's words
        raise CliError(re.sub(r"^store=(\S+?):", r"store \1:", str(e))) from None


def cmd_study_export(args):
    """Write a study store's rows (index ``position``) to one file: CSV, Parquet or JSON
    Lines by the extension of --out, written to a temporary name and then renamed."""
    frame = _read_study(args.store)
    if os.path.realpath(os.path.dirname(os.path.abspath(args.out))) == \
            os.path.realpath(args.store):
        # a file there is read as one of the store's, which then refuses to be read
        raise CliError(f"-o/--out {args.out}: inside the store {args.store}, whose files "
                       "are the study's; name a file outside it")
    new_file(args.out, args.force)
    ext = os.path.splitext(args.out)[1].lower()
    writers = {".csv": lambda t: frame.to_csv(t),
               ".parquet": lambda t: frame.to_parquet(t),
               ".json": lambda t: _write_lines(frame, t)}
    if ext not in writers:
        raise CliError(f"-o/--out {args.out}: expected a .csv, .parquet or .json file")
    atomic_write(args.out, writers[ext])
    print(f"wrote {len(frame)} position(s) of {args.store} to {args.out}")


def _write_lines(frame, path):
    with open(path, "w", encoding="utf-8") as f:
        for pid, row in frame.iterrows():
            f.write(json_text({"position": pid, **row.to_dict()}, indent=None) + "\n")


def _parser_bearoff(sub):
    s = sub.add_parser("bearoff", help="build or query the bear-off database",
                       description="Build the one-sided bear-off database, or query the "
                                   "race probabilities and EPC of bear-off positions.")
    bsub = s.add_subparsers(dest="action", metavar="ACTION")
    bsub.required = True
    b = add_command(bsub, "build", cmd_bearoff_build,
                    help="build (or load) the one-sided database")
    b.add_argument("--out", type=path_name, metavar="FILE",
                   help="save the one-sided database to FILE (refused if it exists unless "
                        "--force)")
    b.add_argument("--force", action="store_true", help="replace an existing --out file")
    b.add_argument("--two-sided", type=int_in(1, 15), metavar="N", default=None,
                   help="also build (and cache) the two-sided database of up to N checkers "
                        "per side (1..14: in memory); 15: the complete table with mars, "
                        "out of core in shards (9.3 GB on disk; time: the "
                        "documentation's benchmark figures), resumed where it stopped; race "
                        "queries, the evaluator and reports use the table of 8 (the "
                        "default) and the complete table once built")
    b.add_argument("--store", type=path_name, metavar="DIR", default=None,
                   help="folder of the complete two-sided table's shards (default: its "
                        "own folder in the data folder, NARDY_FAST_DATA, where the lookups "
                        "find it; the build names that folder when DIR is another); with "
                        "--two-sided N < 15 builds that size there, out of core")
    b.add_argument("--memory", metavar="SIZE", default=None,
                   help="memory the complete two-sided build may hold at once "
                        "(default 8GB)")
    b.add_argument("--scheduler", metavar="ADDR", default=None,
                   help="run the complete two-sided build's shards on this Dask scheduler "
                        "(its workers must see --store at the same path)")
    b.add_argument("--cubeful", action="store_true",
                   help="with --two-sided 15 (or --store): also build the cubeful "
                        "equities (centred cube, either side's; geometric, no beaver) "
                        "in shards beside the cubeless ones (3 x 5.9 GB for 15; time: "
                        "the documentation's benchmark figures), used by the cube's exact "
                        "decisions")
    b.add_argument("--mars", type=int_in(1, 14), metavar="N", default=None,
                   help="also build (and cache) the exact mars table: 15 checkers against "
                        "up to N, 1..14 (time and memory: the documentation's "
                        "benchmark figures); race queries and rollouts use the table of 8 "
                        "(--mars 8), a table of "
                        "another N only race_probabilities(..., "
                        "tables=MarsTable.load(FILE)))")
    b.add_argument("--race12", action="store_true",
                   help="also build (and cache) the one-sided database of races without "
                        "contact: 15 checkers on the last 12 points (17.4 million boards; "
                        "time, memory and size: the documentation's benchmark "
                        "figures), used by the evaluator, rollouts and reports once built")
    b.add_argument("--threads", type=positive_int, default=None,
                   help="threads of the mars build and of the complete two-sided build "
                        "(default: every usable core; the tables are the same for any "
                        "number)")
    add_options(b, "rules")
    add_progress(b)
    b = add_command(bsub, "query", cmd_bearoff_query,
                    help="EPC and race probabilities of positions (exact, or the "
                         "one-sided approximation where no exact table covers the race)")
    b.add_argument("positions", nargs="+", help="position IDs")
    add_options(b, "rules", "json")


# the complete table's settings that a store records or a build checks, by the options
# that set them (``lambda``: the weight of a mars, from the points of --rules)
_COMPLETE_OPTIONS = {"max_checkers": "--two-sided", "memory": "--memory",
                     "lambda": "--rules (lambda, the weight of a mars)"}


def cmd_bearoff_build(args):
    """Build the one-sided bear-off database; with --out save it to a file."""
    if args.out:                                  # before the work, not after
        new_file(args.out, args.force, option="--out")
    complete = args.two_sided is not None and (args.two_sided == 15 or args.store is not None)
    for flag, given in (("--cubeful", args.cubeful), ("--memory", args.memory is not None),
                        ("--scheduler", args.scheduler is not None),
                        ("--store", args.store is not None)):
        if given and not complete:
            raise CliError(f"{flag}: only with --two-sided 15, or --two-sided N --store DIR "
                           "(the complete table, out of core)")
    memory = None
    if complete:                                  # its settings too, before the work
        try:
            memory = DEFAULT_MEMORY if args.memory is None else parse_memory(args.memory)
        except ValueError as e:
            raise CliError(f"--memory: {e}") from None
    # the scheduler too: a refused address makes no folder and reports no table ready
    client = _client(args.scheduler)
    try:
        # a file of that name is named; a folder made here goes if the build is refused
        made = complete and args.store is not None and out_folder(args.store, "--store")
        _build_tables(args, complete, memory, client, made)
    finally:
        close_client(client)


def _build_tables(args, complete, memory, client, made):
    """The work of ``bearoff build`` once its options are checked: ``complete`` the
    complete two-sided table too (with ``memory`` and the ``client`` of --scheduler);
    ``made``: the --store folder was made by this run, removed (if still empty) when
    that build is refused."""
    if as_rules(args.rules).draw_rule and (args.mars is not None or complete):
        warnings.warn("--rules draw_rule=true: no effect on the mars and complete two-sided "
                      "tables, which have no draw rule (race queries under it use the "
                      "one-sided approximation); they are built for the rules' points",
                      UserWarning)
    db = bearoff.one_sided(progress=args.progress)
    if args.out:
        if not hasattr(db, "save"):
            raise CliError("this bear-off database cannot be saved (no save method)")
        db.save(args.out)
        print(f"one-sided bear-off database written to {args.out}")
    else:
        n = getattr(db, "n_boards", None)
        print("one-sided bear-off database ready" + (f" ({n} boards)" if n else ""))
    if complete:
        try:
            ts = build_complete(args.two_sided, store=args.store, rules=args.rules,
                                memory=memory, threads=args.threads, scheduler=client,
                                progress=args.progress, cubeful=args.cubeful)
        except (MemoryError, ValueError) as e:     # DatabaseError is a ValueError
            if made:                               # only if empty: nothing of ours in it
                with contextlib.suppress(OSError):
                    os.rmdir(args.store)
            raise CliError(_in_settings_words(str(e), _COMPLETE_OPTIONS)) from None
        print(f"complete two-sided bear-off table ready ({ts!r})")
        lookups = default_store(args.two_sided, args.rules)
        if os.path.abspath(ts.store) != os.path.abspath(lookups):
            print(f"  race queries, the evaluator and reports read only the complete table "
                  f"in {lookups}; read this one with CompleteTwoSided.load({ts.store!r})")
    elif args.two_sided is not None:
        ts = bearoff.two_sided(args.two_sided, progress=args.progress)
        print(f"two-sided bear-off database ready ({ts!r})")
        if args.two_sided != bearoff.DEFAULT_TWO_SIDED:   # not the one the queries read
            print(f"  race queries and rollouts use only the two-sided table of "
                  f"{bearoff.DEFAULT_TWO_SIDED} (or the complete table: --two-sided 15); "
                  f"pass this one to race_probabilities as tables=TwoSided.load({ts.path!r})")
    if args.mars is not None:
        table = bearoff.mars_table(args.mars, args.rules, threads=args.threads,
                                   progress=args.progress)
        print(f"mars table ready ({table!r})")
        if args.mars != bearoff.DEFAULT_MARS:     # not the one the queries look for
            print(f"  race queries and rollouts use only the mars table of "
                  f"{bearoff.DEFAULT_MARS} (--mars {bearoff.DEFAULT_MARS}); pass this one "
                  f"to race_probabilities as tables=MarsTable.load({table.path!r})")
    if args.race12:
        db = race12.race12(build=True, progress=args.progress is not False)
        print(f"race database ready ({db!r})")


def cmd_bearoff_query(args):
    """For each position: mean turns and EPC of each side that is all home, and the race
    probabilities when both are: exact from the two-sided or mars table, else the one-sided
    approximation, each labelled by how it was obtained (e.g. 'exact (two-sided table)',
    'one-sided approximation'), with the exact table that answered ('table') or what would
    make an approximation exact ('note')."""
    db = bearoff.one_sided()
    out = []
    for text in args.positions:
        pos = _position(text)
        row = {"id": pos.id, "position": pos.id, "side": pos.side, "pips_mover": pos.pips[0],
               "pips_opponent": pos.pips[1]}
        for name, b in (("mover", pos.mover), ("opponent", pos.opponent)):
            if b[:18].any():
                row[f"mean_turns_{name}"] = row[f"epc_{name}"] = None
            else:
                t = float(db.mean_turns(bearoff.to_board6(b)))
                row[f"mean_turns_{name}"] = t
                row[f"epc_{name}"] = t * PIPS_PER_ROLL
        rules = as_rules(args.rules)
        if pos.is_over(rules):              # no race left: say why, not nothing
            try:
                race_probabilities(pos, rules=rules)
            except ValueError as e:         # its message names why the game is over
                row["game_over"] = re.sub(r"^the game is over: ", "", str(e))
        elif pos.is_bearoff():              # Black's last turn (draw_rule) included
            o = race_probabilities(pos, rules=rules)
            row.update({k: getattr(o, k) for k in
                        ("method", "p_win", "p_mars_win", "p_lose", "p_mars_loss", "equity")})
            table = _race_table(o.extra, rules)
            if table:                       # which exact table answered
                row["table"] = table
            if o.extra.get("note"):         # an approximation: what would make it exact
                row["note"] = o.extra["note"]
            if rules.draw_rule:             # P(win) and P(lose) then leave P(draw)
                row["p_draw"] = o.p_draw
            if rules.scoring == "extended":  # every mars of a race is a home mars,
                row["p_home_mars_win"] = o.p_home_mars_win      # worth its own points
                row["p_home_mars_loss"] = o.p_home_mars_loss
        out.append(row)
    if args.json:
        print(json_text(out))
        return
    for row in out:
        print(f"{row['id']}  {row['side']} on roll  pips {row['pips_mover']} - "
              f"{row['pips_opponent']}")
        for name in ("mover", "opponent"):
            if row[f"epc_{name}"] is None:
                print(f"  {name:8s}: not all home")
            else:
                print(f"  {name:8s}: mean turns {row[f'mean_turns_{name}']:.4f}, "
                      f"EPC {row[f'epc_{name}']:.2f}")
        if "game_over" in row:
            print(f"  game over: {row['game_over']}")
        if "p_win" in row:
            draw = f"  P(draw) {row['p_draw']:.6f}" if "p_draw" in row else ""
            home = (f"  P(home mars win) {row['p_home_mars_win']:.6f}  P(home mars loss) "
                    f"{row['p_home_mars_loss']:.6f}" if "p_home_mars_win" in row else "")
            print(f"  {method_label(row['method'])}: P(win) {row['p_win']:.6f}{draw}  "
                  f"P(mars win) {row['p_mars_win']:.6f}  P(mars loss) "
                  f"{row['p_mars_loss']:.6f}{home}  equity {shown(row['equity'], '+.6f')} points")
            for key in ("table", "note"):
                if key in row:
                    print(f"  {key}: {row[key]}")


def _race_table(extra, rules):
    """The exact table a ``race_probabilities`` result under ``rules`` came from, in words
    (None: none): a complete table built for other points than the rules' says so."""
    if "two_sided_complete_max_checkers" in extra:
        oin, mars = extra["two_sided_complete_points"]
        other = ("" if (oin, mars) == bearoff.mars_points(rules)[:2] else
                 f", built for oin {oin:g} and mars {mars:g} points")
        return (f"the complete two-sided table of up to "
                f"{extra['two_sided_complete_max_checkers']} checkers a side{other}")
    if "mars_max_checkers" in extra:
        return f"the mars table, 15 checkers against 1 to {extra['mars_max_checkers']}"
    if "two_sided_max_checkers" in extra:
        return f"the two-sided table of up to {extra['two_sided_max_checkers']} checkers a side"
    return None


def _read_ids(path):
    """Position IDs of a text file (one per line, '#' comments) or a CSV with 'id'; a bad
    ID is a ``CliError`` naming the file and its line (CSV: its row)."""
    text = read_text(path)
    lines = [(n, ln.split("#", 1)[0].strip()) for n, ln in enumerate(text.splitlines(), 1)]
    lines = [(n, ln) for n, ln in lines if ln]
    # a CSV: a header with a comma, or the one column 'id' (no position ID is that short)
    if lines and ("," in lines[0][1] or lines[0][1].strip('"').lower() == "id"):
        import pandas as pd          # lazy: pandas is slow to import; import nardy_fast skips it
        df = pd.read_csv(path, comment="#", dtype=str, keep_default_na=False,
                         encoding="utf-8-sig")
        if "id" not in df.columns:
            raise CliError(f"{path}: a CSV of positions needs an 'id' column")
        lines = [(f"row {k}", x.strip()) for k, x in enumerate(df["id"], 1)]
        for where, pid in lines:
            if not pid:
                raise CliError(f"{path} {where}: an empty 'id' cell (every row needs a "
                               "position ID)")
    else:
        lines = [(f"line {n}", ln) for n, ln in lines]
    for where, pid in lines:
        try:
            Position.from_id(pid)            # an ID or 'start', as pip_report takes them
        except ValueError as e:
            raise CliError(f"{path} {where}: {e}") from None
    return lines


# a library's refusal of ``positions[k]`` (``as_position``'s label): k, "(ID)", the reason
_POSITION_REFUSED = re.compile(r"positions\[(\d+)\] (\([^)]*\)): (.*)", re.S)


def _in_file(e, path, lines):
    """A ``ValueError`` about ``positions[k]`` (``_POSITION_REFUSED``) said with the file
    and the line (CSV: row) of that position, ``lines`` being ``_read_ids``' pairs; other
    errors as they are."""
    m = _POSITION_REFUSED.match(str(e))
    if m is None or int(m.group(1)) >= len(lines):
        return e
    return CliError(f"{path} {lines[int(m.group(1))][0]}: {m.group(3)}")


def _in_record(e, path, method):
    """A ``ValueError`` about ``positions[k]`` of a game record (its position before turn
    ``k + 1``) said with the file, the turn and the ``--method`` that cannot value it
    (``--method exact`` on a game with contact); other errors as they are."""
    m = _POSITION_REFUSED.match(str(e))
    if m is None:
        return e
    return CliError(f"{path} turn {int(m.group(1)) + 1} {m.group(2)}: {m.group(3)} "
                    f"(--method {method})")


def _is_record(path):
    return looks_like_record(read_text(path, 65536))


def _parser_report(sub):
    s = add_command(sub, "report", cmd_report,
                    help="pip and win reports of positions or a game record")
    s.add_argument("input", type=path_name, help="file of position IDs, or a game record")
    s.add_argument("-o", "--out", type=path_name, default="report_output", help="output folder "
                   "(default report_output)")
    s.add_argument("--method", choices=list(REPORT_METHODS), default="auto",
                   help="win probabilities: exact database (or the table named), the net, "
                        "rollout, or auto (default)")
    s.add_argument("--no-win", action="store_true", help="pip report only (no rollouts)")
    s.add_argument("--force", action="store_true",
                   help="replace the files of an earlier report in the -o folder (without "
                        "it they are refused: a second report would leave some of the "
                        "first's beside its own)")
    add_rollout_options(s, REPORT_GAMES)
    # None: not given, so that the options given where they have no effect are named
    s.set_defaults(**{k: None for k in ROLLOUT_FLAGS})
    add_progress(s)
    add_options(s, "rules")


REPORT_GAMES = DEFAULT_GAMES   # report's -n/--games under --method rollout when not given
# the files report writes (an earlier report's are refused without --force)
REPORT_FILES = (r"(pip_report|win_report|game_report)\.(csv|html)"
                r"|(race_chart|game_graph|final_board)\.png|board_\d{2}\.png")
# the files analyse -o writes
ANALYSE_FILES = (r"(game_analysis|match_analysis)\.(csv|html)|(match_)?error_rates\.csv"
                 r"|game_graph\.png")


def cmd_report(args):
    """Write the pip report and win report (CSV and HTML) and figures (PNG) of a file of
    position IDs (one per line, '#' comments, or a CSV with an 'id' column) or of a game
    record."""
    in_file(args.input, "input")
    _report_options(args)
    old = earlier_files(args.out, REPORT_FILES, args.force, "report")   # before the work
    made = out_folder(args.out)
    try:
        _report(args, old)
    except BaseException:
        if made and not os.listdir(args.out):
            os.rmdir(args.out)                  # bad input leaves no empty folder behind
        raise


def _report_options(args):
    """Warn of the options given that change nothing: the rollout options without
    ``--method rollout``, and those and ``--method`` (set away from ``auto``) with
    ``--no-win``; then give the options not given their defaults."""
    unused = given(args, ROLLOUT_FLAGS)
    if args.no_win:
        unused = (["--method"] if args.method != "auto" else []) + unused
        why = "with --no-win (no win probabilities)"
    else:
        why = (f"without --method rollout (win probabilities by --method "
               f"{args.method})")
    if unused and (args.no_win or args.method != "rollout"):
        warnings.warn(f"{', '.join(unused)}: no effect {why}", UserWarning)
    rollout_defaults(args, REPORT_GAMES)


def _report(args, old=()):
    """Compute every table of the report first, then write the files: bad input found
    late (a position the method cannot value) or Ctrl-C during the rollouts leaves the
    folder as it was, not new tables beside those of an earlier report."""
    client = _client(args.scheduler)
    kw = dict(seed=args.seed, policy=args.policy, truncate=_truncate(args),
              compute=Compute(workers=args.workers, client=client, progress=args.progress))
    if args.method == "rollout":       # else not passed: it has no effect (named above)
        kw["n_games"] = args.games
    tables, figures = [], []            # (frame, stem); (a figure's maker, file name)
    try:
        if _is_record(args.input):
            game = _report_game(args.input)
            if args.rules is not None and args.rules != game.rules:
                raise CliError(f"--rules {args.rules.to_text()}: a game "
                               "record is reported under "
                               f"its own rules ({game.rules.to_text()}); "
                               "--rules is for a file of position IDs")
            try:
                gr = report.game_report(game, win_prob=not args.no_win, method=args.method,
                                        **kw)
            except ValueError as e:          # a position the method cannot value
                raise _in_record(e, args.input, args.method) from None
            tables.append((gr, "game_report"))
            figures.append((lambda: plot.game_chart(gr), "game_graph.png"))
            final = Position.from_id(list(gr["id"])[-1])
            figures.append((lambda: plot_board(final), "final_board.png"))
        else:
            lines = _read_ids(args.input)
            ids = [pid for _, pid in lines]
            if not ids:
                raise CliError(f"{args.input}: no position IDs found")
            pr = report.pip_report(ids)
            tables.append((pr, "pip_report"))
            if not args.no_win:
                try:
                    wr = report.win_report(ids, method=args.method, rules=args.rules,
                                           **kw)
                except ValueError as e:      # a position the method cannot value
                    raise _in_file(e, args.input, lines) from None
                tables.append((wr, "win_report"))
                if len(ids) >= 2:
                    rr = pr.join(wr.drop(columns=["id", "side"]))
                    figures.append((lambda: plot.race_chart(rr), "race_chart.png"))
            figures += [(functools.partial(plot_board, i), f"board_{k:02d}.png")
                        for k, i in enumerate(ids[:12], 1)]
        written = _write_report(args.out, old, tables, figures)
    finally:
        close_client(client)
        # lazy: matplotlib is slow to import, and only pictures need it
        import matplotlib.pyplot as plt
        plt.close("all")
    print(f"wrote {len(written)} file(s) to {args.out}/:")
    for w in written:
        print("  " + os.path.basename(w))


def _report_game(path):
    """The one game of ``report``'s record file ``path`` (the package's record or a .MAT
    game), replayed; a match, or several records one after the other, is a ``CliError``
    naming the command that reads it, and an illegal turn one naming the file."""
    text = read_text(path)
    if looks_like_match(text[:65536]):
        raise CliError(f"{path}: a match; report takes one game "
                       f"('nardy-fast analyse {path}' analyses a match game by game)")
    n = sum(line.startswith(RECORD_MAGIC) for line in text.splitlines())
    if n > 1:
        raise CliError(f"{path}: {n} game records one after the other (a duel's "
                       f"transcript?); report takes one game ('nardy-fast analyse {path} "
                       f"--game K' analyses the K-th)")
    record = read_mat_game(path) if looks_like_mat(text[:65536]) else read_record(path)
    try:
        record.replay()
    except ValueError as e:                  # an illegal turn: name the file too
        raise CliError(f"{path}: {e}") from None
    return record


def _write_report(folder, old, tables, figures):
    """Write ``report``'s tables and figures to ``folder`` (``_write_whole``); returns the
    paths written."""
    writers = [functools.partial(_save_both, report, frame, folder, stem)
               for frame, stem in tables]
    writers += [functools.partial(_draw_to, folder, draw, name) for draw, name in figures]
    return _write_whole(folder, old, writers, "run again to write the report")


def _draw_to(folder, draw, name):
    """The figure ``draw()`` makes, saved as ``folder/name``: a list of its one path."""
    return [save_figure(draw(), os.path.join(folder, name))]


def _write_whole(folder, old, writers, again):
    """Each of ``writers`` writes its files into ``folder`` (each whole: a temporary name,
    then renamed), then the files ``old`` of an earlier run not written again go
    (``--force``); returns the paths written.  Ctrl-C between them removes this run's
    files (and the earlier run's), so that the folder never holds part of one run beside
    part of another, and says so, and what to do (``again``)."""
    written = []
    before = set(os.listdir(folder))
    try:
        for write in writers:
            written += write()
    except KeyboardInterrupt:
        remove_stale(folder, old, [])
        # a writer cut between its files (a table's CSV written, not yet its HTML) never
        # returned their names: every file new in the folder is this run's too
        made = {*written, *(os.path.join(folder, f) for f in os.listdir(folder)
                            if f not in before)}
        for f in made:
            with contextlib.suppress(OSError):
                os.remove(f)
        raise Interrupted(f"while writing -o {folder}: the {len(made)} file(s) written "
                          f"so far removed ({again})") from None
    remove_stale(folder, old, written)          # --force: one run's files in the folder
    return written


def _save_both(report, df, folder, stem):
    return [save_frame(df, os.path.join(folder, f"{stem}.csv")),
            save_frame(df, os.path.join(folder, f"{stem}.html"), title=stem.replace("_", " "))]


def _parser_analyse(sub):
    s = add_command(sub, "analyse", cmd_analyse, aliases=["analyze"],
                    help="analyse a game record or a match transcript")
    s.add_argument("record", type=path_name,
                   help="game record file (also a LogasAI .MAT move list)")
    s.add_argument("--game", type=positive_int, default=None, metavar="K",
                   help="the K-th game of a file of several game records one after the "
                        "other (a duel's --transcript)")
    s.add_argument("-o", "--out", type=path_name, default=None,
                   help="also write the report (CSV/HTML) and error rates (CSV) to this "
                        "folder, and for a single game its graph (PNG); an earlier "
                        "analysis's files there are refused unless --force")
    s.add_argument("--method", choices=list(REPORT_METHODS), default="auto",
                   help="how each legal move is valued: 'auto' (default: the exact "
                        "database where it applies, else the net at --plies), a database, "
                        "'net', or 'rollout' (every legal move rolled out, -n games each, "
                        "with --policy, --seed, --truncate, --workers, --scheduler)")
    add_options(s, "plies", plies=BULK_PLIES)
    add_rollout_options(s, DEFAULT_GAMES)
    # None: "not given", so that rollout options given without --method rollout are named
    s.set_defaults(**{k: None for k in ROLLOUT_FLAGS})
    add_progress(s)
    s.add_argument("--cube", action="store_true",
                   help="also judge the cube decisions (rules with a cube; at a match at "
                        "each game's score, none in the Crawford game): the raises and the "
                        "close or wrong decisions are listed")
    s.add_argument("--html", type=path_name, metavar="OUT.html", default=None,
                   help="also write the analysis as one self-contained HTML page: the "
                        "result and settings, an index of the errors, the board before "
                        "every turn with the candidate moves, marks, equity lost, cube "
                        "decisions, the winning-chance graph, luck and error rates (refused "
                        "if the file exists unless --force)")
    s.add_argument("--force", action="store_true",
                   help="replace an existing --html file, and an earlier analysis's files "
                        "in the -o folder")
    s.add_argument("--json", action="store_true",
                   help="print the analysis as one JSON object instead of the text: the "
                        "settings, every turn (the report's columns, its candidate moves "
                        "as a list, each value with the method that gave it), the error "
                        "rates and with --cube the cube decisions; -o and --html still "
                        "write their files, without a line saying so")


# the options of ``analyse`` that act under --method rollout only
_ANALYSE_FLAGS = {**ROLLOUT_FLAGS, "workers": "--workers", "scheduler": "--scheduler"}
# the count columns of the error rates, printed as integers
_COUNTS = ("turns", "decisions", "errors", "n_doubtful", "n_error", "n_blunder")


def _analyse_options(args):
    """``(game_report keywords, note)`` of ``analyse``: ``note`` names the options given
    that change nothing (rollout options without ``--method rollout``), or is None; it is
    warned once the record has been read, so that an error in the record comes first."""
    note = None
    if args.method != "rollout":
        unused = given(args, _ANALYSE_FLAGS)
        if unused:
            note = (f"{', '.join(unused)}: no effect without --method rollout (moves are "
                    f"valued by --method {args.method})")
    elif was_given(args, "plies"):
        note = "--plies: no effect with --method rollout (the rollouts' players are --policy)"
    rollout_defaults(args, DEFAULT_GAMES)
    kw = dict(method=args.method, seed=args.seed, progress=args.progress)
    if args.cube:
        kw["cube"] = True
    if args.method != "rollout":                  # --plies under rollouts: the note
        kw["plies"] = args.plies
    else:
        kw.update(n_games=args.games, policy=args.policy, workers=args.workers,
                  truncate=_truncate(args))
    return kw, note


def _check_cube(args, rules):
    """``--cube`` needs rules with a cube."""
    if args.cube and rules.cube is None:
        raise CliError(f"--cube: {args.record}: the record's rules have no cube "
                       f"(rules: {rules.to_text()})")


def _print_rates(er):
    """Error rates as a table: counts as integers, a missing rate as '-'."""
    er = er.copy()
    for c in _COUNTS:
        if c in er.columns:
            er[c] = er[c].astype(int)
    print(er.to_string(float_format=lambda v: f"{v:.3f}", na_rep="-"))


def _print_cube(frame, match):
    """The cube decisions of an analysed report that are listed (raises, close or wrong:
    ``page.listed_cube_decisions``), with the count of the others."""
    if "cube_played" not in frame.columns:
        return
    # lazy: the page imports pandas, slow to import; --version and --help need neither
    from nardy_fast.analysis.page import cube_totals, listed_cube_decisions
    unit = "EMG" if match else "points"
    shown, rest = listed_cube_decisions(frame)
    print()
    print(f"cube decisions: {len(shown)} listed (raises, close or wrong), {rest} other(s) "
          "(no raise, none close, played right)")
    count, lost = cube_totals(frame, "player" if match else "side")
    names = ({} if match else
             frame.groupby("side", sort=False)["player"].first().to_dict())
    print("per player: " + "; ".join(
        f"{who}{f' ({names[who]})' if names.get(who) else ''} {count[who]} decision(s), "
        f"{lost[who]:.3f} {unit} lost" for who in count))
    methods = (sorted(set(frame["cube_method"].dropna()) - {""})
               if "cube_method" in frame.columns else [])
    if methods:                  # not --method's: that one values the moves
        print(f"cube decisions valued by: {', '.join(methods)}")
    if not len(shown):
        return
    game = f"{'game':>4s} " if match else ""
    print(f"{game}{'turn':>4s} {'side':5s} {'played':<16s} {'proper':<20s} "
          f"{'raise_loss':>10s} {'answer_loss':>11s}")
    for _, r in shown.iterrows():
        g = f"{int(r['game']):4d} " if match else ""
        print(f"{g}{int(r['turn']):4d} {r['side']:5s} {r['cube_played']:<16s} "
              f"{str(r['cube_proper']):<20s} {r['cube_loss']:10.3f} {r['take_loss']:11.3f}")
    print(f"raise_loss: what the side on roll lost by its raise or no raise; answer_loss: "
          f"what the opponent lost by its answer ({unit}"
          + (", at each game's score" if match else "") + ")")


def _analyse_match(args, kw, note, record=None):
    record = read_match(args.record) if record is None else record
    _check_cube(args, record.rules.rules)
    kw = dict(kw)
    compute = Compute(workers=kw.pop("workers", None), progress=kw.pop("progress", None))
    try:
        rep = matchreport.analyse_match(record, compute=compute, **kw)
    except Stopped as e:                 # it names the game it stopped in
        raise e.keeping("nothing shown or written") from None
    if note:
        warnings.warn(note, UserWarning)
    er = matchreport.match_error_rates(rep)
    if args.json:
        print(json_text(_analysis_json(args, rep, er, record)))
    else:
        _print_rates(er)
        print()
        print(_ERROR_RATES_HEADER + "; " + _valued_by(args))
        _print_cube(rep, True)
    _write_page(args, rep, record)
    if args.out:
        _write_out(args, [lambda: _save_both(report, rep, args.out, "match_analysis"),
                          lambda: [save_frame(er, os.path.join(args.out,
                                                               "match_error_rates.csv"))]])


def _valued_by(args):
    """How ``analyse`` valued the moves: the method and, for the net, its plies."""
    how = {"auto": " (the bear-off tables where they apply, else the net at "
                   f"{args.plies}-ply)",
           "net": f" (net {args.plies}-ply)"}.get(args.method, "")
    return f"moves valued by --method {args.method}{how}"


def _write_out(args, writers):
    """``analyse -o``: ``writers`` write their files into the folder, whole or not at all
    (``_write_whole``)."""
    out_folder(args.out)
    files = _write_whole(args.out, getattr(args, "earlier", []), writers,
                         "the analysis shown above is whole; run again to write it")
    if not args.json:                  # standard output holds the JSON alone
        print(f"\nwrote {len(files)} file(s) to {args.out}/")


def _write_page(args, frame, record):
    """``--html``: the analysis ``frame`` as a page (``analysis.page.to_html``)."""
    if not args.html:
        return
    # lazy: the page imports pandas, slow to import; --version and --help need neither
    from nardy_fast.analysis.page import to_html
    to_html(frame, args.html, record=record)
    if not args.json:                  # standard output holds the JSON alone
        print(f"\nwrote the analysis page {args.html}")


def cmd_analyse(args):
    """Replay a game record (checking every move), evaluate each position and rank the
    legal moves of each turn; reports the equity lost per turn and per player, and with
    --cube the cube decisions.  A match transcript (' N point match') is analysed game by
    game at the match score (losses in match winning chances and EMG), per player and in
    total.  A move list in LogasAI's .MAT layout (points counted down, 24 the head:
    ``core.matlayout``) is read as such, a match or a single game.  --json prints the
    same analysis as one JSON object (``_analysis_json``) instead of the text."""
    in_file(args.record, "record")
    kw, note = _analyse_options(args)
    if args.html:                            # before the work, not after it
        new_file(args.html, args.force, option="--html", what="a page written before?")
    if args.out:                             # before the work, not after it
        args.earlier = earlier_files(args.out, ANALYSE_FILES, args.force, "analysis")
        made = out_folder(args.out)
        if made:                             # made again when the files are written
            os.rmdir(args.out)
    with open(args.record, encoding="utf-8-sig", errors="replace") as f:
        head = f.read(4096)
    if args.game is not None and (looks_like_mat(head) or looks_like_match(head)):
        raise CliError(f"--game {args.game}: for a file of several game records (a duel's "
                       f"transcript); {args.record} is a match or a .MAT move list")
    if looks_like_mat(head):                 # LogasAI's .MAT layout: points 24 -> 1
        if looks_like_match(head):
            return _analyse_match(args, kw, note, read_mat(args.record))
        record = read_mat_game(args.record)
    elif looks_like_match(head):
        return _analyse_match(args, kw, note)
    else:
        record = _one_record(args)
    try:
        record.replay()
    except ValueError as e:                  # an illegal turn: name the file too
        raise CliError(f"{args.record}: {e}") from None
    if not record.turns:
        raise CliError(f"{args.record}: the game record has no turn: nothing to analyse")
    _check_cube(args, record.rules)

    client = _client(args.scheduler)
    try:
        compute = Compute(workers=kw.pop("workers", None), client=client,
                          progress=kw.pop("progress", None))
        gr = report.game_report(record, analyse=True, compute=compute, **kw)
    except ValueError as e:                  # a position the method cannot value
        raise _in_record(e, args.record, args.method) from None
    except KeyboardInterrupt as e:           # as a match's: how far, and nothing kept
        if str(e) and not isinstance(e, Stopped):   # a rollout's own: no game finished
            raise KeyboardInterrupt(f"{e}; nothing shown or written") from None
        stop = e if isinstance(e, Stopped) else Stopped("analyse", "before the end of the game")
        raise stop.keeping("nothing shown or written") from None
    finally:
        close_client(client)
    if note:
        warnings.warn(note, UserWarning)
    er = report.error_rates(gr)
    if args.json:
        print(json_text(_analysis_json(args, gr, er.reset_index(), record)))
    else:
        _print_game(args, gr, er)
    _write_page(args, gr, record)
    if args.out:
        _write_out(args, [
            lambda: _save_both(report, gr, args.out, "game_analysis"),
            lambda: [save_frame(er.reset_index(), os.path.join(args.out, "error_rates.csv"))],
            lambda: [save_figure(plot.game_chart(gr), os.path.join(args.out,
                                                                   "game_graph.png"))]])


def _print_game(args, gr, er):
    """The text of ``analyse`` on one game: its turns with the equity each move lost, the
    error rates ``er`` and the cube decisions."""
    played = gr[gr["move"] != ""]
    rolled = args.method == "rollout"         # losses with their paired standard errors
    width = 17 if rolled else 11
    print(f"{'turn':>4s} {'side':5s} {'dice':4s} {'move':<26s} {'best_move':<26s} "
          f"{'equity_loss' + (' (SE)' if rolled else ''):>{width}s}")
    for _, r in played.iterrows():
        forced = not r["n_moves"] > 1
        best = "" if forced or r["rank_played"] == 1 else r["best_move"]
        loss = "" if forced or r["equity_loss"] != r["equity_loss"] else \
            f"{r['equity_loss']:.3f}"
        se = r.get("se_equity_loss", math.nan)
        if rolled and loss and se == se and se > 0:
            loss += f" ({se:.3f})"
        print(f"{r['turn']:4d} {r['side']:5s} {r['dice']:4s} {r['move']:<26s} {best:<26s} "
              f"{loss:>{width}s}")
    print()
    _print_rates(er)
    print()                                  # what the figures above are
    print("equity_loss: points per game the played move lost against the best, the mover's "
          "view (blank: a forced move; best_move blank: the played move is a best one); "
          + _valued_by(args)
          + (f" ({args.games} games a move; in brackets the loss's standard error, from "
             "the two moves' games, which throw the same dice game by game)"
             if args.method == "rollout" else ""))
    print(_ERROR_RATES_HEADER)
    _print_cube(gr, False)


def _analysis_json(args, frame, rates, record):
    """The one JSON object of ``analyse --json``, from the frame the text and the page
    show (``frame``: ``game_report`` or ``analyse_match``; ``rates``: its error rates as
    a frame).  ``turns``: the frame's rows, each turn's ``candidates`` as a list; each
    value is labelled by a ``method`` beside it (a turn's for its probabilities, each
    candidate's for its values, ``cube_method`` for a cube decision's) and ``settings``
    (the method and plies the moves were valued by, the rollouts' games and seed), luck
    by ``luck``; the losses are in ``unit``.  ``mars_scored`` is false with the cube:
    a game is then won at the stake, and the ``p_mars_*`` chances score nothing more."""
    match = "score_white" in frame.columns
    rules = record.rules.rules if match else record.rules
    turns = frame.to_dict(orient="records")
    for t in turns:
        text = t.get("candidates")
        t["candidates"] = json.loads(text) if isinstance(text, str) and text else []
        rank = t.get("rank_played")             # a float column: NaN where no turn
        if isinstance(rank, float) and rank == rank:
            t["rank_played"] = int(rank)
    out = {"record": args.record, "match": match,
           **({"match_rules": record.rules.to_text(), "final_score": record.final_score()}
              if match else {"rules": rules.to_text(), "result": record.result()}),
           "cube": rules.cube, "mars_scored": rules.cube is None,
           "unit": "EMG" if match else "points",
           "settings": frame.attrs.get("settings"),
           "luck": {"method": "auto", "plies": LUCK_PLIES},
           "turns": turns,
           "error_rates": rates.to_dict(orient="records")}
    if "cube_played" in frame.columns:
        # lazy: the page imports pandas, slow to import; --version and --help need neither
        from nardy_fast.analysis.page import cube_totals
        count, lost = cube_totals(frame, "player" if match else "side")
        out["cube_totals"] = {who: {"decisions": count[who], "lost": lost[who]}
                              for who in count}
    return out


def _one_record(args):
    """The game record of ``analyse``: the file's one record, or with ``--game K`` the K-th
    of a file of several one after the other (``duel --transcript``)."""
    with open(args.record, encoding="utf-8-sig", errors="replace") as f:
        n = sum(line.startswith(RECORD_MAGIC) for line in f)
    if n <= 1 and args.game in (None, 1):
        return read_record(args.record)
    if args.game is None:
        raise CliError(f"{args.record}: {n} game records one after the other (a duel's "
                       f"transcript?); choose one with --game 1..{n}")
    if args.game > n:
        raise CliError(f"--game {args.game}: {args.record} holds {n} game record(s)")
    return read_transcript(args.record)[args.game - 1]


_ERROR_RATES_HEADER = (
    "per player: decisions (turns with a choice), errors (moves losing > 0.001 points), "
    "equity_lost (points per game; EMG at a match), error_rate (points lost per decision "
    "x 1000), mwc_lost / mwc_error_rate (match winning chances, at a match)")


def _parser_demo(sub):
    s = sub.add_parser("demo", help="the main job on a small default",
                       description=demo.DESCRIPTION)
    demo.add_arguments(s)
    s.set_defaults(func=cmd_demo)


def cmd_demo(args):
    out_folder(args.out)            # a file of that name, or no right: the option named
    demo.run(out=args.out, n_games=args.games, seed=args.seed, workers=args.workers)


# -- entry point -------------------------------------------------------------------------
def main(argv=None):
    """Run ``nardy-fast`` with ``argv`` (default ``sys.argv[1:]``); returns the exit status."""
    parser = build_parser()
    argv = list(sys.argv[1:] if argv is None else argv)
    if len(argv) >= 2 and argv[0] == "study" and argv[1] in STUDY_ACTIONS:
        argv[:2] = [f"study-{argv[1]}"]        # ``study show STORE``: its own parser
    args, extra = parser.parse_known_args(argv)
    if extra:                     # named by the command they were given to, with its usage
        _chosen_parser(parser, args).error(f"unrecognized arguments: {' '.join(extra)}")
    with warnings.catch_warnings(), sigterm_as_ctrl_c() as stop:
        warnings.showwarning = _show_warning
        status = _run(args)
    return SIGTERM_STATUS if status == 130 and stop.terminated else status


def _chosen_parser(parser, args):
    """The parser of the (sub)command ``args`` was parsed for (``bearoff build``, say):
    argparse reports arguments no command knows with the top level's usage instead."""
    while True:
        subs = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
        if not subs or getattr(args, subs[0].dest, None) not in subs[0].choices:
            return parser
        parser = subs[0].choices[getattr(args, subs[0].dest)]


def _show_warning(message, category, filename, lineno, file=None, line=None):
    """A warning as the command's users see it: one line, no source path or code."""
    text = str(message).splitlines()[0] if str(message) else category.__name__
    print(f"{PROG}: warning: {text}", file=sys.stderr)


def _files_only_backend():
    """matplotlib draws to files only: no window, no display needed."""
    if "matplotlib.pyplot" not in sys.modules and not os.environ.get("MPLBACKEND"):
        # lazy: matplotlib is slow to import, and only pictures need it
        import matplotlib
        matplotlib.use("Agg")


def _run(args):
    try:
        _files_only_backend()         # here: Ctrl-C during its import is an interrupt
        args.func(args)
        sys.stdout.flush()              # a closed pipe shows here, not at the exit
    except BrokenPipeError:
        return _reader_gone()
    except CliError as e:
        print(f"{PROG}: error: {e}", file=sys.stderr)
        return 1
    except (ValueError, TypeError, OSError, ImportError, MemoryError) as e:
        if isinstance(e, ImportError) and isinstance(e.__cause__, KeyboardInterrupt):
            # Ctrl-C while a compiled module started (matplotlib's fonts, say): the module
            # reports "initialization failed"; the program leaves before the interpreter's
            # shutdown, which that half-started module could crash
            print(f"{PROG}: interrupted", file=sys.stderr)
            return 130
        msg = str(e).splitlines()[0] if str(e) else type(e).__name__
        if isinstance(e, OSError) and e.filename and str(e.filename) not in msg:
            msg = f"{e.filename}: {msg}"
        print(f"{PROG}: error: {msg}", file=sys.stderr)
        return 1
    except Interrupted as e:
        print(f"{PROG}: interrupted {e}", file=sys.stderr)
        return 130
    except KeyboardInterrupt as e:     # a library's own stop says where (Stopped)
        print(f"{PROG}: interrupted" + (f": {_in_command_words(e, args)}" if str(e) else ""),
              file=sys.stderr)
        return 130
    return 0


def _in_command_words(e, args):
    """A library stop's message (``Stopped``) with the command's name where the library
    names its own function (``analyse: stopped at ...``, not ``value_positions_paired:
    ...``): the player typed the one and never saw the other."""
    command = " ".join(str(getattr(args, dest)) for dest in ("command", "action")
                       if getattr(args, dest, None))
    return str(e.renamed(command) if command and isinstance(e, Stopped) else e)


def _reader_gone():
    """The reader of standard output left (``nardy-fast moves ... | head -1``): exit
    quietly, as a program killed by SIGPIPE does (status 141, 128 + SIGPIPE), with the
    rest of the output sent nowhere so that the interpreter's last flush does not fail."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):       # no file descriptor (a captured stdout)
        pass
    return 128 + 13                     # SIGPIPE is 13 on every POSIX system


def console_main(argv=None):
    """The ``nardy-fast`` program: ``main``, then exit with its status.  An interrupted
    command (status 130, 143 after SIGTERM) has saved and reported its work by then; it leaves at once,
    output flushed, rather than wait in the interpreter's shutdown on a worker pool torn
    down mid-task (the workers end by themselves when their parent is gone)."""
    status = main(argv)
    if status in (130, SIGTERM_STATUS):
        kill_pools()                    # os._exit runs no atexit: its pool ends here
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(status)
    sys.exit(status)


if __name__ == "__main__":
    console_main()
