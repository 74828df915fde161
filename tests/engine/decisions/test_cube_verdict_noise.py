"""``cube.verdict_noise``: whether a rollout cube decision's verdict is within the
rollouts' noise (each comparison's margin against 1.96 times the sum of the standard
errors of the two values compared; the pass is exact)."""
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


def test_the_clear_margin_is_a_95_percent_interval():
    import statistics        # why here: only this test needs the normal quantile
    assert NOISE_Z == pytest.approx(statistics.NormalDist().inv_cdf(0.975), abs=5e-4)
