"""``nardy-fast cube``'s verdict says how sure it is: rollout values with their ±, whether
the verdict is within the noise, and the model's efficiency and take point only where the
model decided."""
import json
import subprocess
import sys

CONTACT = "WIREQAQIQACEDADAAAAAAAAAAAAABJCAR"
BEAROFF = "WAAAAAAAAAAAAAAAAAAAAAAAAEAAAAAAB"      # exact: two checkers against one


def cube(*argv):
    r = subprocess.run([sys.executable, "-m", "nardy_fast.app.cli", "cube", *argv],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    return r.stdout


def test_rollout_values_have_error_bars_and_the_noise_is_named():
    argv = [CONTACT, "--method", "rollout", "-n", "72", "--seed", "1", "--workers", "1",
            "--no-progress"]
    out = cube(*argv)
    d = json.loads(cube(*argv, "--json"))
    for key, label in (("no_double", "no double"), ("double_take", "double, take")):
        assert f"{label:<16s} {d[key]:+.4f} ± {1.96 * d['se_' + key]:.4f}" in out, out
    assert "double, pass     +1.0000 (exact" in out
    assert ("within the noise" if d["within_noise"] else "clear of the noise") in out
    assert f"margin {d['double_margin']:.4f}, noise {d['double_noise']:.4f}" in out
    assert "efficiency" not in out and "take point" not in out, out   # no model decided
    for key in ("no_double", "se_no_double", "se_double_take", "take_point", "x",
                "double_margin", "within_noise"):                      # old keys, new keys
        assert key in d


def test_an_exact_decision_names_no_model_figures():
    out = cube(BEAROFF)
    assert "method exact (exact cubeful race table)" in out
    assert "efficiency" not in out and "take point" not in out, out
    assert "±" not in out
    d = json.loads(cube(BEAROFF, "--json"))          # the keys stay, the model's unused
    assert d["method"] == "exact" and d["take_point"] is None and d["x"] is None
    assert d["x_source"] == ""


def test_a_model_decision_names_its_efficiency_and_take_point():
    out = cube(CONTACT, "--plies", "0")
    assert "cube efficiency x 0.900 (contact, measured)" in out
    assert "take point" in out and "(the model's)" in out
