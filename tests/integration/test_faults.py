"""Faults survived, nothing lost: a Dask worker killed mid-rollout, a build interrupted or
killed, two builders at once, a read-only or full cache folder, a table too big for memory.

Faults are injected at fixed points of the work (a worker kills itself on its first move,
a build dies at its first write), never by timing.
"""
import errno
import glob
import os
import signal
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import nardy_fast as nf
from nardy_fast._utils import _dbfile, _resources, datadir  # private on purpose: faults injected
from nardy_fast.tables import bearoff
from nardy_fast.tables.bearoff import MarsTable, TwoSided
from nardy_fast.app.cli import main
from nardy_fast.core.rng import BLOCK_GAMES as B

TWO = "bearoff-two-sided-3.nfdb"


@pytest.fixture
def data(tmp_path, monkeypatch):
    """A fresh, empty cache folder for this test, and no table cached in memory."""
    folder = tmp_path / "cache"
    monkeypatch.setenv("NARDY_FAST_DATA", str(folder))
    monkeypatch.setattr(datadir, "_CACHE", {})
    return folder


def leftovers(folder):
    return sorted(os.path.basename(p) for p in glob.glob(os.path.join(folder, ".*")))


# -- a Dask worker killed mid-rollout ----------------------------------------------------
@pytest.mark.slow
def test_dask_worker_killed_mid_rollout_gives_identical_numbers(tmp_path):
    distributed = pytest.importorskip("distributed")
    marker = str(tmp_path / "killed")

    def policy(c, o):                   # the first Dask worker to play a move dies
        try:
            distributed.get_worker()
        except ValueError:              # not in a worker: the reference run
            pass
        else:
            try:
                os.close(os.open(marker, os.O_CREAT | os.O_EXCL))
            except FileExistsError:
                pass
            else:
                os.kill(os.getpid(), signal.SIGKILL)
        return -np.arange(len(c), dtype=np.float64)

    pos = nf.Position.from_id("W_wAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA")
    kw = dict(policy=("random", policy), seed=11, truncate=None, progress=False,
              chunk_size=B)
    want = nf.rollout(pos, 2 * B, workers=1, **kw)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        got = nf.rollout(pos, 2 * B, client=client, **kw)
    assert os.path.exists(marker)                      # a worker really died
    for k in ("p_win", "p_mars_win", "p_lose", "p_mars_loss", "equity", "se_equity",
              "mean_length", "games"):
        assert getattr(got, k) == getattr(want, k), k


# -- interrupted and killed builds ---------------------------------------------------------
def test_ctrl_c_during_a_cached_build_leaves_nothing_and_a_rerun_builds(data, monkeypatch):
    def interrupt(fd):
        raise KeyboardInterrupt
    with monkeypatch.context() as m:
        m.setattr(_dbfile.os, "fsync", interrupt)
        with pytest.raises(KeyboardInterrupt):
            bearoff.two_sided(3)
    assert not os.path.exists(data / TWO) and leftovers(data) == []
    ts = bearoff.two_sided(3)
    assert np.array_equal(ts.p_win_table, TwoSided.build(3, progress=False).p_win_table)


def test_ctrl_c_during_a_streamed_build_leaves_nothing(tmp_path, monkeypatch):
    path = tmp_path / "mars.nfdb"
    calls = []

    def write(self, name, block):
        calls.append(name)
        raise KeyboardInterrupt
    with monkeypatch.context() as m:
        m.setattr(_dbfile.DbWriter, "write", write)
        with pytest.raises(KeyboardInterrupt):
            MarsTable.build(1, all_checkers=3, path=path, progress=False)
    assert calls and os.listdir(tmp_path) == []
    MarsTable.build(1, all_checkers=3, path=path, progress=False)
    assert MarsTable.load(path).max_checkers == 1


KILLED = textwrap.dedent("""\
    import os, signal, sys
    from nardy_fast._utils import _dbfile      # private on purpose: a kill injected
    from nardy_fast.tables import bearoff
    def die(*args, **kwargs):               # killed at the first write of the table
        os.kill(os.getpid(), signal.SIGKILL)
    if sys.argv[1] == "cached":
        _dbfile.os.fsync = die
        bearoff.two_sided(3)
    else:
        _dbfile.DbWriter.write = die
        bearoff.MarsTable.build(1, all_checkers=3, path=sys.argv[2], progress=False)
    """)


def test_kill_during_a_cached_build_leaves_no_file_that_loads(data):
    proc = subprocess.run([sys.executable, "-c", KILLED, "cached"], capture_output=True,
                          timeout=120)
    assert proc.returncode == -signal.SIGKILL
    assert not os.path.exists(data / TWO)
    assert datadir.cached(TwoSided, TWO, None) is None     # nothing to load
    stale = leftovers(data)
    assert len(stale) == 1 and stale[0].startswith("." + TWO)   # the dead build's file
    ts = bearoff.two_sided(3)                                   # the rerun cleans up
    assert leftovers(data) == [] and TwoSided.load(data / TWO).max_checkers == 3
    assert np.array_equal(ts.p_win_table, TwoSided.build(3, progress=False).p_win_table)


def test_kill_during_a_streamed_build_leaves_no_file_that_loads(tmp_path):
    path = tmp_path / "mars.nfdb"
    proc = subprocess.run([sys.executable, "-c", KILLED, "streamed", str(path)],
                          capture_output=True, timeout=120)
    assert proc.returncode == -signal.SIGKILL
    assert not path.exists() and len(os.listdir(tmp_path)) == 1     # the dead build's file
    MarsTable.build(1, all_checkers=3, path=path, progress=False)   # the rerun cleans up
    assert os.listdir(tmp_path) == ["mars.nfdb"] and MarsTable.load(path).max_checkers == 1


BUILDER = textwrap.dedent("""\
    import os, sys, time
    from nardy_fast.tables import bearoff
    me, other = sys.argv[1], sys.argv[2]
    open(me, "w").close()                   # both start building together
    while not os.path.exists(other):
        time.sleep(0.01)
    ts = bearoff.two_sided(4)
    print(float(ts.p_win_table.sum()).hex())
    """)


def test_two_processes_building_the_same_table_both_get_a_good_one(data, tmp_path):
    procs = [subprocess.Popen([sys.executable, "-c", BUILDER, str(tmp_path / a),
                               str(tmp_path / b)], stdout=subprocess.PIPE, text=True)
             for a, b in (("a", "b"), ("b", "a"))]
    outs = [p.communicate(timeout=300)[0].strip() for p in procs]
    assert [p.returncode for p in procs] == [0, 0]
    want = float(TwoSided.build(4, progress=False).p_win_table.sum()).hex()
    assert outs == [want, want]
    assert float(TwoSided.load(data / "bearoff-two-sided-4.nfdb").p_win_table.sum()).hex() \
        == want
    assert leftovers(data) == []


# -- the cache folder: read-only, not a folder, full -----------------------------------------
def check_cache_message(e, folder):
    text = str(e)
    assert str(folder) in text and "NARDY_FAST_DATA" in text, text


@pytest.mark.skipif(hasattr(os, "geteuid") and os.geteuid() == 0,
                    reason="permission bits do not stop root")
def test_read_only_cache_folder(data):
    data.mkdir()
    data.chmod(0o555)
    try:
        with pytest.raises(OSError) as e:
            bearoff.two_sided(3)
    finally:
        data.chmod(0o755)
    check_cache_message(e.value, data)


@pytest.mark.parametrize("code", [errno.EROFS, errno.EACCES])
def test_unwritable_cache_folder_names_it_and_the_variable(data, monkeypatch, code):
    def refuse(*args, **kwargs):
        raise OSError(code, os.strerror(code))
    monkeypatch.setattr(_dbfile.tempfile, "mkstemp", refuse)    # what a read-only
    with pytest.raises(OSError) as e:                           # folder does, even to root
        bearoff.two_sided(3)
    assert e.value.errno == code and "writable folder" in str(e.value)
    check_cache_message(e.value, data)


def test_cache_folder_that_is_a_file(tmp_path, monkeypatch):
    (tmp_path / "file").write_text("")
    folder = tmp_path / "file" / "cache"
    monkeypatch.setenv("NARDY_FAST_DATA", str(folder))
    monkeypatch.setattr(datadir, "_CACHE", {})
    with pytest.raises(OSError) as e:
        bearoff.two_sided(3)
    check_cache_message(e.value, folder)


def test_full_disk_is_refused_up_front(data, monkeypatch):
    class Usage:
        free = 1000
    monkeypatch.setattr(_resources.shutil, "disk_usage", lambda folder: Usage)
    with pytest.raises(OSError) as e:
        bearoff.two_sided(3)
    assert e.value.errno == errno.ENOSPC and "1000 free" not in str(e.value)
    # sizes in the unit that shows them: 1,000 bytes were "0 MB is free"
    assert "no space left in" in str(e.value) and "1 kB is free" in str(e.value)
    check_cache_message(e.value, data)
    assert leftovers(data) == []


def test_disk_full_while_writing(data, monkeypatch):
    def full(fd):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
    monkeypatch.setattr(_dbfile.os, "fsync", full)
    with pytest.raises(OSError) as e:
        bearoff.two_sided(3)
    assert e.value.errno == errno.ENOSPC and "free some space" in str(e.value)
    check_cache_message(e.value, data)
    assert leftovers(data) == [] and not os.path.exists(data / TWO)


def test_cli_reports_an_unwritable_cache_folder_in_one_line(tmp_path, monkeypatch, capsys):
    (tmp_path / "file").write_text("")
    monkeypatch.setenv("NARDY_FAST_DATA", str(tmp_path / "file" / "cache"))
    monkeypatch.setattr(datadir, "_CACHE", {})
    assert main(["bearoff", "build", "--two-sided", "3"]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1].startswith("nardy-fast: error: cannot write the database cache folder")
    assert "NARDY_FAST_DATA" in err[-1]


# -- memory ------------------------------------------------------------------------------------
def test_a_build_that_does_not_fit_in_memory_is_refused_up_front(tmp_path, monkeypatch,
                                                                  capsys):
    monkeypatch.setattr(_resources, "available_memory", lambda: 2 * 10 ** 9)
    with pytest.raises(MemoryError, match=r"the mars table 15 vs <= 10 needs about 6\.5 GB "
                                          r"of memory and 2\.0 GB is available"):
        MarsTable.build(10, progress=False)
    with pytest.raises(MemoryError, match=r"mars table 15 vs <= 10 needs about 4\.5 GB"):
        MarsTable.build(10, progress=False, path=tmp_path / "m.nfdb")   # streamed: less
    assert os.listdir(tmp_path) == []
    with pytest.raises(MemoryError, match=r"two-sided bear-off database of 12 checkers "
                                          r"needs about 2\.8 GB"):
        TwoSided.build(12, progress=False)
    assert main(["bearoff", "build", "--two-sided", "12"]) == 1
    assert "needs about 2.8 GB of memory" in capsys.readouterr().err


def test_available_memory_is_a_plausible_figure():
    room = _resources.available_memory()
    assert room is None or 0 <= room < 1 << 50
