"""Long work shows a bar when asked (or on a terminal): bear-off builds, report, cube
rollouts."""
import pytest

from nardy_fast.app.cli import main


def test_bearoff_build_shows_a_bar(capsys, tmp_path, monkeypatch):
    for flag, shown in (("--progress", True), ("--no-progress", False)):
        monkeypatch.setenv("NARDY_FAST_DATA", str(tmp_path / flag))   # a first build
        assert main(["bearoff", "build", "--two-sided", "3", flag]) == 0
        err = capsys.readouterr().err
        assert ("two-sided bear-off 3x3" in err) == shown, err


def test_progress_none_shows_a_bar_on_a_terminal_only(monkeypatch):
    import io
    from nardy_fast._utils._progress import show_progress

    class Tty(io.StringIO):
        def isatty(self):
            return True
    for stream, want in ((Tty(), True), (io.StringIO(), False)):
        monkeypatch.setattr("sys.stderr", stream)
        assert show_progress(None) is want
        assert show_progress(True) is True and show_progress(False) is False
    with pytest.raises(TypeError, match="progress='yes'"):
        show_progress("yes")


def test_report_takes_progress(capsys, tmp_path, monkeypatch):
    from nardy_fast.analysis import report
    seen = []
    real = report.win_report

    def spy(*a, **k):
        seen.append(k["compute"].progress if "compute" in k else k.get("progress"))
        return real(*a, **k)
    monkeypatch.setattr(report, "win_report", spy)
    ids = tmp_path / "ids.txt"
    ids.write_text("start\n")
    for flag, want in (("--progress", True), ("--no-progress", False)):
        assert main(["report", str(ids), "-o", str(tmp_path / "out"), "--method", "net",
                     flag, "--force"]) == 0              # the second run: over the first
        assert seen[-1] is want


@pytest.mark.slow
def test_cube_rollout_takes_progress(capsys):
    pid = "WlgAAAAEAEQACAQAAAAAAAAAQABAAAhIg"
    assert main(["cube", pid, "--method", "rollout", "-n", "36", "--progress"]) == 0
    assert "rollout" in capsys.readouterr().err
    assert main(["cube", pid, "--method", "rollout", "-n", "36", "--no-progress"]) == 0
    assert capsys.readouterr().err == ""
