"""Seeds and random streams (``nardy_fast.core.rng``): each derivation against its
documented definition in numpy's terms, and the seeds refused by name.  (A rollout's
result depending on its seed only: tests/engine/play/test_parallel.py.)"""
import hashlib

import numpy as np
import pytest

from nardy_fast.core import rng


def state(seq):
    return seq.generate_state(4).tolist()


def test_root_entropy_reads_each_form_of_a_seed():
    assert rng.root_entropy(7) == 7 and rng.root_entropy(np.int64(7)) == 7
    assert rng.root_entropy(np.random.SeedSequence(12345)) == 12345
    fresh = {rng.root_entropy(None) for _ in range(3)}
    assert len(fresh) == 3 and all(isinstance(e, int) and e >= 0 for e in fresh)


@pytest.mark.parametrize("seed, error, text", [
    (-1, ValueError, "seed=-1"), (True, TypeError, "seed=True"), (1.5, TypeError, "seed=1.5"),
    ("3", TypeError, "seed='3'"),
    (np.random.SeedSequence(1).spawn(1)[0], ValueError, "spawned")])
def test_root_entropy_refuses_by_name(seed, error, text):
    with pytest.raises(error, match=text):
        rng.root_entropy(seed)


@pytest.mark.parametrize("seed, error, text", [
    (-1, ValueError, "seed=-1"), (1.5, TypeError, "seed=1.5"), ("a", TypeError, "seed='a'")])
def test_generator_refuses_by_name(seed, error, text):
    with pytest.raises(error, match=text):
        rng.generator(seed)


def test_generator_is_numpys_for_each_form_of_a_seed():
    """The same stream as ``default_rng``: an int, a SeedSequence, a spawned one (a
    simulation's per-match stream, which ``root_entropy`` refuses)."""
    spawned = np.random.SeedSequence(3).spawn(2)[1]
    for seed in (7, np.random.SeedSequence(7), spawned):
        assert (rng.generator(seed).integers(1 << 30, size=4).tolist()
                == np.random.default_rng(seed).integers(1 << 30, size=4).tolist())
    assert rng.generator(None).integers(10) in range(10)


@pytest.mark.parametrize("k", [0, 1, 5])
def test_counted_streams_are_the_spawned_children(k):
    """``child_seed(e, k)`` is ``SeedSequence(e).spawn(k + 1)[k]``; a block's seed and
    generator are that child's."""
    spawned = np.random.SeedSequence(99).spawn(k + 1)[k]
    assert state(rng.child_seed(99, k)) == state(spawned)
    assert state(rng.block_seed(99, k)) == state(spawned)
    a = np.random.Generator(rng.block_bit_generator(99, k)).integers(0, 2**62, 5)
    b = np.random.Generator(np.random.PCG64(spawned)).integers(0, 2**62, 5)
    assert a.tolist() == b.tolist()


def test_streams_differ_by_entropy_and_key():
    seen = {tuple(state(rng.child_seed(e, *key))) for e in (1, 2)
            for key in [(0,), (1,), (0, 0), (0, 1)]}
    assert len(seen) == 8


def test_side_streams_are_keyed_apart_from_counted_ones():
    """A side stream's key starts with ``SIDE_KEY`` = 2**32, two 32-bit words, so it never
    equals a counted stream's key, even the counted stream (2**32 - 1, k) next to it."""
    side = rng.side_seed(5, 3)
    assert side.spawn_key == (rng.SIDE_KEY, 3) and rng.SIDE_KEY == 2**32
    counted = {tuple(state(rng.child_seed(5, *key)))
               for key in [(3,), (0, 3), (2**32 - 1, 3), (1, 0, 3)]}
    assert tuple(state(side)) not in counted


def test_text_seed_is_the_first_128_bits_of_sha256():
    want = int.from_bytes(hashlib.sha256(b"study|7|start").digest()[:16], "big")
    assert rng.text_seed("study", 7, "start") == want
    assert rng.text_seed("study", 7, "start") != rng.text_seed("study", "start", 7)
    assert 0 <= rng.text_seed() < 2**128


def test_a_block_holds_every_pair_of_stratified_rolls():
    assert rng.BLOCK_GAMES == 36 * 36


def test_stratified_rolls_are_permutations_drawn_from_the_entropy():
    first, shift, reply = rng.stratified_rolls(7)
    assert sorted(first) == sorted(shift) == sorted(reply) == list(range(36))
    assert (shift != reply).any() and (first != shift).any()
    first30, _, _ = rng.stratified_rolls(7, 30)
    assert sorted(first30) == list(range(30))
    again = rng.stratified_rolls(np.int64(7))
    assert all((a == b).all() for a, b in zip(again, (first, shift, reply)))


@pytest.mark.parametrize("args, error, text", [
    ((7, 37), ValueError, "strata=37"), ((7, 0), ValueError, "strata=0"),
    ((7, 7), ValueError, "strata=7"), ((7, True), ValueError, "strata=True"),
    ((None,), TypeError, "entropy=None"), ((-1,), ValueError, "entropy=-1"),
    ((1.5,), TypeError, "entropy=1.5")])
def test_stratified_rolls_refuse_other_strata_and_entropy_by_name(args, error, text):
    """Only the 36 ordered rolls or the opening's 30 non-doubles are strata, and the
    order is the rollout's, of its root entropy: no fresh entropy drawn for None, nor a
    permutation of 37 strata that no game loop can throw."""
    with pytest.raises(error, match=text):
        rng.stratified_rolls(*args)
