"""nardy_fast: fast, exact analysis of long nardy.

Legal moves, positions and their IDs, bear-off databases, rollouts and reports.  Boards
are 24 checker counts in each side's own numbering (idx = point - 1, idx 0 = the head).
"""
from nardy_fast.rules import CLASSIC, Rules
from nardy_fast._movegen import successors
from nardy_fast.position import Move, Position
from nardy_fast.rollout import rollout, rollout_many
from nardy_fast.race import race_probabilities

__version__ = "0.1.0"

__all__ = ["CLASSIC", "Move", "Position", "Rules", "race_probabilities", "rollout",
           "rollout_many", "successors", "__version__"]
