"""The accuracy benchmark's reached set (benchmarks/bench_accuracy.py, issue 45): the
seeded build and its held-out part (its games: tests/training/test_reached.py); sizes
that measure nothing and bad plies refused by name before any work."""
import sys
from pathlib import Path

import numpy as np
import pytest

import nardy_fast as nf
from nardy_fast.engine.evaluation.evaluator import Evaluator

from helpers import load_script

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_accuracy.py"


@pytest.fixture(scope="module")
def bench():
    return load_script(BENCH)


def test_build_reached_is_deterministic_stratified_and_holds_out_even_games(bench,
                                                                          monkeypatch):
    monkeypatch.setattr(bench, "STRATA", bench.PHASES)   # the common strata: few games
    a = bench.build_reached(10, 2, 3, sources=("noisy",))
    b = bench.build_reached(10, 2, 3, sources=("noisy",))
    assert a.equals(b)
    assert a.groupby(["source", "stratum"]).size().to_dict() == {
        ("noisy", t): 2 for t in bench.PHASES}
    assert a.position.is_unique
    assert ((a.split == "heldout") == (a.game % 2 == 0)).all()
    assert set(a.on_roll) == {"net", "noisy"}
    # the phase and kind of a row are its position's (the self-play set's rules)
    from nardy_fast.engine.evaluation.kinds import position_kind
    for row in a.itertuples():
        board = np.asarray(nf.Position.from_id(row.position).boards)
        assert position_kind(board, row.ply) == row.kind
        assert (row.phase == "opening") == (row.ply <= 14)


def test_the_shipped_reached_set_is_held_out_by_train_net_exclude(tmp_path, capsys):
    """train-net --exclude, repeated, drops the positions of both accuracy files."""
    import pandas as pd

    from nardy_fast.app.cli import main
    from nardy_fast.engine.evaluation._net import Net
    from nardy_fast.training.labels import board_keys
    data = BENCH.parent / "data"
    start = tmp_path / "start.nfdb"
    Evaluator(Net.random(16, 9)).save(start)
    ids = [p for f in ("accuracy.parquet", "accuracy_reached.parquet")
           for p in pd.read_parquet(data / f, columns=["position"])["position"]]
    keys = set(board_keys(np.stack([np.asarray(nf.Position.from_id(p).boards) for p in ids])))
    out = tmp_path / "net.nfdb"
    assert main(["train-net", "-o", str(out), "--init", str(start), "--seed", "3",
                 "--rounds", "1", "--games", "2", "--epochs", "1",
                 "--exclude", str(data / "accuracy.parquet"),
                 "--exclude", str(data / "accuracy_reached.parquet")]) == 0
    capsys.readouterr()
    assert Evaluator.load(out).meta["training"]["excluded"] == len(keys)


def test_the_table_gives_each_mean_error_its_standard_error(bench, monkeypatch):
    """``se_mae_equity``: the standard deviation of the positions' absolute equity errors
    over the square root of their count, per group (recomputed here from given errors)."""
    import pandas as pd

    frame = pd.read_parquet(BENCH.parent / "data" / "accuracy.parquet").head(12)
    err = pd.DataFrame({q: np.linspace(0.0, 0.11, 12) ** (1 + (q == "equity"))
                        for q in bench.QUANTITIES}, index=frame.index)
    monkeypatch.setattr(bench, "errors", lambda frame, ev, plies: err)
    out = bench.table(frame.assign(source="selfplay"), None, [0])
    row = out[out.group == "all"].iloc[0]
    e = err["equity"].to_numpy()
    assert row.mae_equity == pytest.approx(e.mean())
    assert row.se_mae_equity == pytest.approx(e.std(ddof=1) / np.sqrt(len(e)))
    one = out[out.n == 1]
    assert one.empty or one.se_mae_equity.isna().all()


def test_own_rolls_out_by_the_net_named_and_keeps_the_labels_beside(bench, tmp_path, capsys):
    """``--own --own-out FILE``: each position's rollout by the net given (its seed
    ``seed + k``), the file's labels kept as ``label_*``; an existing FILE is refused before
    any game is played."""
    import pandas as pd
    data = tmp_path / "set.parquet"
    frame = pd.read_parquet(BENCH.parent / "data" / "accuracy.parquet")
    frame[frame.split == "heldout"].head(2).reset_index(drop=True).to_parquet(data)
    net = BENCH.parents[1] / "nardy_fast" / "data" / "rollout_classic.nfdb"
    out = tmp_path / "own.parquet"
    bench.own(str(data), str(net), 6, 40, "heldout", [0], out=str(out))
    got = pd.read_parquet(out)
    labels = pd.read_parquet(data)
    assert list(got.label_equity) == list(labels.equity)
    for k in range(2):
        r = nf.rollout(labels.position[k], 6, policy=Evaluator.load(net), seed=40 + k,
                       workers=1, progress=False)
        assert got.equity[k] == r.equity and got.se_equity[k] == r.se_equity
        assert got.games[k] == 6 and got.rollout_seed[k] == 40 + k
    assert "positions with |equity error| > 0.15" in capsys.readouterr().out
    with pytest.raises(SystemExit, match="exists"):
        bench.own(str(data), str(net), 6, 40, "heldout", [0], out=str(out))


@pytest.mark.parametrize("argv, says", [
    (["--label", "--games", "0"], "--games 0: expected >= 1"),
    (["--label", "--batch", "0"], "--batch 0: expected >= 1"),
    (["--label", "--workers", "0"], "--workers 0: expected >= 1"),
    (["--label", "--seed", "-1"], "--seed -1: expected >= 0"),
    (["--versus", "NET", "--match-games", "2"],
     "--match-games 2: expected >= 4 (two pairs: the SE is the spread between pairs)"),
    (["--build", "--pool-games", "0"], "--pool-games 0: expected >= 1"),
    (["--build", "--per-stratum", "0"], "--per-stratum 0: expected >= 1"),
    (["--build", "--reached", "--sigma", "-0.1"], "--sigma -0.1: expected a finite number "
                                                  ">= 0"),
    (["--report", "--plies", "0,x"], "--plies 0,x: expected plies 0..3, comma-separated"),
    (["--report", "--plies", "4"], "--plies 4: expected plies 0..3"),
    ([], "nothing to do: give --build, --label, --relabel, --report, --own or --versus"),
])
def test_bad_sizes_and_plies_are_refused_by_name(bench, monkeypatch, capsys, argv,
                                                 says):
    """--versus with --match-games 2 (one pair) printed 'SE nan'; --plies 0,x ended in
    int()'s traceback and --plies 4 in the evaluator's after the file was read; --batch 0
    in range()'s 'arg 3 must not be zero'; no step printed nothing at all."""
    monkeypatch.setattr(sys, "argv", [str(BENCH), *argv])
    with pytest.raises(SystemExit) as e:
        bench.main()
    assert e.value.code == 2
    assert f"error: {says}" in capsys.readouterr().err
