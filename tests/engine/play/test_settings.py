"""``RolloutSettings`` (engine/play/settings.py) and the chunk spec a rollout sends to its
workers (``rollout.ChunkSpec``): checked once, by name; the flat keywords and the object
play the same games; every argument after ``n_games`` is keyword-only."""
import dataclasses
import pickle

import pytest

import nardy_fast as nf
from nardy_fast.engine.play import rollout as rollout_mod
from nardy_fast.engine.play.settings import RolloutSettings

FAST = dict(policy="random", truncate=None)
HERE = nf.Compute(workers=1, progress=False)


@pytest.mark.parametrize("field, value, error, says", [
    ("n_games", 0, ValueError, r"RolloutSettings: n_games=0: must be >= 1"),
    ("n_games", 1.5, TypeError, r"RolloutSettings: n_games=1.5"),
    # a count past the tallies' (2**53) overflowed in the game loops, naming nothing
    ("n_games", 10 ** 19, ValueError, r"RolloutSettings: n_games=10000000000000000000: at "
                                      r"most 9,007,199,254,740,992 \(2\*\*53\) games"),
    ("policy", "nett", ValueError, r"RolloutSettings: policy='nett'"),
    ("policy", 3, TypeError, r"RolloutSettings: policy"),
    ("truncate", "race", ValueError, r"RolloutSettings: truncate='race'"),
    ("variance_reduction", "luck:0", ValueError, r"RolloutSettings: variance_reduction"),
    ("dice", (7, 1), ValueError, r"RolloutSettings: .*die|RolloutSettings: dice"),
    ("chunk_size", 0, ValueError, r"RolloutSettings: chunk_size=0"),
    ("cube", nf.CENTRED, TypeError, r"RolloutSettings: cube: .*cube_state"),
    ("cube_state", "centre", TypeError, r"RolloutSettings: cube_state"),
    ("cube_probabilities", "net", TypeError, r"RolloutSettings: cube_probabilities"),
])
def test_each_bad_field_is_refused_by_name(field, value, error, says):
    kw = {"n_games": 100, field: value}
    with pytest.raises(error, match=says):
        RolloutSettings(**kw)


def test_luck_needs_net_policies_and_no_cube_state_without_a_cube():
    with pytest.raises(ValueError, match="variance_reduction='luck'"):
        RolloutSettings(100, policy="random", variance_reduction="luck")
    with pytest.raises(ValueError, match="cube=False: no cube in play, so no cube_state"):
        RolloutSettings(100, cube=False, cube_state=nf.CENTRED)


def test_settings_are_frozen_normalised_and_compare_equal():
    s = RolloutSettings(100, dice="6-5", chunk_size=1296)
    assert s.dice == (6, 5) and s == RolloutSettings(100, dice=(6, 5), chunk_size=1296)
    with pytest.raises(dataclasses.FrozenInstanceError):
        s.n_games = 5
    assert s.replace(n_games=200).n_games == 200
    with pytest.raises(ValueError, match="n_games=-1"):
        s.replace(n_games=-1)


def test_flat_keywords_and_the_objects_play_the_same_games():
    flat = nf.rollout("start", 144, seed=5, workers=1, progress=False, dice=(3, 1), **FAST)
    s = RolloutSettings(144, dice=(3, 1), **FAST)
    obj = nf.rollout("start", settings=s, seed=5, compute=HERE)
    assert obj.to_dict() == flat.to_dict()
    positions = nf.race_sample(2, seed=2)
    a = nf.rollout_many(positions, 72, seed=4, workers=1, progress=False, **FAST)
    b = nf.rollout_many(positions, settings=RolloutSettings(72, **FAST), seed=4,
                        compute=HERE)
    assert a.equals(b)
    c = rollout_mod.rollout_outcomes(positions, settings=RolloutSettings(72, **FAST),
                                     seed=4, compute=HERE)
    assert [o.equity for o in c] == list(a["equity"])


@pytest.mark.parametrize("call", [
    lambda: nf.rollout("start", 72, "random"),
    lambda: nf.rollout_many(["start"], 72, "random"),
    lambda: rollout_mod.rollout_outcomes(["start"], 72, "random", 1),
])
def test_arguments_after_n_games_are_keyword_only(call):
    with pytest.raises(TypeError, match="positional"):
        call()


def test_a_field_given_both_flat_and_in_settings_is_an_error():
    s = RolloutSettings(72, **FAST)
    with pytest.raises(TypeError, match="rollout: n_games given both"):
        nf.rollout("start", 72, settings=s, compute=HERE)
    with pytest.raises(TypeError, match="rollout_many: policy, truncate given both"):
        nf.rollout_many(["start"], settings=s, policy="greedy", truncate="race12",
                        compute=HERE)
    with pytest.raises(TypeError, match="rollout: workers given both"):
        nf.rollout("start", settings=s, compute=HERE, workers=2)
    with pytest.raises(TypeError, match="rollout: n_games: missing"):
        nf.rollout("start", **FAST)
    with pytest.raises(TypeError, match="settings=.*expected a nardy_fast.RolloutSettings"):
        nf.rollout("start", settings={"n_games": 72})


@pytest.mark.parametrize("func", [nf.rollout, nf.rollout_many, rollout_mod.rollout_outcomes])
def test_a_flat_keyword_at_its_default_beside_settings_is_an_error_too(func):
    # S plays no truncation; truncate="bearoff" (the default) asks for one: neither wins
    s = RolloutSettings(72, **FAST)
    where = "start" if func is nf.rollout else ["start"]
    name = func.__name__
    with pytest.raises(TypeError, match=f"{name}: truncate given both"):
        func(where, settings=s, truncate="bearoff", compute=HERE)
    with pytest.raises(TypeError, match=f"{name}: policy, variance_reduction given both"):
        func(where, settings=s, variance_reduction=None, policy="net", compute=HERE)
    # n_games=None says "not given"; the rest of the call is the settings'
    one = func(where, None, settings=s, seed=3, compute=HERE)
    two = func(where, settings=s, seed=3, compute=HERE)
    assert repr(one) == repr(two)


def test_the_check_keeps_the_signature_and_the_docstring():
    import inspect           # why here: only this test reads signatures
    params = inspect.signature(nf.rollout).parameters
    assert params["truncate"].default == "bearoff" and params["settings"].default is None
    assert nf.rollout.__name__ == "rollout" and "Parameters" in nf.rollout.__doc__


def test_the_chunk_spec_is_a_typed_frozen_object():
    plan = rollout_mod._Plan("start", 3000, "random", 7, None, None, None, 1296)
    specs, sizes = plan.specs(parallelism=1)
    spec = specs[1]
    assert type(spec) is rollout_mod.ChunkSpec and (spec.first_block, spec.n_blocks) == (1, 1)
    with pytest.raises(dataclasses.FrozenInstanceError):
        spec.n_games = 1
    first, tally, truncated = rollout_mod._run_chunk(pickle.loads(pickle.dumps(spec)))
    assert first == 1 and tally.shape[0] == 1
    assert int(tally[0, :, 0].sum()) == sizes[1] == 1296      # column 0: games per stratum
    with pytest.raises(TypeError, match="expected a ChunkSpec, got dict"):
        rollout_mod._run_chunk(dataclasses.asdict(spec))
