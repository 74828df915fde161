"""The one Python game loop: records, random games and terminal play turn by turn.

The C loops (rollouts, self-play, matches) are for speed; this loop is for games a person
reads, records and replays, so it follows the rule book word by word:

- the opening (rule book section 8): each side throws one die, the higher plays White
  (ties rethrow), and White is on roll; under ``opening_roll="opening_dice"`` White's first
  turn plays those two dice (never a double), under ``"rethrow"`` it throws again;
- a game ends when a side has borne off all its checkers, except under ``draw_rule`` when
  White finished first: Black then plays one last turn (``_scoring.gives_last_turn``), as
  records, the C loops and the scoring assume.

Dice come from a ``numpy.random.Generator``; ``choose(position, dice, moves)`` returns one
of ``moves`` (``position.legal_moves(dice, rules)``) or None to stop the game there.
"""
from __future__ import annotations


from nardy_fast.core._scoring import gives_last_turn
from nardy_fast.core.position import WHITE

__all__ = ["opening_throw", "throw", "play_turns"]


def throw(rng):
    """Two dice ``(d1, d2)``, each 1..6, from the generator ``rng``."""
    d1, d2 = (int(x) for x in rng.integers(1, 7, size=2))
    return d1, d2


def opening_throw(rng):
    """The opening throw of rule book section 8: ``(first, second)``, the different dice
    of the two players (ties rethrown); the player who threw ``first`` plays White."""
    while True:
        a, b = throw(rng)
        if a != b:
            return a, b


def play_turns(record, choose, rng, max_turns=None, dice=None, before_roll=None,
               list_moves=True):
    """Play turns onto ``record`` (a ``GameRecord``, from its last position) until the game
    ends, ``choose`` returns None or ``max_turns`` turns were added; returns ``record``.

    ``dice``: the dice ``(d1, d2)`` of the first turn played here (the opening dice; as
    ``rollout(..., dice=)``), else thrown.  ``record.rules`` decides the legal moves and
    ``draw_rule``'s last turn.
    ``before_roll(position)``: called before each turn but Black's last one (the cube's
    moment, rule book section 7a); a true return value stops the game there.
    ``list_moves=False`` gives ``choose`` None for ``moves`` (a chooser that finds the
    legal moves itself, as ``Evaluator.best_move`` does).
    """
    first = dice
    rules = record.rules
    pos = record.final
    white_first = record.start.side == WHITE
    last_turn = False
    added = 0
    while not pos.is_over() or last_turn:
        if max_turns is not None and added >= max_turns:
            break
        if before_roll is not None and not last_turn and before_roll(pos):
            break
        dice = first if (added == 0 and first is not None) else throw(rng)
        moves = pos.legal_moves(dice, rules) if list_moves else None
        move = choose(pos, dice, moves)
        if move is None:
            break
        record.append(dice, move.steps)
        added += 1
        if last_turn:                       # Black's last turn ends the game
            break
        pos = pos.play(move)
        if pos.is_over():
            last_turn = gives_last_turn(rules, pos.side != WHITE and white_first)
    return record
