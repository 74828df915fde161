# C-level API of the race tables: the bear-off databases a race of both homes is looked up
# in, as one typed struct (filled and kept alive by _racetables.RaceTables), and the
# nogil lookup that picks the table covering a race.
#
# Boards are board6 (_board6.pxd).  X is the side on roll, Y the other; probabilities are
# X's, for a race where neither side has finished and every checker is home.
from libc.stdint cimport uint8_t

from nardy_fast.tables._tscomplete cimport complete_t

cdef enum:
    RACE_ONE_SIDED = 0       # race_probs: the one-sided convolution (approximate)
    RACE_TWO_SIDED = 1       # the two-sided table (exact; no mars below 15 checkers)
    RACE_MARS = 2            # the mars table (exact; one side has all 15, none off)
    RACE_NONE = -1           # no table covers the race (no one-sided tables attached)

ctypedef struct race_tables_t:
    const double* os_mean    # one-sided expected turns, (os_m,), C-contiguous, or NULL
    const double* os_turns   # (os_m, os_T): P(board needs exactly t own turns)
    Py_ssize_t os_T
    const double* os_first   # (os_m, os_T1): P(first checker off on own turn t)
    Py_ssize_t os_T1
    int os_max               # the one-sided tables cover boards of <= os_max checkers
    const double* ts_pwin    # two-sided P(on roll wins), (ts_m, ts_m), or NULL
    Py_ssize_t ts_m
    int ts_max               # ... for boards of <= ts_max (< 15) checkers
    const double* mx_x       # mars table x_on_roll (mx_nx, 2, mx_m): X (15 home, none off)
                             # on roll against Y of 1 .. mx_max checkers, or NULL
    const double* mx_y       # its y_on_roll (Y on roll), same layout
    Py_ssize_t mx_m          # Y boards: C(mx_max + 6, 6)
    Py_ssize_t mx_off        # index of X's first board: C(20, 6)
    int mx_max               # most checkers of Y
    const complete_t* cx     # the complete two-sided table (bearoff_complete), or NULL:
                             # first choice for boards of <= its max_checkers

# One-sided race estimate for the side on roll (board index a) against the opponent (index
# b), both sides playing their own one-sided policies independently:
#   turns[i * n_turns + t]        P(board i needs exactly t own turns to bear off all)
#   first_off[i * n_first + t]    P(board i bears off its first checker on own turn t)
# The side on roll wins iff it needs no more turns than the opponent (Ta <= Tb); it wins a
# mars iff also the opponent has none off after Ta - 1 turns (Fb >= Ta); it loses a mars iff
# Tb < Ta and Fa > Tb.  Writes out[0] = P(win), out[1] = P(mars win), out[2] = P(mars
# loss), mars clipped to the win / loss probability, out[3] = P(draw): with draw_rule
# (nonzero) the side that moved first in the game (the side on roll when on_roll_first)
# is White and Black gets a last turn (race.py); 0 without draw_rule.
cdef void race_outcome(const double* turns, Py_ssize_t n_turns,
                       const double* first_off, Py_ssize_t n_first,
                       Py_ssize_t a, Py_ssize_t b, int draw_rule, int on_roll_first,
                       double* out) noexcept nogil

# Probabilities of X (board6 x6, on roll) against Y (y6) into out[0:4] as race_outcome
# (P(win), P(mars win), P(mars loss), P(draw)) from the exact table covering the race when
# draw_rule is off (the complete two-sided table when attached and covering both;
# two-sided: both <= ts_max; mars: one side all 15, the other 1 ..
# mx_max), else from the one-sided tables; returns the RACE_* used (RACE_NONE, out unset,
# when that needs the one-sided tables and there are none).  x_first: X moved first
# in the game (matters for draw_rule only).  Inputs are trusted (both sides home, neither
# finished, at most os_max checkers).
cdef int race_probs(const race_tables_t* t, const uint8_t* x6, const uint8_t* y6,
                    int draw_rule, int x_first, double* out) noexcept nogil

# The owner of the tables: keeps the databases alive while C code reads race_tables_t.
cdef class RaceTables:
    cdef race_tables_t t     # pointers into the arrays of the databases below
    cdef readonly object one_sided    # bearoff.OneSided
    cdef readonly object two_sided    # bearoff.TwoSided, or None
    cdef readonly object mars         # bearoff.MarsTable of 15 checkers, or None
    cdef readonly object complete     # bearoff_complete.CompleteTwoSided, or None
