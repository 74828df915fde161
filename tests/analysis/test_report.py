"""Reports: pip, win, move, game and convergence frames, and their export."""
import itertools
import math
import os
import re

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import nardy_fast as nf
from nardy_fast import Position, Rules
from nardy_fast.core.record import GameRecord, random_game
from nardy_fast.analysis.export import save, to_csv, to_html, to_parquet
from nardy_fast.analysis.report import (convergence_report, error_rates, evaluate,
                                        evaluate_many, game_report, move_report,
                                        pip_report, race_report, race_sample, win_report,
                                        as_positions)
from nardy_fast.engine.play.rollout import rollout

from helpers import cut_rollout_runs

# The mean pips of a roll: a non-double a-b moves a + b, a double 4a; over the 36 ordered
# rolls (294 / 36 = 49 / 6 = 8.1667 pips).  The EPC is the mean turns times this.
MEAN_ROLL_PIPS = sum(4 * a if a == b else a + b
                     for a in range(1, 7) for b in range(1, 7)) / 36

# small rollouts in this process, every game played out: fast and independent of the
# bear-off databases
FAST = dict(truncate=None, workers=1, policy="greedy")   # fast; the reports default to "net"


def positions_of_game(seed, policy="random"):
    return random_game(seed=seed, policy=policy).positions()


@st.composite
def positions(draw):
    seed = draw(st.integers(0, 10_000))
    pos = positions_of_game(seed, draw(st.sampled_from(["random", "race"])))
    return pos[draw(st.integers(0, len(pos) - 1))]


def longest_run(held):
    return max((len(list(g)) for h, g in itertools.groupby(held) if h), default=0)


@pytest.mark.slow
@settings(max_examples=40, deadline=None)
@given(st.lists(positions(), min_size=1, max_size=4))
def test_pip_report_columns(ps):
    df = pip_report(ps, epc=False)
    assert len(df) == len(ps)
    for (_, row), p in zip(df.iterrows(), ps):
        assert row["id"] == p.id and row["side"] == p.side
        assert (row["pips_mover"], row["pips_opponent"]) == p.pips
        assert row["pip_diff"] == p.pips[0] - p.pips[1]
        assert (row["off_mover"], row["off_opponent"]) == p.off
        for name, b in (("mover", p.mover), ("opponent", p.opponent)):
            assert row[f"head_{name}"] == b[0]
            assert row[f"home_{name}"] == sum(int(x) for x in b[18:])
            assert row[f"points_{name}"] == sum(1 for x in b if x)
            # along the other side's path: the mover's points 13..24 then 1..12
            path = list(b[12:]) + list(b[:12])
            assert row[f"block_{name}"] == longest_run([x > 0 for x in path])
            assert math.isnan(row[f"epc_{name}"])
        expected = ("over" if p.is_over() else "bearoff" if p.is_bearoff()
                    else "contact" if p.is_contact() else "race")
        assert row["phase"] == expected


def test_pip_report_inputs():
    ps = positions_of_game(1)[:3]
    ids = [p.id for p in ps]
    s = pd.Series(ids, index=["a", "b", "c"])
    by_series = pip_report(s, epc=False)
    assert list(by_series.index) == ["a", "b", "c"]
    by_list = pip_report(ids, epc=False)
    assert by_list.reset_index(drop=True).equals(by_series.reset_index(drop=True))
    assert len(pip_report(ps[0], epc=False)) == 1
    assert len(pip_report(ids[0], epc=False)) == 1
    assert pip_report(pd.DataFrame({"id": ids}), epc=False)["id"].tolist() == ids
    with pytest.raises(TypeError, match="positions"):
        pip_report(42)
    # no positions: no rows, but the same columns (a frame to concatenate or filter)
    empty = pip_report([], epc=False)
    assert len(empty) == 0 and list(empty.columns) == list(by_list.columns)
    with pytest.raises(ValueError, match=r"positions\[1\]: position ID 'nonsense'"):
        pip_report([ids[0], "nonsense"])
    with pytest.raises(TypeError, match=r"positions\[0\]"):
        pip_report([3.5])


def test_pip_report_reads_any_iterable_of_positions():
    """The reports read ``positions`` as the engine does (``core.position.position_list``):
    a generator or a set of IDs was a TypeError ("a list of them or a pandas Series"), as
    ``evaluate_many`` and ``rollout_many`` take them; a Series still keeps its index."""
    ids = [p.id for p in positions_of_game(1)[:3]]
    by_list = pip_report(ids, epc=False)
    assert pip_report((i for i in ids), epc=False).equals(by_list)
    assert pip_report({ids[0]}, epc=False).equals(by_list.iloc[:1])
    assert as_positions(pd.Series(ids, index=[5, 6, 7]))[1].tolist() == [5, 6, 7]
    with pytest.raises(TypeError, match=r"^positions: expected a Position, a position ID "
                                        r"or an iterable of them, got int$"):
        as_positions(42)


def test_the_reports_read_a_frame_keyed_by_position_id():
    """A frame of ``evaluate_many``, ``rollout_many`` or ``read_study`` is indexed by
    position ID (``"position"``): the reports asked it for an ``'id'`` column it does not
    have ("positions: a DataFrame needs an 'id' column of position IDs")."""
    ids = [p.id for p in positions_of_game(1)[:3]]
    keyed = pd.DataFrame({"equity": [0.1, 0.2, 0.3]},
                         index=pd.Index(ids, name="position"))
    positions, index = as_positions(keyed)
    assert [p.id for p in positions] == ids and index.tolist() == ids
    assert pip_report(keyed, epc=False)["id"].tolist() == ids
    with pytest.raises(ValueError, match=r"an 'id' column of position IDs or an index "
                                         r"named 'position'"):
        as_positions(pd.DataFrame({"equity": [0.1]}))


def test_race_report_reads_a_generator_once():
    """``race_report`` gave its positions to ``pip_report`` and then to ``win_report``:
    a generator, spent by the first, left every win column NaN (and ``method`` empty)
    without a word; a Series still keeps its index."""
    races = race_sample(3, seed=1)
    by_list = race_report(races)
    by_generator = race_report(p for p in races)
    assert by_generator["p_win"].notna().all()
    pd.testing.assert_frame_equal(by_generator, by_list)
    by_series = race_report(pd.Series([p.id for p in races], index=["a", "b", "c"]))
    assert list(by_series.index) == ["a", "b", "c"]
    assert by_series["p_win"].tolist() == by_list["p_win"].tolist()


def test_epc_of_tiny_boards_by_hand():
    """One checker on point 24 or 23 bears off in one turn whatever the roll: EPC = one
    roll's mean pips, 49/6.  One on point 19 (6 pips) needs two turns when the roll has
    fewer than 6 pips (1-1, 1-2, 1-3, 1-4, 2-3: 9 of the 36 ordered rolls; then it is on
    point 23 or 24 and any roll finishes): mean turns 1 + 9/36."""
    assert MEAN_ROLL_PIPS == pytest.approx(49 / 6, abs=1e-15)
    ps = []
    for point in (24, 23, 19):
        b = np.zeros(24, np.uint8)
        b[point - 1] = 1
        ps.append(Position.from_boards(b, b))
    df = pip_report(ps)
    want = [49 / 6, 49 / 6, (1 + 9 / 36) * 49 / 6]
    assert df["epc_mover"].tolist() == pytest.approx(want, abs=1e-12)
    assert df["epc_opponent"].tolist() == pytest.approx(want, abs=1e-12)


def test_epc_from_the_bearoff_database():
    from nardy_fast.tables import bearoff
    db = bearoff.one_sided()
    ps = race_sample(6, seed=3, kind="bearoff") + [Position.initial()]
    df = pip_report(ps)
    for (_, row), p in zip(df.iterrows(), ps):
        for name, b in (("mover", p.mover), ("opponent", p.opponent)):
            if b[:18].any():
                assert math.isnan(row[f"epc_{name}"])
            else:
                b6 = np.ascontiguousarray(b[::-1][:6])
                assert row[f"epc_{name}"] == pytest.approx(db.mean_turns(b6) * MEAN_ROLL_PIPS,
                                                           rel=1e-12)


def test_race_sample():
    for p in race_sample(20, seed=1, kind="bearoff"):
        assert p.is_bearoff()
    for p in race_sample(20, seed=1, kind="race"):
        assert not p.is_contact() and p.off == (0, 0)
        assert p.boards[:, :12].sum() == 0 and p.side == "white"
    # bearoff: each side keeps 1..15 checkers, uniformly; 300 sides see both ends
    # (each is missed with probability (14/15)**300 < 1e-8)
    kept = [int(c) for p in race_sample(150, seed=2) for c in p.boards.sum(axis=1)]
    assert min(kept) == 1 and max(kept) == 15
    assert race_sample(5, seed=9) == race_sample(5, seed=9)
    assert len(race_sample(1, seed=9)) == 1 and len(race_sample(3, seed=9)) == 3
    with pytest.raises(ValueError, match="kind"):
        race_sample(3, kind="contact")
    with pytest.raises(ValueError, match="n="):
        race_sample(0)


def test_win_report_matches_rollout():
    ps = [Position.initial(), positions_of_game(2)[30]]
    df = win_report(ps, method="rollout", n_games=200, seed=5, **FAST)
    for (_, row), p in zip(df.iterrows(), ps):
        o = rollout(p, 200, seed=5, progress=False, **FAST)
        assert row["method"] == "rollout" and row["games"] == 200
        for k in ("p_win", "p_mars_win", "p_lose", "p_mars_loss", "equity", "se_equity"):
            assert row[k] == pytest.approx(getattr(o, k))
        assert row["p_win"] + row["p_lose"] == pytest.approx(1.0)
        assert row["ci95_equity_low"] <= row["equity"] <= row["ci95_equity_high"]
        assert row["ci95_p_win_low"] < row["p_win"] < row["ci95_p_win_high"]
    assert "p_koks_win" not in df.columns and "p_draw" not in df.columns
    ext = win_report(ps[:1], method="rollout", n_games=72, seed=5,
                     rules=Rules(scoring="extended", draw_rule=True), **FAST)
    assert {"p_koks_win", "p_home_mars_loss", "p_draw"} <= set(ext.columns)


def test_win_report_finished_and_bad_arguments():
    rec = random_game(seed=4)
    final = rec.final
    res = rec.result()
    row = win_report(final).iloc[0]
    assert row["method"] == "final"
    assert row["p_lose"] == 1.0 and row["p_win"] == 0.0
    assert row["equity"] == -res["points"]
    with pytest.raises(ValueError, match="method="):
        win_report(final, method="guess")
    with pytest.raises(ValueError, match="n_games"):
        win_report(Position.initial(), n_games=0, **FAST)


def test_win_report_exact_in_the_bearoff():
    from nardy_fast.tables.race import race_probabilities
    ps = race_sample(3, seed=8, kind="bearoff")
    df = win_report(ps)
    for (_, row), p in zip(df.iterrows(), ps):
        o = race_probabilities(p)
        assert row["method"] == o.method and row["games"] == 0
        assert row["equity"] == pytest.approx(o.equity)
        if o.method.startswith("one_sided"):    # an approximation: error not measured
            assert math.isnan(row["se_equity"])
        else:                                  # an exact table
            assert row["se_equity"] == 0
    with pytest.raises(ValueError, match=r"positions\[0\]"):
        win_report(Position.initial(), method="exact")
    # method="rollout": rolled out even where the tables reach
    assert (win_report(ps, method="rollout", n_games=36, seed=1, **FAST)["games"] == 36).all()


def test_move_report_ranks_every_legal_move():
    pos = positions_of_game(6, "race")[24]
    dice = (5, 2)
    df = move_report(pos, dice, method="rollout", n_games=72, seed=3, **FAST)
    moves = pos.legal_moves(dice)
    assert len(df) == len(moves)
    assert set(df["id_after"]) == {pos.play(m).id for m in moves}
    assert list(df["rank"]) == list(range(1, len(df) + 1))
    assert (np.diff(df["equity"]) <= 0).all()
    assert df["equity_loss"].iloc[0] == 0 and (df["equity_loss"] >= 0).all()
    assert df["equity_loss"].to_numpy() == pytest.approx(df["equity"].iloc[0] - df["equity"])
    # the mover's equity is minus the opponent's after the move (same seed)
    row = df.iloc[-1]
    o = rollout(Position.from_id(row["id_after"]), 72, seed=3, progress=False, **FAST)
    assert row["equity"] == pytest.approx(-o.equity)
    assert row["p_win"] == pytest.approx(o.p_lose)
    assert row["p_mars_loss"] == pytest.approx(o.p_mars_win)


def test_move_report_single_move_and_winning_move():
    df = move_report(Position.initial(), (6, 5), n_games=36, **FAST)
    assert len(df) == 1 and df["move"].iloc[0] == str(Position.initial().legal_moves((6, 5))[0])
    mover = np.zeros(24, np.uint8)
    mover[23] = 1
    opp = np.zeros(24, np.uint8)
    opp[0] = 15
    win = move_report(Position.from_boards(mover, opp), (3, 1), **FAST)
    assert win["method"].iloc[0] == "final"
    assert win["equity"].iloc[0] == Rules().points("koks") == 2.0
    assert win["p_win"].iloc[0] == 1.0 and win["p_mars_win"].iloc[0] == 1.0
    with pytest.raises(ValueError, match=r"dice\[1\] = 7"):
        move_report(Position.initial(), (1, 7))
    with pytest.raises(ValueError, match="two dice"):
        move_report(Position.initial(), (1, 2, 3))


def test_game_report_and_error_rates(tmp_path):
    rec = random_game(seed=12, policy="race")
    gr = game_report(rec, win_prob=False)
    pos = rec.positions()
    assert len(gr) == len(rec.turns) + 1
    assert gr["id"].tolist() == [p.id for p in pos]
    assert gr["move"].iloc[-1] == "" and gr["phase"].iloc[-1] == "over"
    for (_, row), p in zip(gr.iterrows(), pos):
        w = p.white @ np.arange(24, 0, -1)
        assert row["pips_white"] == w
    assert gr["player"].iloc[0] == rec.white
    # a path works as well as a record
    from nardy_fast.core.record import write_record
    write_record(rec, tmp_path / "g.txt")
    assert game_report(tmp_path / "g.txt", win_prob=False).equals(gr)
    with pytest.raises(ValueError, match="analyse=True"):
        error_rates(gr)
    with pytest.raises(TypeError, match="record"):
        game_report(42)

    # a short game analysed: win probabilities and the equity lost per turn
    short = GameRecord(turns=random_game(seed=3, max_turns=4).turns)
    ga = game_report(short, analyse=True, method="rollout", n_games=36, **FAST)
    assert ga["p_win"].between(0, 1).all()
    white = ga["side"] == "white"
    assert (ga.loc[white, "p_win_white"] == ga.loc[white, "p_win"]).all()
    assert (ga.loc[~white, "p_win_white"] == ga.loc[~white, "p_lose"]).all()
    played = ga[ga["move"] != ""]
    last = ga.iloc[-1]                      # the final position: no turn, nothing to rank
    assert (last["move"], last["n_moves"], last["best_move"]) == ("", 0, "")
    assert math.isnan(last["equity_loss"])
    assert (played["equity_loss"] >= -1e-12).all()
    assert (played["n_moves"] >= 1).all()
    er = error_rates(ga)
    assert set(er.index) == {"white", "black"}
    assert er["equity_lost"].sum() == pytest.approx(played.loc[played["n_moves"] > 1,
                                                               "equity_loss"].sum())


def test_game_report_has_the_draws_and_the_koks_of_its_record_s_rules():
    """A record under ``draw_rule`` and extended scoring: each row gave P(win), P(lose)
    and the mars only (in a drawn game's last turns 0.8333 and 0 for White, P(draw) left
    out), and no koks or home mars, worth 3 and 4 points; the columns are now those of
    ``win_report`` for the same rules."""
    rules = Rules(draw_rule=True, scoring="extended")
    rec = next(g for g in (random_game(seed=s, rules=rules, policy="race")
                           for s in range(40)) if g.result()["kind"] == "draw")
    gr = game_report(rec, method="net")
    wr = win_report(rec.positions(), method="net", rules=rules)
    for c in ("p_draw", "p_koks_win", "p_koks_loss", "p_home_mars_win", "p_home_mars_loss"):
        assert gr[c].tolist() == wr[c].tolist(), c
    assert (gr["p_draw"] > 0).any()
    total = gr["p_win"] + gr["p_lose"] + gr["p_draw"]
    assert np.allclose(total, 1.0)
    classic = game_report(random_game(seed=1, max_turns=4), method="net")
    assert "p_draw" not in classic.columns and "p_koks_win" not in classic.columns


def test_convergence_report_is_one_run():
    sizes = [36, 72, 144]
    cv = convergence_report(Position.initial(), sizes, seed=4, **FAST)
    assert cv["games"].tolist() == sizes
    o = rollout(Position.initial(), 144, seed=4, progress=False, **FAST)
    assert cv["equity"].iloc[-1] == pytest.approx(o.equity)
    assert (cv["se_equity"] > 0).all()
    assert (cv["ci95_equity_low"] < cv["equity"]).all()
    with pytest.raises(ValueError, match="n_games"):
        convergence_report(Position.initial(), [10, -1])
    one = convergence_report(Position.initial(), 144, seed=4, **FAST)
    assert one["equity"].tolist() == cv["equity"].iloc[-1:].tolist()


def test_the_reports_that_play_games_take_progress(capsys):
    """The guide: workers, client and progress -- "every function that plays games takes
    them"; race_report and convergence_report took no progress (race_report's bar
    showed whenever standard error was a terminal, convergence_report's never)."""
    from nardy_fast.analysis.report import race_report
    races = race_sample(2, seed=1, kind="race")
    calls = [lambda progress: race_report(races, method="rollout", n_games=36, seed=1,
                                          progress=progress, **FAST),
             lambda progress: convergence_report(Position.initial(), [36], seed=1,
                                                 progress=progress, **FAST)]
    for call in calls:
        quiet = call(False)
        assert capsys.readouterr().err == ""
        shown = call(True)
        assert capsys.readouterr().err != ""
        assert shown.equals(quiet)                     # the numbers never change


@pytest.mark.parametrize("n_games, error, words", [
    ((36, 72.5), TypeError, r"n_games\[1\]=72.5: expected an integer"),
    ((), ValueError, "n_games: empty"),
    ("36", TypeError, "n_games='36': expected numbers of games"),
    (True, TypeError, "n_games=True: expected numbers of games"),
])
def test_convergence_report_names_a_bad_size(n_games, error, words):
    with pytest.raises(error, match=words):
        convergence_report(Position.initial(), n_games, seed=4, **FAST)


def test_convergence_report_names_its_position_argument():
    with pytest.raises(ValueError, match="^position: "):
        convergence_report([Position.initial()], (36,), seed=4, **FAST)


def test_convergence_report_refuses_a_position_no_game_is_rolled_out_from():
    """A race of both homes under the default truncation is valued before its first roll
    by a bear-off table: the rows said 36 and 72 games of a rollout that had played none
    (the table's value, its error 0 or NaN)."""
    race = race_sample(1, seed=1)[0]
    with pytest.raises(ValueError, match=r"^convergence_report: position .*no game is "
                                         r"rolled out.*truncate=None"):
        convergence_report(race, (36, 72), seed=1, workers=1)
    rolled = convergence_report(race, (36, 72), seed=1, workers=1, truncate=None)
    assert rolled["games"].tolist() == [36, 72] and (rolled["se_equity"] > 0).all()


def test_export_round_trips(tmp_path):
    df = pip_report(positions_of_game(5)[:5], epc=False)
    p = save(df, tmp_path / "r.csv")
    back = pd.read_csv(p)
    assert back["id"].tolist() == df["id"].tolist()
    assert back["pips_mover"].tolist() == df["pips_mover"].tolist()
    p = save(df, tmp_path / "r.parquet")
    assert pd.read_parquet(p).equals(df)
    p = save(df, tmp_path / "r.html", title="Pips <&>")
    text = open(p, encoding="utf-8").read()
    assert "Pips &lt;&amp;&gt;" in text and all(i in text for i in df["id"])
    assert "<table class=\"dataframe nardy\">" in text     # no border: the page styles it
    back = pd.read_html(p)[0]                       # lxml: in the test extras
    assert back["id"].tolist() == df["id"].tolist()
    assert back["pips_mover"].tolist() == df["pips_mover"].tolist()
    assert sorted(os.listdir(tmp_path)) == ["r.csv", "r.html", "r.parquet"]
    with pytest.raises(ValueError, match="unknown report format '.xlsx'"):
        save(df, tmp_path / "r.xlsx")
    # named index kept in CSV
    to_csv(df.set_index("id"), tmp_path / "i.csv")
    assert pd.read_csv(tmp_path / "i.csv").columns[0] == "id"
    to_parquet(df, tmp_path / "sub" / "x.parquet")
    to_html(df, tmp_path / "sub" / "x.html")
    assert sorted(os.listdir(tmp_path / "sub")) == ["x.html", "x.parquet"]


def test_error_rates_counts_are_integers_when_no_turn_had_a_choice():
    """A game whose turns were all forced gave ``errors`` as a float (0.0), and a match's
    error rates, one frame of its games, then wrote every count of errors as 1.0 in
    their CSV; the other counts were integers."""
    gr = game_report(random_game(seed=7, max_turns=2), analyse=True, progress=False)
    assert (gr.loc[gr["move"] != "", "n_moves"] == 1).all()     # forced, both
    er = error_rates(gr)
    counts = ["turns", "decisions", "errors", "n_doubtful", "n_error", "n_blunder"]
    assert all(pd.api.types.is_integer_dtype(er[c]) for c in counts), er.dtypes
    assert er["errors"].tolist() == [0, 0]


def test_error_rates_by_hand():
    """A short analysed record written out by hand: decisions are turns with more than
    one legal move, errors those losing more than 0.001 points, the rate is millipoints
    lost per decision."""
    nan = math.nan
    rows = [  # side, player, turn, move, n_moves, equity_loss
        ("white", "Ann", 1, "1/7 7/12", 3, 0.0),
        ("black", "Bob", 2, "1/5", 1, 0.0),            # forced: no decision
        ("white", "Ann", 3, "12/18", 5, 0.25),         # an error
        ("black", "Bob", 4, "5/9", 2, 0.0005),          # a decision, too small to count
        ("white", "Ann", 5, "7/10", 4, 0.002),          # an error
        ("black", "Bob", 6, "pass", 1, 0.0),            # forced
        ("white", "Ann", 7, "", 0, nan),                # the final position
    ]
    report = pd.DataFrame(rows, columns=["side", "player", "turn", "move", "n_moves",
                                         "equity_loss"])
    er = error_rates(report)
    assert list(er.index) == ["white", "black"]
    assert er.loc["white"].to_dict() == {
        "player": "Ann", "turns": 3, "decisions": 3, "errors": 2,
        "equity_lost": pytest.approx(0.252), "error_rate": pytest.approx(84.0)}  # 252 / 3
    assert er.loc["black"].to_dict() == {
        "player": "Bob", "turns": 3, "decisions": 1, "errors": 0,
        "equity_lost": pytest.approx(0.0005), "error_rate": pytest.approx(0.5)}
    # a side without a decision: nothing lost, no rate
    forced = report.assign(n_moves=[3, 1, 5, 1, 4, 1, 0])
    er = error_rates(forced)
    assert (er.loc["black", "decisions"], er.loc["black", "errors"]) == (0, 0)
    assert er.loc["black", "equity_lost"] == 0 and math.isnan(er.loc["black", "error_rate"])
    assert er.loc["white", "error_rate"] == pytest.approx(84.0)


@pytest.mark.parametrize("name", ["win_prob", "analyse", "cube"])
def test_game_report_flags_must_be_true_or_false(name):
    """game_report(record, analyse="no") analysed every move (a truthy text) and
    cube="no" judged the cube; each flag is now a TypeError naming it, before any work."""
    from nardy_fast import game_report
    with pytest.raises(TypeError, match=rf"^{name}='no': expected True or False"):
        game_report(random_game(seed=3), **{name: "no"})


def test_move_report_names_its_one_position():
    with pytest.raises(ValueError, match=r"^position: position ID 'x'"):
        move_report("x", (6, 3))
    with pytest.raises(TypeError, match=r"^position: "):
        move_report(None, (6, 3))


_FLAT_REPORTS = {
    "win_report": lambda **kw: win_report(Position.initial(), **kw),
    "evaluate": lambda **kw: evaluate(Position.initial(), **kw),
    "evaluate_many": lambda **kw: evaluate_many([Position.initial()], **kw),
    "move_report": lambda **kw: move_report(Position.initial(), (6, 3), **kw),
    "game_report": lambda **kw: game_report(random_game(seed=1, max_turns=4), **kw),
}


@pytest.mark.parametrize("name", list(_FLAT_REPORTS))
@pytest.mark.parametrize("kw, error, words", [
    (dict(method="net", plies=4), ValueError, "plies=4: expected 0..3"),
    (dict(plies=1.5), TypeError, "plies=1.5: expected an int"),
    (dict(method="rollout", n_games=0), ValueError, "n_games=0: must be >= 1"),
    (dict(method="rollout", policy="nett"), ValueError, "policy='nett': expected one of"),
    (dict(method="rollout", truncate="x"), ValueError, "truncate='x': expected"),
    (dict(method="rollout", workers=0), ValueError, "workers=0: must be >= 1"),
])
def test_a_bad_flat_keyword_is_named_as_the_report_s_own(name, kw, error, words):
    """win_report(p, plies=4) said "Net: plies=4", a bad policy "RolloutSettings:
    policy=...", n_games=0 named nothing and workers=0 named "value_positions": objects
    and helpers the caller never wrote.  Each is now the report's own argument."""
    with pytest.raises(error, match="^" + re.escape(f"{name}: {words}")):
        _FLAT_REPORTS[name](**kw)


_ONE_CORE = dict(compute=nf.Compute(workers=1, progress=False))


def test_race_report_takes_the_settings_objects_as_win_report_does():
    """race_report had no compute=, took all eleven arguments by position, and named
    helpers in its errors ("value_positions: workers=0", or "value_positions: n_games:
    not with method=Net(...)" for an n_games beside a method object, silently taken at
    its default).  It now takes compute=, keeps every argument after method
    keyword-only, and names itself."""
    races = race_sample(2, seed=1)
    rolled = nf.Rollout(nf.RolloutSettings(36, policy="greedy", truncate=None))
    by_object = race_report(races, method=rolled, seed=1, **_ONE_CORE)
    flat = race_report(races, method="rollout", n_games=36, seed=1, **FAST)
    pd.testing.assert_frame_equal(by_object, flat)
    with pytest.raises(TypeError, match="positional"):
        race_report(races, "auto", 500)
    for n in (100, 500):
        with pytest.raises(TypeError, match=r"^race_report: n_games: not with method=Net"):
            race_report(races, method=nf.Net(0), n_games=n)
    with pytest.raises(ValueError, match=r"^race_report: workers=0: must be >= 1"):
        race_report(races, method="rollout", n_games=36, workers=0)
    with pytest.raises(ValueError, match=r"^race_report: n_games=0: must be >= 1"):
        race_report(races, method="rollout", n_games=0)
    with pytest.raises(TypeError, match=r"^race_report: workers given both"):
        race_report(races, method="rollout", n_games=36, workers=1, **_ONE_CORE)


def test_convergence_report_takes_compute_and_names_itself():
    """convergence_report had no compute=, took its settings by position, and a bad
    policy or workers=0 said "rollout: ...", a function the caller never wrote."""
    pos = race_sample(1, seed=1)[0]
    kw = dict(n_games=(36, 72), seed=1, policy="greedy", truncate=None)
    pd.testing.assert_frame_equal(convergence_report(pos, **kw, **_ONE_CORE),
                                  convergence_report(pos, **kw, workers=1, progress=False))
    with pytest.raises(TypeError, match="positional"):
        convergence_report(pos, (36, 72), 1)
    with pytest.raises(ValueError, match=r"^convergence_report: policy='nett'"):
        convergence_report(pos, **{**kw, "policy": "nett"}, **_ONE_CORE)
    with pytest.raises(ValueError, match=r"^convergence_report: workers=0: must be >= 1"):
        convergence_report(pos, **kw, workers=0)
    with pytest.raises(ValueError, match=r"^convergence_report: truncate='x'"):
        convergence_report(pos, **{**kw, "truncate": "x"}, workers=1)

# -- Ctrl-C in one of several rollouts ----------------------------------------------------
_CUT = dict(method="rollout", n_games=36, seed=1, progress=False, **FAST)
_CUT_REPORTS = {       # name: (the report, the rollout run cut, the runs it makes in all)
    "game_report, analysed turns": (
        lambda: game_report(random_game(seed=1, max_turns=6), win_prob=False, analyse=True,
                            **_CUT), 2),
    "game_report, positions": (lambda: game_report(random_game(seed=1, max_turns=6),
                                                   **_CUT), 1),
    "move_report": (lambda: move_report(Position.initial(), (3, 1), **_CUT), 1),
    "win_report of one position": (lambda: win_report(Position.initial(), **_CUT), 1),
    "race_report": (lambda: race_report(race_sample(2, seed=1), **_CUT), 1),
    "convergence_report": (
        lambda: convergence_report(Position.initial(), n_games=(36, 72, 144), seed=1,
                                   policy="greedy", truncate=None, workers=1,
                                   progress=False), 1),
}


@pytest.mark.parametrize("name", list(_CUT_REPORTS))
def test_a_cut_rollout_stops_the_report_at_once(monkeypatch, name):
    """Ctrl-C in one rollout of a report (the rollout keeps its games and returns them,
    marked): the report raises KeyboardInterrupt right there, starting no later rollout
    and returning no row built on the cut one (it once went on with every later move)."""
    report, at = _CUT_REPORTS[name]
    runs = cut_rollout_runs(monkeypatch, at=at)
    with pytest.raises(KeyboardInterrupt, match="stopped at an interrupted rollout"):
        report()
    assert len(runs) == at


def test_a_candidates_loss_that_rounds_to_zero_has_no_minus_sign():
    """At a match score the moves are ranked by the match winning chance, so a move of
    equal chances can sit below one whose equity is 2e-16 lower (float rounding): its
    ``equity_loss`` rounded to -0.0 in the candidates' JSON (``-0.0`` in
    ``analyse --json``).  It is 0.0."""
    import json
    from nardy_fast.core.matchrules import MatchRules, MatchState
    from nardy_fast.core.record import Turn
    start = Position.from_id("BAAAAAAAAAAAAAAAAAAAAAAAAEBAQECBC")    # Black loses anyway
    rec = GameRecord(start=start, turns=[Turn("black", (2, 5), ((23, "off"), (19, 24)))])
    mr = MatchRules(length=3, crawford=True, rules=Rules(cube="geometric"))
    gr = game_report(rec, analyse=True, match=MatchState(mr, (2, 0), "black", crawford=True))
    text = gr["candidates"].iloc[0]
    assert "-0.0," not in text, text
    assert all(math.copysign(1, c["equity_loss"]) == 1 for c in json.loads(text))
