"""The ``nardy-fast`` program's entry point (``app.launcher``)."""
import pytest

from nardy_fast.app import cli
from nardy_fast.app.launcher import console_main


def test_ctrl_c_before_the_command_starts_is_one_line_and_status_130(monkeypatch, capsys):
    """Ctrl-C while the command line's modules load or its options are read (before
    ``main`` takes interrupts itself) ends with one line and the shell's status of an
    interrupted job, not a traceback."""
    def interrupted():
        raise KeyboardInterrupt

    monkeypatch.setattr(cli, "build_parser", interrupted)
    with pytest.raises(SystemExit) as stop:
        console_main(["moves", "start", "6-5"])
    assert stop.value.code == 130
    err = capsys.readouterr().err
    assert err == "nardy-fast: interrupted\n"


def test_version_is_answered_from_the_metadata(capsys):
    with pytest.raises(SystemExit) as stop:
        console_main(["--version"])
    assert stop.value.code == 0
    assert capsys.readouterr().out.startswith("nardy-fast ")
