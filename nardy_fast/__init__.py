"""nardy_fast: fast, exact analysis of long nardy.

Legal moves, positions and their IDs, bear-off databases, a trained evaluator with n-ply
search, rollouts and reports.  Boards
are 24 checker counts in each side's own numbering (idx = point - 1, idx 0 = the head).
"""
from nardy_fast.rules import CLASSIC, Rules
from nardy_fast._movegen import successors
from nardy_fast.position import Move, Position
from nardy_fast.rollout import rollout, rollout_many
from nardy_fast.race import race_probabilities
from nardy_fast.evaluator import Evaluator
from nardy_fast.record import GameRecord, read_record, write_record
from nardy_fast.report import game_report, move_report, pip_report, win_report
from nardy_fast.plot import plot_board
from nardy_fast.cube import CubeState, cube_decision, cube_report
from nardy_fast.matchrules import MatchRules, MatchState
from nardy_fast.met import match_equity_table
from nardy_fast.matchplay import simulate_matches
from nardy_fast.matchrecord import MatchRecord, read_match, write_match

__version__ = "0.1.0"


def get_include():
    """The folder of nardy_fast's C headers, for extensions that cimport its C-level API
    (``nardy_fast/__init__.pxd``): add it to ``include_dirs`` beside numpy's."""
    import os
    return os.path.join(os.path.dirname(__file__), "src")


__all__ = ["CLASSIC", "CubeState", "Evaluator", "GameRecord", "Move", "Position", "Rules",
           "MatchRecord", "MatchRules", "MatchState", "match_equity_table", "read_match",
           "simulate_matches", "write_match",
           "cube_decision", "cube_report", "game_report", "move_report", "pip_report",
           "plot_board", "race_probabilities", "read_record",
           "rollout", "rollout_many", "successors", "win_report", "write_record",
           "get_include", "__version__"]
