# C-level API of a game's end, the one definition shared by the C game loops
# (engine/play/_rollout.pyx, engine/play/_match.pyx, training/_selfplay.pyx): when a game is over, its
# length cap, Black's last turn under draw_rule and the score; and the error codes of those
# loops and of the n-ply search (engine/evaluation/_search.pyx).
#
# A loop plays a turn, counts the ply and asks after_turn; once the winner has borne off its
# last checker, the loser plays a last turn if last_turn_due says so, and game_end scores
# the game (a draw, or the kind of the win and its points).
from libc.stdint cimport uint8_t

from nardy_fast.core._board cimport checkers_on
from nardy_fast.core._rules cimport rules_t
from nardy_fast.core._scoring cimport score_game, last_turn_due

cdef enum:
    # Error codes of the C game loops and of the search (all negative; 0 is success).
    ERR_NOMEM = -1           # out of memory
    ERR_OVERFLOW = -2        # a successor buffer overflowed (the search's fixed buffer)
    ERR_LONG_GAME = -3       # a game reached its length cap: stuck
    ERR_PYTHON = -4          # a Python callable raised (the loop keeps its exception)

    # The length cap (plies) of a game of a rollout or a match: a game this long is stuck
    # (both sides unable to move, in a hand-made position), an error.
    MAX_GAME_PLIES = 100000
    # Self-play's default cap, smaller because it is also the length (plies) of the
    # per-game record buffer that play_games allocates; games from the start never come
    # near it, and play_games takes another cap as its max_plies.
    MAX_SELFPLAY_PLIES = 4000

    GAME_ON = 0              # after_turn: the game goes on
    GAME_OVER = 1            # after_turn: the mover has borne off its last checker

    END_DRAW = 4             # game_end: a draw (beside the kinds of a win, WIN_* 0 .. 3)

# After a turn, `plies` counting every ply played so far (this one included): GAME_OVER when
# the mover has borne off its last checker, else ERR_LONG_GAME when the game has reached
# MAX_GAME_PLIES plies, else GAME_ON.
cdef inline int after_turn(const uint8_t* mover, Py_ssize_t plies) noexcept nogil:
    if checkers_on(mover) == 0:
        return GAME_OVER
    if plies >= MAX_GAME_PLIES:
        return ERR_LONG_GAME
    return GAME_ON

# The end of a game whose winner has borne off its last checker first.  `loser` is the
# loser's board (24 counts, its own numbering), after its last turn when one was played
# (last_turn: last_turn_due was true).  Returns END_DRAW (*points = 0) when that last turn
# bore off the loser's last checker too, else the kind of the win (WIN_*, score_game) with
# *points the winner's points under rules.
cdef inline int game_end(const uint8_t* loser, const rules_t* rules, bint last_turn,
                         double* points) noexcept nogil:
    if last_turn and checkers_on(loser) == 0:
        points[0] = 0.0
        return END_DRAW
    return score_game(loser, rules, points)
