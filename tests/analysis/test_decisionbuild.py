"""The decision benchmark's build (``analysis.decisionbuild``): tiny builds (two source
games, a few decisions, 36 games per rollout)."""
import os
import re
import sys

import pandas as pd
import pytest

import nardy_fast as nf

from nardy_fast.analysis import decisionbench as db
from nardy_fast.analysis import decisionbuild as build_mod
from nardy_fast.core.rng import DICE_SCHEME, EARLIER_DICE_SCHEME

TINY = dict(n_checker=3, n_cube=2, games=36, source_games=2, seed=5, progress=False)


@pytest.fixture(scope="module")
def whole(tmp_path_factory):
    path = tmp_path_factory.mktemp("whole") / "whole.parquet"
    out = build_mod.build(path, batch=100, **TINY)
    return path, out


def test_build_writes_a_stratified_file(whole):
    path, out = whole
    df = db.read_bench(path)
    assert out["done"] == out["total"] == len(df) == 5
    assert df["decision"].tolist() == list(range(5))
    assert sorted(df["type"]) == ["checker"] * 3 + ["cube"] * 2
    chk = df[df["type"] == "checker"]
    assert sorted(chk["phase"]) == ["late", "middle", "opening"]   # one per phase
    for r in chk.itertuples():
        assert r.equities == sorted(r.equities, reverse=True)
        assert 3 <= len(r.moves) <= 6 and len(set(r.ids_after)) == len(r.ids_after)
    cube = df[df["type"] == "cube"]
    assert cube["cube_owner"].tolist() == ["centre", "mover"]
    assert (cube["double_pass"] == 1.0).all() and cube["se_double_take"].gt(0).all()
    assert set(df["part"]) <= {"heldout", "public"}
    assert (df["part"] == df["game"].map(lambda g: "heldout" if g % 2 == 0
                                         else "public")).all()
    s = db.bench_settings(path)
    assert s["rollout_player"] == "judging net at 0-ply" and s["games"] == 36
    assert s["net"] == "net_classic.nfdb" and s["estimator"]
    assert s["dice"] == DICE_SCHEME       # a file of the older dice is not continued


def test_resume_gives_the_rows_of_one_run(whole, tmp_path):
    path = tmp_path / "parts.parquet"
    first = build_mod.build(path, batch=1, limit=2, **TINY)
    assert first["done"] == 2 and len(db.read_bench(path)) == 2
    assert os.path.exists(build_mod.plan_path(path))      # the rerun reads the plan kept
    build_mod.build(path, batch=1, **TINY)
    pd.testing.assert_frame_equal(db.read_bench(path), db.read_bench(whole[0]))
    assert not os.path.exists(build_mod.plan_path(path))  # complete: the plan is gone


def test_interrupt_keeps_the_finished_part(tmp_path):
    path = tmp_path / "stopped.parquet"

    def stop(line):
        raise KeyboardInterrupt
    # the stop says what is kept (it said only that a rollout was cut)
    with pytest.raises(KeyboardInterrupt, match=r"; 1 of 2 decisions kept in .*stopped"
                       r"\.parquet, the same build resumes$"):
        build_mod.build(path, batch=1, log=stop, **{**TINY, "n_cube": 0, "n_checker": 2})
    assert len(db.read_bench(path)) == 1


def test_a_stop_before_the_first_decision_logs_no_rate(tmp_path, monkeypatch):
    """Stopped before its first decision, a build logged the CPU time of the plan as the
    CPU-seconds 'per decision' of the none it had finished."""
    def stop(row, judge, workers):
        raise KeyboardInterrupt
    monkeypatch.setattr(build_mod, "_roll", stop)
    lines = []
    with pytest.raises(KeyboardInterrupt, match="; 0 of 2 decisions kept"):
        build_mod.build(tmp_path / "b.parquet", log=lines.append,
                        **{**TINY, "n_cube": 0, "n_checker": 2})
    assert len(lines) == 1 and re.fullmatch(r"0/2 decisions written to \S*b\.parquet "
                                            r"\(0 this run, \d+ s\)", lines[0]), lines


def test_a_batch_written_is_not_written_again_at_the_end(tmp_path):
    """The last batch's rows were written twice (the batch's save, then the closing one),
    and the log said so twice."""
    lines = []
    build_mod.build(tmp_path / "b.parquet", batch=1, log=lines.append,
                    **{**TINY, "n_cube": 0, "n_checker": 2})
    written = [ln for ln in lines if "decisions written to" in ln]
    assert [ln.split()[0] for ln in written] == ["1/2", "2/2"]


def test_an_interrupted_rollout_stops_the_build_and_is_not_written(tmp_path, monkeypatch):
    """Ctrl-C inside a rollout: the rollout returns what it finished (NaN equities where
    a candidate got no game); the build must stop there, not write that decision and go
    on (it once did, leaving a decision of NaN equities in the file)."""
    import dataclasses
    import math
    real, calls = build_mod.rollout_outcomes, []

    def interrupted_second(positions, n_games, **kw):
        outs = real(positions, n_games, **kw)
        calls.append(1)
        if len(calls) == 2:
            outs = [dataclasses.replace(o, equity=math.nan,
                                        extra={**o.extra, "interrupted": True})
                    for o in outs]
        return outs
    monkeypatch.setattr(build_mod, "rollout_outcomes", interrupted_second)
    from nardy_fast.engine.play.rollout import Stopped
    path = tmp_path / "stopped.parquet"
    with pytest.raises(Stopped) as e:         # the command line names its command by it
        build_mod.build(path, batch=1, **{**TINY, "n_cube": 0, "n_checker": 3})
    assert (e.value.what, e.value.cut_rollout) == ("build", True)
    assert e.value.kept == (f"1 of 3 decisions kept in {path}, the same build resumes",)
    df = db.read_bench(path)
    assert len(df) == 1 and all(math.isfinite(e) for e in df["equities"][0])


def test_ctrl_c_before_a_rollout_finished_a_chunk_names_the_stop(whole, tmp_path,
                                                                 monkeypatch):
    """Ctrl-C before a rollout's first chunk finished (the rollout then has no game to
    return) stopped a build with the rollout's advice of a smaller chunk_size, which
    neither the build nor the command has, and a reroll without saying that nothing was
    written; a reroll cut in a rollout was named 'build'.  Each is a ``Stopped`` naming
    the function, and the reroll says that nothing was written."""
    from nardy_fast.engine.play.rollout import Stopped

    def no_chunk(*args, **kw):
        raise KeyboardInterrupt("rollout interrupted before any chunk of its games "
                                "finished (a smaller chunk_size keeps more)")
    monkeypatch.setattr(build_mod, "rollout_outcomes", no_chunk)
    monkeypatch.setattr(build_mod, "rollout", no_chunk)
    path = tmp_path / "b.parquet"
    with pytest.raises(Stopped) as e:
        build_mod.build(path, batch=1, **TINY)
    assert (e.value.what, e.value.cut_rollout) == ("build", True)
    assert "chunk_size" not in str(e.value)
    out = tmp_path / "new.parquet"
    with pytest.raises(Stopped) as e:
        build_mod.reroll(whole[0], out, progress=False)
    assert str(e.value) == ("reroll: stopped at an interrupted rollout (no answer rests on "
                            "cut rollouts); nothing written")
    assert not out.exists()


def test_reroll_never_replaces_a_file_made_while_it_ran(whole, tmp_path, monkeypatch):
    """``out`` was checked before the rollouts only: a file made under that name while
    they ran (another reroll's, say) was silently replaced at the end."""
    out = tmp_path / "new.parquet"

    def roll(row, judge, workers, what="build"):
        out.write_text("someone else's")
        return row, {}
    monkeypatch.setattr(build_mod, "_roll", roll)
    with pytest.raises(FileExistsError, match="new.parquet: exists .*nothing written"):
        build_mod.reroll(whole[0], out, types=["cube"], progress=False)
    assert out.read_text() == "someone else's"
    assert [p.name for p in tmp_path.iterdir()] == ["new.parquet"]


def test_other_settings_refused_by_name(whole, tmp_path):
    with pytest.raises(db.BenchmarkFileError, match=r"whole.parquet.*games: 36 there, 72"):
        build_mod.build(whole[0], **{**TINY, "games": 72})


def test_a_file_of_the_earlier_dice_is_refused_naming_them(whole, tmp_path):
    """A file rolled out before the dice came game by game records no ``dice``: continuing
    it would mix two schemes' rollouts, so it is refused with the earlier scheme named."""
    old = tmp_path / "old.parquet"
    settings = {k: v for k, v in db.bench_settings(whole[0]).items() if k != "dice"}
    db.write_bench(old, db.read_bench(whole[0]).to_dict("records"), settings)
    with pytest.raises(db.BenchmarkFileError,
                       match=re.escape(f"dice: '{EARLIER_DICE_SCHEME}' there, "
                                       f"'{DICE_SCHEME}' now")):
        build_mod.build(old, **TINY)


def test_reroll_rolls_the_chosen_decisions_out_again_as_the_build_does(whole, tmp_path):
    """A file whose cube equities are wrong (as those rolled out while a mars counted
    double under the cube) gets the build's values back from each decision's seed; the
    other decisions are copied as they are, and the new file says what was re-rolled."""
    rows = db.read_bench(whole[0]).to_dict("records")

    def spoilt(r):
        return {**r, "no_double": r["no_double"] + 0.5, "double_take": -r["double_take"],
                "se_no_double": 0.0} if r["type"] == "cube" else \
            {**r, "equities": [e + 0.25 for e in r["equities"]]}
    old, new = tmp_path / "old.parquet", tmp_path / "new.parquet"
    db.write_bench(old, [spoilt(r) for r in rows], db.bench_settings(whole[0]))
    out = build_mod.reroll(old, new, types=["cube"], progress=False)
    assert out == {"rerolled": TINY["n_cube"], "decisions": len(rows), "path": str(new)}
    want = [r if r["type"] == "cube" else spoilt(r) for r in rows]
    db.write_bench(tmp_path / "want.parquet", want, {})
    pd.testing.assert_frame_equal(db.read_bench(new), db.read_bench(tmp_path / "want.parquet"))
    settings = db.bench_settings(new)
    run, = settings["rerolled"]
    tables = {k: run.pop(k) for k in build_mod.TABLES}    # what this machine had built
    assert run == {"types": ["cube"], "phases": list(db.PHASES),
                   "package_version": nf.__version__, "dice": DICE_SCHEME}
    assert all(isinstance(v, int) and v >= 0 for v in tables.values())
    assert {k: v for k, v in settings.items() if k != "rerolled"} \
        == db.bench_settings(whole[0])
    assert set(build_mod.TABLES) <= set(settings)          # the build's, recorded too
    with pytest.raises(FileExistsError, match="new.parquet: exists"):
        build_mod.reroll(old, new, progress=False)
    # and the rest: every decision as the build made it, the runs listed in turn
    build_mod.reroll(new, tmp_path / "all.parquet", types=["checker"], progress=False)
    pd.testing.assert_frame_equal(db.read_bench(tmp_path / "all.parquet"),
                                  db.read_bench(whole[0]))
    assert [r["types"] for r in db.bench_settings(tmp_path / "all.parquet")["rerolled"]] \
        == [["cube"], ["checker"]]


@pytest.mark.parametrize("kw, says", [({"types": ["dice"]}, "types=['dice']"),
                                      ({"phases": []}, "phases=[]"),
                                      ({"phases": "endgame"}, "phases=['endgame']")])
def test_reroll_refuses_unknown_types_and_phases(whole, tmp_path, kw, says):
    with pytest.raises(ValueError, match=re.escape(says) + ".*expected one or more of"):
        build_mod.reroll(whole[0], tmp_path / "new.parquet", progress=False, **kw)


def test_reroll_refuses_a_file_of_a_net_not_shipped(whole, tmp_path):
    other = tmp_path / "other.parquet"
    db.write_bench(other, db.read_bench(whole[0]).to_dict("records"),
                   {**db.bench_settings(whole[0]), "net_sha256": "0123456789abcdef"})
    with pytest.raises(db.BenchmarkFileError, match="other.parquet.*'0123456789abcdef'"):
        build_mod.reroll(other, tmp_path / "new.parquet", progress=False)
    assert not (tmp_path / "new.parquet").exists()


def test_a_cube_decision_in_a_bearoff_no_exact_table_covers_is_played_out():
    """Janowski's model would value it before the first roll (SE NaN): the build plays
    its games instead, so the benchmark judges by games, not by a model."""
    from nardy_fast.core.position import Position
    board = [0] * 24
    me, them = list(board), list(board)
    me[21:] = [1, 4, 6]                      # 11 checkers home: beyond the cube's table
    them[18:] = [0, 0, 1, 3, 4, 5]
    pos = Position.from_boards(me, them)
    row = {"type": "cube", "position": pos.id, "cube_stake": 1, "cube_owner": "centre",
           "games": 72, "seed": "3"}
    rolled, _ = build_mod._roll(row, build_mod.judge_evaluator(), 1)
    se = rolled["se_no_double"]
    assert 0 < se < 0.2 and 0 < rolled["se_double_take"] < 0.4
    # a variance-reduced estimate, unbiased but not bounded: within its noise of +-1
    assert -1 - 3 * se <= rolled["no_double"] <= 1 + 3 * se


def test_reroll_of_chosen_decisions_leaves_the_others(whole, tmp_path):
    rows = db.read_bench(whole[0]).to_dict("records")
    spoilt = [{**r, "equities": [e + 0.25 for e in r["equities"]]} if r["type"] == "checker"
              else r for r in rows]
    old = tmp_path / "old.parquet"
    db.write_bench(old, spoilt, db.bench_settings(whole[0]))
    first = next(r["decision"] for r in rows if r["type"] == "checker")
    out = build_mod.reroll(old, tmp_path / "new.parquet", decisions=[first], progress=False)
    assert out["rerolled"] == 1
    new = db.read_bench(tmp_path / "new.parquet").set_index("decision")
    want = db.read_bench(whole[0]).set_index("decision")
    assert new.loc[first, "equities"] == want.loc[first, "equities"]
    others = [r["decision"] for r in spoilt if r["type"] == "checker" and r["decision"] != first]
    assert all(new.loc[d, "equities"] != want.loc[d, "equities"] for d in others)
    assert db.bench_settings(tmp_path / "new.parquet")["rerolled"][0]["decisions"] == [first]
    with pytest.raises(ValueError, match=r"decisions=\[999\]: expected one or more of the "
                                         r"file's decisions \(0 \.\. "):
        build_mod.reroll(old, tmp_path / "x.parquet", decisions=[999], progress=False)


def test_without_pyarrow_the_build_names_the_extra_before_any_game(tmp_path, monkeypatch):
    """The build played its source games and rolled out its first batch of decisions, then
    stopped on "No module named 'pyarrow'" when it came to write them, leaving its plan
    beside the file; it now names the extra at once and writes nothing."""
    monkeypatch.setitem(sys.modules, "pyarrow", None)
    monkeypatch.setattr(build_mod, "_cached_plan", lambda *a: pytest.fail("games played"))
    path = tmp_path / "b.parquet"
    for call in (lambda: build_mod.build(path, **TINY),
                 lambda: build_mod.reroll(path, tmp_path / "c.parquet", progress=False)):
        with pytest.raises(ImportError, match=r"needs pyarrow: pip install "
                                              r"'nardy_fast\[parquet\]'"):
            call()
    assert os.listdir(tmp_path) == []
