"""A rollout of 10**12 games neither builds its plan of chunks up front (96 million specs,
1.2 GB before the first game) nor waits before playing: the chunks are made as they are
read, with the same specs, so the seed alone still fixes the numbers."""
import tracemalloc

import numpy as np

import nardy_fast as nf
from nardy_fast.core import rng
from nardy_fast.engine.play import rollout as rollout_mod

HUGE = 10 ** 12


def test_the_plan_of_a_huge_rollout_is_lazy():
    plan = rollout_mod._Plan(nf.Position.initial(), HUGE, "random", 1, None, None, None, None)
    tracemalloc.start()
    try:
        specs, sizes = plan.specs(parallelism=2)
        first, last = specs[0], specs[-1]
        used = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    n_blocks = -(-HUGE // rng.BLOCK_GAMES)
    assert len(specs) == len(sizes) == -(-n_blocks // plan.blocks_per_chunk) > 9 * 10 ** 7
    assert used < 1_000_000                      # bytes: no per-chunk list
    assert sizes.total == HUGE and sizes[0] == plan.chunk_games
    assert last.first_block + last.n_blocks == n_blocks
    assert sizes[-1] == HUGE - last.first_block * rng.BLOCK_GAMES
    assert first.boards is not last.boards          # each chunk its own boards


def test_lazy_chunks_are_the_specs_a_list_would_hold():
    plan = rollout_mod._Plan("start", 5000, "random", 7, None, None, None, 1296)
    specs, sizes = plan.specs(parallelism=1)
    assert len(specs) == 4 and list(sizes) == [1296, 1296, 1296, 1112]
    assert [s.first_block for s in specs] == [0, 1, 2, 3]
    assert all(s.n_blocks == 1 and s.n_games == 5000 for s in specs)
    np.testing.assert_array_equal(specs[2].boards, nf.Position.initial().boards)


def test_a_huge_rollout_starts_at_once_and_stops_with_its_games(monkeypatch):
    """Stopped after its first chunk: the marked partial result of those games."""
    real = rollout_mod.run_chunks

    def one_chunk(fn, specs, on_result, **kw):
        def stop_after(i, r):
            on_result(i, r)
            raise KeyboardInterrupt
        return real(fn, specs, stop_after, **kw)

    monkeypatch.setattr(rollout_mod, "run_chunks", one_chunk)
    o = nf.rollout("start", HUGE, policy="random", truncate=None, seed=3, workers=1,
                   progress=False, chunk_size=1296)
    assert o.extra["interrupted"] and o.games == 1296
    assert o.extra["games_requested"] == HUGE
