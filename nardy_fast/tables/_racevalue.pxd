# C-level API of the race value: which table values a race position, and its probabilities.
# The one decision (race_table_kind) shared by the search's leaves (engine/evaluation/
# _search.pyx), the rollouts' truncation (engine/play/_rollout.pyx) and, through the wrapper
# _racevalue.table_kind, the Python racevalue.race_table_value, which gives the Outcome.
#
# A race of both homes (every checker of both sides on its points 19-24) is valued by the
# bear-off tables (race_probs: the mars, two-sided or one-sided table that covers it); any
# other race without contact by the race12 database when it covers the position; else no
# table values it (the net does).
from libc.stdint cimport uint8_t

from nardy_fast.core._board cimport in_bearoff, to_board6
from nardy_fast.tables._racetables cimport race_tables_t, race_probs, RACE_NONE, RACE_ONE_SIDED
from nardy_fast.tables._race12 cimport race12_t, race12_outcome, race12_covers, race12_board, R12_POINTS

cdef enum:
    RV_NONE = 0              # race_table_value: no table values the position
    RV_HOMES = 1             # a race of both homes, by the bear-off tables (race_probs)
    RV_RACE12 = 2            # a race without contact, by the race12 database

    # out[] of race_table_value: probabilities, the view of the side on roll
    RV_WIN = 0
    RV_MARS_WIN = 1          # a mars of any kind
    RV_MARS_LOSS = 2
    RV_DRAW = 3              # draw_rule's last turn only
    RV_HOME_MARS_WIN = 4
    RV_HOME_MARS_LOSS = 5
    RV_EXACT = 6             # 1: an exact table (two-sided, mars); 0: an approximation
                             # (the one-sided convolution, race12)
    RV_OUT = 7               # length of out

# Which table values (me on roll, opp) (24-point boards, each in its own numbering, neither
# side finished) and its probabilities into out[RV_OUT] (RV_* above, me's view): RV_HOMES
# from `races` for a race of both homes (every mars of such a race is a home mars), else
# RV_RACE12 from `race12` when it covers the race, else RV_NONE (out unset);
# out[RV_EXACT] says whether an exact table gave the values.  races or
# race12 NULL: that table is not used.  draw_rule and me_first (me moved first in the
# game) model Black's last turn (0, 0: none).  A race of both homes that races cannot value
# (RACE_NONE) is RV_NONE, whether or not race12 covers it.
# Which table values (me on roll, opp): RV_HOMES (a race of both homes, when races are
# given), RV_RACE12 (race12 covers it) or RV_NONE; the decision only, no value.
cdef inline int race_table_kind(bint races, const race12_t* race12, const uint8_t* me,
                                const uint8_t* opp) noexcept nogil:
    if races and in_bearoff(me, opp):
        return RV_HOMES
    if race12 != NULL and race12_covers(race12, me, opp):
        return RV_RACE12
    return RV_NONE


cdef inline int race_table_value(const race_tables_t* races, const race12_t* race12,
                           const uint8_t* me, const uint8_t* opp, int draw_rule, int me_first,
                           double* out) noexcept nogil:
    cdef uint8_t x[R12_POINTS]
    cdef uint8_t y[R12_POINTS]
    cdef int table, kind = race_table_kind(races != NULL, race12, me, opp)
    if kind == RV_HOMES:
        to_board6(me, x)
        to_board6(opp, y)
        table = race_probs(races, x, y, draw_rule, me_first, out)
        if table == RACE_NONE:
            return RV_NONE
        out[RV_EXACT] = 0.0 if table == RACE_ONE_SIDED else 1.0
        out[RV_HOME_MARS_WIN] = out[RV_MARS_WIN]
        out[RV_HOME_MARS_LOSS] = out[RV_MARS_LOSS]
        return RV_HOMES
    if kind == RV_RACE12:
        race12_board(me, x)
        race12_board(opp, y)
        race12_outcome(race12, x, y, draw_rule, me_first, out)
        out[RV_EXACT] = 0.0
        return RV_RACE12
    return RV_NONE
