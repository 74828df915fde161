# C-level API of the fixed policies (see _policies.pyx): each returns the index of the
# result it plays among n results buf[24 k : 24 k + 24] of one roll (n >= 1).
from libc.stdint cimport uint8_t
from libc.string cimport memcmp

from nardy_fast.core._board cimport N_POINTS

# Tie-break order of results: a before b in lexicographic order of (b[0] .. b[23]).
cdef inline bint board_less(const uint8_t* a, const uint8_t* b) noexcept nogil:
    return memcmp(a, b, N_POINTS) < 0

# The greedy policy's result against the opponent's board o (its own numbering).
cdef Py_ssize_t greedy_best(const uint8_t* buf, Py_ssize_t n, const uint8_t* o) noexcept nogil

# The result of least expected turns to bear off (mean: OneSided.mean, race_tables_t's
# os_mean); every result must have all its checkers home.
cdef Py_ssize_t bearoff_best(const double* mean, const uint8_t* buf, Py_ssize_t n) noexcept nogil

# A Python policy fn(candidates (n, 24) uint8, opponent (24,) uint8) -> n scores: the index
# of the highest score (ties: board_less), or -1 with the exception appended to err.
# Needs the GIL.
cdef Py_ssize_t call_policy(object fn, const uint8_t* buf, Py_ssize_t n, const uint8_t* o,
                            list err) noexcept
