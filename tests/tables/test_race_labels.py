"""Race probabilities stay in [0, 1] and approximations are named so (issue 26, item 11)."""
import json

import pytest

import nardy_fast as nf
from nardy_fast.analysis.report import race_sample
from nardy_fast.app.cli import main
from nardy_fast.core.methods import method_kind, method_label
from nardy_fast.core.result import PROBABILITIES
from nardy_fast.tables.race import race_probabilities

# A one-sided race whose convolved P(win) summed to 1.0000000000000004 before the cut.
NEAR_ONE = "WAAAAAAAAAAAAAAAAAAAAAAAAAQITEQMS"


def test_race_probabilities_are_in_range():
    for p in race_sample(600, seed=1):
        if p.is_over():
            continue
        o = race_probabilities(p)
        for name in PROBABILITIES:
            assert 0.0 <= getattr(o, name) <= 1.0, (p.id, name, getattr(o, name))


def test_labels_never_call_an_approximation_exact():
    assert method_kind("two_sided") == "exact"
    assert method_kind("final") == "exact"
    for m in ("one_sided", "one_sided12", "net 0-ply", "net 2-ply", "rollout", "janowski"):
        assert method_kind(m) != "exact", m
        assert "exact" not in method_label(m), m
    assert method_label("one_sided") == "one-sided approximation"
    assert method_label("net 1-ply") == "net 1-ply"
    with pytest.raises(TypeError, match="method name"):
        method_kind(None)


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
