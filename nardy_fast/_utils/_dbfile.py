"""The database file format of nardy_fast (bear-off tables and the like).

Layout (all integers little-endian)::

    bytes 0..7     magic  b"NARDYFDB"
    bytes 8..11    uint32 H, the length of the JSON header
    bytes 12..     the JSON header (UTF-8), zero-padded to a multiple of 64 bytes
    payload        the arrays, each starting at a multiple of 64 bytes from the payload
                   start, in C order, zero padding between them

The header holds ``format_version``, ``kind`` (e.g. ``"one_sided"``), ``meta`` (sizes, the
rules the tables depend on, the library version), ``arrays`` (name, dtype, shape, offset
and byte count of each) and ``payload_bytes`` and ``crc32`` (zlib's CRC-32 of the whole
payload, padding included).

``write_db`` (whole arrays) and ``DbWriter`` (arrays streamed in row blocks, for tables
larger than one wants to hold in memory at once) write to a temporary name in the target
folder and rename it into place, so an interrupted write never leaves a file that looks
valid (the temporary file of a writer that was killed is removed by the next write of the
same file); a file that would not fit on its disk is refused before it is written
(``OSError``, ``ENOSPC``, naming the folder).  ``read_db`` memory-maps the payload read-only after
checking the magic, version, kind, sizes, the array layout (each array where ``write_db``
puts it, nothing overlapping or left over) and checksum; any failure raises
``DatabaseError`` (a ``ValueError``) naming the file.
"""
from __future__ import annotations

import json
import math
import os
import struct
import tempfile
import zlib

import numpy as np

from nardy_fast._utils._io import atomic_write, check_path
from nardy_fast._utils._resources import check_disk, remove_stale_temps, temp_prefix

__all__ = ["DatabaseError", "DbWriter", "FORMAT_VERSION", "MAGIC", "read_db", "table_path",
           "write_db"]

MAGIC = b"NARDYFDB"
FORMAT_VERSION = 1
_ALIGN = 64
_CRC_BLOCK = 1 << 24


class DatabaseError(ValueError):
    """A database file is missing, truncated, corrupt, of the wrong kind or version."""


def table_path(path):
    """The path a table keeps of the file it was read from or written to: absolute (a
    pickled table is its path, read again where the working folder may differ), or
    None for a table of no file."""
    return None if path is None else os.path.abspath(path)


def _align(n):
    return (n + _ALIGN - 1) // _ALIGN * _ALIGN


def _crc(buffers):
    crc = 0
    for buf in buffers:
        mv = memoryview(buf).cast("B")
        for start in range(0, len(mv), _CRC_BLOCK):
            crc = zlib.crc32(mv[start:start + _CRC_BLOCK], crc)
    return crc


def write_db(path, kind, meta, arrays):
    """Write ``arrays`` (name -> ndarray) as a database of ``kind`` to ``path`` atomically.

    Parameters
    ----------
    path : str or os.PathLike
        Destination; its folder is created if needed.
    kind : str
        What the file holds, checked on load.
    meta : dict
        JSON-serialisable description (sizes, rules, ...), stored in the header.
    arrays : dict of str to ndarray
        Written in C order with their dtype and shape.
    """
    path = check_path(path)
    folder = os.path.dirname(os.path.abspath(path))
    os.makedirs(folder, exist_ok=True)
    specs, chunks, offset = [], [], 0
    for name, arr in arrays.items():
        arr = np.ascontiguousarray(arr)
        if arr.dtype.byteorder == ">":
            arr = arr.astype(arr.dtype.newbyteorder("<"))
        start = _align(offset)
        if start > offset:
            chunks.append(bytes(start - offset))
        specs.append({"name": name, "dtype": arr.dtype.str, "shape": list(arr.shape),
                      "offset": start, "nbytes": int(arr.nbytes)})
        chunks.append(arr)
        offset = start + arr.nbytes
    header = {"format_version": FORMAT_VERSION, "kind": kind, "meta": meta,
              "arrays": specs, "payload_bytes": offset, "crc32": _crc(chunks)}
    text = json.dumps(header, sort_keys=True).encode("utf-8")
    head = MAGIC + struct.pack("<I", len(text)) + text
    head += bytes(_align(len(head)) - len(head))
    remove_stale_temps(path)                     # left by a killed write of this file
    check_disk(folder, len(head) + offset)

    def write(tmp):
        with open(tmp, "wb") as f:
            f.write(head)
            for chunk in chunks:
                f.write(memoryview(chunk).cast("B") if isinstance(chunk, np.ndarray)
                        else chunk)
            f.flush()
            os.fsync(f.fileno())

    atomic_write(path, write)
    return path


class DbWriter:
    """Stream a database to ``path``: arrays declared up front, written in order in blocks.

    The file is built under a temporary name in the target folder; ``close()`` writes the
    header (with the CRC-32 of everything streamed) and renames it into place, ``abort()``
    (or leaving a ``with`` block by an exception) removes it.  The result is the same
    format as ``write_db`` (the JSON header is padded with spaces to the length reserved
    when the file was opened).

    Parameters
    ----------
    path : str or os.PathLike
    kind : str
    meta : dict
    specs : dict of str to (dtype, shape)
        The arrays, in file order.

    Examples
    --------
    >>> import numpy as np, os, tempfile
    >>> p = os.path.join(tempfile.mkdtemp(), "t.nfdb")
    >>> with DbWriter(p, "demo", {}, {"a": ("<f8", (3, 2))}) as w:
    ...     w.write("a", np.zeros((2, 2))); w.write("a", np.ones((1, 2)))
    >>> read_db(p, "demo")[1]["a"].tolist()
    [[0.0, 0.0], [0.0, 0.0], [1.0, 1.0]]
    """

    def __init__(self, path, kind, meta, specs):
        self.path = check_path(path)
        folder = os.path.dirname(os.path.abspath(self.path))
        os.makedirs(folder, exist_ok=True)
        self._specs, offset = [], 0
        for name, (dtype, shape) in specs.items():
            dtype = np.dtype(dtype).newbyteorder("<") if np.dtype(dtype).byteorder == ">" \
                else np.dtype(dtype)
            shape = tuple(int(s) for s in shape)
            nbytes = dtype.itemsize * int(np.prod(shape, dtype=np.int64))
            start = _align(offset)
            self._specs.append({"name": name, "dtype": dtype.str, "shape": list(shape),
                                "offset": start, "nbytes": nbytes})
            offset = start + nbytes
        self._header = {"format_version": FORMAT_VERSION, "kind": kind, "meta": meta,
                        "arrays": self._specs, "payload_bytes": offset, "crc32": 0}
        self._n = len(self._text(0xFFFFFFFF))          # the longest CRC text
        self._start = _align(12 + self._n)
        self._k = 0                                      # array being written
        self._done = 0                                   # its bytes written
        self._pos = 0                                    # payload bytes written
        self._crc = 0
        remove_stale_temps(self.path)
        check_disk(folder, self._start + offset)
        fd, self._tmp = tempfile.mkstemp(prefix=temp_prefix(self.path), suffix=".tmp",
                                         dir=folder)
        self._f = os.fdopen(fd, "wb")
        self._f.write(bytes(self._start))

    def _text(self, crc):
        self._header["crc32"] = crc
        return json.dumps(self._header, sort_keys=True).encode("utf-8")

    def _put(self, buf):
        self._f.write(buf)
        self._crc = zlib.crc32(buf, self._crc)
        self._pos += len(buf)

    def write(self, name, block):
        """Append ``block`` (whole rows of array ``name``, which must be the current one)."""
        while self._k < len(self._specs) and self._done == self._specs[self._k]["nbytes"]:
            self._k += 1
            self._done = 0
        if self._k >= len(self._specs) or self._specs[self._k]["name"] != name:
            expected = self._specs[self._k]["name"] if self._k < len(self._specs) else None
            raise ValueError(f"{self.path}: writing {name!r}, expected {expected!r}")
        spec = self._specs[self._k]
        block = np.ascontiguousarray(block, dtype=np.dtype(spec["dtype"]))
        if tuple(block.shape[1:]) != tuple(spec["shape"][1:]):
            raise ValueError(f"{self.path}: {name!r} rows of shape {block.shape[1:]}, "
                             f"expected {tuple(spec['shape'][1:])}")
        if self._done + block.nbytes > spec["nbytes"]:
            raise ValueError(f"{self.path}: more rows of {name!r} than declared")
        if self._done == 0 and spec["offset"] > self._pos:
            self._put(bytes(spec["offset"] - self._pos))
        mv = memoryview(block).cast("B")
        for start in range(0, len(mv), _CRC_BLOCK):
            self._put(mv[start:start + _CRC_BLOCK])
        self._done += block.nbytes

    def close(self):
        """Check that every array is complete, write the header and rename into place."""
        try:
            for k, spec in enumerate(self._specs):
                written = (spec["nbytes"] if k < self._k else
                           self._done if k == self._k else 0)
                if written != spec["nbytes"]:
                    raise ValueError(f"{self.path}: array {spec['name']!r} incomplete "
                                     f"({written} of {spec['nbytes']} bytes)")
            text = self._text(self._crc)
            text += b" " * (self._n - len(text))
            self._f.seek(0)
            self._f.write(MAGIC + struct.pack("<I", len(text)) + text)
            self._f.flush()
            os.fsync(self._f.fileno())
            self._f.close()
            os.chmod(self._tmp, 0o644)
            os.replace(self._tmp, self.path)
        except BaseException:
            self.abort()
            raise
        return self.path

    def abort(self):
        """Remove the temporary file (nothing is left at ``path``)."""
        try:
            self._f.close()
        except OSError:
            pass
        try:
            os.unlink(self._tmp)
        except OSError:
            pass

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc, tb):
        if exc_type is None:
            self.close()
        else:
            self.abort()
        return False


def read_header(path):
    """The JSON header of a database file and the payload offset: ``(header, offset)``."""
    path = check_path(path)
    try:
        size = os.path.getsize(path)
        with open(path, "rb") as f:
            start = f.read(12)
            if len(start) < 12 or start[:8] != MAGIC:
                raise DatabaseError(f"{path}: not a nardy_fast database (bad magic)")
            (n,) = struct.unpack("<I", start[8:])
            if 12 + n > size:
                raise DatabaseError(f"{path}: truncated header ({size} bytes, header "
                                    f"needs {12 + n})")
            text = f.read(n)
    except OSError as e:
        raise DatabaseError(f"{path}: cannot read database ({e.strerror or e})") from None
    try:
        header = json.loads(text.decode("utf-8"))
        if not isinstance(header, dict):
            raise ValueError("not an object")
    except ValueError as e:
        raise DatabaseError(f"{path}: corrupt header ({e})") from None
    return header, _align(12 + n)


def read_db(path, kind, verify=True):
    """Memory-map a database written by ``write_db``.

    Parameters
    ----------
    path : str or os.PathLike
    kind : str
        The expected kind; another kind raises ``DatabaseError``.
    verify : bool
        Check the payload's CRC-32 (reads the whole file once).

    Returns
    -------
    meta : dict
    arrays : dict of str to ndarray
        Read-only, C-contiguous views of the memory-mapped payload.
    """
    path = check_path(path)
    header, start = read_header(path)
    version = header.get("format_version")
    if version != FORMAT_VERSION:
        raise DatabaseError(f"{path}: format version {version!r}, this nardy_fast reads "
                            f"version {FORMAT_VERSION}; rebuild the database")
    if header.get("kind") != kind:
        raise DatabaseError(f"{path}: holds a {header.get('kind')!r} database, "
                            f"expected {kind!r}")
    try:
        nbytes = int(header["payload_bytes"])
        crc = int(header["crc32"])
        specs = list(header["arrays"])
        meta = dict(header.get("meta", {}))
    except (KeyError, TypeError, ValueError) as e:
        raise DatabaseError(f"{path}: corrupt header (missing or bad field {e})") from None
    size = os.path.getsize(path)
    if size < start + nbytes:
        raise DatabaseError(f"{path}: truncated: {size} bytes, expected {start + nbytes}")
    if size > start + nbytes:
        raise DatabaseError(f"{path}: {size - start - nbytes} unexpected bytes after "
                            f"the payload")
    raw = (np.memmap(path, dtype=np.uint8, mode="r", offset=start, shape=(nbytes,))
           if nbytes else np.zeros(0, np.uint8))
    if verify and _crc([raw]) != crc:
        raise DatabaseError(f"{path}: checksum mismatch: the payload is corrupt")
    arrays = {}
    end = 0                                  # the layout write_db uses, nothing else
    for spec in specs:
        try:
            dtype = np.dtype(spec["dtype"])
            shape = tuple(int(s) for s in spec["shape"])
            off, nb = int(spec["offset"]), int(spec["nbytes"])
            name = str(spec["name"])
        except (KeyError, TypeError, ValueError, SyntaxError) as e:
            # numpy parses a dtype string with a comma as Python: a SyntaxError
            raise DatabaseError(f"{path}: corrupt array description ({e})") from None
        if (dtype.hasobject or dtype.itemsize == 0 or min(shape, default=0) < 0
                or name in arrays):
            raise DatabaseError(f"{path}: array {name!r}: bad dtype, shape or name")
        if (nb != dtype.itemsize * math.prod(shape) or off != _align(end)
                or off + nb > nbytes):
            raise DatabaseError(f"{path}: array {name!r} does not fit the payload")
        arrays[name] = raw[off:off + nb].view(dtype).reshape(shape)
        end = off + nb
    if end != nbytes:
        raise DatabaseError(f"{path}: the arrays cover {end} of {nbytes} payload bytes")
    return meta, arrays
