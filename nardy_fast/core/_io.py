"""Atomic file output: write to a temporary name in the target folder, then rename.

An interrupted write never leaves a file that looks complete under the final name; the
temporary name records the host and process (``_resources.temp_prefix``) so that the file
of a killed process can be cleaned up later (``_resources.remove_stale_temps``).
"""
import os
import tempfile

from nardy_fast.core._resources import temp_prefix

__all__ = ["atomic_write", "atomic_write_text"]


def atomic_write(path, write, mode=0o644):
    """Call ``write(tmp_path)`` on a temporary file beside ``path``, then ``os.replace`` it.

    The folder is created if needed; the temporary file is removed if ``write`` fails (or
    is interrupted).  ``mode`` sets the permissions (``mkstemp`` makes files private).
    Returns ``path`` as a string.
    """
    path = os.fspath(path)
    folder = os.path.dirname(os.path.abspath(path))
    os.makedirs(folder, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=temp_prefix(path),
                               suffix=".tmp" + os.path.splitext(path)[1], dir=folder)
    os.close(fd)
    try:
        write(tmp)
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    return path


def atomic_write_text(path, text):
    """Write ``text`` (UTF-8) to ``path`` atomically; returns ``path``."""
    def write(tmp):
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(text)
    return atomic_write(path, write)
