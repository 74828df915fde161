"""``nardy-fast bearoff query`` names a one-sided approximation so and keeps its
probabilities in [0, 1] (issue 26, item 11; the labels: tests/core/test_methods.py)."""
import json

import pytest

import nardy_fast as nf
from nardy_fast.app.cli import main
from nardy_fast.tables.race import race_probabilities

# A one-sided race whose convolved P(win) summed to 1.0000000000000004 before the cut.
NEAR_ONE = "WAAAAAAAAAAAAAAAAAAAAAAAAAQITEQMS"


def test_bearoff_query_names_the_approximation_and_stays_in_range(capsys):
    assert race_probabilities(nf.Position.from_id(NEAR_ONE)).method == "one_sided"
    main(["bearoff", "query", NEAR_ONE])
    out = capsys.readouterr().out
    assert "one-sided approximation: P(win) 1.000000" in out
    assert "exact (" not in out                   # the note may say how to get it
    main(["bearoff", "query", "--json", NEAR_ONE])
    row = json.loads(capsys.readouterr().out)[0]
    assert row["method"] == "one_sided" and 0.0 <= row["p_win"] <= 1.0
    assert 0.0 <= row["p_lose"] <= 1.0


def test_a_finished_game_says_it_is_over(capsys):
    """The opponent has borne off: the query printed the two sides' mean turns and no race
    line, without a word on why (Python's ``race_probabilities`` says the game is over)."""
    over = "WAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAQ"
    assert main(["bearoff", "query", over]) == 0
    out = capsys.readouterr().out
    assert out.rstrip().endswith("game over: the opponent has borne off all 15 checkers")
    assert main(["bearoff", "query", "--json", over]) == 0
    row = json.loads(capsys.readouterr().out)[0]
    assert row["game_over"] == "the opponent has borne off all 15 checkers"
    assert "p_win" not in row


def test_the_query_under_draw_rule_shows_the_draws_and_blacks_last_turn(capsys):
    """Under ``--rules draw_rule=true`` the query left P(draw) out (text and JSON: P(win)
    and P(lose) did not add to 1) and called Black's last turn "game over"."""
    rules = nf.Rules(draw_rule=True)
    white, last = "WAAAAAAAAAAAAAAAAAAAAAAAAAgABABAQ", "BAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAg"
    assert main(["bearoff", "query", "--json", "--rules", "draw_rule=true", white, last]) == 0
    rows = json.loads(capsys.readouterr().out)
    for row, pid in zip(rows, (white, last)):
        o = race_probabilities(nf.Position.from_id(pid), rules=rules)
        assert 0 < o.p_draw
        assert row["p_draw"] == o.p_draw and row["method"] == o.method
        assert row["p_win"] + row["p_draw"] + row["p_lose"] == pytest.approx(1.0)
        assert "game_over" not in row
    assert rows[1]["method"] == "final (last turn)"
    assert main(["bearoff", "query", "--rules", "draw_rule=true", white, last]) == 0
    out = capsys.readouterr().out
    assert "game over" not in out and out.count("P(draw) ") == 2
    assert "exact (last turn): P(win) 0.000000  P(draw) 1.000000" in out
    assert main(["bearoff", "query", "--json", white]) == 0        # classic: no draws
    assert "p_draw" not in json.loads(capsys.readouterr().out)[0]



def test_the_query_shows_a_level_race_without_a_minus_zero(capsys):
    """A level 14 v 14 race under ``draw_rule`` has a one-sided equity of -1e-17 points
    (float rounding): it reads +0.000000, not -0.000000."""
    race = "WAAAAAAAAAAAAAAAAAAAAAAAAIiIiIiJE"
    assert main(["bearoff", "query", "--rules", "draw_rule=true", race]) == 0
    out = capsys.readouterr().out
    assert "-0.000000" not in out and out.rstrip().endswith("equity +0.000000 points"), out

def test_a_mars_table_against_no_checker_is_refused(capsys):
    """``--mars 0`` built a table of 15 checkers against none: finished games only."""
    with pytest.raises(SystemExit):
        main(["bearoff", "build", "--mars", "0"])
    assert "argument --mars: 0: expected an integer 1..14" in capsys.readouterr().err


def test_under_extended_scoring_the_query_gives_the_home_mars(capsys):
    """Under extended scoring a race's mars is a home mars, worth 4 points: the query
    showed P(mars win) 1 and equity +4 with no home mars column, an equity its numbers
    did not explain.  It now gives P(home mars win) and P(home mars loss)."""
    pid = "WAAAAAAAAAAAAAAAAAAAAAAAAAAEAAwEa"
    main(["bearoff", "query", "--json", "--rules", "scoring=extended", pid])
    row = json.loads(capsys.readouterr().out)[0]
    assert (row["p_mars_win"], row["p_home_mars_win"], row["equity"]) == (1.0, 1.0, 4.0)
    assert row["p_home_mars_loss"] == 0.0
    main(["bearoff", "query", "--rules", "scoring=extended", pid])
    assert "P(home mars win) 1.000000" in capsys.readouterr().out
    main(["bearoff", "query", "--json", pid])
    assert "p_home_mars_win" not in json.loads(capsys.readouterr().out)[0]


def test_the_query_names_the_table_and_how_to_get_an_exact_value(capsys):
    """The query said "exact (two-sided table)" whichever table answered (the in-memory
    table, the complete one, the mars table) and dropped the note of a one-sided value
    (which table would make it exact); text and JSON now give both."""
    exact, far = "WAAAAAAAAAAAAAAAAAAAAAAAAAQEQIAEB", "WAAAAAAAAAAAAAAAAAAAAAAAAICAhMTAw"
    o = race_probabilities(nf.Position.from_id(far))
    assert o.method == "one_sided" and "mars table" in o.extra["note"]
    assert main(["bearoff", "query", "--json", exact, far]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert rows[0]["table"] == "the two-sided table of up to 8 checkers a side"
    assert "note" not in rows[0]
    assert rows[1]["note"] == o.extra["note"] and "table" not in rows[1]
    assert main(["bearoff", "query", exact, far]) == 0
    out = capsys.readouterr().out
    assert "  table: the two-sided table of up to 8 checkers a side\n" in out
    assert f"  note: {o.extra['note']}\n" in out


def test_a_cube_game_names_the_classic_complete_table_that_answered(built4, capsys):
    """Under cube rules (every win 1) the complete table built for classic points values
    a race where no mars is possible; the query names it with its points, and classic
    rules keep their words."""
    pid = "WAAAAAAAAAAAAAAAAAAAAAAAAAQEQARAR"           # 3 checkers against 4, none 15
    table = "the complete two-sided table of up to 4 checkers a side"
    main(["bearoff", "query", "--json", pid])
    assert json.loads(capsys.readouterr().out)[0]["table"] == table
    main(["bearoff", "query", "--json", "--rules", "cube=geometric", pid])
    row = json.loads(capsys.readouterr().out)[0]
    assert row["table"] == f"{table}, built for oin 1 and mars 2 points"
    assert row["method"] == "two_sided" and "note" not in row
