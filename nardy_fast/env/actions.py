"""The step actions of the environments: ``a = 6 * from_idx + (die - 1)``.

``from_idx`` is the 0-based point in the mover's own numbering (0 is the head, 23 its
point 24); a step from ``from_idx`` by ``die`` past the last point bears the checker off.
So there are ``6 * 24 = 144`` actions.  ``turns_by_steps`` lists the whole turns a roll
allows as the step mask reaches them (the environments' tests compare it with
``Position.legal_moves``).
"""
from __future__ import annotations

from nardy_fast.core._checks import check_int
from nardy_fast.core.position import as_position
from nardy_fast.env._vecenv import N_ACTIONS, VectorEnv

__all__ = ["action_of", "step_of", "turns_by_steps"]


def action_of(from_idx: int, die: int) -> int:
    """The action of the step of the checker on ``from_idx`` (0..23, the mover's
    numbering) by ``die`` (1..6): ``6 * from_idx + die - 1``.

    Examples
    --------
    >>> action_of(0, 6), action_of(23, 1)
    (5, 138)
    """
    check_int(from_idx, 0, 23, "from_idx")
    check_int(die, 1, 6, "die")
    return 6 * int(from_idx) + int(die) - 1


def step_of(action: int) -> tuple[int, int]:
    """``(from_idx, die)`` of a step action (0..143), the inverse of ``action_of``.

    Examples
    --------
    >>> step_of(5), step_of(138)
    ((0, 6), (23, 1))
    """
    check_int(action, 0, N_ACTIONS - 1, "action")
    return int(action) // 6, int(action) % 6 + 1


def turns_by_steps(position, dice, rules=None):
    """The whole turns of ``position``'s side on roll with the roll ``dice`` that the step
    mask lets a player reach, one step at a time.

    Parameters
    ----------
    position : Position or str
        The position (or its ID).
    dice : tuple of int
        The roll ``(d1, d2)``.
    rules : Rules, dict, str or None

    Returns
    -------
    dict
        ``{board: [actions, ...]}``: each mover's board after a turn (a tuple of 24
        counts, its own numbering) and every sequence of step actions reaching it.  A roll
        with no legal step gives ``{}`` (the turn passes by itself).

    Raises
    ------
    RuntimeError
        When a step the mask offers leads to no legal turn (the mask must never).
    """
    p = as_position(position)
    env = VectorEnv(1, seed=0, rules=rules)
    env.autoreset = 0
    env.set_state(0, p, dice)
    if env.position(0) != p or env.dice(0) != tuple(int(d) for d in dice):
        return {}                       # the roll passed: the other side is on roll
    out: dict = {}
    for actions, board in env.turn_sequences(0):
        if board is None:
            raise RuntimeError(f"position {p.id}, roll {dice}: the steps {list(actions)} "
                               "offered by the mask lead to no legal turn")
        out.setdefault(board, []).append(actions)
    return out
