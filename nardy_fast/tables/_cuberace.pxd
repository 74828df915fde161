# C-level API of the exact cubeful race tables (rule book section 7a; _cuberace.pyx).
#
# Boards are bear-off board indices (see _board6.pxd).  A table is float64 (m, m, 4),
# C-contiguous: entry [(x * m + y) * 4 + k] is the equity of the side on roll (board x)
# against the opponent (board y) per unit of the current stake when it rolls now without
# raising (money play: every game is won or lost at the stake), for the cube state k.
# Rows x = 0 (on roll has finished) hold +1, columns y = 0 (x > 0) hold -1.

cdef enum:
    CUBE_CENTRE = 0          # either side may raise
    CUBE_MOVER = 1           # only the side on roll may raise (it owns the cube)
    CUBE_OPPONENT = 2        # only the opponent may raise
    CUBE_DEAD = 3            # no raise any more (cubeless equity 2 P(win) - 1)
    N_CUBE_STATES = 4

# Equity before the cube action of a side that may raise, per unit of the current stake:
# max(no_raise, min(take, 1)), where the opponent's take is worth ratio * next_u to the
# raiser (next_u: the entry CUBE_OPPONENT of the next stake's table, per unit of that
# stake; ratio = next stake / current stake) and 1 is the pass.  With beaver (nonzero) the
# taker may raise at once, to ratio2 * next2_u, when that is lower.
cdef inline double raise_value(double no_raise, double next_u, double ratio, int beaver,
                               double next2_u, double ratio2) noexcept nogil:
    cdef double take = ratio * next_u
    if beaver and ratio2 * next2_u < take:
        take = ratio2 * next2_u
    if take > 1.0:
        take = 1.0
    return no_raise if no_raise >= take else take
