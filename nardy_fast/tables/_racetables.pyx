"""Race tables: one owner for the bear-off databases a race of both homes is looked up in.

``RaceTables(one_sided, two_sided=None, mars=None)`` checks the databases, keeps them alive
and fills the typed struct ``race_tables_t`` (``_racetables.pxd``) that C code reads
without the GIL: the rollout's truncation (``_rollout.pyx``), ``race_probabilities`` and
any other evaluator get the same numbers from ``race_probs``, which picks the exact table
covering a race (two-sided, mars) or falls back to the one-sided convolution
(``race_outcome``).  Which mars table serves given rules is ``race.mars_table_for``.
"""
from libc.stdint cimport uint8_t

import numpy as np

from nardy_fast.tables._board6 cimport board6_index, n_boards, N_HOME, MAX_BEAROFF as MAX_CHECKERS
from nardy_fast.core._checks import as_board6
from nardy_fast.tables._tscomplete cimport Lookup, complete_probs

__all__ = ["RaceTables", "race_one_sided", "TABLE_NAMES"]

# The table that served a race_probs call (its RACE_* code) as a name: not a ``method``
# (core.methods), which a caller chooses.
TABLE_NAMES = ("one_sided", "two_sided", "mars")


cdef inline double tail(const double* p, Py_ssize_t n, Py_ssize_t u) noexcept nogil:
    """P(T >= u) of the distribution p[0:n]."""
    cdef double s = 0.0
    cdef Py_ssize_t t
    if u <= 0:
        return 1.0
    for t in range(u, n):
        s += p[t]
    return s


cdef void race_outcome(const double* turns, Py_ssize_t n_turns,
                       const double* first_off, Py_ssize_t n_first,
                       Py_ssize_t a, Py_ssize_t b, int draw_rule, int on_roll_first,
                       double* out) noexcept nogil:
    cdef const double* tx = turns + a * n_turns
    cdef const double* ty = turns + b * n_turns
    cdef const double* fx = first_off + a * n_first
    cdef const double* fy = first_off + b * n_first
    cdef Py_ssize_t t, sw = 0, sl = 1
    cdef double win = 0.0, lose = 0.0, mwin = 0.0, mloss = 0.0, draw = 0.0
    # the side on roll wins iff Ty >= Tx + sw, loses iff Tx >= Ty + sl
    if draw_rule:
        if on_roll_first:
            sw = 1
        else:
            sl = 2
    for t in range(n_turns):
        if tx[t] != 0.0:
            win += tx[t] * tail(ty, n_turns, t + sw)
            mwin += tx[t] * tail(fy, n_first, t + sw)
        if ty[t] != 0.0:
            lose += ty[t] * tail(tx, n_turns, t + sl)
            mloss += ty[t] * tail(fx, n_first, t + sl)
    if draw_rule:
        for t in range(n_turns):
            if on_roll_first:
                draw += tx[t] * ty[t]
            elif t + 1 < n_turns:
                draw += ty[t] * tx[t + 1]
    out[0] = win
    out[1] = mwin if mwin < win else win
    out[2] = mloss if mloss < lose else lose
    out[3] = draw


cdef inline double mars_entry(const double* table, Py_ssize_t m_y, Py_ssize_t x_offset,
                              Py_ssize_t ix, Py_ssize_t iy, int k) noexcept nogil:
    """Entry k (0: P(X wins), 1: P(Y wins a mars)) of a mars table half at X board index
    ix (all 15 checkers), Y board index iy."""
    return table[((ix - x_offset) * 2 + k) * m_y + iy]


cdef inline int count6(const uint8_t* b6) noexcept nogil:
    return b6[0] + b6[1] + b6[2] + b6[3] + b6[4] + b6[5]


cdef int race_probs(const race_tables_t* t, const uint8_t* x6, const uint8_t* y6,
                    int draw_rule, int x_first, double* out) noexcept nogil:
    cdef Py_ssize_t ix = board6_index(x6), iy = board6_index(y6)
    cdef int nx = count6(x6), ny = count6(y6)
    out[3] = 0.0
    if (t.cx != NULL and not draw_rule and nx <= t.cx.max_checkers
            and ny <= t.cx.max_checkers):
        complete_probs(t.cx, ix, iy, out)
        return RACE_TWO_SIDED
    if t.ts_pwin != NULL and not draw_rule and nx <= t.ts_max and ny <= t.ts_max:
        out[0] = t.ts_pwin[ix * t.ts_m + iy]      # no mars below 15 checkers
        out[1] = out[2] = 0.0
        return RACE_TWO_SIDED
    if t.mx_x != NULL and not draw_rule and nx == MAX_CHECKERS and 1 <= ny <= t.mx_max:
        out[0] = mars_entry(t.mx_x, t.mx_m, t.mx_off, ix, iy, 0)     # on roll with all 15
        out[1] = 0.0
        out[2] = mars_entry(t.mx_x, t.mx_m, t.mx_off, ix, iy, 1)
        return RACE_MARS
    if t.mx_x != NULL and not draw_rule and ny == MAX_CHECKERS and 1 <= nx <= t.mx_max:
        out[0] = 1.0 - mars_entry(t.mx_y, t.mx_m, t.mx_off, iy, ix, 0)   # opponent has 15
        out[1] = mars_entry(t.mx_y, t.mx_m, t.mx_off, iy, ix, 1)
        out[2] = 0.0
        return RACE_MARS
    if t.os_turns == NULL:
        return RACE_NONE
    race_outcome(t.os_turns, t.os_T, t.os_first, t.os_T1, ix, iy, draw_rule, x_first, out)
    return RACE_ONE_SIDED


cdef int home_board6(object board, str name, int limit, uint8_t* out) except -1:
    """One board (board6, or 24 counts with every checker home) of 1 .. limit checkers
    into out[0:6]; a plain uint8 vector is checked in C, anything else (and any error) by
    _checks.as_board6, whose messages name the board."""
    cdef const uint8_t[::1] v
    cdef int i, n = 0, off = 0
    if (type(board) is np.ndarray and board.dtype == np.uint8 and board.ndim == 1
            and board.shape[0] in (N_HOME, 24) and board.flags.c_contiguous):
        v = board
        if v.shape[0] == 24:
            off = 18
            for i in range(18):
                n += 30 * v[i]                  # any checker outside the home fails below
        for i in range(N_HOME):
            out[i] = v[v.shape[0] - 1 - i] if off else v[i]
            n += out[i]
        if 1 <= n <= limit:
            return 0
    b6, single = as_board6(board, name, limit)
    if not single:
        raise ValueError(f"{name}: expected one board, got shape {np.shape(board)}")
    if not b6.any():
        raise ValueError(f"{name}: no checkers left: the race is over")
    for i in range(N_HOME):
        out[i] = b6[0, i]
    return 0


cdef const double* _data(arr, tuple shape, str name) except NULL:
    """Pointer to the data of a C-contiguous float64 array of this shape (None: any size)."""
    if (not isinstance(arr, np.ndarray) or arr.dtype != np.float64
            or not arr.flags.c_contiguous or arr.ndim != len(shape)
            or any(n is not None and n != k for n, k in zip(shape, arr.shape))):
        raise ValueError(f"{name}: expected a C-contiguous float64 array of shape "
                         f"{tuple('*' if n is None else n for n in shape)}")
    cdef const double[::1] flat = arr.reshape(-1)
    return &flat[0]


cdef class RaceTables:
    """The databases of a race of both homes, for C code (``race_tables_t``) and Python.

    Parameters
    ----------
    one_sided : bearoff.OneSided or None
        Turn distributions of every board (the fallback, and the expected lengths of the
        rollout's truncation, which needs it).
    two_sided : bearoff.TwoSided or None
        Exact P(win) when both sides have at most its ``max_checkers``.
    mars : bearoff.MarsTable or None
        Exact P(win), P(mars) of 15 checkers (none off) against 1 .. its ``max_checkers``;
        a table of ``all_checkers=15``.  The caller checks that its points match the rules.
    complete : bearoff_complete.CompleteTwoSided or None
        The complete two-sided table (with mars), used first for the boards it covers;
        the caller checks that its points match the rules.
    """

    def __init__(self, one_sided, two_sided=None, mars=None, complete=None):
        self.t.os_mean = self.t.os_turns = self.t.os_first = NULL
        self.t.os_T = self.t.os_T1 = 0
        self.t.os_max = MAX_CHECKERS
        if one_sided is not None:
            m = n_boards(int(one_sided.max_checkers))
            self.t.os_mean = _data(one_sided.mean, (m,), "one_sided.mean")
            self.t.os_turns = _data(one_sided.turns, (m, None), "one_sided.turns")
            self.t.os_T = one_sided.turns.shape[1]
            self.t.os_first = _data(one_sided.first_off, (m, None), "one_sided.first_off")
            self.t.os_T1 = one_sided.first_off.shape[1]
            self.t.os_max = int(one_sided.max_checkers)
        self.t.ts_pwin = NULL
        self.t.ts_m = self.t.ts_max = 0
        self.t.mx_x = self.t.mx_y = NULL
        self.t.mx_m = self.t.mx_off = self.t.mx_max = 0
        if two_sided is not None:
            self.t.ts_m = n_boards(int(two_sided.max_checkers))
            self.t.ts_pwin = _data(two_sided.p_win_table, (self.t.ts_m, self.t.ts_m),
                                   "two_sided.p_win_table")
            self.t.ts_max = int(two_sided.max_checkers)
        if mars is not None:
            if mars.all_checkers != MAX_CHECKERS:
                raise ValueError(f"mars: a table of all_checkers={mars.all_checkers}; "
                                 f"races need {MAX_CHECKERS}")
            self.t.mx_m = n_boards(int(mars.max_checkers))
            shape = (n_boards(MAX_CHECKERS) - n_boards(MAX_CHECKERS - 1), 2, self.t.mx_m)
            self.t.mx_x = _data(mars.x_on_roll, shape, "mars.x_on_roll")
            self.t.mx_y = _data(mars.y_on_roll, shape, "mars.y_on_roll")
            self.t.mx_off = n_boards(MAX_CHECKERS - 1)
            self.t.mx_max = int(mars.max_checkers)
        self.t.cx = NULL
        if complete is not None:
            if complete.all_checkers != MAX_CHECKERS:
                raise ValueError(f"complete: a table of all_checkers="
                                 f"{complete.all_checkers}; races need {MAX_CHECKERS}")
            self.t.cx = &(<Lookup?>complete._lookup).t
        self.one_sided = one_sided
        self.two_sided = two_sided
        self.mars = mars
        self.complete = complete

    def __reduce__(self):
        return (RaceTables, (self.one_sided, self.two_sided, self.mars, self.complete))

    def __repr__(self):
        return (f"RaceTables(one_sided={self.one_sided!r}, two_sided={self.two_sided!r}, "
                f"mars={self.mars!r}" + ("" if self.complete is None else
                                         f", complete={self.complete!r}") + ")")

    def probabilities(self, x6, y6, draw_rule=False, x_first=False):
        """``(P(win), P(mars win), P(mars loss), P(draw), method)`` of the side on roll
        with board ``x6`` against ``y6`` (board6 or home 24-point boards; see
        ``race_probs`` in ``_racetables.pxd``); ``method`` is one of ``TABLE_NAMES``."""
        cdef uint8_t a[N_HOME]
        cdef uint8_t b[N_HOME]
        cdef double out[4]
        cdef int method
        cdef int dr = bool(draw_rule), xf = bool(x_first)
        home_board6(x6, "x6", self.t.os_max, a)
        home_board6(y6, "y6", self.t.os_max, b)
        with nogil:
            method = race_probs(&self.t, a, b, dr, xf, out)
        if method == RACE_NONE:
            raise ValueError("no table covers this race and no one-sided database is given")
        return out[0], out[1], out[2], out[3], TABLE_NAMES[method]


def race_one_sided(const double[:, ::1] turns, const double[:, ::1] first_off,
                   Py_ssize_t a, Py_ssize_t b, bint draw_rule=False, bint on_roll_first=False):
    """(p_win, p_mars_win, p_mars_loss, p_draw) of board index a on roll against b by the
    one-sided convolution (see ``_racetables.pxd``, ``race_outcome``).  Trusted indices."""
    cdef double out[4]
    with nogil:
        race_outcome(&turns[0, 0], turns.shape[1], &first_off[0, 0], first_off.shape[1],
                     a, b, draw_rule, on_roll_first, out)
    return out[0], out[1], out[2], out[3]
