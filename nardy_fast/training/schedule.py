"""The step schedule of training: one definition for TD self-play (``train``) and for
supervised training (``supervised``).

The step is held for the first half of a run, then moved linearly to its final value,
reached at the end.  "A run" is counted in games for TD training and in epochs for a round
of supervised training.
"""
from __future__ import annotations

__all__ = ["step_at"]


def step_at(lr, lr_final, frac):
    """The step at fraction ``frac`` of a run: ``lr`` up to one half, then linear to
    ``lr_final`` at 1.

    Parameters
    ----------
    lr : float
        Step of the first half.
    lr_final : float or None
        Step at the end; None: ``lr`` throughout.
    frac : float
        Fraction of the run done, in [0, 1].

    Returns
    -------
    float
    """
    if lr_final is None or frac <= 0.5:
        return lr
    return lr + (lr_final - lr) * (min(frac, 1.0) - 0.5) / 0.5
