"""Every Outcome the evaluator, the race tables and the valuation give is a possible
distribution (``core.result.possibility_gap``): the net's float32 outputs once gave, at
1-ply under the draw rule, P(win) = 1.00000024 and P(lose) = -2.4e-7."""
import pytest
from hypothesis import given, settings, strategies as st

import nardy_fast as nf
from nardy_fast.core.result import PROBABILITIES, possibility_gap
from nardy_fast.core.rules import OUTCOMES
from nardy_fast.engine.decisions.valuation import value_positions

from helpers import game_positions

RULES = [nf.Rules(), nf.Rules(scoring="extended"), nf.Rules(draw_rule=True)]


def gap(o, rules):
    return possibility_gap([getattr(o, n) for n in PROBABILITIES] + [o.equity],
                           draws=rules.draw_rule,
                           points=tuple(rules.points(k) for k in OUTCOMES))


@settings(max_examples=15, deadline=None)
@given(data=st.data(), r=st.sampled_from(range(len(RULES))))
def test_the_evaluator_and_the_tables_give_possible_distributions(data, r):
    rules = RULES[r]
    positions = [data.draw(game_positions(rules)) for _ in range(8)]
    for o in nf.Evaluator.default(rules).outcomes(positions):
        assert gap(o, rules) <= 1e-9, o
    for o in value_positions(positions, "auto", rules=rules):
        assert gap(o, rules) <= 1e-9, o


# found by a sweep of random games: at 1-ply under the draw rule the float32 sum of the
# net's values gave P(win) = 1.00000024, P(lose) = -2.4e-7
PAST_ONE = "BAAAAAAAAAAABAAAAAAAAAAAAAQACAAVW"


def test_one_ply_under_the_draw_rule_stays_possible():
    rules = nf.Rules(draw_rule=True)
    (o,) = nf.Evaluator.default(rules).outcomes([PAST_ONE], plies=1)
    assert gap(o, rules) <= 1e-9, o
    assert o.p_lose >= 0.0 and o.p_win <= 1.0
