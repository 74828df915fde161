"""The builders' progress callback (``core._progress.progress_callback``): a bar of 100
units that C code moves by the percentage done."""
import pytest

from nardy_fast._utils import _progress


class Recorder:
    """A bar that records what it was made with and moved by."""

    def __init__(self, **kwargs):
        self.kwargs, self.steps, self.closed = kwargs, [], False

    def update(self, n):
        self.steps.append(n)

    def close(self):
        self.closed = True


def test_the_callback_moves_its_bar_by_the_percentage_done(monkeypatch):
    bars = []

    def make(**kwargs):
        bars.append(Recorder(**kwargs))
        return bars[-1]
    monkeypatch.setattr(_progress, "progress_bar", make)
    update = _progress.progress_callback(True, "two-sided")
    (bar,) = bars
    assert bar.kwargs["total"] == 100 and bar.kwargs["desc"] == "two-sided"
    assert bar.kwargs["progress"] is True
    for pct in (0, 12.7, 40, 40, 100):
        update(pct)
    assert bar.steps == [0, 12, 28, 0, 60] and sum(bar.steps) == 100
    assert not bar.closed
    update(None)
    assert bar.closed


def test_a_silent_bar_does_not_look_for_a_notebook(monkeypatch):
    """A bar not shown is tqdm's plain one: ``tqdm.auto`` looks for the notebook's widgets
    and, in a notebook without them, warns "IProgress not found" on the rendered pages of
    the documentation though it draws nothing."""
    import sys
    import types

    auto = types.ModuleType("tqdm.auto")

    def notebook_bar(*args, **kwargs):
        raise AssertionError("tqdm.auto made a bar that is not shown")
    auto.tqdm = notebook_bar
    monkeypatch.setitem(sys.modules, "tqdm.auto", auto)
    bar = _progress.progress_bar(range(3), desc="rollout", progress=False)
    assert list(bar) == [0, 1, 2] and bar.disable
    with pytest.raises(AssertionError, match="not shown"):
        _progress.progress_bar(range(3), desc="rollout", progress=True)
