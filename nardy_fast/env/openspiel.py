"""Long nardy as an OpenSpiel game: importing this module registers ``"python_long_nardy"``
(``pyspiel.load_game("python_long_nardy")``).  Parameters: ``rules``, the text form of
``Rules.to_text`` with ``:`` for ``=`` and ``+`` between fields, since OpenSpiel's game
strings reserve ``=`` and ``,`` (``{"rules": "draw_rule:true+scoring:extended"}``; the
``=`` form is read too); ``position``, a position ID (default ``"start"``) every game
starts from, its side on roll first.

- Players 0 (White, who moves first from the start) and 1 (Black).
- Explicit chance nodes before every turn: the 21 rolls, outcome ``r`` the roll
  ``ROLLS[r]`` (1-1, 1-2, ..., 6-6) with probability 1/36 for a double, 2/36 otherwise
  (the game's first roll from the start has no double under
  ``opening_roll="opening_dice"``: 2/30 each).
- A decision is a whole turn.  Its action number is stable (it depends on the turn only,
  not on the order a generator lists turns in):

  - a non-double ``(lo, hi)``: ``25 * s_hi + s_lo``, where ``s_hi`` is the 0-based point
    (mover's numbering) the larger die's checker step starts from and ``s_lo`` the
    smaller's, 24 when that die is not played; when several step orders reach the same
    board, the smallest number among them; 0 .. 624;
  - a double: ``625 + rank`` of the sorted starting points ``s_1 <= ... <= s_4`` of its
    steps (24 for a die not played), ranked by the combinatorial number system
    ``sum_k C(s_k + k - 1, k)`` (``k = 1..4``); 625 .. 21,099 (the board a double leaves
    determines its starting points).

  So there are 21,100 distinct actions.  A roll with no legal turn passes by itself (the
  next node is the other side's roll).
- Returns at the end, by the rules' scoring: the winner the points of its win, the loser
  as many negative; 0 each for a draw (``draw_rule``).  A game reaching the C loops'
  length cap (``MAX_GAME_PLIES`` turns, only from stuck hand-made positions) ends 0 : 0.
- The observation and information-state tensors are the environments' float32[60] from
  the player's own view (``OBSERVATION_FIELDS``; the game has perfect information, so the
  position is the information state).
"""
from __future__ import annotations

from functools import lru_cache
from math import comb

import numpy as np

from nardy_fast._utils._optional import require

try:                                    # optional: the rl extra
    import pyspiel
except ImportError:
    require("pyspiel", extra="rl", feature=__name__, package="open_spiel")   # named
    raise

from nardy_fast.core._dice import COUNTS, ROLLS, WEIGHTS
from nardy_fast.core._scoring import gives_last_turn, score_loss
from nardy_fast.core.position import BLACK, WHITE, Position
from nardy_fast.core.rules import OUTCOMES, Rules, as_rules
from nardy_fast.env._vecenv import GAME_PLIES_CAP, OBS_SIZE, VectorEnv

__all__ = ["GAME_NAME", "NUM_ACTIONS", "LongNardyGame", "LongNardyState", "turn_action"]

GAME_NAME = "python_long_nardy"
N_NON_DOUBLE = 25 * 25
NUM_ACTIONS = N_NON_DOUBLE + comb(28, 4)          # 21,100
_PLAYERS = (WHITE, BLACK)

_GAME_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Python Long Nardy (nardy_fast)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.PERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={"rules": "classic", "position": "start"})


def _double_rank(sources):
    """The rank of a sorted multiset of 4 starting points in 0..24 (the combinatorial
    number system over ``s_k + k``)."""
    return sum(comb(s + k, k + 1) for k, s in enumerate(sorted(sources)))


def turn_action(start, board, dice, sequences=None):
    """The action number of the whole turn from the mover's board ``start`` to ``board``
    with the roll ``dice`` (see the module docstring).

    ``sequences``: for a non-double, the step actions (``6 * from_idx + die - 1``) of
    every order that reaches ``board`` (``VectorEnv.turn_sequences``); the smallest number
    among them is the turn's.
    """
    d1, d2 = int(dice[0]), int(dice[1])
    if d1 == d2:
        delta = np.asarray(board, int) - np.asarray(start, int)
        n = [0] * 24
        for j in range(24):
            n[j] = (n[j - d1] if j >= d1 else 0) - int(delta[j])
        sources = [j for j in range(24) for _ in range(n[j])]
        return N_NON_DOUBLE + _double_rank(sources + [24] * (4 - len(sources)))
    hi = max(d1, d2)
    best = None
    for seq in sequences:
        s_hi = s_lo = 24
        for a in seq:
            if a % 6 + 1 == hi:
                s_hi = a // 6
            else:
                s_lo = a // 6
        code = 25 * s_hi + s_lo
        best = code if best is None else min(best, code)
    return best


def _max_points(rules):
    return max(rules.points(kind) for kind in OUTCOMES)


class LongNardyGame(pyspiel.Game):
    """The OpenSpiel game; parameters ``rules``: the rules' text (``Rules.to_text``), and
    ``position``: the ID of the position every game starts from (``"start"``)."""

    def __init__(self, params=None):
        params = dict(params or {})
        text = _param_text(str(params.get("rules", "classic")))
        start = str(params.get("position", "start"))
        rules = _rules(text)[0]
        if Position.from_id(start).is_over(rules):   # Black's last turn (draw_rule) is play
            raise ValueError(f"position {start!r}: the game is over; expected one to play")
        pts = _max_points(rules)
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_ACTIONS,
            max_chance_outcomes=len(ROLLS),
            num_players=2,
            min_utility=-pts,
            max_utility=pts,
            utility_sum=0.0,
            max_game_length=2 * GAME_PLIES_CAP)
        super().__init__(_GAME_TYPE, info, {"rules": text, "position": start})

    def new_initial_state(self):
        return LongNardyState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        return PositionObserver(params)


def _param_text(text):
    """The rules' text as a game parameter: ``Rules.to_text`` with ``:`` and ``+``."""
    rules = as_rules(Rules.from_text(text.replace(":", "=").replace("+", " ")))
    return rules.to_text().replace("=", ":").replace(" ", "+")


@lru_cache(maxsize=None)
def _rules(text):
    """The Rules of a game's ``rules`` parameter, and a one-game core to list turns with
    (each state finds them by its game's parameter: copies of a state, and the states
    OpenSpiel rebuilds from a serialized history, share them)."""
    rules = as_rules(Rules.from_text(text.replace(":", "=").replace("+", " ")))
    core = VectorEnv(1, seed=0, rules=rules)
    core.autoreset = 0
    return rules, core


def _turns(text, position, dice):
    """``{action: Move}`` of the legal turns of ``position`` with ``dice``."""
    rules, core = _rules(text)
    moves = position.legal_moves(dice, rules)
    if not moves[0].steps:
        return {}
    start = position.mover
    if dice[0] == dice[1]:
        return {turn_action(start, m.board, dice): m for m in moves}
    core.set_state(0, position, dice)
    seqs = {}
    for actions, board in core.turn_sequences(0):
        seqs.setdefault(board, []).append(actions)
    return {turn_action(start, m.board, dice, seqs[m.board]): m for m in moves}


class LongNardyState(pyspiel.State):
    """A position of the game: the side on roll, its dice once thrown."""

    def __init__(self, game):
        super().__init__(game)
        self._text = str(game.get_parameters()["rules"])
        self._rules = _rules(self._text)[0]
        self.position = Position.from_id(str(game.get_parameters()["position"]))
        self.dice = None                 # None: a chance node (the roll to come)
        self._opening = self.position == Position.initial()
        # a start of Black's last turn under draw_rule (White off): the game's course knows
        self._last_turn = self.position.is_over()
        self._plies = 0
        self._returns = None             # [White, Black] once over
        self._turns_cache = None

    # -- the game's course --------------------------------------------------------------------
    def current_player(self):
        if self._returns is not None:
            return pyspiel.PlayerId.TERMINAL
        if self.dice is None:
            return pyspiel.PlayerId.CHANCE
        return _PLAYERS.index(self.position.side)

    def _legal_turns(self):
        if self._turns_cache is None:
            self._turns_cache = _turns(self._text, self.position, self.dice)
        return self._turns_cache

    def _legal_actions(self, player):
        return sorted(self._legal_turns())

    def chance_outcomes(self):
        if not self.is_chance_node():
            raise ValueError(f"chance_outcomes: not a chance node: {self._node()}")
        no_double = self._opening and self._rules.opening_roll == "opening_dice"
        if no_double:                            # the 15 non-doubles, 2 of 30 pairs each
            return [(r, COUNTS[r] / 30) for r, (a, b) in enumerate(ROLLS) if a != b]
        return [(r, float(WEIGHTS[r])) for r in range(len(ROLLS))]

    def _node(self):
        """What the node is, for a message: the game over, or the player on roll."""
        if self._returns is not None:
            return f"the game is over (returns {self._returns})"
        return f"player {self.current_player()} is on roll"

    def _apply_action(self, action):
        if self._returns is not None:
            raise ValueError(f"action {action}: {self._node()}")
        if self.is_chance_node():
            rolls = [r for r, _ in self.chance_outcomes()]
            if action not in rolls:
                raise ValueError(f"action {action}: not a roll of this chance node "
                                 f"(expected one of {rolls[0]}..{rolls[-1]}, "
                                 "chance_outcomes())")
            self.dice = tuple(int(d) for d in ROLLS[action])
            self._opening = False
            self._turns_cache = None
            if not self._legal_turns():
                self._end_turn(self.position.mover)        # no legal turn: a pass
            return
        turns = self._legal_turns()
        if action not in turns:
            raise ValueError(f"action {action}: not a legal turn of position "
                             f"{self.position.id} with the roll {self.dice[0]}{self.dice[1]} "
                             f"(legal_actions(): {sorted(turns)[:8]}"
                             f"{', ...' if len(turns) > 8 else ''})")
        move = turns[action]
        self._end_turn(np.asarray(move.board, np.uint8))

    def _end_turn(self, mover_after):
        """The side on roll leaves ``mover_after``: score a finished game, else the other
        side's roll comes."""
        rules = self._rules
        side = self.position.side
        self._plies += 1
        self.dice = None
        self._turns_cache = None
        done = mover_after.sum() == 0
        if self._last_turn:                     # Black's last turn under draw_rule
            if done:
                self._returns = [0.0, 0.0]
            else:
                self._finish(WHITE, mover_after)
        elif done and not gives_last_turn(rules, side == WHITE):
            self._finish(side, self.position.opponent)
        elif self._plies >= GAME_PLIES_CAP:
            self._returns = [0.0, 0.0]
        else:
            self._last_turn = bool(done)
        if self._returns == [0.0, 0.0] and done:
            return                              # a draw: both sides off, no position
        self.position = Position(self.position.opponent, mover_after,
                                 BLACK if side == WHITE else WHITE)

    def _finish(self, winner, loser_board):
        _, pts = score_loss(loser_board, self._rules)
        self._returns = [pts, -pts] if winner == WHITE else [-pts, pts]

    def _action_to_string(self, player, action):
        if player == pyspiel.PlayerId.CHANCE:
            if not 0 <= action < len(ROLLS):
                return f"roll {action}"
            a, b = ROLLS[action]
            return f"roll {a}{b}"
        if self.dice is None:                   # a chance node, or the game is over
            return f"turn {action}"
        move = self._legal_turns().get(action)
        return f"{action}: {move}" if move is not None else f"turn {action}"

    def is_terminal(self):
        return self._returns is not None

    def returns(self):
        return list(self._returns) if self._returns is not None else [0.0, 0.0]

    def __str__(self):
        dice = f" dice={self.dice[0]}{self.dice[1]}" if self.dice else ""
        return f"{self.position.id}{dice}"


class PositionObserver:
    """Observation and information state of a position from a player's view: float32[60]
    (``OBSERVATION_FIELDS``), and the position's ID with the dice as the string.

    The Python twin of the C core's observation (``_vecenv.observe`` and
    ``observe_waiting``), which also has to say "no dice yet" at a chance node;
    ``tests/env/test_openspiel.py`` checks the two agree at every decision."""

    def __init__(self, params):
        if params:
            raise ValueError(f"observation parameters are not supported; got {params}")
        self.tensor = np.zeros(OBS_SIZE, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state, player):
        p = state.position
        own = p.side == _PLAYERS[player]
        me, opp = (p.mover, p.opponent) if own else (p.opponent, p.mover)
        t = self.tensor
        t.fill(0)
        t[:24] = me / 15
        t[24:48] = np.roll(opp, 12) / 15
        if own and state.dice is not None:
            d1, d2 = state.dice
            for d in ((d1,) * 4 if d1 == d2 else (d1, d2)):
                t[48 + d - 1] += 0.25
            steps = state._legal_turns()
            if steps:
                t[54] = len(next(iter(steps.values())).steps) / 4
        t[55] = (15 - int(me.sum())) / 15
        t[56] = (15 - int(opp.sum())) / 15
        t[57] = 1.0 if own and me[0] == 15 else 0.0
        t[59] = 1.0 if _PLAYERS[player] == BLACK else 0.0

    def string_from(self, state, player):
        return str(state)


pyspiel.register_game(_GAME_TYPE, LongNardyGame)
