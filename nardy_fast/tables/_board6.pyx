"""The bear-off index, vectorised for Python (see ``_board6.pxd`` for the C-level API).

Inputs are validated by ``bearoff.py`` (``_checks.as_board6``).
"""
from libc.stdint cimport uint8_t

import numpy as np

__all__ = ["indices_of", "boards_of", "take_rows"]


def indices_of(const uint8_t[:, ::1] boards):
    """Indices of an (n, 6) uint8 array of validated boards: ndarray of intp, shape (n,)."""
    cdef Py_ssize_t n = boards.shape[0], i
    out = np.empty(n, dtype=np.intp)
    cdef Py_ssize_t[::1] o = out
    with nogil:
        for i in range(n):
            o[i] = board6_index(&boards[i, 0])
    return out


def boards_of(const Py_ssize_t[::1] idx):
    """Boards of validated indices: ndarray of uint8, shape (n, 6)."""
    cdef Py_ssize_t n = idx.shape[0], i
    out = np.empty((n, N_HOME), dtype=np.uint8)
    cdef uint8_t[:, ::1] o = out
    if n:
        with nogil:
            for i in range(n):
                board6_from_index(idx[i], &o[i, 0])
    return out


def take_rows(const double[::1] values, const uint8_t[:, ::1] boards):
    """values[index(board)] for each validated board: ndarray of float64, shape (n,)."""
    cdef Py_ssize_t n = boards.shape[0], i
    out = np.empty(n, dtype=np.float64)
    cdef double[::1] o = out
    with nogil:
        for i in range(n):
            o[i] = values[board6_index(&boards[i, 0])]
    return out
