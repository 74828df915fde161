"""Tests of the bear-off databases (nardy_fast.tables.bearoff, its C solvers, _dbfile).

The naive references here use the general move generator ``nardy_fast.successors`` on
24-point boards (not the specialised bear-off generator) and plain recursion.
"""
import csv
import functools
import glob
import math
import os
import pickle
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nardy_fast import successors
# private on purpose: the C solvers and move generator, their thread check, the file format
from nardy_fast.tables import _bomoves, _mars, _racetables, _twosided
from nardy_fast.tables import bearoff as bo
from nardy_fast.tables.bearoff import DatabaseError
from nardy_fast.core._checks import check_threads, usable_cores
from nardy_fast._utils import datadir
from nardy_fast._utils._dbfile import DbWriter, read_db, write_db

from helpers import boards_upto, small_default_mars, to6, to24

DATA = Path(__file__).parent.parent / "data" / "reference"
ROLLS = [(a, b) for a in range(1, 7) for b in range(a, 7)]
PROB = {r: (1 if r[0] == r[1] else 2) / 36 for r in ROLLS}


# ----------------------------------------------------------------------------------------
# fixtures and naive references

@pytest.fixture(scope="module")
def db():
    return bo.OneSided.build(15, progress=False)


@pytest.fixture(scope="module")
def ts8():
    return bo.two_sided(8)                      # the default: built once per session


@pytest.fixture(scope="module", autouse=True)
def _mars_of_two():
    """Default mars tables of 2 checkers (seconds to build), not 8 (see RESULTS.md); the data
    folder is the session's private one (conftest)."""
    with small_default_mars():
        yield


OPP_HOME = to24([0, 0, 0, 0, 0, 2])        # an opponent in its home: cannot interfere


@functools.lru_cache(maxsize=None)
def naive_successors(board6, d1, d2, opponent=tuple(OPP_HOME)):
    return tuple(sorted({to6(b) for b in successors(to24(board6), np.array(opponent, np.uint8),
                                                      d1, d2)}))


def all_boards(n):
    """All boards of at most n checkers (any order)."""
    out = []
    for c in np.ndindex(*(n + 1,) * 6):
        if sum(c) <= n:
            out.append(tuple(int(x) for x in c))
    return out


nonempty6 = boards_upto(15)


# ----------------------------------------------------------------------------------------
# index

def test_index_is_a_bijection_with_fewer_checkers_first():
    idx = np.arange(bo.N_BOARDS)
    boards = bo.board_of(idx)
    assert boards.shape == (bo.N_BOARDS, 6) and boards.dtype == np.uint8
    assert np.array_equal(bo.index_of(boards), idx)
    assert len({b.tobytes() for b in boards}) == bo.N_BOARDS
    n = boards.sum(axis=1)
    assert (np.diff(n) >= 0).all()                   # fewer checkers first
    for k in range(16):                              # <= k checkers: indices < C(k+6, 6)
        assert int((n <= k).sum()) == math.comb(k + 6, 6)
    assert bo.index_of([0] * 6) == 0
    assert bo.N_BOARDS == math.comb(21, 6) == sum(math.comb(k + 5, 5) for k in range(16))


def test_index_formula_matches_documentation():
    rng = np.random.default_rng(1)
    for _ in range(200):
        c = rng.multinomial(int(rng.integers(0, 16)), [1 / 7] * 7)[:6]
        s = np.cumsum(c[::-1])
        expect = sum(math.comb(int(s[k]) + k, k + 1) for k in range(6))
        assert bo.index_of(c) == expect


def test_index_accepts_24_point_boards():
    c = [3, 0, 2, 1, 0, 4]
    assert bo.index_of(to24(c)) == bo.index_of(c)
    stack = np.stack([to24(c), to24([0, 1, 0, 0, 0, 0])])
    assert bo.index_of(stack).tolist() == [bo.index_of(c), bo.index_of([0, 1, 0, 0, 0, 0])]


@settings(max_examples=60, deadline=None)
@given(nonempty6, st.sampled_from(ROLLS))
def test_successors_have_smaller_index(c, roll):
    succ = _bomoves.roll_successors(np.array(c, np.uint8), *roll)
    assert len(succ) >= 1
    assert (succ < bo.index_of(c)).all()


# ----------------------------------------------------------------------------------------
# the bear-off move generator

@settings(max_examples=40, deadline=None)
@given(nonempty6, st.sampled_from(ROLLS),
       st.lists(st.integers(0, 2), min_size=6, max_size=6).filter(lambda o: 0 < sum(o)))
def test_bearoff_generator_with_opponent_in_its_home(c, roll, opp6):
    """Any opponent in its own home leaves the moves unchanged (movegen as reference)."""
    ours = _bomoves.roll_successors(np.array(c, np.uint8), *roll)
    theirs = sorted(bo.index_of(np.array(b)) for b in
                    naive_successors(c, *roll, opponent=tuple(to24(opp6))))
    assert ours.tolist() == theirs


def test_hand_checked_moves():
    # one checker on the 6-point, 2-1: only 6 -> 4 -> 3 or 6 -> 5 -> 3
    assert bo.board_of(_bomoves.roll_successors(np.array([0, 0, 0, 0, 0, 1], np.uint8), 2, 1)
                       ).tolist() == [[0, 0, 1, 0, 0, 0]]
    # checkers on 1 and 5, roll 6-6: the first six bears off the 5, the next the 1
    assert _bomoves.roll_successors(np.array([1, 0, 0, 0, 1, 0], np.uint8), 6, 6).tolist() == [0]
    # two on the 6-point, 1-1 (four ones): 4 pips spread over the two checkers
    got = {tuple(b) for b in bo.board_of(
        _bomoves.roll_successors(np.array([0, 0, 0, 0, 0, 2], np.uint8), 1, 1))}
    assert got == {(0, 1, 0, 0, 0, 1), (0, 0, 1, 0, 1, 0), (0, 0, 0, 2, 0, 0)}


# ----------------------------------------------------------------------------------------
# one-sided database

def naive_one_sided(n):
    """Exact mean turns and distributions for boards of <= n checkers by recursion over
    the general move generator; ties between equal means go to the smaller index."""
    boards = sorted(all_boards(n), key=lambda c: bo.index_of(c))
    mean, dist = {}, {}
    for c in boards:
        if sum(c) == 0:
            mean[c], dist[c] = 0.0, np.array([1.0])
            continue
        e, rows = 1.0, []
        for r in ROLLS:
            best = min(naive_successors(c, *r), key=lambda s: (mean[s], bo.index_of(s)))
            e += PROB[r] * mean[best]
            rows.append((PROB[r], dist[best]))
        width = 1 + max(len(d) for _, d in rows)
        d = np.zeros(width)
        for p, row in rows:
            d[1:1 + len(row)] += p * row
        mean[c], dist[c] = e, d
    return mean, dist


def test_one_sided_against_naive_recursion(db):
    mean, dist = naive_one_sided(4)
    small = bo.OneSided.build(4, progress=False)
    for c in mean:
        i = bo.index_of(c)
        assert db.mean[i] == pytest.approx(mean[c], abs=1e-13)
        row = db.turns[i]
        assert np.allclose(row[:len(dist[c])], dist[c], atol=1e-15)
        assert not row[len(dist[c]):].any()
        assert small.mean[i] == db.mean[i]
        assert np.array_equal(small.turns[i, :len(dist[c])], row[:len(dist[c])])


def test_single_checker_by_hand(db):
    # one checker p pips from off comes off in one turn iff the roll has p pips (a larger
    # die bears it off from a lower point); otherwise at most 3 pips remain, and any roll
    # (3 pips at least) finishes it next turn
    for p in range(1, 7):
        c = [0] * 6
        c[p - 1] = 1
        p1 = sum(PROB[(a, b)] for a, b in ROLLS if (4 * a if a == b else a + b) >= p)
        d = db.distribution(c)
        assert d[1] == pytest.approx(p1, abs=1e-15)
        assert d[2] == pytest.approx(1 - p1, abs=1e-15)
        assert not d[3:].any()
        assert db.mean_turns(c) == pytest.approx(1 + (1 - p1), abs=1e-15)


def test_distributions_sum_to_one_and_match_means(db):
    for table, means in ((db.turns, db.mean), (db.first_off, db.mean_first_off_array)):
        assert table.dtype == np.float64 and table.flags.c_contiguous
        assert (table >= 0).all()
        assert np.abs(table.sum(axis=1) - 1).max() < 1e-12
        t = np.arange(table.shape[1])
        assert np.abs(table @ t - means).max() < 1e-11
        assert table[:, -1].any()                         # the tail is kept, not cut
    assert db.turns.shape[0] == db.first_off.shape[0] == bo.N_BOARDS


def test_first_off_rows(db):
    n = bo.board_of(np.arange(bo.N_BOARDS)).sum(axis=1)
    few = n < 15
    assert (db.first_off[few, 0] == 1).all() and not db.first_off[few, 1:].any()
    assert not db.mean_first_off_array[few].any()
    assert (db.mean_first_off_array[~few] >= 1).all()
    # all 15 on the 1-point: the first roll always bears one off
    assert db.mean_first_off([15, 0, 0, 0, 0, 0]) == 1.0
    assert db.first_off_distribution([15, 0, 0, 0, 0, 0])[1] == pytest.approx(1, abs=1e-15)


def naive_first_off(c, memo):
    if sum(c) < 15:
        return 0.0
    if c not in memo:
        memo[c] = 1 + sum(PROB[r] * min(naive_first_off(s, memo)
                                        for s in naive_successors(c, *r)) for r in ROLLS)
    return memo[c]


@pytest.mark.slow
@settings(max_examples=6, deadline=None)
@given(st.lists(st.integers(0, 15), min_size=3, max_size=3).filter(lambda c: sum(c) <= 15))
def test_first_off_against_naive_recursion(db, low):
    c = tuple(low) + (15 - sum(low), 0, 0)              # 15 checkers on points 1..4
    assert db.mean_first_off(c) == pytest.approx(naive_first_off(c, {}), abs=1e-13)


@settings(max_examples=80, deadline=None)
@given(boards_upto(14, lo=0), st.integers(0, 5))
def test_an_extra_checker_never_helps(db, c, i):
    more = list(c)
    more[i] += 1
    assert db.mean_turns(more) >= db.mean_turns(c)
    assert db.epc(more) > db.epc(c) or sum(c) == 0 or db.mean_turns(more) == db.mean_turns(c)


def test_against_gnubg_sample(db):
    """Within the tolerances of tests/data/reference/README.md (gnubg rounds to 16 bits)."""
    rows = list(csv.DictReader(open(DATA / "gnubg_onesided_sample.csv")))
    assert len(rows) > 2000
    boards = np.array([[int(v) for v in r["pos"].split("-")] for r in rows])
    idx = db.index_of(boards)
    assert np.array_equal(boards.sum(axis=1), [int(r["n_checkers"]) for r in rows])
    mean = np.array([float(r["mean_rolls"]) for r in rows])
    mean_f = np.array([float(r["mean_rolls_first_off"]) for r in rows])
    p_off = np.array([[float(r[f"p_off_{t}"]) for t in range(19)] for r in rows])
    p_first = np.array([[float(r[f"p_first_off_{t}"]) for t in range(7)] for r in rows])
    assert np.abs(db.mean[idx] - mean).max() <= 2.5e-4
    assert np.abs(db.mean_first_off_array[idx] - mean_f).max() <= 1e-4
    ours = np.zeros((len(rows), 19))
    w = min(19, db.turns.shape[1])
    ours[:, :w] = db.turns[idx, :w]
    err = np.abs(ours - p_off)
    assert err.max() <= 3e-3
    assert (err > 1e-4).mean() < 0.01                   # "almost every" probability
    ours_f = np.zeros((len(rows), 7))
    w = min(7, db.first_off.shape[1])
    ours_f[:, :w] = db.first_off[idx, :w]
    assert np.abs(ours_f - p_first).max() <= 3e-3


def test_queries_scalar_and_vectorised_agree(db):
    rng = np.random.default_rng(7)
    idx = rng.integers(0, bo.N_BOARDS, 500)
    boards = db.board_of(idx)
    many = db.mean_turns_many(boards)
    assert many.shape == (500,) and many.dtype == np.float64
    assert np.array_equal(many, db.mean[idx])
    assert np.array_equal(db.mean_turns_many(np.stack([to24(b) for b in boards])), many)
    for b, i in zip(boards[:20], idx[:20]):
        assert db.mean_turns(b) == db.mean[i]
        assert np.array_equal(db.distribution(b), db.turns[i])
        assert np.array_equal(db.first_off_distribution(b), db.first_off[i])
        assert db.mean_first_off(b) == db.mean_first_off_array[i]
        assert db.epc(b) == pytest.approx(db.mean[i] * 49 / 6)
    assert np.allclose(db.epc(boards), many * 49 / 6)
    assert np.array_equal(db.mean_first_off_many(boards), db.mean_first_off_array[idx])


@pytest.mark.parametrize("bad, exc, words", [
    ([1, 2, 3, 4, 5], ValueError, "shape"),
    ([1, 2, 3, 4, 5, 6, 7], ValueError, "shape"),
    ([10, 6, 0, 0, 0, 0], ValueError, "16 checkers"),
    ([1, -1, 0, 0, 0, 0], ValueError, ">= 0"),
    ([0.5, 0, 0, 0, 0, 0], TypeError, "integer"),
    ([[1, 0, 0, 0, 0, 0, 0]], ValueError, "shape"),
])
def test_bad_boards(db, bad, exc, words):
    with pytest.raises(exc, match=words):
        db.mean_turns(bad)
    with pytest.raises(exc, match=words):
        bo.index_of(bad)


def test_checkers_outside_home_rejected(db):
    b = to24([1, 0, 0, 0, 0, 0])
    b[17] = 1                                            # point 18: outside the home
    with pytest.raises(ValueError, match="point 18, outside the home"):
        db.mean_turns(b)
    with pytest.raises(ValueError, match=r"boards\[1\]"):
        db.mean_turns_many([[0] * 6, [0, 0, 0, 9, 9, 0]])
    with pytest.raises(ValueError, match="index"):
        bo.board_of([0, bo.N_BOARDS])
    with pytest.raises(ValueError, match="one board"):
        db.distribution([[0] * 6, [1] + [0] * 5])
    small = bo.OneSided.build(3, progress=False)
    with pytest.raises(ValueError, match="covers at most 3"):
        small.mean_turns([4, 0, 0, 0, 0, 0])
    with pytest.raises(ValueError, match="max_checkers"):
        bo.OneSided.build(16, progress=False)


# ----------------------------------------------------------------------------------------
# files

def test_save_load_roundtrip_memory_mapped(db, tmp_path):
    path = tmp_path / "one.nfdb"
    db.save(path)
    back = bo.OneSided.load(path)
    assert back.max_checkers == 15
    for name in ("turns", "first_off", "mean", "mean_first_off_array"):
        a = getattr(back, name)
        assert isinstance(a.base, np.memmap) or isinstance(a, np.memmap)
        assert a.flags.c_contiguous and not a.flags.writeable
        assert np.array_equal(a, getattr(db, name))
    assert [p.name for p in tmp_path.iterdir()] == ["one.nfdb"]


def test_pickle(db, tmp_path):
    import pickle
    small = bo.OneSided.build(4, progress=False)
    back = pickle.loads(pickle.dumps(small))
    assert np.array_equal(back.turns, small.turns)
    assert back.mean_first_off([1, 0, 0, 0, 0, 0]) == 0
    small.save(tmp_path / "s.nfdb")
    loaded = bo.OneSided.load(tmp_path / "s.nfdb")
    assert len(pickle.dumps(loaded)) < 1000                # by path, not by data
    assert np.array_equal(pickle.loads(pickle.dumps(loaded)).mean, small.mean)
    ts = bo.TwoSided.build(2, progress=False)
    assert np.array_equal(pickle.loads(pickle.dumps(ts)).p_win_table, ts.p_win_table)


def test_a_table_loaded_by_a_relative_path_unpickles_in_another_folder(tmp_path, monkeypatch):
    """A table pickles as its path: one loaded by a relative path was read, in a worker
    or after a change of folder, from the wrong place (``DatabaseError: s.nfdb: cannot
    read database``).  The path is kept absolute."""
    monkeypatch.chdir(tmp_path)
    bo.OneSided.build(4, progress=False).save("s.nfdb")
    bo.TwoSided.build(2, progress=False).save("t.nfdb")
    tables = [bo.OneSided.load("s.nfdb"), bo.TwoSided.load("t.nfdb")]
    data = [pickle.dumps(t) for t in tables]
    (tmp_path / "elsewhere").mkdir()
    monkeypatch.chdir(tmp_path / "elsewhere")
    one, two = (pickle.loads(d) for d in data)
    assert np.array_equal(one.mean, tables[0].mean)
    assert np.array_equal(two.p_win_table, tables[1].p_win_table)
    assert one.path == str(tmp_path / "s.nfdb")


def _corrupt(path, fn):
    data = bytearray(path.read_bytes())
    path.write_bytes(bytes(fn(data)))


def test_damaged_files_raise_clear_errors(db, tmp_path):
    good = tmp_path / "good.nfdb"
    small = bo.OneSided.build(5, progress=False)
    small.save(good)
    raw = good.read_bytes()
    cases = {
        "truncated": (lambda d: d[:-100], "truncated"),
        "short": (lambda d: d[:10], "bad magic"),
        "flipped": (lambda d: d[:-8] + bytes([d[-8] ^ 1]) + d[-7:], "checksum"),
        "magic": (lambda d: b"XXXX" + d[4:], "bad magic"),
        "version": (lambda d: d.replace(b'"format_version": 1', b'"format_version": 7'),
                    "format version 7"),
        "header": (lambda d: d[:14] + b"\x00" + d[15:], "corrupt header"),
        "extra": (lambda d: d + b"\x00" * 8, "unexpected bytes"),
        # numpy reads a dtype string with a comma as Python: a SyntaxError, not a
        # ValueError (found by the fuzz test)
        "dtype": (lambda d: d.replace(b'"dtype": "<', b'"dtype": ",', 1),
                  "corrupt array description"),
    }
    for name, (fn, words) in cases.items():
        p = tmp_path / f"{name}.nfdb"
        p.write_bytes(raw)
        _corrupt(p, fn)
        with pytest.raises(DatabaseError, match=words) as e:
            bo.OneSided.load(p)
        assert str(p) in str(e.value)
    with pytest.raises(DatabaseError, match="'one_sided' database, expected 'two_sided'"):
        bo.TwoSided.load(good)
    with pytest.raises(DatabaseError, match="cannot read"):
        bo.OneSided.load(tmp_path / "missing.nfdb")
    assert isinstance(DatabaseError("x"), ValueError)


def test_interrupted_write_leaves_no_file(tmp_path, monkeypatch):
    def boom(src, dst):
        raise KeyboardInterrupt
    monkeypatch.setattr(os, "replace", boom)
    with pytest.raises(KeyboardInterrupt):
        write_db(tmp_path / "x.nfdb", "one_sided", {}, {"a": np.arange(10.0)})
    assert list(tmp_path.iterdir()) == []


def test_write_db_roundtrip_of_several_arrays(tmp_path):
    arrays = {"a": np.arange(7, dtype=np.int32), "b": np.ones((3, 5)), "c": np.zeros(0)}
    write_db(tmp_path / "y.nfdb", "test", {"k": 1}, arrays)
    meta, back = read_db(tmp_path / "y.nfdb", "test")
    assert meta == {"k": 1}
    for k, v in arrays.items():
        assert back[k].dtype == v.dtype and np.array_equal(back[k], v)


@pytest.mark.slow
def test_default_databases_are_cached_on_disk(monkeypatch, tmp_path):
    monkeypatch.setenv(bo.DATA_ENV, str(tmp_path))
    monkeypatch.setattr(datadir, "_CACHE", {})
    assert bo.data_dir() == str(tmp_path)
    one = bo.one_sided()
    assert bo.one_sided() is one
    files = sorted(p.name for p in tmp_path.iterdir())
    assert files == ["bearoff-one-sided-15.nfdb"]
    # a damaged cache file is rebuilt with a warning
    _corrupt(tmp_path / files[0], lambda d: d[:-50])
    monkeypatch.setattr(datadir, "_CACHE", {})
    with pytest.warns(RuntimeWarning, match="rebuilding"):
        again = bo.one_sided()
    assert np.array_equal(again.turns, one.turns)
    assert bo.epc([0, 0, 0, 0, 0, 1]) == pytest.approx(one.mean_turns([0, 0, 0, 0, 0, 1]) * 49 / 6)


# ----------------------------------------------------------------------------------------
# two-sided database

def naive_two_sided(n):
    """P(on roll wins) for boards of <= n checkers by memoised recursion over the general
    move generator on 24-point boards, each side maximising its chance to win."""
    @functools.lru_cache(maxsize=None)
    def p(a, b):
        if sum(b) == 0:
            return 0.0
        if sum(a) == 0:
            return 1.0
        total = 0.0
        for r in ROLLS:
            best = 0.0
            for s in naive_successors(a, *r, opponent=tuple(to24(b))):
                best = max(best, 1.0 if sum(s) == 0 else 1.0 - p(b, s))
            total += PROB[r] * best
        return total
    boards = all_boards(n)
    return {(a, b): p(a, b) for a in boards for b in boards}


@pytest.mark.slow
def test_two_sided_against_brute_force():
    ref = naive_two_sided(3)
    ts = bo.TwoSided.build(3, progress=False)
    assert ts.p_win_table.shape == (84, 84)
    for (a, b), v in ref.items():
        if sum(a) == 0 and sum(b) == 0:
            continue
        assert ts.p_win(a, b) == pytest.approx(v, abs=1e-14), (a, b)


@pytest.mark.slow
def test_two_sided_smaller_build_is_a_corner_of_larger(ts8):
    ts3 = bo.TwoSided.build(3, progress=False)
    assert np.allclose(ts3.p_win_table, ts8.p_win_table[:84, :84], atol=1e-15, rtol=0)


def test_two_sided_symmetry_and_bounds(ts8):
    p = np.asarray(ts8.p_win_table)
    assert p.shape == (3003, 3003) and p.flags.c_contiguous
    assert ((p >= 0) & (p <= 1)).all()
    assert not p[:, 0].any() and (p[0, 1:] == 1).all()
    # having the roll never hurts: P(a vs b) + P(b vs a) >= 1
    assert (p[1:, 1:] + p[1:, 1:].T >= 1 - 1e-12).all()
    # equal boards: the side on roll is the favourite
    assert (np.diag(p)[1:] > 0.5).all()


@settings(max_examples=60, deadline=None)
@given(boards_upto(7), boards_upto(8),
       st.integers(0, 5))
def test_two_sided_extra_checker_hurts(ts8, a, b, i):
    more = list(a)
    more[i] += 1
    assert ts8.p_win(more, b) <= ts8.p_win(a, b) + 1e-12
    assert ts8.p_win(b, more) >= ts8.p_win(b, a) - 1e-12


def test_two_sided_vectorised_and_bad_input(ts8):
    rng = np.random.default_rng(3)
    ia, ib = rng.integers(1, 3003, 50), rng.integers(1, 3003, 50)
    a, b = bo.board_of(ia), bo.board_of(ib)
    assert np.array_equal(ts8.p_win(a, b), ts8.p_win_table[ia, ib])
    assert ts8.p_win(a[0], b[0]) == ts8.p_win_table[ia[0], ib[0]]
    with pytest.raises(ValueError, match="covers at most 8"):
        ts8.p_win([9, 0, 0, 0, 0, 0], [1, 0, 0, 0, 0, 0])
    with pytest.raises(ValueError, match="max_checkers"):
        bo.TwoSided.build(15, progress=False)
    assert ts8.covers([8, 0, 0, 0, 0, 0]) and not ts8.covers([5, 4, 0, 0, 0, 0])


def _two_sided_table(mc, threads, stops=()):
    """The solver's table for ``threads`` threads (not capped at the usable cores), run in
    pieces ending at ``stops`` (each piece starts the threads afresh)."""
    m = math.comb(mc + 6, 6)
    table = np.empty((m, m))
    solver = _twosided.TwoSidedSolver(mc, table, threads)
    assert solver.threads == (threads if _twosided.PTHREADS else 1)
    for stop in (*stops, m):
        solver.run(stop)
    solver.finish()
    return table


@pytest.mark.slow
@pytest.mark.parametrize("mc", [5, 6])
def test_two_sided_threads_bit_identical(mc):
    """Every value is computed by the same arithmetic on any thread: the tables of 1, 2
    and 3 threads are equal bit for bit, also when run in pieces across the size below
    which shells run on one thread."""
    one = _two_sided_table(mc, 1)
    for threads, stops in ((2, ()), (2, (100, 300, 301, 700)), (3, (400,))):
        other = _two_sided_table(mc, threads, stops)
        assert np.array_equal(one.view(np.int64), other.view(np.int64)), (threads, stops)
    ts = bo.TwoSided.build(mc, progress=False, threads=2)
    assert np.array_equal(ts.p_win_table.view(np.int64), one.view(np.int64))


def test_builders_threads_argument():
    for bad, err in ((0, ValueError), (-2, ValueError), (1.5, TypeError), (True, TypeError),
                     ("2", TypeError)):
        with pytest.raises(err, match="threads"):
            bo.TwoSided.build(2, progress=False, threads=bad)
        with pytest.raises(err, match="threads"):
            bo.MarsTable.build(1, all_checkers=3, progress=False, threads=bad)
    assert check_threads(None) == usable_cores()
    assert check_threads(10**6) == usable_cores()
    with pytest.raises(ValueError, match="threads"):
        _twosided.TwoSidedSolver(2, np.empty((28, 28)), 0)
    with pytest.raises(ValueError, match="threads"):
        _mars.MarsSolver(3, 1, 0.5, np.empty((21, 2, 7)), 0)


def test_two_sided_save_load(ts8, tmp_path):
    ts = bo.TwoSided.build(4, progress=False)
    ts.save(tmp_path / "t.nfdb")
    back = bo.TwoSided.load(tmp_path / "t.nfdb")
    assert back.max_checkers == 4 and np.array_equal(back.p_win_table, ts.p_win_table)
    with pytest.raises(DatabaseError, match="expected 'one_sided'"):
        bo.OneSided.load(tmp_path / "t.nfdb")


@pytest.mark.slow
def test_one_sided_approximation_error_against_two_sided(db, ts8):
    """The one-sided convolution P(Ta <= Tb) against the exact two-sided P(win), every
    pair of boards of 1..8 checkers: documented in race.py (max < 0.02, mean < 0.002)."""
    m = ts8.n_boards
    t = np.asarray(db.turns[:m])
    tail = np.cumsum(t[:, ::-1], axis=1)[:, ::-1]        # tail[b, k] = P(Tb >= k)
    approx = t @ tail.T
    err = np.abs(approx - ts8.p_win_table)[1:, 1:]
    assert err.max() < 0.02
    assert err.mean() < 0.002
    assert err.max() > 0                                 # it is an approximation
    # the C convolution agrees with this one
    for a, b in [(5, 17), (100, 2000), (2999, 1)]:
        assert _racetables.race_one_sided(db.turns, db.first_off, a, b)[0] == \
            pytest.approx(approx[a, b], abs=1e-14)


# ----------------------------------------------------------------------------------------
# mars extension: X with all T checkers home and none off against Y of <= N

def naive_mars(T, N, lam):
    """Brute force over the general move generator on 24-point boards: (P(X wins), P(Y
    wins a mars)) for every X board of <= T checkers, Y board of 1..N, either side on
    roll, X maximising and Y minimising V = P(X wins) - lam P(Y mars), ties to the
    smaller final board index (as documented).  Y finishing while X has all T is a mars."""
    index = functools.lru_cache(maxsize=None)(bo.index_of)

    @functools.lru_cache(maxsize=None)
    def val(x, y, x_on_roll):
        if sum(x) == 0:
            return 1.0, 0.0
        if sum(y) == 0:
            return 0.0, (1.0 if sum(x) == T else 0.0)
        pw = pm = 0.0
        for r in ROLLS:
            if x_on_roll:
                opts = [(val(s, y, False), index(s))
                        for s in naive_successors(x, *r, opponent=tuple(to24(y)))]
                (w, m), _ = min(opts, key=lambda o: (-(o[0][0] - lam * o[0][1]), o[1]))
            else:
                opts = [(val(x, s, True), index(s))
                        for s in naive_successors(y, *r, opponent=tuple(to24(x)))]
                (w, m), _ = min(opts, key=lambda o: (o[0][0] - lam * o[0][1], o[1]))
            pw += PROB[r] * w
            pm += PROB[r] * m
        return pw, pm
    return val


@pytest.fixture(scope="module")
def mars3():
    """T = 15 (the game) against <= 3 checkers, classic points: a few seconds."""
    return bo.MarsTable.build(3, progress=False)


@pytest.mark.slow
@pytest.mark.parametrize("T, N, rules", [(3, 2, None), (4, 2, {"scoring": "extended"})])
def test_mars_against_brute_force(T, N, rules):
    mt = bo.MarsTable.build(N, rules=rules, all_checkers=T, progress=False)
    lam = mt.lam
    assert lam == (0.5 if rules is None else 1.5)        # (mars - oin) / (2 oin): 1, 2 or 4
    ref = naive_mars(T, N, lam)
    nx, two, my = mt.shape
    assert (nx, two, my) == (math.comb(T + 5, 5), 2, math.comb(N + 6, 6))
    xs = bo.board_of(np.arange(mt.x_offset, mt.x_offset + nx))
    for i, x in enumerate(xs):
        x = tuple(int(v) for v in x)
        assert sum(x) == T
        for j in range(1, my):
            y = tuple(int(v) for v in bo.board_of(j))
            for table, x_on_roll in ((mt.x_on_roll, True), (mt.y_on_roll, False)):
                w, m = ref(x, y, x_on_roll)
                assert abs(table[i, 0, j] - w) < 1e-13 and abs(table[i, 1, j] - m) < 1e-13, \
                    (x, y, x_on_roll, table[i, :, j], (w, m))


def test_mars_race_stage_equals_two_sided_table(ts8):
    """With T - 1 <= 8 the race stage (X of <= T - 1 against Y of <= N, Y on roll) is a
    corner of the square two-sided table, bit for bit."""
    T, N = 9, 5
    mT, mL, mN = (math.comb(k + 6, 6) for k in (T, T - 1, N))
    y_on = np.empty((mT - mL, 2, mN))
    solver = _mars.MarsSolver(T, N, 0.5, y_on)
    assert (solver.n_race, solver.n_mars, solver.n_y) == (mL, mT - mL, mN)
    with pytest.raises(RuntimeError, match="race boards done"):
        solver.run_mars(np.empty((1, 2, mN)))
    solver.run_race(mL)
    bt = solver.race_table()
    assert np.array_equal(bt[1:, 1:], ts8.p_win_table[1:mN, 1:mL].T)
    solver.release()
    with pytest.raises(RuntimeError, match="released"):
        solver.race_table()


def _mars_tables(T, N, threads, block):
    """(race table, x_on_roll, y_on_roll) of the solver with ``threads`` threads (not
    capped), the mars boards solved ``block`` at a time."""
    mT, mL, mN = (math.comb(k + 6, 6) for k in (T, T - 1, N))
    y_on = np.empty((mT - mL, 2, mN))
    x_on = np.empty((mT - mL, 2, mN))
    solver = _mars.MarsSolver(T, N, 0.5, y_on, threads)
    assert solver.threads == (threads if _twosided.PTHREADS else 1)
    for k in range(1, 4):
        solver.run_race(1 + (mL - 1) * k // 3)
    bt = solver.race_table()
    done = 0
    while done < mT - mL:
        done += solver.run_mars(x_on[done:done + block])
    return bt, x_on, y_on


@pytest.mark.slow
@pytest.mark.parametrize("T, N, runs", [(8, 3, ((2, 1000), (2, 7), (3, 50))),
                                        (6, 5, ((2, 1000), (2, 100)))])
def test_mars_threads_bit_identical(T, N, runs):
    """The race stage and both mars halves of 1, 2 and 3 threads are equal bit for bit,
    whatever the blocks the mars boards are solved in, and MarsTable.build(threads=2)
    (which uses them from MARS_THREADS_MIN_Y Y boards on) gives the same table.  (More
    threads than cores work, slowly: the small case only.)"""
    one = _mars_tables(T, N, 1, 1000)
    for threads, block in runs:
        other = _mars_tables(T, N, threads, block)
        for a, b in zip(one, other):
            assert np.array_equal(a.view(np.int64), b.view(np.int64)), (threads, block)
    built = bo.MarsTable.build(N, all_checkers=T, progress=False, threads=2)
    assert np.array_equal(built.x_on_roll.view(np.int64), one[1].view(np.int64))
    assert np.array_equal(built.y_on_roll.view(np.int64), one[2].view(np.int64))


def _v(mt, i, j, table):
    return table[i, 0, j] - mt.lam * table[i, 1, j]


@pytest.mark.slow
def test_mars_bellman_equations_at_15(mars3):
    """Every sampled stored value is one ply of optimal play over the table itself (Y on
    roll), or over the table and the race stage's exact P(win) once X has a checker off
    (X on roll), with 15 checkers; moves from the bear-off generator."""
    mt = mars3
    nx, _, my = mt.shape
    y_on = np.empty((nx, 2, my))
    solver = _mars.MarsSolver(15, 3, mt.lam, y_on)
    solver.run_race(solver.n_race)
    bt = solver.race_table()                              # P(Y on roll beats X of <= 14)
    rng = np.random.default_rng(7)
    for i, j in zip(rng.integers(0, nx, 60), rng.integers(1, my, 60)):
        x = bo.board_of(mt.x_offset + i)
        y = bo.board_of(j)
        # Y on roll: minimise V over its moves; finishing is a mars
        w = m = 0.0
        for r in ROLLS:
            opts = []
            for f in _bomoves.roll_successors(y, *r):
                a, b = (0.0, 1.0) if f == 0 else (mt.x_on_roll[i, 0, f], mt.x_on_roll[i, 1, f])
                opts.append((a - mt.lam * b, f, a, b))
            best = min(opts)
            w += PROB[r] * best[2]
            m += PROB[r] * best[3]
        assert mt.y_on_roll[i, 0, j] == pytest.approx(w, abs=1e-14)
        assert mt.y_on_roll[i, 1, j] == pytest.approx(m, abs=1e-14)
        # X on roll: maximise V; a checker off leaves a plain race (no mars)
        w = m = 0.0
        for r in ROLLS:
            opts = []
            for f in _bomoves.roll_successors(x, *r):
                if f < mt.x_offset:
                    a, b = 1.0 - bt[f, j], 0.0
                else:
                    a, b = mt.y_on_roll[f - mt.x_offset, 0, j], mt.y_on_roll[f - mt.x_offset, 1, j]
                opts.append((-(a - mt.lam * b), f, a, b))
            best = min(opts)
            w += PROB[r] * best[2]
            m += PROB[r] * best[3]
        assert mt.x_on_roll[i, 0, j] == pytest.approx(w, abs=1e-14)
        assert mt.x_on_roll[i, 1, j] == pytest.approx(m, abs=1e-14)


def test_mars_bounds_and_structure(mars3):
    for table in (mars3.x_on_roll, mars3.y_on_roll):
        t = np.asarray(table)
        assert ((t >= 0) & (t <= 1)).all()
        # P(X wins) + P(Y wins a mars) <= 1 (both are parts of a partition)
        assert (t[:, 0, 1:] + t[:, 1, 1:] <= 1 + 1e-12).all()
        assert (t[:, 0, 0] == 0).all() and (t[:, 1, 0] == 1).all()   # Y finished: a mars
    # having the roll never hurts X
    assert (mars3.x_on_roll[:, 0, 1:] >= mars3.y_on_roll[:, 0, 1:] - 1e-12).all()
    # one Y checker on its 1-point (board6[0]) always finishes: with Y on roll, a mars
    j = bo.index_of([1, 0, 0, 0, 0, 0])
    assert (mars3.y_on_roll[:, 1, j] == 1).all() and (mars3.y_on_roll[:, 0, j] == 0).all()
    # X with 15 on its 24-point bears at least two off at once: never marsed then
    i = bo.index_of([15, 0, 0, 0, 0, 0]) - mars3.x_offset
    assert (mars3.x_on_roll[i, 1, 1:] == 0).all()


def test_mars_queries(mars3):
    mt = mars3
    x, y = [0, 1, 2, 3, 4, 5], [0, 1, 0, 1, 0, 0]
    i, j = bo.index_of(x) - mt.x_offset, bo.index_of(y)
    assert mt.probabilities(x, y) == (mt.x_on_roll[i, 0, j], 0.0, mt.x_on_roll[i, 1, j])
    assert mt.probabilities(y, x) == (1 - mt.y_on_roll[i, 0, j], mt.y_on_roll[i, 1, j], 0.0)
    assert mt.p_win(x, y) == mt.x_on_roll[i, 0, j]
    assert mt.p_mars_loss(x, y) == mt.x_on_roll[i, 1, j] and mt.p_mars_win(x, y) == 0
    assert mt.p_mars_win(to24(y), to24(x)) == mt.y_on_roll[i, 1, j]
    assert mt.covers(x, y) and mt.covers(y, x) and not mt.covers(x, [4, 0, 0, 0, 0, 0])
    # stacks, mixed orientations
    a = np.array([x, y, x]); b = np.array([y, x, [1, 0, 0, 0, 0, 0]])
    pw, pmw, pml = mt.probabilities(a, b)
    assert pw.shape == (3,) and pw[0] == mt.p_win(x, y) and pw[1] == mt.p_win(y, x)
    assert pmw[1] == mt.p_mars_win(y, x) and pml[2] == mt.p_mars_loss(x, [1, 0, 0, 0, 0, 0])
    assert np.array_equal(mt.p_win(x, b[[0, 2]]), pw[[0, 2]])
    with pytest.raises(ValueError, match=r"4 and 4 checkers.*all 15 and the other with 1..3"):
        mt.p_win([4, 0, 0, 0, 0, 0], [4, 0, 0, 0, 0, 0])
    with pytest.raises(ValueError, match=r"boards\[1\]: 2 and 0 checkers"):
        mt.probabilities(a[:2], np.array([y, [0] * 6]))
    with pytest.raises(ValueError, match="outside the home"):
        mt.p_win(np.eye(24, dtype=np.uint8)[0] * 15, y)
    with pytest.raises(ValueError, match="max_checkers=15"):
        bo.MarsTable.build(15, progress=False)
    with pytest.raises(ValueError, match="max_checkers=4: must be 0..3"):
        bo.MarsTable.build(4, all_checkers=4, progress=False)
    with pytest.raises(TypeError, match="all_checkers"):
        bo.MarsTable.build(1, all_checkers=2.5, progress=False)


def test_mars_points_recorded_and_matched(mars3, tmp_path):
    from nardy_fast import Rules
    assert mars3.points == (1.0, 2.0) and mars3.lam == 0.5
    assert mars3.matches(None) and not mars3.matches(Rules(scoring="extended"))
    assert mars3.matches(Rules(oin_points=2, mars_points=4))     # same ratio, same play
    meta, _ = read_db(mars3.save(tmp_path / "m.nfdb"), "mars")
    assert meta["points"] == {"oin": 1.0, "mars": 2.0} and meta["lambda"] == 0.5
    assert meta["max_checkers"] == 3 and meta["all_checkers"] == 15


def test_mars_play_depends_on_the_points():
    """With mars worth more (extended: a home mars 4), the optimal play changes somewhere
    (T = 6 against <= 3), so the table depends on the points."""
    c = bo.MarsTable.build(3, all_checkers=6, progress=False)
    e = bo.MarsTable.build(3, rules={"scoring": "extended"}, all_checkers=6, progress=False)
    assert e.lam == 1.5
    for a, b in ((c.x_on_roll, e.x_on_roll), (c.y_on_roll, e.y_on_roll)):
        assert np.abs(np.asarray(a) - np.asarray(b)).max() > 1e-6


def test_mars_files_streamed_saved_and_damaged(mars3, tmp_path):
    small = bo.MarsTable.build(1, all_checkers=5, progress=False)
    streamed = bo.MarsTable.build(1, all_checkers=5, path=tmp_path / "s.nfdb",
                                  progress=False)
    assert streamed.path == str(tmp_path / "s.nfdb")
    assert np.array_equal(streamed.x_on_roll, small.x_on_roll)
    assert np.array_equal(streamed.y_on_roll, small.y_on_roll)
    small.save(tmp_path / "m.nfdb")
    back = bo.MarsTable.load(tmp_path / "m.nfdb")
    assert back.points == small.points and back.all_checkers == 5
    assert np.array_equal(back.y_on_roll, small.y_on_roll)
    assert pickle.loads(pickle.dumps(streamed)).path == streamed.path
    raw = (tmp_path / "s.nfdb").read_bytes()
    (tmp_path / "bad.nfdb").write_bytes(raw[:-8] + bytes([raw[-8] ^ 1]) + raw[-7:])
    with pytest.raises(DatabaseError, match="checksum") as e:
        bo.MarsTable.load(tmp_path / "bad.nfdb")
    assert "bad.nfdb" in str(e.value)
    with pytest.raises(DatabaseError, match="'mars' database, expected 'two_sided'"):
        bo.TwoSided.load(tmp_path / "s.nfdb")
    (tmp_path / "short.nfdb").write_bytes(raw[:-100])
    with pytest.raises(DatabaseError, match="truncated"):
        bo.MarsTable.load(tmp_path / "short.nfdb")


def test_db_writer_streams_the_same_format(tmp_path):
    a, b = np.arange(12.0).reshape(4, 3), np.arange(5, dtype=np.int32)
    with DbWriter(tmp_path / "w.nfdb", "test", {"k": 1},
                  {"a": ("<f8", (4, 3)), "b": ("<i4", (5,))}) as w:
        w.write("a", a[:1])
        w.write("a", a[1:])
        with pytest.raises(ValueError, match="expected 'b'"):
            w.write("a", a[:1])
        w.write("b", b)
    meta, back = read_db(tmp_path / "w.nfdb", "test")
    assert meta == {"k": 1} and np.array_equal(back["a"], a) and np.array_equal(back["b"], b)
    # incomplete or failing: no file is left
    with pytest.raises(ValueError, match="incomplete"):
        with DbWriter(tmp_path / "x.nfdb", "test", {}, {"a": ("<f8", (4, 3))}) as w:
            w.write("a", a[:2])
    with pytest.raises(ValueError, match="rows of shape"):
        with DbWriter(tmp_path / "x.nfdb", "test", {}, {"a": ("<f8", (4, 3))}) as w:
            w.write("a", np.zeros((2, 2)))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["w.nfdb"]


@pytest.mark.slow
def test_two_sided_carries_a_mars_table(mars3, tmp_path):
    ts = bo.TwoSided(np.zeros((28, 28)), 2)
    assert ts.mars is None
    ts.mars = mars3
    assert ts.mars is mars3
    with pytest.raises(TypeError, match="MarsTable"):
        ts.mars = 3
    built = bo.TwoSided.build(1, progress=False, mars=True)
    assert built.mars.max_checkers == 1 and built.mars.all_checkers == 15
    back = pickle.loads(pickle.dumps(built))
    assert np.array_equal(back.mars.x_on_roll, built.mars.x_on_roll)
    # the cached default attaches the default mars table once it has been built (a query
    # never starts the long build itself)
    default = bo.two_sided(3)
    for f in glob.glob(os.path.join(bo.data_dir(), "bearoff-mars-15x2-*")):
        datadir._CACHE.pop(f, None)
        os.remove(f)
    assert bo.mars_table(2, build=False) is None
    assert default.mars is None
    table = bo.mars_table(2)                              # DEFAULT_MARS patched to 2 here
    assert table is not None and default.mars is table
    assert default.mars.matches(None)
    assert os.path.basename(default.mars.path) == "bearoff-mars-15x2-oin1-mars2.nfdb"


@settings(max_examples=60, deadline=None)
@given(st.integers(0, math.comb(20, 5) - 1), boards_upto(2), st.integers(0, 5))
def test_mars_extra_y_checker_never_helps_y(mars3, i, y, k):
    """An extra checker for Y never lowers X's value V = P(X wins) - lam P(Y mars)."""
    more = list(y)
    more[k] += 1
    j, j2 = bo.index_of(y), bo.index_of(more)
    for table in (mars3.x_on_roll, mars3.y_on_roll):
        assert _v(mars3, i, j2, table) >= _v(mars3, i, j, table) - 1e-12


def test_one_sided_default_covers_15_checkers():
    """OneSided(...) without max_checkers takes the full tables of 15 checkers:
    C(15 + 6, 6) = 54264 boards."""
    one = bo.one_sided()
    again = bo.OneSided(np.asarray(one.turns), np.asarray(one.first_off),
                        np.asarray(one.mean), np.asarray(one.mean_first_off_array))
    assert again.max_checkers == 15 and again.n_boards == 54264


def test_saved_database_is_readable_by_all(tmp_path):
    """A saved database is rw-r--r-- (0644): readable by every user of a shared cache,
    executable by none."""
    path = bo.OneSided.build(3, progress=False).save(tmp_path / "one3.nfdb")
    assert os.stat(path).st_mode & 0o777 == 0o644
    with DbWriter(tmp_path / "streamed.nfdb", "test", {}, {"a": ("<f8", (2,))}) as w:
        w.write("a", np.zeros(2))                       # the builders' streaming writer
    assert os.stat(tmp_path / "streamed.nfdb").st_mode & 0o777 == 0o644


def test_a_query_does_not_claim_to_rebuild_a_damaged_mars_table(monkeypatch, tmp_path):
    """``mars_table(build=False)`` (what race queries use) never builds: a damaged cache
    file is reported and not used, not announced as rebuilt."""
    monkeypatch.setenv(bo.DATA_ENV, str(tmp_path))
    monkeypatch.setattr(datadir, "_CACHE", {})
    table = bo.mars_table(1, threads=1, progress=False)
    path, values = Path(table.path), np.array(table.x_on_roll)
    del table
    monkeypatch.setattr(datadir, "_CACHE", {})
    _corrupt(path, lambda d: d[:-50])
    with pytest.warns(RuntimeWarning, match="not using the damaged cache file .*truncated"):
        assert bo.mars_table(1, build=False) is None
    with pytest.warns(RuntimeWarning, match="rebuilding the damaged cache file"):
        again = bo.mars_table(1, threads=1, progress=False)     # a build replaces it
    assert np.array_equal(again.x_on_roll, values)


def test_a_cache_file_of_another_size_is_not_used(monkeypatch, tmp_path):
    """A valid database of another size under a default's cache name (a copy, a
    hand-made file) was taken as that default: ``one_sided()`` answered with a table of
    3 checkers and a query of 9 failed with "this database covers at most 3"; a mars
    table of 1 served as the table of 2.  Now such a file is treated as a damaged one:
    rebuilt with a warning naming it, or (a query) not used."""
    monkeypatch.setenv(bo.DATA_ENV, str(tmp_path))
    monkeypatch.setattr(datadir, "_CACHE", {})
    bo.OneSided.build(3, progress=False).save(tmp_path / "bearoff-one-sided-15.nfdb")
    with pytest.warns(RuntimeWarning, match="bearoff-one-sided-15.nfdb.*max_checkers=3, "
                                            "expected 15"):
        one = bo.one_sided(progress=False)
    assert one.max_checkers == 15
    bo.TwoSided.build(2, progress=False).save(tmp_path / "bearoff-two-sided-3.nfdb")
    with pytest.warns(RuntimeWarning, match="max_checkers=2, expected 3"):
        assert bo.two_sided(3, progress=False).max_checkers == 3
    small = bo.MarsTable.build(1, threads=1, progress=False)
    small.save(tmp_path / "bearoff-mars-15x2-oin1-mars2.nfdb")
    with pytest.warns(RuntimeWarning, match="not using the damaged cache file .*"
                                            "max_checkers=1, expected 2"):
        assert bo.mars_table(2, build=False) is None
    # the right N, but the race of fewer than 15 checkers home
    bo.MarsTable.build(2, all_checkers=4, threads=1, progress=False).save(
        tmp_path / "bearoff-mars-15x2-oin1-mars2.nfdb")
    with pytest.warns(RuntimeWarning, match="all_checkers=4, expected 15"):
        assert bo.mars_table(2, build=False) is None


def test_two_empty_boards_are_refused_as_positions_are():
    """Both sides borne off is no state of a game (``Position`` refuses it), but the
    two-sided table answered P(win) 0 for it."""
    from nardy_fast.core._state import impossible_state
    from nardy_fast.tables import bearoff as bo
    ts = bo.TwoSided.build(2, progress=False)
    z, one = np.zeros(6, int), np.eye(6, dtype=int)[0]
    why = impossible_state(z, z)
    for query in (ts.probabilities, ts.p_win):
        with pytest.raises(ValueError) as e:
            query(z, z)
        assert str(e.value) == f"on_roll6 and opponent6: {why}"
    with pytest.raises(ValueError, match=r"opponent6\[1\]: both sides have borne off"):
        ts.p_win(np.stack([one, z]), np.stack([one, z]))
    assert (ts.p_win(one, z), ts.p_win(z, one)) == (0.0, 1.0)   # one side off: its end
