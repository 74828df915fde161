"""Variance reduction quantity by quantity: each game's reduced values against a plain
Python reduction of that game's result by the luck of its rolls.

Positions whose games end within three rolls: the side on roll (x) has 3 checkers on its
last point, so its first roll (the stratified one, whose luck is not counted) bears off
all three (a double) or two; the other side (y) then makes the one counted roll that
matters; x, with a single checker on its last point, bears it off with any roll (a roll
whose luck is counted but is 0: every roll ends the game the same way).  So every game is
one of 21 x 21 (first roll, second roll) cases, and each case's reduced values follow from
the definition (``nardy_fast.engine.play.variance``): the luck of y's roll r in each of the
seven outputs and the equity is the value after y's best move for r minus the mean of
those values over the 21 rolls (read here from x's side, the side the rollout reports);
every reported quantity subtracts the luck of its own output (P(lose) adds the P(win)
luck).  The result of the game is scored by the rule book (section 7).

Each game's reduced values are read off rollouts of 1, 2, ... n <= 36 games with one seed
(the games of a rollout depend on the seed and their index only, and up to 36 games, one
a stratum, are estimated by their plain mean: ``n mean_n - (n-1) mean_{n-1}`` is game n's
value) and must equal one case's values in every quantity at
once.  Three positions: one where the counted roll decides who wins (P(win) and equity
lucks), two where it decides which kind of mars (mars, koks, home mars lucks), under
extended scoring so that each kind has its own points.
"""
import numpy as np
import pytest

import nardy_fast as nf
from nardy_fast.core.cubestate import CubeState
from nardy_fast.engine.decisions.cube import cube_decision
from nardy_fast.engine.play.luck import ROLLS, WEIGHTS
from nardy_fast.engine.play.rollout import rollout

from helpers import board

Q = ("p_win", "p_mars_win", "p_koks_win", "p_home_mars_win", "p_lose", "p_mars_loss",
     "p_koks_loss", "p_home_mars_loss", "equity")
OUTPUTS = ("p_win", "p_mars_win", "p_koks_win", "p_home_mars_win", "p_mars_loss",
           "p_koks_loss", "p_home_mars_loss", "equity")
RULES = nf.Rules(scoring="extended")


# x: 3 checkers on its point 24.  y: who wins (two checkers, points 19 and 24) or which
# mars (14 home and one on its point 1, the head: out of the first quarter with 6 pips,
# home only with a big double)
X = board({24: 3})
# A game's reduced values against the expected case: sums of float32 net outputs, so
# equal to about 1e-6; a luck at another scale or of another quantity misses by 0.05+.
TOL = 1e-5
Y_WIN = board({19: 1, 24: 1})
Y_MARS = board({1: 1, 19: 3, 20: 3, 21: 2, 22: 2, 23: 2, 24: 2})
# y: 14 on point 24 (no move inside the home) and one on point 13: home with 6 pips or
# more (a home mars, or an oin if a die is left to bear one off), else a mars
Y_HOME = board({13: 1, 24: 14})


def kind_of(loser):
    """The rule book's kind of a loss for the loser's 24-point board (own numbering)."""
    if loser.sum() < 15:
        return "oin"
    if loser[:6].any():
        return "koks"
    if loser[:18].sum() == 0:
        return "home_mars"
    return "mars"


def result(x_wins, kind):
    """The game's result from x's view: the eight reported columns and the equity."""
    r = dict.fromkeys(Q, 0.0)
    side = "win" if x_wins else "loss"
    r["p_win" if x_wins else "p_lose"] = 1.0
    if kind != "oin":
        r[f"p_mars_{side}"] = 1.0
        if kind != "mars":
            r[f"p_{kind}_{side}"] = 1.0
    r["equity"] = RULES.points(kind) * (1 if x_wins else -1)
    return r


def cases(y_board, ev):
    """Every (first roll, second roll) case's reduced values and the luck subtracted
    from each: two arrays (cases, len(Q))."""
    start = nf.Position.from_boards(X, y_board, "white")
    out, lucks = [], []
    for r1 in ROLLS:
        (m,) = {mv.board: mv for mv in start.legal_moves(r1, RULES)}.values()
        s1 = start.play(m)
        if s1.is_over():                       # a double: x is off, no counted roll
            out.append([result(True, kind_of(y_board))[q] for q in Q])
            lucks.append([0.0] * len(Q))
            continue
        assert s1.opponent.sum() == 1          # x keeps one checker: it ends next roll
        vals, res = [], []
        for r2 in ROLLS:
            after = [s1.play(mv) for mv in s1.legal_moves(r2, RULES)]
            outs = ev.outcomes(after)          # x's view: x on roll after y's move
            best = min(range(len(after)), key=lambda k: outs[k].equity)  # y's best
            o, pos = outs[best], after[best]
            vals.append([getattr(o, q) for q in OUTPUTS])
            if pos.is_over():                  # y bore off its last checker: x loses
                res.append(result(False, kind_of(pos.mover)))
            else:                              # x bears off its last checker: x wins
                res.append(result(True, kind_of(pos.opponent)))
        vals = np.array(vals)
        luck = vals - WEIGHTS @ vals           # x's view, output by output
        for k in range(len(ROLLS)):
            lk = dict(zip(OUTPUTS, luck[k]))
            red = {q: res[k][q] - lk[q] for q in OUTPUTS}
            red["p_lose"] = res[k]["p_lose"] + lk["p_win"]
            out.append([red[q] for q in Q])
            lucks.append([-lk["p_win"] if q == "p_lose" else lk[q] for q in Q])
    return np.array(out), np.array(lucks)


def games(y_board, n, vr="luck", seed=5):
    """Each game's reduced values, from rollouts of 1 .. n games."""
    pos = nf.Position.from_boards(X, y_board, "white")
    prev, rows = np.zeros(len(Q)), []
    for k in range(1, n + 1):
        o = rollout(pos, k, seed=seed, rules=RULES, truncate=None, variance_reduction=vr,
                    workers=1, progress=False)
        assert o.extra["estimator"] == vr
        tot = np.array([getattr(o, q) for q in Q]) * k
        rows.append(tot - prev)
        prev = tot
    return np.array(rows)


@pytest.fixture(scope="module")
def ev():
    return nf.Evaluator(nf.Evaluator.default().rollout_net, rules=RULES)


@pytest.mark.parametrize("y_board, lucky", [
    (Y_WIN, ("p_win", "p_lose", "equity")),
    (Y_MARS, ("p_koks_win", "equity")),
    (Y_HOME, ("p_mars_win", "p_home_mars_win", "equity"))])
def test_each_game_is_its_result_less_its_own_luck(ev, y_board, lucky):
    want, luck = cases(y_board, ev)
    got = games(y_board, 36)
    matched = []
    for g in got:
        err = np.abs(want - g).max(axis=1)
        k = int(np.argmin(err))
        assert err[k] < TOL, (dict(zip(Q, g)), dict(zip(Q, want[k])))
        matched.append(k)
    # the games reach cases where each of these quantities has a luck of its own, of a
    # size a luck taken from another quantity (or at another scale) would not match
    for q in lucky:
        j = Q.index(q)
        assert np.abs(luck[matched, j]).max() > 0.05, q


def test_plain_games_subtract_nothing(ev):
    """Without variance reduction every game is its result (a case with no luck)."""
    got = games(Y_MARS, 12, vr="none")
    for g in got:
        assert set(np.round(g, 12)) <= {0.0, 1.0, 2.0, 3.0, 4.0}, g


def flipped(o):
    """The eight outputs of Outcome ``o`` (side on roll's view) from the other side's."""
    return [o.p_lose, o.p_mars_loss, o.p_koks_loss, o.p_home_mars_loss, o.p_mars_win,
            o.p_koks_win, o.p_home_mars_win, -o.equity]


def loss_cases(x_board, y_board, ev):
    """As ``cases`` with the roles turned: the side on roll (x) has 15 checkers and loses;
    the other (y, 3 checkers on its last point) bears off all with a double on its first
    roll, else on its second; x's own second roll (counted, random) decides which kind of
    mars it loses.  Every (first, second, third roll) case's reduced values."""
    start = nf.Position.from_boards(x_board, y_board, "white")
    out = []

    def best(pos, roll):
        after = [pos.play(mv) for mv in pos.legal_moves(roll, RULES)]
        outs = ev.outcomes(after)                 # the other side's view
        k = min(range(len(after)), key=lambda k: outs[k].equity)
        return after[k], outs[k]

    def luck_of(vals):
        vals = np.array(vals)
        return vals - WEIGHTS @ vals

    for r1 in ROLLS:
        s1, _ = best(start, r1)                   # y on roll
        after2 = [best(s1, r2) for r2 in ROLLS]
        luck2 = luck_of([[getattr(o, q) for q in OUTPUTS] for _, o in after2])  # x's view
        for k2, (s2, _) in enumerate(after2):
            if s2.is_over():                      # y bore off all three: x loses now
                lk = [dict(zip(OUTPUTS, luck2[k2]))]
                res = result(False, kind_of(s2.mover))
                out.append(_reduced(res, lk))
                continue
            assert s2.opponent.sum() == 1         # y ends on its next roll, whatever it is
            after3 = [best(s2, r3) for r3 in ROLLS]
            luck3 = luck_of([flipped(o) for _, o in after3])
            for k3, (s3, _) in enumerate(after3):
                assert not s3.is_over()
                lk = [dict(zip(OUTPUTS, luck2[k2])), dict(zip(OUTPUTS, luck3[k3]))]
                out.append(_reduced(result(False, kind_of(s3.opponent)), lk))
    return np.array(out)


def _reduced(res, lucks):
    red = {q: res[q] - sum(lk[q] for lk in lucks) for q in OUTPUTS}
    red["p_lose"] = res["p_lose"] + sum(lk["p_win"] for lk in lucks)
    return [red[q] for q in Q]


def test_each_lost_game_is_its_result_less_its_own_luck(ev):
    x_board, y_board = board({13: 1, 24: 14}), X
    want = loss_cases(x_board, y_board, ev)
    pos = nf.Position.from_boards(x_board, y_board, "white")
    prev = np.zeros(len(Q))
    kinds = set()
    for k in range(1, 31):
        o = rollout(pos, k, seed=5, rules=RULES, truncate=None, variance_reduction="luck",
                    workers=1, progress=False)
        tot = np.array([getattr(o, q) for q in Q]) * k
        g, prev = tot - prev, tot
        err = np.abs(want - g).max(axis=1)
        j = int(np.argmin(err))
        assert err[j] < TOL, (dict(zip(Q, g)), dict(zip(Q, want[j])))
        kinds.add(tuple(np.round(want[j, 5:8], 3)))
    assert len(kinds) >= 3                        # the losses reached differ in kind


# The cubeful equity.  With the cube a game is won or lost at the stake (no mars), the
# equity is reported per unit of the starting stake, and each counted roll's equity luck
# is twice its P(win) luck times the stake at that roll over the starting stake (the
# module ``nardy_fast.engine.play.variance``).  The same 21 x 21 games, the cube decided before
# each roll by ``cube_decision`` (the model the games use): x's raise before its first
# roll, y's before its counted one.
CUBE_RULES = nf.Rules(scoring="extended", cube="geometric")
NEXT = {"take": 2, "beaver": 4}


def cube_cases(y_board, cube, ev):
    """Every (first roll, second roll) case's (plain cubeful equity, reduced cubeful
    equity, final stake over the starting one, the counted roll's cubeless equity luck),
    x's view, and the scale of the counted roll's luck (0: none counted) in each."""
    start = nf.Position.from_boards(X, y_board, "white")
    stake0 = cube.stake
    d = cube_decision(start, cube, rules=CUBE_RULES)
    if d["double_action"] == "double" and d["take_action"] == "pass":
        return np.array([[1.0, 1.0, 1.0, 0.0]]), np.array([0.0])
    stake, y_owns = cube.stake, cube.owner == "opponent"
    if d["double_action"] == "double":
        stake, y_owns = stake * NEXT[d["take_action"]], True
    out, scales = [], []
    for r1 in ROLLS:
        (m,) = {mv.board: mv for mv in start.legal_moves(r1, CUBE_RULES)}.values()
        s1 = start.play(m)
        if s1.is_over():                       # a double: x is off at the stake
            out.append([stake / stake0, stake / stake0, stake / stake0, 0.0])
            scales.append(0.0)
            continue
        k = stake
        dy = cube_decision(s1, CubeState(stake, "mover" if y_owns else "centre"),
                           rules=CUBE_RULES)
        if dy["double_action"] == "double":
            if dy["take_action"] == "pass":    # x passes: y wins the stake before it
                out.append([-k / stake0, -k / stake0, k / stake0, 0.0])
                scales.append(0.0)
                continue
            k = stake * NEXT[dy["take_action"]]
        vals, eqs, won = [], [], []
        for r2 in ROLLS:
            after = [s1.play(mv) for mv in s1.legal_moves(r2, CUBE_RULES)]
            outs = ev.outcomes(after)          # x's view: x on roll after y's move
            best = min(range(len(after)), key=lambda j: outs[j].equity)  # y's best
            vals.append(outs[best].p_win)
            eqs.append(outs[best].equity)
            won.append(not after[best].is_over())   # else y bore off its last checker
        vals = np.array(vals)
        luck = vals - WEIGHTS @ vals           # x's P(win) luck of y's roll
        eq_luck = np.array(eqs) - WEIGHTS @ np.array(eqs)   # its cubeless equity luck
        for j in range(len(ROLLS)):
            res = (k if won[j] else -k) / stake0
            out.append([res, res - 2.0 * (k / stake0) * luck[j], k / stake0, eq_luck[j]])
            scales.append(k / stake0)
    return np.array(out), np.array(scales)


@pytest.mark.parametrize("y_board, owner, scale, cubeless_differs", [
    # x doubles, y takes: y's roll at twice the starting stake
    (Y_WIN, "centre", 2.0, True),
    # y owns the cube and does not raise: the starting stake (the cubeless luck is the
    # same here: 2 x the P(win) luck, the only loss an oin)
    (Y_WIN, "opponent", 1.0, False),
    # y's roll decides the mars, not the game: no cubeful luck, and no cubeless luck
    # either, for with the cube a mars scores nothing more (rule book 7a)
    (Y_MARS, "opponent", 1.0, False)])
def test_each_cubeful_game_is_its_result_less_its_own_luck_at_its_stake(
        y_board, owner, scale, cubeless_differs):
    """The starting stake is 2, so a luck per unit stake, or at the stake itself, or at
    the starting stake after a raise, or the cubeless equity's luck, each miss."""
    ev = nf.Evaluator(nf.Evaluator.default().rollout_net, rules=CUBE_RULES)
    cube = CubeState(stake=2, owner=owner)
    want, scales = cube_cases(y_board, cube, ev)
    assert set(scales) == {0.0, scale}
    pos = nf.Position.from_boards(X, y_board, "white")
    prev, reached = np.zeros(3), []
    for n in range(1, 31):
        o = rollout(pos, n, seed=5, rules=CUBE_RULES, truncate=None, cube_state=cube,
                    variance_reduction="luck", workers=1, progress=False)
        tot = np.array([o.extra["equity_plain"], o.equity,
                        o.extra["mean_final_stake"] / cube.stake]) * n
        g, prev = tot - prev, tot
        err = np.abs(want[:, :3] - g).max(axis=1)
        j = int(np.argmin(err))
        assert err[j] < TOL, (g, want[j])
        # every counted roll with these values (a net sure of the game gives many
        # rolls the same three, told apart only by their cubeless luck)
        reached.extend(np.flatnonzero(err < TOL))
    # the games reach counted rolls whose luck at another scale, or the cubeless equity's
    # luck, differs from the right one by more than the tolerance
    luck = want[reached, 0] - want[reached, 1]
    cubeless = want[reached, 3]
    assert (np.abs(luck - cubeless).max() > 0.05) == cubeless_differs
    if y_board is Y_WIN:
        assert np.abs(luck).max() > 0.05
