"""``nardy-fast bearoff build --two-sided N --store DIR``: the complete two-sided table's
command (small sizes; the complete build of 15 is a benchmark)."""
import json
import shutil

import numpy as np
import pytest

from nardy_fast import Position
from nardy_fast.tables import bearoff as bo
from nardy_fast.tables import bearoff_complete as bc
from nardy_fast.tables.race import race_probabilities

from helpers import run_cli


def test_build_store_query_and_errors(capsys, tmp_path):
    store = bc.default_store(3)                      # where the lookups find it
    try:
        code, out, err = run_cli(capsys, "bearoff", "build", "--two-sided", "3",
                                 "--store", store, "--memory", "1GB", "--threads", "2",
                                 "--no-progress")
        assert code == 0 and "complete two-sided bear-off table ready" in out
        bc._LOADED.clear()
        me, you = np.zeros(24, int), np.zeros(24, int)
        me[[21, 23]] = 1
        you[[19, 22, 23]] = 1
        pos = Position(me, you)
        code, out, err = run_cli(capsys, "bearoff", "query", pos.id, "--json")
        row = json.loads(out)[0]
        assert row["method"] == "two_sided"
        table = bc.CompleteTwoSided.load(store)
        assert row["p_win"] == table.p_win(bo.to_board6(me), bo.to_board6(you))
        # resumed: nothing left to do, same table
        code, out, err = run_cli(capsys, "bearoff", "build", "--two-sided", "3",
                                 "--store", store, "--no-progress")
        assert code == 0
    finally:
        shutil.rmtree(store, ignore_errors=True)
        bc._LOADED.clear()
    code, out, err = run_cli(capsys, "bearoff", "build", "--two-sided", "3", "--store",
                             str(tmp_path / "s"), "--memory", "lots")
    assert code != 0 and "--memory" in err
    code, out, err = run_cli(capsys, "bearoff", "build", "--two-sided", "3", "--store",
                             str(tmp_path / "s"), "--memory", "1kB")
    # in the options' words and the size's own unit (it was "more than memory=0 MB")
    assert code != 0 and "needs" in err and "more than --memory 1 kB" in err


def test_a_build_the_memory_available_cannot_hold_is_refused_in_the_options_words(
        capsys, tmp_path, monkeypatch):
    # it started and failed at its largest shard with numpy's "Unable to allocate"
    from nardy_fast._utils import _resources   # private on purpose: no memory, injected
    monkeypatch.setattr(_resources, "available_memory", lambda: 10 ** 6)
    code, out, err = run_cli(capsys, "bearoff", "build", "--two-sided", "3", "--store",
                             str(tmp_path / "s"), "--memory", "2GB", "--no-progress")
    assert code != 0 and "shard [3, 3] needs about" in err
    assert "and 1 MB is available: --memory 2.0 GB is the most a shard may hold" in err
    assert not (tmp_path / "s" / "manifest.json").exists()


def test_a_store_of_other_settings_is_refused_in_the_options_words(capsys, tmp_path):
    """The refusal named the library's keywords: "store='S': ... (max_checkers: 2 there,
    3 in this build)" where the user typed --store and --two-sided."""
    store = str(tmp_path / "s")
    code, out, err = run_cli(capsys, "bearoff", "build", "--two-sided", "2", "--store",
                             store, "--no-progress")
    assert code == 0, err
    code, out, err = run_cli(capsys, "bearoff", "build", "--two-sided", "3", "--store",
                             store, "--no-progress")
    assert code == 1 and f"--store '{store}': holds a table of other settings " \
        "(--two-sided: 2 there, 3 in this build)" in err
    code, out, err = run_cli(capsys, "bearoff", "build", "--two-sided", "2", "--store",
                             store, "--rules", "scoring=extended", "--no-progress")
    assert code == 1 and "(--rules (lambda, the weight of a mars): 0.5 there, 1.5 in " \
        "this build)" in err


def test_a_table_built_where_the_lookups_do_not_look_says_so(capsys, tmp_path):
    """The help called the data folder the default --store, so a user passed it (or any
    folder) and got shards the race queries never read, with no word of it; the build
    now names the folder the lookups read, and how to load this table."""
    store = str(tmp_path / "s")
    code, out, err = run_cli(capsys, "bearoff", "build", "--two-sided", "2", "--store",
                             store, "--no-progress")
    assert code == 0, err
    assert f"read only the complete table in {bc.default_store(2)}" in out
    assert f"CompleteTwoSided.load({store!r})" in out
    with pytest.raises(SystemExit):
        run_cli(capsys, "bearoff", "build", "--help")
    assert "its own folder in the data folder" in " ".join(capsys.readouterr().out.split())
    try:                                             # where they look: nothing to add
        code, out, err = run_cli(capsys, "bearoff", "build", "--two-sided", "2",
                                 "--store", bc.default_store(2), "--no-progress")
        assert code == 0 and "read only" not in out
    finally:
        shutil.rmtree(bc.default_store(2), ignore_errors=True)
        bc._LOADED.clear()


def test_an_in_memory_two_sided_table_the_queries_do_not_use_says_so(capsys):
    """``--two-sided 2`` (or 9, 200 MB) built and cached a table the race queries never
    use (they read the table of 8), without a word, as --mars N does say for its table."""
    code, out, err = run_cli(capsys, "bearoff", "build", "--two-sided", "2",
                             "--no-progress")
    assert code == 0, err
    path = bo.two_sided(2).path
    assert "race queries and rollouts use only the two-sided table of 8" in out
    assert f"tables=TwoSided.load({path!r})" in out
    code, out, err = run_cli(capsys, "bearoff", "build", "--two-sided", "8",
                             "--no-progress")
    assert code == 0 and "use only" not in out


def test_size_out_of_range_is_refused(capsys):
    import pytest
    with pytest.raises(SystemExit):
        run_cli(capsys, "bearoff", "build", "--two-sided", "16")
    assert "--two-sided: 16: expected an integer 1..15" in capsys.readouterr().err


def test_cubeful_option(capsys, tmp_path):
    """--cubeful adds the cubeful shards to a store; without the complete table's build
    it is refused, naming what it needs."""
    code, out, err = run_cli(capsys, "bearoff", "build", "--two-sided", "2", "--store",
                             str(tmp_path), "--cubeful", "--no-progress")
    assert code == 0
    table = bc.CompleteTwoSided.load(tmp_path)
    assert table.cubeful and len(list(tmp_path.glob("cube-*.nfdb"))) == 6
    assert table.cubeful_equities([1, 0, 0, 0, 0, 0], [0, 2, 0, 0, 0, 0])[0] == 1.0
    code, out, err = run_cli(capsys, "bearoff", "build", "--cubeful")
    assert code != 0 and "--cubeful: only with --two-sided 15" in err


def test_build_never_replaces_an_out_file_unasked(capsys, tmp_path):
    mine = tmp_path / "one.db"
    mine.write_bytes(b"a user's file")
    code, out, err = run_cli(capsys, "bearoff", "build", "--out", str(mine))
    assert code == 1 and out == "" and f"--out {mine}: exists; --force" in err
    assert mine.read_bytes() == b"a user's file"
    code, out, err = run_cli(capsys, "bearoff", "build", "--out", str(mine), "--force")
    assert code == 0, err
    assert mine.stat().st_size > 1000


@pytest.mark.parametrize("extra", [["--memory", "1GB"], ["--scheduler", "tcp://x:1"],
                                   ["--store", "somewhere"], ["--two-sided", "3",
                                                              "--memory", "1GB"]])
def test_an_option_of_the_complete_build_alone_is_refused_by_name(capsys, extra):
    """--memory, --scheduler and --store belong to the complete table's build: without it
    each is named, before any work, as --cubeful is."""
    code, out, err = run_cli(capsys, "bearoff", "build", *extra, "--no-progress")
    flag = next(a for a in extra if a in ("--memory", "--scheduler", "--store"))
    assert code == 1 and out == ""
    assert f"{flag}: only with --two-sided 15, or --two-sided N --store DIR" in err


def test_a_store_that_is_a_file_and_a_mars_size_are_named(capsys, tmp_path):
    (tmp_path / "f").write_text("x")
    code, out, err = run_cli(capsys, "bearoff", "build", "--two-sided", "3", "--store",
                             str(tmp_path / "f"), "--no-progress")
    assert code == 1 and out == "" and f"--store {tmp_path / 'f'}: a file, not a folder" in err
    with pytest.raises(SystemExit):
        run_cli(capsys, "bearoff", "build", "--mars", "15")
    assert "--mars: 15: expected an integer 1..14" in capsys.readouterr().err


def test_a_mars_table_the_queries_do_not_use_says_so(capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("NARDY_FAST_DATA", str(tmp_path))
    code, out, err = run_cli(capsys, "bearoff", "build", "--mars", "1", "--threads", "1",
                             "--no-progress")
    assert code == 0 and "mars table ready" in out
    assert f"use only the mars table of {bo.DEFAULT_MARS}" in out
    me, you = np.zeros(24, int), np.zeros(24, int)
    me[18:21] = 5
    you[23] = 1
    code, out, err = run_cli(capsys, "bearoff", "query", Position(me, you).id)
    assert "one-sided approximation" in out          # as the build said: not that table
    with pytest.raises(SystemExit):
        run_cli(capsys, "bearoff", "build", "--help")
    assert f"use the table of {bo.DEFAULT_MARS}" in " ".join(capsys.readouterr().out.split())


def test_the_draw_rule_a_mars_table_cannot_hold_is_said(capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("NARDY_FAST_DATA", str(tmp_path))
    code, out, err = run_cli(capsys, "bearoff", "build", "--mars", "1", "--rules",
                             "draw_rule=true", "--threads", "1", "--no-progress")
    assert code == 0 and "mars table ready" in out
    assert "warning: --rules draw_rule=true: no effect on the mars" in err
    me, you = np.zeros(24, int), np.zeros(24, int)
    me[18:21] = 5
    you[23] = 1
    o = race_probabilities(Position(me, you), rules={"draw_rule": True},
                           tables=[bo.mars_table(1, build=False), bo.one_sided()])
    assert o.method == "one_sided"                  # as the warning said: not that table


def test_a_refused_complete_build_leaves_no_store_folder_it_made(capsys, tmp_path):
    """A --scheduler that could not be reached was refused after the one-sided database
    was reported ready, and left behind the empty --store folder the build had made; so
    did a build refused for its memory.  The address is tried first, before anything is
    built or made, and a refused build removes the folder it made."""
    pytest.importorskip("dask.distributed")
    store = tmp_path / "s"
    code, out, err = run_cli(capsys, "bearoff", "build", "--two-sided", "15", "--store",
                             str(store), "--scheduler", "nonsense", "--no-progress")
    assert code == 1 and "--scheduler nonsense: cannot connect" in err
    assert out == "" and not store.exists()
    code, out, err = run_cli(capsys, "bearoff", "build", "--two-sided", "15", "--store",
                             str(store), "--memory", "1kB", "--no-progress")
    assert code == 1 and "more than --memory 1 kB" in err and not store.exists()
    store.mkdir()                    # a folder the user made stays
    code, out, err = run_cli(capsys, "bearoff", "build", "--two-sided", "15", "--store",
                             str(store), "--memory", "1kB", "--no-progress")
    assert code == 1 and store.is_dir()
