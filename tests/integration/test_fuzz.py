"""Every parser and loader, fuzzed: each input works or raises the documented error naming
the field, turn or file (the targets and their contracts: ``fuzz_targets.py``).  A few
examples per target here; ``tools/fuzz.py`` runs many (counts in RESULTS.md)."""
import pytest
from hypothesis import given, settings

from fuzz_targets import TARGETS

EXAMPLES = {"position_id": 200, "rules_spec": 150, "game_record": 60, "cli_args": 60,
            "db_file": 150, "position_line": 100, "mat_file": 40}


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(TARGETS))
def test_fuzz(name):
    strategy, check = TARGETS[name]

    @settings(max_examples=EXAMPLES[name], deadline=None)
    @given(strategy())
    def run(x):
        check(x)

    run()
