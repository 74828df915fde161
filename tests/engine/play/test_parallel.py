"""One seed, one result: in this process, on a local process pool, on a Dask LocalCluster,
for any chunk size (nardy_fast.engine.play.parallel, nardy_fast.engine.play.rollout)."""
import os
import signal
import threading

import numpy as np
import pytest
from hypothesis import assume, given, settings, strategies as st

import nardy_fast as nf
from helpers import game_positions
from nardy_fast.core import rng as nrng
from nardy_fast.engine.play.parallel import run_chunks
from nardy_fast.engine.play.rollout import rollout, rollout_many

B = nrng.BLOCK_GAMES
N = 3 * B + 100                      # three full blocks and a partial one


def position():
    b = np.zeros(24, np.uint8)
    b[[0, 3, 7, 11, 15]] = [5, 3, 3, 2, 2]
    o = np.zeros(24, np.uint8)
    o[[0, 5, 9, 16]] = [6, 4, 3, 2]
    return nf.Position.from_boards(b, o)


def fields(r):
    d = r.to_dict()
    return {k: v for k, v in d.items() if not k.startswith("extra_")}


@pytest.fixture(scope="module")
def serial():
    return rollout(position(), N, policy="greedy", seed=2024, truncate=None, workers=1,
                   progress=False)


@pytest.mark.slow
@pytest.mark.parametrize("chunk_size", [1, B, 2 * B + 1, 10 * B])
def test_chunk_size_does_not_change_results(serial, chunk_size):
    r = rollout(position(), N, policy="greedy", seed=2024, truncate=None, workers=1,
                progress=False, chunk_size=chunk_size)
    assert fields(r) == fields(serial)


@pytest.mark.slow
def test_process_pool_is_bit_identical(serial):
    r = rollout(position(), N, policy="greedy", seed=2024, truncate=None, workers=2,
                progress=False, chunk_size=B)
    assert fields(r) == fields(serial)
    assert r.extra["backend"] == "pool(2)"


@pytest.mark.slow
def test_default_workers_is_bit_identical(serial):
    r = rollout(position(), N, policy="greedy", seed=2024, truncate=None, progress=True,
                chunk_size=2 * B)
    assert fields(r) == fields(serial)


def _failing_policy(c, o):
    raise ValueError("policy failed in a worker")


@pytest.mark.slow
def test_pool_reports_worker_errors():
    with pytest.raises(ValueError, match="policy failed in a worker"):
        rollout(position(), 2 * B, policy=_failing_policy, seed=1, truncate=None, workers=2,
                progress=False, chunk_size=B)
    # the pool still works afterwards
    r = rollout(position(), 2 * B, policy="random", seed=1, truncate=None, workers=2,
                progress=False, chunk_size=B)
    assert r.games == 2 * B


def _square(x):
    return x * x


def test_run_chunks_delivers_every_chunk():
    got = {}
    interrupted = run_chunks(_square, list(range(7)), got.__setitem__, sizes=[1] * 7,
                             workers=2, progress=False)
    assert not interrupted and got == {i: i * i for i in range(7)}


def test_run_chunks_refuses_more_workers_than_a_pool_holds():
    """A worker count beyond what a process pool can count is refused naming it (``rollout
    -n 2000 --workers 1000000000000`` was an OverflowError's traceback); a large count
    that a pool holds runs (it starts a process per chunk in flight, not per worker)."""
    got = {}
    with pytest.raises(ValueError, match=r"^workers=1000000000000: more worker processes"):
        run_chunks(_square, list(range(3)), got.__setitem__, sizes=[1] * 3,
                   workers=10 ** 12, progress=False)
    assert not got
    assert not run_chunks(_square, list(range(3)), got.__setitem__, sizes=[1] * 3,
                          workers=1000, progress=False)
    assert got == {i: i * i for i in range(3)}


A_WORKER_DIES = r"""
import os, time
from nardy_fast.engine.play.parallel import run_chunks

def chunk(i):                       # sent by value (cloudpickle): it is __main__'s
    if i == 0:
        os._exit(1)                 # killed as the out-of-memory killer would
    time.sleep(2)                   # the other worker is busy meanwhile
    return i

done = []
try:
    run_chunks(chunk, list(range(6)), lambda i, r: done.append(i), sizes=[1] * 6,
               workers=2, progress=False, desc="rollout")
except ChildProcessError as e:
    print(f"{type(e).__name__}: {e}", flush=True)
"""


@pytest.mark.slow
def test_a_worker_that_dies_is_an_error_and_the_program_ends():
    """A pool worker killed in the middle of a run (SIGKILL, the out-of-memory killer):
    the run raises a ``ChildProcessError`` saying so in one line, and the program ends.
    The pool's own cleanup sends the other workers SIGTERM, which they ignore, and then
    waits for them: the program printed ``BrokenProcessPool``'s traceback and never
    ended."""
    import subprocess
    import sys
    pytest.importorskip("cloudpickle")
    proc = subprocess.run([sys.executable, "-c", A_WORKER_DIES], capture_output=True,
                          text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("ChildProcessError: rollout: a worker process died "), \
        proc.stdout
    assert "Traceback" not in proc.stderr


def _silent_bar_makes_a_semaphore(_):
    """In a pool worker: make a silent progress bar, as a nested run does; whether tqdm's
    lock then holds a multiprocessing (named) semaphore."""
    import multiprocessing.synchronize as mps

    from tqdm.std import tqdm

    from nardy_fast._utils._progress import progress_bar
    progress_bar(total=1, desc="nested", progress=False).close()
    lock = tqdm.get_lock()
    return any(isinstance(k, mps.SemLock) for k in getattr(lock, "locks", [lock]))


def test_a_workers_silent_bar_makes_no_named_semaphore():
    """A worker killed on Ctrl-C cannot unlink a named semaphore: a bar made in it (a
    chunk that runs a nested rollout) must not make one, or the resource tracker reports
    it leaked when the command ends (train-rollouts on two workers did)."""
    got = {}
    assert not run_chunks(_silent_bar_makes_a_semaphore, list(range(4)), got.__setitem__,
                          sizes=[1] * 4, workers=2, progress=False)
    assert got == {i: False for i in range(4)}


@pytest.fixture(scope="module")
def dask_client():
    distributed = pytest.importorskip("distributed")
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                       dashboard_address=None)
    client = distributed.Client(cluster)
    yield client
    client.close()
    cluster.close()


@pytest.mark.slow
def test_dask_is_bit_identical(serial, dask_client):
    r = rollout(position(), N, policy="greedy", seed=2024, truncate=None, client=dask_client,
                progress=False, chunk_size=B)
    assert fields(r) == fields(serial)
    assert r.extra["backend"] == "dask"


@pytest.mark.slow
def test_dask_rollout_many_and_python_policy(dask_client):
    ps = [position(), position().swap()]
    kw = dict(n_games=2 * B, policy="random", seed=5, truncate=None, progress=False,
              chunk_size=B)
    local = rollout_many(ps, workers=1, **kw)
    remote = rollout_many(ps, client=dask_client, **kw)
    cols = [c for c in local.columns if not c.startswith("extra_")]
    assert local[cols].equals(remote[cols])
    # a Python policy travels to the Dask workers (cloudpickle)
    a = rollout(position(), 300, policy=lambda c, o: -np.arange(len(c)), seed=3,
                truncate=None, client=dask_client, progress=False)
    b = rollout(position(), 300, policy=lambda c, o: -np.arange(len(c)), seed=3,
                truncate=None, workers=1, progress=False)
    assert fields(a) == fields(b)


@pytest.mark.slow
@pytest.mark.parametrize("backend", ["pool", "dask"])
def test_ctrl_c_during_a_parallel_run_returns_a_valid_partial_result(backend, request,
                                                                     monkeypatch):
    """SIGINT while chunks run: finished chunks are kept, the rest cancelled.  The signal
    is sent as soon as the first chunk has been merged (no timing involved), so at least
    that chunk is in the result."""
    import importlib
    mod = importlib.import_module("nardy_fast.engine.play.rollout")
    kw = dict(client=request.getfixturevalue("dask_client")) if backend == "dask" \
        else dict(workers=2)
    running = threading.Event()
    merged = []
    add = mod._Merger.add

    def add_then_interrupt(self, result):
        add(self, result)
        merged.append(result[0])
        if len(merged) == 1:
            os.kill(os.getpid(), signal.SIGINT)

    def handler(signum, frame):          # only interrupt the rollout, never pytest itself
        if running.is_set():
            raise KeyboardInterrupt

    monkeypatch.setattr(mod._Merger, "add", add_then_interrupt)
    n = 400 * B
    old = signal.signal(signal.SIGINT, handler)
    try:
        running.set()
        r = rollout(position(), n, policy="random", seed=9, truncate=None, progress=False,
                    chunk_size=B, **kw)
    finally:
        running.clear()
        signal.signal(signal.SIGINT, old)
    assert r.extra["interrupted"] is True
    assert B <= r.games < n and r.games % B == 0
    assert r.games >= B * len(set(merged)) - B * (backend == "dask")
    assert r.p_win + r.p_lose == pytest.approx(1.0, abs=1e-12)    # tallied separately
    assert 0 < r.p_win < 1 and r.se_p_win > 0
    monkeypatch.undo()
    # the backend still works afterwards
    again = rollout(position(), 2 * B, policy="random", seed=9, truncate=None,
                    progress=False, chunk_size=B, **kw)
    assert again.games == 2 * B and again.extra["interrupted"] is False


@pytest.mark.slow
def test_a_dask_scheduler_lost_mid_run_is_an_error_naming_it(monkeypatch):
    """The scheduler gone while chunks run (its machine rebooted, its job ended): the
    client cancels every future, and the rollout raises a ``ConnectionError`` naming the
    scheduler and the chunks finished (it was Dask's ``FutureCancelledError``, a traceback
    from the command line).  The scheduler is closed as soon as the first chunk is merged
    (no timing involved)."""
    import contextlib
    import importlib
    distributed = pytest.importorskip("distributed")
    mod = importlib.import_module("nardy_fast.engine.play.rollout")
    cluster = distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                                       dashboard_address=None)
    client = distributed.Client(cluster)
    address = cluster.scheduler_address
    add = mod._Merger.add
    lost = []

    def add_then_lose_the_scheduler(self, result):
        add(self, result)
        if not lost:
            lost.append(True)
            cluster.sync(cluster.scheduler.close)

    monkeypatch.setattr(mod._Merger, "add", add_then_lose_the_scheduler)
    try:
        with pytest.raises(ConnectionError, match=rf"^Dask scheduler {address}: the work "
                                                  r"was cancelled after \d+ of 8 chunks"):
            rollout(position(), 8 * B, policy="random", seed=9, truncate=None,
                    progress=False, chunk_size=B, client=client)
    finally:
        client.close()
        with contextlib.suppress(TimeoutError):   # its scheduler is gone: do not wait 30 s
            cluster.close(timeout=2)
    assert lost


def test_killing_a_pool_whose_thread_is_stuck_returns(monkeypatch):
    """A worker killed while writing its result can leave the pool's manager thread in a
    read that never ends; ``_kill_pool`` must not wait for it beyond its bound (the
    command used to hang after Ctrl-C, about 1 in 20 at the start of a run)."""
    import threading
    from nardy_fast.engine.play import parallel
    stuck = threading.Event()

    class Queue:
        closed = False

        def close(self):
            Queue.closed = True

    class StuckPool:                   # what the pool offers _kill_pool, its thread stuck
        _processes = {}
        _result_queue = Queue()

        def __init__(self):
            self._executor_manager_thread = threading.Thread(target=stuck.wait, daemon=True)
            self._executor_manager_thread.start()

        def shutdown(self, wait=True, cancel_futures=False):
            if wait:                   # as concurrent.futures does: join the thread
                self._executor_manager_thread.join()

    monkeypatch.setattr(parallel, "KILL_WAIT_SECONDS", 0.2)
    monkeypatch.setitem(parallel._POOLS, 99, StuckPool())
    done = threading.Thread(target=parallel._kill_pool, args=(99,), daemon=True)
    done.start()
    done.join(timeout=10)
    stuck.set()
    assert not done.is_alive() and 99 not in parallel._POOLS
    assert not Queue.closed            # its thread still reading: the queue is left alone


def _signal_soon(signum, delay=0.3):
    timer = threading.Timer(delay, os.kill, args=(os.getpid(), signum))
    timer.start()
    return timer


def test_ctrl_c_while_waiting_for_chunks_is_raised_outside_the_lock_code():
    """Ctrl-C during ``_wait_first`` comes out of its own signal holding, never from inside
    ``threading``'s lock code (a KeyboardInterrupt there once left a condition half released
    and the command ended in ``RuntimeError: release unlocked lock``)."""
    import concurrent.futures as cf
    import traceback
    from nardy_fast.engine.play import parallel
    pending = [cf.Future()]                                  # never finishes
    before = signal.getsignal(signal.SIGINT)
    _signal_soon(signal.SIGINT)
    with pytest.raises(KeyboardInterrupt) as err:
        parallel._wait_first(pending)
    innermost = traceback.extract_tb(err.value.__traceback__)[-1]
    assert innermost.filename == parallel.__file__ and innermost.name == "_signals_held"
    assert signal.getsignal(signal.SIGINT) is before


def test_sigterm_while_waiting_reaches_the_previous_handler_once():
    import concurrent.futures as cf
    from nardy_fast.engine.play import parallel
    seen = []

    class Stop(KeyboardInterrupt):
        pass

    def on_term(signum, frame):
        seen.append(signum)
        raise Stop()

    previous = signal.signal(signal.SIGTERM, on_term)
    try:
        _signal_soon(signal.SIGTERM)
        with pytest.raises(Stop):
            parallel._wait_first([cf.Future()])
        assert seen == [signal.SIGTERM] and signal.getsignal(signal.SIGTERM) is on_term
    finally:
        signal.signal(signal.SIGTERM, previous)


def test_waiting_returns_the_finished_chunks():
    import concurrent.futures as cf
    from nardy_fast.engine.play import parallel
    a, b = cf.Future(), cf.Future()
    threading.Timer(0.5, b.set_result, args=(1,)).start()   # after a few polls
    assert parallel._wait_first([a, b]) == {b}
    other = threading.Thread(target=lambda: seen.append(parallel._wait_first([b])))
    seen = []
    other.start()
    other.join(timeout=10)
    assert seen == [{b}]                                     # another thread: a plain wait


def test_a_stuck_pools_semaphores_are_unlinked_and_untracked(monkeypatch):
    """With the manager thread stuck, the pool's queues are never collected; their named
    semaphores must still be unlinked and taken off the resource tracker's list, or the
    command's ``os._exit`` made the tracker warn of "5 leaked semaphore objects" (seen in
    the Ctrl-C test)."""
    import _multiprocessing
    import multiprocessing
    from multiprocessing import util
    from nardy_fast.engine.play import parallel
    ctx = multiprocessing.get_context("forkserver")
    stuck = threading.Event()

    class StuckPool:
        _processes = {}

        def __init__(self):
            self._call_queue = ctx.Queue(4)
            self._result_queue = ctx.SimpleQueue()
            self._executor_manager_thread = threading.Thread(target=stuck.wait, daemon=True)
            self._executor_manager_thread.start()

        def shutdown(self, wait=True, cancel_futures=False):
            pass

    pool = StuckPool()
    locks = [pool._call_queue._rlock, pool._call_queue._wlock, pool._call_queue._sem,
             pool._result_queue._rlock, pool._result_queue._wlock]
    names = [lock._semlock.name for lock in locks]
    assert all(names)
    monkeypatch.setattr(parallel, "KILL_WAIT_SECONDS", 0.1)
    monkeypatch.setitem(parallel._POOLS, 98, pool)
    parallel._kill_pool(98)
    stuck.set()
    for name in names:                           # unlinked already: a second unlink fails
        with pytest.raises(FileNotFoundError):
            _multiprocessing.sem_unlink(name)
    held = {id(lock) for lock in locks}
    assert not [f for f in util._finalizer_registry.values()
                if getattr(f, "_weakref", None) is not None and id(f._weakref()) in held]
    locks[0].acquire()                           # still usable by whoever holds them
    locks[0].release()


def test_ctrl_c_while_a_worker_starts_waits_for_the_start(monkeypatch):
    """A submit to the pool may start a worker process; Ctrl-C must not cut it in the
    middle (a worker forked but not yet known to the pool was left behind, and printed a
    traceback when the pool's queues were gone).  The run still stops as interrupted."""
    import concurrent.futures as cf
    from nardy_fast.engine.play import parallel
    calls = []

    class StartingPool:
        def submit(self, fn, spec):
            calls.append("started")
            signal.raise_signal(signal.SIGINT)      # Ctrl-C while the worker starts
            calls.append("finished")
            return cf.Future()

    monkeypatch.setattr(parallel, "_pool", lambda workers: StartingPool())
    monkeypatch.setattr(parallel, "_kill_pool", lambda workers: calls.append("killed"))
    before = signal.getsignal(signal.SIGINT)
    assert run_chunks(abs, [1, 2], lambda i, r: None, sizes=[1, 1], workers=2,
                      progress=False) is True
    assert calls == ["started", "finished", "started", "finished", "killed"]
    assert signal.getsignal(signal.SIGINT) is before


def test_a_second_ctrl_c_waits_for_the_pools_end(monkeypatch):
    """Ctrl-C again while the first one ends the pool: the pool is still ended (cut, its
    workers' semaphores were left, and the resource tracker warned of them), then the
    second interrupt comes out."""
    import concurrent.futures as cf
    from nardy_fast.engine.play import parallel
    calls = []

    class Pool:
        def submit(self, fn, spec):
            raise KeyboardInterrupt                  # the first Ctrl-C

    def kill(workers):
        calls.append("ending")
        signal.raise_signal(signal.SIGINT)           # the second
        calls.append("ended")

    monkeypatch.setattr(parallel, "_pool", lambda workers: Pool())
    monkeypatch.setattr(parallel, "_kill_pool", kill)
    with pytest.raises(KeyboardInterrupt):
        run_chunks(abs, [1, 2], lambda i, r: None, sizes=[1, 1], workers=2, progress=False)
    assert calls == ["ending", "ended"]


def _chunk_then_wait(i):
    import time
    if i:                                  # the later chunks are still running at Ctrl-C
        time.sleep(5)
    return i


@pytest.mark.slow
def test_a_second_ctrl_c_waits_for_the_dask_cancel():
    """Ctrl-C again while the first one cancels the Dask work (``timeout`` sends its
    signal twice, to the program and to its process group): it cut the cancel inside the
    Dask client's event-loop call, leaving the cluster running the chunks.  The cancel now
    ends first, as the pool's end does, then the second interrupt comes out."""
    distributed = pytest.importorskip("distributed")
    cluster = distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                                       dashboard_address=None)
    client = distributed.Client(cluster)
    calls, got = [], {}
    cancel = client.cancel

    def cancel_after_a_second_ctrl_c(futures, *args, **kwargs):
        calls.append("cancelling")
        signal.raise_signal(signal.SIGINT)           # the second
        cancel(futures, *args, **kwargs)
        calls.append("cancelled")

    client.cancel = cancel_after_a_second_ctrl_c
    try:
        timer = _signal_soon(signal.SIGINT, delay=1.5)   # the first, while chunks run
        with pytest.raises(KeyboardInterrupt):
            run_chunks(_chunk_then_wait, [0, 1, 2], got.__setitem__, sizes=[1] * 3,
                       client=client, progress=False)
        timer.join()
    finally:
        client.close()
        cluster.close()
    assert calls == ["cancelling", "cancelled"]
    assert got == {0: 0}


SEED_RULES = [nf.Rules(), nf.Rules(scoring="extended", head_rule="generalized"),
              nf.Rules(draw_rule=True, block_transient=True), nf.Rules(cube="geometric"),
              nf.Rules(cube="arithmetic", beaver=True)]
BACKEND_KEYS = ("chunk_size", "backend")


@settings(max_examples=8, deadline=None)
@given(st.data(), st.integers(0, 2 ** 63), st.sampled_from(SEED_RULES),
       st.sampled_from(["greedy", "random"]), st.sampled_from(["bearoff", None]),
       st.integers(1, 40) | st.integers(B + 1, B + 40), st.integers(1, 2 * B + 1))
def test_one_seed_one_result_whatever_the_chunks_and_workers(data, seed, rules, policy,
                                                             truncate, n, chunk_size):
    """A small rollout (a few games, or one block and a few) of a position of a game played
    under the rules: the same result (every field, the extra entries but the chunk size
    and the backend) in one chunk in this process as in chunks of any size, in this
    process or on two workers."""
    p = data.draw(game_positions(rules, phases=("middle", "bearoff")))
    assume(not p.is_over(rules))
    workers = data.draw(st.sampled_from([1, 2]))
    kw = dict(policy=policy, seed=seed, rules=rules, truncate=truncate, progress=False)
    one = rollout(p, n, workers=1, chunk_size=n, **kw).to_dict()
    got = rollout(p, n, workers=workers, chunk_size=chunk_size, **kw).to_dict()
    keys = [k for k in one if k.removeprefix("extra_") not in BACKEND_KEYS]
    assert got.keys() == one.keys()
    for k in keys:                    # a standard error of one game is NaN: not measured
        assert got[k] == one[k] or (got[k] != got[k] and one[k] != one[k]), k
