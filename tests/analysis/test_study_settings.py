"""Each setting of a study reaches the rollouts its workers run.

For every non-default setting (policy, a tuple of policies, rules, truncation, variance
reduction, the net method at a depth) a study's row must equal a direct ``rollout`` (or
``Evaluator.evaluate``) of that position with the same setting and the position's seed,
computed here from its documented definition (SHA-256 of ``"nardy_fast.study|<S>|<ID>"``).
The setting must also change that direct result (else a study that dropped it would
pass), so each case is checked against the default's result too.
"""

import numpy as np
import pytest

import nardy_fast as nf
from nardy_fast.analysis.study import QUANTITIES

from helpers import seed_of

SEED = 29
GAMES = 36
FAST = dict(workers=1, progress=False)


def positions():
    """A contact position of a seeded game, and a race of both homes (3 checkers against
    15 with none off: mars, draws and truncation all matter there)."""
    g = np.random.default_rng(7)
    pos = nf.Position.initial()
    for _ in range(30):
        moves = pos.legal_moves((int(g.integers(1, 7)), int(g.integers(1, 7))))
        pos = pos.play(moves[int(g.integers(len(moves)))])
    me, opp = np.zeros(24, np.uint8), np.zeros(24, np.uint8)
    me[[18, 20, 22]] = 1
    opp[18:24] = [3, 3, 3, 2, 2, 2]
    return [pos.id, nf.Position.from_boards(me, opp, "white").id]


IDS = positions()
COLS = ("equity", "se_equity", "mean_length") + QUANTITIES + tuple(
    "se_" + q for q in ("p_win", "p_mars_win", "p_mars_loss"))


def direct(pid, **kw):
    o = nf.rollout(pid, GAMES, seed=seed_of(SEED, pid), **FAST, **kw)
    return {c: getattr(o, c) for c in ("equity", "se_equity", "mean_length") + QUANTITIES
            + ("se_p_win", "se_p_mars_win", "se_p_mars_loss")}


def same(row, want):
    return all(np.isclose(row[c], want[c], rtol=0, atol=1e-12, equal_nan=True) for c in want)


# (study keyword arguments, the direct rollout's); the default policy is the net, the
# default truncation the bear-off tables, the default variance reduction the luck net
CASES = {
    "policy": (dict(policy="greedy"), dict(policy="greedy")),
    "policy pair": (dict(policy=("net", "greedy")), dict(policy=("net", "greedy"))),
    "scoring": (dict(rules=nf.Rules(scoring="extended")),
                dict(rules=nf.Rules(scoring="extended"))),
    "draw rule": (dict(rules=nf.Rules(draw_rule=True)), dict(rules=nf.Rules(draw_rule=True))),
    "truncate": (dict(truncate=None), dict(truncate=None)),
    "variance reduction off": (dict(variance_reduction=False),
                               dict(variance_reduction=False)),
    "variance reduction luck:2": (dict(variance_reduction="luck:2"),
                                  dict(variance_reduction="luck:2")),
}


@pytest.fixture(scope="module")
def default_rows():
    return {pid: direct(pid) for pid in IDS}


@pytest.mark.parametrize("name", list(CASES))
def test_a_study_row_is_the_rollout_with_its_setting(tmp_path, default_rows, name):
    study_kw, rollout_kw = CASES[name]
    frame = nf.study(IDS, GAMES, store=tmp_path / "s", seed=SEED, **FAST, **study_kw)
    changed = False
    for pid in IDS:
        want = direct(pid, **rollout_kw)
        row = frame.loc[pid]
        assert same(row, want), (name, pid, {c: (row[c], want[c]) for c in want
                                             if not np.isclose(row[c], want[c],
                                                               equal_nan=True)})
        changed |= not same(want, default_rows[pid])
    assert changed, f"{name}: the setting does not change these rollouts"
    # and a resumed study keeps the setting: nothing left to play, the same rows
    again = nf.study(IDS, GAMES, store=tmp_path / "s", seed=SEED, **FAST, **study_kw)
    assert again[list(COLS)].equals(frame[list(COLS)])


@pytest.mark.parametrize("plies, rules", [(0, None), (1, None),
                                           (0, nf.Rules(scoring="extended"))])
def test_a_net_study_row_is_the_evaluation_at_its_depth(tmp_path, plies, rules):
    frame = nf.study(IDS, 0, store=tmp_path / "s", method="net", plies=plies, rules=rules,
                     **FAST)
    ev = nf.Evaluator.default(rules)
    for pid in IDS:
        o = ev.evaluate(nf.Position.from_id(pid), plies=plies)
        row = frame.loc[pid]
        for q in ("equity",) + QUANTITIES:
            assert row[q] == pytest.approx(getattr(o, q), abs=1e-12), (plies, pid, q)
        assert row["method"] == o.method
    # the depth and the scoring change these evaluations (else dropping them would pass)
    plain = nf.Evaluator.default().evaluate(nf.Position.from_id(IDS[0]), plies=0)
    if plies or rules is not None:
        assert frame.loc[IDS[0], "equity"] != pytest.approx(plain.equity, abs=1e-6)
