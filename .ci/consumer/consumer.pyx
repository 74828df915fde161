# cython: language_level=3
# A Cython module using nardy_fast's C API (nardy_fast/__init__.pxd) from an installed wheel.
from libc.stdint cimport uint8_t
from nardy_fast cimport gen_successors, rules_t, fill_rules, DEFAULT_CAP, N_POINTS
import numpy as np


def results(const uint8_t[::1] mover, const uint8_t[::1] opponent, int d1, int d2):
    cdef rules_t r
    fill_rules(None, &r)
    out = np.empty((DEFAULT_CAP, N_POINTS), np.uint8)
    cdef uint8_t[:, ::1] o = out
    cdef Py_ssize_t n
    with nogil:
        n = gen_successors(&mover[0], &opponent[0], d1, d2, &r, &o[0, 0], NULL, DEFAULT_CAP)
    return out[:n].copy()
