"""Which method values a position: the ``method`` dispatch, returning Outcomes.

``value_positions(positions, method)`` gives one ``Outcome`` per position, in order, for
the side on roll before it rolls (probabilities per game; ``equity`` in points under the
rules' scoring).  Each position is valued by the first that applies:

- the game is over: its result (``core.finish.final_outcome``, method ``"final"``);
- ``method`` is ``"exact"``, ``"two_sided"`` or ``"one_sided"``, or ``"auto"`` with both
  sides all home: the bear-off databases (``tables.race.race_probabilities``; a position
  they do not cover raises ``ValueError`` naming it);
- ``"rollout"``: games played by ``policy`` (``engine.rollout``; several positions share
  one run with one seed, common random numbers: ``rollout_many``);
- else (``"net"``, ``"auto"``): the evaluator at ``plies`` (``Evaluator.default(rules)``,
  all positions in one batch; its races of both homes come from the databases too).

The reports (``analysis.report``: ``evaluate``, ``win_report``, ``move_report``,
``game_report``) value their positions here.  The names of ``method`` are those of
``core.methods``.
"""
from __future__ import annotations

import dataclasses
import math

from nardy_fast.core._checks import check_count
from nardy_fast.core.finish import final_outcome
from nardy_fast.core.methods import check_method, methods_of, warn_unused
from nardy_fast.core.position import position_list
from nardy_fast.core.rng import root_entropy
from nardy_fast.core.result import Outcome
from nardy_fast.core.rules import as_rules
from nardy_fast.engine.evaluation.evaluator import Evaluator
from nardy_fast.engine.play.rollout import (DEFAULT_GAMES, RolloutGames, as_served, keeps_games,
                                            rollout, rollout_games, rollout_outcomes,
                                            stop_if_interrupted)
from nardy_fast.engine.decisions.methods import (METHOD_OBJECTS, Auto, Exact, Rollout,
                                                 method_object, method_or_flat,
                                                 refuse_flat)
from nardy_fast._utils.compute import resolve_compute
from nardy_fast.tables.race import race_probabilities

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from dask.distributed import Client

    from nardy_fast.core.position import Position
    from nardy_fast.core.rng import SeedLike
    from nardy_fast.core.rules import RulesLike
    from nardy_fast.engine.play.policy import PolicyLike
    from nardy_fast._utils.compute import Compute
    from nardy_fast.engine.decisions.methods import Method

__all__ = ["value_position", "value_positions", "value_positions_paired", "PairedValues",
           "METHODS", "TABLE_METHODS",
           "DEFAULT_GAMES", "ROLLOUT_DEFAULTS"]

METHODS = methods_of("auto", "exact", "two_sided", "one_sided", "net", "rollout")
TABLE_METHODS = methods_of("exact", "two_sided", "one_sided")   # the bear-off databases only
# the rollout arguments and their defaults: they act under method="rollout" only
ROLLOUT_DEFAULTS = {"n_games": DEFAULT_GAMES, "policy": "net", "truncate": "bearoff",
                    "workers": None, "client": None}


def warn_rollout_unused(method: str, **given: Any) -> None:
    """The ``UserWarning`` naming the rollout arguments in ``given`` changed from their
    defaults (``ROLLOUT_DEFAULTS``) under ``method``, which plays no games."""
    warn_unused(f"with method={method!r} (only method='rollout' plays games)",
                ROLLOUT_DEFAULTS, **given)


def warn_plies_unused(method: str, plies: int) -> None:
    """The ``UserWarning`` for ``plies`` other than 0 under ``method`` (rollouts and the
    databases search nothing)."""
    warn_unused(f"with method={method!r} (only the evaluator searches plies)",
                {"plies": 0}, plies=plies)


@method_or_flat("n_games", "policy", "truncate", "plies")
def value_position(position: Position | str, method: str | Method = "auto", *,
                   n_games: int = DEFAULT_GAMES, seed: SeedLike = None,
                   rules: RulesLike = None, policy: PolicyLike = "net",
                   truncate: str | None = "bearoff", workers: int | None = None,
                   client: Client | None = None, progress: bool | None = None,
                   plies: int = 0, compute: Compute | None = None) -> Outcome:
    """The ``Outcome`` of one position by ``method`` (``value_positions`` of one)."""
    return value_positions([position], method, n_games=n_games, seed=seed, rules=rules,
                           policy=policy, truncate=truncate, workers=workers, client=client,
                           progress=progress, plies=plies, compute=compute)[0]


@method_or_flat("n_games", "policy", "truncate", "plies")
def value_positions(positions: Iterable[Position | str], method: str | Method = "auto", *,
                    n_games: int = DEFAULT_GAMES, seed: SeedLike = None,
                    rules: RulesLike = None, policy: PolicyLike = "net",
                    truncate: str | None = "bearoff", workers: int | None = None,
                    client: Client | None = None, progress: bool | None = None,
                    plies: int = 0, compute: Compute | None = None) -> list[Outcome]:
    """One ``Outcome`` per position, in order, each valued by ``method``.

    Parameters
    ----------
    positions : iterable of Position or position ID
    method : Auto, Exact, Net, Rollout or {"auto", "exact", "two_sided", "one_sided", \
"net", "rollout"}
        A method object (``engine.decisions.methods``; it holds its own settings, so
        ``n_games``, ``policy``, ``truncate`` and ``plies`` then stay at their defaults:
        ``TypeError`` otherwise) or its name with the flat keywords.  ``"auto"``: the bear-off
        databases when both sides are all home (exact where the two-sided table covers the
        race, else the one-sided approximation), else the evaluator at ``plies``;
        ``"exact"`` (the database's ``"auto"`` table) or a table's name: the database only
        (``ValueError`` outside it); ``"net"``: the evaluator (``Evaluator.default(rules)``);
        ``"rollout"``: games played by ``policy``.  A finished game gives its result
        (method ``"final"``).
    n_games, seed, policy, truncate, workers, client, progress
        The rollout's (``engine.rollout.rollout``; the same seed for every position).
        Changed from their defaults (``ROLLOUT_DEFAULTS``) under another method they
        change nothing, and a ``UserWarning`` names them.
    rules : Rules, dict or None
        None is classic.
    plies : {0, 1, 2, 3}
        Look-ahead of the evaluator; under ``"rollout"`` or a database's method it
        changes nothing (a ``UserWarning`` says so).
    compute : Compute or None
        ``workers``, ``client`` and ``progress`` as one object (``nardy_fast.Compute``).

    Returns
    -------
    list of Outcome
        The side on roll's view before it rolls; each ``method`` names what served it
        (``"two_sided"``, ``"one_sided"``, ``"net 0-ply"``, ``"rollout"``, ``"final"``).

    Raises
    ------
    ValueError
        An unknown ``method``, ``n_games < 1``, or a position no database covers under a
        database's method (naming ``positions[i]``).
    KeyboardInterrupt
        Ctrl-C during the rollouts of several positions (one position's rollout returns
        its finished games, ``extra["interrupted"]``, as ``rollout`` does).
    """
    return _value_positions("value_positions", positions, method, n_games, seed, rules,
                            policy, truncate, workers, client, progress, plies, compute,
                            keep_games=False).outcomes


@method_or_flat("n_games", "policy", "truncate", "plies")
def value_positions_paired(positions: Iterable[Position | str],
                           method: str | Method = "auto", *,
                           n_games: int = DEFAULT_GAMES, seed: SeedLike = None,
                           rules: RulesLike = None, policy: PolicyLike = "net",
                           truncate: str | None = "bearoff", workers: int | None = None,
                           client: Client | None = None, progress: bool | None = None,
                           plies: int = 0, compute: Compute | None = None) -> PairedValues:
    """``value_positions`` (the same arguments and the same Outcomes) with the standard
    errors of the differences between the positions' equities: a ``PairedValues``.

    Rollouts of several positions keep every game's equity (``rollout_games``), so a
    difference between two rolled-out positions has its paired standard error, smaller
    than the sum of theirs because their games threw the same dice.  The move report's
    ``se_equity_loss`` comes from here.  Beyond ``KEEP_GAMES_LIMIT`` games in all
    (``rollout.keeps_games``) no game is kept and the difference's standard error is the
    sum of the two, a bound.
    """
    return _value_positions("value_positions_paired", positions, method, n_games, seed,
                            rules, policy, truncate, workers, client, progress, plies,
                            compute, keep_games=True)


@dataclasses.dataclass(frozen=True, eq=False)
class PairedValues:
    """Outcomes of several positions, and the standard errors of their equities'
    differences (``value_positions_paired``).

    Attributes
    ----------
    outcomes : list of Outcome
        One per position, in order, as ``value_positions`` gives them.
    games : RolloutGames or None
        The per-game equities of the rolled-out positions (two or more), else None.
    rows : dict of int to int
        Position index -> its row in ``games``.
    """

    outcomes: list[Outcome]
    games: RolloutGames | None = None
    rows: dict[int, int] = dataclasses.field(default_factory=dict)

    def se_difference(self, i: int, j: int) -> float:
        """Standard error of position ``i``'s equity minus position ``j``'s (points, each
        the side on roll's view; the same for ``j`` minus ``i``).

        0 when neither was estimated (exact tables, finished games, ``i == j``); NaN when
        one is the evaluator's (its error is not measured); the other's standard error
        when one is exact; the paired standard error of the games both rollouts played
        when both were rolled out together (``RolloutGames.difference``)."""
        if i == j:
            return 0.0
        a, b = self.outcomes[i], self.outcomes[j]
        if math.isnan(a.se_equity) or math.isnan(b.se_equity):
            return math.nan
        if a.se_equity == 0.0 or b.se_equity == 0.0:
            return a.se_equity + b.se_equity
        if self.games is not None and i in self.rows and j in self.rows:
            return self.games.difference(self.rows[i], self.rows[j])[1]
        return a.se_equity + b.se_equity             # not paired: the bound


def _value_positions(func, positions, method, n_games, seed, rules, policy, truncate,
                     workers, client, progress, plies, compute, *, keep_games):
    """``value_positions`` (``keep_games``: ``value_positions_paired``) as a
    ``PairedValues``; ``func`` names the caller in messages."""
    seed = root_entropy(seed)
    rules = as_rules(rules)
    if isinstance(method, METHOD_OBJECTS):
        refuse_flat(func, method, n_games=(n_games, DEFAULT_GAMES),
                    policy=(policy, "net"), truncate=(truncate, "bearoff"), plies=(plies, 0))
    else:
        try:
            check_count(n_games, "n_games")
        except (TypeError, ValueError) as e:     # named as the caller's argument
            raise type(e)(f"{func}: {e}") from None
        method = check_method(method, METHODS)
        if method != "rollout":
            warn_rollout_unused(method, n_games=n_games, policy=policy, truncate=truncate,
                                workers=workers, client=client)
        if method in ("rollout",) + TABLE_METHODS:
            warn_plies_unused(method, plies)
        method = method_object(method, func=func, plies=plies, n_games=int(n_games),
                               policy=policy, truncate=truncate)
    compute = resolve_compute(func, compute, workers=workers, client=client,
                              progress=progress)
    positions = position_list(positions)
    out = [None] * len(positions)
    games, net = [], []
    for i, p in enumerate(positions):
        if p.is_over():
            out[i] = final_outcome(p, rules)
        elif isinstance(method, Exact) or (isinstance(method, Auto) and p.is_bearoff()):
            table = method.table if isinstance(method, Exact) else "auto"
            try:
                out[i] = race_probabilities(p, rules=rules, method=table)
            except ValueError as e:
                raise ValueError(f"positions[{i}] ({p.id}): {e}") from None
        elif isinstance(method, Rollout):
            games.append(i)
        else:
            net.append(i)
    if net:
        ev = Evaluator.default(rules)
        plies = method.plies or 0
        for i, o in zip(net, ev.outcomes([positions[i] for i in net], plies)):
            out[i] = o
    paired = None
    if games:
        kw = dict(settings=method.settings, seed=seed, rules=rules, compute=compute)
        if len(games) == 1:        # rollout's own checks, and its Ctrl-C before any game
            out[games[0]] = as_served(rollout(positions[games[0]], **kw))
        else:                      # Ctrl-C: no Outcomes of the games some got, none others
            chosen = [positions[i] for i in games]
            if keep_games and keeps_games(method.settings.n_games, len(chosen)):
                paired = rollout_games(chosen, **kw)
                outs = list(paired.outcomes)
            else:
                outs = rollout_outcomes(chosen, **kw)
            stop_if_interrupted(outs, func)
            for i, o in zip(games, outs):    # a race valued at the start: the table's
                out[i] = as_served(o)
    rows = {i: k for k, i in enumerate(games)} if paired is not None else {}
    return PairedValues(out, paired, rows)
