"""The no-contact race database in the engine: the evaluator values such races by it (and
the C search's leaves too), a rollout truncated by it ends every game at once with the
expected length, and refuses without it (the database itself: tests/tables/test_race12.py,
tests/tables/test_race12_kinds.py)."""
import itertools

import numpy as np
import pytest

import nardy_fast as nf
from nardy_fast.tables import race12

from helpers import outer_position, outer_races


def test_evaluator_values_no_contact_races(db7, monkeypatch):
    monkeypatch.setattr(race12, "cached_race12", lambda build=False, progress=True: db7)
    ev = nf.Evaluator(nf.Evaluator.default().net)
    pos = outer_position()
    want = race12.race12_probabilities(pos, tables=db7)
    got = ev.evaluate(pos)
    assert got.method == "one_sided12"
    assert got.p_win == pytest.approx(want.p_win, abs=1e-12)
    assert got.p_mars_loss == pytest.approx(want.p_mars_loss, abs=1e-12)
    # the C search's leaves use it too
    vals = ev.searcher().values(np.stack([pos.boards]), 0)
    assert vals[0, 0] == pytest.approx(want.p_win, abs=1e-6)
    assert ev.evaluate(pos, exact=False).method == "net 0-ply"
    home_rules = nf.Evaluator(ev.net, rules=nf.Rules(block_rule="home"))
    assert home_rules.evaluate(pos).method == "net 0-ply"
    with pytest.raises(ValueError, match="block_rule"):
        race12.race12_probabilities(pos, nf.Rules(block_rule="home"), tables=db7)


def test_rollout_truncates_no_contact_races(db7, monkeypatch):
    monkeypatch.setattr(race12, "cached_race12", lambda build=False, progress=True: db7)
    pos = outer_position()
    want = race12.race12_probabilities(pos, tables=db7)
    r = nf.rollout(pos, 100, seed=3, truncate="race12", workers=1, progress=False)
    assert r.extra["games_truncated"] == 100
    assert r.p_win == pytest.approx(want.p_win, abs=1e-12)
    assert r.p_mars_loss == pytest.approx(want.p_mars_loss, abs=1e-12)
    assert r.equity == pytest.approx(want.equity, abs=1e-12)
    # expected plies: the side on roll finishes on its turn t at ply 2t - 1 if the other
    # needs >= t turns, the other on its turn t at ply 2t if the side on roll needs > t
    px = db7.distribution(pos.boards[0])
    py = db7.distribution(pos.boards[1])
    T = max(len(px), len(py)) + 1
    px, py = np.pad(px, (0, T - len(px))), np.pad(py, (0, T - len(py)))
    plies = sum(px[t] * py[t:].sum() * (2 * t - 1) + py[t] * px[t + 1:].sum() * 2 * t
                for t in range(1, T))
    assert r.mean_length == pytest.approx(plies, abs=1e-9)
    # the default truncation does not use the race database: games are played out
    played = nf.rollout(pos, 100, seed=3, workers=1, progress=False)
    assert played.extra["games_truncated"] == 100 and played.p_win != r.p_win
    with pytest.raises(ValueError, match="cube"):
        nf.rollout(pos, 10, seed=1, truncate="race12", workers=1, progress=False,
                   rules=nf.Rules(cube="geometric"))


def test_rollout_race12_needs_the_database(monkeypatch, tmp_path):
    monkeypatch.setenv("NARDY_FAST_DATA", str(tmp_path))
    with pytest.raises(ValueError, match="not been built"):
        nf.rollout(outer_position(), 10, seed=1, truncate="race12", workers=1,
                   progress=False)


@pytest.mark.parametrize("draw_rule", [False, True])
@pytest.mark.parametrize("side", ["white", "black"])
def test_truncated_rollout_plies_follow_the_ply_order(db7, monkeypatch, draw_rule, side):
    """A rollout truncated by the database (every game at once) reports the expected
    length of the race: the ply on which it ends by the rule book's ply order (Black's
    last turn under the draw rule is one more ply), over the sides' turn counts."""
    monkeypatch.setattr(race12, "cached_race12", lambda build=False, progress=True: db7)
    rules = nf.Rules(draw_rule=draw_rule)
    for a, b in outer_races(23, 4):
        pos = nf.Position.from_boards(a, b, side)
        r = nf.rollout(pos, 36, seed=1, truncate="race12", rules=rules, workers=1,
                       progress=False)
        assert r.extra["games_truncated"] == 36
        px, py = db7.distribution(a), db7.distribution(b)
        plies = 0.0
        for tx, ty in itertools.product(range(len(px)), range(len(py))):
            x_first = 2 * tx - 1 < 2 * ty
            if x_first:
                end = 2 * tx if draw_rule and side == "white" else 2 * tx - 1
            else:
                end = 2 * ty + 1 if draw_rule and side == "black" else 2 * ty
            plies += px[tx] * py[ty] * end
        assert r.mean_length == pytest.approx(plies, abs=1e-9), (a[16:], b[16:])
        want = race12.race12_probabilities(pos, rules, tables=db7)
        assert r.p_draw == pytest.approx(want.p_draw, abs=1e-12)
