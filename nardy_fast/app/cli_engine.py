"""The engine's commands of ``nardy-fast``: ``hint``, ``play``, ``met``, ``matches``,
``train``, ``train-net``, ``average-nets``, ``train-rollouts``, ``train-luck`` and ``cube``
(each a ``_parser_*`` that adds it and the ``cmd_*`` that runs it)."""
from __future__ import annotations

import dataclasses
import inspect
import json
import math
import os
import re
import shutil
import sys
import warnings

import numpy as np

from nardy_fast.app._args import (PLIES_CHOICES, POLICY_NAMES, CliError, Interrupted, _client, _position,
                                  add_command, add_match_options, add_options, add_progress,
                                  given, json_text, match_length, match_rules, match_state, new_file,
                                  out_folder, path_name, positive_int, step_size, int_in,
                                  rollout_defaults, start_position, earlier_files,
                                  in_option_words, log_file, remove_stale, was_given, widths,
                                  close_client, _check_writable, CUBE_AWARE_WORDS, CUBELESS_WORDS)
from nardy_fast.analysis.report import move_report
from nardy_fast.app.play import play_terminal
from nardy_fast.app.playmatch import play_match_terminal
from nardy_fast.core.cubestate import CubeState
from nardy_fast.core.matchrecord import write_match
from nardy_fast.core.methods import method_label
from nardy_fast.core.position import Position
from nardy_fast.core.result import shown
from nardy_fast.core.rules import as_rules
from nardy_fast.engine.play import lucknet
from nardy_fast.training import lucknet as luck_training
from nardy_fast.engine.evaluation import met
from nardy_fast.training import metbuild, rolloutlabels, supervised, train
from nardy_fast.engine.decisions.cube import (CUBE_PLIES, METHODS as CUBE_METHODS, NOISE_Z,
                                    cube_decision, cube_rules, decided_by_model)
from nardy_fast.engine.evaluation.evaluator import DECISION_PLIES, DEFAULT_NET, Evaluator
from nardy_fast.engine.evaluation.nets import ONE_LAYER_NET
from nardy_fast.engine.decisions.matchplay import simulate_matches
from nardy_fast.engine.play.rollout import DEFAULT_GAMES
from nardy_fast.engine.play.settings import RolloutSettings
from nardy_fast.engine.decisions.methods import Rollout
from nardy_fast._utils.compute import Compute
from nardy_fast.engine.play.strength import vs_greedy

__all__ = ["PARSERS", "cmd_hint", "cmd_play", "cmd_met", "cmd_matches", "cmd_train",
           "cmd_train_net", "cmd_train_luck", "cmd_cube"]


# the options of hint and cube that act under --method rollout only (None: not given)
_ROLLOUT_ONLY = {"games": "-n/--games", "seed": "--seed", "workers": "--workers",
                 "scheduler": "--scheduler"}


def _parser_hint(sub):
    s = add_command(sub, "hint", cmd_hint,
                    help="rank the legal moves of a roll with the evaluator, or by rolling "
                         "out each (--method rollout)")
    add_options(s, "position", "dice", "plies", plies=DECISION_PLIES)
    s.add_argument("--top", type=positive_int, default=10, help="moves shown (default 10)")
    s.add_argument("--method", default="net", choices=["net", "rollout"],
                   help="'net' (default: the evaluator at --plies) or 'rollout' (the "
                        "position after each legal move rolled out, -n games each with "
                        "one --seed, so the moves' games throw the same dice game by game, "
                        "and each loss has its paired standard error)")
    add_options(s, "games", "seed", "workers", "scheduler", games=DEFAULT_GAMES)
    # None: "not given", so that an option with no effect is named
    s.set_defaults(**dict.fromkeys(_ROLLOUT_ONLY))
    add_progress(s)
    add_options(s, "rules", "json")
    add_match_options(s, cube_flag=True)


def cmd_hint(args):
    """Every legal move of the side on roll for a roll, ranked by the evaluator's equity
    (points per game), with the points it loses against the best (equity_loss) and the
    position ID after it (id_after), as 'analyse' and 'moves' name them.  --json also
    gives diff (-equity_loss) and position (id_after), their old names.  With --length:
    ranked by the match winning chance after each move at the score (mwc, from the match
    equity table), with the chance it loses (mwc_loss) and its money equivalent (emg).
    With --method rollout: the position after each move rolled out instead (-n games
    each, one --seed, money play), each equity with its 95% interval and each loss with
    its standard error from the two moves' games (se_equity_loss), which throw the same
    dice game by game; --json gives there the games and the seed too."""
    pos = _position(args.position)
    rules = as_rules(args.rules)
    match = match_state(args, pos, cube_rules(rules) if args.cube else rules)
    if args.method == "rollout":
        return _hint_rollouts(args, pos, rules, match)
    unused = given(args, _ROLLOUT_ONLY)
    if unused:
        warnings.warn(f"{', '.join(unused)}: no effect without --method rollout (the moves "
                      "are valued by the evaluator)", UserWarning)
    hint = Evaluator.default(args.rules).hint(pos, args.dice, plies=args.plies, match=match)
    hint = hint.head(args.top)
    if args.json:
        print(json_text(hint))
        return
    roll = f"{pos.side} on roll, {args.dice[0]}{args.dice[1]}"
    if match is None:
        draws = "p_draw" in hint.columns            # draw_rule: a draw is no win or loss
        print(f"{roll}: each legal move valued by the evaluator; equity in points per game "
              f"and p_win{', p_draw, all' if draws else ', both'} the mover's view; "
              "equity_loss: points lost against the best move"
              + (f"; {CUBELESS_WORDS}" if rules.cube else ""))
        print(f"{'rank':>4s}  {'move':<24s} {'equity':>7s}  {'equity_loss':>11s}  "
              f"{'p_win':>5s}  " + (f"{'p_draw':>6s}  " if draws else "") + "method")
        for r in hint.itertuples():
            print(f"{r.rank:4d}  {r.move:<24s} {r.equity:+7.4f}  {r.equity_loss:11.4f}  "
                  f"{r.p_win:5.3f}  " + (f"{r.p_draw:6.3f}  " if draws else "")
                  + r.method)
        return
    table = ("the cubeful match equity table, the game played out at the stake, no mars"
             if match.rules.cube else "the match equity table")
    print(f"{roll}, {_match_words(match)}"
          f"{', with the cube' if match.rules.cube else ''}: each legal move by the "
          f"mover's match winning chance after it (mwc, the evaluator's probabilities "
          f"through {table}); mwc_loss: the chance lost against the best move; emg: the "
          "mwc in money-equivalent points; p_win: cubeless")
    print(f"{'rank':>4s}  {'move':<24s} {'mwc':>6s}  {'mwc_loss':>8s}  {'emg':>7s}  "
          f"{'p_win':>5s}  method")
    for r in hint.itertuples():
        print(f"{r.rank:4d}  {r.move:<24s} {r.mwc:6.4f}  {r.mwc_loss:8.4f}  {r.emg:+7.4f}  "
              f"{r.p_win:5.3f}  {r.method}")


def _hint_rollouts(args, pos, rules, match):
    """``hint --method rollout``: ``move_report`` with rollouts, each move's equity with
    its 95% interval and each loss with its paired standard error."""
    if was_given(args, "plies"):
        raise CliError(f"--plies {args.plies}: no effect with --method rollout (the "
                       "rollouts' players are the evaluator at 0-ply)")
    if match is not None:
        raise CliError("--method rollout: at a match score the moves are ranked by the "
                       "evaluator (--method net)")
    rollout_defaults(args, DEFAULT_GAMES)
    games, seed = args.games, args.seed
    client = _client(args.scheduler)
    try:
        mr = move_report(pos, args.dice, method=Rollout(RolloutSettings(games)), seed=seed,
                         rules=rules, compute=Compute(workers=args.workers, client=client,
                                                      progress=args.progress))
    except KeyboardInterrupt:
        raise Interrupted("before every move's rollout finished; no move ranked (a "
                          "ranking of cut rollouts would mislead)") from None
    finally:
        close_client(client)
    mr = mr.head(args.top)
    if args.json:
        # the keys of the evaluator's hint too: diff and position, the old names of
        # -equity_loss and id_after, and the seed of the games (beside games)
        mr = mr.copy()
        mr.insert(mr.columns.get_loc("equity_loss") + 1, "diff", 0.0 - mr["equity_loss"])
        mr.insert(mr.columns.get_loc("id_after") + 1, "position", mr["id_after"])
        mr["seed"] = seed
        print(json_text(mr))
        return
    print(f"{pos.side} on roll, {args.dice[0]}{args.dice[1]}: the position after each legal "
          f"move rolled out, {games} games each, seed {seed}, the moves' games throwing the "
          "same dice game by game; equity in points per game, the mover's view, with its "
          f"95% interval (± {NOISE_Z} SE); equity_loss: points lost against the best move, "
          "with its standard error from the two moves' games"
          + (f"; {CUBE_AWARE_WORDS}" if rules.cube else ""))
    draws = "p_draw" in mr.columns                # draw_rule: a draw is no win or loss
    print(f"{'rank':>4s}  {'move':<24s} {'equity':>7s} {'± 95%':>7s}  "
          f"{'equity_loss (SE)':>17s}  {'p_win':>5s}  "
          + (f"{'p_draw':>6s}  " if draws else "") + "method")
    for r in mr.itertuples():
        half = NOISE_Z * r.se_equity
        err = f"{half:7.4f}" if half == half else f"{'-':>7s}"
        se = r.se_equity_loss
        loss = f"{r.equity_loss:.4f}" + (f" ({se:.4f})" if se == se and se > 0 else
                                         "" if se == 0 else " (-)")
        print(f"{r.rank:4d}  {r.move:<24s} {r.equity:+7.4f} {err}  {loss:>17s}  "
              f"{r.p_win:5.3f}  " + (f"{r.p_draw:6.3f}  " if draws else "") + r.method)


def _match_words(match):
    """``"at 2-3 (White-Black) in a match to 5"``, and where the match plays the Crawford
    rule, what it makes of this game: the Crawford game, post-Crawford (a side one point
    away after it) or the rule to come."""
    w, b = match.score
    crawford = {"crawford": ", the Crawford game", "post": ", post-Crawford",
                "before": ", under the Crawford rule", "": ""}[
        match.rules.crawford_stage(match.score, match.crawford)]
    return f"at {w:g}-{b:g} (White-Black) in a match to {match.rules.length}{crawford}"


def _parser_play(sub):
    s = add_command(sub, "play", cmd_play,
                    help="play a game against the engine in the terminal")
    s.add_argument("--side", choices=["white", "black"], default=None,
                   help="your colour (default: the opening throw decides; White moves "
                        "first)")
    s.add_argument("--start", default=None, metavar="POSITION",
                   help="play from this position ID (default: the start)")
    add_options(s, "rules", "plies", "seed", plies=DECISION_PLIES, seed=None)
    s.add_argument("-o", "--out", type=path_name, default=None,
                   help="record file, refused if it exists unless --force (default: "
                        "game.mat, or match.mat with --match; if taken, the first free of "
                        "game-2.mat, game-3.mat, ...)")
    s.add_argument("--force", action="store_true",
                   help="replace an existing -o file (never by a record of no turn)")
    s.add_argument("--match", type=match_length, default=None, metavar="N",
                   help="play a match to N points (without the cube) instead of one game")


def cmd_play(args, input_fn=None):
    """A game against the evaluator: type your moves in the record notation (e.g. '1/7
    7/11', 'pass'), 'hint' for the engine's advice, 'quit' to stop; a blunder is named at
    once.  The record is saved when the game ends or stops, never over a game saved
    before (an existing -o file is refused unless --force)."""
    input_fn = input_fn or (lambda prompt: input(prompt))
    if args.out is not None:
        new_file(args.out, args.force, what="a game saved before?")
    start = None if args.start is None else start_position(args.start)
    if args.match is not None:
        # a match starts every game from the start, its colours drawn by each opening
        # throw: a colour or a start position cannot be chosen, and is refused by name
        for given, name in ((args.side, "--side"), (args.start, "--start")):
            if given is not None:
                raise CliError(f"{name} {given}: not with --match (each game of a match "
                               "starts from the start, the opening throw deciding the "
                               "colours)")
        if args.rules is not None and as_rules(args.rules).cube is not None:
            raise CliError(f"--rules cube={as_rules(args.rules).cube}: not with --match "
                           "(a match against the engine is played without the cube)")
        play_match_terminal(args.match, plies=args.plies, seed=args.seed, out=args.out,
                            input_fn=input_fn, replace=args.force,
                            evaluator=None if args.rules is None
                            else Evaluator.default(args.rules))
        return

    if args.rules is not None and as_rules(args.rules).cube is not None:
        raise CliError(f"--rules cube={as_rules(args.rules).cube}: a game against the "
                       "engine is played without the cube (neither side could raise, yet "
                       "a mars would score only the stake)")
    play_terminal(side=args.side, plies=args.plies, seed=args.seed, out=args.out,
                  input_fn=input_fn, rules=args.rules, replace=args.force,
                  start=start)


def _parser_met(sub):
    s = add_command(sub, "met", cmd_met, help="the match equity table")
    s.add_argument("--length", type=match_length, default=15, help="points (default 15)")
    s.add_argument("--cube", action="store_true",
                   help="the cubeful table (the cube of --rules, geometric when they name "
                        "none); without it the table is cubeless")
    s.add_argument("--crawford", action="store_true", help="with the Crawford rule (cube)")
    s.add_argument("--rollout", action="store_true",
                   help="roll out the start again (every variant) and store it")
    s.add_argument("--write", action="store_true", help="recompute and store the tables")
    add_options(s, "workers", "rules", "json")


def cmd_met(args):
    """Print the match equity table: the chance that the side needing the row's points wins
    against the column's, before the opening roll.  --rollout redoes the rollouts of the
    start it rests on, --write the shipped tables (package data)."""
    if args.workers is not None and not args.rollout:
        warnings.warn("--workers: no effect without --rollout (the table is read, not "
                      "rolled out)", UserWarning)
    if args.rollout:
        metbuild.write_start_data(workers=args.workers)
        print(f"wrote {met.DATA_FILE}")
    if args.write:
        metbuild.write_tables()
        print(f"wrote {met.TABLE_FILE}")
    rules = as_rules(args.rules)
    if not args.cube and rules.cube is not None:
        # the cubeless table plays without the cube: show and use the rules it plays by
        warnings.warn(f"--rules cube={rules.cube}: no effect without --cube (the cubeless "
                      "table); add --cube for the cubeful one", UserWarning)
        rules = dataclasses.replace(rules, cube=None, beaver=False, autodouble=False)
    mr = _match_rules(args, rules)
    m = met.match_equity_table(args.length, cube=args.cube, rules=mr)
    # what the chances rest on: the rollout of the start and, cubeful, the cube model
    start = met.start_distribution(mr.rules)
    source = {k: start[k] for k in ("games", "se_p_win", "policy", "truncate", "seed")
              if k in start}
    x = met.TABLE_EFFICIENCY if args.cube else None
    if args.json:
        print(json_text({"match_rules": mr.to_text(), "cube": bool(args.cube),
                         "start": source, "x": x,
                         "columns": list(m.columns), "index": list(m.index),
                         "data": m.to_numpy().tolist()}))
        return
    print(f"match equity table ({'cubeful' if args.cube else 'cubeless'}"
          f"{', Crawford' if args.crawford else ''}; {mr.to_text()}): row needs a, column "
          "needs b, before the opening roll")
    print(f"from a rollout of the start: {start['games']:,} games, standard error of the "
          f"first mover's P(win) {start['se_p_win']:.4f}"
          + (f"; the cube by Zadeh's model, cube efficiency {x}" if args.cube else ""))
    print(m.to_string(float_format=lambda v: f"{v:.3f}"))


def _match_rules(args, rules=None):
    """The ``MatchRules`` of ``met`` and ``matches``: --length, --crawford, --cube and
    --rules (or ``rules`` given in their place; ``_args.match_rules``: --crawford without
    a cube is an error in the command line's words)."""
    rules = args.rules if rules is None else rules
    return match_rules(args, cube_rules(rules) if args.cube else as_rules(rules))


def _parser_matches(sub):
    s = add_command(sub, "matches", cmd_matches,
                    help="whole matches between two players: the match win rate")
    for name in ("a", "b"):
        s.add_argument(name, choices=list(POLICY_NAMES),
                       help=f"player {name.upper()}: a policy ('net': the shipped net at "
                            "0-ply, 'net:1', 'net:2', 'greedy', 'random')")
    s.add_argument("-n", "--matches", type=positive_int, default=100,
                   help="matches (default 100)")
    s.add_argument("--length", type=match_length, default=3, help="points (default 3)")
    s.add_argument("--cube", action="store_true", help="with the cube (geometric)")
    s.add_argument("--crawford", action="store_true", help="the Crawford rule (with --cube)")
    s.add_argument("--money", choices=["a", "b", "both"], default=None,
                   help="who plays as if for money, the cube too (default: both play at "
                        "the match score)")
    add_options(s, "rules", "seed", "json")
    s.add_argument("-o", "--out", type=path_name, default=None, metavar="DIR",
                   help="write every match's transcript there (match-0001.mat, ...); "
                        "refused if it holds transcripts of an earlier run unless --force")
    s.add_argument("--force", action="store_true",
                   help="replace the transcripts of an earlier run in -o DIR (its "
                        "match-NNNN.mat files, all of them)")
    add_progress(s)


def cmd_matches(args):
    """Play whole matches between two players (``simulate_matches``; not the shared-dice
    strength comparison of single games) and print A's share of matches won with its
    standard error and 95% interval.  Match m's dice depend only on --seed and m."""
    mr = _match_rules(args)
    aware = (args.money not in ("a", "both"), args.money not in ("b", "both"))
    old = [] if args.out is None else earlier_files(args.out, TRANSCRIPT, args.force, "run")
    made = args.out is not None and out_folder(args.out)   # before the work, not after
    try:
        r = simulate_matches(args.a, args.b, args.matches, rules=mr, seed=args.seed,
                             aware=aware, transcripts=args.out is not None,
                             progress=args.progress)
    except KeyboardInterrupt:
        if made and not os.listdir(args.out):
            os.rmdir(args.out)                  # leave no empty folder behind
        raise Interrupted(f"before any of the {args.matches} matches finished; nothing "
                          "written") from None
    if args.out is not None:                # each file whole (written, then renamed)
        written = []
        for m, rec in enumerate(r.pop("records"), 1):
            written.append(os.path.join(args.out, _transcript_name(m)))
            write_match(rec, written[-1])
        remove_stale(args.out, old, written)  # --force: none of the earlier run is left
    out = {"a": args.a, "b": args.b, "match_rules": mr.to_text(), "aware": list(aware),
           **{k: v for k, v in r.items() if k != "seed"}}
    out["ci95"] = list(r["ci95"])
    if args.json:
        print(json_text(out))
    else:
        print(f"{r['matches']} matches ({mr.to_text()}), {r['games']} games: A ({args.a}"
              f"{'' if aware[0] else ', money play'}) won {r['wins_a']}: "
              f"{r['win_rate']:.3f} (SE {r['se_win_rate']:.3f}, 95% CI "
              f"{r['ci95'][0]:.3f}-{r['ci95'][1]:.3f}) against B "
              f"({args.b}{'' if aware[1] else ', money play'})")
        if args.out is not None:
            print(f"transcripts in {args.out}")
    if r.get("interrupted"):
        raise Interrupted(f"after {r['matches']} of {args.matches} matches; the result "
                          "above is theirs" + ("" if args.out is None else
                                               f", their transcripts are in {args.out}"))


def _transcript_name(m):
    """The file of match ``m`` (from 1) in ``matches -o DIR``."""
    return f"match-{m:04d}.mat"


# the files ``matches -o`` writes: a transcript per match
TRANSCRIPT = r"match-\d{4,}\.mat"


# train's -n/--games when not given: train.train's own default
_TRAIN_GAMES = inspect.signature(train.train).parameters["n_games"].default


def _parser_train(sub):
    s = add_command(sub, "train", cmd_train, help="train an evaluation net by self-play")
    _add_checkpoint_out(s)
    s.add_argument("-n", "--games", type=positive_int, default=None,
                   help=f"self-play games in all (default {_TRAIN_GAMES})")
    add_options(s, "seed", "rules", seed=1)
    s.add_argument("--lr", type=step_size, default=None,
                   help=f"SGD step of the first half of the run (default "
                        f"{train.DEFAULTS['lr']})")
    s.add_argument("--lr-final", type=step_size, default=None,
                   help="SGD step at the end, reached linearly over the second half "
                        f"(default {train.DEFAULTS['lr_final']})")
    s.add_argument("--init", type=path_name, default=None, metavar="NET",
                   help="start from this net file's weights (fine-tuning, e.g. the shipped "
                        "classic one-layer net, for a rule variant: --init "
                        "classic)")
    s.add_argument("--threads", type=positive_int, default=None,
                   help="threads playing games (default: every usable core); does not "
                        "change the result")
    s.add_argument("--check-every", type=int_in(0), default=50_000, metavar="GAMES",
                   help="games between strength checks against greedy (0: none; "
                        "default 50000)")
    s.add_argument("--log", type=path_name, default=None, metavar="FILE",
                   help="append a JSON line per checkpoint and check to FILE")


def cmd_train(args):
    """TD(lambda) self-play training of the evaluation network (nardy_fast.training.train);
    resumes a checkpoint of the same settings found at --out.  Its defaults train a net
    from scratch; a second run from it (--init) with a smaller step refines it: the
    128-unit net v2 of the package's nets was made by 'nardy-fast train -o v1.nfdb --seed 1
    --check-every 0', then 'nardy-fast train -o v2.nfdb --init v1.nfdb --seed 2 -n 400000
    --lr 0.003 --lr-final 0.0005 --check-every 0'."""
    log_file(args.log)                          # before the work, not after it
    _check_writable(args.out, "-o/--out")       # not at the first checkpoint's games
    saved = []                                  # the checkpoints written by this call

    def log(entry):
        if "seconds" in entry:                  # a checkpoint's line, not a check's
            saved.append(entry["games"])
        line = json.dumps(entry)
        print(line, file=sys.stderr, flush=True)
        if args.log:
            with open(args.log, "a", encoding="utf-8") as f:
                f.write(line + "\n")

    kwargs = {} if args.games is None else {"n_games": args.games}
    kwargs.update({k: v for k, v in (("lr", args.lr), ("lr_final", args.lr_final))
                   if v is not None})
    # TD training takes one-layer nets: "classic" is the shipped one-layer net the
    # classic evaluator's two-layer net was deepened from
    init = ONE_LAYER_NET if args.init == "classic" else args.init
    try:
        ev = train.train(args.out, seed=args.seed, threads=args.threads, rules=args.rules,
                         init=init, check_every=args.check_every, check=vs_greedy, log=log,
                         replace=args.force, **kwargs)
    except KeyboardInterrupt as e:      # what is kept, in the command's words
        if not str(e):
            raise
        raise KeyboardInterrupt(str(e).replace("the same call resumes",
                                               "the same command resumes")) from None
    games = f"{ev.meta['training']['games_done']:,} games"
    print(f"wrote {args.out}: {games}" if saved else
          _finished(args.out, games, "to train again, write to another -o/--out"))


def _finished(out, done, how):
    """What a training command says when ``out`` holds its run finished: nothing done,
    nothing written (``done``: the work held, ``how``: how to go on)."""
    return f"nothing to do: {out} holds this run, finished ({done}); {how}"


def _parser_train_net(sub):
    s = add_command(sub, "train-net", cmd_train_net,
                    help="train an evaluation net on look-ahead targets of a frozen net")
    _add_checkpoint_out(s)
    s.add_argument("--init", type=path_name, default="classic", metavar="NET",
                   help="start from this net file (default: classic, the shipped judge, "
                        "net_classic.nfdb)")
    s.add_argument("--hidden", type=positive_int, default=None,
                   help="widen the start net's (first) hidden layer to this many units "
                        "(a multiple of 8; it starts with the start net's outputs)")
    s.add_argument("--hidden2", type=positive_int, default=None,
                   help="give the start net a second hidden layer of this many units, or "
                        "widen its second layer to this many (a multiple of 8; it starts "
                        "with the start net's outputs)")
    s.add_argument("--exclude", type=path_name, default=None, metavar="PARQUET", action="append",
                   help="never learn the positions (column 'position', IDs) of this file, "
                        "e.g. the accuracy benchmark's accuracy.parquet (in the source "
                        "repository's benchmark data); "
                        "repeat it for several files (accuracy_reached.parquet too)")
    s.add_argument("--snapshots", type=path_name, default=None, metavar="DIR",
                   help="keep each round's net in this folder too (round_001.nfdb, ...), "
                        "for average-nets of a run's last rounds; a file there that is "
                        "not this run's net of its round is refused unless --force")
    s.add_argument("--threads", type=positive_int, default=1,
                   help="threads of the 2-ply targets' search (default 1); does not "
                        "change the result")
    add_options(s, "seed", seed=1)
    for name, kind, text in (("rounds", int, "rounds"), ("games", int, "self-play games per "
                             "round"), ("plies", int, "look-ahead plies of the targets"),
                             ("keep", int, "at --plies 2, how many of each roll's moves, "
                              "the best at 0-ply, are compared at 1 ply (0: all; 1: the "
                              "0-ply choice valued at 1 ply, 30 times faster)"),
                             ("epochs", int, "passes over a round's positions"),
                             ("batch", int, "positions per Adam step"),
                             ("lr", float, "Adam step"),
                             ("lr_final", float, "Adam step of a round's last epoch, "
                              "reached linearly over the second half of its epochs; "
                              "unset: --lr throughout"),
                             ("lam", float, "decay, 0 to 1, of the corrections of the "
                              "targets by the rest of each game (0: none)"),
                             ("balance", int, "most repeats of a contact position of a "
                              "rare kind (heavy head, prime, trapped, behind), so that "
                              "each kind nears an equal share (1: none)")):
        default = supervised.SUPERVISED_DEFAULTS[name]
        s.add_argument(f"--{name.replace('_', '-')}", type=kind, default=None,
                       help=text + ("" if default is None else f" (default {default})"))
    add_progress(s)


def _excluded_boards(paths):
    """The boards (side on roll first) of the positions (column ``position``, IDs) of the
    Parquet files ``paths`` (``--exclude``), or None when there are none."""
    if paths is None:
        return None
    import pandas as pd          # lazy: pandas is slow to import; import nardy_fast skips it
    boards = []
    for path in paths:
        if not os.path.isfile(path):        # pandas reads a folder as a dataset
            raise CliError(f"--exclude {path}: " + ("a folder, not a file"
                                                    if os.path.isdir(path) else
                                                    "cannot read it (no such file)"))
        try:
            frame = pd.read_parquet(path)
        except OSError as e:
            raise CliError(f"--exclude {path}: cannot read it ({e.strerror or e})") from None
        except ValueError as e:             # pyarrow's: not Parquet (its text, one line)
            raise CliError(f"--exclude {path}: not a Parquet file "
                           f"({str(e).splitlines()[0]})") from None
        if "position" not in frame.columns:
            raise CliError(f"--exclude {path}: expected a column 'position' of position "
                           f"IDs; its columns are {', '.join(map(str, frame.columns))}")
        for row, pid in enumerate(frame["position"]):
            try:
                boards.append(np.asarray(Position.from_id(pid).boards))
            except (TypeError, ValueError) as e:
                raise CliError(f"--exclude {path}: row {row}: {e}") from None
    return np.stack(boards) if boards else None


def cmd_train_net(args):
    """Supervised training of the evaluation network on 1-ply look-ahead targets
    (nardy_fast.training.supervised), a round at a time; resumes a checkpoint of the same
    settings found at --out."""
    _check_writable(args.out, "-o/--out")       # not after the first round
    if args.snapshots is not None and os.path.exists(args.snapshots) \
            and not os.path.isdir(args.snapshots):
        raise CliError(f"--snapshots {args.snapshots}: a file, not a folder")
    exclude = _excluded_boards(args.exclude)
    settings = {k: getattr(args, k) for k in supervised.SUPERVISED_DEFAULTS
                if getattr(args, k) is not None}
    _train_net_unused(args, {**supervised.SUPERVISED_DEFAULTS, **settings})
    init = DEFAULT_NET if args.init == "classic" else args.init
    rounds = []                                 # the rounds done by this call
    try:
        ev = supervised.train_supervised(args.out, seed=args.seed, init=init,
                                         hidden=args.hidden, hidden2=args.hidden2,
                                         exclude=exclude, progress=args.progress,
                                         snapshots=args.snapshots, threads=args.threads,
                                         replace=args.force, log=rounds.append, **settings)
    except KeyboardInterrupt as e:      # what is kept, in the command's words
        if not str(e):
            raise
        raise KeyboardInterrupt(str(e).replace("train_supervised: ", "train-net: ", 1)
                                .replace("the same call resumes",
                                         "the same command resumes")) from None
    except ValueError as e:             # a setting refused: in the option's words
        said = in_option_words(str(e), {k: "--" + k.replace("_", "-")
                                        for k in (*supervised.SUPERVISED_DEFAULTS,
                                                  "hidden", "hidden2")})
        if said == str(e):
            raise
        raise CliError(said) from None
    done = ev.meta["training"]["rounds_done"]
    held = f"{done} round{'' if done == 1 else 's'}"
    print(f"wrote {args.out}: {held}" if rounds else
          _finished(args.out, held, "a larger --rounds continues it"))


def _train_net_unused(args, cfg):
    """Name the train-net options given that change nothing under the run's settings
    ``cfg``: ``--threads`` at 1 ply (they search the 2-ply targets) and ``--lr`` when the
    one epoch takes ``--lr-final`` (a round's last epoch does)."""
    unused = []
    if args.threads not in (None, 1) and cfg["plies"] == 1:      # 1: the default
        unused.append("--threads: no effect with --plies 1 (threads search the 2-ply "
                      "targets)")
    if args.lr is not None and cfg["lr_final"] is not None and cfg["epochs"] == 1:
        unused.append("--lr: no effect with --epochs 1 and --lr-final (a round's last "
                      "epoch, its only one, takes the final step)")
    for text in unused:
        warnings.warn(text, UserWarning)


def _add_checkpoint_out(s):
    """``-o/--out`` and ``--force`` of a run whose net file is its checkpoint
    (``training.checkpoint``)."""
    s.add_argument("-o", "--out", type=path_name, required=True,
                   help="net file, written as the run goes (a checkpoint: the same command "
                        "continues it); another file there is refused unless --force")
    s.add_argument("--force", action="store_true",
                   help="start a new run over an -o/--out file that is not this run's "
                        "checkpoint")


def _parser_average_nets(sub):
    s = add_command(sub, "average-nets", cmd_average_nets,
                    help="average the weights of nets trained from one start")
    s.add_argument("nets", type=path_name, nargs="+", metavar="NET",
                   help="net files of one shape and rules (at least two)")
    s.add_argument("-o", "--out", type=path_name, required=True,
                   help="net file to write (refused if it exists unless --force)")
    add_options(s, "force")


def cmd_average_nets(args):
    """Write the net whose weights are the mean of the given nets' weights
    (nardy_fast.training.supervised.average_nets)."""
    new_file(args.out, args.force, what="a net")
    nets = [Evaluator.load(p) for p in args.nets]
    ev = supervised.average_nets(nets, names=args.nets)
    ev.save(args.out)
    print(f"wrote {args.out}: the mean of {len(nets)} nets")


def _add_resumable_out(s, what):
    """``-o/--out`` and ``--force`` of a long run whose progress is kept in ``OUT.partial``
    (``_resume_folder``)."""
    s.add_argument("-o", "--out", type=path_name, required=True,
                   help=f"{what} file to write, refused if it exists unless --force (the "
                        "run's progress is kept in OUT.partial until then: the same "
                        "command continues it)")
    add_options(s, "force")


def _resumed(args, partial, run):
    """``run()``; with ``--force``, a partial folder made with other settings (its
    refusal) is removed and the run starts again, once: ``--force`` asks for a new run
    (it continued, then refused the folder and said to remove it)."""
    try:
        return run()
    except ValueError as e:
        if not (args.force and str(e).startswith(f"checkpoint {partial}: made with other "
                                                  "settings")):
            raise
    shutil.rmtree(partial)
    print(f"{partial}: made with other settings, removed as --force asks; a new run",
          flush=True)
    return run()


def _resume_folder(out):
    """``OUT.partial``, the folder that keeps a long run's progress until ``out`` is
    written; says so when it exists (the run kept there continues)."""
    partial = f"{out}.partial"
    if os.path.exists(partial):
        print(f"{partial} exists: continuing the run kept there (if its settings differ:"
              f" refused, or with --force started again)", flush=True)
    return partial


def _parser_train_rollouts(sub):
    d = rolloutlabels.ROLLOUT_DEFAULTS
    s = add_command(sub, "train-rollouts", cmd_train_rollouts,
                    help="fine-tune a net on rollouts of the positions users reach")
    _add_resumable_out(s, "net")
    s.add_argument("--init", type=path_name, default="classic", metavar="NET",
                   help="the net to fine-tune (default: classic, the shipped judge)")
    s.add_argument("--exclude", type=path_name, default=None, metavar="PARQUET", action="append",
                   help="never label the positions (column 'position', IDs) of this file, "
                        "e.g. a benchmark's; repeat it for several files")
    for name, kind, text in (
            ("selfplay_games", int, "0-ply self-play games of the net"),
            ("source_games", int, "games of the net against each of greedy play, a "
                                  "noisy net and the net at 1-ply"),
            ("every", int, "keep every N-th self-play position"),
            ("every_reached", int, "keep every N-th position of the other games"),
            ("games", int, "rollout games per position (the rollout player at 0-ply)"),
            ("epochs", int, "passes over the labels"),
            ("batch", int, "positions per Adam step"),
            ("lr", float, "Adam step")):
        s.add_argument(f"--{name.replace('_', '-')}", type=kind, default=d[name],
                       help=f"{text} (default {d[name]})")
    add_options(s, "seed", "workers", "scheduler", seed=d["seed"])
    add_progress(s)


def cmd_train_rollouts(args):
    """Fine-tune a net on 0-ply rollouts of the shipped rollout player, of positions of
    the net's self-play and of its games against other players
    (nardy_fast.training.rolloutlabels).  The run's progress is kept in the folder
    ``OUT.partial`` (removed once the net is written): the same command again continues
    an interrupted run."""
    new_file(args.out, args.force, what="a net")
    exclude = _excluded_boards(args.exclude)
    partial = _resume_folder(args.out)
    init = None if args.init == "classic" else args.init
    settings = {k: getattr(args, k) for k in rolloutlabels.ROLLOUT_DEFAULTS}
    try:
        ev = _resumed(args, partial, lambda: rolloutlabels.train_on_rollouts(
            args.out, init=init, checkpoint=partial, exclude=exclude, workers=args.workers,
            client=_client(args.scheduler), progress=args.progress, **settings))
    except ValueError as e:             # a setting refused: in the option's words
        raise CliError(in_option_words(str(e), {k: "--" + k.replace("_", "-")
                                                for k in (*settings, "workers")})) from None
    if ev is None:
        raise Interrupted(f"while labelling: {_kept(partial, 'labels.json')} kept in "
                          f"{partial}; the same command continues the run")
    shutil.rmtree(partial, ignore_errors=True)
    t = ev.meta["training"]
    print(f"wrote {args.out}: {sum(t['positions'].values())} positions, each rolled out "
          f"{t['games']} games; last epoch's loss {t['loss']:.5f}")


def _parser_train_luck(sub):
    d = luck_training.LUCK_DEFAULTS
    s = add_command(sub, "train-luck", cmd_train_luck,
                    help="train the luck net of 0-ply variance-reduced rollouts")
    _add_resumable_out(s, "luck net")
    s.add_argument("-n", "--games", type=positive_int, default=d["n_games"],
                   help="self-play games whose contact positions are labelled (default "
                        f"{d['n_games']})")
    s.add_argument("--init", type=path_name, default=None, metavar="LUCKNET",
                   help="a luck net file to refine instead of starting from random weights "
                        "(its shape is kept; give the games and seed it was trained on, so "
                        "that its held-out positions stay held out); the shipped "
                        "luck_classic.nfdb is the defaults' net refined with --epochs "
                        f"{luck_training.LUCK_REFINE['epochs']} --lr "
                        f"{luck_training.LUCK_REFINE['lr']:g}")
    s.add_argument("--hidden", type=positive_int, default=None,
                   help=f"first-layer units, a multiple of 8 (default {d['hidden']}; with "
                        "--init, its)")
    s.add_argument("--middle", type=widths, default=None,
                   help="widths of the middle layers, comma-separated, each a multiple of 8; "
                        f"0: none (default {','.join(map(str, d['middle']))}; with --init, "
                        "its)")
    s.add_argument("--epochs", type=positive_int, default=d["epochs"],
                   help=f"passes (default {d['epochs']})")
    s.add_argument("--lr", type=float, default=d["lr"],
                   help=f"Adam's step, cut by 0.3 after 70%% of the passes (default "
                        f"{d['lr']:g})")
    add_options(s, "seed", seed=d["seed"])
    add_progress(s)


def _kept(partial, settings):
    """What a long run's ``OUT.partial`` holds, said as counts: its finished chunks of
    labels (``values_NNNNN.npy``) of all it needs (from the ``settings`` file's
    ``positions`` and ``chunk``), e.g. ``"2 of 19 chunk(s) of labels (500 positions
    each)"``; ``"only the settings (no chunk of 500 labels finished yet)"`` when none is."""
    done = sum(1 for f in os.listdir(partial) if re.fullmatch(r"values_\d+\.npy", f))
    try:
        with open(os.path.join(partial, settings), encoding="utf-8") as f:
            s = json.load(f)
        chunk = int(s["chunk"])
        total = f" of {-(-int(s['positions']) // chunk):,}"
    except (OSError, ValueError, KeyError, TypeError):
        chunk, total = None, ""
    if not done:
        return ("only the settings (no chunk of labels finished yet)" if chunk is None else
                f"only the settings (no chunk of {chunk:,} labels finished yet)")
    return f"{done:,}{total} chunk(s) of labels" + (
        f" ({chunk:,} positions each)" if chunk else "")


# train_luck_net's keywords -> train-luck's options
_LUCK_OPTIONS = {"n_games": "-n/--games", "hidden": "--hidden", "middle": "--middle",
                 "epochs": "--epochs", "lr": "--lr", "seed": "--seed"}


def cmd_train_luck(args):
    """Train a luck net (nardy_fast.engine.play.lucknet) on the shipped classic net's self-play
    and write it; the shipped ``luck_classic.nfdb`` is made by this command twice: with
    its defaults, then ``--init`` that net ``--epochs 3 --lr 3e-5``.  The run's progress
    is kept in the folder ``OUT.partial`` (removed once the net is written): the same
    command again continues an interrupted run."""
    new_file(args.out, args.force, what="a luck net")      # before the hours of work
    partial = _resume_folder(args.out)
    try:
        net, meta = _resumed(args, partial, lambda: luck_training.train_luck_net(
            args.games, hidden=args.hidden, epochs=args.epochs, seed=args.seed,
            progress=args.progress, middle=args.middle, checkpoint=partial, init=args.init,
            lr=args.lr))
    except KeyboardInterrupt:
        if not os.path.isdir(partial):
            raise
        passes = (" and the finished passes" if os.path.exists(os.path.join(partial,
                                                                            "epoch.npz"))
                  else "")
        raise Interrupted(f"during the run: {_kept(partial, 'data.json')}{passes} kept in "
                          f"{partial}; the same command continues it") from None
    except ValueError as e:             # a setting refused: in the option's words
        raise CliError(in_option_words(str(e), _LUCK_OPTIONS)) from None
    lucknet.save_luck_net(args.out, net, meta)
    shutil.rmtree(partial, ignore_errors=True)
    print(f"wrote {args.out}: {meta['positions']} positions, held-out R^2 of the equity "
          f"luck {meta['r2_equity']:.3f}")


def _parser_cube(sub):
    s = add_command(sub, "cube", cmd_cube, help="cube decision of a position: for money, or "
                                                "at a match score (--length)")
    add_options(s, "position")
    s.add_argument("--progression", default=None, choices=["geometric", "arithmetic"],
                   help="stakes 1, 2, 4, ... or 1, 2, 3, ... (default: the cube of "
                        "--rules, else geometric)")
    s.add_argument("--beaver", action="store_true",
                   help="allow the beaver (also allowed by --rules beaver=true)")
    s.add_argument("--stake", type=positive_int, default=1, help="current stake (default 1)")
    s.add_argument("--owner", default="centre", choices=["centre", "mover", "opponent"],
                   help="who may raise: either side (default), the side on roll, the "
                        "opponent")
    s.add_argument("--method", default="auto", choices=list(CUBE_METHODS),
                   help="exact tables where they cover the race, else the cube model on "
                        "the evaluator's probabilities (auto, default), or cube-aware "
                        "rollouts")
    s.add_argument("--plies", type=int, default=None, choices=PLIES_CHOICES,
                   help=f"the look-ahead of the evaluation the cube model decides on: 0 "
                        f"(the net itself, about 1 ms) to 2 (0.01-0.06 s); default "
                        f"{CUBE_PLIES} (2 for a single decision: hint, cube, play; 0 for "
                        f"bulk work: analyse, study)")
    add_options(s, "games", "seed", "workers", "scheduler", "rules", "json",
                games=DEFAULT_GAMES)
    s.set_defaults(**dict.fromkeys(_ROLLOUT_ONLY))      # the help keeps the defaults
    add_progress(s)
    add_match_options(s)


def cmd_cube(args):
    """No double, double/take and double/pass equities of the side on roll per unit stake,
    the proper actions and the take point: exact in small bear-off races, else from the
    evaluator's cubeless probabilities with the cube model (nardy_fast.engine.decisions.cube).
    With --length: the match winning chances of each action at the score (Zadeh's model
    through the match equity table, on the evaluator's probabilities)."""

    pos = _position(args.position)
    rules = _cube_decision_rules(args)
    first = pos.is_first_turn()                 # no raise on the first turn (7a)
    cube = CubeState(args.stake, args.owner, first)
    try:
        cube.check(rules)
    except ValueError as e:
        raise CliError(f"--stake {args.stake}: {e} (--progression {rules.cube})") \
            from None
    match = match_state(args, pos, rules, cube)
    if match is not None and args.method != "auto":
        raise CliError(f"--method {args.method}: at a match score the match equity table "
                       "decides, on the evaluator's probabilities (--method auto)")
    if match is not None and rules.beaver:
        option = "--beaver" if args.beaver else "--rules beaver=true"
        raise CliError(f"{option}: at a match score the match equity table decides, and "
                       "its cube model has no beaver (the beaver is valued in money play)")
    if args.method != "rollout":
        unused = given(args, _ROLLOUT_ONLY)
        if unused:
            warnings.warn(f"{', '.join(unused)}: no effect without --method rollout (the "
                          f"decision is made by --method {args.method})", UserWarning)
    rollout_defaults(args, DEFAULT_GAMES)
    roll = dict(method=Rollout(RolloutSettings(args.games)), seed=args.seed,
                compute=Compute(workers=args.workers, client=_client(args.scheduler),
                                progress=args.progress)) \
        if args.method == "rollout" else {"method": args.method}    # rollouts' options only
    if args.plies is not None and args.method in ("exact", "rollout"):
        raise CliError(f"--plies {args.plies}: no effect with --method {args.method} (the "
                       f"look-ahead of the model's evaluation, methods auto and janowski)")
    try:
        d = (cube_decision(pos, cube, rules=rules, plies=args.plies, **roll) if match is None
             else cube_decision(pos, cube, plies=args.plies, match=match))
    except ValueError as e:                 # the option's words, not the argument's
        python = f"method={args.method!r}: "
        if str(e).startswith(python):
            raise CliError(f"--method {args.method}: {str(e)[len(python):]}") from None
        raise
    if args.json:
        print(json_text({"position": pos.id, "stake": cube.stake, "owner": cube.owner,
                         **({} if match is None else
                            {"length": match.rules.length, "score": list(match.score),
                             "crawford": match.rules.crawford,
                             "crawford_game": match.crawford}), **d}))
        return
    print(pos.diagram(cube=cube))
    if match is not None:
        print(f"{_match_words(match)}: the values are the match winning chances of the "
              "side on roll")
    _print_cube(args, d, match)


def _cube_decision_rules(args):
    """The rules of ``cube``: --rules with the cube of --progression (default the rules'
    own cube, else geometric) and the beaver of --beaver or of the rules; a --progression
    that contradicts the cube of --rules is a ``CliError`` naming both."""
    rules = as_rules(args.rules)
    progression = args.progression or rules.cube or "geometric"
    if rules.cube is not None and progression != rules.cube:
        raise CliError(f"--progression {progression}: --rules says cube={rules.cube}; "
                       "give one of them")
    return dataclasses.replace(rules, cube=progression, beaver=args.beaver or rules.beaver)


# the names of a cube decision's values in the text output, in order
_CUBE_VALUES = (("no_double", "no double"), ("double_take", "double, take"),
                ("double_pass", "double, pass"), ("double_beaver", "double, beaver"))


def _half_draws(args):
    """What the cube's P(win) counts under ``draw_rule``: a draw as half a win
    (``cubemodel.p_of``), so that it is not read as the P(win) of ``rollout`` or
    ``bearoff query``; nothing under other rules."""
    return " (draws counted as half a win)" if as_rules(args.rules).draw_rule else ""


def _print_cube(args, d, match=None):
    """The text of ``cube``: the values with the standard errors of rollouts, and the
    model's efficiency and take point only where the model decided (the take point only
    where a raise is open); at a ``match`` score
    the values are match winning chances."""
    rolled = d["method"] == "rollout"
    modelled = decided_by_model(d)
    if rolled and d.get("valued_at_start"):
        print(f"method rollout ({d['model']}): no game played, the "
              f"{method_label(d['valued_at_start'])} values the race before its first roll: "
              f"P(win) {d['p_win']:.4f}")
        print("equities per unit stake, the side on roll's view")
    elif rolled:
        print(f"method rollout ({d['model']}, {args.games} games each, seed {d['seed']}): "
              f"P(win) {d['p_win']:.4f} (the share of the no double rollout's games won, a "
              "pass counting as a win)")
        print("equities per unit stake, the side on roll's view; ± is "
              f"{NOISE_Z} standard errors (a 95% interval)")
    elif modelled:
        print(f"cubeless P(win) {d['p_win']:.4f}{_half_draws(args)}, method {d['method']}, "
              f"cube efficiency x {d['x']:.3f} ({d['x_source']})")
    else:
        print(f"cubeless P(win) {d['p_win']:.4f}{_half_draws(args)}, method {d['method']} "
              f"({d['model']})")
    for key, label in _CUBE_VALUES:
        if math.isnan(d[key]):
            continue
        se = d.get(f"se_{key}", math.nan)
        err = (f" ± {NOISE_Z * se:.4f}" if not math.isnan(se) else
               " (exact: the stake before the raise)" if rolled and key == "double_pass"
               else "")
        print(f"  {label:<16s} {shown(d[key], '.4f' if match else '+.4f')}{err}")
    value = (f"match winning chance {shown(d['equity'], '.4f')}" if match else
             f"cubeful equity {shown(d['equity'], '+.4f')} per unit stake")
    print(f"proper action: {d['action']}; {value}"
          + (f"; the opponent's take point {d['take_point']:.3f} "
             f"({'the table' if match else 'the model'}'s)"
             if modelled and not math.isnan(d["take_point"])
             and not math.isnan(d["double_take"]) else ""))   # none where no raise is open
    if rolled and not math.isnan(d["double_margin"]):
        for who, key in (("doubler", "double"), ("taker", "take")):
            margin, noise = d[f"{key}_margin"], d[f"{key}_noise"]
            if math.isnan(noise):                   # no spread to measure
                why = ("a single game" if d.get("games", 0) <= 1 else
                       "the games left no spread to measure")
                print(f"  {who + ':':<8s} margin {margin:.4f}, noise not measured ({why}): "
                      "not decided")
                continue
            print(f"  {who + ':':<8s} margin {margin:.4f}, noise {noise:.4f}: "
                  + ("within the noise" if margin < noise else "clear"))
        print(("the verdict is within the noise: more games (-n) would decide it; "
               if d["within_noise"] else "the verdict is clear of the noise; ")
              + f"a margin is the difference of the two values compared, its noise "
              f"{NOISE_Z} x the standard error of that difference, from the per-game "
              "differences of the two rollouts, whose games threw the same dice (against "
              "the exact pass: the other value's own)")


PARSERS = (_parser_hint, _parser_play, _parser_met, _parser_matches, _parser_train,
           _parser_train_net, _parser_average_nets, _parser_train_rollouts, _parser_train_luck,
           _parser_cube)
