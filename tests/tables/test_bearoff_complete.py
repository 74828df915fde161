"""Tests of the complete two-sided bear-off database (nardy_fast.tables.bearoff_complete,
its C shard solver and reader): small sizes only (the complete 15 x 15 build is a
benchmark, benchmarks/bench_twosided.py).

The references are independent: today's in-memory float64 ``TwoSided`` and ``MarsTable``,
a plain-Python memoised recursion with its own move generator, and GNU Backgammon's
two-sided database (tests/data/reference/README-twosided.md).
"""
import csv
import os
import shutil
from pathlib import Path

import numpy as np
import pytest

from nardy_fast.tables import bearoff as bo
from nardy_fast.tables import bearoff_complete as bc
from nardy_fast.tables.bearoff import DatabaseError

import naive_bearoff

DATA = Path(__file__).parent.parent / "data" / "reference"
STEP = 1.0 / 65535                   # a 16-bit step of P(win) where no mars is possible
CUBE_STEP = 2.0 / 65535              # a 16-bit step of a cubeful equity (over [-1, 1])


@pytest.fixture(scope="module")
def table6(tmp_path_factory):
    return bc.build_complete(6, store=tmp_path_factory.mktemp("ts6"), progress=False,
                             threads=2, cubeful=True)


def _pairs(m):
    ia, ib = np.meshgrid(np.arange(m), np.arange(m), indexing="ij")
    return ia.ravel(), ib.ravel()


def _turn_bound(ia, ib):
    """The stated bound's factor: turns left of both sides (each turn bears off a
    board or takes >= 2 pips)."""
    pips = bo.board_of(np.arange(bo.N_BOARDS)) @ np.arange(1, 7)
    return np.ceil(pips[ia] / 2) + np.ceil(pips[ib] / 2)


def test_equals_in_memory_table_within_the_bound(table6):
    """Every pair of <= 6 checkers a side against the exact float64 TwoSided: within the
    stated bound (half a step per turn left), within 2 steps in all (measured 1.3) and
    0.4 on average (measured 0.26: rounding to nearest has no bias)."""
    exact = bo.TwoSided.build(6, progress=False)
    ia, ib = _pairs(exact.n_boards)
    w, mw, ml = table6.probabilities_of_indices(ia, ib)
    err = np.abs(w - exact.p_win_table.ravel())
    assert np.all(err <= _turn_bound(ia, ib) * STEP / 2 + 1e-12)
    assert err.max() <= 2 * STEP
    assert err.mean() <= 0.4 * STEP
    assert not mw.any() and not ml.any()              # no side of 15: no mars
    assert table6.p_win([1, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 1]) == 1.0


# ----------------------------------------------------------------------------------------
# plain-Python memoised recursion (tests/naive_bearoff.py), with mars

def test_mars_against_python_recursion(tmp_path):
    """A side of all its checkers (4, the problem in miniature) on the low points against
    small boards and against 4: v within the bound; the mars chances follow a play within
    rounding of the best (measured <= 2.7e-3 from the exact split)."""
    T = 4
    table = bc.build_complete(T, store=tmp_path, progress=False, threads=1, all_checkers=T)
    val = naive_bearoff.cubeless(T, 0.5)
    low = [b for b in (tuple(int(x) for x in bo.board_of(i)) for i in range(bo.n_boards(T)))
           if sum(b) >= 1 and not any(b[3:])]
    full = [b for b in low if sum(b) == T]
    pairs = [(a, b) for a in full for b in low] + [(b, a) for a in full for b in low]
    assert len(pairs) > 300 and any(sum(a) == sum(b) == T for a, b in pairs)
    got_v = table.value(np.array([p[0] for p in pairs]), np.array([p[1] for p in pairs]))
    w, mw, ml = table.probabilities(np.array([p[0] for p in pairs]),
                                    np.array([p[1] for p in pairs]))
    ref = np.array([val(a, b) for a, b in pairs])
    h = 2 * STEP                                      # the step with a side of T (lam 0.5)
    ia = bo.index_of(np.array([p[0] for p in pairs]))
    ib = bo.index_of(np.array([p[1] for p in pairs]))
    assert np.all(np.abs(got_v - ref[:, 0]) <= _turn_bound(ia, ib) * h / 2 + 1e-12)
    assert np.abs(got_v - ref[:, 0]).max() <= 2 * h
    assert ref[:, 2].max() > 0.5 and ref[:, 3].max() > 0.02     # both kinds of mars occur
    assert np.abs(mw - ref[:, 2]).max() < 3e-3
    assert np.abs(ml - ref[:, 3]).max() < 3e-3
    assert np.abs(w - ref[:, 1]).max() < 3e-3


def test_mars_equals_mars_table(tmp_path):
    """All T = 4 checkers against 1..3 with either side on roll: the exact float64
    MarsTable's value within the bound."""
    T = 4
    table = bc.build_complete(T, store=tmp_path, progress=False, threads=2, all_checkers=T)
    mt = bo.MarsTable.build(T - 1, all_checkers=T, progress=False, threads=1)
    off = bo.n_boards(T - 1)
    ia, ib = np.meshgrid(np.arange(off, bo.n_boards(T)), np.arange(1, off), indexing="ij")
    ia, ib = ia.ravel(), ib.ravel()
    x = mt.x_on_roll[ia - off, :, ib]
    y = mt.y_on_roll[ia - off, :, ib]
    assert np.abs(table._lookup.values(ia, ib) - (x[:, 0] - 0.5 * x[:, 1])).max() <= 2 * STEP
    assert np.abs(table._lookup.values(ib, ia) - (1 - y[:, 0] + 0.5 * y[:, 1])).max() \
        <= 2 * STEP


def test_gnubg_two_sided_reference(table6):
    """GNU Backgammon's 6x6 two-sided values (16-bit, from rounded successors): within
    1.5e-4 in P(win) (its README: an exact table agrees within about 1e-4)."""
    rows = list(csv.DictReader(open(DATA / "gnubg_twosided_6x6_sample.csv")))
    a = np.array([[int(c) for c in r["pos_on_roll"].split("-")] for r in rows])
    b = np.array([[int(c) for c in r["pos_opponent"].split("-")] for r in rows])
    ref = np.array([float(r["p_win_on_roll"]) for r in rows])
    got = table6.p_win(a, b)
    assert len(rows) > 16000
    assert np.abs(got - ref).max() < 1.5e-4
    assert np.abs(got - ref).mean() < 3e-5


def test_gnubg_cubeful_reference():
    """GNU Backgammon's cubeful values of the same pairs (money play, no gammons; the side
    on roll rolls without doubling) are the in-memory cubeful race table's for the centred
    cube and the cube of either side, within 1.5e-4 (measured 1.2e-4: gnubg's 16 bits)."""
    from nardy_fast.tables.cuberace import CubefulRace
    rows = list(csv.DictReader(open(DATA / "gnubg_twosided_6x6_sample.csv")))
    ia = bo.index_of(np.array([[int(c) for c in r["pos_on_roll"].split("-")] for r in rows]))
    ib = bo.index_of(np.array([[int(c) for c in r["pos_opponent"].split("-")] for r in rows]))
    values = np.asarray(CubefulRace.build(6, progress=False).values)
    for k, column in ((0, "cubeful_eq_centered_cube"), (1, "cubeful_eq_on_roll_owns_cube"),
                      (2, "cubeful_eq_opponent_owns_cube")):
        ref = np.array([float(r[column]) for r in rows])
        assert np.abs(values[ia, ib, k] - ref).max() < 1.5e-4, column


# ----------------------------------------------------------------------------------------
# cubeful equities (centred cube, cube of the side on roll, of the opponent)

def test_cubeful_equals_in_memory_cubeful_race(table6):
    """Every pair of 1..6 checkers a side against the exact float64 CubefulRace (the same
    recursion on unrounded values): each value is rounded to half a step (1.5e-5) from
    its rounded successors; measured within 1.5 steps in all and 0.26 on average."""
    from nardy_fast.tables.cuberace import CubefulRace
    exact = np.asarray(CubefulRace.build(6, progress=False).values)
    m = bo.n_boards(6)
    ia, ib = np.meshgrid(np.arange(1, m), np.arange(1, m), indexing="ij")
    ia, ib = ia.ravel(), ib.ravel()
    got = table6.cubeful_of_indices(ia, ib)
    err = np.abs(got - exact[ia, ib, :3])
    assert err.max() <= 2 * CUBE_STEP
    assert err.mean() <= 0.4 * CUBE_STEP
    assert got.min() >= -1 and got.max() <= 1
    # a cube of its own is worth something to the side on roll, its opponent's costs it
    assert np.all(got[:, 1] >= got[:, 0] - 2 * CUBE_STEP)
    assert np.all(got[:, 0] >= got[:, 2] - 2 * CUBE_STEP)


def test_cubeful_against_python_recursion(table6):
    """Every pair of 1..4 checkers on points 1-3 a side (moves stay there) against the
    plain-Python cubeful recursion: within 2 steps."""
    val = naive_bearoff.cubeful()
    import itertools
    boards = [c + (0, 0, 0) for c in itertools.product(range(5), repeat=3)
              if 1 <= sum(c) <= 4]
    pairs = [(a, b) for a in boards for b in boards]
    ref = np.array([val(a, b) for a, b in pairs])
    got = table6.cubeful_equities(np.array([p[0] for p in pairs]),
                                  np.array([p[1] for p in pairs]))
    assert len(pairs) == 34 ** 2
    assert np.abs(got - ref).max() <= 2 * CUBE_STEP
    assert (ref[:, 0] != ref[:, 1]).any() and (ref[:, 0] != ref[:, 2]).any()


def test_gnubg_cubeful_reference_complete(table6):
    """GNU Backgammon's cubeful 6x6 values (16 bits from rounded successors) against the
    complete table's, each state: within 1.5e-4 (gnubg's own rounding; ours is < 5e-5)."""
    rows = list(csv.DictReader(open(DATA / "gnubg_twosided_6x6_sample.csv")))
    a = np.array([[int(c) for c in r["pos_on_roll"].split("-")] for r in rows])
    b = np.array([[int(c) for c in r["pos_opponent"].split("-")] for r in rows])
    got = table6.cubeful_equities(a, b)
    for k, column in ((0, "cubeful_eq_centered_cube"), (1, "cubeful_eq_on_roll_owns_cube"),
                      (2, "cubeful_eq_opponent_owns_cube")):
        ref = np.array([float(r[column]) for r in rows])
        assert np.abs(got[:, k] - ref).max() < 1.5e-4, column


def test_cubeful_shards_resume_checked_and_thread_independent(tmp_path, monkeypatch):
    """A cubeless store gains its cubeful shards without being rebuilt; a build killed in
    the cubeful pass resumes to the bytes of one built on 2 threads at once; a damaged
    cubeful shard is refused by name; a store without them says how to build them."""
    plain = bc.build_complete(3, store=tmp_path / "a", progress=False, threads=1)
    assert not plain.cubeful
    with pytest.raises(ValueError, match="--cubeful"):
        plain.cubeful_equities([1, 0, 0, 0, 0, 0], [1, 0, 0, 0, 0, 0])
    before = _bytes(tmp_path / "a")
    write = bc._write_cube_shard
    calls = []

    def dying(*args):
        calls.append(args[1:3])
        if len(calls) == 7:
            raise KeyboardInterrupt
        return write(*args)

    monkeypatch.setattr(bc, "_write_cube_shard", dying)
    n = len(bc.shard_order(3))
    # the stop says what it kept and how to go on (it was a bare KeyboardInterrupt: the
    # command line printed "nardy-fast: interrupted" and no more)
    with pytest.raises(KeyboardInterrupt, match=rf"^two-sided bear-off cubeful 3x3: 6 of "
                       rf"{n} shards kept in .*; the same build resumes where it stopped$"):
        bc.build_complete(3, store=tmp_path / "a", progress=False, threads=1, cubeful=True)
    monkeypatch.setattr(bc, "_write_cube_shard", write)
    assert len(_bytes(tmp_path / "a", "cube-")) == 6
    resumed = bc.build_complete(3, store=tmp_path / "a", progress=False, threads=1,
                                cubeful=True)
    assert _bytes(tmp_path / "a") == before
    monkeypatch.setattr(bc, "SPMD_MIN_PAIRS", 0)      # every shard on both threads
    bc.build_complete(3, store=tmp_path / "b", progress=False, threads=2, cubeful=True)
    assert _bytes(tmp_path / "a", "cube-") == _bytes(tmp_path / "b", "cube-")
    assert len(_bytes(tmp_path / "a", "cube-")) == len(bc.shard_order(3))
    assert resumed.cubeful
    name = bc.shard_name(3, 2, cube=True)
    data = bytearray((tmp_path / "b" / name).read_bytes())
    data[-3] ^= 0x01
    (tmp_path / "b" / name).write_bytes(bytes(data))
    with pytest.raises(DatabaseError, match=name):
        bc.CompleteTwoSided.load(tmp_path / "b")


# ----------------------------------------------------------------------------------------
# shards: checksums, resume, bit-identical

def _bytes(store, prefix="shard-"):
    return {n: Path(store, n).read_bytes() for n in sorted(os.listdir(store))
            if n.startswith(prefix)}


def test_damaged_shard_is_refused_by_name(tmp_path):
    bc.build_complete(4, store=tmp_path, progress=False, threads=1)
    name = bc.shard_name(4, 3)
    path = tmp_path / name
    data = bytearray(path.read_bytes())
    data[-5] ^= 0x10                                   # alter one payload byte
    path.write_bytes(bytes(data))
    with pytest.raises(DatabaseError, match=name):
        bc.CompleteTwoSided.load(tmp_path)
    with pytest.raises(DatabaseError, match=name):   # a resumed build checks it too
        bc.build_complete(4, store=tmp_path, progress=False)
    path.write_bytes(bytes(data[:-100]))               # truncated
    with pytest.raises(DatabaseError, match=f"{name}.*truncated"):
        bc.CompleteTwoSided.load(tmp_path, verify=False)


def test_a_damaged_shard_removed_is_recomputed(tmp_path):
    """A finished store with a damaged shard: the refusal says how to go on (remove it
    and build again), and the build then recomputes that shard, to the same bytes,
    instead of refusing for ever because the manifest lists it."""
    bc.build_complete(4, store=tmp_path, progress=False, threads=1)
    good = _bytes(tmp_path)
    name = bc.shard_name(4, 3)
    path = tmp_path / name
    path.write_bytes(path.read_bytes()[:-100])          # truncated
    with pytest.raises(DatabaseError, match=f"{name}.*truncated.*remove it and run "
                                            "the build again"):
        bc.build_complete(4, store=tmp_path, progress=False, threads=1)
    path.unlink()
    with pytest.raises(DatabaseError, match=name):      # not loaded as finished
        bc.CompleteTwoSided.load(tmp_path)
    table = bc.build_complete(4, store=tmp_path, progress=False, threads=1)
    assert _bytes(tmp_path) == good
    assert table.p_win([0, 2, 0, 0, 0, 0], [0, 0, 1, 0, 0, 0]) > 0


def test_a_damaged_manifest_says_how_to_go_on(tmp_path):
    """A corrupt manifest.json stopped the build with only the parser's error; it now
    says to remove it, and the build without it keeps the shards written (checked)."""
    bc.build_complete(3, store=tmp_path, progress=False, threads=1)
    good = _bytes(tmp_path)
    (tmp_path / bc.MANIFEST).write_text('{"kind": "two_sid')
    with pytest.raises(DatabaseError, match="corrupt manifest.*remove it and run the "
                                            "build again"):
        bc.build_complete(3, store=tmp_path, progress=False, threads=1)
    (tmp_path / bc.MANIFEST).unlink()
    bc.build_complete(3, store=tmp_path, progress=False, threads=1)
    assert _bytes(tmp_path) == good


def test_loading_a_file_instead_of_a_store_names_it(tmp_path):
    """``CompleteTwoSided.load`` of a file (a shard, say) called the manifest inside it
    corrupt and said to remove it and build again; it says the path is a file, not the
    folder of a table."""
    store = tmp_path / "store"
    bc.build_complete(2, store=store, progress=False, threads=1)
    shard = store / "shard-01-00.nfdb"
    with pytest.raises(DatabaseError, match=r"shard-01-00\.nfdb: a file, not the folder of "
                                            r"a complete two-sided table") as err:
        bc.CompleteTwoSided.load(shard)
    assert "remove" not in str(err.value) and "corrupt" not in str(err.value)
    assert shard.exists()


def test_a_damaged_table_in_the_data_folder_is_not_used(private_data_folder):
    """Race queries find the complete table in the data folder; a damaged shard there
    made every race query (and the evaluator, hints, reports) fail with its error;
    now the lookups warn, naming it and how to repair it, and use the other tables."""
    import nardy_fast as nf
    store = bc.default_store(3)
    bc.build_complete(3, progress=False, threads=1)
    try:
        path = os.path.join(store, bc.shard_name(3, 2))
        with open(path, "r+b") as f:
            f.truncate(os.path.getsize(path) - 10)
        bc._LOADED.clear()
        me, you = np.zeros(24, int), np.zeros(24, int)
        me[[20, 23]] = 1
        you[[18, 21]] = 1
        with pytest.warns(RuntimeWarning, match=f"{bc.shard_name(3, 2)}.*truncated.*"
                                                "--two-sided 3"):
            o = nf.race_probabilities(nf.Position(me, you))
        assert o.method == "two_sided"
        assert "two_sided_complete_max_checkers" not in o.extra
    finally:
        shutil.rmtree(store)
        bc._LOADED.clear()


def test_a_table_built_in_the_data_folder_is_found_at_once(tmp_path, monkeypatch):
    """A lookup before the build (``complete_two_sided()``: none yet) was remembered for
    the process, so a table built afterwards in the data folder went unused, and race
    queries kept saying to build it, until a restart.  The lookups now find it at once;
    a build into another folder changes nothing for them."""
    monkeypatch.setenv("NARDY_FAST_DATA", str(tmp_path))
    try:
        assert bc.complete_two_sided() is None
        built = bc.build_complete(2, progress=False, threads=1)
        found = bc.complete_two_sided()
        assert found is not None and found.store == built.store == bc.default_store(2)
        bc.build_complete(3, store=tmp_path / "elsewhere", progress=False, threads=1)
        assert bc.complete_two_sided() is found
    finally:
        bc._LOADED.clear()


def test_killed_build_resumes_to_identical_bits(tmp_path, monkeypatch):
    """Interrupted after 12 shards (at the write of the 13th), resumed with another
    number of threads: the same bytes as one uninterrupted build."""
    whole = bc.build_complete(5, store=tmp_path / "a", progress=False, threads=1)
    write = bc._write_shard
    calls = []

    def dying(*args):
        calls.append(args[1:3])
        if len(calls) == 13:
            raise KeyboardInterrupt
        return write(*args)

    monkeypatch.setattr(bc, "_write_shard", dying)
    with pytest.raises(KeyboardInterrupt):
        bc.build_complete(5, store=tmp_path / "b", progress=False, threads=1)
    monkeypatch.setattr(bc, "_write_shard", write)
    monkeypatch.setattr(bc, "SPMD_MIN_PAIRS", 0)      # every shard on both threads
    assert len(_bytes(tmp_path / "b")) == 12
    with pytest.raises(DatabaseError, match="not finished"):
        bc.CompleteTwoSided.load(tmp_path / "b")
    resumed = bc.build_complete(5, store=tmp_path / "b", progress=False, threads=2)
    assert _bytes(tmp_path / "a") == _bytes(tmp_path / "b")
    assert len(_bytes(tmp_path / "a")) == len(bc.shard_order(5))
    assert resumed.p_win([0, 2, 0, 0, 0, 0], [0, 0, 1, 0, 0, 0]) == \
        whole.p_win([0, 2, 0, 0, 0, 0], [0, 0, 1, 0, 0, 0])


def test_threads_split_shells_to_the_same_bytes(tmp_path, monkeypatch):
    """Every shard's shells split among 1, 2 or 3 threads, mars included (all 4
    checkers in miniature): the same bytes."""
    monkeypatch.setattr(bc, "SPMD_MIN_PAIRS", 0)
    for n in (1, 2, 3):
        bc.build_complete(4, store=tmp_path / str(n), progress=False, threads=n,
                          all_checkers=4)
    assert _bytes(tmp_path / "1") == _bytes(tmp_path / "2") == _bytes(tmp_path / "3")


def test_memory_limit_and_arguments(tmp_path):
    with pytest.raises(MemoryError, match=r"shard \[3, 3\] needs"):
        bc.build_complete(3, store=tmp_path, memory="1kB", progress=False)
    assert bc.parse_memory("8GB") == 8 * 10**9 and bc.parse_memory("2GiB") == 2 << 30
    with pytest.raises(ValueError, match="memory='lots'"):
        bc.parse_memory("lots")
    with pytest.raises(ValueError, match="max_checkers"):
        bc.build_complete(16, store=tmp_path)
    bc.build_complete(2, store=tmp_path / "x", progress=False)
    with pytest.raises(ValueError, match="max_checkers: 2 there, 3 in this build"):     # a store of another table
        bc.build_complete(3, store=tmp_path / "x", progress=False)


def test_a_memory_size_that_is_no_size_is_named():
    """``memory=float("inf")`` (or a size string too large for a float) stopped with
    Python's "cannot convert float infinity to integer", and a size under a byte was
    taken as 0 bytes; each is a ValueError naming the value."""
    for bad in (float("inf"), "9" * 400 + "GB", "0.0000001", 0.5):
        with pytest.raises(ValueError, match=r"memory=.*: must be a size of at least 1 "
                                             r"byte, and finite"):
            bc.parse_memory(bad)
    assert bc.parse_memory(1) == 1 and bc.parse_memory("1.5kB") == 1500


def test_a_build_refused_for_memory_leaves_no_store(tmp_path):
    # refused before it starts: no folder or manifest that would refuse a smaller build
    store = tmp_path / "store"
    with pytest.raises(MemoryError, match=r"shard \[3, 3\] needs"):
        bc.build_complete(3, store=store, memory="1kB", progress=False)
    assert not store.exists()
    table = bc.build_complete(2, store=store, progress=False)
    assert table.max_checkers == 2


def test_a_build_that_the_memory_available_cannot_hold_is_refused_up_front(tmp_path,
                                                                            monkeypatch):
    # only --memory was checked: a build under a smaller machine or ulimit -v started, and
    # failed at its largest shard with numpy's "Unable to allocate" (the memory available
    # is injected, small)
    from nardy_fast._utils import _resources   # private on purpose: no memory, injected
    monkeypatch.setattr(_resources, "available_memory", lambda: 10 ** 6)
    store = tmp_path / "store"
    with pytest.raises(MemoryError, match=r"^shard \[3, 3\] needs about \d+ MB of memory "
                                          r"and 1 MB is available: memory=8\.0 GB is the "
                                          r"most a shard may hold, not memory there is"):
        bc.build_complete(3, store=store, progress=False)
    assert not store.exists()


def test_running_out_of_memory_says_what_is_kept(tmp_path, monkeypatch):
    # a shard that needs more than estimated: numpy's bare "Unable to allocate" said
    # nothing of the build; now what is kept and how to go on
    solve = bc.solve_shard

    def short(store, i, j, *args, **kw):
        if (i, j) == (2, 1):
            raise MemoryError("Unable to allocate 25.0 MiB for an array")
        return solve(store, i, j, *args, **kw)

    monkeypatch.setattr(bc, "solve_shard", short)
    with pytest.raises(MemoryError, match=r"^two-sided bear-off 2x2: out of memory \(Unable "
                                          r"to allocate 25\.0 MiB for an array\); 4 of 6 "
                                          r"shards kept in .*; the same build resumes"):
        bc.build_complete(2, store=tmp_path / "s", progress=False, threads=1)


def test_shard_dependencies_come_first():
    order = bc.shard_order(15)
    pos = {s: k for k, s in enumerate(order)}
    assert len(order) == 136
    assert all(pos[d] < pos[s] for s in order for d in bc.shard_deps(*s))


# ----------------------------------------------------------------------------------------
# the lookups find a built table

def test_race_lookups_use_the_built_table(built4):
    import nardy_fast as nf
    from nardy_fast.tables.race import default_race_tables
    me, you = np.zeros(24, int), np.zeros(24, int)
    me[[20, 22, 23]] = 1                               # 3 checkers: board6 (1, 0, 1, 0, 0, 0)..
    you[[18, 19, 21, 23]] = 1                          # 4 checkers
    o = nf.race_probabilities(nf.Position(me, you))
    assert o.method == "two_sided"
    assert o.extra["two_sided_complete_max_checkers"] == 4
    want = built4.probabilities(bo.to_board6(me), bo.to_board6(you))
    assert (o.p_win, o.p_mars_win, o.p_mars_loss) == want
    assert 0.0 < o.p_win < 1.0 and o.p_win != bo.TwoSided.build(4, progress=False).p_win(
        bo.to_board6(me), bo.to_board6(you))           # rounded: not the float64 table's
    rt = default_race_tables()
    assert rt.complete is bc.complete_two_sided() and rt.complete.store == built4.store
    assert rt.probabilities(me, you)[:3] == want
    assert rt.probabilities(me, you)[4] == "two_sided"
    me[[0]] = 0
    far = np.zeros(24, int)
    far[18] = 15                                       # 15 against 3: not covered by it
    o = nf.race_probabilities(nf.Position(far, me))
    assert "two_sided_complete_max_checkers" not in o.extra


def test_a_table_of_other_points_serves_only_the_races_where_no_mars_is_possible(
        tmp_path):
    """Under cube rules every win scores 1 (lam 0), so the table of classic points (lam
    0.5) was refused for every race.  Where both sides have borne off a checker no mars
    is possible and the play is the same whatever a mars scores: there its values serve
    (here in miniature, 3 checkers a side); a race where a side still has all of them
    is left to a table of the rules' own points."""
    import pickle
    from nardy_fast import Rules
    T = 3
    table = bc.build_complete(T, store=tmp_path / "classic", progress=False, threads=1,
                              all_checkers=T)
    cube = Rules(cube="geometric")
    assert not table.matches(cube)
    part = bc.serving(table, cube)
    assert part is not table and part.whole is table and part.max_checkers == T - 1
    assert part.covers(T - 1, T - 1) and not part.covers(T, 1) and not part.covers(1, T)
    ia, ib = _pairs(bo.n_boards(T - 1))
    keep = (ia > 0) | (ib > 0)
    ia, ib = ia[keep], ib[keep]
    got = part.probabilities_of_indices(ia, ib)
    for x, y in zip(got, table.probabilities_of_indices(ia, ib)):
        assert np.array_equal(x, y)
    assert not got[1].any() and not got[2].any()        # no mars below all T checkers
    with pytest.raises(ValueError, match="3 checkers, this database covers at most 2"):
        part.probabilities([T, 0, 0, 0, 0, 0], [1, 0, 0, 0, 0, 0])
    # the rules of its own points: all of it; one part only, whatever asks for it
    assert bc.serving(table, None) is table and bc.serving(part, None) is table
    assert bc.serving(part, cube) is part and bc.serving(None, cube) is None
    own = bc.build_complete(T, store=tmp_path / "cube", rules=cube, progress=False,
                            threads=1, all_checkers=T)
    assert bc.serving(own, cube) is own and own.lam == 0.0
    sent = pickle.loads(pickle.dumps(part))             # as a worker process gets it
    assert sent.max_checkers == T - 1 and sent.whole.max_checkers == T
    # a table of at most all_checkers - 1 checkers has no mars: it serves every race
    small = bc.build_complete(T - 1, store=tmp_path / "small", progress=False,
                              threads=1, all_checkers=T)
    assert bc.serving(small, cube) is small


def test_race_lookups_of_a_cube_game_use_the_classic_table_without_mars(built4):
    """A cube game's races where no mars is possible (both sides have borne off a
    checker) are valued by the complete table built for classic points, exactly as
    classic rules value them, by every lookup: ``race_probabilities``, the evaluator's
    arrays (``complete_rows``) and the C race tables of the search and rollouts.  Under
    cube rules they had fallen back to the in-memory two-sided table."""
    import nardy_fast as nf
    from nardy_fast.tables.race import complete_rows, default_race_tables
    cube = nf.Rules(cube="geometric")
    me, you = np.zeros(24, int), np.zeros(24, int)
    me[[20, 22, 23]] = 1
    you[[18, 19, 21, 23]] = 1
    pos = nf.Position(me, you)
    classic, o = nf.race_probabilities(pos), nf.race_probabilities(pos, rules=cube)
    assert o.method == "two_sided" and o.se_equity == 0.0
    assert o.extra["two_sided_complete_max_checkers"] == 4
    assert o.extra["two_sided_complete_points"] == (1.0, 2.0) == classic.extra[
        "two_sided_complete_points"]
    want = built4.probabilities(bo.to_board6(me), bo.to_board6(you))
    assert (o.p_win, o.p_mars_win, o.p_mars_loss) == want == (
        classic.p_win, classic.p_mars_win, classic.p_mars_loss)
    assert o.equity == classic.equity == 2 * o.p_win - 1
    boards = np.stack([me, you]).astype(np.uint8)[None]
    rows = complete_rows(boards, cube)
    assert rows[0].tolist() == [0]
    for x, y in zip(rows, complete_rows(boards, None)):
        assert np.array_equal(x, y)
    rt = default_race_tables(cube)
    assert rt.complete is not None and rt.complete.store == built4.store
    assert rt.probabilities(me, you)[:3] == want
    assert complete_rows(boards, nf.Rules(cube="geometric", draw_rule=True))[0].size == 0


def test_dask_client_builds_the_same_bytes(tmp_path):
    """Shards as tasks on a distributed client (in-process workers here): the bytes of
    the local build."""
    distributed = pytest.importorskip("distributed")
    bc.build_complete(4, store=tmp_path / "local", progress=False, threads=1)
    with distributed.Client(processes=False, n_workers=2, threads_per_worker=1,
                            dashboard_address=None) as client:
        bc.build_complete(4, store=tmp_path / "dask", progress=False, scheduler=client)
    assert _bytes(tmp_path / "local") == _bytes(tmp_path / "dask")


def test_one_sided_where_the_opponent_surely_finishes(table6):
    """Against a board that bears off in one turn for sure, the side on roll wins iff it
    finishes this turn: P(win) = the one-sided P(1 turn), for every board on roll."""
    one = bo.one_sided()
    m = bo.n_boards(6)
    turns = np.asarray(one.turns[:m])
    sure = np.flatnonzero(turns[:, 1] > 1 - 1e-12)
    assert len(sure) == 5                         # 1 on points 1-3, 2 on 1, 1 + 1 on 1-2
    ia, ib = np.meshgrid(np.arange(1, m), sure, indexing="ij")
    w, mw, ml = table6.probabilities_of_indices(ia.ravel(), ib.ravel())
    assert np.abs(w - turns[ia.ravel(), 1]).max() <= STEP / 2 + 1e-12


def test_a_scheduler_address_where_none_answers_is_named(tmp_path, monkeypatch):
    """``scheduler="tcp://..."`` went to ``Client(address)`` unbounded: at a port of
    another program it waited for ever; now a ``ConnectionError`` names the address."""
    pytest.importorskip("distributed")
    import functools
    import socket
    monkeypatch.setattr(bc, "connect", functools.partial(bc.connect, seconds=0.5))
    s = socket.create_server(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    with pytest.raises(ConnectionError, match=rf"scheduler tcp://127.0.0.1:{port}: "):
        bc.build_complete(2, store=tmp_path / "s", all_checkers=2, progress=False,
                          scheduler=f"tcp://127.0.0.1:{port}")


def test_two_empty_boards_are_refused_as_positions_are(tmp_path):
    """Both sides borne off is no state of a game (``Position`` refuses it), but the
    complete table answered (0, 0, 0) for it."""
    table = bc.build_complete(2, store=tmp_path, progress=False, threads=1)
    z = np.zeros(6, int)
    with pytest.raises(ValueError, match="on_roll6 and opponent6: both sides have borne "
                                         "off all 15 checkers: no game reaches this"):
        table.probabilities(z, z)


def test_board_indices_outside_the_table_are_refused_by_name(tmp_path):
    """``probabilities_of_indices`` and ``cubeful_of_indices`` read the table at the
    indices given: one past the last board, or negative, returned numbers read from
    elsewhere (a far one crashed the interpreter), and the part of a table without mars
    served a board of all the checkers.  Such an index is a ValueError naming it."""
    from nardy_fast import Rules
    T = 3
    table = bc.build_complete(T, store=tmp_path, progress=False, threads=1, all_checkers=T,
                              cubeful=True)
    n = bo.n_boards(T)
    ok = np.array([1, n - 1])
    w, _, _ = table.probabilities_of_indices(ok, ok[::-1])
    assert np.array_equal(w, table.probabilities(bo.board_of(ok), bo.board_of(ok[::-1]))[0])
    for bad in (n, -1, 10**12):
        for name, ia, ib in (("ia", [1, bad], [1, 1]), ("ib", [1, 1], [2, bad])):
            with pytest.raises(ValueError, match=rf"{name}\[1\] = {bad}: not a board of at "
                               rf"most {T} checkers \(indices 0\.\.{n - 1}\)"):
                table.probabilities_of_indices(ia, ib)
            with pytest.raises(ValueError, match=rf"{name}\[1\] = {bad}"):
                table.cubeful_of_indices(ia, ib)
    part = bc.serving(table, Rules(cube="geometric"))
    with pytest.raises(ValueError, match=rf"ia\[0\] = {n - 1}: not a board of at most "
                       rf"{T - 1} checkers"):
        part.probabilities_of_indices([n - 1], [1])
    empty = np.empty(0, np.intp)
    assert table.probabilities_of_indices(empty, empty)[0].shape == (0,)
