"""Outcome probabilities of a position: the common result of exact and Monte Carlo methods.

All probabilities are per game, for the side on roll before it rolls.  ``equity`` is the
expected points for the side on roll under the rules' scoring (a win scores its points, a
loss their negative, a draw 0).
"""
from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field, replace

from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["Outcome", "PROBABILITIES", "clip_probabilities"]

_Z95 = 1.959963984540054
# Every probability an Outcome reports; each has its standard error ``se_<name>``.
PROBABILITIES = ("p_win", "p_lose", "p_draw", "p_mars_win", "p_mars_loss", "p_koks_win",
                 "p_koks_loss", "p_home_mars_win", "p_home_mars_loss")


@dataclass(frozen=True)
class Outcome:
    """Probabilities and expected points for the side on roll.

    Exact methods leave the standard errors at 0; Monte Carlo methods fill them from the
    per-game outcomes.

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
        Standard errors of those estimates (0 for exact methods).
    se_p_lose, se_p_draw, se_p_koks_win, se_p_koks_loss, se_p_home_mars_win, \
se_p_home_mars_loss : float
        Standard errors of the other probabilities (0 for exact methods); with these every
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

    def flipped(self) -> Outcome:
        """The same result from the other side's view (wins and losses swapped, equity
        negated; standard errors, games, length and method kept)."""
        return Outcome(p_win=self.p_lose, p_mars_win=self.p_mars_loss, p_lose=self.p_win,
                       p_mars_loss=self.p_mars_win, equity=-self.equity, method=self.method,
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
        ``"equity"`` (points).  Zero width for exact methods (standard errors 0)."""
        if name != "equity" and name not in PROBABILITIES:
            raise ValueError(f"ci95: name={name!r}: expected 'equity' or one of "
                             + ", ".join(map(repr, PROBABILITIES)))
        value = getattr(self, name)
        se = getattr(self, "se_" + name)
        low, high = value - _Z95 * se, value + _Z95 * se
        if name == "equity":
            return low, high
        return min(max(low, 0.0), 1.0), min(max(high, 0.0), 1.0)

    def to_dict(self) -> dict[str, Any]:
        """Plain floats/ints/str; includes ``ci95_p_win`` and ``ci95_equity`` bounds."""
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
    a small probability can come out negative (``nardy_fast.engine.variance`` measures the
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
