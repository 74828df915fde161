"""The luck net's reader: the shipped net that gives cheap per-roll values for the luck of
0-ply rollouts (training: ``nardy_fast.training.lucknet``).

The exact luck of a roll (``nardy_fast.engine.play.luck``) needs the evaluator's value after the
roller's best 0-ply move for each of the 21 rolls: 21 move choices, about 20 times the
cost of the turn itself.  The luck net (``_lucknet.LuckNet``) predicts those ``21 x 7``
values from the position before the roll with one small perceptron evaluation.  Any
per-roll function gives an unbiased luck (``nardy_fast.engine.play.variance``), so the
prediction error only costs variance, never bias.

Middle layers (``middle``) let a wide first layer predict much better at little more
cost: each adds only the rows of the units active before it (``src/nf_luck.h``).

Rollouts under other rules or with another evaluator may use the same net: the luck stays
unbiased, and removes less variance the further the play is from the one it learnt.
"""
from __future__ import annotations

import os

from nardy_fast._utils import _dbfile
from nardy_fast.engine.evaluation.nets import DATA
from nardy_fast.engine.play._lucknet import LuckNet

__all__ = ["LuckNet", "DEFAULT_LUCK_NET", "KIND", "save_luck_net", "load_luck_net",
           "default_luck_net"]

KIND = "luck_net"
DEFAULT_LUCK_NET = os.path.join(DATA, "luck_classic.nfdb")
_CACHE = {}


def save_luck_net(path, luck_net, meta=None):
    """Write ``luck_net`` to ``path`` (the package's database format, atomically)."""
    meta = {"n_hidden": luck_net.n_hidden, "middle_units": list(luck_net.middle_units),
            **(meta or {})}
    return _dbfile.write_db(path, KIND, meta, luck_net.arrays())


def load_luck_net(path):
    """``(LuckNet, meta)`` from a file of ``save_luck_net``; ``DatabaseError`` naming the
    file if it is not a luck net or its arrays do not fit."""
    meta, arrays = _dbfile.read_db(path, KIND)
    try:
        net = LuckNet.from_arrays(arrays)
    except (KeyError, ValueError) as e:
        raise _dbfile.DatabaseError(f"{os.fspath(path)}: bad weights: {e}") from None
    return net, meta


def default_luck_net():
    """The shipped luck net (``DEFAULT_LUCK_NET``), loaded once per process."""
    if "default" not in _CACHE:
        _CACHE["default"] = load_luck_net(DEFAULT_LUCK_NET)[0]
    return _CACHE["default"]
