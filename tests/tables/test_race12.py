"""The no-contact race database (``race12``): the solver against a brute-force recursion
over the legal moves, agreement with the 6-point bear-off database, files, refusals, and
the evaluator's use of it."""
import errno
import math
from functools import lru_cache

import numpy as np
import pytest

import nardy_fast as nf
from nardy_fast.tables import _race12solve, bearoff, race12  # private on purpose: the C solver
from nardy_fast.tables.bearoff import DatabaseError
from nardy_fast.tables.race import race_probabilities

from helpers import outer_position

ROLLS = [(a, b) for a in range(1, 7) for b in range(a, 7)]
OPP = np.zeros(24, np.uint8)
OPP[23] = 15                 # the other side on its last point: never in the way


def py_index(c, points, n_max):
    """The index of _race12.pxd written again from its definition (colex ranks)."""
    def colex(b):
        s, idx = 0, 0
        for k in range(len(b)):
            s += b[len(b) - 1 - k]
            idx += math.comb(s + k, k + 1)
        return idx
    q = points - 6
    outer = tuple(c[6:points])
    before = 0
    for o in range(colex(outer)):     # boards of the outer boards ranked before
        before += math.comb(n_max - _outer_count(o, q) + 6, 6)
    return before + colex(tuple(c[:6]))


@lru_cache(maxsize=None)
def _outer_count(rank, q):
    """Checkers of the outer board of colex rank `rank` (by search over all boards)."""
    for b in _all_boards(q, 15):
        s, idx = 0, 0
        for k in range(q):
            s += b[q - 1 - k]
            idx += math.comb(s + k, k + 1)
        if idx == rank:
            return sum(b)
    raise AssertionError(rank)


@lru_cache(maxsize=None)
def _all_boards(points, n_max):
    if points == 0:
        return [()]
    return [b + (k,) for b in _all_boards(points - 1, n_max)
            for k in range(n_max - sum(b) + 1)]


class Naive:
    """Brute force over the move generator: value = 1 + mean over rolls of the best final."""

    def __init__(self, points, n_max, all_checkers):
        self.points, self.n_max, self.all = points, n_max, all_checkers
        self.finals = {}

    def moves(self, c, roll):
        key = (c, roll)
        if key not in self.finals:
            b = np.zeros(24, np.uint8)
            b[23 - np.arange(12)] = c + (0,) * (12 - len(c))
            succ = nf.successors(b, OPP, *roll)
            self.finals[key] = [tuple(int(v) for v in s[23:23 - self.points:-1]) for s in succ]
        return self.finals[key]

    def best(self, c, roll, value):
        return min(self.moves(c, roll),
                   key=lambda f: (value(f), py_index(f, self.points, self.n_max)))

    @lru_cache(maxsize=None)
    def mean(self, c):
        if sum(c) == 0:
            return 0.0
        acc = 0.0
        for r in ROLLS:
            acc += (1 if r[0] == r[1] else 2) / 36 * self.mean(self.best(c, r, self.mean))
        return 1.0 + acc

    @lru_cache(maxsize=None)
    def mean_first(self, c):
        if sum(c) < self.all:
            return 0.0
        acc = 0.0
        for r in ROLLS:
            acc += (1 if r[0] == r[1] else 2) / 36 * self.mean_first(
                self.best(c, r, self.mean_first))
        return 1.0 + acc

    def pmf(self, c, kind):
        """P(t turns) as a dict: kind "turns", "first" or "home" (under the first-off play)."""
        if ((kind == "turns" and sum(c) == 0) or (kind != "turns" and sum(c) < self.all)
                or (kind == "home" and not any(c[6:]))):
            return {0: 1.0}
        value = self.mean if kind == "turns" else self.mean_first
        out = {}
        for r in ROLLS:
            for t, p in self.pmf(self.best(c, r, value), kind).items():
                out[t + 1] = out.get(t + 1, 0.0) + (1 if r[0] == r[1] else 2) / 36 * p
        return out


def window(raw, kind, i):
    lo, n, s = int(raw[kind + "_lo"][i]), int(raw[kind + "_n"][i]), int(raw[kind + "_start"][i])
    return {lo + j: float(raw[kind + "_pmf"][s + j]) for j in range(n)}


@pytest.fixture(scope="module")
def tiny():
    points, n_max = 8, 3
    return points, n_max, _race12solve.solve(points, n_max, all_checkers=n_max)


def test_layout_is_a_topological_bijection(tiny):
    points, n_max, raw = tiny
    boards = _all_boards(points, n_max)
    idx = [py_index(b, points, n_max) for b in boards]
    assert sorted(idx) == list(range(len(boards))) == list(range(int(raw["offset"][-1])))
    naive = Naive(points, n_max, n_max)
    for b in boards[::7]:
        for roll in ROLLS:
            for f in naive.moves(b, roll):
                assert py_index(f, points, n_max) < py_index(b, points, n_max) or sum(b) == 0


def test_solver_matches_brute_force(tiny):
    points, n_max, raw = tiny
    naive = Naive(points, n_max, n_max)
    for b in _all_boards(points, n_max):
        i = py_index(b, points, n_max)
        assert raw["mean"][i] == pytest.approx(naive.mean(b), abs=1e-12), b
        assert raw["mean_first"][i] == pytest.approx(naive.mean_first(b), abs=1e-12), b
        for kind in ("turns", "first", "home"):
            got, want = window(raw, kind, i), naive.pmf(b, kind)
            for t in set(got) | set(want):
                assert got.get(t, 0.0) == pytest.approx(want.get(t, 0.0), abs=2e-7), (b, kind, t)


@pytest.fixture(scope="module")
def seven():
    return _race12solve.solve(7, 15)


def test_agrees_with_six_point_database(seven):
    one = bearoff.one_sided()
    m6 = one.n_boards
    assert np.array_equal(seven["mean"][:m6], one.mean)
    assert np.array_equal(seven["mean_first"][:m6], one.mean_first_off_array)
    for kind, table in (("turns", one.turns), ("first", one.first_off)):
        for i in range(0, m6, 37):
            row = np.zeros(table.shape[1] + 2)
            for t, p in window(seven, kind, i).items():
                row[t] = p
            assert np.abs(row[:table.shape[1]] - table[i]).max() < 1e-6, (kind, i)
            assert row[table.shape[1]:].sum() < 1e-6


def home_position(rng):
    """A random race of both homes, side on roll White."""
    def side():
        b = np.zeros(24, np.uint8)
        n = int(rng.integers(1, 16))
        np.add.at(b, rng.integers(18, 24, n), 1)
        return b
    return nf.Position.from_boards(side(), side(), "white")


def test_quantised_file_against_six_point(db7, tmp_path):
    one = bearoff.one_sided()
    path = db7.save(tmp_path / "r7.nfdb")
    db = race12.Race12.load(path)
    for i in range(0, one.n_boards, 53):
        b6 = one.board_of(i)
        c = np.zeros(12, np.uint8)
        c[:6] = b6
        want = np.cumsum(one.turns[i])
        got = np.cumsum(db.distribution(c))
        k = min(len(want), len(got))
        assert np.abs(got[:k] - want[:k]).max() <= 0.5 / 65535 + 1e-6
        assert db.mean_turns(c) == pytest.approx(one.mean[i], rel=1e-6)
    rng = np.random.default_rng(5)
    for _ in range(50):
        pos = home_position(rng)
        a = race12.race12_probabilities(pos, tables=db)
        b = race_probabilities(pos, tables=one)
        assert a.method == "one_sided12"
        assert a.p_win == pytest.approx(b.p_win, abs=3e-4)
        assert a.p_mars_win == pytest.approx(b.p_mars_win, abs=3e-4)
        assert a.p_mars_loss == pytest.approx(b.p_mars_loss, abs=3e-4)
        # every mars of a race of both homes is a home mars
        assert a.p_home_mars_win == pytest.approx(a.p_mars_win, abs=1e-9)


def test_file_errors(db7, tmp_path):
    path = db7.save(tmp_path / "r7.nfdb")
    raw = bytearray(open(path, "rb").read())
    raw[-100] ^= 0xFF
    bad = tmp_path / "bad.nfdb"
    bad.write_bytes(bytes(raw))
    with pytest.raises(DatabaseError, match="bad.nfdb"):
        race12.Race12.load(bad)
    cut = tmp_path / "cut.nfdb"
    cut.write_bytes(open(path, "rb").read()[:-1000])
    with pytest.raises(DatabaseError):
        race12.Race12.load(cut)
    one = tmp_path / "one.nfdb"
    bearoff.OneSided.build(3, progress=False).save(one)
    with pytest.raises(DatabaseError, match="expected 'race12'"):
        race12.Race12.load(one)
    other = race12.Race12(db7.arrays, 7, 15)
    other.points = 8                        # a header that does not fit the arrays
    with pytest.raises(DatabaseError, match="inconsistent"):
        race12.Race12.load(other.save(tmp_path / "mismatch.nfdb"))


def test_build_refused_without_memory_or_disk(monkeypatch, tmp_path):
    from nardy_fast._utils import _resources   # private on purpose: no memory, injected
    monkeypatch.setattr(_resources, "available_memory", lambda: 10 ** 9)
    need, _ = race12.build_needs(12, 15)
    assert need > 10 ** 9
    with pytest.raises(MemoryError, match="GB"):
        race12.Race12.build(12, 15, progress=False)
    monkeypatch.undo()
    monkeypatch.setattr(_resources.shutil, "disk_usage",
                        lambda folder: type("U", (), {"free": 1000})())
    with pytest.raises(OSError) as e:
        race12.Race12.build(7, 15, progress=False, path=tmp_path / "r.nfdb")
    assert e.value.errno == errno.ENOSPC


def test_bad_parameters():
    with pytest.raises(ValueError, match="points"):
        _race12solve.solve(13, 15)
    with pytest.raises(ValueError, match="max_checkers"):
        race12.Race12.build(12, 16, progress=False)
    with pytest.raises(ValueError, match="all_checkers"):
        _race12solve.solve(7, 5, all_checkers=4)


def test_queries_never_build(monkeypatch, tmp_path):
    monkeypatch.setenv("NARDY_FAST_DATA", str(tmp_path))
    with pytest.warns(RuntimeWarning, match="bearoff build --race12"):    # not silently
        assert race12.race12() is None
    assert race12.cached_race12() is None
    with pytest.raises(ValueError, match="not been built"):
        race12.race12_probabilities(outer_position())


def test_a_position_the_database_does_not_cover_is_refused_for_its_reason(db7):
    me = np.zeros(24, np.uint8)
    me[17], me[18] = 1, 2
    over = nf.Position.from_boards(me, np.zeros(24, np.uint8), "white")
    with pytest.raises(ValueError, match="the game is over: black has borne off all 15"):
        race12.race12_probabilities(over, tables=db7)
    small = race12.Race12.build(points=7, max_checkers=3, progress=False)
    opp = np.zeros(24, np.uint8)
    opp[19] = 5
    with pytest.raises(ValueError, match="the opponent has 5 checkers, this race database "
                                         "covers at most 3"):
        race12.race12_probabilities(nf.Position.from_boards(me, opp, "white"), tables=small)
    me[16] = 1                                  # point 17: outside the last 7 points
    with pytest.raises(ValueError, match="last 7 points"):
        race12.race12_probabilities(nf.Position.from_boards(me, opp, "white"), tables=db7)


def test_values_are_labelled_an_approximation_as_the_docstring_says(db7):
    o = race12.race12_probabilities(outer_position(), tables=db7)
    assert o.method == "one_sided12" and math.isnan(o.se_p_win) and math.isnan(o.se_equity)
    returns = race12.race12_probabilities.__doc__.split("Returns")[1].split("Examples")[0]
    assert "exact" not in returns and "NaN" in returns


def test_a_position_id_is_read_as_race_probabilities_reads_it(db7):
    """``race12_probabilities`` took only a Position (a TypeError for its ID), unlike
    the evaluator, the cube and the rollouts; it now reads an ID too."""
    pos = outer_position()
    a = race12.race12_probabilities(pos.id, tables=db7)
    b = race12.race12_probabilities(pos, tables=db7)
    assert (a.method, a.p_win, a.p_mars_win, a.equity) == \
        (b.method, b.p_win, b.p_mars_win, b.equity)
    with pytest.raises(ValueError, match="position"):
        race12.race12_probabilities("W-not-an-id", tables=db7)
