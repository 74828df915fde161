"""Matches of two players with shared dice, in C (for ``match.py``).

Pair ``p`` of a match is two games from the same start: player A moves first in the
first game, player B in the second, and roll ``t`` of either game is roll ``t`` of the
pair's own dice stream (two ``PCG64`` generators of the same seed, ``match.py``: one per
game; rolls by ``_turn.draw_roll``), so each dice sequence is played from both sides and
most of the luck cancels between the two games.

Players: ``LoopPolicy`` objects (``engine.policy``) of kind ``"greedy"`` or ``"net"``
(``_turn.pick``): in a race of both homes both play the bear-off database's move of least
expected turns, as the rollout policies do.  Games are played to the end and scored by
``_gameend.game_end`` under the rules (with ``draw_rule`` the first mover is White:
Black's last turn, a draw scores 0).
"""
from libc.stdint cimport uint8_t
from libc.stdlib cimport malloc, free
from libc.string cimport memcpy
from cpython.pycapsule cimport PyCapsule_GetPointer
from numpy.random cimport bitgen_t

import numpy as np

from nardy_fast.core._board cimport N_POINTS
from nardy_fast.core._rules cimport rules_t, fill_rules
from nardy_fast.core._scoring cimport last_turn_due
from nardy_fast.core._gameend cimport (after_turn, game_end, GAME_ON, END_DRAW, MAX_GAME_PLIES, ERR_NOMEM, ERR_LONG_GAME)
from nardy_fast.engine.play._turn cimport (player_t, movebuf_t, fill_player, movebuf_init, movebuf_free, legal_results, pick, draw_roll)
from nardy_fast.tables._racetables cimport race_tables_t, RaceTables

__all__ = ["play_pairs"]

cdef int turn(const player_t* pl, const rules_t* rules, const race_tables_t* tables,
              bitgen_t* rng, uint8_t* me, const uint8_t* opp, movebuf_t* m) noexcept nogil:
    """Play one turn of the next roll of rng in place; 0 or an ERR_* code (negative)."""
    cdef int r = draw_roll(rng)
    cdef Py_ssize_t n = legal_results(m, me, opp, r // 6 + 1, r % 6 + 1, rules)
    cdef Py_ssize_t k
    if n < 0:
        return ERR_NOMEM
    k = pick(pl, tables, NULL, me, opp, m.boards, n, NULL, NULL)
    if k < 0:
        return ERR_NOMEM
    memcpy(me, m.boards + N_POINTS * k, N_POINTS)
    return 0


cdef int game(const player_t* p0, const player_t* p1, const rules_t* rules,
              const race_tables_t* tables, bitgen_t* rng, const uint8_t* start,
              movebuf_t* m, double* points) noexcept nogil:
    """One game, p0 (White) moving first; *points: p0's points (negative: a loss)."""
    cdef uint8_t b[2][N_POINTS]
    cdef const player_t* pl[2]
    cdef int s = 0, err, plies = 0, loser
    cdef bint last
    cdef double pts
    pl[0] = p0
    pl[1] = p1
    memcpy(b[0], start, N_POINTS)
    memcpy(b[1], start + N_POINTS, N_POINTS)
    while True:
        err = turn(pl[s], rules, tables, rng, b[s], b[1 - s], m)
        if err:
            return err
        plies += 1
        err = after_turn(b[s], plies)
        if err != GAME_ON:
            if err < 0:
                return err
            break
        s = 1 - s
    loser = 1 - s
    last = last_turn_due(rules, s == 0)
    if last:
        err = turn(pl[loser], rules, tables, rng, b[loser], b[s], m)
        if err:
            return err
    if game_end(b[loser], rules, last, &pts) == END_DRAW:
        points[0] = 0.0
    else:
        points[0] = pts if s == 0 else -pts
    return 0


def play_pairs(players, start, *, rules, RaceTables tables, bitgens):
    """Play one pair of games per pair of dice streams (module docstring).

    Parameters
    ----------
    players : tuple of two LoopPolicy
        Player A and player B, each of kind ``"greedy"`` or ``"net"``.
    start : ndarray of uint8, shape (2, 24)
        The start of every game (the first mover's board first).
    rules : Rules
    tables : RaceTables or None
        Race values for the nets' search and the bear-off moves (None: neither).
    bitgens : list of (PCG64, PCG64)
        The dice of each pair: two generators in the same state, one per game.

    Returns
    -------
    ndarray of float64, shape (n, 2)
        Points won by A in the game where A moves first and in the one where B does.
    """
    cdef player_t a, b
    cdef rules_t r
    cdef movebuf_t m
    cdef const uint8_t[:, ::1] st = np.ascontiguousarray(start, dtype=np.uint8)
    cdef Py_ssize_t n = len(bitgens), k
    out = np.zeros((n, 2), dtype=np.float64)
    cdef double[:, ::1] o = out
    cdef const race_tables_t* rt = NULL if tables is None else &tables.t
    cdef bitgen_t** rngs = <bitgen_t**>malloc((2 * n + 1) * sizeof(bitgen_t*))
    cdef int err = 0
    if any(p.kind not in ("greedy", "net") for p in players):
        raise ValueError("match players: 'greedy' or a net only")
    fill_rules(rules, &r)
    fill_player(&a, players[0], &r, tables)
    fill_player(&b, players[1], &r, tables)
    if rngs == NULL or movebuf_init(&m):
        free(rngs)
        raise MemoryError("match: cannot allocate the successor buffer")
    try:
        for k in range(n):
            for j in range(2):
                rngs[2 * k + j] = <bitgen_t*>PyCapsule_GetPointer(
                    bitgens[k][j].capsule, "BitGenerator")
        with nogil:
            for k in range(n):
                err = game(&a, &b, &r, rt, rngs[2 * k], &st[0, 0], &m, &o[k, 0])
                if not err:
                    err = game(&b, &a, &r, rt, rngs[2 * k + 1], &st[0, 0], &m, &o[k, 1])
                    o[k, 1] = -o[k, 1]
                if err:
                    break
    finally:
        movebuf_free(&m)
        free(rngs)
    if err == ERR_LONG_GAME:
        raise RuntimeError(f"match: a game exceeded {MAX_GAME_PLIES} plies")
    if err:
        raise MemoryError("match: out of memory in the search")
    return out
