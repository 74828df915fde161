"""The end of a game: who won and by what (``game_result``), and the value of a finished
position for the side on roll (``final_outcome``), as the rule book scores it (section 6,
``draw_rule``'s last turn included)."""
from __future__ import annotations

import numpy as np

from nardy_fast.core._dice import COUNTS, ROLLS
from nardy_fast.core._scoring import gives_last_turn, score_loss
from nardy_fast.core.position import BLACK, WHITE, as_position
from nardy_fast.core.result import Outcome
from nardy_fast.core.rules import as_rules

__all__ = ["game_result", "final_outcome"]


def _other(side):
    return BLACK if side == WHITE else WHITE


def game_result(position, rules=None, finisher=None):
    """Outcome when a side has no checkers left on the board, else ``None``.

    ``finisher`` is the colour that just moved (default: whichever side has 15 off; the
    side not on roll if both).  Returns the dict described in ``GameRecord.result``.
    """
    rules = as_rules(rules)
    sums = position.boards.sum(axis=1)
    done = [position.side if sums[0] == 0 else None,
            _other(position.side) if sums[1] == 0 else None]
    if finisher is None:
        finisher = done[1] or done[0]
    if finisher is None or finisher not in done:
        return None
    loser_board = position.white if finisher == BLACK else position.black
    if loser_board.sum() == 0:
        return {"winner": None, "kind": "draw", "points": 0.0}
    kind, points = score_loss(loser_board, rules)
    return {"winner": finisher, "kind": kind, "points": float(points)}


def _outcome_of(kind, points, won):
    """The certain ``Outcome`` of a game won or lost by ``kind`` for ``points``."""
    mars = 0.0 if kind == "oin" else 1.0
    koks, hm = float(kind == "koks"), float(kind == "home_mars")
    if won:
        return Outcome(1.0, mars, 0.0, 0.0, points, "final", p_koks_win=koks,
                       p_home_mars_win=hm)
    return Outcome(0.0, 0.0, 1.0, mars, -points, "final", p_koks_loss=koks,
                   p_home_mars_loss=hm)


def final_outcome(position, rules=None):
    """The value of a finished game for the side on roll (``method`` ``"final"``).

    The side that just moved has borne off all 15: the side on roll has lost, scored as
    the rule book says (``score_loss``), or drawn.  Under ``draw_rule``, when White
    finished first and Black is on roll, Black's last turn is valued exactly over the 21
    rolls: a draw where it bears off its last checkers, else the loss after its best last
    move (the one scored lowest).  ``ValueError`` for a position that is not finished.
    """
    rules = as_rules(rules)
    position = as_position(position)
    if not position.is_over():
        raise ValueError("final_outcome: the game is not over")
    if not position.opponent.any() and not position.mover.any():
        return Outcome(0.0, 0.0, 0.0, 0.0, 0.0, "final", p_draw=1.0)
    if position.mover.any() and position.side == BLACK and gives_last_turn(rules, True):
        return _last_turn_outcome(position, rules)
    res = game_result(position, rules)
    if res["kind"] == "draw":
        return Outcome(0.0, 0.0, 0.0, 0.0, 0.0, "final", p_draw=1.0)
    return _outcome_of(res["kind"], res["points"], res["winner"] == position.side)


def _last_turn_outcome(position, rules):
    """Black's last turn under ``draw_rule`` (see ``final_outcome``)."""
    total = {"p_draw": 0.0, "p_lose": 0.0, "p_mars_loss": 0.0, "p_koks_loss": 0.0,
             "p_home_mars_loss": 0.0, "equity": 0.0}
    for (d1, d2), w in zip(ROLLS, COUNTS):                # w in 36ths
        boards = [np.asarray(m.board) for m in position.legal_moves((d1, d2), rules)]
        if any(b.sum() == 0 for b in boards):
            total["p_draw"] += w
            continue
        kind, pts = min((score_loss(b, rules) for b in boards), key=lambda kp: kp[1])
        o = _outcome_of(kind, float(pts), False)
        for k in ("p_lose", "p_mars_loss", "p_koks_loss", "p_home_mars_loss", "equity"):
            total[k] += w * getattr(o, k)
    total = {k: v / 36.0 for k, v in total.items()}
    return Outcome(p_win=0.0, p_mars_win=0.0, method="final (last turn)", **total)
