"""The builders' progress callback (``core._progress.progress_callback``): a bar of 100
units that C code moves by the percentage done."""
from nardy_fast.core import _progress


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
