"""Training positions and their look-ahead targets, for supervised training of the net.

A look-ahead target is a position's value at ``plies`` plies (default 1) of a frozen net:
the average over the 21 rolls (1/36 doubles, 2/36 others) of the value after the side on
roll's best move for that roll, the move chosen by the net's 0-ply equity of each result
and the value flipped to the view of the side on roll before the roll
(``_search.Searcher.values``; a move that bears off the last checker counts as a win,
races of both homes are valued by the race tables ``train.training_tables``).  At 1-ply a
target costs one net evaluation per legal result of each of the 21 rolls (about 300).

The positions come from seeded self-play of the frozen net at 0-ply
(``_selfplay.play_games``): game ``g`` of ``selfplay_positions(net, n, seed, first)``
draws its dice from ``rng.block_bit_generator(seed, first + g)``, so a set of positions
depends on the net, the seed and the game numbers only.
"""
from __future__ import annotations

import numpy as np

from nardy_fast.core._checks import check_count, check_threads
from nardy_fast.core.position import Position, as_position
from nardy_fast.core.rng import block_bit_generator
from nardy_fast.core.rules import CLASSIC
from nardy_fast.engine.evaluation import _search
from nardy_fast.training import _selfplay
from nardy_fast.engine.evaluation._net import Net
from nardy_fast.engine.evaluation.evaluator import _values_in_blocks
from nardy_fast.training.train import training_tables

__all__ = ["selfplay_games", "selfplay_positions", "lookahead_targets", "blend_targets",
           "board_keys"]

_EVERY_MOVE_BLOCK = 4      # positions a thread values per block at 2 plies, keep 0


def selfplay_games(net, n_games, seed, first=0, *, start=None):
    """The positions and the moves' values of ``n_games`` self-play games of ``net`` at
    0-ply.

    Parameters
    ----------
    net, n_games, seed, first
        As ``selfplay_positions``.
    start : Position, position ID or array_like of shape (2, 24), optional
        The position every game starts from, side on roll first (default: the initial
        position); a finished game or an impossible position is refused by name.

    Returns
    -------
    positions : ndarray of uint8, shape (P, 2, 24)
        Every position before a move (``selfplay_positions``).
    next_values : ndarray of float32, shape (P, 7)
        The 0-ply value of the position after each move, view of the side then on roll
        (the result, or the race tables' value, after a game's last move).
    lengths : ndarray of int64, shape (n_games,)
        Positions of each game, games in order.

    The order of ``_selfplay.play_games``' first three results, and of
    ``blend_targets``' arguments after the look-ahead values.
    """
    if not isinstance(net, Net):
        raise TypeError(f"net: expected a Net, got {type(net).__name__}")
    if int(n_games) < 1:
        raise ValueError(f"n_games = {n_games}: must be >= 1")
    pos = Position.initial() if start is None else as_position(start, "start")
    if pos.is_over():
        raise ValueError("start: a finished game (a side has borne off every checker)")
    start = np.asarray(pos.boards)
    bitgens = [block_bit_generator(seed, int(first) + g) for g in range(int(n_games))]
    pos, next_values, lengths, _ = _selfplay.play_games(
        net, start, rules=CLASSIC, tables=training_tables(), bitgens=bitgens)
    return pos, next_values, lengths


def selfplay_positions(net, n_games, seed, first=0):
    """Every position before a move of ``n_games`` self-play games of ``net`` at 0-ply.

    Parameters
    ----------
    net : Net
        The frozen net playing both sides (classic move rules, classic points).
    n_games : int
        Games to play (>= 1).
    seed : int
        Root entropy of the dice.
    first : int
        Number of the first game (its dice stream): rounds of training use disjoint
        game numbers.

    Returns
    -------
    ndarray of uint8, shape (P, 2, 24)
        The positions, side on roll first, each board in its own numbering, games in
        order.
    """
    return selfplay_games(net, n_games, seed, first)[0]


def lookahead_targets(net, boards, plies=1, threads=None, keep=0):
    """Look-ahead targets of ``boards``: their values at ``plies`` plies of ``net``.

    Parameters
    ----------
    net : Net
        The frozen net.
    boards : array_like of uint8, shape (n, 2, 24)
        Side on roll first, each board in its own numbering; no finished game.
    plies : {1, 2}
        Depth of the look-ahead.
    threads : int, optional
        Threads of the search at 2 plies, capped at the usable cores (None: every usable
        core; the values do not depend on it).
    keep : int
        At 2 plies, how many of each roll's moves, the best by the 0-ply equity, are
        compared by their 1-ply value (the search's move filter, ``_search``): 0 (the
        default) all of them, about 0.12 CPU-s a position; 1 takes the 0-ply choice and
        values it at 1 ply, about 4 ms, and measured as accurate against rollouts
        (``benchmarks/RESULTS.md``).  No effect at 1 ply.

    Returns
    -------
    ndarray of float32, shape (n, 7)
        Probabilities from the view of the side on roll before it rolls, in the net's
        output order (``_net.OUTPUT_NAMES``), consistent (mars <= win, ...).
    """
    if plies not in (1, 2):
        raise ValueError(f"plies = {plies!r}: expected 1 or 2")
    keep = check_count(keep, "keep", 0)
    b = np.ascontiguousarray(boards, dtype=np.uint8)
    if b.ndim != 3 or b.shape[1:] != (2, 24):
        raise ValueError(f"boards: expected shape (n, 2, 24), got {b.shape}")
    # capped at the usable cores, as the builders' threads are (a C int in the search:
    # train-net --threads 1000000000000 was an OverflowError's traceback)
    threads = None if threads is None else check_threads(threads)
    search = _search.Searcher(net, CLASSIC, training_tables(), keep=keep, threads=threads)
    # in blocks, so that Ctrl-C stops a round's targets within a second or so; every move
    # of every roll compared at 1 ply (keep 0) costs about 20 times the evaluator's search
    return _values_in_blocks(search, b, plies, threads=threads,
                             block=_EVERY_MOVE_BLOCK if plies == 2 and keep == 0 else None)


def blend_targets(targets, next_values, lengths, lam):
    """Look-ahead targets corrected by the rest of their games (``train-net --lam``).

    Each game's result with the luck of each roll taken out is an unbiased value of its
    positions under the policy that played it; it telescopes to the look-ahead value plus
    the later plies' differences ``L(s_k) - V(s_k)`` weighed by ``lam ** (k - t)`` (the C
    kernel ``_selfplay.blend_targets`` says it in full).  ``lam = 0`` gives ``targets``.

    Parameters
    ----------
    targets : ndarray of float32, shape (P, 7)
        Look-ahead values of ``selfplay_games``' positions (``lookahead_targets``), view of
        the side on roll.
    next_values, lengths
        ``selfplay_games``' second and third results.
    lam : float
        In [0, 1].

    Returns
    -------
    ndarray of float32, shape (P, 7)
        Not clipped: a target may leave [0, 1] by the sum of the corrections.
    """
    return _selfplay.blend_targets(targets, next_values, lengths, float(lam))


def board_keys(boards):
    """A hashable key per position (its 48 bytes), to exclude positions from training.

    Parameters
    ----------
    boards : array_like of uint8, shape (n, 2, 24)

    Returns
    -------
    list of bytes
    """
    b = np.ascontiguousarray(boards, dtype=np.uint8).reshape(-1, 48)
    return [row.tobytes() for row in b]
