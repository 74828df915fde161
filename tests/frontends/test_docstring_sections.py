"""The numpydoc sections of the exported docstrings, as the API pages read them.

A paragraph left between the last parameter and ``Returns`` ("Every argument after
``n_games`` is keyword-only.") is read by numpydoc as one more parameter: the API page
showed the sentence in bold, backticks and all, as if it were an argument's name."""
import inspect
import re

import pytest

import nardy_fast

numpydoc = pytest.importorskip("numpydoc.docscrape")

# a parameter's name: identifiers (several, comma-separated, may share a description),
# ``*args``/``**kwargs``, and nothing a sentence has (backticks, brackets, full stops)
NAME = re.compile(r"^\*{0,2}\w+(, ?\*{0,2}\w+)*$")


def _documented():
    for name in nardy_fast.__all__:
        obj = inspect.unwrap(getattr(nardy_fast, name))
        if inspect.isfunction(obj):
            yield name, obj
        elif inspect.isclass(obj) and obj.__module__.startswith("nardy_fast"):
            yield name, obj
            for m, f in vars(obj).items():
                if not m.startswith("_") and inspect.isfunction(f):
                    yield f"{name}.{m}", f


@pytest.mark.parametrize("name, obj", list(_documented()), ids=lambda v: v
                         if isinstance(v, str) else "")
def test_every_parameter_numpydoc_reads_is_a_name(name, obj):
    if not inspect.getdoc(obj):
        pytest.skip("no docstring")
    doc = (numpydoc.ClassDoc(obj, config={"show_class_members": False})
           if inspect.isclass(obj) else numpydoc.FunctionDoc(obj))
    for section in ("Parameters", "Other Parameters"):
        bad = [p.name for p in doc[section] if not NAME.match(p.name.strip())]
        assert not bad, f"{name}: {section} read as names: {bad}"


@pytest.mark.parametrize("name, obj", list(_documented()), ids=lambda v: v
                         if isinstance(v, str) else "")
def test_every_return_numpydoc_reads_is_a_type(name, obj):
    """A ``Returns`` section written as a paragraph ("DataFrame, one row per move, best
    first: ``rank``, ...") is read line by line as return types: the API page of
    ``Evaluator.hint`` showed its whole description as bold type lines, no text."""
    if not inspect.getdoc(obj):
        pytest.skip("no docstring")
    doc = (numpydoc.ClassDoc(obj, config={"show_class_members": False})
           if inspect.isclass(obj) else numpydoc.FunctionDoc(obj))
    for section in ("Returns", "Yields"):
        bad = [p.type for p in doc[section] if "``" in p.type or ": " in p.type]
        assert not bad, f"{name}: {section} read as types: {bad}"


def _bearoff_page():
    """The members ``docs/api_bearoff.rst`` shows (``automodule`` with ``:members:``),
    the methods of its classes included."""
    import importlib
    import pathlib
    page = (pathlib.Path(__file__).resolve().parents[2] / "docs" / "api_bearoff.rst")
    for module, members in re.findall(r"automodule:: (\S+)\s+:members: ([^\n]+)",
                                      page.read_text(encoding="utf-8")):
        mod = importlib.import_module(module)
        for name in members.split(","):
            obj = getattr(mod, name.strip())
            yield name.strip(), obj
            if inspect.isclass(obj):
                for m, f in vars(obj).items():
                    if not m.startswith("_") and inspect.isfunction(f):
                        yield f"{name.strip()}.{m}", f


@pytest.mark.parametrize("name, obj", list(_documented()) + list(_bearoff_page()),
                         ids=lambda v: v if isinstance(v, str) else "")
def test_every_inline_literal_is_closed(name, obj):
    """Inline literals as reStructuredText reads them: two backquotes closed with a letter
    right after them (a CubeState literal with a plural s) or opened with a full stop right
    before them ("0..", then max_checkers) are no markup: the API pages showed the
    backquotes as text, the literal running on to the next pair."""
    core = pytest.importorskip("docutils.core")
    nodes = pytest.importorskip("docutils.nodes")
    doc = inspect.getdoc(obj)
    if not doc:
        pytest.skip("no docstring")
    tree = core.publish_doctree(doc, settings_overrides={"report_level": 5,
                                                         "halt_level": 5})
    bad = [str(t) for t in tree.findall(nodes.Text) if "``" in t
           and not isinstance(t.parent, (nodes.literal_block, nodes.doctest_block))]
    assert not bad, f"{name}: backquotes left as text: {bad}"


def _parameters_named():
    """``(name, function, names its Parameters sections give)`` of each exported function
    or method whose docstring has such a section (a class's parameters are its fields)."""
    for name, obj in _documented():
        if inspect.isclass(obj) or not inspect.getdoc(obj):
            continue
        doc = numpydoc.FunctionDoc(obj)
        named = {n.strip().lstrip("*") for section in ("Parameters", "Other Parameters")
                 for p in doc[section] for n in p.name.split(",")}
        if named:
            yield name, obj, named


@pytest.mark.parametrize("name, obj, named", list(_parameters_named()),
                         ids=lambda v: v if isinstance(v, str) else "")
def test_a_parameters_section_names_every_parameter(name, obj, named):
    """Where a docstring has a ``Parameters`` section, every argument of the signature is
    in it (alone or in a group such as ``policy, rules, truncate``): the API pages of
    ``cube_decision`` (``seed``), ``study`` (``plies``), ``game_report`` and
    ``simulate_matches`` left arguments out, with nothing to say what they do."""
    missing = [p for p in inspect.signature(obj).parameters
               if p not in ("self", "cls") and p not in named]
    assert not missing, f"{name}: not in its Parameters section: {missing}"
