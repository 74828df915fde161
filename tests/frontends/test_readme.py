"""The README is the front page: every code block in it runs as written.

The blocks run as the documentation's do (``tests/frontends/test_docs.py``: the python blocks in one
namespace, the sh blocks with ``bash -e``, in a fresh folder).  The two blocks marked not
run are the install line and the set-up commands; ``make`` is asked (``make -n``) whether
it knows the targets the latter names.
"""
import pathlib
import re
import shutil
import subprocess

import pytest

from docblocks import code_blocks, run_blocks

ROOT = pathlib.Path(__file__).resolve().parents[2]
README = ROOT / "README.md"


def test_readme_has_python_and_cli_examples():
    langs = [lang for lang, _, skipped, _ in code_blocks(README) if not skipped]
    assert "python" in langs and "sh" in langs


def test_only_the_install_and_setup_blocks_are_not_run():
    skipped = [code for _, code, why, _ in code_blocks(README) if why]
    assert len(skipped) == 2
    assert skipped[0].startswith("pip install")
    assert re.findall(r"^make (\w+)", skipped[1], re.M) == ["demo", "test"]


@pytest.mark.skipif(shutil.which("make") is None, reason="no make")
def test_the_setup_commands_are_make_targets():
    _, code, _, _ = [b for b in code_blocks(README) if b[2]][1]
    for target in re.findall(r"^make (\w+)", code, re.M):
        proc = subprocess.run(["make", "-n", target], cwd=ROOT, capture_output=True, text=True)
        assert proc.returncode == 0, proc.stderr


def test_links_into_the_docs_exist():
    text = README.read_text(encoding="utf-8")
    links = re.findall(r"\]\(([^)#]+)\)", text)
    assert len(links) > 10
    for link in links:
        assert (ROOT / link).exists(), f"README links to {link}, which is not there"


@pytest.mark.slow
def test_readme_blocks_run(tmp_path, monkeypatch):
    assert run_blocks(README, tmp_path, monkeypatch) >= 2


@pytest.mark.slow
@pytest.mark.parametrize("page", [README, ROOT / "docs" / "getting_started.md"],
                         ids=["README", "getting_started"])
def test_the_first_hint_ranks_real_choices_in_80_columns(page, tmp_path, monkeypatch, capsys):
    """The first hint a reader meets ranks more than one move (6-5 at the start has a
    single legal move, so nothing was ranked), and what the page prints fits an
    80-column terminal with every column shown (no ``...`` in place of equity)."""
    import nardy_fast as nf

    hints = []
    hint = nf.Evaluator.hint

    def recorded(self, *args, **kwargs):
        frame = hint(self, *args, **kwargs)
        hints.append(frame)
        return frame

    monkeypatch.setattr(nf.Evaluator, "hint", recorded)
    monkeypatch.setenv("COLUMNS", "80")
    python = [b for b in code_blocks(page) if b[0] == "python" and not b[2]]
    exec(compile(python[0][1], page.name, "exec"), {"__name__": "__doc_example__"})
    out = capsys.readouterr().out
    assert hints, f"{page.name}: the first python block shows no hint"
    assert len(hints[0]) > 1, f"{page.name}: the first hint has a single legal move"
    assert "equity" in out
    for line in out.splitlines():
        assert len(line) <= 80, f"{page.name}: a printed line is wider than 80: {line!r}"
        assert " ... " not in line and "columns]" not in line, \
            f"{page.name}: a printed frame hides columns: {line!r}"
