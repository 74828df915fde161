"""Long nardy as a PettingZoo AEC environment, like PettingZoo's classic board games.

``env()`` is the environment with PettingZoo's usual wrappers (an order check, an
assertion that actions are in bounds), ``raw_env()`` the bare one.  The agents are
``"player_0"`` (White, who moves first from the start) and ``"player_1"`` (Black); each
observation is ``{"observation": float32[60], "action_mask": int8[144]}`` from that
agent's own view (``OBSERVATION_FIELDS``); the agent not on roll sees an empty mask.  An
action is one checker step ``6 * from_idx + (die - 1)``; a side plays as many steps in a
row as its turn has (``agent_selection`` stays on it), and a roll with no legal step passes
by itself.  At the end of a game the winner gets the points of its win by the rules'
scoring and the loser as many negative (0 each for a draw).
"""
from __future__ import annotations

from typing import Any

import numpy as np

from nardy_fast._utils._optional import require

try:                                    # optional: the rl extra
    from gymnasium import spaces
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
except ImportError:
    for _name in ("gymnasium", "pettingzoo"):               # the missing one, with the extra
        require(_name, extra="rl", feature=__name__)
    raise

from nardy_fast.core.position import BLACK, WHITE, Position
from nardy_fast.core.rules import as_rules
from nardy_fast.env._vecenv import N_ACTIONS, VectorEnv, check_action, check_start
from nardy_fast.env.gymnasium_env import _drawn, observation_space

__all__ = ["env", "raw_env", "LongNardyAEC", "AGENTS"]

AGENTS = {WHITE: "player_0", BLACK: "player_1"}        # colour -> agent name


def env(**kwargs) -> AECEnv:
    """The environment with PettingZoo's standard wrappers (``raw_env``'s arguments)."""
    e = raw_env(**kwargs)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    return wrappers.OrderEnforcingWrapper(e)


def raw_env(**kwargs) -> LongNardyAEC:
    """The bare AEC environment (``LongNardyAEC``)."""
    return LongNardyAEC(**kwargs)


class LongNardyAEC(AECEnv):
    """Two agents, ``"player_0"`` (White) and ``"player_1"`` (Black), play long nardy one
    checker step at a time.

    Parameters
    ----------
    rules : Rules, dict, str or None
        Rule variants (classic by default; no cube).
    render_mode : {None, "ansi"}
        ``"ansi"``: ``render()`` returns the text diagram.

    Notes
    -----
    ``reset(seed=..., options={"position": ID or Position, "dice": (d1, d2)})`` starts from
    any position and roll; without a seed the dice go on from the environment's stream,
    which a new environment seeds with fresh entropy.  A step the mask forbids raises
    ``ValueError`` naming it and the legal steps, and changes nothing; so does a step once
    the game is over and every agent has left (``reset`` starts the next game).
    """

    metadata = {"render_modes": ["ansi"], "name": "long_nardy_v0",
                "is_parallelizable": False, "render_fps": 2}

    def __init__(self, rules=None, render_mode: str | None = None) -> None:
        super().__init__()
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode={render_mode!r}: expected None or 'ansi'")
        self.rules = as_rules(rules)
        self.render_mode = render_mode
        self.possible_agents = [AGENTS[WHITE], AGENTS[BLACK]]
        self.agents = self.possible_agents[:]
        self._core = VectorEnv(1, seed=None, rules=self.rules)   # fresh entropy
        self._core.autoreset = 0
        self._spaces = {a: observation_space() for a in self.possible_agents}
        self._actions = {a: spaces.Discrete(N_ACTIONS) for a in self.possible_agents}
        self._start_bookkeeping()

    def _start_bookkeeping(self) -> None:
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = AGENTS[self._core.position(0).side]

    def observation_space(self, agent):
        return self._spaces[self._agent(agent)]

    def action_space(self, agent):
        return self._actions[self._agent(agent)]

    @property
    def position(self) -> Position:
        """The position as it stands (mid-turn included)."""
        return self._core.position(0)

    def _agent(self, agent):
        if agent not in self.possible_agents:
            raise ValueError(f"agent={agent!r}: expected one of {self.possible_agents}")
        return agent

    def observe(self, agent):
        agent = self._agent(agent)
        # the colour on roll, not a Position: it stands after a drawn game too
        on_roll = AGENTS[self._core.side(0)] == agent and not self._core.done(0)
        obs = self._core.observation(0, waiting=not on_roll)
        mask = self._core.mask(0).astype(np.int8) if on_roll else np.zeros(N_ACTIONS, np.int8)
        return {"observation": obs, "action_mask": mask}

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None):
        # other keys of options are left alone, as PettingZoo's own environments do
        if options is not None and not isinstance(options, dict):
            raise TypeError(f"options={options!r}: expected a dict such as "
                            "{'position': ..., 'dice': ...} or None")
        options = dict(options or {})
        start = None
        if "position" in options or "dice" in options:      # refused before any change
            position = options.get("position")
            start = check_start(position if position is not None else Position.initial(),
                                options.get("dice"), self.rules)
        if seed is not None:
            self._core.reset(seed=seed)
        else:
            self._core.reset()
        if start is not None:
            self._core.set_state(0, *start)
        self._start_bookkeeping()

    def step(self, action):
        if not self.agents:
            raise ValueError("step: the game is over (every agent has left); call reset()")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        reward, term, trunc = self._core.play(0, check_action(action))
        other = self.possible_agents[1 - self.possible_agents.index(agent)]
        self.rewards = {agent: reward, other: -reward}
        if term or trunc:
            self.terminations = dict.fromkeys(self.agents, bool(term))
            self.truncations = dict.fromkeys(self.agents, bool(trunc))
        else:
            self.agent_selection = AGENTS[self._core.position(0).side]
        self._accumulate_rewards()

    def render(self):
        if self.render_mode == "ansi":
            if self._core.done(0) and _drawn(self._core):
                return "the game ended in a draw (draw_rule): both sides have borne off"
            return self.position.diagram()
        return None

    def close(self) -> None:
        pass
