"""Every example of the documentation runs as written.

The ``python`` blocks of a page run in order in one namespace, in a fresh folder (so the
files they write go there); the ``sh`` blocks run line by line with ``bash -e`` in the
same folder, with the package's ``nardy-fast`` on the PATH.  A block preceded by a line
``<!-- not run: REASON -->`` is skipped (a cluster, a build of minutes, the set-up
commands themselves); every other block must run.
"""
import re

import pytest

from docblocks import DOCS, PAGES, ROOT, code_blocks, run_blocks


def test_the_guide_has_a_page_per_subsystem():
    names = {p.stem for p in (DOCS / "guide").glob("*.md")}
    assert {"positions", "moves", "tables", "rollouts", "studies", "evaluator", "cube",
            "match", "reports", "records", "distributed", "c_api"} <= names


def test_the_guide_shows_the_output_of_its_examples():
    """Every python example of a page that runs is a ``{code-cell}``: the site's build runs
    it and shows what it prints and returns under the code (``docs/check_site.py`` checks
    the built pages); a plain ```python block is only for one marked not run."""
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        for lang, code, skipped, line in code_blocks(page):
            if lang == "python" and not skipped:
                fence = text.splitlines()[line - 1].strip()
                assert fence.startswith("```{code-cell}"), \
                    f"{page.name}, line {line}: a python example shown without its output " \
                    "(use ```{code-cell} ipython3)"
        if "```{code-cell}" in text:
            assert text.startswith("---\nfile_format: mystnb\n"), \
                f"{page.name}: code cells need the myst-nb front matter"


def test_a_broken_example_fails(tmp_path, monkeypatch):
    page = tmp_path / "page.md"
    page.write_text("```python\nx = 1\n```\n\n```python\nassert x == 2\n```\n")
    with pytest.raises(AssertionError):
        run_blocks(page, tmp_path, monkeypatch)
    page.write_text("<!-- not run: a reason -->\n```python\nraise SystemExit\n```\n")
    assert run_blocks(page, tmp_path, monkeypatch) == 0


def test_the_docs_name_no_machine_paths():
    for page in PAGES + [ROOT / "README.md", DOCS / "conf.py"]:
        text = page.read_text(encoding="utf-8")
        for bad in ("/work/", "/tmp/", "/home/"):
            assert bad not in text, f"{page.name} names {bad}"


@pytest.mark.slow
@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(DOCS)))
def test_page_examples_run(page, tmp_path, monkeypatch, capsys):
    run_blocks(page, tmp_path, monkeypatch)
    check_printed(page.name, capsys.readouterr().out)


# What a page's examples print is read by a person: no object's repr in place of its value
# (a method printed instead of called) and no dump too long to read on the page.
MAX_PRINTED = 4000
# -0, -0. or -0.000 (a rounded small negative), not -0.5 nor 2026-05-01
NEGATIVE_ZERO = re.compile(r"(?<![\w.])-0(?:\.0*)?(?![0-9.])")


def check_printed(where, out):
    for bad in ("<bound method", "<function ", " object at 0x"):
        assert bad not in out, f"{where}: an example prints a repr, not a value: " \
            f"{out[max(0, out.find(bad) - 60):out.find(bad) + 80]!r}"
    assert len(out) <= MAX_PRINTED, f"{where}: the examples print {len(out)} characters " \
        f"(more than {MAX_PRINTED}: print what the reader needs)"
    zero = NEGATIVE_ZERO.search(out)
    assert zero is None, f"{where}: an example prints a negative zero: " \
        f"{out[max(0, zero.start() - 60):zero.end() + 20]!r}"


def test_a_printed_repr_or_dump_fails():
    class A:
        def result(self):
            return 1
    with pytest.raises(AssertionError, match="repr"):
        check_printed("page", f"{A().result}\n")
    with pytest.raises(AssertionError, match="characters"):
        check_printed("page", "x" * (MAX_PRINTED + 1))
    with pytest.raises(AssertionError, match="negative zero"):
        check_printed("page", "[[-0.001  0.202 -0.   ]]\n")
    check_printed("page", "{'winner': 'black', 'kind': 'oin', 'points': 1.0} 101\n")
    check_printed("page", "-0.5 -0.001 -0.01% 2026-05-01 x-0\n")


def _vocabulary():
    """(noun, verbs, attributes) of the vocabulary table of the positions guide."""
    text = (DOCS / "guide" / "positions.md").read_text(encoding="utf-8")
    table = text[text.index("| noun |"):]
    rows = []
    for line in table.splitlines()[2:]:
        if not line.startswith("| `"):
            break
        cells = [c.strip() for c in line.strip("|").split("|")]
        names = [re.findall(r"`\.?(\w+)", c) for c in cells]
        rows.append((names[0][0], names[2], names[3] if len(cells) > 3 else []))
    return rows


def test_the_vocabulary_table_calls_verbs_methods_and_attributes_not():
    """A verb of the table is a method (called), an attribute is read: a property listed
    as a verb (``Position.phase``) tells the reader to call what cannot be called."""
    import inspect

    import nardy_fast
    rows = _vocabulary()
    assert {"Position", "Outcome", "GameRecord", "CubeState"} <= {r[0] for r in rows}
    for noun, verbs, attributes in rows:
        cls = getattr(nardy_fast, noun)
        for verb in verbs:
            member = inspect.getattr_static(cls, verb, None)
            if member is None or verb in nardy_fast.__all__ or verb == "str":
                continue               # a function of the package, or a builtin
            assert callable(member) or isinstance(member, (classmethod, staticmethod)), \
                f"{noun}.{verb} is listed as a verb but is not a method"
        for attr in attributes:
            member = inspect.getattr_static(cls, attr, None)
            if attr.startswith(("p_", "se_")) or member is None and attr in getattr(
                    cls, "__dataclass_fields__", {}):
                continue
            assert isinstance(member, property) or attr in getattr(
                cls, "__dataclass_fields__", {}) or not callable(member), \
                f"{noun}.{attr} is listed as an attribute but is a method"


def test_the_api_reference_lists_every_exported_name():
    import nardy_fast
    text = (DOCS / "api.rst").read_text(encoding="utf-8")
    listed = set(re.findall(r"^   (\w+)$", text, re.M)) | set(re.findall(r"``nardy_fast\.(\w+)``",
                                                                          text))
    assert set(nardy_fast.__all__) - listed - {"bearoff"} == set() and "api_bearoff" in text


def test_the_api_reference_says_what_each_constant_is():
    """The reference called nardy_fast.CENTRED "the owner of a centred cube"; it is a
    whole CubeState, the cube at stake 1 in the middle."""
    import nardy_fast as nf
    text = (DOCS / "api.rst").read_text(encoding="utf-8")
    centred = text.split("``nardy_fast.CENTRED``\n")[1].split("\n``")[0]
    assert nf.CENTRED == nf.CubeState() and "``CubeState()``" in centred
    assert "stake 1" in centred and "owner" not in centred


def test_the_depths_a_report_documents_are_those_it_takes():
    """win_report documented plies as {0, 1, 2}, and takes 0 to 3 (MAX_SEARCH_PLIES)."""
    import inspect

    from numpydoc.docscrape import NumpyDocString

    import nardy_fast as nf
    from nardy_fast.engine.evaluation._search import MAX_SEARCH_PLIES
    from nardy_fast.engine.decisions.valuation import value_positions
    wanted = "{" + ", ".join(map(str, range(MAX_SEARCH_PLIES + 1))) + "}"
    for func in (nf.win_report, value_positions):
        doc = NumpyDocString(inspect.getdoc(func))
        [plies] = [p for p in doc["Parameters"] if p.name == "plies"]
        assert plies.type == wanted, func.__name__


def test_the_evaluator_page_is_for_users_and_the_history_is_with_the_benchmarks():
    """The evaluator's page says what each shipped net is, how accurate it is and what
    each depth costs; the training log of the nets (v1 to v7, their commands) is the
    dated history of the benchmarks (experiments/notes/, included in the benchmark page the
    page links to), which benchmarks/RESULTS.md names."""
    page = (DOCS / "guide" / "evaluator.md").read_text(encoding="utf-8")
    for heading in ("## Two nets: one judges, a faster one plays", "## How accurate it is",
                    "## Choosing plies"):
        assert f"\n{heading}" in page, heading
    plies = page.split("## Choosing plies")[1].split("\n## ")[0]
    assert "time per decision" in plies and "points lost per decision" in plies
    assert not re.search(r"\bv[1-5]\b", page), "a training log on the user's page"
    assert "train-net -o net_v" not in page and "average-nets" not in page
    assert "History of the shipped nets" in page
    note = "experiments/notes/2026-12-03-results-history.md"
    assert note in (ROOT / "benchmarks" / "RESULTS.md").read_text(encoding="utf-8")
    assert note in (DOCS / "benchmarks.md").read_text(encoding="utf-8")
    results = (ROOT / note).read_text(encoding="utf-8")
    history = results.split("\n## History of the shipped nets\n")
    assert len(history) == 2, f"{note} has no history of the shipped nets"
    assert re.search(r"\b20\d\d-\d\d-\d\d\b", history[1][:400]), "the history is not dated"
    for step in ("net_v1.nfdb", "net_v6.nfdb", "net_v7.nfdb"):
        assert step in history[1], step


def test_the_cube_errors_quoted_are_the_readmes():
    """The cube guide and ``cube_decision``'s docstring quote the points a cube decision
    loses per decision at 2 plies and at 0-ply, the figures of the README's table (which
    come from benchmarks/RESULTS.md): after the decision benchmark's cube decisions were
    rolled out again they must change together."""
    import nardy_fast as nf
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    row = next(line for line in readme.splitlines() if line.startswith("| money cube decision"))
    found = re.search(r"at 2 plies \(the default\) the doubler loses (0\.\d+) points per "
                      r"decision, the taker (0\.\d+); at 0-ply (0\.\d+) and (0\.\d+)", row)
    assert found, "the README's cube row no longer says what the docs quote"
    doubler2, taker2, doubler0, taker0 = found.groups()
    said = (f"doubler lost {doubler2} points per decision at 2-ply against {doubler0} at "
            f"0-ply, its taker {taker2} against {taker0}")
    guide = " ".join((DOCS / "guide" / "cube.md").read_text(encoding="utf-8").split())
    docstring = " ".join(nf.cube_decision.__doc__.split())
    assert said in guide, "docs/guide/cube.md quotes other cube errors than the README"
    assert said in docstring, "cube_decision's docstring quotes other cube errors than the README"


def test_the_evaluator_page_links_the_nets_history_to_the_page_that_has_it():
    """The history of the shipped nets is on the benchmark history's page
    (docs/benchmark_history.md includes the dated notes); the benchmark page shows only
    today's figures, so a pointer to the history sends the reader to the former."""
    page = " ".join((DOCS / "guide" / "evaluator.md").read_text(encoding="utf-8").split())
    links = re.findall(r"history[^.;]*?\{doc\}`(?:[^`<]*<)?([^`>]+)>?`", page, re.I)
    assert links, "the evaluator page no longer links the nets' history"
    for target in links:
        assert target == "/benchmark_history", f"the nets' history linked to {target}"
    assert "## History of the shipped nets" not in (ROOT / "benchmarks" / "RESULTS.md").read_text(
        encoding="utf-8")


def test_the_decision_benchmark_says_when_its_se_is_nan():
    """The page's own example scores phases of one decision, whose ``se`` is NaN (no spread
    over one decision): the page and ``score``'s docstring say so."""
    from nardy_fast.analysis import decisionbench
    page = " ".join((DOCS / "decision-benchmark.md").read_text(encoding="utf-8").split())
    doc = " ".join(decisionbench.score.__doc__.split())
    assert "NaN for a single decision" in page
    assert "NaN for a single decision" in doc


def test_the_readme_figure_is_drawn_without_a_warning(tmp_path):
    """docs/make_figures.py gave ``workers`` to a game report that plays no game (the
    net values it): each drawing of the README's figure warned that it had no effect."""
    import runpy
    import warnings

    main = runpy.run_path(str(DOCS / "make_figures.py"))["main"]
    main.__globals__["OUT"] = tmp_path              # not docs/images
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        main()
    assert (tmp_path / "game_chart.png").stat().st_size > 0
