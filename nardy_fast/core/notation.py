"""The move notation of records and the terminal: ``"1/7 7/12"``, ``"19/off(2)"``,
``"pass"``.  ``parse_steps`` reads it into ``(from, to)`` steps (each side's own point
numbers 1-24, ``"off"`` for bearing off); ``apply_steps`` plays them on a board with given
dice, one step at a time.  ``record`` (game records) and ``Position.play`` (a move given
as text) both read moves through here.
"""
from __future__ import annotations

import re

import numpy as np

__all__ = ["parse_steps", "apply_steps"]

_STEP = re.compile(r"^(\d+)((?:/(?:\d+|off))+)(?:\((\d)\))?$", re.IGNORECASE)


def parse_steps(text):
    """``"1/7 7/11"``, ``"1/7/11"``, ``"19/off(2)"`` -> a tuple of ``(from, to)`` steps.

    ``"pass"`` or ``""`` -> ``()``.  ``ValueError`` names a malformed token.
    """
    out = []
    for tok in text.split():
        if tok.lower() == "pass":
            continue
        out.extend(_parse_step_token(tok))
    return tuple(out)


def _parse_step_token(tok):
    m = _STEP.match(tok)
    if not m:
        raise ValueError(f"step {tok!r}: expected from/to such as 1/7, 20/off, 1/7/11 or 1/7(2)")
    pts = [int(m.group(1))] + [p.lower() if p.lower() == "off" else int(p)
                               for p in m.group(2).split("/")[1:]]
    if "off" in pts[:-1]:
        raise ValueError(f"step {tok!r}: 'off' can only be the last point")
    for p in pts:
        if p != "off" and not 1 <= p <= 24:
            raise ValueError(f"step {tok!r}: point {p} is outside 1..24")
    chain = [(pts[k], pts[k + 1]) for k in range(len(pts) - 1)]
    reps = int(m.group(3)) if m.group(3) else 1
    if not 1 <= reps <= 4:
        raise ValueError(f"step {tok!r}: repeat count must be 1..4")
    return chain * reps


def apply_steps(mover, opponent, dice, steps):
    """The mover's board after playing ``steps`` (``(from, to)`` pairs, own numbering,
    ``to = "off"`` to bear off) with ``dice``, checked one step at a time (each step uses a
    remaining die and lands on a point the opponent does not hold); ValueError with the
    reason.  Whether the whole turn is legal (head, block, dice-usage rules) is for
    ``successors`` to say."""
    b = np.array(mover, dtype=np.int64)
    opp_at = np.roll(np.asarray(opponent) > 0, 12)     # mover idx held by the opponent
    left = [dice[0]] * 4 if dice[0] == dice[1] else [dice[0], dice[1]]
    for a, t in steps:
        step = f"{a}/{t}"
        if not 1 <= a <= 24:
            raise ValueError(f"step {step}: point {a} is outside 1..24")
        if b[a - 1] == 0:
            raise ValueError(f"step {step}: no checker of the mover on point {a}")
        if t == "off":
            if b[:18].any():
                raise ValueError(f"step {step}: cannot bear off while checkers are outside "
                                 "the home (points 19-24)")
            need = 25 - a
            if need in left:
                die = need
            else:
                bigger = sorted(d for d in left if d > need)
                if not bigger:
                    raise ValueError(f"step {step}: needs a die of at least {need}, dice left "
                                     f"{sorted(left) or 'none'}")
                die = bigger[0]
            b[a - 1] -= 1
        else:
            if not 1 <= t <= 24:
                raise ValueError(f"step {step}: point {t} is outside 1..24")
            die = t - a
            if die not in left:
                raise ValueError(f"step {step}: moves {die} pips, dice left "
                                 f"{sorted(left) or 'none'}")
            if opp_at[t - 1]:
                raise ValueError(f"step {step}: point {t} is held by the opponent")
            b[a - 1] -= 1
            b[t - 1] += 1
        left.remove(die)
    return b.astype(np.uint8)
