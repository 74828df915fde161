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

from nardy_fast._utils._frames import require_columns
from nardy_fast.analysis.report import error_rates, game_report
from nardy_fast.core.matchrecord import MatchRecord, read_match
from nardy_fast.core.matchrules import MatchState
from nardy_fast.core.position import WHITE
from nardy_fast.engine.play.rollout import Stopped

__all__ = ["analyse_match", "match_error_rates", "game_state"]


def game_state(record: MatchRecord, k: int) -> MatchState:
    """The ``MatchState`` before game ``k`` (0-based) of ``record``: the scores by colour
    (the game's White first), White on roll, the Crawford game flagged."""
    return _state(record, k, record.games[k])


def _state(record, k, game):
    """The MatchState before game ``k`` (0-based): scores by colour, White on roll, the
    Crawford game by ``MatchRecord.crawford_game`` (a record that starts one point away
    has had it, as ``play_one_match`` plays it)."""
    score = record.scores[k]
    return MatchState(record.rules, (score[game.white], score[game.black]), WHITE,
                      record.crawford_game(k))


def analyse_match(record, *, progress=None, **kw):
    """One row per turn of every game (``report.game_report`` columns with ``game``,
    ``score_white``, ``score_black``, ``player``), analysed at the match score.

    ``record``: a ``MatchRecord`` or the path of a transcript.  ``kw`` go to
    ``game_report`` (``n_games``, ``seed``, ``method`` (a name or a method object:
    ``nardy_fast.Net(plies=1)``, ``Rollout(settings)``), ``plies``, ``cube``, ``compute``
    (a ``nardy_fast.Compute``), ...), each by keyword (not ``match`` or ``analyse``,
    which it sets for each game: a ``TypeError``): with
    ``cube=True`` each game's cube decisions are judged at its score (``game_state``;
    none in the Crawford game), their losses in EMG and match winning chance.  Ctrl-C
    raises ``Stopped`` (a ``KeyboardInterrupt``, ``engine.play.rollout``) naming the game it
    stopped in (no later game or turn is analysed, nothing is returned).

    Returns
    -------
    pandas.DataFrame
        One row per turn of every game, in order: the ``game_report`` columns with
        ``game`` (1-based), ``score_white``, ``score_black`` (before the game) and ``player``.

    Examples
    --------
    >>> import nardy_fast as nf
    >>> race = nf.race_sample(1, seed=2)[0]          # a short game: a race to the end
    >>> game = nf.random_game(seed=1, start=race, white="Ann", black="Bob")
    >>> m = nf.MatchRecord(rules=nf.MatchRules(length=1), players=("Ann", "Bob"), games=[game],
    ...                    scores=[{"Ann": 0, "Bob": 0}])
    >>> am = nf.analyse_match(m)
    >>> am[["game", "turn", "player", "move", "equity_loss"]].head(3).round(3)
       game  turn player          move  equity_loss
    0     1     1    Ann  22/off 19/23        0.137
    1     1     2    Bob  19/off 19/20        0.105
    2     1     3    Ann  19/24 20/off        0.166
    """
    for name in ("match", "analyse"):      # analyse_match sets both for every game
        if name in kw:
            raise TypeError(f"{name}: analyse_match analyses each game at its own score "
                            f"from the record (game_state); give no {name}=")
    if isinstance(record, (str, os.PathLike)):
        record = read_match(record)
    if not isinstance(record, MatchRecord):
        raise TypeError(f"record: expected a MatchRecord or a path, got "
                        f"{type(record).__name__}")
    record.replay(unfinished=True)     # a match analysed while it is played: so far
    frames = []
    for k, game in enumerate(record.games):
        state = _state(record, k, game)
        try:
            gr = game_report(game, analyse=True, match=state, progress=progress, **kw)
        except KeyboardInterrupt as e:   # say how far the match got
            raise Stopped("analyse_match", f"in game {k + 1} of {len(record.games)}",
                          cut_rollout=isinstance(e, Stopped) and e.cut_rollout) from None
        gr.insert(0, "game", k + 1)
        gr.insert(1, "score_white", state.score[0])
        gr.insert(2, "score_black", state.score[1])
        frames.append(gr)
    import pandas as pd          # lazy: pandas is slow to import; import nardy_fast skips it
    out = pd.concat(frames, ignore_index=True)
    out.attrs = {k: frames[0].attrs[k] for k in ("settings", "seed") if k in frames[0].attrs}
    return out


def match_error_rates(report):
    """Per player, per game and over the match (``game = "total"``, ``side = "both"``: the
    player's turns under either colour): ``report.error_rates`` columns (losses in EMG,
    and in match winning chances ``mwc_lost``, ``mwc_error_rate``).

    Returns
    -------
    pandas.DataFrame
        One row per player and game, then one per player with ``game = "total"``.

    Examples
    --------
    >>> import nardy_fast as nf
    >>> race = nf.race_sample(1, seed=2)[0]          # a short game: a race to the end
    >>> game = nf.random_game(seed=1, start=race, white="Ann", black="Bob")
    >>> m = nf.MatchRecord(rules=nf.MatchRules(length=1), players=("Ann", "Bob"), games=[game],
    ...                    scores=[{"Ann": 0, "Bob": 0}])
    >>> am = nf.analyse_match(m)
    >>> am[["game", "turn", "player", "move", "equity_loss"]].head(3).round(3)
       game  turn player          move  equity_loss
    0     1     1    Ann  22/off 19/23        0.137
    1     1     2    Bob  19/off 19/20        0.105
    2     1     3    Ann  19/24 20/off        0.166
    >>> nf.match_error_rates(am)[["game", "player", "decisions", "equity_lost"]].round(3)
        game player  decisions  equity_lost
    0      1    Ann          5        1.114
    1      1    Bob          6        0.354
    2  total    Ann          5        1.114
    3  total    Bob          6        0.354
    """
    require_columns(report, ("game", "player", "equity_loss"), "match_error_rates",
                    "analyse_match")
    rows = []
    for game, g in report.groupby("game", sort=True):
        er = error_rates(g).reset_index()
        er.insert(0, "game", str(game))
        rows.append(er)
    total = error_rates(report.assign(side=report["player"])).reset_index(drop=True)
    total.insert(0, "game", "total")
    total.insert(1, "side", "both")          # a player's games under either colour
    import pandas as pd          # lazy: pandas is slow to import; import nardy_fast skips it
    return pd.concat(rows + [total], ignore_index=True)
