"""nardy_fast: fast, exact analysis of long nardy.

Legal moves, positions and their IDs, bear-off databases, a trained evaluator with n-ply
search, rollouts and reports.  Boards are 24 checker counts in each side's own numbering
(idx = point - 1, idx 0 = the head).

The package is layered; each layer imports only from the layers below it:
``core`` (vocabulary: rules, positions, moves, records, the cube's state), ``tables``
(bear-off and race databases), ``engine`` (evaluation: net, search, evaluator, cube model;
play: game loops, rollouts; decisions: valuation, cube, matches), ``training`` and
``analysis`` (reports, charts) side by side, and ``app`` (command line, demo, terminal
play).  This module is the public API: everything a user meets is exported here.
"""
import importlib
import os
from typing import TYPE_CHECKING

from nardy_fast._utils._version import __version__

# The public names and their homes.  They are imported when first used (PEP 562's module
# ``__getattr__``), so ``import nardy_fast`` costs almost nothing and ``nardy-fast
# --version`` answers at once; ``from nardy_fast import *``, ``dir`` and attribute access
# see every name as before.  The ``TYPE_CHECKING`` imports below say the same for mypy.
_EXPORTS = {
    "CLASSIC": "core.rules", "Rules": "core.rules",
    "successors": "core._movegen",
    "BLACK": "core.position", "WHITE": "core.position", "Move": "core.position",
    "Position": "core.position", "as_position": "core.position",
    "Outcome": "core.result",
    "CENTRED": "core.cubestate", "CubeState": "core.cubestate",
    "GameRecord": "core.record", "parse_record": "core.record", "read_record": "core.record",
    "write_record": "core.record",
    "plot_board": "core.diagram",
    "race_probabilities": "tables.race",
    "race12_probabilities": "tables.race12",
    "Evaluator": "engine.evaluation.evaluator",
    "random_game": "engine.play.policy",
    "DEFAULT_GAMES": "engine.play.rollout", "rollout": "engine.play.rollout",
    "rollout_many": "engine.play.rollout", "rollout_games": "engine.play.rollout",
    "RolloutGames": "engine.play.rollout",
    "RolloutSettings": "engine.play.settings", "Compute": "_utils.compute",
    "cube_decision": "engine.decisions.cube",
    "Auto": "engine.decisions.methods", "Exact": "engine.decisions.methods",
    "Net": "engine.decisions.methods", "Rollout": "engine.decisions.methods",
    # exported as train_self_play: a plain ``train`` would say nothing of what it trains
    "train_self_play": "training.train:train",
    "vs_greedy": "engine.play.strength",
    "convergence_report": "analysis.report", "error_rates": "analysis.report",
    "game_report": "analysis.report", "move_report": "analysis.report",
    "pip_report": "analysis.report", "race_report": "analysis.report",
    "race_sample": "analysis.report", "win_report": "analysis.report",
    "save_frame": "analysis.export:save",
    "bearoff_distribution": "analysis.plot", "convergence_chart": "analysis.plot",
    "game_chart": "analysis.plot", "race_chart": "analysis.plot",
    "cube_analysis": "analysis.cubereport", "cube_error_rates": "analysis.cubereport",
    "cube_report": "analysis.cubereport",
    "analyse_match": "analysis.matchreport", "match_error_rates": "analysis.matchreport",
    "read_study": "analysis.study", "study": "analysis.study",
    "bearoff": "tables.bearoff:",
    "MatchRules": "core.matchrules", "MatchState": "core.matchrules",
    "MatchRecord": "core.matchrecord", "read_match": "core.matchrecord",
    "write_match": "core.matchrecord",
    "read_mat": "core.matlayout", "read_mat_game": "core.matlayout",
    "write_mat": "core.matlayout",
    "match_cube_decision": "engine.evaluation.met", "match_equity_table": "engine.evaluation.met",
    "outcome_values": "engine.evaluation.met", "start_distribution": "engine.evaluation.met",
    "play_one_match": "engine.decisions.matchplay", "simulate_matches": "engine.decisions.matchplay",
}

if TYPE_CHECKING:
    from nardy_fast.core.rules import CLASSIC, Rules
    from nardy_fast.core._movegen import successors
    from nardy_fast.core.position import BLACK, WHITE, Move, Position, as_position
    from nardy_fast.core.result import Outcome
    from nardy_fast.core.cubestate import CENTRED, CubeState
    from nardy_fast.core.record import GameRecord, parse_record, read_record, write_record
    from nardy_fast.core.diagram import plot_board
    from nardy_fast.tables.race import race_probabilities
    from nardy_fast.tables.race12 import race12_probabilities
    from nardy_fast.engine.evaluation.evaluator import Evaluator
    from nardy_fast.engine.play.policy import random_game
    from nardy_fast.engine.play.rollout import (DEFAULT_GAMES, RolloutGames, rollout,
                                                rollout_games, rollout_many)
    from nardy_fast.engine.play.settings import RolloutSettings
    from nardy_fast._utils.compute import Compute
    from nardy_fast.engine.decisions.cube import cube_decision
    from nardy_fast.engine.decisions.methods import Auto, Exact, Net, Rollout
    from nardy_fast.training.train import train as train_self_play
    from nardy_fast.engine.play.strength import vs_greedy
    from nardy_fast.analysis.report import (convergence_report, error_rates, game_report,
                                            move_report, pip_report, race_report,
                                            race_sample, win_report)
    from nardy_fast.analysis.export import save as save_frame
    from nardy_fast.analysis.plot import (bearoff_distribution, convergence_chart,
                                          game_chart, race_chart)
    from nardy_fast.analysis.cubereport import cube_analysis, cube_error_rates, cube_report
    from nardy_fast.analysis.matchreport import analyse_match, match_error_rates
    from nardy_fast.analysis.study import read_study, study
    from nardy_fast.tables import bearoff
    from nardy_fast.core.matchrules import MatchRules, MatchState
    from nardy_fast.core.matchrecord import MatchRecord, read_match, write_match
    from nardy_fast.core.matlayout import read_mat, read_mat_game, write_mat
    from nardy_fast.engine.evaluation.met import (match_cube_decision, match_equity_table,
                                       outcome_values, start_distribution)
    from nardy_fast.engine.decisions.matchplay import play_one_match, simulate_matches


def _export(name):
    """Import the public name ``name`` from its home (``_EXPORTS``) and keep it here."""
    home, _, attr = _EXPORTS[name].partition(":")
    module = importlib.import_module(f"{__name__}.{home}")
    value = module if _EXPORTS[name].endswith(":") else getattr(module, attr or name)
    globals()[name] = value               # the next access is a plain attribute
    return value


def get_include() -> str:
    """The folder of nardy_fast's C headers, for extensions that cimport its C-level API
    (``nardy_fast/__init__.pxd``): add it to ``include_dirs`` beside numpy's.

    Returns
    -------
    str
        An absolute folder path.

    Examples
    --------
    >>> import os
    >>> import nardy_fast as nf
    >>> os.path.isdir(nf.get_include())
    True
    """
    return os.path.join(os.path.dirname(__file__), "src")


def __getattr__(name):
    """A public name, imported at first use (``_EXPORTS``)."""
    if name in _EXPORTS:
        return _export(name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["Auto", "BLACK", "CENTRED", "CLASSIC", "Compute", "CubeState", "DEFAULT_GAMES",
           "Evaluator", "Exact",
           "GameRecord", "Move", "MatchRecord", "MatchRules", "MatchState", "Net", "Outcome",
           "Position", "Rollout", "RolloutGames", "RolloutSettings", "Rules", "WHITE",
           "analyse_match", "as_position", "bearoff", "bearoff_distribution",
           "convergence_chart", "convergence_report", "cube_analysis", "cube_decision",
           "cube_error_rates", "cube_report", "error_rates", "game_chart", "game_report",
           "match_cube_decision", "match_equity_table", "match_error_rates", "move_report",
           "outcome_values", "parse_record", "pip_report", "play_one_match", "plot_board",
           "race_chart", "race_probabilities", "race12_probabilities", "race_report",
           "race_sample", "random_game", "read_mat", "read_mat_game", "read_match",
           "read_record", "read_study",
           "rollout", "rollout_games", "rollout_many", "save_frame", "simulate_matches",
           "start_distribution", "study", "successors", "train_self_play", "vs_greedy", "win_report", "write_mat",
           "write_match", "write_record",
           "get_include", "__version__"]


def __dir__():
    """The public names (``__all__``), for ``dir`` and completion: not the helpers this
    module imports for itself (``os``, ``importlib``, ``TYPE_CHECKING``)."""
    return sorted(__all__)
