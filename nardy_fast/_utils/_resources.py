"""Room to build a database: memory and disk checks up front, clear errors for the cache
folder, and the clean-up of temporary files left by a build that was killed.

A build that would not fit in the memory available now (the machine's, and the room the
process's address-space limit, ``ulimit -v``, leaves it) is refused before it allocates
anything (``MemoryError`` with the figure it needs); a file that would not fit on its disk
is refused before it is written (``OSError`` ``ENOSPC`` naming the folder).  Errors
writing the cache folder (read-only, full, not a folder) name the folder and the variable
that chooses it, ``NARDY_FAST_DATA``.
"""
from __future__ import annotations

import contextlib
import errno
import glob
import os
import shutil
import socket

__all__ = ["available_memory", "address_space_left", "check_memory", "check_disk",
           "cache_errors", "temp_prefix", "remove_stale_temps", "gib"]

DATA_ENV = "NARDY_FAST_DATA"
SLACK = 64 << 20                 # bytes added to an estimate for the solvers' small arrays


def gib(n):
    """``n`` bytes as text: ``"1.7 GB"``, ``"34 MB"``, ``"2 kB"`` or ``"512 bytes"``
    (decimal units, as ``df`` and ``free -h`` near enough; never ``"0 MB"`` for a size
    that is not 0)."""
    if n >= 1e9:
        return f"{n / 1e9:.1f} GB"
    if n >= 1e6:
        return f"{n / 1e6:.0f} MB"
    if n >= 1e3:
        return f"{n / 1e3:.0f} kB"
    return f"{n:.0f} bytes"


def os_error(code, message):
    """An ``OSError`` with ``errno`` = ``code`` whose text is just ``message`` (no
    ``[Errno n]`` prefix: the message says what happened and what to do)."""
    e = OSError(message)
    e.errno = code                   # (with strerror set too, str() would add the prefix)
    return e


def _read(path):
    with open(path) as f:
        return f.read()


def address_space_left():
    """Bytes the process's address-space limit (``RLIMIT_AS``, ``ulimit -v``) leaves it
    to map, less what it maps already; None when there is no such limit."""
    try:
        import resource                           # POSIX only
        limit = resource.getrlimit(resource.RLIMIT_AS)[0]
    except (ImportError, AttributeError, ValueError, OSError):
        return None
    if limit == resource.RLIM_INFINITY or limit < 0:
        return None
    try:
        mapped = int(_read("/proc/self/statm").split()[0]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError, AttributeError):
        mapped = 0                                # unknown: the limit alone
    return max(0, limit - mapped)


def available_memory():
    """Bytes this process can still take: the kernel's ``MemAvailable``, capped by the
    cgroup memory limit when there is one and by the room the address-space limit
    leaves (``address_space_left``); None when unknown (no check is made then)."""
    room = None
    try:
        for line in _read("/proc/meminfo").splitlines():
            if line.startswith("MemAvailable:"):
                room = int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    try:
        limit = _read("/sys/fs/cgroup/memory.max").strip()
        if limit != "max":
            left = int(limit) - int(_read("/sys/fs/cgroup/memory.current"))
            room = left if room is None else min(room, left)
    except (OSError, ValueError):
        pass
    if room is None:
        try:
            room = os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
        except (AttributeError, ValueError, OSError):
            room = None
    left = address_space_left()
    if left is not None:
        room = left if room is None else min(room, left)
    return None if room is None else max(0, room)


def check_memory(need, what, hint):
    """Raise ``MemoryError`` when ``need`` bytes exceed the memory available now (the
    message says so when the address-space limit is what leaves too little)."""
    room = available_memory()
    if room is not None and need + SLACK > room:
        left = address_space_left()               # (read again: it moves a little)
        where = (" (the process's address-space limit, ulimit -v)"
                 if left is not None and left < room + SLACK else "")
        raise MemoryError(f"{what} needs about {gib(need + SLACK)} of memory and "
                          f"{gib(room)} is available{where}: {hint}")


def check_disk(folder, need):
    """Raise ``OSError(ENOSPC)`` naming ``folder`` when ``need`` bytes do not fit on its disk."""
    try:
        free = shutil.disk_usage(folder).free
    except OSError:
        return                                    # unknown: let the write tell
    if need > free:
        raise os_error(errno.ENOSPC, f"no space left in {folder}: the file needs "
                       f"{gib(need)}, {gib(free)} is free")


@contextlib.contextmanager
def cache_errors(folder):
    """Turn an ``OSError`` raised while building into the cache ``folder`` into one that
    names the folder and ``NARDY_FAST_DATA``."""
    try:
        yield
    except OSError as e:
        if e.errno == errno.ENOSPC:
            why = str(e.strerror or e)
            if folder not in why:
                why = f"no space left in {folder} ({why})"
            msg = (f"cannot save a database in the cache folder: {why}; free some space "
                   f"or set {DATA_ENV} to a folder with room")
        else:
            msg = (f"cannot write the database cache folder {folder} "
                   f"({e.strerror or e}); set {DATA_ENV} to a writable folder")
        raise os_error(e.errno, msg) from e


def temp_prefix(path):
    """Prefix of the temporary files written beside ``path``: they name the host and the
    process, so a later build can tell the files of a process that died."""
    return f".{os.path.basename(path)}.{socket.gethostname()}-{os.getpid()}."


def remove_stale_temps(path):
    """Remove the temporary files a killed build of ``path`` left (those of processes of
    this host that no longer run); returns how many were removed."""
    folder = os.path.dirname(os.path.abspath(path))
    host = socket.gethostname()
    removed = 0
    for tmp in glob.glob(os.path.join(glob.escape(folder),
                                      glob.escape(f".{os.path.basename(path)}.") + "*.tmp*")):
        tag = os.path.basename(tmp)[len(os.path.basename(path)) + 2:].split(".", 1)[0]
        owner, _, pid = tag.rpartition("-")
        if owner != host or not pid.isdigit() or _alive(int(pid)):
            continue
        try:
            os.unlink(tmp)
            removed += 1
        except OSError:
            pass
    return removed


def _alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:                               # EPERM: someone else's process
        return True
    return True
