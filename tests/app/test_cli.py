"""The nardy-fast command line: outputs, files written, one-line errors and exit codes."""
import json
import math
import os
import subprocess
import sys

import matplotlib

matplotlib.use("Agg")

import pandas as pd  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

from nardy_fast import Position, Rules  # noqa: E402
from nardy_fast.app import cli as cli_module  # noqa: E402
from nardy_fast.app.cli import main  # noqa: E402
from nardy_fast.core.record import random_game, write_record  # noqa: E402
from nardy_fast.engine.play.rollout import rollout  # noqa: E402

from helpers import run_cli  # noqa: E402

START = Position.initial().id


def test_show(capsys, tmp_path):
    code, out, err = run_cli(capsys, "show", START, "--png", str(tmp_path / "b.png"))
    assert code == 0 and err == ""
    assert Position.initial().diagram() in out and "phase contact" in out
    assert (tmp_path / "b.png").read_bytes()[:4] == b"\x89PNG"
    code, out2, _ = run_cli(capsys, "show", "start")
    assert code == 0 and out2.startswith(Position.initial().diagram())


def test_show_never_replaces_a_picture_unasked(capsys, tmp_path):
    """An existing --png file is refused (unless --force), and so is a format matplotlib
    cannot write, each before anything is printed."""
    mine = tmp_path / "mine.png"
    mine.write_bytes(b"a user's file")
    code, out, err = run_cli(capsys, "show", START, "--png", str(mine))
    assert code == 1 and out == "" and f"--png {mine}: exists; --force" in err
    assert mine.read_bytes() == b"a user's file"
    code, out, err = run_cli(capsys, "show", START, "--png", str(mine), "--force")
    assert code == 0 and mine.read_bytes()[:4] == b"\x89PNG"
    code, out, err = run_cli(capsys, "show", START, "--png", str(tmp_path / "b.txt"))
    assert code == 1 and out == "" and "not a picture format matplotlib writes (.txt)" in err
    code, out, err = run_cli(capsys, "show", START, "--png", str(tmp_path / "b.svg"))
    assert code == 0 and (tmp_path / "b.svg").read_text().lstrip().startswith("<?xml")


def test_moves(capsys):
    pos = random_game(seed=2, max_turns=20).final
    code, out, err = run_cli(capsys, "moves", pos.id, "5-3", "--json")
    assert code == 0
    got = json.loads(out)
    moves = pos.legal_moves((5, 3))
    assert [m["id_after"] for m in got] == [pos.play(m).id for m in moves]
    assert [m["move"] for m in got] == [str(m) for m in moves]
    code, out, _ = run_cli(capsys, "moves", "start", "33")
    assert code == 0
    assert out.splitlines()[0] == f"white on roll, 33: {len(Position.initial().legal_moves((3, 3)))} legal move(s)"
    # rule book example 5 (White opened 5-5, Black throws 4-4): one checker leaves the
    # head under classic rules; the generalized head rule lets a second one go
    white = np.zeros(24, np.uint8)
    white[[0, 20]] = [14, 1]
    black = np.zeros(24, np.uint8)
    black[0] = 15
    pos = Position.from_boards(black, white, "black")
    from nardy_fast import Rules
    classic = pos.legal_moves((4, 4))
    general = pos.legal_moves((4, 4), Rules(head_rule="generalized"))
    assert [pos.play(m).opponent.tolist() for m in classic] == \
        [[14, 0, 0, 0, 1] + [0] * 19]
    assert [pos.play(m).opponent.tolist() for m in general] == \
        [[13, 0, 0, 0, 2] + [0] * 19]
    for spec, moves in (("classic", classic), ("head_rule=generalized", general)):
        code, out, err = run_cli(capsys, "moves", pos.id, "44", "--rules", spec, "--json")
        assert code == 0, err
        assert [m["id_after"] for m in json.loads(out)] == [pos.play(m).id for m in moves]


def test_moves_of_black_last_turn_that_draws(capsys):
    """Under draw_rule, Black's last turn (White all off) may bear off Black's last
    checkers: a draw, with no position after it.  ``moves`` lists that move with an empty
    ``id_after``, as ``hint`` does, instead of failing after its header line."""
    black = np.zeros(24, np.uint8)
    black[[21, 23]] = 1
    pos = Position.from_boards(black, np.zeros(24, np.uint8), "black")
    rules = Rules(draw_rule=True)
    moves = pos.legal_moves((4, 2), rules)
    after = ["" if not any(m.board) else pos.play(m).id for m in moves]
    assert "" in after
    code, out, err = run_cli(capsys, "moves", pos.id, "42", "--rules", "draw_rule=true",
                             "--json")
    assert code == 0, err
    assert [(m["move"], m["id_after"]) for m in json.loads(out)] == \
        [(str(m), a) for m, a in zip(moves, after)]
    code, hint, err = run_cli(capsys, "hint", pos.id, "42", "--rules", "draw_rule=true",
                              "--plies", "0", "--json")
    assert code == 0, err
    assert sorted((m["move"], m["id_after"]) for m in json.loads(hint)) == \
        sorted((str(m), a) for m, a in zip(moves, after))
    code, out, err = run_cli(capsys, "moves", pos.id, "42", "--rules", "draw_rule=true")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0] == "black on roll, 42: 2 legal move(s)" and len(lines) == 3
    assert any("draw" in line for line in lines[1:])


@pytest.mark.parametrize("argv, fragment", [
    (["show", "Wnot-an-id"], "position ID"),
    (["moves", START[:-1] + "!", "64"], "position ID"),
    (["moves", "start", "64", "--rules", "head_rule=wide"], None),      # usage error: exit 2
    (["moves", "start", "7"], None),
    (["rollout", "start", "-n", "0"], None),
    (["report", "no-such-file.txt"], "no-such-file.txt"),
    (["analyse", "no-such-file.txt"], "no-such-file.txt"),
])
def test_bad_input_gives_one_line_error(capsys, argv, fragment):
    code, out, err = run_catching(capsys, argv)
    assert code != 0
    assert "Traceback" not in err
    if fragment is None:
        assert code == 2 and "error:" in err
    else:
        assert code == 1
        lines = err.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("nardy-fast: error: ")
        assert fragment in lines[0]


def run_catching(capsys, argv):
    try:
        code = main(argv)
    except SystemExit as e:                     # argparse usage errors
        code = e.code
    out, err = capsys.readouterr()
    return code, out, err


def test_bad_record_names_the_turn(capsys, tmp_path):
    p = tmp_path / "bad.txt"
    p.write_text("1) 65: 1/7 7/12 43: 1/5 1/4\n")
    code, out, err = run_cli(capsys, "analyse", str(p), "-n", "36", "--truncate", "none")
    assert code == 1
    assert err.startswith(f"nardy-fast: error: {p}: line 1: turn 2 (black 43: 1/5 1/4) is "
                          "illegal")


@pytest.mark.slow
def test_rollout_json_and_csv(capsys):
    pos = random_game(seed=4, max_turns=40).final
    args = ["rollout", pos.id, "start", "-n", "72", "--seed", "9", "--workers", "1",
            "--no-progress", "--truncate", "none"]
    code, out, err = run_cli(capsys, *args, "--json")
    assert code == 0
    rows = [json.loads(line) for line in out.splitlines()]
    assert [r["id"] for r in rows] == [pos.id, START]
    o = rollout(pos, 72, policy="net", seed=9, workers=1, truncate=None,
                progress=False)                    # the command's default policy
    assert rows[0]["equity"] == pytest.approx(o.equity)
    assert rows[0]["games"] == 72 and rows[0]["method"] == "rollout"
    code, out, err = run_cli(capsys, *args, "--csv")
    df = pd.read_csv(__import__("io").StringIO(out))
    assert df["id"].tolist() == [pos.id, START]
    assert df["p_win"].iloc[0] == pytest.approx(o.p_win)
    code, out, err = run_cli(capsys, *args)
    assert "equity" in out and "95% CI" in out


def test_every_json_output_names_the_position_it_is_about_position(capsys):
    """The position a row of output is about is named ``position``, as ``cube --json``,
    ``study export`` and the frames keyed by position ID (``evaluate_many``,
    ``rollout_many``, ``read_study``) name it.  ``rollout`` (--json and --csv) and
    ``bearoff query --json`` named it ``id`` only; they keep ``id`` beside it."""
    b = np.zeros(24, np.uint8)
    b[18] = 1
    tiny = Position.from_boards(b, b).id              # a race the tables value at once
    code, out, err = run_cli(capsys, "rollout", tiny, "-n", "36", "--no-progress", "--json")
    rows = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and [(r["position"], r["id"]) for r in rows] == [(tiny, tiny)]
    code, out, err = run_cli(capsys, "rollout", tiny, "-n", "36", "--no-progress", "--csv")
    df = pd.read_csv(__import__("io").StringIO(out))
    assert code == 0 and list(df.columns[:2]) == ["id", "side"] and df.columns[-1] == "position"
    assert df["position"].tolist() == [tiny]
    code, out, err = run_cli(capsys, "bearoff", "query", tiny, START, "--json")
    rows = json.loads(out)
    assert code == 0 and [(r["position"], r["id"]) for r in rows] == [(tiny, tiny),
                                                                      (START, START)]
    code, out, err = run_cli(capsys, "cube", tiny, "--json")
    assert code == 0 and json.loads(out)["position"] == tiny


def test_rollout_json_of_games_decided_by_their_first_roll(capsys):
    """Every game valued by the two-sided table after its first roll: ``--json`` showed
    a stratified SE of 1e-10 and a variance ratio of 2.7e16, the rounding of the sums of
    squares; now an SE of 0 and the infinite ratio as ``null``."""
    pid = Position.from_boards([0] * 17 + [1, 0, 0, 0, 0, 0, 1], [0] * 22 + [2, 0]).id
    code, out, err = run_cli(capsys, "rollout", pid, "-n", "720", "--seed", "1",
                             "--workers", "1", "--no-progress", "--json")
    assert code == 0, err
    row = json.loads(out)
    assert row["se_equity"] == 0.0 and row["extra_se_equity_unstratified"] > 0.01
    assert row["extra_variance_reduction_equity"] is None


def test_rollout_text_says_when_the_rules_cube_makes_the_games_cube_aware(capsys):
    """``rollout --rules cube=geometric`` plays cube-aware games (``rollout``'s cube is the
    rules' by default): its equity is cubeful and a pass counts as a win, which the text
    did not say (``str`` of the Outcome says "cubeful equity"); a rollout without the cube
    says nothing of it."""
    pid = "W7gAAAAAAAAAAAQAQAAAAAAAAAAAAAAAA"
    argv = ("rollout", pid, "-n", "36", "--seed", "1", "--workers", "1", "--no-progress")
    code, out, err = run_cli(capsys, *argv, "--rules", "cube=geometric")
    assert code == 0, err
    head = out.splitlines()[0]
    assert head.endswith("; rules: cube=geometric; cube-aware rollouts (the rules' cube in "
                         "play): the equity is cubeful, per unit of the starting stake, and "
                         "a pass counts as a win of the doubler")
    o = rollout(pid, 36, seed=1, rules=Rules(cube="geometric"), workers=1, progress=False)
    assert f"equity {o.equity:+.4f}" in out
    code, out, err = run_cli(capsys, *argv)
    assert code == 0 and "cube" not in out


def test_rollout_refuses_a_finished_game_before_any_game(capsys, monkeypatch):
    """``rollout start FINISHED -n 5000`` rolled ``start`` out (seconds of work), then
    refused the finished game and printed nothing of ``start``: every position is now
    checked before the first game."""
    played = []

    def rollout_of(pos, **kw):                    # a game of ``pos`` would start here
        played.append(pos)
        raise KeyboardInterrupt

    monkeypatch.setattr(cli_module, "rollout", rollout_of)
    over = "WAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAB"          # White on roll, all 15 off
    code, out, err = run_cli(capsys, "rollout", "start", over, "-n", "5000", "--workers",
                             "1", "--no-progress")
    assert code == 1 and played == [] and out == ""
    assert err == (f"nardy-fast: error: position {over}: the game is over: white, on "
                   "roll, has already borne off all 15 checkers\n")


def test_rollout_text_shows_the_draws_and_the_koks_of_its_rules(capsys):
    """Under ``draw_rule`` the text showed P(win) 0.9722 and no P(draw) (P(win) and the
    unshown P(lose) no longer add to 1), under extended scoring no koks or home mars (worth
    3 and 4 points), and not the rules: it now shows them."""
    import nardy_fast as nf
    rules = nf.Rules(draw_rule=True, scoring="extended")
    race = "WAAAAAAAAAAAAAAAAAAAAAAAAAgABABAQ"      # White finishes; Black's last turn
    code, out, err = run_cli(capsys, "rollout", "start", race, "-n", "4", "--seed", "1",
                             "--workers", "1", "--no-progress", "--rules", rules.to_text())
    assert code == 0, err
    lines = [ln for ln in out.splitlines() if "races an approximation valued" not in ln]
    head, played, _, _, _, _, table, _, draw, koks, _ = lines
    assert head.endswith(f"; rules: {rules.to_text()}")
    assert played.startswith(f"{START}  white on roll  games 4")
    assert table.startswith(f"{race}  white on roll  no game played")
    o = nf.race_probabilities(Position.from_id(race), rules=rules)
    assert 0 < o.p_draw < 1
    assert draw == f"  P(draw) {o.p_draw:.4f}   P(lose) {o.p_lose:.4f}"
    assert koks.startswith("  P(koks win) 0.0000   P(home mars win) ")
    assert out.count("P(draw) ") == 2 and out.count("P(koks loss) ") == 2
    code, out, err = run_cli(capsys, "rollout", race, "--rules", "classic")
    assert code == 0 and "P(draw)" not in out and "koks" not in out and "rules:" not in out



def test_rollout_text_shows_a_level_race_without_a_minus_zero(capsys):
    """A level 14 v 14 race under ``draw_rule`` is valued at the start by the one-sided
    approximation at -1e-17 points (float rounding): it reads +0.0000, not -0.0000."""
    race = "WAAAAAAAAAAAAAAAAAAAAAAAAIiIiIiJE"
    code, out, err = run_cli(capsys, "rollout", race, "-n", "4", "--workers", "1",
                             "--no-progress", "--rules", "draw_rule=true")
    assert code == 0, err
    assert "no game played" in out and "-0.0000" not in out, out
    assert out.splitlines()[-1] == "  equity +0.0000"

@pytest.mark.slow
def test_report_on_positions(capsys, tmp_path):
    ps = random_game(seed=5).positions()[10:40:10]
    f = tmp_path / "ids.txt"
    f.write_text("# some positions\n" + "\n".join(p.id for p in ps) + "\n")
    out_dir = tmp_path / "out"
    code, out, err = run_cli(capsys, "report", str(f), "-o", str(out_dir), "-n", "36",
                         "--workers", "1", "--truncate", "none", "--method", "rollout")
    assert code == 0, err
    names = set(os.listdir(out_dir))
    assert {"pip_report.csv", "pip_report.html", "win_report.csv", "win_report.html",
            "race_chart.png", "board_01.png", "board_03.png"} <= names
    wr = pd.read_csv(out_dir / "win_report.csv")
    assert wr["id"].tolist() == [p.id for p in ps] and (wr["games"] == 36).all()
    # a CSV with an id column, pip report only
    c = tmp_path / "ids.csv"
    pd.DataFrame({"id": [p.id for p in ps], "note": ["a", "b", "c"]}).to_csv(c, index=False)
    code, out, err = run_cli(capsys, "report", str(c), "-o", str(tmp_path / "o2"), "--no-win")
    assert code == 0 and "pip_report.csv" in out
    assert not (tmp_path / "o2" / "win_report.csv").exists()


@pytest.mark.slow
def test_report_and_analyse_on_a_record(capsys, tmp_path):
    rec = random_game(seed=6, max_turns=6)
    write_record(rec, tmp_path / "g.txt")
    code, out, err = run_cli(capsys, "report", str(tmp_path / "g.txt"), "-o", str(tmp_path / "r"),
                         "-n", "36", "--workers", "1", "--truncate", "none")
    assert code == 0, err
    assert {"game_report.csv", "game_report.html", "game_graph.png",
            "final_board.png"} <= set(os.listdir(tmp_path / "r"))
    gr = pd.read_csv(tmp_path / "r" / "game_report.csv")
    assert len(gr) == 7 and gr["p_win"].between(0, 1).all()
    code, out, err = run_cli(capsys, "analyse", str(tmp_path / "g.txt"), "-n", "36",
                         "--workers", "1", "--truncate", "none", "-o", str(tmp_path / "a"))
    assert code == 0, err
    assert "error_rate" in out
    er = pd.read_csv(tmp_path / "a" / "error_rates.csv")
    assert set(er["side"]) == {"white", "black"}
    # one printed line per turn played: the best move only when it is not the one played
    ga = pd.read_csv(tmp_path / "a" / "game_analysis.csv", keep_default_na=False)
    rows = out.split("\n\n")[0].splitlines()[1:]
    played = ga[ga["move"] != ""]
    assert len(rows) == len(rec.turns) == len(played)
    for line, (_, r) in zip(rows, played.iterrows()):
        assert line.split()[:3] == [str(r["turn"]), r["side"], str(r["dice"])]
        shown_best = line[43:69].strip()               # the "best" column
        assert shown_best == ("" if r["best_move"] == r["move"] else r["best_move"])
    assert any(r["best_move"] == r["move"] for _, r in played.iterrows())
    er_lines = out.split("\n\n")[1].splitlines()
    assert er_lines[0].split() == ["player", "turns", "decisions", "errors", "equity_lost",
                                   "error_rate", "n_doubtful", "n_error", "n_blunder"]


# The mean pips of a roll (a + b, or 4a for a double, over the 36 ordered rolls): 49 / 6.
MEAN_ROLL_PIPS = sum(4 * a if a == b else a + b
                     for a in range(1, 7) for b in range(1, 7)) / 36


def test_bearoff_commands(capsys, tmp_path):
    from nardy_fast import Rules, bearoff, race_probabilities
    from nardy_fast.analysis.report import race_sample
    one = bearoff.one_sided()
    ps = race_sample(2, seed=1, kind="bearoff") + race_sample(1, seed=2, kind="race")
    for rules, spec in ((None, []), (Rules(scoring="extended"), ["--rules",
                                                                  "scoring=extended"])):
        code, out, err = run_cli(capsys, "bearoff", "query", *[p.id for p in ps], *spec,
                             "--json")
        assert code == 0, err
        rows = json.loads(out)
        assert [r["id"] for r in rows] == [p.id for p in ps]
        for row, p in zip(rows[:2], ps):
            o = race_probabilities(p, rules=rules)
            for k in ("p_win", "p_mars_win", "p_lose", "p_mars_loss", "equity", "method"):
                assert row[k] == getattr(o, k), k
            for name, b in (("mover", p.mover), ("opponent", p.opponent)):
                mean = one.mean_turns(np.ascontiguousarray(b[::-1][:6]))
                assert row[f"mean_turns_{name}"] == mean
                assert row[f"epc_{name}"] == pytest.approx(mean * MEAN_ROLL_PIPS, rel=1e-15)
            assert (row["pips_mover"], row["pips_opponent"]) == p.pips
        # a race not yet in the homes: no probabilities, EPC only for a side all home
        assert "p_win" not in rows[2]
    # one checker on point 19 for each: 1 + 9/36 turns (the 9 rolls of fewer than 6 pips
    # leave it on point 23 or 24), and the side on roll wins unless it rolls one of those
    # 9 and the opponent then does not: P(win) = 1 - (9/36) * (27/36)
    b = np.zeros(24, np.uint8)
    b[18] = 1
    tiny = Position.from_boards(b, b)
    code, out, err = run_cli(capsys, "bearoff", "query", tiny.id, "--json")
    row = json.loads(out)[0]
    assert row["mean_turns_mover"] == pytest.approx(1 + 9 / 36, abs=1e-15)
    assert row["epc_mover"] == pytest.approx((1 + 9 / 36) * 49 / 6, abs=1e-13)
    assert row["p_win"] == pytest.approx(1 - 9 / 36 * 27 / 36, abs=1e-15)
    assert row["equity"] == pytest.approx(2 * row["p_win"] - 1, abs=1e-15)
    code, out, err = run_cli(capsys, "bearoff", "query", tiny.id)
    assert f"P(win) {1 - 9 / 36 * 27 / 36:.6f}" in out and "mean turns 1.2500" in out
    code, out, err = run_cli(capsys, "bearoff", "query", START)
    assert code == 0 and "not all home" in out
    # build: the database of every board of at most 15 checkers on 6 points, C(21, 6)
    code, out, err = run_cli(capsys, "bearoff", "build")
    assert code == 0, err
    assert out.strip() == f"one-sided bear-off database ready ({math.comb(21, 6)} boards)"
    f = tmp_path / "one.nfdb"
    code, out, err = run_cli(capsys, "bearoff", "build", "--out", str(f))
    assert code == 0 and str(f) in out, err
    saved = bearoff.OneSided.load(f)
    assert saved.n_boards == 54264
    for name in ("turns", "first_off", "mean"):
        assert np.array_equal(np.asarray(getattr(saved, name)), np.asarray(getattr(one, name)))
    code, out, err = run_cli(capsys, "bearoff", "build", "--two-sided", "3")
    assert code == 0, err
    # the two-sided table of <= 3 checkers a side: C(9, 6) = 84 boards
    lines = out.splitlines()
    assert "two-sided bear-off database ready (TwoSided(max_checkers=3, boards=84))" in lines
    # a table other than the one race queries read says so
    assert lines[-1].startswith("  race queries and rollouts use only the two-sided table")
    ts = bearoff.two_sided(3)
    # a lone checker on point 19 each, side on roll: as above
    assert ts.p_win([0, 0, 0, 0, 0, 1], [0, 0, 0, 0, 0, 1]) == \
        pytest.approx(1 - 9 / 36 * 27 / 36, abs=1e-15)


@pytest.mark.slow
def test_bearoff_build_mars_makes_race_queries_exact(capsys):
    """15 checkers against one: one-sided until the mars table is built, then exact."""
    from nardy_fast import Position, bearoff, race_probabilities

    x = np.zeros(24, np.uint8); x[18] = 15
    y = np.zeros(24, np.uint8); y[23] = 1
    pos = Position.from_boards(x, y)
    mp = pytest.MonkeyPatch()
    mp.setattr(bearoff, "DEFAULT_MARS", 1)
    try:
        if bearoff.mars_table(1, build=False) is None:
            assert race_probabilities(pos).method == "one_sided"
        code, out, err = run_cli(capsys, "bearoff", "build", "--mars", "1", "--threads", "2")
        assert code == 0 and "mars table ready" in out, err
        exact = race_probabilities(pos)
        assert exact.method == "two_sided" and exact.extra["mars_max_checkers"] == 1
    finally:
        mp.undo()


@pytest.mark.slow
def test_help_and_entry_point():
    r = subprocess.run([sys.executable, "-m", "nardy_fast.app.cli", "--help"],
                       capture_output=True, text=True)
    assert r.returncode == 0
    for cmd in ("show", "moves", "rollout", "bearoff", "report", "analyse", "demo"):
        assert cmd in r.stdout
    r = subprocess.run([sys.executable, "-m", "nardy_fast.app.cli", "show", "bad"],
                       capture_output=True, text=True)
    assert r.returncode == 1 and r.stderr.count("\n") == 1
    assert r.stderr.startswith("nardy-fast: error:")
    r = subprocess.run([sys.executable, "-m", "nardy_fast.app.cli"], capture_output=True,
                       text=True)
    assert r.returncode == 2 and "Traceback" not in r.stderr


@pytest.mark.slow
def test_demo_writes_reports_and_figures(capsys, tmp_path):
    out_dir = tmp_path / "demo"
    code, out, err = run_cli(capsys, "demo", "-o", str(out_dir), "-n", "72", "--workers", "1")
    assert code == 0, err
    assert "no effect" not in err, err          # every argument it passes acts
    race = pd.read_csv(out_dir / "race.csv")
    from nardy_fast.app.demo import RACE_EXACT, RACE_ROLLOUT
    assert (race["method"] == "rollout").sum() == RACE_ROLLOUT == len(race) - RACE_EXACT
    names = set(os.listdir(out_dir))
    for stem in ("pip_report", "win_report", "move_report", "game_report"):
        assert {f"{stem}.csv", f"{stem}.html"} <= names
    assert {"win_report.parquet", "convergence.png", "race.png", "bearoff_distribution.png",
            "game_graph.png", "sample_game.txt", "board_01.png"} <= names
    assert str(out_dir) in out
    # each table printed says how its numbers were obtained
    assert "by the method named" in out and "by the evaluator at 1-ply" in out
    wr = pd.read_csv(out_dir / "win_report.csv")
    assert wr["id"].iloc[0] == START and wr["method"].iloc[0] == "rollout"
    assert not any(n.startswith(".tmp") for n in names)


@pytest.mark.slow
def test_bad_scheduler_address(capsys):
    code, out, err = run_cli(capsys, "rollout", "start", "-n", "10", "--scheduler", "nowhere:port")
    assert code == 1
    assert err.startswith("nardy-fast: error: --scheduler nowhere:port: cannot connect")


def test_demo_default_is_documented():
    from nardy_fast.app import demo
    from nardy_fast.app.cli import build_parser
    help_text = build_parser()._subparsers._group_actions[0].choices["demo"].format_help()
    assert f"(default {demo.DEFAULT_GAMES})" in " ".join(help_text.split())


def test_cube(capsys):
    import numpy as np
    from nardy_fast import Position
    me, you = np.zeros(24, int), np.zeros(24, int)
    me[18], you[23] = 1, 1           # 27 of 36 rolls win; the opponent then finishes
    pos = Position(me, you)
    code, out, err = run_cli(capsys, "cube", pos.id)
    assert code == 0, err
    assert "cube: stake 1, in the middle" in out
    assert "double, take" in out and "method exact" in out
    code, out, err = run_cli(capsys, "cube", pos.id, "--json", "--owner", "opponent", "--stake",
                         "2")
    d = json.loads(out)
    assert d["action"] == "no raise" and abs(d["equity"] - 0.5) < 1e-9
    code, out, err = run_catching(capsys, ["cube", pos.id, "--owner", "nobody"])
    assert code == 2
    code, out, err = run_catching(capsys, ["cube", "start", "--stake", "0"])
    assert code == 2 and "positive" in err
    contact = "WIREQAQIQACEDADAAAAAAAAAAAAABJCAR"
    code, out, err = run_cli(capsys, "cube", contact, "--plies", "0", "--json")
    assert code == 0, err
    assert json.loads(out)["method"] == "janowski (net 0-ply)"
    code, out, err = run_cli(capsys, "cube", contact, "--json")       # the default: 2
    assert code == 0, err
    assert json.loads(out)["method"] == "janowski (net 2-ply)"
    for plies in ("1", "2"):                                          # each depth offered
        code, out, err = run_cli(capsys, "cube", contact, "--plies", plies, "--json")
        assert code == 0, err
        assert json.loads(out)["method"] == f"janowski (net {plies}-ply)"
    code, out, err = run_catching(capsys, ["cube", contact, "--plies", "0", "--method",
                                           "exact"])
    assert code != 0 and "--plies 0: no effect with --method exact" in err
    code, out, err = run_catching(capsys, ["cube", contact, "--plies", "1", "--method",
                                           "rollout"])
    assert code != 0 and "--plies 1: no effect with --method rollout" in err


def test_the_documentation_parser_is_the_command_line_under_its_documented_names():
    """``docs_parser`` (the site's page of the command line): the same sub-parsers, the
    hidden ``study-show`` and ``study-export`` as ``study show`` and ``study export``."""
    import argparse
    from nardy_fast.app.cli import build_parser, docs_parser

    def commands(p):
        return next(a for a in p._actions
                    if isinstance(a, argparse._SubParsersAction)).choices
    real, shown = commands(build_parser()), commands(docs_parser())
    assert list(shown)[list(shown).index("study"):][:3] == ["study", "study show",
                                                            "study export"]
    assert {n.replace(" ", "-") for n in shown} == set(real)
    assert shown["study show"].prog == "nardy-fast study show"


def test_demo_names_an_out_that_is_a_file(capsys, tmp_path):
    from nardy_fast.app import demo
    mine = tmp_path / "notes"
    mine.write_text("a user's file")
    code, out, err = run_cli(capsys, "demo", "-o", str(mine))
    assert code == 1 and err.strip() == f"nardy-fast: error: -o/--out {mine}: a file, not a folder"
    with pytest.raises(SystemExit) as e:                 # python -m nardy_fast.app.demo
        demo.main(["-o", str(mine)])
    assert e.value.code == 2 and "-o/--out" in capsys.readouterr().err
    assert mine.read_text() == "a user's file"


def test_python_m_demo_interrupted_says_so_in_one_line(capsys, tmp_path, monkeypatch):
    # python -m nardy_fast.app.demo (make demo) showed a traceback on Ctrl-C
    from nardy_fast.app import demo

    def stopped(**kw):
        raise KeyboardInterrupt("demo: stopped")
    monkeypatch.setattr(demo, "run", stopped)
    code = demo.main(["-o", str(tmp_path / "out"), "-n", "10"])
    err = capsys.readouterr().err
    assert code == 130
    assert err == "python -m nardy_fast.app.demo: interrupted: demo: stopped\n"


def test_an_interrupted_demo_leaves_its_folder_as_it_was(capsys, tmp_path, monkeypatch):
    # the files written before the interrupt stayed, beside an earlier run's
    from nardy_fast.app import demo
    out = tmp_path / "out"
    out.mkdir()
    (out / "pip_report.csv").write_text("an earlier run's report")

    def stopped(*a, **kw):
        raise KeyboardInterrupt
    monkeypatch.setattr(demo, "_win_reports", stopped)
    code, _, err = run_cli(capsys, "demo", "-o", str(out), "-n", "10", "--workers", "1")
    assert code == 130
    assert err == (f"nardy-fast: interrupted: demo: stopped before writing its files to "
                   f"{out}; run it again to write them\n")
    assert os.listdir(out) == ["pip_report.csv"]
    assert (out / "pip_report.csv").read_text() == "an earlier run's report"


def test_an_interrupt_names_the_command_by_the_stops_type_not_its_text():
    """The command line put its command's name at the head of a library's stop by
    matching the message ("<function>: stopped at an interrupted rollout" or "stopped in
    game"): a plain interrupt of that text was renamed, a ``Stopped`` of another text
    was not.  It renames a ``Stopped`` (its ``what``) and leaves every other message."""
    import argparse

    from nardy_fast.engine.play.rollout import Stopped
    args = argparse.Namespace(command="benchmark", action="build")
    stop = Stopped("build", "in batch 2 of 3", kept=("1 of 3 decisions kept",))
    assert cli_module._in_command_words(stop, args) == (
        "benchmark build: stopped in batch 2 of 3; 1 of 3 decisions kept")
    assert cli_module._in_command_words(Stopped("value_positions", cut_rollout=True),
                                        argparse.Namespace(command="cube")) == (
        "cube: stopped at an interrupted rollout (no answer rests on cut rollouts)")
    plain = KeyboardInterrupt("value_positions: stopped at an interrupted rollout")
    assert cli_module._in_command_words(plain, args) == str(plain)


def test_analyse_names_an_out_that_is_a_file_before_the_work(capsys, tmp_path, monkeypatch):
    record = tmp_path / "g.txt"
    write_record(random_game(seed=1, max_turns=6), str(record))
    mine = tmp_path / "out"
    mine.write_text("a user's file")
    from nardy_fast.app import cli
    monkeypatch.setattr(cli.report, "game_report", lambda *a, **k: pytest.fail("analysed"))
    code, out, err = run_cli(capsys, "analyse", str(record), "-o", str(mine))
    assert code == 1 and out == "" and f"-o/--out {mine}: a file, not a folder" in err
    assert mine.read_text() == "a user's file"


def test_ctrl_c_while_matplotlib_starts_is_an_interrupt(capsys, monkeypatch):
    """Ctrl-C in the first half second of a command could land in matplotlib's import,
    whose compiled font module then failed with ``ImportError: initialization failed``
    (caused by the KeyboardInterrupt): a traceback, and at times a crash at exit."""
    import importlib.abc

    class CutImport(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path=None, target=None):
            if name == "matplotlib":
                raise ImportError("initialization failed") from KeyboardInterrupt()
            return None

    for name in ("matplotlib", "matplotlib.pyplot"):
        monkeypatch.delitem(sys.modules, name, raising=False)
    monkeypatch.delenv("MPLBACKEND", raising=False)
    monkeypatch.setattr(sys, "meta_path", [CutImport(), *sys.meta_path])
    code, out, err = run_cli(capsys, "show", "start")
    assert (code, out, err) == (130, "", "nardy-fast: interrupted\n")


def test_an_interrupted_command_ends_its_idle_pool_before_leaving():
    """A command stopped after its parallel rollouts (Ctrl-C while its files were
    written) left at once with its process pool open: the resource tracker then warned of
    "5 leaked semaphore objects", three lines with a path into the standard library."""
    code = ("from nardy_fast.app import cli\n"
            "from nardy_fast.engine.play.rollout import rollout\n"
            "rollout('start', 2600, policy='random', seed=1, workers=2, progress=False)\n"
            "cli.main = lambda argv=None: 130\n"
            "cli.console_main([])\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       timeout=300)
    assert r.returncode == 130, r.stderr
    assert "leaked semaphore" not in r.stderr and r.stderr == ""


def test_rollout_cut_by_a_second_ctrl_c_does_not_say_no_chunk_finished(capsys,
                                                                        monkeypatch):
    """A second Ctrl-C (``timeout -s INT`` sends its signal to the program and to its
    group) while a cut rollout counts its finished games comes out as a bare
    ``KeyboardInterrupt``; the command said "before the first chunk of games ...
    finished" although its bar had shown chunks done.  Only the rollout's own stop (no
    chunk finished) says that now."""
    def cut(message):
        def rollout_of(pos, **kw):
            raise KeyboardInterrupt(*message)
        return rollout_of

    argv = ("rollout", "start", "start", "-n", "5000", "--workers", "1", "--no-progress")
    monkeypatch.setattr(cli_module, "rollout", cut([]))
    code, out, err = run_cli(capsys, *argv)
    assert code == 130 and out == ""
    assert err == (f"nardy-fast: interrupted while rolling out {START}, before its games "
                   "were counted; 1 later position(s) not rolled out\n")
    monkeypatch.setattr(cli_module, "rollout", cut(["rollout interrupted before any chunk"]))
    code, out, err = run_cli(capsys, *argv)
    assert code == 130 and err.startswith(f"nardy-fast: interrupted before the first chunk "
                                          f"of games of {START} finished")
