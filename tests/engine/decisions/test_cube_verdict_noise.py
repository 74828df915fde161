"""``cube.verdict_noise``: whether a rollout cube decision's verdict is within the
rollouts' noise (each comparison's margin against 1.96 times the standard error of the
difference of the two values compared: the paired one where the decision has it, else
the sum of the two standard errors; the pass is exact)."""
import math

import pytest

from nardy_fast.core.cubestate import CubeState
from nardy_fast.engine.decisions.cube import NOISE_Z, cube_decision, verdict_noise

NAN = math.nan


def decision(nd, dt, se_nd, se_dt, db=NAN, se_db=NAN):
    return {"no_double": nd, "double_take": dt, "double_pass": 1.0, "double_beaver": db,
            "se_no_double": se_nd, "se_double_take": se_dt, "se_double_beaver": se_db}


def test_the_issue_s_example_is_within_the_noise():
    v = verdict_noise(decision(0.648, 0.677, 0.065, 0.098))
    assert v["double_margin"] == pytest.approx(0.029)
    assert v["double_noise"] == pytest.approx(NOISE_Z * (0.065 + 0.098))
    assert v["take_margin"] == pytest.approx(0.323)          # the take against the pass
    assert v["take_noise"] == pytest.approx(NOISE_Z * 0.098)  # the pass is exact
    assert v["within_noise"] is True


def test_a_clear_verdict():
    v = verdict_noise(decision(0.2, 0.6, 0.01, 0.02))
    assert v["within_noise"] is False
    assert v["double_margin"] == pytest.approx(0.4)


def test_the_doubler_compares_with_the_pass_when_the_opponent_passes():
    v = verdict_noise(decision(0.97, 1.45, 0.03, 0.05))
    assert v["double_margin"] == pytest.approx(0.03)
    assert v["double_noise"] == pytest.approx(NOISE_Z * 0.03)     # no SE of the pass
    assert v["within_noise"] is True                              # 0.03 < 0.0588


def test_a_close_beaver_is_within_the_noise():
    v = verdict_noise(decision(0.1, 0.5, 0.01, 0.01, db=0.51, se_db=0.02))
    assert v["take_margin"] == pytest.approx(0.01)                # beaver against take
    assert v["take_noise"] == pytest.approx(NOISE_Z * 0.03)
    assert v["within_noise"] is True


def test_no_raise_has_nothing_to_compare():
    d = decision(0.3, NAN, 0.01, NAN)
    d["double_pass"] = NAN
    v = verdict_noise(d)
    assert v["within_noise"] is False and math.isnan(v["double_margin"])


def test_a_rollout_decision_carries_its_noise():
    d = cube_decision("WIREQAQIQACEDADAAAAAAAAAAAAABJCAR", CubeState(1, "centre"),
                      method="rollout", n_games=72, seed=1, workers=1, progress=False)
    assert d["double_margin"] == pytest.approx(abs(d["no_double"] - min(d["double_take"],
                                                                         1.0)))
    assert math.isnan(d["se_double_beaver"])                   # no beaver allowed
    assert isinstance(d["within_noise"], bool)


def test_the_paired_standard_errors_replace_the_sums():
    d = decision(0.1, 0.5, 0.04, 0.05, db=0.53, se_db=0.07)
    d.update(se_double_take_minus_no_double=0.012, se_double_beaver_minus_no_double=0.02,
             se_double_beaver_minus_double_take=0.009)
    v = verdict_noise(d)
    assert v["double_margin"] == pytest.approx(0.4)            # the take against no double
    assert v["double_noise"] == pytest.approx(NOISE_Z * 0.012)
    # the taker's closest call: the beaver against the take (0.03 over 1.96 * 0.009)
    assert v["take_margin"] == pytest.approx(0.03)
    assert v["take_noise"] == pytest.approx(NOISE_Z * 0.009)
    assert v["within_noise"] is False                          # 0.03 > 0.0176
    d["se_double_beaver_minus_double_take"] = NAN              # unknown: the bound
    assert verdict_noise(d)["take_noise"] == pytest.approx(NOISE_Z * 0.12)
    assert verdict_noise(d)["within_noise"] is True


def test_a_rollout_decision_pairs_its_rollouts_games():
    """The paired SE of double/take minus no double is the SE of the per-game
    differences of the two rollouts (recomputed here from ``rollout_games`` with the
    decision's seed and cube states), well below the sum of the two SEs."""
    import numpy as np

    import nardy_fast as nf
    from nardy_fast.engine.play.rollout import difference_se
    pos = "WIREQAQIQACEDADAAAAAAAAAAAAABJCAR"
    d = cube_decision(pos, CubeState(1, "centre"), method="rollout", n_games=144, seed=3,
                      workers=1, progress=False)
    kw = dict(seed=3, rules=nf.Rules(cube="geometric"), workers=1, progress=False)
    nd = nf.rollout_games([pos], 144, cube_state=CubeState(1, "centre", True), **kw)
    dt = nf.rollout_games([pos], 144, cube_state=CubeState(2, "opponent"), **kw)
    assert d["no_double"] == nd.outcomes[0].equity
    assert d["double_take"] == 2 * dt.outcomes[0].equity
    paired = difference_se(2 * dt.equity[0], nd.equity[0])
    assert d["se_double_take_minus_no_double"] == pytest.approx(paired, rel=1e-12)
    assert paired < 0.7 * (d["se_no_double"] + d["se_double_take"])
    # the doubler's comparison: against the take when it is the taker's answer, else
    # against the exact pass (no double's own SE)
    taken = d["double_take"] < 1.0
    assert d["double_noise"] == pytest.approx(
        NOISE_Z * (paired if taken else d["se_no_double"]))
    assert math.isnan(d["se_double_beaver_minus_no_double"])   # no beaver allowed
    assert not np.isnan(nd.equity).any()


def test_the_clear_margin_is_a_95_percent_interval():
    import statistics        # why here: only this test needs the normal quantile
    assert NOISE_Z == pytest.approx(statistics.NormalDist().inv_cdf(0.975), abs=5e-4)
