"""Docstring examples run as tests, in the Python modules and in the Cython extensions.

``doctest``'s finder skips Cython's compiled functions, so the examples are collected from
every public object's ``__doc__`` directly (as pyroaring's ``cydoctest`` does).
"""
import doctest
import importlib
import inspect

import pytest

MODULES = ["nardy_fast.core._movegen", "nardy_fast.core._scoring", "nardy_fast.core._rules",
           "nardy_fast.core.rules", "nardy_fast.core.position", "nardy_fast.core.result",
           "nardy_fast.core.record", "nardy_fast.core.cubestate", "nardy_fast.core.diagram",
           "nardy_fast.tables._board6", "nardy_fast.tables._bomoves",
           "nardy_fast.tables._onesided", "nardy_fast.tables._twosided", "nardy_fast.tables._mars",
           "nardy_fast.tables._racetables", "nardy_fast.tables.bearoff", "nardy_fast.tables.race",
           "nardy_fast.tables.cuberace",
           "nardy_fast.engine._rollout", "nardy_fast.engine.rollout", "nardy_fast.engine.cube",
           "nardy_fast.engine.cubemodel",
           "nardy_fast.analysis.report", "nardy_fast.analysis.plot",
           "nardy_fast.analysis.cubereport"]


def _examples():
    parser = doctest.DocTestParser()
    for name in MODULES:
        mod = importlib.import_module(name)
        objects = [(name, mod)]
        for attr, obj in vars(mod).items():
            if attr.startswith("_") or not (inspect.isroutine(obj) or inspect.isclass(obj)) \
                    or getattr(obj, "__module__", None) != name:
                continue
            objects.append((f"{name}.{attr}", obj))
            if inspect.isclass(obj):
                objects += [(f"{name}.{attr}.{m}", f) for m, f in vars(obj).items()
                            if not m.startswith("_") and (inspect.isroutine(f) or
                                                          isinstance(f, property))]
        for qual, obj in objects:
            doc = getattr(obj, "__doc__", None)
            if isinstance(doc, str) and ">>>" in doc:
                yield pytest.param(parser.get_doctest(doc, dict(vars(mod)), qual, name, 0),
                                   id=qual)


@pytest.mark.parametrize("test", list(_examples()))
def test_docstring_examples(test):
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    runner.run(test)
    assert runner.failures == 0, f"{test.name}: {runner.failures} example(s) failed"


def test_examples_were_found():
    names = {p.id for p in _examples()}
    assert "nardy_fast.core._movegen.successors" in names
