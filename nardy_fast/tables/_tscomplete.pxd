# C-level API of the complete two-sided bear-off database (_tscomplete.pyx): the lookup of
# one pair in the memory-mapped 16-bit blocks, for C code (race tables) and the batched
# reader.
from libc.stdint cimport uint16_t

ctypedef struct complete_t:
    const uint16_t* v[16][16]    # block (p, q): side on roll of p checkers, opponent of q,
    const uint16_t* ml[16][16]   # opponent-major [q_local, p_local]; ml when p = 15,
    const uint16_t* mw[16][16]   # mw when q = 15, else NULL
    double off[16][16]           # v = off + scale * u
    double scale[16][16]
    Py_ssize_t start[17]         # first global index of each class (n_boards(k - 1))
    double lam                   # (mars - oin) / (2 oin)
    int max_checkers             # classes 0 .. max_checkers are present

# (P(win), P(mars win), P(mars loss)) of the side on roll with board index ia against ib
# (both of at most max_checkers checkers, trusted) into out[0:3].
cdef inline void complete_probs(const complete_t* t, Py_ssize_t ia, Py_ssize_t ib,
                                double* out) noexcept nogil:
    cdef int p = 0, q = 0
    while t.start[p + 1] <= ia:
        p += 1
    while t.start[q + 1] <= ib:
        q += 1
    cdef Py_ssize_t k = (ib - t.start[q]) * (t.start[p + 1] - t.start[p]) + ia - t.start[p]
    cdef double v = t.off[p][q] + t.scale[p][q] * t.v[p][q][k]
    cdef double mw = t.mw[p][q][k] * (1.0 / 65535.0) if t.mw[p][q] != NULL else 0.0
    cdef double ml = t.ml[p][q][k] * (1.0 / 65535.0) if t.ml[p][q] != NULL else 0.0
    cdef double w = v - t.lam * (mw - ml)
    out[0] = 0.0 if w < 0.0 else (1.0 if w > 1.0 else w)
    out[1] = mw if mw < out[0] else out[0]
    out[2] = ml if ml < 1.0 - out[0] else 1.0 - out[0]

cdef class Lookup:
    cdef complete_t t
    cdef object keep
