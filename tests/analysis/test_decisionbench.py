"""The decision benchmark's file format and scoring (``analysis.decisionbench``), on
small hand-made files whose losses are worked out here."""
import json
import math

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import nardy_fast as nf
from nardy_fast.analysis import decisionbench as db

NAN = float("nan")


def _row(k, **kw):
    row = {"decision": k, "type": "checker", "part": "heldout", "source": "net-greedy",
           "player": "net", "game": k, "ply": 20, "phase": "middle", "kind": "plain",
           "position": "", "dice1": 0, "dice2": 0, "moves": [], "ids_after": [],
           "equities": [], "ses": [], "prior": [], "cube_stake": 1, "cube_owner": "",
           "no_double": NAN, "double_take": NAN, "double_pass": NAN,
           "se_no_double": NAN, "se_double_take": NAN, "games": 36, "seed": "7"}
    row.update(kw)
    return row


def _middle():
    """A position of a seeded greedy game after 20 turns."""
    rec = nf.random_game(seed=3, policy="greedy", max_turns=20)
    return rec.final


def _checker(k, dice, equities, phase="middle"):
    """A checker decision of ``_middle()``: its first legal moves, given ``equities``
    (best first)."""
    pos = _middle()
    assert len(pos.legal_moves(dice)) >= 5
    moves = pos.legal_moves(dice)[:len(equities)]
    return _row(k, phase=phase, position=pos.id, dice1=dice[0], dice2=dice[1],
                moves=[str(m) for m in moves], ids_after=[pos.play(m).id for m in moves],
                equities=list(equities), ses=[0.01] * len(equities),
                prior=list(reversed(equities)))   # the filter ranked them otherwise


def _cube(k, nd, dt, phase="race"):
    pos = nf.Position.initial().play(nf.Position.initial().legal_moves((6, 5))[0]) \
        if k % 2 else _middle()
    return _row(k, type="cube", phase=phase, position=pos.id, cube_owner="centre",
                no_double=nd, double_take=dt, double_pass=1.0, se_no_double=0.01,
                se_double_take=0.02)


ROWS = [_checker(0, (6, 5), [0.30, 0.25, 0.10]),
        _checker(1, (3, 1), [-0.10, -0.12], phase="opening"),
        _checker(2, (4, 2), [0.05, -0.20, -0.21, -0.40], phase="late"),
        _cube(3, nd=0.40, dt=0.60),          # double, take: double/take right
        _cube(4, nd=0.50, dt=1.30)]          # double, pass: double/pass right


@pytest.fixture
def bench(tmp_path):
    return db.write_bench(tmp_path / "b.parquet", ROWS, {"games": 36, "note": "test"})


def _by_lookup(df, pick):
    """A move function that plays the candidate ``pick(equities)`` of each decision."""
    table = {(r.position, r.dice1, r.dice2): r.ids_after[pick(r.equities)]
             for r in df.itertuples() if r.type == "checker"}
    return lambda pos, dice: table[(pos.id, dice[0], dice[1])]


def test_round_trip_keeps_rows_settings_and_version(bench):
    df = db.read_bench(bench)
    assert list(df.columns) == list(db.COLUMNS)
    assert df["equities"].tolist()[2] == [0.05, -0.20, -0.21, -0.40]
    assert df["moves"].tolist()[0] == ROWS[0]["moves"]
    assert math.isnan(df["no_double"][0]) and df["double_take"][4] == 1.30
    assert db.bench_settings(bench) == {"games": 36, "note": "test"}
    meta = json.loads(pq.read_schema(bench).metadata[db.SCHEMA.encode()])
    assert meta["schema_version"] == db.SCHEMA_VERSION == 1


def test_best_player_scores_zero(bench):
    df = db.read_bench(bench)
    right = {df["position"][3]: (True, True), df["position"][4]: (True, False)}
    out = db.score(df, (_by_lookup(df, lambda e: int(np.argmax(e))),
                        lambda pos, cube: right[pos.id]))
    assert (out["error_rate"] == 0).all() and (out["blunders"] == 0).all()
    got = out.set_index(["type", "phase"])["decisions"]
    assert got[("checker", "all")] == 3 and got[("double", "all")] == 2


def test_worst_player_mean_and_blunders(bench):
    df = db.read_bench(bench)
    out = db.score(df, (_by_lookup(df, lambda e: int(np.argmin(e))), None))
    got = out.set_index(["type", "phase"])
    losses = [0.30 - 0.10, -0.10 - -0.12, 0.05 - -0.40]          # by hand
    assert got.loc[("checker", "all"), "error_rate"] == pytest.approx(
        1000 * np.mean(losses))
    assert got.loc[("checker", "all"), "se"] == pytest.approx(
        1000 * np.std(losses, ddof=1) / math.sqrt(3))
    assert got.loc[("checker", "late"), "error_rate"] == pytest.approx(450.0)
    assert got.loc[("checker", "all"), "blunders"] == 2          # 0.20 and 0.45 >= 0.16
    assert "double" not in set(out["type"])                       # cube not scored


def test_cube_losses_of_each_side(bench):
    df = db.read_bench(bench)
    no = db.decision_losses(df, None, lambda pos, cube: (False, False))
    got = no.set_index(["decision", "type"])["loss"]
    # 3: right is double/take (0.60 > 0.40): no double loses 0.20; passing loses 1 - 0.6
    assert got[(3, "double")] == pytest.approx(0.20)
    assert got[(3, "take")] == pytest.approx(0.40)
    # 4: right is double/pass (min(1.3, 1.0) = 1.0): no double loses 0.5; pass is right
    assert got[(4, "double")] == pytest.approx(0.50)
    assert got[(4, "take")] == pytest.approx(0.0)
    yes = db.decision_losses(df, None, lambda pos, cube: (True, True)) \
        .set_index(["decision", "type"])["loss"]
    assert yes[(3, "double")] == pytest.approx(0.0) and yes[(3, "take")] == 0.0
    assert yes[(4, "take")] == pytest.approx(0.30)                # took a 1.3 for 1.0


@pytest.mark.parametrize("answer", [("no-double", "pass"), "double", None, (True,),
                                    (True, True, False), (1, 0)])
def test_a_cube_answer_not_a_pair_of_booleans_is_refused(bench, answer):
    """A pair of words was scored as double and take (both are true), silently; other
    answers stopped the scoring at an unpacking error naming no decision."""
    df = db.read_bench(bench).iloc[[3]]
    with pytest.raises(ValueError, match=r"^decision 3: the player's cube answer .* is "
                       r"not a pair of booleans \(doubles, takes\)"):
        db.decision_losses(df, None, lambda pos, cube: answer)
    ok = db.decision_losses(df, None, lambda pos, cube: (np.bool_(True), True))
    assert ok["loss"].tolist() == [0.0, 0.0]


def test_a_tie_within_float_rounding_loses_nothing(tmp_path):
    """Exact table values of one bear-off can differ in their last bit (-1.0 and
    -1.0000000000000002): the second is as good as the first, loss 0, not 2e-16; a real
    difference just above ``TIE`` still counts."""
    tie = -1.0000000000000002
    rows = [_checker(0, (6, 5), [-1.0, tie], phase="bearoff"),
            _checker(1, (3, 1), [-1.0, -1.0 - 2 * db.TIE], phase="bearoff")]
    df = db.read_bench(db.write_bench(tmp_path / "t.parquet", rows, {"games": 36}))
    out = db.decision_losses(df, _by_lookup(df, lambda e: int(np.argmin(e))))
    assert 0 < -1.0 - tie < db.TIE
    assert out["loss"].tolist()[0] == 0.0
    assert out["loss"].tolist()[1] == pytest.approx(2 * db.TIE)
    rates = db.score(df.iloc[[0]], (_by_lookup(df, lambda e: int(np.argmin(e))), None))
    assert (rates["error_rate"] == 0.0).all()


def test_move_outside_candidates_counts_the_worst(bench):
    df = db.read_bench(bench).iloc[[2]]
    pos = _middle()
    listed = set(df["ids_after"].iloc[0])
    other = next(m for m in pos.legal_moves((4, 2)) if pos.play(m).id not in listed)
    out = db.decision_losses(df, lambda p, d: other)
    assert out["outside"].tolist() == [True]
    assert out["loss"].tolist() == [pytest.approx(0.45)]


@pytest.mark.parametrize("answer", [
    lambda pos, dice: "garbage",                           # no position at all
    lambda pos, dice: pos.id,                              # the position itself: no move
    lambda pos, dice: pos.legal_moves((1, 1))[0],          # a move of other dice
])
def test_an_illegal_move_is_refused_not_counted_outside(bench, answer):
    """An answer that is no legal move was counted as a legal move outside the
    candidates and charged the last candidate's loss (a lower bound), silently."""
    df = db.read_bench(bench).iloc[[2]]
    with pytest.raises(ValueError, match=r"^decision 2: the player's move .* is not a "
                       r"legal move of 42 in "):
        db.decision_losses(df, answer)


def test_a_legal_move_given_as_text_is_scored(bench):
    """A move answered in the record notation (the file's ``moves``) was taken for a
    position ID and refused as "not a legal move", though it was one."""
    df = db.read_bench(bench).iloc[[2]]
    pos = _middle()
    listed = set(df["ids_after"].iloc[0])
    other = next(m for m in pos.legal_moves((4, 2)) if pos.play(m).id not in listed)
    worst = db.decision_losses(df, lambda p, d: df["moves"].iloc[0][-1])
    assert worst["loss"].tolist() == [pytest.approx(0.45)]
    assert worst["outside"].tolist() == [False]
    out = db.decision_losses(df, lambda p, d: str(other))
    assert out["outside"].tolist() == [True]
    with pytest.raises(ValueError, match=r"^decision 2: the player's move '1/2' is not a "
                       r"legal move of 42 in "):
        db.decision_losses(df, lambda p, d: "1/2")


def test_toolkit_player_refuses_unknown_name():
    with pytest.raises(ValueError, match="'net:7'"):
        db.toolkit_player("net:7")


@pytest.mark.parametrize("name, kw", [("net", {"plies": 0}), ("net:1", {"plies": 1}),
                                      ("greedy", {"cube_probabilities": "pips"})])
def test_toolkit_players_answer_cube_decisions(name, kw):
    """Each toolkit player's cube function answers through ``cube_decision`` (a call the
    keyword-only arguments of 0.3.0 once broke: every score of a file with cube
    decisions failed)."""
    from nardy_fast.core.cubestate import CubeState
    from nardy_fast.engine.decisions.cube import cube_decision, cube_rules
    _, cube = db.toolkit_player(name)
    pos = _middle()
    for state in (CubeState(1, "centre"), CubeState(2, "mover")):
        d = cube_decision(pos, state, rules=cube_rules(None), **kw)
        assert cube(pos, state) == (d["double_action"] == "double",
                                    d["take_action"] in ("take", "beaver"))


def test_net_player_scores_its_own_moves(bench):
    df = db.read_bench(bench)
    move, cube = db.toolkit_player("net")
    out = db.decision_losses(df, move)
    ev = nf.Evaluator.default()
    for r, loss in zip(df.itertuples(), out["loss"]):
        pos = nf.Position.from_id(r.position)
        after = pos.play(ev.best_move(pos, (r.dice1, r.dice2))).id
        inside = after in r.ids_after
        want = max(r.equities) - (r.equities[r.ids_after.index(after)] if inside
                                  else min(r.equities))
        assert loss == pytest.approx(want)


def test_wrong_version_refused_by_name(tmp_path, bench):
    table = pq.read_table(bench)
    meta = {db.SCHEMA.encode(): json.dumps({"schema_version": 99, "settings": {}}).encode()}
    bad = tmp_path / "v99.parquet"
    pq.write_table(table.replace_schema_metadata(meta), bad)
    with pytest.raises(db.BenchmarkFileError, match="v99.parquet.*schema version 99"):
        db.read_bench(bad)


def test_not_a_benchmark_refused_by_name(tmp_path):
    other = tmp_path / "other.parquet"
    pq.write_table(pa.table({"x": [1, 2]}), other)
    with pytest.raises(db.BenchmarkFileError, match="other.parquet.*not a decision"):
        db.read_bench(other)
    text = tmp_path / "text.parquet"
    text.write_text("hello")
    with pytest.raises(db.BenchmarkFileError, match="text.parquet.*not a Parquet"):
        db.read_bench(text)


def test_other_columns_refused_by_name(tmp_path, bench):
    table = pq.read_table(bench)
    bad = tmp_path / "cols.parquet"
    pq.write_table(table.drop(["seed"]).replace_schema_metadata(table.schema.metadata), bad)
    with pytest.raises(db.BenchmarkFileError, match="cols.parquet.*columns"):
        db.read_bench(bad)


@pytest.mark.parametrize("change, says", [
    (lambda t: t.drop(["seed", "ses"]), r"missing columns \['ses', 'seed'\]; "),
    (lambda t: t.append_column("note", pa.array([""] * t.num_rows)),
     r"columns not in the schema \['note'\]; "),
    (lambda t: t.select(["type", "decision"] + list(db.COLUMNS[2:])),
     r"columns in the order \['type', 'decision', "),
])
def test_other_columns_named(tmp_path, bench, change, says):
    """The refusal named no column: it listed the file's columns beside the schema's 26
    for the reader to compare."""
    table = pq.read_table(bench)
    bad = tmp_path / "cols.parquet"
    pq.write_table(change(table).replace_schema_metadata(table.schema.metadata), bad)
    with pytest.raises(db.BenchmarkFileError, match=rf"^\S*cols.parquet: {says}"):
        db.read_bench(bad)


def test_a_decision_without_numbers_refused_by_name(tmp_path, bench):
    """A NaN equity (a rollout that never finished) is refused, not scored as NaN."""
    import math
    df = db.read_bench(bench)
    rows = df.to_dict("records")
    k = next(i for i, r in enumerate(rows) if r["type"] == "checker")
    rows[k]["equities"] = [math.nan] * len(rows[k]["equities"])
    path = tmp_path / "nan.parquet"
    db.write_bench(path, rows, db.bench_settings(bench))
    with pytest.raises(db.BenchmarkFileError, match=rf"decisions \[{rows[k]['decision']}\].*not "
                       "numbers"):
        db.read_bench(path)


def test_truncated_file_refused_by_name(tmp_path, bench):
    data = open(bench, "rb").read()
    cut = tmp_path / "cut.parquet"
    cut.write_bytes(data[: len(data) // 2])
    with pytest.raises(db.BenchmarkFileError, match="cut.parquet"):
        db.read_bench(cut)


@pytest.mark.parametrize("meta, says", [
    ("[1, 2]", "metadata is a JSON list, not an object"),
    ('{"schema_version": 1}', "metadata has no 'settings' object"),
    ('{"schema_version": 1, "settings": 5}', "metadata has no 'settings' object"),
])
def test_metadata_not_an_object_refused_by_name(tmp_path, bench, meta, says):
    """Metadata that is JSON but not the schema's object (or lacks its settings) was an
    AttributeError or a KeyError from inside the reader."""
    table = pq.read_table(bench)
    bad = tmp_path / "meta.parquet"
    pq.write_table(table.replace_schema_metadata({db.SCHEMA.encode(): meta.encode()}), bad)
    with pytest.raises(db.BenchmarkFileError, match=rf"meta.parquet: .*{says}"):
        db.bench_settings(bad)
    with pytest.raises(db.BenchmarkFileError, match=rf"meta.parquet: .*{says}"):
        db.read_bench(bad)


@pytest.mark.parametrize("column, value, says", [
    ("position", "garbage", "have a 'position' that is not a position ID"),
    ("dice1", 9, "have dice outside 1..6"),
    ("cube_owner", "white", "a 'cube_owner' other than"),
])
def test_a_damaged_row_refused_by_name(tmp_path, bench, column, value, says):
    """A damaged position ID or roll was read, then stopped the scoring with the
    position's or the dice's own error ("dice[0] = 9: must be 1..6"), naming neither the
    file nor the decision; a cube owned by no side was scored."""
    rows = db.read_bench(bench).to_dict("records")
    k = 3 if column == "cube_owner" else 0
    rows[k][column] = value
    path = tmp_path / "damaged.parquet"
    db.write_bench(path, rows, db.bench_settings(bench))
    with pytest.raises(db.BenchmarkFileError, match=rf"damaged.parquet: decisions \[{k}\] .*"
                       + says):
        db.read_bench(path)


def test_without_pyarrow_reading_a_file_names_the_extra(tmp_path, monkeypatch):
    """It was "No module named 'pyarrow'" (``benchmark score`` printed just that)."""
    import sys
    path = tmp_path / "b.parquet"
    db.write_bench(path, [_row(0)], {"games": 36})
    monkeypatch.setitem(sys.modules, "pyarrow", None)
    monkeypatch.setitem(sys.modules, "pyarrow.parquet", None)
    for call in (lambda: db.read_bench(path), lambda: db.bench_settings(path),
                 lambda: db.write_bench(tmp_path / "c.parquet", [_row(0)], {})):
        with pytest.raises(ImportError, match=r"^a decision benchmark file \(Parquet\) "
                                              r"needs pyarrow: pip install "
                                              r"'nardy_fast\[parquet\]'$"):
            call()
