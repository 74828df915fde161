# C-level API of the legal move generator (rule book sections 2-6).
#
# Boards follow _board.pxd: uint8_t[24] per side, each in its own numbering.  The mover is
# the side on roll; results are the mover's boards after its turn, in the mover's numbering
# (the opponent never changes during the mover's turn).  Inputs are trusted: callers
# validate boards (counts, at most 15 per side, no point held by both sides) and dice 1..6.
from libc.stdint cimport uint8_t, uint32_t

from nardy_fast.core._board cimport N_POINTS, OFF, OUTSIDE_HOME_MASK

cdef extern from "nf_bits.h":
    int nf_ctz32(uint32_t x) noexcept nogil

# rules_t and its enums live in _rules.pxd (re-exported here for older cimports)
from nardy_fast.core._rules cimport (rules_t, fill_rules, HEAD_CLASSIC, HEAD_GENERALIZED, BLOCK_AHEAD, BLOCK_HOME, BLOCK_NONE)

cdef enum:
    MAX_STEPS = 4            # steps of a turn (a double)
    STEP_BYTES = 8           # bytes per move in a steps buffer: (from, to) x MAX_STEPS
    DEFAULT_CAP = 4096       # a successor buffer this large has never been seen to overflow
    NO_STEP = 255            # filler of unused step slots

# Fills out[0 : 24 * n] with the n distinct legal results of the roll (d1, d2), mover's
# numbering, in generation order; a pass gives n = 1 and the unchanged board.  If steps is
# not NULL, steps[8 k : 8 k + 8] receives one step list of result k as (from_idx, to_idx)
# pairs, to_idx = 24 for bearing off, NO_STEP after the last step.  Returns n, or -1 when
# more than cap results exist (out and steps then hold cap of them).
cdef Py_ssize_t gen_successors(const uint8_t* mover, const uint8_t* opponent, int d1, int d2,
                               const rules_t* rules, uint8_t* out, uint8_t* steps,
                               Py_ssize_t cap) noexcept nogil

# Position check for wrappers: 0 if valid, else an error code (see _movegen.pyx, BOARD_ERRORS)
# with *where set to the offending idx (or -1).
cdef int check_boards(const uint8_t* mover, const uint8_t* opponent, int* where) noexcept nogil

# The turn's rules for a step-by-step player (nardy_fast.env plays a turn one checker step
# at a time and asks these the same questions the generator asks):
# opponent-idx starts j of six points j..j+5 the mover holds (occ: bits of the mover's idx).
cdef inline uint32_t block_windows(uint32_t occ) noexcept nogil:
    cdef uint32_t r = ((occ >> 12) | (occ << 12)) & 0xFFFFFF
    return r & (r >> 1) & (r >> 2) & (r >> 3) & (r >> 4) & (r >> 5)

# Where the mover's checker on idx i goes with die d (rule book 2, 3, 6): idx, OFF, or -1
# when the step is not allowed.  occ: bits of the mover's occupied idx; opp: the points
# the opponent holds, in the mover's idx (opponent_mask); head_left: checkers that may
# still leave the head (idx 0) this turn.  The one home of a single step's rule: the
# generator's search and the environments' step-by-step turns both ask it.
cdef inline int step_to(uint32_t occ, uint32_t opp, int head_left, int i,
                        int d) noexcept nogil:
    cdef int t
    if i == 0 and head_left == 0:
        return -1
    t = i + d
    if t < N_POINTS:
        return -1 if (opp >> t) & 1 else t
    if occ & OUTSIDE_HOME_MASK:
        return -1                                # not all home: no bearing off
    if t > N_POINTS and i != nf_ctz32(occ):
        return -1                                # a higher die only from the farthest point
    return OFF

# Checkers that may leave the head this turn (1, or 2 under the first-turn exception);
# opp = opponent_mask(opponent), head_rule a HEAD_* code.
cdef int head_limit(const uint8_t* mover, uint32_t opp, int d1, int d2,
                    int head_rule) noexcept nogil

# Opponent-idx starts of the blocks the mover may not make this turn and could make with
# nsteps steps (blocks already on the board are exempt); occ = occupancy(mover).
cdef uint32_t forbidden_windows(const uint8_t* opponent, uint32_t occ, uint32_t opp,
                                int block_rule, int nsteps) noexcept nogil
