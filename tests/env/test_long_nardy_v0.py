"""The PettingZoo environment ``nardy_fast.env.long_nardy_v0``: PettingZoo's own tests, a
whole game's rewards, starting from a position, illegal steps."""
import numpy as np
import pytest
from hypothesis import assume, given, settings, strategies as st

from helpers import ENV_RULES, dice, game_positions, turns_stepped

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, seed_test                       # noqa: E402

from nardy_fast import Position                                       # noqa: E402
from nardy_fast.env import action_of, long_nardy_v0                   # noqa: E402


def test_passes_pettingzoos_api_test():
    api_test(long_nardy_v0.env(), num_cycles=200)


def test_passes_pettingzoos_seed_test():
    seed_test(long_nardy_v0.env, num_cycles=200)


def test_max_cycles_test_does_not_apply():
    """PettingZoo's max_cycles_test needs a parallel environment (every agent acting each
    cycle); a turn-based game has none, as PettingZoo's classic games have none."""
    assert long_nardy_v0.LongNardyAEC.metadata["is_parallelizable"] is False
    assert not hasattr(long_nardy_v0, "parallel_env")


def test_a_whole_game_ends_with_opposite_rewards():
    env = long_nardy_v0.env()
    env.reset(seed=7)
    rng = np.random.default_rng(7)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        totals[agent] += reward
        if term or trunc:
            env.step(None)
            continue
        other = env.possible_agents[1 - env.possible_agents.index(agent)]
        assert not env.observe(other)["action_mask"].any()
        env.step(rng.choice(np.flatnonzero(obs["action_mask"])))
    assert totals["player_0"] == -totals["player_1"] and abs(totals["player_0"]) in (1, 2)


def test_reset_from_a_position_and_an_illegal_step():
    env = long_nardy_v0.raw_env()
    p = Position.initial().play(Position.initial().legal_moves((6, 5))[0])
    env.reset(seed=0, options={"position": p, "dice": (6, 6)})
    assert env.agent_selection == "player_1" and env.position == p
    mask = env.observe("player_1")["action_mask"]
    assert np.flatnonzero(mask).tolist() == [action_of(0, 6)]
    with pytest.raises(ValueError, match="not a legal step"):
        env.step(action_of(0, 5))
    assert env.position == p


@pytest.mark.parametrize("method", ["observe", "observation_space", "action_space"])
def test_an_unknown_agent_is_refused_by_name(method):
    env = long_nardy_v0.raw_env()
    env.reset(seed=0)
    with pytest.raises(ValueError, match="agent='white': expected one of"):
        getattr(env, method)("white")


def test_a_drawn_game_ends_for_both_agents():
    """After a draw (draw_rule) ``observe`` asked for the position, which a draw does not
    have: ``env.last()`` raised instead of giving both agents their 0.  From a checker
    each on its last point, White bears off and so does Black in its last turn."""
    from nardy_fast.env import long_nardy_v0
    env = long_nardy_v0.env(rules="draw_rule=true")
    env.reset(seed=0, options={"position": "WAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAR"})
    final = {}
    for agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        if term or trunc:
            final[agent] = reward
        env.step(None if term or trunc else int(np.flatnonzero(obs["action_mask"])[0]))
    assert final == {"player_0": 0.0, "player_1": 0.0}


@pytest.mark.parametrize("bad", [2.9, True, "3"])
def test_a_step_that_is_not_an_integer_is_refused(bad):
    """``raw_env.step(2.9)`` played action 2 (``int(action)``)."""
    from nardy_fast.env import long_nardy_v0
    env = long_nardy_v0.raw_env()
    env.reset(seed=0)
    with pytest.raises(TypeError, match="expected an integer"):
        env.step(bad)


def test_render_after_a_drawn_game_says_it_was_a_draw():
    """``render()`` after a draw (draw_rule) raised ValueError asking for the position a
    draw does not have; it says the game was drawn, as the Gymnasium environment does."""
    env = long_nardy_v0.env(rules="draw_rule=true", render_mode="ansi")
    env.reset(seed=0, options={"position": "WAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAR"})
    for agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        env.step(None if term or trunc else int(np.flatnonzero(obs["action_mask"])[0]))
    assert env.render().startswith("the game ended in a draw")


def test_unseeded_environments_play_different_games():
    """Every new environment reset without a seed played the dice of seed 0, so unseeded
    runs (one per process, say) all played the same games."""
    dice = set()
    for _ in range(8):
        env = long_nardy_v0.raw_env()
        env.reset()
        dice.add(tuple(env.observe(env.agent_selection)["observation"][48:54]))
    assert len(dice) > 1


@pytest.mark.parametrize("options, error", [("start", TypeError),
                                            ({"position": ""}, ValueError)])
def test_bad_reset_options_are_named(options, error):
    """``reset(options="start")`` failed inside ``dict()`` ("dictionary update sequence
    element #0 ..."), and an empty position ID was taken for the start."""
    env = long_nardy_v0.raw_env()
    with pytest.raises(error, match="options|position"):
        env.reset(seed=0, options=options)


def test_a_refused_reset_leaves_the_game_as_it_was():
    """A reset whose position was refused had already started a new game from the start,
    behind the agent on roll and the rewards of the game before."""
    env = long_nardy_v0.raw_env()
    env.reset(seed=0)
    env.step(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0]))
    before = env.position, env.agent_selection
    with pytest.raises(ValueError, match="the game is over"):
        env.reset(seed=1, options={"position": "WDwAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"})
    assert (env.position, env.agent_selection) == before


def test_a_step_after_the_game_is_over_says_so():
    """Once every agent had left, ``raw_env().step(...)`` raised ``KeyError: 'player_0'``."""
    env = long_nardy_v0.raw_env()
    env.reset(seed=0, options={"position": "WAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAR"})
    for agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        env.step(None if term or trunc else int(np.flatnonzero(obs["action_mask"])[0]))
    assert env.agents == []
    with pytest.raises(ValueError, match=r"step: the game is over .*call reset\(\)"):
        env.step(0)


@settings(max_examples=25, deadline=None)
@given(st.data(), st.sampled_from(ENV_RULES), dice())
def test_the_action_mask_reaches_exactly_the_legal_moves(data, rules, roll):
    """From a position of a game played under the rules and any roll: the steps the mask
    of the agent on roll offers, one after another, reach exactly the boards of
    ``Position.legal_moves``, no offered step leads to a turn that cannot be finished, and
    the other agent's mask stays empty."""
    p = data.draw(game_positions(rules))
    moves = p.legal_moves(roll, rules)
    assume(moves[0].steps)                     # a roll with no step passes by itself
    env = long_nardy_v0.env(rules=rules)
    agent = long_nardy_v0.AGENTS[p.side]
    other = next(a for a in env.possible_agents if a != agent)

    def replay(actions):
        env.reset(seed=0, options={"position": p, "dice": roll})
        for a in actions:
            env.step(a)
            assert env.agent_selection == agent and not any(env.terminations.values())
        assert not env.observe(other)["action_mask"].any()
        now = env.unwrapped.position
        assert now.side == p.side and now.opponent.tolist() == p.opponent.tolist()
        return now.mover.tolist(), env.observe(agent)["action_mask"]

    assert turns_stepped(replay, len(moves[0].steps)) == {m.board for m in moves}


@pytest.mark.parametrize("missing", ["pettingzoo", "gymnasium"])
def test_without_a_framework_the_import_names_it_and_the_extra(monkeypatch, missing):
    """It was "No module named 'pettingzoo'" (or 'gymnasium'), without the extra that
    brings them."""
    import importlib
    import sys
    monkeypatch.setitem(sys.modules, missing, None)
    monkeypatch.delitem(sys.modules, "nardy_fast.env.long_nardy_v0")
    with pytest.raises(ImportError, match=rf"^nardy_fast\.env\.long_nardy_v0 needs {missing}: "
                                          r"pip install 'nardy_fast\[rl\]'$"):
        importlib.import_module("nardy_fast.env.long_nardy_v0")
