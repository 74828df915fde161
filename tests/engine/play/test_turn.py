"""``turn.LoopPolicy``: the Python view of ``_turn.player_t``, the home of a C loop's
policy; its kinds are ``_turn.KINDS`` (the ``PLAYER_*`` codes) and it is checked when
made, not when a loop reads it."""
import pytest

from nardy_fast.engine.evaluation.evaluator import Evaluator
from nardy_fast.engine.play import _turn, policy
from nardy_fast.engine.play.policy import Policy
from nardy_fast.engine.play.turn import LoopPolicy


def test_the_kinds_are_the_c_loops_and_the_policies():
    assert set(_turn.KINDS) == {"random", "greedy", "python", "net"}
    assert sorted(_turn.KINDS.values()) == [0, 1, 2, 3]
    assert set(policy.KINDS) == set(_turn.KINDS)
    ev = Evaluator.default()
    for p in (Policy.of("random"), Policy.of("greedy"), Policy.of(ev),
              Policy.of(lambda boards, opp: boards.sum(axis=1))):
        assert p.c_form().kind in _turn.KINDS


@pytest.mark.parametrize("kwargs, message", [
    ({"kind": "evaluate"}, "kind='evaluate': expected one of 'random', 'greedy', 'python', "
                           "'net'"),
    ({"kind": "net"}, "net=None"),
    ({"kind": "python", "fn": 3}, "fn=3 is not callable"),
    ({"kind": "greedy", "plies": -1}, "plies=-1"),
])
def test_a_malformed_loop_policy_is_refused_when_made(kwargs, message):
    with pytest.raises(ValueError, match=message.replace("(", r"\(")):
        LoopPolicy(**kwargs)
