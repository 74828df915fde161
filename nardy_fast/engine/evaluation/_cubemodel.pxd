# C-level API of the cube model (rule book section 7a; _cubemodel.pyx): Janowski's cube
# efficiency model in GNU Backgammon's form with W and L (cubemodel's docstring).  The one
# home of its formulas: the Python cube functions (cubemodel.py, through the wrappers of
# _cubemodel.pyx) and the C game loop's cube (_cubeloop.pyx) both call these.
#
# Equities are the side on roll's, per unit of the current stake k; p is its cubeless
# P(win); w, l (W, L) the mean points per stake of its won and lost games (1: no mars);
# own is the cube state relative to the side on roll, _cuberace's CUBE_CENTRE, CUBE_MOVER
# or CUBE_OPPONENT; geometric: 1 for the doubling progression, 0 for the arithmetic one
# (raises k -> k + 1, none above max_stake, where the cube is dead).
from libc.stdint cimport uint8_t
from libc.math cimport fabs

cdef extern from *:
    """
    #define NF_CUBE_TIE 1e-12
    """
    # Two equities (per stake) within it are a tie of the cube actions (cubemodel.TIE):
    # the rounding of the tables and of the match table's interpolation.
    const double NF_CUBE_TIE

# The cash point of the side owning the cube at stake k: its P(win) from which the opponent
# passes its raise (cubemodel.cash_point).  1 - cm_cash_point(l, w) is the take point.
cdef double cm_cash_point(bint geometric, double w, double l, int k,
                          int max_stake) noexcept nogil

# The fully live take point of a raise from stake k, W = L = 1 (cubemodel.live_take_point):
# 1/5 geometric; arithmetic by the recursion from the cap down (0 at the cap).
cdef double cm_live_take_point(bint geometric, int k, int max_stake) noexcept nogil

# Fully live equity with W = L = 1 for take point tp (cash point 1 - tp).
cdef double cm_live(double p, int own, double tp) noexcept nogil

# Fully live equity with W, L (GNU Backgammon's MoneyLive).
cdef double cm_live_wl(double p, int own, int k, double w, double l, bint geometric,
                       int max_stake) noexcept nogil

# Janowski's equity (1 - x) dead + x live; tp: the live take point at k (cm_live_take_point,
# or a table of it), used when w = l = 1 (then the dead equity is 2p - 1).
cdef double cm_model(double p, int own, int k, double x, double w, double l,
                     bint geometric, int max_stake, double tp) noexcept nogil

# The mean points per stake of a won (or lost) game of probability q with its parts mars,
# koks, home mars (koks and home mars are parts of mars) and pts[4] points per stake of an
# oin, a mars, a koks and a home mars: at least min(pts); 1 when q < 1e-7
# (cubemodel.win_loss_values).
cdef double cm_mean_points(double q, double mars, double koks, double home,
                           const double* pts) noexcept nogil

# The race efficiency at the side on roll's pip count: x_race (n_x, 2) of (pips, x),
# linear between bins, held constant beyond the first and the last.
cdef double cm_race_efficiency(double pips, const double* x_race, int n_x) noexcept nogil

# The efficiency of a position (mover on roll, o; 24-point boards): x_contact while the
# sides can meet (_board.in_contact: a checker of either side on its points 1-12), else
# cm_race_efficiency.
cdef double cm_efficiency(const uint8_t* mover, const uint8_t* o, double x_contact,
                          const double* x_race, int n_x) noexcept nogil

# P(win) of the side on roll from the pip counts alone (cubemodel.pip_probability).
cdef double cm_pip_probability(double pips_mover, double pips_opponent) noexcept nogil

# The side on roll's double, from what playing on is worth (nd) and what the double is
# worth (doubled: the opponent's choice of take, beaver or pass; passes: it is the pass),
# both per stake: 1 it doubles; 0 a tie with a take or beaver, where it keeps the cube;
# -1 playing on is worth more.  The one rule of the ties (cubemodel.actions): a tie with
# a pass cashes, a tie with a take keeps the cube.
cdef inline int cm_double_choice(double nd, double doubled, bint passes) noexcept nogil:
    if fabs(doubled - nd) <= NF_CUBE_TIE:
        return 1 if passes else 0
    return 1 if doubled > nd else -1
