# C-level API of the bear-off move generator (rule book section 6), on board6 boards and
# their indices (_board6.pxd).
#
# Once all of a side's checkers are home, die d bears off from board6[d - 1], moves a
# checker from board6[i], i >= d, to board6[i - d], or, with nothing on d - 1 or beyond,
# bears off from the highest occupied point; a move of a roll is a sequence of such single
# steps of its dice (both orders of a non-double, four steps of a double) that stops early
# only when the board is empty.  tests/integration/test_cimport.py proves this equal to
# _movegen.gen_successors on every board and roll.  Inputs are trusted.
from libc.stdint cimport uint8_t, int32_t, int64_t

cdef enum:
    MAX_FINALS = 1400        # distinct results of one roll from one board (<= 6**4 orders)

# Fills ss[(x * 6 + d - 1) * 6 + q], q < ns[x * 6 + d - 1], with the index after single step
# q of die d (1..6) from board x, for every board x < m (m <= 54264); ss holds m * 36
# entries, ns m * 6.
cdef void single_step_table(Py_ssize_t m, int32_t* ss, uint8_t* ns) noexcept nogil

# Writes to out[0:n] the distinct board indices left by the legal moves of (d1, d2) from
# board6 (the board itself when it is empty) and returns n <= MAX_FINALS.  stamp: one int32
# per board index (at least up to board6's), none equal to mark on entry; the results'
# entries are set to mark.
cdef Py_ssize_t roll_finals(const uint8_t* board6, int d1, int d2, int32_t* out,
                            int32_t* stamp, int32_t mark) noexcept nogil

# The distinct final boards of every (board, roll) of boards 0 .. m - 1, as one list: fills
# fstart (m * 21 + 1 offsets; the finals of board x and roll r are flist[fstart[21 x + r] :
# fstart[21 x + r + 1]], ascending when sort) and returns flist (owned by the caller, freed
# with free).  Needs the GIL; MemoryError when out of memory.
cdef int32_t* final_lists(Py_ssize_t m, int64_t* fstart, bint sort) except NULL

# The move tables a solver keeps during its build: base class of the two-sided and mars
# solvers (_twosided.TwoSidedSolver, _mars.MarsSolver); frees them in __dealloc__.
ctypedef struct moves_t:
    int32_t* ss              # single steps of boards 0 .. n_steps - 1 (single_step_table)
    uint8_t* ns
    int64_t* fstart          # finals of boards 0 .. n_final - 1 (final_lists)
    int32_t* flist

cdef class MoveTables:
    cdef moves_t mv          # the tables (owned)
    cdef Py_ssize_t n_final
    cdef int nthreads        # threads per run (1 without POSIX threads)
    # Checks threads (>= 1, capped), allocates and fills the tables; ValueError /
    # MemoryError.
    cdef int fill_tables(self, Py_ssize_t n_steps, Py_ssize_t n_final, bint sort,
                         int threads) except -1
