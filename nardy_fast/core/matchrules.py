"""Match play (тас): the rules of a match to N points and the state of a match.

A match is a series of games; the first side to reach ``length`` points wins it (the
glossary of seed ``004_*``: *тас* is a match to three points).  ``MatchRules`` holds the
choices of the tournament regulation beside the game's ``Rules``:

- **scoring**: a game scores as the rules say (``Rules.points``: oin 1, mars 2; koks and
  home mars under ``scoring="extended"``); with the cube (``Rules.cube``) there is no
  mars and no oin: a game scores its stake (rule book section 7a).
- **draw** (only under ``Rules.draw_rule``): ``"half"`` (1/2-1/2, default),
  ``"one"`` (1-1) or ``"replay"`` (no points): seeds ``000_*``, ``002_*``, ``004_*``
  give the first two "according to the tournament regulation"; replay is the usual
  alternative.  A draw that would bring both sides to ``length`` at once is replayed.
- **starter** (who moves first in each game): ``"winner"`` (default: seeds ``003_*``
  and ``004_*``: "if a second game follows, the winner of the first starts it"), the
  first game and the game after a draw by the opening roll; ``"opening_roll"`` (every
  game thrown for); ``"alternate"`` (the sides take turns, the first game thrown for).
- **crawford**: with the cube only.  Default ``False``: the cube itself is a variant of
  play for a stake (section 7a, ``cube=None`` by default) and no source describes a
  match with the cube, let alone the Crawford rule, which is a backgammon tournament
  convention offered here as an option: the first game after a side reaches
  ``length - 1`` is played without the cube.

``MatchState`` is the state of a match beside a position: the score of each colour, who is
on roll, whether this is the Crawford game, and the cube.  All chances are match winning
chances (MWC) in [0, 1].
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field, fields, replace

from nardy_fast.core._checks import check_int
from nardy_fast.core.cubestate import CENTRED, CubeState, next_stake
from nardy_fast.core.rules import (CLASSIC, OUTCOMES, PLAY_FIELDS, Rules, RulesLike, as_rules,
                                   check_flag, is_number)

from collections.abc import Iterable, Mapping
from typing import Any

__all__ = ["MatchRules", "MatchState", "MATCH_CHOICES", "as_match_rules", "stakes_upto",
           "check_match", "check_score"]

MAX_LENGTH = 64
# field -> allowed values (the first is the default)
MATCH_CHOICES = {
    "draw": ("half", "one", "replay"),
    "starter": ("winner", "opening_roll", "alternate"),
}
_SIDES = ("white", "black")


@dataclass(frozen=True)
class MatchRules:
    """The regulation of a match (module docstring).

    Parameters
    ----------
    length : int
        Points to win the match, 1..64.
    draw : {"half", "one", "replay"}
        Points of each side for a drawn game (``Rules.draw_rule`` only).
    starter : {"winner", "opening_roll", "alternate"}
        Who moves first in each game after the first.
    crawford : bool
        The Crawford rule (needs ``rules.cube``).
    rules : Rules
        The game's rules (scoring, draws, the cube).

    Examples
    --------
    >>> from nardy_fast import MatchRules, Rules
    >>> mr = MatchRules(length=5, crawford=True, rules=Rules(cube="geometric"))
    >>> mr.length, mr.draw, mr.starter, mr.crawford
    (5, 'half', 'winner', True)
    """

    length: int = 3
    draw: str = "half"
    starter: str = "winner"
    crawford: bool = False
    rules: Rules = field(default=CLASSIC)

    def __post_init__(self):
        object.__setattr__(self, "length", check_int(self.length, 1, MAX_LENGTH, "length"))
        for name, allowed in MATCH_CHOICES.items():
            if getattr(self, name) not in allowed:
                raise ValueError(f"{name}={getattr(self, name)!r}: expected one of "
                                 + ", ".join(repr(a) for a in allowed))
        object.__setattr__(self, "crawford", check_flag(self.crawford, "crawford"))
        object.__setattr__(self, "rules", as_rules(self.rules))
        if self.crawford and self.rules.cube is None:
            raise ValueError("crawford=True: the Crawford rule needs a cube "
                             "(rules.cube='geometric' or 'arithmetic'), got cube=None")
        if not self.cube:         # a score moves by whole units: so must a game's points
            for kind in OUTCOMES:
                pts = self.rules.points(kind)
                if pts / self.unit != int(pts / self.unit):
                    if self.rules.scoring == "classic" and kind != "oin":
                        kind = "mars"        # classic scoring: koks, home mars are mars
                    raise ValueError(
                        f"rules: {kind}_points={pts:g}: a match's score holds "
                        + ("whole points only" if self.unit == 1 else
                           f"multiples of {self.unit:g} points only")
                        + " (each kind of win must be worth one)")

    @property
    def cube(self) -> bool:
        """True when games are played with the cube."""
        return self.rules.cube is not None

    @property
    def unit(self) -> float:
        """The smallest score step: 0.5 with half-point draws, else 1."""
        return 0.5 if self.rules.draw_rule and self.draw == "half" else 1.0

    def game_points(self, kind: str, stake: int = 1) -> float:
        """Points the winner scores for ``kind`` in {"oin", "mars", "koks", "home_mars"}
        (with the cube: the stake, whatever the kind)."""
        if self.cube:
            self.rules.points(kind)                  # checks the kind
            return float(stake)
        return self.rules.points(kind)

    def crawford_stage(self, score: Iterable[float], crawford_game: bool = False) -> str:
        """What the Crawford rule makes of a game begun at ``score`` (the two sides'
        points): ``"crawford"`` (the Crawford game, no cube), ``"post"`` (post-Crawford:
        a side one point from the length, the Crawford game played), ``"before"`` (the
        rule still to come), or ``""`` when the match has no Crawford rule."""
        if not self.crawford:
            return ""
        if crawford_game:
            return "crawford"
        return "post" if max(score) == self.length - 1 else "before"

    def draw_points(self) -> float:
        """Points each side scores for a draw."""
        return {"half": 0.5, "one": 1.0, "replay": 0.0}[self.draw]

    def to_text(self) -> str:
        """``"length=3"`` plus the fields that differ from the defaults and the rules
        (``"length=5 crawford=true rules: cube=geometric"``); ``from_text`` reads it."""
        base = MatchRules(length=self.length)
        words = [f"length={self.length}"]
        for f in fields(self):
            v = getattr(self, f.name)
            if f.name in ("length", "rules") or v == getattr(base, f.name):
                continue
            words.append(f"{f.name}={str(v).lower() if isinstance(v, bool) else v}")
        text = " ".join(words)
        return text if self.rules == CLASSIC else f"{text} rules: {self.rules.to_text()}"

    @classmethod
    def from_text(cls, text: str) -> MatchRules:
        """MatchRules from ``to_text`` output; ValueError naming the bad item, TypeError
        for anything but a ``str``."""
        if not isinstance(text, str):
            raise TypeError(f"match rules text: expected str, got {type(text).__name__}")
        head, _, rules_text = text.partition("rules:")
        d = {}
        for item in head.replace(",", " ").split():
            if "=" not in item:
                raise ValueError(f"match rules item {item!r}: expected name=value")
            k, v = item.split("=", 1)
            if k in d:
                raise ValueError(f"match rules item {item!r}: {k} is given twice")
            if k == "length":
                try:
                    d[k] = int(v)
                except ValueError:
                    raise ValueError(f"match rules item {item!r}: length must be an "
                                     "integer") from None
            elif k == "crawford":
                if v.lower() not in ("true", "false"):
                    raise ValueError(f"match rules item {item!r}: expected true or false")
                d[k] = v.lower() == "true"
            elif k in MATCH_CHOICES:
                d[k] = v
            else:
                raise ValueError(f"match rules item {item!r}: unknown field {k!r}")
        return cls(rules=Rules.from_text(rules_text), **d)

    def to_dict(self) -> dict[str, Any]:
        """Plain values; ``rules`` as its dict (``from_dict`` reads it back)."""
        d = {f.name: getattr(self, f.name) for f in fields(self)}
        d["rules"] = self.rules.to_dict()
        return d

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> MatchRules:
        """MatchRules from ``to_dict`` output; ValueError naming unknown keys, TypeError
        for anything but a mapping."""
        if not isinstance(d, Mapping):
            raise TypeError(f"match rules: expected a mapping of match rule fields to "
                            f"values, got {type(d).__name__}")
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(d) - known)
        if unknown:
            raise ValueError(f"unknown match rule field(s) {unknown}: expected some of "
                             f"{sorted(known)}")
        return cls(**dict(d))


def as_match_rules(rules: MatchRules | RulesLike,
                   length: int | None = None) -> MatchRules:
    """``MatchRules`` from a MatchRules (``length`` replaces its length), a ``Rules``,
    a dict of ``Rules`` fields or None (defaults, with ``length``)."""
    if isinstance(rules, MatchRules):
        return rules if length is None or length == rules.length else replace(
            rules, length=length)
    mr = MatchRules(rules=as_rules(rules), **({} if length is None else {"length": length}))
    return mr


def stakes_upto(rules: Rules, limit: float) -> list[int]:
    """The stakes of the cube progression from 1 up to the first one >= ``limit``."""
    out = [1]
    while out[-1] < limit:
        out.append(next_stake(rules.cube, out[-1]))
    return out


def check_score(score, rules: MatchRules, sides: tuple[str, str] = _SIDES) -> tuple[float, float]:
    """A match score checked against ``rules``: two points, each a multiple of the
    rules' unit (one point, or a half with drawn games worth half) in ``0 ..`` below the
    length.

    Parameters
    ----------
    score : pair of numbers
        The points of the two sides, in the order of ``sides``.
    rules : MatchRules
    sides : pair of str
        The sides' names for the message (default ``("white", "black")``).

    Returns
    -------
    tuple of float

    Raises
    ------
    TypeError, ValueError
        Naming the side and its points.
    """
    n = rules.length
    try:
        a, b = score
    except (TypeError, ValueError):
        raise ValueError(f"score={score!r}: expected ({sides[0]}, {sides[1]})") from None
    for side, v in zip(sides, (a, b)):
        if not is_number(v):
            raise TypeError(f"score: {side}={v!r}: expected a number")
        if not (0 <= v < n) or (v / rules.unit) != int(v / rules.unit):
            top = math.ceil(n / rules.unit - 1) * rules.unit   # the last one below n
            what = ("a whole number of points" if rules.unit == 1
                    else f"a multiple of {rules.unit:g} points")
            raise ValueError(f"score: {side}={v:g}: expected {what} in 0..{top:g} (below "
                             f"the match length {n})")
    return float(a) + 0.0, float(b) + 0.0          # -0.0 is 0 points: shown as 0


@dataclass(frozen=True)
class MatchState:
    """The state of a match beside a position.

    Parameters
    ----------
    length : int or MatchRules
        The match length, or the full regulation (a plain length: default rules).
    score : (float, float)
        Points of White and of Black, each below the length.
    on_roll : {"white", "black"}
        The colour on roll (the position's ``side``).
    crawford : bool
        This game is the Crawford game (no cube): needs the Crawford rule and one side
        exactly one point (one unit) from the length.
    cube : CubeState or None
        The cube from the side on roll's view (None: centred at 1, or no cube).

    Examples
    --------
    >>> from nardy_fast import MatchState
    >>> s = MatchState(length=3, score=(1, 2), on_roll="black")
    >>> s.length.length, s.score, s.on_roll, s.away()
    (3, (1.0, 2.0), 'black', (1.0, 2.0))
    """

    length: object = 3
    score: tuple = (0, 0)
    on_roll: str = "white"
    crawford: bool = False
    cube: CubeState | None = None

    def __post_init__(self):
        rules = (self.length if isinstance(self.length, MatchRules)
                 else MatchRules(length=check_int(self.length, 1, MAX_LENGTH, "length")))
        object.__setattr__(self, "length", rules)
        object.__setattr__(self, "score", check_score(self.score, rules))
        if self.on_roll not in _SIDES:
            raise ValueError(f"on_roll={self.on_roll!r}: expected 'white' or 'black'")
        self._check_crawford(rules)
        self._check_cube(rules)
        # states key the tables' caches: hash once
        object.__setattr__(self, "_hash", hash((rules, self.score, self.on_roll,
                                                self.crawford, self.cube)))

    def __hash__(self):
        return self._hash

    def __reduce__(self):
        # the fields, not the kept hash: a text's hash differs from one process to the next
        return (MatchState, (self.length, self.score, self.on_roll, self.crawford, self.cube))

    def _check_crawford(self, rules):
        object.__setattr__(self, "crawford", check_flag(self.crawford, "crawford"))
        if self.crawford and not rules.crawford:
            raise ValueError("crawford=True: the match rules have no Crawford rule "
                             "(MatchRules(crawford=True) needs a cube)")
        if self.crawford and rules.length - max(self.score) != 1:
            raise ValueError(f"crawford=True: the Crawford game needs a side 1 point from "
                             f"the length {rules.length}; the score is {self.score}")

    def _check_cube(self, rules):
        cube = self.cube
        if cube is None:
            return
        if not isinstance(cube, CubeState):
            raise TypeError(f"cube={cube!r}: expected a CubeState or None")
        if not rules.cube:
            if cube != CENTRED:
                raise ValueError(f"cube={cube.stake} ({cube.owner}): the match is played "
                                 "without the cube (rules.cube=None)")
            return
        if self.crawford and (cube.stake != 1 or cube.owner != "centre"):
            raise ValueError(f"cube={cube.stake} ({cube.owner}): the Crawford game is "
                             "played without the cube (stake 1, centred)")
        top = stakes_upto(rules.rules, max(self.away()))
        if cube.stake not in top:
            raise ValueError(f"cube={cube.stake}: the match cannot have this stake: "
                             f"expected one of {top} (a raise beyond the points either side "
                             "needs is never made)")

    @property
    def rules(self) -> MatchRules:
        """The ``MatchRules``."""
        return self.length

    def away(self) -> tuple[float, float]:
        """Points each side needs, (side on roll, other)."""
        n = self.length.length
        w, b = n - self.score[0], n - self.score[1]
        return (w, b) if self.on_roll == "white" else (b, w)

    @property
    def stake(self) -> int:
        return 1 if self.cube is None else self.cube.stake

    def flipped(self) -> MatchState:
        """The same state with the other side on roll (the cube seen from it)."""
        other = "black" if self.on_roll == "white" else "white"
        return replace(self, on_roll=other,
                       cube=None if self.cube is None else self.cube.passed())


def check_match(match: MatchState, positions: Iterable[Any] = (), name: str = "match", *,
                rules: Rules | None = None, rules_name: str = "the rules given") -> None:
    """Check that ``match`` is a ``MatchState`` whose side on roll is that of every position
    and, given ``rules``, whose game is played under them.

    The input check of every ``match=`` argument (it lives beside ``MatchState`` rather
    than in ``core._checks``, which this module imports).

    Parameters
    ----------
    match : MatchState
    positions : iterable of Position
        The positions evaluated at this score (each with its ``side`` on roll).
    name : str
        The argument's name in the messages (``state`` for the match functions).
    rules : Rules, optional
        The rules the positions are valued under (an evaluator's, a rollout's): their
        move rules and ``draw_rule`` must be the match's.  Their cube and points may
        differ (a match with the cube is valued under its cubeless rules, and the match
        scores the kinds of win by its own points).
    rules_name : str
        What ``rules`` are in the messages (``"the evaluator's rules"``).

    Raises
    ------
    TypeError
        ``match`` is not a ``MatchState``.
    ValueError
        A position has the other colour on roll, or ``rules`` are not the match's.
    """
    if not isinstance(match, MatchState):
        raise TypeError(f"{name}: expected a MatchState, got {type(match).__name__}")
    for p in positions:
        if p.side != match.on_roll:
            raise ValueError(f"{name}: on_roll={match.on_roll!r} but position {p.id} has "
                             f"{p.side} on roll")
    if rules is not None:
        played = match.rules.rules
        differ = [f for f in (*PLAY_FIELDS, "draw_rule")
                  if getattr(played, f) != getattr(rules, f)]
        if differ:
            raise ValueError(f"{name}: the match is played under the rules "
                             f"{played.to_text()!r}, {rules_name} are {rules.to_text()!r} "
                             f"(they differ in {', '.join(differ)}): value the positions "
                             "under the match's rules")
