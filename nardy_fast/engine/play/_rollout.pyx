"""Rollout core: complete games of long nardy in C, tallied per stratum of the first roll.

``play_blocks`` plays the games of whole random-stream blocks (see ``nardy_fast.core.rng``) and
returns, per block and per stratum, the game count and the sums and sums of squares of
every per-game quantity (``QUANTITIES``), from the view of the side on roll at the start
("side 0").  The game loop runs without the GIL on the C move generator.  Each game has
two random streams of its own, seeded by its word of its block's ``PCG64`` stream
(``rng.game_seed_words``): its dice, and its other random choices (a random policy's
picks, the autodouble's ties); see "the game's own streams" below.

Game loop (one game)
--------------------
1. Both boards are copied from the start position; side 0 is on roll.
2. Before each turn, with truncation on, a position where both sides have all their
   checkers on the board in their homes ends the game: its per-game values are the exact
   bear-off probabilities (below), and the expected remaining plies are added to its
   length.  A fixed first roll (``dice``) is always played first.
3. The roll: the fixed first roll if given; else the first random roll of game ``g`` is
   stratum ``first[g mod S]`` (``S = 36`` ordered rolls, or the 30 ordered non-doubles
   under ``opening_roll="opening_dice"`` from the start), the second random roll is
   ``reply[(g mod S + shift[(g div S) mod 36]) mod 36]``, where ``first``, ``shift`` and
   ``reply`` are the permutations the seed draws (``rng.stratified_rolls``: every ``36
   S`` games hold each pair of first and second rolls once, and a rollout of any size is
   unbiased), and later rolls are drawn by rejection from the game's dice stream.
4. The legal results come from ``gen_successors`` (rules' head, block, dice and bear-off
   rules); the side's policy picks one.
5. The side that bears off its 15th checker wins; with ``draw_rule`` a losing Black plays a
   last turn first and draws if it finishes.  The loser's board decides oin / mars / koks /
   home mars (rule book section 7).
6. With the cube (``cube``; rule book section 7a) the side on roll may raise before step
   3, and the opponent takes, passes or beavers, by the cube model of ``_cubeloop``; a
   game is then won at the stake, a pass ends it at once, and a truncated race adds its
   cubeful value.
7. With variance reduction (``variance_reduction``; both sides net policies) the luck of
   each counted random roll (``_luck.luck_add``) is added up after step 3 from the
   per-roll values the last move choice looked ahead to (``_search.choose_rolls``; at
   0-ply none: 21 move choices of the position), and subtracted from the game's outcome
   quantities at its end (``play_game``; ``equity_plain`` and ``p_win_plain`` keep the
   uncorrected values).  Module ``nardy_fast.engine.play.rollout`` states why it is unbiased.

Policies
--------
``random``, ``greedy`` (its formula), ``net``, Python callables and the bear-off
database's moves are described in ``_policies`` (where they are coded).

Exact bear-off values (truncation)
----------------------------------
The same numbers as ``race_probabilities``: when a two-sided table covers both sides (and
``draw_rule`` is off), ``P(win)`` from it (optimal play for the win; no mars possible
below 15 checkers); when one side has all 15 checkers (none off), the other 1 .. N and a
mars table of N checkers is attached (``draw_rule`` off; ``rollout.py`` attaches the one
``race_probabilities`` would use, for the rules' points), ``P(win)`` and ``P(mars)`` from
it (play maximising each side's expected points); otherwise the one-sided convolution
``_racetables.race_outcome`` (each side's turns ``T`` under minimum-mean play and turns to the
first checker off ``F`` under first-off-minimising play, independent; with ``draw_rule``
Black's last turn).  Every mars of a race is a home mars.  The expected remaining plies use the one-sided turn
distributions: X (on roll) finishing on its turn ``t`` ends the game at ply ``2t - 1``,
Y at ply ``2t`` (one more for Black's last turn under ``draw_rule``).
"""
from libc.stdint cimport uint8_t, uint32_t, uint64_t, int64_t
from libc.stdlib cimport malloc, free
from libc.string cimport memcpy, memset
from numpy.random cimport bitgen_t

import numpy as np

from nardy_fast.core.rng import game_seed_words, stratified_rolls
from nardy_fast.engine.play.turn import LoopPolicy

from nardy_fast.core._board cimport (N_POINTS, N_CHECKERS, HOME_IDX, in_bearoff,
                                      to_board6)
from nardy_fast.tables._board6 cimport board6_index, home_board_index, N_HOME
from nardy_fast.core._rules cimport rules_t, fill_rules
from nardy_fast.tables._racetables cimport race_tables_t, RaceTables
from nardy_fast.tables._racevalue cimport (race_table_value, RV_NONE, RV_HOMES, RV_RACE12, RV_OUT, RV_EXACT, RV_WIN, RV_MARS_WIN, RV_MARS_LOSS, RV_DRAW, RV_HOME_MARS_WIN, RV_HOME_MARS_LOSS)
from nardy_fast.core._scoring cimport last_turn_due, WIN_OIN, WIN_MARS
from nardy_fast.core._gameend cimport (after_turn, game_end, GAME_ON, END_DRAW, MAX_GAME_PLIES, ERR_NOMEM, ERR_LONG_GAME, ERR_PYTHON)
from nardy_fast.engine.evaluation._net cimport (Net, net_t, NET_OUTPUTS, OUT_WIN, OUT_MARS_WIN, OUT_KOKS_WIN, OUT_HOME_MARS_WIN, OUT_MARS_LOSS, OUT_KOKS_LOSS, OUT_HOME_MARS_LOSS)
from nardy_fast.core._dice cimport N_ROLLS
from nardy_fast.engine.play._luck cimport luck_t, luck_reset, luck_add
from nardy_fast.engine.play._lucknet cimport lucknet_rolls, lucknet_t, LuckNet
from nardy_fast.engine.play._turn cimport (player_t, movebuf_t, fill_player, movebuf_init, movebuf_free, legal_results, pick, draw_below, draw_roll, PLAYER_NET, PLAYER_PYTHON, PICK_PYTHON)
from nardy_fast.engine.evaluation._cubeloop cimport (cube_t, no_cube, attach_cube, cube_action, race_value, next_stake, stake_ok, ACT_NONE, ACT_PASS, ACT_ERROR)
from nardy_fast.tables._race12 cimport (race12_t, race12_plies, race12_board, Race12Tables, R12_POINTS)

__all__ = ["play_blocks", "race_values", "QUANTITIES", "MAX_STRATA",
           "TALLY_WIDTH", "PER_GAME_WIDTH"]

cdef enum:
    Q_WIN = 0                # per-game quantities, side 0's view (see QUANTITIES)
    Q_MARS_WIN = 1
    Q_KOKS_WIN = 2
    Q_HOME_MARS_WIN = 3
    Q_LOSE = 4
    Q_MARS_LOSS = 5
    Q_KOKS_LOSS = 6
    Q_HOME_MARS_LOSS = 7
    Q_DRAW = 8
    Q_EQUITY = 9
    Q_PLIES = 10
    Q_DOUBLES = 11           # cube (section 7a): raises offered in the game; Q_DOUBLES +
    Q_TAKES = 12             #   an _cubeloop ACT_* code counts the answer: raises taken (a
    Q_PASSES = 13            #   beaver counts as a beaver only), passed (0 or 1),
    Q_BEAVERS = 14           #   beavered
    Q_STAKE = 15             # final stake / starting stake
    Q_LEVEL = 16             # Q_LEVEL + k: 1 when the game ended after k raises (k < 7)
    N_LEVELS = 8             # the last level counts 7 or more raises
    Q_EQUITY_PLAIN = 24      # equity and P(win) before the luck correction (= the reported
    Q_WIN_PLAIN = 25         #   ones without variance reduction)
    N_Q = 26
    PER_GAME_W = 6           # per game: equity plain, equity, codes of random rolls 1-3, lucks
    TALLY_W = 1 + 2 * N_Q    # per stratum: games, sums[N_Q], sums of squares[N_Q]
    N_STRATA = 36
    TRUNC_EXACT = 1          # play_game: truncated, an exact table's values
    TRUNC_APPROX = 2         # truncated, an approximation's (one-sided, race12, cube model)

QUANTITIES = ("p_win", "p_mars_win", "p_koks_win", "p_home_mars_win", "p_lose",
              "p_mars_loss", "p_koks_loss", "p_home_mars_loss", "p_draw", "equity", "plies",
              "doubles", "takes", "passes", "beavers", "stake") + tuple(
                  f"stake_level_{k}" for k in range(N_LEVELS)) + (
                  "equity_plain", "p_win_plain")
MAX_STRATA = N_STRATA
TALLY_WIDTH = TALLY_W
PER_GAME_WIDTH = PER_GAME_W

# The 30 ordered non-double rolls, as roll codes 6 (d1 - 1) + (d2 - 1).
cdef int OPENING[30]


cdef void _init_opening() noexcept:
    cdef int a, b, k = 0
    for a in range(6):
        for b in range(6):
            if a != b:
                OPENING[k] = 6 * a + b
                k += 1

_init_opening()


ctypedef struct config_t:
    rules_t rules              # draw_rule and the points of each outcome come from here
    player_t player[2]         # the policies of side 0 (on roll at the start) and side 1
    int side0_white            # side 0 is White (draw rule)
    int opening_dice           # first random roll from the 30 non-doubles
    int n_strata               # strata of the first random roll: 36 or 30
    int stratify               # 0: every roll drawn from the stream (benchmarks only)
    int first_order[36]        # stratum of game g's first roll: first_order[g mod n_strata]
    int second_shift[36]       # its second: second_order[(g mod n_strata + second_shift[k])
    int second_order[36]       #   mod 36] in round k = (g div n_strata) mod 36
                               #   (rng.stratified_rolls)
    int first_d1               # fixed first roll, or 0
    int first_d2
    int truncate               # stop at a race of both homes, add exact values
    const race_tables_t* tables   # bear-off tables (RaceTables), or NULL (no database)
    const race12_t* race12     # truncation at races without contact too (race12), or NULL
    void* py_error             # borrowed list receiving a callable's exception
    cube_t cube                # the cube (cube.cube = CUBE_NONE: none; _cubeloop.pxd)
    int vr                     # subtract the luck of the rolls (both sides PLAYER_NET)
    int vr_turns               # ... of the first vr_turns random rolls only (0: all)
    const lucknet_t* luck_net  # per-roll values where no look-ahead has them (NULL: 21
                               # move choices)


ctypedef struct work_t:
    movebuf_t moves            # the legal results of the roll (owned by play_blocks)
    double* scratch            # 2 * os_T doubles: cumulative turn distributions
    bitgen_t dice_gen          # the game's dice and its other random choices: two
    bitgen_t choice_gen        #   SplitMix64 streams (game_stream_* below)
    uint64_t dice_state
    uint64_t choice_state
    int64_t game               # global index of the game being played
    int rnd_turns              # random rolls drawn so far in this game
    int codes[3]               # roll codes 6 (d1 - 1) + (d2 - 1) of the first 3 random rolls
    float look[N_ROLLS * NET_OUTPUTS]   # per-roll values of the position now on roll, from
                                        # the last move choice's look-ahead (look[0] < 0: none)
    float pred[N_ROLLS * NET_OUTPUTS]   # ... the luck net's, when there is no look-ahead
    luck_t luck                # the luck of this game so far (_luck.pxd)


# ----------------------------------------------------------------------------------------
# the game's own streams

# Each game draws from two streams of its own, seeded by its word of the block's PCG64
# stream (see play_blocks): its dice, and its other random choices (random policies, the
# autodouble's ties).  A game's dice therefore depend on its seed word alone, not on what
# the games before it drew, nor on how many random choices it made itself: rollouts of two
# positions with the same seed play game g with the same dice, for as long as both last.
# The stream is SplitMix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number
# generators", OOPSLA 2014): a Weyl sequence of step GAMMA through a 64-bit finaliser.
# numpy's bit generators cannot be started from a seed at C level without a Python object
# per game, so the game's streams are this one, behind numpy's ``bitgen_t`` interface
# (``draw_below`` and the policies take either); the randomness of each game still comes
# from numpy's PCG64 (the block's stream gives the seed words).

cdef uint64_t GAMMA = 0x9E3779B97F4A7C15ULL
cdef uint64_t CHOICE_KEY = 0xD1B54A32D192ED03ULL   # the choice stream's offset from the dice

cdef inline uint64_t splitmix64_mix(uint64_t z) noexcept nogil:
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL
    return z ^ (z >> 31)

cdef uint64_t game_stream_u64(void* st) noexcept nogil:
    cdef uint64_t* s = <uint64_t*>st
    s[0] += GAMMA
    return splitmix64_mix(s[0])

cdef uint32_t game_stream_u32(void* st) noexcept nogil:
    return <uint32_t>(game_stream_u64(st) >> 32)

cdef double game_stream_double(void* st) noexcept nogil:
    # bitgen_t's uniform double in [0, 1); no game loop draws one today (dice and picks
    # take next_uint32), but the interface is whole for whoever does
    return (game_stream_u64(st) >> 11) * (1.0 / 9007199254740992.0)

cdef inline void bind_stream(bitgen_t* g, uint64_t* state) noexcept nogil:
    g.state = <void*>state
    g.next_uint64 = game_stream_u64
    g.next_uint32 = game_stream_u32
    g.next_double = game_stream_double
    g.next_raw = game_stream_u64

cdef inline void game_streams_seed(work_t* w, uint64_t word) noexcept nogil:
    """Start the game's two streams from its seed word."""
    w.dice_state = splitmix64_mix(word)
    w.choice_state = splitmix64_mix(word ^ CHOICE_KEY)


# ----------------------------------------------------------------------------------------
# the rolls and the turn

cdef inline void roll(const config_t* c, work_t* w, int* d1, int* d2) noexcept nogil:
    """The next random roll of the game: stratified for the first two, then drawn."""
    cdef int r
    if w.rnd_turns == 0 and c.stratify:
        r = c.first_order[w.game % c.n_strata]
        if c.opening_dice:
            r = OPENING[r]
    elif w.rnd_turns == 1 and c.stratify:
        r = c.second_order[(w.game % c.n_strata
                            + c.second_shift[(w.game // c.n_strata) % 36]) % 36]
    elif w.rnd_turns == 0 and c.opening_dice:
        r = OPENING[draw_below(&w.dice_gen, 30)]
    else:
        r = draw_roll(&w.dice_gen)
    if w.rnd_turns < 3:
        w.codes[w.rnd_turns] = r
    w.rnd_turns += 1
    d1[0] = r // 6 + 1
    d2[0] = r % 6 + 1


cdef int play_turn(const config_t* c, work_t* w, int side, uint8_t* mover,
                   const uint8_t* o, int d1, int d2) noexcept nogil:
    """Play one turn in place (``_turn``: the legal results, the side's pick); 0, or an
    ERR_* code."""
    cdef Py_ssize_t n, k
    n = legal_results(&w.moves, mover, o, d1, d2, &c.rules)
    if n < 0:
        return ERR_NOMEM
    w.look[0] = -1.0
    k = pick(&c.player[side], c.tables, &w.choice_gen, mover, o, w.moves.boards, n,
             w.look if c.vr else NULL, c.py_error)
    if k < 0:                                   # a callable raised, or the search ran out
        return ERR_PYTHON if k == PICK_PYTHON else ERR_NOMEM
    memcpy(mover, w.moves.boards + N_POINTS * k, N_POINTS)
    return 0


cdef inline bint is_white(const config_t* c, int side) noexcept nogil:
    return c.side0_white if side == 0 else not c.side0_white


cdef void score_win(int winner, int kind, double pts, double* v) noexcept nogil:
    """Per-game values of a finished game won by `winner`: a win of kind (WIN_*) worth pts
    points (``_gameend.game_end``)."""
    cdef int base = Q_WIN if winner == 0 else Q_LOSE
    v[base] = 1.0
    if kind != WIN_OIN:
        v[base + 1] = 1.0                        # a mars of any kind
        if kind != WIN_MARS:
            v[base + kind] = 1.0                 # a koks or a home mars (Q_* follow WIN_*)
    v[Q_EQUITY] = pts if winner == 0 else -pts


cdef inline void set_race(const config_t* c, double pw, double pmw, double hw, double pl,
                          double pml, double hl, double pd, double* v) noexcept nogil:
    """The per-game values of a race's probabilities (side 0's view): P(win), P(mars win),
    P(home mars win), the same lost, P(draw), and the equity under the rules' points."""
    v[Q_WIN] = pw
    v[Q_MARS_WIN] = pmw
    v[Q_HOME_MARS_WIN] = hw
    v[Q_LOSE] = pl
    v[Q_MARS_LOSS] = pml
    v[Q_HOME_MARS_LOSS] = hl
    v[Q_DRAW] = pd
    v[Q_EQUITY] = ((pw - pmw) * c.rules.pts_oin + (pmw - hw) * c.rules.pts_mars
                   + hw * c.rules.pts_home_mars - (pl - pml) * c.rules.pts_oin
                   - (pml - hl) * c.rules.pts_mars - hl * c.rules.pts_home_mars)


cdef void race_exact(const config_t* c, work_t* w, int x, uint8_t* bx, uint8_t* by,
                     const double* out, double* v) noexcept nogil:
    """Exact values of a race of both homes, X = side x on roll (module docstring).

    Probabilities out[RV_OUT] from ``_racevalue.race_table_value`` (RV_HOMES: the table covering
    the race), as ``race_probabilities`` computes them; expected remaining plies from the
    one-sided turn distributions.
    """
    cdef const race_tables_t* rt = c.tables
    cdef Py_ssize_t T = rt.os_T, t, u
    cdef uint8_t x6[N_HOME]
    cdef uint8_t y6[N_HOME]
    cdef double* cx = w.scratch
    cdef double* cy = cx + T
    cdef double pw, pmw, pl, pml, pd, plies = 0, sx = 0, sy = 0, s
    cdef int a = 0, b = 0, x_white = is_white(c, x)
    to_board6(bx, x6)
    to_board6(by, y6)
    cdef const double* px = rt.os_turns + board6_index(x6) * T
    cdef const double* py = rt.os_turns + board6_index(y6) * T
    if c.rules.draw_rule:
        if x_white:
            a = 1
        else:
            b = 1
    pw = out[RV_WIN]
    pmw = out[RV_MARS_WIN]
    pml = out[RV_MARS_LOSS]
    pd = out[RV_DRAW]
    pl = 1.0 - pw - pd
    if pl < 0.0:
        pl = 0.0
    if pml > pl:
        pml = pl
    # expected plies: X finishes on its turn t at ply 2t - 1, Y on its turn t at ply 2t,
    # and under draw_rule a White win adds Black's last turn (a = 1: X is White, b = 1:
    # Y is White), whether or not it ends in a draw
    for t in range(T):
        sx += px[t]
        sy += py[t]
        cx[t] = sx
        cy[t] = sy
    for t in range(1, T):
        u = t - 1 + a
        s = 1.0 - cy[u if u < T else T - 1]     # P(T_Y > t - 1 + a)
        plies += px[t] * (s if s > 0.0 else 0.0) * (2 * t - 1 + a)
        u = t + b
        s = 1.0 - cx[u if u < T else T - 1]     # P(T_X > t + b)
        plies += py[t] * (s if s > 0.0 else 0.0) * (2 * t + b)
        if a:
            plies += px[t] * py[t] * (2 * t)           # draw: Black's last turn
        elif b and t + 1 < T:
            plies += py[t] * px[t + 1] * (2 * t + 1)   # draw: X (Black) finishes last
    if x == 1:
        pw, pl = pl, pw
        pmw, pml = pml, pmw
    set_race(c, pw, pmw, pmw, pl, pml, pml, pd, v)   # every mars of a race is a home mars
    v[Q_PLIES] = plies


cdef void race12_value(const config_t* c, int x, const uint8_t* bx, const uint8_t* by,
                       const double* o, double* v) noexcept nogil:
    """Values of a race without contact from the race12 database (race12.py), X = side
    x on roll: its probabilities o[RV_OUT] (``_racevalue.race_table_value``, RV_RACE12: the
    one-sided convolution) and its expected plies."""
    cdef uint8_t a[R12_POINTS]
    cdef uint8_t b[R12_POINTS]
    cdef double pw, pl, pmw, pml, hw, hl
    cdef int x_white = is_white(c, x)
    race12_board(bx, a)
    race12_board(by, b)
    pw, pmw, pml = o[RV_WIN], o[RV_MARS_WIN], o[RV_MARS_LOSS]
    hw, hl = o[RV_HOME_MARS_WIN], o[RV_HOME_MARS_LOSS]
    pl = 1.0 - pw - o[RV_DRAW]
    pl = 0.0 if pl < 0.0 else pl
    pml = pl if pml > pl else pml
    hl = pml if hl > pml else hl
    v[Q_PLIES] = race12_plies(c.race12, a, b, c.rules.draw_rule and x_white,
                              c.rules.draw_rule and not x_white)
    if x == 1:
        pw, pl, pmw, pml, hw, hl = pl, pw, pml, pmw, hl, hw
    set_race(c, pw, pmw, hw, pl, pml, hl, o[RV_DRAW], v)


cdef inline void cube_close(const config_t* c, int stake, double* v) noexcept nogil:
    """Final stake and stake level of a game with the cube."""
    cdef int lv = 0, k = c.cube.stake0
    while k < stake and lv < N_LEVELS - 1:
        k = next_stake(&c.cube, k)
        lv += 1
    v[Q_STAKE] = stake / <double>c.cube.stake0
    v[Q_LEVEL + lv] = 1.0


cdef inline bint luck_due(const config_t* c, const work_t* w) noexcept nogil:
    """Count the luck of the random roll just drawn: every uniform roll but a stratified
    first one (its luck is constant within its stratum) and, with vr_turns, only the first
    vr_turns random rolls."""
    if w.rnd_turns == 1 and (c.stratify or c.opening_dice):
        return False
    return c.vr_turns == 0 or w.rnd_turns <= c.vr_turns


cdef bint luck_values(const config_t* c, work_t* w, const uint8_t* me, const uint8_t* opp,
                      const float** values) noexcept nogil:
    """Whether the roll about to be drawn is counted, and its per-roll values: the last
    move choice's look-ahead if it has them; else, with the luck net, its prediction
    before the bear-off (contact, or a race with a side not yet home), and not counted in
    a bear-off (the net learnt none: rollouts truncate there); else NULL (``luck_add``
    computes them).  Decided before the roll, as ``variance.py``'s argument requires.  (A
    prediction may be negative: ``w.pred`` is never read as a look-ahead with its
    ``look[0] < 0`` mark.)"""
    if w.look[0] >= 0.0:
        values[0] = w.look
    elif c.luck_net == NULL:
        values[0] = NULL
    elif not in_bearoff(me, opp):
        lucknet_rolls(c.luck_net, me, opp, w.pred)
        values[0] = w.pred
    else:
        return False
    return True


cdef int play_game(const config_t* c, work_t* w, const uint8_t* start, double* v) noexcept nogil:
    """One game from start (2 x 24 bytes, side 0 first); fills v[N_Q], the luck of the
    game (side 0's view) subtracted from its outcome quantities when c.vr is set.

    Returns 0 (played out), ``TRUNC_EXACT`` (truncated, valued by an exact table),
    ``TRUNC_APPROX`` (truncated, valued by an approximation: the one-sided convolution, the
    race12 database, or with the cube the cube model) or an ERR_* code (``_gameend``,
    negative).
    """
    cdef const double* L = w.luck.out
    cdef int r
    luck_reset(&w.luck)
    w.look[0] = -1.0
    w.codes[0] = w.codes[1] = w.codes[2] = -1
    r = play_game_raw(c, w, start, v)
    v[Q_EQUITY_PLAIN] = v[Q_EQUITY]
    v[Q_WIN_PLAIN] = v[Q_WIN]
    if c.vr:
        v[Q_WIN] -= L[OUT_WIN]
        v[Q_LOSE] += L[OUT_WIN]                  # the net has no draws: P(lose) = 1 - P(win)
        v[Q_MARS_WIN] -= L[OUT_MARS_WIN]
        v[Q_KOKS_WIN] -= L[OUT_KOKS_WIN]
        v[Q_HOME_MARS_WIN] -= L[OUT_HOME_MARS_WIN]
        v[Q_MARS_LOSS] -= L[OUT_MARS_LOSS]
        v[Q_KOKS_LOSS] -= L[OUT_KOKS_LOSS]
        v[Q_HOME_MARS_LOSS] -= L[OUT_HOME_MARS_LOSS]
        v[Q_EQUITY] -= w.luck.equity
    return r


cdef int play_game_raw(const config_t* c, work_t* w, const uint8_t* start,
                       double* v) noexcept nogil:
    """One game from start (2 x 24 bytes, side 0 first); fills v[N_Q] (no luck
    correction), adds the luck of its rolls to w.luck when c.vr is set."""
    cdef uint8_t b[2][N_POINTS]
    cdef int s = 0, d1, d2, plies = 0, first = 1, err, loser, kind, modelled
    cdef int stake = c.cube.stake0, owner = c.cube.owner0
    cdef bint last
    cdef double val, pts
    cdef double p[RV_OUT]
    cdef const float* look
    memcpy(b[0], start, N_POINTS)
    memcpy(b[1], start + N_POINTS, N_POINTS)
    memset(v, 0, N_Q * sizeof(double))
    w.rnd_turns = 0
    if c.cube.autodouble:                         # ties of the opening throw (p = 1/6)
        while draw_below(&w.choice_gen, 6) == 0 and stake_ok(&c.cube, next_stake(&c.cube, stake)):
            stake = next_stake(&c.cube, stake)
    while True:
        kind = RV_NONE if first and c.first_d1 else race_table_value(
            c.tables if c.truncate else NULL, c.race12, b[s], b[1 - s], c.rules.draw_rule,
            is_white(c, s), p)
        if kind == RV_HOMES:                      # truncated: the race's tables' values
            race_exact(c, w, s, b[s], b[1 - s], p, v)
            v[Q_PLIES] += plies
            modelled = 0
            if c.cube.cube:
                if race_value(&c.cube, s, b[s], b[1 - s], stake, owner,
                              first and c.cube.no_first_raise,
                              (v[Q_WIN] if s == 0 else v[Q_LOSE]) + 0.5 * v[Q_DRAW], &val,
                              &modelled):
                    return ERR_PYTHON
                v[Q_EQUITY] = val if s == 0 else -val
                cube_close(c, stake, v)
            return TRUNC_EXACT if p[RV_EXACT] != 0.0 and not modelled else TRUNC_APPROX
        if kind == RV_RACE12:                     # the one-sided convolution: approximate
            race12_value(c, s, b[s], b[1 - s], p, v)
            v[Q_PLIES] += plies
            return TRUNC_APPROX
        if c.cube.cube and not (first and (c.first_d1 or c.cube.no_first_raise)):
            err = cube_action(&c.cube, s, b[s], b[1 - s], &stake, &owner)
            if err == ACT_ERROR:
                return ERR_PYTHON
            if err != ACT_NONE:
                v[Q_DOUBLES] += 1.0
                v[Q_DOUBLES + err] += 1.0
            if err == ACT_PASS:                   # the opponent passed: s wins the stake
                v[Q_WIN if s == 0 else Q_LOSE] = 1.0
                v[Q_EQUITY] = (stake if s == 0 else -stake) / <double>c.cube.stake0
                v[Q_PLIES] = plies
                cube_close(c, stake, v)
                return 0
        if first and c.first_d1:
            d1 = c.first_d1
            d2 = c.first_d2
        else:
            roll(c, w, &d1, &d2)
            if c.vr and luck_due(c, w) and luck_values(c, w, b[s], b[1 - s], &look):
                err = luck_add(&w.luck, &c.player[s].search, s, b[s], b[1 - s], d1, d2, look,
                               stake / <double>c.cube.stake0 if c.cube.cube else 0.0)
                if err:
                    return ERR_NOMEM
        first = 0
        err = play_turn(c, w, s, b[s], b[1 - s], d1, d2)
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
    last = last_turn_due(&c.rules, is_white(c, s))
    if last:
        roll(c, w, &d1, &d2)                      # Black's last turn
        err = play_turn(c, w, loser, b[loser], b[s], d1, d2)
        if err:
            return err
        plies += 1
    kind = game_end(b[loser], &c.rules, last, &pts)
    v[Q_PLIES] = plies
    if kind == END_DRAW:
        v[Q_DRAW] = 1.0
    else:
        score_win(s, kind, pts, v)
        if c.cube.cube:                           # won at the stake: no mars, no oin
            v[Q_EQUITY] = (stake if s == 0 else -stake) / <double>c.cube.stake0
    if c.cube.cube:
        cube_close(c, stake, v)
    return 0


cdef int play_block(const config_t* c, work_t* w, const uint8_t* start, int64_t g0, int64_t n,
                    const uint64_t* seeds, double* tally, int64_t* ntrunc,
                    double* per_game) noexcept nogil:
    """Games g0 .. g0 + n - 1, game g0 + i from seed word seeds[i], into
    tally[N_STRATA][TALLY_W], the truncated and approximated games into ntrunc[0], ntrunc[1]
    and, if per_game is not NULL, per_game[n][PER_GAME_W]; 0 or
    an ERR_* code."""
    cdef double v[N_Q]
    cdef double* row
    cdef int64_t i
    cdef int r, q
    for i in range(n):
        w.game = g0 + i
        game_streams_seed(w, seeds[i])
        r = play_game(c, w, start, v)
        if r < 0:
            return r
        if r:
            ntrunc[0] += 1
            if r == TRUNC_APPROX:
                ntrunc[1] += 1
        if per_game != NULL:
            row = per_game + PER_GAME_W * i
            row[0] = v[Q_EQUITY_PLAIN]
            row[1] = v[Q_EQUITY]
            for q in range(3):
                row[2 + q] = w.codes[q]
            row[5] = w.luck.rolls
        row = tally + (w.game % c.n_strata) * TALLY_W
        row[0] += 1.0
        for q in range(N_Q):
            row[1 + q] += v[q]
            row[1 + N_Q + q] += v[q] * v[q]
    return 0


# ----------------------------------------------------------------------------------------
# Python layer

cdef int fill_config(config_t* c, rules, policies, bint side0_white, dice, bint opening_dice,
                     bint truncate, tables) except -1:
    cdef int i
    fill_rules(rules, &c.rules)
    fill_player(&c.player[0], policies[0], &c.rules, tables)
    fill_player(&c.player[1], policies[1], &c.rules, tables)
    c.side0_white = side0_white
    c.opening_dice = opening_dice
    c.n_strata = 30 if opening_dice else 36
    if dice is None:
        c.first_d1 = c.first_d2 = 0
    else:
        c.first_d1, c.first_d2 = int(dice[0]), int(dice[1])
    c.truncate = truncate
    c.stratify = 1
    for i in range(36):
        c.first_order[i] = c.second_shift[i] = c.second_order[i] = i
    c.vr = c.vr_turns = 0
    c.luck_net = NULL
    c.tables = NULL if tables is None else &(<RaceTables?>tables).t
    c.race12 = NULL
    no_cube(&c.cube)
    return 0


cdef size_t scratch_bytes(const config_t* c) noexcept:
    """Bytes of work_t.scratch: two cumulative turn distributions (race_exact)."""
    return (2 * (0 if c.tables == NULL else c.tables.os_T) + 1) * sizeof(double)


def play_blocks(boards, *, rules, policies, bint side0_white, dice, bint opening_dice,
                bint truncate, tables, entropy, Py_ssize_t first_block, Py_ssize_t n_blocks,
                int64_t n_games, int64_t block_games, bint stratify=True, cube=None,
                variance_reduction=None, per_game=None, double filter_window=0.0,
                race12=None, luck_net=None):
    """Play the games of blocks ``first_block .. first_block + n_blocks - 1``.

    Trusts its inputs: ``rollout.py`` validates them.

    Parameters
    ----------
    boards : ndarray of uint8, shape (2, 24)
        Side 0 (on roll) and side 1, each in its own numbering.
    rules : Rules
    policies : tuple of two LoopPolicy
        Side 0's and side 1's (``engine.policy``: ``Policy.c_form()``; a net chooses by
        ``_search.choose_rolls`` at its ``plies``).
    side0_white : bool
        Side 0 is White (matters for ``draw_rule``).
    dice : None or (int, int)
        Fixed first roll of side 0.
    opening_dice : bool
        The first random roll is one of the 30 ordered non-doubles.
    truncate : bool
        End games at a race of both homes with the exact values (needs ``tables``).
    tables : None or RaceTables
        The bear-off tables (``_racetables.RaceTables``; its mars table, if any, must
        match ``rules``' points: the caller checks), or None.  Needed for truncation;
        with tables the non-random policies play the database's bear-off moves.
    entropy : int
        Root entropy; game ``i`` of block ``k`` starts its streams from word ``i`` of
        ``rng.game_seed_words(entropy, k, ...)``.
    n_games : int
        Total games of the rollout: block ``k`` plays games
        ``k * block_games .. min((k + 1) * block_games, n_games) - 1``.
    stratify : bool
        ``False`` draws the first two rolls from the stream too (to measure what the
        stratification gains; ``rollout`` always stratifies).
    cube : None or cubemodel.CubeSettings
        Play with the cube of ``rules`` (its progression, beaver and autodouble, which
        ``rules.cube`` must name), by the settings' model (the autodouble: each game from
        the start first throws one die a side until they differ, raising the stake once
        per tie).  Both sides double, take, pass and beaver by the cube model of
        ``nardy_fast.engine.evaluation.cubemodel`` (``_cubeloop``); a game is won at the stake, and
        ``equity`` is per unit of the starting stake.
    variance_reduction : None or int
        None: plain.  ``K >= 0``: subtract each game's luck (``_luck``; both policies must
        be nets) counted over its first ``K`` random rolls (0: all), the first one skipped
        when stratified.
    luck_net : None or LuckNet
        With ``variance_reduction``: the per-roll values of a counted roll that no move
        choice looked ahead to come from this net (``_lucknet``) instead of 21 move
        choices.
    per_game : None or ndarray of float64, shape (games of these blocks, 6)
        Receives per game: plain equity, reduced equity, the codes ``6 (d1 - 1) + d2 - 1``
        of its first three random rolls (-1: none) and the number of rolls whose luck was
        counted (diagnostics).
    filter_window : float
        Net policies searching deeper than 0-ply search, of the ``keep`` best moves at
        0-ply, only those within this many points of the best (0: all ``keep``).
    race12 : None or Race12Tables
        With ``truncate`` and no cube: also end games at a race without contact that the
        race database covers (``race12.Race12.tables``), with its convolution values;
        the net sides' search leaves use it too.

    Returns
    -------
    tally : ndarray of float64, shape (n_blocks, MAX_STRATA, TALLY_WIDTH)
        Per block and stratum: games, sums of ``QUANTITIES``, sums of their squares.
    truncated : ndarray of int64, shape (n_blocks, 2)
        Per block: the games ended by truncation, and those of them valued by an
        approximation (the one-sided convolution, the race12 database, or with the cube
        the cube model beyond the cubeful race table), not an exact table.
    """
    cdef config_t c
    cdef work_t w
    cdef const uint8_t[:, ::1] start = np.ascontiguousarray(boards, dtype=np.uint8)
    cdef double[:, :, ::1] tv
    cdef int64_t[:, ::1] trv
    cdef Py_ssize_t k, blk
    cdef int64_t g0, g1
    cdef int err = 0
    cdef const uint64_t[::1] seeds
    err_list = []
    if truncate and tables is None:
        raise ValueError("truncate=True needs the bear-off tables")
    fill_config(&c, rules, policies, side0_white, dice, opening_dice, truncate, tables)
    c.stratify = stratify
    first, shift, reply = stratified_rolls(entropy, c.n_strata)
    for i in range(c.n_strata):
        c.first_order[i] = first[i]
    for i in range(36):
        c.second_shift[i] = shift[i]
        c.second_order[i] = reply[i]
    c.player[0].window = c.player[1].window = filter_window
    c.py_error = <void*>err_list
    if variance_reduction is not None:
        if c.player[0].kind != PLAYER_NET or c.player[1].kind != PLAYER_NET:
            raise ValueError("variance_reduction needs net policies for both sides")
        c.vr = 1
        c.vr_turns = int(variance_reduction)
        if luck_net is not None:
            c.luck_net = &(<LuckNet?>luck_net).c
    cdef double[:, ::1] pg = per_game if per_game is not None else np.zeros((1, PER_GAME_W))
    cdef int64_t pg_off = 0
    if per_game is not None and (pg.shape[1] != PER_GAME_W or pg.shape[0] < max(
            0, min((first_block + n_blocks) * block_games, n_games) - first_block * block_games)):
        raise ValueError("per_game: expected shape (games of the blocks, PER_GAME_WIDTH)")
    if race12 is not None:
        if cube is not None or not truncate:
            raise ValueError("race12 truncation needs truncate and no cube")
        c.race12 = (<Race12Tables?>race12).c_tables()
        c.player[0].search.race12 = c.player[1].search.race12 = c.race12
    if cube is not None:
        attach_cube(&c.cube, &c.rules, c.tables, cube, err_list)
    tally = np.zeros((n_blocks, N_STRATA, TALLY_W), dtype=np.float64)
    truncated = np.zeros((n_blocks, 2), dtype=np.int64)
    tv = tally
    trv = truncated
    movebuf_init(&w.moves)
    bind_stream(&w.dice_gen, &w.dice_state)
    bind_stream(&w.choice_gen, &w.choice_state)
    w.scratch = <double*>malloc(scratch_bytes(&c))
    try:
        if w.moves.boards == NULL or w.scratch == NULL:
            raise MemoryError("rollout: cannot allocate the successor buffer")
        for k in range(n_blocks):
            blk = first_block + k
            g0 = blk * block_games
            g1 = min(g0 + block_games, n_games)
            if g1 <= g0:
                continue
            seeds = game_seed_words(entropy, blk, g1 - g0)
            with nogil:
                err = play_block(&c, &w, &start[0, 0], g0, g1 - g0, &seeds[0], &tv[k, 0, 0],
                                 &trv[k, 0], &pg[pg_off, 0] if per_game is not None else NULL)
            pg_off += g1 - g0
            if err:
                break
    finally:
        movebuf_free(&w.moves)
        free(w.scratch)
    if err == ERR_PYTHON:
        raise err_list[0]
    if err == ERR_NOMEM:
        raise MemoryError("rollout: out of memory growing the successor buffer")
    if err == ERR_LONG_GAME:
        raise RuntimeError(f"rollout: a game exceeded {MAX_GAME_PLIES} plies; the position "
                           "seems stuck (both sides unable to move)")
    return tally, truncated


_RANDOM = LoopPolicy("random")


def race_values(mover, opponent, *, rules, bint mover_white, tables):
    """Exact values of a race of both homes for the side on roll (the truncation values).

    ``tables``: a ``RaceTables`` (its mars table, if any, is used for 15 against 1 .. N
    checkers).  Returns a dict of ``QUANTITIES`` (``plies``: expected plies to the end).
    Trusts its inputs (both sides entirely home, neither finished, one-sided tables given).
    """
    cdef config_t c
    cdef work_t w
    cdef double v[N_Q]
    cdef uint8_t b[2][N_POINTS]
    cdef const uint8_t[::1] m = np.ascontiguousarray(mover, dtype=np.uint8)
    cdef const uint8_t[::1] o = np.ascontiguousarray(opponent, dtype=np.uint8)
    cdef double p[RV_OUT]
    fill_config(&c, rules, (_RANDOM, _RANDOM), mover_white, None, False, True, tables)
    memcpy(b[0], &m[0], N_POINTS)
    memcpy(b[1], &o[0], N_POINTS)
    w.scratch = <double*>malloc(scratch_bytes(&c))
    if w.scratch == NULL:
        raise MemoryError()
    try:
        race_table_value(c.tables, NULL, b[0], b[1], c.rules.draw_rule, is_white(&c, 0), p)
        race_exact(&c, &w, 0, b[0], b[1], p, v)
    finally:
        free(w.scratch)
    return {QUANTITIES[q]: v[q] for q in range(N_Q)}
