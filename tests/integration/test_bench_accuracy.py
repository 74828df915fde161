"""The accuracy benchmark's reached set (benchmarks/bench_accuracy.py, issue 45): the
noisy net, the games against other players, the seeded build and its held-out part."""
import importlib.util
from pathlib import Path

import numpy as np
import pytest

import nardy_fast as nf
from nardy_fast.core.gameloop import throw
from nardy_fast.engine.evaluation.evaluator import Evaluator

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_accuracy.py"


@pytest.fixture(scope="module")
def bench():
    spec = importlib.util.spec_from_file_location("bench_accuracy", BENCH)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _positions(seed, n):
    """n positions (with dice) of a seeded random game, contact and some choice."""
    rec = nf.random_game(seed=seed, policy="random")
    rng = np.random.default_rng(seed)
    out = []
    for p in rec.positions()[2:]:
        dice = throw(rng)
        moves = p.legal_moves(dice)
        if len(moves) > 3:
            out.append((p, dice, moves))
        if len(out) == n:
            return out
    return out


def test_noisy_net_is_seeded_legal_and_errs_by_sigma(bench):
    ev = Evaluator.default()
    cases = _positions(5, 12)

    def play(sigma, seed):
        rng = np.random.default_rng(seed)
        return [bench.net_move(ev, p, d, m, sigma=sigma, rng=rng).board for p, d, m in cases]

    best = [ev.best_move(p, d).board for p, d, _ in cases]
    assert play(0.0, 1) == best                          # no noise: the net's own move
    a, b = play(0.1, 1), play(0.1, 1)
    assert a == b                                        # one seed, one choice
    for (p, d, m), x in zip(cases, a):
        assert x in {mv.board for mv in m}               # a legal move
    # a large error plays other moves than the net's; a tiny one does not
    assert sum(x != y for x, y in zip(play(5.0, 2), best)) >= len(cases) // 2
    assert play(1e-9, 3) == best
    with pytest.raises(ValueError, match="rng"):
        bench.net_move(ev, *cases[0], sigma=0.1)
    with pytest.raises(ValueError, match="sigma"):
        bench.net_move(ev, *cases[0], sigma=-1.0, rng=np.random.default_rng(0))


def test_reached_game_alternates_the_nets_colour_and_is_seeded(bench):
    ev = Evaluator.default()
    recs = [bench.reached_game("noisy", g, 7, ev) for g in range(3)]
    assert [(r.white, r.black) for r in recs] == [("net", "noisy"), ("net", "noisy"),
                                                  ("noisy", "net")]
    assert recs[0].result() is not None                  # played to the end, legally
    again = bench.reached_game("noisy", 0, 7, ev)
    assert again.to_text() == recs[0].to_text()
    assert bench.reached_game("noisy", 0, 8, ev).to_text() != recs[0].to_text()
    with pytest.raises(ValueError, match="source='gnubg'"):
        bench.reached_game("gnubg", 0, 7, ev)


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
