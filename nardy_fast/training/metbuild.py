"""The builder of the match equity tables' package data, apart from their reader (``met``).

Two files, written by ``nardy-fast met --rollout`` and ``nardy-fast met --write``:

- ``met.DATA_FILE`` (``data/start_outcomes.json``): the first mover's outcome
  distribution from a rollout of the start with the shipped net (0-ply, truncated at the
  bear-off), one entry per (``draw_rule``, ``opening_roll``) of ``VARIANTS``
  (``write_start_data``);
- ``met.TABLE_FILE`` (``data/met.json``): the shipped tables (``met._table_specs``, to
  ``met.TABLE_LENGTH`` points) computed from the stored distribution (``write_tables``).

The reader (``met.match_equity_table``, ``met.start_distribution``) needs neither the
rollout nor this module: the builder rolls out, the reader only does the arithmetic, as
GNU Backgammon keeps ``makebearoff.c`` apart from ``bearoff.c``.
"""
from __future__ import annotations

import json

from nardy_fast._utils._io import atomic_write_text
from nardy_fast._utils._progress import progress_bar
from nardy_fast.core.position import Position
from nardy_fast.core.rules import Rules
from nardy_fast.engine.evaluation import met
from nardy_fast.engine.evaluation.evaluator import Evaluator
from nardy_fast.engine.play.lucknet import default_luck_net
from nardy_fast.engine.play.rollout import rollout, stop_if_interrupted

__all__ = ["VARIANTS", "START_GAMES", "START_SEED", "rollout_start", "write_start_data",
           "write_tables"]

VARIANTS = tuple((d, o) for d in (False, True) for o in ("rethrow", "opening_dice"))
START_GAMES = 46_656             # 36 blocks of 1,296 stratified games
START_SEED = 16


def rollout_start(rules, n_games=START_GAMES, seed=START_SEED, workers=None,
                  progress=None):
    """The first mover's outcome distribution from a rollout of the start with the
    shipped net (0-ply, truncated at the bear-off): ``met.start_distribution``'s keys
    (probabilities, the first mover's view) plus ``games``, ``seed``, ``se_p_win`` and
    ``net``, the digest of the net that played (``Net.digest``: a table made with another
    net is told apart by it), and ``luck_net``, the digest of the luck net whose luck the
    rollout subtracted (``LuckNet.digest``: it moves the estimate within its SE, and a
    table left behind by a new luck net is told apart by it).  Ctrl-C in the rollout: ``KeyboardInterrupt`` (its finished
    games are no start distribution to write)."""
    o = rollout(Position.initial(), n_games, seed=seed, rules=rules, workers=workers,
                progress=progress)
    stop_if_interrupted([o], "rollout_start")
    d = met.distribution_of(o)
    d.update(games=int(o.games), seed=int(seed), se_p_win=float(o.se_p_win),
             policy="net", truncate="bearoff", net=Evaluator.default(rules).rollout_net.digest(),
             luck_net=(default_luck_net().digest()
                       if o.extra.get("estimator") == "luck-net" else None))
    return d


def write_start_data(n_games=START_GAMES, seed=START_SEED, workers=None, progress=None,
                     path=None):
    """Roll out the start under every ``VARIANTS`` (draw rule, opening roll) and write
    ``met.DATA_FILE`` (or ``path``; JSON, atomically).  Returns the data."""
    data = {}
    for draw_rule, opening in VARIANTS:
        rules = Rules(draw_rule=draw_rule, opening_roll=opening)
        data[met._variant_key(rules)] = rollout_start(rules, n_games, seed, workers,
                                                      progress)
    atomic_write_text(path or met.DATA_FILE,
                      json.dumps(data, indent=1, sort_keys=True) + "\n")
    met._load_data_cached.cache_clear()
    return data


def write_tables(length=met.TABLE_LENGTH, path=None, progress=None):
    """Compute the shipped tables (``met._table_specs``, to ``length`` points, from the
    stored start distribution) and write ``met.TABLE_FILE`` (or ``path``; JSON,
    atomically).  Returns the data: match winning chances of the side needing the row's
    points."""
    out = {"length": length, "grid": met.GRID, "start": met.start_distribution(),
           "tables": {}}
    for name, cube, mr in progress_bar(met._table_specs(), desc="met", unit="table",
                                       progress=progress):
        m = met.match_equity_table(length, cube=cube, rules=mr, stored=False)
        out["tables"][name] = {"rules": mr.to_text(), "values": m.to_numpy().tolist()}
        if mr.crawford:
            out["tables"][name]["post_crawford"] = met.post_crawford_table(
                length, rules=mr).tolist()
    atomic_write_text(path or met.TABLE_FILE, json.dumps(out, indent=1) + "\n")
    return out
