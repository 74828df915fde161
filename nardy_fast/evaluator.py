"""The evaluator: a trained network (``_net``) with exact race values and n-ply search.

Probabilities are from the view of the side on roll, before it rolls.  Boards follow the
package convention: ``(n, 2, 24)`` uint8, side on roll first, each board in its own
side's numbering.
"""
from __future__ import annotations

import os

import numpy as np

from nardy_fast import _dbfile
from nardy_fast._net import N_INPUTS, N_OUTPUTS, OUTPUT_NAMES, Net
from nardy_fast.rules import as_rules

__all__ = ["Evaluator", "DEFAULT_NET", "KIND"]

KIND = "evaluation_net"
ENCODING = 1              # version of the input encoding (_net.pyx)
DEFAULT_NET = os.path.join(os.path.dirname(__file__), "data", "net_classic.nfdb")


def rules_codes(rules):
    """``(head_rule, block_rule, block_transient, larger_die_rule)`` codes of ``rules_t``."""
    r = as_rules(rules)
    return (("classic", "generalized").index(r.head_rule),
            ("ahead", "home", "none").index(r.block_rule),
            int(r.block_transient), int(r.larger_die_rule))


class Evaluator:
    """A position evaluator: the network, and the exact tables where a race is covered.

    Parameters
    ----------
    net : _net.Net
    rules : Rules, optional
        The move rules the net was trained under (default classic).
    meta : dict, optional
        Description kept with the weights (training settings, ...).
    """

    def __init__(self, net, rules=None, meta=None):
        if not isinstance(net, Net):
            raise TypeError(f"net: expected a nardy_fast._net.Net, got {type(net).__name__}")
        self.net = net
        self.rules = as_rules(rules)
        self.meta = dict(meta or {})

    # -- files --------------------------------------------------------------------------
    def save(self, path):
        """Write the weights to ``path`` (the package's database format, atomically)."""
        meta = {"encoding": ENCODING, "n_inputs": N_INPUTS, "n_hidden": self.net.n_hidden,
                "outputs": list(OUTPUT_NAMES), "rules": self.rules.to_dict(), **self.meta}
        return _dbfile.write_db(path, KIND, meta, self.net.arrays())

    @classmethod
    def load(cls, path):
        """Read weights written by ``save``; ``DatabaseError`` (naming the file) if the file
        is not a net of this version or its arrays do not fit."""
        meta, arrays = _dbfile.read_db(path, KIND)
        if meta.get("encoding") != ENCODING or meta.get("n_inputs") != N_INPUTS:
            raise _dbfile.DatabaseError(
                f"{os.fspath(path)}: a net for input encoding {meta.get('encoding')} with "
                f"{meta.get('n_inputs')} inputs; this version reads encoding {ENCODING} "
                f"with {N_INPUTS}")
        try:
            net = Net(arrays["w1"], arrays["b1"], arrays["w2"], arrays["b2"])
        except (KeyError, ValueError) as e:
            raise _dbfile.DatabaseError(f"{os.fspath(path)}: bad weights: {e}") from None
        rules = as_rules(meta.pop("rules", None))
        for k in ("encoding", "n_inputs", "n_hidden", "outputs"):
            meta.pop(k, None)
        return cls(net, rules=rules, meta=meta)
