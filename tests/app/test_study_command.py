"""``nardy-fast study`` gives the numbers of ``nardy_fast.study`` and refuses a bad ID file
or a store of another study (the study itself: tests/analysis/test_study.py)."""
import pandas as pd
import pytest

pytest.importorskip("pyarrow")

import nardy_fast as nf  # noqa: E402
from nardy_fast.app.cli import main  # noqa: E402

from helpers import ids_of  # noqa: E402

SEED = 11
GAMES = 36
IDS = ids_of(12)


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    """The study of IDS by the function, run once in this process."""
    store = tmp_path_factory.mktemp("ref") / "s"
    return nf.study(IDS, GAMES, store=store, seed=SEED, workers=1, policy="greedy",
                    progress=False)


def test_command_line(reference, tmp_path, capsys):
    f = tmp_path / "ids.txt"
    f.write_text("\n".join(IDS + IDS[:2]) + "\n")
    argv = ["study", str(f), "--games", str(GAMES), "--seed", str(SEED), "--store",
            str(tmp_path / "s"), "--policy", "greedy", "--workers", "1", "--no-progress"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert f"{len(IDS)} of {len(IDS)} positions done" in out
    pd.testing.assert_frame_equal(nf.read_study(tmp_path / "s"), reference.sort_index())
    f.write_text(f"{IDS[0]}\nW_bad\n")
    assert main(argv) == 1
    assert "ids.txt line 2" in capsys.readouterr().err
    argv[argv.index("--seed") + 1] = str(SEED + 1)
    f.write_text(f"{IDS[0]}\n")
    assert main(argv) == 1
    assert "belongs to another study (seed" in capsys.readouterr().err
