"""The race value's decision for Python (``_racevalue.pxd``): which table values a race
position.  ``racevalue.race_table_value`` calls ``table_kind``, so the Python ``Outcome``
and the C loops (the search's leaves, the rollouts' truncation) decide by the same lines,
``race_table_kind``."""
from libc.stdint cimport uint8_t

import numpy as np

from nardy_fast.tables._race12 cimport Race12Tables

__all__ = ["table_kind", "HOMES", "RACE12"]

HOMES = RV_HOMES            # a race of both homes: the bear-off tables
RACE12 = RV_RACE12          # a race without contact the race12 database covers


def table_kind(me, opp, Race12Tables race12=None):
    """``RV_*`` code of the table that values (``me`` on roll, ``opp``: 24-point boards,
    each in its own numbering, neither side finished): ``HOMES``, ``RACE12`` (only when
    ``race12``, a ``_race12.Race12Tables``, is given and covers it) or 0 (none)."""
    cdef const uint8_t[::1] m = np.ascontiguousarray(me, dtype=np.uint8)
    cdef const uint8_t[::1] o = np.ascontiguousarray(opp, dtype=np.uint8)
    if m.shape[0] != 24 or o.shape[0] != 24:
        raise ValueError(f"table_kind: boards of {m.shape[0]} and {o.shape[0]} points, "
                         "expected 24")
    return race_table_kind(True, NULL if race12 is None else race12.c_tables(), &m[0], &o[0])
