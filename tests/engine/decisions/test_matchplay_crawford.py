"""Which state of a match applies at which score, worked by hand from the Crawford rule.

The rule (``MatchRules(crawford=True)``): the first game after a side reaches one point
from the end is played without the cube (the Crawford game); the games after it are
post-Crawford (the cube is back).  So, after a game that leaves the sides ``i``, ``j``
points away:

- a side at 0: the match is over (1 or 0);
- the game just played was the Crawford game or after it: the next is post-Crawford;
- else the next is the Crawford game iff a side is now 1 away;

and a chance at that score is read from the table of that state: the Crawford game from
``match_equity_table`` (its entries with exactly one side 1 away are the Crawford game's),
a post-Crawford game from ``post_crawford_table`` (1-away against ``b``; the other side's
chance is 1 minus it), a normal game from ``match_equity_table``.  Every score of a
4-point match is checked, with the Crawford game played or not, at stakes 1 and 2 (a
raise that ends the match or brings a side to 1 away), against
``met.outcome_values`` (what evaluation, rollouts and cube decisions read).  Whole
matches: the state each player is handed, game by game, against the score history.
"""
from types import SimpleNamespace

import numpy as np
import pytest

import nardy_fast as nf
from nardy_fast.core.cubestate import CubeState
from nardy_fast.core.matchrules import MatchRules, MatchState, stakes_upto
from nardy_fast.engine.evaluation import met
from nardy_fast.engine.evaluation.evaluator import Evaluator
from nardy_fast.engine.decisions.matchplay import play_one_match

LENGTH = 4
CUBE = nf.Rules(cube="geometric")
MR = MatchRules(length=LENGTH, crawford=True, starter="opening_roll", rules=CUBE)


@pytest.fixture(scope="module")
def tables():
    return (met.match_equity_table(LENGTH, cube=True, rules=MR),
            met.post_crawford_table(LENGTH, rules=MR))


def next_state(current, i, j):
    """The state of the game after one played in ``current`` leaving ``i``, ``j`` away."""
    if current in ("crawford", "post"):
        return "post"
    return "crawford" if 1 in (i, j) else "normal"


def chance(tables, i, j, state):
    """The chance of the side ``i`` away against ``j`` at the start of a game in
    ``state``, from the tables."""
    m, post = tables
    if i <= 0:
        return 1.0
    if j <= 0:
        return 0.0
    if state == "post" and (i, j) != (1, 1):
        return float(post[j]) if i == 1 else 1.0 - float(post[i])
    return float(m.loc[i, j])


def current_state(state):
    """The state of the game being played, from the score and the Crawford flag."""
    if state.crawford:
        return "crawford"
    return "post" if 1 in state.away() else "normal"


def states():
    for a in range(LENGTH):
        for b in range(LENGTH):
            for crawford in (False, True):
                if crawford and max(a, b) != LENGTH - 1:
                    continue
                for stake in (1, 2):
                    if stake > 1 and (crawford or stake not in stakes_upto(
                            CUBE, LENGTH - min(a, b))):
                        continue
                    yield MatchState(MR, (a, b), "white", crawford,
                                     CubeState(stake, "mover" if stake > 1 else "centre"))


def test_the_tables_differ_where_the_state_matters(tables):
    """The check below means something only if Crawford and post-Crawford differ."""
    m, post = tables
    for b in range(2, LENGTH + 1):
        assert abs(m.loc[1, b] - post[b]) > 0.02, b


def test_outcome_values_read_the_right_state_at_every_score(tables):
    seen = set()
    for state in states():
        i, j = state.away()
        cur = current_state(state)
        v = met.outcome_values(state)
        c = state.stake
        win = chance(tables, i - c, j, next_state(cur, i - c, j))
        lose = chance(tables, i, j - c, next_state(cur, i, j - c))
        assert v["win_oin"] == pytest.approx(win, abs=1e-9), (state.score, state.crawford, c)
        assert v["loss_oin"] == pytest.approx(lose, abs=1e-9), (state.score, state.crawford, c)
        seen.add((cur, next_state(cur, i - c, j)))
    assert {("normal", "crawford"), ("crawford", "post"), ("post", "post"),
            ("normal", "normal")} <= seen


def test_crawford_game_has_no_cube_and_the_game_after_it_has(tables):
    """At 1-away / 3-away: in the Crawford game nobody may raise, and it is worth the
    game played at stake 1 out to the post-Crawford table; in the game after it the
    trailer (on roll) may raise."""
    for p in (0.3, 0.5, 0.7):
        craw = MatchState(MR, (1, 3), "white", True)          # white 3 away, on roll
        e = met.match_cube_decision(p, craw)
        assert np.isnan(e["double_take"]) and e["double_action"] != "double"
        i, j = craw.away()
        want = p * chance(tables, i - 1, j, "post") + (1 - p) * chance(tables, i, j - 1, "post")
        assert e["no_double"] == pytest.approx(want, abs=1e-9)
        post = MatchState(MR, (1, 3), "white", False)
        e = met.match_cube_decision(p, post)
        assert not np.isnan(e["double_take"])
        # a take makes the game worth 2 points: won, the trailer is 1 away (post)
        assert e["double_pass"] == pytest.approx(chance(tables, i - 1, j, "post"), abs=1e-9)


class _Recorder:
    """Moves as the shipped net; records the MatchState it is handed on each move and
    judges every position P(win) 1/2 for the cube."""

    def __init__(self, ev):
        self.ev, self.seen = ev, []

    def best_move(self, position, dice, match=None):
        self.seen.append(match)
        return self.ev.best_move(position, dice, match=match)

    def evaluate(self, position, **kw):
        return SimpleNamespace(p_win=0.5)


@pytest.mark.slow
def test_whole_matches_hand_each_game_its_state():
    """Game by game, the state handed to the players says Crawford exactly in the first
    game that starts with a side one point away (and, joined at such a score, never)."""
    ev = Evaluator.default()
    mr = MatchRules(length=3, crawford=True, rules=CUBE)
    reached = set()
    for seed, start in ((1, (1, 1)), (2, (1, 0)), (5, (1, 1)), (3, (2, 0))):
        a, b = _Recorder(ev), _Recorder(ev)
        rec = play_one_match(a, b, mr, seed=seed, score=start)
        seen = {}
        for s in a.seen + b.seen:
            seen.setdefault(tuple(sorted(s.score)), set()).add(s.crawford)
        one_away_before = max(start) == mr.length - 1     # joined past it
        for k, score in enumerate(rec.scores):
            pts = tuple(sorted(score.values()))
            is_crawford = max(pts) == mr.length - 1 and not one_away_before
            one_away_before = one_away_before or max(pts) == mr.length - 1
            assert seen[pts] == {is_crawford}, (seed, k, pts)
            if is_crawford:
                assert rec.games[k].cube == [] or all(
                    c.action not in ("double", "take") for c in rec.games[k].cube)
            reached.add("crawford" if is_crawford else
                        "post" if max(pts) == mr.length - 1 else "normal")
    assert reached == {"normal", "crawford", "post"}
