"""Monte Carlo rollouts: many complete games from a position, with honest error bars.

``rollout(position, n_games, ...)`` checks its arguments, maps option strings to the C
policies, cuts the games into chunks of whole random-stream blocks (``nardy_fast.core.rng``),
runs them in this process, a local process pool or a Dask cluster (``nardy_fast.engine.play.parallel``)
and merges the per-block tallies in block order.  Results therefore depend on the seed
only (and, with truncation, on whether the mars table or the complete two-sided table is
built: ``extra["mars_table"]``, ``extra["two_sided_complete"]``):
any ``workers``, ``client`` or ``chunk_size`` gives bit-identical numbers.
Ctrl-C keeps the games finished: one rollout returns them marked ``extra["interrupted"]``;
a function that runs several rollouts or builds one answer from them calls
``stop_if_interrupted`` after each, which raises ``Stopped`` (a ``KeyboardInterrupt``) for
a cut one.

Estimates and errors
--------------------
Every probability and the equity is the mean of a per-game value for the side on roll
(0/1 outcomes for games played out, the bear-off probabilities of ``race_probabilities``
for truncated games: two-sided or mars table when it covers the race, else one-sided).
The first random roll of game ``g`` is stratum ``first[g mod 36]`` and the second
``reply[(g mod 36 + shift[(g div 36) mod 36]) mod 36]``, where ``first``, ``shift`` and
``reply`` are permutations of the 36 rolls that the seed draws (``rng.stratified_rolls``):
all 36 rolls
appear equally often as first rolls in every 36 consecutive games, and every pair of
first and second rolls once in every 1296 games (from the start under
``opening_roll="opening_dice"`` the first is one of the 30 non-doubles, stratum
``first[g mod 30]``, and the second ``reply[(g mod 30 + shift[(g div 30) mod 36]) mod
36]``,
every pair in every 1080 games).  The shuffled order keeps a rollout of any size
unbiased, over the seeds: each game's second roll is uniform given its first, and the
first rolls of fewer than ``S`` games are a random few of the strata.  (A fixed order
was not: it paired each first roll with a fixed few replies, its own roll as the reply
in the first 36 games, and a race that the first two rolls decide, P(win) 0.896
exactly, gave 1 with an SE of 0 in 36 games, whatever the seed.)  The estimate is the
stratified mean, each of the ``S`` strata's mean weighted by its roll's chance ``1 / S``,
and its standard error uses the within-stratum variances, ``se**2 = sum_h s_h**2 / (n_h
S**2)`` (``n_h`` games and sample variance ``s_h**2`` in stratum ``h``): conservative
about the second roll's stratification.  With as many games in every stratum
(``n_games`` a multiple of ``S``) that is the plain mean of the games and ``sum_h n_h s_h**2 / n**2``;
where the strata differ by one game, the plain mean would count some rolls more than
their chance, an error that the standard error does not cover (0 for games that their
first roll decides).  With a single game in some stratum (``S < n_games < 2 S``): the
stratified mean, and the stratified formula with the sample variance of all the games
for each stratum's (an upper bound); with one game in every stratum (``n_games <= S``):
the plain mean and the i.i.d. formula.
``extra["se_equity_unstratified"]`` is the plain i.i.d. formula, and
``extra["variance_reduction_equity"]`` the ratio of the two variances (plain over
stratified): ``inf`` when stratification removed all the variance (every game's value
fixed by its first roll, as in a race that roll decides or a position the bear-off
tables value after it), NaN when there was none to remove (every game of one value,
one game); ``null`` in JSON (``rollout --json``), as every NaN and infinity.  A sum of
squared deviations within the rounding of the sums of squares counts as 0, so such games
have standard errors of 0, not of 1e-10.

Variance reduction: ``nardy_fast.engine.play.variance`` (the estimator and why it is unbiased).
"""
from __future__ import annotations

import bisect
import dataclasses
import itertools
import math
import os

import numpy as np

from nardy_fast.tables import race12
from nardy_fast.engine.evaluation.evaluator import Evaluator
from nardy_fast.tables.cuberace import cubeful_race
from nardy_fast.core import cubestate
from nardy_fast.core import rng as _rng
from nardy_fast.core._checks import check_count, check_dice, check_int
from nardy_fast.tables import bearoff
from nardy_fast.tables.bearoff_complete import CompleteTwoSided, serving
from nardy_fast.tables.race import (complete_table_for, default_race_tables, mars_table_for,
                                    race_probabilities, race_tables)
from nardy_fast.engine.play._rollout import (MAX_STRATA, PER_GAME_WIDTH, QUANTITIES,
                                             TALLY_WIDTH, play_blocks)
from nardy_fast.core._state import finished_reason
from nardy_fast.core.methods import method_kind
from nardy_fast.core.matchrules import check_match
from nardy_fast.engine.evaluation import cubemodel
from nardy_fast.engine.play.policy import NAMES as POLICIES, Policy, policy_pair
from nardy_fast.engine.play.settings import (TRUNCATIONS, RolloutSettings, resolve_settings,
                                             settings_or_flat)
from nardy_fast._utils.compute import Compute, resolve_compute
from nardy_fast.engine.play.variance import check_estimator, keep_in_range
from nardy_fast.engine.play.lucknet import DEFAULT_LUCK_NET, default_luck_net
from nardy_fast.engine.evaluation.met import with_match
from nardy_fast.engine.play.parallel import parallelism, run_chunks
from nardy_fast.core.position import WHITE, Position, as_position, position_list
from nardy_fast.core.result import Outcome
from nardy_fast.core.rules import as_rules

from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import pandas as pd
    from nardy_fast.core.rules import Rules, RulesLike
    from nardy_fast.core.rng import SeedLike
    from nardy_fast.engine.play.policy import PolicyLike
    import numpy.typing as npt
    from dask.distributed import Client

    from nardy_fast.core.cubestate import CubeState
    from nardy_fast.core.matchrules import MatchState

__all__ = ["rollout", "rollout_many", "rollout_outcomes", "rollout_games", "RolloutGames",
           "as_served", "check_playable", "difference_se", "keeps_games", "KEEP_GAMES_LIMIT", "POLICIES",
           "DEFAULT_CHUNK_GAMES", "DEFAULT_GAMES", "RolloutSettings", "Compute", "ChunkSpec",
           "valued_by_cube_model"]

DEFAULT_CHUNK_GAMES = 8 * _rng.BLOCK_GAMES        # 10,368 games per task
# The most games' equities ``rollout_games`` keeps in one call (8 bytes each: 200 MB), so
# that a rollout of many games keeps the constant memory it has without them.
KEEP_GAMES_LIMIT = 25_000_000
# Games of a rollout that values a position when the caller names none: the one default of
# the reports, the cube decisions and the analyses (``n_games=``).  ``rollout`` itself has
# no default: its caller says how many games.
DEFAULT_GAMES = 500
# The move filter of net policies deeper than 0-ply: of the evaluator's ``keep`` best moves
# at 0-ply, only those within this many points of the best are searched deeper (net:1
# from the start: 15.6 -> 21.8 games per CPU-second; benchmarks/RESULTS.md).
FILTER_WINDOW = 0.08
_NQ = len(QUANTITIES)
_Q = {name: i for i, name in enumerate(QUANTITIES)}
# the standard errors beyond se_p_win, se_p_mars_win, se_p_mars_loss and se_equity
_MORE_SE = ("p_lose", "p_draw", "p_koks_win", "p_koks_loss", "p_home_mars_win",
            "p_home_mars_loss")


# ----------------------------------------------------------------------------------------
# bear-off databases (loaded once per process; workers load from the on-disk cache)

_TABLES = {}


class BearoffUnavailable(ValueError):
    """The bear-off databases needed by ``truncate="bearoff"`` cannot be loaded."""


def _bearoff_tables():
    """``RaceTables`` of the default one- and two-sided databases (no mars table).

    ``bearoff.one_sided()`` and ``bearoff.two_sided()`` load them memory-mapped from the
    on-disk cache (building them on first use), once per process.
    """
    try:
        return default_race_tables(mars=False)
    except (OSError, MemoryError) as e:
        raise BearoffUnavailable(
            "truncate='bearoff' needs the bear-off databases (nardy_fast.tables.bearoff), "
            f"which cannot be loaded or built here ({e}); pass truncate=None to play every "
            "game out") from None


def _mars_source(rules):
    """``(path, max_checkers)`` of the mars table that ``race_probabilities`` uses for a
    race of 15 checkers against a few under ``rules`` (the cached default
    ``bearoff.mars_table(DEFAULT_MARS, rules, build=False)``: never built here), or None
    (no such table cached, or ``draw_rule``).  Its arrays are kept for this process."""
    if rules.draw_rule:
        return None
    n = bearoff.DEFAULT_MARS
    table = mars_table_for(rules, n)
    if table is None or table.path is None:
        return None
    source = (os.fspath(table.path), int(n))
    _TABLES[("mars",) + source] = table
    return source


def _complete_source(rules):
    """The store of the complete two-sided table that ``race_probabilities`` uses under
    ``rules`` (``race.complete_table_for``: never built here), or None (not built, or
    ``draw_rule``); the whole table is kept for this process (``_run_chunk`` takes the
    part serving the rules, ``bearoff_complete.serving``)."""
    table = complete_table_for(rules)
    if table is None:
        return None
    _TABLES[("complete", table.store)] = table.whole
    return table.store


def _complete_table(store):
    """The complete two-sided table of ``store`` in this process: cached, else
    memory-mapped from it (a worker: the store must be at the same path)."""
    key = ("complete", store)
    if key not in _TABLES:
        try:
            _TABLES[key] = CompleteTwoSided.load(store, verify=False)
        except bearoff.DatabaseError as e:
            raise BearoffUnavailable(
                f"truncate='bearoff': this worker cannot load the complete two-sided table "
                f"the rollout uses ({e}); run the rollout locally") from None
    return _TABLES[key]


def _mars_tables(source, rules):
    """The MarsTable of ``source = (path, max_checkers)`` in this process: cached, else
    memory-mapped from ``path`` (a worker of this machine), else this worker's own cached
    ``mars_table(max_checkers, rules)`` (a remote Dask worker); never built."""
    key = ("mars",) + tuple(source)
    if key in _TABLES:
        return _TABLES[key]
    path, n = source
    if os.path.exists(path):
        table = bearoff.MarsTable.load(path, verify=False)
    else:
        table = bearoff.mars_table(n, rules, build=False)
    if (table is None or table.all_checkers != 15 or table.max_checkers < n
            or not table.matches(rules)):
        raise BearoffUnavailable(
            f"truncate='bearoff': this worker cannot load the mars table of 15 against "
            f"<= {n} checkers that the rollout uses ({path}); build it there with "
            f"nardy_fast.tables.bearoff.mars_table({n}) or run the rollout locally")
    _TABLES[key] = table
    return table


def _bearoff_available():
    try:
        _bearoff_tables()
        return True
    except BearoffUnavailable:
        return False


# ----------------------------------------------------------------------------------------
# the cube (rule book section 7a)

# the C loop's owner of the cube (``CubeSettings``): -1 the centre, 0 the side on roll, 1
# the opponent, in the order of ``cubestate.OWNERS``
_OWNER_CODE = {name: k - 1 for k, name in enumerate(cubestate.OWNERS)}


def _cube_spec(rules, cube, probabilities, position):
    """The picklable cube part of a chunk spec, or None (no cube).  With ``rules.cube`` set
    a rollout always plays with the cube (default: centred at stake 1)."""
    if rules.cube is None:
        if cube is not None or probabilities is not None:
            given = "cube_state" if cube is not None else "cube_probabilities"
            raise ValueError(f"{given}: the rules have no cube; use rules=Rules(cube="
                             "'geometric') or 'arithmetic', or cube=True")
        return None
    if cube is None:
        cube = cubestate.CENTRED
    if not isinstance(cube, cubestate.CubeState):
        raise TypeError(f"cube_state: expected a CubeState, got {type(cube).__name__}")
    if not (probabilities is None or probabilities == "pips" or callable(probabilities)):
        raise TypeError("cube_probabilities: expected None (the evaluator), 'pips' or a "
                        "callable position -> P(win)")
    try:                          # a stake of the rules' progression, as cube_decision's
        cube.check(rules)
    except ValueError as e:
        raise ValueError(f"cube_state: {e}") from None
    owner = _OWNER_CODE[cube.owner]
    return (_is_start(position), cube.stake, owner, cube.first_turn, probabilities)


def _cube_arrays(spec, rules):
    """The ``cube`` argument of ``_rollout.play_blocks`` for a spec (in the worker: the
    exact cubeful race table and the default net come from this process's caches)."""
    at_start, stake, owner, no_first, fn = spec
    key = ("cube", rules.cube, rules.beaver)
    if key not in _TABLES:
        table = cubeful_race(rules.cube, rules.beaver)
        tp = np.array([cubemodel.live_take_point(rules.cube, k)
                       for k in range(cubestate.MAX_STAKE + 1)])
        _TABLES[key] = ((table.values, table.max_checkers, table.stakes or 0),
                        np.ascontiguousarray(cubemodel.RACE_EFFICIENCY, dtype=np.float64), tp)
    table, x_race, tp = _TABLES[key]
    if fn is None:
        source = Evaluator.default(rules).rollout_net
    elif fn == "pips":
        source = None
    else:
        def source(mover, opponent):
            return cubemodel.p_of(fn(Position(mover, opponent)))
    return cubemodel.CubeSettings(at_start, stake, owner, no_first, cubestate.MAX_STAKE,
                                  cubemodel.CONTACT_EFFICIENCY, x_race, tp, table, source)


def _cube_extra(plan, mean):
    """Cube figures of a rollout: actions per game, final stakes."""
    at_start, stake, owner, no_first, fn = plan.cube
    q = _Q
    stakes, k = {}, stake
    for lv in range(8):
        f = float(mean[q[f"stake_level_{lv}"]])
        if f > 0:
            stakes[k if lv < 7 else f">={k}"] = f
        k = 2 * k if plan.rules.cube == "geometric" else k + 1
    return {"cube": plan.rules.cube, "beaver": plan.rules.beaver,
            "autodouble": plan.rules.autodouble and at_start, "cube_stake": stake,
            "cube_owner": ("centre", "mover", "opponent")[owner + 1],
            "cube_model": ("net 0-ply" if fn is None else "pips" if fn == "pips"
                           else "probabilities"),
            "doubles_per_game": float(mean[q["doubles"]]),
            "takes_per_game": float(mean[q["takes"]]),
            "passes_per_game": float(mean[q["passes"]]),
            "beavers_per_game": float(mean[q["beavers"]]),
            "mean_final_stake": float(mean[q["stake"]]) * stake,
            "final_stakes": stakes}


# ----------------------------------------------------------------------------------------
# argument checks

def _cube_in_play(func, cube, cube_state, rules):
    """``(rules, cube_state, asked)`` of the ``cube`` (the cube in play: None by the rules,
    True, False) and ``cube_state`` (a CubeState) arguments of ``func``, ``asked`` whether
    the caller asked for the cube (``cube=True`` or a ``cube_state``).  A ``CubeState``
    given as ``cube`` (its spelling before 0.3.0) is a TypeError naming ``cube_state``.
    A cube in play under ``draw_rule`` is a ValueError: the game loop's cube and its race
    values count no draw, so a drawn game would score as a win."""
    if cube is None:
        _no_cube_with_draws(func, as_rules(rules))
        return rules, cube_state, cube_state is not None
    if not isinstance(cube, (bool, np.bool_)):
        raise TypeError(f"{func}: cube: expected True, False or None (the cube in play; "
                        f"its stake and owner are cube_state=), got {type(cube).__name__}")
    rules = as_rules(rules)
    if cube:                               # the cube of the rules, geometric if they have none
        if rules.cube is None:
            rules = dataclasses.replace(rules, cube="geometric")
        _no_cube_with_draws(func, rules)
        return rules, cube_state, True
    if cube_state is not None:
        raise ValueError("cube=False: no cube in play, so no cube_state")
    return rules.cubeless(), None, False


def _no_cube_with_draws(func, rules):
    if rules.cube is not None and rules.draw_rule:
        raise ValueError(f"{func}: a cube-aware rollout under draw_rule: the games' cube "
                         "and race values count no draw (a drawn game would score as a "
                         "win); roll out without the cube (cube=False), or without "
                         "draw_rule")


def _is_start(position):
    b = position.boards
    return bool(b[0, 0] == 15 and b[1, 0] == 15)


def check_playable(position: Position, rules: Rules) -> None:
    """A ``ValueError`` naming ``position`` when no rollout starts from it (a finished
    game, or Black's last turn under ``draw_rule``), as ``rollout`` raises it: a caller of
    several rollouts checks them all before the first game."""
    if position.is_over():
        why = finished_reason(position, rules)
        raise ValueError(f"position {position.id}: " + (
            f"the game is over: {why}" if why else "black's last turn (draw_rule): "
            "rollouts start where both sides have checkers on the board"))


class _Plan:
    """Everything a rollout of one position needs, checked; builds the chunk specs."""

    def __init__(self, position, n_games, policy, seed, rules, dice, truncate, chunk_size,
                 cube=None, cube_probabilities=None, variance_reduction=None):
        self.position = as_position(position)
        self.rules = as_rules(rules)
        check_playable(self.position, self.rules)
        self.n_games = check_count(n_games, "n_games", 1)
        self.policies = policy_pair(policy)
        self.estimator, self.luck_turns = check_estimator(variance_reduction, self.policies)
        self.dice = None if dice is None else check_dice(dice)
        if truncate not in TRUNCATIONS:
            raise ValueError(f"truncate={truncate!r}: expected 'bearoff', 'race12' or None")
        self.truncate = truncate
        self.entropy = _rng.root_entropy(seed)
        block = _rng.BLOCK_GAMES
        self.auto_chunk = chunk_size is None
        chunk = DEFAULT_CHUNK_GAMES if chunk_size is None else check_count(chunk_size,
                                                                          "chunk_size", 1)
        self.blocks_per_chunk = max(1, -(-chunk // block))
        self.chunk_games = self.blocks_per_chunk * block
        self.opening_dice = (self.rules.opening_roll == "opening_dice"
                             and _is_start(self.position))
        if self.opening_dice and self.dice is not None and self.dice[0] == self.dice[1]:
            raise ValueError(f"dice={self.dice}: with opening_roll='opening_dice' the first "
                             "roll from the start cannot be a double")
        self.opening_dice = self.opening_dice and self.dice is None
        self.use_tables = truncate is not None or any(p.kind != "random" for p in self.policies)
        self.mars = None
        self.complete = None
        self.race12 = _race12_source(truncate, self.rules, cube)
        if truncate is not None:
            _bearoff_tables()                     # raise here, not in the workers
            self.mars = _mars_source(self.rules)
            self.complete = _complete_source(self.rules)
        elif self.use_tables:
            self.use_tables = _bearoff_available()
        self.cube = _cube_spec(self.rules, cube, cube_probabilities, self.position)

    @property
    def strata(self):
        """The strata of the first random roll: 30 (the opening's non-doubles) or 36."""
        return 30 if self.opening_dice else 36

    def specs(self, parallelism=1, keep_games=False):
        """Chunk specs and their game counts, as lazy sequences (``_Chunks`` and its
        ``sizes``: each spec is made when it is read, so a rollout of 10**12 games starts at once,
        holding no list of its 10**8 chunks).  With the default chunk size, chunks shrink
        (down to one block) so that ``parallelism`` workers get about 4 chunks each; the
        chunk size never changes the results."""
        block = _rng.BLOCK_GAMES
        n_blocks = -(-self.n_games // block)
        if self.auto_chunk:
            self.blocks_per_chunk = max(1, min(DEFAULT_CHUNK_GAMES // block,
                                               -(-n_blocks // (4 * parallelism))))
            self.chunk_games = self.blocks_per_chunk * block
        base = ChunkSpec(
            boards=np.array(self.position.boards), side0_white=self.position.side == WHITE,
            rules=self.rules, policies=self.policies, dice=self.dice,
            opening_dice=self.opening_dice, truncate=self.truncate is not None,
            use_tables=self.use_tables, mars=self.mars, complete=self.complete,
            race12=self.race12,
            entropy=self.entropy, n_games=self.n_games, block_games=block, cube=self.cube,
            variance_reduction=self.luck_turns, luck_net=self.estimator == "luck-net",
            filter_window=FILTER_WINDOW, keep_games=keep_games)
        chunks = _Chunks(base, n_blocks, self.blocks_per_chunk)
        return chunks, chunks.sizes


class _Chunks(Sequence):
    """The chunk specs of a rollout, each made when read (``chunks[i]``): ``base`` (the
    spec's common part) with ``first_block`` and ``n_blocks``.  Its ``sizes`` are the
    games of each chunk, with their sum as ``sizes.total``."""

    def __init__(self, base, n_blocks, blocks_per_chunk):
        self.base, self.n_blocks, self.per_chunk = base, n_blocks, blocks_per_chunk
        self.sizes = _ChunkGames(self)

    def __len__(self):
        return -(-self.n_blocks // self.per_chunk)

    def _index(self, i):
        if not isinstance(i, (int, np.integer)):
            raise TypeError(f"chunk index: expected an int, got {type(i).__name__}")
        n = len(self)
        if not -n <= i < n:
            raise IndexError(f"chunk {i} of {n}")
        return int(i) % n

    def __getitem__(self, i):
        first = self._index(i) * self.per_chunk
        return dataclasses.replace(                            # each chunk its own boards
            self.base, boards=np.array(self.base.boards), first_block=first,
            n_blocks=min(self.per_chunk, self.n_blocks - first))


class _ChunkGames(Sequence):
    """Games of each chunk of ``chunks`` (the last one short of whole blocks)."""

    def __init__(self, chunks):
        self.chunks = chunks
        self.total = int(chunks.base.n_games)

    def __len__(self):
        return len(self.chunks)

    def __getitem__(self, i):
        c = self.chunks
        first = c._index(i) * c.per_chunk
        block = c.base.block_games
        return min((first + min(c.per_chunk, c.n_blocks - first)) * block,
                   self.total) - first * block


class _Joined(Sequence):
    """Several lazy sequences end to end; ``locate(i)`` is ``(which, index there)``."""

    def __init__(self, parts):
        self.parts = list(parts)
        self.starts = list(itertools.accumulate(len(p) for p in self.parts))
        self.total = sum(getattr(p, "total", 0) for p in self.parts)

    def __len__(self):
        return self.starts[-1] if self.starts else 0

    def locate(self, i):
        if not 0 <= i < len(self):
            raise IndexError(f"item {i} of {len(self)}")
        j = bisect.bisect_right(self.starts, i)
        return j, i - (self.starts[j - 1] if j else 0)

    def __getitem__(self, i):
        j, k = self.locate(i)
        return self.parts[j][k]


def _race12_source(truncate, rules, cube):
    """The ``Race12`` of ``truncate="race12"`` (None otherwise); ValueError when it has
    not been built or cannot serve the rollout."""
    if truncate != "race12":
        return None
    if cube is not None or rules.cube is not None:
        raise ValueError("truncate='race12': the race database has no cube values; use "
                         "truncate='bearoff' with the cube")
    if not race12.supports(rules):
        raise ValueError("truncate='race12': the race database does not serve "
                         "block_rule='home'")
    db = race12.cached_race12()
    if db is None:
        raise ValueError("truncate='race12': the race database has not been built "
                         "(nardy-fast bearoff build --race12)")
    return db


@dataclasses.dataclass(frozen=True)
class ChunkSpec:
    """One chunk of a rollout, as sent to a worker (picklable; ``_run_chunk`` plays it).

    Blocks ``first_block .. first_block + n_blocks - 1`` of the rollout's random streams
    (``core.rng``: ``block_games`` games each, the last block cut at ``n_games``) from
    ``boards`` (``uint8``, shape (2, 24): the side on roll's board first, each side's
    numbering; ``side0_white`` whether that side is white).  The rest is the rollout's
    plan (``_Plan``), the same for every chunk: ``rules``; ``policies`` (two
    ``engine.play.policy.Policy``: side on roll, opponent); ``dice`` (a fixed first roll
    or None) and ``opening_dice`` (the first roll from the start is a non-double);
    ``truncate`` (stop at the bear-off), ``use_tables`` (load the bear-off databases in
    the worker), ``mars`` (``(path, max_checkers)`` of the mars table or None),
    ``complete`` (the complete two-sided table's store or None), ``race12`` (the race
    database or None); ``entropy`` (the root seed); ``cube`` (the cube part of the plan,
    ``_cube_spec``, or None); ``variance_reduction`` (None or the luck's leading random
    rolls, 0 every one), ``luck_net`` (use the luck net) and ``filter_window`` (the
    deeper net policies' move filter, in points).
    """

    boards: Any
    side0_white: bool
    rules: Any
    policies: tuple[Policy, Policy]
    dice: tuple[int, int] | None
    opening_dice: bool
    truncate: bool
    use_tables: bool
    mars: tuple[str, int] | None
    complete: Any
    race12: Any
    entropy: Any
    n_games: int
    block_games: int
    cube: tuple[Any, ...] | None
    variance_reduction: int | None
    luck_net: bool
    filter_window: float
    first_block: int = 0
    n_blocks: int = 0
    keep_games: bool = False


def _run_chunk(spec: ChunkSpec):
    """Worker entry point: play one chunk; returns ``(first_block, tally, truncated)``,
    and with ``spec.keep_games`` a fourth item, each block's per-game equities (a tuple
    of arrays, the estimator's value of each game, side 0's view)."""
    if not isinstance(spec, ChunkSpec):
        raise TypeError(f"_run_chunk: expected a ChunkSpec, got {type(spec).__name__}")
    rules = spec.rules
    tables = _bearoff_tables() if spec.use_tables else None
    if spec.mars is not None or spec.complete is not None:
        tables = race_tables(tables.one_sided, tables.two_sided,
                             None if spec.mars is None else _mars_tables(spec.mars, rules),
                             None if spec.complete is None
                             else serving(_complete_table(spec.complete), rules))
    per_game = None
    if spec.keep_games:
        g0 = spec.first_block * spec.block_games
        g1 = min((spec.first_block + spec.n_blocks) * spec.block_games, spec.n_games)
        per_game = np.zeros((max(0, g1 - g0), PER_GAME_WIDTH))
    tally, truncated = play_blocks(
        spec.boards, tables=tables, rules=rules,
        policies=tuple(p.c_form(rules) for p in spec.policies),
        side0_white=spec.side0_white, dice=spec.dice, opening_dice=spec.opening_dice,
        truncate=spec.truncate, entropy=spec.entropy, first_block=spec.first_block,
        n_blocks=spec.n_blocks, n_games=spec.n_games, block_games=spec.block_games,
        cube=None if spec.cube is None else _cube_arrays(spec.cube, rules),
        variance_reduction=spec.variance_reduction,
        filter_window=spec.filter_window,
        race12=None if spec.race12 is None else spec.race12.tables,
        luck_net=default_luck_net() if spec.luck_net else None, per_game=per_game)
    if per_game is None:
        return spec.first_block, tally, truncated
    cuts = range(spec.block_games, len(per_game), spec.block_games)
    return (spec.first_block, tally, truncated,
            tuple(np.split(np.ascontiguousarray(per_game[:, 1]), cuts)))


class _Merger:
    """Folds per-block tallies in block order (bit-identical for any chunking)."""

    def __init__(self):
        self.next_block = 0
        self.pending = {}
        self.tally = np.zeros((MAX_STRATA, TALLY_WIDTH), dtype=np.float64)
        self.truncated = np.zeros(2, dtype=np.int64)   # truncated, of them approximated
        self.block_games = {}             # block -> its per-game equities (keep_games)

    def add(self, result):
        first, tally, truncated = result[:3]
        for k in range(tally.shape[0]):
            self.pending[first + k] = (tally[k], np.array(truncated[k], dtype=np.int64))
        if len(result) > 3:
            self.block_games.update((first + k, g) for k, g in enumerate(result[3]))
        self._fold(contiguous=True)

    def _fold(self, contiguous):
        keys = sorted(self.pending)
        for k in keys:
            if contiguous and k != self.next_block:
                break
            t, n = self.pending.pop(k)
            # one assignment: a Ctrl-C between statements leaves a consistent state
            self.tally, self.truncated, self.next_block = self.tally + t, self.truncated + n, k + 1

    def finish(self):
        self._fold(contiguous=False)
        return self.tally, self.truncated

    def games(self, n_games):
        """The per-game equities of ``n_games`` games in game order, NaN for the games of
        blocks not played (an interrupted rollout)."""
        out = np.full(n_games, np.nan)
        block = _rng.BLOCK_GAMES
        for k, g in self.block_games.items():
            out[k * block:k * block + len(g)] = g
        return out


def _stratified(cnt):
    """Whether the tallies ``cnt`` (games per stratum of the first roll) have
    within-stratum variances: every stratum played has at least the two games of a
    variance (then every stratum has games: game ``g`` is in stratum ``g mod S``)."""
    return bool((cnt[cnt > 0] >= 2).all())


def _stratified_mean(cnt, sums):
    """The mean of per-game values from their tallies per stratum of the first roll
    (``cnt`` games, shape (strata,); ``sums``, shape (strata,) or (strata, quantities)):
    the mean of the strata's means, each roll counted by its chance (the module
    docstring); the plain mean when every stratum played has as many games (then the
    same, and every stratum is played: ``n_games >= S``, or fewer games whose first rolls
    were drawn, one game a tally).  Needs a game.
    The strata's sums are weighed over one common denominator (the least common multiple
    ``m`` of the strata's games, ``sum_h sums_h (m / n_h) / (S m)``), so that whole-number
    values (0/1 outcomes, points) give one rounding, as the plain mean does: P(win) and
    P(lose) still add up to 1, and games that won as many points as they lost to an
    equity of 0, not of 1.1e-17."""
    if _even(cnt):                                # the plain mean: the same, to the bit
        return sums.sum(axis=0) / cnt.sum()
    used = cnt > 0
    c = [int(k) for k in cnt[used]]
    m = math.lcm(*c)
    shape = (-1,) + (1,) * (sums.ndim - 1)
    if m > 2 ** 53:                               # weights no longer whole floats
        return (sums[used] / cnt[used].reshape(shape)).mean(axis=0)
    w = np.array([m // k for k in c], dtype=np.float64).reshape(shape)
    return (sums[used] * w).sum(axis=0) / (m * len(c))


def _even(cnt):
    """Whether every stratum played has as many games (the stratified and plain formulas
    are then one, and the plain one is used: its rounding is that of the results before
    the strata were weighed).  The tallies beyond the 30 strata of the opening's
    non-doubles stay empty."""
    played = cnt[cnt > 0]
    return bool((played == played[0]).all())


def _stratified_variance(cnt, sums, sq):
    """``(var, var_iid)``: the variance of the mean of per-game values (``_stratified_mean``)
    from their tallies per stratum of the first roll (``cnt`` games, shape (strata,);
    ``sums`` and ``sq`` of the values and their squares, shape (strata,) or (strata,
    quantities)): the stratified ``sum_h s_h**2 / (n_h S**2)`` over the ``S`` strata (the
    module docstring); where a stratum has a single game, the i.i.d. formula when every
    stratum has one, else the stratified formula with every ``s_h**2`` the sample
    variance of all the games (which adds the strata's spread: an upper bound);
    ``var_iid`` the i.i.d. formula (NaN for one game).
    Needs at least one game.  A sum of squared deviations within the rounding of its
    formula (``_deviations``) is 0: games of one value (every game of a stratum decided
    by its first roll) have no variance, not 1e-20."""
    n = cnt.sum()
    total, total_sq = sums.sum(axis=0), sq.sum(axis=0)
    spread = (_deviations(n, total, total_sq) / (n - 1) if n > 1    # the games' variance
              else np.full(np.shape(total), math.nan))
    var_iid = spread / n
    used = cnt > 0
    if not _stratified(cnt):
        if _even(cnt):
            return var_iid, var_iid
        return spread * float((1.0 / cnt[used]).sum()) / int(used.sum()) ** 2, var_iid
    c = cnt[used].reshape((-1,) + (1,) * (sums.ndim - 1))
    within = _deviations(c, sums[used], sq[used]) / (c - 1)
    if _even(cnt):
        return (c * within).sum(axis=0) / n ** 2, var_iid
    return (within / c).sum(axis=0) / int(used.sum()) ** 2, var_iid


def _deviations(n, total, total_sq):
    """The sum of squared deviations of ``n`` values from their sum and sum of squares,
    ``total_sq - total**2 / n``, and 0 where it is no larger than the rounding of the
    formula (each of the n additions of the sums may round by one unit, relative to
    ``total_sq``): such a remainder is not a variance the games have."""
    dev = total_sq - total ** 2 / n
    return np.where(dev > 8 * n * np.finfo(float).eps * total_sq, dev, 0.0)


def _variance_ratio(before, after):
    """``before / after`` of two variances of the same games: inf where only ``after`` is
    0 (all of the variance removed), NaN where ``before`` is 0 as well (none to remove)
    or either is NaN."""
    if after > 0:
        return float(before / after)
    return math.inf if before > 0 else math.nan


def _outcome(tally, truncated, extra, plan=None):
    cnt = tally[:, 0]
    sums = tally[:, 1:1 + _NQ]
    sq = tally[:, 1 + _NQ:1 + 2 * _NQ]
    n = cnt.sum()
    if n == 0:
        nan = math.nan
        return Outcome(p_win=nan, p_mars_win=nan, p_lose=nan, p_mars_loss=nan, equity=nan,
                       method="rollout", p_draw=nan, se_p_win=nan, se_equity=nan, games=0,
                       extra=extra)
    mean = _stratified_mean(cnt, sums)
    var, var_iid = _stratified_variance(cnt, sums, sq)
    se = np.sqrt(var)
    q = _Q
    extra = dict(extra)
    extra["n_games"] = int(n)
    if extra.get("estimator", "none") != "none":
        plain, eq = var[q["equity_plain"]], var[q["equity"]]
        extra["se_equity_plain"] = float(np.sqrt(plain))
        extra["equity_plain"] = float(mean[q["equity_plain"]])
        extra["p_win_plain"] = float(mean[q["p_win_plain"]])
        extra["luck_variance_ratio"] = _variance_ratio(plain, eq)
    extra["games_truncated"] = int(truncated[0])
    extra["games_approximated"] = int(truncated[1])
    extra["se_equity_unstratified"] = float(np.sqrt(var_iid[q["equity"]]))
    extra["variance_reduction_equity"] = _variance_ratio(var_iid[q["equity"]],
                                                         var[q["equity"]])
    if plan is not None and plan.cube is not None:
        extra.update(_cube_extra(plan, mean))
    served = method_kind(extra.get("valued_at_start") or "rollout")
    if served == "approximation" or (truncated[1] == n and not (se > 0).any()):
        # every game valued by an approximation, at the start or in the race it ended in
        # (each first roll's games alike): its error is not the games' spread (0) but the
        # approximation's, which nobody measured
        se = np.full_like(se, math.nan)
        extra["se_equity_unstratified"] = math.nan
    elif served == "exact":
        # every game the same exact value: its spread is 0, not the rounding left by the
        # sums of squares (5e-09)
        se = np.zeros_like(se)
        extra["se_equity_unstratified"] = 0.0
    out = Outcome(
        p_win=float(mean[q["p_win"]]), p_mars_win=float(mean[q["p_mars_win"]]),
        p_lose=float(mean[q["p_lose"]]), p_mars_loss=float(mean[q["p_mars_loss"]]),
        equity=float(mean[q["equity"]]), method="rollout", p_draw=float(mean[q["p_draw"]]),
        p_koks_win=float(mean[q["p_koks_win"]]), p_koks_loss=float(mean[q["p_koks_loss"]]),
        p_home_mars_win=float(mean[q["p_home_mars_win"]]),
        p_home_mars_loss=float(mean[q["p_home_mars_loss"]]),
        se_p_win=float(se[q["p_win"]]), se_p_mars_win=float(se[q["p_mars_win"]]),
        se_p_mars_loss=float(se[q["p_mars_loss"]]), se_equity=float(se[q["equity"]]),
        games=int(n), mean_length=float(mean[q["plies"]]), extra=extra,
        **{"se_" + name: float(se[q[name]]) for name in _MORE_SE})
    if plan is None:
        return keep_in_range(out)
    return keep_in_range(out, plan.rules, cube=plan.cube is not None, position=plan.position)


def _extra(plan, workers, client, interrupted):
    return {
        "seed": plan.entropy,
        "estimator": plan.estimator,
        "luck_net": (os.path.basename(DEFAULT_LUCK_NET) if plan.estimator == "luck-net"
                     else ""),
        "move_filter": FILTER_WINDOW if any(p.net_plies for p in plan.policies) else 0.0,
        "policy": "/".join(p.name for p in plan.policies)
        if plan.policies[0] is not plan.policies[1] else plan.policies[0].name,
        "truncate": plan.truncate if plan.truncate is not None else "none",
        "bearoff_policy": bool(plan.use_tables),
        "mars_table": 0 if plan.mars is None else plan.mars[1],
        "two_sided_complete": (0 if plan.complete is None else
                               _TABLES[("complete", plan.complete)].max_checkers),
        "dice": "" if plan.dice is None else f"{plan.dice[0]}-{plan.dice[1]}",
        "chunk_size": plan.chunk_games,
        "block_games": _rng.BLOCK_GAMES,
        "games_requested": plan.n_games,
        "interrupted": bool(interrupted),
        "backend": "dask" if client is not None else (
            "local" if workers == 1 else f"pool({workers or 'all'})"),
        "valued_at_start": _valued_at_start(plan),
    }


def as_served(outcome: Outcome) -> Outcome:
    """``outcome`` as what served it: a rollout that played no roll (every game valued at
    the start by a table, ``extra["valued_at_start"]``) becomes the table's value, its
    ``method`` the table's (``"two_sided"``, ``"one_sided"``, ...), ``games`` 0, its
    standard errors 0 where the table is exact (not the luck net's rounding) and NaN
    where it is the approximation; any other outcome is returned as it is.

    ``rollout`` itself keeps ``method="rollout"`` (a caller asked for a rollout and reads
    its extras); the reports and studies, which show how each value was obtained, show
    this."""
    table = outcome.extra.get("valued_at_start") if outcome.method == "rollout" else ""
    if not table:
        return outcome
    se = 0.0 if method_kind(table) == "exact" else math.nan
    return dataclasses.replace(outcome, method=table, games=0,
                               **{f.name: se for f in dataclasses.fields(outcome)
                                  if f.name.startswith("se_")})


def valued_by_cube_model(outcome: Outcome) -> bool:
    """Whether a cube-aware rollout's games measured nothing beyond its approximations:
    it played no game because the cube model valued its start (a bear-off that the
    cubeful race table does not cover: ``valued_at_start`` ``"janowski (...)"``), or
    every game ended in a race that the cube model or the one-sided approximation valued
    (``extra["games_approximated"]`` all of its games: a race that any first roll brings
    home, beyond the tables).  A caller that wants the games to judge the model rolls it
    out again with ``truncate=None``."""
    if outcome.extra.get("valued_at_start", "").startswith("janowski"):
        return True
    return bool(outcome.extra.get("cube") and outcome.games
                and outcome.extra.get("games_approximated", 0) == outcome.games)


def _valued_at_start(plan):
    """The ``method`` of the table that values every game of ``plan`` before its first
    roll, or ``""``: the position is already where the truncation stops a game (a race of
    both homes; with ``"race12"`` also a race the race database covers), no first roll is
    fixed.  Such a "rollout" plays nothing: its numbers are the table's, exact (standard
    errors 0) or the one-sided approximation (standard errors NaN: its error is not
    measured, as the table's own Outcome says).  With a cube in play a race of both homes
    is valued at the start by the C loop's cube (``_cubeloop.race_value``): ``"cuberace"``
    (exact) where the cubeful race table covers it, else Janowski's model on the race's
    probabilities, ``"janowski (METHOD)"``, an approximation."""
    p = plan.position
    if plan.truncate is None or plan.dice is not None:
        return ""
    if plan.cube is not None:
        if not p.is_bearoff() or plan.rules.draw_rule:
            return ""
        _, stake, owner, _, _ = plan.cube
        b = p.boards
        if cubeful_race(plan.rules.cube, plan.rules.beaver).covers(
                b[0, :17:-1], b[1, :17:-1], stake, cubestate.OWNERS[owner + 1]):
            return "cuberace"
        return f"janowski ({race_probabilities(p, plan.rules).method})"
    if p.is_bearoff():
        try:
            return race_probabilities(p, plan.rules).method
        except ValueError:                  # a finished game: refused before this
            return ""
    if plan.race12 is not None and not p.is_contact() and plan.race12.covers(p):
        return "one_sided12"
    return ""


def _check_workers(workers, client, policies):
    if workers is not None:
        workers = check_count(workers, "workers", 1)
    python = any(p.kind == "python" if isinstance(p, Policy) else callable(p)
                 for p in policies)
    if client is None and workers is None and python:
        workers = 1                       # Python policies stay in this process by default
    return workers


# ----------------------------------------------------------------------------------------
# public API

@settings_or_flat
def rollout(position: Position | str | npt.ArrayLike, n_games: int | None = None, *,
            policy: PolicyLike = "net",
            seed: SeedLike = None, rules: RulesLike = None,
            dice: tuple[int, int] | None = None, truncate: str | None = "bearoff",
            workers: int | None = None, client: Client | None = None,
            progress: bool | None = None,
            chunk_size: int | None = None, cube: bool | None = None,
            cube_probabilities: Callable[..., Any] | str | None = None,
            match: MatchState | None = None,
            variance_reduction: bool | str | None = None,
            cube_state: CubeState | None = None,
            settings: RolloutSettings | None = None,
            compute: Compute | None = None) -> Outcome:
    """Play ``n_games`` games from ``position`` and estimate its outcome probabilities.

    Every argument after ``n_games`` is keyword-only.

    Parameters
    ----------
    position : Position, str or array_like of int, shape (2, 24)
        The position (or its ID); the side on roll moves first.  Not a finished game.
    n_games : int or None
        Games to play, >= 1 (None only with ``settings``, which then says how many).
    policy : {"net", "greedy", "random", "net:1", "net:2"}, Evaluator, callable, or a tuple
        How both sides choose their moves (a tuple of two: side on roll, opponent).
        ``"net"`` (the default): the shipped evaluator (``Evaluator.default()``) at 0-ply,
        ``"net:1"`` at 1-ply (about 50 times slower), ``"net:2"`` at 2-ply (about 5,000
        times), or an ``Evaluator`` of your own at 0-ply; the games are played by the
        evaluator's ``rollout_net`` (the shipped one: v7, a two-layer net of 256 + 64
        units, the judge up to the wider net that judges now, which is stronger but too
        slow for the rollouts' speed floor; ``Evaluator.load(nets.DEFAULT_NET)`` plays
        the judge itself, ``Evaluator.load(nets.ONE_LAYER_NET)`` the one-layer net v7 was
        deepened from, the player up to 0.3.0; benchmarks/RESULTS.md, "The rollout
        player"); the deeper searches rank the
        moves at 0-ply and search only the evaluator's ``keep`` best of those within
        ``FILTER_WINDOW`` points of the best (``extra["move_filter"]``); see
        ``nardy_fast.engine.play._rollout`` for the greedy formula.  A callable
        ``fn(candidates, opponent) -> scores`` gets ``ndarray of uint8, shape (k, 24)``
        (the mover's boards after each legal move, mover's numbering) and the opponent's
        board (``shape (24,)``, its numbering) and returns ``k`` scores; the highest is
        played (ties: the lexicographically smallest board).  Once a mover has all its
        checkers home (the net: both sides), every policy but ``"random"`` plays the
        one-sided bear-off database's move of least expected turns (when the database is
        available).
    seed : None, int or numpy.random.SeedSequence
        The results depend on the seed only; ``None`` draws fresh entropy, recorded in
        ``extra["seed"]``.
    rules : Rules, dict or None
        Rule variants (``None``: classic): move rules, scoring, ``draw_rule`` and
        ``opening_roll`` (the latter only for games from the start).
    dice : None or (int, int)
        Fix the first roll of the side on roll (each die 1..6).
    truncate : {"bearoff", "race12", None}
        ``"bearoff"``: a game stops once both sides have all their checkers home and adds
        the bear-off probabilities ``race_probabilities`` gives for that race (needs
        ``nardy_fast.tables.bearoff``): exact from the two-sided table or, for 15 checkers
        against a few, from the mars table when it has been built for the rules' points
        (``bearoff.mars_table()``; never built by a rollout; ``extra["mars_table"]``
        records its checkers, 0 for none), else the one-sided approximation; the complete
        two-sided table (``bearoff_complete``) first, once it has been built
        (``nardy-fast bearoff build --two-sided 15``; ``extra["two_sided_complete"]``
        records its checkers, 0 for none).
        ``"race12"``: as ``"bearoff"``, and a game also stops at a race without contact
        (both sides on their last 12 points) with the race database's convolution values
        (``race12``; it must have been built: ``nardy-fast bearoff build --race12``; no
        cube, not ``block_rule="home"``); the net's search leaves use it too.  ``None``:
        every game is played to its end.
    workers : int or None
        ``1`` runs in this process; ``None`` uses all local cores (a process pool; this
        process for a single chunk or a Python policy); ``n`` a pool of ``n`` processes.
        Pools work from any front end (scripts with or without a main guard, ``python -``,
        ``-c``, the interactive interpreter, IPython, Jupyter); a callable policy the
        workers cannot import (defined in ``__main__``, a lambda) goes to them by value
        with cloudpickle, or without it runs in this process with a ``RuntimeWarning``
        (``nardy_fast.engine.play.parallel``).  The results are the same either way.
    client : dask.distributed.Client or None
        Run the chunks on a Dask cluster instead; the result is the same.
    progress : bool or None
        A bar of the games played (games/s).  True: a bar; False: none; None
        (default): a bar when standard error is a terminal (``core._progress``).
    chunk_size : int or None
        Games per task, rounded up to whole blocks of ``rng.BLOCK_GAMES``; default: about
        4 chunks per worker, at most ``DEFAULT_CHUNK_GAMES``.  It does not change the
        results.
    cube : bool or None
        Whether the cube is in play.  None (default): as the rules say (``rules.cube``);
        True: the rules' cube, the geometric one when they name none; False: no cube,
        whatever the rules.  (A ``CubeState`` here is a TypeError: it is ``cube_state``.)
    cube_state : CubeState or None
        With the cube in play (``"geometric"`` or ``"arithmetic"``) the games are played
        with the cube from this state (default: centred at stake 1): before each roll the side
        on roll doubles, and the opponent takes, passes or beavers, by the cube model of
        ``nardy_fast.engine.decisions.cube`` (exact in races of the cubeful race table, else Janowski's
        model with its efficiency); no raise on a side's first turn (all 15 checkers on its
        head), nor before a fixed first roll (``dice``) or, with ``cube.first_turn``, the
        side on roll's first roll; from the start, ``rules.autodouble``
        raises the stake once per tie of the opening throw (1/6 each, before play, the cube
        staying in the middle).  A game is won at the stake (a pass:
        the stake before the raise), with no mars; ``equity`` is the cubeful money equity
        per unit of the starting stake, truncated races adding their cubeful value.
        ``extra`` adds ``doubles_per_game``, ``takes_per_game``, ``passes_per_game``,
        ``beavers_per_game``, ``mean_final_stake`` and ``final_stakes`` (stake -> fraction
        of games).  Its stake must be one of the rules' progression (``CubeState.check``:
        1, 2, 4, ... geometric, at most 16 arithmetic).  Without the cube in play it must
        be None.
    cube_probabilities : None, callable or "pips"
        The cubeless P(win) of the side on roll for the cube decisions outside the exact
        tables.  None (default): the evaluator (``Evaluator.default()``: the net's 0-ply
        value, exact race values where the bear-off tables cover a race), in C in every
        worker.  A callable ``f(position) -> P(win)`` (or an Outcome or dict with
        ``p_win``): called in this process (the default ``workers`` is then 1).
        ``"pips"``: a pip-count estimate (the turns each side needs, normal, the side on
        roll half a turn ahead).  ``extra["cube_model"]`` names the source.
    match : MatchState or None
        The match score (``nardy_fast.core.matchrules``; its ``on_roll`` the position's side,
        its game's move rules and ``draw_rule`` those of ``rules``):
        ``extra`` adds ``mwc`` (the side on roll's match winning chance: the outcome
        kinds' frequencies through the match equity table, ``nardy_fast.engine.evaluation.met``),
        ``se_mwc`` (the i.i.d. multinomial SE of the outcome kinds, conservative for
        truncated games) and ``emg``.  Not with the cube in play.
    variance_reduction : None, bool or str
        Subtract each game's luck (``nardy_fast.engine.play.variance``) from every reported
        quantity.  ``True``: the most efficient estimator for the nets' depth; ``False``
        or ``"none"``: plain games; ``None`` (default): variance reduction where it pays
        (``variance.DEFAULT_ESTIMATOR``: with net policies); ``"luck"``: the luck of every
        random roll; ``"luck:K"``: of the first K only; ``"luck-net"``: of every roll,
        its per-roll values from the luck net (``nardy_fast.engine.play.lucknet``) where no
        move choice looked ahead to them.  Luck needs
        net policies for both sides (``ValueError`` otherwise).  ``extra["estimator"]``
        names the estimator (``extra["luck_net"]`` the luck net file it used, if any),
        ``extra["luck_variance_ratio"]`` the variance of the plain equity over the
        reduced one (``inf`` when the luck removed all of it, NaN when the plain
        equity had none), ``extra["equity_plain"]``, ``extra["p_win_plain"]`` and
        ``extra["se_equity_plain"]`` the plain estimates of the same games.
    settings : RolloutSettings or None
        All of ``n_games``, ``policy``, ``truncate``, ``variance_reduction``, ``dice``,
        ``chunk_size``, ``cube``, ``cube_state`` and ``cube_probabilities`` as one checked
        object (``nardy_fast.RolloutSettings``); then leave those keywords out (one
        written as well, even at its default, is a ``TypeError`` naming it;
        ``n_games=None`` may stay).
        The same settings give the same games as the same flat keywords.
    compute : Compute or None
        ``workers``, ``client`` and ``progress`` as one object (``nardy_fast.Compute``);
        then leave those keywords out (``TypeError`` otherwise).

    Returns
    -------
    Outcome
        ``method="rollout"``: probabilities for the side on roll before it rolls (with the
        cube, a pass counts as a win of the doubler), equity in
        points under the rules' scoring, standard errors, ``games``, ``mean_length`` in
        plies (for truncated games: plies played plus the expected remaining plies), and
        ``extra`` (seed, policy, truncation, chunk size, games truncated,
        ``se_equity_unstratified`` and ``variance_reduction_equity``, the module
        docstring's "Estimates and errors", ...;
        ``extra["valued_at_start"]``: the table's ``method`` when the position is already
        where the truncation stops a game, so no roll is played and the numbers are the
        table's, else ``""``; the standard errors are then the table's: 0 when it is
        exact, NaN for the one-sided approximation; ``extra["games_approximated"]``: of
        the games truncated (``games_truncated``), those whose race an approximation
        valued (the one-sided convolution beyond the exact tables, the race12 database,
        with the cube the cube model beyond the cubeful race table): the standard errors
        leave out the approximation's error, and are NaN when every game was so valued
        with no spread left between a first roll's games).  After Ctrl-C: the finished
        chunks' games, with ``extra["interrupted"] = True``.

    Raises
    ------
    KeyboardInterrupt
        Ctrl-C before any chunk finished (no game to estimate from).
    ValueError
        ``n_games <= 0``, an unknown policy or truncation, an invalid or finished
        position, dice out of 1..6, bear-off databases unavailable for ``"bearoff"``, a
        ``cube_state`` whose stake the rules' cube cannot have, a ``cube_state`` or
        ``cube_probabilities`` without the cube in play.

    Examples
    --------
    >>> import nardy_fast as nf
    >>> r = nf.rollout(nf.Position.initial(), 1296, policy="random", seed=1,
    ...                truncate=None, workers=1, progress=False)
    >>> r.games, round(r.p_win + r.p_lose + r.p_draw, 12), r.extra["games_truncated"]
    (1296, 1.0, 0)
    """
    settings = resolve_settings(
        "rollout", settings, n_games=n_games, policy=policy, truncate=truncate,
        variance_reduction=variance_reduction, dice=dice, chunk_size=chunk_size, cube=cube,
        cube_state=cube_state, cube_probabilities=cube_probabilities)
    compute = resolve_compute("rollout", compute, workers=workers, client=client,
                              progress=progress)
    return _rollout(position, settings, compute, seed, rules, match)


def _rollout(position, settings, compute, seed, rules, match):
    """``rollout`` of checked ``settings`` (RolloutSettings) and ``compute`` (Compute)."""
    s = settings
    rules, state, asked = _cube_in_play("rollout", s.cube, s.cube_state, rules)
    plan = _Plan(position, s.n_games, s.policy, seed, rules, s.dice, s.truncate,
                 s.chunk_size, state, s.cube_probabilities, s.variance_reduction)
    if match is not None:
        _match_allowed(match, plan, asked)
    client, progress = compute.client, compute.progress
    workers = _check_workers(compute.workers, client, plan.policies + (s.cube_probabilities,))
    specs, sizes = plan.specs(parallelism(workers, client))
    merger = _Merger()
    interrupted = run_chunks(_run_chunk, specs, lambda i, r: merger.add(r), sizes=sizes,
                             workers=workers, client=client, progress=progress)
    tally, truncated = merger.finish()
    out = _outcome(tally, truncated, _extra(plan, workers, client, interrupted), plan)
    if interrupted and out.games == 0:         # nothing to estimate from: no NaN result
        raise KeyboardInterrupt(                # a chunk's games count only together
            f"rollout interrupted before any chunk of its games finished (the first has "
            f"{sizes[0]:,} games; a smaller chunk_size keeps more of a cut rollout)")
    return out if match is None else with_match(out, match)


class Stopped(KeyboardInterrupt):
    """Ctrl-C (or SIGTERM, at the command line) that stopped a function of the package part
    way: its message says which function, where, and what is kept.

    A ``KeyboardInterrupt``, so every ``except KeyboardInterrupt`` takes it; a caller that
    adds to it or names it otherwise reads its attributes (``renamed``, ``keeping``), not
    its message.  The message is ``"<what>: stopped [at an interrupted rollout] <where>
    [(no answer rests on cut rollouts)][; <kept>...]"``.

    Parameters
    ----------
    what : str
        The function that stopped, at the head of the message (``"value_positions"``);
        the command line names its own command there instead.
    where : str
        Where it stopped, after ``"stopped"``: ``"in game 2 of 3"``; ``""`` at a cut
        rollout alone.
    cut_rollout : bool
        It stopped at a rollout cut by Ctrl-C (``stop_if_interrupted``): no answer rests on
        that rollout.
    kept : tuple of str
        What is kept and how to go on, each a clause after ``"; "``
        (``"nothing shown or written"``).

    Examples
    --------
    >>> e = Stopped("analyse_match", "in game 2 of 3")
    >>> str(e)
    'analyse_match: stopped in game 2 of 3'
    >>> str(e.renamed("analyse").keeping("nothing shown or written"))
    'analyse: stopped in game 2 of 3; nothing shown or written'
    >>> str(Stopped("cube_decision", cut_rollout=True))
    'cube_decision: stopped at an interrupted rollout (no answer rests on cut rollouts)'
    """

    def __init__(self, what: str, where: str = "", *, cut_rollout: bool = False,
                 kept: tuple[str, ...] = ()) -> None:
        self.what, self.where = what, where
        self.cut_rollout, self.kept = cut_rollout, tuple(kept)
        at = " ".join(p for p in ("at an interrupted rollout" if cut_rollout else "", where)
                      if p)
        said = (f"{what}: stopped {at}"
                + (" (no answer rests on cut rollouts)" if cut_rollout else ""))
        super().__init__("; ".join((said, *self.kept)))

    def renamed(self, what: str) -> Stopped:
        """The same stop with ``what`` at the head of its message."""
        return Stopped(what, self.where, cut_rollout=self.cut_rollout, kept=self.kept)

    def keeping(self, clause: str) -> Stopped:
        """The same stop with ``clause`` (what is kept, how to go on) added last."""
        return Stopped(self.what, self.where, cut_rollout=self.cut_rollout,
                       kept=self.kept + (clause,))


def stop_if_interrupted(outcomes: Iterable[Outcome], what: str) -> None:
    """``Stopped`` (a ``KeyboardInterrupt``) if one of ``outcomes`` is a rollout cut by
    Ctrl-C (``extra["interrupted"]``).

    One ``rollout`` (or ``rollout_outcomes`` run) keeps the games it finished and returns
    them marked; a function that runs several rollouts in a row, or builds one answer from
    rollouts, calls this right after each, so that Ctrl-C stops it at once instead of
    starting the next rollout or presenting the cut one as whole.  ``what`` names the
    function in the message."""
    if any(o.extra.get("interrupted") for o in outcomes):
        raise Stopped(what, cut_rollout=True)


def _match_allowed(match, plan, cube):
    if cube:                        # asked for (cube=True, cube_state=), as before the rename
        raise ValueError("match: a rollout with the cube does not report match winning "
                         "chances (pass neither cube=True nor cube_state=)")
    check_match(match, [plan.position], rules=plan.rules)


@settings_or_flat
def rollout_many(positions: Iterable[Position | str] | pd.Series,
                 n_games: int | None = None, *,
                 policy: PolicyLike = "net",
                 seed: SeedLike = None, rules: RulesLike = None,
                 dice: tuple[int, int] | None = None, truncate: str | None = "bearoff",
                 workers: int | None = None, client: Client | None = None,
                 progress: bool | None = None, chunk_size: int | None = None,
                 cube: bool | None = None,
                 cube_probabilities: Callable[..., Any] | str | None = None,
                 variance_reduction: bool | str | None = None,
                 cube_state: CubeState | None = None,
                 match: MatchState | None = None,
                 settings: RolloutSettings | None = None,
                 compute: Compute | None = None) -> pd.DataFrame:
    """Roll out several positions; a DataFrame with one row per position.

    Every position is rolled out as ``rollout`` would with the same arguments (the same
    seed for each: common random numbers, game ``k`` of each position throws the same
    dice for as long as both games last, so differences between positions are estimated
    more precisely than either value), but all chunks share one pool or cluster run.

    Parameters
    ----------
    positions : Position, position ID or an iterable of them
        A list, a pandas Series of IDs, ... (``core.position.position_list``: one
        Position or ID is one position).
    n_games, policy, seed, rules, dice, truncate, workers, client, progress, chunk_size
    cube, cube_state, cube_probabilities, variance_reduction
        As for ``rollout``.
    match : MatchState or None
        The match score (as for ``rollout``; its ``on_roll`` every position's side):
        adds the columns ``extra_mwc``, ``extra_se_mwc`` and ``extra_emg``.
    settings, compute
        ``RolloutSettings`` and ``Compute`` instead of the flat keywords (as for
        ``rollout``).  Every argument after ``n_games`` is keyword-only.

    Returns
    -------
    pandas.DataFrame
        Index: the position IDs (name ``"position"``, as every frame keyed by position
        ID); columns: ``Outcome.to_dict()``.  ``attrs["seed"]``: the seed of every row
        (drawn afresh and recorded when ``seed`` is None).

    Examples
    --------
    >>> import nardy_fast as nf
    >>> races = nf.race_sample(2, seed=1)
    >>> rm = nf.rollout_many(races, 72, policy="random", seed=1, truncate=None, workers=1,
    ...                      progress=False)
    >>> rm[["games", "p_win", "se_p_win", "equity"]].round(3)
                                       games  p_win  se_p_win  equity
    position
    WAAAAAAAAAAAAAAAAAAAAAAAAIBIBECEh     72  0.181     0.042  -0.639
    WAAAAAAAAAAAAAAAAAAAAAAAAIgICIBIh     72  0.958     0.024   0.917
    """
    import pandas as pd          # lazy: pandas is slow to import; import nardy_fast skips it
    positions = position_list(positions)
    settings = resolve_settings(
        "rollout_many", settings, n_games=n_games, policy=policy, truncate=truncate,
        variance_reduction=variance_reduction, dice=dice, chunk_size=chunk_size, cube=cube,
        cube_state=cube_state, cube_probabilities=cube_probabilities)
    compute = resolve_compute("rollout_many", compute, workers=workers, client=client,
                              progress=progress)
    seed = _rng.root_entropy(seed)          # recorded: a fresh seed is drawn once, here
    outs = _rollout_outcomes(positions, settings, compute, seed, rules, match)
    frame = pd.DataFrame([o.to_dict() for o in outs],
                         index=pd.Index([p.id for p in positions], name="position"))
    frame.attrs["seed"] = seed
    return frame


@settings_or_flat
def rollout_outcomes(positions: Iterable[Position | str], n_games: int | None = None, *,
                     policy: PolicyLike = "net",
                     seed: SeedLike = None, rules: RulesLike = None,
                     dice: tuple[int, int] | None = None, truncate: str | None = "bearoff",
                     workers: int | None = None, client: Client | None = None,
                     progress: bool | None = None, chunk_size: int | None = None,
                     cube: bool | None = None,
                     cube_probabilities: Callable[..., Any] | str | None = None,
                     variance_reduction: bool | str | None = None,
                     cube_state: CubeState | None = None,
                     match: MatchState | None = None,
                     settings: RolloutSettings | None = None,
                     compute: Compute | None = None) -> list[Outcome]:
    """``rollout_many``'s rollouts as one ``Outcome`` per position, in order (the same
    arguments, one pool or cluster run, the same seed for each position; with ``match``,
    each at the match score, ``met.with_match``).

    Raises ``ValueError`` for no positions, and as ``rollout`` for bad arguments.
    """
    settings = resolve_settings(
        "rollout_outcomes", settings, n_games=n_games, policy=policy, truncate=truncate,
        variance_reduction=variance_reduction, dice=dice, chunk_size=chunk_size, cube=cube,
        cube_state=cube_state, cube_probabilities=cube_probabilities)
    compute = resolve_compute("rollout_outcomes", compute, workers=workers, client=client,
                              progress=progress)
    return _rollout_outcomes(positions, settings, compute, seed, rules, match,
                             func="rollout_outcomes")


@settings_or_flat
def rollout_games(positions: Iterable[Position | str], n_games: int | None = None, *,
                  policy: PolicyLike = "net",
                  seed: SeedLike = None, rules: RulesLike = None,
                  dice: tuple[int, int] | None = None, truncate: str | None = "bearoff",
                  workers: int | None = None, client: Client | None = None,
                  progress: bool | None = None, chunk_size: int | None = None,
                  cube: bool | None = None,
                  cube_probabilities: Callable[..., Any] | str | None = None,
                  variance_reduction: bool | str | None = None,
                  cube_state: CubeState | None = None,
                  match: MatchState | None = None,
                  settings: RolloutSettings | None = None,
                  compute: Compute | None = None) -> RolloutGames:
    """``rollout_outcomes``'s rollouts with every game's equity kept: a ``RolloutGames``,
    whose ``difference(i, j)`` gives the difference of two positions' equities with its
    paired standard error.

    The same arguments and the same numbers as ``rollout_outcomes`` (one seed for every
    position, so game ``k`` of each throws the same dice for as long as both games
    last); it also keeps one float per game and position (8 bytes each: 8 MB for a
    million games), at most ``KEEP_GAMES_LIMIT`` in all (``ValueError`` beyond it).

    Returns
    -------
    RolloutGames
        The positions' Outcomes, in order, and their games' equities.

    Examples
    --------
    Two moves of a roll, rolled out by the greedy policy: the difference of their
    equities is known to 0.069, not to the 0.18 the two SEs add up to.

    >>> import nardy_fast as nf
    >>> pos = nf.random_game(seed=3, policy="greedy").positions()[12]
    >>> afters = [pos.play(m) for m in pos.legal_moves((4, 2))][:2]
    >>> rg = nf.rollout_games(afters, 144, policy="greedy", seed=1, workers=1,
    ...                       progress=False)
    >>> rg.equity.shape
    (2, 144)
    >>> d, se = rg.difference(0, 1)
    >>> round(d, 3), round(se, 3)
    (0.031, 0.069)
    >>> round(rg.outcomes[0].se_equity + rg.outcomes[1].se_equity, 3)
    0.18
    """
    settings = resolve_settings(
        "rollout_games", settings, n_games=n_games, policy=policy, truncate=truncate,
        variance_reduction=variance_reduction, dice=dice, chunk_size=chunk_size, cube=cube,
        cube_state=cube_state, cube_probabilities=cube_probabilities)
    compute = resolve_compute("rollout_games", compute, workers=workers, client=client,
                              progress=progress)
    return _rollout_outcomes(positions, settings, compute, seed, rules, match,
                             keep_games=True, func="rollout_games")


@dataclasses.dataclass(frozen=True, eq=False)
class RolloutGames:
    """Rollouts of one seed with the equity of each of their games.

    Made by ``rollout_games`` (and, one position at a time, by the cube decisions'
    rollouts).  Game ``k`` of every rollout here threw the same dice for as long as both
    games lasted (common random numbers), so the per-game differences between two
    positions vary much less than either position's games, and the standard error of a
    difference from them (``difference``) is smaller than the sum of the two standard
    errors, the bound that holds whatever the rollouts' correlation.

    Attributes
    ----------
    outcomes : tuple of Outcome
        The rollouts' results, as ``rollout_outcomes`` gives them.
    equity : ndarray of float64, shape (positions, n_games)
        Game ``k``'s equity in position ``i``'s rollout (points per unit of the starting
        stake, the side on roll's view; with variance reduction the luck-corrected
        value), whose stratified mean (the mean of its strata's means; the plain mean
        when ``n_games`` is a multiple of ``strata`` or at most ``strata``) is
        ``outcomes[i].equity`` (less its ``extra["equity_adjustment"]`` when
        the estimate was moved to a possible one); NaN for a game not played (a rollout
        cut by Ctrl-C).
    strata : tuple of int
        Each rollout's strata of its first random roll (36, or 30 from the start with the
        opening's non-doubles): game ``k`` is in stratum ``k mod strata``.

    Examples
    --------
    >>> import nardy_fast as nf
    >>> race = nf.random_game(seed=3, policy="race").positions()[60]
    >>> afters = [race.play(m) for m in race.legal_moves((6, 4))][:2]
    >>> rg = nf.rollout_games(afters, 72, policy="greedy", seed=2, workers=1,
    ...                       progress=False)
    >>> rg.strata, bool(abs(rg.equity[0].mean() - rg.outcomes[0].equity) < 1e-12)
    ((36, 36), True)
    """

    outcomes: tuple[Outcome, ...]
    equity: np.ndarray
    strata: tuple[int, ...]

    def difference(self, i: int, j: int) -> tuple[float, float]:
        """``(d, se)``: position ``i``'s equity minus position ``j``'s (their outcomes'),
        and the standard error of that difference from the games both rollouts played
        (``difference_se``; stratified when both have the same strata).  Points per
        unit stake, the side on roll's view of each position."""
        n = len(self.outcomes)
        for name, k in (("i", i), ("j", j)):
            try:
                check_int(k, -n, n - 1, f"difference: {name}")
            except ValueError:
                raise IndexError(f"difference: {name}={k}: there are {n} positions "
                                 f"(0 .. {n - 1})") from None
        strata = self.strata[i] if self.strata[i] == self.strata[j] else 1
        return (self.outcomes[i].equity - self.outcomes[j].equity,
                difference_se(self.equity[i], self.equity[j], strata=strata))


def keeps_games(n_games: int, n_positions: int = 1) -> bool:
    """Whether ``rollout_games`` keeps the games of ``n_positions`` rollouts of
    ``n_games`` each: at most ``KEEP_GAMES_LIMIT`` floats in all.  Beyond it the callers
    that pair rollouts (the move report, the cube decisions) roll out without keeping
    the games and fall back on the sum of the standard errors, a bound."""
    return n_games * n_positions <= KEEP_GAMES_LIMIT


def difference_se(a: npt.ArrayLike, b: npt.ArrayLike, *, strata: int = 36) -> float:
    """Standard error of the difference of the means of the per-game values of two
    rollouts made with one seed (game ``k`` of each threw the same dice), from the games
    both played.

    The per-game differences ``a[k] - b[k]`` are estimated as a rollout's values are
    (module docstring): the within-stratum variances of their first roll's ``S`` strata,
    ``se**2 = sum_h s_h**2 / (n_h S**2)``, where game ``k`` is in stratum ``k mod strata``
    (``strata=1``: the i.i.d. formula, for rollouts whose strata differ).

    Parameters
    ----------
    a, b : array_like of float, shape (n_games,)
        Per-game values (``RolloutGames.equity`` rows), NaN for games not played; games
        played by only one of the two are left out.  Infinite
        values are a ``ValueError``.
    strata : int
        The rollouts' strata of the first random roll (36, or 30 from the start with the
        opening's non-doubles).

    Returns
    -------
    float
        The standard error (the values' unit), NaN with fewer than two common games.

    Examples
    --------
    >>> round(difference_se([1.0, 0.0, 1.0, 0.0], [1.0, 1.0, 0.0, 0.0], strata=1), 3)
    0.408
    """
    a = np.asarray(a, dtype=np.float64)
    b = np.asarray(b, dtype=np.float64)
    if a.ndim != 1 or a.shape != b.shape:
        raise ValueError(f"difference_se: a and b must be per-game arrays of one length, "
                         f"got shapes {a.shape} and {b.shape}")
    for name, x in (("a", a), ("b", b)):
        if np.isinf(x).any():
            k = int(np.flatnonzero(np.isinf(x))[0])
            raise ValueError(f"difference_se: {name}: game {k} is {x[k]}; expected the "
                             "games' values, NaN for a game not played")
    strata = check_count(strata, "strata", 1)
    d = a - b
    games = np.flatnonzero(~np.isnan(d))
    n = len(games)
    if n < 2:
        return math.nan
    d = d[games]
    h = games % strata
    var, _ = _stratified_variance(np.bincount(h, minlength=strata),  # a rollout's formula
                                  np.bincount(h, d, strata), np.bincount(h, d * d, strata))
    return float(math.sqrt(var))


def _rollout_outcomes(positions, settings, compute, seed, rules, match, keep_games=False,
                      func="rollout_many"):
    """``rollout_outcomes`` of checked ``settings`` and ``compute``; with ``keep_games``
    a ``RolloutGames`` of them instead (``func``: the public function, in messages)."""
    s = settings
    positions = position_list(positions)
    if not positions:
        raise ValueError("positions: empty; expected at least one position")
    if keep_games and not keeps_games(s.n_games, len(positions)):
        raise ValueError(
            f"rollout_games: {len(positions)} position(s) x n_games={s.n_games} would keep "
            f"{len(positions) * s.n_games:,} games' equities, more than KEEP_GAMES_LIMIT "
            f"({KEEP_GAMES_LIMIT:,}, {KEEP_GAMES_LIMIT * 8 // 2**20} MB); roll out fewer "
            "games or positions at a time, or use rollout_outcomes (no games kept)")
    entropy = _rng.root_entropy(seed)
    rules, state, asked = _cube_in_play(func, s.cube, s.cube_state, rules)
    plans = [_Plan(p, s.n_games, s.policy, entropy, rules, s.dice, s.truncate, s.chunk_size,
                   state, s.cube_probabilities, s.variance_reduction) for p in positions]
    if match is not None:
        for plan in plans:
            _match_allowed(match, plan, asked)
    client, progress = compute.client, compute.progress
    workers = _check_workers(compute.workers, client,
                             plans[0].policies + (s.cube_probabilities,))
    parts = [plan.specs(parallelism(workers, client), keep_games) for plan in plans]
    specs = _Joined(s for s, _ in parts)
    sizes = _Joined(z for _, z in parts)
    mergers = [_Merger() for _ in plans]
    interrupted = run_chunks(_run_chunk, specs,
                             lambda i, r: mergers[specs.locate(i)[0]].add(r),
                             sizes=sizes, workers=workers, client=client, progress=progress)
    outs = []
    for plan, merger in zip(plans, mergers):
        tally, truncated = merger.finish()
        out = _outcome(tally, truncated, _extra(plan, workers, client, interrupted), plan)
        outs.append(out if match is None else with_match(out, match))
    if not keep_games:
        return outs
    return RolloutGames(tuple(outs),
                        np.array([m.games(p.n_games) for m, p in zip(mergers, plans)]),
                        tuple(p.strata for p in plans))
