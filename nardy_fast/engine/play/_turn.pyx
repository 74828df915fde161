"""One turn of a C game loop: the dice, the legal results, the policy's pick (``_turn.pxd``).

The game loops of rollouts (``_rollout``), strength matches (``_match``) and self-play
(``_selfplay``) share these pieces, so a roll, a move list and a policy's choice mean the
same in each:

- dice come from numpy's C-level ``bitgen_t`` (a ``PCG64`` per block, pair or game, seeded
  by ``nardy_fast.core.rng``): ``draw_roll`` is one ``draw_below(g, 36)``, the ordered roll
  ``(code // 6 + 1, code % 6 + 1)``;
- ``legal_results`` is ``gen_successors`` into a buffer that grows when a roll has more
  results than it holds;
- ``pick`` is the policy dispatch described in ``_policies`` (random, greedy, net, Python
  callables, and the bear-off database's moves in races of both homes).
"""
from libc.stdint cimport uint8_t
from libc.stdlib cimport malloc, free

from nardy_fast.core._board cimport N_POINTS, all_home, in_bearoff
from nardy_fast.core._movegen cimport gen_successors, DEFAULT_CAP
from nardy_fast.engine.evaluation._net cimport Net
from nardy_fast.engine.play._policies cimport greedy_best, bearoff_best, call_policy
from nardy_fast.engine.evaluation._search cimport choose_rolls
from nardy_fast.tables._racetables cimport RaceTables

__all__ = ["KINDS"]

# The policy kinds a C loop plays, by name: the PLAYER_* code of player_t.kind (the one
# vocabulary; turn.LoopPolicy checks its kind against it).
KINDS = {"random": PLAYER_RANDOM, "greedy": PLAYER_GREEDY, "python": PLAYER_PYTHON,
         "net": PLAYER_NET}


cdef int movebuf_init(movebuf_t* m) noexcept nogil:
    m.cap = DEFAULT_CAP
    m.boards = <uint8_t*>malloc(m.cap * N_POINTS)
    return 0 if m.boards != NULL else -1


cdef void movebuf_free(movebuf_t* m) noexcept nogil:
    free(m.boards)
    m.boards = NULL
    m.cap = 0


cdef Py_ssize_t legal_results(movebuf_t* m, const uint8_t* me, const uint8_t* opp, int d1,
                              int d2, const rules_t* rules) noexcept nogil:
    cdef Py_ssize_t n = gen_successors(me, opp, d1, d2, rules, m.boards, NULL, m.cap)
    cdef uint8_t* nb
    while n < 0:                                  # never seen: grow and retry
        nb = <uint8_t*>malloc(8 * m.cap * N_POINTS)
        if nb == NULL:
            return -1
        free(m.boards)
        m.boards = nb
        m.cap *= 8
        n = gen_successors(me, opp, d1, d2, rules, m.boards, NULL, m.cap)
    return n


cdef Py_ssize_t pick(const player_t* p, const race_tables_t* tables, bitgen_t* rng,
                     const uint8_t* me, const uint8_t* opp, const uint8_t* cands,
                     Py_ssize_t n, float* look, void* err) noexcept nogil:
    cdef Py_ssize_t k
    if look != NULL:
        look[0] = -1.0
    if n == 1:
        return 0
    if p.kind == PLAYER_RANDOM:
        return <Py_ssize_t>draw_below(rng, <uint32_t>n)
    if p.kind == PLAYER_NET and not (tables != NULL and in_bearoff(me, opp)):
        k = choose_rolls(&p.search, me, opp, cands, n, p.plies, NULL, look, p.window)
        return k if k >= 0 else PICK_NOMEM
    if tables != NULL and all_home(me):
        return bearoff_best(tables.os_mean, cands, n)
    if p.kind == PLAYER_GREEDY:
        return greedy_best(cands, n, opp)
    with gil:
        k = call_policy(<object>p.fn, cands, n, opp, <list>err)
    return k if k >= 0 else PICK_PYTHON


cdef int fill_player(player_t* p, spec, const rules_t* rules, tables) except -1:
    p.kind = KINDS[spec.kind]
    p.plies = spec.plies
    p.window = 0.0
    p.fn = NULL
    p.search.rules = rules[0]
    p.search.races = NULL if tables is None else &(<RaceTables?>tables).t
    p.search.race12 = NULL
    p.search.net = NULL
    p.search.keep = 0
    if p.kind == PLAYER_PYTHON:
        p.fn = <void*>spec.fn
    elif p.kind == PLAYER_NET:
        p.search.net = &(<Net?>spec.net).c
        p.search.keep = spec.keep
    return 0
