"""Duels: two programs that speak the engine protocol play mirrored pairs of games.

``play_duel("<command A>", "<command B>", n_games)`` starts both programs (each command
split as a shell would, ``shlex.split``, and run without a shell), greets them (``nardy``
... ``nardyok``, the rules by ``setoption``, ``isready`` ... ``readyok``) and plays
``n_games`` games, rounded up to whole pairs.  The duel runner, not the programs, holds
the games: it throws the dice, sends each program ``position <ID>``, ``dice <d1> <d2>``
and ``go`` on its turns, checks the ``bestmove`` against the legal moves and plays it.

Mirrored pairs
    Pair ``p`` (0-based) throws its dice from ``PCG64(SeedSequence(entropy, spawn_key=(p,)))``
    (``rng.block_bit_generator``): in its first game A plays White, in its second B
    does, and turn ``k`` of both games has the same dice.  The luck of the dice then
    largely cancels within a pair, and the pair is the independent unit of the standard
    error (``engine.strength.summarize``, as ``play_match``'s shared-dice games).
    The games depend on the seed and the programs' answers only.
Forfeits
    An answer that is not a legal move of the roll (``core.position.read_move`` against
    ``legal_moves``), an ``error`` line instead of a ``bestmove``, a program that ends or
    does not answer within ``timeout`` seconds lose the game by forfeit: the most points
    a game can score under the rules (``FORFEIT_KIND``), said by name in the game's
    ``Forfeit`` tag.  A program that ended or hung also ends the duel (``DuelStopped``),
    with the games finished before it kept.
Transcripts
    Every game is a game record (``core.record``: ``; nardy_fast game record`` ...) with
    the tags ``Pair`` (1-based), ``A`` and ``B`` (the colour each program played),
    ``Seed`` and, for a forfeit, ``Forfeit``; a duel's transcript is its records one after
    the other (``write_transcript``, ``read_transcript``).  Each record replays with
    ``GameRecord.replay``.
"""
from __future__ import annotations

import collections
import math
import os
import queue
import shlex
import subprocess
import threading

import numpy as np

from nardy_fast._utils._io import atomic_write_text
from nardy_fast._utils._progress import progress_bar
from nardy_fast.core.gameloop import opening_throw, play_turns
from nardy_fast.core._checks import check_count
from nardy_fast.core.position import BLACK, WHITE, Position, _shown, as_position, read_move
from nardy_fast.core.record import MAGIC, GameRecord, RecordError, parse_record, read_text_file
from nardy_fast.core.rng import block_bit_generator, root_entropy
from nardy_fast.core.rules import CLASSIC, as_rules
from nardy_fast.engine.play.strength import summarize

__all__ = ["play_duel", "duel_points", "duel_summary", "write_transcript",
           "read_transcript", "EngineProcess", "EngineFault", "DuelStopped",
           "DEFAULT_TIMEOUT", "FORFEIT_KIND"]

DEFAULT_TIMEOUT = 60.0        # seconds a program may take for an answer
FORFEIT_KIND = "forfeit"
_KINDS = ("oin", "mars", "koks", "home_mars")
_LONGEST_SHOWN = 300          # characters of a program's answer quoted in a message


class EngineFault(Exception):
    """A program that ended, hung or never spoke the protocol; the message names it."""


class DuelStopped(Exception):
    """The duel ended early (a program ended or hung): ``records`` holds the games
    finished, the last one the forfeit; ``names`` the programs' ``id name``."""

    def __init__(self, message, records, names=(None, None)):
        super().__init__(message)
        self.records, self.names = records, list(names)


class _Forfeit(Exception):
    def __init__(self, side, reason, fault=None):
        super().__init__(reason)
        self.side, self.reason, self.fault = side, reason, fault


class EngineProcess:
    """One program of a duel, started from ``command`` and spoken to in the protocol.

    Parameters
    ----------
    command : str
        The command line (``shlex.split``, run without a shell).
    label : str
        ``"A"`` or ``"B"``: how messages name it (with its command).
    timeout : float
        Seconds each answer may take.
    """

    def __init__(self, command: str, label: str, timeout: float = DEFAULT_TIMEOUT):
        self.command, self.label, self.timeout = command, label, float(timeout)
        self.name = None                         # its 'id name'
        self.kill = False                        # killed at close (hung, interrupted)
        try:
            argv = shlex.split(command)
        except ValueError as e:
            raise EngineFault(f"{self}: cannot split the command ({e})") from None
        if not argv:
            raise EngineFault(f"engine {label}: the command is empty")
        try:
            self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=subprocess.PIPE, text=True, bufsize=1,
                                         encoding="utf-8", errors="replace",
                                         # Ctrl-C in a terminal reaches the duel alone,
                                         # which then stops the programs itself
                                         start_new_session=True)
        except OSError as e:
            raise EngineFault(f"{self}: cannot start it ({e.strerror or e})") from None
        self.lines = queue.Queue()
        self.stderr = collections.deque(maxlen=5)
        self.pumps = [threading.Thread(target=_pump, args=(stream, put), daemon=True)
                      for stream, put in ((self.proc.stdout, self.lines.put),
                                          (self.proc.stderr, self.stderr.append))]
        for t in self.pumps:
            t.start()

    def __str__(self):
        return f"engine {self.label} ({self.command!r})"

    def send(self, line: str) -> None:
        """Write one line to the program; ``EngineFault`` if it has ended."""
        try:
            self.proc.stdin.write(line + "\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            raise EngineFault(self._ended()) from None

    def expect(self, word: str, waiting_for: str) -> str:
        """The first line the program writes that starts with ``word`` (its rest); an
        ``error`` line is a ``ValueError`` with its text, no answer in time or the end of
        the program an ``EngineFault``; other lines are skipped."""
        while True:
            try:
                line = self.lines.get(timeout=self.timeout)
            except queue.Empty:
                raise self._hung(waiting_for) from None
            if line is None:
                raise EngineFault(self._ended())
            head, _, rest = line.strip().partition(" ")
            if head == word:
                return rest.strip()
            if head == "error":
                raise ValueError(f"it answered {waiting_for!r} with "
                                 + _shown(f"error {rest.strip()}", _LONGEST_SHOWN))

    def greet(self, rules) -> None:
        """``nardy`` ... ``nardyok``, the rules when not classic, ``isready`` ...
        ``readyok``; ``EngineFault`` naming the program when it does not answer so."""
        try:
            self.send("nardy")
            while True:
                line = self._line("nardy")
                if line.startswith("id name "):
                    self.name = line[len("id name "):].strip()
                elif line == "nardyok":
                    break
            if rules != CLASSIC:
                self.send(f"setoption name rules value {rules.to_text()}")
            self.send("isready")
            while True:
                line = self._line("isready")
                if line.startswith("error"):
                    raise EngineFault(f"{self} refused the duel's settings: "
                                      f"{_shown(line, _LONGEST_SHOWN, quote=False)}")
                if line == "readyok":
                    return
        except EngineFault:
            self.close()
            raise

    def _line(self, waiting_for):
        try:
            line = self.lines.get(timeout=self.timeout)
        except queue.Empty:
            raise self._hung(waiting_for) from None
        if line is None:
            raise EngineFault(self._ended())
        return line.strip()

    def _hung(self, waiting_for):
        self.kill = True
        return EngineFault(f"{self} hung: no answer to {waiting_for!r} within "
                           f"{self.timeout:g} s (--timeout)")

    def best_move(self, position: Position, dice) -> str:
        """The program's move for ``dice`` in ``position``, as it wrote it."""
        self.send(f"position {position.id}")
        self.send(f"dice {dice[0]} {dice[1]}")
        self.send("go")
        return self.expect("bestmove", "go")

    def _ended(self):
        try:
            code = self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            code = None
        self.pumps[1].join(timeout=1)            # its last words on stderr, read whole
        said = " | ".join(s.strip() for s in self.stderr if s and s.strip())
        return (f"{self} ended" + (f" with exit status {code}" if code is not None else "")
                + (f"; its last words on stderr: {said}" if said else ""))

    def close(self) -> None:
        """``quit``, then wait a moment; a program still running then (or one that hung,
        or all of them after Ctrl-C) is killed."""
        if self.kill and self.proc.poll() is None:
            self.proc.kill()
        if self.proc.poll() is None:
            try:
                self.proc.stdin.write("quit\n")
                self.proc.stdin.close()
            except (OSError, ValueError):
                pass
            try:
                self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        for f in (self.proc.stdout, self.proc.stderr):
            try:
                f.close()
            except (OSError, ValueError):
                pass


def _pump(stream, put):
    """Move a program's lines to ``put`` (``None`` at the end)."""
    try:
        for line in stream:
            put(line)
    except (OSError, ValueError):
        pass
    put(None)


def _forfeit_points(rules):
    """The most points a game can score under ``rules``: what a forfeit loses."""
    return max(rules.points(k) for k in _KINDS)


def _play_game(engines, colours, rules, start, rng, tags):
    """One game: ``engines[colour]`` plays ``colour``; the ``GameRecord`` played, with a
    ``Forfeit`` tag when a side lost so (``_Forfeit.fault`` set when its program ended
    or hung)."""
    w, b = engines[WHITE], engines[BLACK]
    rec = GameRecord(white=f"{w.name or 'engine'} ({w.label})",
                     black=f"{b.name or 'engine'} ({b.label})",
                     rules=rules, start=start, tags=dict(tags))

    def choose(pos, dice, moves):
        eng = engines[pos.side]
        try:
            text = eng.best_move(pos, dice)
        except EngineFault as e:
            raise _Forfeit(pos.side, str(e), fault=e) from None
        except ValueError as e:
            raise _Forfeit(pos.side, f"{eng}: {e}") from None
        try:
            return read_move(pos, text, dice, rules)
        except ValueError as e:
            raise _Forfeit(pos.side, f"{eng} played {_shown(text, _LONGEST_SHOWN)} for "
                                     f"{dice[0]}{dice[1]} in {pos.id}: "
                                     f"{_shown(str(e), _LONGEST_SHOWN, quote=False)}") from None

    first = opening_throw(rng) if (rules.opening_roll == "opening_dice"
                                   and start == Position.initial()) else None
    try:
        play_turns(rec, choose, rng, dice=first, list_moves=False)
    except _Forfeit as f:
        rec.tags["Forfeit"] = f"{f.side} ({colours[f.side]}): {f.reason}"
        return rec, f.fault
    return rec, None


def play_duel(command_a: str, command_b: str, n_games: int, *, seed=None, rules=None,
              start=None, timeout: float = DEFAULT_TIMEOUT, progress=None,
              on_game=None, on_greet=None) -> dict:
    """Play a duel of mirrored pairs (module docstring).

    Parameters
    ----------
    command_a, command_b : str
        The programs' command lines (e.g. ``"nardy-fast engine --plies 0"``).
    n_games : int
        Games in all, rounded up to whole pairs (>= 2).
    seed : None or int
        The dice's seed (None: fresh entropy, returned as ``seed``).
    rules : Rules, str or None
        The rules of the games (None: classic), sent to the programs when not classic.
    start : Position, str or None
        The position every game starts from (None: the initial one).
    timeout : float
        Seconds each answer may take.
    progress : bool or None
        A bar over the games (None: when stderr is a terminal).
    on_game : callable or None
        Called with each finished game's record.
    on_greet : callable or None
        Called with the programs' ``id name`` (a list, A's then B's; None for a program
        that gave none) once both have greeted, before the first game: what names them
        when Ctrl-C stops the duel.

    Returns
    -------
    dict
        ``duel_summary`` of the games (A's points per game ``ppg`` with ``se_ppg``, ...),
        ``seed``, ``names`` (the programs' ``id name``), ``records`` (every game's
        ``GameRecord``) and ``forfeits``.

    Raises
    ------
    DuelStopped
        A program ended or hung; its ``records`` are the games finished.
    EngineFault
        A program did not start or greet.
    """
    n_games = check_count(n_games, "n_games (a pair of games at least)", 2)
    if not (float(timeout) > 0 and math.isfinite(timeout)):
        raise ValueError(f"timeout={timeout!r}: expected a positive number of seconds")
    rules = as_rules(rules)
    if rules.cube is not None:      # every game would score its stake, 1, and a forfeit more
        raise ValueError(f"rules: cube={rules.cube!r}: a duel plays without the cube (no "
                         "program is asked to double); leave the cube out of the rules")
    start = Position.initial() if start is None else as_position(start, "start")
    if start.is_over():      # a record starts where both sides play (not at a last turn)
        raise ValueError(f"start {start.id}: the game is over")
    entropy = root_entropy(seed)
    n_pairs = -(-int(n_games) // 2)
    engines = []
    records = []
    try:
        for command, label in ((command_a, "A"), (command_b, "B")):
            eng = EngineProcess(command, label, timeout)
            engines.append(eng)
            eng.greet(rules)
        a, b = engines
        if on_greet is not None:
            on_greet([a.name, b.name])
        with progress_bar(total=2 * n_pairs, desc="duel", unit="game",
                          progress=progress) as bar:
            for p in range(n_pairs):
                for a_colour in (WHITE, BLACK):
                    b_colour = BLACK if a_colour == WHITE else WHITE
                    seats = {a_colour: a, b_colour: b}
                    colours = {a_colour: "A", b_colour: "B"}
                    # both games of the pair: the same dice, turn by turn
                    rng = np.random.Generator(block_bit_generator(entropy, p))
                    tags = {"Pair": str(p + 1), "A": a_colour, "B": b_colour,
                            "Seed": str(entropy)}
                    rec, fault = _play_game(seats, colours, rules, start, rng, tags)
                    records.append(rec)
                    if on_game is not None:
                        on_game(rec)
                    bar.update(1)
                    if fault is not None:
                        raise DuelStopped(str(fault), records, [a.name, b.name])
    except KeyboardInterrupt:           # Ctrl-C, SIGTERM: stop the programs at once
        for eng in engines:
            eng.kill = True
        raise
    finally:
        for eng in engines:
            eng.close()
    out = duel_summary(records)
    out.update(seed=entropy, names=[e.name for e in engines], records=records)
    return out


def duel_points(records) -> np.ndarray:
    """A's points in each game of whole pairs, ``(pairs, 2)``: A as White, then as Black.

    ``records`` are a duel's games in order (``play_duel``, ``read_transcript``): each
    with the tags ``Pair`` and ``A``; a finished game scores its result, a ``Forfeit``
    tag (``"white (A): ..."``) the most a game can score, lost by the side named.  A
    pair with only one game (a duel stopped) is left out.
    """
    pairs = {}
    for rec in records:
        try:
            pair, a_colour = int(rec.tags["Pair"]), rec.tags["A"]
        except (KeyError, ValueError):
            raise ValueError("a duel's record needs the tags Pair (a number) and A (the "
                             f"colour A played); got {sorted(rec.tags)}") from None
        if a_colour not in (WHITE, BLACK):
            raise ValueError(f"tag A {a_colour!r}: expected 'white' or 'black'")
        pairs.setdefault(pair, {})[a_colour] = _points_a(rec, a_colour)
    whole = [g for _, g in sorted(pairs.items()) if len(g) == 2]
    return np.array([[g[WHITE], g[BLACK]] for g in whole], dtype=float).reshape(-1, 2)


def _points_a(rec, a_colour):
    if "Forfeit" in rec.tags:
        loser = rec.tags["Forfeit"].split()[0]
        if loser not in (WHITE, BLACK):
            raise ValueError(f"tag Forfeit {rec.tags['Forfeit']!r}: expected the side "
                             "that forfeited first ('white' or 'black')")
        pts = _forfeit_points(rec.rules)
        return -pts if loser == a_colour else pts
    res = rec.result()
    if res is None:
        raise ValueError(f"pair {rec.tags['Pair']}, A {a_colour}: the game is not over and "
                         "no side forfeited")
    if res["winner"] is None:
        return 0.0
    return res["points"] if res["winner"] == a_colour else -res["points"]


def duel_summary(records) -> dict:
    """A duel's figures from its games: ``engine.strength.summarize`` of ``duel_points``
    (``games``, ``ppg`` and ``se_ppg``: A's mean points per game and its standard error
    between pairs, the pair being the unit; ``win_rate``, ``se_win_rate``,
    ``points_share``, ``se_points_share``), plus ``forfeits`` (A's and B's) and
    ``points`` (the array)."""
    points = duel_points(records)
    if len(points):
        out = summarize(points)
        out.pop("seed", None)
    else:                               # no whole pair: nothing to estimate from
        nan = float("nan")
        out = {"games": 0, "points": points, **{k: nan for k in (
            "win_rate", "se_win_rate", "ppg", "se_ppg", "points_share", "se_points_share")}}
    forfeits = {"A": 0, "B": 0}
    for rec in records:
        if "Forfeit" in rec.tags:
            loser = rec.tags["Forfeit"].split()[0]
            forfeits["A" if loser == rec.tags.get("A") else "B"] += 1
    out["forfeits"] = forfeits
    return out


def transcript_text(records) -> str:
    """A duel's records one after the other, a blank line between them."""
    return "\n".join(rec.to_text() for rec in records)


def write_transcript(records, path) -> str:
    """Write a duel's transcript (``transcript_text``) to ``path``, whole or not at all."""
    return atomic_write_text(path, transcript_text(records))


def read_transcript(path) -> list[GameRecord]:
    """The game records of a duel's transcript (``write_transcript``), each parsed by
    ``parse_record``: a file of one or more records, each starting with its first line
    ``; nardy_fast game record``.  ``RecordError`` names the file and line of a bad one."""
    lines = read_text_file(path).splitlines(keepends=True)
    starts = [k for k, line in enumerate(lines) if line.startswith(MAGIC)]
    if not starts:
        raise RecordError(f"{os.fspath(path)}: no game record here (a record starts with "
                          f"'{MAGIC}')")
    records = []
    for k, s in enumerate(starts):
        end = starts[k + 1] if k + 1 < len(starts) else len(lines)
        # numbered from its first line in the file, for the error messages
        records.append(parse_record("".join(lines[s:end]), source=os.fspath(path),
                                    first_line=s + 1))
    return records
