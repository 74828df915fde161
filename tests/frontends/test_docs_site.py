"""The built documentation site (``make docs``): what a reader sees on its pages.

``docs/check_site.py`` holds the checks of the built HTML (a figure per drawing cell of a
notebook, the output of the guide's executed examples, no build warning on a page);
``make docs`` runs it after Sphinx, and the tests below run it on a build when one is
present (``docs/_build/html``), so that ``make test`` needs no docs build.  The width of the
code blocks is looked at in headless Chromium, as a reader's 1280-pixel window shows them.
"""
import json
import os
import pathlib
import re
import shutil
import subprocess

import pytest

from helpers import load_script

ROOT = pathlib.Path(__file__).resolve().parents[2]
HTML = ROOT / "docs" / "_build" / "html"

check_site = load_script(ROOT / "docs" / "check_site.py")

needs_build = pytest.mark.skipif(not (HTML / "index.html").exists(),
                                 reason="no built site: make docs")


def _site(tmp_path, notebook_cells, page_html, guide=None):
    """A tiny site: one notebook (its code cells' sources) and its built page."""
    nbs, html, docs = tmp_path / "nb", tmp_path / "html", tmp_path / "docs"
    for d in (nbs, html / "notebooks", docs):
        d.mkdir(parents=True)
    (html / "index.html").write_text("<html></html>")
    cells = [{"cell_type": "code", "source": [s], "outputs": [], "metadata": {},
              "execution_count": None} for s in notebook_cells]
    (nbs / "01_x.ipynb").write_text(json.dumps({"cells": cells}))
    (html / "notebooks" / "01_x.html").write_text(page_html)
    if guide is not None:
        (docs / "guide.md").write_text(guide[0])
        (html / "guide.html").write_text(guide[1])
    return check_site.check(html, notebooks=nbs, docs=docs)


FIGURE = ('<div class="cell_output docutils container"><img alt="_images/a.png" '
          'src="../_images/a.png" /></div>')
STDERR = ('<div class="cell_output docutils container"><div class="output stderr '
          'highlight-myst-ansi notranslate"><div class="highlight"><pre><span></span>'
          'TqdmWarning: IProgress not found. Please update jupyter and ipywidgets.'
          '</pre></div></div></div>')


def test_a_notebook_page_without_its_figures_is_found(tmp_path):
    cells = ["import nardy_fast as nf", "nf.plot_board(nf.Position.initial());",
             "nf.game_chart(frame);"]
    problems = _site(tmp_path, cells, "<html><body>" + FIGURE + "</body></html>")
    assert len(problems) == 1 and "1 figure(s) shown, 2 cell(s)" in problems[0]
    assert _site(tmp_path / "b", cells, "<html>" + FIGURE * 2 + "</html>") == []


def test_a_build_warning_on_a_page_is_found(tmp_path):
    problems = _site(tmp_path, ["x = 1"], "<html>" + STDERR + "</html>")
    assert len(problems) == 1 and "IProgress not found" in problems[0]


def test_a_guide_page_whose_examples_show_no_output_is_found(tmp_path):
    md = "# Page\n\n```{code-cell} ipython3\nprint(1)\n```\n"
    problems = _site(tmp_path, ["x = 1"], "<html></html>",
                     guide=(md, '<html><div class="cell_input"></div></html>'))
    assert problems == ["guide.html: 1 executed example(s), no output shown"]
    assert _site(tmp_path / "b", ["x = 1"], "<html></html>", guide=(
        md, '<html><div class="cell_output docutils container">1</div></html>')) == []


def test_make_docs_draws_inline_and_checks_the_site():
    """The kernels of the build draw with the inline backend (under ``Agg`` a notebook shows
    no figure), and the build is followed by the site's checks."""
    make = (ROOT / "Makefile").read_text(encoding="utf-8")
    recipe = make.split("\ndocs: ")[1].split("\n\n")[0]
    assert "MPLBACKEND=Agg" not in recipe
    assert "MPLBACKEND=module://matplotlib_inline.backend_inline" in recipe
    assert "docs/check_site.py docs/_build/html" in recipe
    assert recipe.index("sphinx-build") < recipe.index("check_site.py")
    assert recipe.index("sphinx-build") < recipe.index("tests/frontends/test_docs_site.py")


def test_the_docs_kernels_start_without_a_warning(tmp_path):
    """``make docs`` gives its kernels a profile that logs errors only: a kernel started
    with it prints nothing at start (without it: a warning that its TCP is unencrypted,
    once per notebook and guide page)."""
    import sys
    make = (ROOT / "Makefile").read_text(encoding="utf-8")
    recipe = make.split("\ndocs: ")[1].split("\n\n")[0]
    config = re.search(r'echo "(.+)" > build/ipython/profile_default/'
                       r'ipython_kernel_config.py', recipe).group(1)
    assert "IPYTHONDIR=$(CURDIR)/build/ipython" in recipe
    (tmp_path / "profile_default").mkdir()
    (tmp_path / "profile_default" / "ipython_kernel_config.py").write_text(config + "\n")
    code = ("from jupyter_client.manager import start_new_kernel\n"
            "km, kc = start_new_kernel(kernel_name='python3')\n"
            "kc.execute_interactive('1 + 1', timeout=60)\n"
            "kc.stop_channels(); km.shutdown_kernel(now=True)\n")
    env = {**os.environ, "IPYTHONDIR": str(tmp_path)}
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       env=env, timeout=120)
    assert r.returncode == 0, r.stderr
    assert "WARNING" not in r.stderr, r.stderr


@needs_build
def test_the_built_site_passes_its_checks():
    assert check_site.check(HTML) == []


@needs_build
@pytest.mark.parametrize("notebook", sorted((ROOT / "notebooks").glob("*.ipynb")),
                         ids=lambda p: p.stem)
def test_every_notebook_page_shows_its_figures(notebook):
    page = check_site.read_page(HTML / "notebooks" / (notebook.stem + ".html"))
    assert page.images >= check_site.drawing_cells(notebook) >= 1


# -- in the browser ------------------------------------------------------------------------
MEASURE = """<script>
window.addEventListener("load", () => {
  const cut = [];
  for (const pre of document.querySelectorAll("article pre")) {
    if (pre.scrollWidth > pre.clientWidth + 1) {
      cut.push((pre.textContent.split("\\n").find(l => l.length > 80) || "").slice(0, 100));
    }
  }
  document.body.setAttribute("data-cut", JSON.stringify(cut));
});
</script>"""


def _chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        if shutil.which(name):
            return shutil.which(name)
    if os.environ.get("CI") == "true":
        pytest.fail("no Chromium found under CI: .ci/install-browser installs it")
    pytest.skip("no Chromium found (chromium, chromium-browser or google-chrome)")


def _code_pages():
    """The guide's pages, the notebooks', the API pages (their Examples), Getting started,
    the decision benchmark's, the engine protocol's, the notations' and the command line's:
    the pages of code."""
    return (sorted((HTML / "guide").glob("*.html")) + sorted((HTML / "notebooks").glob("*.html"))
            + sorted((HTML / "generated").glob("nardy_fast.*.html"))
            + [HTML / f"{name}.html" for name in ("getting_started", "decision-benchmark",
                                                  "engine-protocol", "notations", "api_bearoff",
                                                  "api_study", "cli")])


@needs_build
@pytest.mark.slow
@pytest.mark.parametrize("page", _code_pages() if HTML.exists() else [],
                         ids=lambda p: p.stem)
def test_code_blocks_fit_a_1280_pixel_window(page, tmp_path):
    """No code block of a guide, notebook or API page is cut at 1280 pixels (a comment
    running off the right edge, read only by scrolling the block)."""
    probe = page.with_name(f".probe_{page.name}")
    probe.write_text(page.read_text(encoding="utf-8").replace("</body>", MEASURE + "</body>"),
                     encoding="utf-8")
    try:
        proc = subprocess.run(
            [_chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
             "--no-first-run", f"--user-data-dir={tmp_path / 'profile'}",
             "--window-size=1280,2400", "--virtual-time-budget=5000", "--dump-dom",
             probe.as_uri()], capture_output=True, text=True, timeout=180)
    finally:
        probe.unlink()
    assert proc.returncode == 0, proc.stderr[-2000:]
    m = re.search(r'data-cut="([^"]*)"', proc.stdout)
    assert m, "the page's measure did not run"
    cut = json.loads(m.group(1).replace("&quot;", '"').replace("&amp;", "&")
                     .replace("&lt;", "<").replace("&gt;", ">"))
    assert cut == [], f"{page.name}: code cut at 1280 px: {cut}"


@needs_build
def test_the_command_line_page_has_every_command_under_its_documented_name():
    from nardy_fast.app.cli import docs_parser
    import argparse
    sub = next(a for a in docs_parser()._actions
               if isinstance(a, argparse._SubParsersAction))
    page = (HTML / "cli.html").read_text(encoding="utf-8")
    headings = {re.sub(r" \(.*\)$", "", h)          # "analyse (analyze)": an alias
                for h in re.findall(r"<h3>(.*?)<a class=\"headerlink\"", page)}
    assert set(sub.choices) - {"analyze"} <= headings, set(sub.choices) - headings
    shown = re.search(r"Possible choices: (show[^<]*)", page).group(1)   # the command list
    for hidden in ("study-show", "study-export"):                         # (anchors keep it)
        assert hidden not in headings and hidden not in shown
