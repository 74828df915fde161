"""A match against the engine in the terminal (``nardy-fast play --match N``).

The engine is ``Evaluator.default()`` playing by match winning chances at ``plies``; the
human types moves as in ``nardy-fast play``.  The match is played without the cube (the
rule book's default, section 7a) under ``MatchRules`` defaults (the winner of a game
starts the next).  The transcript (``matchrecord``) is saved when the match ends or
stops (``quit``, end of input, Ctrl-C): its finished games only, and no file at all when
no game finished (a transcript of no game would be a header alone).
"""
from __future__ import annotations

from nardy_fast.engine.evaluator import Evaluator
from nardy_fast.engine.matchplay import play_one_match
from nardy_fast.core.matchrecord import MatchRecord, write_match
from nardy_fast.core.matchrules import MatchRules
from nardy_fast.app.play import _human_move, save_new

__all__ = ["play_match_terminal"]

DEFAULT_OUT = "match.mat"


class _Quit(Exception):
    pass


class _Human:
    """A player that asks for its moves."""

    def __init__(self, ev, input_fn, print_fn):
        self.ev, self.input_fn, self.print_fn = ev, input_fn, print_fn

    def best_move(self, pos, dice, plies=0, match=None):
        moves = pos.legal_moves(dice, self.ev.rules)
        self.print_fn(pos.diagram())
        if match is not None:
            me, you = match.away()
            self.print_fn(f"match to {match.rules.length}: you need {me:g}, the engine {you:g}")
        if len(moves) == 1 and not moves[0].steps:
            self.print_fn(f"you rolled {dice[0]}{dice[1]}: no legal move")
            return moves[0]
        move = _human_move(pos, dice, moves, self.ev, self.input_fn, self.print_fn)
        if move is None:
            raise _Quit
        return move


class _Engine:
    """The evaluator at ``plies``, saying what it plays."""

    def __init__(self, ev, plies, print_fn):
        self.ev, self.plies, self.print_fn = ev, plies, print_fn

    def best_move(self, pos, dice, plies=0, match=None):
        move = self.ev.best_move(pos, dice, plies=self.plies, match=match)
        self.print_fn(f"engine rolled {dice[0]}{dice[1]} and plays {move}")
        return move


def play_match_terminal(length=3, plies=1, seed=None, out=None, input_fn=input,
                        print_fn=print, evaluator=None, replace=True):
    """Play a match to ``length`` points; returns the ``MatchRecord`` (also written).

    ``out``: the transcript file; None (default): the first free name of ``match.mat``,
    ``match-2.mat``, ...  ``replace``: an existing ``out`` is replaced (True, default) or
    kept, the transcript going to the next free numbered name (False); a transcript of no
    turn never replaces a file (``play.save_new``)."""
    ev = Evaluator.default() if evaluator is None else evaluator
    mr = MatchRules(length=length, rules=ev.rules)
    names = ("you", f"nardy_fast {plies}-ply")
    human, engine = _Human(ev, input_fn, print_fn), _Engine(ev, plies, print_fn)
    games = []
    interrupted = stopped = False
    try:
        rec = play_one_match(human, engine, mr, seed=seed, names=names, on_game=games.append)
    except (_Quit, KeyboardInterrupt) as e:
        interrupted = isinstance(e, KeyboardInterrupt)
        if interrupted:
            print_fn("\ninterrupted: the match stops")
        stopped = True
        rec = MatchRecord(rules=mr, players=names)
        for g in games:
            rec.add_game(g)
    final = rec.final_score()
    print_fn("score: " + ", ".join(f"{n} {v:g}" for n, v in final.items()))
    saved = None
    if rec.games:
        saved = save_new(lambda path, replace: write_match(rec, path, replace=replace),
                         DEFAULT_OUT if out is None else out,
                         turns=sum(len(g.turns) for g in rec.games),
                         replace=replace and out is not None, print_fn=print_fn,
                         what="transcript")
    if saved is not None:
        print_fn(f"match transcript saved to {saved} ({len(rec.games)} finished game(s)"
                 + ("; the game in play when the match stopped is not in it)" if stopped
                    else ")"))
    elif not rec.games:                                     # a header alone is no transcript
        print_fn(f"no game of the match finished: no transcript written to {out}")
    if interrupted:
        raise KeyboardInterrupt
    return rec
