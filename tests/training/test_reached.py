"""Games of the judging net against other players (nardy_fast.training.reached): the
noisy net, the seeded games, their positions."""
import numpy as np
import pytest

import nardy_fast as nf
from nardy_fast.core.gameloop import throw
from nardy_fast.engine.evaluation.evaluator import Evaluator
from nardy_fast.training import reached


def _positions(seed, n):
    """n positions (with dice) of a seeded random game, contact and some choice."""
    rec = nf.random_game(seed=seed, policy="random")
    rng = np.random.default_rng(seed)
    out = []
    for p in rec.positions()[2:]:
        dice = throw(rng)
        moves = p.legal_moves(dice)
        if len(moves) > 3:
            out.append((p, dice, moves))
        if len(out) == n:
            return out
    return out


def test_noisy_net_is_seeded_legal_and_errs_by_sigma():
    ev = Evaluator.default()
    cases = _positions(5, 12)

    def play(sigma, seed):
        rng = np.random.default_rng(seed)
        return [reached.net_move(ev, p, d, m, sigma=sigma, rng=rng).board
                for p, d, m in cases]

    best = [ev.best_move(p, d).board for p, d, _ in cases]
    assert play(0.0, 1) == best                          # no noise: the net's own move
    a, b = play(0.1, 1), play(0.1, 1)
    assert a == b                                        # one seed, one choice
    for (p, d, m), x in zip(cases, a):
        assert x in {mv.board for mv in m}               # a legal move
    # a large error plays other moves than the net's; a tiny one does not
    assert sum(x != y for x, y in zip(play(5.0, 2), best)) >= len(cases) // 2
    assert play(1e-9, 3) == best
    with pytest.raises(ValueError, match="rng"):
        reached.net_move(ev, *cases[0], sigma=0.1)
    with pytest.raises(ValueError, match="sigma"):
        reached.net_move(ev, *cases[0], sigma=-1.0, rng=np.random.default_rng(0))


def test_net1_plays_the_nets_one_ply_choice():
    ev = Evaluator.default()
    choose = reached.opponent_chooser("net1", ev, np.random.default_rng(0))
    for p, d, m in _positions(11, 4):
        assert choose(p, d, m).board == ev.best_move(p, d, plies=1).board


def test_reached_game_alternates_the_nets_colour_and_is_seeded():
    ev = Evaluator.default()
    recs = [reached.reached_game("noisy", g, 7, ev) for g in range(3)]
    assert [(r.white, r.black) for r in recs] == [("net", "noisy"), ("net", "noisy"),
                                                  ("noisy", "net")]
    assert recs[0].result() is not None                  # played to the end, legally
    again = reached.reached_game("noisy", 0, 7, ev)
    assert again.to_text() == recs[0].to_text()
    assert reached.reached_game("noisy", 0, 8, ev).to_text() != recs[0].to_text()
    with pytest.raises(ValueError, match="source='gnubg'"):
        reached.reached_game("gnubg", 0, 7, ev)


def test_reached_positions_are_the_games_positions_before_each_turn():
    ev = Evaluator.default()
    boards, src = reached.reached_positions(ev, 2, 30, sources=("greedy", "noisy"))
    want = []
    for k, source in enumerate(("greedy", "noisy")):
        for g in range(2):
            rec = reached.reached_game(source, g, 30 + 100 * (k + 1), ev)
            want += [(np.asarray(p.boards), source) for p in rec.positions()
                     if p.mover.any() and p.opponent.any() and not p.is_over()]
    assert len(boards) == len(want) and boards.dtype == np.uint8
    assert all(np.array_equal(b, w) and s == ws for b, s, (w, ws) in zip(boards, src, want))
    with pytest.raises(ValueError, match="source='human'"):
        reached.reached_positions(ev, 1, 30, sources=("human",))
