"""Rollouts with every game's equity kept (``rollout_games``, ``RolloutGames``) and the
paired standard error of a difference (``difference_se``).

The moves' games of one seed throw the same dice game by game, so the per-game
differences of two rollouts carry the standard error of the difference of their means;
these tests check that formula against the rollout's own standard error, a
re-computation by hand, and the spread of the difference over independent seeds.
"""
import math

import numpy as np
import pytest

import nardy_fast as nf
from nardy_fast.core import rng as nrng
from nardy_fast.engine.play.rollout import RolloutGames, _Merger, difference_se

GREEDY = dict(policy="greedy", truncate=None, progress=False)


def race_candidates(k=3):
    """The ``k`` best moves' positions of a race decision (the opponent on roll)."""
    pos = nf.random_game(seed=3, policy="race").positions()[60]
    ids = nf.move_report(pos, (6, 4), seed=1)["id_after"].iloc[:k]
    return [nf.Position.from_id(i) for i in ids]


def contact_candidates(k=3):
    pos = nf.random_game(seed=3, policy="greedy").positions()[12]
    ids = nf.move_report(pos, (4, 2))["id_after"].iloc[:k]
    return [nf.Position.from_id(i) for i in ids]


def se_by_hand(d, strata):
    """The stratified formula written out game by game: se**2 = sum_h s_h**2 / (n_h S**2)
    over the S strata."""
    groups = {}
    for k, v in enumerate(d):
        if not math.isnan(v):
            groups.setdefault(k % strata, []).append(v)
    total = 0.0
    for g in groups.values():
        mean = sum(g) / len(g)
        total += sum((v - mean) ** 2 for v in g) / (len(g) - 1) / len(g)
    return math.sqrt(total) / len(groups)


@pytest.mark.parametrize("policy, vr", [("greedy", None), ("net", "luck-net")])
def test_one_rollouts_games_give_its_own_mean_and_standard_error(policy, vr):
    """Each row of ``equity`` is the rollout's games: their mean is its equity (before
    the move to a possible distribution, ``extra["equity_adjustment"]``), and the paired
    formula against a constant is its own (stratified) standard error."""
    cands = contact_candidates(2)
    rg = nf.rollout_games(cands, 144, seed=5, workers=1, policy=policy,
                          variance_reduction=vr, progress=False)
    assert isinstance(rg, RolloutGames) and rg.equity.shape == (2, 144)
    assert rg.strata == (36, 36)
    for row, out in zip(rg.equity, rg.outcomes):
        assert not np.isnan(row).any()
        moved = out.extra.get("equity_adjustment", 0.0)
        assert row.mean() + moved == pytest.approx(out.equity, abs=1e-12)
        assert difference_se(row, np.zeros(144)) == pytest.approx(out.se_equity, rel=1e-9)
    assert rg.difference(0, 1)[0] == rg.outcomes[0].equity - rg.outcomes[1].equity


def test_the_games_are_rollout_manys_whatever_the_workers_and_chunks():
    cands = race_candidates(2)
    one = nf.rollout_games(cands, 300, seed=9, workers=1, **GREEDY)
    two = nf.rollout_games(cands, 300, seed=9, workers=2, chunk_size=1, **GREEDY)
    assert np.array_equal(one.equity, two.equity)
    many = nf.rollout_many(cands, 300, seed=9, workers=1, **GREEDY)
    assert [o.equity for o in one.outcomes] == many["equity"].tolist()
    assert [o.se_equity for o in one.outcomes] == many["se_equity"].tolist()


def test_difference_se_by_hand():
    rng = np.random.default_rng(1)
    a, b = rng.normal(size=100), rng.normal(size=100)
    a[[3, 50]] = np.nan                     # games one rollout did not play
    d = a - b
    assert difference_se(a, b) == pytest.approx(se_by_hand(d, 36), rel=1e-12)
    assert difference_se(a, b, strata=7) == pytest.approx(se_by_hand(d, 7), rel=1e-12)
    kept = d[~np.isnan(d)]
    assert difference_se(a, b, strata=1) == pytest.approx(
        kept.std(ddof=1) / math.sqrt(len(kept)), rel=1e-12)
    # a stratum of one game has no variance of its own: every stratum's is taken as the
    # sample variance of all the games (an upper bound), in the stratified formula; the
    # strata of games 0-39 but game 3: 0, 1 and 2 have two games, the other 33 one
    kept40 = d[:40][~np.isnan(d[:40])]
    assert len(kept40) == 39
    spread = kept40.var(ddof=1)
    assert difference_se(a[:40], b[:40]) == pytest.approx(
        math.sqrt(spread * (3 / 2 + 33 / 1) / 36**2), rel=1e-12)
    # one game in every stratum: the i.i.d. formula
    assert difference_se(a[:36], b[:36]) == pytest.approx(
        np.nanstd(d[:36], ddof=1) / math.sqrt(35), rel=1e-12)      # game 3 unplayed
    assert math.isnan(difference_se([1.0], [0.0]))
    assert difference_se([1.0, 2.0, 3.0], [1.0, 2.0, 3.0], strata=1) == 0.0


@pytest.mark.parametrize("a, b, kw, words", [
    ([1.0, 2.0], [1.0], {}, "one length"),
    ([[1.0, 2.0]], [[1.0, 2.0]], {}, "one length"),
    ([1.0, 2.0], [1.0, 2.0], {"strata": 0}, "strata"),
    # an infinite value had no variance (an SE of 0.5 here) or, in both, was left out
    ([1.0, math.inf, 3.0, 4.0], [0.0] * 4, {"strata": 2}, "a: game 1 is inf"),
    ([1.0, 2.0, 3.0], [0.0, -math.inf, math.inf], {}, "b: game 1 is -inf"),
])
def test_difference_se_names_bad_input(a, b, kw, words):
    with pytest.raises(ValueError, match=words):
        difference_se(a, b, **kw)


def test_the_paired_error_matches_the_spread_of_the_difference_over_seeds():
    """The paired standard error is what the difference of two rollouts of one seed
    varies by: over 30 seeds, the SD of the difference of the two best moves of a race
    decision (greedy, 144 games each) against the root mean square of the reported paired
    SE (the SD of a 30-seed SD is about 13%).  The sum of the two SEs, the bound used
    without the games, is well above both."""
    a, b = race_candidates(2)
    diffs, paired, bound = [], [], []
    for seed in range(30):
        rg = nf.rollout_games([a, b], 144, seed=100 + seed, workers=1, **GREEDY)
        d, se = rg.difference(0, 1)
        diffs.append(d)
        paired.append(se)
        bound.append(rg.outcomes[0].se_equity + rg.outcomes[1].se_equity)
    spread = float(np.std(diffs, ddof=1))
    reported = float(np.sqrt(np.mean(np.square(paired))))
    assert 0.65 < spread / reported < 1.5
    assert np.mean(bound) > 1.3 * reported


def test_an_interrupted_rollout_leaves_its_missing_games_nan():
    """The merger keeps the blocks it got: the games of a block not played are NaN, and
    the difference uses the games both rollouts played."""
    block = nrng.BLOCK_GAMES
    m = _Merger()
    tally = np.zeros((1, 36, 1))
    m.add((0, tally, np.zeros(1, dtype=np.int64), (np.ones(block),)))
    m.add((2, tally, np.zeros(1, dtype=np.int64), (np.full(10, 2.0),)))
    g = m.games(2 * block + 10)
    assert (g[:block] == 1).all() and np.isnan(g[block:2 * block]).all()
    assert (g[2 * block:] == 2).all()
    other = np.arange(len(g), dtype=float)
    assert difference_se(g, other) == pytest.approx(
        se_by_hand(g - other, 36), rel=1e-12)


def test_bad_input_is_named():
    cands = race_candidates(2)
    rg = nf.rollout_games(cands, 36, seed=1, workers=1, **GREEDY)
    with pytest.raises(IndexError, match="j=2: there are 2 positions"):
        rg.difference(0, 2)
    with pytest.raises(TypeError, match="difference: i='a'"):
        rg.difference("a", 1)
    with pytest.raises(ValueError, match="positions: empty"):
        nf.rollout_games([], 36, seed=1, **GREEDY)
    with pytest.raises(ValueError, match="n_games"):
        nf.rollout_games(cands, 0, seed=1, **GREEDY)
    assert rg.difference(-1, 0)[0] == -rg.difference(0, 1)[0]


def test_too_many_games_to_keep_are_refused_and_the_reports_fall_back_on_the_bound(
        monkeypatch):
    """Past ``KEEP_GAMES_LIMIT`` floats ``rollout_games`` is refused by name, and the
    move report and the cube decision roll out without keeping the games: a loss's SE is
    then the sum of the two SEs (a bound), the cube decision's paired SEs NaN."""
    from nardy_fast.engine.play import rollout as rollout_module
    monkeypatch.setattr(rollout_module, "KEEP_GAMES_LIMIT", 100)
    cands = race_candidates(2)
    with pytest.raises(ValueError, match="KEEP_GAMES_LIMIT"):
        nf.rollout_games(cands, 72, seed=1, workers=1, **GREEDY)
    pos = nf.random_game(seed=3, policy="race").positions()[60]
    mr = nf.move_report(pos, (6, 4), method="rollout", n_games=72, seed=1, workers=1,
                        **GREEDY)
    bound = mr["se_equity"].iloc[0] + mr["se_equity"]
    assert mr["se_equity_loss"].iloc[1:].to_numpy() == pytest.approx(bound.iloc[1:])
    d = nf.cube_decision("WIREQAQIQACEDADAAAAAAAAAAAAABJCAR", method="rollout", n_games=72,
                         seed=1, workers=1, progress=False)
    assert math.isnan(d["se_double_take_minus_no_double"])     # verdict_noise: the sum
