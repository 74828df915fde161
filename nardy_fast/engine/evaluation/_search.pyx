"""n-ply search with the evaluation network, in C.

Values are the network's seven probabilities (``_net.pxd``, ``OUT_*``) from the view of
the side on roll; moves are compared by the equity of those probabilities under the
rules' points (``points_t``), ties to the lexicographically smallest resulting board.

``value(me, opp, plies)`` of a position with ``me`` on roll:

- ``plies = 0``: the network (or, with a finished side, the result);
- ``plies = p >= 1``: the average over the 21 rolls (1/36 doubles, 2/36 others) of the
  value after ``me``'s best move for that roll, that move chosen by the value at
  ``p - 1`` plies of each resulting position (the other side on roll), flipped to
  ``me``'s view.  A move that bears off the last checker is a win, scored on the other
  side's board.

Move filter (as GNU Backgammon's): when a roll's moves are compared at ``p - 1 >= 1``
plies, they are first ranked at 0-ply and only the best ``keep`` are searched deeper
(``keep = 0``: all).  ``hint`` ranks every move of a roll at 0-ply, then re-ranks the best
``keep`` at the plies asked for.

``Searcher.values`` and ``Searcher.rank`` value their positions at 2 plies or more on
``threads`` threads (each position on one thread, by the same code: the values do not
depend on the thread count), so a 2-ply hint uses both cores of a quiet machine.
"""
from libc.stdint cimport uint8_t
from libc.stdlib cimport malloc, free
from libc.string cimport memcmp, memcpy, memset

import numpy as np

from nardy_fast.core._board cimport N_POINTS, checkers_on
from nardy_fast.core._movegen cimport gen_successors, DEFAULT_CAP
from nardy_fast.engine.evaluation._net cimport (net_eval, net_eval_many, net_clip_board, net_equity, net_flip, NET_OUTPUTS, NET_MAX_HIDDEN, OUT_WIN, OUT_MARS_WIN, OUT_KOKS_WIN, OUT_HOME_MARS_WIN, OUT_MARS_LOSS, OUT_HOME_MARS_LOSS)
from nardy_fast.tables._racevalue cimport (race_table_value, RV_NONE, RV_OUT, RV_WIN, RV_MARS_WIN, RV_MARS_LOSS, RV_HOME_MARS_WIN, RV_HOME_MARS_LOSS)
from nardy_fast.core._rules cimport fill_rules
from nardy_fast.core._scoring cimport score_game, WIN_OIN, WIN_KOKS, WIN_HOME_MARS
from nardy_fast.tables._race12 cimport Race12Tables
from nardy_fast.core._threads cimport nf_barrier_t, nf_run
from nardy_fast.core._dice cimport NF_ROLL_D1, NF_ROLL_D2, NF_ROLL_P
from nardy_fast.core._gameend cimport ERR_NOMEM, ERR_OVERFLOW
from nardy_fast.core._checks import usable_cores
from nardy_fast.core._dice import ROLLS

__all__ = ["Searcher", "MAX_SEARCH_PLIES", "ROLLS"]

MAX_SEARCH_PLIES = 3     # the deepest search (plies); a game's length cap is _gameend's


cdef void win_values(const uint8_t* loser, const rules_t* rules, float* v) noexcept nogil:
    cdef double pts
    cdef int kind = score_game(loser, rules, &pts)
    memset(v, 0, NET_OUTPUTS * sizeof(float))
    v[OUT_WIN] = 1.0
    if kind != WIN_OIN:
        v[OUT_MARS_WIN] = 1.0
        if kind == WIN_KOKS:
            v[OUT_KOKS_WIN] = 1.0
        elif kind == WIN_HOME_MARS:
            v[OUT_HOME_MARS_WIN] = 1.0


cdef bint race_leaf(const search_t* s, const uint8_t* me, const uint8_t* opp,
                    float* out) noexcept nogil:
    """The tables' value of a race (``_racevalue.race_table_value``: a race of both homes, or
    one without contact race12 covers; draw_rule's last turn not modelled) into out (me's
    view); False if none."""
    cdef double p[RV_OUT]
    if race_table_value(s.races, s.race12, me, opp, 0, 0, p) == RV_NONE:
        return False
    memset(out, 0, NET_OUTPUTS * sizeof(float))
    out[OUT_WIN] = p[RV_WIN]
    out[OUT_MARS_WIN] = p[RV_MARS_WIN]
    out[OUT_HOME_MARS_WIN] = p[RV_HOME_MARS_WIN]
    out[OUT_MARS_LOSS] = p[RV_MARS_LOSS]
    out[OUT_HOME_MARS_LOSS] = p[RV_HOME_MARS_LOSS]
    return True


cdef void leaf(const search_t* s, const uint8_t* me, const uint8_t* opp,
               float* out) noexcept nogil:
    if not race_leaf(s, me, opp, out):
        net_eval(s.net, me, opp, out)
        net_clip_board(out, me, opp)


cdef inline bint better(double e, const uint8_t* b, double top, const uint8_t* bb) noexcept nogil:
    return e > top or (e == top and memcmp(b, bb, N_POINTS) < 0)


cdef void rank0(const search_t* s, const uint8_t* me, const uint8_t* opp,
                const uint8_t* cands, Py_ssize_t n, float* vals, double* eq) noexcept nogil:
    """0-ply values of the n results of me's move (me's view) into vals, equities into eq."""
    cdef float scratch[NET_MAX_HIDDEN]
    cdef Py_ssize_t k
    cdef float* v
    net_eval_many(s.net, opp, me, cands, n, vals, scratch)
    for k in range(n):
        v = vals + NET_OUTPUTS * k
        if checkers_on(cands + N_POINTS * k) == 0:
            win_values(opp, &s.rules, v)
        else:
            if not race_leaf(s, opp, cands + N_POINTS * k, v):
                net_clip_board(v, opp, cands + N_POINTS * k)
            net_flip(v)
        eq[k] = net_equity(v, &s.rules)


cdef int order_by(const double* eq, const uint8_t* cands, Py_ssize_t n, Py_ssize_t* idx) noexcept nogil:
    """idx[0..n) = 0..n-1 sorted by equity (best first), ties by board (insertion sort)."""
    cdef Py_ssize_t i, j, t
    for i in range(n):
        idx[i] = i
    for i in range(1, n):
        t = idx[i]
        j = i
        while j > 0 and better(eq[t], cands + N_POINTS * t, eq[idx[j - 1]],
                               cands + N_POINTS * idx[j - 1]):
            idx[j] = idx[j - 1]
            j -= 1
        idx[j] = t
    return 0


cdef Py_ssize_t choose(const search_t* s, const uint8_t* me, const uint8_t* opp,
                       const uint8_t* cands, Py_ssize_t n, int plies, float* out) noexcept nogil:
    return choose_rolls(s, me, opp, cands, n, plies, out, NULL, 0.0)


cdef Py_ssize_t choose_rolls(const search_t* s, const uint8_t* me, const uint8_t* opp,
                             const uint8_t* cands, Py_ssize_t n, int plies, float* out,
                             float* rolls, double window) noexcept nogil:
    cdef float look[N_ROLLS * NET_OUTPUTS]
    cdef bint got = False
    cdef float* vals = <float*>malloc(n * NET_OUTPUTS * sizeof(float))
    cdef double* eq = <double*>malloc(n * sizeof(double))
    cdef Py_ssize_t* idx = <Py_ssize_t*>malloc(n * sizeof(Py_ssize_t))
    cdef float v[NET_OUTPUTS]
    cdef float bestv[NET_OUTPUTS]
    cdef Py_ssize_t k, m, best = -1
    cdef double e, top = 0.0
    cdef int err = 0
    if vals == NULL or eq == NULL or idx == NULL:
        best = ERR_NOMEM
    else:
        rank0(s, me, opp, cands, n, vals, eq)
        if plies == 0:                           # the best at 0-ply: a linear scan
            idx[0] = 0
            for k in range(1, n):
                if better(eq[k], cands + N_POINTS * k, eq[idx[0]], cands + N_POINTS * idx[0]):
                    idx[0] = k
            m = 1
        else:
            order_by(eq, cands, n, idx)
            m = n if s.keep <= 0 or s.keep > n else s.keep
            while window > 0.0 and m > 1 and eq[idx[0]] - eq[idx[m - 1]] > window:
                m -= 1
        for k in range(m):
            memcpy(v, vals + NET_OUTPUTS * idx[k], NET_OUTPUTS * sizeof(float))
            if plies > 0 and checkers_on(cands + N_POINTS * idx[k]) != 0:
                err = value_rolls(s, opp, cands + N_POINTS * idx[k], plies, v,
                                  NULL if rolls == NULL else look)
                if err:
                    best = err
                    break
                net_flip(v)
            e = net_equity(v, &s.rules)
            if best < 0 or better(e, cands + N_POINTS * idx[k], top, cands + N_POINTS * best):
                best = idx[k]
                top = e
                memcpy(bestv, v, NET_OUTPUTS * sizeof(float))
                got = rolls != NULL and plies > 0 and checkers_on(cands + N_POINTS * best) != 0
                if got:
                    memcpy(rolls, look, N_ROLLS * NET_OUTPUTS * sizeof(float))
        if best >= 0 and out != NULL:
            memcpy(out, bestv, NET_OUTPUTS * sizeof(float))
        if best >= 0 and rolls != NULL and not got:
            rolls[0] = -1.0                      # no look-ahead of the chosen move
    free(vals)
    free(eq)
    free(idx)
    return best


cdef int best_after(const search_t* s, const uint8_t* me, const uint8_t* opp, int d1, int d2,
                    int plies, float* out) noexcept nogil:
    """me's value (me's view) after its best move for (d1, d2), moves judged at `plies`."""
    cdef uint8_t* cands = <uint8_t*>malloc(DEFAULT_CAP * N_POINTS)
    cdef Py_ssize_t n
    cdef int err = 0
    if cands == NULL:
        return ERR_NOMEM
    n = gen_successors(me, opp, d1, d2, &s.rules, cands, NULL, DEFAULT_CAP)
    if n < 0:
        err = ERR_OVERFLOW
    else:
        n = choose(s, me, opp, cands, n, plies, out)
        if n < 0:
            err = <int>n
    free(cands)
    return err


cdef int value(const search_t* s, const uint8_t* me, const uint8_t* opp, int plies,
               float* out) noexcept nogil:
    """Value of (me on roll, opp) at `plies` (module docstring), me's view; 0 or ERR_*."""
    return value_rolls(s, me, opp, plies, out, NULL)


cdef int value_rolls(const search_t* s, const uint8_t* me, const uint8_t* opp, int plies,
                     float* out, float* rolls) noexcept nogil:
    cdef float v[NET_OUTPUTS]
    cdef double total[NET_OUTPUTS]
    cdef int k, err, j
    cdef double w
    if plies == 0:
        leaf(s, me, opp, out)
        if rolls != NULL:
            rolls[0] = -1.0
        return 0
    memset(total, 0, NET_OUTPUTS * sizeof(double))
    for j in range(N_ROLLS):
        err = best_after(s, me, opp, NF_ROLL_D1[j], NF_ROLL_D2[j], plies - 1, v)
        if err:
            return err
        if rolls != NULL:
            memcpy(rolls + NET_OUTPUTS * j, v, NET_OUTPUTS * sizeof(float))
        w = NF_ROLL_P[j]
        for k in range(NET_OUTPUTS):
            total[k] += w * v[k]
    # the mean of the rolls, added in double (a float32 sum passed 1: P(win) 1.0000002),
    # rounded once, and made consistent (koks + home mars <= mars after rounding)
    for k in range(NET_OUTPUTS):
        out[k] = <float>total[k]
    if out[OUT_WIN] > 1.0:
        out[OUT_WIN] = 1.0
    elif out[OUT_WIN] < 0.0:
        out[OUT_WIN] = 0.0
    net_clip_board(out, me, opp)
    return 0


cdef class Searcher:
    """n-ply values and move rankings of a ``Net`` under given move rules and points.

    Parameters
    ----------
    net : Net
    rules : Rules
        Move rules and the points moves are judged by.
    tables : RaceTables, optional
        Exact values of races of both homes (None: the net's).
    keep : int
        Moves searched deeper after a 0-ply ranking (0: all).
    race12 : Race12Tables, optional
        Values of races without contact (``race12.Race12.tables``; None: the net's).
    threads : int, optional
        Threads valuing positions at 2 plies or more (None: every usable core).  Never
        changes a value.
    """
    def __init__(self, Net net, rules, RaceTables tables=None, int keep=4,
                 Race12Tables race12=None, threads=None):
        self.net = net
        self.threads = usable_cores() if threads is None else max(1, int(threads))
        self.rules = rules
        self.tables = tables
        self.race12_tables = race12
        self.s.net = &net.c
        fill_rules(rules, &self.s.rules)
        self.s.races = NULL if tables is None else &tables.t
        self.s.race12 = NULL if race12 is None else race12.c_tables()
        self.s.keep = keep

    def values(self, boards, int plies):
        """Values ``(n, 7)`` float32 of boards ``(n, 2, 24)`` (side on roll first) at
        ``plies``, clipped.  Trusts its input (``evaluator.py`` validates)."""
        cdef const uint8_t[:, :, ::1] b = np.ascontiguousarray(boards, dtype=np.uint8)
        out = np.empty((b.shape[0], NET_OUTPUTS), dtype=np.float32)
        if b.shape[0] == 0:
            return out
        cdef float[:, ::1] o = out
        cdef int err = 0
        with nogil:
            err = value_batch(&self.s, &b[0, 0, 0], b.shape[0], plies, &o[0, 0],
                              self.threads)
        _raise(err)
        return out

    def roll_values(self, me, opp, int plies):
        """Per-roll values of (me on roll, opp): ``(21, 7)`` float32, me's value after its
        best move for each roll (moves judged at ``plies``), rolls ``ROLLS`` order.  The
        luck of a roll is its row's equity minus the mean over the rolls (1/36 doubles,
        2/36 others).  Trusts its input."""
        cdef const uint8_t[::1] m = np.ascontiguousarray(me, dtype=np.uint8)
        cdef const uint8_t[::1] o = np.ascontiguousarray(opp, dtype=np.uint8)
        rolls = np.empty((N_ROLLS, NET_OUTPUTS), dtype=np.float32)
        cdef float[:, ::1] r = rolls
        cdef float mean[NET_OUTPUTS]
        cdef int err
        with nogil:
            err = value_rolls(&self.s, &m[0], &o[0], plies + 1, mean, &r[0, 0])
        _raise(err)
        return rolls

    def equities(self, values):
        """Equities ``(n,)`` of values ``(n, 7)`` under the points."""
        cdef const float[:, ::1] v = np.ascontiguousarray(values, dtype=np.float32)
        out = np.empty(v.shape[0], dtype=np.float64)
        cdef double[::1] o = out
        cdef Py_ssize_t k
        for k in range(v.shape[0]):
            o[k] = net_equity(&v[k, 0], &self.s.rules)
        return out

    def rank(self, me, opp, int d1, int d2, int plies):
        """Every legal result of the roll (d1, d2) for ``me`` (on roll against ``opp``).

        All results are valued at 0-ply; the best ``keep`` of them again at ``plies``.
        Returns ``(results (k, 24) uint8, values (k, 7) float32 in me's view,
        plies (k,) int8, equities (k,) float64)``, best first (the re-valued moves first).
        Trusts its input.
        """
        from nardy_fast.core._movegen import successors
        cands = np.ascontiguousarray(successors(me, opp, d1, d2, self.rules), dtype=np.uint8)
        cdef const uint8_t[::1] m = np.ascontiguousarray(me, dtype=np.uint8)
        cdef const uint8_t[::1] op = np.ascontiguousarray(opp, dtype=np.uint8)
        cdef const uint8_t[:, ::1] c = cands
        cdef Py_ssize_t n = c.shape[0], k
        vals = np.empty((n, NET_OUTPUTS), dtype=np.float32)
        eqs = np.empty(n, dtype=np.float64)
        cdef float[:, ::1] v = vals
        cdef double[::1] e = eqs
        cdef float tmp[NET_OUTPUTS]
        cdef float[:, ::1] dv
        with nogil:
            rank0(&self.s, &m[0], &op[0], &c[0, 0], n, &v[0, 0], &e[0])
        used = np.zeros(n, dtype=np.int8)
        order = _order(np.arange(n), eqs, cands)
        if plies > 0:
            keep = n if self.s.keep <= 0 else min(self.s.keep, n)
            deep = [k for k in order[:keep] if checkers_on(&c[k, 0])]   # a win: exact
            if deep:
                pairs = np.empty((len(deep), 2, N_POINTS), dtype=np.uint8)
                pairs[:, 0] = np.asarray(op)
                pairs[:, 1] = cands[deep]
                dv = self.values(pairs, plies)
                for j, k in enumerate(deep):
                    memcpy(tmp, &dv[j, 0], NET_OUTPUTS * sizeof(float))
                    net_flip(tmp)
                    memcpy(&v[k, 0], tmp, NET_OUTPUTS * sizeof(float))
                    e[k] = net_equity(tmp, &self.s.rules)
                    used[k] = plies
            order = np.concatenate([_order(order[:keep], eqs, cands), order[keep:]])
        return cands[order], vals[order], used[order], eqs[order]


ctypedef struct batch_t:
    const search_t* s
    const uint8_t* boards        # n positions, 48 bytes each (side on roll first)
    Py_ssize_t n
    int plies
    float* out                   # n x NET_OUTPUTS
    int err


cdef void batch_part(void* arg, int tid, int n, nf_barrier_t* bar) noexcept nogil:
    """Thread tid of n: positions tid, tid + n, ... of the batch (any error is kept)."""
    cdef batch_t* b = <batch_t*>arg
    cdef Py_ssize_t k = tid
    cdef int err
    while k < b.n:
        err = value(b.s, b.boards + 2 * N_POINTS * k, b.boards + 2 * N_POINTS * k + N_POINTS,
                    b.plies, b.out + NET_OUTPUTS * k)
        if err:
            b.err = err
            return
        k += n


cdef int value_batch(const search_t* s, const uint8_t* boards, Py_ssize_t n, int plies,
                     float* out, int threads) noexcept nogil:
    """value() of n positions into out (n x NET_OUTPUTS), on up to ``threads`` threads
    when plies >= 2 (one thread below: not worth starting threads); 0 or an error."""
    cdef batch_t b
    b.s = s
    b.boards = boards
    b.n = n
    b.plies = plies
    b.out = out
    b.err = 0
    if plies < 2 or threads <= 1 or n <= 1:
        batch_part(&b, 0, 1, NULL)
    else:
        nf_run(threads if threads < n else <int>n, batch_part, &b)
    return b.err


def _order(idx, eqs, cands):
    """idx sorted by equity (best first), ties to the lexicographically smallest board:
    ``order_by`` on that subset."""
    idx = np.asarray(idx, dtype=np.intp)
    if len(idx) == 0:
        return idx
    cdef const double[::1] e = np.ascontiguousarray(eqs[idx], dtype=np.float64)
    cdef const uint8_t[:, ::1] c = np.ascontiguousarray(cands[idx], dtype=np.uint8)
    pos = np.empty(len(idx), dtype=np.intp)
    cdef Py_ssize_t[::1] p = pos
    order_by(&e[0], &c[0, 0], e.shape[0], &p[0])
    return idx[pos]


def _raise(int err):
    if err == ERR_NOMEM:
        raise MemoryError("search: out of memory")
    if err == ERR_OVERFLOW:
        raise RuntimeError("search: successor buffer overflow")
    if err:
        raise RuntimeError(f"search: error {err}")
