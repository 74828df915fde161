"""``Evaluator.hint`` names its quantities as ``move_report`` and ``nardy-fast moves`` do:
``equity_loss`` (>= 0) and ``id_after``; ``diff`` and ``position``, the old names, stay."""
import numpy as np

from nardy_fast.core.position import Position
from nardy_fast.engine.evaluation.evaluator import Evaluator


def test_hint_has_equity_loss_and_id_after():
    pos = Position.from_id("WlgAAAAEAEQACAQAAAAAAAAAQABAAAhIg")
    h = Evaluator.default().hint(pos, (6, 3))
    assert list(h.columns[:5]) == ["rank", "move", "equity", "equity_loss", "diff"]
    assert (h["equity_loss"] >= 0).all() and h["equity_loss"].iloc[0] == 0.0
    np.testing.assert_array_equal(h["equity_loss"], h["equity"].iloc[0] - h["equity"])
    np.testing.assert_array_equal(h["diff"], -h["equity_loss"])           # the old name
    assert list(h["id_after"]) == list(h["position"])                     # the old name
    assert set(h["id_after"]) == {pos.play(m).id for m in pos.legal_moves((6, 3))}


def test_a_hint_on_blacks_last_turn_under_the_draw_rule():
    """Black's last turn under ``draw_rule`` with White off: a move that bears off every
    checker is a draw, a result with no position after it (``id_after`` ""), and the hint
    ranks it instead of failing on the impossible position."""
    import numpy as np
    import nardy_fast as nf
    me = np.zeros(24, int); me[22] = 1; me[23] = 1
    rules = nf.Rules(draw_rule=True)
    pos = nf.Position(me, np.zeros(24, int), "black")
    h = nf.Evaluator.default(rules).hint(pos, (6, 5))
    assert len(h) == len(pos.legal_moves((6, 5), rules))
    assert (h["id_after"] == "").all() and (h["position"] == "").all()


def test_a_hint_at_a_match_score_gives_the_loss_in_match_winning_chance():
    """The command line showed ``mwc_loss`` (>= 0, as ``equity_loss``) and the guide named
    it; the Python hint had only ``mwc_diff`` (<= 0).  Both now, one the other's negative."""
    import nardy_fast as nf
    later = nf.Position.from_id("W7gAAAAAAAAAAAQAQAAAAAAAAAAAAAAAA")
    h = nf.Evaluator.default().hint(later, (5, 2), match=nf.MatchState(5, (3, 1), "white"))
    assert (h["mwc_loss"] >= 0).all() and h["mwc_loss"].iloc[0] == 0.0
    assert (h["mwc_loss"] == -h["mwc_diff"]).all()
    assert (h["mwc_loss"] == h["mwc"].iloc[0] - h["mwc"]).all()


def test_a_hint_names_the_table_or_the_result_that_valued_each_move():
    """In a race of both homes the searcher values each move's result from the bear-off
    tables, and a move bearing off the last checker by the game's result: the hint called
    every row ``"net 0-ply"``.  Each row now names what valued it, as ``evaluate`` of the
    position after the move does."""
    import nardy_fast as nf
    ev = Evaluator.default()
    pos = nf.Position([0] * 18 + [3, 3, 3, 2, 2, 2], [0] * 18 + [2, 2, 3, 3, 3, 2])
    h = ev.hint(pos, (6, 2))
    for row in h.itertuples():
        after = ev.evaluate(row.id_after)
        assert row.method == after.method != "net 0-ply"
        np.testing.assert_allclose(row.equity, -after.equity, atol=1e-6)   # float32
    deep = ev.hint(pos, (6, 2), plies=1)
    assert {m for m, p in zip(deep["method"], deep["plies"]) if p == 1} \
        == {f"{ev.evaluate(pos.play(pos.legal_moves((6, 2))[0])).method} 1-ply"}
    last = nf.Position([0] * 23 + [1], [0] * 18 + [2, 2, 3, 3, 3, 2])
    assert list(ev.hint(last, (6, 2), plies=2)["method"]) == ["final"]


def test_a_hint_gives_p_lose_as_evaluate_and_move_report_do():
    """Every other frame or answer of outcome probabilities (``evaluate_many``,
    ``move_report``, ``rollout``, ``bearoff query``) has ``p_lose``; the hint had only
    ``p_win``, so under ``draw_rule`` a move's chance of losing was not in it.  It is
    now: the opponent's P(win) after the move, ``1 - p_win - p_draw``."""
    import nardy_fast as nf
    middle = Position.from_id("BdwABAAAREQAAEQAAABEBIREAABAAAAAA")
    homes = Position.from_id("BAAAAAAAAAAAAAAAAAAAAAAAAIyMRYTMS")     # draws are likely
    for rules, pos, dice in ((None, middle, (6, 5)), (nf.Rules(draw_rule=True), homes, (4, 2))):
        ev = Evaluator.default(rules)
        h = ev.hint(pos, dice)
        assert list(h.columns[5:7]) == ["p_win", "p_lose"]
        draws = h["p_draw"] if rules is not None else 0.0
        np.testing.assert_allclose(h["p_lose"], 1.0 - h["p_win"] - draws, atol=1e-12)
        assert (h["p_lose"] >= 0).all()
        for row in h.itertuples():
            np.testing.assert_allclose(row.p_lose, ev.evaluate(row.id_after).p_win,
                                       atol=1e-6)
    last = Position([0] * 21 + [1, 0, 1], [0] * 24, "black")
    h = Evaluator.default(nf.Rules(draw_rule=True)).hint(last, (4, 2))
    assert sorted(zip(h["p_lose"], h["p_draw"])) == [(0.0, 1.0), (1.0, 0.0)]
    m = Evaluator.default().hint(Position.from_id("BdwABAAAREQAAEQAAABEBIREAABAAAAAA"),
                                 (6, 5), match=nf.MatchState(5, (2, 3), "black"))
    np.testing.assert_allclose(m["p_lose"], 1.0 - m["p_win"], atol=1e-12)
