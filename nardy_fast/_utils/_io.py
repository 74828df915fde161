"""Atomic file output: write to a temporary name in the target folder, then rename.

An interrupted write never leaves a file that looks complete under the final name; the
temporary name records the host and process (``_resources.temp_prefix``) so that the file
of a killed process can be cleaned up later (``_resources.remove_stale_temps``).
"""
import errno
import os
import tempfile

from nardy_fast._utils._resources import temp_prefix

__all__ = ["atomic_write", "atomic_write_text", "check_path"]


def check_path(path, name="path"):
    """``os.fspath(path)``: a file's path as text, else a ``TypeError`` naming ``name``
    (``path: expected a file path (str or os.PathLike), got NoneType``).

    Returns
    -------
    str
        (``bytes`` for a bytes path, as ``os.fspath``.)

    Raises
    ------
    TypeError
        ``path`` is not a str, bytes or os.PathLike.
    """
    try:
        return os.fspath(path)
    except TypeError:
        raise TypeError(f"{name}: expected a file path (str or os.PathLike), got "
                        f"{type(path).__name__}") from None


def atomic_write(path, write, mode=0o644, replace=True):
    """Call ``write(tmp_path)`` on a temporary file beside ``path``, then ``os.replace`` it.

    The folder is created if needed; the temporary file is removed if ``write`` fails (or
    is interrupted).  ``mode`` sets the permissions (``mkstemp`` makes files private).
    ``replace=False`` never replaces a file: the complete file is linked to ``path`` (one
    step that fails when ``path`` exists), ``FileExistsError`` if it does.  Returns
    ``path`` as a string; ``TypeError`` (``check_path``) if it is no path.
    """
    path = check_path(path)
    if os.path.isdir(path):                  # before the work, and named as given
        raise IsADirectoryError(errno.EISDIR, "a folder, not a file", path)
    folder = os.path.dirname(os.path.abspath(path))
    os.makedirs(folder, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=temp_prefix(path),
                               suffix=".tmp" + os.path.splitext(path)[1], dir=folder)
    os.close(fd)
    try:
        write(tmp)
        os.chmod(tmp, mode)
        if replace:
            os.replace(tmp, path)
        else:
            _link_new(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    return path


def _link_new(tmp, path):
    """Give the complete file ``tmp`` the new name ``path`` (``FileExistsError`` when a
    file has it), then drop ``tmp``.  Where the file system has no hard links, ``path``
    is first created empty and exclusively, then replaced by ``tmp``."""
    try:
        os.link(tmp, path)
    except FileExistsError:
        # named as given, not by the temporary file (removed by the caller)
        raise FileExistsError(errno.EEXIST, "a file is there already; replace=True "
                              "replaces it", path) from None
    except OSError:                               # no hard links here (FAT, some shares)
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644))
        os.replace(tmp, path)
        return
    os.unlink(tmp)


def atomic_write_text(path, text, replace=True):
    """Write ``text`` (UTF-8) to ``path`` atomically; returns ``path``.  ``replace=False``:
    ``FileExistsError`` rather than replace a file (``atomic_write``)."""
    def write(tmp):
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(text)
    return atomic_write(path, write, replace=replace)
