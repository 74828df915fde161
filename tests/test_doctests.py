"""Docstring examples run as tests, in the Python modules and in the Cython extensions.

``doctest``'s finder skips Cython's compiled functions, so the examples are collected from
every public object's ``__doc__`` directly (as pyroaring's ``cydoctest`` does).
"""
import doctest
import importlib
import inspect

import pytest

MODULES = ["nardy_fast._movegen", "nardy_fast._board6", "nardy_fast._bomoves",
           "nardy_fast._onesided", "nardy_fast._twosided", "nardy_fast._mars",
           "nardy_fast._racetables", "nardy_fast._scoring", "nardy_fast._rules",
           "nardy_fast._rollout",
           "nardy_fast.rules", "nardy_fast.position", "nardy_fast.result",
           "nardy_fast.bearoff", "nardy_fast.race", "nardy_fast.rollout", "nardy_fast.report",
           "nardy_fast.record", "nardy_fast.plot", "nardy_fast.cube", "nardy_fast.cuberace"]


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
    assert "nardy_fast._movegen.successors" in names
