"""Map work chunks over the calling process, a local process pool or a Dask cluster.

``run_chunks(fn, specs, on_result, ...)`` calls ``fn(spec)`` for every spec and hands each
result to ``on_result(i, result)`` in the calling process, in completion order (callers
that need a fixed merge order, like the rollouts, reorder by ``i``).  A ``tqdm`` bar counts
work units (games) per second.  Ctrl-C (``KeyboardInterrupt``) stops cleanly: chunks not
started are cancelled, those finished are still delivered, and ``run_chunks`` returns
``True`` ("interrupted") instead of raising.  An exception raised by ``fn`` cancels the
rest and propagates.  A pool worker that dies (SIGKILL, the out-of-memory killer) ends the
pool and raises a ``ChildProcessError`` saying so.

Local pools use the ``forkserver`` start method where available (``spawn`` elsewhere):
workers import the package afresh, never inherit the parent's threads, and ignore SIGINT
(the parent handles Ctrl-C).  One pool per worker count is kept for the life of the
process and shut down at exit.

Workers end when the process that made the pool dies, however it dies (SIGTERM of a job
scheduler, a notebook kernel's restart, SIGKILL): a dead parent runs no ``atexit``, so
the pool's own shutdown never comes, and a worker busy in a long chunk would otherwise
play its chunks out.  The guard that works everywhere is a daemon thread in each worker
that checks once a second (``WATCH_SECONDS``) that the pool's process is still alive and
ends the worker if not; the chunks' C loops release the GIL, so the thread runs while
they play.  A kernel signal alone would not do: ``prctl(PR_SET_PDEATHSIG)`` fires when the
worker's *parent* ends, and a forkserver worker's parent is the fork server, which
outlives the pool's process as long as the workers hold its pipe (measured: it does).  The
workers ask for it anyway (Linux, through ctypes): under the ``spawn`` start method the
parent is the pool's process itself, and then SIGKILL ends a worker even while it holds
the GIL.

Front ends
----------
Pool workers never run the caller's ``__main__`` (``multiprocessing`` would otherwise
re-run a script's top level in every worker, or fail on a script read from standard input
with a ``BrokenProcessPool``; ``_nomain`` says how, and why it must patch the standard
library).  So parallel runs work the same from a script with or
without an ``if __name__ == "__main__":`` guard, ``python -``, ``python -c``, the
interactive interpreter, IPython and Jupyter: the chunk functions live in this package.
Work that refers to objects defined in ``__main__`` (a callable policy typed into a
notebook, say), or to objects ``pickle`` cannot send by reference (lambdas, closures), is
sent by value with ``cloudpickle`` when it is installed (it comes with the ``dask``
extra); without it, the chunks run in the calling process, with a ``RuntimeWarning``
saying so.  Either way the results are the same: they never depend on where a chunk ran.
"""
from __future__ import annotations

import atexit
import concurrent.futures as cf
import contextlib
import ctypes
import gc
import itertools
import multiprocessing
import multiprocessing.context
import os
import pickle
import signal
import sys
import threading
import time
from collections.abc import Sequence

from nardy_fast.core._checks import check_count, usable_cores
from nardy_fast._utils._progress import progress_bar
from nardy_fast._utils._warn import warn_user
from nardy_fast.engine.play import _nomain
from nardy_fast.engine.play._nomain import WORKER_PREFIX

__all__ = ["run_chunks", "default_workers", "parallelism", "shutdown_pools", "unsendable"]

_POOLS = {}


def default_workers():
    """Usable local cores (the CPU affinity of this process where known)."""
    return usable_cores()


def parallelism(workers, client):
    """How many chunks can run at once (to size default chunks): the Dask cluster's
    threads, else ``workers`` (None: every usable core)."""
    if client is not None:
        try:
            return max(1, sum(client.nthreads().values()))
        except Exception:                 # a client without workers yet
            return 1
    return default_workers() if workers is None else check_count(workers, "workers", 1)


_PR_SET_PDEATHSIG = 1                     # linux/prctl.h
WATCH_SECONDS = 1.0                       # how often a worker checks its pool's process
KILL_WAIT_SECONDS = 10.0                  # _kill_pool's longest wait for the pool's thread
POLL_SECONDS = 0.2                        # _wait_first's longest wait between signal checks


def _worker_init(owner):
    """Run in each pool worker at start: ignore SIGINT and SIGTERM (a terminal's Ctrl-C and
    a job scheduler's stop reach the whole process group; the parent decides, keeping the
    finished chunks, and ends the workers), and die with ``owner`` (the pid of the process
    that made the pool; see the module docstring)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    _kill_me_with_my_parent()
    threading.Thread(target=_watch, args=(owner,), daemon=True,
                     name="nardy_fast-parent-watch").start()


def _kill_me_with_my_parent():
    """Linux: SIGKILL this process when its parent ends.  False where unavailable."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(_PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def _alive(pid):
    """True while the process ``pid`` exists (and is not a zombie, where that is known)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            return f.read().rsplit(b")", 1)[1].split()[0] != b"Z"
    except (OSError, IndexError):
        return True


def _watch(owner):
    while _alive(owner):
        time.sleep(WATCH_SECONDS)
    os._exit(1)


class _ForkServerWorker(multiprocessing.context.ForkServerProcess):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.name = f"{WORKER_PREFIX}-{self.name}"


class _SpawnWorker(multiprocessing.context.SpawnProcess):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.name = f"{WORKER_PREFIX}-{self.name}"


def _start_forkserver():
    """Start the fork server, if it is not running, with SIGINT and SIGTERM blocked: it
    keeps that mask, and so does every worker it forks, from the moment it exists.

    SIGTERM to the process group (a job scheduler's stop, ``timeout``) reaches the fork
    server and the workers too (and a terminal's Ctrl-C, SIGINT, the workers).  Without
    the mask it could kill the fork server, or a worker forked but not yet in
    ``_worker_init`` (which ignores SIGTERM), while the pool was starting; the command
    then hung with the fork server dead and no worker left (seen in a CI run of
    ``tests/frontends/test_interrupts.py``, and again by sending SIGTERM to the group
    within the first second of a two-worker rollout).  Blocking rather than ignoring, in
    this thread only, loses no signal meant for this process: one that comes meanwhile is
    delivered when the mask is restored."""
    if not hasattr(signal, "pthread_sigmask"):
        return
    # here, not at the top: POSIX-only modules, needed only where a fork server runs
    import multiprocessing.forkserver as forkserver
    import multiprocessing.resource_tracker as resource_tracker
    # the fork server starts the resource tracker first, which blocks and then *unblocks*
    # SIGTERM around its own start (the same guard, bpo-33613): start it before the mask
    resource_tracker.ensure_running()
    old = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})
    try:
        forkserver.ensure_running()
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


def _context():
    """A forkserver (else spawn) context whose processes do not run ``__main__``."""
    _nomain.install()
    if "forkserver" in multiprocessing.get_all_start_methods():
        _start_forkserver()
        ctx = multiprocessing.context.ForkServerContext()
        ctx.Process = _ForkServerWorker
    else:
        ctx = multiprocessing.context.SpawnContext()
        ctx.Process = _SpawnWorker
    return ctx


class _Sink:
    def write(self, b):
        return len(b)


class _MainFinder(pickle.Pickler):
    """Pickles to nowhere, noting the first function or class defined in ``__main__``."""

    found = None

    def reducer_override(self, obj):
        if (getattr(obj, "__module__", None) == "__main__" and callable(obj)
                and hasattr(obj, "__qualname__")):   # a function or a class
            if self.found is None:
                self.found = obj
            return (int, ())                     # stand-in: do not look it up
        return NotImplemented


def unsendable(obj):
    """Why worker processes could not receive ``obj`` by reference, or None if they can.

    Workers import this package and any module on ``sys.path``, never ``__main__``.

    Examples
    --------
    >>> unsendable(("greedy", 3)) is None
    True
    >>> unsendable(lambda x: x).startswith("it cannot be pickled")
    True
    """
    finder = _MainFinder(_Sink(), protocol=pickle.HIGHEST_PROTOCOL)
    try:
        finder.dump(obj)
    except Exception as e:                       # PicklingError, AttributeError, TypeError
        return f"it cannot be pickled ({type(e).__name__}: {e})"
    if finder.found is not None:
        return (f"{finder.found.__qualname__} is defined in __main__, which worker "
                "processes do not import")
    return None


def _by_value(fn, specs):
    """``(call, payloads)`` sending ``(fn, spec)`` with cloudpickle, or the remedy to name
    when it cannot: install cloudpickle, or (installed, but it fails too) its error."""
    try:                  # here: cloudpickle is optional (it comes with dask's extra)
        import cloudpickle
    except ImportError:
        return "install cloudpickle, or define it in an importable module, to use workers"
    try:
        cloudpickle.dumps((fn, specs[0]))         # the first now: an error, this path fails
    except Exception as e:
        return (f"cloudpickle cannot send it either ({type(e).__name__}: {e}); make it "
                "picklable, or define it in an importable module, to use workers")
    return _call_by_value, _Pickled(fn, specs, cloudpickle.dumps)


class _Pickled(Sequence):
    """``dumps((fn, specs[i]))`` made when read (a huge run's chunks are never all made)."""

    def __init__(self, fn, specs, dumps):
        self.fn, self.specs, self.dumps = fn, specs, dumps

    def __len__(self):
        return len(self.specs)

    def __getitem__(self, i):
        return self.dumps((self.fn, self.specs[i]))


def _call_by_value(payload):
    fn, spec = pickle.loads(payload)             # cloudpickle output loads with pickle
    return fn(spec)


def _pool(workers):
    pool = _POOLS.get(workers)
    if pool is None:
        try:
            pool = cf.ProcessPoolExecutor(max_workers=workers, mp_context=_context(),
                                          initializer=_worker_init,
                                          initargs=(os.getpid(),))
        except OverflowError as e:        # its queue's semaphore counts in a C int
            raise ValueError(f"workers={workers}: more worker processes than a process "
                             f"pool can hold ({e})") from None
        _POOLS[workers] = pool
    return pool


def _kill_pool(workers):
    """Drop the pool and end its workers now (Ctrl-C, SIGTERM): the chunks they are playing
    would be thrown away, and the interpreter's exit would wait for them (seconds to
    minutes on a loaded machine) before the command could return.  The workers ignore
    SIGTERM, so they get SIGKILL; then the pool is shut down and its queues closed, which
    unlinks their named semaphores (else the resource tracker reports them leaked when a
    command leaves at once with ``os._exit``)."""
    pool = _POOLS.pop(workers, None)
    if pool is None:
        return
    procs = list((getattr(pool, "_processes", None) or {}).values())
    for proc in procs:
        if proc.is_alive():
            proc.kill()
    for proc in procs:
        proc.join(timeout=5)
    # ``shutdown(wait=True)``, with a bound: its manager thread normally sees the workers
    # gone and ends at once, and then the queues are closed.  A worker killed while
    # writing a result can leave part of a message in the result pipe, and the manager
    # thread then waits in its read for ever (a faulthandler dump of a Ctrl-C that hung,
    # about 1 in 20 at the start of a two-worker rollout); the caller goes on after
    # ``KILL_WAIT_SECONDS`` instead (the command leaves with ``os._exit``).
    thread = getattr(pool, "_executor_manager_thread", None)
    results = getattr(pool, "_result_queue", None)
    calls = getattr(pool, "_call_queue", None)
    pool.shutdown(wait=False)
    if thread is not None:
        thread.join(timeout=KILL_WAIT_SECONDS)
    if thread is None or not thread.is_alive():
        if results is not None:
            results.close()
    else:            # the thread keeps both queues alive: their semaphores' names go now
        _unlink_semaphores(calls, results)
    del pool, procs, thread, results, calls
    gc.collect()          # the pool's queues, in reference cycles: their finalizers run


def _unlink_semaphores(*queues):
    """Run now the finalizers that unlink the named semaphores of ``queues`` (their
    locks, and a ``Queue``'s count) and take them off the resource tracker's list, as the
    queues' garbage collection would.  For a pool whose manager thread stays stuck
    (``_kill_pool``): it holds the queues, so they are never collected, and a command
    leaving by ``os._exit`` then made the resource tracker warn of "5 leaked semaphore
    objects" (3 of the call queue, 2 of the result queue).  A semaphore in use keeps
    working after its name is unlinked.  Each finalizer runs once, here or never again."""
    from multiprocessing import util     # here: only a stuck pool needs its registry
    locks = {id(lock) for q in queues if q is not None
             for lock in (getattr(q, n, None) for n in ("_rlock", "_wlock", "_sem"))
             if lock is not None}
    for finalizer in list(util._finalizer_registry.values()):
        ref = getattr(finalizer, "_weakref", None)
        if ref is not None and id(ref()) in locks:
            finalizer()


def shutdown_pools():
    """Shut down the cached local process pools (also done at interpreter exit)."""
    for workers in list(_POOLS):
        pool = _POOLS.pop(workers)
        pool.shutdown(wait=True, cancel_futures=True)


atexit.register(shutdown_pools)


def kill_pools():
    """End the cached local process pools now, their workers killed (``_kill_pool``), for
    a program that leaves with ``os._exit`` (an interrupted command): that exit runs no
    ``atexit``, and the named semaphores of a pool left open were reported by the
    resource tracker as "leaked semaphore objects" (a pool idle after its rollouts, when
    Ctrl-C came while the files were written)."""
    with _signals_held():
        for workers in list(_POOLS):
            _kill_pool(workers)


def run_chunks(fn, specs, on_result, *, sizes, workers=None, client=None, progress=None,
               desc="rollout"):
    """Run ``fn`` on every spec; deliver results through ``on_result(i, result)``.

    Parameters
    ----------
    fn : callable
        A module-level function (it is pickled by reference for worker processes).
    specs : sequence
        One picklable argument per chunk (a list, or a lazy sequence that makes each when
        read: only the chunks in flight are held).  If ``fn`` or a spec refers to something
        defined in ``__main__`` or not picklable by reference, the chunks go to the
        workers with cloudpickle, or without it run in this process with a
        ``RuntimeWarning`` (see the module docstring).
    on_result : callable
        ``on_result(i, result)``, called in this process once per finished chunk.
    sizes : sequence of int
        Work units per chunk (games), for the progress bar; a lazy sequence may give
        their sum as ``sizes.total``.
    workers : int or None
        ``1``: run in this process.  ``None``: all local cores (in this process when there
        is a single chunk).  ``n > 1``: a pool of ``n`` processes.
    client : dask.distributed.Client or None
        Run the chunks as Dask tasks instead (``workers`` is then ignored).
    progress : bool or None
        A bar with the rate in units per second: True, False or None (when standard
        error is a terminal; ``core._progress``).

    Returns
    -------
    bool
        ``True`` if interrupted by Ctrl-C (the finished chunks were still delivered).

    Raises
    ------
    ChildProcessError
        A pool worker died in the middle of the run (``"<desc>: a worker process died
        after k of n chunks had finished ..."``); the chunks finished were delivered.
    """
    total = getattr(sizes, "total", None)          # a lazy sequence's sum, else summed
    bar = progress_bar(total=sum(sizes) if total is None else total, desc=desc, unit="game", unit_scale=True,
                       smoothing=0.1, progress=progress)
    try:
        if client is not None:
            return _run_dask(fn, specs, on_result, sizes, client, bar)
        n_workers = default_workers() if workers is None else workers
        if n_workers == 1 or len(specs) <= 1:
            return _run_here(fn, specs, on_result, sizes, bar)
        problem = unsendable((fn, specs))
        if problem is not None:
            sent = _by_value(fn, specs)
            if isinstance(sent, str):
                warn_user(f"running {len(specs)} chunks in this process, not on "
                          f"{n_workers} workers: {problem} ({sent})", RuntimeWarning)
                return _run_here(fn, specs, on_result, sizes, bar)
            fn, specs = sent
        return _run_pool(fn, specs, on_result, sizes, n_workers, bar,
                         desc)                                  # one pool per size
    finally:
        bar.close()


def _run_here(fn, specs, on_result, sizes, bar):
    try:                        # Ctrl-C may land between chunks too (in on_result, say)
        for i, spec in enumerate(specs):
            on_result(i, fn(spec))
            bar.update(sizes[i])
    except KeyboardInterrupt:
        return True
    return False


def _run_pool(fn, specs, on_result, sizes, workers, bar, desc):
    pool = _pool(workers)
    futures = {}
    finished = 0                           # chunks delivered
    todo = iter(enumerate(specs))
    in_flight = 4 * workers                # bounded: huge runs do not queue every chunk

    def submit(k):
        # a submit may start a worker: Ctrl-C in the middle left a process forked but
        # unknown to the pool, which then printed a traceback when its queues were gone
        with _signals_held():
            for i, spec in itertools.islice(todo, k):
                futures[pool.submit(fn, spec)] = i

    try:
        submit(in_flight)
        while futures:
            done = _wait_first(list(futures))
            for fut in sorted(done, key=futures.get):
                i = futures.pop(fut)
                on_result(i, fut.result())
                finished += 1
                bar.update(sizes[i])
            submit(len(done))
        return False
    except KeyboardInterrupt:
        # no future is cancelled here: the pool's manager thread fails the unfinished ones
        # when its workers are killed, and a cancelled one there raises InvalidStateError
        # in that thread (Python 3.11), leaving the pool's queues and semaphores open.
        # A second Ctrl-C waits for the pool's end (cut, it left the pool's semaphores)
        with _signals_held():
            for fut in sorted(futures, key=futures.get):
                if fut.done() and not fut.cancelled() and fut.exception() is None:
                    on_result(futures[fut], fut.result())
            _kill_pool(workers)      # unfinished chunks are dropped: no need to wait
        return True
    except BaseException as e:
        for fut in futures:
            fut.cancel()
        if (isinstance(e, cf.process.BrokenProcessPool)
                or isinstance(_first_exception(futures), cf.process.BrokenProcessPool)):
            # a worker died (SIGKILL, the out-of-memory killer): the pool's own cleanup
            # sends the others SIGTERM, which they ignore, and the program's exit then
            # waited for them for ever; they are killed instead
            with _signals_held():
                _kill_pool(workers)
        if isinstance(e, cf.process.BrokenProcessPool):
            raise ChildProcessError(
                f"{desc}: a worker process died after {finished} of {len(specs)} chunks "
                "had finished (killed by a signal, or out of memory?); the run stopped "
                "there") from None
        raise


def _wait_first(futures):
    """``cf.wait(futures, return_when=FIRST_COMPLETED)``'s done set, with Ctrl-C and
    SIGTERM taken between waits rather than inside them.

    ``cf.wait`` waits on a ``threading.Condition``, and a ``KeyboardInterrupt`` raised by
    the signal handler inside the condition's lock code can leave it half released: the
    unwinding then raises ``RuntimeError: release unlocked lock`` in place of the
    interrupt, and the command printed a traceback instead of its partial result (seen
    once in about 160 Ctrl-Cs at the start of a two-worker rollout).  So the two signals
    are held (``_signals_held``) while ``cf.wait`` runs (for at most ``POLL_SECONDS`` at
    a time), and handled here, outside any lock."""
    if threading.current_thread() is not threading.main_thread():
        return cf.wait(futures, return_when=cf.FIRST_COMPLETED)[0]
    with _signals_held() as held:
        done = set()
        while not done and not held:
            done = cf.wait(futures, timeout=POLL_SECONDS, return_when=cf.FIRST_COMPLETED)[0]
    return done


@contextlib.contextmanager
def _signals_held():
    """Hold Ctrl-C and SIGTERM while the block runs: in the main thread, the two signals'
    handlers only note the signal (the block sees the list of those noted); at the end of
    the block the previous handlers are put back and called with the noted signals, outside
    the block.  A signal whose handler was not set from Python is left alone, and so is
    every signal in another thread (signals reach the main thread only)."""
    held = []
    if threading.current_thread() is not threading.main_thread():
        yield held
        return

    def hold(signum, frame):
        held.append((signum, frame))

    previous = {}
    for signum in (signal.SIGINT, signal.SIGTERM):
        handler = signal.getsignal(signum)
        if handler is not None:
            previous[signum] = signal.signal(signum, hold)
    try:
        yield held
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
    for signum, frame in held:
        handler = previous[signum]
        if callable(handler):
            handler(signum, frame)                  # KeyboardInterrupt, as a rule
        elif handler == signal.SIG_DFL:
            signal.raise_signal(signum)


def _first_exception(futures):
    for fut in futures:
        if fut.done() and not fut.cancelled() and fut.exception() is not None:
            return fut.exception()
    return None


def _run_dask(fn, specs, on_result, sizes, client, bar):
    from distributed import as_completed   # lazy: dask is optional (a cluster run)
    futures = client.map(fn, specs, pure=False)
    index = {fut.key: i for i, fut in enumerate(futures)}
    consumed = set()
    try:
        for fut in as_completed(futures):
            i = index[fut.key]
            on_result(i, fut.result())
            consumed.add(i)
            bar.update(sizes[i])
        return False
    except KeyboardInterrupt:
        # a second Ctrl-C waits for the cancel (cut, it left the cluster running the
        # chunks) and the finished chunks, as on the pool; then it comes out
        with _signals_held():
            client.cancel([f for f in futures if f.status == "pending"])
            for i, fut in enumerate(futures):
                if i not in consumed and fut.status == "finished":
                    on_result(i, fut.result())
        return True
    except cf.CancelledError as e:
        # the client lost its scheduler (it cancels every future: "scheduler-connection-
        # lost"), or another client cancelled the work: said in one line, not a traceback
        raise ConnectionError(
            f"Dask scheduler {_scheduler_address(client)}: the work was cancelled after "
            f"{len(consumed)} of {len(futures)} chunks ({_first_line(e)})") from None
    except BaseException:
        client.cancel(futures)
        raise


def _first_line(error):
    """A Dask cancellation's own words (its ``msg``, else its text), on one line."""
    text = getattr(error, "msg", None) or str(error) or type(error).__name__
    return " ".join(text.split())


def _scheduler_address(client):
    """The address of ``client``'s scheduler, for messages (``"?"`` if it has none)."""
    return getattr(getattr(client, "scheduler", None), "address", None) or "?"
