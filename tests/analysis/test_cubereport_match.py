"""The cube decisions of a match judged at each game's score: ``cube_analysis(match=)``,
``game_report(cube=True, match=)``, ``analyse_match(cube=True)`` and the page, turn by
turn against ``cube_decision(match=)`` (Crawford game and post-Crawford game included).

The match: a 3-point match with the Crawford rule played by two money players
(``aware=False``, seed 132): game 1 at 0-0 has a raise taken and a raise dropped, game 2
is the Crawford game (2-0), and in game 3 (post-Crawford, 2-1) the trailer raises at
turn 13 and the leader, one point away, owns the 2-cube: a dead cube, which money play
judges as "double, pass" turn after turn.
"""
import pytest

from nardy_fast.analysis import matchreport
from nardy_fast.analysis.cubereport import cube_analysis
from nardy_fast.analysis.matchreport import analyse_match, game_state
from nardy_fast.analysis.report import game_report
from nardy_fast.core.cubestate import CubeState
from nardy_fast.core.matchrules import MatchRules, MatchState
from nardy_fast.core.rules import Rules
from nardy_fast.engine.evaluation import met
from nardy_fast.engine.decisions.cube import cube_decision
from nardy_fast.engine.decisions.matchplay import play_one_match

RULES = MatchRules(length=3, crawford=True, rules=Rules(cube="geometric"))
PIPS = "pips"          # a fast cubeless source; the same for the analysis and the check


@pytest.fixture(scope="module")
def match():
    rec = play_one_match("greedy", "greedy", RULES, seed=132, aware=False)
    states = [game_state(rec, k) for k in range(len(rec.games))]
    assert [s.crawford for s in states] == [False, True, False]
    assert any(c.action == "take" for c in rec.games[2].cube)   # the leader owns the cube
    return rec


def _expected(game, start):
    """``{turn: (action, no_double, double_take, double_pass)}`` of every turn where the
    side on roll may raise at the score (``cube_decision(match=)`` itself), with the
    cube before that turn."""
    out = {}
    if start.crawford:
        return out
    states = game.cube_states()
    for k, pos in enumerate(game.positions()[:len(game.turns) + 1]):
        before = CubeState() if k == 0 else states[k - 1].passed()
        acts = [c for c in game.cube if c.before == k]
        if pos.is_over() or (k == len(game.turns) and not acts):
            break                       # a raise dropped before the last roll: a row
        state = MatchState(start.rules, start.score, pos.side, False,
                           CubeState(before.stake, before.owner))
        may = (before.owner != "opponent" and not pos.is_first_turn()
               and before.stake < state.away()[0])
        if not (may or acts):
            continue
        d = cube_decision(pos, CubeState(before.stake, before.owner),
                          cube_probabilities=PIPS, match=state)
        out[k + 1] = (d["action"], d["no_double"], d["double_take"], d["double_pass"])
    return out


def test_each_cube_row_is_the_decision_at_the_score(match):
    for k, game in enumerate(match.games):
        start = game_state(match, k)
        ca = cube_analysis(game, cube_probabilities=PIPS, match=start)
        want = _expected(game, start)
        assert ca["turn"].tolist() == sorted(want), f"game {k + 1}"
        for _, r in ca.iterrows():
            action, nd, dt, dp = want[r["turn"]]
            assert r["proper"] == action, (k + 1, r["turn"])
            for got, exp in ((r["no_double"], nd), (r["double_take"], dt),
                             (r["double_pass"], dp)):
                assert got == pytest.approx(exp, nan_ok=True)
            assert r["method"].startswith("zadeh")


def test_no_cube_in_the_crawford_game_and_a_dead_cube_is_no_decision(match):
    crawford = cube_analysis(match.games[1], cube_probabilities=PIPS,
                             match=game_state(match, 1))
    assert crawford.empty
    assert crawford["double_loss"].dtype == float
    post = game_state(match, 2)
    ca = cube_analysis(match.games[2], cube_probabilities=PIPS, match=post)
    leader = "white" if post.score[0] == 2 else "black"
    assert not (ca["side"] == leader).any()          # 1 away: never a cube decision
    money = cube_analysis(match.games[2], cube_probabilities=PIPS)    # as if for money
    assert (money["side"] == leader).any()


def test_losses_are_in_mwc_and_emg(match):
    start = game_state(match, 0)
    ca = cube_analysis(match.games[0], cube_probabilities=PIPS, match=start)
    assert {"double_mwc_loss", "take_mwc_loss"} <= set(ca.columns)
    for _, r in ca.iterrows():
        best_answer = min(r["double_take"], r["double_pass"])
        best = max(r["no_double"], best_answer)
        if r["played"] == "no double":
            assert r["double_mwc_loss"] == pytest.approx(max(0.0, best - r["no_double"]))
        else:
            assert r["double_mwc_loss"] == pytest.approx(max(0.0, best - best_answer))
        mover = start if r["side"] == start.on_roll else start.flipped()
        assert r["double_loss"] == pytest.approx(r["double_mwc_loss"] * met.emg_scale(mover))
        assert r["take_loss"] == pytest.approx(
            r["take_mwc_loss"] * met.emg_scale(mover.flipped()))
    assert (ca["double_loss"] > 0).any() or (ca["take_loss"] > 0).any()


def test_game_report_and_analyse_match_judge_at_the_score(match, monkeypatch):
    start = game_state(match, 2)
    gr = game_report(match.games[2], win_prob=False, cube=True, cube_probabilities=PIPS,
                     match=start)
    ca = cube_analysis(match.games[2], cube_probabilities=PIPS, match=start)
    rows = gr.dropna(subset=["cube_played"])
    assert rows["turn"].tolist() == ca["turn"].tolist()
    assert rows["cube_proper"].tolist() == ca["proper"].tolist()
    assert rows["cube_mwc_loss"].tolist() == pytest.approx(ca["double_mwc_loss"].tolist())

    real = matchreport.game_report          # the moves' ranking is not under test here

    def quick(game, **kw):
        kw.update(analyse=False, win_prob=False)
        return real(game, **kw)
    monkeypatch.setattr(matchreport, "game_report", quick)
    rep = analyse_match(match, cube=True, cube_probabilities=PIPS)
    for k, game in enumerate(match.games):
        got = rep[(rep["game"] == k + 1)].dropna(subset=["cube_played"])
        want = _expected(game, game_state(match, k))
        assert got["turn"].tolist() == sorted(want)
        assert got["cube_proper"].tolist() == [want[t][0] for t in got["turn"]]


def test_a_crawford_game_with_a_cube_action_is_refused(match):
    start = game_state(match, 1)
    with pytest.raises(ValueError, match="Crawford game"):
        cube_analysis(match.games[0], cube_probabilities=PIPS, match=start.__class__(
            start.rules, (0, 2), "white", True))


def test_the_page_judges_a_match_at_each_game_score(match):
    """A match report without cube columns and its record: the page judges each game's
    cube at its score (the same rows as cube_analysis(match=game_state)), none in the
    Crawford game."""
    import re

    import pandas as pd

    from nardy_fast.analysis.page import listed_cube_decisions, to_html
    frames = []
    for k, game in enumerate(match.games):
        start = game_state(match, k)
        f = game_report(game, win_prob=False)
        f = f.assign(n_moves=1, best_move=f["move"], equity_loss=0.0, mark="", luck=0.0,
                     p_win_white=0.5)                     # the moves are not under test
        f.insert(0, "game", k + 1)
        f.insert(1, "score_white", start.score[0])
        f.insert(2, "score_black", start.score[1])
        frames.append(f)
    page = to_html(pd.concat(frames, ignore_index=True), record=match)
    tables = re.findall(r'<section class="game" id="game-(\d)">.*?<h3>Cube decisions</h3>'
                        r'(.*?)<h3>Moves</h3>', page, re.S)
    assert [g for g, _ in tables] == ["1", "2", "3"]
    for (g, html), game in zip(tables, match.games):
        k = int(g) - 1
        ca = cube_analysis(game, match=game_state(match, k))
        frame = ca.rename(columns={"played": "cube_played", "proper": "cube_proper",
                                   "double_loss": "cube_loss", "close": "cube_close"})
        shown, rest = listed_cube_decisions(frame)
        turns = [int(t) for t in re.findall(r'href="#g\d-t(\d+)"', html)]
        assert turns == shown["turn"].tolist(), g
        if k == 1:                                        # the Crawford game
            assert ca.empty and "No cube decision in this game." in html


def test_a_raise_the_match_gives_no_use_for_is_still_an_answer_to_judge():
    """``short_match.MAT``, game 2 (a match to 2): Alice, 1 away, owns the 2-cube against
    Bob, 2 away, redoubles to 4, and Bob passes.  Whoever wins the game wins the match at
    2 or at 4, so a take is worth Bob's chance of the game and the pass gives the match
    away: hand-scored with the side on roll's P(win) p = 0.3, the take is worth p to
    Alice, the pass 1, no raise p; Bob's pass loses 1 - p of match winning chance and the
    raise costs Alice nothing.  The match model offers no such raise (NaN values), and the
    analysis took its NaN for no loss: both losses were 0."""
    from pathlib import Path

    from nardy_fast.core.matlayout import read_mat
    rec = read_mat(Path(__file__).resolve().parents[1] / "data" / "mat" / "short_match.MAT")
    start = game_state(rec, 1)
    assert start.score == (0, 1) and start.rules.length == 2      # Bob white, Alice black
    ca = cube_analysis(rec.games[1], cube_probabilities=lambda pos: 0.3, match=start)
    last = ca.iloc[-1]
    assert (last["side"], last["player"], last["stake"], last["played"]) == (
        "black", "Alice", 2, "double, pass")
    assert last["no_double"] == pytest.approx(0.3)
    assert last["double_take"] == pytest.approx(0.3)
    assert last["double_pass"] == pytest.approx(1.0)
    assert last["proper"] == "no double, take"
    assert last["take_mwc_loss"] == pytest.approx(0.7)
    assert last["double_mwc_loss"] == pytest.approx(0.0)
    bob = MatchState(start.rules, start.score, "white", False)
    assert last["take_loss"] == pytest.approx(0.7 * met.emg_scale(bob))
    # and through analyse_match, the page's source
    am = analyse_match(rec, cube=True, cube_probabilities=lambda pos: 0.3, progress=False)
    row = am[(am["game"] == 2) & (am["cube_played"] == "double, pass")].iloc[0]
    assert row["take_mwc_loss"] == pytest.approx(0.7)


def test_made_raise_values_against_the_model_where_a_raise_is_offered():
    """Where ``match_cube_decision`` offers the raise, ``made_raise_values`` gives its
    values: one formula, the raise made or not."""
    for score, cube, p in (((2, 3), CubeState(), 0.7), ((1, 4), CubeState(2, "mover"), 0.55),
                           ((0, 0), CubeState(), 0.62)):
        state = MatchState(MatchRules(length=5, rules=Rules(cube="geometric")), score,
                           "white", False, cube)
        d = met.match_cube_decision(p, state, x=0.8)
        dt, dp = met.made_raise_values(p, state, x=0.8)
        assert (dt, dp) == (pytest.approx(d["double_take"]), pytest.approx(d["double_pass"]))
