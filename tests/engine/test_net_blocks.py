"""The block units of the net's inputs (``_net.pyx``, encoding 2): a hand-scored position,
the C encoding against the plain-loop one of ``naive_net.np_blocks`` on boards made to
hold long runs, the candidates' incremental update, and nets of encoding 1 read as the
same net."""
import numpy as np
import pytest

from nardy_fast.core import _dbfile
from nardy_fast.engine.evaluator import KIND, Evaluator
# private on purpose: the C net kernel and its encoding
from nardy_fast.engine._net import N_INPUTS, N_INPUTS_V1, Net, pad_inputs

from naive_net import np_blocks, np_encode

BLOCK0 = N_INPUTS_V1          # the block units follow the 198 inputs of encoding 1


def hand_position():
    """Side on roll: 10 on its head, 2 on idx 3, 3 in its home (idx 20).  The other side
    holds the mover's idx 5-8 (its own 17-20), 10 (its 22) and 12 (its head, 6)."""
    me = np.zeros(24, np.uint8)
    me[0], me[3], me[20] = 10, 2, 3
    opp = np.zeros(24, np.uint8)
    opp[[17, 18, 19, 20]] = 2
    opp[22], opp[0] = 1, 6
    return me, opp


def test_hand_scored_position():
    me, opp = hand_position()
    x = Net.random(8, 1).encode(np.stack([me, opp])[None])[0]
    # the mover: rear idx 0; runs after it 5-8 (4), 10, 12: L = 4 from idx 5, 12 checkers
    # before it; blocked pairs: from idx 0 dice 5 and 6, from idx 3 dice 2-5, of 2 x 6;
    # the rearmost checker's blocked dice: 5 and 6
    np.testing.assert_allclose(x[BLOCK0:BLOCK0 + 6], [4 / 6, 1, 0, 12 / 15, 6 / 12, 2 / 6],
                               rtol=0, atol=1e-7)
    # the other side: the mover holds its idx 12, 15 and 8: runs of 1, nothing blocked
    # from idx 0 (1-6) or idx 17 (18-23)
    np.testing.assert_allclose(x[BLOCK0 + 6:], [1 / 6, 0, 0, 0, 0, 0], rtol=0, atol=1e-7)


def test_no_checker_outside_the_home_gives_zeros():
    me, opp = hand_position()
    me[:] = 0
    me[18:] = [3, 2, 2, 2, 2, 2]                       # 13 on, all in the home
    x = Net.random(8, 1).encode(np.stack([me, opp])[None])[0]
    assert not x[BLOCK0:BLOCK0 + 6].any()
    me[:] = 0                                          # all off
    assert not Net.random(8, 1).encode(np.stack([me, opp])[None])[0][BLOCK0:BLOCK0 + 6].any()


def blocky_boards(n, seed):
    """Random boards (side on roll first) where the other side holds long runs: each side
    puts its 15 checkers on points the other does not hold, a run of 2-8 points first."""
    g = np.random.default_rng(seed)
    out = np.zeros((n, 2, 24), np.uint8)
    for k in range(n):
        held = np.zeros(24, bool)                       # mover's numbering
        opp_pts = list((g.integers(0, 24) + np.arange(g.integers(2, 9))) % 24)
        opp_pts += list(g.choice(24, g.integers(0, 5), replace=False))
        opp_pts = sorted(set(opp_pts))
        held[opp_pts] = True
        free = np.flatnonzero(~held)
        me_pts = g.choice(free, min(len(free), g.integers(1, 8)), replace=False)
        for side, pts in ((0, me_pts), (1, opp_pts)):
            on = g.integers(0, 16) if g.random() < 0.2 else 15
            cnt = np.bincount(g.choice(len(pts), on), minlength=len(pts))
            for p, c in zip(pts, cnt):
                idx = p if side == 0 else (p + 12) % 24
                out[k, side, idx] = c
    return out


def test_encoding_matches_the_plain_loops_on_blocky_boards():
    boards = blocky_boards(400, 3)
    got = Net.random(8, 2).encode(boards)
    lengths = set()
    for (me, opp), x in zip(boards, got):
        np.testing.assert_allclose(x, np_encode(me, opp), rtol=0, atol=1e-6)
        lengths.add(round(6 * np_blocks(me, opp)[0]))
    assert lengths >= {1, 2, 3, 4, 5, 6}              # the boards reach every run length


def test_candidates_update_the_block_units():
    """``outputs_many`` (the base's hidden row plus each candidate's changed inputs) equals
    a full evaluation, on candidates whose runs and trapped checkers differ."""
    net = Net.random(40, 4)
    boards = blocky_boards(60, 5)
    for k in range(0, 60, 6):
        me, base = boards[k]
        cands = np.ascontiguousarray(boards[k:k + 6, 1])
        got = net.outputs_many(me, base, cands)
        full = net.outputs(np.stack([np.stack([me, c]) for c in cands]))
        np.testing.assert_allclose(got, full, rtol=0, atol=2e-6)


def test_block_units_move_the_output():
    """The block rows are used: a net whose only non-zero first-layer rows are the block
    units' tells the hand position from one without the run."""
    w1 = np.zeros((N_INPUTS, 8), np.float32)
    w1[BLOCK0:] = 1.0
    net = Net(w1, np.zeros(8), np.ones((7, 8)), np.zeros(7))
    me, opp = hand_position()
    other = opp.copy()
    other[18] -= 2
    other[0] += 2                                     # the run 5-8 broken at 6
    a, b = net.outputs(np.stack([np.stack([me, opp]), np.stack([me, other])]))
    assert a[0] != b[0]


def test_a_net_of_encoding_1_is_read_as_the_same_net(tmp_path):
    g = np.random.default_rng(8)
    old = {"w1": g.normal(0, 0.3, (N_INPUTS_V1, 16)).astype(np.float32),
           "b1": g.normal(0, 0.1, 16).astype(np.float32),
           "w2": g.normal(0, 0.3, (7, 16)).astype(np.float32),
           "b2": g.normal(0, 0.1, 7).astype(np.float32)}
    path = tmp_path / "old.nfdb"
    _dbfile.write_db(path, KIND, {"encoding": 1, "n_inputs": N_INPUTS_V1, "n_hidden": 16}, old)
    net = Evaluator.load(path).net
    assert net.w1.shape == (N_INPUTS, 16)
    assert not net.w1[N_INPUTS_V1:].any()
    boards = blocky_boards(30, 9)
    # encoding 1's value: the first 198 inputs only
    x = net.encode(boards)[:, :N_INPUTS_V1].astype(np.float64)
    h = np.maximum(0.0, old["b1"] + x @ old["w1"])
    want = 1 / (1 + np.exp(-(old["b2"] + h @ old["w2"].T)))
    np.testing.assert_allclose(net.outputs(boards), want, rtol=0, atol=2e-6)
    assert pad_inputs(np.zeros((5, 8))).shape == (5, 8)          # other shapes: unchanged


@pytest.mark.parametrize("encoding,n_inputs", [(1, N_INPUTS), (2, N_INPUTS_V1), (3, N_INPUTS),
                                               (None, None)])
def test_unknown_encodings_are_refused_by_name(tmp_path, encoding, n_inputs):
    path = tmp_path / "bad.nfdb"
    meta = {"n_hidden": 8}
    if encoding is not None:
        meta.update(encoding=encoding, n_inputs=n_inputs)
    _dbfile.write_db(path, KIND, meta, Net.random(8, 1).arrays())
    with pytest.raises(_dbfile.DatabaseError, match=f"bad.nfdb: a net for input encoding "
                                                    f"{encoding} with {n_inputs} inputs"):
        Evaluator.load(path)

