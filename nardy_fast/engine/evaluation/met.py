"""Match equity tables (MET) for long nardy, computed from the toolkit's own play.

``match_equity_table(length, cube=False, rules=None)`` returns ``M`` with ``M.loc[a, b]``
the chance that the side needing ``a`` points wins the match against one needing ``b``,
at the start of a game before the opening roll (who starts not yet known).

Inputs: the outcome distribution of one game from the start for the side that moves first
(``start_distribution``): a rollout of the start with the shipped net at 0-ply, stored as
package data (``data/start_outcomes.json``, written by ``nardy-fast met --rollout``), one
entry per (``draw_rule``, ``opening_roll``).

Cubeless (exact given that distribution): games are independent given who starts, so the
chances follow by recursion over the scores; who starts the next game follows
``MatchRules.starter`` (the winner, the opening roll, or alternately; after a draw: the
opening roll, or the other side when alternating).  Draws score ``MatchRules.draw``; a
draw (or a replayed game) that changes nothing, or would end the match for both sides,
is played again.

Cubeful: Zadeh's model (N. Zadeh, "On doubling in tournament backgammon", Management
Science 23, 1977, the model GNU Backgammon's ``mec`` tables rest on): a game's winning
chance moves continuously (a fully live cube, efficiency 1), and each game is won or lost
at the stake (with the cube long nardy has no mars, rule book section 7a, so Zadeh's
gammon-free model is exact in that respect).  A cube owner raises where it pays most (an
optimal stopping problem: the smallest concave majorant of its payoff); with the cube in
the middle both may raise (the stopping regions found by alternating best replies).  The
values are computed on a grid of ``GRID`` winning chances and read at the start's chance;
the first-turn ban on raises is not modelled.  Real play turns the cube in jumps (market
losers), so the table mixes, as Janowski's cube-efficiency model does for money play, the
live value with the dead-cube one at the start of each game: ``x * live + (1 - x) *
dead`` with ``x = TABLE_EFFICIENCY`` (0.68, GNU Backgammon's contact value, with which
the table was measured against whole matches: ``benchmarks/bench_match.py table``);
``x = 1`` is Zadeh's model itself.  With ``crawford``: the first game after a
side reaches one point from the end has no cube; the ``post_crawford`` table follows it.
"""
from __future__ import annotations

import json
import math
import os
from dataclasses import replace
from functools import lru_cache

import numpy as np

from nardy_fast.engine.evaluation.cubemodel import CONTACT_EFFICIENCY, actions
from nardy_fast.core._checks import check_fraction
from nardy_fast.core.cubestate import next_stake
from nardy_fast.core.methods import warn_unused
from nardy_fast.core.matchrules import MatchRules, MatchState, as_match_rules, check_match
from nardy_fast.core.result import Outcome
from nardy_fast.core.rules import CLASSIC as CLASSIC_RULES, Rules, check_flag

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from nardy_fast.core.rules import RulesLike
    import numpy.typing as npt
    import pandas as pd

__all__ = ["match_equity_table", "post_crawford_table", "start_distribution",
           "MetSolver", "KINDS", "DATA_FILE", "GRID", "TABLE_EFFICIENCY", "with_match",
           "match_extra"]

DATA_FILE = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(__file__))), "data",
                         "start_outcomes.json")
GRID = 2001
# The cube efficiency of the cubeful tables: the live/dead mix at the start of each game
# (module docstring).  GNU Backgammon's contact value, kept because the shipped tables
# were measured against whole matches with it ("Table against play" in RESULTS.md); a
# position's own efficiency for its cube decision is ``cubemodel.efficiency``.
TABLE_EFFICIENCY = 0.68
KINDS = ("oin", "mars", "koks", "home_mars")      # exclusive kinds of a win


def _variant_key(rules):
    return f"draw_rule={str(rules.draw_rule).lower()} opening_roll={rules.opening_roll}"


def start_distribution(rules: MatchRules | RulesLike = None) -> dict[str, Any]:
    """Exclusive outcome probabilities of a game from the start for the first mover.

    Returns a dict: ``win_<kind>``, ``loss_<kind>`` for each of ``KINDS`` and ``draw``
    (summing to 1), plus ``source`` (the rollout's settings).  Raises ``ValueError``
    naming the variant when the package data has no rollout for it (``nardy-fast met
    --rollout`` adds it).

    Returns
    -------
    dict
        ``win_<kind>``, ``loss_<kind>`` and ``draw`` as above, with the rollout's
        settings (``games``, ``seed``, ``policy``, ``net``, ``truncate``, ``se_p_win``).

    Examples
    --------
    >>> import nardy_fast as nf
    >>> d = nf.start_distribution()
    >>> d["games"], round(d["win_oin"] + d["win_mars"] + d["win_koks"] + d["win_home_mars"], 2)
    (46656, 0.59)
    """
    rules = as_match_rules(rules).rules
    key = _variant_key(rules)
    data = _load_data()
    if key not in data:
        raise ValueError(f"rules ({key}): no rollout of the start in {DATA_FILE}; run "
                         "`nardy-fast met --rollout` for this variant")
    return dict(data[key])


@lru_cache(maxsize=1)
def _load_data_cached(mtime):
    with open(DATA_FILE, encoding="utf-8") as f:
        return json.load(f)


def _load_data():
    if not os.path.exists(DATA_FILE):
        return {}
    return _load_data_cached(os.path.getmtime(DATA_FILE))


def distribution_of(outcome: Outcome) -> dict[str, float]:
    """The exclusive outcome probabilities (``start_distribution``'s keys) of an
    ``Outcome`` (the side on roll's view)."""
    o = outcome
    d = {"win_koks": o.p_koks_win, "win_home_mars": o.p_home_mars_win,
         "loss_koks": o.p_koks_loss, "loss_home_mars": o.p_home_mars_loss,
         "draw": o.p_draw}
    d["win_mars"] = o.p_mars_win - o.p_koks_win - o.p_home_mars_win
    d["win_oin"] = o.p_win - o.p_mars_win
    d["loss_mars"] = o.p_mars_loss - o.p_koks_loss - o.p_home_mars_loss
    d["loss_oin"] = o.p_lose - o.p_mars_loss
    return {k: float(v) for k, v in d.items()}


def check_distribution(dist) -> dict:
    """``dist`` as a dict if it is a game's outcome distribution (``start_distribution``'s
    keys: ``win_<kind>`` and ``loss_<kind>`` for each of ``KINDS``, ``draw`` optional;
    other keys, such as a rollout's settings, are kept, but a ``win_`` or ``loss_`` key of
    no kind is a misspelling): each a probability, summing to 1 within 1e-6.  Else an
    error naming ``dist`` and what is wrong."""
    if not isinstance(dist, Mapping):
        raise TypeError(f"dist: expected a mapping of outcome probabilities "
                        f"(start_distribution's keys), got {type(dist).__name__}")
    keys = [f"{side}_{k}" for side in ("win", "loss") for k in KINDS]
    missing = [k for k in keys if k not in dist]
    if missing:
        raise ValueError(f"dist: no {missing[0]!r}; expected win_<kind> and loss_<kind> for "
                         f"each kind {KINDS} (and draw), as start_distribution gives them")
    unknown = [k for k in dist if isinstance(k, str) and k.startswith(("win_", "loss_"))
               and k not in keys]
    if unknown:
        raise ValueError(f"dist: {unknown[0]!r} is no outcome; expected win_<kind> and "
                         f"loss_<kind> for each kind {KINDS} (and draw)")
    out = dict(dist)
    for k in keys + (["draw"] if "draw" in dist else []):
        out[k] = check_fraction(dist[k], f"dist[{k!r}]")
    total = sum(out[k] for k in keys) + out.get("draw", 0.0)
    if abs(total - 1.0) > 1e-6:
        raise ValueError(f"dist: the outcome probabilities sum to {total:.6g}, not 1")
    return out


class MetSolver:
    """The match recursion for one regulation and one game distribution.

    ``value(i, j, s)``: chance that side X (needing ``i`` units) wins the match, at the
    start of a game whose first mover is X (``s = 0``), the other side (``s = 1``) or
    not yet thrown for (``s = 2``).  Units are ``MatchRules.unit`` points.
    """

    def __init__(self, match_rules: MatchRules | RulesLike, dist: Mapping[str, float] | None = None,
                 cube: bool = False, x: float | None = None) -> None:
        self.mr = as_match_rules(match_rules)
        self.x = (TABLE_EFFICIENCY if x is None
                  else check_fraction(x, "x", "the cube efficiency"))
        self.dist = (check_distribution(dist) if dist is not None
                     else start_distribution(self.mr.rules))
        self.cube = bool(cube)
        rules = self.mr.rules
        if self.cube and not self.mr.cube:
            self.mr = replace(self.mr, rules=replace(rules, cube="geometric"))
        if not self.cube and self.mr.cube:
            self.mr = replace(self.mr, crawford=False, rules=replace(
                rules, cube=None, beaver=False, autodouble=False))
        if self.cube and self.dist.get("draw", 0.0) > 0:
            raise ValueError("the cube in a match with draws (draw_rule=true): the cubeful "
                             "match model has no draws; play without the cube or without "
                             "draw_rule")
        self.unit = 1.0 if self.cube else self.mr.unit
        self._memo = {}
        self._moves = self._game_moves()

    # -- the game -----------------------------------------------------------------------
    def _game_moves(self):
        """(probability, units won by the first mover (negative: lost), kind) per
        outcome; with the cube only P(first mover wins)."""
        d = self.dist
        if self.cube:
            p = sum(d[f"win_{k}"] for k in KINDS)
            return [(p, 1, "win"), (1.0 - p, -1, "loss")]
        out = []
        for k in KINDS:
            pts = round(self.mr.game_points(k) / self.unit)
            out.append((d[f"win_{k}"], pts, "win"))
            out.append((d[f"loss_{k}"], -pts, "loss"))
        out.append((d.get("draw", 0.0), round(self.mr.draw_points() / self.unit), "draw"))
        return [m for m in out if m[0] > 0]

    def next_starter(self, s, winner):
        """Who starts the next game (0: X, 1: Y, 2: thrown for) after a game started by
        ``s`` and won by ``winner`` (0, 1; None: a draw)."""
        rule = self.mr.starter
        if rule == "alternate":
            return 1 - s if s in (0, 1) else 2
        if rule == "opening_roll" or winner is None:
            return 2
        return winner

    def terminal(self, i, j, s, state="normal"):
        """Value after a game: 1 / 0 when a side has reached the length, else the
        recursion (the Crawford state follows when a side reaches one point away)."""
        if i <= 0:
            return 1.0
        if j <= 0:
            return 0.0
        return self.value(i, j, s, state)

    def _after_state(self, ni, nj, state):
        """The Crawford state of the next game: the first game with a side one point
        away is the Crawford game, the later ones are post-Crawford."""
        if not (self.cube and self.mr.crawford):
            return "normal"
        if state in ("crawford", "post"):
            return "post"
        return "crawford" if 1 in (ni, nj) else "normal"

    def value(self, i, j, s, state="normal"):
        """The chance of X at (i, j) units, starter ``s`` (class docstring); ``state``
        "normal", "crawford" (this game without the cube) or "post" (after it)."""
        key = (i, j, s, state)
        if key not in self._memo:
            if s == 2:
                v = 0.5 * (self.value(i, j, 0, state) + self.value(i, j, 1, state))
            elif self.cube:
                v = self._cubeful(i, j, s, state)
            else:
                v = self._cubeless(i, j, s)
            self._memo[key] = v
        return self._memo[key]

    # -- cubeless -----------------------------------------------------------------------
    def _cubeless(self, i, j, s):
        both = self._cubeless_parts(i, j, s)
        other = self._cubeless_parts(i, j, 1 - s)
        x, d_open, d_self, d_other = both
        # v_s = x + d_open (v0 + v1) / 2 + d_self v_s + d_other v_{1-s}: solve the 2 x 2
        xo, do_open, do_self, do_other = other
        a = np.array([[1 - d_self - d_open / 2, -d_other - d_open / 2],
                      [-do_other - do_open / 2, 1 - do_self - do_open / 2]])
        return float(np.linalg.solve(a, [x, xo])[0])

    def _cubeless_parts(self, i, j, s):
        """One game from (i, j) started by s: the value reached elsewhere ``x`` and the
        probabilities of replaying (i, j) with the opening roll, the same or the other
        starter."""
        x = d_open = d_self = d_other = 0.0
        for p, units, kind in self._moves:
            if kind == "draw":
                ni, nj, winner = i - units, j - units, None
            elif (kind == "win") == (s == 0):        # X wins
                ni, nj, winner = i - abs(units), j, 0
            else:
                ni, nj, winner = i, j - abs(units), 1
            ns = self.next_starter(s, winner)
            if (ni, nj) == (i, j) or (ni <= 0 and nj <= 0):
                if ns == 2:
                    d_open += p
                elif ns == s:
                    d_self += p
                else:
                    d_other += p
            else:
                x += p * self.terminal(ni, nj, ns)
        return x, d_open, d_self, d_other

    # -- cubeful (Zadeh) ----------------------------------------------------------------
    def _cubeful(self, i, j, s, state):
        p_first = self._moves[0][0]
        p0 = p_first if s == 0 else 1.0 - p_first
        win = self._after(i, j, s, state, 0)
        lose = self._after(i, j, s, state, 1)
        if state == "crawford" or (i == 1 and j == 1):
            return p0 * win(1) + (1 - p0) * lose(1)
        fn = self.cube_functions(i, j, s, state)[("centre", 1)]
        dead = p0 * win(1) + (1 - p0) * lose(1)
        return self.x * float(np.interp(p0, _GRID, fn)) + (1 - self.x) * dead

    def _after(self, i, j, s, state, winner):
        ns = self.next_starter(s, winner)

        def f(c):
            ni, nj = (i - c, j) if winner == 0 else (i, j - c)
            return self.terminal(ni, nj, ns, self._after_state(ni, nj, state))
        return f

    def cube_functions(self, i, j, s, state="normal"):
        """X's chance as a function of its game winning chance (on ``GRID``) for each
        cube: ``{(owner, stake): array}``, owner "X", "Y" or "centre"."""
        key = ("fn", i, j, s, state)
        if key in self._memo:
            return self._memo[key]
        win, lose = self._after(i, j, s, state, 0), self._after(i, j, s, state, 1)
        prog = self.mr.rules.cube
        stakes = [1]
        while stakes[-1] < max(i, j):
            stakes.append(2 * stakes[-1] if prog == "geometric" else stakes[-1] + 1)
        out = {}
        for c in reversed(stakes):
            dead = _GRID * win(c) + (1 - _GRID) * lose(c)
            nxt = 2 * c if prog == "geometric" else c + 1
            if c >= i:
                out[("X", c)] = dead
            else:
                g = np.minimum(out[("Y", nxt)], win(c))
                out[("X", c)] = _majorant(g, lose(c), win(c))
            if c >= j:
                out[("Y", c)] = dead
            else:
                g = np.maximum(out[("X", nxt)], lose(c))
                out[("Y", c)] = -_majorant(-g, -lose(c), -win(c))
            gx = np.minimum(out[("Y", nxt)], win(c)) if ("Y", nxt) in out else None
            gy = np.maximum(out[("X", nxt)], lose(c)) if ("X", nxt) in out else None
            out[("centre", c)] = _centred(gx if c < i else None, gy if c < j else None,
                                          lose(c), win(c))
        self._memo[key] = out
        return out


_GRID = np.linspace(0.0, 1.0, GRID)


def _majorant(g, y0, y1):
    """Smallest concave majorant on ``_GRID`` of ``g`` with the ends (0, y0), (1, y1)."""
    y = np.array(g, dtype=np.float64)
    y[0], y[-1] = max(y[0], y0), max(y[-1], y1)
    hull = [0]
    for k in range(1, len(y)):                      # upper hull, monotone chain
        while len(hull) >= 2:
            a, b = hull[-2], hull[-1]
            if (y[b] - y[a]) * (k - a) <= (y[k] - y[a]) * (b - a):
                hull.pop()
            else:
                break
        hull.append(k)
    return np.interp(np.arange(len(y)), hull, y[hull])


def _centred(gx, gy, lose, win, rounds=20):
    """Value of the game with the cube in the middle: X raises in [px, 1] (payoff gx),
    Y in [0, py] (payoff gy), linear in between; alternating best replies."""
    n = len(_GRID)
    gx = np.full(n, -np.inf) if gx is None else gx.copy()
    gy = np.full(n, np.inf) if gy is None else gy.copy()
    gx[-1], gy[0] = max(gx[-1], win), min(gy[0], lose)
    px, py = n - 1, 0
    for _ in range(rounds):
        k = np.arange(py + 1, n)
        px_new = int(k[np.argmax((gx[k] - gy[py]) / (_GRID[k] - _GRID[py]))])
        k = np.arange(0, px_new)
        py_new = int(k[np.argmax((gx[px_new] - gy[k]) / (_GRID[px_new] - _GRID[k]))])
        if (px_new, py_new) == (px, py):
            break
        px, py = px_new, py_new
    v = np.interp(_GRID, [_GRID[py], _GRID[px]], [gy[py], gx[px]])
    v[:py + 1], v[px:] = gy[:py + 1], gx[px:]
    return v


def _frame(values):
    import pandas as pd                     # lazy: pandas is slow to import
    n = values.shape[0]
    idx = pd.Index(range(1, n + 1), name="away")
    return pd.DataFrame(values, index=idx, columns=pd.Index(range(1, n + 1), name="vs"))


def match_equity_table(length: int, cube: bool = False, rules: MatchRules | RulesLike = None,
                       dist: Mapping[str, float] | None = None, stored: bool = True,
                       x: float | None = None) -> pd.DataFrame:
    """The match equity table to ``length`` points (module docstring).

    Parameters
    ----------
    length : int
        Largest number of points away, 1..64.
    cube : bool
        Cubeful (Zadeh's model; geometric cube unless ``rules`` says arithmetic).
    rules : MatchRules, Rules, dict or None
        The regulation (draws, who starts, Crawford) and the game's rules.
    dist : dict, optional
        The first mover's outcome distribution (``start_distribution``'s keys); default
        the stored rollout of the start.
    x : float, optional
        Cube efficiency of the cubeful table (default ``TABLE_EFFICIENCY``; 1: Zadeh's
        fully live cube); with ``cube=False`` it has no effect (a ``UserWarning``).
    stored : bool
        Read the shipped table (``TABLE_FILE``) when it covers the request (the stored
        distribution, ``length <= TABLE_LENGTH``); False computes it.

    Returns
    -------
    pandas.DataFrame
        ``M``, index ``away`` and columns ``vs`` in 1..length: ``M.loc[a, b]`` is the
        chance that the side needing ``a`` points wins against the one needing ``b``,
        before the opening roll.

    Examples
    --------
    >>> import nardy_fast as nf
    >>> met = nf.match_equity_table(3)
    >>> met.round(3)
    vs        1      2      3
    away
    1     0.500  0.660  0.775
    2     0.340  0.500  0.629
    3     0.225  0.371  0.500
    """
    cube, stored = check_flag(cube, "cube"), check_flag(stored, "stored")
    if not cube:
        warn_unused("with cube=False (the cube efficiency acts in the cubeful table only)",
                    {"x": None}, x=x)
    mr = as_match_rules(rules, length)
    if stored and dist is None and x is None:
        vals = _stored(length, bool(cube), mr)
        if vals is not None:
            return _frame(vals)
    solver = _solver(length, cube, rules, dist, x)
    u = round(1 / solver.unit)
    vals = np.empty((length, length))
    for a in range(1, length + 1):
        for b in range(1, length + 1):
            state = "crawford" if solver.cube and solver.mr.crawford and (
                (a == 1) != (b == 1)) else "normal"
            vals[a - 1, b - 1] = solver.value(a * u, b * u, 2, state)
    return _frame(vals)


def post_crawford_table(length: int, rules: MatchRules | RulesLike = None,
                        dist: Mapping[str, float] | None = None,
                        x: float | None = None) -> pd.Series:
    """Chances of the side 1 point away against one ``b`` away (index ``b``) in the
    games after the Crawford game (``MatchRules(crawford=True)``, cubeful)."""
    import pandas as pd                     # lazy: pandas is slow to import
    solver = _solver(length, True, rules, dist, x)
    vals = [solver.value(1, b, 2, "post") for b in range(1, length + 1)]
    return pd.Series(vals, index=pd.Index(range(1, length + 1), name="vs"), name="post")


def _solver(length, cube, rules, dist, x=None):
    mr = as_match_rules(rules, length)
    return MetSolver(mr, dist, cube, x)


# -- match winning chances of one game's outcomes ------------------------------------------

def _game_state(state):
    """The Crawford state of the current game of a ``MatchState``."""
    mr = state.rules
    if not (mr.cube and mr.crawford):
        return "normal"
    if state.crawford:
        return "crawford"
    return "post" if min(state.away()) == 1 else "normal"


@lru_cache(maxsize=64)
def solver_for(match_rules, cube):
    """A cached ``MetSolver`` for the regulation (its length does not matter), the
    stored start distribution and the default cube efficiency."""
    return MetSolver(replace(match_rules, length=1), None, cube)


@lru_cache(maxsize=4096)
def outcome_values(state: MatchState) -> dict[str, float]:
    """Match winning chances of the side on roll after each outcome of this game.

    ``state`` is a ``MatchState``; the game is played at the cube's stake (no raise
    after now).  Returns a dict over ``start_distribution``'s keys (``win_oin`` ...
    ``draw``), plus ``emg_win`` / ``emg_lose`` (a single game won or lost at the stake:
    GNU Backgammon's ends of the money-equivalent scale).  Who starts the next game
    follows ``MatchRules.starter``; under ``"alternate"`` the next game is taken as
    thrown for (the state does not record who started this one).

    Returns
    -------
    dict
        Match winning chances (0..1) of the side on roll, by the keys above.

    Examples
    --------
    >>> import nardy_fast as nf
    >>> v = nf.outcome_values(nf.MatchState(length=3, score=(1, 2)))
    >>> round(v["win_oin"], 3), v["win_mars"], v["loss_oin"], round(v["draw"], 3)
    (0.59, 1.0, 0.0, 0.34)
    """
    check_match(state, name="state")
    mr = state.rules
    solver = solver_for(mr, mr.cube)
    u = solver.unit
    i, j = (round(a / u) for a in state.away())
    gstate = _game_state(state)
    stake = state.stake
    out = {}
    for winner, sign in ((0, "win"), (1, "loss")):
        ns = solver.next_starter(0, winner) if mr.starter != "alternate" else 2
        for k in KINDS:
            pts = round(mr.game_points(k, stake) / u)
            ni, nj = (i - pts, j) if winner == 0 else (i, j - pts)
            out[f"{sign}_{k}"] = solver.terminal(ni, nj, ns, solver._after_state(ni, nj, gstate))
    d = round(mr.draw_points() / u)
    if (d == 0) or (i - d <= 0 and j - d <= 0):
        out["draw"] = solver.value(i, j, 2, gstate)
    else:
        out["draw"] = solver.terminal(i - d, j - d, 2, solver._after_state(i - d, j - d, gstate))
    out["emg_win"], out["emg_lose"] = out["win_oin"], out["loss_oin"]
    return out


@lru_cache(maxsize=4096)
def coefficients(state: MatchState) -> tuple[float, npt.NDArray[np.float64]]:
    """``(c0, c)`` with the side on roll's match winning chance ``c0 + values @ c`` for
    the net's seven probabilities (``OUTPUT_NAMES``: p_win, p_mars_win, p_koks_win,
    p_home_mars_win, p_mars_loss, p_koks_loss, p_home_mars_loss), no draws."""
    v = outcome_values(state)
    c = np.array([v["win_oin"] - v["loss_oin"], v["win_mars"] - v["win_oin"],
                  v["win_koks"] - v["win_mars"], v["win_home_mars"] - v["win_mars"],
                  v["loss_mars"] - v["loss_oin"], v["loss_koks"] - v["loss_mars"],
                  v["loss_home_mars"] - v["loss_mars"]])
    return float(v["loss_oin"]), c


def mwc_of_values(values: npt.ArrayLike, state: MatchState) -> npt.NDArray[np.float64]:
    """Match winning chances ``(n,)`` of net probabilities ``(n, 7)`` (side on roll)."""
    c0, c = coefficients(state)
    return c0 + np.asarray(values, dtype=np.float64) @ c


def emg(mwc: float | npt.ArrayLike, state: MatchState) -> float | npt.NDArray[np.float64]:
    """GNU Backgammon's money-equivalent equity (EMG) of a match winning chance:
    ``(2 mwc - (W + L)) / (W - L)`` with W, L the chances after winning, losing a single
    game at the stake."""
    c0, c = coefficients(state)
    w, lo = c[0] + c0, c0                    # win_oin, loss_oin
    return (2 * np.asarray(mwc) - (w + lo)) / (w - lo)


def emg_scale(state: MatchState) -> float:
    """EMG per unit of match winning chance (turns an MWC error into an EMG error)."""
    v = outcome_values(state)
    return 2.0 / (v["emg_win"] - v["emg_lose"])


def mwc_of_outcome(outcome: Outcome, state: MatchState) -> tuple[float, float]:
    """``(mwc, se)`` of an ``Outcome`` (rollouts: the SE is the i.i.d. multinomial one
    of the played-out outcome kinds, which bounds the variance of truncated games'
    values from above; 0 for exact methods; NaN where the error is not measured: the
    net, whose standard errors are NaN)."""
    d = distribution_of(outcome)
    v = outcome_values(state)
    keys = [k for k in d if k in v]
    p = np.clip(np.array([d[k] for k in keys]), 0.0, 1.0)
    x = np.array([v[k] for k in keys])
    m = float(p @ x)
    if not outcome.games:
        se = getattr(outcome, "se_equity", 0.0)
        return m, (math.nan if se != se else 0.0)
    var = max(float(p @ x ** 2) - m * m, 0.0)
    return m, float(np.sqrt(var / outcome.games))


def with_match(outcome: Outcome, state: MatchState) -> Outcome:
    """``outcome`` at the match score ``state``: the same ``Outcome`` with ``extra`` adding
    ``mwc``, ``se_mwc`` and ``emg`` (``match_extra``).

    The one place an Outcome meets the match equity arithmetic (``rollout(match=)`` calls
    it; ``Evaluator.outcomes``, which builds its own Outcomes, and the reports' match
    columns take ``match_extra``, without a copy of the Outcome).

    Parameters
    ----------
    outcome : Outcome
        Probabilities for the side on roll before it rolls (any method; a rollout's
        ``games`` give ``se_mwc``).
    state : MatchState
        The score, with the outcome's side on roll (``state.on_roll``; an Outcome does not
        know its position, so that is the caller's to check).

    Returns
    -------
    Outcome
        ``extra["mwc"]``: the side on roll's match winning chance (a probability: the
        outcome kinds' exclusive probabilities through ``outcome_values``,
        ``mwc_of_outcome``); ``extra["se_mwc"]``: its standard error (the i.i.d.
        multinomial one of the outcome kinds, 0 without games); ``extra["emg"]``: its
        money equivalent (points per game at the stake, GNU Backgammon's EMG, ``emg``).

    Raises
    ------
    TypeError
        ``outcome`` is not an Outcome or ``state`` not a MatchState.
    """
    if not isinstance(outcome, Outcome):
        raise TypeError(f"outcome: expected an Outcome, got {type(outcome).__name__}")
    if not isinstance(state, MatchState):
        raise TypeError(f"state: expected a MatchState, got {type(state).__name__}")
    return replace(outcome, extra={**outcome.extra, **match_extra(outcome, state)})


def match_extra(outcome: Outcome, state: MatchState) -> dict[str, float]:
    """``{"mwc", "se_mwc", "emg"}`` of ``outcome`` at the score ``state``: the entries
    ``with_match`` adds to ``extra`` (see there)."""
    m, se = mwc_of_outcome(outcome, state)
    return {"mwc": m, "se_mwc": se, "emg": float(emg(m, state))}


# The starter of the game of a cube decision, as ``MetSolver.value`` numbers it: not known
# (a ``MatchState`` does not record who started this game), so that under
# ``starter="alternate"`` the next game is thrown for, as ``outcome_values`` takes it; under
# the other rules who starts the next game does not depend on it.
_THIS_GAME = 2


def _cube_inputs(p_win, state, x):
    """``(p, x, solver, i, j, gstate)`` of a cube decision at ``state``'s score: the checked
    chance and efficiency, the cubeful solver of its match, each side's points to go and
    the game's state (``match_cube_decision``, ``made_raise_values``)."""
    check_match(state, name="state")
    p = check_fraction(p_win, "p_win", "the chance of winning")
    x = check_fraction(x, "x", "the cube efficiency")
    if not state.rules.cube:
        raise ValueError("match: cube decisions need a match with the cube "
                         "(MatchRules(rules=Rules(cube='geometric')))")
    i, j = state.away()
    return p, x, solver_for(state.rules, True), int(i), int(j), _game_state(state)


def _mixed(p, x, fn, win, lose, c):
    """Janowski's interpolation at the match score: ``x`` times the live value at ``p`` of
    the cube function ``fn`` plus ``1 - x`` times the dead cube's (the game played out at
    stake ``c``: ``win(c)``, ``lose(c)`` the match winning chances after it); the dead
    cube's alone when ``fn`` is None."""
    dead = p * win(c) + (1 - p) * lose(c)
    return dead if fn is None else x * float(np.interp(p, _GRID, fn)) + (1 - x) * dead


def match_cube_decision(p_win: float, state: MatchState, x: float = CONTACT_EFFICIENCY
                        ) -> dict[str, Any]:
    """The cube decision of the side on roll at the match score (Zadeh's model).

    Parameters
    ----------
    p_win : float
        Cubeless chance that the side on roll wins this game (no mars with the cube).
    state : MatchState
        With a cube (``rules.cube``); the cube is from the side on roll's view.  Who
        starts the next game follows ``MatchRules.starter``; under ``"alternate"`` it is
        taken as thrown for (the state does not record who started this one), as in
        ``outcome_values``.
    x : float
        Cube efficiency of the position (``cube.efficiency``): each value is ``x`` times
        Zadeh's live one plus ``1 - x`` times the dead cube's (the stake never turned
        again), Janowski's interpolation at the match score.

    Returns
    -------
    dict
        Match winning chances of the side on roll: ``no_double``, ``double_take``,
        ``double_pass`` (NaN when the side may not raise), ``mwc`` (after the right
        actions); ``double_action``, ``take_action``, ``action`` (``cubemodel.actions``,
        whose one rule names the ties here as in money play);
        ``take_point`` (the opponent's lowest game winning chance at which it takes).

    Raises
    ------
    TypeError
        ``state`` is not a ``MatchState``; ``p_win`` or ``x`` is not a number.
    ValueError
        ``p_win`` or ``x`` outside [0, 1] (or NaN); a match without the cube.

    Examples
    --------
    >>> import nardy_fast as nf
    >>> rules = nf.MatchRules(length=5, rules=nf.Rules(cube="geometric"))
    >>> state = nf.MatchState(length=rules, score=(2, 3), cube=nf.CubeState())
    >>> d = nf.match_cube_decision(0.7, state)
    >>> d["action"], round(d["no_double"], 3), round(d["mwc"], 3), round(d["take_point"], 3)
    ('no double, take', 0.473, 0.473, 0.115)
    """
    p, x, solver, i, j, gstate = _cube_inputs(p_win, state, x)
    cube = state.cube
    stake = state.stake
    nd_owner = {"centre": "centre", "mover": "X", "opponent": "Y"}[
        "centre" if cube is None else cube.owner]
    win = solver._after(i, j, _THIS_GAME, gstate, 0)
    nan = float("nan")
    e = {"no_double": nan, "double_take": nan, "double_pass": nan, "double_beaver": nan,
         "take_point": nan, "p_win": p, "method": "zadeh"}
    if gstate == "crawford" or (i == 1 and j == 1):
        e["no_double"] = p * win(stake) + (1 - p) * solver._after(
            i, j, _THIS_GAME, gstate, 1)(stake)
    else:
        fns = solver.cube_functions(i, j, _THIS_GAME, gstate)
        nxt = next_stake(state.rules.rules.cube, stake)
        lose = solver._after(i, j, _THIS_GAME, gstate, 1)
        e["no_double"] = _mixed(p, x, fns[(nd_owner, stake)], win, lose, stake)
        if (cube is None or cube.may_raise) and stake < i and ("Y", nxt) in fns:
            dt_fn = x * fns[("Y", nxt)] + (1 - x) * (_GRID * win(nxt) + (1 - _GRID) * lose(nxt))
            e["double_take"] = float(np.interp(p, _GRID, dt_fn))
            e["double_pass"] = float(win(stake))
            passes = np.flatnonzero(dt_fn >= e["double_pass"])
            e["take_point"] = 1.0 - float(_GRID[passes[0]]) if len(passes) else 0.0
    # a fully live cube (x = 1) values playing on from the cash point on as the cash
    # itself: a tie, which actions names "double" (its rule of ties)
    e["double_action"], e["take_action"], e["action"] = actions(e)
    e["mwc"] = (e["no_double"] if e["double_action"] != "double"
                else min(e["double_take"], e["double_pass"]))
    return e


def made_raise_values(p_win: float, state: MatchState, x: float = CONTACT_EFFICIENCY
                      ) -> tuple[float, float]:
    """``(double_take, double_pass)``: the side on roll's match winning chances after a
    raise it has made, at any stake, in the model of ``match_cube_decision``.

    ``match_cube_decision`` offers no raise that the match gives the doubler no use for
    (the stake already at or past the points it needs: it wins the match by winning the
    game as it stands), and leaves those values NaN.  A record may still hold such a raise,
    and its answer is a real decision: a pass ends the match, a take plays on at the new
    stake.  This values both, so that the answer can be judged.  Where the solver has the
    taker's cube function at the new stake, the take is ``x`` times its live value plus
    ``1 - x`` times the dead cube's, as in ``match_cube_decision``; else (a stake past every
    need of both sides) the dead cube's value, which is then exact in the model.

    Examples
    --------
    At 1-away against 2-away, a raise from 2 to 4 by the side 1 away: a take plays the
    game for the match as before (the chance to win it), a pass gives the match away.

    >>> import nardy_fast as nf
    >>> from nardy_fast.engine.evaluation.met import made_raise_values
    >>> rules = nf.MatchRules(length=2, rules=nf.Rules(cube="geometric"))
    >>> state = nf.MatchState(length=rules, score=(1, 0), cube=nf.CubeState(2, "mover"))
    >>> [round(v, 3) for v in made_raise_values(0.4, state)]
    [0.4, 1.0]
    """
    p, x, solver, i, j, gstate = _cube_inputs(p_win, state, x)
    if state.crawford:
        raise ValueError("state: the Crawford game is played without the cube")
    stake = state.stake
    nxt = next_stake(state.rules.rules.cube, stake)
    win = solver._after(i, j, _THIS_GAME, gstate, 0)
    lose = solver._after(i, j, _THIS_GAME, gstate, 1)
    fns = (solver.cube_functions(i, j, _THIS_GAME, gstate) if not (i == 1 and j == 1)
           else {})
    return float(_mixed(p, x, fns.get(("Y", nxt)), win, lose, nxt)), float(win(stake))


# -- the shipped tables (written by ``metbuild``) ----------------------------------------

TABLE_FILE = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(__file__))), "data", "met.json")
TABLE_LENGTH = 15


def _table_specs():
    """(name, cube, MatchRules) of the shipped tables."""
    cube = Rules(cube="geometric")
    return (("cubeless", False, MatchRules()),
            ("cubeful", True, MatchRules(rules=cube)),
            ("cubeful_crawford", True, MatchRules(crawford=True, rules=cube)))


def _stored(length, cube, mr):
    """The shipped table for this request, or None."""
    if length > TABLE_LENGTH or not os.path.exists(TABLE_FILE):
        return None
    with open(TABLE_FILE, encoding="utf-8") as f:
        data = json.load(f)
    if data["start"] != _load_data().get(_variant_key(CLASSIC_RULES)):
        return None
    for name, c, spec in _table_specs():
        if c == cube and spec == replace(mr, length=spec.length):
            return np.array(data["tables"][name]["values"])[:length, :length]
    return None
