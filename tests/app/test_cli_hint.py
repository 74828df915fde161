"""The engine's commands: ``nardy-fast hint`` and terminal play (``nardy-fast play``)."""
import pytest

import nardy_fast as nf
from nardy_fast.engine.evaluation.evaluator import Evaluator


def test_cli_hint_prints_the_ranking(capsys):
    from nardy_fast.app.cli import main
    pid = "WlgAAAAEAEQACAQAAAAAAAAAQABAAAhIg"
    assert main(["hint", pid, "63", "--json", "--top", "3", "--plies", "0"]) == 0
    import json
    rows = json.loads(capsys.readouterr().out)
    want = Evaluator.default().hint(nf.Position.from_id(pid), (6, 3)).head(3)
    assert [r["move"] for r in rows] == list(want["move"])


def test_cli_hint_under_draw_rule_shows_the_draw_of_black_s_last_turn(capsys):
    """Black bearing off its last checkers in its last turn (``draw_rule``) was shown as
    "+1.0000 ... 1.000  net 0-ply", a sure win; it is a draw, and the text says so."""
    from nardy_fast.app.cli import main
    rules = nf.Rules(draw_rule=True)
    last = "BAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAg"         # two on Black's 24, White off
    assert main(["hint", last, "66", "--rules", rules.to_text()]) == 0
    head, columns, row = capsys.readouterr().out.splitlines()
    assert "p_win, p_draw, all the mover's view" in head
    assert columns.split()[-3:] == ["p_win", "p_draw", "method"]
    assert row.split() == ["1", "24/off", "24/off", "+0.0000", "0.0000", "0.000", "1.000",
                           "final"]
    assert main(["hint", "start", "65", "--plies", "0"]) == 0      # classic: no p_draw
    assert "p_draw" not in capsys.readouterr().out


def test_cli_hint_by_rollouts_under_draw_rule_shows_the_draws(capsys):
    """``hint --method rollout`` under ``draw_rule`` showed p_win 0.972 alone for White's
    last checkers off, the draws of Black's last turn left out; it shows p_draw."""
    from nardy_fast.app.cli import main
    rules = nf.Rules(draw_rule=True)
    race = "WAAAAAAAAAAAAAAAAAAAAAAAAAgABABAQ"
    after = nf.Position.from_id(race).play("23/off 24/off", rules=rules)
    black = Evaluator.default(rules).evaluate(after)      # Black's last turn, exact
    assert 0 < black.p_draw < 1
    assert main(["hint", race, "66", "--rules", rules.to_text(), "--method", "rollout",
                 "-n", "4", "--workers", "1", "--no-progress"]) == 0
    _, columns, row = capsys.readouterr().out.splitlines()
    assert columns.split()[-3:] == ["p_win", "p_draw", "method"]
    assert row.split()[-5:-3] == [f"{black.p_lose:5.3f}", f"{black.p_draw:6.3f}".strip()]


def test_cli_hint_rejects_bad_dice():
    from nardy_fast.app.cli import main
    with pytest.raises(SystemExit) as e:
        main(["hint", "start", "73"])
    assert e.value.code == 2


@pytest.mark.slow
def test_cli_train_fine_tunes_the_shipped_net_under_a_variant(tmp_path):
    """``nardy-fast train --rules ... --init classic``: the shipped one-layer net's weights
    (``nets.ONE_LAYER_NET``, the one the classic judge was deepened from: TD training
    takes one-layer nets) under the variant (with zero steps they stay exactly the
    shipped ones)."""
    import numpy as np
    from nardy_fast.app.cli import main
    out = tmp_path / "none.nfdb"
    assert main(["train", "-o", str(out), "-n", "16", "--threads", "1", "--check-every", "0",
                 "--rules", "block_rule=none", "--init", "classic", "--lr", "0",
                 "--lr-final", "0"]) == 0
    ev = Evaluator.load(out)
    from nardy_fast.engine.evaluation import nets
    np.testing.assert_array_equal(ev.net.w1, Evaluator.load(nets.ONE_LAYER_NET).net.w1)
    training = ev.meta["training"]
    assert training["rules"]["block_rule"] == "none" and training["lr"] == 0.0
    assert len(training["init"]) == 64


def test_hint_by_rollouts_shows_each_loss_with_its_paired_error(capsys):
    """``hint --method rollout``: move_report's rollouts (the same numbers), each loss with
    its paired standard error; options that change nothing are named."""
    import json

    from nardy_fast.app.cli import main
    from nardy_fast.engine.decisions.cube import NOISE_Z
    pid = "W7gAAAAAAAAAAAQAQAAAAAAAAAAAAAAAA"
    argv = ["hint", pid, "5-2", "--method", "rollout", "-n", "72", "--seed", "3",
            "--workers", "1", "--no-progress"]
    assert main(argv + ["--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    mr = nf.move_report(nf.Position.from_id(pid), (5, 2), method="rollout", n_games=72,
                        seed=3, workers=1, progress=False)
    assert [r["move"] for r in rows] == list(mr["move"])
    assert [r["se_equity_loss"] for r in rows] == list(mr["se_equity_loss"])
    assert main(argv) == 0
    out = capsys.readouterr().out
    worst, best = mr.iloc[-1], mr.iloc[0]
    assert f"{worst['equity_loss']:.4f} ({worst['se_equity_loss']:.4f})" in out
    assert "equity_loss (SE)" in out
    first = next(ln for ln in out.splitlines() if ln.startswith("   1  "))
    # the best move: its equity with its 95% interval, a loss of 0 with no error shown
    assert first.split()[-5:] == [f"{best['equity']:+.4f}", f"{NOISE_Z * best['se_equity']:.4f}",
                                  "0.0000", f"{best['p_win']:.3f}", "rollout"]
    assert main(argv + ["--plies", "1"]) == 1
    assert "--plies 1: no effect with --method rollout" in capsys.readouterr().err
    # the default's own value given is refused too: it was asked for and has no effect
    assert main(argv + ["--plies", "2"]) == 1
    assert "--plies 2: no effect with --method rollout" in capsys.readouterr().err
    assert main(argv + ["--length", "5", "--score", "2-3"]) == 1
    assert main(["hint", pid, "5-2", "--seed", "4", "--plies", "0"]) == 0
    assert "--seed: no effect without --method rollout" in capsys.readouterr().err


def test_hint_json_by_rollouts_has_the_keys_of_the_evaluators(capsys):
    """``hint --method rollout --json`` lacked ``diff`` and ``position``, the old names the
    evaluator's ``hint --json`` gives beside ``equity_loss`` and ``id_after``, and the
    ``seed`` its games were thrown with (beside ``games``, its counterpart of ``plies``)."""
    import json

    from nardy_fast.app.cli import main
    pid = "W7gAAAAAAAAAAAQAQAAAAAAAAAAAAAAAA"
    assert main(["hint", pid, "5-2", "--plies", "0", "--json"]) == 0
    net = json.loads(capsys.readouterr().out)
    assert main(["hint", pid, "5-2", "--method", "rollout", "-n", "36", "--seed", "3",
                 "--workers", "1", "--no-progress", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    shared = set(net[0]) - {"plies", "p_koks_win", "p_koks_loss", "p_home_mars_win",
                            "p_home_mars_loss"}
    for r in rows:
        assert shared <= set(r)
        assert r["diff"] == -r["equity_loss"] and str(r["diff"]) != "-0.0"
        assert r["position"] == r["id_after"]
        assert r["seed"] == 3 and r["games"] == 36
    assert rows[0]["diff"] == 0.0


def test_cli_hint_says_what_its_equity_is_under_cube_rules(capsys):
    """Under cube rules the evaluator's equity is cubeless (each win once) and the
    rollouts' is cubeful (both sides use the cube): the heading says which, and says
    nothing of the cube without one."""
    from nardy_fast.app.cli import main
    pid = "WAQABIgEAAAAQAAABABAAAAARAhEgQjEC"
    assert main(["hint", pid, "53", "--plies", "0", "--rules", "cube=geometric"]) == 0
    head = capsys.readouterr().out.splitlines()[0]
    assert "cubeless" in head and "each win counted once" in head
    assert main(["hint", pid, "53", "--rules", "cube=geometric", "--method", "rollout",
                 "-n", "36", "--workers", "1", "--no-progress"]) == 0
    head = capsys.readouterr().out.splitlines()[0]
    assert "cube-aware rollouts" in head and "cubeful" in head
    assert main(["hint", pid, "53", "--plies", "0"]) == 0
    assert "cube" not in capsys.readouterr().out.splitlines()[0]
