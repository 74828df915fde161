"""A match against the engine in the terminal (``nardy-fast play --match N``).

The engine is ``Evaluator.default()`` playing by match winning chances at ``plies``; the
human types moves as in ``nardy-fast play``.  The match is played without the cube (the
rule book's default, section 7a) under ``MatchRules`` defaults (the winner of a game
starts the next).  The end of each game is said with its result and the score after it
(``_game_line``), the end of the match with its winner.  The transcript (``matchrecord``)
is saved when the match ends or stops (``quit``, end of input, Ctrl-C): its finished
games and the turns of the game in play when it stopped (an unfinished last game, which
scores nothing); no file at all when no turn was played.  It never destroys a file saved
before (``play.save_new``).
"""
from __future__ import annotations

from nardy_fast.engine.evaluation.evaluator import Evaluator
from nardy_fast.engine.decisions.matchplay import play_one_match
from nardy_fast.core.matchrecord import MatchRecord, write_match
from nardy_fast.core.matchrules import MatchRules
from nardy_fast.core.position import Position
from nardy_fast.core.record import GameRecord
from nardy_fast.app.play import _human_move, blunder_note, counted, save_new

__all__ = ["play_match_terminal"]

DEFAULT_OUT = "match.mat"


class _Quit(Exception):
    pass


def _game_line(k, game, before, after):
    """``"game 1: nardy_fast 1-ply wins (koks, 2 points); score: you 0, nardy_fast 1-ply
    2"``: the result of game ``k`` (from 1), a finished ``GameRecord``, and the score
    ``after`` it (``before``: the score before it; a draw is worth what the match rules
    give each side, ``MatchRecord.points``)."""
    res = game.result()
    if res["winner"] is None:
        what = "a draw (" + ", ".join(
            f"{n} {counted(after[n] - before[n], 'point')}" for n in after) + ")"
    else:
        name = game.white if res["winner"] == "white" else game.black
        what = f"{name} wins ({res['kind']}, {counted(res['points'], 'point')})"
    return f"game {k}: {what}; score: " + ", ".join(f"{n} {v:g}" for n, v in after.items())


class _GameInPlay:
    """The turns of the game in play, as the two players make them: a game starts at the
    initial position (every game of a match does), its White the player on roll there."""

    def __init__(self, names, rules):
        self.names, self.rules, self.game = names, rules, None

    def played(self, name, pos, dice, move):
        if pos == Position.initial():
            other = self.names[1] if name == self.names[0] else self.names[0]
            self.game = GameRecord(white=name, black=other, rules=self.rules)
        self.game.append(dice, move.steps)


class _Human:
    """A player that asks for its moves."""

    def __init__(self, ev, input_fn, print_fn, name, turns, plies):
        self.ev, self.input_fn, self.print_fn = ev, input_fn, print_fn
        self.name, self.turns, self.plies = name, turns, plies

    def best_move(self, pos, dice, plies=0, match=None):
        moves = pos.legal_moves(dice, self.ev.rules)
        self.print_fn(pos.diagram())
        if match is not None:
            me, you = match.away()
            self.print_fn(f"match to {match.rules.length}: you need {me:g}, the engine {you:g}")
        if len(moves) == 1 and not moves[0].steps:
            self.print_fn(f"you rolled {dice[0]}{dice[1]}: no legal move")
            move = moves[0]
        else:
            move = _human_move(pos, dice, moves, self.ev, self.input_fn, self.print_fn,
                               plies=self.plies, match=match)
            note = None if move is None else blunder_note(self.ev, pos, dice, move,
                                                          self.plies, match)
            if note is not None:
                self.print_fn("  " + note)
        if move is None:
            raise _Quit
        self.turns.played(self.name, pos, dice, move)
        return move


class _Engine:
    """The evaluator at ``plies``, saying what it plays."""

    def __init__(self, ev, plies, print_fn, name, turns):
        self.ev, self.plies, self.print_fn = ev, plies, print_fn
        self.name, self.turns = name, turns

    def best_move(self, pos, dice, plies=0, match=None):
        move = self.ev.best_move(pos, dice, plies=self.plies, match=match)
        self.print_fn(f"engine rolled {dice[0]}{dice[1]} and plays {move}")
        self.turns.played(self.name, pos, dice, move)
        return move


def play_match_terminal(length=3, plies=1, seed=None, out=None, input_fn=input,
                        print_fn=print, evaluator=None, replace=True):
    """Play a match to ``length`` points; returns the ``MatchRecord`` (also written).

    ``out``: the transcript file; None (default): the first free name of ``match.mat``,
    ``match-2.mat``, ...  ``replace``: an existing ``out`` is replaced (True, default) or
    kept, the transcript going to the next free numbered name (False); a transcript of no
    turn never replaces a file (``play.save_new``).  A match stopped during a game keeps
    that game's turns as its unfinished last game.  The match is played without the cube:
    an ``evaluator`` whose rules have one is a ``ValueError``."""
    ev = Evaluator.default() if evaluator is None else evaluator
    if ev.rules.cube is not None:
        raise ValueError(f"rules: cube={ev.rules.cube}: a match against the engine in the "
                         "terminal is played without the cube (cube=None)")
    mr = MatchRules(length=length, rules=ev.rules)
    names = ("you", f"nardy_fast {plies}-ply")
    in_play = _GameInPlay(names, mr.rules)
    human = _Human(ev, input_fn, print_fn, names[0], in_play, plies)
    engine = _Engine(ev, plies, print_fn, names[1], in_play)
    games = []
    so_far = MatchRecord(rules=mr, players=names)

    def game_over(game):                # says how the game ended and the score after it
        games.append(game)
        before = so_far.final_score()
        after = so_far.add_game(game).final_score()
        print_fn(_game_line(len(games), game, before, after))

    interrupted = False
    unfinished = None
    try:
        rec = play_one_match(human, engine, mr, seed=seed, names=names, on_game=game_over)
    except (_Quit, KeyboardInterrupt) as e:
        interrupted = isinstance(e, KeyboardInterrupt)
        if interrupted:
            print_fn("\ninterrupted: the match stops")
        rec = MatchRecord(rules=mr, players=names)
        for g in games:
            rec.add_game(g)
        game = in_play.game
        if game is not None and game.turns and not any(g is game for g in games) \
                and game.result() is None:
            unfinished = game
            rec.add_game(game)
    final = rec.final_score()
    won = [n for n, v in final.items() if v >= length]
    print_fn("score: " + ", ".join(f"{n} {v:g}" for n, v in final.items())
             + (f": {won[0]} {'win' if won[0] == names[0] else 'wins'} the match to "
                f"{length}" if won else ""))
    finished = len(rec.games) - (unfinished is not None)
    turns = sum(len(g.turns) for g in rec.games)
    saved = None
    if turns:
        saved = save_new(lambda path, replace: write_match(rec, path, replace=replace),
                         DEFAULT_OUT if out is None else out, turns=turns,
                         replace=replace and out is not None, print_fn=print_fn,
                         what="transcript")
    else:
        print_fn("no turn played: no transcript written to "
                 f"{DEFAULT_OUT if out is None else out}")
    if saved is not None:
        parts = [counted(finished, "finished game")] if finished else []
        if unfinished is not None:
            parts.append(f"game {len(rec.games)} unfinished, "
                         f"{counted(len(unfinished.turns), 'turn')}")
        what = " and ".join(parts)
        print_fn(f"match transcript saved to {saved} ({what})")
    if interrupted:
        raise KeyboardInterrupt
    return rec
