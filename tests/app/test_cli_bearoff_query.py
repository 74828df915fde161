"""``nardy-fast bearoff query`` names a one-sided approximation so and keeps its
probabilities in [0, 1] (issue 26, item 11; the labels: tests/core/test_methods.py)."""
import json

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
    assert "exact" not in out
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


def test_a_mars_table_against_no_checker_is_refused(capsys):
    """``--mars 0`` built a table of 15 checkers against none: finished games only."""
    import pytest
    with pytest.raises(SystemExit):
        main(["bearoff", "build", "--mars", "0"])
    assert "argument --mars: 0: expected an integer 1..14" in capsys.readouterr().err
