"""Self-play games of the evaluation network, for its training (``train.py``).

``play_games`` plays whole games in C without the GIL, the net choosing every move at
0-ply: for the roll's legal results it evaluates each resulting position from the other
side's view (``net_eval_many``) and plays the one whose equity for that side is lowest
(ties to the lexicographically smallest board, as the greedy policy).  Game ``g`` draws
its dice from its own stream (``rng.block_bit_generator(entropy, g)``), so a game depends
only on the net, the rules and ``(entropy, g)``: which thread plays it does not matter.

A game ends when a side bears off its 15th checker (``END_FINISHED``) or, before a turn,
when both sides have all their checkers home (``END_RACE``: the caller values that race
with the exact bear-off tables).  Per ply ``t`` the record holds the position before the
move, ``s_t`` (the mover's board then the other's), and ``V(s_{t+1})``, the net's outputs
for the position after it from the view of the side then on roll; ``lambda_targets``
turns these into TD(lambda) targets.
"""
from libc.stdint cimport uint8_t, uint32_t, uint64_t, int64_t
from libc.stdlib cimport malloc, free
from libc.string cimport memcmp, memcpy, memset
from cpython.pycapsule cimport PyCapsule_GetPointer
from numpy.random cimport bitgen_t

import numpy as np

from nardy_fast._board cimport N_POINTS, N_CHECKERS, HOME_IDX, checkers_on, all_home
from nardy_fast._scoring cimport score_game, WIN_OIN, WIN_KOKS, WIN_HOME_MARS
from nardy_fast._movegen cimport gen_successors, rules_t, DEFAULT_CAP
from nardy_fast._net cimport (Net, net_t, points_t, net_eval_many, net_clip, net_equity,
                              net_flip, NET_OUTPUTS, NET_MAX_HIDDEN, OUT_WIN, OUT_MARS_LOSS,
                              OUT_KOKS_LOSS, OUT_HOME_MARS_LOSS)

__all__ = ["play_games", "lambda_targets", "END_FINISHED", "END_RACE", "MAX_GAME_PLIES"]

cdef enum:
    MAX_PLIES_ = 4000        # a self-play game this long is stuck (never seen from the start)
    FINISHED = 0             # how a game ended (``ends`` of play_games)
    RACE = 1

END_FINISHED = FINISHED
END_RACE = RACE
MAX_GAME_PLIES = MAX_PLIES_


cdef inline uint32_t bounded36(bitgen_t* g) noexcept nogil:
    """Uniform in [0, 36) (Lemire's method with rejection)."""
    cdef uint64_t m = <uint64_t>g.next_uint32(g.state) * 36
    cdef uint32_t low = <uint32_t>m
    cdef uint32_t t = (<uint32_t>0 - 36) % 36
    while low < t:
        m = <uint64_t>g.next_uint32(g.state) * 36
        low = <uint32_t>m
    return <uint32_t>(m >> 32)


cdef Py_ssize_t net_choice(const net_t* net, const points_t* pts, const uint8_t* opp,
                           const uint8_t* mover, const uint8_t* cands, Py_ssize_t n,
                           float* vals, float* scratch) noexcept nogil:
    """Index of the 0-ply net's move among n results; vals[7 k..] get the outputs of each
    resulting position from the other side's (on roll next) view, clipped."""
    cdef Py_ssize_t k, best = 0
    cdef double e, top = 0.0
    net_eval_many(net, opp, mover, cands, n, vals, scratch)
    for k in range(n):
        net_clip(vals + NET_OUTPUTS * k)
        e = net_equity(vals + NET_OUTPUTS * k, pts)
        if k == 0 or e < top or (e == top and
                                 memcmp(cands + N_POINTS * k, cands + N_POINTS * best,
                                        N_POINTS) < 0):
            top = e
            best = k
    return best


cdef void finished_values(const uint8_t* loser, const rules_t* rules, float* v) noexcept nogil:
    """Outputs of a finished game from the loser's (on roll) view (_scoring.score_game)."""
    cdef double pts
    cdef int kind = score_game(loser, rules, &pts)
    memset(v, 0, NET_OUTPUTS * sizeof(float))
    if kind != WIN_OIN:
        v[OUT_MARS_LOSS] = 1.0
        if kind == WIN_KOKS:
            v[OUT_KOKS_LOSS] = 1.0
        elif kind == WIN_HOME_MARS:
            v[OUT_HOME_MARS_LOSS] = 1.0


cdef Py_ssize_t play_one(const net_t* net, const points_t* pts, const rules_t* rules,
                         bitgen_t* rng, const uint8_t* start, uint8_t* buf, Py_ssize_t cap,
                         float* vals, float* scratch, uint8_t* pos, float* nxt,
                         Py_ssize_t max_plies, int* end, uint8_t* last) noexcept nogil:
    """One game; returns its plies T (or -1: too long, -2: buffer overflow).

    pos[48 t..]: s_t; nxt[7 t..]: V(s_{t+1}) (t = T - 1 of a finished game: the result;
    of a race: unset, the caller values last[0:48], the race on roll after the last ply).
    """
    cdef uint8_t b[2][N_POINTS]
    cdef int s = 0, r
    cdef Py_ssize_t t = 0, n, k
    memcpy(b[0], start, N_POINTS)
    memcpy(b[1], start + N_POINTS, N_POINTS)
    while True:
        if all_home(b[0]) and all_home(b[1]):
            end[0] = RACE
            memcpy(last, b[s], N_POINTS)
            memcpy(last + N_POINTS, b[1 - s], N_POINTS)
            return t
        if t >= max_plies:
            return -1
        memcpy(pos + 2 * N_POINTS * t, b[s], N_POINTS)
        memcpy(pos + 2 * N_POINTS * t + N_POINTS, b[1 - s], N_POINTS)
        r = <int>bounded36(rng)
        n = gen_successors(b[s], b[1 - s], r // 6 + 1, r % 6 + 1, rules, buf, NULL, cap)
        if n < 0:
            return -2
        k = net_choice(net, pts, b[1 - s], b[s], buf, n, vals, scratch)
        memcpy(b[s], buf + N_POINTS * k, N_POINTS)
        if checkers_on(b[s]) == 0:
            finished_values(b[1 - s], rules, nxt + NET_OUTPUTS * t)
            end[0] = FINISHED
            return t + 1
        memcpy(nxt + NET_OUTPUTS * t, vals + NET_OUTPUTS * k, NET_OUTPUTS * sizeof(float))
        t += 1
        s = 1 - s


def play_games(Net net, start, *, rules_c, points, bitgens, Py_ssize_t max_plies=MAX_PLIES_):
    """Play one self-play game per bit generator, from ``start`` (2, 24), side 0 on roll.

    Parameters
    ----------
    net : Net
    start : ndarray of uint8, shape (2, 24)
    rules_c : tuple of 4 ints
        ``(head_rule, block_rule, block_transient, larger_die_rule)`` codes of ``rules_t``.
    points : tuple of 4 floats
        Points of oin, mars, koks, home mars (the equity the net's moves maximise).
    bitgens : list of numpy.random.PCG64
        Game ``i`` draws its dice from ``bitgens[i]``.

    Returns
    -------
    positions : ndarray of uint8, shape (P, 2, 24)
        ``s_t`` of every game, games in order.
    next_values : ndarray of float32, shape (P, 7)
        ``V(s_{t+1})`` (see the module docstring).
    lengths : ndarray of int64, shape (n,)
    ends : ndarray of int8, shape (n,)
        ``END_FINISHED`` or ``END_RACE``.
    races : ndarray of uint8, shape (n, 2, 24)
        For ``END_RACE`` games the race (side on roll first) after the last ply.
    """
    cdef const uint8_t[:, ::1] st = np.ascontiguousarray(start, dtype=np.uint8)
    cdef Py_ssize_t n_games = len(bitgens), g, T
    cdef points_t pts
    cdef rules_t rules
    cdef int end
    memset(&rules, 0, sizeof(rules_t))            # the fields rules_c does not set
    rules.head_rule, rules.block_rule, rules.block_transient, rules.larger_die_rule = rules_c
    pts.oin, pts.mars, pts.koks, pts.home_mars = points
    pos = np.empty((n_games * 256, 2, N_POINTS), dtype=np.uint8)
    nxt = np.empty((n_games * 256, NET_OUTPUTS), dtype=np.float32)
    lengths = np.zeros(n_games, dtype=np.int64)
    ends = np.zeros(n_games, dtype=np.int8)
    races = np.zeros((n_games, 2, N_POINTS), dtype=np.uint8)
    cdef uint8_t[:, :, ::1] pv
    cdef float[:, ::1] nv
    cdef uint8_t[:, :, ::1] rv = races
    cdef Py_ssize_t used = 0
    cdef Py_ssize_t cap = DEFAULT_CAP
    cdef uint8_t* buf = <uint8_t*>malloc(cap * N_POINTS)
    cdef float* vals = <float*>malloc(cap * NET_OUTPUTS * sizeof(float))
    cdef float* scratch = <float*>malloc(2 * NET_MAX_HIDDEN * sizeof(float))
    cdef uint8_t* gpos = <uint8_t*>malloc(max_plies * 2 * N_POINTS)
    cdef float* gnxt = <float*>malloc(max_plies * NET_OUTPUTS * sizeof(float))
    cdef bitgen_t* rng
    try:
        if buf == NULL or vals == NULL or scratch == NULL or gpos == NULL or gnxt == NULL:
            raise MemoryError("self-play: cannot allocate the game buffers")
        for g in range(n_games):
            rng = <bitgen_t*>PyCapsule_GetPointer(bitgens[g].capsule, "BitGenerator")
            with nogil:
                T = play_one(&net.c, &pts, &rules, rng, &st[0, 0], buf, cap, vals, scratch,
                             gpos, gnxt, max_plies, &end, &rv[g, 0, 0])
            if T == -1:
                raise RuntimeError(f"self-play: game {g} exceeded {max_plies} plies")
            if T == -2:
                raise RuntimeError("self-play: successor buffer overflow")
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
            ends[g] = end
    finally:
        free(buf)
        free(vals)
        free(scratch)
        free(gpos)
        free(gnxt)
    return pos[:used].copy(), nxt[:used].copy(), lengths, ends, races


def lambda_targets(next_values, lengths, terminal, float lam):
    """TD(lambda) targets of games recorded by ``play_games``.

    For a game of T plies with ``V_t = next_values[t]`` (``V(s_{t+1})``, view of the side
    on roll at ``s_{t+1}``) and the final value ``Z`` (``V(s_T)``: ``next_values[T - 1]``
    for a finished game, the exact race value for a race, passed in ``terminal``)::

        G_T = Z,   R_t = flip(G_{t+1}),   G_t = (1 - lam) V(s_t) + lam R_t   (t >= 1)

    and the target of ``s_t`` is ``R_t`` (view of the side on roll at ``s_t``).

    Parameters
    ----------
    next_values : ndarray of float32, shape (P, 7)
    lengths : ndarray of int64, shape (n,)
    terminal : ndarray of float32, shape (n, 7)
        ``Z`` of each game.
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
