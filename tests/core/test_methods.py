"""Approximations are named so: no label calls one exact (issue 26, item 11; race
probabilities in [0, 1]: tests/analysis/test_report_race_sample.py, the command line's bear-off
query: tests/app/test_cli_bearoff_query.py)."""
import pytest

from nardy_fast.core.methods import method_kind, method_label, methods_of


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


def test_methods_of_draws_a_tuple_from_the_vocabulary():
    assert methods_of("rollout", "net") == ("rollout", "net")
    assert methods_of() == ()
    with pytest.raises(ValueError, match="'evaluate': not in the vocabulary"):
        methods_of("net", "evaluate")
    with pytest.raises(ValueError, match="given twice"):
        methods_of("net", "net")



def test_a_table_searched_deeper_keeps_its_kind():
    # a hint's race rows at 1 or 2 plies: the table's values searched deeper
    assert method_kind("one_sided 2-ply") == "approximation"
    assert method_label("one_sided 2-ply") == "one-sided approximation, searched 2 plies"
    assert method_label("one_sided 1-ply") == "one-sided approximation, searched 1 ply"
    assert method_kind("two_sided 1-ply") == "exact"
    assert "exact" not in method_label("one_sided12 1-ply")
    for other in ("one_sided x-ply", "one_sided 2-plies", "nothing 2-ply", "rollout-ply"):
        assert method_kind(other) == "other", other


def test_a_cube_model_on_a_source_is_an_approximation():
    # a cube decision's method: the model on the probabilities it was given
    assert method_kind("janowski (net 2-ply)") == "approximation"
    assert method_label("janowski (two_sided)") == ("cube model (Janowski) on exact "
                                                    "(two-sided table)")
    assert method_kind("zadeh (net 0-ply)") == "approximation"
    for other in ("rollout (x)", "net (2-ply)", "janowski (net", "two_sided (x)"):
        assert method_kind(other) in ("other", "net"), other
