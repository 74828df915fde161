"""Bulk studies (nardy_fast.analysis.study): one row per position equal to its own rollout, the same
numbers whatever the batches, workers, Dask or interruptions, and stores that refuse what
is not theirs."""
import hashlib
import importlib
import inspect
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import textwrap
import time
import warnings

import pandas as pd
import pytest

pytest.importorskip("pyarrow")

import nardy_fast as nf  # noqa: E402

from helpers import ids_of, seed_of  # noqa: E402
from nardy_fast.engine.evaluation import evaluator as evmod, nets  # noqa: E402
from nardy_fast.core.rng import DICE_SCHEME, EARLIER_DICE_SCHEME  # noqa: E402
from nardy_fast.engine.play import lucknet
from nardy_fast.engine.evaluation._net import Net  # noqa: E402  (private on purpose: a small net)

study_mod = importlib.import_module("nardy_fast.analysis.study")     # the module (nf.study: the function)
SEED = 11
GAMES = 36
FAST = dict(policy="greedy", progress=False)        # C policy: a few ms per position


IDS = ids_of(12)


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    """The study of IDS run once, uninterrupted, in this process."""
    store = tmp_path_factory.mktemp("ref") / "s"
    return nf.study(IDS, GAMES, store=store, seed=SEED, workers=1, **FAST)


def parts(store):
    return sorted(f for f in os.listdir(store) if f.endswith(".parquet")
                  and not f.startswith("."))


def test_each_row_is_the_rollout_of_its_position(reference):
    assert list(reference.index) == IDS and reference.index.name == "position"
    assert reference.attrs["complete"] and (reference["n_games"] == GAMES).all()
    for pid in IDS[:4]:
        o = nf.rollout(pid, GAMES, seed=seed_of(SEED, pid), policy="greedy", workers=1,
                       progress=False)
        row = reference.loc[pid]
        assert (row["equity"], row["se_equity"], row["p_win"], row["se_p_win"],
                row["p_mars_loss"], row["mean_length"]) == \
            (o.equity, o.se_equity, o.p_win, o.se_p_win, o.p_mars_loss, o.mean_length)
    assert study_mod.position_seed(SEED, IDS[0]) == seed_of(SEED, IDS[0])


@pytest.mark.parametrize("kw", [dict(batch_size=1, workers=1), dict(batch_size=5, workers=2),
                                dict(workers=2)])
def test_same_numbers_for_any_batches_and_workers(reference, tmp_path, kw):
    frame = nf.study(IDS, GAMES, store=tmp_path / "s", seed=SEED, **kw, **FAST)
    pd.testing.assert_frame_equal(frame, reference)
    pd.testing.assert_frame_equal(nf.read_study(tmp_path / "s"), reference.sort_index())
    if "batch_size" in kw:        # one file per batch (the run's parts merged into one)
        assert len(parts(tmp_path / "s")) == 1


def test_repeats_and_positions_count_once(reference, tmp_path):
    given = [IDS[2], nf.Position.from_id(IDS[0]), IDS[2], IDS[1], IDS[0]]
    frame = nf.study(pd.Series(given), GAMES, store=tmp_path / "s", seed=SEED, workers=1,
                     **FAST)
    assert list(frame.index) == [IDS[2], IDS[0], IDS[1]]
    pd.testing.assert_frame_equal(frame, reference.loc[[IDS[2], IDS[0], IDS[1]]])
    assert len(nf.read_study(tmp_path / "s")) == 3


def counting(monkeypatch):
    """Count the positions each batch task plays (in this process: workers=1)."""
    played = []
    run = study_mod._run_batch

    def run_batch(spec):
        played.extend(spec["ids"])
        return run(spec)

    monkeypatch.setattr(study_mod, "_run_batch", run_batch)
    return played


def test_a_study_extended_later_keeps_its_rows(reference, tmp_path, monkeypatch):
    nf.study(IDS[:5], GAMES, store=tmp_path / "s", seed=SEED, workers=1, **FAST)
    played = counting(monkeypatch)
    frame = nf.study(IDS[3:], GAMES, store=tmp_path / "s", seed=SEED, workers=1, **FAST)
    assert sorted(played) == sorted(IDS[5:])                 # the stored ones skipped
    pd.testing.assert_frame_equal(frame, reference.loc[IDS[3:]])
    pd.testing.assert_frame_equal(nf.read_study(tmp_path / "s"), reference.sort_index())


def test_resume_after_a_crash_gives_the_same_numbers(reference, tmp_path, monkeypatch):
    add, written = study_mod._Store.add, []

    def add_then_crash(self, rows, settings):
        if len(written) == 6:                      # after three batches of two
            raise OSError("disk full (simulated)")
        add(self, rows, settings)
        written.extend(r["position"] for r in rows)

    monkeypatch.setattr(study_mod._Store, "add", add_then_crash)
    with pytest.raises(OSError, match="simulated"):
        nf.study(IDS, GAMES, store=tmp_path / "s", seed=SEED, workers=1, batch_size=2,
                 **FAST)
    assert len(nf.read_study(tmp_path / "s")) == 6            # three batches of two kept
    monkeypatch.setattr(study_mod._Store, "add", add)
    played = counting(monkeypatch)
    frame = nf.study(IDS, GAMES, store=tmp_path / "s", seed=SEED, workers=1, batch_size=2,
                     **FAST)
    assert sorted(played) == sorted(set(IDS) - set(written))
    pd.testing.assert_frame_equal(frame, reference)


def test_ctrl_c_keeps_the_finished_batches(reference, tmp_path, monkeypatch):
    run, calls = study_mod._run_batch, []

    def interrupt_third(spec):
        calls.append(1)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return run(spec)

    monkeypatch.setattr(study_mod, "_run_batch", interrupt_third)
    with pytest.warns(RuntimeWarning, match="4 of 12 positions done") as rec:
        part = nf.study(IDS, GAMES, store=tmp_path / "s", seed=SEED, workers=1,
                        batch_size=2, **FAST)
    assert rec[0].filename == __file__          # the warning names the caller's line
    assert not part.attrs["complete"]
    pd.testing.assert_frame_equal(part, reference.loc[IDS[:4]])
    monkeypatch.setattr(study_mod, "_run_batch", run)
    pd.testing.assert_frame_equal(nf.study(IDS, GAMES, store=tmp_path / "s", seed=SEED,
                                           workers=1, **FAST), reference)


@pytest.mark.parametrize("error, message", [
    (ConnectionError, "Dask scheduler tcp://h:8786: the work was cancelled after 3 of 6 "
                      "chunks (simulated)"),
    (ChildProcessError, "study: a worker process died after 3 of 6 chunks had finished "
                        "(simulated)")])
def test_a_lost_cluster_or_worker_says_what_the_store_keeps(reference, tmp_path, monkeypatch,
                                                            error, message):
    """The Dask scheduler lost after three batches (``parallel`` raises a
    ``ConnectionError`` naming it), or a local worker process killed (a
    ``ChildProcessError``): the error says how many positions the store keeps and
    that the same call resumes, which then gives the same numbers."""
    run_chunks = study_mod.run_chunks

    def lose_after_three(fn, specs, on_result, **kw):
        def deliver(k, rows):
            if k == 3:
                raise error(message)
            on_result(k, rows)
        return run_chunks(fn, specs, deliver, **kw)

    monkeypatch.setattr(study_mod, "run_chunks", lose_after_three)
    with pytest.raises(error, match=r"\(simulated\); 6 of 12 positions are kept "
                                    r"in .*s: run the study again to resume$"):
        nf.study(IDS, GAMES, store=tmp_path / "s", seed=SEED, workers=1, batch_size=2,
                 **FAST)
    monkeypatch.setattr(study_mod, "run_chunks", run_chunks)
    pd.testing.assert_frame_equal(nf.study(IDS, GAMES, store=tmp_path / "s", seed=SEED,
                                           workers=1, **FAST), reference)


@pytest.mark.slow
def test_resume_after_sigkill(reference, tmp_path):
    """A real process killed with SIGKILL mid-study: the rerun finishes it with the same
    numbers and removes the temporary files the dead process left."""
    store = tmp_path / "s"
    script = textwrap.dedent(f"""
        import nardy_fast as nf
        nf.study({IDS!r}, {GAMES}, store={str(store)!r}, seed={SEED}, workers=1,
                 batch_size=1, policy="greedy", progress=False)
        import time; time.sleep(60)     # never reached before the kill if it is slow
        """)
    slow = textwrap.dedent("""
        import importlib, time
        s = importlib.import_module("nardy_fast.analysis.study")
        run = s._run_batch
        s._run_batch = lambda spec: (time.sleep(0.3), run(spec))[1]
        """)
    proc = subprocess.Popen([sys.executable, "-c", slow + script])
    try:
        deadline = time.time() + 60
        while time.time() < deadline and not (store.is_dir() and len(parts(store)) >= 3):
            time.sleep(0.05)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
    finally:
        if proc.poll() is None:
            proc.kill()
    done = len(nf.read_study(store))
    assert 3 <= done < len(IDS)
    stale = store / f".part-x.parquet.{os.uname().nodename}-{proc.pid}.abc.tmp.parquet"
    stale.write_bytes(b"half a file")
    frame = nf.study(IDS, GAMES, store=store, seed=SEED, workers=1, **FAST)
    pd.testing.assert_frame_equal(frame, reference)
    assert not stale.exists()


@pytest.mark.slow
def test_dask_cluster_gives_the_local_numbers(reference, tmp_path):
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        frame = nf.study(IDS, GAMES, store=tmp_path / "s", seed=SEED, client=client,
                         batch_size=3, **FAST)
    pd.testing.assert_frame_equal(frame, reference)


def test_merged_parts_and_repeated_rows(reference, tmp_path, monkeypatch):
    monkeypatch.setattr(study_mod, "COMPACT_EVERY", 3)
    store = tmp_path / "s"
    nf.study(IDS, GAMES, store=store, seed=SEED, workers=1, batch_size=1, **FAST)
    names = parts(store)             # 12 batches: merged by 3s (4 files), nothing left over
    assert len(names) == 4 and all(n.startswith("compact-") for n in names)
    shutil.copy(store / names[0], store / "part-copy.parquet")    # a merge killed mid-way
    pd.testing.assert_frame_equal(nf.read_study(store), reference.sort_index())


def test_seed_none_resumes_with_the_stored_seed(reference, tmp_path):
    nf.study(IDS[:3], GAMES, store=tmp_path / "s", seed=SEED, workers=1, **FAST)
    frame = nf.study(IDS, GAMES, store=tmp_path / "s", workers=1, **FAST)
    pd.testing.assert_frame_equal(frame, reference)
    assert frame.attrs["study"]["seed"] == SEED


@pytest.mark.parametrize("change, field", [
    (dict(seed=SEED + 1), "seed"), (dict(policy="random"), "policy"),
    (dict(rules=nf.Rules(head_rule="generalized")), "rules"), (dict(n_games=72), "n_games"),
    (dict(truncate=None), "truncate"), (dict(method="net", n_games=0), "method")])
def test_a_store_of_another_study_is_refused(reference, tmp_path, change, field):
    store = tmp_path / "s"
    nf.study(IDS[:2], GAMES, store=store, seed=SEED, workers=1, **FAST)
    before = {n: (store / n).read_bytes() for n in os.listdir(store)}
    kw = dict(n_games=GAMES, seed=SEED, workers=1, **FAST) | change
    with pytest.raises(ValueError, match=f"belongs to another study.*{field}") as e:
        nf.study(IDS, store=store, **kw)
    assert "earlier scheme" not in str(e.value)     # a store of today's dice, resumed
    assert {n: (store / n).read_bytes() for n in os.listdir(store)} == before


def test_a_complete_two_sided_table_built_since_is_named(reference, tmp_path, monkeypatch):
    """Truncated games are valued by the complete two-sided table once it is built
    (``rollout``'s ``extra["two_sided_complete"]``): a store made without it is refused
    naming it, and a worker that values them otherwise than the study is named, as for the
    mars table (the study resumed and mixed rows of the two)."""
    from nardy_fast.tables.bearoff_complete import build_complete
    rollout_mod = importlib.import_module("nardy_fast.engine.play.rollout")
    store = tmp_path / "s"
    nf.study(IDS[:4], GAMES, store=store, seed=SEED, workers=1, **FAST)
    without = study_mod._Settings("rollout", GAMES, SEED, "greedy", None, "bearoff", 0, None)
    table = build_complete(2, store=tmp_path / "complete", threads=1, progress=False)
    monkeypatch.setattr(rollout_mod, "complete_table_for", lambda rules: table)
    with pytest.raises(ValueError, match=r"belongs to another study \(two_sided_complete: "
                                         r"None in the store, 2 here\)"):
        nf.study(IDS, GAMES, store=store, seed=SEED, workers=1, **FAST)
    assert len(nf.read_study(store)) == 4                     # nothing added
    with pytest.raises(ValueError, match="truncates with the complete two-sided table of 2 "
                                         "checkers, the study with no complete two-sided"):
        study_mod._run_batch(without.spec(IDS[:1]))
    with_table = nf.study(IDS[:2], GAMES, store=tmp_path / "t", seed=SEED, workers=1, **FAST)
    assert with_table.attrs["study"]["two_sided_complete"] == 2


@pytest.mark.parametrize("damage", ["truncate", "flip", "manifest", "foreign", "kind"])
def test_a_corrupt_store_is_refused_naming_the_file(tmp_path, damage):
    store = tmp_path / "s"
    nf.study(IDS[:4], GAMES, store=store, seed=SEED, workers=1, **FAST)
    part = store / parts(store)[0]
    if damage == "truncate":
        part.write_bytes(part.read_bytes()[:-40])
        bad = part
    elif damage == "flip":                      # a byte of the data pages, not the footer
        data = bytearray(part.read_bytes())
        data[40] ^= 0xFF
        part.write_bytes(bytes(data))
        bad = part
    elif damage == "manifest":
        bad = store / "_study.json"
        bad.write_text(bad.read_text()[:30])
    elif damage == "kind":                      # whole, but another kind of file
        bad = store / "_study.json"
        bad.write_text(json.dumps({**json.loads(bad.read_text()), "kind": "other"}))
    else:                                       # a part of another study copied in
        nf.study(IDS[:1], GAMES, store=tmp_path / "o", seed=SEED + 1, workers=1, **FAST)
        bad = store / "part-other.parquet"
        shutil.copy(tmp_path / "o" / parts(tmp_path / "o")[0], bad)
    before = {n: (store / n).read_bytes() for n in os.listdir(store)}
    for call in (lambda: nf.read_study(store),
                 lambda: nf.study(IDS, GAMES, store=store, seed=SEED, workers=1, **FAST)):
        with pytest.raises(ValueError, match=str(bad.name)):
            call()
    assert {n: (store / n).read_bytes() for n in os.listdir(store)} == before


@pytest.mark.slow
def test_a_flipped_bit_is_refused_or_harmless(reference, tmp_path):
    """Flip one bit at every 23rd byte of a stored file: each read either refuses the file
    (page checksums, the values' SHA-256, the Parquet structure) or returns the very same
    values (a bit of the footer's statistics, say)."""
    store = tmp_path / "s"
    nf.study(IDS[:3], GAMES, store=store, seed=SEED, workers=1, **FAST)
    part = store / parts(store)[0]
    data = part.read_bytes()
    refused = 0
    for offset in range(0, len(data), 23):
        flipped = bytearray(data)
        flipped[offset] ^= 1 << (offset % 8)
        part.write_bytes(bytes(flipped))
        try:
            frame = nf.read_study(store)
        except ValueError as e:
            assert part.name in str(e)
            refused += 1
            continue
        pd.testing.assert_frame_equal(frame, reference.loc[IDS[:3]].sort_index())
    assert refused > len(data) // 23 // 4


def test_what_is_not_a_study_store(tmp_path):
    (tmp_path / "notes.txt").write_text("mine")
    with pytest.raises(ValueError, match="not a study store"):
        nf.study(IDS[:1], GAMES, store=tmp_path, seed=SEED, workers=1, **FAST)
    assert os.listdir(tmp_path) == ["notes.txt"]
    with pytest.raises(ValueError, match="a file, not a study folder"):
        nf.study(IDS[:1], GAMES, store=tmp_path / "notes.txt", seed=SEED, **FAST)
    with pytest.raises(ValueError, match="no study here"):
        nf.read_study(tmp_path / "empty")


def test_bad_input_names_the_position_or_line(tmp_path):
    with pytest.raises(ValueError, match=r"positions\[1\]"):
        nf.study([IDS[0], "W_not_an_id"], GAMES, store=tmp_path / "s", seed=1, **FAST)
    with pytest.raises(ValueError, match="policy"):
        nf.study(IDS[:1], GAMES, store=tmp_path / "s", seed=1, policy=lambda c, o: c.sum(1))
    with pytest.raises(ValueError, match="n_games"):
        nf.study(IDS[:1], 0, store=tmp_path / "s", seed=1, **FAST)
    with pytest.raises(ValueError, match="method"):
        nf.study(IDS[:1], GAMES, store=tmp_path / "s", seed=1, method="exact", **FAST)
    assert not (tmp_path / "s").exists()                     # nothing written
    f = tmp_path / "ids.txt"
    f.write_text(f"# three\n{IDS[0]}\n\n{IDS[1]}  # ok\nW_bad\n")
    with pytest.raises(ValueError, match="ids.txt line 5"):
        study_mod.read_position_ids(f)


def test_a_file_of_ids_names_its_line_of_a_finished_game_and_its_bytes(tmp_path):
    """A finished game in the file was named ``positions[1]`` (the list's index, not the
    file's line), and a binary file gave the codec's "'utf-8' codec can't decode byte
    0x80 in position 7", naming no file."""
    over = "WAAAAAAAAAAAAAAAAAAAAAAAAAAAAEBCw"
    f = tmp_path / "over.txt"
    f.write_text(f"start\n# a finished game:\n{over}\n")
    with pytest.raises(ValueError, match=f"over.txt line 3: {over}: a side has borne off "
                                         r"every checker \(the game is over, or under "
                                         r"draw_rule Black has its last turn\)"):
        study_mod.read_position_ids(f)
    b = tmp_path / "b.parquet"
    b.write_bytes(b"PAR1\x15\x04\x80\x81")
    with pytest.raises(ValueError, match=r"b.parquet: not a UTF-8 text file \(invalid "):
        study_mod.read_position_ids(b)


def test_a_file_of_ids_with_a_byte_order_mark_is_read(tmp_path):
    """A byte-order mark (as Windows editors write) made the first line a bad ID:
    "line 1: position ID '\ufeff...'"."""
    f = tmp_path / "bom.txt"
    f.write_bytes(b"\xef\xbb\xbf" + f"{IDS[0]}\r\n{IDS[1]}\r\n".encode())
    assert study_mod.read_position_ids(f) == IDS[:2]


def test_variance_reduction_is_passed_only_where_rollout_has_it(tmp_path):
    has = "variance_reduction" in inspect.signature(nf.rollout).parameters
    if not has:
        with pytest.raises(ValueError, match="variance_reduction"):
            nf.study(IDS[:1], GAMES, store=tmp_path / "s", seed=1, variance_reduction=True,
                     workers=1, **FAST)
        frame = nf.study(IDS[:1], GAMES, store=tmp_path / "s", seed=1, workers=1, **FAST)
        assert frame.attrs["study"]["variance_reduction"] is None
        assert frame.attrs["study"]["estimator"] == "none"
    else:
        frame = nf.study(IDS[:1], GAMES, store=tmp_path / "s", seed=1, workers=1,
                         variance_reduction=False, **FAST)
        assert frame.attrs["study"]["variance_reduction"] is False
        o = nf.rollout(IDS[0], GAMES, seed=seed_of(1, IDS[0]), policy="greedy", workers=1,
                       progress=False, variance_reduction=False)
        assert frame["equity"].iloc[0] == o.equity
        assert frame.attrs["study"]["estimator"] == o.extra.get("estimator", "none")


def test_a_study_truncates_at_races_without_contact_as_rollout_does(tmp_path, db7,
                                                                     monkeypatch):
    """``study(..., truncate="race12")`` (``nardy-fast study --truncate race12``, which
    its help offers) was refused: "truncate='race12': expected 'bearoff' or None".  Its
    rows are now the rollouts of that truncation, and the store resumes only with it."""
    from nardy_fast.tables import race12
    from helpers import outer_position
    monkeypatch.setattr(race12, "cached_race12", lambda build=False, progress=True: db7)
    ids = [outer_position().id, IDS[0]]
    frame = nf.study(ids, GAMES, store=tmp_path / "s", seed=1, truncate="race12",
                     workers=1, **FAST)
    assert frame.attrs["study"]["truncate"] == "race12"
    for pid in ids:
        o = nf.rollout(pid, GAMES, seed=seed_of(1, pid), policy="greedy",
                       truncate="race12", workers=1, progress=False)
        assert frame.loc[pid, "equity"] == o.equity
    with pytest.raises(ValueError, match="truncate: 'race12' in the store, 'bearoff' here"):
        nf.study(ids, GAMES, store=tmp_path / "s", seed=1, workers=1, **FAST)


def test_net_method(tmp_path):
    frame = nf.study(IDS, 0, store=tmp_path / "s", method="net", plies=1, workers=1,
                     progress=False)
    direct = nf.Evaluator.default().evaluate_many(IDS, plies=1)
    assert list(frame.index) == IDS
    assert frame["equity"].tolist() == direct["equity"].tolist()
    assert frame["p_win"].tolist() == direct["p_win"].tolist()
    assert frame["se_equity"].isna().all() and (frame["n_games"] == 0).all()   # not measured
    assert frame.attrs["study"]["method"] == "net"


def test_net_studies_record_the_net_that_serves_their_rules(tmp_path, monkeypatch):
    """A study under rules with a net of their own (here a net file for
    ``block_rule="home"`` put beside the classic one) is valued by that net and records
    its digest, so it never resumes a store of another net."""
    data = tmp_path / "data"
    data.mkdir()
    shutil.copy(nets.DEFAULT_NET, data / "net_classic.nfdb")
    home = nf.Rules(block_rule="home")
    nf.Evaluator(Net.random(16, 5), rules=home, meta={"training": {"rules": home.to_dict()}}
                 ).save(data / "net_home.nfdb")
    monkeypatch.setattr(nets, "DATA", str(data))
    monkeypatch.setattr(nets, "DEFAULT_NET", str(data / "net_classic.nfdb"))
    monkeypatch.setattr(nets, "_CACHE", {})
    monkeypatch.setattr(evmod, "_CACHE", {})
    monkeypatch.setattr(study_mod, "DATA", str(data))
    monkeypatch.setattr(study_mod, "DEFAULT_NET", str(data / "net_classic.nfdb"))
    frame = nf.study(IDS[:3], 0, store=tmp_path / "h", method="net", rules=home, workers=1,
                     progress=False)
    direct = nf.Evaluator.default(home).evaluate_many(IDS[:3])
    assert frame["equity"].tolist() == direct["equity"].tolist()
    classic = nf.study(IDS[:3], 0, store=tmp_path / "c", method="net", workers=1,
                       progress=False)
    for f, name in ((frame, "net_home.nfdb"), (classic, "net_classic.nfdb")):
        assert f.attrs["study"]["net"] == "sha256:" + hashlib.sha256(
            (data / name).read_bytes()).hexdigest()[:16]


def test_a_study_records_the_rollout_net_shipped_beside_its_net(monkeypatch, tmp_path):
    """The digest a study records covers the net file and the rollout net file beside it
    (``nets.rollout_file``): rollouts are played by the one, evaluations made by the other,
    so a store is refused when either changes."""
    data = tmp_path / "data"
    data.mkdir()
    shutil.copy(nets.DEFAULT_NET, data / "net_classic.nfdb")
    monkeypatch.setattr(nets, "DATA", str(data))
    monkeypatch.setattr(study_mod, "DATA", str(data))
    alone = study_mod._net_digest(nf.Rules())
    assert alone == "sha256:" + hashlib.sha256(
        (data / "net_classic.nfdb").read_bytes()).hexdigest()[:16]
    nf.Evaluator(Net.random(16, 5)).save(data / "rollout_classic.nfdb")
    both = study_mod._net_digest(nf.Rules())
    assert both == "sha256:" + hashlib.sha256(
        (data / "net_classic.nfdb").read_bytes()
        + (data / "rollout_classic.nfdb").read_bytes()).hexdigest()[:16]
    nf.Evaluator(Net.random(16, 6)).save(data / "rollout_classic.nfdb")
    assert study_mod._net_digest(nf.Rules()) not in (alone, both)


def test_a_store_valued_by_another_net_is_refused_naming_the_net(tmp_path):
    """A store made before the shipped net changed records the old net's digest: resuming
    it is refused with both digests, not mixed with the new net's values."""
    store = tmp_path / "s"
    nf.study(IDS[:2], 0, store=store, method="net", workers=1, progress=False)
    manifest = json.loads((store / "_study.json").read_text())
    manifest["identity"]["net"] = "sha256:0123456789abcdef"      # an older net's file
    (store / "_study.json").write_text(json.dumps(manifest))
    with pytest.raises(ValueError, match="another study.*net: 'sha256:0123456789abcdef' in "
                                         "the store, 'sha256:[0-9a-f]{16}' here"):
        nf.study(IDS, 0, store=store, method="net", workers=1, progress=False)


def test_a_store_of_the_older_dice_scheme_is_refused_naming_it(tmp_path):
    """A rollout study records how its games get their dice (``rng.DICE_SCHEME``); a store
    made before the dice came game by game has none, and resuming it is refused by name
    rather than mixing two schemes' games (the same seed would no longer replay it)."""
    store = tmp_path / "s"
    frame = nf.study(IDS[:2], GAMES, store=store, seed=SEED, workers=1, **FAST)
    assert frame.attrs["study"]["dice"] == DICE_SCHEME
    manifest = json.loads((store / "_study.json").read_text())
    del manifest["identity"]["dice"]                              # a store of 0.3.0
    (store / "_study.json").write_text(json.dumps(manifest))
    earlier = re.escape(EARLIER_DICE_SCHEME)
    with pytest.raises(ValueError, match=f"another study.*dice: '{earlier}' in the store, "
                                         f"'{DICE_SCHEME}' here.*earlier scheme"
                                         ".*read_study and 'nardy-fast study show' still read"):
        nf.study(IDS, GAMES, store=store, seed=SEED, workers=1, **FAST)


def test_a_luck_net_study_records_its_luck_net_and_refuses_another(tmp_path):
    """With the ``"luck-net"`` estimator every reduced value depends on the luck net, so
    a study records the digest of its file, and a store made with another luck net is
    refused naming it; other estimators record none."""
    store = tmp_path / "s"
    frame = nf.study(IDS[:1], 8, store=store, seed=1, policy="net", workers=1,
                     variance_reduction="luck-net", progress=False)
    assert frame.attrs["study"]["estimator"] == "luck-net"
    assert frame.attrs["study"]["luck_net"] == "sha256:" + hashlib.sha256(
        open(lucknet.DEFAULT_LUCK_NET, "rb").read()).hexdigest()[:16]
    manifest = json.loads((store / "_study.json").read_text())
    manifest["identity"]["luck_net"] = "sha256:0123456789abcdef"   # an older luck net
    (store / "_study.json").write_text(json.dumps(manifest))
    with pytest.raises(ValueError, match="another study.*luck_net: 'sha256:0123456789abcdef'"
                                         " in the store"):
        nf.study(IDS[:1], 8, store=store, seed=1, policy="net", workers=1,
                 variance_reduction="luck-net", progress=False)
    plain = nf.study(IDS[:1], 8, store=tmp_path / "p", seed=1, policy="net", workers=1,
                     variance_reduction=False, progress=False)
    assert "luck_net" not in plain.attrs["study"]


def test_evaluate_the_old_name_of_net_is_refused(tmp_path):
    """``method="evaluate"`` (the name of ``"net"`` before 0.3.0) is refused as an argument;
    a store written with it still resumes (below)."""
    with pytest.raises(ValueError, match="method='evaluate': expected one of 'rollout', "
                                         "'net'"):
        nf.study(IDS[:1], 0, store=tmp_path / "e", method="evaluate")
    with pytest.raises(ValueError, match="method='evaluated': expected one of 'rollout', "
                                         "'net'"):
        nf.study(IDS[:1], 0, store=tmp_path / "x", method="evaluated")


def as_written_before_the_rename(store):
    """Rewrite a store of ``method="net"`` as versions before the method vocabulary wrote
    it: its identity spells the method "evaluate", so its digest (the manifest's key and
    every file's metadata) differs."""
    import json
    import pyarrow.parquet as pq
    manifest = json.loads((store / "_study.json").read_text())
    assert manifest["identity"]["method"] == "net"
    manifest["identity"]["method"] = "evaluate"
    key = hashlib.sha256(json.dumps(manifest["identity"], sort_keys=True).encode())
    manifest["key"] = key.hexdigest()[:32]
    for name in parts(store):
        table = pq.read_table(store / name)
        meta = {**table.schema.metadata, b"nardy_fast.study": manifest["key"].encode()}
        pq.write_table(table.replace_schema_metadata(meta), store / name,
                       write_page_checksum=True)
    (store / "_study.json").write_text(json.dumps(manifest, indent=1) + "\n")


def test_a_store_written_as_evaluate_resumes_and_reads(tmp_path):
    store = tmp_path / "s"
    first = nf.study(IDS[:3], 0, store=store, method="net", workers=1, progress=False)
    as_written_before_the_rename(store)
    before = {n: (store / n).read_bytes() for n in os.listdir(store)}
    pd.testing.assert_frame_equal(nf.read_study(store), first.sort_index())
    with warnings.catch_warnings():
        warnings.simplefilter("error", DeprecationWarning)
        again = nf.study(IDS[:3], 0, store=store, method="net", workers=1, progress=False)
        more = nf.study(IDS[:5], 0, store=store, method="net", workers=1, progress=False)
    assert {n: (store / n).read_bytes() for n in before} == before   # nothing rewritten
    pd.testing.assert_frame_equal(again, first)
    assert again.attrs["study"]["method"] == "evaluate"              # the store's spelling
    fresh = nf.study(IDS[:5], 0, store=tmp_path / "f", method="net", workers=1,
                     progress=False)
    pd.testing.assert_frame_equal(more, fresh)
    pd.testing.assert_frame_equal(nf.read_study(store), fresh.sort_index())


def test_progress_bar_counts_positions(tmp_path, capsys):
    nf.study(IDS[:4], GAMES, store=tmp_path / "s", seed=SEED, workers=1, batch_size=1,
             policy="greedy", progress=True)
    err = capsys.readouterr().err
    assert "study" in err and "4/4" in err and "pos/s" in err and "<00:00" in err


def test_positions_are_read_as_everywhere(tmp_path):
    """A non-iterable failed with Python's "'int' object is not iterable"; it is now named
    (``core.position.position_items``), before anything is written.  A numpy array of IDs
    is IDs, on resume too (the store's IDs are not read again)."""
    import numpy as np
    with pytest.raises(TypeError, match=r"^positions: expected a Position, a position ID "
                                        r"or an iterable of them, got int$"):
        nf.study(5, GAMES, store=tmp_path / "s", seed=SEED, workers=1, **FAST)
    assert not (tmp_path / "s").exists()
    first = nf.study(np.array(IDS[:2]), 0, store=tmp_path / "n", method="net",
                     workers=1, progress=False)
    again = nf.study(np.array(IDS[:3]), 0, store=tmp_path / "n", method="net",
                     workers=1, progress=False)
    assert list(again.index) == IDS[:3] and all(type(i) is str for i in again.index)
    pd.testing.assert_frame_equal(again.iloc[:2], first)


@pytest.mark.parametrize("batch_size, error", [(0, ValueError), (1.5, TypeError)])
def test_a_bad_batch_size_is_refused_before_the_store_is_made(tmp_path, batch_size, error):
    """A bad ``batch_size`` was checked only once the positions were to be played, after
    the store's folder had been made: the refusal left an empty folder behind."""
    with pytest.raises(error, match="batch_size"):
        nf.study(IDS[:2], GAMES, store=tmp_path / "s", seed=1, batch_size=batch_size,
                 workers=1, **FAST)
    assert not (tmp_path / "s").exists()


def test_without_pyarrow_a_study_names_the_extra_before_any_game(tmp_path, monkeypatch):
    """A new study rolled out its first batch of positions and only then, writing it to
    the store, found pyarrow missing: the games were lost and an empty store folder left.
    It now names the extra at once and makes no folder."""
    from nardy_fast.analysis import study as study_mod
    monkeypatch.setitem(sys.modules, "pyarrow", None)
    monkeypatch.setattr(study_mod, "_run", lambda *a: pytest.fail("games played"))
    store = tmp_path / "races.study"
    with pytest.raises(ImportError, match=r"needs pyarrow: pip install "
                                          r"'nardy_fast\[parquet\]'"):
        nf.study(nf.race_sample(2, seed=1), 36, store, seed=1, policy="random",
                 truncate=None, workers=1, progress=False)
    assert not store.exists()
