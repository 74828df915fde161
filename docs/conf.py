"""Sphinx configuration of the nardy_fast documentation (``make docs``)."""
import os
import pathlib
import shutil

import nardy_fast

HERE = pathlib.Path(__file__).parent
ROOT = HERE.parent

project = "nardy_fast"
author = "the nardy_fast authors"
copyright = "2026, the nardy_fast authors"
release = nardy_fast.__version__
version = ".".join(release.split(".")[:2])

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "numpydoc",
    "myst_nb",
    "sphinxarg.ext",      # the command line's page, from the parser itself
]

# The notebooks are rendered from copies made here (the folder `notebooks/` beside the
# package is their one home); executed at build time unless NARDY_FAST_DOCS_EXECUTE=off.
_NB = HERE / "notebooks"
_NB.mkdir(exist_ok=True)
for _src in sorted((ROOT / "notebooks").glob("*.ipynb")):
    _dst = _NB / _src.name
    if not _dst.exists() or _dst.read_bytes() != _src.read_bytes():
        shutil.copyfile(_src, _dst)
nb_execution_mode = os.environ.get("NARDY_FAST_DOCS_EXECUTE", "force")
nb_execution_timeout = 600
nb_execution_raise_on_error = True
nb_execution_in_temp = True

source_suffix = {".rst": "restructuredtext", ".md": "myst-nb", ".ipynb": "myst-nb"}
myst_enable_extensions = ["colon_fence"]
# quotes and ellipses made typographic, never dashes: an option named in prose (the help
# texts on the command line's page: "--out", "-o/--out") keeps its two hyphens
smartquotes_action = "qe"
myst_heading_anchors = 3
exclude_patterns = ["_build", "**.ipynb_checkpoints"]
templates_path = ["_templates"]

autosummary_generate = True
autosummary_imported_members = True
autodoc_default_options = {"members": True, "inherited-members": False}
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False
numpydoc_validation_checks = set()

html_theme = "pydata_sphinx_theme"
html_title = f"nardy_fast {release}"
# The guide's pages, the notebooks, the API pages (their Examples), Getting started and the
# pages of commands and sessions (the decision benchmark, the engine protocol, the
# notations) are code first: no column of their own headings beside the article, so that a
# 100-character line of code shows whole at 1280 pixels (tests/frontends/test_docs_site.py
# looks in Chromium).
CODE_PAGES = ["getting_started", "decision-benchmark", "engine-protocol", "notations",
              "api_bearoff", "api_study"]
html_theme_options = {
    "navigation_with_keys": False, "show_toc_level": 2,
    "secondary_sidebar_items": {
        "**": ["page-toc", "edit-this-page", "sourcelink"],
        **{f"guide/{p.stem}": [] for p in (HERE / "guide").glob("*.md")},
        **{f"notebooks/{p.stem}": [] for p in (ROOT / "notebooks").glob("*.ipynb")},
        **{f"generated/nardy_fast.{name}": [] for name in nardy_fast.__all__},
        **{page: [] for page in CODE_PAGES},
    },
}
html_static_path = ["_static"]
html_css_files = ["custom.css"]
