"""Shared test configuration: hypothesis profiles, the private data folder, the mars tables.

Profiles (chosen by the environment variable ``HYPOTHESIS_PROFILE``):

- ``dev`` (default): few examples, for a quick local run;
- ``ci``: more examples, derandomized (reproducible), no deadline.

Only fixtures and settings live here; the plain helpers the test modules import (boards,
strategies for positions, rolls and rules) are in ``helpers.py``.
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from nardy_fast.core.rules import Rules
from nardy_fast.tables import bearoff as bo

TESTS = Path(__file__).resolve().parent
sys.path.insert(0, str(TESTS))        # so test modules can ``import helpers``, ``import naive``

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
