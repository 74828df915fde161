"""Outcome probabilities of a position: the common result of exact and Monte Carlo methods.

All probabilities are per game, for the side on roll before it rolls.  ``equity`` is the
expected points for the side on roll under the rules' scoring (a win scores its points, a
loss their negative, a draw 0).
"""
from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field

__all__ = ["Outcome"]

_Z95 = 1.959963984540054


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
    games : int
        Games played (0 for exact methods).
    mean_length : float
        Mean game length in plies (both sides' turns), NaN when not measured.
    method : str
        How the numbers were obtained, e.g. ``"two_sided"``, ``"one_sided"``, ``"rollout"``.
    extra : dict
        Method-specific details (seed, policy, truncation, ...).
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

    def flipped(self):
        """The same result from the other side's view (wins and losses swapped, equity
        negated; standard errors, games, length and method kept)."""
        return Outcome(p_win=self.p_lose, p_mars_win=self.p_mars_loss, p_lose=self.p_win,
                       p_mars_loss=self.p_mars_win, equity=-self.equity, method=self.method,
                       p_draw=self.p_draw, p_koks_win=self.p_koks_loss,
                       p_koks_loss=self.p_koks_win, p_home_mars_win=self.p_home_mars_loss,
                       p_home_mars_loss=self.p_home_mars_win, se_p_win=self.se_p_win,
                       se_p_mars_win=self.se_p_mars_loss, se_p_mars_loss=self.se_p_mars_win,
                       se_equity=self.se_equity, games=self.games,
                       mean_length=self.mean_length, extra=dict(self.extra))

    def ci95(self, name="equity"):
        """Normal-approximation 95% confidence interval ``(low, high)`` of ``p_*`` or equity."""
        value = getattr(self, name)
        se = getattr(self, "se_" + name, 0.0)
        return value - _Z95 * se, value + _Z95 * se

    def to_dict(self):
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

    def to_frame(self, index=None):
        """A one-row pandas DataFrame of ``to_dict()``."""
        import pandas as pd
        return pd.DataFrame([self.to_dict()], index=index)
