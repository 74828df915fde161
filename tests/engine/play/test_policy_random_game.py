"""``nardy_fast.random_game`` takes the policy names every other function takes
(``engine.policy``: "net", "net:1", "greedy", "random", an Evaluator), the core's "race"
and a chooser, and one seed gives one game."""
import numpy as np
import pytest

import nardy_fast as nf
from nardy_fast.core import record
from nardy_fast.engine.play._policies import greedy_scores
from nardy_fast.engine.play.policy import Policy


@pytest.mark.parametrize("policy", ["net", "net:0", "net:1", "greedy", "random", "race"])
def test_each_name_plays_and_one_seed_gives_one_game(policy, tmp_path):
    a = nf.random_game(seed=4, policy=policy, max_turns=12)
    b = nf.random_game(seed=4, policy=policy, max_turns=12)
    assert len(a.turns) == 12 and a.turns == b.turns
    assert a.white == a.black == (policy if policy == "race" else Policy.of(policy).name)
    nf.write_record(a, tmp_path / "g.mat")
    assert nf.read_record(tmp_path / "g.mat").turns == a.turns      # a valid record


def test_the_net_plays_the_evaluator_s_best_move_and_greedy_its_highest_score():
    ev = nf.Evaluator.default()
    for policy in ("net", "net:1", ev):
        rec = nf.random_game(seed=7, policy=policy, max_turns=10)
        plies = 1 if policy == "net:1" else 0
        ps = rec.positions()
        for pos, after, turn in zip(ps, ps[1:], rec.turns):
            assert after == pos.play(ev.best_move(pos, turn.dice, plies=plies))
    rec = nf.random_game(seed=7, policy="greedy", max_turns=10)
    ps = rec.positions()
    for pos, after, turn in zip(ps, ps[1:], rec.turns):
        moves = pos.legal_moves(turn.dice)
        scores = greedy_scores(np.array([m.board for m in moves], np.uint8), pos.opponent)
        assert after == pos.play(moves[int(np.argmax(scores))])


def test_the_dice_do_not_depend_on_the_policy():
    """The seed draws the dice alone for the net and greedy: their games roll the same."""
    dice = [t.dice for t in nf.random_game(seed=9, policy="net", max_turns=8).turns]
    assert [t.dice for t in nf.random_game(seed=9, policy="greedy", max_turns=8).turns] == dice


@pytest.mark.parametrize("bad", ["nett", "net:3", 3, None])
def test_an_unknown_policy_is_refused_naming_the_accepted_ones(bad):
    with pytest.raises((ValueError, TypeError), match=r"policy=.*expected one of 'net', "
                       r"'greedy', 'random', 'net:1', 'net:2', 'race', an Evaluator"):
        nf.random_game(policy=bad)


def test_the_core_s_names_and_a_chooser_work_as_before():
    first = nf.random_game(seed=3, max_turns=12)
    assert first.turns == record.random_game(seed=3, max_turns=12).turns
    assert first.white == "random"

    def first_move(position, moves, rng):
        return moves[0]
    rec = nf.random_game(seed=3, max_turns=5, policy=first_move, white="a", black="b")
    assert (rec.white, rec.black) == ("a", "b")
    assert rec.turns == record.random_game(seed=3, max_turns=5, policy=first_move).turns


@pytest.mark.parametrize("scores, error", [
    (lambda c, o: np.zeros(len(c) + 1), r"returned shape \(\d+,\) for \d+ candidates"),
    (lambda c, o: None, r"returned shape \(\) for \d+ candidates"),
    (lambda c, o: np.full(len(c), np.nan), "returned NaN scores")])
def test_a_chooser_refuses_scores_that_are_not_one_number_per_candidate(scores, error):
    """A callable's chooser (the Gymnasium environment's opponent) played a move for
    scores of the wrong length, None or NaN, as the C loops refuse them."""
    p = nf.Position.initial()
    choose = Policy.of(scores).chooser()
    with pytest.raises(ValueError, match=error):
        choose(p, p.legal_moves((3, 3)), np.random.default_rng(0))
