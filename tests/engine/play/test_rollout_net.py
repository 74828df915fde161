"""``Evaluator(net, rollout_net=...)``: the net that judges (evaluations, hints) apart from
the faster one that plays the game loops of a ``"net"`` policy (rollouts, the cube
rollouts' model, the luck nets' data)."""
import pickle

import numpy as np
import pytest

import nardy_fast as nf
from nardy_fast.engine.play import lucknet
from nardy_fast.training import lucknet as luck_training
from nardy_fast.engine.evaluation._net import Net
from nardy_fast.engine.evaluation.evaluator import Evaluator
from nardy_fast.engine.play.policy import Policy
from nardy_fast.engine.play.rollout import rollout

from naive_net import positions_from_games

JUDGE = Net.random(16, 21, n_hidden2=8)
PLAYER = Net.random(16, 22)


def _pair():
    return Evaluator(JUDGE, rollout_net=PLAYER)


def test_one_net_does_both_unless_told():
    ev = Evaluator(PLAYER)
    assert ev.rollout_net is ev.net and ev.rollout_evaluator() is ev


def test_the_judge_evaluates_and_the_player_plays():
    ev = _pair()
    boards = positions_from_games(1, seed=3)[:12]
    np.testing.assert_array_equal(ev.probabilities(boards, plies=1)[0],
                                  Evaluator(JUDGE).probabilities(boards, plies=1)[0])
    assert Policy.of(ev).c_form().net is PLAYER
    p = nf.Position.initial()
    kw = dict(seed=4, truncate=None, workers=1, variance_reduction=False, progress=False)
    a = rollout(p, 40, policy=ev, **kw)
    b = rollout(p, 40, policy=Evaluator(PLAYER), **kw)
    c = rollout(p, 40, policy=Evaluator(JUDGE), **kw)
    assert a.p_win == b.p_win and a.p_mars_win == b.p_mars_win
    assert (a.p_win, a.p_mars_win, a.p_mars_loss) != (c.p_win, c.p_mars_win, c.p_mars_loss)


def test_the_rollout_evaluator_keeps_the_rules_tables_and_filter():
    rules = nf.Rules(scoring="extended")
    ev = Evaluator(JUDGE, rules=rules, exact=False, keep=2, rollout_net=PLAYER)
    r = ev.rollout_evaluator()
    assert r.net is PLAYER and r.rollout_net is PLAYER
    assert (r.rules, r.exact, r.keep) == (rules, False, 2)
    assert ev.rollout_evaluator() is r                     # made once
    assert luck_training._evaluator(ev).net is PLAYER            # luck nets serve the rollouts


def test_copies_keep_both_nets():
    ev = _pair()
    for other in (pickle.loads(pickle.dumps(ev)), ev.with_rules(nf.Rules(draw_rule=True))):
        assert other.net.digest() == JUDGE.digest()
        assert other.rollout_net.digest() == PLAYER.digest()
    one = pickle.loads(pickle.dumps(Evaluator(PLAYER)))
    assert one.rollout_net is one.net


def test_a_rollout_net_that_is_not_a_net_is_refused():
    with pytest.raises(TypeError, match="rollout_net: expected a nardy_fast.engine.evaluation._net.Net"):
        Evaluator(JUDGE, rollout_net="fast.nfdb")
