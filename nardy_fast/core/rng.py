"""Seeds and random streams of the rollouts.

Games are numbered ``0 .. n_games - 1`` and grouped into fixed *blocks* of ``BLOCK_GAMES``
consecutive games.  Block ``k`` draws its dice from its own stream, ``PCG64`` seeded by
``SeedSequence(entropy, spawn_key=(k,))``, whatever process, thread or task plays it.  Work
is shipped in chunks of whole blocks, and per-block tallies are merged in block order, so a
rollout's result depends on the seed only: not on the number of workers, the chunk size or
whether a Dask cluster ran it.
"""
from __future__ import annotations

import numbers
from typing import TypeAlias

import numpy as np

__all__ = ["BLOCK_GAMES", "root_entropy", "block_seed", "block_bit_generator"]

# Games per random stream.  1296 = 36 * 36: a block holds every pair of stratified rolls.
BLOCK_GAMES = 1296

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


def block_seed(entropy, k):
    """``SeedSequence`` of block ``k``: depends on ``(entropy, k)`` only, never on the worker.

    Equal to ``SeedSequence(entropy).spawn(k + 1)[k]``.
    """
    return np.random.SeedSequence(entropy, spawn_key=(int(k),))


def block_bit_generator(entropy, k):
    """A fresh ``PCG64`` for block ``k`` (its ``capsule`` holds the C-level ``bitgen_t``)."""
    return np.random.PCG64(block_seed(entropy, k))
