# The cube decisions of the C game loop (rule book section 7a; _cubeloop.pyx), by the cube
# model of nardy_fast.engine.evaluation.cubemodel: exact in the races of a cubeful race table (_cuberace.pxd),
# else Janowski's interpolation with the measured cube efficiency.
#
# Cube states are relative to the side on roll, as in _cuberace.pxd (CUBE_CENTRE: either
# side may raise, CUBE_MOVER: the side on roll owns the cube, CUBE_OPPONENT); `owner` in
# the game loop is absolute: -1 (centre), 0 or 1 (the side owning the cube).
from libc.stdint cimport uint8_t

from nardy_fast.core._rules cimport rules_t, CUBE_NONE, CUBE_GEOMETRIC, CUBE_ARITHMETIC
from nardy_fast.tables._racetables cimport race_tables_t
from nardy_fast.engine.evaluation._search cimport search_t

cdef enum:
    ACT_NONE = 0             # cube_action: no double (or none allowed)
    ACT_TAKE = 1             # doubled and taken
    ACT_PASS = 2             # doubled and passed: the doubler wins the stake before it
    ACT_BEAVER = 3           # doubled and beavered (taken and raised again at once)
    ACT_ERROR = -1           # the Python probability callable raised (stored in py_error)

ctypedef struct cube_t:
    int cube                   # CUBE_NONE (no cube in this game loop), CUBE_GEOMETRIC or
                               # CUBE_ARITHMETIC (rules_t.cube)
    int beaver                 # the taker may raise again at once (rules_t.beaver)
    int autodouble             # raise once per tie of the opening throw (rules_t.autodouble,
                               # games from the start only)
    int stake0                 # the stake at the start
    int no_first_raise         # side 0 may not raise before its first roll
    int owner0                 # who may raise at the start: -1 either, 0 side 0, 1 side 1
    int max_stake              # arithmetic: no raise above it
    double x_contact           # cube efficiency of contact positions
    const double* x_race       # (n_x, 2): pip count of the side on roll, efficiency
    int n_x
    const double* tp_live      # arithmetic: live take point of a raise from stake k, k <=
                               # max_stake (NULL: geometric, 1/5)
    const double* cr_values    # exact cubeful race table (cuberace.CubefulRace.values) or NULL
    Py_ssize_t cr_m            # its boards per side
    int cr_max_checkers
    int cr_stakes              # arithmetic: stakes 1 .. cr_stakes kept (0: geometric)
    void* py_cube              # borrowed callable (mover, opponent) -> P(win), or NULL
    int use_net                # 1: P(win) from the net (search: its 0-ply leaf value)
    search_t search            # the net, the rules and the race tables of the leaf
    void* py_error             # borrowed list receiving the callable's exception
    double pts[4]              # points per stake of an oin, a mars, a koks, a home mars in a
                               # game with the cube (CubeSettings.points; the rule book: 1)
    int mars_aware             # some pts[i] != 1: W, L of the net's outputs, else W = L = 1


cdef inline int next_stake(const cube_t* c, int k) noexcept nogil:
    return 2 * k if c.cube == CUBE_GEOMETRIC else k + 1


cdef inline bint stake_ok(const cube_t* c, int k) noexcept nogil:
    """A raise to k is allowed (arithmetic: k <= max_stake)."""
    return c.cube == CUBE_GEOMETRIC or k <= c.max_stake


# No cube (c.cube = CUBE_NONE; the game loop then ignores the rest).
cdef void no_cube(cube_t* c) noexcept nogil

# Fills *c from the rules (progression, beaver, autodouble) and the cube spec of
# _rollout.play_blocks; races: the race tables for the net's leaf values (or NULL); err:
# the list receiving a callable's exception.  The caller keeps spec and err alive while c
# is used.  ValueError on a malformed spec.
cdef int attach_cube(cube_t* c, const rules_t* rules, const race_tables_t* races,
                     object spec, list err) except -1

# The cube action before side's roll, both sides by the model: ACT_NONE, ACT_TAKE,
# ACT_BEAVER (stake and owner updated), ACT_PASS (side wins *stake) or ACT_ERROR.
cdef int cube_action(const cube_t* c, int side, const uint8_t* mover, const uint8_t* o,
                     int* stake, int* owner) noexcept nogil

# The mean points per stake of a won (*w) and a lost (*l) game of the side on roll from
# out[NET_OUTPUTS] (the net's outcome distribution) and c.pts (cubemodel.win_loss_values).
cdef void win_loss(const cube_t* c, const float* out, double* w, double* l) noexcept nogil

# Cubeful value of a race ended by truncation for the side s on roll, per unit of the
# starting stake, into *val; p: its cubeless P(win) (the exact race value; W = L = 1);
# no_raise: it may not raise before this roll; *modelled (unless NULL): 1 when the cube
# model gave it (beyond the cubeful race table), 0 for the table.  0, or ACT_ERROR.
cdef int race_value(const cube_t* c, int s, const uint8_t* mover, const uint8_t* o,
                    int stake, int owner, bint no_raise, double p, double* val,
                    int* modelled) noexcept nogil
