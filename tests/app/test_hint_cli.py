"""The engine's commands: ``nardy-fast hint`` and terminal play (``nardy-fast play``)."""
import pytest

import nardy_fast as nf
from nardy_fast.engine.evaluator import Evaluator


def test_cli_hint_prints_the_ranking(capsys):
    from nardy_fast.app.cli import main
    pid = "WlgAAAAEAEQACAQAAAAAAAAAQABAAAhIg"
    assert main(["hint", pid, "63", "--json", "--top", "3"]) == 0
    import json
    rows = json.loads(capsys.readouterr().out)
    want = Evaluator.default().hint(nf.Position.from_id(pid), (6, 3)).head(3)
    assert [r["move"] for r in rows] == list(want["move"])


def test_cli_hint_rejects_bad_dice():
    from nardy_fast.app.cli import main
    with pytest.raises(SystemExit) as e:
        main(["hint", "start", "73"])
    assert e.value.code == 2
