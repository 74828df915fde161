"""The native core of the environments: games of long nardy played one checker step (or one
whole turn) at a time, for many games at once, without the GIL.

A game's state is both boards (the side on roll first, each in its own numbering), the
roll and the dice not yet played, and the legal results of the roll (the boards after
each legal whole turn, from ``gen_successors``, the package's move generator).  The
legal steps of a partly played turn are exactly the first steps of the legal whole turns
that agree with the steps played so far:

- a step is a checker move by one die that the rules allow on the board as it stands
  (landing, the head's limit this turn, bearing off);
- it is legal when the remaining dice can then be played so that the turn uses as many
  dice as every legal turn does and ends on one of the legal results (a hash set of the
  generator's boards): so the rules about whole turns (as many dice as possible, the
  larger die, the head rule with its first-turn doubles, the six-block rule at the end of
  the turn) are the generator's; under ``block_transient=False`` no intermediate board of
  the turn may hold a forbidden block either (rule book 4);
- when a one-die turn must play the larger die, only that die's steps are legal (a
  smaller die bearing off the same checker would reach the same board).

An action of the step mode is ``a = 6 * from_idx + (die - 1)``: ``from_idx`` the 0-based
point in the mover's numbering (0 = the head), a step past the last point bears off; 144
actions.  An action of the afterstate mode is the index of one legal result.

Each game draws its dice from its own xoshiro256** stream seeded from ``(seed, game
index)`` (``nardy_fast.core.rng.child_seed``), so a run depends on the seed only, whatever
the number of threads.
"""
from libc.stdint cimport uint8_t, uint32_t, uint64_t, int32_t
from libc.string cimport memcpy, memset
from libc.stdlib cimport malloc, free, realloc
from cpython.exc cimport PyErr_CheckSignals

import numpy as np

from nardy_fast.core._board cimport (N_POINTS, N_CHECKERS, HOME_IDX, OFF, OUTSIDE_HOME_MASK,
                                     occupancy, opponent_mask, checkers_on)
from nardy_fast.core._rules cimport (rules_t, fill_rules, OPENING_DICE, CUBE_NONE)
from nardy_fast.core._movegen cimport (gen_successors, check_boards, block_windows,
                                       head_limit, forbidden_windows, step_to, NO_STEP)
from nardy_fast.core._scoring cimport last_turn_due
from nardy_fast.core._gameend cimport MAX_GAME_PLIES, game_end, END_DRAW, ERR_NOMEM
from nardy_fast.core._threads cimport nf_run, nf_barrier_t, share, NF_MAX_THREADS
from nardy_fast.engine.play._turn cimport player_t, fill_player, pick

from nardy_fast._utils._resources import check_memory
from nardy_fast.core._checks import check_count, check_dice, check_threads
from nardy_fast.core.position import BLACK, WHITE, Position, as_position
from nardy_fast.core.rng import child_seed, root_entropy, side_seed
from nardy_fast.core.rules import as_rules
from nardy_fast.engine.play.policy import Policy

__all__ = ["VectorEnv", "N_ACTIONS", "OBS_SIZE", "OBSERVATION_FIELDS", "MODES",
           "GAME_PLIES_CAP"]

cdef extern from "nf_bits.h":
    int nf_ctz32(uint32_t x) noexcept nogil

cdef enum:
    NA = 144                 # actions of the step mode: 6 * from_idx + (die - 1)
    NOBS = 60                # floats of an observation
    FIRST_CAP = 128          # legal results a game's buffers hold at first (grown on demand)
    WHITE_SIDE = 0
    BLACK_SIDE = 1

N_ACTIONS = NA
OBS_SIZE = NOBS
GAME_PLIES_CAP = MAX_GAME_PLIES      # turns after which a game is truncated (_gameend.pxd)
MODES = ("step", "afterstate")
# games a thread chooses for in one C call of ``policy_actions``, by the policy's plies: a
# turn at 2 plies is some 40 ms, so that Ctrl-C stops a large batch within a second or so
POLICY_BLOCK = {0: 4096, 1: 512, 2: 8}


def _between_blocks():
    """What ``policy_actions`` does between two blocks of games: raise Ctrl-C if it came
    (a module function, so that a test can stand in for the signal)."""
    PyErr_CheckSignals()

# The observation: float32[60] from the view of the side on roll (its own numbering).
OBSERVATION_FIELDS = (
    ("mover", slice(0, 24), "its checkers on its points 1..24, count / 15"),
    ("opponent", slice(24, 48), "the opponent's checkers on the mover's points 1..24, "
                                "count / 15"),
    ("dice", slice(48, 54), "dice of value 1..6 not yet played this turn, count / 4"),
    ("steps_left", slice(54, 55), "steps still to play this turn, / 4"),
    ("mover_off", slice(55, 56), "the mover's checkers borne off, / 15"),
    ("opponent_off", slice(56, 57), "the opponent's checkers borne off, / 15"),
    ("first_turn", slice(57, 58), "1: the mover had all 15 on its head when the turn began"),
    ("head_used", slice(58, 59), "1: a checker has left the head this turn"),
    ("black", slice(59, 60), "1: Black is on roll"),
)


ctypedef struct game_t:
    uint8_t b[2][N_POINTS]   # [0] the side on roll, [1] the other, each its own numbering
    int side                 # colour on roll: WHITE_SIDE or BLACK_SIDE
    int d1, d2               # the roll, as drawn
    int left[7]              # dice of each value not yet played
    int best                 # steps of every legal turn of the roll (0: a pass)
    int taken                # steps played this turn
    int only_die             # nonzero: a one-step turn must play this die (the larger)
    int head_left            # checkers that may still leave the head this turn
    int head_start           # checkers on the head when the turn began
    uint32_t forbid          # block windows the mover may not make this turn
    int last_turn            # 1: Black's last turn under draw_rule
    int opening              # 1: the game's first roll from the start is still to come
    Py_ssize_t plies         # turns played this game
    Py_ssize_t nres          # legal results of the roll (-1: not generated this turn)
    Py_ssize_t cap           # results the buffers hold
    uint8_t* res             # the results: 24 bytes each (the mover's board after the turn)
    uint8_t* st              # their step lists (8 bytes each, gen_successors' layout)
    int32_t* tab             # hash set of the results: index + 1, 0 = empty
    uint32_t tab_bits
    uint64_t rng[4]          # xoshiro256**: the dice
    uint64_t arng[4]         # xoshiro256**: sample_actions' draws
    int done                 # 1: over (the single-game wrappers do not reset by themselves)
    int want_results         # 1: the legal results are generated at every turn
    uint8_t legal[NA]        # the legal step actions, nlegal of them (compute_mask)
    int nlegal


ctypedef struct work_t:
    uint8_t b[N_POINTS]      # the mover's board as the steps go
    uint32_t occ, opp
    int head_left
    int left[7]
    int check_block          # intermediate boards are checked for forbidden blocks
    int sorted_steps         # a double without a possible block: steps in source order
    uint32_t forbid


# -- random numbers -----------------------------------------------------------------------

cdef inline uint64_t rotl(uint64_t x, int k) noexcept nogil:
    return (x << k) | (x >> (64 - k))


cdef inline uint64_t rng_next(uint64_t* s) noexcept nogil:
    cdef uint64_t result = rotl(s[1] * 5, 7) * 9
    cdef uint64_t t = s[1] << 17
    s[2] ^= s[0]
    s[3] ^= s[1]
    s[1] ^= s[2]
    s[0] ^= s[3]
    s[2] ^= t
    s[3] = rotl(s[3], 45)
    return result


cdef inline uint32_t below(uint64_t* s, uint32_t n) noexcept nogil:
    """Uniform in [0, n): Lemire's multiply-shift with rejection (the C loops' draw_below)."""
    cdef uint64_t m = (rng_next(s) >> 32) * n
    cdef uint32_t low = <uint32_t>m
    cdef uint32_t t
    if low < n:
        t = (<uint32_t>0 - n) % n
        while low < t:
            m = (rng_next(s) >> 32) * n
            low = <uint32_t>m
    return <uint32_t>(m >> 32)


cdef inline void roll(game_t* g, const rules_t* rules) noexcept nogil:
    """The next roll: two dice, ordered as drawn; the game's opening roll has no double
    under ``opening_roll="opening_dice"``."""
    cdef uint32_t c
    if g.opening and rules.opening_roll == OPENING_DICE:
        c = below(g.rng, 30)                     # the 30 ordered non-doubles
        g.d1 = <int>(c // 5) + 1
        g.d2 = <int>(c % 5) + 1
        if g.d2 >= g.d1:
            g.d2 += 1
    else:
        c = below(g.rng, 36)
        g.d1 = <int>(c // 6) + 1
        g.d2 = <int>(c % 6) + 1
    g.opening = 0


# -- the legal results of a roll ----------------------------------------------------------

cdef inline uint64_t board_hash(const uint8_t* b) noexcept nogil:
    cdef uint64_t w[3]
    cdef uint64_t h
    memcpy(w, b, N_POINTS)
    h = w[0] * 0x9E3779B97F4A7C15ULL
    h ^= (w[1] + 0x632BE59BD9B4E019ULL) * 0xBF58476D1CE4E5B9ULL
    h ^= (w[2] + 0x8CB92BA72F3D8DD7ULL) * 0x94D049BB133111EBULL
    return h ^ (h >> 29)


cdef inline bint same_board(const uint8_t* a, const uint8_t* b) noexcept nogil:
    cdef uint64_t x[3]
    cdef uint64_t y[3]
    memcpy(x, a, N_POINTS)
    memcpy(y, b, N_POINTS)
    return x[0] == y[0] and x[1] == y[1] and x[2] == y[2]


cdef inline bint is_result(const game_t* g, const uint8_t* b) noexcept nogil:
    """True when b (the mover's board) is one of the legal results of the roll."""
    cdef uint32_t mask = (1u << g.tab_bits) - 1
    cdef uint32_t slot = <uint32_t>(board_hash(b) >> (64 - g.tab_bits))
    cdef int32_t k = g.tab[slot]
    while k:
        if same_board(g.res + N_POINTS * (k - 1), b):
            return True
        slot = (slot + 1) & mask
        k = g.tab[slot]
    return False


cdef int generate(game_t* g, const rules_t* rules) noexcept nogil:
    """The legal results of (g.b, g.d1, g.d2) into g.res / g.st, and their hash set when
    a block is to be checked (g.forbid, set before); -1 when out of memory."""
    cdef Py_ssize_t n, k
    cdef uint32_t bits, slot, mask
    cdef uint8_t* p
    cdef int32_t* t
    while True:
        n = gen_successors(g.b[0], g.b[1], g.d1, g.d2, rules, g.res, g.st, g.cap)
        if n >= 0:
            break
        p = <uint8_t*>realloc(g.res, 8 * g.cap * N_POINTS)
        if p == NULL:
            return -1
        g.res = p
        p = <uint8_t*>realloc(g.st, 8 * g.cap * 8)
        if p == NULL:
            return -1
        g.st = p
        g.cap *= 8
    g.nres = n
    if g.forbid == 0:
        return 0                                 # no block to check: no hash set needed
    bits = 6
    while (<Py_ssize_t>1 << bits) < 2 * n:
        bits += 1
    if bits != g.tab_bits:
        t = <int32_t*>realloc(g.tab, (<size_t>1 << bits) * sizeof(int32_t))
        if t == NULL:
            return -1
        g.tab = t
        g.tab_bits = bits
    memset(g.tab, 0, (<size_t>1 << g.tab_bits) * sizeof(int32_t))
    mask = (1u << g.tab_bits) - 1
    for k in range(n):
        slot = <uint32_t>(board_hash(g.res + N_POINTS * k) >> (64 - g.tab_bits))
        while g.tab[slot]:
            slot = (slot + 1) & mask
        g.tab[slot] = <int32_t>(k + 1)
    return 0


# -- steps ---------------------------------------------------------------------------------

cdef inline int target(const work_t* w, int i, int d) noexcept nogil:
    """Where the mover's checker on idx i goes with die d on the board as it stands
    (``_movegen.step_to``)."""
    return step_to(w.occ, w.opp, w.head_left, i, d)


cdef inline void do_step(work_t* w, int i, int t, int d) noexcept nogil:
    w.b[i] -= 1
    if w.b[i] == 0:
        w.occ &= ~(1u << i)
    if t != OFF:
        w.b[t] += 1
        w.occ |= (1u << t)
    if i == 0:
        w.head_left -= 1
    w.left[d] -= 1


cdef inline void undo_step(work_t* w, int i, int t, int d) noexcept nogil:
    w.left[d] += 1
    if i == 0:
        w.head_left += 1
    if t != OFF:
        w.b[t] -= 1
        if w.b[t] == 0:
            w.occ &= ~(1u << t)
    w.b[i] += 1
    w.occ |= (1u << i)


cdef inline int simple_steps(const work_t* w, int d) noexcept nogil:
    """Checkers that could each make one step of d that does not bear off: on a point
    whose landing the opponent does not hold, the head's within its limit.  Such steps of
    different checkers are valid in any order (their landings depend on the opponent only),
    so at least this many steps of d can be played."""
    cdef uint32_t src = w.occ & ((1u << (N_POINTS - d)) - 1) & ~(w.opp >> d)
    cdef int n = 0, i
    if src & 1:
        n += w.b[0] if w.b[0] < w.head_left else w.head_left
        src &= ~1u
    while src:
        i = nf_ctz32(src)
        src &= src - 1
        n += w.b[i]
    return n


cdef inline int one_value_left(const work_t* w) noexcept nogil:
    """The value of the dice left when they are all one value (a double, or the last die
    of a non-double), else 0."""
    cdef int d, v = 0
    for d in range(1, 7):
        if w.left[d]:
            if v:
                return 0
            v = d
    return v


cdef int can_finish(const game_t* g, work_t* w, int m, int min_src) noexcept nogil:
    """1 when m more steps can be played from w ending on a legal result."""
    cdef int d, i, t, ok, v
    cdef uint32_t src
    if m == 0:
        # Without a block to check, every sequence of valid steps as long as the legal
        # turns ends on a legal result (the generator keeps them all); else look it up.
        return 1 if g.forbid == 0 else is_result(g, w.b)
    if g.forbid == 0:
        v = one_value_left(w)
        if v and simple_steps(w, v) >= m:
            return 1                             # m checkers can each step once
    for d in range(1, 7):
        if not w.left[d]:
            continue
        src = w.occ
        if w.sorted_steps:
            src &= ~((1u << min_src) - 1)
        while src:
            i = nf_ctz32(src)
            src &= src - 1
            t = target(w, i, d)
            if t < 0:
                continue
            do_step(w, i, t, d)
            ok = not (w.check_block and m > 1 and (block_windows(w.occ) & w.forbid))
            if ok:
                ok = can_finish(g, w, m - 1, i)
            undo_step(w, i, t, d)
            if ok:
                return 1
    return 0


cdef void load_work(const game_t* g, work_t* w, const rules_t* rules) noexcept nogil:
    memcpy(w.b, g.b[0], N_POINTS)
    w.occ = occupancy(g.b[0])
    w.opp = opponent_mask(g.b[1])
    w.head_left = g.head_left
    memcpy(w.left, g.left, sizeof(w.left))
    w.forbid = g.forbid
    w.check_block = g.forbid != 0 and not rules.block_transient
    w.sorted_steps = g.d1 == g.d2 and g.forbid == 0


cdef void compute_mask(game_t* g, const rules_t* rules, uint8_t* mask) noexcept nogil:
    """mask[6 i + d - 1] = 1 for each legal step (i, d) of the turn as played so far."""
    cdef work_t w
    cdef int m = g.best - g.taken, d, i, t, ok
    cdef uint32_t src
    memset(mask, 0, NA)
    g.nlegal = 0
    if m <= 0 or g.done:
        return
    load_work(g, &w, rules)
    for d in range(1, 7):
        if not w.left[d] or (g.only_die and d != g.only_die):
            continue
        src = w.occ
        while src:
            i = nf_ctz32(src)
            src &= src - 1
            t = target(&w, i, d)
            if t < 0:
                continue
            if m == 1 and g.forbid == 0:
                ok = 1                           # the last step, no block to check
                mask[6 * i + d - 1] = 1
                g.legal[g.nlegal] = <uint8_t>(6 * i + d - 1)
                g.nlegal += 1
                continue
            do_step(&w, i, t, d)
            ok = not (w.check_block and m > 1 and (block_windows(w.occ) & w.forbid))
            if ok:
                ok = can_finish(g, &w, m - 1, 0)
            undo_step(&w, i, t, d)
            if ok:
                mask[6 * i + d - 1] = 1
                g.legal[g.nlegal] = <uint8_t>(6 * i + d - 1)
                g.nlegal += 1


cdef int begin_turn(game_t* g, const rules_t* rules) noexcept nogil:
    """The turn of the side on roll with the roll (g.d1, g.d2): the steps every legal turn
    uses and the turn's limits.  -1 when out of memory.

    The legal results are generated (``gen_successors``) when a forbidden block could be
    made this turn (the generator's block rule decides which turns are legal) or when the
    whole turns are wanted (the afterstate mode); else the number of steps is found by the
    mask's own step search: without a block to check, every sequence of valid steps as
    long as the longest is a legal turn (the tests compare both with ``legal_moves``).
    """
    cdef int k, i, t, larger, nd
    cdef work_t w
    cdef uint32_t occ = occupancy(g.b[0]), opp = opponent_mask(g.b[1]), src
    nd = 4 if g.d1 == g.d2 else 2
    g.forbid = forbidden_windows(g.b[1], occ, opp, rules.block_rule, nd)
    for k in range(7):
        g.left[k] = 0
    if g.d1 == g.d2:
        g.left[g.d1] = 4
    else:
        g.left[g.d1] = 1
        g.left[g.d2] = 1
    g.taken = 0
    g.head_start = g.b[0][0]
    g.head_left = head_limit(g.b[0], opp, g.d1, g.d2, rules.head_rule)
    g.only_die = 0
    g.nres = -1
    if g.forbid != 0 or g.want_results:
        if generate(g, rules) < 0:
            return -1
        g.best = 0
        for k in range(4):
            if g.st[2 * k] != NO_STEP:
                g.best += 1
    else:
        load_work(g, &w, rules)
        g.best = 0
        for k in range(nd, 0, -1):
            if can_finish(g, &w, k, 0):
                g.best = k
                break
    if g.best == 1 and g.d1 != g.d2 and rules.larger_die_rule:
        # the larger die's steps reach the legal results: only it may be played
        larger = g.d1 if g.d1 > g.d2 else g.d2
        load_work(g, &w, rules)
        src = w.occ
        while src:
            i = nf_ctz32(src)
            src &= src - 1
            t = target(&w, i, larger)
            if t < 0:
                continue
            do_step(&w, i, t, larger)
            k = can_finish(g, &w, 0, 0)
            undo_step(&w, i, t, larger)
            if k:
                g.only_die = larger
                break
    return 0


cdef int ensure_results(game_t* g, const rules_t* rules) noexcept nogil:
    """Generate the legal results of the turn if they were not (-1: out of memory)."""
    if g.nres >= 0:
        return 0
    return generate(g, rules)


cdef void swap_sides(game_t* g) noexcept nogil:
    cdef uint8_t tmp[N_POINTS]
    memcpy(tmp, g.b[0], N_POINTS)
    memcpy(g.b[0], g.b[1], N_POINTS)
    memcpy(g.b[1], tmp, N_POINTS)
    g.side = 1 - g.side


cdef int end_turn(game_t* g, const rules_t* rules, int actor, double* reward,
                  uint8_t* term, uint8_t* trunc) noexcept nogil:
    """The turn of the side on roll is played: score a finished game, else hand the dice
    to the other side (playing its passes).  reward: the points of ``actor`` (the side
    that made the step) when the game ends.  -1 when out of memory."""
    cdef double pts
    cdef int kind, winner
    while True:
        g.plies += 1
        if g.last_turn:
            # Black's last turn under draw_rule: White (the other side) finished first
            kind = game_end(g.b[0], rules, 1, &pts)
            winner = WHITE_SIDE
            g.done = 1
            term[0] = 1
            if kind != END_DRAW:
                reward[0] = pts if actor == winner else -pts
            return 0
        if checkers_on(g.b[0]) == 0:
            if last_turn_due(rules, g.side == WHITE_SIDE):
                g.last_turn = 1
            else:
                game_end(g.b[1], rules, 0, &pts)
                g.done = 1
                term[0] = 1
                reward[0] = pts if actor == g.side else -pts
                return 0
        elif g.plies >= MAX_GAME_PLIES:
            g.done = 1
            trunc[0] = 1
            return 0
        swap_sides(g)
        roll(g, rules)
        if begin_turn(g, rules) < 0:
            return -1
        if g.best > 0:
            return 0


cdef int start_game(game_t* g, const rules_t* rules) noexcept nogil:
    """A new game from the start, White on roll."""
    memset(g.b, 0, sizeof(g.b))
    g.b[0][0] = N_CHECKERS
    g.b[1][0] = N_CHECKERS
    g.side = WHITE_SIDE
    g.opening = 1
    g.plies = 0
    g.last_turn = 0
    g.done = 0
    roll(g, rules)
    return begin_turn(g, rules)


cdef int after_roll(game_t* g, const rules_t* rules, int actor, double* reward,
                    uint8_t* term, uint8_t* trunc) noexcept nogil:
    """A roll with no legal step passes at once."""
    if g.best > 0:
        return 0
    return end_turn(g, rules, actor, reward, term, trunc)


cdef int play_step(game_t* g, const rules_t* rules, int a, double* reward, uint8_t* term,
                   uint8_t* trunc) noexcept nogil:
    """Play the legal step action a (checked by the caller)."""
    cdef int i = a // 6, d = a % 6 + 1
    cdef int actor = g.side
    cdef int t = i + d
    if t >= N_POINTS:
        t = OFF
    g.b[0][i] -= 1
    if t != OFF:
        g.b[0][t] += 1
    if i == 0:
        g.head_left -= 1
    g.left[d] -= 1
    g.taken += 1
    if g.taken >= g.best:
        return end_turn(g, rules, actor, reward, term, trunc)
    return 0


cdef int play_result(game_t* g, const rules_t* rules, Py_ssize_t k, double* reward,
                     uint8_t* term, uint8_t* trunc) noexcept nogil:
    """Play legal result k as the whole turn (checked by the caller)."""
    memcpy(g.b[0], g.res + N_POINTS * k, N_POINTS)
    g.taken = g.best
    return end_turn(g, rules, g.side, reward, term, trunc)


cdef void observe(const game_t* g, float* o) noexcept nogil:
    cdef int i, on0 = 0, on1 = 0
    for i in range(N_POINTS):
        o[i] = g.b[0][i] * (1.0 / 15)
        on0 += g.b[0][i]
        on1 += g.b[1][i]
    for i in range(12):                          # the opponent's idx j is the mover's j + 12
        o[N_POINTS + i] = g.b[1][i + 12] * (1.0 / 15)
        o[N_POINTS + 12 + i] = g.b[1][i] * (1.0 / 15)
    for i in range(6):
        o[48 + i] = g.left[i + 1] * 0.25
    o[54] = (g.best - g.taken) * 0.25
    o[55] = (N_CHECKERS - on0) * (1.0 / 15)
    o[56] = (N_CHECKERS - on1) * (1.0 / 15)
    o[57] = 1.0 if g.head_start == N_CHECKERS else 0.0
    o[58] = 1.0 if g.b[0][0] < g.head_start else 0.0
    o[59] = 1.0 if g.side == BLACK_SIDE else 0.0


cdef void observe_waiting(const game_t* g, float* o) noexcept nogil:
    """The observation of the side not on roll, from its own view: the boards swapped, no
    dice, no steps, no flags of a turn (the colour flag its own)."""
    cdef int i, on0 = 0, on1 = 0
    memset(o, 0, NOBS * sizeof(float))
    for i in range(N_POINTS):
        o[i] = g.b[1][i] * (1.0 / 15)
        o[N_POINTS + i] = g.b[0][(i + 12) % N_POINTS] * (1.0 / 15)
        on0 += g.b[1][i]
        on1 += g.b[0][i]
    o[55] = (N_CHECKERS - on0) * (1.0 / 15)
    o[56] = (N_CHECKERS - on1) * (1.0 / 15)
    o[59] = 1.0 if g.side == WHITE_SIDE else 0.0


cdef void seed_stream(uint64_t* s, const uint64_t* words) noexcept nogil:
    cdef int k
    for k in range(4):
        s[k] = words[k]
    if (s[0] | s[1] | s[2] | s[3]) == 0:
        s[0] = 1


# -- the batch, over threads ----------------------------------------------------------------

ctypedef struct batch_t:
    game_t* games
    Py_ssize_t n
    const rules_t* rules
    int mode                 # 0 step, 1 afterstate
    int op                   # 0 step, 1 reset every game
    const long long* actions
    float* obs
    uint8_t* mask
    float* reward
    uint8_t* term
    uint8_t* trunc
    signed char* to_play
    int autoreset
    int err


cdef void run_part(void* arg, int tid, int nt, nf_barrier_t* bar) noexcept nogil:
    cdef batch_t* B = <batch_t*>arg
    cdef Py_ssize_t lo = share(0, B.n, tid, nt), hi = share(0, B.n, tid + 1, nt), e
    cdef game_t* g
    cdef int rc
    cdef double r                # the points, in double as the single-game steps give them
    for e in range(lo, hi):
        g = &B.games[e]
        rc = 0
        r = 0
        if B.op == 1:
            B.term[e] = 0
            B.trunc[e] = 0
            rc = start_game(g, B.rules)
            if rc == 0:
                rc = after_roll(g, B.rules, g.side, &r, &B.term[e], &B.trunc[e])
        else:
            B.term[e] = 0
            B.trunc[e] = 0
            if B.mode == 0:
                rc = play_step(g, B.rules, <int>B.actions[e], &r, &B.term[e], &B.trunc[e])
            else:
                rc = play_result(g, B.rules, <Py_ssize_t>B.actions[e], &r, &B.term[e],
                                 &B.trunc[e])
            if rc == 0 and g.done and B.autoreset:
                rc = start_game(g, B.rules)
                if rc == 0:
                    rc = after_roll(g, B.rules, g.side, &r, &B.term[e], &B.trunc[e])
        B.reward[e] = <float>r
        if rc < 0:
            B.err = ERR_NOMEM
            continue
        observe(g, B.obs + NOBS * e)
        B.to_play[e] = <signed char>g.side
        if B.mode == 0:
            compute_mask(g, B.rules, B.mask + NA * e)


ctypedef struct choice_t:
    game_t* games
    Py_ssize_t n
    const rules_t* rules
    const player_t* player
    long long* out
    int err


cdef void choose_part(void* arg, int tid, int nt, nf_barrier_t* bar) noexcept nogil:
    cdef choice_t* C = <choice_t*>arg
    cdef Py_ssize_t lo = share(0, C.n, tid, nt), hi = share(0, C.n, tid + 1, nt), e, k
    cdef game_t* g
    for e in range(lo, hi):
        g = &C.games[e]
        if g.done or ensure_results(g, C.rules) < 0:
            C.out[e] = -1
            if not g.done:
                C.err = 1
            continue
        k = pick(C.player, NULL, NULL, g.b[0], g.b[1], g.res, g.nres, NULL, NULL)
        if k < 0:
            C.err = 1
        C.out[e] = k



def check_start(position, dice, rules):
    """``(Position, (d1, d2) or None)``: a game's start as ``set_state`` takes it, read and
    checked before any game changes.  ``position`` (a ``Position`` or an ID) is refused
    when it is over under ``rules`` (Black's last turn under draw_rule is not), ``dice``
    when it is not a roll."""
    p = as_position(position)
    if p.is_over(rules):
        raise ValueError(f"position {p.id}: the game is over (a side has no checker "
                         "left); expected a position to play from")
    return p, (None if dice is None else check_dice(dice))


def check_action(action, name="action"):
    """``action`` as an int: a Python or numpy integer, or a 0-d integer array (what a
    policy's ``predict`` returns); anything else (a float, a bool, a list) is a
    ``TypeError`` naming it, not truncated."""
    if isinstance(action, np.ndarray) and action.ndim == 0 and action.dtype.kind in "iu":
        action = action[()]
    if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
        raise TypeError(f"{name}={action!r}: expected an integer (a step 0..{NA - 1}, or "
                        "a candidate's index)")
    return int(action)


# bytes a game holds at first: its state, its first buffers of legal results (and their
# two heap headers), its rows of the arrays ``step`` returns
_GAME_BYTES = (sizeof(game_t) + FIRST_CAP * (N_POINTS + 8) + 2 * 16
               + NOBS * sizeof(float) + NA + sizeof(float) + 3)


cdef class VectorEnv:
    """Many games of long nardy at once, in C: ``reset`` and ``step`` take and return numpy
    arrays for all the games together, and a finished game starts again by itself.

    Parameters
    ----------
    n_envs : int
        Games played side by side (>= 1); more than the memory available now can hold
        (about 5 kB a game) are refused (``MemoryError``) before any is made.
    seed : int or None
        Root seed: game ``i`` draws its dice from its own stream, seeded by
        ``nardy_fast.core.rng.child_seed(seed, i)``, so a run depends on the seed only,
        whatever ``threads``.  None draws fresh entropy (kept in ``self.seed``).
    rules : Rules, dict, str or None
        Rule variants (classic by default); the environments play without the cube.
    mode : {"step", "afterstate"}
        ``"step"``: an action is one checker step, ``6 * from_idx + (die - 1)`` (``from_idx``
        the 0-based point in the mover's numbering; a step past the last point bears off),
        144 actions, ``action_masks()`` the legal ones.  ``"afterstate"``: an action is the
        index of one legal whole turn among ``candidates()``.
    threads : int or None
        Threads stepping the games (default 1; None: every usable core).  The GIL is
        released while they run.

    Attributes
    ----------
    autoreset : int
        1 (default): a game that ends starts again at once; 0: it stays over (``done``)
        until ``reset`` or ``set_state`` (the single-game environments' setting).

    Notes
    -----
    The observation of a game is ``float32[60]`` from the view of the side on roll
    (``OBSERVATION_FIELDS``: both boards, the dice not yet played, the steps left in the
    turn, the checkers off, the first-turn and head-used flags, Black on roll).  A roll
    with no legal step passes by itself.  ``step`` returns the reward of the side that
    made the step: at the end of a game the points it won (``+``) or lost (``-``) by the
    rules' scoring, 0 otherwise and for a draw.  A game that ends starts again at once
    (Gymnasium's ``"SameStep"`` autoreset: the observation returned is the new game's,
    ``terminated`` says the old one ended).  A game reaching the C loops' length cap
    (``MAX_GAME_PLIES`` turns, only from hand-made stuck positions) is ``truncated``.

    Examples
    --------
    >>> import numpy as np
    >>> from nardy_fast.env import VectorEnv
    >>> env = VectorEnv(4, seed=1)
    >>> obs, info = env.reset()
    >>> obs.shape, env.action_masks().shape
    ((4, 60), (4, 144))
    >>> rng = np.random.default_rng(0)
    >>> for _ in range(100):
    ...     masks = env.action_masks()
    ...     actions = [rng.choice(np.flatnonzero(m)) for m in masks]
    ...     obs, reward, terminated, truncated, info = env.step(actions)
    """

    cdef game_t* games
    cdef Py_ssize_t n
    cdef rules_t crules
    cdef int _mode
    cdef int _threads
    cdef object _obs, _mask, _reward, _term, _trunc, _to_play
    cdef readonly object rules
    cdef readonly object seed
    cdef public int autoreset

    metadata = {"autoreset_mode": "SameStep"}

    def __cinit__(self, n_envs, *, seed=None, rules=None, mode="step", threads=1):
        self.games = NULL
        n_envs = check_count(n_envs, "n_envs")
        if mode not in MODES:
            raise ValueError(f"mode={mode!r}: expected 'step' or 'afterstate'")
        self.rules = as_rules(rules)
        if self.rules.cube is not None:
            raise ValueError(f"rules: cube={self.rules.cube!r}: the environments play "
                             "without the cube (cube=None)")
        fill_rules(self.rules, &self.crules)
        self._threads = check_threads(threads)
        check_memory(n_envs * _GAME_BYTES, f"VectorEnv(n_envs={n_envs})",
                     "play fewer games at once (n_envs)")
        self.n = n_envs
        self._mode = MODES.index(mode)
        self.autoreset = 1
        self.games = <game_t*>malloc(self.n * sizeof(game_t))
        if self.games == NULL:
            raise MemoryError(f"n_envs={n_envs}: out of memory for that many games")
        memset(self.games, 0, self.n * sizeof(game_t))
        cdef Py_ssize_t e
        cdef game_t* g
        for e in range(self.n):
            g = &self.games[e]
            g.want_results = self._mode == 1
            g.cap = FIRST_CAP
            g.res = <uint8_t*>malloc(FIRST_CAP * N_POINTS)
            g.st = <uint8_t*>malloc(FIRST_CAP * 8)
            if g.res == NULL or g.st == NULL:
                raise MemoryError(f"n_envs={n_envs}: out of memory for that many games")
        self._obs = np.zeros((self.n, NOBS), np.float32)
        self._mask = np.zeros((self.n, NA), np.uint8)
        self._reward = np.zeros(self.n, np.float32)
        self._term = np.zeros(self.n, np.uint8)
        self._trunc = np.zeros(self.n, np.uint8)
        self._to_play = np.zeros(self.n, np.int8)
        self._seed_all(seed)
        self._run(1, None)

    def __dealloc__(self):
        cdef Py_ssize_t e
        if self.games != NULL:
            for e in range(self.n):
                free(self.games[e].res)
                free(self.games[e].st)
                free(self.games[e].tab)
            free(self.games)

    # -- set-up --------------------------------------------------------------------------
    def _seed_all(self, seed):
        self.seed = root_entropy(seed)
        cdef Py_ssize_t e
        cdef const uint64_t[::1] words
        for e in range(self.n):
            words = child_seed(self.seed, e).generate_state(4, np.uint64)
            seed_stream(self.games[e].rng, &words[0])
            words = side_seed(self.seed, e).generate_state(4, np.uint64)
            seed_stream(self.games[e].arng, &words[0])

    cdef _run(self, int op, actions):
        cdef batch_t B
        cdef float[:, ::1] obs = self._obs
        cdef uint8_t[:, ::1] mask = self._mask
        cdef float[::1] reward = self._reward
        cdef uint8_t[::1] term = self._term
        cdef uint8_t[::1] trunc = self._trunc
        cdef signed char[::1] to_play = self._to_play
        cdef const long long[::1] acts
        B.games = self.games
        B.n = self.n
        B.rules = &self.crules
        B.mode = self._mode
        B.op = op
        B.actions = NULL
        if actions is not None:
            acts = actions
            B.actions = &acts[0]
        B.obs = &obs[0, 0]
        B.mask = &mask[0, 0]
        B.reward = &reward[0]
        B.term = &term[0]
        B.trunc = &trunc[0]
        B.to_play = &to_play[0]
        B.autoreset = self.autoreset
        B.err = 0
        cdef int nt = self._threads
        if nt > self.n:
            nt = <int>self.n
        with nogil:
            if nt <= 1:
                run_part(&B, 0, 1, NULL)
            else:
                nf_run(nt, run_part, &B)
        if B.err:
            raise MemoryError("VectorEnv: out of memory for the legal results")

    # -- the Gymnasium vector API ----------------------------------------------------------
    @property
    def num_envs(self):
        """The number of games (Gymnasium's name)."""
        return self.n

    @property
    def mode(self):
        """``"step"`` or ``"afterstate"``."""
        return MODES[self._mode]

    @property
    def threads(self):
        return self._threads

    @property
    def single_observation_space(self):
        """One game's observation space, ``Box(0, 1, (60,), float32)`` (Gymnasium's, which
        is imported when this is first asked for)."""
        from gymnasium import spaces          # optional: the [rl] extra
        return spaces.Box(0.0, 1.0, (NOBS,), np.float32)

    @property
    def single_action_space(self):
        """One game's action space: ``Discrete(144)`` in the step mode; None in the
        afterstate mode, whose number of choices changes with the roll."""
        from gymnasium import spaces          # optional: the [rl] extra
        return spaces.Discrete(NA) if self._mode == 0 else None

    @property
    def observation_space(self):
        """The batch's observation space, ``Box(0, 1, (n_envs, 60), float32)``."""
        from gymnasium import spaces          # optional: the [rl] extra
        return spaces.Box(0.0, 1.0, (self.n, NOBS), np.float32)

    @property
    def action_space(self):
        """The batch's action space: ``MultiDiscrete([144] * n_envs)`` in the step mode;
        None in the afterstate mode."""
        from gymnasium import spaces          # optional: the [rl] extra
        return spaces.MultiDiscrete([NA] * self.n) if self._mode == 0 else None

    def close(self):
        """Nothing to release before the object goes (Gymnasium's vector API)."""

    def reset(self, *, seed=None, options=None):
        """Start every game anew from the start position, White on roll.

        Parameters
        ----------
        seed : int or None
            A new root seed (None keeps the current streams going).
        options : dict or None
            ``{"position": ID or Position}`` starts every game from that position (its
            side on roll; the dice are drawn).

        Returns
        -------
        obs : ndarray of float32, shape (n_envs, 60)
        info : dict
            ``"to_play"``: the colour on roll of each game, 0 White, 1 Black.
        """
        if options is not None and not isinstance(options, dict):
            raise TypeError(f"options={options!r}: expected a dict such as "
                            "{'position': ...} or None")
        position = None
        if options:
            unknown = sorted(set(options) - {"position"})
            if unknown:
                raise ValueError(f"options: unknown key(s) {unknown}: expected 'position'")
            position = options.get("position")
        if position is not None:              # refused before any game changes
            position = check_start(position, None, self.rules)[0]
        if seed is not None:
            self._seed_all(seed)
        self._run(1, None)
        if position is not None:
            for e in range(self.n):
                self.set_state(e, position)
        return self._obs.copy(), self._info()

    def step(self, actions):
        """Play one action in every game.

        Parameters
        ----------
        actions : array_like of int, shape (n_envs,)
            Step mode: a legal step ``6 * from_idx + (die - 1)`` (``action_masks()``).
            Afterstate mode: the index of a legal whole turn (``candidates()``).

        Returns
        -------
        obs : ndarray of float32, shape (n_envs, 60)
        reward : ndarray of float32, shape (n_envs,)
            Points won (+) or lost (-) by the side that made the step, when its game ended.
        terminated, truncated : ndarray of bool, shape (n_envs,)
        info : dict
            ``"to_play"`` (colour on roll now, 0 White, 1 Black).

        Raises
        ------
        ValueError
            When an action is not legal in its game (naming the game and the action); then
            no game changes.
        """
        acts = self._check_actions(actions)
        self._run(0, acts)
        return (self._obs.copy(), self._reward.copy(), self._term.astype(bool),
                self._trunc.astype(bool), self._info())

    def _check_actions(self, actions):
        a = np.asarray(actions)
        if a.shape != (self.n,):
            raise ValueError(f"actions: expected shape ({self.n},), got {a.shape}")
        if a.dtype.kind not in "iuf":
            raise TypeError(f"actions: expected integers, got dtype {a.dtype}")
        if a.dtype.kind == "f":                 # whole numbers only (1.0, not 1.5 or inf)
            off = np.flatnonzero(~np.isfinite(a) | (a != np.floor(a)))
            if off.size:
                raise TypeError(f"actions[{off[0]}] = {a[off[0]].item()!r}: expected an "
                                "integer")
        if a.dtype.kind != "i":                 # before the cast: no wrapped value (a signed
            far = np.flatnonzero((a < 0) | (a > 2 ** 31))  # int is checked in the loop)
            if far.size:
                raise ValueError(f"actions[{far[0]}] = {a[far[0]].item()!r}: not an action "
                                 f"(a step 0..{NA - 1}, or a candidate's index)")
        a = np.ascontiguousarray(a, dtype=np.int64)
        cdef const long long[::1] av = a
        cdef Py_ssize_t e, bad = -1
        cdef long long x
        cdef const uint8_t[:, ::1] mask = self._mask
        with nogil:
            for e in range(self.n):
                x = av[e]
                if self.games[e].done:
                    bad = e
                    break
                if self._mode == 0:
                    if x < 0 or x >= NA or not mask[e, x]:
                        bad = e
                        break
                elif x < 0 or x >= self.games[e].nres:
                    bad = e
                    break
        if bad >= 0:
            raise ValueError(self._illegal(bad, int(av[bad])))
        return a

    def _illegal(self, Py_ssize_t e, a):
        cdef game_t* g = &self.games[e]
        if g.done:
            return f"actions[{e}] = {a}: game {e} is over (autoreset = 0): reset it first"
        if self._mode == 1:
            return (f"actions[{e}] = {a}: not a legal turn of game {e}: expected a "
                    f"candidate index 0..{g.nres - 1}")
        legal = np.flatnonzero(self._mask[e]).tolist()
        what = (f"from point {a // 6 + 1} with a {a % 6 + 1}" if 0 <= a < NA
                else f"expected 0..{NA - 1}")
        return (f"actions[{e}] = {a} ({what}): not a legal step of game {e} "
                f"(roll {g.d1}{g.d2}); legal steps: {legal}")

    def _info(self):
        return {"to_play": self._to_play.copy()}

    def action_masks(self):
        """The legal steps of each game: ``ndarray of bool, shape (n_envs, 144)``, entry
        ``6 * from_idx + (die - 1)``; step mode only (the afterstate mode's choices are
        ``candidates()``)."""
        if self._mode != 0:
            raise ValueError("action_masks: the afterstate mode chooses among candidates(); "
                             "masks are for mode='step'")
        return self._mask.astype(bool)

    def sample_actions(self):
        """A uniformly random legal action for every game: ``ndarray of int64, shape
        (n_envs,)`` (a step of ``action_masks()``, or a candidate index in the afterstate
        mode).  Drawn in C from each game's own second stream (seeded by
        ``nardy_fast.core.rng.side_seed(seed, i)``), apart from the dice."""
        out = np.empty(self.n, np.int64)
        cdef long long[::1] ov = out
        cdef const uint8_t[:, ::1] mask = self._mask
        cdef Py_ssize_t e
        cdef int a, k, cnt
        cdef game_t* g
        with nogil:
            for e in range(self.n):
                g = &self.games[e]
                if self._mode == 1:
                    ov[e] = below(g.arng, <uint32_t>g.nres)
                    continue
                ov[e] = g.legal[below(g.arng, <uint32_t>g.nlegal)] if g.nlegal else -1
        return out

    def policy_actions(self, policy="net"):
        """The whole turn a toolkit policy plays in every game: ``ndarray of int64, shape
        (n_envs,)``, candidate indices (``candidates()``) for the afterstate mode's
        ``step`` (the step mode refuses it: its actions are checker steps).

        Parameters
        ----------
        policy : str or Evaluator
            ``"net"`` (the shipped net at 0-ply, the one the rollouts play: the
            evaluator's ``rollout_net``), ``"net:1"``, ``"net:2"``, ``"greedy"``, or an
            ``Evaluator`` (its net at 0-ply): chosen in C as the rollouts choose
            (``engine._turn.pick``), over the threads, without the GIL, in blocks of
            games (``POLICY_BLOCK``) so that Ctrl-C stops a large batch between two.
        """
        if self._mode != 1:
            raise ValueError("policy_actions: its actions are candidate indices, which "
                             "the step mode would take as checker steps; use "
                             "mode='afterstate' (or play(e, k, whole_turn=True))")
        spec = Policy.of(policy, "policy", kinds=("net", "greedy")).c_form(self.rules)
        cdef player_t p
        fill_player(&p, spec, &self.crules, None)
        out = np.empty(self.n, np.int64)
        cdef long long[::1] ov = out
        cdef choice_t C
        C.rules = &self.crules
        C.player = &p
        C.err = 0
        cdef Py_ssize_t block = POLICY_BLOCK[spec.plies] * self._threads, lo
        cdef int nt
        for lo in range(0, self.n, block):
            C.games = self.games + lo
            C.n = min(block, self.n - lo)
            C.out = &ov[lo]
            nt = self._threads if self._threads < C.n else <int>C.n
            with nogil:
                if nt <= 1:
                    choose_part(&C, 0, 1, NULL)
                else:
                    nf_run(nt, choose_part, &C)
            if C.err:
                raise MemoryError("policy_actions: out of memory choosing the turns")
            _between_blocks()                   # Ctrl-C between two blocks
        return out

    def candidates(self):
        """The boards after each legal whole turn of every game.

        Returns
        -------
        boards : ndarray of uint8, shape (total, 2, 24)
            Row 0 the mover's board after the turn, row 1 the opponent's (unchanged),
            each in its own numbering (the evaluator's layout with the mover first).
        offsets : ndarray of intp, shape (n_envs + 1,)
            Game ``e``'s candidates are ``boards[offsets[e]:offsets[e + 1]]``, in the
            order of ``Position.legal_moves``; action ``k`` of game ``e`` plays the
            ``k``-th.
        """
        cdef Py_ssize_t e, total = 0, k
        for e in range(self.n):
            if ensure_results(&self.games[e], &self.crules) < 0:
                raise MemoryError()
        offsets = np.zeros(self.n + 1, np.intp)
        cdef Py_ssize_t[::1] off = offsets
        for e in range(self.n):
            total += self.games[e].nres
            off[e + 1] = total
        out = np.empty((total, 2, N_POINTS), np.uint8)
        cdef uint8_t[:, :, ::1] ov = out
        cdef game_t* g
        with nogil:
            for e in range(self.n):
                g = &self.games[e]
                for k in range(g.nres):
                    memcpy(&ov[off[e] + k, 0, 0], g.res + N_POINTS * k, N_POINTS)
                    memcpy(&ov[off[e] + k, 1, 0], g.b[1], N_POINTS)
        return out, offsets

    # -- one game's state (the single-game environments use these) -------------------------
    def _game(self, e):
        if isinstance(e, (bool, np.bool_)) or not isinstance(e, (int, np.integer)):
            raise TypeError(f"e={e!r}: expected a game's index, an integer 0..{self.n - 1}")
        if not 0 <= e < self.n:
            raise IndexError(f"game {e}: expected 0..{self.n - 1}")
        return e

    def side(self, e=0):
        """The colour on roll in game ``e`` (``"white"`` or ``"black"``); it stands after
        the game ends, a drawn one included, which no ``Position`` holds."""
        e = self._game(e)
        return BLACK if self.games[e].side == BLACK_SIDE else WHITE

    def position(self, e=0):
        """Game ``e``'s position (``Position``: both boards as they stand, mid-turn
        included, and the colour on roll)."""
        e = self._game(e)
        cdef game_t* g = &self.games[e]
        if checkers_on(g.b[0]) == 0 and checkers_on(g.b[1]) == 0:
            raise ValueError(f"game {e} ended in a draw (draw_rule): both sides have borne "
                             "off all their checkers, which no position holds")
        boards = np.frombuffer(bytes((<uint8_t*>g.b)[:2 * N_POINTS]), np.uint8).reshape(2, 24)
        return Position(boards[0], boards[1], BLACK if g.side else WHITE)

    def dice(self, e=0):
        """Game ``e``'s roll ``(d1, d2)`` as drawn."""
        e = self._game(e)
        return (self.games[e].d1, self.games[e].d2)

    def dice_left(self, e=0):
        """Game ``e``'s dice not yet played this turn, largest first (a tuple of ints)."""
        e = self._game(e)
        cdef game_t* g = &self.games[e]
        return tuple(v for v in range(6, 0, -1) for _ in range(g.left[v]))

    def steps_left(self, e=0):
        """Steps still to play in game ``e``'s turn (every legal turn uses the same number)."""
        e = self._game(e)
        return self.games[e].best - self.games[e].taken

    def done(self, e=0):
        """True when game ``e`` is over and not yet started again (``autoreset = 0``)."""
        e = self._game(e)
        return bool(self.games[e].done)

    def set_state(self, e, position, dice=None):
        """Put game ``e`` at ``position`` (a ``Position`` or an ID; its side on roll) with the
        roll ``dice`` (a pair, or None to draw it).  A position that is over is refused."""
        e = self._game(e)
        p, dice = check_start(position, dice, self.rules)
        if dice is not None:
            d1, d2 = dice
        cdef game_t* g = &self.games[e]
        cdef const uint8_t[:, ::1] bv = np.ascontiguousarray(p.boards)
        memcpy(g.b[0], &bv[0, 0], N_POINTS)
        memcpy(g.b[1], &bv[1, 0], N_POINTS)
        g.side = BLACK_SIDE if p.side == BLACK else WHITE_SIDE
        g.opening = 1 if (p == Position.initial()) else 0
        g.plies = 0
        g.last_turn = 1 if p.is_over() else 0      # Black's last turn under draw_rule
        g.done = 0
        if dice is None:
            roll(g, &self.crules)
        else:
            g.d1, g.d2 = d1, d2
            g.opening = 0
        cdef double r = 0
        cdef uint8_t te = 0, tr = 0
        if (begin_turn(g, &self.crules) < 0
                or after_roll(g, &self.crules, g.side, &r, &te, &tr) < 0):
            raise MemoryError()
        self._refresh(e)
        return float(r), bool(te), bool(tr)

    cdef _refresh(self, Py_ssize_t e):
        cdef float[:, ::1] obs = self._obs
        cdef uint8_t[:, ::1] mask = self._mask
        cdef signed char[::1] to_play = self._to_play
        observe(&self.games[e], &obs[e, 0])
        to_play[e] = <signed char>self.games[e].side
        if self._mode == 0:
            compute_mask(&self.games[e], &self.crules, &mask[e, 0])

    def observation(self, e=0, *, waiting=False):
        """Game ``e``'s observation (float32[60]) for the side on roll, or with
        ``waiting=True`` for the other side, from its own view (no dice, no steps)."""
        e = self._game(e)
        if not waiting:
            return self._obs[e].copy()
        out = np.empty(NOBS, np.float32)
        cdef float[::1] ov = out
        observe_waiting(&self.games[e], &ov[0])
        return out

    def mask(self, e=0):
        """Game ``e``'s legal steps (bool[144]), computed whatever the mode."""
        e = self._game(e)
        out = np.zeros(NA, np.uint8)
        cdef uint8_t[::1] ov = out
        compute_mask(&self.games[e], &self.crules, &ov[0])
        return out.astype(bool)

    def game_candidates(self, e=0):
        """Game ``e``'s legal whole turns: ``(n, 2, 24)`` uint8 (mover after, opponent)."""
        e = self._game(e)
        cdef game_t* g = &self.games[e]
        if ensure_results(g, &self.crules) < 0:
            raise MemoryError()
        n = g.nres
        out = np.empty((n, 2, N_POINTS), np.uint8)
        cdef uint8_t[:, :, ::1] ov = out
        cdef Py_ssize_t k
        for k in range(n):
            memcpy(&ov[k, 0, 0], g.res + N_POINTS * k, N_POINTS)
            memcpy(&ov[k, 1, 0], g.b[1], N_POINTS)
        return out

    def play(self, e, action, *, whole_turn=False):
        """Play one action in game ``e`` alone: a step (``6 * from_idx + die - 1``), or with
        ``whole_turn=True`` the index of a legal whole turn.  Returns ``(reward, terminated,
        truncated)`` as ``step``; a finished game starts again only under ``autoreset``.
        ``ValueError`` for an illegal action, the game unchanged; ``TypeError`` for one
        that is not an integer (``check_action``)."""
        e = self._game(e)
        action = check_action(action)
        cdef game_t* g = &self.games[e]
        if g.done:
            raise ValueError(f"game {e} is over: reset it before playing")
        if whole_turn:
            if ensure_results(g, &self.crules) < 0:
                raise MemoryError()
            if not 0 <= action < g.nres:
                raise ValueError(f"action {action}: not a legal turn: expected a candidate "
                                 f"index 0..{g.nres - 1}")
        else:
            mk = self.mask(e)
            if not 0 <= action < NA or not mk[action]:
                what = (f"from point {action // 6 + 1} with a {action % 6 + 1}"
                        if 0 <= action < NA else f"expected 0..{NA - 1}")
                raise ValueError(f"action {action} ({what}): not a legal step (roll "
                                 f"{g.d1}{g.d2}); legal steps: "
                                 f"{np.flatnonzero(mk).tolist()}")
        cdef double r = 0
        cdef uint8_t te = 0, tr = 0
        cdef int rc
        if whole_turn:
            rc = play_result(g, &self.crules, action, &r, &te, &tr)
        else:
            rc = play_step(g, &self.crules, action, &r, &te, &tr)
        if rc == 0 and g.done and self.autoreset:
            rc = start_game(g, &self.crules)
            if rc == 0:
                rc = after_roll(g, &self.crules, g.side, &r, &te, &tr)
        if rc < 0:
            raise MemoryError()
        self._refresh(e)
        return float(r), bool(te), bool(tr)

    def turn_sequences(self, e=0):
        """Every way of playing game ``e``'s turn from here step by step through the mask:
        a list of ``(actions, board)``, ``actions`` a tuple of step actions, ``board`` the
        mover's board after the last of them (a tuple of 24 counts), or None when the
        mask offered no step before the turn was complete (a dead end, which the mask
        must never lead to).  The game is left as it was.  (For checks and teaching; the
        number of sequences grows fast with a double.)"""
        e = self._game(e)
        out = []
        cdef game_t copy = self.games[e]
        if copy.done or copy.best - copy.taken <= 0:
            return out
        self._walk(&copy, (), out)
        return out

    cdef _walk(self, game_t* g, tuple path, list out):
        cdef uint8_t mask[NA]
        cdef int a, i, d, t
        cdef game_t nxt
        compute_mask(g, &self.crules, mask)
        if g.nlegal == 0:
            out.append((path, None))                 # a dead end
            return
        for a in range(NA):
            if not mask[a]:
                continue
            nxt = g[0]
            i = a // 6
            d = a % 6 + 1
            t = i + d
            nxt.b[0][i] -= 1
            if t < N_POINTS:
                nxt.b[0][t] += 1
            if i == 0:
                nxt.head_left -= 1
            nxt.left[d] -= 1
            nxt.taken += 1
            if nxt.taken >= nxt.best:
                out.append((path + (a,), tuple(nxt.b[0][k] for k in range(N_POINTS))))
            else:
                self._walk(&nxt, path + (a,), out)
