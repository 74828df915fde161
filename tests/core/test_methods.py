"""``core.methods``: the accepted names of each function drawn from the one vocabulary
(``methods_of``; that every function's are: ``tests/app/test_method_vocabulary.py``)."""
import pytest

from nardy_fast.core.methods import methods_of


def test_methods_of_draws_a_tuple_from_the_vocabulary():
    assert methods_of("rollout", "net") == ("rollout", "net")
    assert methods_of() == ()
    with pytest.raises(ValueError, match="'evaluate': not in the vocabulary"):
        methods_of("net", "evaluate")
    with pytest.raises(ValueError, match="given twice"):
        methods_of("net", "net")

