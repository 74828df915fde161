"""Long nardy as a Gymnasium environment: one agent, one checker step per action, against
an opponent policy that plays whole turns.

``LongNardyEnv`` is registered as ``"nardy_fast/LongNardy-v0"`` when ``nardy_fast.env``
is imported (``gymnasium.make("nardy_fast/LongNardy-v0", opponent="greedy")``).  It wraps
one game of the C core (``VectorEnv``), so its rules and masks are the batched
environment's.
"""
from __future__ import annotations

from typing import Any

import warnings
import weakref

import numpy as np

from nardy_fast._utils._optional import require

try:                                    # optional: the rl extra
    import gymnasium as gym
    from gymnasium import spaces
except ImportError:
    require("gymnasium", extra="rl", feature=__name__)      # missing: named, with the extra
    raise

from nardy_fast.core.position import BLACK, WHITE, Position
from nardy_fast.core.rules import as_rules
from nardy_fast.engine.play.policy import Policy
from nardy_fast.env._vecenv import (N_ACTIONS, OBS_SIZE, VectorEnv, check_action,
                                    check_start)

__all__ = ["LongNardyEnv", "LegalSteps", "IllegalActionWarning", "ENV_ID",
           "observation_space", "opponent_chooser"]

ENV_ID = "nardy_fast/LongNardy-v0"


def observation_space() -> spaces.Dict:
    """The observation: ``{"observation": float32[60] in [0, 1], "action_mask":
    int8[144]}`` (``OBSERVATION_FIELDS`` says what each float is)."""
    return spaces.Dict({
        "observation": spaces.Box(0.0, 1.0, (OBS_SIZE,), np.float32),
        "action_mask": spaces.Box(0, 1, (N_ACTIONS,), np.int8),
    })


class LegalSteps(spaces.Discrete):
    """``Discrete(144)`` whose ``sample()`` with no mask draws one of the environment's
    legal steps as they stand (so a random agent, and Gymnasium's checker, play legal
    actions); ``sample(mask=...)`` is ``Discrete``'s.  Detached from its environment (a
    copy in another process), it samples as a plain ``Discrete``."""

    def __init__(self, env=None, seed=None):
        super().__init__(N_ACTIONS, seed=seed)
        self._env = weakref.ref(env) if env is not None else None

    def sample(self, mask=None, probability=None):
        env = self._env() if self._env is not None else None
        if mask is None and probability is None and env is not None:
            legal = env.action_masks()
            if legal.any():
                mask = legal.astype(np.int8)
        return super().sample(mask=mask, probability=probability)

    def __reduce__(self):
        return (spaces.Discrete, (self.n,))


class IllegalActionWarning(UserWarning):
    """``LongNardyEnv.step`` refused a step the mask forbids (the game is unchanged)."""


def opponent_chooser(opponent, rules):
    """``choose(position, moves, rng) -> Move`` of an opponent policy: a toolkit policy
    name (``"random"``, ``"greedy"``, ``"net"``, ``"net:1"``, ``"net:2"``: the shipped net
    at those plies), an ``Evaluator`` (its net at 0-ply), or a callable
    ``fn(candidates, opponent) -> scores`` (``engine.policy``: the highest score plays)."""
    return Policy.of(opponent, "opponent").chooser(rules)


class LongNardyEnv(gym.Env):
    """One agent plays long nardy one checker step at a time against an opponent policy.

    Parameters
    ----------
    opponent : str, Evaluator or callable
        The other side's policy (``opponent_chooser``); default ``"random"``.
    agent : {"white", "black"}
        The colour the agent plays (White moves first from the start).
    rules : Rules, dict, str or None
        Rule variants (classic by default; no cube).
    render_mode : {None, "ansi"}
        ``"ansi"``: ``render()`` returns the text diagram of the position.
    illegal_action : {"refuse", "raise"}
        What ``step`` does with a step the mask forbids: ``"refuse"`` (default) leaves the
        game unchanged and returns the same observation, reward 0, with the error in
        ``info["illegal_action"]`` and an ``IllegalActionWarning``; ``"raise"`` raises
        ``ValueError`` with that message.  Either way the state does not change.
        (``"refuse"`` lets Gymnasium's ``check_env``, which steps an action drawn before a
        reset, run on the environment as registered.)

    Notes
    -----
    Action ``a = 6 * from_idx + (die - 1)``: the checker on the agent's point
    ``from_idx + 1`` moves by ``die`` (past its point 24 it bears off); the observation's
    ``"action_mask"`` allows exactly the first steps of the legal whole turns that agree
    with the steps already played.  A roll with no legal step passes by itself, and the
    opponent's turns are played inside ``step``.  The reward is 0 until the game ends,
    then the points the agent won (+) or lost (-) by the rules' scoring (0 for a draw).

    ``reset(seed=..., options={"position": ID or Position, "dice": (d1, d2)})`` starts
    from any position and roll (the side on roll in that position plays first; when it is
    the opponent, its turns are played before ``reset`` returns).  ``position`` is the
    position as it stands, mid-turn included.

    ``info`` holds ``dice`` and ``dice_left`` and, while the game goes on, the position's
    ID as ``position`` (the name of the command line's and the frames' outputs and of
    ``reset``'s option) and as ``position_id``, its first name.
    """

    metadata = {"render_modes": ["ansi"], "render_fps": 4}

    def __init__(self, opponent="random", agent: str = WHITE, rules=None,
                 render_mode: str | None = None, illegal_action: str = "refuse") -> None:
        if illegal_action not in ("refuse", "raise"):
            raise ValueError(f"illegal_action={illegal_action!r}: expected 'refuse' or "
                             "'raise'")
        self.illegal_action = illegal_action
        if agent not in (WHITE, BLACK):
            raise ValueError(f"agent={agent!r}: expected 'white' or 'black'")
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode={render_mode!r}: expected None or 'ansi'")
        self.rules = as_rules(rules)
        self.agent = agent
        self.render_mode = render_mode
        self._choose = opponent_chooser(opponent, self.rules)
        self._core = VectorEnv(1, seed=0, rules=self.rules)
        self._core.autoreset = 0
        self.observation_space = observation_space()
        self.action_space = LegalSteps(self)

    # -- what the agent sees --------------------------------------------------------------
    @property
    def position(self) -> Position:
        """The position as it stands (mid-turn included), the side on roll first.  After a
        drawn game (``draw_rule``) no position holds it: ``ValueError``."""
        return self._core.position(0)

    @property
    def dice(self) -> tuple[int, int]:
        """The roll of the side on roll."""
        return self._core.dice(0)

    def action_masks(self) -> np.ndarray:
        """The legal steps (bool[144]), as maskable policy libraries ask for them."""
        return self._core.mask(0)

    def _obs(self) -> dict[str, np.ndarray]:
        return {"observation": self._core.observation(0),
                "action_mask": self._core.mask(0).astype(np.int8)}

    def _info(self) -> dict[str, Any]:
        info = {"dice": self._core.dice(0), "dice_left": self._core.dice_left(0)}
        if not self._core.done(0):
            info["position_id"] = info["position"] = self.position.id
        else:                               # the game is over: no dice are left to play
            info["dice_left"] = ()
        return info

    def _agent_on_roll(self) -> bool:
        return self._core.side(0) == self.agent

    # -- the opponent -----------------------------------------------------------------------
    def _opponent_turns(self) -> tuple[float, bool, bool]:
        """Let the opponent play its whole turns until the agent is on roll or the game
        ends; the reward from the agent's view."""
        reward, term, trunc = 0.0, False, False
        while not self._core.done(0) and not self._agent_on_roll():
            position, dice = self._core.position(0), self._core.dice(0)
            moves = position.legal_moves(dice, self.rules)
            move = self._choose(position, moves, self.np_random)
            boards = self._core.game_candidates(0)[:, 0]
            k = int(np.flatnonzero((boards == np.asarray(move.board, np.uint8)).all(1))[0])
            r, term, trunc = self._core.play(0, k, whole_turn=True)
            reward -= r                              # the opponent's points
        return reward, term, trunc

    # -- the Gymnasium API -------------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        """Start a game: from the start, or ``options={"position": ..., "dice": ...}``.
        Options that are refused leave the game as it was."""
        if options is not None and not isinstance(options, dict):
            raise TypeError(f"options={options!r}: expected a dict such as "
                            "{'position': ..., 'dice': ...} or None")
        options = dict(options or {})
        unknown = sorted(set(options) - {"position", "dice"})
        if unknown:
            raise ValueError(f"options: unknown key(s) {unknown}: expected 'position', 'dice'")
        position = options.get("position")
        dice = options.get("dice")
        if position is not None or dice is not None:
            position, dice = check_start(position if position is not None
                                         else Position.initial(), dice, self.rules)
        super().reset(seed=seed)
        core_seed = int(self.np_random.integers(0, 2 ** 63))
        self._core.reset(seed=core_seed)
        if position is not None:
            self._core.set_state(0, position, dice)
        self._opponent_turns()
        if self._core.done(0):              # an episode the agent never moves in
            raise ValueError(f"options: the game from position {self._start_id(position)} "
                             f"ended in the opponent's turns before {self.agent} moved "
                             "(the opponent finished); start from a position where the "
                             "agent plays")
        return self._obs(), self._info()

    @staticmethod
    def _start_id(position):
        return position.id if isinstance(position, Position) else str(position)

    def step(self, action):
        """Play the step ``action``; then the opponent's turns when the agent's turn ends.

        A step the mask forbids changes nothing: it is refused with its error (naming it
        and the legal steps) as ``illegal_action`` says."""
        if self._core.done(0):
            raise ValueError("step: the game is over; call reset()")
        action = check_action(action)       # an int, a numpy int or a 0-d integer array
        try:
            reward, term, trunc = self._core.play(0, action)
        except ValueError as e:
            if self.illegal_action == "raise":
                raise
            warnings.warn(str(e), IllegalActionWarning, stacklevel=2)
            return self._obs(), 0.0, False, False, dict(self._info(), illegal_action=str(e))
        if not term and not trunc:
            r, term, trunc = self._opponent_turns()
            reward += r
        return self._obs(), float(reward), bool(term), bool(trunc), self._info()

    def render(self):
        if self.render_mode == "ansi":
            if self._core.done(0) and _drawn(self._core):
                return "the game ended in a draw (draw_rule): both sides have borne off"
            return self.position.diagram()
        return None


def _drawn(core):
    """Whether game 0 of ``core`` ended in a draw, which no position holds."""
    try:
        core.position(0)
    except ValueError:
        return True
    return False
