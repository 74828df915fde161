"""Tests of the exact cubeful race tables (nardy_fast.tables.cuberace, nardy_fast.tables._cuberace).

The reference is an independent brute force: plain recursion over real stakes (not values
per unit stake), with explicit raise / take / pass / beaver choices, on 24-point boards
moved by the naive move generator of ``tests/naive.py``.  Last-roll positions are checked
from first principles.
"""
import functools
import itertools
import math
import pickle

import numpy as np
import pytest

from nardy_fast.tables import bearoff as bo
from nardy_fast.tables.bearoff import DatabaseError
from nardy_fast.tables.cuberace import CubefulRace
from naive import naive_successors

ROLLS = [(a, b) for a in range(1, 7) for b in range(1, 7)]       # 36 equally likely


def home_boards_upto(n):
    """Every home board (24 counts) of 1..n checkers."""
    out = []
    for counts in itertools.product(range(n + 1), repeat=6):
        if 1 <= sum(counts) <= n:
            b = [0] * 18 + list(counts)
            out.append(tuple(b))
    return out


@functools.lru_cache(maxsize=None)
def results(board, d1, d2):
    return tuple(tuple(r) for r in naive_successors(board, (0,) * 24, d1, d2))


class Brute:
    """Money equity in real stakes: ``value`` before the cube action, ``roll`` without
    raising.  owner: "c" either side, "m" the side on roll, "o" the opponent."""

    FLIP = {"c": "c", "m": "o", "o": "m"}

    def __init__(self, progression, beaver=False, cap=None):
        self.next = (lambda k: 2 * k) if progression == "geometric" else (lambda k: k + 1)
        self.beaver = beaver
        self.cap = cap
        self.value = functools.lru_cache(maxsize=None)(self._value)
        self.roll = functools.lru_cache(maxsize=None)(self._roll)

    def may_raise(self, stake):
        return self.cap is None or self.next(stake) <= self.cap

    def _value(self, x, y, owner, stake):
        nd = self.roll(x, y, owner, stake)
        if owner == "o" or not self.may_raise(stake):
            return nd
        n1 = self.next(stake)
        take = self.roll(x, y, "o", n1)
        if self.beaver and self.may_raise(n1):
            take = min(take, self.roll(x, y, "o", self.next(n1)))   # beaver: taker raises
        return max(nd, min(take, stake))                            # pass: stake

    def _roll(self, x, y, owner, stake):
        total = 0.0
        for d1, d2 in ROLLS:
            best = -math.inf
            for f in results(x, d1, d2):
                v = stake if sum(f) == 0 else -self.value(y, f, self.FLIP[owner], stake)
                best = max(best, v)
            total += best
        return total / 36


def dead_equity(x, y):
    """Cubeless 2 P(win) - 1 by plain recursion."""
    @functools.lru_cache(maxsize=None)
    def p(a, b):
        tot = 0.0
        for d1, d2 in ROLLS:
            tot += max(1.0 if sum(f) == 0 else 1.0 - p(b, f) for f in results(a, d1, d2))
        return tot / 36
    return 2 * p(x, y) - 1


def idx(board):
    return bo.index_of(board)


@pytest.fixture(scope="module")
def geo2():
    return CubefulRace.build(2, "geometric")


@pytest.mark.parametrize("beaver", [False, pytest.param(True, marks=pytest.mark.slow)])
def test_geometric_against_brute_force(beaver):
    table = CubefulRace.build(2, "geometric", beaver=beaver)
    brute = Brute("geometric", beaver)
    boards = home_boards_upto(2)
    for x in boards:
        for y in boards:
            row = table.values[idx(x), idx(y)]
            assert row[0] == pytest.approx(brute.roll(x, y, "c", 1), abs=1e-12)
            assert row[1] == pytest.approx(brute.roll(x, y, "m", 1), abs=1e-12)
            assert row[2] == pytest.approx(brute.roll(x, y, "o", 1), abs=1e-12)
            d = table.decision(x, y)
            assert d["equity"] == pytest.approx(brute.value(x, y, "c", 1), abs=1e-12)
            # scale invariance: the same table at stake 4, owned by the side on roll
            d4 = table.decision(x, y, stake=4, owner="mover")
            assert 4 * d4["equity"] == pytest.approx(brute.value(x, y, "m", 4), abs=1e-12)


@pytest.mark.slow
@pytest.mark.parametrize("beaver", [False, True])
def test_arithmetic_against_brute_force(beaver):
    cap = 4
    table = CubefulRace.build(2, "arithmetic", beaver=beaver, max_stake=cap, stakes=cap)
    brute = Brute("arithmetic", beaver, cap=cap)
    boards = home_boards_upto(2)
    for x in boards[::3]:
        for y in boards:
            for stake in range(1, cap + 1):
                for owner, name in (("c", "centre"), ("m", "mover"), ("o", "opponent")):
                    d = table.decision(x, y, stake=stake, owner=name)
                    assert stake * d["equity"] == pytest.approx(
                        brute.value(x, y, owner, stake), abs=1e-12), (x, y, stake, owner)


def test_dead_cube_is_cubeless(geo2):
    boards = home_boards_upto(2)
    for x in boards[:10]:
        for y in boards:
            assert geo2.values[idx(x), idx(y), 3] == pytest.approx(dead_equity(x, y),
                                                                   abs=1e-12)


def test_dead_cube_matches_two_sided_table():
    table = CubefulRace.build(4, "geometric")
    two = bo.TwoSided.build(4, progress=False)
    d = table.values[1:, 1:, 3] - (2 * two.p_win_table[1:, 1:] - 1)
    assert np.abs(d).max() < 1e-12


def one_roll_p(board):
    """P(the side on roll bears off everything this roll), by counting the 36 rolls."""
    return sum(any(sum(f) == 0 for f in results(board, d1, d2)) for d1, d2 in ROLLS) / 36


@pytest.mark.parametrize("points, wins", [
    ((19,), 27),              # one checker 6 pips away: sums >= 6 (22) and doubles 2-6 (5)
    ((20,), 31),              # 5 pips: fails only 1-1, 1-2, 2-1, 1-3, 3-1
    ((22, 24), 34),           # fails 1-2 and 2-1
    ((19, 19), 4),            # 3-3, 4-4, 5-5, 6-6
    ((21, 24), 29),
])
def test_last_roll_from_first_principles(geo2, points, wins):
    """The opponent (one checker on its point 24) finishes with any roll, so the side on
    roll wins iff it bears off everything now, with p = wins / 36.  Centred cube:
    no double 2p - 1, double/take 2 (2p - 1), double/pass 1; equity
    max(2p - 1, min(2 (2p - 1), 1)); owned by the opponent: 2p - 1."""
    x = [0] * 24
    for pt in points:
        x[pt - 1] += 1
    x = tuple(x)
    y = tuple([0] * 23 + [1])
    p = wins / 36
    if points != (21, 24):
        assert one_roll_p(x) == pytest.approx(p)
    else:
        p = one_roll_p(x)
    d = geo2.decision(x, y)
    assert d["no_double"] == pytest.approx(2 * p - 1, abs=1e-12)
    assert d["double_take"] == pytest.approx(2 * (2 * p - 1), abs=1e-12)
    assert d["double_pass"] == 1.0
    assert d["equity"] == pytest.approx(max(2 * p - 1, min(2 * (2 * p - 1), 1.0)), abs=1e-12)
    assert geo2.decision(x, y, owner="opponent")["equity"] == pytest.approx(2 * p - 1)


def test_save_load_and_damage(tmp_path, geo2, monkeypatch):
    path = tmp_path / "c.nfdb"
    geo2.save(path)
    back = CubefulRace.load(path)
    assert np.array_equal(back.values, geo2.values)
    assert pickle.loads(pickle.dumps(back)).values.shape == geo2.values.shape
    monkeypatch.chdir(tmp_path)            # a relative path pickles as the absolute one
    relative = pickle.dumps(CubefulRace.load("c.nfdb"))
    monkeypatch.chdir(tmp_path.parent)
    assert np.array_equal(pickle.loads(relative).values, geo2.values)
    raw = bytearray(path.read_bytes())
    raw[-9] ^= 0xFF
    path.write_bytes(bytes(raw))
    with pytest.raises(DatabaseError):
        CubefulRace.load(path)


def test_checks(geo2):
    with pytest.raises(ValueError, match="progression"):
        CubefulRace.build(2, "harmonic")
    with pytest.raises(ValueError, match="owner"):
        geo2.decision((0,) * 23 + (1,), (0,) * 23 + (1,), owner="white")
    with pytest.raises(ValueError, match="checkers"):
        geo2.decision((0,) * 23 + (3,), (0,) * 23 + (1,))


def test_a_sure_loss_has_p_win_0_not_below():
    """Black on roll with five checkers against White's last one: a sure loss, stored as
    -1.0000000000000002, gave P(win) -1.1e-16 (``nardy-fast cube`` printed "cubeless
    P(win) -0.0000"); P(win) is now cut to [0, 1]."""
    import nardy_fast as nf
    pos = nf.Position.from_id("BAAAAAAAAAAAAAAAAAAAAAAAAAAAAABBB")
    d = nf.cube_decision(pos, rules=nf.Rules(cube="geometric"))
    assert d["model"] == "exact cubeful race table"
    assert d["p_win"] == 0.0 and str(d["p_win"]) == "0.0"
