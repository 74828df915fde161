"""Docstring examples run as tests, in the Python modules and in the Cython extensions.

``doctest``'s finder skips Cython's compiled functions, so the examples are collected from
every public object's ``__doc__`` directly (as pyroaring's ``cydoctest`` does).
"""
import doctest
import importlib
import inspect
import tempfile

import pytest

import nardy_fast

MODULES = ["nardy_fast.core._movegen", "nardy_fast.core._scoring", "nardy_fast.core._rules",
           "nardy_fast.core.rules", "nardy_fast.core.position", "nardy_fast.core.result",
           "nardy_fast.core.record", "nardy_fast.core.cubestate", "nardy_fast.core.diagram",
           "nardy_fast.tables._board6", "nardy_fast.tables._bomoves",
           "nardy_fast.tables._onesided", "nardy_fast.tables._twosided", "nardy_fast.tables._mars",
           "nardy_fast.tables._racetables", "nardy_fast.tables.bearoff", "nardy_fast.tables.race",
           "nardy_fast.tables.cuberace",
           "nardy_fast.engine.play._rollout", "nardy_fast.engine.play.rollout", "nardy_fast.engine.decisions.cube",
           "nardy_fast.engine.evaluation.cubemodel",
           "nardy_fast.analysis.report", "nardy_fast.analysis.plot",
           "nardy_fast.analysis.cubereport", "nardy_fast.analysis.decisionbuild",
           "nardy_fast.env._vecenv", "nardy_fast.env.actions"]


def _exported():
    """(name, object) of every function, class and module in ``nardy_fast.__all__``, the
    object unwrapped (a renamed keyword's or a cache's wrapper keeps the docstring)."""
    for name in nardy_fast.__all__:
        obj = getattr(nardy_fast, name)
        if inspect.isroutine(obj) or inspect.isclass(obj) or inspect.ismodule(obj):
            yield name, obj


def _exported_homes():
    """The modules that define the exported names (each one's examples run from there)."""
    homes = set()
    for _, obj in _exported():
        homes.add(obj.__name__ if inspect.ismodule(obj) else inspect.unwrap(obj).__module__)
    return sorted(homes - set(MODULES))


def _examples():
    parser = doctest.DocTestParser()
    for name in MODULES + _exported_homes():
        mod = importlib.import_module(name)
        objects = [(name, mod)]
        for attr, obj in vars(mod).items():
            if attr.startswith("_") or not (inspect.isroutine(obj) or inspect.isclass(obj)) \
                    or getattr(inspect.unwrap(obj), "__module__", None) != name:
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
def test_docstring_examples(test, tmp_path, monkeypatch):
    # The examples make their files in ``tempfile.mkdtemp()``, as a user's would; here
    # that folder is under the test's own, which pytest removes, not the system's.
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    runner.run(test)
    assert runner.failures == 0, f"{test.name}: {runner.failures} example(s) failed"


def test_examples_were_found():
    names = {p.id for p in _examples()}
    assert "nardy_fast.core._movegen.successors" in names


def _sections(doc):
    """The numpydoc section titles of a docstring (a title line over a line of dashes)."""
    lines = [line.strip() for line in inspect.cleandoc(doc or "").splitlines()]
    return {a for a, b in zip(lines, lines[1:]) if a and b and set(b) == {"-"}
            and len(b) == len(a)}


@pytest.mark.parametrize("name", [n for n, _ in _exported()])
def test_every_export_has_examples(name):
    """Every exported function, class and module shows its use in an Examples section,
    which runs above (its module is collected)."""
    obj = getattr(nardy_fast, name)
    assert "Examples" in _sections(obj.__doc__), f"nardy_fast.{name} has no Examples section"
    home = obj.__name__ if inspect.ismodule(obj) else inspect.unwrap(obj).__module__
    assert home in MODULES + _exported_homes()


@pytest.mark.parametrize("name", [n for n, o in _exported() if inspect.isroutine(o)])
def test_every_exported_function_says_what_it_returns(name):
    doc = getattr(nardy_fast, name).__doc__
    assert _sections(doc) & {"Returns", "Yields"}, f"nardy_fast.{name} has no Returns section"


def test_every_exported_example_is_collected():
    """The examples of the exported names are among the ones run (a name whose examples
    were not collected would pass the section check and never run)."""
    ids = {p.id for p in _examples()}
    for name, obj in _exported():
        if inspect.ismodule(obj):
            assert obj.__name__ in ids, name
        else:
            inner = inspect.unwrap(obj)
            assert f"{inner.__module__}.{inner.__name__}" in ids, name
