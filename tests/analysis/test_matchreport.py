"""Reports at a match score: the win and move reports in match winning chances, and the
analysis of a whole match (its games, scores and Crawford game).  Match play itself:
tests/engine/decisions/test_matchplay.py."""
from types import SimpleNamespace

import numpy as np
import pytest

from nardy_fast.core.matchrecord import MatchRecord
from nardy_fast.core.matchrules import MatchRules, MatchState
from nardy_fast.core.rules import Rules
from nardy_fast.engine.evaluation import met
from nardy_fast.analysis.report import move_report, win_report

from helpers import cut_rollout_runs, ctrl_c_at_call

CUBE = Rules(cube="geometric")


def test_reports_take_match(middle):
    state = MatchState(5, (1, 3), middle.side)
    wr = win_report([middle], match=state)
    assert {"mwc", "se_mwc", "emg"} <= set(wr.columns)
    mr = move_report(middle, (5, 2), match=state)
    assert (np.diff(mr["mwc"].to_numpy()) <= 1e-12).all()
    assert mr["mwc_loss"].iloc[0] == 0 and (mr["mwc_loss"] >= 0).all()
    assert np.allclose(mr["emg_loss"], mr["mwc_loss"] * met.emg_scale(state))


def test_analysed_game_knows_the_crawford_game():
    from nardy_fast.analysis.matchreport import _state
    mr = MatchRules(length=3, crawford=True, rules=CUBE)
    scores = [(0, 0), (1, 0), (2, 0), (2, 1)]
    rec = MatchRecord(rules=mr, players=("A", "B"),
                      scores=[{"A": a, "B": b} for a, b in scores])
    game = SimpleNamespace(white="B", black="A")
    states = [_state(rec, k, game) for k in range(len(scores))]
    assert [s.crawford for s in states] == [False, False, True, False]
    assert states[2].score == (0, 2)                  # by colour: B White


def test_analysed_match_rows_name_their_game_and_score(played):
    from nardy_fast.analysis.matchreport import analyse_match
    rep = analyse_match(played, method="net")
    assert list(rep.columns[:3]) == ["game", "score_white", "score_black"]
    assert sorted(rep["game"].unique()) == list(range(1, len(played.games) + 1))
    for k, (g, sc) in enumerate(zip(played.games, played.scores), 1):
        rows = rep[rep["game"] == k]
        assert (rows["score_white"] == sc[g.white]).all()
        assert (rows["score_black"] == sc[g.black]).all()


@pytest.mark.parametrize("kw", [{"match": MatchState(2)}, {"analyse": False}])
def test_a_score_or_analyse_given_to_the_match_analysis_is_refused_by_name(played, kw):
    """Each game is analysed at its own score: a ``match=`` (or ``analyse=``) of the user's
    was passed on beside analyse_match's own and failed inside game_report ("got multiple
    values for keyword argument"), naming a function the user had not called."""
    from nardy_fast.analysis.matchreport import analyse_match
    name = next(iter(kw))
    with pytest.raises(TypeError, match=rf"^{name}: analyse_match analyses each game at its "
                                        "own score"):
        analyse_match(played, **kw)


def test_a_cut_rollout_stops_the_match_analysis(monkeypatch):
    """Ctrl-C in a rollout of the first game: KeyboardInterrupt, no later rollout."""
    from nardy_fast.analysis.matchreport import analyse_match
    from nardy_fast.analysis.report import race_sample
    from nardy_fast.core.record import random_game
    game = random_game(seed=1, start=race_sample(1, seed=2)[0], white="Ann", black="Bob")
    m = MatchRecord(rules=MatchRules(length=1), players=("Ann", "Bob"), games=[game],
                    scores=[{"Ann": 0, "Bob": 0}])
    runs = cut_rollout_runs(monkeypatch)
    with pytest.raises(KeyboardInterrupt, match="stopped at an interrupted rollout"):
        analyse_match(m, method="rollout", n_games=36, policy="greedy", truncate=None,
                      workers=1, progress=False)
    assert runs == [1]


def test_a_match_still_being_played_is_analysed_so_far(tmp_path):
    """A transcript cut in its first game (a match analysed while it is played) was
    refused: "the match is not over".  Its games so far are analysed, the page says the
    score so far; every other check of the transcript stands."""
    from pathlib import Path

    from nardy_fast.analysis.matchreport import analyse_match
    from nardy_fast.analysis.page import to_html
    from nardy_fast.core.matlayout import read_mat
    from nardy_fast.core.record import RecordError
    whole = Path(__file__).resolve().parents[1] / "data" / "mat" / "three_games.MAT"
    cut = tmp_path / "cut.MAT"
    cut.write_text("".join(whole.read_text().splitlines(keepends=True)[:12]))
    rec = read_mat(cut)
    with pytest.raises(RecordError, match="the match is not over"):
        rec.replay()                                       # a finished match is still asked
    assert rec.replay(unfinished=True) == {"Alice": 0.0, "Bob": 0.0}
    report = analyse_match(rec)
    assert set(report["game"]) == {1} and len(report) == len(rec.games[0].turns) + 1
    assert "Score so far Alice 0, Bob 0 (match to 3): the match is not over" in to_html(
        report, record=rec)


def test_a_match_joined_one_point_away_has_had_its_crawford_game():
    """``play_one_match`` from 2-0 in a match to 3 under the Crawford rule plays its first
    game with the cube (the Crawford game taken as played), but ``analyse_match(cube=True)``
    took that game for the Crawford game and refused the match's own transcript: "the
    Crawford game is played without the cube, but the record has a cube action"."""
    from nardy_fast.analysis.matchreport import analyse_match, game_state
    from nardy_fast.engine.decisions.matchplay import play_one_match
    mr = MatchRules(length=3, crawford=True, rules=CUBE)
    m = play_one_match("random", "random", rules=mr, score=(2, 0), seed=1)
    assert m.games[0].cube                            # a raise in the first game
    assert not game_state(m, 0).crawford
    rep = analyse_match(m, method="net", cube=True)
    assert set(rep["game"]) == {1}


def test_ctrl_c_names_the_game_the_match_analysis_stopped_in(monkeypatch, played):
    """Ctrl-C in the analysis of a match raised a bare KeyboardInterrupt, which did not
    say how far the analysis got."""
    from nardy_fast.analysis import matchreport
    calls = ctrl_c_at_call(monkeypatch, matchreport, "game_report")
    n = len(played.games)
    assert n >= 2
    with pytest.raises(KeyboardInterrupt) as e:
        matchreport.analyse_match(played, method="net")
    assert str(e.value) == f"analyse_match: stopped in game 2 of {n}"


def test_the_match_analysis_stop_says_a_cut_rollout_by_its_type_not_its_text(monkeypatch,
                                                                             played):
    """``analyse_match`` told a stop at a cut rollout by matching the message of the
    interrupt it caught: a ``Stopped`` at a cut rollout whose function's name was not one
    word was taken for a plain Ctrl-C, and a plain interrupt whose text looked like the
    library's for a cut rollout.  It reads the ``Stopped``'s attributes, and raises one."""
    from nardy_fast.analysis import matchreport
    from nardy_fast.engine.play.rollout import Stopped
    n = len(played.games)
    for caught, cut in ((Stopped("move report", cut_rollout=True), True),
                        (KeyboardInterrupt("move_report: stopped at an interrupted "
                                           "rollout (no answer rests on cut rollouts)"),
                         False)):
        def stopped(*a, caught=caught, **k):
            raise caught
        monkeypatch.setattr(matchreport, "game_report", stopped)
        with pytest.raises(Stopped) as e:
            matchreport.analyse_match(played, method="net")
        stop = e.value
        assert (stop.what, stop.where, stop.cut_rollout, stop.kept) == (
            "analyse_match", f"in game 1 of {n}", cut, ())
        assert str(stop) == ("analyse_match: stopped "
                             + ("at an interrupted rollout " if cut else "")
                             + f"in game 1 of {n}"
                             + (" (no answer rests on cut rollouts)" if cut else ""))
