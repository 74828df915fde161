"""The registry of the shipped nets: which net file of the package data serves which rules.

Below the evaluator (which loads the nets), so that the modules that only need to name a
shipped net (the luck net's file, a study's record of its net) do not import the
evaluator.  A net file (``net_*.nfdb`` in ``DATA``, the package's database format of kind
``KIND``) records the rules it was trained under (``meta["training"]["rules"]``).
"""
from __future__ import annotations

import os
import warnings

from nardy_fast._utils import _dbfile
from nardy_fast.core.rules import PLAY_FIELDS, as_rules

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from nardy_fast.core.rules import Rules

__all__ = ["DATA", "DEFAULT_NET", "KIND", "ONE_LAYER_NET", "PLAY_FIELDS", "play_rules",
           "rollout_file", "shipped_nets", "shipped_net_for"]

KIND = "evaluation_net"
DATA = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(__file__))), "data")
DEFAULT_NET = os.path.join(DATA, "net_classic.nfdb")
# A shipped net file ``net_<name>.nfdb`` judges; a faster net beside it,
# ``rollout_<name>.nfdb``, plays its game loops (``Evaluator(rollout_net=)``), or the
# judge plays them itself when there is none.  Classic: the judge is a wider two-layer
# net trained from v7 (384 + 64 units); v7 (256 + 64), the judge from 0.3.0 until then,
# plays the rollouts (benchmarks/RESULTS.md, "The rollout player").
# The one-layer net (v6) v7 was deepened from: the start of self-play training
# (``nardy-fast train --init classic``), and the rollout player up to 0.3.0.
ONE_LAYER_NET = os.path.join(DATA, "onelayer_classic.nfdb")
# A net trained under one setting of the move rules (``core.rules.PLAY_FIELDS``) plays
# positions the other settings never reach or forbid; the scoring, the draw rule and the
# opening roll change what a move is worth, not the game the net learnt: its seven
# outputs serve them all.
_CACHE = {}


def __getattr__(name: str) -> Any:
    """``ROLLOUT_NET``: the one-layer net's name while it played the rollouts (up to
    0.3.0), with a DeprecationWarning; removed in 0.4.0 (use ``ONE_LAYER_NET``)."""
    if name == "ROLLOUT_NET":
        warnings.warn("nets.ROLLOUT_NET is deprecated and will be removed in 0.4.0: the "
                      "shipped evaluator rolls out with nets.rollout_file's net; the "
                      "one-layer net "
                      "is nets.ONE_LAYER_NET", DeprecationWarning, stacklevel=2)
        return ONE_LAYER_NET
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def play_rules(rules: Rules) -> dict[str, Any]:
    """``{field: value}`` of ``rules``' move rules (``PLAY_FIELDS``)."""
    return {f: getattr(rules, f) for f in PLAY_FIELDS}


def shipped_net_for(rules: Rules) -> str | None:
    """The file name (in ``DATA``) of the shipped net trained under ``rules``' move rules
    (``PLAY_FIELDS``), or None (``Evaluator.default(rules)`` then falls back to the
    classic net)."""
    key = play_rules(rules)
    return next((f for f, r in shipped_nets().items() if play_rules(r) == key), None)


def rollout_file(name: str) -> str | None:
    """The file name (in ``DATA``) of the rollout net shipped beside the net file ``name``
    (``net_<x>.nfdb`` -> ``rollout_<x>.nfdb``), or None when there is none."""
    if not name.startswith("net_"):
        return None
    rollout = "rollout_" + name[len("net_"):]
    return rollout if os.path.exists(os.path.join(DATA, rollout)) else None


def shipped_nets() -> dict[str, Rules]:
    """``{file name: the Rules it was trained under}`` of the nets in the package data
    (``net_*.nfdb``), the classic one first; read once per process."""
    if "shipped" not in _CACHE:
        names = sorted(f for f in os.listdir(DATA) if f.startswith("net_")
                       and f.endswith(".nfdb"))
        names.sort(key=lambda f: f != os.path.basename(DEFAULT_NET))
        _CACHE["shipped"] = {f: as_rules(_dbfile.read_db(os.path.join(DATA, f), KIND)[0]
                                         .get("training", {}).get("rules"))
                             for f in names}
    return _CACHE["shipped"]
