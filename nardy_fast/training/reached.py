"""Games of the judging net against other players: where users' games go.

The net's own self-play visits the positions it chooses; users' games reach others, made
by weaker or different play.  ``reached_game`` plays one seeded game of an evaluator's
judging net at 0-ply against one of ``SOURCES``:

- ``"greedy"``: the package's greedy policy (``Policy.of("greedy")``);
- ``"noisy"``: the net at 0-ply with a Gaussian error of ``NOISE_SIGMA`` points on every
  candidate's equity, a player of human-like errors (close moves confused often, moves
  three ``sigma`` worse almost never);
- ``"net1"``: the net at 1-ply.

The accuracy benchmark's reached set (``benchmarks/bench_accuracy.py --reached``) and the
rollout labels of ``training.rolloutlabels`` draw their positions from such games.
"""
from __future__ import annotations

import numpy as np

from nardy_fast.core.gameloop import play_turns
from nardy_fast.core.position import WHITE, Position
from nardy_fast.core.record import GameRecord
from nardy_fast.core.rng import block_bit_generator
from nardy_fast.core.rules import CLASSIC
from nardy_fast.engine.evaluation.evaluator import Evaluator
from nardy_fast.engine.play.policy import Policy

__all__ = ["SOURCES", "NOISE_SIGMA", "net_move", "opponent_chooser", "reached_game",
           "reached_positions"]

SOURCES = ("greedy", "noisy", "net1")        # the other players of a reached game
NOISE_SIGMA = 0.1                            # the noisy net's error size, equity units


def net_move(ev, position, dice, moves, plies=0, sigma=0.0, rng=None):
    """The move of ``ev``'s judging net at ``plies`` (``Evaluator.best_move``'s ranking,
    ``Searcher.rank``) among ``moves`` (the legal ``Move``s of ``dice``).

    ``sigma > 0``: the noisy net: every candidate's 0-ply equity (side on roll's view,
    points per game) gets an independent Gaussian error of standard deviation ``sigma``
    drawn from ``rng`` (a ``numpy.random.Generator``), and the highest noisy equity is
    played.  A single legal move is played without drawing."""
    if len(moves) == 1:
        return moves[0]
    if sigma < 0 or (sigma > 0 and plies != 0):
        raise ValueError(f"sigma={sigma!r}: the noise is >= 0 and on 0-ply equities only")
    res, _, _, eqs = ev.searcher().rank(position.mover, position.opponent, int(dice[0]),
                                        int(dice[1]), plies)
    k = 0
    if sigma > 0:
        if rng is None:
            raise ValueError("the noisy net (sigma > 0) needs rng, a numpy Generator")
        k = int(np.argmax(np.asarray(eqs, dtype=np.float64)
                          + rng.normal(0.0, sigma, len(eqs))))
    best = tuple(int(x) for x in res[k])
    return next(m for m in moves if m.board == best)


def opponent_chooser(source, ev, rng, sigma=NOISE_SIGMA):
    """The other player of a reached game: ``choose(position, dice, moves) -> Move``
    (``core.gameloop.play_turns``' form) of ``source``, one of ``SOURCES`` (module
    docstring); the noisy net and the greedy policy draw from ``rng``."""
    if source == "greedy":
        by_score = Policy.of("greedy").chooser()
        return lambda position, dice, moves: by_score(position, moves, rng)
    if source == "noisy":
        return lambda position, dice, moves: net_move(ev, position, dice, moves,
                                                      sigma=sigma, rng=rng)
    if source == "net1":
        return lambda position, dice, moves: net_move(ev, position, dice, moves, plies=1)
    raise ValueError(f"source={source!r}: expected one of {', '.join(SOURCES)}")


def reached_game(source, game, seed, ev=None, sigma=NOISE_SIGMA):
    """One seeded game of ``ev``'s judging net (None: the shipped one) at 0-ply against
    ``source``'s player.

    The net plays White in games ``0, 1, 4, 5, ...`` (``game // 2`` even) and Black in
    the others, so that both the even and the odd games have both colours; the dice and
    the other player's draws come from ``block_bit_generator(seed, game)``.  Returns the
    ``GameRecord`` (White and Black named ``"net"`` and ``source``)."""
    ev = Evaluator.default() if ev is None else ev
    rng = np.random.Generator(block_bit_generator(seed, game))
    other = opponent_chooser(source, ev, rng, sigma)
    net_white = (game // 2) % 2 == 0

    def choose(position, dice, moves):
        if (position.side == WHITE) == net_white:
            return net_move(ev, position, dice, moves)
        return other(position, dice, moves)
    rec = GameRecord(white="net" if net_white else source,
                     black=source if net_white else "net", rules=CLASSIC,
                     start=Position.initial())
    return play_turns(rec, choose, rng)


def reached_positions(ev, n_games, seed, sources=SOURCES):
    """Every position before a turn, both sides' checkers on the board, of ``n_games``
    games ``reached_game(source, g, seed + 100 (k + 1), ev)`` against each of
    ``sources`` (``k``: the source's place in ``SOURCES``).

    Returns
    -------
    boards : ndarray of uint8, shape (n, 2, 24)
        Side on roll first, sources and games in order.
    source : ndarray of str, shape (n,)
        The other player of each position's game.
    """
    boards, names = [], []
    for source in sources:
        if source not in SOURCES:
            raise ValueError(f"source={source!r}: expected one of {', '.join(SOURCES)}")
        s = seed + 100 * (SOURCES.index(source) + 1)
        for g in range(n_games):
            for p in reached_game(source, g, s, ev).positions():
                if p.mover.any() and p.opponent.any() and not p.is_over():
                    boards.append(np.asarray(p.boards))
                    names.append(source)
    if not boards:
        return np.zeros((0, 2, 24), dtype=np.uint8), np.array([], dtype=str)
    return np.stack(boards).astype(np.uint8), np.array(names)
