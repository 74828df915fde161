"""A game against the engine in the terminal (``nardy-fast play``).

The engine is ``Evaluator.default(rules)`` choosing its moves at ``plies``;
the human types a move in the record notation (``"1/7 7/11"``, ``"19/off"``, ``"pass"``),
``hint`` for the engine's ranking of the roll, or ``quit``.  The game is played by the
package's one game loop (``core.gameloop``): the opening throw decides who plays White
unless ``side`` is given, ``opening_roll="opening_dice"`` plays the opening dice as
White's first roll, and under ``draw_rule`` Black gets its last turn.  Dice come from
``numpy.random.default_rng(seed)``, the seed checked first (``core.rng.generator``).  The
game is saved as a record (``record.write_record``, atomically) when it ends or stops:
``quit``, end of input (Ctrl-D) or Ctrl-C (which then propagates as
``KeyboardInterrupt``, the record written).
A typed move is read against the legal ones by ``core.position.read_move`` (a refusal
names its rule); one that loses a blunder's equity against the engine's best is named at
once (``blunder_note``, at ``plies``).  A record never destroys a game saved before
(``save_new``): with no ``out`` it gets the first free name of ``game.mat``,
``game-2.mat``, ...; a record of no turn is never written over an existing file.
"""
from __future__ import annotations

import os

from nardy_fast.analysis.report import mark
from nardy_fast.core.gameloop import opening_throw, play_turns
from nardy_fast.core.position import BLACK, WHITE, Position, as_position, read_move
from nardy_fast.core.record import GameRecord, write_record
from nardy_fast.core.rng import generator
from nardy_fast.core.rules import as_rules
from nardy_fast.engine.evaluation.evaluator import Evaluator

__all__ = ["play_terminal", "blunder_note", "counted", "numbered_names", "save_new"]

DEFAULT_OUT = "game.mat"


HELP = """\
  type your move as records write it, from point to point (points 1-24 of the
  side on roll, 'off' to bear off):
    1/7 7/12        two steps of one checker (also 1/7/12, or 1/12 when
                    the result is that of a legal move)
    1/7 1/6         two checkers
    19/off 20/off   bearing off; 13/19(2): the same step twice
    'pass'          when no move is legal
  'hint'  the engine's five best moves at its plies: equity (points per game,
          your view) and the equity lost against the best; in a match, your
          match winning chance (mwc) and the chance lost
  'help'  this text
  'quit'  stop, saving the record (also Ctrl-D or Ctrl-C)"""


def counted(n, word):
    """``"1 point"``, ``"2 points"``, ``"0.5 points"``: ``n`` (``:g``) and ``word``, plural
    unless ``n`` is 1."""
    return f"{n:g} {word}" + ("" if n == 1 else "s")


def numbered_names(path):
    """``path``, then ``stem-2.ext``, ``stem-3.ext``, ... (``game.mat``, ``game-2.mat``)."""
    path = os.fspath(path)
    stem, ext = os.path.splitext(path)
    yield path
    k = 2
    while True:
        yield f"{stem}-{k}{ext}"
        k += 1


def save_new(write, out, *, turns, replace, print_fn, what="record"):
    """Save by ``write(path, replace=...)`` (``write_record``, ``write_match``: atomic)
    without destroying a file saved before; the name written, or None.

    ``turns``: the turns played; a record of none is not written over an existing file.
    ``replace``: True replaces an existing ``out``; False keeps it and takes the first free
    of ``numbered_names(out)`` (checked and claimed in one step by the write).
    """
    if turns == 0 and os.path.exists(out):
        print_fn(f"no turn played: {out} left as it was, no {what} written")
        return None
    if replace:
        return write(out, replace=True)
    for name in numbered_names(out):
        try:
            write(name, replace=False)
        except FileExistsError:
            continue
        if name != out:
            print_fn(f"{out} exists: the {what} goes to {name}")
        return name


def _human_move(pos, dice, moves, ev, input_fn, print_fn, plies=0, match=None):
    """The move the human types (None: quit, end of input included); 'hint' ranks the
    moves at ``plies`` (the engine's), by the human's match winning chance at ``match``
    (a ``MatchState``), as the engine ranks its own."""
    while True:
        try:
            text = input_fn(f"your move ({dice[0]}{dice[1]}; 'help' for help): ").strip()
        except EOFError:                          # Ctrl-D, or piped input that ended
            print_fn("\nend of input: the game stops")
            return None
        if text == "quit":
            return None
        if text in ("help", "?"):
            print_fn(HELP)
            continue
        if text == "hint" and match is not None:
            print_fn(f"  {'rank':>4s}  {'move':<22s} {'mwc':>7s} {'mwc_loss':>9s}")
            for r in ev.hint(pos, dice, plies=plies, match=match).head(5).itertuples():
                print_fn(f"  {r.rank:4d}. {r.move:<22s} {r.mwc:7.3f} "
                         f"{r.mwc_loss + 0.0:9.3f}")
            continue
        if text == "hint":
            print_fn(f"  {'rank':>4s}  {'move':<22s} {'equity':>7s} {'equity_loss':>11s}")
            for r in ev.hint(pos, dice, plies=plies).head(5).itertuples():
                print_fn(f"  {r.rank:4d}. {r.move:<22s} {r.equity:+7.3f} "
                         f"{-r.diff + 0.0:11.3f}")
            continue
        try:
            return read_move(pos, text, dice, ev.rules)
        except ValueError as e:              # "not a move: ..." / "not legal for 65: ..."
            print_fn(f"  {e}")


def blunder_note(ev, pos, dice, move, plies, match=None):
    """``"blunder: lost 0.183 points (equity, net 1-ply); best was 13/7 13/8"`` when the
    human's ``move`` loses a blunder's equity or more against the best
    (``analysis.report.MARKS``: ``mark(loss) == "blunder"``), else None.  The loss is
    ``Evaluator.hint``'s at ``plies`` (with ``match``: in EMG, the money equivalent of
    the match winning chances)."""
    if sum(move.board) == 0 or len(pos.legal_moves(dice, ev.rules)) < 2:
        return None                  # the last checker off (the game ends), or no choice
    hint = ev.hint(pos, dice, plies=plies, match=match)
    played = hint[hint["move"] == str(move)].iloc[0]
    best = hint.iloc[0]
    if match is None:
        loss, unit = best["equity"] - played["equity"], "equity"
    else:
        loss, unit = best["emg"] - played["emg"], "EMG"
    if mark(loss) != "blunder":
        return None
    how = best["method"] if played["method"] == best["method"] else \
        f"{played['method']}, the best at {best['method']}"
    return f"blunder: lost {loss:.3f} points ({unit}, {how}); best was {best['move']}"


def play_terminal(side=None, plies=1, seed=None, out=None, input_fn=input,
                  print_fn=print, evaluator=None, rules=None, start=None, replace=True):
    """Play one game; returns the ``GameRecord`` (also written to ``out``).

    ``out``: the record file; None (default): the first free name of ``game.mat``,
    ``game-2.mat``, ...  ``replace``: an existing ``out`` is replaced (True, default) or
    kept, the record going to the next free numbered name (False); a record of no turn
    never replaces a file (``save_new``).  ``side``: the human's colour, ``"white"`` or
    ``"black"``; None (default): the opening throw decides (the higher die plays White).
    ``rules``: the game's rules (default the evaluator's).  ``start``: a Position or ID to
    play from (default the initial position, White on roll; a finished game is a
    ``ValueError``).  The game is played without the cube: rules with one are a
    ``ValueError``.  After each of the human's moves that loses a blunder's equity,
    ``blunder_note`` says so.
    """
    if side not in (None, WHITE, BLACK):
        raise ValueError(f"side={side!r}: expected 'white', 'black' or None")
    if evaluator is None:
        ev = Evaluator.default(None if rules is None else as_rules(rules))
    else:
        ev = evaluator if rules is None else evaluator.with_rules(as_rules(rules))
    if ev.rules.cube is not None:          # no cube actions here: 7a would score the stake
        raise ValueError(f"rules: cube={ev.rules.cube}: a game against the engine in the "
                         "terminal is played without the cube (cube=None)")
    rng = generator(seed)
    start = Position.initial() if start is None else as_position(start, "start")
    if start.is_over():                       # as play_duel: no game to play from there
        raise ValueError(f"start {start.id}: the game is over")
    first_dice = None
    # the opening throw: who plays White (unless ``side`` says it) and, under
    # opening_dice, White's first roll; a throw that decides nothing is not thrown
    if start == Position.initial() and (side is None
                                        or ev.rules.opening_roll == "opening_dice"):
        you, engine = opening_throw(rng)
        if side is None:
            print_fn(f"opening throw: you {you}, the engine {engine}")
            side = WHITE if you > engine else BLACK
        else:
            print_fn(f"opening throw: {you} and {engine}, White's first roll")
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
        move = _human_move(pos, dice, moves, ev, input_fn, print_fn, plies=plies)
        note = None if move is None else blunder_note(ev, pos, dice, move, plies)
        if note is not None:
            print_fn("  " + note)
        return move

    interrupted = False
    try:
        play_turns(record, choose, rng, dice=first_dice)
    except KeyboardInterrupt:                 # Ctrl-C: the turns played are kept
        interrupted = True
        print_fn("\ninterrupted: the game stops")
    result = record.result()
    if result is not None:
        if result["winner"] is None:
            print_fn("a draw (1/2 point each)")    # rule book 7; the record nets 0 points
        else:
            print_fn(f"{result['winner']} wins ({result['kind']}, "
                     f"{counted(result['points'], 'point')})")
    saved = save_new(lambda path, replace: write_record(record, path, replace=replace),
                     DEFAULT_OUT if out is None else out, turns=len(record.turns),
                     replace=replace and out is not None, print_fn=print_fn)
    if saved is not None:
        print_fn(f"record saved to {saved}" + (
            "" if result is not None
            else f" ({counted(len(record.turns), 'turn')}, not finished)"))
    if interrupted:
        raise KeyboardInterrupt
    return record
