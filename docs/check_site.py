"""Checks of the built documentation site, run by ``make docs`` after Sphinx (and by
tests/frontends/test_docs_site.py when a build is present).

- every notebook page shows a figure for each code cell of its notebook that draws one
  (a figure missing from the page is a build that did not capture it: a kernel under a
  non-inline matplotlib backend shows none);
- every guide page whose examples run at build time (``{code-cell}``) shows their output;
- no page shows a warning of the build in place of an output (``IProgress not found``,
  a kernel's or a library's warning: an output written to standard error).

Usage: python docs/check_site.py [HTML_FOLDER]   (default docs/_build/html)
"""
from __future__ import annotations

import json
import pathlib
import re
import sys
from html.parser import HTMLParser

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parent

# A code cell that draws: the package's charts and board diagram, or pyplot itself.
DRAWS = re.compile(r"\b(plot_board|game_chart|race_chart|convergence_chart|"
                   r"bearoff_distribution|plt\.(plot|bar|hist|subplots|figure|scatter)|"
                   r"\.plot\()")
# Text of a warning printed by the build into a page.
NOISE = ("IProgress not found", "Warning:", "UserWarning", "DeprecationWarning",
         "RuntimeWarning", "FutureWarning")


class _Page(HTMLParser):
    """The figures, the cell outputs and the standard-error outputs of a page."""

    def __init__(self):
        super().__init__()
        self.images = 0            # <img> of a cell's output (png, svg, jpeg)
        self.outputs = 0           # cell outputs of any kind
        self.stderr = []           # text of the outputs written to standard error
        self._stderr_depth = None
        self._depth = 0

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        classes = (attrs.get("class") or "").split()
        if tag not in ("img", "br", "meta", "link", "input", "hr"):
            self._depth += 1
        if "cell_output" in classes:
            self.outputs += 1
        if tag == "img" and re.search(r"\.(png|svg|jpe?g)$", attrs.get("src") or ""):
            self.images += 1
        if "stderr" in classes and self._stderr_depth is None:
            self._stderr_depth = self._depth
            self.stderr.append("")

    def handle_endtag(self, tag):
        if tag in ("img", "br", "meta", "link", "input", "hr"):
            return
        if self._stderr_depth is not None and self._depth == self._stderr_depth:
            self._stderr_depth = None
        self._depth -= 1

    def handle_data(self, data):
        if self._stderr_depth is not None:
            self.stderr[-1] += data


def read_page(path: pathlib.Path) -> _Page:
    page = _Page()
    page.feed(path.read_text(encoding="utf-8"))
    return page


def drawing_cells(notebook: pathlib.Path) -> int:
    """The code cells of ``notebook`` that draw a figure."""
    cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
    return sum(1 for c in cells if c["cell_type"] == "code"
               and DRAWS.search("".join(c["source"])))


def code_cells(page: pathlib.Path) -> int:
    """The ``{code-cell}`` blocks of a Markdown page (executed by the build)."""
    return len(re.findall(r"(?m)^```\{code-cell\}", page.read_text(encoding="utf-8")))


def check(html: pathlib.Path, notebooks: pathlib.Path = ROOT / "notebooks",
          docs: pathlib.Path = HERE) -> list[str]:
    """Every problem found in the site built in ``html``, as a line naming the page."""
    problems = []
    if not (html / "index.html").exists():
        return [f"{html}: no built site here (make docs)"]
    for nb in sorted(notebooks.glob("*.ipynb")):
        built = html / "notebooks" / (nb.stem + ".html")
        if not built.exists():
            problems.append(f"{built.relative_to(html)}: missing (notebook {nb.name})")
            continue
        page, want = read_page(built), drawing_cells(nb)
        if page.images < want:
            problems.append(f"{built.relative_to(html)}: {page.images} figure(s) shown, "
                            f"{want} cell(s) of {nb.name} draw one")
    for src in sorted(docs.rglob("*.md")):
        if "_build" in src.parts or "notebooks" in src.relative_to(docs).parts:
            continue
        built = html / src.relative_to(docs).with_suffix(".html")
        if not built.exists():
            continue
        n = code_cells(src)
        if n and read_page(built).outputs == 0:
            problems.append(f"{built.relative_to(html)}: {n} executed example(s), no output "
                            "shown")
    for built in sorted(html.rglob("*.html")):
        if "_static" in built.parts or "_modules" in built.parts:
            continue
        for text in read_page(built).stderr:
            noisy = [w for w in NOISE if w in text]
            if noisy:
                problems.append(f"{built.relative_to(html)}: the build's warning shown on "
                                f"the page: {text.strip()[:120]!r}")
    return problems


def main(argv: list[str]) -> int:
    html = pathlib.Path(argv[0]) if argv else HERE / "_build" / "html"
    problems = check(html)
    for p in problems:
        print(f"check_site: {p}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
