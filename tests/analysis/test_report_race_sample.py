"""Race probabilities stay in [0, 1] on the race sample of the reports (issue 26, item 11;
the labels: tests/core/test_methods.py)."""
from nardy_fast.analysis.report import race_sample
from nardy_fast.core.result import PROBABILITIES
from nardy_fast.tables.race import race_probabilities


def test_race_probabilities_are_in_range():
    for p in race_sample(600, seed=1):
        if p.is_over():
            continue
        o = race_probabilities(p)
        for name in PROBABILITIES:
            assert 0.0 <= getattr(o, name) <= 1.0, (p.id, name, getattr(o, name))
