"""``--truncate race12``, which the Python API takes, is offered by the command line too;
without the race database it says how to build it."""
import subprocess
import sys

import pytest

from nardy_fast.app.cli import build_parser
from nardy_fast.tables.race12 import cached_race12


@pytest.mark.parametrize("command", ["rollout", "study", "report", "analyse"])
def test_race12_is_a_choice(command):
    sub = build_parser()._subparsers._group_actions[0].choices[command]
    option = next(a for a in sub._actions if "--truncate" in a.option_strings)
    assert list(option.choices) == ["bearoff", "race12", "none"]


def test_race12_without_the_database_says_how_to_build_it():
    if cached_race12() is not None:
        pytest.skip("the race database is built in this data folder")
    r = subprocess.run([sys.executable, "-m", "nardy_fast.app.cli", "rollout", "start", "-n",
                        "36", "--truncate", "race12", "--no-progress"], capture_output=True,
                       text=True, timeout=120)
    assert r.returncode == 1
    assert r.stderr == ("nardy-fast: error: --truncate race12: the race database has not "
                        "been built; build it once with 'nardy-fast bearoff build "
                        "--race12'\n")
