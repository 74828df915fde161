"""Tests of the report export (nardy_fast.analysis.export; its formats are tested with the
reports in test_report.py): a path that is no path is named."""
import pandas as pd
import pytest

from nardy_fast.analysis.export import save, to_csv


@pytest.mark.parametrize("bad, kind", [(5, "int"), (None, "NoneType")])
def test_a_path_that_is_no_path_is_named(bad, kind):
    """It was Python's bare "expected str, bytes or os.PathLike object, not int"."""
    frame = pd.DataFrame({"a": [1]})
    for write in (save, to_csv):
        with pytest.raises(TypeError, match=rf"^path: expected a file path \(str or "
                                            rf"os\.PathLike\), got {kind}$"):
            write(frame, bad)


def test_an_html_tables_cells_keep_one_line(tmp_path):
    """A cell of an HTML report is one line: a move ("18/24 1/4") or a method ("net
    1-ply") broken over two lines at the page's width read as two values."""
    frame = pd.DataFrame({"move": ["18/24 1/4"], "method": ["net 1-ply"]})
    page = (tmp_path / "r.html")
    save(frame, page)
    text = page.read_text(encoding="utf-8")
    style = text[text.index("<style>"):text.index("</style>")]
    cells = style[style.index("table.nardy td"):]
    assert "white-space:nowrap" in cells[:cells.index("}")]


def test_a_parquet_file_without_pyarrow_names_the_extra(tmp_path, monkeypatch):
    """pandas said to install pyarrow "with pip, conda, or your preferred package management
    tool"; the extra that brings it is named, and no file is left."""
    import sys
    monkeypatch.setitem(sys.modules, "pyarrow", None)
    with pytest.raises(ImportError, match=r"needs pyarrow: pip install "
                                          r"'nardy_fast\[parquet\]'"):
        save(pd.DataFrame({"a": [1]}), tmp_path / "x.parquet")
    assert list(tmp_path.iterdir()) == []


def test_an_html_value_that_rounds_to_zero_has_no_minus_sign(tmp_path):
    """A level race's equity of -3.9e-16 (float rounding) read -0.0000 in the win report's
    HTML page; it reads 0.0000, and a value that does not round to zero keeps its sign."""
    frame = pd.DataFrame({"equity": [-3.9e-16, -0.25]})
    page = tmp_path / "r.html"
    save(frame, page)
    cells = [ln.strip() for ln in page.read_text(encoding="utf-8").splitlines()
             if ln.strip().startswith("<td>")]
    assert cells == ["<td>0.0000</td>", "<td>-0.2500</td>"]
