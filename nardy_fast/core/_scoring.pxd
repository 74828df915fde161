# C-level API of game scoring (rule book section 7): the one definition of how a finished
# game scores, used by the C game loop (_rollout.pyx) and the record replay (record.py).
from libc.stdint cimport uint8_t

from nardy_fast.core._board cimport N_POINTS, N_CHECKERS
from nardy_fast.core._rules cimport rules_t, fill_rules

cdef enum:
    WIN_OIN = 0              # kinds of a win, in the order of rules.OUTCOMES
    WIN_MARS = 1
    WIN_KOKS = 2
    WIN_HOME_MARS = 3

# Kind (WIN_*) of the win over a loser whose board (24 counts, its own numbering) is
# `loser`, the winner having borne off its last checker: an oin when the loser has any
# checker off, else a koks when a checker is still on its points 1-6, a home mars when all
# 15 are in its home, a mars otherwise.  *points receives the points under rules.
cdef int score_game(const uint8_t* loser, const rules_t* rules, double* points) noexcept nogil

# Nonzero when the game is not over yet although the winner has borne off its last checker:
# under draw_rule the side that moved first in the game (White) finishing first gives the
# other (Black) a last turn, and a draw if Black then finishes too.
cdef inline bint last_turn_due(const rules_t* rules, bint winner_moved_first) noexcept nogil:
    return rules.draw_rule != 0 and winner_moved_first

cdef enum:
    RULED_OUT_NONE = 0       # what a loser's board rules out of its loss's kinds
    RULED_OUT_KOKS = 1       # the koks: no checker on its points 1-6 (checkers only move on)
    RULED_OUT_MARS = 2       # mars, koks and home mars: it has borne off a checker

# The kinds of a loss of `loser` (24 counts, its own numbering) that its board rules out
# for every game from it (RULED_OUT_*): the one definition, used by the net's outputs in C
# (_net.net_clip_board) and by the projections in Python (result.ruled_out, through
# _scoring.ruled_out_kinds).  Inline: the search calls it at every leaf.
cdef inline int loss_kinds_ruled_out(const uint8_t* loser) noexcept nogil:
    cdef int i, on = 0, first_q = 0
    for i in range(N_POINTS):
        on += loser[i]
        if i < 6:
            first_q += loser[i]
    if on < N_CHECKERS:
        return RULED_OUT_MARS
    return RULED_OUT_KOKS if first_q == 0 else RULED_OUT_NONE
