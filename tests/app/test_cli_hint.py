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
