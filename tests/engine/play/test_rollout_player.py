"""The rollout player: the net that plays the shipped evaluator's game loops, and what
follows it (``Evaluator.rollout_net``).

Everything made from the rollouts' games must have been made with that very net: the
luck net (trained on its games' per-roll values), the match tables' start data (a
rollout of the start), a study's identity.  A change of the rollout player without them
would leave a luck net that removes less variance and a match table of another player's
games; these tests fail then.  The choice of player (v7, the judge from 0.3.0 until a
wider net took its place) is argued in benchmarks/RESULTS.md ("The rollout player").
"""
import json
import os
from pathlib import Path

import numpy as np
import pytest

import nardy_fast as nf
from nardy_fast.engine.evaluation import met, nets
from nardy_fast.engine.evaluation.evaluator import Evaluator
from nardy_fast.engine.play.lucknet import DEFAULT_LUCK_NET, default_luck_net, load_luck_net
from nardy_fast.engine.play.policy import Policy

from helpers import load_script

BENCH_VR = Path(__file__).resolve().parents[3] / "benchmarks" / "bench_vr.py"


def test_the_shipped_net_policy_plays_with_the_rollout_net():
    """The shipped classic evaluator rolls out with v7 (``rollout_classic.nfdb``, two
    layers, the judge up to the change after 0.3.0), not with the wider net that judges
    (too slow for the rollouts' floor of 800 games per CPU-second) nor with the one-layer
    net v7 was deepened from."""
    ev = Evaluator.default()
    player = Evaluator.load(os.path.join(nets.DATA, "rollout_classic.nfdb")).net
    assert ev.rollout_net is not ev.net and ev.rollout_net.n_hidden2 > 0
    assert Policy.of("net").c_form().net.digest() == player.digest()
    assert Policy.of(ev).c_form().net is ev.rollout_net
    assert ev.net.digest() == Evaluator.load(nets.DEFAULT_NET).net.digest() != player.digest()
    assert player.digest() != Evaluator.load(nets.ONE_LAYER_NET).net.digest()


def test_the_one_layer_net_can_be_asked_for_as_the_player():
    """The former rollout player plays when asked: an evaluator of its file alone."""
    one = Evaluator.load(nets.ONE_LAYER_NET)
    assert one.rollout_net is one.net and one.net.n_hidden2 == 0
    assert Policy.of(one).c_form().net.digest() == one.net.digest()
    with pytest.warns(DeprecationWarning, match="0.4.0"):   # the deprecated name
        assert nets.ROLLOUT_NET == nets.ONE_LAYER_NET


def test_the_luck_net_learnt_the_rollout_players_games():
    _, meta = load_luck_net(DEFAULT_LUCK_NET)
    assert meta["evaluator"] == Evaluator.default().rollout_net.digest()


def test_the_match_tables_start_was_played_by_the_rollout_player():
    with open(met.DATA_FILE, encoding="utf-8") as f:
        data = json.load(f)
    player = Evaluator.default().rollout_net.digest()
    assert data and {v["net"] for v in data.values()} == {player}


def test_the_match_tables_start_took_the_shipped_luck_net_out():
    """The start's rollouts subtracted the luck of the shipped luck net: a new luck net
    moves them within their SE, and the data left behind by the last one (its SE of
    P(win) 0.00105 where the new one gives 0.00082) is told apart."""
    with open(met.DATA_FILE, encoding="utf-8") as f:
        data = json.load(f)
    luck = default_luck_net().digest()
    assert data and {v.get("luck_net") for v in data.values()} == {luck}


def _bench_vr():
    return load_script(BENCH_VR)


@pytest.mark.skipif(not BENCH_VR.exists(), reason="benchmarks/ not in this checkout")
def test_the_per_phase_terms_add_up_to_both_estimators():
    """``bench_vr.phase_terms``: per game, the result less the exact 0-ply luck is the
    start's 1-ply value plus the net's gaps plus the truncation's step (a telescoping
    sum), and the exact luck is the luck net's plus its error, phase by phase."""
    bench = _bench_vr()
    pos = nf.Position.from_id(_middle_game_id())
    rows = bench.phase_terms(pos, 4, seed=5)
    assert [r["stratum"] for r in rows] == [0, 1, 2, 3]
    for r in rows:
        exact = sum(r[ph][0] + r[ph][2] for ph in ("contact", "race"))
        rest = r["value0"] + r["contact"][1] + r["race"][1] + r["end"]
        assert r["result"] - exact == pytest.approx(rest, abs=1e-9)
        assert np.abs(r["contact"]).sum() > 0          # the game had contact rolls
        # the per-roll squared contact errors, grouped by the roll's number
        assert (r["turns"] >= 0).all() and (r["turns"].sum() > 0) == (r["contact"][0] != 0)
    assert bench._within(np.array([1.0, 3.0, 10.0, 14.0]), np.array([0, 0, 1, 1])) == 5.0
    assert [bench._turn_bucket(t) for t in (1, 2, 3, 5, 6, 10, 11, 20, 21, 40, 41, 500)] == [
        0, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6]


def _middle_game_id():
    """A contact position a few turns into a 0-ply game of the shipped net."""
    ev = Evaluator.default()
    g = np.random.default_rng(3)
    pos = nf.Position.initial()
    for _ in range(12):
        pos = pos.play(ev.best_move(pos, (int(g.integers(1, 7)), int(g.integers(1, 7)))))
    assert pos.phase == "contact"
    return pos.id


@pytest.mark.skipif(not BENCH_VR.exists(), reason="benchmarks/ not in this checkout")
def test_the_variance_benchmark_times_each_arms_plain_runs_beside_its_own(monkeypatch):
    """``bench_vr.compare``: every bias run is played before any timed run, and each VR
    run is followed by the plain run of the same games, in every arm (a plain time
    measured once, beside the first arm, and reused made a later arm read faster)."""
    from types import SimpleNamespace

    bench = _bench_vr()
    calls = []

    def timed(pos, n, policy, vr, seed):
        calls.append((pos.id, n, vr, seed))
        r = SimpleNamespace(equity=0.1, se_equity=0.01,
                            extra={"se_equity_plain": 0.01, "luck_variance_ratio": 4.0})
        return r, 1.0
    monkeypatch.setattr(bench, "timed", timed)
    monkeypatch.setattr(bench, "_PLAIN", {})
    positions = [SimpleNamespace(id=f"p{k}") for k in range(2)]
    for arm in range(2):
        calls.clear()
        rows = bench.compare(positions, 72, "net", "luck-net", 3, 7)
        assert len(rows) == 2
        bias = [("p0", 216, False, 10_007), ("p1", 216, False, 10_008)]
        timed_runs = [("p0", 72, "luck-net", 7), ("p0", 72, False, 7),
                      ("p1", 72, "luck-net", 8), ("p1", 72, False, 8)]
        assert calls == (bias if arm == 0 else []) + timed_runs
