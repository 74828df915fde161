"""Training labels (``nardy_fast.training.labels``): the look-ahead targets corrected by the
rest of their games, ``blend_targets``, against its formula written out here.

The formula (``_selfplay.blend_targets``): a position's target is its look-ahead value
plus, for each later position ``k`` of its game, ``lam ** (k - t)`` times that position's
look-ahead value minus the 0-ply value the game's move reached it with, seen from the
side on roll at ``t``.  Seen from the other side, a difference of the outputs
(``OUTPUT_NAMES``: P(win), then three kinds of win, then three kinds of loss) changes the
sign of P(win) and swaps the kinds of win with the kinds of loss.  (Look-ahead targets
themselves and the self-play positions: tests/training/test_supervised.py.)
"""
import numpy as np
import pytest

from nardy_fast.training.labels import blend_targets


def flipped(d):
    """An outputs difference seen from the other side."""
    return np.concatenate([[-d[0]], d[4:7], d[1:4]])


def blended_by_hand(targets, next_values, lengths, lam):
    out, base = [], 0
    for n in lengths:
        for t in range(n):
            y = targets[base + t].astype(np.float64)
            for k in range(t + 1, n):
                d = (targets[base + k] - next_values[base + k - 1]).astype(np.float64)
                for _ in range(k - t):
                    d = flipped(d)
                y = y + lam ** (k - t) * d
            out.append(y)
        base += n
    return np.array(out)


@pytest.fixture
def games():
    """Three games of 1, 2 and 4 positions: random look-ahead and next values."""
    rng = np.random.default_rng(3)
    lengths = np.array([1, 2, 4], dtype=np.int64)
    targets = rng.uniform(0, 1, (7, 7)).astype(np.float32)
    next_values = rng.uniform(0, 1, (7, 7)).astype(np.float32)
    return targets, next_values, lengths


@pytest.mark.parametrize("lam", [0.0, 0.5, 1.0])
def test_blend_targets_is_the_formula(games, lam):
    targets, next_values, lengths = games
    got = blend_targets(targets, next_values, lengths, lam)
    assert got.dtype == np.float32 and got.shape == targets.shape
    np.testing.assert_allclose(got, blended_by_hand(targets, next_values, lengths, lam),
                               atol=1e-5)


def test_without_decay_weight_the_targets_are_kept(games):
    targets, next_values, lengths = games
    assert np.array_equal(blend_targets(targets, next_values, lengths, 0), targets)
    # each game's last position has nothing after it, whatever lam
    last = np.cumsum(lengths) - 1
    got = blend_targets(targets, next_values, lengths, 0.8)
    assert np.array_equal(got[last], targets[last])


def test_bad_arguments_are_named(games):
    targets, next_values, lengths = games
    with pytest.raises(ValueError, match="lam"):
        blend_targets(targets, next_values, lengths, 1.5)
    with pytest.raises(ValueError, match="lengths"):
        blend_targets(targets, next_values, np.array([1, 2, 3]), 0.5)


def test_selfplay_games_from_a_start():
    """Games from ``start`` begin there, each game's later positions follow by one legal
    move from the one before (seen from the other side), the dice of game ``first + g``
    are the same whatever the batch, and a finished or bad start is refused by name."""
    import nardy_fast as nf
    from nardy_fast.engine.evaluation.evaluator import Evaluator
    from nardy_fast.training.labels import selfplay_games
    net = Evaluator.default().net
    start = nf.Position.from_id("WAQEBACAQAAAAAgERAQEAACBQIRIRAQEA")
    pos, _, lengths = selfplay_games(net, 3, 7, first=5, start=start)
    begins = np.concatenate([[0], np.cumsum(lengths)[:-1]])
    for b in begins:
        assert (pos[b] == np.asarray(start.boards)).all()
    rolls = [(a, b) for a in range(1, 7) for b in range(a, 7)]
    for t in range(int(lengths[0]) - 1):              # each position one move after the last
        here = nf.as_position(pos[t])
        reachable = {np.asarray(here.play(m).boards).tobytes()
                     for d in rolls for m in here.legal_moves(d)}
        assert pos[t + 1].tobytes() in reachable
    one, _, n1 = selfplay_games(net, 1, 7, first=6, start=start)
    assert (one == pos[lengths[0]:lengths[0] + lengths[1]]).all() and n1[0] == lengths[1]
    initial, _, _ = selfplay_games(net, 1, 7)
    assert (initial[0] == np.asarray(nf.Position.initial().boards)).all()
    with pytest.raises(ValueError, match="start"):
        selfplay_games(net, 1, 7, start="not an id")


def test_lookahead_targets_take_any_number_of_threads():
    """More threads than cores are capped at the usable cores, as the builders' are (the
    values do not depend on them): a huge count was an OverflowError of the search's C
    int (``train-net --threads 1000000000000``); none is refused by name."""
    from nardy_fast.engine.evaluation._net import Net
    from nardy_fast.training.labels import lookahead_targets, selfplay_positions
    net = Net.random(8, 1)
    pos = selfplay_positions(net, 1, seed=2)[:3]
    one = lookahead_targets(net, pos, plies=2, keep=1, threads=1)
    np.testing.assert_array_equal(
        lookahead_targets(net, pos, plies=2, keep=1, threads=10 ** 12), one)
    with pytest.raises(ValueError, match="threads=0"):
        lookahead_targets(net, pos, plies=2, keep=1, threads=0)


@pytest.mark.parametrize("plies, keep", [(1, 0), (2, 1), (2, 0)])
def test_ctrl_c_stops_the_targets_after_a_block(monkeypatch, plies, keep):
    """The targets are valued in blocks of positions (the C search holds the interpreter
    until its call returns): Ctrl-C during the first block stops them there, not after a
    round's thousands of positions; and the blocks do not change a value."""
    import types

    from nardy_fast.engine.evaluation import evaluator
    from nardy_fast.engine.evaluation._net import Net
    from nardy_fast.training import labels
    net = Net.random(8, 1)
    pos = labels.selfplay_positions(net, 1, seed=2)[:12]
    want = labels.lookahead_targets(net, pos, plies=plies, keep=keep, threads=1)
    monkeypatch.setitem(evaluator.VALUE_BLOCK, plies, 3)
    monkeypatch.setattr(labels, "_EVERY_MOVE_BLOCK", 3)
    np.testing.assert_array_equal(
        labels.lookahead_targets(net, pos, plies=plies, keep=keep, threads=1), want)
    valued, searcher = [], labels._search.Searcher

    class CtrlC:
        def __init__(self, *args, **kw):
            self.search = searcher(*args, **kw)

        def values(self, boards, plies):
            valued.append(len(self.search.values(boards, plies)))
            raise KeyboardInterrupt

    monkeypatch.setattr(labels, "_search", types.SimpleNamespace(Searcher=CtrlC))
    with pytest.raises(KeyboardInterrupt):
        labels.lookahead_targets(net, pos, plies=plies, keep=keep, threads=1)
    assert valued == [3]
