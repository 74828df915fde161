# C-level API of game scoring (rule book section 7): the one definition of how a finished
# game scores, used by the C game loop (_rollout.pyx) and the record replay (record.py).
from libc.stdint cimport uint8_t

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
