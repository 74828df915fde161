"""``core.methods``: the one vocabulary of ``method``, and the accepted names of each
function drawn from it (``methods_of``)."""
import pytest

from nardy_fast.analysis import report, study
from nardy_fast.core.methods import METHODS, methods_of
from nardy_fast.engine.decisions import cube, valuation
from nardy_fast.tables import _racetables, race


def test_methods_of_draws_a_tuple_from_the_vocabulary():
    assert methods_of("rollout", "net") == ("rollout", "net")
    assert methods_of() == ()
    with pytest.raises(ValueError, match="'evaluate': not in the vocabulary"):
        methods_of("net", "evaluate")
    with pytest.raises(ValueError, match="given twice"):
        methods_of("net", "net")


def test_every_functions_methods_are_drawn_from_the_vocabulary():
    for accepted in (race.METHODS, valuation.METHODS, valuation.TABLE_METHODS,
                     report.METHODS, cube.METHODS, study.METHODS):
        assert type(accepted) is tuple and accepted
        assert set(accepted) <= set(METHODS), accepted
    assert report.METHODS is valuation.METHODS


def test_the_race_tables_names_are_not_methods():
    """``_racetables`` names the table that served a value (``TABLE_NAMES``: "mars" is a
    table, not a method anyone may ask for); it has no ``METHODS`` any more."""
    assert _racetables.TABLE_NAMES == ("one_sided", "two_sided", "mars")
    assert not hasattr(_racetables, "METHODS")
