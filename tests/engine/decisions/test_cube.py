"""Tests of the cube model and cube decisions (nardy_fast.engine.decisions.cube): first-principles take
points, the dead and live limits of Janowski's model, the model against the exact race
tables and the ``CubeState`` type (the cube's reports: tests/analysis/test_cubereport.py)."""
import math
import warnings

import numpy as np
import pytest

import nardy_fast
import nardy_fast as nf
from nardy_fast import Position, Rules
from nardy_fast.core.cubestate import CENTRED, CubeState
from nardy_fast.engine.decisions.cube import CUBE_PLIES, cube_decision
from nardy_fast.engine.evaluation.cubemodel import actions, efficiency, model_equities, take_point
from nardy_fast.tables.cuberace import CubefulRace

from helpers import cut_rollout_runs, race_of_points as race


# ----------------------------------------------------------------------------------------
# rules

def test_rules_cube_fields():
    assert Rules().cube is None and not Rules().beaver and not Rules().autodouble
    assert Rules(cube="arithmetic", beaver=True).beaver
    with pytest.raises(ValueError, match="cube='doubling'"):
        Rules(cube="doubling")
    with pytest.raises(TypeError, match="beaver"):
        Rules(cube="geometric", beaver="yes")
    with pytest.raises(ValueError, match="autodouble=True: needs a cube"):
        Rules(autodouble=True)
    r = Rules(cube="geometric", autodouble=True)
    assert Rules.from_dict(r.to_dict()) == r


# ----------------------------------------------------------------------------------------
# take points from first principles

def test_dead_take_points():
    # dead cube: taking risks n (2q - 1) against -k for a pass: q = (n - k) / (2 n)
    assert take_point(0.0) == pytest.approx(0.25)
    for k in range(1, 10):
        assert take_point(0.0, k, "arithmetic") == pytest.approx(1 / (2 * (k + 1)))


def test_live_geometric_take_point_is_one_fifth():
    # a fully live taker redoubles at its cash point 1 - TP and is cashed at TP: taking
    # is worth 2 (-1 + 2 q / (1 - TP)); break-even at -1 gives TP = (1 - TP) / 4
    tp = 0.3
    for _ in range(100):
        tp = (1 - tp) / 4
    assert take_point(1.0) == pytest.approx(tp) == pytest.approx(0.2)
    for x in (0.0, 0.3, 0.68, 1.0):                       # Janowski: 1 / (4 + x)
        assert take_point(x) == pytest.approx(1 / (4 + x))


def test_arithmetic_take_points_fall_with_the_stake():
    tps = [take_point(0.7, k, "arithmetic") for k in range(1, 15)]
    assert all(a > b for a, b in zip(tps, tps[1:]))
    assert math.isnan(take_point(0.7, 16, "arithmetic"))   # the cap: no raise


# ----------------------------------------------------------------------------------------
# the model's limits

@pytest.mark.parametrize("p", [0.1, 0.3, 0.5, 0.62, 0.8, 0.95])
def test_dead_cube_model(p):
    e = model_equities(p, 0.0)
    assert e["no_double"] == pytest.approx(2 * p - 1)
    assert e["double_take"] == pytest.approx(2 * (2 * p - 1))
    assert e["double_pass"] == 1.0
    assert e["equity"] == pytest.approx(max(2 * p - 1, min(2 * (2 * p - 1), 1)))


def test_live_cube_model_centred():
    # fully live, centred: -1 at the opponent's cash point 0.2, +1 at ours 0.8, linear
    for p, want in ((0.2, -1.0), (0.5, 0.0), (0.8, 1.0), (0.65, 0.5), (0.05, -1.0)):
        assert model_equities(p, 1.0)["no_double"] == pytest.approx(want)
    # at 0.8 the take is worth 2 x (the opponent's cube at 0.8: -1 + 2 (0.6) / 0.8)
    assert model_equities(0.8, 1.0)["double_take"] == pytest.approx(1.0)


def test_actions():
    e = {"no_double": 0.3, "double_take": 0.5, "double_pass": 1.0, "double_beaver": math.nan}
    assert actions(e) == ("double", "take", "double, take")
    e = {"no_double": 0.3, "double_take": 1.4, "double_pass": 1.0, "double_beaver": math.nan}
    assert actions(e)[2] == "double, pass"
    e = {"no_double": 0.3, "double_take": 0.2, "double_pass": 1.0, "double_beaver": math.nan}
    assert actions(e)[2] == "no double, take"
    e = {"no_double": -0.3, "double_take": -0.5, "double_pass": 1.0, "double_beaver": -1.0}
    assert actions(e)[2] == "no double, beaver"
    e = {"no_double": 1.2, "double_take": 1.6, "double_pass": 1.0, "double_beaver": math.nan}
    assert actions(e)[2] == "too good, pass"
    e = {"no_double": 0.2, "double_take": math.nan, "double_pass": math.nan,
         "double_beaver": math.nan}
    assert actions(e)[0] == "no raise"



@pytest.mark.parametrize("nd", [1.0, 1.0 + 1e-13, 1.0 - 1e-13])
def test_actions_name_a_tie_of_the_pass_and_playing_on_double(nd):
    # the pass worth what playing on is (to rounding): the side cashes
    e = {"no_double": nd, "double_take": 1.6, "double_pass": 1.0, "double_beaver": math.nan}
    assert actions(e)[2] == "double, pass"
    # a take worth what playing on is: the double gains nothing
    e = {"no_double": 0.4, "double_take": 0.4, "double_pass": 1.0, "double_beaver": math.nan}
    assert actions(e)[2] == "no double, take"
    # all three worth the same: the opponent takes (a take is never worse for it than
    # the pass here), and a take worth what playing on is keeps the cube
    e = {"no_double": 1.0, "double_take": 1.0, "double_pass": 1.0, "double_beaver": math.nan}
    assert actions(e)[2] == "no double, take"


def test_a_sure_win_is_double_pass_in_money_and_at_a_match_score():
    """The side on roll bears off its last checker whatever it throws: no double and the
    pass are both worth the stake (money) or the match winning chance of a won game
    (match); both paths name the tie the same way."""
    me = np.zeros(24, int); me[23] = 1
    you = np.zeros(24, int); you[18] = 1
    pos, rules = Position(me, you), Rules(cube="geometric")
    money = cube_decision(pos, rules=rules)
    assert money["no_double"] == pytest.approx(money["double_pass"], abs=1e-12)
    mr = nf.MatchRules(length=5, rules=rules)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        at_score = cube_decision(pos, match=nf.MatchState(mr, (2, 3), cube=CENTRED))
    assert at_score["no_double"] == pytest.approx(at_score["double_pass"], abs=1e-12)
    assert money["action"] == at_score["action"] == "double, pass"
    # the model's live cube above the cash point: the same tie, the same name
    assert actions(model_equities(0.9, 1.0))[2] == "double, pass"

@pytest.mark.slow
def test_model_against_exact_races():
    """On races of <= 6 checkers with 0.3 < p < 0.95 the model's double and take decisions
    agree with the exact table's on most positions (measured on 8 checkers: 95 % and 97 %,
    benchmarks/RESULTS.md) and far better than a dead cube's double decisions."""
    t = CubefulRace.build(6)
    v = t.values[1:, 1:]
    p = (v[..., 3] + 1) / 2
    idx = np.argwhere((p > 0.3) & (p < 0.95))[::23]
    boards = nardy_fast.tables.bearoff.board_of(np.arange(t.n_boards))
    pips = (boards * np.arange(1, 7)).sum(axis=1)
    hits = {"model": [0, 0], "dead": [0, 0]}
    for i, j in idx:
        row = v[i, j]
        ex = actions({"no_double": row[0], "double_take": 2 * row[2], "double_pass": 1.0,
                      "double_beaver": math.nan})
        me = race([25 - (k + 1) for k in range(6) for _ in range(boards[i + 1][k])],
                  [25 - (k + 1) for k in range(6) for _ in range(boards[j + 1][k])])
        for name, x in (("model", efficiency(me)), ("dead", 0.0)):
            mo = actions(model_equities(float(p[i, j]), x))
            hits[name][0] += (mo[0] == "double") == (ex[0] == "double")
            hits[name][1] += mo[1] == ex[1]
        assert pips[i + 1] == me.pips[0]
    n = len(idx)
    assert n > 1000
    assert hits["model"][0] / n > 0.9 and hits["model"][1] / n > 0.93
    assert hits["model"][0] > hits["dead"][0]


# ----------------------------------------------------------------------------------------
# decisions


def test_exact_pass_position():
    d = cube_decision(race([20], [24]))    # 31 of 36: the opponent must pass
    assert d["method"] == "exact" and d["action"] == "double, pass"
    assert d["equity"] == pytest.approx(1.0)


def test_arithmetic_and_beaver_exact():
    r = Rules(cube="arithmetic", beaver=True)
    small = CubefulRace.build(2, "arithmetic", beaver=True, max_stake=16, stakes=4)
    d = cube_decision(race([19, 19], [24]), rules=r, tables=small)   # 4 of 36: a beaver
    assert d["method"] == "exact"
    p = 4 / 36
    assert d["no_double"] == pytest.approx(2 * p - 1)
    assert d["double_take"] == pytest.approx(2 * (2 * p - 1))
    assert d["double_beaver"] == pytest.approx(3 * (2 * p - 1))
    assert d["action"] == "no double, beaver"


def test_an_exact_decision_carries_no_model_figures():
    """An exact decision gave the cube model's take point and efficiency (0.21 and 0.59
    here, with "race, measured (5 pips)") beside method "exact", as if the table had
    used them; they are now NaN and "" (the keys stay), as the model's W and L were, and
    a model decision of the same race keeps its own."""
    p19 = race([19], [24])                 # 27 of 36 rolls win, else the opponent finishes
    small = CubefulRace.build(2, "arithmetic", beaver=True, max_stake=16, stakes=4)
    for d in (cube_decision(p19), cube_decision(p19, method="exact"),
              cube_decision(p19, CubeState(1, "centre", first_turn=True)),
              cube_decision(race([19, 19], [24]), tables=small,
                            rules=Rules(cube="arithmetic", beaver=True))):
        assert d["method"] == "exact"
        assert math.isnan(d["take_point"]) and math.isnan(d["x"]) and d["x_source"] == ""
        assert math.isnan(d["win_points"]) and math.isnan(d["loss_points"])
    model = cube_decision(p19, method="janowski", plies=0)
    assert model["x"] == efficiency(p19) and model["x_source"] == "race, measured (6 pips)"
    assert model["take_point"] == pytest.approx(take_point(model["x"]))


@pytest.mark.slow
def test_first_turn_and_owner():
    pos = race([19], [24])
    d = cube_decision(pos, CubeState(1, "centre", first_turn=True))
    assert d["double_action"] == "no raise" and d["equity"] == pytest.approx(0.5)
    d = cube_decision(pos, CubeState(4, "opponent"))
    assert d["double_action"] == "no raise"
    assert cube_decision(pos, rules=Rules(cube="geometric"))["method"] == "exact"
    # rules=None means classic, as everywhere; rules without a cube get the geometric one
    want = cube_decision(pos, rules=Rules(cube="geometric"))
    assert cube_decision(pos, rules=Rules()) == want == cube_decision(pos)
    # the model's take point follows the progression (an exact decision has none)
    arith = cube_decision(pos, rules=Rules(cube="arithmetic"), method="janowski", plies=0)
    assert arith["take_point"] != cube_decision(pos, method="janowski", plies=0)["take_point"]


def test_model_uses_the_given_probabilities():
    # after 6-5 and 6-3: White is past its first turn, on which it may not raise (7a)
    start = Position.from_id("W7gAAAAAAAAAAAQAQAAAAAAAAAAAAAAAA")
    seen = []

    def source(pos):
        seen.append(pos)
        return {"p_win": 0.7, "p_draw": 0.0}
    d = cube_decision(start, cube_probabilities=source, x=0.0)
    assert seen == [start]
    assert d["no_double"] == pytest.approx(0.4) and d["double_take"] == pytest.approx(0.8)


def test_plies_decide_on_the_deeper_evaluation():
    """``plies=N`` is the model on the evaluator's N-ply outcome: the same decision as
    that evaluation given as ``cube_probabilities``; a contact position whose 0-ply and
    2-ply values differ, so that the depth shows."""
    pos = Position.from_id("WIREQAQIQACEDADAAAAAAAAAAAAABJCAR")
    ev = nf.Evaluator.default(Rules(cube="geometric"))
    for plies in (0, 1, 2):
        d = cube_decision(pos, plies=plies)
        given = cube_decision(pos, cube_probabilities=lambda p: ev.evaluate(p, plies=plies))
        assert d["method"] == f"janowski (net {plies}-ply)" and given["method"] == "janowski"
        assert d["p_win"] == pytest.approx(ev.evaluate(pos, plies=plies).p_win)
        for k in ("no_double", "double_take", "action", "take_point"):
            assert d[k] == given[k]
    assert cube_decision(pos, plies=0)["p_win"] != pytest.approx(
        cube_decision(pos)["p_win"], abs=1e-3)
    # no plies: CUBE_PLIES (2), the same decision as plies=2 and no warning
    assert CUBE_PLIES == 2 and cube_decision(pos) == cube_decision(pos, plies=2)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        cube_decision(pos, cube_probabilities="pips")
        cube_decision(pos, method="rollout", n_games=36, seed=1, workers=1)
    with pytest.raises(ValueError, match="plies=4: expected 0..3"):
        cube_decision(pos, plies=4)
    with pytest.raises(TypeError, match="plies=True"):
        cube_decision(pos, plies=True)
    with pytest.warns(UserWarning, match="plies: no effect with cube_probabilities"):
        cube_decision(pos, plies=1, cube_probabilities="pips")
    with pytest.warns(UserWarning, match="plies: no effect with method='rollout'"):
        cube_decision(pos, plies=1, method="rollout", n_games=36, seed=1, workers=1)


# ----------------------------------------------------------------------------------------
# cube state

def test_cube_state():
    c = CubeState(2, "mover")
    assert c.passed() == CubeState(2, "opponent")
    assert CENTRED.taken() == CubeState(2, "opponent")
    assert CENTRED.taken("arithmetic") == CubeState(2, "opponent")
    assert CubeState(3, "opponent").passed().taken("arithmetic") == CubeState(4, "opponent")
    assert "owned by black" in CubeState(2, "opponent").text("white")
    assert "middle" in CENTRED.text()
    with pytest.raises(ValueError, match="owner='white'"):
        CubeState(1, "white")
    with pytest.raises(ValueError, match="stake=0"):
        CubeState(0)
    assert "cube: stake 2" in race([19], [24]).diagram(cube=CubeState(2, "mover"))


# ----------------------------------------------------------------------------------------
# decisions by rollouts and by pip counts

@pytest.mark.parametrize("truncate_exact", [True, False])
def test_rollout_method_last_roll(truncate_exact, monkeypatch):
    """From 19 (27 of 36 rolls win): the cube-aware rollouts give no double 2p - 1 = 1/2
    and double/take 2 (2p - 1) = 1 exactly (stratified first roll, 72 games), whether
    the race is valued at once (exact table) or played out."""
    import importlib
    cube_mod = importlib.import_module("nardy_fast.engine.decisions.cube")
    if not truncate_exact:
        real = cube_mod.rollout_games
        monkeypatch.setattr(cube_mod, "rollout_games", lambda positions, settings, **k: real(
            positions, settings=settings.replace(truncate=None), **k))
    d = cube_decision(race([19], [24]), method="rollout", n_games=72, workers=1)
    # how many games stand behind it: none where the exact table values the start
    assert d["method"] == "rollout" and d["games"] == (0 if truncate_exact else 72)
    assert d.get("valued_at_start") == ("cuberace" if truncate_exact else None)
    assert d["no_double"] == pytest.approx(0.5, abs=1e-12)
    assert d["double_take"] == pytest.approx(1.0, abs=1e-12)
    assert d["action"] == "double, take" and d["equity"] == pytest.approx(1.0)
    with pytest.raises(ValueError, match="method='exact'"):
        cube_decision(Position.initial(), method="exact")


def test_rollout_method_beaver_at_a_raised_cube():
    """The mover owns the cube at 2 (beavers allowed): each rollout's equity is scaled from
    its cube to the decision's stake 2, so from 19 (27 of 36 rolls win, exactly so in 72
    stratified games) no double is 2p - 1 = 1/2, double/take 1 (the cube at 4) and
    double/beaver 2 (at 8), each per unit of the stake 2."""
    d = cube_decision(race([19], [24]), CubeState(2, "mover"),
                      rules=Rules(cube="geometric", beaver=True),
                      method="rollout", n_games=72, workers=1)
    assert d["no_double"] == pytest.approx(0.5, abs=1e-12)
    assert d["double_take"] == pytest.approx(1.0, abs=1e-12)
    assert d["double_beaver"] == pytest.approx(2.0, abs=1e-12)


def test_cube_decision_takes_the_pip_estimate_as_rollouts_do():
    """``cube_probabilities="pips"``: the pip-count P(win), as ``cube_probabilities="pips"`` of
    rollouts; recomputed here from its formula (turns = pips / (49/6), variance 0.277 a
    turn, the side on roll half a turn ahead)."""
    import math
    pos = nf.Position.from_id("WlgAAAAEAEQACAQAAAAAAAAAQABAAAhIg")
    tm, to = (p / (49 / 6) for p in pos.pips)
    want = 0.5 * math.erfc(-(to - tm + 0.5) / math.sqrt(2 * 0.277 * (tm + to) + 1e-9))
    d = nf.cube_decision(pos, cube_probabilities="pips")
    assert d["p_win"] == pytest.approx(want, abs=1e-12) and d["method"] == "janowski (pips)"
    with pytest.raises(ValueError, match="cube_probabilities='pip'"):
        nf.cube_decision(pos, cube_probabilities="pip")




@pytest.mark.parametrize("n_games, error", [(-5, ValueError), (0, ValueError),
                                            (2.5, TypeError)])
def test_bad_rollout_games_are_named_by_cube_decision(n_games, error):
    """The caller wrote ``cube_decision(..., n_games=...)``, not ``RolloutSettings``."""
    with pytest.raises(error, match=rf"^cube_decision: n_games={n_games}"):
        cube_decision(Position.initial(), method="rollout", n_games=n_games)


@pytest.mark.parametrize("bad, error", [(math.nan, ValueError), (1.5, ValueError),
                                        ("x", TypeError)])
def test_cube_probabilities_that_give_no_probability_are_named(bad, error):
    """NaN was decided as P(win) 0 and 1.5 as 1 (silently), text failed inside; each is
    now refused naming cube_probabilities, in money play, at a score and in a rollout."""
    pos = Position.initial()
    for _ in range(3):
        pos = pos.play(pos.legal_moves((6, 5))[0])
    rules = Rules(cube="geometric")
    with pytest.raises(error, match="^cube_probabilities: returned"):
        cube_decision(pos, rules=rules, cube_probabilities=lambda p: bad)
    state = nf.MatchState(nf.MatchRules(5, rules=rules), (0, 0), pos.side)
    with pytest.raises(error, match="^cube_probabilities: returned"):
        cube_decision(pos, match=state, cube_probabilities=lambda p: bad)
    with pytest.raises(error, match="^cube_probabilities: returned"):
        nf.rollout(pos, 36, seed=1, rules=rules, workers=1, progress=False,
                   cube_probabilities=lambda p: bad)

MIDDLE = "WlgAAAAEAEQACAQAAAAAAAAAQABAAAhIg"       # a contact position where White may double


def test_a_cut_rollout_gives_no_cube_decision(monkeypatch):
    """Ctrl-C in the no-double rollout: no double/take rollout after it, and no decision
    resting on the cut one (KeyboardInterrupt instead)."""
    runs = cut_rollout_runs(monkeypatch)
    method = nf.Rollout(nf.RolloutSettings(36, policy="greedy", truncate=None))
    with pytest.raises(KeyboardInterrupt, match="^cube_decision: stopped at an interrupted rollout"):
        cube_decision(MIDDLE, method=method, seed=1, workers=1, progress=False)
    assert runs == [1]


def test_a_rollout_decision_refuses_a_fixed_first_roll():
    """``method=Rollout(RolloutSettings(n, dice=(6, 5)))`` gave a "proper action" from
    rollouts that all threw 6-5 first (a decision conditioned on a roll not yet thrown),
    with nothing in the answer to say so; a cube decision comes before the roll, so the
    fixed roll is refused by name."""
    method = nf.Rollout(nf.RolloutSettings(36, policy="greedy", truncate=None, dice=(6, 5)))
    with pytest.raises(ValueError, match=r"^cube_decision: method=Rollout\(settings\): "
                                         r"dice=\(6, 5\): a cube decision is taken before "
                                         "the roll"):
        cube_decision(MIDDLE, rules=Rules(cube="geometric"), method=method, seed=1,
                      workers=1, progress=False)


@pytest.mark.parametrize("match", [False, True])
def test_no_raise_on_the_side_on_rolls_first_turn(match):
    """Rule book 7a: no raise on the first turn.  The command line said "first turn (no
    raise)" while ``cube_decision`` of the same position, with the default cube state,
    gave a double/take value and "no double, take"."""
    from nardy_fast.core.matchrules import MatchRules, MatchState
    first = Position.initial().play(Position.initial().legal_moves((6, 5))[0])   # Black's
    assert first.is_first_turn()
    kw = (dict(match=MatchState(MatchRules(5, rules=Rules(cube="geometric")), (0, 0),
                                "black")) if match else dict(rules=Rules(cube="geometric")))
    d = cube_decision(first, **kw)
    assert d["action"] == "no raise" and math.isnan(d["double_take"])
    later = Position.from_id("W7gAAAAAAAAAAAQAQAAAAAAAAAAAAAAAA")     # White on roll
    assert not later.is_first_turn()
    if match:
        kw = dict(match=kw["match"].flipped())
    assert not math.isnan(cube_decision(later, **kw)["double_take"])


def test_no_raise_on_a_first_turn_with_the_cube_in_the_match_state():
    """The match's own cube (``MatchState(cube=...)``) keeps the first-turn rule: at 3-4
    in a match to 5 the trailer's raise was offered on its first turn ("double, pass")."""
    from nardy_fast.core.matchrules import MatchRules, MatchState
    start = Position.initial()
    assert start.is_first_turn()
    state = MatchState(MatchRules(5, rules=Rules(cube="geometric")), (3, 4), cube=CENTRED)
    d = cube_decision(start, match=state, cube_probabilities=lambda pos: 0.59)
    assert d["action"] == "no raise" and math.isnan(d["double_take"])
    assert d["equity"] == d["no_double"]


def test_p_win_under_the_draw_rule_counts_a_draw_as_half_a_win_as_documented():
    """Under ``draw_rule`` the decision's ``p_win`` is the model's: P(win) with a draw
    counted as half a win, so it is not ``evaluate``'s ``p_win`` (draws apart).  The
    command line's text said so; the docstring, which the --json keys follow, did not."""
    import nardy_fast as nf
    race = "BAAAAAAAAAAAAAAAAAAAAAAAAIyMRYTMS"
    rules = nf.Rules(draw_rule=True)
    o = nf.Evaluator.default(rules).evaluate(race, plies=0)
    d = nf.cube_decision(race, rules=rules, plies=0)
    assert o.p_draw > 0.1
    assert d["p_win"] == pytest.approx(o.p_win + o.p_draw / 2, abs=1e-12)
    returns = nf.cube_decision.__doc__.split("Returns")[1].split("Examples")[0]
    assert "half a win" in returns


@pytest.mark.parametrize("off", [12, 14])
def test_black_may_raise_before_its_last_turn_under_the_draw_rule(off):
    """Rule book 7 and 7a: under ``draw_rule`` Black plays one last turn after White bore
    off its last checker, and the side on roll may raise before it rolls (only the first
    turn is excepted).  ``cube_decision`` refused it as "the game is over".  No turn
    follows, so the cube is dead: a draw (Black bears off the rest) is worth 0, White's win
    the stake, and Black never gains by raising."""
    black = np.zeros(24, int)
    black[18 if off == 12 else 23] = 15 - off     # 12 off: three on point 19, a draw 1/36
    last = Position(black, np.zeros(24, int), "black")
    rules = Rules(cube="geometric", draw_rule=True)
    assert last.is_over() and not last.is_over(rules)
    p_draw = nf.Evaluator.default(rules).evaluate(last, plies=0).p_draw
    assert p_draw == pytest.approx(1 / 36 if off == 12 else 1.0)
    d = cube_decision(last, rules=rules)
    assert d["x"] == 0.0 and "dead" in d["x_source"]
    assert d["no_double"] == pytest.approx(p_draw - 1, abs=1e-12)
    assert d["double_take"] == pytest.approx(2 * (p_draw - 1), abs=1e-12)
    assert d["action"] == "no double, take"
    with pytest.raises(ValueError, match="the game is over"):
        cube_decision(last, rules=Rules(cube="geometric"))    # no last turn without the rule


def test_cube_rules_find_the_complete_tables_cubeful_equities(monkeypatch):
    """The complete two-sided table built with its cubeful equities under the default
    rules (``nardy-fast bearoff build --two-sided 15 --cubeful``) decides a cube game's
    bear-offs: its cubeful equities do not depend on the points of a mars.  Once cube rules
    scored every win 1 the lookup asked for a table of those points and found none, so
    ``method="exact"`` was refused and ``"auto"`` fell back to the model."""
    import shutil

    from nardy_fast.engine.decisions import cube as cube_mod
    from nardy_fast.tables import bearoff_complete as bc

    store = bc.default_store(4)
    bc.build_complete(4, progress=False, threads=1, cubeful=True)
    try:
        bc._LOADED.clear()
        small = CubefulRace.build(2, progress=False)
        monkeypatch.setattr(cube_mod, "cubeful_race", lambda *a: small)
        pos = race([20, 21, 23], [19, 22, 24, 24])       # 3 against 4: beyond `small`
        for method in ("exact", "auto"):
            d = cube_decision(pos, rules=Rules(cube="geometric"), method=method)
            assert d["method"] == "exact"
            assert d["model"] == "exact cubeful two-sided table (complete)"
    finally:
        shutil.rmtree(store)
        bc._LOADED.clear()


def test_exact_under_the_draw_rule_is_refused_for_its_reason():
    """The cubeful race tables have no draws: ``method="exact"`` under ``draw_rule`` says
    so, not that no table covers the position (a small race that one covers)."""
    last = Position.from_id("BAAAAAAAAAAAAAAAAAAAAAAAAMAAAAAAA")
    with pytest.raises(ValueError, match="have no draws, so none serves draw_rule"):
        cube_decision(last, rules=Rules(cube="geometric", draw_rule=True), method="exact")


def test_rollouts_under_the_draw_rule_are_refused_for_their_reason():
    """The rollouts' cube and race values count no draw: a sure draw (one checker each on
    the last point) came out at no double +1, double/take +2, "double, pass"."""
    sure_draw = Position.from_id("WAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAR")
    with pytest.raises(ValueError, match="method='rollout': the rollouts' cube and race "
                                         "values count no draw"):
        cube_decision(sure_draw, rules=Rules(cube="geometric", draw_rule=True),
                      method="rollout", n_games=36)


def test_a_rollout_of_a_bearoff_beyond_the_cube_table_plays_its_games():
    """A race of both homes beyond the cubeful race table was valued by Janowski's model
    before the first roll and shown as "36 games each" with a noise of 0 ("clear"); its
    games are now played, so the rollouts judge the model rather than repeat it."""
    race = Position.from_id("WAAAAAAAAAAAAAAAAAAAAAAAAMjMzIyIi")
    d = cube_decision(race, method="rollout", n_games=72, seed=3)
    assert d["se_no_double"] > 0 and d["se_double_take"] > 0


def test_a_verdict_of_unmeasured_noise_is_not_called_clear():
    """A rollout of one game has no spread to measure: its standard errors are NaN, so
    neither comparison of the verdict can be told clear of the noise (it had read
    'noise nan: clear' and ``within_noise`` False)."""
    from nardy_fast.engine.decisions.cube import verdict_noise
    d = cube_decision("WVgAQECIREQEREQEAABEAAAAAAAAAAAAQ", CENTRED, method="rollout",
                      n_games=1, seed=2026, workers=1, progress=False)
    assert math.isnan(d["double_noise"]) and math.isnan(d["se_no_double"])
    assert d["within_noise"] is True
    nan = math.nan
    v = verdict_noise({"no_double": 0.1, "double_take": 0.5, "double_pass": 1.0,
                       "double_beaver": nan, "se_no_double": 0.01,
                       "se_double_take": nan, "se_double_beaver": nan})
    assert v["within_noise"] is True                    # the taker's noise is unknown


def test_rollout_method_plays_out_a_race_every_first_roll_brings_beyond_the_tables():
    """15 checkers against 14, White's last one outside its home: any first roll brings
    it home, and the cube model (beyond the cubeful race table) and the one-sided
    approximation then valued every game.  The decision had read no double and
    double/take with no standard error, the doubler's margin "noise 0.0000: clear" and the
    taker's "not measured (a single game)" after 144 games.  Its games are now played out,
    as for a bear-off the model would value before the first roll, so the rollouts judge
    the model with a measured noise."""
    pos = "WAAAAAAAAAAAAAAAAAAAAABAAAAESMCWG"
    d = cube_decision(pos, method="rollout", n_games=144, seed=1, workers=1)
    assert d["games"] == 144
    assert 0 < d["se_no_double"] < 1 and 0 < d["se_double_take"] < 1
    assert 0 < d["se_double_take_minus_no_double"] < 1
