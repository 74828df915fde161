# The C-level API of nardy_fast, in one place: `from nardy_fast cimport gen_successors, ...`
# (each name is documented in the .pxd it comes from).  Extensions compile with
# include_dirs=[numpy.get_include(), nardy_fast.get_include()]; tests/integration/test_cimport.py builds
# such a consumer.

# boards: uint8_t[24] per side, own numbering (_board.pxd)
from nardy_fast.core._board cimport (N_POINTS, N_CHECKERS, HOME_IDX, OFF, occupancy, opponent_mask, checkers_on, pip_count, all_home, in_contact, to_board6)
# rules: the C struct mirroring Rules, filled from Python (_rules.pxd)
from nardy_fast.core._rules cimport (rules_t, fill_rules, HEAD_CLASSIC, HEAD_GENERALIZED, BLOCK_AHEAD, BLOCK_HOME, BLOCK_NONE, SCORING_CLASSIC, SCORING_EXTENDED, OPENING_RETHROW, OPENING_DICE, CUBE_NONE, CUBE_GEOMETRIC, CUBE_ARITHMETIC)
# the legal move generator (_movegen.pxd)
from nardy_fast.core._movegen cimport (gen_successors, check_boards, MAX_STEPS, STEP_BYTES, DEFAULT_CAP, NO_STEP)
# the 21 rolls (_dice.pxd)
from nardy_fast.core._dice cimport roll_of, roll_index, N_ROLLS
# the bear-off index (_board6.pxd)
from nardy_fast.tables._board6 cimport (board6_index, board6_from_index, home_board_index, n_boards, N_HOME, MAX_BEAROFF, N_BOARDS)
# the bear-off move generator (_bomoves.pxd)
from nardy_fast.tables._bomoves cimport single_step_table, roll_finals, final_lists, MAX_FINALS
# exact race probabilities from the bear-off databases (_racetables.pxd)
from nardy_fast.tables._racetables cimport (race_tables_t, race_probs, race_outcome, RaceTables, RACE_ONE_SIDED, RACE_TWO_SIDED, RACE_MARS, RACE_NONE)
# scoring of a finished game and Black's last turn (_scoring.pxd)
from nardy_fast.core._scoring cimport (score_game, last_turn_due, WIN_OIN, WIN_MARS, WIN_KOKS, WIN_HOME_MARS)
# the evaluation network and its n-ply search (_net.pxd, _search.pxd)
from nardy_fast.engine.evaluation._net cimport (net_t, Net, net_encode, net_eval, net_eval_many, net_clip, net_clip_board, net_equity, net_flip, net_flip_difference, NET_INPUTS, NET_OUTPUTS, OUT_WIN, OUT_MARS_WIN, OUT_KOKS_WIN, OUT_HOME_MARS_WIN, OUT_MARS_LOSS, OUT_KOKS_LOSS, OUT_HOME_MARS_LOSS)
from nardy_fast.engine.evaluation._search cimport search_t, Searcher, leaf, value, choose
# the fixed policies (_policies.pxd)
from nardy_fast.engine.play._policies cimport greedy_best, bearoff_best, board_less
# one turn of a C game loop: dice, legal results in a growing buffer, a policy's pick (_turn.pxd)
from nardy_fast.engine.play._turn cimport (player_t, movebuf_t, draw_below, draw_roll, legal_results, movebuf_init, movebuf_free, pick, PLAYER_RANDOM, PLAYER_GREEDY, PLAYER_PYTHON, PLAYER_NET)
# the exact cubeful race tables: cube states and the value of a raise (_cuberace.pxd)
from nardy_fast.tables._cuberace cimport (raise_value, CUBE_CENTRE, CUBE_MOVER, CUBE_OPPONENT, CUBE_DEAD, N_CUBE_STATES)
