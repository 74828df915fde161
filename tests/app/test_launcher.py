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


# SIGTERM the moment the command line's modules start to load (numpy, the engine)
SIGTERM_WHILE_LOADING = """
import builtins, os, signal
from nardy_fast.app.launcher import console_main
real = builtins.__import__

def importing(name, *a, **k):
    if name == "nardy_fast.app.cli":
        builtins.__import__ = real
        os.kill(os.getpid(), signal.SIGTERM)
    return real(name, *a, **k)

builtins.__import__ = importing
console_main(["show", "start"])
"""


def test_sigterm_before_the_command_starts_is_taken_as_ctrl_c():
    """SIGTERM while the command line's modules loaded (the first 0.5 s or so) killed the
    program with no word (the signal's own status), where a later one is taken as Ctrl-C:
    it is one line and the status of a job stopped by SIGTERM from the start."""
    import signal
    import subprocess
    import sys
    r = subprocess.run([sys.executable, "-c", SIGTERM_WHILE_LOADING], capture_output=True,
                       text=True, timeout=120)
    assert (r.returncode, r.stdout, r.stderr) == (128 + signal.SIGTERM, "",
                                                  "nardy-fast: interrupted\n")
