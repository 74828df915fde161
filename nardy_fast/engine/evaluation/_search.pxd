# C-level API of the n-ply search (see _search.pyx): values from the side on roll's view,
# moves compared by equity under points_t, ties to the lexicographically smallest board.
from libc.stdint cimport uint8_t

from nardy_fast.engine.evaluation._net cimport Net, net_t
from nardy_fast.tables._racetables cimport race_tables_t, RaceTables
from nardy_fast.core._rules cimport rules_t
from nardy_fast.core._dice cimport N_ROLLS
from nardy_fast.tables._race12 cimport race12_t

ctypedef struct search_t:
    const net_t* net
    rules_t rules                # move rules, and the points moves are judged by
    const race_tables_t* races   # values of races of both homes, or NULL (the net's)
    const race12_t* race12       # values of races without contact (race12.py), or NULL
    int keep                     # moves searched deeper after a 0-ply ranking (0: all)

# Outputs (winner's view) of a game just won against the loser's board (24 points).
cdef void win_values(const uint8_t* loser, const rules_t* rules, float* v) noexcept nogil

# 0-ply value of (me on roll, opp), me's view: the race tables for a race of both homes,
# the race12 database for a race without contact it covers (when attached; draw_rule's
# last turn is not modelled), else the net, clipped.
cdef void leaf(const search_t* s, const uint8_t* me, const uint8_t* opp,
               float* out) noexcept nogil

# Value of (me on roll, opp) at `plies` into out[NET_OUTPUTS]; 0, or ERR_NOMEM / ERR_OVERFLOW
# (core/_gameend.pxd: no memory / successor buffer overflow).
cdef int value(const search_t* s, const uint8_t* me, const uint8_t* opp, int plies,
               float* out) noexcept nogil

# Index of me's best result among cands[24 k..] (k < n, the legal results of one roll),
# each judged by its value at `plies` (the move filter applies); ERR_NOMEM / ERR_OVERFLOW on error.  If out
# is not NULL it receives me's value after that move (me's view).
cdef Py_ssize_t choose(const search_t* s, const uint8_t* me, const uint8_t* opp,
                       const uint8_t* cands, Py_ssize_t n, int plies, float* out) noexcept nogil

# value() that also writes, if rolls is not NULL and plies >= 1, the 21 per-roll values
# (me's value after its best move for each roll, moves judged at plies - 1; roll order of
# N_ROLLS) to rolls[N_ROLLS * NET_OUTPUTS]: out is their mean (1/36 doubles, 2/36 others).
# With plies = 0, rolls[0] = -1 (none).
cdef int value_rolls(const search_t* s, const uint8_t* me, const uint8_t* opp, int plies,
                     float* out, float* rolls) noexcept nogil

# choose() that also writes to rolls (if not NULL) the per-roll values (the other side's
# view) of value_rolls for the chosen move's position, the look-ahead its choice computed,
# or rolls[0] = -1 when there is none (plies = 0, or the move wins); with window > 0 the
# move filter searches at most keep moves and only those within `window` points of the
# best 0-ply equity (this level only: deeper levels keep `keep`).
cdef Py_ssize_t choose_rolls(const search_t* s, const uint8_t* me, const uint8_t* opp,
                             const uint8_t* cands, Py_ssize_t n, int plies, float* out,
                             float* rolls, double window) noexcept nogil

# Search settings of a Net under rules, with race tables or none (the Python wrapper).
cdef class Searcher:
    cdef Net net
    cdef object rules
    cdef object tables           # the RaceTables s.races points into, or None
    cdef object race12_tables    # the Race12Tables s.race12 points into, or None
    cdef int threads             # threads of values at 2 plies or more
    cdef search_t s
