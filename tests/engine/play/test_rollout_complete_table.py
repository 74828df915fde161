"""Rollouts truncated at the bear-off take the complete two-sided table once it is built
(``nardy_fast.tables.bearoff_complete``; its own tests are in tests/tables)."""
import numpy as np

import nardy_fast as nf
from nardy_fast.engine.play.rollout import rollout
from nardy_fast.tables import bearoff as bo


def test_rollout_truncation_uses_the_built_table(built4):
    """A rollout truncated at a race of both homes takes the complete table's value (a
    race from the start: every game stops at once) and says so."""
    me, you = np.zeros(24, int), np.zeros(24, int)
    me[[20, 22, 23]] = 1
    you[[18, 19, 21, 23]] = 1
    r = rollout(nf.Position(me, you), 36, policy="greedy", seed=1, truncate="bearoff",
                workers=1, progress=False)
    assert r.extra["two_sided_complete"] == 4 and r.extra["games_truncated"] == 36
    want = built4.p_win(bo.to_board6(me), bo.to_board6(you))      # the mean of 36 of them
    assert abs(r.p_win - want) < 1e-12
    exact = bo.TwoSided.build(4, progress=False).p_win(bo.to_board6(me), bo.to_board6(you))
    assert abs(r.p_win - exact) > 1e-9                 # not the float64 table's



def test_a_cube_games_truncation_uses_the_classic_table_where_no_mars_is_possible(built4):
    """Under cube rules (every win 1) the table built for classic points values the races
    where both sides have borne off a checker (no mars is possible: the same play), in
    this process and in worker processes; it had been left for the two-sided table."""
    me, you = np.zeros(24, int), np.zeros(24, int)
    me[[20, 22, 23]] = 1
    you[[18, 19, 21, 23]] = 1
    want = built4.p_win(bo.to_board6(me), bo.to_board6(you))
    for workers in (1, 2):
        r = rollout(nf.Position(me, you), 36, policy="greedy", seed=1, truncate="bearoff",
                    rules=nf.Rules(cube="geometric"), workers=workers, chunk_size=18,
                    progress=False)
        assert r.extra["two_sided_complete"] == 4 and r.extra["games_truncated"] == 36
        assert abs(r.p_win - want) < 1e-12
