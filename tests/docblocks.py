"""The documentation's code blocks: found in a Markdown page and run as a reader would
(``tests/frontends/test_docs.py`` and ``tests/frontends/test_readme.py`` run them;
``.ci/doc_examples.py`` writes the python ones out for mypy).

A block preceded by a line ``<!-- not run: REASON -->`` is skipped.
"""
import os
import pathlib
import re
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
PAGES = sorted(p for p in DOCS.rglob("*.md")
               if p.name != "RULES.md" and "_build" not in p.parts
               and "notebooks" not in p.relative_to(DOCS).parts)
FENCE = re.compile(r"(?ms)^(?P<indent>[ ]*)```(?P<lang>\{code-cell\}[ ]+\w+|[\w-]*)\n"
                   r"(?P<code>.*?)^(?P=indent)```[ ]*$")
# A ```{code-cell} ipython3 block is a python example the site's build runs and shows the
# output of (myst-nb); the tests run it as any other python block.
CODE_CELL = re.compile(r"\{code-cell\}[ ]+(ipython3|python3?)$")
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
        lang = "python" if CODE_CELL.match(m.group("lang")) else m.group("lang")
        blocks.append((lang, code, skip.group("why") if skip else None,
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
