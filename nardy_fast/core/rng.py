"""Seeds and random streams of the rollouts.

Games are numbered ``0 .. n_games - 1`` and grouped into fixed *blocks* of ``BLOCK_GAMES``
consecutive games.  Block ``k`` has its own stream, ``PCG64`` seeded by
``SeedSequence(entropy, spawn_key=(k,))``, whatever process, thread or task plays it.  A
rollout's game ``i`` of block ``k`` takes the ``i``-th 64-bit output of that stream as its
seed word (``game_seed_words``), and draws its dice, and apart from them its other random
choices, from two streams of its own started from that word.  So game ``g`` of two
rollouts with the same seed sees the same dice for as long as both games last, whatever
the games before it drew (the common random numbers that make a difference between two
rollouts less noisy than either).  Work is shipped in chunks of whole blocks, and
per-block tallies are merged in block order, so a rollout's result depends on the seed
only: not on the number of workers, the chunk size or whether a Dask cluster ran it.

``DICE_SCHEME`` names this scheme; stores that resume a seeded computation record it and
refuse work of another.

Every other seeded stream of the package is derived here too, so that one module says how
a seed becomes random numbers: a counted stream (game ``g``, match ``m``, round ``r``:
``child_seed``), a side stream beside the counted ones (``side_seed``) and an int seed
named by text, such as a study's per-position seed (``text_seed``).
"""
from __future__ import annotations

import hashlib
import numbers
from typing import TypeAlias

import numpy as np

__all__ = ["BLOCK_GAMES", "SIDE_KEY", "DICE_KEY", "DICE_SCHEME", "EARLIER_DICE_SCHEME",
           "root_entropy", "generator",
           "block_seed", "block_bit_generator", "game_seed_words", "child_seed", "side_seed",
           "text_seed", "stratified_rolls"]

# Games per random stream.  1296 = 36 * 36: a block holds every pair of stratified rolls.
BLOCK_GAMES = 1296

# The name of how a rollout's games get their dice from a seed.  "per-game-2": each game
# from its own seed word (above), its first two rolls stratified in the order the seed
# shuffles (``stratified_rolls``); "per-game-1" rotated them in a fixed order, which
# biased rollouts of other than whole blocks; before it, the games of a block drew their
# later rolls from the block's stream in turn.  A store that resumes seeded games records
# it.
DICE_SCHEME = "per-game-2"
# What a store recorded nothing about, made before the scheme was named (0.3.0 and earlier):
# the name its dice are shown by when a store of it is refused.
EARLIER_DICE_SCHEME = "block-stream (0.3.0 and earlier)"

# The first spawn-key word of a side stream (``side_seed``).  ``SeedSequence`` splits each
# key entry into 32-bit words: every counter of the package (block, game, match, round)
# stays below 2**32 and is one word, while 2**32 is two ([0, 1]), so no side stream's key
# equals a counted stream's key and the two never share random numbers.
SIDE_KEY = 2 ** 32

# The spawn-key word of the stream that orders a rollout's stratified rolls
# (``stratified_rolls``): two 32-bit words, as ``SIDE_KEY``, apart from every side stream.
DICE_KEY = SIDE_KEY + 1

# What the API accepts as a seed (``root_entropy`` reads each form): for annotations.
SeedLike: TypeAlias = "int | np.random.SeedSequence | None"


def root_entropy(seed):
    """The entropy (a non-negative int) that names a rollout's random numbers.

    Parameters
    ----------
    seed : None, int or numpy.random.SeedSequence
        ``None`` draws fresh entropy from the operating system; record the returned value
        (rollouts put it in ``Outcome.extra["seed"]``) to replay the run.

    Returns
    -------
    int
    """
    if seed is None:
        return int(np.random.SeedSequence().entropy)
    if isinstance(seed, np.random.SeedSequence):
        if seed.spawn_key:
            raise ValueError("seed: a spawned SeedSequence is not supported; pass its entropy "
                             "or an int")
        return int(seed.entropy)
    if isinstance(seed, bool) or not isinstance(seed, numbers.Integral):
        raise TypeError(f"seed={seed!r}: expected None, a non-negative int or a SeedSequence")
    if seed < 0:
        raise ValueError(f"seed={seed}: must be >= 0")
    return int(seed)


def generator(seed):
    """``numpy.random.default_rng(seed)``, the seed checked first.

    Parameters
    ----------
    seed : None, int or numpy.random.SeedSequence
        As ``root_entropy``'s, and also a spawned ``SeedSequence`` (a counted stream of
        ``child_seed``, which a simulation hands to each of its games or matches).

    Returns
    -------
    numpy.random.Generator

    Raises
    ------
    TypeError, ValueError
        A seed of another type, or a negative one, by name (not numpy's message).
    """
    if not isinstance(seed, np.random.SeedSequence):
        root_entropy(seed)   # the check only: None still draws fresh entropy below
    return np.random.default_rng(seed)


def child_seed(entropy, *key):
    """The ``SeedSequence`` of a counted stream: ``SeedSequence(entropy, spawn_key=key)``.

    Parameters
    ----------
    entropy : int or None
        The root entropy (``root_entropy``); None draws fresh entropy from the operating
        system at each call.
    *key : int
        The stream's place, e.g. game ``g`` of a self-play batch or match ``m`` of a
        simulation: ``child_seed(entropy, k)`` equals
        ``SeedSequence(entropy).spawn(k + 1)[k]``.

    Returns
    -------
    numpy.random.SeedSequence
        Depends on ``(entropy, key)`` only, never on the process or worker that uses it.
    """
    return np.random.SeedSequence(entropy, spawn_key=tuple(int(k) for k in key))


def side_seed(entropy, k):
    """The ``SeedSequence`` of side stream ``k``: ``child_seed(entropy, SIDE_KEY, k)``.

    For random numbers drawn beside counted streams of the same entropy (training's random
    races of round ``k``, beside the games' blocks): never equal to one of them
    (``SIDE_KEY``).
    """
    return child_seed(entropy, SIDE_KEY, k)


def text_seed(*parts):
    """An int seed named by text: the first 128 bits of SHA-256 of the ``parts`` joined by
    ``"|"`` (each written with ``str``), read big-endian.

    Stable across processes, machines and Python versions (unlike ``hash``), so a seed
    built from, e.g., ``(kind, entropy, position ID)`` gives each position of a study its
    own stream, whatever order or worker computes it.

    Returns
    -------
    int
        In ``0 .. 2**128 - 1``.
    """
    digest = hashlib.sha256("|".join(str(p) for p in parts).encode()).digest()
    return int.from_bytes(digest[:16], "big")


def block_seed(entropy, k):
    """``SeedSequence`` of block ``k``: depends on ``(entropy, k)`` only, never on the worker.

    Equal to ``SeedSequence(entropy).spawn(k + 1)[k]`` (``child_seed(entropy, k)``).
    """
    return child_seed(entropy, k)


def block_bit_generator(entropy, k):
    """A fresh ``PCG64`` for block ``k`` (its ``capsule`` holds the C-level ``bitgen_t``)."""
    return np.random.PCG64(block_seed(entropy, k))


def game_seed_words(entropy, k, n):
    """The seed words of the first ``n`` games of block ``k``: the first ``n`` 64-bit
    outputs of the block's stream (``block_bit_generator(entropy, k).random_raw(n)``).

    Game ``i`` of the block starts its own streams from word ``i`` (``_rollout``), so its
    dice depend on ``(entropy, k, i)`` only.

    Returns
    -------
    ndarray of uint64, shape (n,)
    """
    return block_bit_generator(entropy, k).random_raw(int(n))


def stratified_rolls(entropy, strata=36):
    """The order of a rollout's stratified first and second rolls: ``(first, shift,
    reply)``.

    Game ``g`` of a rollout (``_rollout``) throws as its first random roll stratum
    ``first[g mod S]`` of the ``S`` strata (the 36 ordered rolls, or the 30 ordered
    non-doubles of an opening), and as its second the roll ``reply[(g mod S + shift[(g
    div S) mod 36]) mod 36]`` (a roll ``6 (d1 - 1) + d2 - 1``).  Every 36 consecutive
    games of a round throw each reply once, and every ``36 S`` consecutive games from a
    multiple of ``36 S`` hold each pair of first and second rolls once; and whatever the
    number of games, each game's second roll is, over the seeds, uniform given its first
    (the first ``m`` rounds' shifts are a random ``m`` of the 36), as the first ``n < S``
    games' first rolls are a random ``n`` of the strata, so a rollout of any size is
    unbiased.  (A fixed order is not: ``shift[k] = k`` pairs each first roll with itself
    as the reply in the first 36 games.)  ``reply`` shuffles the rolls themselves, so that
    the replies of neighbouring games of a round are not neighbouring rolls, which share
    their first die: without it a rollout of fewer than 36 games that the reply decides
    had an SE up to 45 % below its spread between seeds.

    Parameters
    ----------
    entropy : int
        The rollout's root entropy (``root_entropy``).
    strata : {36, 30}
        The strata ``S`` of the first roll.

    Returns
    -------
    first : ndarray of int32, shape (strata,)
        A permutation of ``0 .. strata - 1``.
    shift, reply : ndarray of int32, shape (36,)
        Permutations of ``0 .. 35``.

    Depends on ``(entropy, strata)`` only: drawn from ``PCG64(child_seed(entropy,
    DICE_KEY))``, a stream no block or side stream shares.

    Raises
    ------
    TypeError, ValueError
        ``entropy`` not a non-negative int (None would draw a fresh order), or other
        ``strata``, by name.
    """
    if isinstance(entropy, bool) or not isinstance(entropy, numbers.Integral):
        raise TypeError(f"entropy={entropy!r}: expected the rollout's root entropy, a "
                        "non-negative int (root_entropy)")
    if entropy < 0:
        raise ValueError(f"entropy={entropy}: must be >= 0")
    if isinstance(strata, bool) or strata not in (36, 30):
        raise ValueError(f"strata={strata!r}: expected 36 (the ordered rolls) or 30 (the "
                         "opening's non-doubles)")
    gen = np.random.Generator(np.random.PCG64(child_seed(entropy, DICE_KEY)))
    first = gen.permutation(int(strata)).astype(np.int32)
    shift = gen.permutation(36).astype(np.int32)
    return first, shift, gen.permutation(36).astype(np.int32)
