# C-level rules: the one C struct mirroring nardy_fast.core.rules.Rules (rule book sections 3-8).
#
# Adding a rule variant touches two places: the field's tuple in rules.CHOICES (or a new
# flag in rules.FLAGS) and a field here (with its enum values).  Rules.codes() gives the
# numbers; fill_rules copies them into the struct.  The code of a choice is its position in
# rules.CHOICES, so the enums below follow those tuples.

cdef enum:
    HEAD_CLASSIC = 0         # rules_t.head_rule: rules.CHOICES["head_rule"]
    HEAD_GENERALIZED = 1
    BLOCK_AHEAD = 0          # rules_t.block_rule: rules.CHOICES["block_rule"]
    BLOCK_HOME = 1
    BLOCK_NONE = 2
    SCORING_CLASSIC = 0      # rules_t.scoring: rules.CHOICES["scoring"]
    SCORING_EXTENDED = 1
    OPENING_RETHROW = 0      # rules_t.opening_roll: rules.CHOICES["opening_roll"]
    OPENING_DICE = 1
    CUBE_NONE = 0            # rules_t.cube: rules.CHOICES["cube"] (section 7a)
    CUBE_GEOMETRIC = 1       #   stakes 1, 2, 4, 8, ...
    CUBE_ARITHMETIC = 2      #   stakes 1, 2, 3, 4, ...

ctypedef struct rules_t:
    int head_rule            # HEAD_CLASSIC or HEAD_GENERALIZED
    int block_rule           # BLOCK_AHEAD, BLOCK_HOME or BLOCK_NONE
    int block_transient      # 0: every intermediate position is checked; 1: only the last
    int larger_die_rule      # 1: a lone playable die of a non-double must be the larger
    int scoring              # SCORING_CLASSIC or SCORING_EXTENDED (already in the points)
    int draw_rule            # 1: Black gets a last turn after White (the first mover) ends
    int opening_roll         # OPENING_RETHROW or OPENING_DICE (no double on the first turn)
    int cube                 # CUBE_NONE, CUBE_GEOMETRIC or CUBE_ARITHMETIC
    int beaver               # 1: the side offered a raise may take and raise again at once
    int autodouble           # 1: each tie of the opening throw raises the stake (from the start)
    double pts_oin           # points of each outcome as scored under `scoring`
    double pts_mars          #   (Rules.points: koks and home mars score as a mars under
    double pts_koks          #   classic scoring)
    double pts_home_mars

# Fills *out from a Rules, a dict of Rules fields, "classic" or None (classic); raises
# ValueError / TypeError as rules.as_rules does.  Needs the GIL; results are cached per
# Rules object.
cdef int fill_rules(object rules, rules_t* out) except -1
