"""Self-play games of the evaluation network, for its training (``train.py``).

``play_games`` plays whole games in C without the GIL, the net choosing every move at
0-ply (``_search.choose``: each legal result valued from the other side's view, races of
both homes by the race tables).  Game ``g`` draws its dice from its own stream
(``rng.block_bit_generator(entropy, g)``; ``_turn.draw_roll``, as every C game loop), so a game depends only on the net, the rules
and ``(entropy, g)``: which thread plays it does not matter.

A game ends when a side bears off its 15th checker, or before a turn when both sides have
all their checkers home (a race: its value comes from the race tables).  It has no last
turn for Black under ``draw_rule`` (``_gameend.game_end``): the record's final value is the
net's value of the finished game, which has no draw output.  Its length cap is
``_gameend.MAX_SELFPLAY_PLIES`` by default, the size of its per-game record buffer.  Per ply ``t``
the record holds the position before the move, ``s_t`` (the mover's board, then the
other's), and ``V(s_{t+1})``, the 0-ply value of the position after it from the view of
the side then on roll; ``lambda_targets`` turns these into TD(lambda) targets, and
``blend_targets`` corrects look-ahead values of the positions by the rest of their game
(its result with each roll's luck taken out).
"""
from libc.stdint cimport uint8_t, uint32_t, uint64_t, int64_t
from libc.stdlib cimport malloc, free
from libc.string cimport memcpy
from cpython.pycapsule cimport PyCapsule_GetPointer
from numpy.random cimport bitgen_t

import numpy as np

from nardy_fast.core._board cimport N_POINTS, checkers_on, in_bearoff
from nardy_fast.engine.evaluation._net cimport Net, net_flip, net_flip_difference, NET_OUTPUTS
from nardy_fast.tables._racetables cimport RaceTables
from nardy_fast.core._rules cimport fill_rules
from nardy_fast.engine.evaluation._search cimport search_t, choose, leaf
from nardy_fast.engine.play._turn cimport movebuf_t, movebuf_init, movebuf_free, legal_results, draw_roll
from nardy_fast.core._gameend cimport MAX_SELFPLAY_PLIES, ERR_NOMEM, ERR_LONG_GAME

__all__ = ["play_games", "lambda_targets", "blend_targets"]


cdef Py_ssize_t play_one(const search_t* srch, bitgen_t* rng, const uint8_t* start,
                         movebuf_t* m, uint8_t* pos, float* nxt,
                         Py_ssize_t max_plies, float* z) noexcept nogil:
    """One game; returns its plies T, or ERR_LONG_GAME (more than max_plies) or ERR_NOMEM.

    pos[48 t..]: s_t; nxt[7 t..]: V(s_{t+1}); z: the final value V(s_T) (the result, or
    the race tables' value of the race).
    """
    cdef uint8_t b[2][N_POINTS]
    cdef int s = 0, r
    cdef Py_ssize_t t = 0, n, k
    memcpy(b[0], start, N_POINTS)
    memcpy(b[1], start + N_POINTS, N_POINTS)
    while True:
        if in_bearoff(b[0], b[1]):
            leaf(srch, b[s], b[1 - s], z)
            return t
        if t >= max_plies:
            return ERR_LONG_GAME
        memcpy(pos + 2 * N_POINTS * t, b[s], N_POINTS)
        memcpy(pos + 2 * N_POINTS * t + N_POINTS, b[1 - s], N_POINTS)
        r = draw_roll(rng)
        n = legal_results(m, b[s], b[1 - s], r // 6 + 1, r % 6 + 1, &srch.rules)
        if n < 0:
            return ERR_NOMEM
        k = choose(srch, b[s], b[1 - s], m.boards, n, 0, nxt + NET_OUTPUTS * t)
        if k < 0:
            return ERR_NOMEM
        net_flip(nxt + NET_OUTPUTS * t)          # the view of the side on roll next
        memcpy(b[s], m.boards + N_POINTS * k, N_POINTS)
        if checkers_on(b[s]) == 0:
            memcpy(z, nxt + NET_OUTPUTS * t, NET_OUTPUTS * sizeof(float))
            return t + 1
        t += 1
        s = 1 - s


def play_games(Net net, start, *, rules, RaceTables tables, bitgens,
               Py_ssize_t max_plies=MAX_SELFPLAY_PLIES):
    """Play one self-play game per bit generator, from ``start`` (2, 24), side 0 on roll.

    Parameters
    ----------
    net : Net
    start : ndarray of uint8, shape (2, 24)
    rules : Rules
        Move rules, and the points the net's moves maximise.
    tables : RaceTables or None
        Values of the races of both homes that end the games (None: the net's).
    bitgens : list of numpy.random.PCG64
        Game ``i`` draws its dice from ``bitgens[i]``.

    Returns
    -------
    positions : ndarray of uint8, shape (P, 2, 24)
        ``s_t`` of every game, games in order.
    next_values : ndarray of float32, shape (P, 7)
        ``V(s_{t+1})`` (see the module docstring).
    lengths : ndarray of int64, shape (n,)
    final : ndarray of float32, shape (n, 7)
        ``V(s_T)``: the result, or the race tables' value of the final race.
    """
    cdef const uint8_t[:, ::1] st = np.ascontiguousarray(start, dtype=np.uint8)
    cdef Py_ssize_t n_games = len(bitgens), g, T
    cdef search_t srch
    srch.net = &net.c
    srch.keep = 0
    srch.races = NULL if tables is None else &tables.t
    srch.race12 = NULL
    fill_rules(rules, &srch.rules)
    pos = np.empty((n_games * 256, 2, N_POINTS), dtype=np.uint8)
    nxt = np.empty((n_games * 256, NET_OUTPUTS), dtype=np.float32)
    lengths = np.zeros(n_games, dtype=np.int64)
    final = np.zeros((n_games, NET_OUTPUTS), dtype=np.float32)
    cdef uint8_t[:, :, ::1] pv
    cdef float[:, ::1] nv
    cdef float[:, ::1] fv = final
    cdef Py_ssize_t used = 0
    cdef movebuf_t m
    movebuf_init(&m)
    cdef uint8_t* gpos = <uint8_t*>malloc(max_plies * 2 * N_POINTS)
    cdef float* gnxt = <float*>malloc(max_plies * NET_OUTPUTS * sizeof(float))
    cdef bitgen_t* rng
    try:
        if m.boards == NULL or gpos == NULL or gnxt == NULL:
            raise MemoryError("self-play: cannot allocate the game buffers")
        for g in range(n_games):
            rng = <bitgen_t*>PyCapsule_GetPointer(bitgens[g].capsule, "BitGenerator")
            with nogil:
                T = play_one(&srch, rng, &st[0, 0], &m, gpos, gnxt, max_plies,
                             &fv[g, 0])
            if T == ERR_LONG_GAME:
                raise RuntimeError(f"self-play: game {g} exceeded {max_plies} plies")
            if T == ERR_NOMEM:
                raise MemoryError("self-play: out of memory")
            if used + T > pos.shape[0]:
                grow = max(2 * pos.shape[0], used + T)
                pos = np.resize(pos, (grow, 2, N_POINTS))
                nxt = np.resize(nxt, (grow, NET_OUTPUTS))
            pv = pos
            nv = nxt
            if T:
                memcpy(&pv[used, 0, 0], gpos, T * 2 * N_POINTS)
                memcpy(&nv[used, 0], gnxt, T * NET_OUTPUTS * sizeof(float))
            used += T
            lengths[g] = T
    finally:
        movebuf_free(&m)
        free(gpos)
        free(gnxt)
    return pos[:used].copy(), nxt[:used].copy(), lengths, final


def lambda_targets(next_values, lengths, terminal, float lam):
    """TD(lambda) targets of games recorded by ``play_games``.

    For a game of T plies with ``next_values[t] = V(s_{t+1})`` (view of the side on roll
    at ``s_{t+1}``) and the final value ``Z = V(s_T)`` (``terminal``)::

        G_T = Z,   R_t = flip(G_{t+1}),   G_t = (1 - lam) V(s_t) + lam R_t   (t >= 1)

    and the target of ``s_t`` is ``R_t`` (view of the side on roll at ``s_t``).

    Parameters
    ----------
    next_values : ndarray of float32, shape (P, 7)
    lengths : ndarray of int64, shape (n,)
    terminal : ndarray of float32, shape (n, 7)
        ``Z`` of each game (``final`` of ``play_games``).
    lam : float

    Returns
    -------
    ndarray of float32, shape (P, 7)
    """
    cdef const float[:, ::1] nv = np.ascontiguousarray(next_values, dtype=np.float32)
    cdef const int64_t[::1] lv = np.ascontiguousarray(lengths, dtype=np.int64)
    cdef const float[:, ::1] zv = np.ascontiguousarray(terminal, dtype=np.float32)
    out = np.empty((nv.shape[0], NET_OUTPUTS), dtype=np.float32)
    cdef float[:, ::1] ov = out
    cdef float G[NET_OUTPUTS]
    cdef Py_ssize_t g, t, T, base = 0
    cdef int k
    with nogil:
        for g in range(lv.shape[0]):
            T = lv[g]
            memcpy(G, &zv[g, 0], NET_OUTPUTS * sizeof(float))
            for t in range(T - 1, -1, -1):
                net_flip(G)
                memcpy(&ov[base + t, 0], G, NET_OUTPUTS * sizeof(float))
                if t >= 1:
                    for k in range(NET_OUTPUTS):
                        G[k] = (1.0 - lam) * nv[base + t - 1, k] + lam * G[k]
            base += T
    return out


def blend_targets(values, next_values, lengths, float lam):
    """Look-ahead values corrected towards the games' results with the luck of each roll
    taken out, for the supervised training of ``supervised.py``.

    A self-play game is a one-game rollout of every position in it.  Its result minus the
    luck of each roll (the value after the move played, ``V(s_{k+1})``, minus the mean of
    that over the rolls, the look-ahead value ``L(s_k)``: exactly the variance reduction
    of a rollout) is an unbiased value of ``s_t`` under the policy that played it, and it
    telescopes to::

        Y_t = L(s_t) + sum_{k > t} lam^(k - t) [L(s_k) - V(s_k)]

    (each term seen from the side on roll at ``s_t``), with ``lam = 1``.  The sum carries
    what the frozen net's 0-ply values miss of their own look-ahead, from the rest of the
    game back to ``s_t``; ``lam < 1`` weighs the far plies less (less noise, some bias);
    ``lam = 0`` gives the look-ahead values themselves.

    Parameters
    ----------
    values : ndarray of float32, shape (P, 7)
        ``L(s_t)`` of each recorded position (a look-ahead value, view of the side on
        roll at ``s_t``), games in order (``play_games``'s positions).
    next_values : ndarray of float32, shape (P, 7)
        ``V(s_{t+1})``, the 0-ply value of the position after the move played, view of
        the side then on roll (``play_games``'s ``next_values``).
    lengths : ndarray of int64, shape (n,)
        Plies of each game (their sum is P).
    lam : float
        In [0, 1].

    Returns
    -------
    ndarray of float32, shape (P, 7)
        Not clipped: a target may leave [0, 1] by the sum of the corrections.
    """
    if not 0.0 <= lam <= 1.0:
        raise ValueError(f"lam = {lam}: must be in [0, 1]")
    cdef const float[:, ::1] vv = np.ascontiguousarray(values, dtype=np.float32)
    cdef const float[:, ::1] nv = np.ascontiguousarray(next_values, dtype=np.float32)
    cdef const int64_t[::1] lv = np.ascontiguousarray(lengths, dtype=np.int64)
    if vv.shape[1] != NET_OUTPUTS or nv.shape[1] != NET_OUTPUTS or nv.shape[0] != vv.shape[0]:
        raise ValueError(f"blend_targets: values {np.shape(values)} and next_values "
                         f"{np.shape(next_values)} do not fit (P rows of 7 outputs each)")
    if lv.shape[0] and np.min(lengths) < 0 or int(np.sum(lengths)) != vv.shape[0]:
        raise ValueError(f"blend_targets: the lengths sum to {int(np.sum(lengths))}, "
                         f"not the {vv.shape[0]} rows of values")
    out = np.empty((vv.shape[0], NET_OUTPUTS), dtype=np.float32)
    cdef float[:, ::1] ov = out
    cdef float D[NET_OUTPUTS]           # L(s_t) - V(s_t) + E_t, seen from s_t
    cdef float e                        # E_t[k], the correction of s_t, seen from s_t
    cdef Py_ssize_t g, t, T, base = 0
    cdef int k
    with nogil:
        for g in range(lv.shape[0]):
            T = lv[g]
            for k in range(NET_OUTPUTS):
                D[k] = 0.0                  # nothing after the last position
            for t in range(T - 1, -1, -1):
                net_flip_difference(D)      # D_{t+1} seen from s_t
                for k in range(NET_OUTPUTS):
                    e = lam * D[k]          # E_t = lam * D_{t+1}
                    ov[base + t, k] = vv[base + t, k] + e
                    if t >= 1:
                        D[k] = vv[base + t, k] - nv[base + t - 1, k] + e
            base += T
    return out
