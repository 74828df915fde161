"""Matches of two players with shared dice, in C (for ``match.py``).

Pair ``p`` of a match is two games from the same start: player A moves first in the
first game, player B in the second, and roll ``t`` of either game is roll ``t`` of the
pair's own dice stream (splitmix64 seeded from ``(seed, p)``; uniform over the 36 ordered
rolls, rejection sampled), so each dice sequence is played from both sides and most of
the luck cancels between the two games.

Players: ``"greedy"`` (``_policies.greedy_best``) or ``("net", Net, plies, keep)``
(``_search.choose``).  In a race of both homes both play the bear-off database's move of
least expected turns, as the rollout policies do.  Games are played to the end and scored
by ``_scoring.score_game`` under the rules (with ``draw_rule`` the first mover is White:
Black's last turn, a draw scores 0).
"""
from libc.stdint cimport uint8_t, uint64_t
from libc.stdlib cimport malloc, free
from libc.string cimport memcpy

import numpy as np

from nardy_fast.core._board cimport N_POINTS, checkers_on, all_home
from nardy_fast.core._movegen cimport gen_successors, DEFAULT_CAP
from nardy_fast.engine._net cimport Net
from nardy_fast.engine._policies cimport greedy_best, bearoff_best
from nardy_fast.tables._racetables cimport RaceTables
from nardy_fast.core._rules cimport rules_t, fill_rules
from nardy_fast.core._scoring cimport score_game, last_turn_due
from nardy_fast.engine._search cimport search_t, choose

__all__ = ["play_pairs"]

cdef enum:
    KIND_GREEDY = 0
    KIND_NET = 1
    MAX_PLIES = 100000       # a game this long is stuck: error
    ERR_LONG_GAME = -3


ctypedef struct player_t:
    int kind                 # KIND_*
    int plies                # KIND_NET: look-ahead
    search_t search          # KIND_NET: the net and its settings


cdef inline uint64_t splitmix(uint64_t* s) noexcept nogil:
    cdef uint64_t z
    s[0] += 0x9E3779B97F4A7C15ULL
    z = s[0]
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL
    return z ^ (z >> 31)


cdef inline int next_roll(uint64_t* s) noexcept nogil:
    """0 .. 35 (roll code 6 (d1 - 1) + d2 - 1): six random bits, 36..63 rejected."""
    cdef int r = 63
    while r >= 36:
        r = <int>(splitmix(s) >> 58)
    return r


cdef int turn(const player_t* pl, const rules_t* rules, const double* mean, uint8_t* me,
              const uint8_t* opp, int r, uint8_t* buf) noexcept nogil:
    """Play one turn of roll code r in place; 0 or a negative error."""
    cdef Py_ssize_t n, k
    n = gen_successors(me, opp, r // 6 + 1, r % 6 + 1, rules, buf, NULL, DEFAULT_CAP)
    if n < 0:
        return -2
    if n == 1:
        k = 0
    elif mean != NULL and all_home(me) and (pl.kind == KIND_GREEDY or all_home(opp)):
        k = bearoff_best(mean, buf, n)
    elif pl.kind == KIND_GREEDY:
        k = greedy_best(buf, n, opp)
    else:
        k = choose(&pl.search, me, opp, buf, n, pl.plies, NULL)
        if k < 0:
            return <int>k
    memcpy(me, buf + N_POINTS * k, N_POINTS)
    return 0


cdef int game(const player_t* p0, const player_t* p1, const rules_t* rules,
              const double* mean, uint64_t seed, const uint8_t* start, uint8_t* buf,
              double* points) noexcept nogil:
    """One game, p0 (White) moving first; *points: p0's points (negative: a loss)."""
    cdef uint8_t b[2][N_POINTS]
    cdef const player_t* pl[2]
    cdef uint64_t st = seed
    cdef int s = 0, err, plies = 0, loser
    cdef double pts
    pl[0] = p0
    pl[1] = p1
    memcpy(b[0], start, N_POINTS)
    memcpy(b[1], start + N_POINTS, N_POINTS)
    while True:
        err = turn(pl[s], rules, mean, b[s], b[1 - s], next_roll(&st), buf)
        if err:
            return err
        if checkers_on(b[s]) == 0:
            break
        plies += 1
        if plies >= MAX_PLIES:
            return ERR_LONG_GAME
        s = 1 - s
    loser = 1 - s
    if last_turn_due(rules, s == 0):
        err = turn(pl[loser], rules, mean, b[loser], b[s], next_roll(&st), buf)
        if err:
            return err
        if checkers_on(b[loser]) == 0:
            points[0] = 0.0
            return 0
    score_game(b[loser], rules, &pts)
    points[0] = pts if s == 0 else -pts
    return 0


cdef int fill_player(player_t* pl, spec, const rules_t* rules, RaceTables tables) except -1:
    if spec == "greedy":
        pl.kind = KIND_GREEDY
        return 0
    if not (isinstance(spec, tuple) and len(spec) == 4 and spec[0] == "net"):
        raise ValueError(f"player {spec!r}: expected 'greedy' or ('net', Net, plies, keep)")
    pl.kind = KIND_NET
    pl.search.net = &(<Net?>spec[1]).c
    pl.search.rules = rules[0]
    pl.search.races = NULL if tables is None else &tables.t
    pl.plies = spec[2]
    pl.search.keep = spec[3]
    return 0


def play_pairs(players, start, *, rules, RaceTables tables, seeds):
    """Play one pair of games per seed (module docstring).

    Parameters
    ----------
    players : tuple of two specs
        Player A and player B: ``"greedy"`` or ``("net", Net, plies, keep)``.
    start : ndarray of uint8, shape (2, 24)
        The start of every game (the first mover's board first).
    rules : Rules
    tables : RaceTables or None
        Race values for the nets' search and the bear-off moves (None: neither).
    seeds : ndarray of uint64, shape (n,)
        Dice stream seed of each pair.

    Returns
    -------
    ndarray of float64, shape (n, 2)
        Points won by A in the game where A moves first and in the one where B does.
    """
    cdef player_t a, b
    cdef rules_t r
    cdef const uint8_t[:, ::1] st = np.ascontiguousarray(start, dtype=np.uint8)
    cdef const uint64_t[::1] sd = np.ascontiguousarray(seeds, dtype=np.uint64)
    out = np.zeros((sd.shape[0], 2), dtype=np.float64)
    cdef double[:, ::1] o = out
    cdef const double* mean = NULL if tables is None else tables.t.os_mean
    cdef uint8_t* buf = <uint8_t*>malloc(DEFAULT_CAP * N_POINTS)
    cdef Py_ssize_t k
    cdef int err = 0
    fill_rules(rules, &r)
    fill_player(&a, players[0], &r, tables)
    fill_player(&b, players[1], &r, tables)
    if buf == NULL:
        raise MemoryError("match: cannot allocate the successor buffer")
    try:
        with nogil:
            for k in range(sd.shape[0]):
                err = game(&a, &b, &r, mean, sd[k], &st[0, 0], buf, &o[k, 0])
                if not err:
                    err = game(&b, &a, &r, mean, sd[k], &st[0, 0], buf, &o[k, 1])
                    o[k, 1] = -o[k, 1]
                if err:
                    break
    finally:
        free(buf)
    if err == ERR_LONG_GAME:
        raise RuntimeError(f"match: a game exceeded {MAX_PLIES} plies")
    if err:
        raise MemoryError("match: out of memory in the search")
    return out
