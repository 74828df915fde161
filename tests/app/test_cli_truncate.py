"""``--truncate race12``, which the Python API takes, is offered by the command line too;
without the race database it says how to build it."""
import csv
import io
import json
import subprocess
import sys

import pytest

from nardy_fast.app.cli import build_parser
from nardy_fast.tables.race12 import cached_race12

from helpers import run_cli


@pytest.mark.parametrize("command", ["rollout", "study", "report", "analyse"])
def test_race12_is_a_choice(command):
    sub = build_parser()._subparsers._group_actions[0].choices[command]
    option = next(a for a in sub._actions if "--truncate" in a.option_strings)
    assert list(option.choices) == ["bearoff", "race12", "none"]


def test_race12_without_the_database_says_how_to_build_it():
    if cached_race12() is not None:
        pytest.skip("the race database is built in this data folder")
    r = subprocess.run([sys.executable, "-m", "nardy_fast.app.cli", "rollout", "start", "-n",
                        "36", "--truncate", "race12", "--no-progress"], capture_output=True,
                       text=True, timeout=120)
    assert r.returncode == 1
    assert r.stderr == ("nardy-fast: error: --truncate race12: the race database has not "
                        "been built; build it once with 'nardy-fast bearoff build "
                        "--race12'\n")


def test_a_rollout_that_plays_no_roll_says_what_valued_it(capsys):
    """``rollout`` of a race of both homes printed "games 324  P(win) 0.8241 ± 0.0000" for
    the exact table's value and "± nan ... 95% CI [+nan, +nan]" for the one-sided
    approximation's, as if games had been played.  It now names the table, and a rollout
    of one game prints no "± nan"."""
    exact, approx = "WAAAAAAAAAAAAAAAAAAAAAAAAARIREhAw", "WAAAAAAAAAAAAAAAAAAAAAAAAIjQxEzMR"
    code, out, err = run_cli(capsys, "rollout", exact, approx, "-n", "36", "--seed", "1",
                             "--workers", "1", "--no-progress")
    assert code == 0, err
    assert f"{exact}  white on roll  no game played: exact (two-sided table)\n" in out
    assert (f"{approx}  white on roll  no game played: one-sided approximation, error not "
            "measured\n") in out
    assert "games 36" not in out and "nan" not in out and "±" not in out.split("\n", 1)[1]
    code, out, err = run_cli(capsys, "rollout", "start", "-n", "1", "--workers", "1",
                             "--no-progress")
    assert code == 0 and "games 1" in out and "nan" not in out
    assert "(no standard error from fewer than 2 games)" in out


def test_rollout_json_and_csv_say_what_valued_a_race_of_both_homes(capsys):
    """``rollout --json`` (and ``--csv``) of a race of both homes gave ``"method":
    "rollout"``, ``"games": 36`` and the luck net's rounding as a standard error
    (``se_equity`` 5e-09) where the text says "no game played: exact (two-sided table)":
    they now give the table's method, 0 games and its standard errors (0 exact, none for
    the approximation), as a study's row of the same position does."""
    exact, approx = "WAAAAAAAAAAAAAAAAAAAAAAAAARIREhAw", "WAAAAAAAAAAAAAAAAAAAAAAAAIjQxEzMR"
    code, out, err = run_cli(capsys, "rollout", exact, approx, "start", "-n", "36",
                             "--seed", "1", "--workers", "1", "--no-progress", "--json")
    assert code == 0, err
    rows = [json.loads(line) for line in out.splitlines()]
    assert [(r["method"], r["games"]) for r in rows] == [("two_sided", 0), ("one_sided", 0),
                                                         ("rollout", 36)]
    assert rows[0]["se_equity"] == 0.0 and rows[0]["se_p_win"] == 0.0
    assert rows[1]["se_equity"] is None and rows[1]["se_p_win"] is None
    assert rows[2]["se_equity"] > 0
    code, out, err = run_cli(capsys, "rollout", exact, "-n", "36", "--seed", "1",
                             "--workers", "1", "--no-progress", "--csv")
    row = next(csv.DictReader(io.StringIO(out)))
    assert (row["method"], row["games"], float(row["se_equity"])) == ("two_sided", "0", 0.0)


def test_a_rollout_whose_games_end_in_approximated_races_says_so(capsys):
    """Every game of this race ends after its first roll in a race the one-sided
    approximation values (12 checkers a side): the text had shown an SE of 0 and a 95%
    interval of no width, "P(win) 0.4812 ± 0.0000 ... CI [-0.0377, -0.0377]", as if
    exact.  It now says the error is not measured; a rollout with some such games says
    how many, and that their error is not in the interval."""
    all_approx = "WAAAAAAAAAAAAAAAAAAAAABAAAAESMCWG"
    code, out, err = run_cli(capsys, "rollout", all_approx, "-n", "72", "--seed", "1",
                             "--workers", "1", "--no-progress")
    assert code == 0, err
    assert "± 0.0000" not in out and "95% CI" not in out
    assert "(error not measured: every game ended in a race the one-sided approximation " \
           "valued, alike for each first roll)" in out
    code, out, err = run_cli(capsys, "rollout", "start", "-n", "72", "--seed", "1",
                             "--workers", "1", "--no-progress")
    assert code == 0 and "95% CI" in out
    assert "of 72 games ended in races an approximation valued (one-sided): its error " \
           "is not in the ±" in out
