"""Game records: a plain-text transcript of a long-nardy game, its writer, reader and replay.

The format follows the ``.mat`` transcripts of backgammon and long-nardy programs::

    ; nardy_fast game record 1
    ; [White "Alice"]
    ; [Black "Bob"]
    ; [Rules "classic"]
    ; [Result "white oin 1"]

      1) 62: 1/7 7/9                     33: 1/4 1/4 4/7 7/10
      2) 55: 1/6 9/14 14/19 19/24        64: 1/7 4/8
      3) 33: 1/4 4/7 6/9 9/12            24: 1/3 3/7
     ...

Header
    Lines starting with ``;``.  ``; [Key "value"]`` is a tag; other ``;`` lines are comments.
    Tags read: ``White`` and ``Black`` (player names), ``Rules`` (``"classic"`` or the
    fields that differ from classic, ``"head_rule=generalized scoring=extended"``; see
    ``Rules``), ``Start`` (position ID of the first position; default the initial
    position, White on roll), ``Result`` (``"<winner> <oin|mars|koks|home_mars> <points>"``
    or ``"draw"``; written by the writer, checked by ``replay`` when present).  Any other
    tag (``Date``, ``Event`` ...) is kept in ``GameRecord.tags``.  In a value ``\\"`` is
    a double quote, ``\\\\`` a backslash and ``\\uXXXX`` a line break (``\\u000a``).
Body
    ``N)`` starts the N-th line; on it White's turn, then Black's (a game that starts with
    Black on roll leaves White's column of line 1 blank; a cube action takes a column of
    its own, see below).  Only the game's last line may hold one column: a line followed
    by another with one is a ``RecordError`` naming it.  A turn is the dice ``ab:``
    (``64:`` = a six and a four, ``22:`` = double two) followed by its steps in playing
    order.  A step is ``from/to`` in the **mover's own numbering** (1 = its head, 19-24 its
    home), ``to`` is ``off`` when the checker is borne off; each step uses one die.  The
    reader also accepts chains (``1/7/11`` = ``1/7 7/11``), repeats (``1/7(2)``) and
    ``pass``; a turn with no steps is a pass (no die can be played).

Cube actions (rule book section 7a; ``Rules`` with ``cube``) take a column of their own,
as in ``.mat`` transcripts: ``Doubles => 2`` (the side on roll raises, before its roll, to
the stake shown), then in the other side's column ``Takes``, ``Drops`` (gives up the stake
before the raise: the game ends) or ``Beavers => 4`` (takes and raises again at once,
keeping the cube; needs no answer, as in backgammon); ``Wins N point(s)`` is accepted and ignored.  They are kept in
``GameRecord.cube`` (``CubeAction``: before which turn, side, action, stake), so ``turns``
stay the moves.  ``replay`` checks them: a raise only by the side on roll when it may
(cube in the middle or its own, not on the first turn: the mover has all 15 checkers on
its head), to the next stake of the progression, and always answered.  With the cube a
game is won at the stake: the result is ``"<winner> win <stake>"`` or, after a drop,
``"<winner> drop <stake>"``.

Only the dice, steps and cube actions are recorded; ``replay`` rebuilds the positions and checks every
turn: each step must move a checker of the mover by one of the remaining dice onto a point
the opponent does not hold, and the board the steps leave must be one of the legal results
of the roll (``successors``), so the head, block and dice-usage rules are all enforced.  An
illegal turn raises ``RecordError`` naming the turn, the side, the dice and the move, and for
a record read from a text (``parse_record``, ``read_record``) the line it is on.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass, field

import numpy as np

from nardy_fast.core._checks import check_count, check_dice
from nardy_fast._utils._io import atomic_write_text
from nardy_fast.core._movegen import successors
from nardy_fast.core._scoring import gives_last_turn
from nardy_fast.core.cubestate import CubeReplay
from nardy_fast.core.finish import game_result
from nardy_fast.core.gameloop import opening_throw, play_turns
from nardy_fast.core.policies import Chooser, as_chooser
from nardy_fast.core.position import (BLACK, WHITE, Position, _parse_step_token, _shown,
                                      apply_steps, as_position)
from nardy_fast.core.rng import generator
from nardy_fast.core.rules import CLASSIC, Rules, as_rules

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from nardy_fast.core.rules import RulesLike
    from nardy_fast.core.cubestate import CubeState

__all__ = ["GameRecord", "Turn", "CubeAction", "RecordError", "as_record", "read_record",
           "write_record", "parse_record", "random_game", "game_result", "format_steps",
           "looks_like_record", "MAGIC"]

FORMAT_VERSION = 1
MAGIC = "; nardy_fast game record"      # first line of a written record (+ version)
_TAG = re.compile(r'^\[\s*(\w+)\s+"((?:[^"\\]|\\.)*)"\s*\]$')
_TURN_NO = re.compile(r"^(\d+)\)$")
_DICE = re.compile(r"^([1-6])([1-6]):$")
_NOT_DICE = re.compile(r"^\d+:$")            # the place of dice, but digits other than two 1..6
_CUBE_WORDS = {"doubles": "double", "beavers": "beaver", "takes": "take", "drops": "drop"}
_COL = 32          # width of White's column in the body


class RecordError(ValueError):
    """A game record that cannot be parsed or replayed; the message names the line or turn."""


@dataclass(frozen=True)
class Turn:
    """One side's turn: the dice and the steps played.

    Attributes
    ----------
    side : str
        ``"white"`` or ``"black"``.
    dice : tuple of int
        The two dice as thrown (1..6 each).
    steps : tuple of (int, int or "off")
        ``(from_point, to_point)`` in the mover's own numbering, in playing order; empty for
        a pass.
    line : int or None
        The line of the text the turn was read from (``parse_record``), named by
        ``replay``'s errors; None for a turn not read from a text.  Not compared.
    """

    side: str
    dice: tuple
    steps: tuple = ()
    line: int | None = field(default=None, compare=False, repr=False)

    def __str__(self):
        return f"{self.dice[0]}{self.dice[1]}: {format_steps(self.steps)}".rstrip()


@dataclass(frozen=True)
class CubeAction:
    """A cube action, taken before the turn ``turns[before]`` (or after the last turn).

    Attributes
    ----------
    before : int
        Index of the turn it precedes (``len(turns)``: after the last).
    side : str
        ``"white"`` or ``"black"``: who acts.
    action : str
        ``"double"`` (the side on roll raises), ``"take"``, ``"drop"`` or ``"beaver"``.
    stake : int
        The stake offered (``double``, ``beaver``) or answered (``take``, ``drop``).
    """

    before: int
    side: str
    action: str
    stake: int

    def __str__(self):
        if self.action == "double":
            return f"Doubles => {self.stake}"
        if self.action == "beaver":
            return f"Beavers => {self.stake}"
        return "Takes" if self.action == "take" else "Drops"


@dataclass
class GameRecord:
    """A recorded game: players, rules, the first position and the turns.

    Attributes
    ----------
    white, black : str
        Player names.
    rules : Rules
        The rules the game was played under (given as a ``Rules``, its text or dict, or
        None: classic, as everywhere).
    start : Position
        The position before the first turn (its side on roll plays ``turns[0]``).
    turns : list of Turn
        The turns in order; sides alternate.
    tags : dict
        Other header tags (str -> str), e.g. ``Date``.
    cube : list of CubeAction
        Cube actions in order (empty without a cube).

    Examples
    --------
    >>> import nardy_fast as nf
    >>> rec = nf.random_game(seed=1)
    >>> rec.white, len(rec.turns), rec.turns[0]
    ('random', 100, Turn(side='white', dice=(3, 4), steps=((1, 4), (4, 8))))
    >>> rec.final.is_over()
    True
    """

    white: str = "White"
    black: str = "Black"
    rules: Rules = CLASSIC
    start: Position = field(default_factory=Position.initial)
    turns: list = field(default_factory=list)
    tags: dict = field(default_factory=dict)
    cube: list = field(default_factory=list)

    def __post_init__(self):
        self.rules = as_rules(self.rules)

    # -- replay ------------------------------------------------------------------------
    def positions(self) -> list[Position]:
        """The positions before each turn and after the last: ``len(turns) + 1`` Positions
        (``len(turns)`` for a draw under ``draw_rule``: no position has both sides off).

        Raises ``RecordError`` at the first illegal turn (see the module docstring).
        """
        return _replay(self)[0]

    def replay(self) -> list[Position]:
        """Check every turn; returns ``self.positions()``."""
        return self.positions()

    def result(self) -> dict[str, Any] | None:
        """The result after the last turn: ``None`` if the game is not over, else a dict
        ``{"winner": "white"|"black"|None, "kind": "oin"|"mars"|"koks"|"home_mars"|"draw",
        "points": float}``: ``kind`` says how the game ended, ``points`` what it scored.
        With a cube every kind of win scores the stake (rule book 7a), so ``points`` is
        the stake, and ``kind`` may also be ``"drop"`` (a raise was dropped).  (Before
        0.3.0 a cube game's win had the kind ``"win"``; a ``Result`` tag written so still
        reads.)"""
        return _replay(self)[1]

    @property
    def final(self) -> Position:
        """The position after the last turn (before it, for a draw: see ``positions``)."""
        return self.positions()[-1]

    # -- text --------------------------------------------------------------------------
    def to_text(self) -> str:
        """The record as text (the format of the module docstring)."""
        return format_record(self)

    def __str__(self) -> str:
        """The record as text (``to_text``): what ``print(record)`` shows."""
        return self.to_text()

    def __repr__(self) -> str:
        """A line naming the players, the rules and the number of turns (the dataclass's
        own repr ran to thousands of characters for one game)."""
        return (f"GameRecord(white={self.white!r}, black={self.black!r}, "
                f"rules={self.rules.to_text()!r}, turns={len(self.turns)})")

    @classmethod
    def from_text(cls, text: str, source: str = "<record>") -> GameRecord:
        """Parse a record; ``RecordError`` names the line for malformed text."""
        return parse_record(text, source)

    def cube_states(self) -> list[CubeState]:
        """The cube when each turn's dice are thrown (after the cube actions before it),
        and after the last turn: ``len(turns) + 1`` states
        (``nardy_fast.core.cubestate.CubeState``) seen by the side on roll (empty without
        ``rules.cube``)."""
        return _replay(self)[2]

    def append(self, dice: Sequence[int],
               steps: Sequence[tuple[int, int | str]] = ()) -> GameRecord:
        """Add the next turn (side alternates from ``start``); not checked until replay."""
        side = self._next_side()
        d = check_dice(dice)
        self.turns.append(Turn(side, d, tuple(steps)))
        return self

    def append_cube(self, action: str, stake: int | None = None) -> GameRecord:
        """Add a cube action before the next turn: ``"double"`` or ``"beaver"`` (to
        ``stake``), ``"take"`` or ``"drop"`` (the stake is the one offered); the side is
        the side on roll for a double, the other one for an answer.  Checked on replay."""
        if action not in ("double", "take", "drop", "beaver"):
            raise ValueError(f"action={action!r}: expected 'double', 'take', 'drop' or "
                             f"'beaver'")
        mover = self._next_side()
        before = len(self.turns)
        side = mover if action == "double" else _other(mover)
        if stake is None:
            offered = [c for c in self.cube if c.before == before and c.action == "double"]
            if action in ("double", "beaver") or not offered:
                raise ValueError(f"action={action!r}: give the stake")
            stake = offered[-1].stake
        self.cube.append(CubeAction(before, side, action, int(stake)))
        return self

    def _next_side(self):
        return self.start.side if not self.turns else _other(self.turns[-1].side)


def _entries(record):
    """Turns and cube actions in playing order."""
    out = []
    cube = sorted(record.cube, key=lambda c: c.before)     # stable: keeps their order
    j = 0
    for k, turn in enumerate(record.turns):
        while j < len(cube) and cube[j].before <= k:
            out.append(cube[j])
            j += 1
        out.append(turn)
    out.extend(cube[j:])
    return out


def _other(side):
    return BLACK if side == WHITE else WHITE


# -- steps -------------------------------------------------------------------------------
def format_steps(steps: Iterable[tuple[int, int | str]]) -> str:
    """``((1, 7), (7, 11))`` -> ``"1/7 7/11"``; ``"off"`` kept; ``()`` -> ``""``."""
    return " ".join(f"{a}/{b}" for a, b in steps)


# -- writer ------------------------------------------------------------------------------
# the characters that end a line for str.splitlines: inside a tag's value, \uXXXX
_LINE_BREAK = re.compile("[\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]")


def _esc(s):
    s = str(s).replace("\\", "\\\\").replace('"', '\\"')
    return _LINE_BREAK.sub(lambda m: f"\\u{ord(m.group()):04x}", s)


def _unesc(s):
    return re.sub(r"\\(u[0-9a-f]{4}|.)", lambda m: chr(int(m.group(1)[1:], 16))
                  if len(m.group(1)) == 5 else m.group(1), s)


def expect_record(obj, cls, arg: str, makers: str, other=None):
    """``obj`` if it is a ``cls`` (``GameRecord`` or ``MatchRecord``); else a ``TypeError``
    naming ``arg``, the class, the ``makers`` of one, and for a record of the ``other``
    kind ``(class name, advice)`` the advice (which writer takes it).  The other kind is
    known by its name, as this module may not import ``matchrecord``, which imports it."""
    if isinstance(obj, cls):
        return obj
    hint = f" ({other[1]})" if other is not None and type(obj).__name__ == other[0] else ""
    raise TypeError(f"{arg}: expected a {cls.__name__} ({makers}), got "
                    f"{type(obj).__name__}{hint}")


def format_record(record: GameRecord) -> str:
    """Text of a ``GameRecord`` (module docstring format); the result tag is computed."""
    expect_record(record, GameRecord, "record", "random_game, read_record",
                  ("MatchRecord", "a match: write_match writes it"))
    lines = [f"{MAGIC} {FORMAT_VERSION}",
             f'; [White "{_esc(record.white)}"]',
             f'; [Black "{_esc(record.black)}"]',
             f'; [Rules "{record.rules.to_text()}"]']
    if record.start != Position.initial():
        lines.append(f'; [Start "{record.start.id}"]')
    for k, v in record.tags.items():
        if k not in ("White", "Black", "Rules", "Start", "Result"):
            lines.append(f'; [{k} "{_esc(v)}"]')
    try:
        res = record.result()
    except RecordError:
        res = None
    if res is not None:
        lines.append(f'; [Result "{_result_text(res)}"]')
    lines.append("")
    turns = _entries(record)
    if turns and turns[0].side == BLACK:
        turns = [None] + turns
    for k in range(0, len(turns), 2):
        left = "" if turns[k] is None else str(turns[k])
        row = f"{k // 2 + 1:3d}) {left:<{_COL}}"
        if k + 1 < len(turns):
            if len(left) >= _COL:
                row += " "
            row += str(turns[k + 1])
        lines.append(row.rstrip())
    return "\n".join(lines) + "\n"


def _result_text(res):
    if res["kind"] == "draw":
        return "draw"
    pts = res["points"]
    return f"{res['winner']} {res['kind']} {int(pts) if float(pts).is_integer() else pts}"


def write_record(record: GameRecord, path: str | os.PathLike[str], *,
                 replace: bool = True) -> str:
    """Write ``record`` to ``path`` (atomically: a temporary file, then ``os.replace``).
    ``replace=False``: ``FileExistsError`` rather than replace an existing file.

    Returns
    -------
    str
        The path written.

    Examples
    --------
    >>> import os, tempfile
    >>> import nardy_fast as nf
    >>> path = os.path.join(tempfile.mkdtemp(), "game.txt")
    >>> nf.write_record(nf.random_game(seed=1), path) == path
    True
    >>> len(nf.read_record(path).turns)
    100
    """
    return atomic_write_text(path, format_record(record), replace=replace)


# -- reader ------------------------------------------------------------------------------
def looks_like_record(text: str) -> bool:
    """True when ``text`` (the start of a file is enough) looks like a game record: it
    starts with ``MAGIC``, or dice such as ``64:`` occur among its first 50 words."""
    if text.startswith(MAGIC):
        return True
    return any(_DICE.match(t) for t in text.split()[:50])


def as_record(record: GameRecord | str | os.PathLike[str], name: str = "record"
              ) -> GameRecord:
    """``record`` itself, or the record read from the path ``record`` (``read_record``);
    anything else is a ``TypeError`` naming ``name``."""
    if isinstance(record, (str, os.PathLike)):
        return read_record(record)
    if not isinstance(record, GameRecord):
        raise TypeError(f"{name}: expected a GameRecord or a path, got {type(record).__name__}")
    return record


def read_record(path: str | os.PathLike[str]) -> GameRecord:
    """Read a game record file; ``RecordError`` names the file and line on bad content.

    Returns
    -------
    GameRecord
        The game as written.  With a ``Result`` tag (the writer adds one to a finished
        game) it was replayed to check that tag, so an illegal move is a ``RecordError``;
        without one, ``replay`` checks the moves.

    Examples
    --------
    >>> import os, tempfile
    >>> import nardy_fast as nf
    >>> path = os.path.join(tempfile.mkdtemp(), "game.txt")
    >>> nf.write_record(nf.random_game(seed=1), path) == path
    True
    >>> len(nf.read_record(path).turns)
    100
    """
    path = os.fspath(path)
    return parse_record(read_text_file(path), source=path)


def read_text_file(path: str | os.PathLike[str]) -> str:
    """The text of the UTF-8 file ``path`` (a byte-order mark, as some editors write,
    dropped): the one reading of the record files (game records, match transcripts,
    ``.MAT`` files, a duel's transcript); a file that is not UTF-8 text is a
    ``RecordError`` naming it."""
    try:
        with open(path, encoding="utf-8-sig") as f:
            return f.read()
    except UnicodeDecodeError as e:
        raise RecordError(f"{os.fspath(path)}: not a UTF-8 text file ({e.reason})") \
            from None


def check_text(text, fn: str, reader: str) -> str:
    """``text`` if it is a ``str``; else a ``TypeError`` naming ``fn`` and the ``reader``
    that reads such a text from a file (a path or bytes given to a parser of text)."""
    if not isinstance(text, str):
        raise TypeError(f"{fn}: text: expected str, the text itself (got "
                        f"{type(text).__name__}); {reader} reads a file")
    return text


def _tags_and_tokens(text, first_line=1):
    """The ``; [Tag "value"]`` lines of a record as a dict, and the other lines' tokens as
    ``(line number, token)`` pairs, the text's first line numbered ``first_line``."""
    tags, tokens = {}, []
    for no, raw in enumerate(text.splitlines(), first_line):
        line = raw.strip()
        if not line:
            continue
        if line.startswith(";"):
            m = _TAG.match(line[1:].strip())
            if m:
                tags[m.group(1)] = _unesc(m.group(2))
            continue
        tokens.extend((no, tok) for tok in line.split())
    return tags, tokens


def _empty_record(tags, source):
    """The ``GameRecord`` the tags describe, with no turns yet."""
    try:
        rules = Rules.from_text(tags.get("Rules", "classic"))
    except (ValueError, TypeError) as e:
        raise RecordError(f"{source}: tag Rules: {e}") from None
    try:
        start = Position.from_id(tags["Start"]) if "Start" in tags else Position.initial()
    except ValueError as e:
        raise RecordError(f"{source}: tag Start: {e}") from None
    return GameRecord(white=tags.get("White", "White"), black=tags.get("Black", "Black"),
                      rules=rules, start=start,
                      tags={k: v for k, v in tags.items()
                            if k not in ("White", "Black", "Rules", "Start")})


def _check_result_tag(record, tags, source):
    """A ``Result`` tag must say what the replayed game gives."""
    if "Result" not in tags:
        return
    try:
        res = record.result()
    except RecordError as e:
        raise RecordError(f"{source}: {e}") from None
    written = tags["Result"].strip()
    if res is not None and record.rules.cube is not None and res["kind"] not in ("draw",
                                                                                  "drop"):
        # the spelling before 0.3.0: "white win 2" for any kind of win at the stake
        old = written.split()
        if len(old) == 3 and old[1] == "win":
            written = " ".join((old[0], res["kind"], old[2]))
    if res is None or _result_text(res) != written:
        got = "game not over" if res is None else _result_text(res)
        raise RecordError(f"{source}: tag Result {tags['Result']!r} does not match the "
                          f"replayed game ({got})")


def parse_record(text: str, source: str = "<record>", *, first_line: int = 1) -> GameRecord:
    """Parse the text of a game record (see the module docstring).  A text with neither
    the record's first line nor tags nor moves (empty, or comments only) is a
    ``RecordError`` naming ``source``: no game, not an empty one.  ``first_line``: the
    number an error message gives the text's first line (a record read from the middle
    of a file: its line there).

    Returns
    -------
    GameRecord
        The game as written.  With a ``Result`` tag (the writer adds one to a finished
        game) it was replayed to check that tag, so an illegal move is a ``RecordError``;
        without one, ``replay`` checks the moves.

    Examples
    --------
    >>> import nardy_fast as nf
    >>> text = nf.random_game(seed=1).to_text()
    >>> rec = nf.parse_record(text)
    >>> len(rec.turns), rec.final == nf.random_game(seed=1).final
    (100, True)
    """
    return _parse_record(text, source, first_line)


def _parse_record(text, source, first_line, *, lone_first=None, own=True):
    """``parse_record``; ``lone_first``: whether turn line 1 may hold one move, the right
    column's (default: when the game starts with Black on roll).  ``own``: the text is
    written in this package's numbering, so a first step that goes down (backwards) is
    refused as a ``.MAT`` move list (``core.matlayout``), which counts the points down;
    ``core.matlayout`` passes its moves already turned into ours."""
    tags, tokens = _tags_and_tokens(check_text(text, "parse_record", "read_record"),
                                    check_count(first_line, "first_line", 1))
    if not tokens and not tags and not text.lstrip().startswith(MAGIC):
        raise RecordError(f"{source}: no game record here (the file is empty or holds only "
                          "comments)")
    record = _empty_record(tags, source)
    start = record.start
    side = start.side
    if lone_first is None:
        lone_first = start.side == BLACK
    cur = None                        # [dice, steps, line]
    expect_line = 1
    row = None                        # [line, "N)", the entries on it (their first tokens)]
    pending = None                    # [line, action] of a "Doubles" / "Beavers" before "=>"
    skip = 0                          # tokens left of "Wins N point(s)"
    for no, tok in tokens:
        if pending is not None:
            if pending[2] == 0:
                if tok != "=>":
                    raise RecordError(f"{source} line {no}: expected '=>' after "
                                      f"{pending[1]!r}, got {_shown(tok)}")
                pending[2] = 1
                continue
            if not tok.isdigit():
                raise RecordError(f"{source} line {no}: expected the stake after "
                                  f"'{pending[1]} =>', got {_shown(tok)}")
            record.cube.append(CubeAction(len(record.turns), side,
                                          _CUBE_WORDS[pending[1].lower()], int(tok)))
            side = _other(side)
            pending = None
            continue
        if skip:
            skip -= 1
            if skip == 0 and tok.lower() not in ("point", "points"):
                raise RecordError(f"{source} line {no}: expected 'Wins N point(s)'")
            continue
        low = tok.lower()
        if row is not None and (low in _CUBE_WORDS or _DICE.match(tok)):
            row[2].append(tok)
        if low in _CUBE_WORDS or low == "wins":
            if cur is not None:
                record.turns.append(Turn(side, cur[0], tuple(cur[1]), line=cur[2]))
                side = _other(side)
                cur = None
            if low == "wins":
                skip = 2
            elif low in ("doubles", "beavers"):
                pending = [no, tok, 0]
            else:
                offered = record.cube[-1].stake if record.cube else 0
                record.cube.append(CubeAction(len(record.turns), side, _CUBE_WORDS[low],
                                              offered))
                side = _other(side)
            continue
        m = _TURN_NO.match(tok)
        if m:
            if int(m.group(1)) != expect_line:
                raise RecordError(f"{source} line {no}: turn line {tok} out of order, "
                                  f"expected {expect_line})")
            if row is not None:
                _check_row(row, source, lone_first and expect_line == 2)
            row = [no, tok, []]
            expect_line += 1
            continue
        if _NOT_DICE.match(tok) and not _DICE.match(tok):     # '71:', '00:': no roll
            raise RecordError(f"{source} line {no}: {_shown(tok)}: expected dice such as "
                              "'64:', each die 1..6")
        m = _DICE.match(tok)
        if m:
            if cur is not None:
                record.turns.append(Turn(side, cur[0], tuple(cur[1]), line=cur[2]))
                side = _other(side)
            cur = [(int(m.group(1)), int(m.group(2))), [], no]
            continue
        if cur is None:
            raise RecordError(f"{source} line {no}: {_shown(tok)} before the first dice "
                              "(expected 'N)', dice such as '64:' or a cube action)")
        if tok.lower() == "pass":
            continue
        try:
            steps = _parse_step_token(tok)
        except ValueError as e:
            raise RecordError(f"{source} line {no}: {e}") from None
        if own and not record.turns and not cur[1] and _goes_down(*steps[0]):
            raise RecordError(f"{source} line {no}: the first step {tok} goes down, "
                              "backwards in this package's numbering (1 the head): this "
                              "looks like a .MAT move list, which counts the points down "
                              "(24 the head): read it with read_mat_game, or read_mat for "
                              "a match")
        cur[1].extend(steps)
    if pending is not None:
        raise RecordError(f"{source} line {pending[0]}: {pending[1]!r} without '=> stake'")
    if row is not None and len(row[2]) > 2:
        _check_row(row, source, False)
    if cur is not None:
        record.turns.append(Turn(side, cur[0], tuple(cur[1]), line=cur[2]))
    _check_result_tag(record, tags, source)
    return record


def _goes_down(a, b):
    """A step ``a/b`` that goes towards the head, as a ``.MAT`` move list's steps do."""
    return b != "off" and b < a


def _check_row(row, source, lone):
    """A turn line followed by another holds two entries (turns or cube actions): the left
    column's, then the right column's; ``lone``: it may hold the right column's alone (line
    1 of a game started by the right-hand side).  Only a game's last line may hold one."""
    no, label, entries = row
    if len(entries) == 2 or (lone and len(entries) == 1):
        return
    if len(entries) > 2:
        raise RecordError(f"{source} line {no}: turn line {label} holds {len(entries)} "
                          f"moves ({', '.join(entries)}), but a line holds two, the left "
                          "column's then the right column's")
    held = f"holds one move ({entries[0]} ...)" if entries else "holds no move"
    raise RecordError(f"{source} line {no}: turn line {label} {held}, but a line followed "
                      "by another must hold two, the left column's move then the right "
                      "column's (only a game's last line may hold one): "
                      f"{'the right column is' if entries else 'both columns are'} missing")


# -- replay ------------------------------------------------------------------------------


def _cube_step(c, rules, pos, state, label):
    """Apply cube action c before a turn from pos (``CubeReplay.step``)."""
    try:
        state.step(c, rules, pos)
    except ValueError as e:
        raise RecordError(f"{label}: {e}") from None


def _replay(record):
    """Replay ``record``, checking every turn and cube action: ``(positions, result,
    cubes)`` (``GameRecord.positions``, ``.result``, ``.cube_states``); ``RecordError`` at
    the first illegal one."""
    replay = _Replay(record)
    for k, turn in enumerate(record.turns, 1):
        replay.turn(k, turn)
    return replay.finish()


class _Replay:
    """A record's replay under way: the positions so far, the result once the game is over
    (``last_turn``: Black's last turn under ``draw_rule`` is due), the cube actions (in
    order, ``done`` of them applied) and the cube states seen."""

    def __init__(self, record):
        self.record = record
        self.rules = as_rules(record.rules)
        self.pos = record.start
        self.positions = [self.pos]
        self.result = None
        self.white_started = self.pos.side == WHITE
        self.last_turn = False
        self.actions = sorted(record.cube, key=lambda c: c.before)
        self.done = 0
        self.state = CubeReplay()
        self.cubes = []

    def cube_actions(self, k):
        """Apply the cube actions before turn ``k + 1`` (0-based ``k``; ``len(turns)``:
        after the last) and record the cube its dice are thrown with."""
        while self.done < len(self.actions) and self.actions[self.done].before <= k:
            c = self.actions[self.done]
            self.done += 1
            _cube_step(c, self.rules, self.pos, self.state,
                       f"turn {k + 1}: cube action {self.done} ({c.side}: {c}) before it")
        if self.state.pending is not None and k < len(self.record.turns):
            raise RecordError(f"turn {k + 1}: the raise to {self.state.pending[1]} was not "
                              "answered")
        if self.rules.cube is not None:
            self.cubes.append(self.state.seen_by(self.pos.side))

    def turn(self, k, turn):
        """Check and play turn ``k`` (1-based)."""
        label = f"turn {k} ({turn.side} {turn.dice[0]}{turn.dice[1]}: " \
                f"{format_steps(turn.steps) or 'pass'})"
        if turn.line is not None:
            label = f"line {turn.line}: {label}"
        if self.result is None:
            self.cube_actions(k - 1)
        if self.state.result is not None:
            raise RecordError(f"{label}: the game was already over "
                              f"({_result_text(self.state.result)}) after a drop")
        if self.result is not None:
            raise RecordError(f"{label}: the game was already over "
                              f"({_result_text(self.result)}) after turn {k - 1}")
        if turn.side != self.pos.side:
            raise RecordError(f"{label}: {self.pos.side} is on roll, not {turn.side}")
        self.play(_legal_board(self.pos, turn, self.rules, label), turn.side)

    def play(self, board, side):
        """After a legal turn of ``side`` (the mover's ``board``): the next position, the
        result when the game ends, or Black's last turn due under ``draw_rule``."""
        if self.last_turn and board.sum() == 0:  # Black finished in its last turn: a draw;
            self.result = {"winner": None, "kind": "draw", "points": 0.0}  # both sides off
            return                               # is no position (nardy_fast.core._state)
        self.pos = Position(self.pos.opponent, board, _other(self.pos.side))
        self.positions.append(self.pos)
        if self.last_turn:                       # Black's last turn under the draw rule
            self.result = game_result(self.pos, self.rules, finisher=side)
            if self.result is None:              # Black did not finish: White's win stands
                self.result = game_result(self.pos, self.rules, finisher=WHITE)
        elif board.sum() == 0:
            if gives_last_turn(self.rules, side == WHITE and self.white_started):
                self.last_turn = True
            else:
                self.result = game_result(self.pos, self.rules, finisher=side)

    def finish(self):
        """The end: cube actions after the last turn (a drop ends it), none left over."""
        if self.result is None and not self.last_turn:
            self.cube_actions(len(self.record.turns))
            if self.state.result is not None:
                self.result = self.state.result
        elif self.rules.cube is not None:
            self.cubes.append(self.state.seen_by(self.pos.side))
        if self.done < len(self.actions):
            c = self.actions[self.done]
            raise RecordError(f"cube action {self.done + 1} ({c.side}: {c}): the game was "
                              "already over")
        result = self.result
        if result and self.rules.cube is not None and result["kind"] not in ("draw", "drop"):
            # with the cube every kind of win scores the stake (rule book 7a): the kind
            # still says how the game ended on the board
            result = {**result, "points": float(self.state.stake)}
        return self.positions, result, self.cubes


def _legal_board(pos, turn, rules, label):
    """The mover's board after ``turn`` from ``pos`` if legal, else ``RecordError``."""
    try:
        board = apply_steps(pos.mover, pos.opponent, turn.dice, turn.steps)
    except ValueError as e:
        raise RecordError(f"{label} is illegal: {e}") from None
    legal = successors(pos.mover, pos.opponent, turn.dice[0], turn.dice[1], rules)
    if not (legal == board).all(axis=1).any():
        if len(legal) == 1 and (legal[0] == pos.mover).all():
            why = "no die can be played, the turn must pass"
        else:
            moves = pos.legal_moves(turn.dice, rules)
            why = (f"{len(moves)} legal move(s), e.g. "
                   + ", ".join(str(m) for m in moves[:4]) + (" ..." if len(moves) > 4 else "")
                   + "; this one breaks the head, block or dice-usage rule")
        raise RecordError(f"{label} is illegal: {why}")
    return board


# -- random games ------------------------------------------------------------------------
def random_game(seed: int | None = None, rules: RulesLike = None,
                start: Position | str | None = None, max_turns: int = 2000,
                policy: str | Chooser = "random",
                white: str = "random", black: str = "random") -> GameRecord:
    """Play a game and return its ``GameRecord``.

    Parameters
    ----------
    seed : int or None
        Seed of ``numpy.random.default_rng`` (dice and random choices).
    rules : Rules, dict or None
    start : Position, str or None
        First position (a Position or an ID); default the initial position.  From it,
        under ``opening_roll="opening_dice"``, White's first turn plays the two dice of
        the opening throw (never a double; rule book section 8).
    max_turns : int
        Stop after this many turns even if the game is not over.
    policy : "random", "race" or callable
        A name of ``core.policies.POLICIES`` (``"random"``: uniform over the distinct
        legal results; ``"race"``: the result with the fewest pips, then the most
        checkers off, ties at random) or a callable ``policy(position, moves, rng) ->
        Move``.  The engine's names (``"net"``, ``"net:1"``, ``"greedy"``, an
        ``Evaluator``) are the public ``nardy_fast.random_game``'s
        (``engine.policy.random_game``, which plays them by this loop).

    Returns
    -------
    GameRecord
        The game played (``start``, the turns; over unless ``max_turns`` stopped it).

    Examples
    --------
    >>> import nardy_fast as nf
    >>> rec = nf.random_game(seed=3, policy="race")
    >>> len(rec.turns), rec.result()
    (97, {'winner': 'white', 'kind': 'oin', 'points': 1.0})
    """
    rules = as_rules(rules)
    start = Position.initial() if start is None else as_position(start, "start")
    choose = as_chooser(policy)
    max_turns = check_count(max_turns, "max_turns", 0)
    rng = generator(seed)
    rec = GameRecord(white=white, black=black, rules=rules, start=start)
    first = (opening_throw(rng) if rules.opening_roll == "opening_dice"
             and start == Position.initial() else None)
    return play_turns(rec, lambda pos, dice, moves: choose(pos, moves, rng), rng, max_turns,
                      dice=first)
