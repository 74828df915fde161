"""The command line's ``--plies`` defaults are one family: a single decision a person asks
for (hint, cube, play) at ``evaluator.DECISION_PLIES`` (2), bulk work over many turns or
positions (analyse, study) at ``evaluator.BULK_PLIES`` (0)."""
import json
import subprocess
import sys

import pytest

from nardy_fast.app.cli import build_parser
from nardy_fast.engine.decisions.cube import CUBE_PLIES
from nardy_fast.engine.evaluation.evaluator import BULK_PLIES, DECISION_PLIES


def option(command, flag="--plies"):
    sub = build_parser()._subparsers._group_actions[0].choices[command]
    return next(a for a in sub._actions if flag in a.option_strings)


def test_the_family():
    assert (DECISION_PLIES, BULK_PLIES) == (2, 0)
    assert CUBE_PLIES == DECISION_PLIES          # cube's --plies None: CUBE_PLIES


@pytest.mark.parametrize("command, want", [("hint", DECISION_PLIES),
                                           ("play", DECISION_PLIES),
                                           ("analyse", BULK_PLIES), ("study", BULK_PLIES)])
def test_each_command_s_default_and_its_help(command, want):
    plies = option(command)
    assert plies.default == want
    text = " ".join(plies.help.split())
    assert f"default {want} (2 for a single decision: hint, cube, play; 0 for bulk work: " \
           "analyse, study)" in text


def test_hint_searches_two_plies_unless_told():
    pid = "WlgAAAAEAEQACAQAAAAAAAAAQABAAAhIg"
    r = subprocess.run([sys.executable, "-m", "nardy_fast.app.cli", "hint", pid, "63",
                        "--json", "--top", "1"], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    row = json.loads(r.stdout)[0]
    assert row["plies"] == DECISION_PLIES and row["method"] == "net 2-ply"
