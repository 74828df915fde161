"""The cube's exact bear-off decisions from the complete two-sided table's cubeful
equities (nardy_fast.engine.decisions.cube with nardy_fast.tables.bearoff_complete),
where the in-memory cubeful race table does not reach: a small complete table (4
checkers) stands in for the full one, a 2-checker race table for the default 6."""
import math

import pytest

from nardy_fast import Rules
from nardy_fast.core.cubestate import CubeState
from nardy_fast.engine.decisions import cube as cube_mod
from nardy_fast.engine.decisions.cube import cube_decision
from nardy_fast.tables import bearoff_complete as bc
from nardy_fast.tables.cuberace import CubefulRace

from helpers import race_of_points as race

STEP = 2.0 / 65535                   # a 16-bit step of a cubeful equity


@pytest.fixture(scope="module")
def tables(tmp_path_factory):
    complete = bc.build_complete(4, store=tmp_path_factory.mktemp("cube4"), progress=False,
                                 threads=1, cubeful=True)
    return complete, CubefulRace.build(4, progress=False), CubefulRace.build(2,
                                                                             progress=False)


@pytest.mark.parametrize("owner", ["centre", "mover", "opponent"])
def test_beyond_the_race_table_the_complete_table_decides(tables, owner, monkeypatch):
    complete, exact4, small = tables
    monkeypatch.setattr(cube_mod, "cubeful_race", lambda *a: small)
    monkeypatch.setattr(cube_mod, "complete_two_sided", lambda rules=None: complete)
    pos = race([20, 21, 23], [19, 22, 24, 24])           # 3 against 4: beyond `small`
    got = cube_decision(pos, CubeState(2, owner), rules=Rules(cube="geometric"),
                        method="exact")
    want = exact4.decision(pos.boards[0, :17:-1], pos.boards[1, :17:-1], 2, owner)
    assert got["method"] == "exact"
    assert got["model"] == "exact cubeful two-sided table (complete)"
    for key in ("no_double", "double_take", "equity"):
        assert (math.isnan(got[key]) and math.isnan(want[key])) or \
            abs(got[key] - want[key]) <= 4 * STEP, key
    assert got["action"] == cube_decision(pos, CubeState(2, owner), tables=exact4,
                                          rules=Rules(cube="geometric"))["action"]
    # the table given outright decides too
    assert cube_decision(pos, CubeState(2, owner), tables=complete,
                         rules=Rules(cube="geometric"))["no_double"] == got["no_double"]


def test_without_cubeful_equities_no_exact_decision(tables, monkeypatch, tmp_path):
    complete, exact4, small = tables
    plain = bc.build_complete(3, store=tmp_path, progress=False, threads=1)
    monkeypatch.setattr(cube_mod, "cubeful_race", lambda *a: small)
    monkeypatch.setattr(cube_mod, "complete_two_sided", lambda rules=None: plain)
    pos = race([20, 23, 23], [19, 22, 24])
    with pytest.raises(ValueError, match="--cubeful"):
        cube_decision(pos, rules=Rules(cube="geometric"), method="exact")
    # beaver: the complete table has none, the model decides
    monkeypatch.setattr(cube_mod, "complete_two_sided", lambda rules=None: complete)
    d = cube_decision(pos, rules=Rules(cube="geometric", beaver=True),
                      cube_probabilities=lambda p: 0.6)
    assert d["method"] == "janowski"
