"""The net's equity under the rule book's points (section 7), recomputed from its
probabilities.

Rule book, section 7: ``scoring = "classic"``: oin 1, mars 2 (koks and home mars count as
mars); ``scoring = "extended"``: oin 1, mars 2, koks 3, home mars 4.  The seven outputs are
P(win), P(mars won) (any kind of mars), P(koks won), P(home mars won), then the three mars
kinds lost (``_net.pyx``); P(loss) = 1 - P(win).  So a win is an oin with probability
``w - mw``, a plain mars with ``mw - kw - hw``, a koks with ``kw``, a home mars with
``hw``; likewise for losses.  The points below are those of the rule book, typed here.
"""
import numpy as np
import pytest

import nardy_fast as nf
from nardy_fast.engine.evaluation.evaluator import Evaluator
from nardy_fast.engine.evaluation._net import N_INPUTS, Net  # private on purpose: a net of chosen weights
from nardy_fast.core.rules import Rules

# the rule book's points, section 7: (oin, plain mars, koks, home mars)
BOOK = {"classic": (1.0, 2.0, 2.0, 2.0), "extended": (1.0, 2.0, 3.0, 4.0)}
NAMES = ("p_win", "p_mars_win", "p_koks_win", "p_home_mars_win", "p_mars_loss",
         "p_koks_loss", "p_home_mars_loss")


def book_equity(v, scoring):
    """Expected points of the side on roll from the seven probabilities."""
    oin, mars, koks, hm = BOOK[scoring]
    w, mw, kw, hw, ml, kl, hl = (float(a) for a in v)
    win = (w - mw) * oin + (mw - kw - hw) * mars + kw * koks + hw * hm
    loss = ((1 - w) - ml) * oin + (ml - kl - hl) * mars + kl * koks + hl * hm
    return win - loss


@pytest.mark.parametrize("v, classic, extended", [
    # sure outcomes, scored by hand from the rule book's points
    ([1, 0, 0, 0, 0, 0, 0], 1, 1),            # an oin won
    ([1, 1, 0, 0, 0, 0, 0], 2, 2),            # a plain mars won
    ([1, 1, 1, 0, 0, 0, 0], 2, 3),            # a koks won
    ([1, 1, 0, 1, 0, 0, 0], 2, 4),            # a home mars won
    ([0, 0, 0, 0, 0, 0, 0], -1, -1),          # an oin lost
    ([0, 0, 0, 0, 1, 1, 0], -2, -3),          # a koks lost
    ([0, 0, 0, 0, 1, 0, 1], -2, -4),          # a home mars lost
    # a mixture: 0.6 win (0.1 koks, 0.2 home mars of 0.4 mars), 0.4 loss (0.1 plain mars)
    # classic: 0.2 * 1 + 0.4 * 2 - 0.3 * 1 - 0.1 * 2 = 0.5
    # extended: 0.2 + 0.1 * 2 + 0.1 * 3 + 0.2 * 4 - 0.3 - 0.1 * 2 = 1.0
    ([0.6, 0.4, 0.1, 0.2, 0.1, 0.0, 0.0], 0.5, 1.0),
])
def test_equity_of_hand_scored_probabilities(v, classic, extended):
    ev = Evaluator.default()
    vals = np.array([v], dtype=np.float64)
    assert ev.with_rules(Rules()).equities(vals)[0] == pytest.approx(classic, abs=1e-6)
    assert ev.with_rules(Rules(scoring="extended")).equities(vals)[0] == \
        pytest.approx(extended, abs=1e-6)


@pytest.fixture(scope="module")
def positions():
    """Contact and race positions of a few seeded games of random moves, with a side
    still able to be marsed (koks and home mars probabilities not all zero)."""
    from nardy_fast.core.record import random_game
    out = []
    for seed in range(4):
        rec = random_game(seed=100 + seed, max_turns=400, policy="race")
        ps = [p for p in rec.positions() if not p.is_over()]
        out += ps[5::17] + ps[-12::4]
    # and hand-set ends where a side is likely to lose a koks or a home mars
    def b(spec):
        x = np.zeros(24, np.uint8)
        for point, n in spec.items():
            x[point - 1] = n
        return x
    behind = [b({20: 15}), b({3: 1, 20: 14}), b({5: 1, 13: 4, 21: 10})]
    ahead = [b({23: 2}), b({22: 1, 24: 2})]
    for x in behind:
        for y in ahead:
            out += [nf.Position.from_boards(x, y), nf.Position.from_boards(y, x)]
    return out


@pytest.mark.parametrize("scoring", ["classic", "extended"])
@pytest.mark.parametrize("plies", [0, 1])
def test_net_equity_is_the_rule_book_points_of_its_probabilities(positions, scoring, plies):
    ev = Evaluator.default().with_rules(Rules(scoring=scoring))
    sample = positions if plies == 0 else positions[::6]
    outs = ev.outcomes(sample, plies=plies)
    kinds = np.zeros(2)
    for o in outs:
        v = [getattr(o, n) for n in NAMES]
        assert o.equity == pytest.approx(book_equity(v, scoring), abs=2e-6), o.method
        kinds += [v[2] + v[5], v[3] + v[6]]
    assert (kinds > 0.05).all()          # koks and home mars both weigh in the sample
    frame = ev.evaluate_many([p.id for p in sample], plies=plies)
    for row in frame.itertuples():
        v = [getattr(row, n) for n in NAMES]
        assert row.equity == pytest.approx(book_equity(v, scoring), abs=2e-6)


def test_extended_and_classic_differ_by_the_koks_and_home_mars_points(positions):
    """Same probabilities, two point systems: extended - classic = (3 - 2) koks
    + (4 - 2) home mars, won minus lost."""
    base = Evaluator.default()
    for o_c, o_e in zip(base.with_rules(Rules()).outcomes(positions),
                        base.with_rules(Rules(scoring="extended")).outcomes(positions)):
        assert o_c.p_win == o_e.p_win
        want = (o_e.p_koks_win - o_e.p_koks_loss) + 2 * (o_e.p_home_mars_win
                                                         - o_e.p_home_mars_loss)
        assert o_e.equity - o_c.equity == pytest.approx(want, abs=2e-6)


def test_hint_equities_under_extended_scoring():
    """The equity column of a hint is the rule book's points of its probability columns."""
    ev = Evaluator.default().with_rules(Rules(scoring="extended"))
    pos = nf.Position.from_id("WlgAAAAEAEQACAQAAAAAAAAAQABAAAhIg")
    for plies in (0, 1):
        h = ev.hint(pos, (6, 3), plies=plies)
        for row in h.itertuples():
            v = [getattr(row, n) for n in NAMES]
            assert row.equity == pytest.approx(book_equity(v, "extended"), abs=2e-6)


@pytest.mark.parametrize("raw, clipped, classic, extended", [
    # wins: mars 0.7 > P(win) 0.6 -> 0.6; koks 0.5 + home mars 0.4 > 0.6 -> home mars 0.1;
    # losses: mars 0.5 > P(loss) 0.4 -> 0.4; koks 0.2 + home mars 0.1 <= 0.4: kept.
    # classic: won 0.5 x 2 + 0.1 x 2 = 1.2, lost 0.1 x 2 + 0.2 x 2 + 0.1 x 2 = 0.8: 0.4
    # extended: won 0.5 x 3 + 0.1 x 4 = 1.9, lost 0.1 x 2 + 0.2 x 3 + 0.1 x 4 = 1.2: 0.7
    ([0.6, 0.7, 0.5, 0.4, 0.5, 0.2, 0.1], [0.6, 0.6, 0.5, 0.1, 0.4, 0.2, 0.1], 0.4, 0.7),
    # koks above mars on both sides: koks -> mars, then home mars -> 0.
    # classic: won 0.2 oin + 0.3 x 2 = 0.8, lost 0.3 oin + 0.2 x 2 = 0.7: 0.1
    # extended: won 0.2 + 0.3 x 3 = 1.1, lost 0.3 + 0.2 x 3 = 0.9: 0.2
    ([0.5, 0.3, 0.4, 0.2, 0.2, 0.25, 0.1], [0.5, 0.3, 0.3, 0.0, 0.2, 0.2, 0.0], 0.1, 0.2),
])
def test_inconsistent_net_outputs_are_clipped_before_the_equity(raw, clipped, classic,
                                                               extended):
    """A net whose outputs are constants (zero weights, biases the logits of ``raw``):
    its 0-ply probabilities are made consistent (each mars at most its win, koks at most
    mars, koks + home mars at most mars), and the equity is that of the clipped ones."""
    h = 8
    logits = np.log(np.array(raw) / (1 - np.array(raw)))
    net = Net(np.zeros((N_INPUTS, h)), np.zeros(h), np.zeros((7, h)), logits)
    pos = nf.Position.initial()
    for scoring, want in (("classic", classic), ("extended", extended)):
        ev = Evaluator(net, rules=Rules(scoring=scoring), exact=False)
        vals, _ = ev.probabilities(np.array([pos.boards]))
        np.testing.assert_allclose(vals[0], clipped, atol=1e-6)
        assert ev.evaluate(pos).equity == pytest.approx(want, abs=1e-5)


def _board(points):
    b = np.zeros(24, dtype=np.uint8)
    for i, n in points.items():
        b[i] = n
    return b


def test_kinds_the_boards_rule_out_are_zero_at_every_depth():
    """A net of constant outputs (every kind likely): the kinds a board rules out (rule
    book, section 7) are 0, not the net's guess.  A side that has borne off a checker is
    never marsed (nor koksed, nor home-marsed); a side with no checker on its points 1-6
    is never koksed.  Checked for the position valued (``probabilities``, the search's
    leaf) and for the results of a move (``hint``, ranked at 0 and 1 ply)."""
    raw = np.array([0.5, 0.3, 0.1, 0.1, 0.3, 0.1, 0.1])
    h = 8
    net = Net(np.zeros((N_INPUTS, h)), np.zeros(h), np.zeros((7, h)),
              np.log(raw / (1 - raw)))
    ev = Evaluator(net, exact=False)
    # White has borne off one checker (the rest home, so none on its points 1-6); Black
    # has all 15 on, one of them on its point 4
    white = _board({20: 14})
    black = _board({3: 1, 15: 14})
    vals, _ = ev.probabilities(np.array([[white, black], [black, white]]))
    # White on roll: Black can still be marsed or koksed; White can be neither
    np.testing.assert_allclose(vals[0], [0.5, 0.3, 0.1, 0.1, 0, 0, 0], atol=1e-6)
    # Black on roll: White (the opponent) cannot lose a mars; Black's own koks stays
    np.testing.assert_allclose(vals[1], [0.5, 0, 0, 0, 0.3, 0.1, 0.1], atol=1e-6)
    pos = nf.Position.from_boards(black, white, "black")
    for plies in (0, 1):
        hint = ev.hint(pos, (2, 1), plies=plies)
        assert (hint[["p_mars_win", "p_koks_win", "p_home_mars_win"]] == 0).all().all()
        assert (hint["p_mars_loss"] > 0).all()
