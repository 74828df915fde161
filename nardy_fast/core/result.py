"""Outcome probabilities of a position: the common result of exact and Monte Carlo methods.

All probabilities are per game, for the side on roll before it rolls.  ``equity`` is the
expected points for the side on roll under the rules' scoring (a win scores its points, a
loss their negative, a draw 0).
"""
from __future__ import annotations

import html
import math
from dataclasses import asdict, dataclass, field, fields, replace

import numpy as np

from nardy_fast.core._scoring import ruled_out_kinds
from nardy_fast.core.methods import method_kind, method_label

from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["Outcome", "PROBABILITIES", "NOT_MEASURED", "clip_probabilities", "shown",
           "nearest_possible", "possible_values", "possibility_gap", "ruled_out"]

_Z95 = 1.959963984540054


def shown(value: float, spec: str = "+.3f") -> str:
    """``value`` formatted by ``spec``, but a value that rounds to zero is written as
    zero: an equity of -5.6e-17 (float rounding of a level race) is ``+0.000``, not
    ``-0.000``.  A value that does not round to zero keeps its sign.

    Examples
    --------
    >>> shown(-5.6e-17), shown(-0.0004), shown(-0.0006), shown(0.25, ".1%")
    ('+0.000', '+0.000', '-0.001', '25.0%')
    """
    text = format(value, spec)
    if text.startswith("-") and not text.strip("-+0.%e"):
        return format(0.0, spec)
    return text
# The standard errors of a value whose error is not measured (the net's): every ``se_*``
# field NaN, so nothing shows an exact-looking 0 or a zero-width interval.
NOT_MEASURED = {f"se_{name}": math.nan for name in (
    "p_win", "p_lose", "p_draw", "p_mars_win", "p_mars_loss", "p_koks_win", "p_koks_loss",
    "p_home_mars_win", "p_home_mars_loss", "equity")}
# Every probability an Outcome reports; each has its standard error ``se_<name>``.
PROBABILITIES = ("p_win", "p_lose", "p_draw", "p_mars_win", "p_mars_loss", "p_koks_win",
                 "p_koks_loss", "p_home_mars_win", "p_home_mars_loss")


@dataclass(frozen=True)
class Outcome:
    """Probabilities and expected points for the side on roll.

    Standard errors say how the numbers were obtained: 0 for exact methods (nothing to
    measure), NaN for the net (``method`` ``"net N-ply"``: its error is not measured, so
    it has no standard error and no confidence interval), and Monte Carlo methods fill
    them from the per-game outcomes.

    Attributes
    ----------
    p_win, p_lose, p_draw : float
        Probability of winning (any way), losing (any way), drawing (``draw_rule`` only).
    p_mars_win, p_mars_loss : float
        Probability of winning / losing by mars (koks and home mars included).
    p_koks_win, p_koks_loss, p_home_mars_win, p_home_mars_loss : float
        The mars refinements (rule book section 7); reported with any scoring.
    equity : float
        Expected points for the side on roll.
    se_p_win, se_p_mars_win, se_p_mars_loss, se_equity : float
        Standard errors of those estimates (0 for exact methods, NaN where not measured:
        the net).
    se_p_lose, se_p_draw, se_p_koks_win, se_p_koks_loss, se_p_home_mars_win, \
se_p_home_mars_loss : float
        Standard errors of the other probabilities (0 exact, NaN not measured); with these every
        probability of ``PROBABILITIES`` has its ``se_<name>``.  They follow ``extra`` in
        the field order, so positional construction is unchanged.
    games : int
        Games played (0 for exact methods).
    mean_length : float
        Mean game length in plies (both sides' turns), NaN when not measured.
    method : str
        How the numbers were obtained, e.g. ``"two_sided"``, ``"one_sided"``, ``"rollout"``.
    extra : dict
        Method-specific details (seed, policy, truncation, ...).

    Examples
    --------
    >>> import nardy_fast as nf
    >>> o = nf.race_probabilities(nf.race_sample(1, seed=1)[0])
    >>> o.method, round(o.p_win, 4), round(o.p_lose, 4), round(o.equity, 4)
    ('two_sided', 0.1385, 0.8615, -0.723)
    """

    p_win: float
    p_mars_win: float
    p_lose: float
    p_mars_loss: float
    equity: float
    method: str
    p_draw: float = 0.0
    p_koks_win: float = 0.0
    p_koks_loss: float = 0.0
    p_home_mars_win: float = 0.0
    p_home_mars_loss: float = 0.0
    se_p_win: float = 0.0
    se_p_mars_win: float = 0.0
    se_p_mars_loss: float = 0.0
    se_equity: float = 0.0
    games: int = 0
    mean_length: float = math.nan
    extra: dict = field(default_factory=dict, compare=False)
    se_p_lose: float = 0.0
    se_p_draw: float = 0.0
    se_p_koks_win: float = 0.0
    se_p_koks_loss: float = 0.0
    se_p_home_mars_win: float = 0.0
    se_p_home_mars_loss: float = 0.0

    def _key(self):
        """The compared fields, a NaN (not measured) as None: NaN is unequal to itself,
        so the dataclass's equality held only while both sides shared one NaN object,
        and an Outcome sent through pickle (a process pool, Dask) was no longer equal to
        itself, nor hashed the same."""
        return tuple(None if v != v else v
                     for v in (getattr(self, f.name) for f in fields(self) if f.compare))

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def flipped(self) -> Outcome:
        """The same result from the other side's view (wins and losses swapped, equity
        negated, a draw's 0 staying +0; standard errors, games, length and method kept)."""
        return Outcome(p_win=self.p_lose, p_mars_win=self.p_mars_loss, p_lose=self.p_win,
                       p_mars_loss=self.p_mars_win, equity=0.0 - self.equity,
                       method=self.method,
                       p_draw=self.p_draw, p_koks_win=self.p_koks_loss,
                       p_koks_loss=self.p_koks_win, p_home_mars_win=self.p_home_mars_loss,
                       p_home_mars_loss=self.p_home_mars_win, se_p_win=self.se_p_lose,
                       se_p_mars_win=self.se_p_mars_loss, se_p_mars_loss=self.se_p_mars_win,
                       se_equity=self.se_equity, games=self.games,
                       mean_length=self.mean_length, extra=dict(self.extra),
                       se_p_lose=self.se_p_win, se_p_draw=self.se_p_draw,
                       se_p_koks_win=self.se_p_koks_loss, se_p_koks_loss=self.se_p_koks_win,
                       se_p_home_mars_win=self.se_p_home_mars_loss,
                       se_p_home_mars_loss=self.se_p_home_mars_win)

    def ci95(self, name: str = "equity") -> tuple[float, float]:
        """Normal-approximation 95% confidence interval ``(low, high)`` of ``name``: one of
        ``PROBABILITIES`` (the interval cut to [0, 1], where every probability lies) or
        ``"equity"`` (points).  Zero width for exact methods (standard errors 0); ``(nan,
        nan)``, no interval, where the error is not measured (the net: standard errors
        NaN)."""
        if name != "equity" and name not in PROBABILITIES:
            raise ValueError(f"ci95: name={name!r}: expected 'equity' or one of "
                             + ", ".join(map(repr, PROBABILITIES)))
        value = getattr(self, name)
        se = getattr(self, "se_" + name)
        if se != se:                                 # not measured: no interval
            return math.nan, math.nan
        low, high = value - _Z95 * se, value + _Z95 * se
        if name == "equity":
            return low, high
        return min(max(low, 0.0), 1.0), min(max(high, 0.0), 1.0)

    def __str__(self) -> str:
        """One line: P(win) and the equity with their 95% margins (± 1.96 standard errors,
        where measured) and how they were obtained, e.g. ``P(win) 0.583 ± 0.006, equity
        +0.251 ± 0.018 (rollout, 1,296 games, net)``, ``P(win) 0.912, equity +1.204
        (exact, two_sided)``, ``P(win) 0.583, equity +0.251 (net 0-ply: error not
        measured)``.  ``repr`` keeps every field."""
        parts = [f"P(win) {self.p_win:.3f}{self._margin('p_win')}"]
        if self.p_draw > 0:
            parts.append(f"P(draw) {self.p_draw:.3f}{self._margin('p_draw')}")
        parts.append(f"equity {shown(self.equity)}{self._margin('equity')}")
        return ", ".join(parts) + f" ({self._how()})"

    def _margin(self, name):
        """`` ± m`` (1.96 standard errors) of ``name``, or ``""`` (exact, not measured)."""
        se = getattr(self, "se_" + name)
        return f" ± {_Z95 * se:.3f}" if se == se and se > 0 else ""

    def _how(self):
        """How the numbers were obtained, for people: the method's kind and details."""
        kind = method_kind(self.method)
        if kind == "rollout":
            bits = ["rollout", f"{self.games:,} game{'' if self.games == 1 else 's'}"]
            if self.extra.get("policy"):
                bits.append(str(self.extra["policy"]))
            if self.se_equity != self.se_equity:      # one game: no spread to measure
                bits.append("error not measured")
            if self.extra.get("cube"):
                bits.append("cubeful equity")
            if self.extra.get("interrupted"):
                bits.append("interrupted")
            if self.extra.get("valued_at_start"):     # no roll played: the table's numbers
                bits.append("no roll played, every game valued at the start by the "
                            + method_label(self.extra["valued_at_start"]))
            elif self.extra.get("games_approximated") == self.games:
                bits.append("every game ended in a race an approximation valued")
            return ", ".join(bits)
        if kind == "exact":
            return f"exact, {self.method}"
        if kind == "net":
            return f"{self.method}: error not measured"
        return method_label(self.method)

    def _repr_html_(self) -> str:
        """A small table for notebooks: each probability and the equity, its 95% margin
        where measured, and how the numbers were obtained (``str``'s wording)."""
        rows = [("P(win)", "p_win"), ("P(mars win)", "p_mars_win"), ("P(lose)", "p_lose"),
                ("P(mars loss)", "p_mars_loss")]
        if self.p_draw > 0:
            rows.insert(2, ("P(draw)", "p_draw"))
        for label, name in (("P(koks win)", "p_koks_win"), ("P(koks loss)", "p_koks_loss"),
                            ("P(home mars win)", "p_home_mars_win"),
                            ("P(home mars loss)", "p_home_mars_loss")):
            if getattr(self, name) > 0:
                rows.append((label, name))
        rows.append(("equity", "equity"))
        body = "".join(
            f"<tr><th style='text-align:left'>{label}</th>"
            f"<td style='text-align:right'>{shown(getattr(self, name), '+.4f' if name == 'equity' else '.4f')}"
            f"</td><td style='text-align:left'>{html.escape(self._margin(name).strip())}</td></tr>"
            for label, name in rows)
        head = ("<tr><th></th><th>estimate</th><th>95% margin</th></tr>"
                if any(self._margin(name) for _, name in rows) else "")
        return f"<table><caption>{html.escape(self._how())}</caption>{head}{body}</table>"

    def to_dict(self) -> dict[str, Any]:
        """Plain floats/ints/str; includes ``ci95_p_win`` and ``ci95_equity`` bounds (NaN,
        with the standard errors, where the error is not measured: the net)."""
        d = asdict(self)
        extra = d.pop("extra")
        for name in ("p_win", "equity"):
            lo, hi = self.ci95(name)
            d[f"ci95_{name}_low"] = float(lo)
            d[f"ci95_{name}_high"] = float(hi)
        for k, v in d.items():
            if isinstance(v, bool) or k == "method":
                continue
            d[k] = int(v) if k == "games" else float(v)
        d.update({f"extra_{k}": v for k, v in extra.items()})
        return d

    def to_frame(self, index: Sequence[Hashable] | None = None) -> pd.DataFrame:
        """A one-row pandas DataFrame of ``to_dict()``."""
        import pandas as pd          # lazy: pandas is slow to import; import nardy_fast skips it
        return pd.DataFrame([self.to_dict()], index=index)


def clip_probabilities(outcome: Outcome, record: bool = False) -> Outcome:
    """``outcome`` with every probability of ``PROBABILITIES`` cut to [0, 1].

    Estimates can leave the range: a variance-reduced mean subtracts each game's luck, so
    a small probability can come out negative (``nardy_fast.engine.play.variance`` measures the
    bias of cutting), and sums of table values can exceed 1 by a rounding step.  The cut
    is the nearest point of [0, 1], so it never moves an estimate away from the true
    probability, which lies in [0, 1].  The equity and the standard errors are kept as
    they are (the equity stays unbiased; an error bar of the raw estimate is conservative
    for the cut one).

    Parameters
    ----------
    outcome : Outcome
    record : bool
        Name the probabilities cut by more than rounding (1e-12) in
        ``extra["clipped"]`` (comma-separated; ``""`` for none).

    Returns
    -------
    Outcome
        The same object when nothing was cut and ``record`` is False.
    """
    if not isinstance(outcome, Outcome):
        raise TypeError(f"outcome: expected an Outcome, got {type(outcome).__name__}")
    changes, cut = {}, []
    for name in PROBABILITIES:
        v = getattr(outcome, name)
        if v != v:                                   # NaN: no estimate, left alone
            continue
        c = min(max(v, 0.0), 1.0)
        if c != v:
            changes[name] = c
            if abs(c - v) > 1e-12:
                cut.append(name)
    if record:
        changes["extra"] = {**outcome.extra, "clipped": ",".join(cut)}
    return replace(outcome, **changes) if changes else outcome


# ----------------------------------------------------------------------------------------
# possible distributions (rule book section 7)
#
# A vector of ``PROBABILITIES`` (and the equity) is possible when it is the distribution
# of some game's end: every probability >= 0; win + lose + draw = 1 (draw = 0 without the
# draw rule); koks and home mars are disjoint kinds of mars (koks: a loser's checker
# still in its first quarter; home mars: all 15 in its home), so koks + home mars <= mars,
# and mars <= its win or loss; and, where the equity is the expected points of the rules'
# scoring (no cube), equity = sum of each outcome kind's probability times its points.

_ROUNDING = 1e-12          # violations this small are float rounding, not estimation
_FEASIBLE = 1e-9           # tolerance of the candidate check in ``possible_values``
_W, _L, _D, _MW, _ML, _KW, _KL, _HW, _HL, _E = range(10)


def ruled_out(mover, opponent):
    """The probabilities of ``PROBABILITIES`` that a position's boards rule out, from the
    view of the side on roll (``mover``; each board 24 counts in its own numbering): a
    side that has borne off a checker cannot be marsed (no mars, koks or home mars of its
    loss), and one with no checker on its points 1-6 cannot be koksed (checkers only move
    forward; rule book, section 7).

    Returns
    -------
    tuple of str
        Names of ``PROBABILITIES`` that are 0 for every game from the position.
    """
    return tuple(f"p_{kind}_{side}" for board, side in ((opponent, "win"), (mover, "loss"))
                 for kind in ruled_out_kinds(board))


def _zero_indices(ruled):
    """The indices into ``PROBABILITIES`` of the names ``ruled`` (``ruled_out``), checked."""
    bad = [name for name in ruled if name not in PROBABILITIES]
    if isinstance(ruled, str) or bad:
        raise ValueError(f"ruled_out={ruled!r}: expected names of PROBABILITIES")
    return tuple(sorted({PROBABILITIES.index(name) for name in ruled}))


def _constraints(draws, points, zero=()):
    """``(A, b, G, h)``: the possible set ``{z : A z = b, G z <= h}`` of the vector ``z``
    (``PROBABILITIES`` then the equity); ``zero``: indices held at 0 (``ruled_out``)."""
    A, b = [np.eye(10)[_W] + np.eye(10)[_L] + np.eye(10)[_D]], [1.0]
    if not draws:
        A.append(np.eye(10)[_D])
        b.append(0.0)
    for i in zero:
        A.append(np.eye(10)[i])
        b.append(0.0)
    if points is not None:
        oin, mars, koks, home = points
        row = np.zeros(10)
        row[_E] = 1.0
        for i, c in ((_W, oin), (_MW, mars - oin), (_KW, koks - mars), (_HW, home - mars)):
            row[i] -= c
            row[i + 1] += c                      # the loss of the same kind: negative points
        A.append(row)
        b.append(0.0)
    G = []
    for i in ((_W, _L, _D) if draws else (_W, _L)) + (_KW, _KL, _HW, _HL):
        G.append(-np.eye(10)[i])                 # >= 0
    for mars, side in ((_MW, _W), (_ML, _L)):
        G.append(np.eye(10)[mars] - np.eye(10)[side])            # mars <= win (loss)
    for koks, home, mars in ((_KW, _HW, _MW), (_KL, _HL, _ML)):
        G.append(np.eye(10)[koks] + np.eye(10)[home] - np.eye(10)[mars])   # koks + hm <= mars
    return np.array(A), np.array(b), np.array(G), np.zeros(len(G))


_FACES = {}


def _faces(draws, points, zero=()):
    """The possible set's constraints and, for every subset S of its inequalities, the
    affine map ``z -> M z + c`` projecting onto ``{A z = b, G_S z = h_S}`` (cached)."""
    key = (bool(draws), None if points is None else tuple(float(p) for p in points),
           tuple(zero))
    if key not in _FACES:
        A, b, G, h = _constraints(*key)
        n, k = A.shape[1], len(G)
        subsets = ((np.arange(2 ** k)[:, None] >> np.arange(k)) & 1).astype(bool)
        rows = np.zeros((len(subsets), len(A) + k, n))
        rhs = np.zeros((len(subsets), len(A) + k))
        rows[:, :len(A)], rhs[:, :len(A)] = A, b
        rows[:, len(A):] = np.where(subsets[:, :, None], G, 0.0)
        rhs[:, len(A):] = np.where(subsets, h, 0.0)
        pinv = np.linalg.pinv(rows)                         # (S, n, m): least-norm solver
        M = np.eye(n) - pinv @ rows
        c = (pinv @ rhs[:, :, None])[:, :, 0]
        _FACES[key] = (A, b, G, h, M, c)
    return _FACES[key]


def possibility_gap(values, *, draws=True, points=None, ruled_out=()):
    """How far ``values`` breaks the rules of a possible distribution: the largest
    violation (0 for a possible one) of the constraints listed in ``possible_values``.

    Parameters
    ----------
    values : array_like of float, shape (10,)
        ``PROBABILITIES`` in their order, then the equity (points, side on roll).
    draws, points, ruled_out
        As for ``possible_values``.
    """
    z = np.asarray(values, dtype=np.float64)
    if z.shape != (10,):
        raise ValueError(f"values: expected the 9 PROBABILITIES and the equity (shape "
                         f"(10,)), got shape {z.shape}")
    A, b, G, h, _, _ = _faces(draws, points, _zero_indices(ruled_out))
    return float(max(np.abs(A @ z - b).max(), (G @ z - h).max(), 0.0))


def possible_values(values, *, draws=True, points=None, ruled_out=()):
    """The possible distribution nearest to ``values`` (Euclidean projection).

    The possible set (rule book section 7): every probability >= 0; ``p_win + p_lose +
    p_draw = 1``; ``p_koks_<x> + p_home_mars_<x> <= p_mars_<x> <= p_<x>`` for ``x`` win and
    loss (koks and home mars are disjoint kinds of mars); ``p_draw = 0`` unless ``draws``;
    each of ``ruled_out`` 0; and, with ``points``, the equity equal to the expected points
    of the scoring.  It is
    convex, so the nearest point is unique, and for every possible ``t`` the result is no
    farther from ``t`` than ``values`` are (the projection onto a convex set is
    non-expansive and fixes ``t``).  Computed exactly: the nearest point lies on one face
    of the polytope, and is the feasible one nearest to ``values`` among the projections
    onto the affine hulls of all faces (at most 2**11, precomputed once per ``draws``,
    ``points`` and ``ruled_out``); an input within 1e-9 of the set (float rounding) only has its bounds
    and nesting made exact.

    Parameters
    ----------
    values : array_like of float, shape (10,)
        ``PROBABILITIES`` in their order, then the equity (points, side on roll).
    draws : bool
        Whether a draw can happen (``Rules.draw_rule``); without, ``p_draw`` is 0.
    points : tuple of 4 floats or None
        The points of an oin, mars, koks and home mars (``Rules.points``): the equity is
        then tied to the probabilities (cubeless money play).  None: the equity is left as
        it is (a cubeful equity, not a function of the probabilities).
    ruled_out : sequence of str
        Names of ``PROBABILITIES`` held at exactly 0: the kinds the position's boards rule
        out (``ruled_out``), which no move may fill in.

    Returns
    -------
    numpy.ndarray of float, shape (10,)
        ``values`` (a copy) with only its bounds and nesting made exact when it is
        already possible up to rounding (a probability of 1 + 2e-16 becomes 1).
    """
    z = np.array(values, dtype=np.float64)
    if z.shape != (10,):
        raise ValueError(f"values: expected the 9 PROBABILITIES and the equity (shape "
                         f"(10,)), got shape {z.shape}")
    if not np.isfinite(z).all():
        raise ValueError(f"values: expected finite numbers, got {z.tolist()}")
    equity = z[_E]
    zero = _zero_indices(ruled_out)
    if possibility_gap(z, draws=draws, points=points, ruled_out=ruled_out) > _FEASIBLE:
        A, b, G, h, M, c = _faces(draws, points, zero)
        candidates = M @ z + c                                    # (S, 10)
        ok = ((np.abs(candidates @ A.T - b) <= _FEASIBLE).all(axis=1)
              & (candidates @ G.T - h <= _FEASIBLE).all(axis=1))
        if ok.any():
            dist = np.where(ok, ((candidates - z) ** 2).sum(axis=1), np.inf)
        else:                    # never seen: the least violating candidate, then cleaned
            dist = np.maximum(np.abs(candidates @ A.T - b).max(axis=1),
                              (candidates @ G.T - h).max(axis=1))
        z = candidates[int(np.argmin(dist))]
    # the rounding of the solve (or of the input: float32 nets): the bounds and the
    # nesting exactly, moving each value by at most _FEASIBLE
    z[:_E] = np.clip(z[:_E], 0.0, 1.0)
    if not draws:
        z[_D] = 0.0
    z[list(zero)] = 0.0
    for side, mars, koks, home in ((_W, _MW, _KW, _HW), (_L, _ML, _KL, _HL)):
        z[mars] = min(z[mars], z[side])
        z[koks] = min(z[koks], z[mars])
        if z[koks] + z[home] > z[mars]:
            z[home] = max(0.0, z[mars] - z[koks])
    if points is None:
        z[_E] = equity
    return z


def nearest_possible(outcome: Outcome, *, draws: bool = True,
                     points: tuple[float, float, float, float] | None = None,
                     record: bool = False, ruled_out: Sequence[str] = ()) -> Outcome:
    """``outcome`` moved to the nearest possible distribution (``possible_values``).

    Parameters
    ----------
    outcome : Outcome
    draws, points, ruled_out
        As for ``possible_values``: whether draws can happen; the points of an oin, mars,
        koks and home mars when the equity is the expected points of the scoring (None:
        the equity is kept); the probabilities the position's boards rule out
        (``ruled_out``), held at 0.
    record : bool
        Record the adjustment in ``extra``: ``"clipped"`` names the probabilities moved by
        more than rounding (1e-12; comma-separated, ``""`` for none), ``"adjustment"`` is
        the Euclidean length of the move (probabilities and equity), ``"equity_adjustment"``
        the change of the equity (points).

    Returns
    -------
    Outcome
        Standard errors, games and method kept (those of ``outcome``'s estimates); the same
        object when nothing moved and ``record`` is False.  An outcome with a NaN
        probability or equity (no estimate) is returned as it is.
    """
    if not isinstance(outcome, Outcome):
        raise TypeError(f"outcome: expected an Outcome, got {type(outcome).__name__}")
    z = np.array([getattr(outcome, n) for n in PROBABILITIES] + [outcome.equity],
                 dtype=np.float64)
    if not np.isfinite(z).all():
        return outcome
    new = possible_values(z, draws=draws, points=points, ruled_out=ruled_out)
    changes = {n: float(new[i]) for i, n in enumerate(PROBABILITIES) if new[i] != z[i]}
    if new[_E] != z[_E]:
        changes["equity"] = float(new[_E])
    if record:
        moved = [n for i, n in enumerate(PROBABILITIES) if abs(new[i] - z[i]) > _ROUNDING]
        changes["extra"] = {**outcome.extra, "clipped": ",".join(moved),
                            "adjustment": float(np.sqrt(((new - z) ** 2).sum())),
                            "equity_adjustment": float(new[_E] - z[_E])}
    return replace(outcome, **changes) if changes else outcome
