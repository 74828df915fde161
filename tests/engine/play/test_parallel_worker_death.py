"""Pool workers end when the process that made the pool dies, however it dies.

A Python process rolls out with ``workers=2`` and prints its workers' process IDs; the
test kills it with SIGTERM (a job scheduler's stop: no ``atexit`` runs) or SIGKILL and
checks that both workers are gone soon after, instead of playing their chunks out.
"""
import os
import signal
import subprocess
import sys
import time

import pytest

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"),
                                reason="reads /proc to find the workers")

PARENT = r"""
import sys, threading, time
from nardy_fast import Position
from nardy_fast.engine.play import parallel
from nardy_fast.engine.play.rollout import rollout

threading.Thread(target=lambda: rollout(Position.initial(), 10_000_000, policy="random",
                                        seed=1, workers=2, progress=False,
                                        truncate=None), daemon=True).start()
for _ in range(1200):
    pools = list(parallel._POOLS.values())
    procs = pools and pools[0]._processes
    if procs and len(procs) == 2:
        print(" ".join(str(p) for p in procs), flush=True)
        break
    time.sleep(0.1)
time.sleep(3600)
"""


def _running(pid):
    """The process exists and is not a zombie."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            state = f.read().rsplit(b")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != b"Z"


@pytest.mark.slow
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGKILL])
def test_workers_end_with_their_parent(sig):
    parent = subprocess.Popen([sys.executable, "-c", PARENT], stdout=subprocess.PIPE,
                              text=True)
    workers = []
    try:
        line = parent.stdout.readline()            # the pool is up, its chunks running
        workers = [int(p) for p in line.split()]
        assert len(workers) == 2, line
        time.sleep(1.0)
        assert all(_running(w) for w in workers)   # busy, not finished: 10 million games
        parent.send_signal(sig)
        parent.wait(timeout=60)
        deadline = time.monotonic() + 30           # generous: a loaded machine
        while any(_running(w) for w in workers) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert not [w for w in workers if _running(w)], "workers outlived their parent"
    finally:
        if parent.poll() is None:
            parent.kill()
            parent.wait()
        for w in workers:                          # never leave a busy worker behind
            if _running(w):
                os.kill(w, signal.SIGKILL)


MASKS = r"""
import multiprocessing.forkserver as fs
from nardy_fast import Position
from nardy_fast.engine.play import parallel
from nardy_fast.engine.play.rollout import rollout

rollout(Position.initial(), 2000, policy="random", seed=1, workers=2, progress=False)
print(fs._forkserver._forkserver_pid, *parallel._POOLS[2]._processes, flush=True)
"""


def _sigterm_held(pid):
    """SIGTERM blocked or ignored in process ``pid`` (its /proc status masks)."""
    with open(f"/proc/{pid}/status") as f:
        fields = dict(line.split(":", 1) for line in f if ":" in line)
    bit = 1 << (signal.SIGTERM - 1)
    return bool((int(fields["SigBlk"], 16) | int(fields["SigIgn"], 16)) & bit)


def test_the_fork_server_and_its_workers_hold_sigterm_from_the_start():
    """SIGTERM to the process group must not kill the fork server, nor a worker forked
    but not yet in its initializer, while a pool starts (the command then hung instead of
    exiting 143): the fork server starts with SIGTERM blocked, and its workers inherit
    that.  A fresh interpreter, so that the package starts the fork server."""
    proc = subprocess.Popen([sys.executable, "-c", MASKS + "import time; time.sleep(60)"],
                            stdout=subprocess.PIPE, text=True)
    try:
        pids = [int(p) for p in proc.stdout.readline().split()]
        assert len(pids) == 3
        server, workers = pids[0], pids[1:]
        with open(f"/proc/{server}/status") as f:
            blocked = int(next(l for l in f if l.startswith("SigBlk")).split()[1], 16)
        for sig in (signal.SIGTERM, signal.SIGINT):           # blocked, not just ignored
            assert blocked & (1 << (sig - 1)), sig
        assert all(_sigterm_held(w) for w in workers)
        assert not _sigterm_held(proc.pid)                    # the command's own is back
    finally:
        proc.kill()
        proc.wait()
