"""Self-play games and their TD(lambda) targets, recomputed by a Python replay.

The replay follows the documented contract of ``_selfplay`` and ``train``, not its code:

- game ``g`` throws its dice from ``rng.block_bit_generator(entropy, g)``: each roll is
  one uniform number ``r`` in 0..35 (Lemire's method on the generator's 32-bit outputs,
  as ``numpy.random.Generator.integers(0, 36, dtype=uint32)`` draws it), dice
  ``(r // 6 + 1, r % 6 + 1)``;
- before each turn, a race of both homes ends the game; its value comes from the race
  tables (``train.training_tables``: the one- and two-sided databases), **from the view of
  the side then on roll**;
- the mover plays the result of best 0-ply equity under the classic points (a result with
  no checkers left is a win, scored on the loser's board; a race of both homes is valued
  by the tables; else the net, its outputs made consistent), ties to the smallest board;
- the record holds ``s_t`` and ``V(s_{t+1})`` from the view of the side on roll at
  ``s_{t+1}``; ``Z = V(s_T)``; the targets are ``R_t = flip(G_{t+1})``, ``G_T = Z``,
  ``G_t = (1 - lam) V(s_t) + lam R_t``.

The net's outputs are taken from ``Net.outputs_many`` with the same base board as the
search (the floats then agree bit for bit, so the replayed games are the same games).
"""
import numpy as np
import pytest

import nardy_fast as nf
from nardy_fast.training import _selfplay
from nardy_fast.tables import bearoff
from nardy_fast.engine.evaluation.evaluator import Evaluator
from nardy_fast.tables.race import race_probabilities
from nardy_fast.core.rng import block_bit_generator
from nardy_fast.core.rules import CLASSIC
from nardy_fast.training.train import random_races, training_tables

from helpers import flip

f32 = np.float32


def all_home(b):
    return not np.asarray(b)[:18].any()


def clip(v, me, opp):
    """Consistent outputs (float32, as the net's) for ``me`` on roll against ``opp``: each
    mars <= its win, koks <= mars, koks + home mars <= mars; then the kinds the boards
    rule out are 0 (a side with a checker off is never marsed, one with no checker on its
    points 1-6 never koksed)."""
    v = np.array(v, dtype=f32)
    for base, top in ((1, v[0]), (4, f32(1.0 - np.float64(v[0])))):
        v[base] = min(v[base], top)
        v[base + 1] = min(v[base + 1], v[base])
        if v[base + 1] + v[base + 2] > v[base]:
            v[base + 2] = v[base] - v[base + 1]
    for base, loser in ((1, opp), (4, me)):
        if loser.sum() < 15:
            v[base:base + 3] = 0
        elif not loser[:6].any():
            v[base + 1] = 0
    return v


def race_value(me, opp):
    """Race-table value (seven outputs, float32) for ``me`` on roll: every race mars is a
    home mars."""
    o = race_probabilities(nf.Position(me, opp), CLASSIC,
                           tables=[bearoff.one_sided(), bearoff.two_sided()])
    return np.array([o.p_win, o.p_mars_win, 0, o.p_mars_win, o.p_mars_loss, 0,
                     o.p_mars_loss], dtype=f32)


def win_value(loser):
    """Outputs (winner's view) of a game won over ``loser`` (rule book section 7)."""
    v = np.zeros(7, f32)
    v[0] = 1
    if loser.sum() == 15:
        v[1] = 1
        if loser[:6].any():
            v[2] = 1
        elif loser[18:].sum() == 15:
            v[3] = 1
    return v


def classic_equity(v):
    w, mw, kw, hw, ml, kl, hl = (np.float64(x) for x in v)
    return (w - mw) * 1 + (mw - kw - hw) * 2 + kw * 2 + hw * 2 \
        - ((1 - w) - ml) * 1 - (ml - kl - hl) * 2 - kl * 2 - hl * 2


def replay(net, start, entropy, g):
    """One self-play game: (positions, next values, final value, "race" or "won")."""
    gen = np.random.Generator(block_bit_generator(entropy, g))
    b = [np.array(start[0], np.uint8), np.array(start[1], np.uint8)]
    s = 0
    pos, nxt = [], []
    while True:
        me, opp = b[s], b[1 - s]
        if all_home(me) and all_home(opp):
            return pos, nxt, race_value(me, opp).astype(np.float64), "race"
        pos.append(np.stack([me, opp]))
        r = int(gen.integers(0, 36, dtype=np.uint32))
        cands = nf.successors(me, opp, r // 6 + 1, r % 6 + 1)
        outs = net.outputs_many(opp, me, cands)          # (opp on roll, cand)
        vals = []
        for c, o in zip(cands, outs):
            if not c.any():
                vals.append(win_value(opp).astype(np.float64))
            elif all_home(c) and all_home(opp):
                vals.append(flip(race_value(opp, c)))
            else:
                vals.append(flip(clip(o, opp, c)))
        k = min(range(len(cands)), key=lambda j: (-classic_equity(vals[j]),
                                                  tuple(cands[j])))
        nxt.append(flip(vals[k]))                         # the next side's view
        b[s] = cands[k]
        if not cands[k].any():
            return pos, nxt, nxt[-1], "won"
        s = 1 - s


def td_targets(nxt, z, lam):
    """R_t of one game (module docstring)."""
    T = len(nxt)
    out = [None] * T
    G = np.asarray(z, np.float64)
    for t in range(T - 1, -1, -1):
        out[t] = flip(G)
        if t >= 1:
            G = (1 - lam) * np.asarray(nxt[t - 1]) + lam * out[t]
    return out


def late_start():
    """A middle-game position a few turns from the homes (games from it often end in a
    race of both homes, sometimes by a bear-off): ten plies before the end of a seeded
    self-play game from the start."""
    pos, _, lengths, _ = _selfplay.play_games(
        Evaluator.default().net, np.asarray(nf.Position.initial().boards), rules=CLASSIC,
        tables=training_tables(), bitgens=[block_bit_generator(3, 0)])
    return pos[lengths[0] - 10]


def far_behind():
    """Side 0 (on roll) has three checkers left, on its points 18, 24, 24; side 1 has all
    15 on its points 1-5: side 0 bears off long before side 1 is home (a koks win)."""
    me = np.zeros(24, np.uint8)
    me[[17, 23]] = [1, 2]
    opp = np.zeros(24, np.uint8)
    opp[:5] = [5, 3, 3, 2, 2]
    return np.stack([me, opp])


@pytest.mark.parametrize("where, games", [("start", 2), ("late", 12), ("behind", 6)])
def test_self_play_games_and_targets_match_a_python_replay(where, games):
    start = {"start": lambda: np.asarray(nf.Position.initial().boards), "late": late_start,
             "behind": far_behind}[where]()
    nf.Position(start[0], start[1])                      # a valid position
    net = Evaluator.default().net
    entropy, lam = 77, 0.7
    pos, nxt, lengths, final = _selfplay.play_games(
        net, start, rules=CLASSIC, tables=training_tables(),
        bitgens=[block_bit_generator(entropy, g) for g in range(games)])
    targets = _selfplay.lambda_targets(nxt, lengths, final, lam)
    base = 0
    ends = {"race": 0, "won": 0}
    for g in range(games):
        p_py, n_py, z_py, how = replay(net, start, entropy, g)
        T = int(lengths[g])
        assert T == len(p_py), g
        np.testing.assert_array_equal(pos[base:base + T], np.array(p_py).reshape(T, 2, 24))
        np.testing.assert_allclose(nxt[base:base + T], np.array(n_py).reshape(T, 7),
                                   atol=1e-6)
        np.testing.assert_allclose(final[g], z_py, atol=1e-6)
        want = np.array(td_targets(n_py, z_py, lam)).reshape(T, 7)
        np.testing.assert_allclose(targets[base:base + T], want, atol=1e-5)
        if how == "won":
            # the loser is on roll at s_T: Z has P(win) 0, and the last mover's target
            # says it won: P(win) 1
            assert final[g][0] == 0.0 and targets[base + T - 1][0] == 1.0
        ends[how] += 1
        base += T
    assert base == len(pos)
    if where == "late":
        assert ends["race"] >= 6, ends
    if where == "behind":
        assert ends["won"] == games, ends


def test_race_ends_are_valued_from_the_side_on_roll():
    """A game from a race of both homes ends at once (T = 0) with the race's value for the
    side on roll.  One checker on its point 24 against eight: on roll, it bears off
    whatever it rolls (P(win) 1); with the eight-checker side on roll, that side cannot
    bear off eight checkers in one turn (four at most) and loses (P(win) 0)."""
    one = np.zeros(24, np.uint8)
    one[23] = 1
    eight = np.zeros(24, np.uint8)
    eight[18:] = [2, 2, 1, 1, 1, 1]
    net = Evaluator.default().net
    for start, want in ((np.stack([one, eight]), 1.0), (np.stack([eight, one]), 0.0)):
        pos, nxt, lengths, final = _selfplay.play_games(
            net, start, rules=CLASSIC, tables=training_tables(),
            bitgens=[block_bit_generator(1, 0)])
        assert lengths.tolist() == [0] and len(pos) == 0
        assert final[0][0] == want


def test_training_race_targets_are_the_tables_from_the_side_on_roll():
    """``train`` learns random races of both homes with the tables' values of the side on
    roll (``random_races``, valued by the search at 0-ply with the training tables)."""
    from nardy_fast.engine.evaluation import _search
    net = Evaluator.default().net
    races = random_races(5, 0, 24)
    got = _search.Searcher(net, CLASSIC, training_tables()).values(races, 0)
    for (me, opp), v in zip(races, got):
        np.testing.assert_allclose(v, race_value(me, opp), atol=1e-6)
