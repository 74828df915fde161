"""Whole matches to N points between two players, with match win rates and transcripts.

``simulate_matches(a, b, n_matches, rules)`` plays complete matches (not to be confused
with ``match.play_match``, the shared-dice strength comparison of single games).  A
player is an ``Evaluator`` (or ``"net"``, the shipped one for the match's rules) choosing
its moves at 0-ply, or any policy of ``engine.policy`` (``"net:1"``, ``"greedy"``, ...).
A match-aware player (``aware=True``) plays at the score: its moves by match winning
chances and, with the cube (``MatchRules.rules.cube``), its raises and answers by Zadeh's
model through the match equity table (``met.match_cube_decision``).  A money player
(``aware=False``) plays every game as if for money: its moves by money equity, its
raises and answers by Janowski's money model (``cubemodel.model_equities``, no beaver),
knowing of the match only that a raise past the stake the match can use is never made
(``MatchState``: the first stake at or above the points either side needs).  Both use
the position's cube efficiency and their own evaluator's P(win); no raise on a side's
first turn (all 15 checkers on its head).

Match ``m`` draws its dice (and the throws for who starts) from
``SeedSequence(seed, spawn_key=(m,))``: results depend on the seed only.  Each game is
played by the one Python game loop (``core.gameloop.play_turns``, the cube decided before
each roll) around the C move ranking (about a game per second or two per core at 0-ply).
"""
from __future__ import annotations

import math

import numpy as np

from nardy_fast.core._checks import check_count
from nardy_fast._utils._progress import progress_bar
from nardy_fast.engine.evaluation import met
from nardy_fast.core.cubestate import CubeState, next_stake
from nardy_fast.engine.play._policies import greedy_scores
from nardy_fast.engine.evaluation.cubemodel import actions, efficiency, model_equities
from nardy_fast.engine.play.policy import Policy
from nardy_fast.core.matchrecord import MatchRecord
from nardy_fast.core.matchrules import MatchState, as_match_rules, check_score
from nardy_fast.core.policies import random_move
from nardy_fast.core.position import BLACK, WHITE, Position
from nardy_fast.core.gameloop import opening_throw, play_turns
from nardy_fast.core.record import GameRecord
from nardy_fast.core.rng import child_seed, generator, root_entropy

from collections.abc import Callable
from typing import TYPE_CHECKING, Any
from nardy_fast.engine.evaluation.evaluator import Evaluator, play_rules

if TYPE_CHECKING:
    from nardy_fast.core.rules import RulesLike
    from nardy_fast.core.rng import SeedLike
    from nardy_fast.core.matchrules import MatchRules

__all__ = ["simulate_matches", "play_one_match"]

_Z95 = 1.959963984540054


def _wilson(k, n, z=_Z95):
    """Wilson's score interval of a binomial proportion ``k / n``."""
    p, z2 = k / n, z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z / (1 + z2 / n) * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    return (max(0.0, centre - half), min(1.0, centre + half))


class _PolicyPlayer:
    """A policy (``engine.policy``: ``"net:1"``, ``"greedy"``, ``"random"``, a callable)
    as a match player.  Its moves: a net at its plies (by match winning chances when
    aware), else the policy's choice among the legal moves (``random``: the core's
    ``random_move`` from its own generator; the highest score of ``greedy`` or the
    callable, the first on ties); its
    cube decisions from the P(win) of its net (the shipped one for the others)."""

    def __init__(self, policy, ev, rng):
        self.policy, self.ev, self.rng = policy, ev, rng

    def best_move(self, position, dice, match=None):
        kind = self.policy.kind
        if kind == "net":
            return self.ev.best_move(position, dice, plies=self.policy.plies, match=match)
        moves = position.legal_moves(dice, self.ev.rules)
        if kind == "random":
            return random_move(position, moves, self.rng)
        score = greedy_scores if kind == "greedy" else self.policy.fn
        boards = np.array([m.board for m in moves], dtype=np.uint8)
        return moves[int(np.argmax(score(boards, position.opponent)))]

    def evaluate(self, position, **kw):
        return self.ev.evaluate(position, **kw)


def _player(p, name, rules, rng):
    """The player of ``p`` for a match under ``rules`` (``Rules``); ``rng`` the match's
    generator (a ``"random"`` player draws from a child of it, not from the dice)."""
    if isinstance(p, Evaluator):
        if play_rules(p.rules) != play_rules(rules):
            raise ValueError(f"{name}: the evaluator plays under {play_rules(p.rules)}, the "
                             f"match under {play_rules(rules)} (Evaluator.default(rules) or "
                             ".with_rules(rules))")
        return p if p.rules == rules else p.with_rules(rules)
    if hasattr(p, "best_move"):
        return p
    policy = Policy.of(p, name)
    ev = _player(policy.evaluator or Evaluator.default(rules), name, rules, rng)
    if policy.kind == "net" and policy.plies == 0:
        return ev
    return _PolicyPlayer(policy, ev, rng.spawn(1)[0] if policy.kind == "random" else None)


def _aware_pair(aware):
    """``(A's, B's)`` of ``aware``: a bool or a pair of bools; TypeError otherwise."""
    pair = (aware, aware) if isinstance(aware, bool) else aware
    if not (isinstance(pair, (tuple, list)) and len(pair) == 2
            and all(isinstance(a, (bool, np.bool_)) for a in pair)):
        raise TypeError(f"aware={aware!r}: expected True, False or a pair of them (A, B)")
    return tuple(bool(a) for a in pair)


class _Game:
    """One game of a match: the position, the cube and the record."""

    def __init__(self, mr, names, score, crawford):
        self.mr, self.names, self.score, self.crawford = mr, names, score, crawford
        self.rec = GameRecord(white=names[WHITE], black=names[BLACK], rules=mr.rules)
        self.pos = Position.initial()
        self.stake, self.owner = 1, None            # owner: a colour or None (centre)

    def state(self):
        """The MatchState of the side on roll (scores by colour)."""
        side = self.pos.side
        cube = None
        if self.mr.cube:
            own = "centre" if self.owner is None else (
                "mover" if self.owner == side else "opponent")
            cube = CubeState(self.stake, own)
        sc = (self.score[self.names[WHITE]], self.score[self.names[BLACK]])
        return MatchState(self.mr, sc, side, self.crawford, cube)


def _cube_actions(p, state, aware, x):
    """``(double_action, take_action)`` (``cubemodel.actions``) for the side on roll's
    P(win) ``p`` at ``state`` (its ``MatchState``): at the match score (``aware``) or by
    the money model."""
    if aware:
        d = met.match_cube_decision(p, state, x)
        return d["double_action"], d["take_action"]
    return actions(model_equities(p, x, state.cube, state.rules.rules.cube))[:2]


def _cube_turn(game, evs, aware):
    """The side on roll's raise and the answer, each player by its own ``aware``; a
    result dict after a drop, else None."""
    pos = game.pos
    if (not game.mr.cube or game.crawford or pos.is_first_turn()
            or game.owner not in (None, pos.side)):
        return None
    state = game.state()
    if game.stake >= max(state.away()):                 # a dead cube: no raise
        return None
    other = BLACK if pos.side == WHITE else WHITE
    x = efficiency(pos)
    p = evs[pos.side].evaluate(pos).p_win
    if _cube_actions(p, state, aware[pos.side], x)[0] != "double":
        return None
    stake = next_stake(game.mr.rules.cube, game.stake)
    game.rec.append_cube("double", stake)
    q = evs[other].evaluate(pos).p_win               # the taker's own estimate
    if _cube_actions(q, state, aware[other], x)[1] == "pass":
        game.rec.append_cube("drop")
        return {"winner": pos.side, "kind": "drop", "points": float(game.stake)}
    game.rec.append_cube("take")
    game.stake, game.owner = stake, other
    return None


def _play_game(game, evs, aware, rng):
    """Play the game out (``gameloop.play_turns``, the cube before each roll); the result
    dict (``GameRecord.result``)."""
    def before_roll(pos):                   # a dropped raise ends the game (in the record)
        game.pos = pos
        return _cube_turn(game, evs, aware) is not None

    def choose(pos, dice, moves):
        game.pos = pos
        state = game.state() if aware[pos.side] else None
        return evs[pos.side].best_move(pos, dice, match=state)

    first = opening_throw(rng) if game.mr.rules.opening_roll == "opening_dice" else None
    play_turns(game.rec, choose, rng, dice=first, before_roll=before_roll,
               list_moves=False)
    return game.rec.result()


def play_one_match(a: Any, b: Any, rules: MatchRules | RulesLike = None,
                   seed: SeedLike = None,
                   aware: bool | tuple[bool, bool] = True, names: tuple[str, str] = ("A", "B"),
                   on_game: Callable[[GameRecord], object] | None = None,
                   score: tuple[float, float] = (0, 0)) -> MatchRecord:
    """Play one match of ``a`` against ``b``; its ``MatchRecord`` (``replay`` passes).

    ``a``, ``b``: players: an ``Evaluator`` (its move rules must be the match's), a
    policy of ``engine.policy`` (``"net"``: ``Evaluator.default`` of the match's rules;
    ``"net:1"``, ``"net:2"``, ``"greedy"``, ``"random"``, a callable scoring the candidate
    boards; see ``_PolicyPlayer``), or any object with ``best_move(position, dice,
    match=)`` (and ``evaluate`` with the cube).  ``aware``: bool or a pair (A, B): play at
    the match score (checker play by match winning chances, the cube by the table), else
    money play (module docstring).  ``on_game(record)`` is called after each game.
    ``score``: the points of A and B at the start (a match joined at that score: the
    record's first score line; the Crawford game is taken as played if a side is
    already one point away).  Game 1 and
    every game after a draw are thrown for (a fair coin: the single-die throw with
    rethrows); later games follow ``MatchRules.starter``.

    Returns
    -------
    MatchRecord
        The match: its games and the score before each.

    Raises
    ------
    ValueError
        ``score`` not a score of the match (a side at or past the length, negative, or not
        a multiple of the rules' unit), naming the player; ``names`` not two different
        strings.
    TypeError, ValueError
        A bad ``seed`` (``core.rng.generator``).

    Examples
    --------
    >>> import nardy_fast as nf
    >>> m = nf.play_one_match("random", "greedy", rules=nf.MatchRules(length=3), seed=2,
    ...                       names=("Ann", "Bob"))
    >>> len(m.games), m.scores
    (3, [{'Ann': 0.0, 'Bob': 0.0}, {'Ann': 0.0, 'Bob': 2.0}, {'Ann': 1.0, 'Bob': 2.0}])
    """
    mr = as_match_rules(rules)
    names = tuple(names)
    if len(names) != 2 or not all(isinstance(n, str) for n in names) or names[0] == names[1]:
        raise ValueError(f"names={names!r}: expected two different strings")
    start_score = check_score(score, mr, names)
    rng = generator(seed)
    players = {names[0]: _player(a, "a", mr.rules, rng),
               names[1]: _player(b, "b", mr.rules, rng)}
    aware_of = dict(zip(names, _aware_pair(aware)))
    rec = MatchRecord(rules=mr, players=tuple(names))
    score = dict(zip(names, start_score))
    starter, crawford_done = None, max(score.values()) == mr.length - 1
    while max(score.values()) < mr.length:
        if starter is None:
            starter = names[int(rng.integers(2))]
        other = names[1] if starter == names[0] else names[0]
        crawford = (mr.crawford and not crawford_done
                    and max(score.values()) == mr.length - 1)
        crawford_done = crawford_done or crawford
        col = {WHITE: starter, BLACK: other}
        game = _Game(mr, col, score, crawford)
        res = _play_game(game, {c: players[n] for c, n in col.items()},
                         {c: aware_of[n] for c, n in col.items()}, rng)
        rec.games.append(game.rec)
        rec.scores.append(dict(score))
        if on_game is not None:
            on_game(game.rec)
        for n, pts in rec.points(game.rec, res, score).items():
            score[n] += pts
        if res["kind"] == "draw":
            starter = other if mr.starter == "alternate" else None
        elif mr.starter == "winner":
            starter = col[res["winner"]]
        else:
            starter = other if mr.starter == "alternate" else None
    return rec


def simulate_matches(a: Any, b: Any, n_matches: int, rules: MatchRules | RulesLike = None,
                     length: int | None = None,
                     seed: SeedLike = None,
                     aware: bool | tuple[bool, bool] = True, transcripts: bool = False,
                     progress: bool | None = None) -> dict[str, Any]:
    """Play ``n_matches`` matches of ``a`` against ``b``.

    Parameters
    ----------
    a, b : Evaluator, a policy (``"net"``, ``"net:1"``, ``"greedy"``, ``"random"``, a
        callable) or a player object (``play_one_match``)
    n_matches : int
        Matches to play, >= 1.  It counts whole matches, each of as many games as its
        score needs (``games`` and ``mean_games`` in the result), so it is not the
        ``n_games`` of the rollouts and reports: a match is the unit of this estimate
        (``win_rate`` and its error are per match).
    rules : MatchRules, Rules, dict or None
        The regulation (``length`` replaces its length).
    length : int or None
        Points of each match (None: the length of ``rules``).
    seed : None, int or SeedSequence
    aware : bool or (bool, bool)
        For A and B: play at the match score (checker play by match winning chances, cube
        by the table), else money play (moves by money equity, cube by the money model).
    transcripts : bool
        Keep every ``MatchRecord`` (key ``records``).
    progress : bool or None
        A bar over the matches.  True: a bar; False: none; None (default): a bar when
        standard error is a terminal (``core._progress``).

    Returns
    -------
    dict
        ``matches``, ``wins_a``, ``win_rate`` (A's share of matches), ``se_win_rate``,
        ``ci95`` (Wilson's score interval: inside [0, 1], and not empty when every
        match went one way), ``games`` (total), ``mean_games``, ``seed``,
        and ``records`` when asked.  After Ctrl-C: the same of the matches finished (match
        m's dice depend on the seed and m only, so they are the first matches of the
        full run), with ``interrupted=True`` and ``matches_requested``; Ctrl-C before any
        match finished propagates ``KeyboardInterrupt``.

    Examples
    --------
    >>> import nardy_fast as nf
    >>> r = nf.simulate_matches("greedy", "random", 8, length=1, seed=1, progress=False)
    >>> r["matches"], r["wins_a"], round(r["win_rate"], 2), [round(x, 2) for x in r["ci95"]]
    (8, 8, 1.0, [0.68, 1.0])
    """
    n_matches = check_count(n_matches, "n_matches", 1)
    mr = as_match_rules(rules, length)
    entropy = root_entropy(seed)
    wins, games, records, n = 0, 0, [], 0
    interrupted = False
    try:
        for m in progress_bar(range(n_matches), desc="matches", unit="match",
                              progress=progress):
            rec = play_one_match(a, b, mr, child_seed(entropy, m), aware)
            final = rec.final_score()
            wins += final["A"] >= mr.length
            games += len(rec.games)
            n += 1
            if transcripts:
                records.append(rec)
    except KeyboardInterrupt:
        if n == 0:
            raise                         # no match finished: nothing to report
        interrupted = True
    rate = wins / n
    se = math.sqrt(rate * (1 - rate) / n)
    out = {"matches": n, "wins_a": int(wins), "win_rate": rate, "se_win_rate": se,
           "ci95": _wilson(wins, n), "games": games,
           "mean_games": games / n, "seed": entropy}
    if interrupted:
        out.update(interrupted=True, matches_requested=int(n_matches))
    if transcripts:
        out["records"] = records
    return out
