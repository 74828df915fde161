"""The Gymnasium environment ``nardy_fast/LongNardy-v0``: Gymnasium's own checker, the
reset options, illegal steps and the opponent policies."""
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import assume, given, settings, strategies as st

from helpers import ENV_RULES, dice, game_positions, turns_stepped

gym = pytest.importorskip("gymnasium")

from nardy_fast import Position                                        # noqa: E402
from nardy_fast.env import action_of                                  # noqa: E402
from nardy_fast.env.gymnasium_env import IllegalActionWarning, LongNardyEnv  # noqa: E402


def test_passes_gymnasiums_checker():
    from gymnasium.utils.env_checker import check_env
    env = gym.make("nardy_fast/LongNardy-v0", opponent="greedy")
    # the checker steps an action it drew before a reset: refused, with a warning
    with pytest.warns(IllegalActionWarning):
        check_env(env.unwrapped)


def _play(env, seed):
    obs, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    trail = [obs["observation"]]
    while True:
        a = rng.choice(np.flatnonzero(obs["action_mask"]))
        obs, reward, term, trunc, info = env.step(a)
        trail.append(obs["observation"])
        if term or trunc:
            return reward, trail


def test_a_game_to_its_end_is_reproducible_for_a_seed():
    env = gym.make("nardy_fast/LongNardy-v0", opponent="random")
    r1, t1 = _play(env, 4)
    r2, t2 = _play(env, 4)
    assert r1 == r2 and r1 in (-2, -1, 1, 2)
    assert len(t1) == len(t2) and all(np.array_equal(a, b) for a, b in zip(t1, t2))


def test_reset_from_a_position_and_roll_and_the_agent_plays_black():
    p = Position.initial().play(Position.initial().legal_moves((6, 5))[0])
    env = LongNardyEnv(agent="black")
    obs, info = env.reset(seed=0, options={"position": p.id, "dice": (4, 4)})
    assert env.position == p and info["dice"] == (4, 4)
    assert obs["action_mask"].tolist() == np.isin(np.arange(144), [action_of(0, 4)]).tolist()
    # from the start the opponent (White) plays its turn inside reset
    obs, info = env.reset(seed=1, options={"position": "start", "dice": (6, 5)})
    assert env.position.side == "black" and env.position.opponent[0] == 14


def test_an_illegal_step_is_refused_and_changes_nothing():
    env = LongNardyEnv()
    obs, _ = env.reset(seed=2)
    bad = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    before = env.position
    with pytest.warns(IllegalActionWarning, match=rf"action {bad} .*not a legal step"):
        obs2, reward, term, trunc, info = env.step(bad)
    assert env.position == before and reward == 0 and not term
    assert "not a legal step" in info["illegal_action"]
    assert np.array_equal(obs2["observation"], obs["observation"])
    strict = LongNardyEnv(illegal_action="raise")
    strict.reset(seed=2)
    with pytest.raises(ValueError, match="legal steps: "):
        strict.step(bad)
    assert strict.position == before


def test_opponents_by_name_and_callable():
    for opponent in ("net", lambda boards, opp: -boards[:, 0]):
        env = LongNardyEnv(opponent=opponent, agent="black")
        obs, _ = env.reset(seed=3)
        assert env.position.side == "black"
    with pytest.raises(ValueError, match="opponent='best'"):
        LongNardyEnv(opponent="best")


def test_import_nardy_fast_imports_no_framework():
    """``import nardy_fast`` and its public names leave the frameworks unimported (only
    ``import nardy_fast.env`` registers the Gymnasium environment)."""
    code = ("import sys, nardy_fast; nardy_fast.Position, nardy_fast.rollout; "
            "print(sorted(m for m in "
            "('gymnasium', 'pettingzoo', 'pyspiel') if m in sys.modules))")
    assert _in_a_fresh_python(code) == "[]"


def test_gym_make_imports_the_module_itself_by_its_prefix():
    """Without ``import nardy_fast.env``, Gymnasium's ``module:`` prefix imports it (and
    so registers the environment) inside ``gym.make``, as the guide says."""
    code = ("import gymnasium as gym; "
            "env = gym.make('nardy_fast.env:nardy_fast/LongNardy-v0', opponent='greedy'); "
            "print(type(env.unwrapped).__name__, env.spec.id)")
    assert _in_a_fresh_python(code) == "LongNardyEnv nardy_fast/LongNardy-v0"


def _in_a_fresh_python(code):
    """What ``code`` prints, run by a new interpreter (nothing imported beforehand)."""
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True).stdout.strip()


def test_vector_env_spaces_follow_gymnasiums_vector_api():
    from nardy_fast.env import VectorEnv
    env = VectorEnv(3, seed=0)
    obs, _ = env.reset()
    assert env.num_envs == 3 and env.metadata["autoreset_mode"] == "SameStep"
    assert env.single_action_space == gym.spaces.Discrete(144)
    assert obs in env.observation_space and obs[0] in env.single_observation_space
    assert env.action_space.shape == (3,)
    assert VectorEnv(2, mode="afterstate").single_action_space is None
    env.close()


ONE_EACH = "WAAAAAAAAAAAAAAAAAAAAAAAAAwAAAAAQ"     # White on roll, a checker each: it ends soon
LAST_TURN = "BAAAAAAAAAAAAAAAAAAAAAAAAMAAAAAAA"    # White off; Black on roll (draw_rule: its turn)


def test_a_policys_0d_action_is_taken_and_a_float_is_refused():
    """``action_space.contains(np.array(1))`` is True and a policy's ``predict`` returns
    such a 0-d array; ``step`` refused it ("expected an integer")."""
    env = LongNardyEnv()
    obs, _ = env.reset(seed=1)
    a = np.array(np.flatnonzero(obs["action_mask"])[0])
    assert env.action_space.contains(a)
    env.step(a)
    with pytest.raises(TypeError, match=r"action=2\.0: expected an integer"):
        env.step(2.0)


def test_a_reset_the_opponent_ends_is_refused_not_returned_over():
    """The opponent won inside ``reset`` (it finishes from this start, the agent never on
    roll): the agent got an all-zero mask and no reward, and its first step failed."""
    env = LongNardyEnv(agent="black")
    with pytest.raises(ValueError, match=f"position {ONE_EACH} ended in the opponent's "
                       "turns before black moved"):
        env.reset(seed=0, options={"position": ONE_EACH})
    with pytest.raises(TypeError, match=r"options=\['position'\]: expected a dict"):
        env.reset(options=["position"])


def test_blacks_last_turn_under_draw_rule_and_a_draw_after_it():
    """Black's last turn (draw_rule) was refused as a start ("the game is over"), and a
    drawn game's ``render`` raised: a draw holds no position."""
    env = LongNardyEnv(agent="black", rules="draw_rule=true", render_mode="ansi")
    obs, info = env.reset(seed=0, options={"position": LAST_TURN})
    assert obs["action_mask"].any() and info["position_id"] == LAST_TURN
    assert info["position"] == LAST_TURN            # the name of every other output
    # a checker each on its last point: White bears off in reset, then Black's last
    # turn bears off too, a draw
    obs, info = env.reset(seed=0, options={"position": "WAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAR"})
    last = env.position                 # Black's last turn: over but for draw_rule
    assert last.side == "black" and last.is_over() and not last.is_over("draw_rule=true")
    obs, reward, term, trunc, info = env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert (reward, term, info["dice_left"]) == (0.0, True, ())
    assert env.render().startswith("the game ended in a draw")
    with pytest.raises(ValueError, match="draw"):
        env.position                                    # a draw holds no position


@pytest.mark.parametrize("options", [{"position": "bad"}, {"dice": (7, 1)},
                                     {"position": "WDwAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"}])
def test_a_refused_reset_leaves_the_game_as_it_was(options):
    """A reset whose options were refused had already started a new game: with the agent
    Black, White (the opponent) was left on roll and the agent's next step played White's
    checkers."""
    env = LongNardyEnv(agent="black")
    obs, info = env.reset(seed=0)
    before = env.position, env.dice, env.action_masks()
    with pytest.raises(ValueError):
        env.reset(seed=1, options=options)
    assert (env.position, env.dice) == before[:2] and env.position.side == "black"
    assert (env.action_masks() == before[2]).all()


@settings(max_examples=25, deadline=None)
@given(st.data(), st.sampled_from(ENV_RULES), dice())
def test_the_action_mask_reaches_exactly_the_legal_moves(data, rules, roll):
    """From a position of a game played under the rules and any roll, the agent on roll:
    the steps the mask offers, one after another, reach exactly the boards of
    ``Position.legal_moves``, and no offered step leads to a turn that cannot be
    finished (the observation's mask and ``action_masks`` agree at every step)."""
    p = data.draw(game_positions(rules))
    moves = p.legal_moves(roll, rules)
    assume(moves[0].steps)                     # a roll with no step passes by itself
    env = LongNardyEnv(agent=p.side, rules=rules)

    def replay(actions):
        obs, _ = env.reset(seed=0, options={"position": p, "dice": roll})
        for a in actions:
            obs, reward, term, trunc, _ = env.step(a)
            assert (reward, term, trunc) == (0.0, False, False)
        assert (obs["action_mask"] == env.action_masks()).all()
        assert env.position.side == p.side and env.position.opponent.tolist() == \
            p.opponent.tolist()
        return env.position.mover.tolist(), env.action_masks()

    assert turns_stepped(replay, len(moves[0].steps)) == {m.board for m in moves}


def test_without_gymnasium_the_import_names_the_extra(monkeypatch):
    """It was "No module named 'gymnasium'", without the extra that brings it."""
    import importlib
    monkeypatch.setitem(sys.modules, "gymnasium", None)
    monkeypatch.delitem(sys.modules, "nardy_fast.env.gymnasium_env")
    with pytest.raises(ImportError, match=r"^nardy_fast\.env\.gymnasium_env needs gymnasium: "
                                          r"pip install 'nardy_fast\[rl\]'$"):
        importlib.import_module("nardy_fast.env.gymnasium_env")
