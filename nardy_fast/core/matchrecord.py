"""Match transcripts: several games of a match to N points in the usual ``.mat`` layout.

::

    ; nardy_fast match record 1
    ; [Match "length=3"]
    ; [Player1 "Alice"]
    ; [Player2 "Bob"]

     3 point match

     Game 1
     Alice : 0                        Bob : 0
      1) 62: 1/7 7/9                  33: 1/4 1/4 4/7 7/10
      ...
          Wins 1 point

     Game 2
     Bob : 0                          Alice : 1
     ...

Each game starts with its score line: the player who plays White in that game (moves
first) and its score, then the Black player and its score.  The body of a game is that of
a game record (``nardy_fast.core.record``: turns, cube actions; ``Wins N point(s)`` lines are
written for the reader's benefit and ignored).  ``Match`` holds the ``MatchRules`` text
(``MatchRules.to_text``), which includes the game's rules; without it the match length of
the `` N point match`` line and the defaults apply.

``MatchRecord.replay()`` replays every game (``GameRecord.replay``) and checks the match:
the first score line is the score the record starts from (0-0 for a whole match; a
match joined at a score starts there), each later one equals it plus the results before
it (draws by ``MatchRules.draw``,
with the cube the stake), the starter follows ``MatchRules.starter``, the Crawford game
(``MatchRecord.crawford_game``) has no cube action, the match ends with the last game and
not before.  Errors are ``RecordError`` naming the game.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass, field

from nardy_fast._utils._io import atomic_write_text
from nardy_fast.core.matchrules import MatchRules
from nardy_fast.core.record import (GameRecord, RecordError, _esc, _unesc, check_text,
                                    expect_record, format_record, parse_record,
                                    read_text_file)

from collections.abc import Mapping
from typing import Any

__all__ = ["MatchRecord", "read_match", "write_match", "looks_like_match", "MATCH_MAGIC"]

MATCH_MAGIC = "; nardy_fast match record"
FORMAT_VERSION = 1
_LENGTH = re.compile(r"^(\d+)\s+point\s+match$", re.IGNORECASE)
_GAME = re.compile(r"^Game\s+(\d+)$", re.IGNORECASE)
_SCORE = re.compile(r"^(.+?)\s*:\s*(\d+(?:\.\d+)?)\s+(.+?)\s*:\s*(\d+(?:\.\d+)?)$")
_TAG = re.compile(r'^;\s*\[\s*(\w+)\s+"((?:[^"\\]|\\.)*)"\s*\]$')


@dataclass
class MatchRecord:
    """A recorded match.

    Attributes
    ----------
    rules : MatchRules
    players : (str, str)
        The two players' names (distinct, each on one line without ``:`` or spaces at
        its ends and not starting with ``;``, as the score lines hold them).
    games : list of GameRecord
        The games in order; each game's ``white`` / ``black`` are the players' names.  The
        last may be unfinished (a match stopped during it: it scores nothing, and
        ``replay`` says the match is not over).
    scores : list of dict
        Score of each player before each game (as written; ``replay`` checks them).

    Examples
    --------
    >>> import nardy_fast as nf
    >>> m = nf.play_one_match("random", "random", rules=nf.MatchRules(length=1), seed=1)
    >>> m.players, len(m.games), m.scores[0]
    (('A', 'B'), 1, {'A': 0.0, 'B': 0.0})
    """

    rules: MatchRules = field(default_factory=MatchRules)
    players: tuple = ("Player 1", "Player 2")
    games: list = field(default_factory=list)
    scores: list = field(default_factory=list)
    source: str | None = field(default=None, compare=False, repr=False)
    """The file read (``read_match``), named by ``replay``'s errors; None if built."""

    def add_game(self, game: GameRecord) -> MatchRecord:
        """Append a finished game; its score line is the sum of the results before."""
        self.scores.append(self._running_scores()[len(self.games)])
        self.games.append(game)
        return self

    def final_score(self) -> dict[str, float]:
        """The score after the last game, from the first score line and the results."""
        return self._running_scores()[-1]

    def _running_scores(self):
        """Score before each game and after the last, from the first score line (0-0
        without one) and the results (an unfinished last game scores nothing); RecordError
        naming the game for a first score past the match or not a multiple of the rules'
        unit, a game not over before the last or one after the match was won."""
        start = self.scores[0] if self.scores else {}
        score = {p: float(start.get(p, 0.0)) for p in self.players}
        if any(not 0 <= v < self.rules.length for v in score.values()):
            raise RecordError(f"game 1: the score line says {_fmt_score(score)}: each "
                              f"score must be in 0..{self.rules.length - 1} (below the "
                              f"length, {self.rules.length})")
        unit = self.rules.unit
        if any(v / unit != int(v / unit) for v in score.values()):
            what = ("a whole number of points" if unit == 1 else
                    f"a multiple of {unit:g} points (half-point draws)")
            raise RecordError(f"game 1: the score line says {_fmt_score(score)}: each "
                              f"score must be {what}")
        out = [dict(score)]
        for k, game in enumerate(self.games, 1):
            if max(score.values()) >= self.rules.length:
                raise RecordError(f"game {k}: the match was already won")
            try:
                res = game.result()
            except RecordError as e:
                raise RecordError(f"game {k}: {e}") from None
            if res is None and k == len(self.games):   # a match stopped in its last game
                out.append(dict(score))
                break
            if res is None:
                raise RecordError(f"game {k}: the game is not over")
            for name, pts in self.points(game, res, score).items():
                score[name] += pts
            out.append(dict(score))
        return out

    def points(self, game: GameRecord, res: Mapping[str, Any],
               before: Mapping[str, float]) -> dict[str, float]:
        """Points each player scores for a game's result, from the score ``before`` it
        (draws by the match rules; a draw that would end the match for both sides scores
        nothing: it is replayed)."""
        names = {"white": game.white, "black": game.black}
        if res["kind"] == "draw":
            d = self.rules.draw_points()
            if all(before[p] + d >= self.rules.length for p in self.players):
                d = 0.0
            return {p: d for p in self.players}
        return {names[res["winner"]]: float(res["points"])}

    def crawford_game(self, k: int) -> bool:
        """True when game ``k`` (0-based) is the Crawford game: the match plays the Crawford
        rule, a side is one point from the length before it (its score line) and no side
        was before an earlier game.  A record that starts with a side one point away (a
        match joined at that score) has had its Crawford game, as ``play_one_match``
        plays it: its first game is not one."""
        n = self.rules.length
        return (self.rules.crawford and 0 < k < len(self.scores)
                and max(self.scores[k].values()) == n - 1
                and all(max(s.values()) < n - 1 for s in self.scores[:k]))

    def replay(self, *, unfinished: bool = False) -> dict[str, float]:
        """Check every game and the match (module docstring); returns the final score.
        ``RecordError`` names the game, and the file when the record was read from one.
        ``unfinished=True`` takes a match still going on (no side has reached the length,
        its last game perhaps not over: a match analysed while it is played); every other
        check stands."""
        if self.source is None:
            return self._replay(unfinished)
        try:
            return self._replay(unfinished)
        except RecordError as e:
            raise RecordError(f"{self.source}: {e}") from None

    def _replay(self, unfinished=False):
        if len(self.players) != 2 or self.players[0] == self.players[1]:
            raise RecordError(f"players {self.players!r}: a match needs two players of "
                              "different names")
        for k, game in enumerate(self.games, 1):
            if {game.white, game.black} != set(self.players):
                raise RecordError(f"game {k}: players {game.white!r}, {game.black!r} are "
                                  f"not the match's {self.players}")
            if game.rules != self.rules.rules:
                raise RecordError(f"game {k}: rules {game.rules.to_text()!r} differ from the "
                                  f"match's {self.rules.rules.to_text()!r}")
        running = self._running_scores()
        for k, (want, got) in enumerate(zip(running, self.scores), 1):
            if any(abs(want[p] - got.get(p, -1)) > 1e-9 for p in self.players):
                raise RecordError(f"game {k}: the score line says {_fmt_score(got)} but the "
                                  f"games before give {_fmt_score(want)}")
        self._check_starters()
        for k, game in enumerate(self.games):
            if game.cube and self.crawford_game(k):
                raise RecordError(f"game {k + 1}: the Crawford game is played without the "
                                  f"cube, but the record has a cube action at turn "
                                  f"{game.cube[0].before + 1}")
        final = running[-1]
        if self.games and max(final.values()) < self.rules.length and not unfinished:
            raise RecordError(f"game {len(self.games)}: the match is not over "
                              f"({_fmt_score(final)} of {self.rules.length})")
        return final

    def _check_starters(self):
        rule = self.rules.starter
        for k in range(1, len(self.games)):
            prev, game = self.games[k - 1], self.games[k]
            res = prev.result()
            if res["kind"] == "draw":
                want = prev.black if rule == "alternate" else None
            elif rule == "winner":
                want = prev.white if res["winner"] == "white" else prev.black
            elif rule == "alternate":
                want = prev.black
            else:
                want = None
            if want is not None and game.white != want:
                raise RecordError(f"game {k + 1}: {game.white!r} starts, but under "
                                  f"starter={rule!r} {want!r} does")

    # to_text / from_text: deliberate twins of GameRecord's, the same text interface
    def to_text(self) -> str:
        return format_match(self)

    @classmethod
    def from_text(cls, text: str, source: str = "<match>") -> MatchRecord:
        return parse_match(text, source)


def _fmt_score(score):
    return ", ".join(f"{p} {_num(v)}" for p, v in score.items())


def _num(v):
    return str(int(v)) if float(v).is_integer() else str(v)


def check_score_names(players) -> None:
    """Refuse a player's name that a score line (``NAME : N   NAME : N``) cannot hold as
    it is: empty, with a ``:``, a line break or spaces at its ends, or starting with
    ``;`` (the line would be read as a comment)."""
    for p in players:
        if (":" in p or not p.strip() or p != p.strip() or len(p.splitlines()) > 1
                or p.startswith(";")):
            raise ValueError(f"players: {p!r}: a name must be non-empty, on one line, "
                             "without ':' or spaces at its ends, and not start with ';'")


def format_match(match: MatchRecord) -> str:
    """Text of a ``MatchRecord`` (module docstring)."""
    expect_record(match, MatchRecord, "match", "play_one_match, read_match",
                  ("GameRecord", "one game: write_record writes it"))
    check_score_names(match.players)
    lines = [f"{MATCH_MAGIC} {FORMAT_VERSION}", f'; [Match "{match.rules.to_text()}"]',
             f'; [Player1 "{_esc(match.players[0])}"]',
             f'; [Player2 "{_esc(match.players[1])}"]', "",
             f" {match.rules.length} point match", ""]
    for k, (game, score) in enumerate(zip(match.games, match.scores), 1):
        left = f" {game.white} : {_num(score.get(game.white, 0))}"
        lines += [f" Game {k}", f"{left:<34} {game.black} : {_num(score.get(game.black, 0))}"]
        body = [ln for ln in format_record(game).splitlines() if not ln.startswith(";")]
        lines += [ln for ln in body if ln.strip()]
        res = game.result() if game.turns or game.cube else None
        if res is not None and res["kind"] != "draw":
            n = res["points"]
            lines.append(f"      Wins {_num(n)} point{'s' if n != 1 else ''}")
        lines.append("")
    return "\n".join(lines)


def parse_match(text: str, source: str = "<match>") -> MatchRecord:
    """Parse a match transcript; ``RecordError`` names the line or the game."""
    check_text(text, "parse_match", "read_match")
    tags, length, blocks = {}, None, []
    for no, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        m = _TAG.match(line)
        if m or not line or line.startswith(";"):
            if m:
                tags[m.group(1)] = _unesc(m.group(2))
            if blocks and blocks[-1]["score"] is not None:
                blocks[-1]["body"].append("")       # a game's lines keep their numbers
            continue
        if _LENGTH.match(line) and not blocks:
            length = int(_LENGTH.match(line).group(1))
        elif _GAME.match(line):
            if int(_GAME.match(line).group(1)) != len(blocks) + 1:
                raise RecordError(f"{source} line {no}: {line!r} out of order, expected "
                                  f"Game {len(blocks) + 1}")
            blocks.append({"line": no, "score": None, "body": []})
        elif not blocks:
            raise RecordError(f"{source} line {no}: {line!r} before 'Game 1'")
        elif blocks[-1]["score"] is None:
            m = _SCORE.match(line)
            if not m:
                raise RecordError(f"{source} line {no}: game {len(blocks)}: expected the "
                                  f"score line 'NAME : N   NAME : N', got {line!r}")
            blocks[-1]["score"] = ((m.group(1), float(m.group(2))),
                                   (m.group(3), float(m.group(4))))
            blocks[-1]["first"] = no + 1
        else:
            blocks[-1]["body"].append(raw)
    rules = _match_rules(tags, length, source)
    if not blocks:
        raise RecordError(f"{source}: no game in this match transcript (a header alone)")
    players = (tags.get("Player1"), tags.get("Player2"))
    if None in players and blocks and blocks[0]["score"]:
        players = (blocks[0]["score"][0][0], blocks[0]["score"][1][0])
    rec = MatchRecord(rules=rules, players=tuple(players))
    for k, b in enumerate(blocks, 1):
        if b["score"] is None:
            raise RecordError(f"{source}: game {k} has no score line")
        (white, sw), (black, sb) = b["score"]
        # the tags after the body, whose lines are numbered as in the file
        tail = (f'\n; [White "{_esc(white)}"]\n; [Black "{_esc(black)}"]\n'
                f'; [Rules "{rules.rules.to_text()}"]\n')
        try:
            game = parse_record("\n".join(b["body"]) + tail, f"{source} game {k}",
                                first_line=b["first"])
        except RecordError as e:        # its message names the file and the game already
            msg = str(e)
            raise RecordError(msg if msg.startswith(f"{source} game {k}") else
                              f"{source}: game {k}: {msg}") from None
        rec.games.append(game)
        rec.scores.append({white: sw, black: sb})
    return rec


def _match_rules(tags, length, source):
    if "Match" in tags:
        try:
            rules = MatchRules.from_text(tags["Match"])
        except (ValueError, TypeError) as e:
            raise RecordError(f"{source}: tag Match: {e}") from None
        if length is not None and length != rules.length:
            raise RecordError(f"{source}: '{length} point match' but tag Match says "
                              f"length={rules.length}")
        return rules
    if length is None:
        raise RecordError(f"{source}: no ' N point match' line and no Match tag")
    try:
        return MatchRules(length=length)
    except ValueError as e:
        raise RecordError(f"{source}: '{length} point match': {e}") from None


def looks_like_match(text: str) -> bool:
    """True when ``text`` starts like a match transcript (magic or ``N point match``)."""
    if text.startswith(MATCH_MAGIC):
        return True
    return any(_LENGTH.match(ln.strip()) for ln in text.splitlines()[:20])


def read_match(path: str | os.PathLike[str]) -> MatchRecord:
    """Read a match transcript file (not replayed: call ``replay``).

    Returns
    -------
    MatchRecord
        The match as written.

    Raises
    ------
    RecordError
        The file is not UTF-8 text, or its content is malformed (naming the file and
        the line).

    Examples
    --------
    >>> import os, tempfile
    >>> import nardy_fast as nf
    >>> m = nf.play_one_match("random", "random", rules=nf.MatchRules(length=1), seed=1)
    >>> path = os.path.join(tempfile.mkdtemp(), "match.txt")
    >>> nf.write_match(m, path) == path
    True
    >>> back = nf.read_match(path)
    >>> back.players, len(back.games), back.scores == m.scores
    (('A', 'B'), 1, True)
    """
    path = os.fspath(path)
    rec = parse_match(read_text_file(path), source=path)
    rec.source = path
    return rec


def write_match(match: MatchRecord, path: str | os.PathLike[str], *,
                replace: bool = True) -> str:
    """Write a match transcript atomically.  ``replace=False``: ``FileExistsError``
    rather than replace an existing file.

    Returns
    -------
    str
        The path written.

    Examples
    --------
    >>> import os, tempfile
    >>> import nardy_fast as nf
    >>> m = nf.play_one_match("random", "random", rules=nf.MatchRules(length=1), seed=1)
    >>> path = os.path.join(tempfile.mkdtemp(), "match.txt")
    >>> nf.write_match(m, path) == path
    True
    >>> back = nf.read_match(path)
    >>> back.players, len(back.games), back.scores == m.scores
    (('A', 'B'), 1, True)
    """
    return atomic_write_text(path, format_match(match), replace=replace)
