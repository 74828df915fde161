"""Shared test configuration: hypothesis profiles, the private data folder, and the fixtures
more than one test module uses (mars tables, the one-sided and a small no-contact race
database, an analysed game, a middle-game position, a played match).

Profiles (chosen by the environment variable ``HYPOTHESIS_PROFILE``):

- ``dev`` (default): few examples, for a quick local run;
- ``ci``: more examples, derandomized (reproducible), no deadline.

Only fixtures and settings live here; the plain helpers the test modules import (boards,
strategies for positions, rolls and rules) are in ``helpers.py``.
"""
from __future__ import annotations

import os
import shutil
import signal
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from nardy_fast.analysis.report import game_report
from nardy_fast.core.matchrules import MatchRules
from nardy_fast.core.record import random_game
from nardy_fast.core.rules import Rules
from nardy_fast.engine.decisions.matchplay import play_one_match
from nardy_fast.tables import bearoff as bo, bearoff_complete as bc, race12

TESTS = Path(__file__).resolve().parent
sys.path.insert(0, str(TESTS))        # so test modules can ``import helpers``, ``import naive``

# A run started in the background of a shell script (``make test &``) inherits SIGINT
# ignored, and so would every command the tests start: the Ctrl-C tests would find the
# commands deaf to it and fail.  Python's own handler here makes each child start with
# SIGINT at its default again (an ignored signal survives exec, a handler does not).
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

settings.register_profile(
    "dev", max_examples=50, deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                           HealthCheck.differing_executors])
settings.register_profile(
    "ci", max_examples=300, deadline=None, derandomize=True, print_blob=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                           HealthCheck.differing_executors])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))


@pytest.fixture(scope="session", autouse=True)
def private_data_folder(tmp_path_factory):
    """Bear-off databases go to a temporary ``NARDY_FAST_DATA`` for the whole session (the
    default tables are built once), never to the user's cache; worker processes, kernels
    and command-line runs started by the tests inherit it."""
    folder = tmp_path_factory.mktemp("nardy_data")
    mp = pytest.MonkeyPatch()
    mp.setenv("NARDY_FAST_DATA", str(folder))
    yield folder
    mp.undo()


@pytest.fixture(scope="module")
def mars_tables(private_data_folder):
    """The mars tables of 15 against <= 2 checkers for classic and extended points, built
    (seconds) in the session's private data folder as ``bearoff build --mars`` would
    (queries never build them), by scoring."""
    return {rules.scoring: bo.mars_table(2, rules)
            for rules in (Rules(), Rules(scoring="extended"))}


@pytest.fixture(scope="session")
def analysed_game():
    """(record, report): a seeded random game of 12 turns and its analysed report."""
    record = random_game(seed=3, max_turns=12)
    return record, game_report(record, analyse=True, seed=1)


@pytest.fixture(scope="module")
def middle():
    """A middle-game position reached by a fixed seeded game."""
    rec = random_game(seed=3, max_turns=12)
    return rec.positions()[-1]


@pytest.fixture(scope="module")
def played():
    """A match to 2 points played by the default net against itself (seed 8), of two
    games at least: the tests of a second game's score line and starter need one (a net
    that wins this seed's match in one game needs another seed here)."""
    rec = play_one_match("net", "net", MatchRules(length=2), seed=8)
    assert len(rec.games) >= 2, "the fixture's match is one game: choose another seed"
    return rec


@pytest.fixture(scope="module")
def one():
    """The one-sided bear-off database (built once per session in the private folder)."""
    return bo.one_sided()


@pytest.fixture(scope="module")
def db7():
    """A no-contact race database of 7 points (seconds to build), in memory."""
    return race12.Race12.build(points=7, progress=False)


@pytest.fixture
def built4():
    """A complete two-sided table of 4 checkers in the data folder (the full one is 15),
    removed afterwards."""
    store = bc.default_store(4)
    bc.build_complete(4, progress=False)
    bc._LOADED.clear()
    yield bc.CompleteTwoSided.load(store)
    shutil.rmtree(store)
    bc._LOADED.clear()
