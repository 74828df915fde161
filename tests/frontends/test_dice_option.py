"""The command line reads a roll by the API's parser (``core._checks.check_dice``): what
the API refuses, the command line refuses too, with the same words."""
import subprocess
import sys

import pytest

from nardy_fast.app._args import _dice


@pytest.mark.parametrize("text", ["65", "6-5", "6 5", "6,5"])
def test_the_forms_of_a_roll(text):
    assert _dice(text) == (6, 5)


@pytest.mark.parametrize("junk", ["65x", "6--5", "x6x5x"])
def test_the_command_refuses_junk_by_name(junk):
    r = subprocess.run([sys.executable, "-m", "nardy_fast.app.cli", "hint", "start", junk],
                       capture_output=True, text=True)
    assert r.returncode == 2
    assert f"argument dice: dice={junk!r}: expected two dice 1..6" in r.stderr
