"""Match-aware evaluation, cube decisions, rollouts, whole matches, transcripts (reports at
a match score: tests/analysis/test_matchreport.py)."""
import math
from types import SimpleNamespace

import numpy as np
import pytest

import nardy_fast as nf
from nardy_fast.engine.evaluation import met
from nardy_fast.core.cubestate import CENTRED, CubeState
from nardy_fast.engine.decisions.cube import cube_decision
from nardy_fast.engine.evaluation.cubemodel import CONTACT_EFFICIENCY, actions, model_equities
from nardy_fast.engine.evaluation.evaluator import Evaluator
from nardy_fast.engine.decisions.matchplay import play_one_match, simulate_matches
from nardy_fast.core.matchrecord import MatchRecord, read_match, write_match
from nardy_fast.core.matchrules import MatchRules, MatchState
from nardy_fast.core.record import GameRecord, RecordError

NAMES = ("p_win", "p_mars_win", "p_koks_win", "p_home_mars_win", "p_mars_loss",
         "p_koks_loss", "p_home_mars_loss")
CUBE = nf.Rules(cube="geometric")


@pytest.fixture(scope="module")
def ev():
    return Evaluator.default()


def test_evaluate_at_dmp_is_the_win_chance(ev, middle):
    # 1-away/1-away: any win wins the match, mars or not
    state = MatchState(3, (2, 2), middle.side)
    o = ev.evaluate(middle, match=state)
    assert o.extra["mwc"] == pytest.approx(o.p_win, abs=1e-12)
    assert o.extra["emg"] == pytest.approx(2 * o.p_win - 1, abs=1e-12)


def test_evaluate_list_and_array(ev, middle):
    state = MatchState(5, (3, 1), middle.side)
    frame = ev.evaluate_many([middle], match=state)
    vals = frame[list(NAMES)].to_numpy()
    assert frame["mwc"].iloc[0] == pytest.approx(met.mwc_of_values(vals, state)[0], abs=1e-12)
    arr = ev.evaluate(middle.boards[None], match=state)
    assert arr[0] == pytest.approx(frame["mwc"].iloc[0], abs=1e-6)


def test_match_side_must_be_on_roll(ev, middle):
    other = "black" if middle.side == "white" else "white"
    with pytest.raises(ValueError, match="on_roll"):
        ev.evaluate(middle, match=MatchState(3, (0, 0), other))
    with pytest.raises(TypeError, match="match"):
        ev.evaluate(middle, match=(3, 0, 0))


@pytest.mark.parametrize("plies", [0, 1])
def test_hint_ranks_by_match_chance(ev, middle, plies):
    state = MatchState(3, (0, 2), middle.side)     # the side on roll trails 3-away/1-away
    h = ev.hint(middle, (6, 3), plies=plies, match=state)
    keep = ev.keep if plies else len(h)
    assert (np.diff(h["mwc"].to_numpy()[:keep]) <= 1e-12).all()
    want = met.mwc_of_values(h[list(NAMES)].to_numpy(), state)
    assert np.allclose(h["mwc"], want, atol=1e-6)
    best = ev.best_move(middle, (6, 3), plies=plies, match=state)
    assert str(best) == h["move"].iloc[0]


def test_rollout_reports_match_chances(middle):
    state = MatchState(3, (2, 2), middle.side)
    r = nf.rollout(middle, 72, seed=4, workers=1, progress=False, truncate=None,
                   policy="greedy", match=state)
    # at 1-away/1-away the chance is the share of games won, a binomial mean
    assert r.extra["mwc"] == pytest.approx(r.p_win, abs=1e-12)
    assert r.extra["se_mwc"] == pytest.approx(math.sqrt(r.p_win * (1 - r.p_win) / 72),
                                              abs=1e-12)
    with pytest.raises(ValueError, match="cube"):
        nf.rollout(middle, 10, rules=CUBE, cube_state=CubeState(), match=state, workers=1)


def test_cube_decision_at_the_score(middle):
    mr = MatchRules(length=2, rules=CUBE)
    state = MatchState(mr, (0, 0), middle.side)
    d = cube_decision(middle, match=state, cube_probabilities=lambda p: 0.9, x=1.0)
    # 2-away/2-away: a raise makes the game the match (double/take = P(win)); a pass
    # leaves the taker 2-away against 1-away
    assert d["double_take"] == pytest.approx(0.9, abs=1e-3)
    solver = met.solver_for(mr, True)
    assert d["double_pass"] == pytest.approx(solver.value(1, 2, 0), abs=1e-12)
    assert d["action"] == "double, pass"
    assert d["take_point"] == pytest.approx(1 - d["double_pass"], abs=1e-3)


def test_played_match_replays_and_round_trips(played, tmp_path):
    final = played.replay()
    assert max(final.values()) >= 2
    path = write_match(played, tmp_path / "m.mat")
    back = read_match(path)
    assert back.replay() == final
    assert [g.turns for g in back.games] == [g.turns for g in played.games]
    assert back.to_text() == played.to_text()


def test_bad_score_line_names_the_game(played):
    text = played.to_text()
    lines = text.splitlines()
    k = lines.index(" Game 2") + 1
    lines[k] = lines[k].replace(": 0", ": 1", 1).replace(": 1", ": 0", 1) + "0"
    with pytest.raises(RecordError, match="game 2"):
        MatchRecord.from_text("\n".join(lines)).replay()


def test_match_not_over_and_extra_game(played):
    short = MatchRecord(rules=played.rules, players=played.players,
                        games=played.games[:-1], scores=played.scores[:-1])
    with pytest.raises(RecordError, match="not over"):
        short.replay()
    extra = MatchRecord(rules=played.rules, players=played.players,
                        games=played.games + [played.games[-1]],
                        scores=played.scores + [played.scores[-1]])
    with pytest.raises(RecordError, match="already won"):
        extra.replay()


def test_cube_match_records_its_actions():
    mr = MatchRules(length=3, crawford=True, rules=CUBE)
    rec = play_one_match("net", "net", mr, seed=2)
    rec.replay()
    back = MatchRecord.from_text(rec.to_text())
    assert [g.cube for g in back.games] == [g.cube for g in rec.games]


@pytest.mark.parametrize("kw, error, text", [
    (dict(score=(3, 0)), ValueError, "score: A=3"),       # the match already won: no games
    (dict(score=(0, -1)), ValueError, "score: B=-1"),
    (dict(names=("A", "A")), ValueError, "names="),
    (dict(seed="x"), TypeError, "seed='x'"), (dict(seed=-2), ValueError, "seed=-2")])
def test_play_one_match_refuses_by_name(kw, error, text):
    with pytest.raises(error, match=text):
        play_one_match("random", "random", MatchRules(length=3), **kw)


def test_play_one_match_from_a_score_plays_on_from_it():
    rec = play_one_match("random", "greedy", MatchRules(length=3), seed=4, score=(2, 1))
    assert rec.scores[0] == {"A": 2.0, "B": 1.0} and len(rec.games) >= 1


def test_simulate_matches_depends_on_the_seed_only():
    a = simulate_matches("net", "net", 3, length=1, seed=9, progress=False)
    b = simulate_matches("net", "net", 3, length=1, seed=9, progress=False)
    assert a["wins_a"] == b["wins_a"] and a["games"] == b["games"] == 3
    assert a["ci95"][0] <= a["win_rate"] <= a["ci95"][1]
    with pytest.raises(ValueError, match="n_matches"):
        simulate_matches("net", "net", 0)
    for bad in ("yes", (True,), (True, "no"), None):
        with pytest.raises(TypeError, match="aware="):
            simulate_matches("net", "net", 1, aware=bad, progress=False)


class _Judges:
    """A player moving as the shipped net that judges every position P(win) = ``p`` for
    the side on roll (its cube decisions then depend on the score and the cube only)."""

    def __init__(self, p):
        self.ev, self.p = Evaluator.default(), p

    def best_move(self, position, dice, match=None):
        return self.ev.best_move(position, dice, match=match)

    def evaluate(self, position, **kw):
        return SimpleNamespace(p_win=self.p)


def _cube_actions(rec):
    """(action, player name) of each game's cube actions."""
    return [[(c.action, g.white if c.side == "white" else g.black) for c in g.cube]
            for g in rec.games]


@pytest.mark.parametrize("aware, expected", [
    # the aware trailer (B, 2-away) raises on its first turn that may: the leader's
    # recube is dead; the money leader takes at P(win) 1/2
    ((False, True), [("double", "B"), ("take", "A")]),
    # the aware leader at 1-away never raises; money play does not at P(win) 1/2
    ((True, False), []),
])
def test_cube_at_one_away_two_away_follows_awareness(aware, expected):
    mr = MatchRules(length=2, rules=CUBE)
    rec = play_one_match(_Judges(0.5), _Judges(0.5), mr, seed=4, aware=aware, score=(1, 0))
    assert _cube_actions(rec)[0] == expected
    rec.replay()


def test_money_cube_raises_in_its_window_and_never_past_the_match():
    """Money players at P(win) 0.78 (inside the money window at the contact efficiency:
    a contact position's cube does not wait for the race, whatever the net's moves)
    raise and take at once; the owner's cube at 2 is then dead at 1-away/2-away (a raise
    to 4 is never made), so a game has exactly one raise.  Aware players at the same
    P(win): only the trailer raises."""
    window = model_equities(0.78, CONTACT_EFFICIENCY, CENTRED, "geometric")
    assert actions(window)[:2] == ("double", "take")
    mr = MatchRules(length=2, rules=CUBE)
    money = play_one_match(_Judges(0.78), _Judges(0.78), mr, seed=6, aware=False,
                           score=(1, 0))
    first = _cube_actions(money)[0]
    assert [a for a, _ in first] == ["double", "take"]
    assert money.games[0].cube[0].before == 2          # the first turn that may raise
    aware = play_one_match(_Judges(0.78), _Judges(0.78), mr, seed=6, aware=True,
                           score=(1, 0))
    assert _cube_actions(aware)[0] == [("double", "B"), ("drop", "A")]   # a pass: DMP
    money.replay()
    aware.replay()


def test_aware_flag_reaches_checker_play(ev):
    """Awareness changes the moves at a score where mars weigh differently (the games
    on one seed part), and money play does not depend on the score."""
    games = {}
    for aware in (True, False):
        for score in ((1, 0), (0, 0)):
            rec = play_one_match(ev, ev, MatchRules(length=2), seed=11, aware=aware,
                                 score=score)
            games[aware, score] = [g.turns for g in rec.games][0]
    assert games[False, (1, 0)] == games[False, (0, 0)]
    assert games[True, (1, 0)] != games[False, (1, 0)]


def test_match_joined_at_a_score_replays_from_its_first_score_line():
    rec = play_one_match("net", "net", MatchRules(length=3), seed=8, score=(2, 1))
    assert rec.scores[0] == {"A": 2.0, "B": 1.0}
    back = MatchRecord.from_text(rec.to_text())
    assert back.replay() == rec.final_score() and max(rec.final_score().values()) >= 3
    back.scores[0] = {"A": 3.0, "B": 1.0}
    with pytest.raises(RecordError, match="game 1"):
        back.replay()


def test_match_joined_one_point_away_is_past_its_crawford_game():
    """Joined at 2-1 to 3 under the Crawford rule, the Crawford game is taken as played:
    the aware trailer (2-away) raises at once in game 1."""
    mr = MatchRules(length=3, crawford=True, rules=CUBE)
    rec = play_one_match(_Judges(0.5), _Judges(0.5), mr, seed=4, score=(2, 1))
    assert _cube_actions(rec)[0][0] == ("double", "B")


def test_simulated_win_rate_has_the_binomial_se():
    r = simulate_matches("net", "net", 8, length=1, seed=3, progress=False)
    rate = r["wins_a"] / 8
    assert r["se_win_rate"] == pytest.approx(math.sqrt(rate * (1 - rate) / 8))
    # Wilson's interval: the rate's interval where |rate - q| <= 1.96 sqrt(q (1 - q) / 8)
    for q in r["ci95"]:
        assert abs(rate - q) == pytest.approx(1.959964 * math.sqrt(q * (1 - q) / 8))
    assert r["ci95"][0] < rate < r["ci95"][1] or rate in (0, 1)
    one_way = simulate_matches("net", "random", 4, length=1, seed=3, progress=False)
    assert one_way["wins_a"] == 4 and one_way["ci95"][0] < 0.8
    assert one_way["ci95"][1] == pytest.approx(1.0)


def test_wrong_starter_names_the_game(played):
    g = played.games[1]
    bad = MatchRecord(rules=played.rules, players=played.players, scores=played.scores,
                      games=[played.games[0], GameRecord(
                          white=g.black, black=g.white, rules=g.rules, turns=g.turns,
                          cube=g.cube)] + played.games[2:])
    with pytest.raises(RecordError, match="game 2: .* starts"):
        bad.replay()


def test_players_come_from_the_first_score_line(played):
    text = "\n".join(line for line in played.to_text().splitlines()
                     if "[Player" not in line)
    back = MatchRecord.from_text(text)
    g = played.games[0]
    assert back.players == (g.white, g.black)


@pytest.mark.parametrize("length, draw, before, points", [
    (3, "one", (0, 0), 1.0),
    (1, "one", (0, 0), 0.0),          # both would win the match: replayed
    (3, "half", (2.5, 2.5), 0.0),
    (3, "half", (2.5, 1), 0.5),
])
def test_draw_points_in_a_match(length, draw, before, points):
    rec = MatchRecord(rules=MatchRules(length=length, draw=draw,
                                       rules=nf.Rules(draw_rule=True)), players=("A", "B"))
    game = SimpleNamespace(white="A", black="B")
    assert rec.points(game, {"kind": "draw"}, dict(zip("AB", before))) == {
        "A": points, "B": points}


def test_net_plays_under_the_match_rules_and_a_mismatched_evaluator_is_refused():
    """``"net"`` is the shipped net for the match's rules: under ``block_rule="home"``
    every move is legal (the classic evaluator's moves once broke the record); an
    evaluator of other move rules is an error naming the player."""
    mr = MatchRules(length=3, rules=nf.Rules(block_rule="home"))
    rec = play_one_match("net", "net", mr, seed=1)
    assert max(rec.replay().values()) >= 3
    with pytest.raises(ValueError, match="b: the evaluator plays under"):
        play_one_match("net", Evaluator.default(), mr, seed=1)


def test_policies_play_matches():
    """Any policy of the rollouts plays: the net beats random play, the same seed gives
    the same matches, and a callable's scores choose the moves (the first of equal
    scores: with all-zero scores the first legal move, always)."""
    r = simulate_matches("net", "random", 8, length=1, seed=2, progress=False,
                         transcripts=True)
    assert r["wins_a"] >= 7
    again = simulate_matches("net", "random", 8, length=1, seed=2, progress=False,
                             transcripts=True)
    assert [m.to_text() for m in r["records"]] == [m.to_text() for m in again["records"]]
    calls = []

    def first(candidates, opponent):
        calls.append(len(candidates))
        return np.zeros(len(candidates))
    rec = play_one_match(first, "greedy", MatchRules(length=1), seed=3)
    rec.replay()
    g = rec.games[0]
    pos = nf.Position.initial()
    for turn in g.turns:
        if (g.white if pos.side == "white" else g.black) == "A":
            assert turn.steps == pos.legal_moves(turn.dice)[0].steps
        pos = pos.play(next(m for m in pos.legal_moves(turn.dice) if m.steps == turn.steps))
    assert calls


def test_money_owner_does_not_redouble_where_a_centred_cube_would_be_turned():
    """At P(win) 0.77 and contact efficiency, Janowski's money model doubles a centred
    cube but does not redouble its own: in a match to 5 (stake 2 is not dead) the money
    taker, now the owner, does not raise on its next turn."""
    x = CONTACT_EFFICIENCY
    assert actions(model_equities(0.77, x, CENTRED, "geometric"))[0] == "double"
    assert actions(model_equities(0.77, x, CubeState(2, "mover"), "geometric"))[0] != "double"
    mr = MatchRules(length=5, rules=CUBE)
    rec = play_one_match(_Judges(0.77), _Judges(0.77), mr, seed=6, aware=False)
    cube = rec.games[0].cube
    assert [c.action for c in cube[:2]] == ["double", "take"]
    k = cube[1].before
    assert not [c for c in cube if c.action == "double" and c.before == k + 1]
