# C-level API of one turn of a C game loop (see _turn.pyx): the dice, the legal results in
# a growing buffer, and the pick of a side's policy.  The game loops of _rollout, _match
# and _selfplay all draw their dice and generate their moves here.
from libc.stdint cimport uint8_t, uint32_t, uint64_t
from numpy.random cimport bitgen_t

from nardy_fast.core._rules cimport rules_t
from nardy_fast.engine.evaluation._search cimport search_t
from nardy_fast.tables._racetables cimport race_tables_t

cdef enum:
    PLAYER_RANDOM = 0            # player_t.kind, the C form of engine.policy.Policy.kind
    PLAYER_GREEDY = 1
    PLAYER_PYTHON = 2
    PLAYER_NET = 3
    PICK_NOMEM = -1              # pick(): the search ran out of memory (or its buffer)
    PICK_PYTHON = -3             # pick(): a Python policy raised (the exception in err)

# One side's policy in C: the home of a C loop's policy; turn.LoopPolicy is its Python view
# (fill_player reads one into it), kinds named by _turn.KINDS.
ctypedef struct player_t:
    int kind                     # PLAYER_*
    int plies                    # PLAYER_NET: look-ahead of the move choice
    double window                # PLAYER_NET, plies >= 1: move filter (_search.choose_rolls)
    search_t search              # PLAYER_NET: the net, the rules, the race values
    void* fn                     # PLAYER_PYTHON: the callable (borrowed)

# The legal results of a roll: 24 bytes per board, grown on demand (owned by the loop).
ctypedef struct movebuf_t:
    uint8_t* boards
    Py_ssize_t cap               # boards the buffer holds

# A uniform integer in [0, n) from g: Lemire's multiply-shift, rejecting the biased low
# part (one 32-bit draw, rarely more).  Every C game loop draws its dice with it.
cdef inline uint32_t draw_below(bitgen_t* g, uint32_t n) noexcept nogil:
    cdef uint64_t m = <uint64_t>g.next_uint32(g.state) * n
    cdef uint32_t low = <uint32_t>m
    cdef uint32_t t
    if low < n:
        t = (<uint32_t>0 - n) % n
        while low < t:
            m = <uint64_t>g.next_uint32(g.state) * n
            low = <uint32_t>m
    return <uint32_t>(m >> 32)

# A uniform roll of two dice: its code 6 (d1 - 1) + (d2 - 1), 0 .. 35 (ordered dice).
cdef inline int draw_roll(bitgen_t* g) noexcept nogil:
    return <int>draw_below(g, 36)

# Allocate / free a move buffer of DEFAULT_CAP boards; movebuf_init returns -1 on no memory.
cdef int movebuf_init(movebuf_t* m) noexcept nogil
cdef void movebuf_free(movebuf_t* m) noexcept nogil

# The legal results of (me on roll, opp) with dice (d1, d2) into m.boards (grown when
# needed): their number (>= 1), or -1 (no memory).
cdef Py_ssize_t legal_results(movebuf_t* m, const uint8_t* me, const uint8_t* opp, int d1,
                              int d2, const rules_t* rules) noexcept nogil

# The index of the result p plays among the n results of one roll in cands: a forced move
# at once; random: draw_below(rng, n); in a race of both homes (tables given) every
# policy but random plays the bear-off database's move of least expected turns (greedy:
# whenever the mover is home); else greedy_best, the net's choose_rolls (look: the
# per-roll values of its look-ahead, or NULL), or the Python callable (with the GIL; err
# is the list receiving its exception).  PICK_* on error.
cdef Py_ssize_t pick(const player_t* p, const race_tables_t* tables, bitgen_t* rng,
                     const uint8_t* me, const uint8_t* opp, const uint8_t* cands,
                     Py_ssize_t n, float* look, void* err) noexcept nogil

# Fill p from a LoopPolicy (engine.policy; Policy.c_form()) under rules, with the race
# values tables (or None) for the net's search; p.window = 0.
cdef int fill_player(player_t* p, spec, const rules_t* rules, tables) except -1
