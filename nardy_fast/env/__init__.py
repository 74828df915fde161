"""Environments for reinforcement learning: long nardy as Gymnasium, PettingZoo and
OpenSpiel see a game, and a batched environment in C.

- ``VectorEnv(n_envs, seed=, rules=, mode="step" | "afterstate")``: many games at once in
  C, without the GIL (``_vecenv``); the core every environment here wraps.
- ``LongNardyEnv`` (``gymnasium_env``): a Gymnasium environment, one agent against an
  opponent policy, registered as ``"nardy_fast/LongNardy-v0"`` when this package is
  imported and Gymnasium is installed.
- ``long_nardy_v0`` (``env()``, ``raw_env()``): a PettingZoo AEC environment.
- ``nardy_fast.env.openspiel``: importing it registers the OpenSpiel game
  ``"python_long_nardy"``.

The frameworks are optional (``pip install nardy_fast[rl]``); ``import nardy_fast`` imports
none of them, and this package imports Gymnasium only when it is installed.

An action of the step mode is one checker step, ``a = 6 * from_idx + (die - 1)``
(``from_idx`` the 0-based point in the mover's numbering, 0 the head; a step past the last
point bears off): 144 actions, of which the mask allows exactly the first steps of the
legal whole turns (``Position.legal_moves``) consistent with the steps already played.
"""
from nardy_fast.env._vecenv import (MODES, N_ACTIONS, OBS_SIZE, OBSERVATION_FIELDS,
                                    VectorEnv)
from nardy_fast.env.actions import action_of, step_of, turns_by_steps

__all__ = ["VectorEnv", "N_ACTIONS", "OBS_SIZE", "OBSERVATION_FIELDS", "MODES",
           "action_of", "step_of", "turns_by_steps"]


def _register_gymnasium():
    """Register ``"nardy_fast/LongNardy-v0"`` with Gymnasium when it is installed."""
    try:
        import gymnasium                      # optional: the [rl] extra
    except ImportError:
        return
    if "nardy_fast/LongNardy-v0" not in gymnasium.registry:
        gymnasium.register(id="nardy_fast/LongNardy-v0",
                           entry_point="nardy_fast.env.gymnasium_env:LongNardyEnv")


_register_gymnasium()
