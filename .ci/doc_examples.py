"""Write the python examples of the README and the documentation pages as modules, one per
page (the page's blocks in order, as tests/frontends/test_docs.py runs them), for mypy.

Usage: python .ci/doc_examples.py OUT_FOLDER
"""
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from docblocks import PAGES, code_blocks  # noqa: E402


def main(out):
    out = pathlib.Path(out)
    out.mkdir(parents=True, exist_ok=True)
    for old in out.glob("*.py"):
        old.unlink()
    for page in [ROOT / "README.md"] + PAGES:
        code = [c for lang, c, skipped, _ in code_blocks(page) if lang == "python" and not skipped]
        if code:
            name = str(page.relative_to(ROOT)).replace("/", "_").replace(".", "_").lower()
            (out / f"{name}.py").write_text(f"# examples of {page.relative_to(ROOT)}\n"
                                            + "\n".join(code), encoding="utf-8")


if __name__ == "__main__":
    main(sys.argv[1])
