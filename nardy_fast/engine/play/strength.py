"""Matches between two players with shared dice: the strength measure of the evaluator.

``play_match(a, b, n_games)`` plays ``n_games / 2`` pairs of games (``_match``): in each
pair both games use the same dice sequence, player A moving first in one and player B in
the other.  Players: ``"greedy"``, ``"net"`` (the shipped evaluator at 0-ply), ``"net:1"``,
``"net:2"`` (1- and 2-ply) or an ``Evaluator`` (0-ply).  Pair ``p`` draws its dice from
``PCG64(SeedSequence(seed, spawn_key=(p,)))`` (``rng.block_bit_generator``, as a rollout's
block ``p``), so a match depends on its seed only, not on the number of workers.
"""
from __future__ import annotations

import math

import numpy as np

from nardy_fast.core._checks import check_count
from nardy_fast.engine.evaluation.evaluator import Evaluator
from nardy_fast.engine.play import _match
from nardy_fast.engine.play.policy import Policy
from nardy_fast.tables.race import default_race_tables
from nardy_fast.engine.play.parallel import run_chunks
from nardy_fast.core.position import Position, as_position
from nardy_fast.core.rng import block_bit_generator, root_entropy
from nardy_fast.core.rules import as_rules

__all__ = ["play_match", "vs_greedy", "PAIRS_PER_CHUNK"]

PAIRS_PER_CHUNK = 250


def _pair_dice(entropy, first, n):
    """The dice of pairs ``first .. first + n - 1``: for each, two generators in the same
    state (``rng.block_bit_generator(entropy, p)``), one per game of the pair."""
    return [(block_bit_generator(entropy, p), block_bit_generator(entropy, p))
            for p in range(first, first + n)]


def _run_pairs(spec):
    players = tuple(p.c_form(spec["rules"]) for p in spec["players"])
    return spec["first"], _match.play_pairs(
        players, spec["start"], rules=spec["rules"], tables=default_race_tables(spec["rules"]),
        bitgens=_pair_dice(spec["entropy"], spec["first"], spec["n"]))


def play_match(a, b, n_games, seed=None, rules=None, start=None, workers=None, client=None,
               progress=None):
    """Play ``a`` against ``b``: ``n_games`` games (rounded up to pairs) with shared dice.

    Parameters
    ----------
    a, b : {"greedy", "net", "net:1", "net:2"} or Evaluator
    n_games : int
        Games in all, >= 2.
    seed : None, int or SeedSequence
    rules : Rules, optional
        Move rules and scoring (default classic).
    start : Position or ID, optional
        The start of every game (default: the initial position); the first mover of each
        game is the side on roll.
    workers, client, progress :
        As for ``rollout`` (results do not depend on them).

    Returns
    -------
    dict
        ``games``; for player A: ``win_rate`` (games won / games; a draw counts half),
        ``points_share`` (points won / all points scored), ``ppg`` (mean points per
        game); their standard errors ``se_win_rate``, ``se_ppg``, ``se_points_share``
        (from the variance between pairs, the pair being the independent unit);
        ``seed``; and ``points``, the ``(pairs, 2)`` array of A's points per game.
    """
    a, b = Policy.of(a, "a", ("net", "greedy")), Policy.of(b, "b", ("net", "greedy"))
    n_games = check_count(n_games, "n_games", 2)
    rules = as_rules(rules)
    entropy = root_entropy(seed)
    pos = Position.initial() if start is None else as_position(start, "start")
    if pos.is_over():
        raise ValueError(f"start {pos.id}: the game is over")
    n_pairs = -(-int(n_games) // 2)
    specs, sizes = [], []
    for first in range(0, n_pairs, PAIRS_PER_CHUNK):
        n = min(PAIRS_PER_CHUNK, n_pairs - first)
        specs.append(dict(players=(a, b), start=np.array(pos.boards), rules=rules,
                          entropy=entropy, first=first, n=n))
        sizes.append(2 * n)
    points = np.full((n_pairs, 2), np.nan)

    def put(i, result):
        first, pts = result
        points[first:first + len(pts)] = pts

    run_chunks(_run_pairs, specs, put, sizes=sizes, workers=workers, client=client,
               progress=progress, desc="match")
    points = points[~np.isnan(points).any(axis=1)]
    return summarize(points, entropy)


def summarize(points, entropy=None):
    """The match figures of ``play_match`` from A's points per game ``(pairs, 2)``."""
    n = len(points)
    won = np.where(points > 0, 1.0, np.where(points < 0, 0.0, 0.5))
    pos, neg = np.clip(points, 0, None), np.clip(-points, 0, None)
    pair_won, pair_pts = won.mean(axis=1), points.mean(axis=1)
    tot_pos, tot_all = pos.sum(), pos.sum() + neg.sum()
    share = tot_pos / tot_all if tot_all else math.nan
    # delta method for a ratio of pair sums: share = sum(x) / sum(y)
    x, y = pos.sum(axis=1), pos.sum(axis=1) + neg.sum(axis=1)
    se_share = (math.sqrt(np.var(x - share * y, ddof=1) * n) / tot_all
                if n > 1 and tot_all else math.nan)
    return {"games": 2 * n, "win_rate": float(won.mean()),
            "se_win_rate": float(pair_won.std(ddof=1) / math.sqrt(n)) if n > 1 else math.nan,
            "ppg": float(points.mean()),
            "se_ppg": float(pair_pts.std(ddof=1) / math.sqrt(n)) if n > 1 else math.nan,
            "points_share": float(share), "se_points_share": float(se_share),
            "seed": entropy, "points": points}


def vs_greedy(evaluator, n_games, seed):
    """The strength check of a training run (``train.train``'s ``check``): ``evaluator``
    at 0-ply against ``"greedy"`` over ``n_games`` games with shared dice, under its own
    rules, on one worker.

    Parameters
    ----------
    evaluator : Evaluator
        The player, at 0-ply; the games follow its rules.  Anything else (a player's
        name such as ``"net"``) is a ``TypeError`` naming ``evaluator``.
    n_games : int
        Games played (>= 2), in mirrored pairs with shared dice; an odd count is rounded
        up to a pair.
    seed : int
        The dice's seed.  Positional as well as by keyword: ``vs_greedy`` is the shape of
        ``train``'s ``check(evaluator, n_games, seed)``.

    Returns
    -------
    dict
        ``vs_greedy_win_rate``: the evaluator's share of the games won, a draw counting
        half; ``vs_greedy_points_share``: its share of all the points scored (both floats
        in [0, 1]); their standard errors ``se_vs_greedy_win_rate`` and
        ``se_vs_greedy_points_share`` (over the pairs of games); ``vs_greedy_games``: the
        games they rest on.

    Examples
    --------
    >>> import nardy_fast as nf
    >>> r = nf.vs_greedy(nf.Evaluator.default(), 4, seed=1)
    >>> r["vs_greedy_games"], sorted(k for k in r if k.startswith("se_"))
    (4, ['se_vs_greedy_points_share', 'se_vs_greedy_win_rate'])
    """
    if not isinstance(evaluator, Evaluator):
        raise TypeError(f"vs_greedy: evaluator={evaluator!r}: expected an Evaluator "
                        "(nardy_fast.Evaluator.default() for the shipped one)")
    m = play_match(evaluator, "greedy", n_games, seed=seed, rules=evaluator.rules,
                   workers=1, progress=False)
    return {"vs_greedy_games": m["games"], "vs_greedy_win_rate": m["win_rate"],
            "se_vs_greedy_win_rate": m["se_win_rate"],
            "vs_greedy_points_share": m["points_share"],
            "se_vs_greedy_points_share": m["se_points_share"]}
