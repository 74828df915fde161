"""The batched environment in C (``nardy_fast.env.VectorEnv``): its step mask reaches
exactly the legal turns, its afterstate candidates are the legal turns, illegal actions
change nothing, and a seed fixes the games whatever the number of threads."""
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from helpers import block_positions, first_turn_positions, game_positions, hand_positions
from nardy_fast import Position, Rules
from nardy_fast.core._dice import ROLLS
from nardy_fast.env import N_ACTIONS, OBS_SIZE, VectorEnv, action_of, step_of, turns_by_steps

RULES = [None, Rules(block_transient=True), Rules(head_rule="generalized"),
         Rules(larger_die_rule=False), Rules(block_rule="home"), Rules(block_rule="none")]
FAST = settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))


def legal_turns(p, dice, rules):
    """The boards of ``legal_moves`` (a pass, no steps, is no turn to reach)."""
    return {m.board for m in p.legal_moves(dice, rules) if m.steps}


def assert_mask_reaches_the_legal_turns(p, rules):
    if p.is_over():
        return
    for dice in ROLLS:
        assert set(turns_by_steps(p, dice, rules)) == legal_turns(p, dice, rules), (
            p.id, dice, rules)


@FAST
@given(game_positions(), st.sampled_from(RULES))
def test_step_mask_reaches_exactly_the_legal_turns_of_game_positions(p, rules):
    assert_mask_reaches_the_legal_turns(p, rules)


@FAST
@given(hand_positions(), st.sampled_from(RULES))
def test_step_mask_reaches_exactly_the_legal_turns_of_hand_positions(p, rules):
    assert_mask_reaches_the_legal_turns(p, rules)


@settings(FAST, max_examples=12)
@given(block_positions(), st.sampled_from(RULES))
def test_step_mask_keeps_the_block_rule(p, rules):
    assert_mask_reaches_the_legal_turns(p, rules)


@FAST
@given(first_turn_positions(), st.sampled_from(RULES))
def test_step_mask_keeps_the_head_rule_and_its_first_turn_doubles(p, rules):
    assert_mask_reaches_the_legal_turns(p, rules)


def test_first_turn_double_takes_two_from_the_head():
    """6-6 from the start: two checkers leave the head (the single one is stopped on 13)."""
    turns = turns_by_steps(Position.initial(), (6, 6))
    assert set(turns) == legal_turns(Position.initial(), (6, 6), None)
    assert all(board[0] == 13 for board in turns)


def test_one_die_playable_must_be_the_larger():
    """A last checker on point 23 with 5-3: either die bears it off, the rule asks the 5
    (the mask offers only it, though the 3 would reach the same board)."""
    mover, opp = np.zeros(24, int), np.zeros(24, int)
    mover[22], opp[20] = 1, 5
    p = Position.from_boards(mover, opp)
    env = VectorEnv(1, seed=0)
    env.autoreset = 0
    env.set_state(0, p, (3, 5))
    assert np.flatnonzero(env.action_masks()[0]).tolist() == [action_of(22, 5)]
    free = VectorEnv(1, seed=0, rules=Rules(larger_die_rule=False))
    free.set_state(0, p, (3, 5))
    assert np.flatnonzero(free.action_masks()[0]).tolist() == [action_of(22, 3),
                                                               action_of(22, 5)]


def test_a_roll_with_no_legal_step_passes_by_itself():
    """The mover's only checker is walled in: the roll passes, the other side is on roll."""
    mover, opp = np.zeros(24, int), np.zeros(24, int)
    mover[0] = 15
    opp[13:19] = 2                     # the opponent holds the mover's points 2..7
    opp[19] = 3
    p = Position.from_boards(mover, opp)
    assert p.legal_moves((2, 3))[0].steps == ()
    env = VectorEnv(1, seed=0)
    env.set_state(0, p, (2, 3))
    assert env.position(0) == p.swap()
    assert turns_by_steps(p, (2, 3)) == {}


@FAST
@given(game_positions(), st.sampled_from(ROLLS), st.sampled_from(RULES))
def test_afterstate_candidates_are_the_legal_turns(p, dice, rules):
    moves = p.legal_moves(dice, rules)
    if p.is_over() or not moves[0].steps:
        return
    env = VectorEnv(1, seed=0, rules=rules, mode="afterstate")
    env.set_state(0, p, dice)
    boards, offsets = env.candidates()
    assert offsets.tolist() == [0, len(moves)]
    assert boards.shape == (len(moves), 2, 24)
    assert [tuple(b) for b in boards[:, 0].tolist()] == [m.board for m in moves]
    assert (boards[:, 1] == p.opponent).all()


def test_illegal_actions_are_refused_and_change_nothing():
    env = VectorEnv(3, seed=5)
    env.reset()
    before = [env.position(e) for e in range(3)], env.action_masks(), env.observation(1)
    legal = env.sample_actions()
    bad = legal.copy()
    bad[1] = np.flatnonzero(~env.action_masks()[1])[0]
    with pytest.raises(ValueError, match=r"actions\[1\] = \d+ \(from point \d+ with a \d\): "
                                         r"not a legal step of game 1"):
        env.step(bad)
    for wrong, what in (([0, 1], "shape"), ([144] * 3, r"expected 0\.\.143"),
                        ([-1] * 3, r"actions\[0\] = -1")):
        with pytest.raises(ValueError, match=what):
            env.step(wrong)
    with pytest.raises(TypeError, match=r"actions\[0\] = 0\.5: expected an integer"):
        env.step(np.array([0.5, 1, 2]))
    # an infinity and a uint64 past int64 were cast first: "actions[0] = -9223372036854775808"
    with pytest.raises(TypeError, match=r"actions\[0\] = inf: expected an integer"):
        env.step(np.array([np.inf, 1, 2]))
    with pytest.raises(ValueError, match=r"actions\[0\] = 9223372036854775808: not an action"):
        env.step(np.array([2 ** 63, 1, 2], np.uint64))
    with pytest.raises(TypeError, match=r"action=5\.5: expected an integer"):
        env.play(0, 5.5)                                # was played as 5
    with pytest.raises(TypeError, match=r"e='0': expected a game's index"):
        env.position("0")
    after = [env.position(e) for e in range(3)], env.action_masks(), env.observation(1)
    assert before[0] == after[0]
    assert (before[1] == after[1]).all() and (before[2] == after[2]).all()
    env.step(legal)                                     # the legal ones still play



def test_bad_reset_options_are_refused_before_any_game_changes():
    """``reset(options="start")`` said "unknown key(s) ['a', 'r', 's', 't']", and a
    position that is over was refused only after every game had been reset (and the
    seed changed), the batch left half started again."""
    env = VectorEnv(3, seed=5)
    env.step(env.sample_actions())
    before = [env.position(e) for e in range(3)], env.observation(1)
    with pytest.raises(TypeError, match=r"options='start': expected a dict"):
        env.reset(options="start")
    over = Position.from_boards([0] * 24, [15] + [0] * 23)
    with pytest.raises(ValueError, match=f"position {over.id}: the game is over"):
        env.reset(seed=9, options={"position": over})
    assert [env.position(e) for e in range(3)] == before[0]
    assert (env.observation(1) == before[1]).all() and env.seed == 5

def test_afterstate_refuses_an_index_past_the_candidates():
    env = VectorEnv(2, seed=1, mode="afterstate")
    n = np.diff(env.candidates()[1])
    with pytest.raises(ValueError,
                       match=rf"actions\[0\] = {n[0]}: not a legal turn of game 0"):
        env.step([n[0], 0])
    with pytest.raises(ValueError, match="afterstate"):
        env.action_masks()


def _run(threads, mode, steps=150):
    env = VectorEnv(8, seed=11, mode=mode, threads=threads)
    obs, _ = env.reset()
    trail = [obs]
    for _ in range(steps):
        obs, reward, term, trunc, _ = env.step(env.sample_actions())
        trail += [obs, reward, term]
    return trail


@pytest.mark.parametrize("mode", ["step", "afterstate"])
def test_a_seed_gives_the_same_games_whatever_the_threads(mode):
    one, two = _run(1, mode), _run(2, mode)
    assert all(np.array_equal(a, b) for a, b in zip(one, two))
    other = VectorEnv(8, seed=12, mode=mode)
    assert not np.array_equal(other.reset()[0], one[0]) or not np.array_equal(
        other.step(other.sample_actions())[0], one[1])


def test_games_end_with_the_rules_points_and_start_again():
    """Random games to their end: each ends with the winner's points (1 or 2 under classic
    scoring) given to the side that made the last step, then starts again at once."""
    env = VectorEnv(16, seed=3)
    env.reset()
    ended = 0
    for _ in range(400):
        obs, reward, term, trunc, _ = env.step(env.sample_actions())
        assert not trunc.any()
        assert set(np.abs(reward[term]).tolist()) <= {1.0, 2.0}
        assert (reward[term] > 0).all()            # the last step bears off the last checker
        assert (reward[~term] == 0).all()
        ended += term.sum()
        if term.any():
            assert (obs[term, 0] == 1.0).all()     # a new game: 15 on the head
    assert ended > 0


def test_observation_layout():
    env = VectorEnv(1, seed=0)
    obs, info = env.reset()
    assert obs.shape == (1, OBS_SIZE) and obs.dtype == np.float32
    d1, d2 = env.dice(0)
    assert obs[0, 0] == 1.0 and obs[0, 24 + 12] == 1.0   # both heads, mover's view
    dice = np.zeros(6)
    dice[d1 - 1] += 1
    dice[d2 - 1] += 1
    if d1 == d2:
        dice *= 2
    assert np.allclose(obs[0, 48:54], dice / 4)
    assert obs[0, 57] == 1.0 and obs[0, 58] == 0.0 and obs[0, 59] == 0.0
    assert info["to_play"].tolist() == [0]
    a = env.sample_actions()
    assert step_of(int(a[0]))[0] == 0                # from the start, only the head moves
    obs = env.step(a)[0]
    if env.position(0).side == "white":              # still White's turn: head used
        assert obs[0, 58] == 1.0


def test_action_encoding_round_trips():
    assert [action_of(*step_of(a)) for a in range(N_ACTIONS)] == list(range(N_ACTIONS))
    with pytest.raises(ValueError, match="die=7"):
        action_of(0, 7)
    with pytest.raises(ValueError, match="action=144"):
        step_of(144)


def test_bad_settings_are_named():
    with pytest.raises(ValueError, match="n_envs=0"):
        VectorEnv(0)
    with pytest.raises(MemoryError, match=r"n_envs=1125899906842624\) needs about"):
        VectorEnv(2 ** 50)
    with pytest.raises(ValueError, match="mode='turn'"):
        VectorEnv(1, mode="turn")
    with pytest.raises(ValueError, match="cube"):
        VectorEnv(1, rules=Rules(cube="geometric"))
    with pytest.raises(ValueError, match="over"):
        VectorEnv(1).set_state(0, Position.from_boards(np.zeros(24, int),
                                                       [15] + [0] * 23))


def test_more_games_than_the_memory_available_are_refused_up_front(monkeypatch):
    # VectorEnv(10**7) took memory game after game, up to 8 GB, before its MemoryError;
    # now the games' memory is checked first (the memory available is injected, small)
    from nardy_fast._utils import _resources   # private on purpose: no memory, injected
    monkeypatch.setattr(_resources, "available_memory", lambda: 10 ** 8)
    with pytest.raises(MemoryError, match=r"^VectorEnv\(n_envs=100000\) needs about "
                                          r"5\d\d MB of memory and 100 MB is available: "
                                          r"play fewer games at once \(n_envs\)$"):
        VectorEnv(10 ** 5)
    assert VectorEnv(1000, seed=1).num_envs == 1000          # 5 MB: made


def test_policy_actions_are_the_policys_turns():
    """``policy_actions("greedy")`` plays the greedy heuristic's best candidate of each
    game (the first of the highest score); the net's choices are candidate indices."""
    from nardy_fast.engine.play._policies import greedy_scores
    env = VectorEnv(6, seed=4, mode="afterstate")
    for _ in range(30):
        env.step(env.sample_actions())
    boards, offsets = env.candidates()
    chosen = env.policy_actions("greedy")
    for e in range(6):
        cands = boards[offsets[e]:offsets[e + 1]]
        assert chosen[e] == int(np.argmax(greedy_scores(cands[:, 0], cands[0, 1])))
    net = env.policy_actions("net")
    assert ((0 <= net) & (net < np.diff(offsets))).all()
    env.step(net)
    with pytest.raises(ValueError, match="policy='random'"):
        env.policy_actions("random")


def test_draw_rule_gives_black_a_last_turn_and_a_draw():
    """White bears off its last checker; under draw_rule Black plays a last turn, and
    bearing off its own last checker in it draws (reward 0, the game over); without the
    rule White's step wins at once."""
    last = np.zeros(24, int)
    last[23] = 1
    p = Position.from_boards(last, last, "white")
    env = VectorEnv(1, seed=0, rules=Rules(draw_rule=True))
    env.autoreset = 0
    env.set_state(0, p, (6, 5))
    assert env.play(0, action_of(23, 6)) == (0.0, False, False)
    assert env.position(0).side == "black"
    env.play(0, int(env.sample_actions()[0]))
    assert env.done(0) and env.steps_left(0) == 0
    plain = VectorEnv(1, seed=0)
    plain.autoreset = 0
    plain.set_state(0, p, (6, 5))
    assert plain.play(0, action_of(23, 6)) == (1.0, True, False)      # an oin: 1 point


def test_no_step_passes_through_a_forbidden_block():
    """The mover holds its points 19, 20, 21, 23, 24 (a block of the opponent's points
    7-12 but for 22) and a checker on 17; every opponent checker is behind, on its head.
    With 5-2, 17/22 makes the forbidden block: under the classic rules no intermediate
    position may hold it, so the mask refuses that step though 17/22/24 ends legal (as
    17/19/24 reaches it); with ``block_transient=True`` only the end counts and it is
    offered."""
    mover, opp = np.zeros(24, int), np.zeros(24, int)
    mover[[18, 19, 20, 22, 23]] = 1
    mover[16], mover[0] = 1, 9
    opp[0] = 15
    p = Position.from_boards(mover, opp)
    through = action_of(16, 5)
    env = VectorEnv(1, seed=0)
    env.set_state(0, p, (5, 2))
    assert not env.action_masks()[0, through] and env.action_masks()[0, action_of(16, 2)]
    loose = VectorEnv(1, seed=0, rules=Rules(block_transient=True))
    loose.set_state(0, p, (5, 2))
    assert loose.action_masks()[0, through]
    for rules in (None, Rules(block_transient=True)):
        assert set(turns_by_steps(p, (5, 2), rules)) == legal_turns(p, (5, 2), rules)


def test_policy_actions_are_refused_in_the_step_mode():
    """In the step mode ``policy_actions`` gave candidate indices, which ``step`` took as
    checker steps (0: from point 1 with a 1)."""
    env = VectorEnv(2, seed=1)
    with pytest.raises(ValueError, match=r"policy_actions: .*mode='afterstate'"):
        env.policy_actions("net")


def test_ctrl_c_stops_policy_actions_after_a_block(monkeypatch):
    """``policy_actions`` chooses in blocks of games (the C search holds the interpreter
    until its call returns) and looks for Ctrl-C between two: a Ctrl-C that came during
    the second block stops the batch there, not after every game; and the blocks do not
    change a choice."""
    from nardy_fast.env import _vecenv
    from helpers import ctrl_c_at_call
    env = VectorEnv(96, seed=1, mode="afterstate")
    for _ in range(20):
        env.step(env.sample_actions())
    want = env.policy_actions("net:1")
    monkeypatch.setitem(_vecenv.POLICY_BLOCK, 1, 5)
    np.testing.assert_array_equal(env.policy_actions("net:1"), want)
    calls = []
    monkeypatch.setattr(_vecenv, "_between_blocks", lambda: calls.append(1))
    env.policy_actions("net:1")
    blocks = len(calls)
    assert blocks == -(-96 // (5 * env.threads))        # one look after each block
    monkeypatch.setattr(_vecenv, "_between_blocks", lambda: None)
    calls = ctrl_c_at_call(monkeypatch, _vecenv, "_between_blocks", call=2)
    with pytest.raises(KeyboardInterrupt):
        env.policy_actions("net:1")
    assert len(calls) == 2 < blocks                       # stopped after the second
