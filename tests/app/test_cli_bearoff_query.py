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
