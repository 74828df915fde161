"""The nardy-fast command line: outputs, files written, one-line errors and exit codes."""
import json
import os
import subprocess
import sys

import matplotlib

matplotlib.use("Agg")

import pandas as pd  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

from nardy_fast import Position  # noqa: E402
from nardy_fast.cli import main  # noqa: E402
from nardy_fast.record import random_game, write_record  # noqa: E402
from nardy_fast.rollout import rollout  # noqa: E402

START = Position.initial().id


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_show(capsys, tmp_path):
    code, out, err = run(capsys, "show", START, "--png", str(tmp_path / "b.png"))
    assert code == 0 and err == ""
    assert Position.initial().diagram() in out and "phase contact" in out
    assert (tmp_path / "b.png").read_bytes()[:4] == b"\x89PNG"
    code, out2, _ = run(capsys, "show", "start")
    assert code == 0 and out2.startswith(Position.initial().diagram())


def test_moves(capsys):
    pos = random_game(seed=2, max_turns=20).final
    code, out, err = run(capsys, "moves", pos.id, "5-3", "--json")
    assert code == 0
    got = json.loads(out)
    moves = pos.legal_moves(5, 3)
    assert [m["id_after"] for m in got] == [pos.play(m).id for m in moves]
    assert [m["move"] for m in got] == [str(m) for m in moves]
    code, out, _ = run(capsys, "moves", "start", "33")
    assert code == 0
    assert out.splitlines()[0] == f"white on roll, 33: {len(Position.initial().legal_moves(3, 3))} legal move(s)"
    code, out, _ = run(capsys, "moves", "start", "42", "--rules", "head_rule=generalized")
    assert code == 0


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
    code, out, err = run(capsys, "analyse", str(p), "-n", "36", "--truncate", "none")
    assert code == 1
    assert err.startswith("nardy-fast: error: turn 2 (black 43: 1/5 1/4) is illegal")


def test_rollout_json_and_csv(capsys):
    pos = random_game(seed=4, max_turns=40).final
    args = ["rollout", pos.id, "start", "-n", "72", "--seed", "9", "--workers", "1",
            "--no-progress", "--truncate", "none"]
    code, out, err = run(capsys, *args, "--json")
    assert code == 0
    rows = [json.loads(line) for line in out.splitlines()]
    assert [r["id"] for r in rows] == [pos.id, START]
    o = rollout(pos, 72, policy="greedy", seed=9, workers=1, truncate=None,
                progress=False)                    # the command's default policy
    assert rows[0]["equity"] == pytest.approx(o.equity)
    assert rows[0]["games"] == 72 and rows[0]["method"] == "rollout"
    code, out, err = run(capsys, *args, "--csv")
    df = pd.read_csv(__import__("io").StringIO(out))
    assert df["id"].tolist() == [pos.id, START]
    assert df["p_win"].iloc[0] == pytest.approx(o.p_win)
    code, out, err = run(capsys, *args)
    assert "equity" in out and "95% CI" in out


def test_report_on_positions(capsys, tmp_path):
    ps = random_game(seed=5).positions()[10:40:10]
    f = tmp_path / "ids.txt"
    f.write_text("# some positions\n" + "\n".join(p.id for p in ps) + "\n")
    out_dir = tmp_path / "out"
    code, out, err = run(capsys, "report", str(f), "-o", str(out_dir), "-n", "36",
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
    code, out, err = run(capsys, "report", str(c), "-o", str(tmp_path / "o2"), "--no-win")
    assert code == 0 and "pip_report.csv" in out
    assert not (tmp_path / "o2" / "win_report.csv").exists()


def test_report_and_analyse_on_a_record(capsys, tmp_path):
    rec = random_game(seed=6, max_turns=6)
    write_record(rec, tmp_path / "g.txt")
    code, out, err = run(capsys, "report", str(tmp_path / "g.txt"), "-o", str(tmp_path / "r"),
                         "-n", "36", "--workers", "1", "--truncate", "none")
    assert code == 0, err
    assert {"game_report.csv", "game_report.html", "game_graph.png",
            "final_board.png"} <= set(os.listdir(tmp_path / "r"))
    gr = pd.read_csv(tmp_path / "r" / "game_report.csv")
    assert len(gr) == 7 and gr["p_win"].between(0, 1).all()
    code, out, err = run(capsys, "analyse", str(tmp_path / "g.txt"), "-n", "36",
                         "--workers", "1", "--truncate", "none", "-o", str(tmp_path / "a"))
    assert code == 0, err
    assert "error_rate" in out
    er = pd.read_csv(tmp_path / "a" / "error_rates.csv")
    assert set(er["side"]) == {"white", "black"}


def test_bearoff_commands(capsys, tmp_path):
    from nardy_fast.report import race_sample
    p = race_sample(1, seed=1)[0]
    code, out, err = run(capsys, "bearoff", "query", p.id, "--json")
    assert code == 0, err
    row = json.loads(out)[0]
    assert row["id"] == p.id and 0 <= row["p_win"] <= 1
    code, out, err = run(capsys, "bearoff", "query", START)
    assert code == 0 and "not all home" in out
    code, out, err = run(capsys, "bearoff", "build")
    assert code == 0, err


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
        code, out, err = run(capsys, "bearoff", "build", "--mars", "1", "--threads", "2")
        assert code == 0 and "mars table ready" in out, err
        exact = race_probabilities(pos)
        assert exact.method == "two_sided" and exact.extra["mars_max_checkers"] == 1
    finally:
        mp.undo()


def test_help_and_entry_point():
    r = subprocess.run([sys.executable, "-m", "nardy_fast.cli", "--help"],
                       capture_output=True, text=True)
    assert r.returncode == 0
    for cmd in ("show", "moves", "rollout", "bearoff", "report", "analyse", "demo"):
        assert cmd in r.stdout
    r = subprocess.run([sys.executable, "-m", "nardy_fast.cli", "show", "bad"],
                       capture_output=True, text=True)
    assert r.returncode == 1 and r.stderr.count("\n") == 1
    assert r.stderr.startswith("nardy-fast: error:")
    r = subprocess.run([sys.executable, "-m", "nardy_fast.cli"], capture_output=True,
                       text=True)
    assert r.returncode == 2 and "Traceback" not in r.stderr


def test_demo_writes_reports_and_figures(capsys, tmp_path):
    out_dir = tmp_path / "demo"
    code, out, err = run(capsys, "demo", "-o", str(out_dir), "-n", "72", "--workers", "1")
    assert code == 0, err
    names = set(os.listdir(out_dir))
    for stem in ("pip_report", "win_report", "move_report", "game_report"):
        assert {f"{stem}.csv", f"{stem}.html"} <= names
    assert {"win_report.parquet", "convergence.png", "race.png", "bearoff_distribution.png",
            "game_graph.png", "sample_game.txt", "board_01.png"} <= names
    assert str(out_dir) in out
    wr = pd.read_csv(out_dir / "win_report.csv")
    assert wr["id"].iloc[0] == START and wr["method"].iloc[0] == "rollout"
    assert not any(n.startswith(".tmp") for n in names)


def test_bad_scheduler_address(capsys):
    code, out, err = run(capsys, "rollout", "start", "-n", "10", "--scheduler", "nowhere:port")
    assert code == 1
    assert err.startswith("nardy-fast: error: --scheduler nowhere:port: cannot connect")


def test_demo_default_is_documented():
    from nardy_fast import cli, demo
    assert cli.DEMO_GAMES == demo.DEFAULT_GAMES


def test_cube(capsys):
    import numpy as np
    from nardy_fast import Position
    me, you = np.zeros(24, int), np.zeros(24, int)
    me[18], you[23] = 1, 1           # 27 of 36 rolls win; the opponent then finishes
    pos = Position(me, you)
    code, out, err = run(capsys, "cube", pos.id)
    assert code == 0, err
    assert "cube: stake 1, in the middle" in out
    assert "double, take" in out and "method exact" in out
    code, out, err = run(capsys, "cube", pos.id, "--json", "--owner", "opponent", "--stake",
                         "2")
    d = json.loads(out)
    assert d["action"] == "no raise" and abs(d["equity"] - 0.5) < 1e-9
    code, out, err = run_catching(capsys, ["cube", pos.id, "--owner", "nobody"])
    assert code == 2
    code, out, err = run_catching(capsys, ["cube", "start", "--stake", "0"])
    assert code == 2 and "positive" in err
