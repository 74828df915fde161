"""The rules object: one field per variant of the long-nardy rule book.

The defaults (``CLASSIC``) follow the numbered rules; every other reading is a named value
of a field.  A ``Rules`` is immutable and hashable, so it can key caches and travel to
worker processes.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, fields, replace

import numpy as np

from collections.abc import Mapping
from typing import Any, TypeAlias

__all__ = ["Rules", "CLASSIC", "CHOICES", "FLAGS", "CUBE_FIELDS", "PLAY_FIELDS", "as_rules",
           "check_flag", "is_number"]

# field -> allowed values (the first is the default; the position is the C code, see
# _rules.pxd: a new variant is a value here, or a flag below, and a field of rules_t)
CHOICES = {
    "head_rule": ("classic", "generalized"),
    "block_rule": ("ahead", "home", "none"),
    "scoring": ("classic", "extended"),
    "opening_roll": ("rethrow", "opening_dice"),
    "cube": (None, "geometric", "arithmetic"),
}
FLAGS = ("block_transient", "larger_die_rule", "draw_rule", "beaver", "autodouble")
OUTCOMES = ("oin", "mars", "koks", "home_mars")     # kinds of a win, in scoring order
CUBE_FIELDS = ("cube", "beaver", "autodouble")       # the cube's fields (section 7a)
# The fields that change which moves are legal, so a game under one setting of them
# reaches positions the other settings never reach or forbid.  The scoring, the draw
# rule and the opening roll change what a move is worth, not which moves there are.
PLAY_FIELDS = ("head_rule", "block_rule", "block_transient", "larger_die_rule")


def check_flag(value: object, name: str) -> bool:
    """``value`` as a ``bool`` when it is ``True`` or ``False`` (numpy's too), else a
    ``TypeError`` naming ``name``: ``"exact='no': expected True or False"`` (a truthy text
    or number would otherwise switch a flag on).  The check of the rules' flags and of the
    API's flag arguments."""
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name}={value!r}: expected True or False")
    return bool(value)


def is_number(value: object) -> bool:
    """Whether ``value`` is a real number, Python's or numpy's, and not a bool (``True``
    is no count of points): the test of the rules' points and of a match score."""
    return not isinstance(value, (bool, np.bool_)) and isinstance(
        value, (int, float, np.integer, np.floating))


@dataclass(frozen=True)
class Rules:
    """Rule variants (see the rule book, sections 3-8).

    Parameters
    ----------
    head_rule : {"classic", "generalized"}
        First-turn head exception: ``"classic"`` lets two checkers leave the head only for
        6-6, 4-4, 3-3 when the single checker is stopped by the opponent's head;
        ``"generalized"`` whenever one head checker cannot use the whole roll.
    block_rule : {"ahead", "home", "none"}
        When a six-point block is allowed: an opponent checker ahead of it, an opponent
        checker in its home (or off), or always.
    block_transient : bool
        ``False``: no intermediate position of a turn may hold a forbidden block.
        ``True``: only the position at the end of the turn is checked.
    larger_die_rule : bool
        If only one die of a non-double can be played, the larger must be played.
    scoring : {"classic", "extended"}
        Points per outcome: classic oin 1, mars 2; extended adds koks and home mars.
    draw_rule : bool
        Black gets a last turn after White finishes, and a draw if Black finishes in it.
    opening_roll : {"rethrow", "opening_dice"}
        Whether White's first turn may be a double (games simulated from the start, and
        the start's value searched one ply or more).
    oin_points, mars_points, koks_points, home_mars_points : float
        Points of each outcome; koks and home mars count only with ``scoring="extended"``.
        ``oin_points > 0``, and each of the others at least ``oin_points``.
    cube : {None, "geometric", "arithmetic"}
        Play with the cube (section 7a): ``None`` (no cube), stakes 1, 2, 4, 8, ... or
        1, 2, 3, 4, ...  With a cube every game is won or lost at the stake: no mars, no
        oin points (see ``nardy_fast.engine.decisions.cube``).
    beaver : bool
        With a cube: the side offered a raise may take and at once raise again, keeping
        the cube.
    autodouble : bool
        With a cube: each tie of the opening throw raises the stake once before play, the
        cube staying in the middle (games simulated from the start only).

    Examples
    --------
    >>> from nardy_fast import CLASSIC, Rules
    >>> r = Rules(cube="geometric")
    >>> r.head_rule, r.cube, r == CLASSIC, Rules() == CLASSIC
    ('classic', 'geometric', False, True)
    """

    head_rule: str = "classic"
    block_rule: str = "ahead"
    block_transient: bool = False
    larger_die_rule: bool = True
    scoring: str = "classic"
    draw_rule: bool = False
    opening_roll: str = "rethrow"
    oin_points: float = 1.0
    mars_points: float = 2.0
    koks_points: float = 3.0
    home_mars_points: float = 4.0
    cube: str | None = None
    beaver: bool = False
    autodouble: bool = False

    def __post_init__(self):
        for name, allowed in CHOICES.items():
            value = getattr(self, name)
            if value not in allowed:
                raise ValueError(
                    f"{name}={value!r}: expected one of " + ", ".join(repr(a) for a in allowed))
        for name in FLAGS:
            value = getattr(self, name)
            if value is not True and value is not False:     # np.bool_ kept as bool
                object.__setattr__(self, name, check_flag(value, name))
        for name in ("beaver", "autodouble"):
            if getattr(self, name) and self.cube is None:
                raise ValueError(f"{name}=True: needs a cube (cube='geometric' or "
                                 f"'arithmetic'), got cube=None")
        for name in ("oin_points", "mars_points", "koks_points", "home_mars_points"):
            value = getattr(self, name)
            if not is_number(value):
                raise TypeError(f"{name}={value!r}: expected a number")
            if not math.isfinite(value):
                raise ValueError(f"{name}={value!r}: expected a finite number")
            object.__setattr__(self, name, float(value))
        if not self.oin_points > 0:
            raise ValueError(f"oin_points={self.oin_points:g}: expected a number > 0 (the "
                             "points of the plainest win)")
        for name in ("mars_points", "koks_points", "home_mars_points"):
            if getattr(self, name) < self.oin_points:
                raise ValueError(f"{name}={getattr(self, name):g}: expected at least "
                                 f"oin_points={self.oin_points:g} (a {name[:-7]} is worth "
                                 "at least an oin)")

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Rules:
        """Rules from a mapping such as the ``rules`` field of a test vector.

        Unknown keys raise ``ValueError`` naming them; anything but a mapping is a
        ``TypeError``.
        """
        if not isinstance(d, Mapping):
            raise TypeError(f"rules: expected a mapping of rule fields to values, got "
                            f"{type(d).__name__}")
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(d) - known)
        if unknown:
            raise ValueError(f"unknown rule field(s) {unknown}: expected some of {sorted(known)}")
        return cls(**dict(d))

    def to_dict(self) -> dict[str, Any]:
        """All fields as a plain dict (round-trips through ``from_dict``)."""
        return {f.name: getattr(self, f.name) for f in fields(self)}

    def to_text(self) -> str:
        """``"classic"``, or the fields that differ from it as ``name=value`` words
        (``"head_rule=generalized draw_rule=true"``); ``Rules.from_text`` reads it back."""
        base = CLASSIC.to_dict()
        diff = {k: v for k, v in self.to_dict().items() if v != base[k]}
        if not diff:
            return "classic"

        def fmt(v):
            if isinstance(v, bool):
                return "true" if v else "false"
            if isinstance(v, float) and v.is_integer():
                return str(int(v))
            return str(v)

        return " ".join(f"{k}={fmt(v)}" for k, v in diff.items())

    @classmethod
    def from_text(cls, text: str) -> Rules:
        """Rules from ``to_text`` output (commas allowed between words); ValueError or
        TypeError naming the bad item (``"rules item 'x': ..."``) or the text, TypeError
        for anything but a ``str``.  A value is read as its field takes it: ``true`` or
        ``false`` for a flag, a number for the points, ``none`` for no cube, else the
        word as written (``draw_rule=1`` is refused as ``'1'``, not as ``1.0``)."""
        if not isinstance(text, str):
            raise TypeError(f"rules text: expected str, got {type(text).__name__}")
        text = text.strip()
        if text in ("", "classic"):
            return CLASSIC
        d = {}
        for item in text.replace(",", " ").split():
            if "=" not in item:
                raise ValueError(f"rules item {item!r}: expected name=value")
            k, v = item.split("=", 1)
            if k in d:
                raise ValueError(f"rules item {item!r}: {k} is given twice")
            if v.lower() in ("true", "false"):
                d[k] = v.lower() == "true"
            elif k == "cube" and v.lower() == "none":
                d[k] = None
            elif k.endswith("_points"):
                try:
                    d[k] = float(v)
                except ValueError:
                    d[k] = v
            else:
                d[k] = v
        try:
            return cls.from_dict(d)
        except (ValueError, TypeError) as e:
            raise type(e)(f"rules {text!r}: {e}") from None

    def codes(self) -> dict[str, int | float]:
        """The fields as numbers for the C struct ``rules_t`` (``_rules.pxd``): a choice as
        its position in ``CHOICES``, a flag as 0 / 1, and the points of each outcome as
        scored (``pts_oin``, ``pts_mars``, ``pts_koks``, ``pts_home_mars``)."""
        d = {name: allowed.index(getattr(self, name)) for name, allowed in CHOICES.items()}
        d.update({name: int(getattr(self, name)) for name in FLAGS})
        d.update({f"pts_{kind}": self.points(kind) for kind in OUTCOMES})
        return d

    def points(self, outcome: str) -> float:
        """Points won for ``outcome`` in {"oin", "mars", "koks", "home_mars"} under ``scoring``,
        per unit of the stake.  With a cube every kind of win scores the stake (rule book
        7a: no mars, no oin points), so every kind is worth 1: the equities, the moves
        and the games of cube rules count a win once."""
        if outcome not in OUTCOMES:
            raise ValueError(f"outcome={outcome!r}: expected 'oin', 'mars', 'koks' or 'home_mars'")
        if self.cube is not None:
            return 1.0
        if outcome == "oin":
            return self.oin_points
        if self.scoring == "classic" or outcome == "mars":
            return self.mars_points
        return self.koks_points if outcome == "koks" else self.home_mars_points


    def cubeless(self) -> Rules:
        """These rules without the cube, scoring every kind of win as a cube game does
        (1, the stake: rule book 7a); the rules themselves when they have no cube.  The
        rules of a cube game's cubeless values (its moves, its luck, the cube model's
        probabilities): without the cube's fields, a mars would score its points again.

        Examples
        --------
        >>> r = Rules(cube="geometric").cubeless()
        >>> r.cube, r.points("mars"), Rules().cubeless() == Rules()
        (None, 1.0, True)
        """
        if self.cube is None:
            return self
        return replace(self, cube=None, beaver=False, autodouble=False, oin_points=1.0,
                       mars_points=1.0, koks_points=1.0, home_mars_points=1.0)


CLASSIC = Rules()

# What the API accepts as rules (``as_rules`` reads each form): for annotations.
RulesLike: TypeAlias = "Rules | str | dict[str, Any] | None"


def as_rules(rules: RulesLike) -> Rules:
    """``None`` -> ``CLASSIC``; a ``Rules`` as is; a mapping via ``Rules.from_dict``; text
    (``"classic"``, ``"draw_rule=true scoring=extended"``) via ``Rules.from_text``."""
    if rules is None:
        return CLASSIC
    if isinstance(rules, Rules):
        return rules
    if isinstance(rules, dict):
        return Rules.from_dict(rules)
    if isinstance(rules, str):
        return CLASSIC if rules == "classic" else Rules.from_text(rules)
    raise TypeError(f"rules: expected a Rules object, its text or a dict, got "
                    f"{type(rules).__name__}")
