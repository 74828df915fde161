"""Every example of the documentation runs as written.

The ``python`` blocks of a page run in order in one namespace, in a fresh folder (so the
files they write go there); the ``sh`` blocks run line by line with ``bash -e`` in the
same folder, with the package's ``nardy-fast`` on the PATH.  A block preceded by a line
``<!-- not run: REASON -->`` is skipped (a cluster, a build of minutes, the set-up
commands themselves); every other block must run.
"""
import os
import pathlib
import re
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).parent.parent
DOCS = ROOT / "docs"
PAGES = sorted(p for p in DOCS.rglob("*.md")
               if p.name != "RULES.md" and "_build" not in p.parts
               and "notebooks" not in p.relative_to(DOCS).parts)
FENCE = re.compile(r"(?ms)^(?P<indent>[ ]*)```(?P<lang>[\w-]*)\n(?P<code>.*?)^(?P=indent)```[ ]*$")
SKIP = re.compile(r"<!-- not run: (?P<why>[^>]+) -->\s*$")


def code_blocks(path):
    """``[(language, code, skipped_because or None, line), ...]`` of a Markdown file."""
    text = pathlib.Path(path).read_text(encoding="utf-8")
    blocks = []
    for m in FENCE.finditer(text):
        before = text[:m.start()].rstrip("\n ").rsplit("\n", 1)[-1]
        skip = SKIP.search(before)
        indent = len(m.group("indent"))
        code = "\n".join(line[indent:] for line in m.group("code").splitlines()) + "\n"
        blocks.append((m.group("lang"), code, skip.group("why") if skip else None,
                       text.count("\n", 0, m.start()) + 1))
    return blocks


def run_blocks(path, workdir, monkeypatch):
    """Run the page's blocks in ``workdir``: the python ones in one namespace."""
    monkeypatch.chdir(workdir)
    monkeypatch.setenv("MPLBACKEND", "Agg")
    env = dict(os.environ, PATH=os.path.dirname(sys.executable) + os.pathsep
               + os.environ.get("PATH", ""))
    namespace = {"__name__": "__doc_example__"}
    ran = 0
    for lang, code, skipped, line in code_blocks(path):
        if skipped:
            continue
        where = f"{pathlib.Path(path).name}, line {line}"
        if lang == "python":
            exec(compile(code, where, "exec"), namespace)
        elif lang in ("sh", "console", "bash"):
            proc = subprocess.run(["bash", "-e", "-o", "pipefail", "-c", code], cwd=workdir,
                                  env=env, capture_output=True, text=True, timeout=900)
            assert proc.returncode == 0, f"{where}: {proc.stderr[-2000:]}"
        else:
            raise AssertionError(f"{where}: a ```{lang} block that is neither run nor marked "
                                 "<!-- not run: ... -->")
        ran += 1
    return ran


def test_the_guide_has_a_page_per_subsystem():
    names = {p.stem for p in (DOCS / "guide").glob("*.md")}
    assert {"positions", "moves", "tables", "rollouts", "studies", "evaluator", "cube",
            "match", "reports", "records", "distributed", "c_api"} <= names


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
def test_page_examples_run(page, tmp_path, monkeypatch):
    run_blocks(page, tmp_path, monkeypatch)


def test_the_api_reference_lists_every_exported_name():
    import nardy_fast
    text = (DOCS / "api.rst").read_text(encoding="utf-8")
    listed = set(re.findall(r"^   (\w+)$", text, re.M)) | set(re.findall(r"``nardy_fast\.(\w+)``",
                                                                          text))
    assert set(nardy_fast.__all__) - listed - {"bearoff"} == set() and "api_bearoff" in text
