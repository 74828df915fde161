"""The reports and studies take the settings objects (``method=`` a method object,
``compute=`` a ``Compute``) with the same results as their flat keywords, refuse a flat
keyword beside an object, and take keywords only after their first arguments."""
import warnings

import pytest

import nardy_fast as nf
from nardy_fast.analysis import report
from nardy_fast.engine.decisions import valuation

HERE = nf.Compute(workers=1, progress=False)
FAST = nf.RolloutSettings(36, policy="random", truncate=None)


def _no_date(frame):
    settings = dict(frame.attrs["settings"])
    settings.pop("date")
    return settings


def test_win_and_move_reports_objects_give_the_flat_frames():
    races = nf.race_sample(2, seed=5)
    flat = nf.win_report(races, method="rollout", n_games=36, policy="random",
                         truncate=None, seed=1, workers=1, progress=False)
    obj = nf.win_report(races, method=nf.Rollout(FAST), seed=1, compute=HERE)
    assert obj.equals(flat)
    assert nf.win_report(races, method=nf.Net(1)).equals(
        nf.win_report(races, method="net", plies=1))
    pos = nf.Position.initial().play(nf.Position.initial().legal_moves((6, 5))[0])
    assert nf.move_report(pos, (3, 1), method=nf.Net(0)).equals(
        nf.move_report(pos, (3, 1), method="net"))


def test_game_report_objects_give_the_flat_frame_and_record_the_method():
    rec = nf.random_game(seed=1, max_turns=4)
    flat = nf.game_report(rec, analyse=True, method="net", plies=1)
    obj = nf.game_report(rec, analyse=True, method=nf.Net(plies=1), compute=HERE)
    assert obj.equals(flat) and _no_date(obj) == _no_date(flat)
    assert obj.attrs["settings"]["method"] == "net" and obj.attrs["settings"]["plies"] == 1
    ro = nf.game_report(rec, method=nf.Rollout(FAST), seed=3, compute=HERE)
    assert ro.attrs["settings"]["rollout"]["n_games"] == 36
    assert ro.equals(nf.game_report(rec, method="rollout", n_games=36, policy="random",
                                    truncate=None, seed=3, workers=1, progress=False))


def test_a_flat_keyword_beside_an_object_is_an_error():
    rec = nf.random_game(seed=1, max_turns=2)
    with pytest.raises(TypeError, match="game_report: plies: not with method=Net"):
        nf.game_report(rec, method=nf.Net(0), plies=1)
    with pytest.raises(TypeError, match="win_report: policy: not with method=Rollout"):
        nf.win_report(["start"], method=nf.Rollout(FAST), policy="greedy")
    with pytest.raises(TypeError, match="workers given both as a keyword and in compute="):
        nf.win_report(["start"], method="rollout", workers=1, compute=HERE)


@pytest.mark.parametrize("func, args, written", [
    (valuation.value_position, ("start",), {"n_games": 2000}),
    (valuation.value_positions, (["start"],), {"truncate": "bearoff"}),
    (report.evaluate, ("start",), {"policy": "net"}),
    (report.evaluate_many, (["start"],), {"plies": 0}),
    (nf.win_report, (["start"],), {"n_games": 2000, "plies": 0}),
    (nf.move_report, ("start", (6, 5)), {"truncate": "bearoff"}),
    (nf.game_report, (nf.random_game(seed=1, max_turns=2),), {"policy": "net"}),
    (nf.cube_decision, ("start",), {"plies": None}),
    (nf.study, (["start"], None, "STORE"), {"variance_reduction": None}),
])
def test_a_flat_keyword_written_at_its_default_beside_an_object_is_an_error(
        func, args, written, tmp_path):
    # the object says 36 random games untruncated; a keyword the caller wrote says
    # otherwise (or the same): either way one of the two would go unheard.  The study's
    # store is a fresh folder, so that a wrong implementation writes nowhere else
    store = tmp_path / "s"
    args = tuple(store if a == "STORE" else a for a in args)
    names = ", ".join(written)
    with pytest.raises(TypeError, match=f"^{func.__name__}: {names}: not with method=Rollout"):
        func(*args, method=nf.Rollout(FAST), **written)
    assert not store.exists()                    # refused before it ran


def test_study_takes_the_objects(tmp_path):
    ids = [p.id for p in nf.race_sample(2, seed=6)]
    flat = nf.study(ids, 36, tmp_path / "flat", seed=2, policy="random", truncate=None,
                    workers=1, progress=False)
    obj = nf.study(ids, None, tmp_path / "obj", seed=2, method=nf.Rollout(FAST),
                   compute=HERE)
    assert obj.equals(flat)
    with pytest.raises(ValueError, match="dice: a study does not take them"):
        nf.study(ids, None, tmp_path / "x", method=nf.Rollout(FAST.replace(dice=(6, 5))))
    with pytest.raises(TypeError, match="study: policy: not with method=Rollout"):
        nf.study(ids, None, tmp_path / "y", method=nf.Rollout(FAST), policy="greedy")
    # the object's games need no None written before the store
    kw = nf.study(ids, store=tmp_path / "kw", seed=2, method=nf.Rollout(FAST), compute=HERE)
    assert kw.equals(flat)
    with pytest.raises(TypeError, match="study: n_games is required with method='rollout'"):
        nf.study(ids, store=tmp_path / "z", seed=2)
    with pytest.raises(TypeError, match="study: store=None: expected the folder"):
        nf.study(ids, 36, seed=2)
    assert not (tmp_path / "z").exists()


@pytest.mark.parametrize("call", [
    lambda: report.evaluate("start", "auto", 100),
    lambda: report.evaluate_many(["start"], "auto", 100),
    lambda: nf.win_report(["start"], "auto", 100),
    lambda: nf.move_report("start", (6, 5), 100),
    lambda: nf.game_report(nf.random_game(seed=1, max_turns=2), True),
])
def test_arguments_after_the_first_are_keyword_only(call):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(TypeError, match="positional"):
            call()
