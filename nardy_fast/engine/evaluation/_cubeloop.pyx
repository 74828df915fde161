"""The cube decisions of the C game loop (``_rollout.play_blocks``; ``_cubeloop.pxd``).

Before each roll the side on roll doubles when the cube model says the raise gains, and the
opponent takes, passes or beavers by the same model (rule book section 7a; the model of
``nardy_fast.engine.evaluation.cubemodel``): with the cubeless probability ``p`` of the side on roll and the cube
efficiency ``x`` of the position, the equity per unit stake is Janowski's
``(1 - x)(2p - 1) + x live(p)``, the live cube equity of the cube state, with the take
point of a raise (1/5 geometric, ``tp_live[k]`` arithmetic).  In the races of the exact
cubeful race table the equities are the table's.  ``p`` comes from the evaluation net
(its 0-ply value, exact race values where the race tables cover the race: the default),
a Python callable, or a pip-count estimate (``cube_probabilities="pips"``).

With the net, the model also takes the mean points per stake ``W`` and ``L`` of the mover's
won and lost games from the net's outcome distribution and the points of each kind with
the cube (``cube_t.pts``, ``CubeSettings.points``), GNU Backgammon's form for gammons
(``cubemodel``'s docstring, ``cubemodel.win_loss_values``, ``cash_point``).  The rule book
scores the stake whatever the kind with the cube (``CUBE_POINTS``: all 1), so then
``W = L = 1`` and the values are Janowski's above.

The formulas have one home, the kernel ``_cubemodel`` (``_cubemodel.pxd``), which the Python
cube functions call too; this module adds the game loop's parts: the cube state, where
``p`` comes from, the exact table and the answers to a raise.
"""
from libc.stdint cimport uint8_t
from libc.string cimport memcpy
from libc.math cimport NAN

import numpy as np

from nardy_fast.core._board cimport N_POINTS, N_CHECKERS, checkers_on, pip_count, all_home
from nardy_fast.tables._board6 cimport home_board_index
from nardy_fast.tables._cuberace cimport CUBE_CENTRE, CUBE_MOVER, CUBE_OPPONENT
from nardy_fast.engine.evaluation._net cimport (Net, NET_OUTPUTS, OUT_WIN, OUT_MARS_WIN, OUT_KOKS_WIN,
                                     OUT_HOME_MARS_WIN, OUT_MARS_LOSS, OUT_KOKS_LOSS,
                                     OUT_HOME_MARS_LOSS)
from nardy_fast.core._rules cimport fill_rules
from nardy_fast.engine.evaluation._cubemodel cimport (cm_model, cm_mean_points, cm_efficiency,
                                                   cm_pip_probability, cm_double_choice)
from nardy_fast.engine.evaluation._search cimport leaf

__all__ = ["model_point"]


cdef void win_loss(const cube_t* c, const float* out, double* w, double* l) noexcept nogil:
    cdef double pw = out[OUT_WIN]                  # in double, as cubemodel.win_loss_values
    w[0] = cm_mean_points(pw, out[OUT_MARS_WIN], out[OUT_KOKS_WIN], out[OUT_HOME_MARS_WIN],
                          c.pts)
    l[0] = cm_mean_points(1.0 - pw, out[OUT_MARS_LOSS], out[OUT_KOKS_LOSS],
                          out[OUT_HOME_MARS_LOSS], c.pts)


cdef inline double model_value(const cube_t* c, double p, int own, int k, double x,
                               double w, double l) noexcept nogil:
    """Janowski's equity per unit stake k (_cubemodel.cm_model), the live take point from
    the table tp_live (arithmetic) or 1/5 (geometric)."""
    cdef bint geo = c.cube == CUBE_GEOMETRIC
    cdef double tp = 0.2 if geo else (c.tp_live[k] if k < c.max_stake else 0.0)
    return cm_model(p, own, k, x, w, l, geo, c.max_stake, tp)


cdef inline double efficiency(const cube_t* c, const uint8_t* mover,
                              const uint8_t* o) noexcept nogil:
    """x of the position (_cubemodel.cm_efficiency)."""
    return cm_efficiency(mover, o, c.x_contact, c.x_race, c.n_x)


cdef double call_cube(object fn, const uint8_t* mover, const uint8_t* o, list err) noexcept:
    """P(win) of the mover from a Python callable; NaN (exception stored) on failure."""
    cdef uint8_t[::1] mv
    cdef uint8_t[::1] ov
    try:
        m = np.empty(N_POINTS, dtype=np.uint8)
        mv = m
        memcpy(&mv[0], mover, N_POINTS)
        opp = np.empty(N_POINTS, dtype=np.uint8)
        ov = opp
        memcpy(&ov[0], o, N_POINTS)
        p = float(fn(m, opp))
        if not 0.0 <= p <= 1.0:
            raise ValueError(f"cube probabilities {fn!r} returned {p}: expected 0..1")
        return p
    except BaseException as e:
        err.append(e)
        return NAN


cdef inline double pip_estimate(const uint8_t* mover, const uint8_t* o) noexcept nogil:
    """P(win) of the mover from pip counts alone (_cubemodel.cm_pip_probability)."""
    return cm_pip_probability(pip_count(mover), pip_count(o))


cdef inline bint table_covers(const cube_t* c, const uint8_t* mover, const uint8_t* o,
                              int k, int own) noexcept nogil:
    cdef int need
    if c.cr_values == NULL or not all_home(mover) or not all_home(o):
        return False
    if checkers_on(mover) > c.cr_max_checkers or checkers_on(o) > c.cr_max_checkers:
        return False
    if c.cube == CUBE_GEOMETRIC:
        return True
    need = k if own == CUBE_OPPONENT else (k + 2 if c.beaver else k + 1)
    return k <= c.cr_stakes and (need <= c.cr_stakes or k >= c.max_stake)


cdef inline double table_entry(const cube_t* c, Py_ssize_t x, Py_ssize_t y, int k,
                               int own) noexcept nogil:
    cdef Py_ssize_t m = c.cr_m, lvl = 0 if c.cube == CUBE_GEOMETRIC else k - 1
    return c.cr_values[((lvl * m + x) * m + y) * 4 + own]


cdef int cube_values(const cube_t* c, const uint8_t* mover, const uint8_t* o, int k, int own,
                     double p, double w, double l, double* out) noexcept nogil:
    """out = [no double, double/take, double/beaver (NaN if none)] per unit stake k for
    the mover (cube state own, which lets it raise); p: the mover's P(win), or NaN to get
    it here (with W and L of the net's outputs when c.mars_aware; w, l are then not
    used); w, l: W and L with a given p.  Exact from the cubeful race table when it
    covers the race.  Returns 0, or ACT_ERROR."""
    cdef int n1 = next_stake(c, k), n2 = next_stake(c, n1)
    cdef bint bv = c.beaver and stake_ok(c, n2)
    cdef Py_ssize_t ix, iy
    cdef double x
    cdef float nv[NET_OUTPUTS]
    if table_covers(c, mover, o, k, own):
        ix = home_board_index(mover)
        iy = home_board_index(o)
        out[0] = table_entry(c, ix, iy, k, own)
        out[1] = n1 / <double>k * table_entry(c, ix, iy, n1, CUBE_OPPONENT)
        out[2] = n2 / <double>k * table_entry(c, ix, iy, n2, CUBE_OPPONENT) if bv else NAN
        return 0
    if p != p:
        w = l = 1.0
        if c.use_net:
            leaf(&c.search, mover, o, nv)
            p = nv[OUT_WIN]
            if c.mars_aware:
                win_loss(c, nv, &w, &l)
        elif c.py_cube != NULL:
            with gil:
                p = call_cube(<object>c.py_cube, mover, o, <list>c.py_error)
            if p != p:
                return ACT_ERROR
        else:
            p = pip_estimate(mover, o)
    x = efficiency(c, mover, o)
    out[0] = model_value(c, p, own, k, x, w, l)
    out[1] = n1 / <double>k * model_value(c, p, CUBE_OPPONENT, n1, x, w, l)
    out[2] = n2 / <double>k * model_value(c, p, CUBE_OPPONENT, n2, x, w, l) if bv else NAN
    return 0


cdef inline int own_of(int owner, int side) noexcept nogil:
    return CUBE_CENTRE if owner < 0 else (CUBE_MOVER if owner == side else CUBE_OPPONENT)


cdef inline double best_take(const double* e) noexcept nogil:
    """The taker's best answer to a raise, for the raiser per unit stake (1: a pass)."""
    cdef double take = e[1]
    if e[2] == e[2] and e[2] < take:
        take = e[2]
    return 1.0 if take > 1.0 else take


cdef void no_cube(cube_t* c) noexcept nogil:
    c.cube = CUBE_NONE
    c.beaver = c.autodouble = c.no_first_raise = 0
    c.stake0 = 1
    c.owner0 = -1
    c.max_stake = 0
    c.x_contact = 0.0
    c.x_race = c.tp_live = c.cr_values = NULL
    c.n_x = 0
    c.cr_m = 0
    c.cr_max_checkers = -1
    c.cr_stakes = 0
    c.py_cube = c.py_error = NULL
    c.use_net = 0
    c.pts[0] = c.pts[1] = c.pts[2] = c.pts[3] = 1.0
    c.mars_aware = 0
    c.search.net = NULL
    c.search.races = NULL
    c.search.race12 = NULL
    c.search.keep = 0


cdef int attach_cube(cube_t* c, const rules_t* rules, const race_tables_t* races,
                     object spec, list err) except -1:
    cdef const double[:, ::1] xr
    cdef const double[::1] tp
    cdef const double[:, :, ::1] cr3
    cdef const double[:, :, :, ::1] cr4
    cdef int i
    at_start, stake0, owner0, no_first = spec.at_start, spec.stake, spec.owner, \
        spec.no_first_raise
    max_stake, x_contact, x_race, tp_live = spec.max_stake, spec.x_contact, spec.x_race, \
        spec.tp_live
    table, fn = spec.table, spec.probabilities
    pts = [float(v) for v in getattr(spec, "points", (1.0, 1.0, 1.0, 1.0))]
    no_cube(c)
    if len(pts) != 4 or not all(v >= 1.0 and v < float("inf") for v in pts):
        raise ValueError(f"cube: points={tuple(spec.points)!r}: expected 4 finite points "
                         "per stake (oin, mars, koks, home mars), each >= 1")
    if rules.cube == CUBE_NONE:
        raise ValueError("cube: the rules have no cube")
    c.cube = rules.cube
    c.beaver = rules.beaver
    c.autodouble = 1 if (rules.autodouble and at_start) else 0
    c.no_first_raise = 1 if no_first else 0
    c.stake0 = int(stake0)
    c.owner0 = int(owner0)
    c.max_stake = int(max_stake)
    c.x_contact = float(x_contact)
    xr = x_race
    if xr.shape[1] != 2 or xr.shape[0] < 1:
        raise ValueError("cube: x_race must have shape (n, 2)")
    c.x_race = &xr[0, 0]
    c.n_x = xr.shape[0]
    if c.cube == CUBE_ARITHMETIC:
        tp = tp_live
        if tp.shape[0] < c.max_stake + 1:
            raise ValueError("cube: tp_live needs max_stake + 1 entries")
        c.tp_live = &tp[0]
    if table is not None:
        values, nmax, stakes = table
        if c.cube == CUBE_GEOMETRIC:
            cr3 = values
            c.cr_values = &cr3[0, 0, 0]
            c.cr_m = cr3.shape[0]
        else:
            cr4 = values
            c.cr_values = &cr4[0, 0, 0, 0]
            c.cr_m = cr4.shape[1]
            c.cr_stakes = int(stakes)
        c.cr_max_checkers = int(nmax)
    if isinstance(fn, Net):
        c.use_net = 1
        c.search.net = &(<Net>fn).c
        c.search.rules = rules[0]
        c.search.races = races
    elif fn is not None:
        c.py_cube = <void*>fn
    for i in range(4):
        c.pts[i] = pts[i]
    c.mars_aware = 1 if any(v != 1.0 for v in pts) else 0
    c.py_error = <void*>err
    return 0


cdef int cube_action(const cube_t* c, int side, const uint8_t* mover, const uint8_t* o,
                     int* stake, int* owner) noexcept nogil:
    cdef double e[3]
    cdef double take
    cdef int k = stake[0], own = own_of(owner[0], side), resp
    if own == CUBE_OPPONENT or not stake_ok(c, next_stake(c, k)) or mover[0] == N_CHECKERS:
        return ACT_NONE                           # no raise: not its cube, the cap, turn 1
    if cube_values(c, mover, o, k, own, NAN, 1.0, 1.0, e):
        return ACT_ERROR
    take = e[1]
    resp = ACT_TAKE
    if e[2] == e[2] and e[2] < take:
        take = e[2]
        resp = ACT_BEAVER
    if take > 1.0:
        take = 1.0
        resp = ACT_PASS
    if cm_double_choice(e[0], take, resp == ACT_PASS) <= 0:
        return ACT_NONE                           # no double (or too good): the ties' rule
    if resp == ACT_TAKE:
        stake[0] = next_stake(c, k)
    elif resp == ACT_BEAVER:
        stake[0] = next_stake(c, next_stake(c, k))
    if resp != ACT_PASS:
        owner[0] = 1 - side
    return resp


cdef int race_value(const cube_t* c, int s, const uint8_t* mover, const uint8_t* o,
                    int stake, int owner, bint no_raise, double p, double* val,
                    int* modelled) noexcept nogil:
    cdef double e[3]
    cdef double v, take
    cdef int own = own_of(owner, s)
    cdef bint table
    if no_raise or own == CUBE_OPPONENT or not stake_ok(c, next_stake(c, stake)):
        table = table_covers(c, mover, o, stake, CUBE_OPPONENT)
        if table:
            v = table_entry(c, home_board_index(mover), home_board_index(o), stake, own)
        else:
            v = model_value(c, p, own, stake, efficiency(c, mover, o), 1.0, 1.0)
    else:
        table = table_covers(c, mover, o, stake, own)       # cube_values' own choice
        if cube_values(c, mover, o, stake, own, p, 1.0, 1.0, e):
            return ACT_ERROR
        take = best_take(e)
        v = e[0] if e[0] >= take else take
    val[0] = v * stake / <double>c.stake0
    if modelled != NULL:
        modelled[0] = not table
    return 0


_ACTIONS = {ACT_NONE: "none", ACT_TAKE: "take", ACT_PASS: "pass", ACT_BEAVER: "beaver"}


def model_point(rules, spec, mover, opponent, int stake, int owner, double p,
                bint no_raise=False, outputs=None):
    """The C cube model at one point, for tests (no game is played).

    ``rules`` with a cube; ``spec`` the ``cubemodel.CubeSettings`` of ``_rollout.play_blocks`` (its
    probabilities source answers ``cube_action``); ``mover``, ``opponent``: boards (24,
    each in its own numbering), the mover (side 0) on roll; ``stake``, ``owner`` (-1 the
    centre, 0 the mover, 1 the opponent); ``p``: the mover's cubeless P(win) given to
    ``cube_values`` and ``race_value``.  Returns a dict: ``x`` (the efficiency),
    ``no_double``, ``double_take``, ``double_beaver`` (per unit stake, for a raise now;
    NaN: no beaver), ``action`` (``cube_action``'s: "none", "take", "pass" or
    "beaver"), ``stake`` and ``owner``
    after it, and ``race_value`` (the truncation value per unit of the starting stake).
    ``outputs``: None, or the mover's outcome distribution as the net's seven outputs
    (float32, ``OUTPUT_NAMES`` order; its P(win) replaces ``p``): the C ``win_loss`` takes
    ``W`` and ``L`` from it and ``spec.points``, and ``no_double``, ``double_take``,
    ``double_beaver`` use them (``action`` and ``race_value`` stay with ``W = L = 1``);
    the dict then also has ``wins`` and ``losses`` (``W``, ``L``).
    """
    cdef cube_t c
    cdef rules_t r
    cdef double e[3]
    cdef double rv = NAN
    cdef const uint8_t[::1] m = np.ascontiguousarray(mover, dtype=np.uint8)
    cdef const uint8_t[::1] o = np.ascontiguousarray(opponent, dtype=np.uint8)
    cdef int k = stake, own = owner, act
    cdef double w = 1.0, l = 1.0
    cdef const float[::1] nv
    err = []
    fill_rules(rules, &r)
    attach_cube(&c, &r, NULL, spec, err)
    if outputs is not None:
        nv = np.ascontiguousarray(outputs, dtype=np.float32)
        if nv.shape[0] != NET_OUTPUTS:
            raise ValueError(f"outputs: {nv.shape[0]} values, expected {NET_OUTPUTS}")
        win_loss(&c, &nv[0], &w, &l)
        p = nv[OUT_WIN]
    if cube_values(&c, &m[0], &o[0], stake, own_of(owner, 0), p, w, l, e) or \
            race_value(&c, 0, &m[0], &o[0], stake, owner, no_raise, p, &rv, NULL):
        raise err[0]
    act = cube_action(&c, 0, &m[0], &o[0], &k, &own)
    if act == ACT_ERROR:
        raise err[0]
    return {"x": efficiency(&c, &m[0], &o[0]), "no_double": e[0], "double_take": e[1],
            "double_beaver": e[2], "action": _ACTIONS[act], "stake": k, "owner": own,
            "race_value": rv, **({} if outputs is None else {"wins": w, "losses": l})}
