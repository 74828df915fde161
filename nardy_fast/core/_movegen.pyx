"""Legal move generation for long nardy (rule book sections 2-6), in C.

The core, ``gen_successors``, is a depth-first search over single-checker steps that keeps
the plays using the most dice and dedupes them by resulting board:

- non-doubles search both die orders; results are deduped with an open-addressing hash
  table of Zobrist keys (board compared in full on a key match);
- doubles search steps in non-decreasing order of their source point when no forbidden
  block can arise this turn.  Every play of a double can be reordered so (landings do not
  depend on order, moving rear checkers first only helps bearing off, the head limit is a
  count), and a multiset of equal-length steps is determined by the board it leaves, so
  this order yields each result exactly once with no dedupe.  When a forbidden block could
  arise, the order of steps matters (``block_transient=False``) and all orders are searched
  with dedupe.

The ``def`` functions check and convert their inputs, release the GIL for the core and
raise from its return code.
"""
from libc.stdint cimport uint8_t, uint32_t, uint64_t, int32_t
from libc.string cimport memcpy, memset
from libc.stdlib cimport malloc, free

import numpy as np

from nardy_fast.core._checks cimport as_board, check_die
from nardy_fast.core._checks import check_dice
from nardy_fast.core._dice cimport N_ROLLS
from nardy_fast.core import _dice

from nardy_fast.core._board cimport (N_POINTS, N_CHECKERS, HOME_IDX, OFF, OUTSIDE_HOME_MASK, occupancy, opponent_mask)

cdef extern from "nf_bits.h":
    int nf_popcount32(uint32_t x) noexcept nogil

cdef enum:
    WINDOWS_ALL = (1 << 19) - 1      # block windows start at opponent idx 0..18
    STACK_TABLE_BITS = 8             # 256-slot hash table on the stack

# Zobrist keys (fixed, so results are deterministic); read-only after import.
cdef uint64_t ZOBRIST[N_POINTS]
# Mover-idx mask of the block window starting at opponent idx j (opponent points j+1..j+6).
cdef uint32_t WINDOW_MASK[19]


cdef void _init_tables() noexcept:
    cdef uint64_t x = 0x9E3779B97F4A7C15ULL, z
    cdef int i, j, k
    for i in range(N_POINTS):
        x += 0x9E3779B97F4A7C15ULL              # splitmix64
        z = x
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL
        ZOBRIST[i] = z ^ (z >> 31)
    for j in range(19):
        WINDOW_MASK[j] = 0
        for k in range(6):
            WINDOW_MASK[j] |= (1u << ((j + k + 12) % N_POINTS))

_init_tables()


ctypedef struct gen_t:
    uint8_t b[N_POINTS]       # mover's board, mover's numbering, changed in place
    uint32_t occ              # bit idx: b[idx] > 0
    uint32_t opp              # bit idx: the opponent holds mover idx
    uint32_t forbid           # opponent-idx starts of blocks that may not be made
    int check_block           # forbid != 0
    int transient             # only the end of the turn is checked for blocks
    int head_left             # checkers that may still leave the head this turn
    int dice[MAX_STEPS]       # die of step k
    int ndice                 # steps to try
    int sorted_steps          # steps in non-decreasing source order (doubles, no blocks)
    int skip_commuted         # second die order of a non-double: skip what the first gave
    uint32_t occ0             # occupancy at the start of the turn
    int best                  # dice used by the results kept
    int l1_larger             # a one-die play used the larger die
    int larger                # the larger die of a non-double
    uint64_t h                # Zobrist key of b
    uint8_t path[2 * MAX_STEPS]
    uint8_t* out
    uint8_t* steps
    Py_ssize_t n
    Py_ssize_t cap
    int overflow
    int dedupe
    int32_t* table            # result index + 1, 0 = empty
    uint32_t table_bits
    int32_t* heap_table       # owned when the table outgrew the stack
    int32_t stack_table[1 << STACK_TABLE_BITS]


cdef inline uint64_t board_key(const uint8_t* b) noexcept nogil:
    cdef uint64_t h = 0
    cdef int i
    for i in range(N_POINTS):
        h += b[i] * ZOBRIST[i]
    return h


cdef int grow_table(gen_t* g) noexcept nogil:
    """Double the hash table; returns -1 when out of memory."""
    cdef uint32_t bits = g.table_bits + 1
    cdef int32_t* t = <int32_t*>malloc((<size_t>1 << bits) * sizeof(int32_t))
    cdef Py_ssize_t k
    cdef uint32_t slot, mask = (1u << bits) - 1
    if t == NULL:
        return -1
    memset(t, 0, (<size_t>1 << bits) * sizeof(int32_t))
    for k in range(g.n):
        slot = <uint32_t>(board_key(g.out + N_POINTS * k) >> (64 - bits))
        while t[slot]:
            slot = (slot + 1) & mask
        t[slot] = <int32_t>(k + 1)
    if g.heap_table != NULL:
        free(g.heap_table)
    g.heap_table = t
    g.table = t
    g.table_bits = bits
    return 0


cdef inline bint same_board(const uint8_t* a, const uint8_t* b) noexcept nogil:
    """True when the two 24-point boards are equal (three 8-byte compares)."""
    cdef uint64_t x[3]
    cdef uint64_t y[3]
    memcpy(x, a, N_POINTS)
    memcpy(y, b, N_POINTS)
    return x[0] == y[0] and x[1] == y[1] and x[2] == y[2]


cdef void record(gen_t* g, int level, int i, int t) noexcept nogil:
    """Keep a play using `level` dice (if no play uses more): the current board, with the
    pending last step i -> t applied when i >= 0 (t = OFF bears off).

    Applying the last step only to the stored copy saves the apply/undo of the board for
    the many leaves that turn out to be duplicates.
    """
    cdef uint32_t slot = 0, mask
    cdef int32_t k
    cdef uint64_t h = g.h
    cdef uint64_t cand[3]
    cdef uint8_t* c = <uint8_t*>cand
    cdef uint8_t* dst
    if level < g.best or g.overflow:
        return
    if level > g.best:
        g.best = level
        g.n = 0
        if g.dedupe:
            memset(g.table, 0, (<size_t>1 << g.table_bits) * sizeof(int32_t))
    if level == 1 and g.dice[0] == g.larger:
        g.l1_larger = 1
    memcpy(cand, g.b, N_POINTS)
    if i >= 0:
        c[i] -= 1
        h -= ZOBRIST[i]
        if t != OFF:
            c[t] += 1
            h += ZOBRIST[t]
    if g.dedupe:
        mask = (1u << g.table_bits) - 1
        slot = <uint32_t>(h >> (64 - g.table_bits))
        k = g.table[slot]
        while k:
            if same_board(g.out + N_POINTS * (k - 1), c):
                return
            slot = (slot + 1) & mask
            k = g.table[slot]
    if g.n >= g.cap:
        g.overflow = 1
        return
    dst = g.out + N_POINTS * g.n
    memcpy(dst, cand, N_POINTS)
    if g.steps != NULL:
        memset(g.steps + 8 * g.n, NO_STEP, 8)
        memcpy(g.steps + 8 * g.n, g.path, 2 * level)
        if i >= 0:
            g.steps[8 * g.n + 2 * level - 2] = <uint8_t>i
            g.steps[8 * g.n + 2 * level - 1] = <uint8_t>t
    g.n += 1
    if g.dedupe:
        g.table[slot] = <int32_t>g.n
        if 2 * g.n > (<Py_ssize_t>1 << g.table_bits):
            if grow_table(g) < 0:
                g.overflow = 1


cdef inline uint32_t sources(const gen_t* g, int min_src) noexcept nogil:
    """Points a step may start from: every occupied one, or with sorted steps those at or
    after the previous step's source."""
    if g.sorted_steps:
        return g.occ & ~((1u << min_src) - 1)
    return g.occ


cdef inline int step_target(gen_t* g, int i, int d) noexcept nogil:
    """Where a checker on idx i goes with die d: idx, OFF, or -1 (``step_to``)."""
    return step_to(g.occ, g.opp, g.head_left, i, d)


cdef int search_last(gen_t* g, int k, int min_src) noexcept nogil:
    """The last step of the turn (k = ndice - 1): record every valid result.  (Its source
    loop is a deliberate twin of ``search``'s: this one records, that one recurses.)"""
    cdef int found = 0, d = g.dice[k], i, t
    cdef uint32_t rest = sources(g, min_src), occ
    while rest:
        i = nf_ctz32(rest)
        rest &= rest - 1
        t = step_target(g, i, d)
        if t < 0:
            continue
        if g.skip_commuted and k == 1 and t != OFF and g.path[1] != OFF \
                and (g.occ0 >> i) & 1:
            # Two steps of different checkers (or of a checker that was already on the
            # landing point): played in the other die order they are valid too and give
            # the same board, which the first pass recorded.
            found = 1
            continue
        if g.check_block:
            occ = g.occ
            if g.b[i] == 1:
                occ &= ~(1u << i)
            if t != OFF:
                occ |= (1u << t)
            if block_windows(occ) & g.forbid:
                continue                         # ends in a forbidden block: not a play
        found = 1
        record(g, k + 1, i, t)
    return found


cdef int search(gen_t* g, int k, int min_src) noexcept nogil:
    """Try every step k from the current board; record the plays that end here.

    Returns 1 if some valid play using more than k dice exists below this node.
    """
    cdef int found = 0, d, i, t, valid, sub
    cdef uint32_t rest
    if k == g.ndice:
        return 0
    if k + 1 == g.ndice:
        return search_last(g, k, min_src)
    d = g.dice[k]
    rest = sources(g, min_src)
    # Deliberate twin of ``search_last``'s source loop (this one applies, recurses and
    # undoes; that one, the hot leaf of every turn, only records): kept apart for speed.
    while rest:
        i = nf_ctz32(rest)
        rest &= rest - 1
        t = step_target(g, i, d)
        if t < 0:
            continue
        # apply the step
        g.b[i] -= 1
        if g.b[i] == 0:
            g.occ &= ~(1u << i)
        g.h -= ZOBRIST[i]
        if t != OFF:
            g.b[t] += 1
            g.occ |= (1u << t)
            g.h += ZOBRIST[t]
        if i == 0:
            g.head_left -= 1
        g.path[2 * k] = <uint8_t>i
        g.path[2 * k + 1] = <uint8_t>t

        valid = not (g.check_block and (block_windows(g.occ) & g.forbid))
        if valid or g.transient:
            sub = search(g, k + 1, i)
            if valid:
                found = 1
                if not sub:
                    record(g, k + 1, -1, 0)
            elif sub:
                found = 1

        # undo the step
        if i == 0:
            g.head_left += 1
        if t != OFF:
            g.b[t] -= 1
            if g.b[t] == 0:
                g.occ &= ~(1u << t)
            g.h -= ZOBRIST[t]
        g.b[i] += 1
        g.occ |= (1u << i)
        g.h += ZOBRIST[i]
    return found


cdef int head_limit(const uint8_t* mover, uint32_t opp, int d1, int d2,
                    int head_rule) noexcept nogil:
    """Checkers that may leave the head this turn (1, or 2 under the first-turn exception)."""
    cdef int s, t
    if mover[0] != N_CHECKERS:
        return 1
    if head_rule == HEAD_CLASSIC:
        if d1 != d2 or (d1 != 3 and d1 != 4 and d1 != 6):
            return 1
        for s in range(1, 5):                    # the single checker's path 1 -> 1 + s d
            t = s * d1
            if t >= N_POINTS:
                return 1
            if (opp >> t) & 1:
                return 2 if t == 12 else 1       # stopped by the opponent's head, or before
        return 1
    # generalized: two may leave whenever one head checker cannot use the whole roll
    if d1 == d2:
        for s in range(1, 5):
            t = s * d1
            if t >= N_POINTS or (opp >> t) & 1:
                return 2
        return 1
    if (opp >> (d1 + d2)) & 1:
        return 2
    if ((opp >> d1) & 1) and ((opp >> d2) & 1):
        return 2
    return 1


cdef uint32_t forbidden_windows(const uint8_t* opponent, uint32_t occ, uint32_t opp,
                                int block_rule, int nsteps) noexcept nogil:
    """Opponent-idx starts of blocks the mover may not make this turn and could make.

    Blocks already on the board are exempt; a window the opponent sits in, or that needs
    more new points than the turn has steps, cannot be made.
    """
    cdef int j, hi = -1, off = N_CHECKERS
    cdef uint32_t f, keep = 0
    if block_rule == BLOCK_NONE:
        return 0
    for j in range(N_POINTS):
        off -= opponent[j]
        if opponent[j]:
            hi = j
    if off > 0:
        return 0
    if block_rule == BLOCK_AHEAD:
        # allowed iff an opponent checker is beyond the window: hi > j + 5
        f = WINDOWS_ALL & ~((1u << (hi - 5)) - 1) if hi >= 5 else WINDOWS_ALL
    else:
        if hi >= HOME_IDX:
            return 0
        f = WINDOWS_ALL
    f &= ~block_windows(occ)
    while f:
        j = nf_ctz32(f)
        f &= f - 1
        if (WINDOW_MASK[j] & opp) == 0 and nf_popcount32(WINDOW_MASK[j] & ~occ) <= nsteps:
            keep |= (1u << j)
    return keep


cdef Py_ssize_t gen_successors(const uint8_t* mover, const uint8_t* opponent, int d1, int d2,
                               const rules_t* rules, uint8_t* out, uint8_t* steps,
                               Py_ssize_t cap) noexcept nogil:
    cdef gen_t g
    cdef int k, nsteps = 4 if d1 == d2 else 2
    memcpy(g.b, mover, N_POINTS)
    g.occ = occupancy(mover)
    g.occ0 = g.occ
    g.skip_commuted = 0
    g.opp = opponent_mask(opponent)
    g.forbid = forbidden_windows(opponent, g.occ, g.opp, rules.block_rule, nsteps)
    g.check_block = g.forbid != 0
    g.transient = rules.block_transient
    g.head_left = head_limit(mover, g.opp, d1, d2, rules.head_rule)
    g.best = 0
    g.l1_larger = 0
    g.larger = d1 if d1 > d2 else d2
    g.h = 0
    g.out = out
    g.steps = steps
    g.n = 0
    g.cap = cap
    g.overflow = 0
    g.table = g.stack_table
    g.table_bits = STACK_TABLE_BITS
    g.heap_table = NULL
    if d1 == d2:
        g.ndice = 4
        for k in range(4):
            g.dice[k] = d1
        g.sorted_steps = not g.check_block
        g.dedupe = g.check_block
    else:
        g.ndice = 2
        g.sorted_steps = 0
        g.dedupe = 1
    if g.dedupe:
        memset(g.table, 0, sizeof(g.stack_table))
        g.h = board_key(mover)

    if d1 == d2:
        k = search(&g, 0, 0)
    else:
        g.dice[0] = d1
        g.dice[1] = d2
        k = search(&g, 0, 0)
        g.dice[0] = d2
        g.dice[1] = d1
        g.skip_commuted = g.transient or not g.check_block
        k = search(&g, 0, 0) | k
        g.skip_commuted = 0
        if g.best == 1 and g.l1_larger and rules.larger_die_rule:
            # only one die can be played and the larger can: keep the larger's plays only
            g.best = 0
            g.n = 0
            g.ndice = 1
            g.dice[0] = g.larger
            memset(g.table, 0, (<size_t>1 << g.table_bits) * sizeof(int32_t))
            search(&g, 0, 0)
    if not k:
        record(&g, 0, -1, 0)                     # no die can be played: a pass
    if g.heap_table != NULL:
        free(g.heap_table)
    return -1 if g.overflow else g.n


# --------------------------------------------------------------------------------------
# Python layer

BOARD_ERRORS = {
    1: "mover point {p}: {v} checkers, expected 0..15",
    2: "opponent point {p}: {v} checkers, expected 0..15",
    3: "mover has {v} checkers on the board, at most 15",
    4: "opponent has {v} checkers on the board, at most 15",
    5: "mover point {p} (opponent point {q}) is held by both sides",
}

cdef int check_boards(const uint8_t* mover, const uint8_t* opponent, int* where) noexcept nogil:
    cdef int i, sm = 0, so = 0
    where[0] = -1
    for i in range(N_POINTS):
        if mover[i] > N_CHECKERS:
            where[0] = i
            return 1
        if opponent[i] > N_CHECKERS:
            where[0] = i
            return 2
        sm += mover[i]
        so += opponent[i]
    if sm > N_CHECKERS:
        return 3
    if so > N_CHECKERS:
        return 4
    for i in range(N_POINTS):
        if opponent[i] and mover[(i + 12) % N_POINTS]:
            where[0] = (i + 12) % N_POINTS
            return 5
    return 0


def _check(const uint8_t[::1] m, const uint8_t[::1] o):
    cdef int where, code
    code = check_boards(&m[0], &o[0], &where)
    if code:
        msg = BOARD_ERRORS[code]
        if code == 1:
            v = m[where]
        elif code == 2:
            v = o[where]
        elif code == 3:
            v = sum(m)
        elif code == 4:
            v = sum(o)
        else:
            v = 0
        raise ValueError(msg.format(p=where + 1, q=(where + 12) % 24 + 1, v=v))


cdef Py_ssize_t first_bad(const uint8_t[:, :, ::1] b) noexcept nogil:
    cdef Py_ssize_t k, n = b.shape[0]
    cdef int where, i, sm, so
    for k in range(n):
        if check_boards(&b[k, 0, 0], &b[k, 1, 0], &where):
            return k
        sm = so = 0
        for i in range(N_POINTS):
            sm += b[k, 0, i]
            so += b[k, 1, i]
        if sm == 0 or so == 0:
            return k
    return -1


def first_bad_position(const uint8_t[:, :, ::1] boards):
    """The index of the first pair of ``boards`` ``(n, 2, 24)`` (mover, opponent) that is
    no position (``check_position``'s rules) or a finished game (a side without
    checkers), or -1: the checks of many positions at once, in C (the caller names the
    row's error with ``check_position``)."""
    cdef Py_ssize_t k
    if boards.shape[1] != 2 or boards.shape[2] != N_POINTS:
        raise ValueError(f"boards: expected shape (n, 2, {N_POINTS}), got "
                         f"{tuple(boards.shape)[:3]}")
    if boards.shape[0] == 0:
        return -1
    with nogil:
        k = first_bad(boards)
    return k


def check_position(mover, opponent):
    """Raise ValueError unless the two boards form a valid position; returns uint8 copies."""
    m = as_board(mover, "mover")
    o = as_board(opponent, "opponent")
    _check(m, o)
    return m, o


cdef Py_ssize_t run(const uint8_t[::1] m, const uint8_t[::1] o, int d1, int d2,
                    const rules_t* r, uint8_t[:, ::1] out, uint8_t[:, ::1] steps,
                    bint want_steps) except -2:
    cdef Py_ssize_t n
    cdef uint8_t* sp = &steps[0, 0] if want_steps else NULL
    with nogil:
        n = gen_successors(&m[0], &o[0], d1, d2, r, &out[0, 0], sp, out.shape[0])
    return n


def _generate(mover, opponent, d1, d2, rules, bint want_steps):
    cdef const uint8_t[::1] m = as_board(mover, "mover")
    cdef const uint8_t[::1] o = as_board(opponent, "opponent")
    cdef int a = check_die(d1, 0), b = check_die(d2, 1)
    cdef rules_t r
    fill_rules(rules, &r)
    cdef int where
    cdef int code = check_boards(&m[0], &o[0], &where)
    if code:
        _check(m, o)
    cdef Py_ssize_t cap = DEFAULT_CAP, n
    while True:
        out = np.empty((cap, N_POINTS), dtype=np.uint8)
        st = np.empty((cap if want_steps else 1, 8), dtype=np.uint8)
        n = run(m, o, a, b, &r, out, st, want_steps)
        if n >= 0:
            break
        cap *= 8
    if want_steps:
        return out[:n].copy(), st[:n].copy()
    return out[:n].copy()


def _dice_args(d1, d2, rules):
    """``(d1, d2, rules)`` of the two spellings of a roll: ``d1, d2[, rules]`` (the
    generator's own) or a pair ``dice[, rules]`` (the API's ``dice``, its text "63" too)."""
    if isinstance(d1, (tuple, list, np.ndarray)) or (
            isinstance(d1, str) and not isinstance(d2, (int, np.integer))):
        if d2 is not None:
            if rules is not None:
                raise TypeError("successors: dice given as a pair and as d2")
            rules = d2
        a, b = check_dice(d1)
        return a, b, rules
    if d2 is None:
        raise TypeError("successors: expected the dice as d1, d2 or as a pair (d1, d2)")
    return d1, d2, rules


def successors(mover, opponent, d1, d2=None, rules=None):
    """Distinct boards of the mover after each legal move of the roll ``(d1, d2)``.

    Parameters
    ----------
    mover : array_like of int, shape (24,)
        Checker counts of the side on roll in its own numbering (idx = point - 1).
    opponent : array_like of int, shape (24,)
        The other side's counts in the opponent's own numbering.
    d1, d2 : int
        The dice, 1..6; order does not matter, ``d1 == d2`` is a double (four moves).
        The API's ``dice`` pair works too: ``successors(mover, opponent, (6, 3), rules)``.
    rules : Rules, dict or None
        Rule variants; None is classic.

    Returns
    -------
    ndarray of uint8, shape (k, 24)
        The mover's boards after each legal move, mover's numbering.  When no die can be
        played, the unchanged board is the one row.  Boards carry no colour, so whether
        the game is over (a side has finished; Black's last turn under ``draw_rule``) is
        not judged here: ``Position.legal_moves`` judges it.

    Examples
    --------
    >>> import numpy as np
    >>> start = np.zeros(24, np.uint8); start[0] = 15
    >>> successors(start, start, 6, 5).tolist()[0][:12]
    [14, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]
    """
    d1, d2, rules = _dice_args(d1, d2, rules)
    cdef const uint8_t[::1] m = as_board(mover, "mover")
    cdef const uint8_t[::1] o = as_board(opponent, "opponent")
    cdef int a = check_die(d1, 0), b = check_die(d2, 1)
    cdef rules_t r
    fill_rules(rules, &r)
    cdef int where
    cdef Py_ssize_t n
    cdef uint8_t buf[DEFAULT_CAP * N_POINTS]
    cdef uint8_t[:, ::1] view
    if check_boards(&m[0], &o[0], &where):
        _check(m, o)
    with nogil:
        n = gen_successors(&m[0], &o[0], a, b, &r, buf, NULL, DEFAULT_CAP)
    if n < 0:
        return _generate(mover, opponent, a, b, rules, False)
    res = np.empty((n, N_POINTS), dtype=np.uint8)
    if n:
        view = res
        memcpy(&view[0, 0], buf, n * N_POINTS)
    return res


def successors_with_steps(mover, opponent, d1, d2=None, rules=None):
    """Like ``successors`` (either spelling of the roll), plus one step list per result.

    Returns
    -------
    boards : ndarray of uint8, shape (k, 24)
    steps : ndarray of uint8, shape (k, 8)
        ``(from_idx, to_idx)`` pairs in the mover's numbering, ``to_idx = 24`` for bearing
        off, 255 after the last step.
    """
    d1, d2, rules = _dice_args(d1, d2, rules)
    return _generate(mover, opponent, d1, d2, rules, True)


ROLLS = np.array(_dice.ROLLS, dtype=np.intc)      # the 21 rolls, ``_dice`` order


def successor_counts(movers, opponents, rules=None):
    """Number of distinct legal results for each position and each of the 21 rolls.

    Parameters
    ----------
    movers, opponents : array_like of int, shape (n, 24)
        Boards of the side on roll and of the other side, each in its own numbering.
        Every pair is validated as a position.
    rules : Rules, dict or None

    Returns
    -------
    ndarray of intp, shape (n, 21)
        Column ``r`` is the roll ``ROLLS[r]`` (1-1, 1-2, ..., 6-6); a pass counts 1.
    """
    m_arr = np.ascontiguousarray(movers)
    o_arr = np.ascontiguousarray(opponents)
    if m_arr.ndim != 2 or m_arr.shape[1:] != (24,) or o_arr.shape != m_arr.shape:
        raise ValueError(f"movers and opponents: expected equal shapes (n, 24), got "
                         f"{m_arr.shape} and {o_arr.shape}")
    if m_arr.dtype.kind not in "iu" or o_arr.dtype.kind not in "iu":
        raise TypeError("movers and opponents: expected integer checker counts")
    if ((m_arr < 0) | (m_arr > 15)).any() or ((o_arr < 0) | (o_arr > 15)).any():
        raise ValueError("movers and opponents: counts must be 0..15")
    cdef const uint8_t[:, ::1] m = np.ascontiguousarray(m_arr, dtype=np.uint8)
    cdef const uint8_t[:, ::1] o = np.ascontiguousarray(o_arr, dtype=np.uint8)
    cdef Py_ssize_t n = m.shape[0], k, r, c
    cdef int where
    for k in range(n):
        if check_boards(&m[k, 0], &o[k, 0], &where):
            try:
                _check(m[k], o[k])
            except ValueError as e:
                raise ValueError(f"position {k}: {e}") from None
    cdef rules_t rt
    fill_rules(rules, &rt)
    res = np.empty((n, N_ROLLS), dtype=np.intp)
    cdef Py_ssize_t[:, ::1] rv = res
    cdef const int[:, ::1] rolls = ROLLS
    cdef uint8_t* buf = <uint8_t*>malloc(DEFAULT_CAP * N_POINTS)
    cdef int failed = 0
    if buf == NULL:
        raise MemoryError()
    with nogil:
        for k in range(n):
            for r in range(N_ROLLS):
                c = gen_successors(&m[k, 0], &o[k, 0], rolls[r, 0], rolls[r, 1], &rt,
                                   buf, NULL, DEFAULT_CAP)
                if c < 0:
                    failed = 1
                rv[k, r] = c
    free(buf)
    if failed:
        raise RuntimeError(f"a roll has more than {DEFAULT_CAP} legal results")
    return res
