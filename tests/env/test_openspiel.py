"""The OpenSpiel game ``"python_long_nardy"``: OpenSpiel's random simulation test with
serialization, its MCTS bot against a random bot, legal actions that are exactly the legal
turns under stable numbers, chance nodes and returns by the rules' scoring."""
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

pyspiel = pytest.importorskip("pyspiel")

from helpers import block_positions, game_positions                    # noqa: E402
from nardy_fast import Position, Rules                                 # noqa: E402
from nardy_fast.core._dice import ROLLS                                # noqa: E402
from nardy_fast.env import openspiel as ons                            # noqa: E402

# a bear-off position (both sides home, Black on roll): short games for the bots
LATE = "BAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAKN"


def _state_at(position, dice, rules="classic"):
    game = pyspiel.load_game(ons.GAME_NAME, {"position": position.id, "rules": rules})
    state = game.new_initial_state()
    state.apply_action(ROLLS.index(tuple(sorted(dice))))
    return state


def test_random_simulation_with_serialization():
    pyspiel.random_sim_test(pyspiel.load_game(ons.GAME_NAME), num_sims=1, serialize=True,
                            verbose=False)
    late = pyspiel.load_game(ons.GAME_NAME, {"position": LATE, "rules": "draw_rule:true"})
    pyspiel.random_sim_test(late, num_sims=3, serialize=True, verbose=False)


def test_mcts_bot_plays_a_random_bot():
    from open_spiel.python.algorithms import mcts
    game = pyspiel.load_game(ons.GAME_NAME, {"position": LATE})
    rng = np.random.RandomState(0)
    bot = mcts.MCTSBot(game, uct_c=2, max_simulations=16,
                       evaluator=mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
    for seat in (0, 1):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes())
                action = rng.choice(outcomes, p=probs)
            elif state.current_player() == seat:
                action = bot.step(state)
            else:
                action = rng.choice(state.legal_actions())
            state.apply_action(action)
        assert sum(state.returns()) == 0 and abs(state.returns()[0]) in (1, 2)


@settings(max_examples=12, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.one_of(game_positions(), block_positions()), st.sampled_from(ROLLS),
       st.sampled_from(["classic", "block_transient:true", "larger_die_rule=false"]))
def test_legal_actions_are_exactly_the_legal_turns(p, dice, rules):
    if p.is_over():
        return
    moves = p.legal_moves(dice, Rules.from_text(rules.replace(":", "=")))
    state = _state_at(p, dice, rules)
    if not moves[0].steps:                      # a pass: the other side's roll comes
        assert state.is_chance_node() and state.position == p.swap()
        return
    actions = state.legal_actions()
    assert len(actions) == len(moves) and all(0 <= a < ons.NUM_ACTIONS for a in actions)
    boards = set()
    for a in actions:
        child = state.child(a)
        boards.add(tuple(child.position.opponent.tolist()))
    assert boards == {m.board for m in moves}


def test_action_numbers_are_stable_and_documented():
    start = Position.initial()
    state = _state_at(start, (6, 5))
    # 6-5 from the start: one checker 1 -> 12 (by the 6 first or the 5 first: the smaller
    # number, 25 * 0 + 6 = 6 for the 6 from idx 0 and the 5 from idx 6)
    assert state.legal_actions() == [25 * 0 + 6]
    double = _state_at(start, (6, 6))    # two from the head; 7 -> 13 is the opponent's head
    rank = ons._double_rank([0, 0, 24, 24])      # C(0, 1) + C(1, 2) + C(26, 3) + C(27, 4)
    assert rank == 2600 + 17550
    assert double.legal_actions() == [ons.N_NON_DOUBLE + rank]
    assert double.action_to_string(double.legal_actions()[0]) == f"{625 + rank}: 1/7 1/7"


def test_chance_nodes_are_the_21_rolls():
    state = pyspiel.load_game(ons.GAME_NAME).new_initial_state()
    outcomes = state.chance_outcomes()
    assert [a for a, _ in outcomes] == list(range(21))
    assert sum(p for _, p in outcomes) == pytest.approx(1.0)
    assert dict(outcomes)[ROLLS.index((6, 6))] == pytest.approx(1 / 36)
    opening = pyspiel.load_game(ons.GAME_NAME, {"rules": "opening_roll:opening_dice"})
    first = opening.new_initial_state().chance_outcomes()
    assert len(first) == 15 and sum(p for _, p in first) == pytest.approx(1.0)


def test_an_action_not_allowed_is_refused_by_name_and_changes_nothing():
    """A roll that is not a chance outcome here (a double at an opening without doubles,
    an index past the 21 rolls) and a turn that is not legal are refused; the state and
    its history stay as they were."""
    opening = pyspiel.load_game(ons.GAME_NAME, {"rules": "opening_roll:opening_dice"})
    state = opening.new_initial_state()
    for action in (ROLLS.index((6, 6)), 21):
        with pytest.raises(ValueError, match=f"action {action}: not a roll of this chance"):
            state.apply_action(action)
    assert state.history() == [] and state.is_chance_node()
    state.apply_action(ROLLS.index((5, 6)))
    legal = state.legal_actions()
    wrong = next(a for a in range(1000) if a not in legal)
    with pytest.raises(ValueError, match=f"action {wrong}: not a legal turn of position "
                                         f"{Position.initial().id} with the roll 56"):
        state.apply_action(wrong)
    assert state.history() == [ROLLS.index((5, 6))] and state.legal_actions() == legal


def test_returns_follow_the_rules_scoring():
    """The last checker borne off against an opponent with none off: a mars, 2 points (4
    for a home mars under extended scoring)."""
    mover, opp = np.zeros(24, int), np.zeros(24, int)
    mover[23], opp[20] = 1, 15
    p = Position.from_boards(mover, opp)
    state = _state_at(p, (6, 5))
    state.apply_action(state.legal_actions()[0])
    assert state.is_terminal() and state.returns() == [2.0, -2.0]
    ext = _state_at(p, (6, 5), "scoring:extended")
    ext.apply_action(ext.legal_actions()[0])
    assert ext.returns() == [4.0, -4.0]
    game = pyspiel.load_game(ons.GAME_NAME, {"rules": "scoring:extended"})
    assert game.max_utility() == 4.0 and game.min_utility() == -4.0


def test_observation_and_information_state_tensors():
    state = _state_at(Position.initial(), (3, 1))
    for player in (0, 1):
        obs = np.array(state.observation_tensor(player))
        assert obs.shape == (60,)
        assert np.array_equal(obs, state.information_state_tensor(player))
    mine = np.array(state.observation_tensor(0))
    assert mine[0] == 1.0 and mine[48] == 0.25 and mine[50] == 0.25 and mine[59] == 0.0
    assert np.array(state.observation_tensor(1))[48:54].sum() == 0


def test_draw_rule_last_turn_and_draw():
    last = np.zeros(24, int)
    last[23] = 1
    p = Position.from_boards(last, last, "white")
    state = _state_at(p, (6, 5), "draw_rule:true")
    state.apply_action(state.legal_actions()[0])           # White bears off its last
    assert not state.is_terminal() and state.is_chance_node()
    state.apply_action(0)                                   # Black rolls 1-1
    state.apply_action(state.legal_actions()[0])           # and bears off its last: a draw
    assert state.is_terminal() and state.returns() == [0.0, 0.0]
    plain = _state_at(p, (6, 5))
    plain.apply_action(plain.legal_actions()[0])
    assert plain.returns() == [1.0, -1.0]


@settings(max_examples=10, deadline=None, suppress_health_check=list(HealthCheck))
@given(game_positions(), st.sampled_from(ROLLS))
def test_observation_tensor_is_the_environments_observation(p, dice):
    """The OpenSpiel observer writes the observation the C core writes (its twin in
    Python: a change of one shows here), for the side on roll and for the other."""
    from nardy_fast.env import VectorEnv
    if p.is_over() or not p.legal_moves(dice)[0].steps:
        return
    state = _state_at(p, dice)
    core = VectorEnv(1, seed=0)
    core.set_state(0, p, dice)
    me = 0 if p.side == "white" else 1
    assert np.allclose(state.observation_tensor(me), core.observation(0))
    assert np.allclose(state.observation_tensor(1 - me), core.observation(0, waiting=True))


def test_blacks_last_turn_under_draw_rule_is_played():
    """After White bore off under draw_rule, Black's roll failed ("the game is over":
    listing its turns went through a rules-blind check), so OpenSpiel's random
    simulation test failed under draw_rule.  A game may also start at that turn."""
    start = Position.from_text("white=1:1 white-off=14 black=6:3 black-off=12 turn=W").id
    state = pyspiel.load_game(ons.GAME_NAME, {"rules": "draw_rule:true",
                                              "position": start}).new_initial_state()
    state.apply_action(1)
    state.apply_action(state.legal_actions()[0])    # White bears off its last checker
    state.apply_action(1)                           # Black rolls: its last turn
    assert state.current_player() == 1 and state.legal_actions()
    game = pyspiel.load_game(ons.GAME_NAME, {"rules": "draw_rule:true+scoring:extended"})
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)
    last = pyspiel.load_game(ons.GAME_NAME, {"rules": "draw_rule:true",
                                             "position": "BAAAAAAAAAAAAAAAAAAAAAAAAMAAAAAAA"})
    s = last.new_initial_state()
    s.apply_action(ROLLS.index((6, 6)))
    s.apply_action(s.legal_actions()[0])            # 19/off x3: both off, a draw
    assert s.is_terminal() and s.returns() == [0.0, 0.0]
    with pytest.raises(ValueError, match="the game is over"):
        pyspiel.load_game(ons.GAME_NAME, {"position": "BAAAAAAAAAAAAAAAAAAAAAAAAMAAAAAAA"})


def test_a_finished_game_and_other_nodes_are_named_not_misread():
    """A finished game's ``apply_action`` failed inside the move generator ("dice=None:
    expected two dice"), ``chance_outcomes`` listed the 21 rolls at a decision and after
    the end, and ``action_to_string`` raised for a player's action at a chance node or
    after the end and for a roll past the 21 (IndexError)."""
    state = pyspiel.load_game(ons.GAME_NAME, {"position": LATE}).new_initial_state()
    assert state.action_to_string(0, 5) == "turn 5"                   # a chance node
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 30) == "roll 30"
    state.apply_action(ROLLS.index((6, 6)))
    with pytest.raises(ValueError, match="chance_outcomes: not a chance node"):
        state.chance_outcomes()
    while not state.is_terminal():
        state.apply_action(state.chance_outcomes()[-1][0] if state.is_chance_node()
                           else state.legal_actions()[0])
    returns, history = state.returns(), state.history()
    with pytest.raises(ValueError, match=r"action 0: the game is over \(returns "):
        state.apply_action(0)
    with pytest.raises(ValueError, match="chance_outcomes: not a chance node"):
        state.chance_outcomes()
    assert state.action_to_string(0, 5) == "turn 5"
    assert state.returns() == returns and state.history() == history


def test_without_open_spiel_the_import_names_the_package_and_extra(monkeypatch):
    """It was "No module named 'pyspiel'": neither the package to install (open_spiel) nor
    the extra that brings it."""
    import importlib
    import sys
    monkeypatch.setitem(sys.modules, "pyspiel", None)
    monkeypatch.delitem(sys.modules, "nardy_fast.env.openspiel")
    with pytest.raises(ImportError, match=r"^nardy_fast\.env\.openspiel needs open_spiel "
                                          r"\(its module pyspiel\): pip install "
                                          r"'nardy_fast\[rl\]'$"):
        importlib.import_module("nardy_fast.env.openspiel")
