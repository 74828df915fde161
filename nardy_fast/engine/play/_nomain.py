"""Keep the pool's worker processes from running the caller's ``__main__``: the one patch
of the standard library in the package, isolated here.

Why a patch: with the ``spawn`` and ``forkserver`` start methods, what a new process learns
about its parent comes from ``multiprocessing.spawn.get_preparation_data(name)``, and that
includes the path or module name of ``__main__``, which the child imports before it runs
any work (so a script without an ``if __name__ == "__main__":`` guard runs again in every
worker, and a script read from standard input breaks the pool).  ``multiprocessing`` has
no option to leave it out: ``set_executable``, ``set_forkserver_preload``, the pool's
``initializer`` and the ``Process`` subclass hooks all act after ``__main__`` is imported,
and the ``fork`` start method, which skips the import, is unsafe in a process with
threads (and no longer the default from Python 3.14).  So ``install()`` wraps
``get_preparation_data`` once, and the wrapper changes the data of processes named
``WORKER_PREFIX...`` only: every other process of the program is served exactly as
before.  ``tests/frontends/test_parallel_frontends.py`` runs pools from scripts, ``python -``,
``python -c``, the interpreter, IPython and Jupyter on the Python that runs the tests
(CPython 3.11 on this project's machines); ``test_the_hook_is_still_there`` fails first
if a new Python renames or reshapes the hook.
"""
import multiprocessing.spawn

__all__ = ["WORKER_PREFIX", "install"]

# Worker processes are named with this prefix (``parallel._context``).
WORKER_PREFIX = "nardy_fast-worker"

_ORIGINAL = multiprocessing.spawn.get_preparation_data


def _preparation_data(name):
    data = _ORIGINAL(name)
    if str(name).startswith(WORKER_PREFIX):
        data.pop("init_main_from_path", None)
        data.pop("init_main_from_name", None)
    return data


def install():
    """Wrap ``multiprocessing.spawn.get_preparation_data`` (idempotent)."""
    if multiprocessing.spawn.get_preparation_data is not _preparation_data:
        multiprocessing.spawn.get_preparation_data = _preparation_data
