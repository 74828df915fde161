"""The luck of the rolls of a game, as the rollouts' variance reduction measures it.

The luck of a roll ``r`` for the side on roll in a position ``S`` (before the roll) is
``E(S, r) - sum_r' p(r') E(S, r')``: the evaluator's equity (points, the roller's view,
0-ply, exact race values where the bear-off tables cover a race) after the roller's best
move for ``r`` (moves judged at 0-ply) minus its mean over the 21 rolls (``p = 1/36``
doubles, ``2/36`` others).  It is the definition of ``nardy_fast.engine.play._luck``, which the
rollouts subtract; its mean over the rolls is zero by construction.  A forced pass is
still a roll: its luck is the equity of the position with no move minus the mean.
White's first roll from the start under ``opening_roll="opening_dice"`` is one of the 15
non-doubles (rule book section 8), so its mean is over those (``p = 1/15`` each) and a
double there is refused.

``game_luck(record)`` gives each turn's luck (the mover's view) and White's running luck;
``analysis.report.game_report(..., analyse=True)`` adds them as columns, with the luck total per player
and the luck-adjusted result of the game (``luck_summary``).
"""
from __future__ import annotations


import numpy as np

from nardy_fast.core.rules import as_rules
from nardy_fast.core._checks import check_dice
from nardy_fast.core._state import roll_weights
from nardy_fast.engine.evaluation.evaluator import Evaluator
from nardy_fast.core._dice import ROLLS, WEIGHTS   # the 21 rolls and their probabilities
from nardy_fast.core.position import WHITE, as_position

__all__ = ["roll_luck", "roll_values", "game_luck", "luck_summary", "ROLLS", "WEIGHTS",
           "LUCK_PLIES"]


def _evaluator(evaluator, rules):
    if evaluator is None:
        return Evaluator.default(rules)
    if not isinstance(evaluator, Evaluator):
        raise TypeError(f"evaluator: expected an Evaluator or None, got "
                        f"{type(evaluator).__name__}")
    return evaluator if rules is None else evaluator.with_rules(rules)


# the plies a roll's luck is valued at: the roller's best move at this depth, valued by
# the net (the bear-off tables where they apply), whatever the plies of an analysis
LUCK_PLIES = 0


def roll_values(position, evaluator=None, rules=None):
    """Per-roll equities ``(21,)`` (points, the side on roll's view) after its best 0-ply
    move for each roll of ``ROLLS``, and the per-roll net outputs ``(21, 7)``.

    Under ``draw_rule`` a roll that lets White bear off its last checker is valued as
    ``Evaluator.hint`` values it: exactly, Black's last turn and its draws included (the
    colour-blind search counts it a win)."""
    pos = as_position(position)
    ev = _evaluator(evaluator, rules)
    if pos.is_over():
        raise ValueError(f"position {pos.id}: the game is over; no roll to judge")
    s = ev.searcher()
    vals = s.roll_values(pos.mover, pos.opponent, LUCK_PLIES)
    eqs = s.equities(vals)
    if ev.rules.draw_rule and pos.side == WHITE and not pos.mover[:18].any():
        vals = vals.astype(np.float64)
        for j, dice in enumerate(ROLLS):     # White home: a roll may end with Black's turn
            if any(not any(m.board) for m in pos.legal_moves(dice, ev.rules)):
                _, v, _, e, _, _ = ev._rank(pos, *dice, LUCK_PLIES)
                vals[j], eqs[j] = v[0], e[0]
    return eqs, vals


def _weights(position, rules):
    """The probabilities of ``ROLLS`` for the side on roll in ``position``: ``WEIGHTS``,
    but for White's first roll from the start under ``opening_roll="opening_dice"``, one
    of the 15 non-doubles (1/15 each)."""
    if position.side != WHITE:
        return WEIGHTS
    return roll_weights(position.mover, position.opponent, rules)


def roll_luck(position, dice, evaluator=None, rules=None):
    """The luck (points, the side on roll's view) of ``dice`` (two dice, either order) in
    ``position`` for the side on roll (module docstring).  A double as White's first roll
    from the start under ``opening_roll="opening_dice"`` is a ``ValueError``."""
    d1, d2 = check_dice(dice)
    pos = as_position(position)
    ev = _evaluator(evaluator, rules)
    eq, _ = roll_values(pos, ev)
    weights = _weights(pos, ev.rules)
    j = ROLLS.index((min(d1, d2), max(d1, d2)))
    if weights[j] == 0:
        raise ValueError(f"dice={dice!r}: with opening_roll='opening_dice' White's first "
                         "roll from the start cannot be a double")
    return float(eq[j] - weights @ eq)


def game_luck(record, evaluator=None):
    """Per turn of a ``GameRecord``: the mover's luck and White's running net luck.

    Returns a list of ``len(record.turns)`` dicts ``{"luck": points (the mover's view),
    "luck_white": White's luck minus Black's so far, White's view}``; the turns of
    ``positions()`` order (a turn whose position is over, Black's last turn under
    ``draw_rule``, gets NaN and adds nothing).  With a cube a roll's luck is in points at
    the stake its dice were thrown for (``GameRecord.cube_states``): the cubeless luck of
    ``Rules.cubeless`` (per unit stake) times the stake, the unit of the game's result.
    """
    rules = as_rules(record.rules)
    stakes = []
    if rules.cube is not None:
        rules = rules.cubeless()
        stakes = [c.stake for c in record.cube_states()]
    ev = _evaluator(evaluator, rules)
    positions = record.positions()
    out, total = [], 0.0
    for k, turn in enumerate(record.turns):
        pos = positions[k] if k < len(positions) else None
        if pos is None or pos.is_over():
            out.append({"luck": float("nan"), "luck_white": total})
            continue
        luck = roll_luck(pos, turn.dice, ev) * (stakes[k] if k < len(stakes) else 1)
        total += luck if pos.side == WHITE else -luck
        out.append({"luck": luck, "luck_white": total})
    return out


def luck_summary(report):
    """Per player of a ``game_report(..., analyse=True)``: luck total and the game's
    luck-adjusted result.

    Returns a DataFrame indexed by ``side`` (``"white"``, ``"black"``): ``player``,
    ``rolls`` (rolls judged), ``luck`` (the sum of its rolls' luck, points, its view),
    ``net_luck`` (its luck minus the other's), ``result`` (points it won in the game, its
    view; NaN if the game is not over) and ``adjusted_result`` (``result - net_luck``).
    """
    import pandas as pd          # lazy: pandas is slow to import; import nardy_fast skips it
    if "luck" not in report.columns:
        raise ValueError("report: no luck column; use game_report(..., analyse=True)")
    rows = {}
    result_white = float(report["result_white"].iloc[-1]) if "result_white" in report \
        else float("nan")
    for side in ("white", "black"):
        mine = report[(report["side"] == side) & report["luck"].notna()]
        rows[side] = {"player": mine["player"].iloc[0] if len(mine) else "",
                      "rolls": int(len(mine)), "luck": float(mine["luck"].sum())}
    for side, other, sign in (("white", "black", 1.0), ("black", "white", -1.0)):
        net = rows[side]["luck"] - rows[other]["luck"]
        rows[side].update(net_luck=net, result=sign * result_white,
                          adjusted_result=sign * result_white - net)
    return pd.DataFrame.from_dict(rows, orient="index").rename_axis("side")
