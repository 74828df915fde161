"""The notebooks run top to bottom (small defaults) and are committed without outputs."""
import os
import pathlib
import re

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")

ROOT = pathlib.Path(__file__).resolve().parents[2]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))


def test_there_are_notebooks():
    names = {p.name for p in NOTEBOOKS}
    assert {"01_quick_start.ipynb", "02_rollout_study.ipynb", "03_bearoff.ipynb"} <= names


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_committed_without_outputs(path):
    nb = nbformat.read(path, as_version=4)
    nbformat.validate(nb)
    for cell in nb.cells:
        if cell.cell_type == "code":
            assert cell.outputs == [] and cell.execution_count is None, \
                f"{path.name}: clear the outputs before committing"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_the_text_has_no_tex_the_site_would_show_raw(path):
    """The documentation site renders the notebooks' text without a math extension
    (docs/conf.py), so ``$1/\\sqrt{n}$`` would be shown as typed: write formulas in
    plain text."""
    nb = nbformat.read(path, as_version=4)
    for cell in nb.cells:
        if cell.cell_type == "markdown":
            tex = re.search(r"\$[^$\n]*\\[A-Za-z]+[^$\n]*\$|\$\$", cell.source)
            assert not tex, f"{path.name}: {tex.group(0)!r} shows as raw TeX on the site"


@pytest.mark.slow
@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_runs(path, tmp_path, monkeypatch):
    nb = nbformat.read(path, as_version=4)
    monkeypatch.setenv("MPLBACKEND", "module://matplotlib_inline.backend_inline")
    client = nbclient.NotebookClient(nb, timeout=600, kernel_name="python3",
                                     resources={"metadata": {"path": str(tmp_path)}})
    client.execute()
    errors = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs
              if o.output_type == "error"]
    assert not errors
    # the figures and frames were displayed
    kinds = {k for c in nb.cells if c.cell_type == "code" for o in c.outputs
             for k in o.get("data", {})}
    assert "image/png" in kinds and "text/html" in kinds
    if path.name == "01_quick_start.ipynb":          # its exports: a git-ignored folder
        assert {"pips.csv", "wins.parquet", "moves.html"} <= \
            set(os.listdir(tmp_path / "notebook_output"))
        assert "notebook_output/" in (ROOT / ".gitignore").read_text().split()


@pytest.mark.slow
def test_quick_start_without_the_parquet_extra(tmp_path, monkeypatch):
    """A plain install (no pyarrow): the export cell says so and writes the other files."""
    hide = tmp_path / "hide"
    (hide / "pyarrow").mkdir(parents=True)
    (hide / "pyarrow" / "__init__.py").write_text(
        "raise ImportError('pyarrow hidden: a plain install')\n")
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(
        [str(hide)] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]))
    monkeypatch.setenv("MPLBACKEND", "module://matplotlib_inline.backend_inline")
    run = tmp_path / "run"
    run.mkdir()
    nb = nbformat.read(ROOT / "notebooks" / "01_quick_start.ipynb", as_version=4)
    nbclient.NotebookClient(nb, timeout=600, kernel_name="python3",
                            resources={"metadata": {"path": str(run)}}).execute()
    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs]
    assert not [o for o in outputs if o.output_type == "error"]
    text = "".join(o.get("text", "") for o in outputs if o.output_type == "stream")
    assert "pyarrow is not installed: no Parquet file" in text
    assert sorted(os.listdir(run / "notebook_output")) == ["moves.html", "pips.csv"]


def test_the_study_notebook_says_which_positions_have_no_standard_error(tmp_path):
    """The study notebook's summary counts fewer standard errors than positions: a race of
    both homes is valued at the start, its SE 0 where exact and NaN where the one-sided
    approximation valued it.  The notebook says so, and a study does so."""
    pytest.importorskip("pyarrow")
    import numpy as np
    import nardy_fast as nf
    nb = nbformat.read(ROOT / "notebooks" / "05_study.ipynb", as_version=4)
    text = " ".join(" ".join(c.source.split()) for c in nb.cells if c.cell_type == "markdown")
    assert "(`se_equity` NaN, which `describe` leaves out of its count)" in text
    home, other = np.zeros(24, np.uint8), np.zeros(24, np.uint8)
    home[18:], other[18:] = [2, 2, 2, 2, 1, 1], [1, 2, 2, 2, 2, 1]
    far = nf.Position.from_boards(home, other)    # 10 checkers a side: beyond the exact table
    last = np.zeros(24, np.uint8)
    last[22:] = 1
    near = nf.Position.from_boards(last, last)
    rows = nf.study([far.id, near.id], 36, store=str(tmp_path / "s"), seed=1,
                    policy="greedy", progress=False)
    assert rows["n_games"].tolist() == [0, 0]
    assert rows["method"].tolist() == ["one_sided", "two_sided"]
    assert np.isnan(rows.loc[far.id, "se_equity"]) and rows.loc[near.id, "se_equity"] == 0


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_a_progress_bar_the_text_names_is_one_a_notebook_shows(path):
    """``progress=None``, the default, shows no bar in a notebook (standard error is not a
    terminal there), so a notebook that speaks of a bar says it takes ``progress=True``."""
    nb = nbformat.read(path, as_version=4)
    for cell in nb.cells:
        if cell.cell_type == "markdown" and re.search(r"progress bar|\ba bar\b", cell.source):
            assert "progress=True" in cell.source, \
                f"{path.name}: a bar is promised that the notebook does not show"
