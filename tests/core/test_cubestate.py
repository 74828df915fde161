"""The cube's state beside a position (``nardy_fast.core.cubestate``, rule book section
7a): its fields checked by name, the stakes each progression allows, who may raise, the
cube once the turn passes and after a take, and its one-line text.  (Cube actions in
records: tests/core/test_record_cube.py; the cube's decisions:
tests/engine/decisions/test_cube.py.)"""
import pytest

from nardy_fast import CubeState, Rules
from nardy_fast.core.cubestate import CENTRED, MAX_STAKE, next_stake


@pytest.mark.parametrize("kw, error, text", [
    (dict(stake=0), ValueError, "stake"), (dict(stake=2.5), TypeError, "stake"),
    (dict(owner="white"), ValueError, "owner='white'"),
    (dict(first_turn=1), TypeError, "first_turn=1")])
def test_bad_fields_are_named(kw, error, text):
    with pytest.raises(error, match=text):
        CubeState(**kw)


def test_the_stakes_of_each_progression():
    for stake in (1, 2, 4, 64):
        assert CubeState(stake).check("geometric").stake == stake
    for stake in (3, 6, 12):
        with pytest.raises(ValueError, match=f"stake={stake}: not a stake of the geometric"):
            CubeState(stake).check(Rules(cube="geometric"))
    for stake in (1, 3, MAX_STAKE):
        assert CubeState(stake).check(Rules(cube="arithmetic")).stake == stake
    with pytest.raises(ValueError, match=f"stops at {MAX_STAKE}"):
        CubeState(MAX_STAKE + 1).check("arithmetic")
    with pytest.raises(ValueError, match="progression='linear'"):
        CubeState().check("linear")
    assert [next_stake("geometric", s) for s in (1, 2, 4)] == [2, 4, 8]
    assert [next_stake("arithmetic", s) for s in (1, 2, 3)] == [2, 3, 4]


@pytest.mark.parametrize("owner, first_turn, may", [
    ("centre", False, True), ("mover", False, True), ("opponent", False, False),
    ("centre", True, False), ("mover", True, False)])
def test_who_may_raise(owner, first_turn, may):
    assert CubeState(2, owner, first_turn).may_raise is may


def test_the_turn_passes_and_a_raise_is_taken():
    """Passing the turn swaps mover and opponent (the middle stays) and ends the first
    turn; a taken raise gives the next stake to the opponent, still on this turn."""
    assert CubeState(2, "mover").passed() == CubeState(2, "opponent")
    assert CubeState(2, "opponent").passed() == CubeState(2, "mover")
    assert CubeState(1, "centre", True).passed() == CENTRED
    assert CENTRED.taken() == CubeState(2, "opponent")
    assert CubeState(3, "mover").taken("arithmetic") == CubeState(4, "opponent")
    assert CubeState(4, "mover").taken().passed().may_raise


def test_the_text_names_the_owner():
    assert CENTRED.text() == "cube: stake 1, in the middle"
    assert CubeState(2, "mover").text("black") == "cube: stake 2, owned by black"
    assert CubeState(2, "opponent").text("black") == "cube: stake 2, owned by white"
    assert CubeState(4, "opponent").text() == "cube: stake 4, owned by the opponent"
    assert CubeState(1, "centre", True).text() == ("cube: stake 1, in the middle, first "
                                                   "turn (no raise)")


@pytest.mark.parametrize("bad", [2, "mover", (2, "mover")])
def test_displays_name_a_cube_that_is_not_a_cube_state(bad):
    """Position.diagram(cube=2) and plot_board(..., cube=2) failed with "'int' object has
    no attribute 'text'" / "... 'owner'" (check_cube_state, their one check)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import nardy_fast as nf
    from nardy_fast.core.cubestate import check_cube_state
    pos = nf.Position.initial()
    with pytest.raises(TypeError, match=r"^cube: expected a CubeState or None, got "):
        pos.diagram(cube=bad)
    with pytest.raises(TypeError, match=r"^cube: expected a CubeState or None, got "):
        nf.plot_board(pos, cube=bad)
    plt.close("all")
    assert check_cube_state(None) is None
    assert pos.diagram(cube=CubeState(2, "mover")).endswith("owned by white")
