"""Analysis of a whole match: every game at its match score (``nardy-fast analyse``).

``analyse_match(record)`` replays the transcript (``MatchRecord.replay``: the scores must
add up), then analyses each game with ``report.game_report(analyse=True, match=...)`` at
the score before it: checker errors in match winning chances (``mwc_loss``) and their
money equivalent (``emg_loss``, GNU Backgammon's EMG; ``equity_loss`` then holds it), and
with the cube the cube decisions at the score (``cube.cube_decision(match=)``, Zadeh's
model with Janowski's efficiency).  ``match_error_rates`` sums them per player, per game
and in total.
"""
from __future__ import annotations

import os

import pandas as pd

from nardy_fast.core.matchrecord import MatchRecord, read_match
from nardy_fast.core.matchrules import MatchState
from nardy_fast.core.position import WHITE

__all__ = ["analyse_match", "match_error_rates", "match_row", "add_losses", "turn_losses"]


def _for(side, match):
    """The match state with ``side`` on roll (``match`` gives the scores by colour)."""
    return match if side == match.on_roll else match.flipped()


def match_row(o, side, match):
    """``mwc``, ``se_mwc``, ``emg`` of an Outcome of ``side`` on roll at the score."""
    from nardy_fast.engine import met
    state = _for(side, match)
    m, se = met.mwc_of_outcome(o, state)
    return {"mwc": m, "se_mwc": se, "emg": float(met.emg(m, state))}


def add_losses(frame, side, match):
    """Add ``mwc_loss``, ``emg_loss`` to a ``move_report`` frame (best first) of
    ``side``'s moves; returns the match columns to show."""
    from nardy_fast.engine import met
    frame["mwc_loss"] = frame["mwc"].iloc[0] - frame["mwc"]
    frame["emg_loss"] = frame["mwc_loss"] * met.emg_scale(_for(side, match))
    return ["mwc", "se_mwc", "mwc_loss", "emg_loss"]


def turn_losses(frame, after_id):
    """The played move's losses from a match ``move_report``: ``mwc_loss``, ``emg_loss``,
    and ``equity_loss`` and ``mark`` in EMG (error rates then count EMG)."""
    from nardy_fast.analysis.report import mark
    row = frame.loc[frame["id_after"] == after_id]
    m = float(row["mwc_loss"].iloc[0]) if len(row) else float("nan")
    e = float(row["emg_loss"].iloc[0]) if len(row) else float("nan")
    return {"mwc_loss": m, "emg_loss": e, "equity_loss": e, "mark": mark(e)}


def _state(record, k, game):
    """The MatchState before game ``k`` (0-based): scores by colour, White on roll."""
    score = record.scores[k]
    mr = record.rules
    crawford = (mr.crawford and max(score.values()) == mr.length - 1
                and all(max(s.values()) < mr.length - 1 for s in record.scores[:k]))
    return MatchState(mr, (score[game.white], score[game.black]), WHITE, crawford)


def analyse_match(record, progress=None, **kw):
    """One row per turn of every game (``report.game_report`` columns with ``game``,
    ``score_white``, ``score_black``, ``player``), analysed at the match score.

    ``record``: a ``MatchRecord`` or the path of a transcript.  ``kw`` go to
    ``game_report`` (``n_games``, ``seed``, ``method``, ``plies``, ...).
    """
    from nardy_fast.analysis.report import game_report
    if isinstance(record, (str, os.PathLike)):
        record = read_match(record)
    if not isinstance(record, MatchRecord):
        raise TypeError(f"record: expected a MatchRecord or a path, got "
                        f"{type(record).__name__}")
    record.replay()
    frames = []
    for k, game in enumerate(record.games):
        state = _state(record, k, game)
        gr = game_report(game, analyse=True, match=state, progress=progress, **kw)
        gr.insert(0, "game", k + 1)
        gr.insert(1, "score_white", state.score[0])
        gr.insert(2, "score_black", state.score[1])
        frames.append(gr)
    return pd.concat(frames, ignore_index=True)


def match_error_rates(report):
    """Per player, per game and over the match (``game = "total"``): ``report.error_rates``
    columns (losses in EMG, and in match winning chances ``mwc_lost``,
    ``mwc_error_rate``)."""
    from nardy_fast.analysis.report import error_rates
    rows = []
    for game, g in report.groupby("game", sort=True):
        er = error_rates(g).reset_index()
        er.insert(0, "game", str(game))
        rows.append(er)
    total = error_rates(report.assign(side=report["player"])).reset_index(drop=True)
    total.insert(0, "game", "total")
    return pd.concat(rows + [total], ignore_index=True)
