"""The README is the front page: every code block in it runs as written.

The blocks run as the documentation's do (``tests/test_docs.py``: the python blocks in one
namespace, the sh blocks with ``bash -e``, in a fresh folder).  The two blocks marked not
run are the install line and the set-up commands; ``make`` is asked (``make -n``) whether
it knows the targets the latter names.
"""
import pathlib
import re
import shutil
import subprocess

import pytest

from test_docs import code_blocks, run_blocks

ROOT = pathlib.Path(__file__).parent.parent
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
