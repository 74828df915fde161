"""A game against the engine in the terminal (``nardy-fast play``).

The engine is ``Evaluator.default(rules)`` choosing its moves at ``plies``;
the human types a move in the record notation (``"1/7 7/11"``, ``"19/off"``, ``"pass"``),
``hint`` for the engine's ranking of the roll, or ``quit``.  The game is played by the
package's one game loop (``core.gameloop``): the opening throw decides who plays White
unless ``side`` is given, ``opening_roll="opening_dice"`` plays the opening dice as
White's first roll, and under ``draw_rule`` Black gets its last turn.  Dice come from
``numpy.random.default_rng(seed)``.  The game is saved as a record
(``record.write_record``) when it ends or stops.
"""
from __future__ import annotations

import numpy as np

from nardy_fast.core.gameloop import opening_throw, play_turns
from nardy_fast.core.position import BLACK, WHITE, Position, as_position
from nardy_fast.core.record import GameRecord, apply_steps, parse_steps, write_record
from nardy_fast.core.rules import as_rules
from nardy_fast.engine.evaluator import Evaluator

__all__ = ["play_terminal"]


def _human_move(pos, dice, moves, ev, input_fn, print_fn):
    """The move the human types (None: quit)."""
    while True:
        text = input_fn(f"your move ({dice[0]}{dice[1]}): ").strip()
        if text == "quit":
            return None
        if text == "hint":
            for r in ev.hint(pos, dice).head(5).itertuples():
                print_fn(f"  {r.rank}. {r.move:<22s} {r.equity:+.3f} ({r.diff:+.3f})")
            continue
        try:
            steps = parse_steps(text)
            board = tuple(int(x) for x in apply_steps(pos.mover, pos.opponent, dice, steps))
        except ValueError as e:
            print_fn(f"  not a move: {e}")
            continue
        for m in moves:
            if m.board == board:
                return m
        print_fn("  not legal: a move must use as many dice as possible (and the larger "
                 "one if only one can be played), within the head and block rules")


def play_terminal(side=None, plies=1, seed=None, out="game.mat", input_fn=input,
                  print_fn=print, evaluator=None, rules=None, start=None):
    """Play one game; returns the ``GameRecord`` (also written to ``out``).

    ``side``: the human's colour, ``"white"`` or ``"black"``; None (default): the opening
    throw decides (the higher die plays White).  ``rules``: the game's rules (default the
    evaluator's).  ``start``: a Position or ID to play from (default the initial position,
    White on roll).
    """
    if side not in (None, WHITE, BLACK):
        raise ValueError(f"side={side!r}: expected 'white', 'black' or None")
    if evaluator is None:
        ev = Evaluator.default(None if rules is None else as_rules(rules))
    else:
        ev = evaluator if rules is None else evaluator.with_rules(as_rules(rules))
    rng = np.random.default_rng(seed)
    start = Position.initial() if start is None else as_position(start, "start")
    first_dice = None
    if start == Position.initial():
        you, engine = opening_throw(rng)
        print_fn(f"opening throw: you {you}, the engine {engine}")
        if side is None:
            side = WHITE if you > engine else BLACK
        if ev.rules.opening_roll == "opening_dice":
            first_dice = (max(you, engine), min(you, engine))
    side = WHITE if side is None else side
    print_fn(f"you play {side}")
    names = {side: "you", (BLACK if side == WHITE else WHITE): f"nardy_fast {plies}-ply"}
    record = GameRecord(white=names[WHITE], black=names[BLACK], rules=ev.rules, start=start)

    def choose(pos, dice, moves):
        print_fn(pos.diagram())
        if pos.side != side:
            move = ev.best_move(pos, dice, plies=plies)
            print_fn(f"engine rolled {dice[0]}{dice[1]} and plays {move}")
            return move
        if len(moves) == 1 and not moves[0].steps:
            print_fn(f"you rolled {dice[0]}{dice[1]}: no legal move")
            return moves[0]
        return _human_move(pos, dice, moves, ev, input_fn, print_fn)

    play_turns(record, choose, rng, dice=first_dice)
    result = record.result()
    if result is not None:
        if result["winner"] is None:
            print_fn(f"a draw ({result['points']:g} points each)")
        else:
            print_fn(f"{result['winner']} wins ({result['kind']}, {result['points']:g} points)")
    write_record(record, out)
    print_fn(f"record saved to {out}")
    return record
