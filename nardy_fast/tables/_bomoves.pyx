"""The bear-off move generator on board6 boards and their indices (see ``_bomoves.pxd``).

``roll_successors`` is its Python face: the boards a roll can leave from a home board.
"""
from libc.stdint cimport uint8_t, int32_t, int64_t
from libc.string cimport memcpy, memset
from libc.stdlib cimport malloc, free

import numpy as np

from nardy_fast.core._checks import as_board6
from nardy_fast.core._checks cimport check_die

from nardy_fast.core._dice cimport N_ROLLS, NF_ROLL_D1, NF_ROLL_D2
from nardy_fast.tables._board6 cimport (board6_index, board6_from_index, N_HOME, N_BOARDS)

from nardy_fast.core._threads cimport NF_PTHREADS, NF_MAX_THREADS

__all__ = ["roll_successors", "MoveTables"]


cdef inline int step_sources(const uint8_t* c, int d, int* src) noexcept nogil:
    """Source points of the legal single steps of die d (1..6); a source i goes to i - d,
    off when i - d < 0.  Returns the count (0 only for the empty board)."""
    cdef int i, n = 0
    for i in range(d, N_HOME):
        if c[i]:
            src[n] = i
            n += 1
    if c[d - 1]:
        src[n] = d - 1
        n += 1
    elif n == 0:
        i = d - 2
        while i >= 0 and c[i] == 0:
            i -= 1
        if i >= 0:
            src[n] = i
            n += 1
    return n


cdef inline void apply_step(uint8_t* c, int i, int d) noexcept nogil:
    c[i] -= 1
    if i - d >= 0:
        c[i - d] += 1


cdef inline void undo_step(uint8_t* c, int i, int d) noexcept nogil:
    c[i] += 1
    if i - d >= 0:
        c[i - d] -= 1


cdef void single_step_table(Py_ssize_t m, int32_t* ss, uint8_t* ns) noexcept nogil:
    """ss[(x * 6 + d - 1) * 6 + q], q < ns[x * 6 + d - 1]: index after single step q of
    die d from board x."""
    cdef Py_ssize_t x
    cdef uint8_t c[N_HOME]
    cdef int src[N_HOME]
    cdef int d, q, n
    for x in range(m):
        board6_from_index(x, c)
        for d in range(1, 7):
            n = step_sources(c, d, src)
            ns[x * 6 + d - 1] = <uint8_t>n
            for q in range(n):
                apply_step(c, src[q], d)
                ss[(x * 6 + d - 1) * 6 + q] = <int32_t>board6_index(c)
                undo_step(c, src[q], d)


cdef void collect(uint8_t* c, const int* dice, int k, int nd, int32_t* out, Py_ssize_t* n,
                  int32_t* stamp, int32_t mark) noexcept nogil:
    """Append to out the distinct indices of the boards that the remaining dice
    dice[k:nd] can leave (stamp[idx] == mark marks those already recorded)."""
    cdef int src[N_HOME]
    cdef int q, ns, empty = 1
    cdef Py_ssize_t idx
    for q in range(N_HOME):
        if c[q]:
            empty = 0
            break
    if k == nd or empty:
        idx = board6_index(c)
        if stamp[idx] != mark:
            stamp[idx] = mark
            out[n[0]] = <int32_t>idx
            n[0] += 1
        return
    ns = step_sources(c, dice[k], src)
    for q in range(ns):
        apply_step(c, src[q], dice[k])
        collect(c, dice, k + 1, nd, out, n, stamp, mark)
        undo_step(c, src[q], dice[k])


cdef Py_ssize_t roll_finals(const uint8_t* board6, int d1, int d2, int32_t* out,
                            int32_t* stamp, int32_t mark) noexcept nogil:
    """Distinct board indices after each legal move of (d1, d2) from board6 (the board
    itself when it is empty).  stamp: int32 per index, none equal to mark on entry."""
    cdef uint8_t c[N_HOME]
    cdef int dice[4]
    cdef Py_ssize_t n = 0
    memcpy(c, board6, N_HOME)
    if d1 == d2:
        dice[0] = dice[1] = dice[2] = dice[3] = d1
        collect(c, dice, 0, 4, out, &n, stamp, mark)
    else:
        dice[0] = d1
        dice[1] = d2
        collect(c, dice, 0, 2, out, &n, stamp, mark)
        dice[0] = d2
        dice[1] = d1
        collect(c, dice, 0, 2, out, &n, stamp, mark)
    return n


cdef void sort_segment(int32_t* a, int64_t n) noexcept nogil:
    cdef int64_t i, j
    cdef int32_t v
    for i in range(1, n):
        v = a[i]
        j = i - 1
        while j >= 0 and a[j] > v:
            a[j + 1] = a[j]
            j -= 1
        a[j + 1] = v


cdef int32_t* final_lists(Py_ssize_t m, int64_t* fstart, bint sort) except NULL:
    """Distinct final boards of every (board, roll) of boards 0..m-1, as one list.

    Fills ``fstart`` (m * 21 + 1 offsets): the finals of board x and roll r are
    ``flist[fstart[21 x + r] : fstart[21 x + r + 1]]``, sorted when ``sort``.  Returns the
    list (owned by the caller, freed with ``free``); MemoryError when out of memory.
    """
    cdef int32_t* stamp = <int32_t*>malloc(m * sizeof(int32_t))
    cdef int32_t* buf = <int32_t*>malloc(MAX_FINALS * sizeof(int32_t))
    cdef int32_t* flist = NULL
    cdef uint8_t c[N_HOME]
    cdef Py_ssize_t x, total = 0
    cdef int64_t e
    cdef int r
    if stamp != NULL and buf != NULL:
        with nogil:                          # count, then fill
            memset(stamp, 0xFF, m * sizeof(int32_t))
            for x in range(m):
                board6_from_index(x, c)
                for r in range(N_ROLLS):
                    fstart[x * N_ROLLS + r] = total
                    total += roll_finals(c, NF_ROLL_D1[r], NF_ROLL_D2[r], buf, stamp,
                                         <int32_t>(x * N_ROLLS + r))
            fstart[m * N_ROLLS] = total
        flist = <int32_t*>malloc((total + 1) * sizeof(int32_t))
    if flist != NULL:
        with nogil:
            memset(stamp, 0xFF, m * sizeof(int32_t))
            for x in range(m):
                board6_from_index(x, c)
                for r in range(N_ROLLS):
                    e = fstart[x * N_ROLLS + r]
                    roll_finals(c, NF_ROLL_D1[r], NF_ROLL_D2[r], flist + e, stamp,
                                <int32_t>(x * N_ROLLS + r))
                    if sort:
                        sort_segment(flist + e, fstart[x * N_ROLLS + r + 1] - e)
    free(stamp)
    free(buf)
    if flist == NULL:
        raise MemoryError(f"final-board lists of {m:,} boards")
    return flist


def roll_successors(board6, d1, d2):
    """Sorted distinct indices of the boards left by the legal moves of (d1, d2) from a
    home board (board6, or 24 counts with every checker home): ndarray of intp."""
    cdef uint8_t c[N_HOME]
    cdef int32_t buf[MAX_FINALS]
    cdef Py_ssize_t n, i
    cdef int a = check_die(d1, 0), b = check_die(d2, 1)
    b6, single = as_board6(board6, "board6")
    if not single:
        raise ValueError(f"board6: expected one board, got shape {np.shape(board6)}")
    for i in range(N_HOME):
        c[i] = b6[0, i]
    stamp = np.full(N_BOARDS, -1, dtype=np.int32)
    cdef int32_t[::1] st = stamp
    n = roll_finals(c, a, b, buf, &st[0], 0)
    return np.sort(np.array([buf[i] for i in range(n)], dtype=np.intp))


cdef class MoveTables:
    """Single-step tables and final lists of a solver's build (see ``_bomoves.pxd``)."""

    def __dealloc__(self):                   # C fields start zeroed (NULL): free(NULL) is fine
        free(self.mv.ss)
        free(self.mv.ns)
        free(self.mv.fstart)
        free(self.mv.flist)

    cdef int fill_tables(self, Py_ssize_t n_steps, Py_ssize_t n_final, bint sort,
                         int threads) except -1:
        if threads < 1:
            raise ValueError(f"threads={threads}: must be >= 1")
        self.nthreads = min(threads, NF_MAX_THREADS) if NF_PTHREADS else 1
        self.n_final = n_final
        self.mv.ss = <int32_t*>malloc(n_steps * 36 * sizeof(int32_t))
        self.mv.ns = <uint8_t*>malloc(n_steps * 6)
        self.mv.fstart = <int64_t*>malloc((n_final * N_ROLLS + 1) * sizeof(int64_t))
        if self.mv.ss == NULL or self.mv.ns == NULL or self.mv.fstart == NULL:
            raise MemoryError(f"move tables of {n_steps:,} and {n_final:,} boards")
        with nogil:
            single_step_table(n_steps, self.mv.ss, self.mv.ns)
        self.mv.flist = final_lists(n_final, self.mv.fstart, sort)
        return 0

    @property
    def threads(self):
        """Threads per run."""
        return self.nthreads
