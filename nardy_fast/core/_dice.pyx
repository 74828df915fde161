"""The 21 distinct rolls and their probabilities, read from the C roll table.

``_dice.pxd`` declares the table for C (``src/nf_binom.h``: ``NF_ROLL_D1``, ``NF_ROLL_D2``,
``NF_ROLL_P``); this module gives Python the same rolls in the same order, so a list of
per-roll values from C lines up with ``ROLLS``:

- ``ROLLS``: tuple of the 21 rolls ``(d1, d2)``, ``d1 <= d2``: 1-1, 1-2, ..., 1-6, 2-2, ...,
  6-6;
- ``COUNTS``: tuple of int, each roll's share of the 36 ordered dice pairs (1 for a double,
  2 otherwise; they sum to 36);
- ``WEIGHTS``: ndarray of float64, shape (21,), each roll's probability ``COUNTS / 36``
  (the C table's doubles; they sum to 1).
"""
import numpy as np

from nardy_fast.core._dice cimport N_ROLLS, NF_ROLL_D1, NF_ROLL_D2, NF_ROLL_P

__all__ = ["ROLLS", "COUNTS", "WEIGHTS"]

ROLLS = tuple((NF_ROLL_D1[r], NF_ROLL_D2[r]) for r in range(N_ROLLS))
COUNTS = tuple(int(round(36.0 * NF_ROLL_P[r])) for r in range(N_ROLLS))
WEIGHTS = np.array([NF_ROLL_P[r] for r in range(N_ROLLS)], dtype=np.float64)
WEIGHTS.flags.writeable = False
