"""A game against the engine in the terminal (``nardy-fast play``).

The engine is ``Evaluator.default()`` choosing its moves at ``plies``; the human types a
move in the record notation (``"1/7 7/11"``, ``"19/off"``, ``"pass"``), ``hint`` for the
engine's ranking of the roll, or ``quit``.  Dice come from ``numpy.random.default_rng(seed)``.
The game (classic rules) is saved as a record (``record.write_record``) when it ends or
stops.
"""
from __future__ import annotations

import numpy as np

from nardy_fast.engine.evaluator import Evaluator
from nardy_fast.core.position import BLACK, WHITE, Position
from nardy_fast.core.record import GameRecord, apply_steps, parse_steps, write_record

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


def play_terminal(side=WHITE, plies=1, seed=None, out="game.mat", input_fn=input,
                  print_fn=print, evaluator=None):
    """Play one game; returns the ``GameRecord`` (also written to ``out``)."""
    if side not in (WHITE, BLACK):
        raise ValueError(f"side={side!r}: expected 'white' or 'black'")
    ev = Evaluator.default() if evaluator is None else evaluator
    rng = np.random.default_rng(seed)
    names = {side: "you", (BLACK if side == WHITE else WHITE): f"nardy_fast {plies}-ply"}
    record = GameRecord(white=names[WHITE], black=names[BLACK], rules=ev.rules)
    pos = Position.initial()
    while not pos.is_over():
        dice = tuple(int(d) for d in rng.integers(1, 7, size=2))
        moves = pos.legal_moves(*dice, ev.rules)
        print_fn(pos.diagram())
        if pos.side == side:
            if len(moves) == 1 and not moves[0].steps:
                print_fn(f"you rolled {dice[0]}{dice[1]}: no legal move")
                move = moves[0]
            else:
                move = _human_move(pos, dice, moves, ev, input_fn, print_fn)
                if move is None:
                    break
        else:
            move = ev.best_move(pos, dice, plies=plies)
            print_fn(f"engine rolled {dice[0]}{dice[1]} and plays {move}")
        record.append(dice, move.steps)
        pos = pos.play(move)
    result = record.result()
    if result is not None:
        print_fn(f"{result['winner']} wins ({result['kind']}, {result['points']:g} points)")
    write_record(record, out)
    print_fn(f"record saved to {out}")
    return record
