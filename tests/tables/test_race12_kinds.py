"""Every kind of outcome of the no-contact race database, under every scoring and draw rule,
with either side on roll.

Two independent checks of ``race12_probabilities`` (the C convolution ``race12_outcome``):

- where it overlaps the 6-point bear-off database (races of both homes), every reported
  quantity against ``race.race_probabilities`` with the one-sided tables (``_racetables``,
  separate code);
- on races with checkers outside the homes, every quantity against a plain enumeration of
  the sides' own turn counts: who finishes first is read from the ply order of the rule book
  (section 7, the draw rule's last turn for Black included), and the loser's position is
  scored after the turns it has had.  The one-sided distributions come from the database
  (the solver is checked against a brute-force recursion in ``test_race12.py``); what is
  checked here is how the two sides' turns are combined into each kind of outcome (the
  shifts), which no other test reaches;
- on tiny races, P(win), P(draw), P(lose) under the draw rule against the game tree of
  ``naive_race.draw_rule_race`` (the rule book played turn by turn).
"""
import dataclasses
import itertools

import numpy as np
import pytest

import nardy_fast as nf
from nardy_fast.tables import race12
from nardy_fast.tables.race import race_probabilities

import naive_race
from helpers import outer_races, random_side as _side

SCORINGS = [nf.Rules(), nf.Rules(scoring="extended"),
            nf.Rules(scoring="extended", home_mars_points=3.0, mars_points=2.5)]
QUANTISED = 4e-4          # CDF windows are stored to 1/65535; a sum of ~30 of them


def home_races(seed, k):
    """Races of both homes: one side of 15 checkers in half of them (so mars counts)."""
    rng = np.random.default_rng(seed)
    out = []
    for i in range(k):
        a = _side(rng, 18, 15 if i % 2 else None)
        b = _side(rng, 18, 15 if i % 4 < 2 else None)
        out.append((a, b))
    return out


QUANTITIES = ("p_win", "p_lose", "p_draw", "p_mars_win", "p_mars_loss", "p_home_mars_win",
              "p_home_mars_loss", "p_koks_win", "p_koks_loss", "equity")


@pytest.mark.parametrize("draw_rule", [False, True])
@pytest.mark.parametrize("side", ["white", "black"])
def test_every_kind_against_the_six_point_tables(db7, one, draw_rule, side):
    for scoring in SCORINGS:
        rules = dataclasses.replace(scoring, draw_rule=draw_rule)
        for a, b in home_races(11, 40):
            pos = nf.Position.from_boards(a, b, side)
            got = race12.race12_probabilities(pos, rules, tables=db7)
            want = race_probabilities(pos, rules, tables=one, method="one_sided")
            for q in QUANTITIES:
                tol = QUANTISED * (4 if q == "equity" else 1)
                assert getattr(got, q) == pytest.approx(getattr(want, q), abs=tol), \
                    (q, side, draw_rule, rules.scoring, a[18:], b[18:])
            if draw_rule:
                assert got.p_win + got.p_draw + got.p_lose == pytest.approx(1.0, abs=1e-9)


# --- the rule book's ply order, enumerated ------------------------------------------------
def finish(tx, ty, x_white, draw_rule):
    """Who wins when the side on roll (x) needs ``tx`` own turns and the other ``ty``, and
    how many turns the loser has played when the game is scored (rule book section 7).

    x plays plies 1, 3, 5, ... (its turn t is ply 2t - 1), the other 2, 4, ...  The first to
    bear off its last checker wins, except under the draw rule when White finishes and
    Black has had one turn fewer: Black plays one last turn, and finishing in it is a draw.
    """
    if 2 * tx - 1 < 2 * ty:                        # x finishes first, at its turn tx
        if draw_rule and x_white:                  # y (Black) has had tx - 1 turns
            return ("draw", None) if ty == tx else ("x", tx)
        return "x", tx - 1
    if draw_rule and not x_white:                  # y is White and finishes at its turn ty
        return ("draw", None) if tx == ty + 1 else ("y", ty + 1)
    return "y", ty


def enumerate_kinds(px, py, fx, fy, hx, hy, x_white, draw_rule):
    """P of each kind from the one-sided pmfs: T (all off), F (first off), H (all home)."""
    def cdf(p, k):                                 # P(T <= k)
        return float(np.sum(p[:max(0, k + 1)]))
    win = lose = draw = 0.0
    mars_w = mars_l = home_w = home_l = 0.0
    for tx, ty in itertools.product(range(len(px)), range(len(py))):
        p = px[tx] * py[ty]
        if p == 0.0:
            continue
        who, k = finish(tx, ty, x_white, draw_rule)
        if who == "draw":
            draw += p
        elif who == "x":
            win += p
        else:
            lose += p
    # a mars: the loser has no checker off after its k turns (F > k); a home mars: and all
    # of its checkers are home by then (H <= k).  The turns to the first checker off come
    # from their own distribution (the play that hurries it), so each is taken over the
    # winner's finishing turn alone, then capped by the win (as the database does).
    for tx in range(len(px)):
        if px[tx] == 0.0:
            continue
        # y loses when x finishes first: k is y's turns then (the same for every ty > tx)
        who, k = finish(tx, tx + 5, x_white, draw_rule)
        assert who == "x"
        mars_w += px[tx] * (1.0 - cdf(fy, k))
        home_w += px[tx] * (cdf(hy, k) - cdf(fy, k))
    for ty in range(len(py)):
        if py[ty] == 0.0:
            continue
        who, k = finish(ty + 5, ty, x_white, draw_rule)
        assert who == "y"
        mars_l += py[ty] * (1.0 - cdf(fx, k))
        home_l += py[ty] * (cdf(hx, k) - cdf(fx, k))
    mars_w, mars_l = min(mars_w, win), min(mars_l, lose)
    return dict(p_win=win, p_lose=lose, p_draw=draw, p_mars_win=mars_w, p_mars_loss=mars_l,
                p_home_mars_win=max(0.0, min(home_w, mars_w)),
                p_home_mars_loss=max(0.0, min(home_l, mars_l)))


@pytest.mark.parametrize("draw_rule", [False, True])
@pytest.mark.parametrize("side", ["white", "black"])
def test_every_kind_against_the_ply_order(db7, draw_rule, side):
    def pmfs(board):
        t = db7.distribution(board)
        # private on purpose: the stored home distribution the kinds are computed from
        f, h = db7.first_off_distribution(board), db7._pmf("home", board)
        n = max(len(t), len(f), len(h)) + 2
        return [np.pad(v, (0, n - len(v))) for v in (t, f, h)]
    seen = dict.fromkeys(("p_draw", "p_mars_win", "p_home_mars_win", "p_home_mars_loss"), 0.0)
    for scoring in SCORINGS:
        rules = dataclasses.replace(scoring, draw_rule=draw_rule)
        for a, b in outer_races(17, 25):
            pos = nf.Position.from_boards(a, b, side)
            got = race12.race12_probabilities(pos, rules, tables=db7)
            (px, fx, hx), (py, fy, hy) = pmfs(a), pmfs(b)
            want = enumerate_kinds(px, py, fx, fy, hx, hy, side == "white", draw_rule)
            for q, v in want.items():
                assert getattr(got, q) == pytest.approx(v, abs=1e-9), (q, a[16:], b[16:])
                seen[q] = max(seen.get(q, 0.0), v)
            assert got.p_koks_win == got.p_koks_loss == 0.0   # no checker in a first quarter
            # the equity from the kinds at the rules' points (rule book section 7)
            oin, mars, home = (rules.points(k) for k in ("oin", "mars", "home_mars"))
            eq = (oin * (want["p_win"] - want["p_mars_win"])
                  + mars * (want["p_mars_win"] - want["p_home_mars_win"])
                  + home * want["p_home_mars_win"]
                  - oin * (want["p_lose"] - want["p_mars_loss"])
                  - mars * (want["p_mars_loss"] - want["p_home_mars_loss"])
                  - home * want["p_home_mars_loss"])
            assert got.equity == pytest.approx(eq, abs=1e-9)
    # the sample reaches every kind (else the comparison proves little)
    for q in ("p_mars_win", "p_home_mars_win", "p_home_mars_loss") + (("p_draw",) if draw_rule
                                                                      else ()):
        assert seen[q] > 1e-3, q


TINY = [((0, 0, 0, 0, 1, 1), (0, 0, 0, 0, 0, 2)), ((1, 0, 0, 0, 0, 1), (0, 0, 0, 1, 1, 0)),
        ((0, 0, 0, 0, 0, 3), (0, 0, 0, 1, 0, 1)), ((0, 1, 0, 1, 0, 0), (0, 0, 0, 0, 0, 2))]


@pytest.mark.parametrize("side", ["white", "black"])
def test_draw_rule_against_the_game_tree(db7, side):
    """The draw rule played out turn by turn (naive_race) on tiny races of both homes."""
    rules = nf.Rules(draw_rule=True)
    for a6, b6 in TINY:
        if naive_race.turn_distribution(a6) is None or naive_race.turn_distribution(b6) is None:
            continue
        win, draw, lose = naive_race.draw_rule_race(a6, b6, side == "white")
        pos = nf.Position.from_boards(np.array(naive_race.to24(a6), np.uint8),
                                      np.array(naive_race.to24(b6), np.uint8), side)
        got = race12.race12_probabilities(pos, rules, tables=db7)
        assert got.p_draw == pytest.approx(draw, abs=QUANTISED), (a6, b6, side)
        assert got.p_win == pytest.approx(win, abs=QUANTISED), (a6, b6, side)
        assert got.p_lose == pytest.approx(lose, abs=QUANTISED), (a6, b6, side)
