"""Tests of the cube's reports (nardy_fast.analysis.cubereport): the ``cube_report``
contract, its default source of P(win), and judging the cube actions of a record
(``cube_analysis``, ``cube_error_rates``, ``game_report(cube=True)``)."""
import inspect
import warnings
import math

import pandas as pd
import pytest

import nardy_fast
from nardy_fast import Position, Rules
from nardy_fast.engine.decisions.cube import cube_decision
from nardy_fast.analysis.cubereport import cube_analysis, cube_report

from helpers import cut_rollout_runs, race_of_points as race


def test_cube_report_contract():
    p19 = race([19], [24])                 # 27 of 36 rolls win, else the opponent finishes
    contact = Position.from_id("W7gAAAAAAAAAAAQAQAAAAAAAAAAAAAAAA")   # past the first turn
    rep = cube_report([p19, contact.id], rules=Rules(cube="geometric"),
                      cube_probabilities=lambda pos: 0.5)
    assert list(rep.index) == [0, 1]
    for col in ("position", "no_double", "double_take", "double_pass", "equity",
                "double_action", "take_action", "action", "take_point", "method"):
        assert col in rep.columns
    assert rep.loc[0, "position"] == p19.id
    assert rep.loc[0, "method"] == "exact"
    assert rep.loc[0, "no_double"] == pytest.approx(2 * 27 / 36 - 1)
    assert rep.loc[0, "double_take"] == pytest.approx(2 * (2 * 27 / 36 - 1))
    assert rep.loc[0, "double_pass"] == 1.0
    assert rep.loc[1, "method"] == "janowski"
    assert rep.loc[1, "no_double"] == pytest.approx(0.0)     # p = 1/2, symmetric
    assert rep.loc[1, "action"] == "no double, take"
    assert nardy_fast.cube_report is cube_report


def test_cube_report_shows_the_models_take_point_only_where_the_model_decided():
    """An exact row showed the model's take point and efficiency (0.218, x 0.594) beside
    method "exact", as if the table had given them; the frame had no column saying
    whose they were.  And cube_report took no plies= though the guide says a cube
    decision is made at 2 plies "unless told"."""
    p19 = race([19], [24])
    geo = Rules(cube="geometric")
    rep = cube_report([p19, Position.initial().swap()], rules=geo, plies=0)
    assert rep.loc[0, "method"] == "exact"
    assert math.isnan(rep.loc[0, "take_point"]) and math.isnan(rep.loc[0, "x"])
    assert rep.loc[1, "method"] == "janowski (net 0-ply)"     # plies=, as cube_decision's
    modelled = cube_decision(Position.initial().swap(), rules=geo, plies=0)
    assert rep.loc[1, "take_point"] == modelled["take_point"]
    assert rep.loc[1, "x"] == modelled["x"]
    rolled = cube_report([p19], rules=geo, method="rollout", n_games=36, seed=1, workers=1)
    assert rolled["take_point"].isna().all() and rolled["x"].isna().all()


def test_cube_report_rules_none_is_classic_with_the_geometric_cube():
    """``rules=None`` means the classic rules, as everywhere; a cube decision then uses
    the geometric cube (the report's old default, ``Rules(cube="geometric")``)."""
    positions = [race([19], [24]), Position.initial().swap()]
    kw = dict(cube_probabilities=lambda pos: 0.6)
    assert inspect.signature(cube_report).parameters["rules"].default is None
    pd.testing.assert_frame_equal(cube_report(positions, **kw),
                                  cube_report(positions, rules=Rules(cube="geometric"), **kw))


def test_default_source_is_the_evaluator():
    """Without ``probabilities`` the model takes P(win) from ``Evaluator.default()`` where
    no exact table covers the position, and the method says so: under the rules of the
    cube game without the cube, where a mars scores nothing more (its 2-ply search plays
    for the stake, not for a mars)."""
    from nardy_fast.engine.evaluation.evaluator import Evaluator
    pos = Position.initial()
    pos = pos.play(pos.legal_moves((6, 5))[0])
    cubeless = Rules(cube="geometric").cubeless()
    want = Evaluator.default(cubeless).evaluate(pos, plies=2)      # cube.CUBE_PLIES
    assert want.p_win != Evaluator.default().evaluate(pos, plies=2).p_win
    d = cube_decision(pos)
    assert want.method == "net 2-ply" and d["method"] == "janowski (net 2-ply)"
    assert d["p_win"] == pytest.approx(want.p_win)
    rep = cube_report([race([19], [24]), pos])
    assert rep["method"].tolist() == ["exact", "janowski (net 2-ply)"]
    long_race = race([19] * 9, [24] * 9)          # home race, beyond the cubeful table
    d = cube_decision(long_race)
    assert d["method"].startswith("janowski (") and "net" not in d["method"]


def _record(point, actions, dice, steps):
    from nardy_fast.core.record import GameRecord
    rec = GameRecord(rules=Rules(cube="geometric"), start=race([point], [24]))
    for a in actions:
        rec.append_cube(*a)
    rec.append(dice, steps)
    return rec


def test_cube_analysis_missed_double():
    """From 19 (27/36): no double 1/2, double/take 1, pass 1: not doubling loses 1/2."""
    from nardy_fast.analysis.cubereport import cube_analysis, cube_error_rates
    a = cube_analysis(_record(19, [], (6, 5), ((19, "off"),)))
    assert len(a) == 1 and a.loc[0, "played"] == "no double"
    assert a.loc[0, "proper"] == "double, take" and a.loc[0, "method"] == "exact"
    assert a.loc[0, "double_loss"] == pytest.approx(0.5)
    rates = cube_error_rates(a)
    assert rates.loc["white", "missed_doubles"] == 1
    assert rates.loc["white", "error_rate"] == pytest.approx(500.0)
    assert rates.loc["black", "take_decisions"] == 0


def test_cube_analysis_wrong_take():
    """From 20 (31/36) the take is worth 2 (2 31/36 - 1) = 13/9 to the raiser against 1
    for a pass: taking loses 4/9 of a point."""
    from nardy_fast.analysis.cubereport import cube_analysis, cube_error_rates
    from nardy_fast.analysis.report import game_report
    rec = _record(20, [("double", 2), ("take", None)], (5, 1), ((20, "off"),))
    a = cube_analysis(rec)
    assert a.loc[0, "played"] == "double, take" and a.loc[0, "double_loss"] == 0.0
    assert a.loc[0, "take_loss"] == pytest.approx(4 / 9)
    assert cube_error_rates(a).loc["black", "wrong_takes"] == 1
    assert rec.result() == {"winner": "white", "kind": "oin", "points": 2.0}
    rep = game_report(rec, cube=True)
    assert rep.loc[0, "cube_played"] == "double, take"
    assert rep.loc[0, "p_win"] == pytest.approx(31 / 36)        # cubeless: 31 of 36 rolls
    assert rep.loc[0, "take_loss"] == pytest.approx(4 / 9)
    # how the decision was valued, beside it (analyse --json labels it so)
    assert rep.loc[0, "cube_method"] == a.loc[0, "method"] == "exact"


def _race_record(turns):
    """A race of six checkers a side (White's 19-24, Black's 19-24), each turn
    ``(cube actions, dice)`` played by the first legal move."""
    from nardy_fast.core.record import GameRecord
    pts = [19, 20, 21, 22, 23, 24]
    rec = GameRecord(rules=Rules(cube="geometric"), start=race(pts, pts))
    pos = rec.start
    for acts, dice in turns:
        for a in acts:
            rec.append_cube(*a)
        move = pos.legal_moves(dice)[0]
        rec.append(dice, move.steps)
        pos = pos.play(move)
    return rec


def test_cube_analysis_follows_the_cube_through_the_game():
    """White plays; Black raises, White takes; Black plays; White (owning the cube at 2)
    plays; Black (the cube on the other side) plays; the game goes on.  Rows: White's
    centred cube, Black's raise, White's own cube at 2, and none for Black's last turn
    (it may not raise) nor for the position after the record (nothing was done there)."""
    from nardy_fast.analysis.cubereport import cube_analysis
    rec = _race_record([((), (2, 1)), ((("double", 2), ("take", None)), (2, 1)),
                        ((), (2, 1)), ((), (2, 1))])
    assert not rec.final.is_over()
    a = cube_analysis(rec)
    assert list(a["turn"]) == [1, 2, 3]
    assert list(zip(a["side"], a["stake"], a["owner"], a["played"])) == [
        ("white", 1, "centre", "no double"), ("black", 1, "centre", "double, take"),
        ("white", 2, "mover", "no double")]


def test_cube_error_counts_a_loss_above_a_thousandth():
    from nardy_fast.analysis.cubereport import cube_error_rates
    a = pd.DataFrame({"side": ["white", "white", "white", "black", "black"],
                      "played": ["no double", "double, take", "double, take", "double, pass",
                                 "double, take"],
                      "double_loss": [0.0015, 0.0015, 0.0009, 0.0, 0.0],
                      "take_loss": [0.0, 0.0, 0.0, 0.0015, 0.0015]})
    r = cube_error_rates(a)
    assert r.loc["white", "missed_doubles"] == 1 and r.loc["white", "wrong_doubles"] == 1
    assert r.loc["white", "wrong_passes"] == 1 and r.loc["white", "wrong_takes"] == 1
    assert r.loc["white", "errors"] == 4 and r.loc["white", "take_decisions"] == 2


def test_cube_analysis_names_a_record_that_is_not_one(tmp_path):
    with pytest.raises(TypeError, match="^record: expected a GameRecord or a path, got int$"):
        cube_analysis(42)
    with pytest.raises(FileNotFoundError):
        cube_analysis(tmp_path / "missing.txt")            # a path object is read too


def test_cube_report_reads_its_positions_before_judging_any():
    """A bad item was found only when the loop reached it (after judging those before it)
    and a non-iterable failed with Python's "'int' object is not iterable"; both are now
    named before any position is judged (``core.position.position_list``)."""
    asked = []

    def probabilities(pos):
        asked.append(pos)
        return 0.5

    with pytest.raises(ValueError, match=r"^positions\[1\]: position ID 'x'"):
        cube_report([Position.initial().swap(), "x"], cube_probabilities=probabilities)
    assert asked == []
    with pytest.raises(TypeError, match=r"^positions: expected a Position, a position ID "
                                        r"or an iterable of them, got int$"):
        cube_report(5, cube_probabilities=probabilities)
    one = cube_report((p.id for p in [Position.initial().swap()]),
                      cube_probabilities=probabilities)
    assert one["position"].tolist() == [Position.initial().swap().id]

def test_a_cut_rollout_stops_the_cube_report(monkeypatch):
    """Ctrl-C in the first position's rollouts: no row for it, no later position judged."""
    runs = cut_rollout_runs(monkeypatch)
    with pytest.raises(KeyboardInterrupt, match="stopped at an interrupted rollout"):
        cube_report(["WlgAAAAEAEQACAQAAAAAAAAAQABAAAhIg"] * 2, method="rollout",
                    n_games=36, seed=1, workers=1)
    assert runs == [1]


def test_a_loss_the_model_could_not_value_stays_nan():
    """``max(0.0, nan)`` is 0.0 in Python: a raise whose values the model left NaN was
    shown as a loss of 0 (a match's dead raise, before ``met.made_raise_values``).  A loss
    is clipped at 0 for rounding only; NaN stays NaN."""
    import math

    from nardy_fast.analysis.cubereport import _at_least_0
    assert math.isnan(_at_least_0(math.nan))
    assert _at_least_0(-1e-15) == 0.0 and _at_least_0(0.25) == 0.25


def test_money_losses_are_per_unit_values_times_the_stake():
    """The values are per unit stake, the losses in points: at a stake of 2 (White owns
    the cube after taking, and redoubles too early) the loss is twice the per-unit one,
    recomputed here from the row's own values (no double, double/take, double/pass)."""
    from nardy_fast.analysis.cubereport import cube_analysis
    rec = _race_record([((), (2, 1)), ((("double", 2), ("take", None)), (2, 1)),
                        ((("double", 4), ("take", None)), (2, 1)), ((), (2, 1))])
    a = cube_analysis(rec, cube_probabilities="pips", method="janowski")
    assert list(a["stake"]) == [1, 1, 2, 4]
    assert a.loc[2, "played"] == "double, take" and a.loc[2, "double_loss"] > 0.05
    for _, r in a.iterrows():
        answer = min(r["double_take"], r["double_pass"])
        best = max(r["no_double"], answer)
        per_unit = best - (r["no_double"] if r["played"] == "no double" else answer)
        assert r["double_loss"] == pytest.approx(max(0.0, per_unit) * r["stake"])
    assert (a["double_loss"] > 0).any()


MIDDLE = "WlgAAAAEAEQACAQAAAAAAAAAQABAAAhIg"       # a contact position where White may double


def test_a_rollout_method_object_rolls_out_with_the_calls_seed():
    """``method=Rollout(RolloutSettings(n))`` is ``method="rollout", n_games=n``: the same
    games under the call's seed.  The report took the object for "not a rollout", so it
    dropped the seed and the workers (fresh dice each call, a "workers: no effect"
    warning) while its ``attrs["seed"]`` named the seed it had not used."""
    geo = Rules(cube="geometric")
    flat = cube_report([MIDDLE], rules=geo, method="rollout", n_games=36, seed=5, workers=1)
    obj = nardy_fast.Rollout(nardy_fast.RolloutSettings(36))
    with warnings.catch_warnings():
        warnings.simplefilter("error")                # nothing "has no effect" here
        by_object = cube_report([MIDDLE], rules=geo, method=obj, seed=5, workers=1)
        by_compute = cube_report([MIDDLE], rules=geo, method=obj, seed=5,
                                 compute=nardy_fast.Compute(workers=1, progress=False))
    cols = ["no_double", "double_take", "double_pass", "method"]
    assert flat.loc[0, "method"] == "rollout"
    pd.testing.assert_frame_equal(by_object[cols], flat[cols])
    pd.testing.assert_frame_equal(by_compute[cols], flat[cols])
    with pytest.raises(TypeError, match="n_games"):
        cube_report([MIDDLE], rules=geo, method=obj, n_games=36, seed=5)
    with pytest.raises(TypeError, match="workers"):
        cube_report([MIDDLE], rules=geo, method=obj, seed=5, workers=1,
                    compute=nardy_fast.Compute(workers=1))


def test_cube_analysis_takes_a_method_object_as_its_name():
    """``cube_analysis(method=Rollout(...))`` was refused ("expected one of 'auto', ...")
    though ``cube_decision``, which judges each turn, takes it."""
    rec = _race_record([((), (6, 5)), ((("double", 2), ("take", None)), (4, 3)),
                        ((), (2, 1))])
    flat = cube_analysis(rec, method="rollout", n_games=36, seed=3, workers=1)
    obj = cube_analysis(rec, method=nardy_fast.Rollout(nardy_fast.RolloutSettings(36)),
                        seed=3, compute=nardy_fast.Compute(workers=1, progress=False))
    assert (flat["method"] == "rollout").all() and len(flat) >= 2
    pd.testing.assert_frame_equal(obj, flat)
    net = cube_analysis(rec, method=nardy_fast.Net(plies=0))
    assert net["method"].str.startswith("janowski").all()
    with pytest.raises(TypeError, match="plies"):
        cube_analysis(rec, method=nardy_fast.Net(plies=0), plies=1)


def test_a_rolled_out_report_says_its_games_and_noise():
    """With ``method="rollout"`` each row says how many games it rests on (0 where the
    exact cubeful race table valued the race before its first roll), the rollouts'
    standard errors and whether the verdict is within their noise: the frame had only
    the values and ``method`` "rollout", as if every row had been rolled out alike."""
    p19 = race([19], [24])
    contact = "WVgAQECIREQEREQEAABEAAAAAAAAAAAAQ"
    rep = cube_report([p19, contact], rules=Rules(cube="geometric"), method="rollout",
                      n_games=72, seed=1, workers=1)
    assert rep["games"].tolist() == [0, 72]
    d = cube_decision(contact, method="rollout", n_games=72, seed=1, workers=1,
                      progress=False)
    for col in ("se_no_double", "se_double_take", "within_noise"):
        assert rep.loc[1, col] == d[col]
    assert rep.loc[0, "se_no_double"] == 0.0                    # the exact table
    assert "games" not in cube_report([p19], rules=Rules(cube="geometric")).columns
