"""The ``.MAT`` move lists of LogasAI and of opornik's importer, read into a
``MatchRecord`` and written from one.

LogasAI, a long-nardy program, saves its matches as ``.MAT`` transcripts in the layout
backgammon programs use; opornik, an open long-nardy engine, imports them::

     5 point match

     Game 1
     Alice : 0                          Bob : 0
      1) 31: 24/20                      42: 24/18
      2) 66: 24/18 18/12 12/6 6/off     Doubles => 2
      3)  Takes                         64: 13/7 7/3
      ...
                                        Wins 2 points

Points
    Each side's moves are numbered along **its own path backwards**: 24 is its head,
    19-24 its first quarter, 1-6 its home; a checker leaving the board goes to ``off``
    (``0`` is read too).  This package numbers the same path forwards (1 the head, 19-24
    the home; rule book section 1), so the layout's point ``p`` is our point ``25 - p``
    of the same side: ``24/20`` is our ``1/5``, ``6/off`` our ``19/off``.
Moves
    ``DD:`` (the dice) then steps ``from/to``; one checker's dice may be written joined
    (``24/16`` for 6-2) or chained (``24/18/16``), a repeat as ``24/18(2)``; nothing after
    the dice, or ``pass``, is a pass.  Each move is matched with the legal moves of its
    roll by the position it leaves (rule book section 5), so the order of the steps does
    not matter; the ``MatchRecord`` keeps one step per die in our numbering.
Columns
    Each game's score line names the left column's player, then the right one's.  The
    player who moves first in a game plays White in it; a game whose first line leaves the
    left column blank (its move begins 10 or more spaces after ``1)``) was started by the
    right-hand player.
Cube actions
    ``Doubles => N``, ``Takes``, ``Drops``, ``Beavers => N`` in the acting player's
    column, as in the package's own records (``nardy_fast.core.record``); ``Wins N
    point(s)`` is read and ignored.

The layout says nothing of the rules: ``read_mat`` takes them (``rules=``); by default a
match to the length of its `` N point match`` line, classic rules, the cube when the file
has a cube action (with beavers when it has one), and the opening roll deciding who
starts each game (LogasAI plays the Russian federation's rules, where each game's first
move is thrown for).  A file of move lines alone (no match line, no ``Game`` line) is one
game: ``read_mat_game``.

Malformed files are a ``RecordError`` naming the file and line.  ``write_mat`` writes the
layout: the points as above, each checker's dice joined (``24/16``: what opornik's
importer reads), the first player of the match in the left column throughout.
"""
from __future__ import annotations

import os
import re

from nardy_fast._utils._io import atomic_write_text
from nardy_fast.core._state import finished_reason
from nardy_fast.core.matchrecord import MATCH_MAGIC, MatchRecord, check_score_names
from nardy_fast.core.matchrules import MatchRules
from nardy_fast.core.position import WHITE, Position, _Refused, read_move
from nardy_fast.core.record import (MAGIC, GameRecord, RecordError, Turn, _entries,
                                    _parse_record, check_text, expect_record,
                                    read_text_file)
from nardy_fast.core.rules import Rules, as_rules

from collections.abc import Iterable
from typing import Any

__all__ = ["read_mat", "write_mat", "parse_mat", "format_mat", "read_mat_game",
           "parse_mat_game", "looks_like_mat", "to_mat_steps"]

_LENGTH = re.compile(r"^(\d+)\s+point\s+match$", re.IGNORECASE)
_GAME = re.compile(r"^Game\s+(\d+)$", re.IGNORECASE)
_SCORE = re.compile(r"^(.+?)\s*:\s*(\d+(?:\.\d+)?)\s+(.+?)\s*:\s*(\d+(?:\.\d+)?)$")
_MOVE_LINE = re.compile(r"^(\s*\d+\))(\s*)(.*)$")
_WINS = re.compile(r"^Wins\s+\d+\s+points?$", re.IGNORECASE)
_DICE = re.compile(r"^[1-6][1-6]:$")
_STEP = re.compile(r"^(\d+)((?:/(?:\d+|off))+)(\(\d\))?$", re.IGNORECASE)
_CUBE = {"doubles", "beavers", "takes", "drops"}
_WORDS = {"doubles", "beavers", "takes", "drops", "wins", "point", "points", "=>", "pass"}
_RIGHT_START = 10          # spaces after "1)" that put a move in the right column
_COL = 32                  # width of the left column written


# -- points ------------------------------------------------------------------------------
def _step_to_ours(tok):
    """A step token of the layout (``24/18``, ``6/0``, ``24/18/12``, ``24/18(2)``) in our
    numbering (``1/7``, ``19/off``, ...); ValueError naming it."""
    m = _STEP.match(tok)
    if m is None:
        raise ValueError(f"{tok!r} is not a move (expected steps such as 24/18, 6/off or "
                         "24/18(2), 'pass', or a cube action)")
    if m.group(3) and not 1 <= int(m.group(3)[1:-1]) <= 4:
        raise ValueError(f"step {tok!r}: a repeat count must be 1..4")
    points = [m.group(1)] + m.group(2).split("/")[1:]
    out = []
    for k, p in enumerate(points):
        if p.lower() in ("off", "0") and k == len(points) - 1 and k > 0:
            out.append("off")
        elif p.isdigit() and 1 <= int(p) <= 24:
            out.append(str(25 - int(p)))
        else:
            raise ValueError(f"step {tok!r}: point {p} is not 1..24 (24 the head; a last "
                             "point off or 0 bears off)")
    return "/".join(out) + (m.group(3) or "")


def to_mat_steps(steps: Iterable[tuple[int, int | str]]) -> str:
    """Our ``(from, to)`` steps (one per die, our numbering) as the layout writes them:
    each checker's dice joined (a step from where an earlier one of the turn landed
    continues that checker), points ``25 - p``: ``((1, 7), (7, 12))`` -> ``"24/13"``."""
    segments = []                       # [from, to] per checker moved
    for a, b in steps:
        for seg in reversed(segments):
            if seg[1] == a:
                seg[1] = b
                break
        else:
            segments.append([a, b])
    return " ".join(f"{25 - a}/{'off' if b == 'off' else 25 - b}" for a, b in segments)


# -- reading ------------------------------------------------------------------------------
def looks_like_mat(text: str) -> bool:
    """True when ``text`` (the start of a file is enough) is a move list in this layout
    rather than one of the package's own records: its first step goes down (``24/20``)
    or bears off from a home point 1-6 (``6/off``, ``6/0``); the package's own records
    count up (``1/5``, ``19/off``) and start with their ``; nardy_fast`` line."""
    if text.startswith("; nardy_fast"):
        return False
    for tok in text.split():
        m = _STEP.match(tok)
        if m is None:
            continue
        a, b = m.group(1), m.group(2).split("/")[1]
        if b.lower() in ("off", "0"):
            return 1 <= int(a) <= 6
        return int(b) < int(a)
    return False


def _goes_up(tok):
    """A step token of the layout that goes away from the home, as the steps of this
    package's own records do."""
    m = _STEP.match(tok)
    a, b = int(m.group(1)), m.group(2).split("/")[1]
    return b.isdigit() and int(b) > a


def _refuse_own(text, source):
    """A ``RecordError`` for a text that starts as this package's own game record or match
    transcript, naming the reader that takes it."""
    for magic, reader in ((MATCH_MAGIC, "read_match"), (MAGIC, "read_record")):
        if text.lstrip().startswith(magic):
            raise RecordError(f"{source}: it starts with {magic!r}: this is not a .MAT "
                              f"move list but one of this package's own, which count the "
                              f"points up (1 the head): read it with {reader}")


def _cube_used(lines):
    """``"beaver"`` when the lines have a beaver, True for another cube action, else
    False."""
    words = {w.lower() for ln in lines for w in ln.split()}
    return "beaver" if "beavers" in words else bool(words & _CUBE)


def _as_match_rules(rules, length, has_cube, source):
    if isinstance(rules, MatchRules):
        if length is not None and rules.length != length:
            raise RecordError(f"{source}: '{length} point match' but rules= says "
                              f"length={rules.length}")
        return rules
    if rules is None:
        game_rules = Rules(cube="geometric", beaver=has_cube == "beaver") if has_cube \
            else as_rules(None)
    else:
        try:
            game_rules = as_rules(rules)
        except (ValueError, TypeError) as e:
            raise RecordError(f"{source}: rules={rules!r}: {e}") from None
    try:
        return MatchRules(length=length, starter="opening_roll", rules=game_rules)
    except ValueError as e:
        raise RecordError(f"{source}: {e}") from None


def _game(lines, n_lines, source, names, rules, label):
    """One game from its body ``lines`` (``(line number, text)``; ``names`` the left and
    right players): a ``GameRecord`` with one step per die in our numbering."""
    text = [""] * n_lines
    moves = []                                   # (line, dice token, steps as written)
    right_first = False
    for no, raw in lines:
        line = raw.strip()
        if _WINS.match(line):
            text[no - 1] = line
            continue
        m = _MOVE_LINE.match(raw)
        if m is None:
            raise RecordError(f"{source} line {no}: {label}: expected a move line "
                              f"'N) DD: moves ...' or 'Wins N point(s)', got {line!r}")
        if not moves and not any(t for t in text if t.strip()):
            right_first = len(m.group(2)) >= _RIGHT_START
        out = [m.group(1).strip()]
        first = (m.group(3).split() or [""])[0]
        if not (_DICE.match(first) or first.lower() in _CUBE):
            raise RecordError(f"{source} line {no}: {label}: expected dice such as 64: or "
                              f"a cube action after '{out[0]}', got {first or 'nothing'!r}")
        prev = ""
        for tok in m.group(3).split():
            if _DICE.match(tok):
                moves.append((no, tok, []))
                out.append(tok)
            elif tok.lower() in _WORDS or (tok.isdigit() and prev in ("=>", "wins")):
                out.append(tok)
            else:
                try:
                    out.append(_step_to_ours(tok))
                except ValueError as e:
                    raise RecordError(f"{source} line {no}: {label}: {e}") from None
                if not moves:
                    raise RecordError(f"{source} line {no}: {label}: {tok!r} before the "
                                      "first dice")
                if not any(w for _, _, w in moves) and _goes_up(tok):
                    raise RecordError(f"{source} line {no}: {label}: the first step {tok} "
                                      "goes up, backwards in this layout (24 the head): "
                                      "this looks like one of this package's own records, "
                                      "which count the points up (1 the head): read it "
                                      "with read_record, or read_match for a match")
                moves[-1][2].append(tok)
            prev = tok.lower()
        text[no - 1] = " ".join(out)
    if not moves and not any(t.strip() for t in text):
        return GameRecord(white=names[0], black=names[1], rules=rules.rules), right_first
    parsed = _parse_record("\n".join(text), source, 1, lone_first=right_first, own=False)
    white, black = names[::-1] if right_first else names
    game = GameRecord(white=white, black=black, rules=rules.rules, cube=parsed.cube)
    pos = game.start
    for (no, dice, written), turn in zip(moves, parsed.turns):
        name = game.white if turn.side == WHITE else game.black
        what = f"{label}: {name} ({turn.side}) {dice} {' '.join(written) or 'pass'}"
        over = "a draw" if pos is None else finished_reason(pos, rules.rules)
        if over:
            raise RecordError(f"{source} line {no}: {what}: the game was already over "
                              f"({over})")
        ours = " ".join(f"{a}/{b}" for a, b in turn.steps)
        try:
            move = read_move(pos, ours, turn.dice, rules.rules)
        except _Refused as e:
            raise RecordError(f"{source} line {no}: {what} (ours {ours or 'pass'}): "
                              f"{e.reason}") from None
        game.turns.append(Turn(turn.side, turn.dice, move.steps))
        if sum(move.board) == 0 and pos.opponent.sum() == 0:
            pos = None                   # Black finished in its last turn: a draw, and no
        else:                            # position has both sides off (core._state)
            pos = pos.play(move)
    return game, right_first


def parse_mat(text: str, source: str = "<mat>", *, rules: Any = None) -> MatchRecord:
    """Read a match in the ``.MAT`` layout (module docstring) from its text.

    Parameters
    ----------
    text : str
    source : str
        The name the errors give (the file's path).
    rules : MatchRules, Rules, its text, or None
        The match's rules.  A ``MatchRules`` must have the length of the `` N point
        match`` line; the game's ``Rules`` alone make a match to that length; None
        (default): classic, with the cube when a game has a cube action.  Either way
        without a ``MatchRules`` each game is thrown for (``starter="opening_roll"``).

    Returns
    -------
    MatchRecord
        The match, not replayed (``MatchRecord.replay`` checks the scores and the cube);
        every move was matched with a legal one.  Its ``players`` are the first score
        line's, left then right.
    """
    length, blocks, n_lines = None, [], 0
    check_text(text, "parse_mat", "read_mat")
    _refuse_own(text, source)
    for no, raw in enumerate(text.splitlines(), 1):
        n_lines = no
        line = raw.strip()
        if not line or line.startswith(";"):
            continue
        if _LENGTH.match(line) and not blocks:
            if length is not None:
                raise RecordError(f"{source} line {no}: a second match line {line!r}")
            length = int(_LENGTH.match(line).group(1))
        elif _GAME.match(line):
            if int(_GAME.match(line).group(1)) != len(blocks) + 1:
                raise RecordError(f"{source} line {no}: {line!r} out of order, expected "
                                  f"Game {len(blocks) + 1}")
            blocks.append({"line": no, "score": None, "body": []})
        elif not blocks:
            if length is None and _MOVE_LINE.match(line):
                raise RecordError(f"{source} line {no}: a move line before any ' N point "
                                  "match' line (a move list alone is one game: read it "
                                  "with read_mat_game)")
            raise RecordError(f"{source} line {no}: {line!r} before 'Game 1' (expected "
                              "' N point match', then 'Game 1')")
        elif blocks[-1]["score"] is None:
            m = _SCORE.match(line)
            if not m:
                raise RecordError(f"{source} line {no}: game {len(blocks)}: expected the "
                                  f"score line 'NAME : N   NAME : N', got {line!r}")
            if m.group(1) == m.group(3):
                raise RecordError(f"{source} line {no}: game {len(blocks)}: both players "
                                  f"are named {m.group(1)!r}")
            try:                  # a name no score line holds as it is (':Alice')
                check_score_names((m.group(1), m.group(3)))
            except ValueError as e:
                raise RecordError(f"{source} line {no}: game {len(blocks)}: {e}") from None
            blocks[-1]["score"] = ((m.group(1), float(m.group(2))),
                                   (m.group(3), float(m.group(4))))
            blocks[-1]["score_line"] = no
        else:
            blocks[-1]["body"].append((no, raw))
    if length is None:
        raise RecordError(f"{source}: no ' N point match' line (a move list alone is one "
                          "game: read it with read_mat_game)")
    if not blocks:
        raise RecordError(f"{source}: no 'Game 1' in this match")
    has_cube = _cube_used(ln for b in blocks for _, ln in b["body"])
    match_rules = _as_match_rules(rules, length, has_cube, source)
    first = blocks[0]["score"]
    if first is None:
        raise RecordError(f"{source} line {blocks[0]['line']}: game 1 has no score line")
    players = (first[0][0], first[1][0])
    rec = MatchRecord(rules=match_rules, players=players)
    for k, b in enumerate(blocks, 1):
        if b["score"] is None:
            raise RecordError(f"{source} line {b['line']}: game {k} has no score line")
        (left, sl), (right, sr) = b["score"]
        if {left, right} != set(players):
            raise RecordError(f"{source} line {b['score_line']}: game {k}: players {left!r}, "
                              f"{right!r} are not game 1's {players[0]!r}, {players[1]!r}")
        game, _ = _game(b["body"], n_lines, source, (left, right), match_rules,
                        f"game {k}")
        rec.games.append(game)
        rec.scores.append({left: sl, right: sr})
    return rec


def parse_mat_game(text: str, source: str = "<mat>", *, rules: Any = None,
                   white: str = "White", black: str = "Black") -> GameRecord:
    """Read one game written as move lines alone (``  1) 31: 24/20   42: 24/18``, no match
    or ``Game`` line), as opornik's importer takes them; ``rules`` as ``parse_mat``'s
    (default classic, the cube when there is a cube action).  White is the left column
    (the right one when line 1 leaves it blank, as in a match)."""
    check_text(text, "parse_mat_game", "read_mat_game")
    _refuse_own(text, source)
    lines = []
    n = 0
    for no, raw in enumerate(text.splitlines(), 1):
        n = no
        line = raw.strip()
        if not line or line.startswith(";"):
            continue
        if _LENGTH.match(line) or _GAME.match(line):
            raise RecordError(f"{source} line {no}: {line!r}: this is a match: read it "
                              "with read_mat")
        lines.append((no, raw))
    if not lines:
        raise RecordError(f"{source}: no move line here (the file is empty or holds only "
                          "comments)")
    has_cube = _cube_used(ln for _, ln in lines)
    match_rules = _as_match_rules(rules, 1, has_cube, source) \
        if not isinstance(rules, MatchRules) else rules
    game, right_first = _game(lines, n, source, (white, black), match_rules, "game")
    return game


def read_mat(path: str | os.PathLike[str], *, rules: Any = None) -> MatchRecord:
    r"""Read a match file in the ``.MAT`` layout of LogasAI and opornik's importer (module
    ``nardy_fast.core.matlayout``: the layout's point ``p`` is our ``25 - p``).

    Parameters
    ----------
    path : str or path-like
    rules : MatchRules, Rules, its text, or None
        As ``parse_mat``'s: None (default) is a match to the file's length under classic
        rules, with the cube when the file has a cube action, each game thrown for.

    Returns
    -------
    MatchRecord
        The match (not replayed: ``replay`` checks the scores and the cube); every move
        was matched with a legal one and is kept one step per die in our numbering.
        A malformed file is a ``RecordError`` naming it and the line.

    Examples
    --------
    >>> import os, tempfile
    >>> import nardy_fast as nf
    >>> path = os.path.join(tempfile.mkdtemp(), "match.MAT")
    >>> with open(path, "w") as f:
    ...     _ = f.write(" 1 point match\n\n Game 1\n Alice : 0     Bob : 0\n"
    ...                 "  1) 52: 24/17     26: 24/16\n  2) Doubles => 2    Drops\n")
    >>> m = nf.read_mat(path)
    >>> m.players, m.games[0].turns[0].steps, m.replay()
    (('Alice', 'Bob'), ((1, 6), (6, 8)), {'Alice': 1.0, 'Bob': 0.0})
    """
    path = os.fspath(path)
    text = read_text_file(path)
    rec = parse_mat(text, path, rules=rules)
    rec.source = path
    return rec


def read_mat_game(path: str | os.PathLike[str], *, rules: Any = None) -> GameRecord:
    r"""Read a file of ``.MAT`` move lines alone (no match line, no ``Game`` line), as
    opornik's importer takes them, as one game (``parse_mat_game``).

    Returns
    -------
    GameRecord
        The game, White the left column's player (named ``"White"``); a malformed file is
        a ``RecordError`` naming it and the line.

    Examples
    --------
    >>> import os, tempfile
    >>> import nardy_fast as nf
    >>> path = os.path.join(tempfile.mkdtemp(), "game.MAT")
    >>> with open(path, "w") as f:
    ...     _ = f.write("  1) 31: 24/20     64: 24/14\n")
    >>> game = nf.read_mat_game(path)
    >>> [str(t) for t in game.turns]
    ['31: 1/4 4/5', '64: 1/7 7/11']
    """
    path = os.fspath(path)
    text = read_text_file(path)
    return parse_mat_game(text, path, rules=rules)


# -- writing -------------------------------------------------------------------------------
def _num(v):
    return str(int(v)) if float(v).is_integer() else str(v)


def _entry_text(entry):
    if isinstance(entry, Turn):
        return f"{entry.dice[0]}{entry.dice[1]}: {to_mat_steps(entry.steps)}".rstrip()
    return str(entry)          # a CubeAction: "Doubles => 2", "Takes", ...


def format_mat(match: MatchRecord) -> str:
    """A ``MatchRecord`` in the ``.MAT`` layout (module docstring): ``players[0]`` in the
    left column of every game, points numbered ``25 - p``, each checker's dice joined.
    Games must start from the initial position, as the layout has no other start."""
    expect_record(match, MatchRecord, "match", "play_one_match, read_mat",
                  ("GameRecord", "one game: write_record writes it"))
    check_score_names(match.players)
    left, right = match.players
    lines = [f" {match.rules.length} point match", ""]
    for k, (game, score) in enumerate(zip(match.games, match.scores), 1):
        if game.start != Position.initial():
            raise ValueError(f"game {k}: starts from {game.start.id}, not the initial "
                             "position: the .MAT layout has no other start")
        head = f" {left} : {_num(score.get(left, 0))}"
        lines += [f" Game {k}", f"{head:<{_COL + 6}} {right} : {_num(score.get(right, 0))}"]
        entries = [_entry_text(e) for e in _entries(game)]
        if game.white != left:
            entries = [""] + entries
        for j in range(0, len(entries), 2):
            row = f"{j // 2 + 1:3d}) {entries[j]:<{_COL}}"
            if j + 1 < len(entries):
                row += (" " if len(entries[j]) >= _COL else "") + entries[j + 1]
            lines.append(row.rstrip())
        try:
            res = game.result() if game.turns or game.cube else None
        except RecordError:                  # written as it is; replay says what is wrong
            res = None
        if res is not None and res["kind"] != "draw":
            winner = game.white if res["winner"] == WHITE else game.black
            n = res["points"]
            wins = f"Wins {_num(n)} point{'s' if n != 1 else ''}"
            lines.append(f"{'':6s}{wins}" if winner == left else f"{'':{_COL + 5}s}{wins}")
        lines.append("")
    return "\n".join(lines)


def write_mat(match: MatchRecord, path: str | os.PathLike[str], *,
              replace: bool = True) -> str:
    r"""Write ``match`` in the ``.MAT`` layout of LogasAI and opornik's importer
    (``format_mat``: points ``25 - p``, each checker's dice joined, ``players[0]`` in the
    left column), atomically; ``replace=False``: ``FileExistsError`` rather than replace
    a file.

    Returns
    -------
    str
        The path written.

    Examples
    --------
    >>> import os, tempfile
    >>> import nardy_fast as nf
    >>> m = nf.play_one_match("random", "random", rules=nf.MatchRules(length=1), seed=1)
    >>> path = nf.write_mat(m, os.path.join(tempfile.mkdtemp(), "match.MAT"))
    >>> print("\n".join(open(path).read().splitlines()[:5]))
     1 point match
    <BLANKLINE>
     Game 1
     A : 0                                 B : 0
      1) 45: 24/15                       61: 24/17
    >>> back = nf.read_mat(path, rules=m.rules)
    >>> back.scores == m.scores, back.replay() == m.replay()
    (True, True)
    """
    return atomic_write_text(path, format_mat(match), replace=replace)

