"""``training.checkpoint.run_checkpoint``: the net file of a run is continued when it is
this run's checkpoint, and anything else there is refused by name unless replaced."""
import pytest

from nardy_fast.engine.evaluation._net import Net      # private on purpose: a net of given size
from nardy_fast.engine.evaluation.evaluator import Evaluator
from nardy_fast.training.checkpoint import run_checkpoint

SETTINGS = {"seed": 3, "games": 10, "lr": 0.01, "lam": 0.7, "batch": 4, "hidden": 8}


def _checkpoint(path, done=5, **training):
    Evaluator(Net.random(8, 1), meta={"training": {**SETTINGS, "games_done": done,
                                                   **training}}).save(path)


def test_no_file_is_a_new_run(tmp_path):
    assert run_checkpoint(tmp_path / "new.nfdb", SETTINGS, "games_done") == (None, 0)


def test_a_checkpoint_of_the_same_settings_is_continued(tmp_path):
    _checkpoint(tmp_path / "a.nfdb")
    ev, done = run_checkpoint(tmp_path / "a.nfdb", SETTINGS, "games_done")
    assert done == 5 and ev.net.n_hidden == 8


def test_a_setting_an_older_checkpoint_lacks_takes_its_default(tmp_path):
    _checkpoint(tmp_path / "a.nfdb")
    more = {**SETTINGS, "balance": 4}
    assert run_checkpoint(tmp_path / "a.nfdb", more, "games_done",
                          defaults={"balance": 4})[1] == 5
    with pytest.raises(ValueError, match="balance None there, 4 here"):
        run_checkpoint(tmp_path / "a.nfdb", more, "games_done")


def test_a_run_of_other_settings_is_named_by_the_settings_that_differ(tmp_path):
    _checkpoint(tmp_path / "a.nfdb")
    other = {**SETTINGS, "seed": 4, "lr": 0.02}
    with pytest.raises(ValueError, match=r"a.nfdb: exists and is not a checkpoint of this "
                                         r"run \(a run of other settings: seed 3 there, 4 "
                                         r"here, lr 0.01 there, 0.02 here\)"):
        run_checkpoint(tmp_path / "a.nfdb", other, "games_done")
    four = {**SETTINGS, **{k: -1 for k in list(SETTINGS)[:4]}}   # all four named
    with pytest.raises(ValueError, match=r"lam 0.7 there, -1 here\)"):
        run_checkpoint(tmp_path / "a.nfdb", four, "games_done")
    five = {**SETTINGS, **{k: -1 for k in list(SETTINGS)[:5]}}   # the first four, then ...
    with pytest.raises(ValueError, match=r"lam 0.7 there, -1 here, \.\.\.\)"):
        run_checkpoint(tmp_path / "a.nfdb", five, "games_done")


@pytest.mark.parametrize("what, words", [
    ("text", r"\(not a net: not a nardy_fast database"),
    ("folder", r"\(not a net: "),
    ("net of no run", r"\(a net that holds no run of this kind\)"),
    ("nothing done", r"\(a net that holds no run of this kind\)"),
])
def test_what_is_not_a_checkpoint_is_refused_unless_replaced(tmp_path, what, words):
    path = tmp_path / "x.nfdb"
    if what == "text":
        path.write_text("my notes")
    elif what == "folder":
        path.mkdir()
    elif what == "net of no run":
        Evaluator(Net.random(8, 1)).save(path)
    else:
        _checkpoint(path, done=0)
    with pytest.raises(ValueError, match=words):
        run_checkpoint(path, SETTINGS, "games_done")
    assert run_checkpoint(path, SETTINGS, "games_done", replace=True) == (None, 0)
    assert path.exists()                         # deciding changes nothing on disk
