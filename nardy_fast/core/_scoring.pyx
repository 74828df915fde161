"""Game scoring (rule book section 7), in C (see ``_scoring.pxd``), with Python wrappers.

``score_game`` is the only definition of oin / mars / koks / home mars: the rollout's game
loop calls it in C, ``finish.game_result`` through the wrapper below.  Likewise
``loss_kinds_ruled_out`` (in ``_scoring.pxd``) is the only definition of the kinds a
board rules out: the net's outputs use it in C, ``result.ruled_out`` through
``ruled_out_kinds``.
"""
from libc.stdint cimport uint8_t

from nardy_fast.core._board cimport N_POINTS, N_CHECKERS, HOME_IDX
from nardy_fast.core._checks import as_board
from nardy_fast.core.rules import OUTCOMES

__all__ = ["score_loss", "gives_last_turn", "ruled_out_kinds"]


cdef int score_game(const uint8_t* loser, const rules_t* rules, double* points) noexcept nogil:
    cdef int i, first_q = 0, home = 0, on = 0
    for i in range(N_POINTS):
        on += loser[i]
        if i < 6:
            first_q += loser[i]
        if i >= HOME_IDX:
            home += loser[i]
    if on < N_CHECKERS:
        points[0] = rules.pts_oin
        return WIN_OIN
    if first_q:
        points[0] = rules.pts_koks
        return WIN_KOKS
    if home == N_CHECKERS:
        points[0] = rules.pts_home_mars
        return WIN_HOME_MARS
    points[0] = rules.pts_mars
    return WIN_MARS


def score_loss(loser, rules=None):
    """``(kind, points)`` of a win over ``loser`` (24 counts, the loser's own numbering):
    kind is one of ``rules.OUTCOMES`` ("oin", "mars", "koks", "home_mars")."""
    cdef const uint8_t[::1] b = as_board(loser, "loser")
    cdef rules_t r
    cdef double pts
    fill_rules(rules, &r)
    kind = score_game(&b[0], &r, &pts)
    return OUTCOMES[kind], pts


def gives_last_turn(rules, bint winner_moved_first):
    """True when the winner finishing gives the other side a last turn (``draw_rule`` and
    the winner moved first in the game: White)."""
    cdef rules_t r
    fill_rules(rules, &r)
    return bool(last_turn_due(&r, winner_moved_first))


def ruled_out_kinds(loser):
    """The kinds of ``rules.OUTCOMES`` that a loss of ``loser`` (24 counts, the loser's
    own numbering) can no longer be, whatever is played: ``("mars", "koks",
    "home_mars")`` once it has borne off a checker, ``("koks",)`` when it has none on its
    points 1-6, else ``()`` (checkers only move forward; rule book, section 7)."""
    cdef const uint8_t[::1] b = as_board(loser, "loser")
    cdef int ruled = loss_kinds_ruled_out(&b[0])
    if ruled == RULED_OUT_MARS:
        return ("mars", "koks", "home_mars")
    return ("koks",) if ruled == RULED_OUT_KOKS else ()
