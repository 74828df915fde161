"""The test data copies under tests/data equal the shared originals beside the checkout.

The shared folder is ``../shared`` relative to the repository root; the test is skipped
when it is absent (a plain clone).  ``make data`` refreshes the copies.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data"
SHARED = ROOT.parent / "shared"

FILES = [
    "vectors/README.md",
    "vectors/movegen_public.jsonl",
    "reference/README.md",
    "reference/gnubg_onesided_sample.csv",
    "reference/README-twosided.md",
    "reference/gnubg_twosided_6x6_sample.csv",
]


@pytest.mark.parametrize("name", FILES)
def test_copy_present(name):
    assert (DATA / name).is_file(), f"tests/data/{name} is missing"


@pytest.mark.skipif(not SHARED.is_dir(), reason="no shared data folder beside the checkout")
@pytest.mark.parametrize("name", FILES)
def test_copy_equals_shared(name):
    original = SHARED / name
    if not original.is_file():
        pytest.skip(f"{name} not in the shared folder")
    assert (DATA / name).read_bytes() == original.read_bytes(), \
        f"tests/data/{name} differs from the shared copy: run `make data`"


def test_rule_book_copy():
    """docs/RULES.md is the shared rule book (section 7a: the cube included)."""
    copy = ROOT / "docs" / "RULES.md"
    assert copy.is_file(), "docs/RULES.md is missing"
    assert "## 7a. Playing with the cube" in copy.read_text(encoding="utf-8")
    original = SHARED / "RULES.md"
    if original.is_file():
        assert copy.read_bytes() == original.read_bytes(), \
            "docs/RULES.md differs from the shared rule book: run `make data`"


def test_vectors_well_formed():
    fields = {"mover", "opponent", "dice", "rules", "successors", "tag"}
    with open(DATA / "vectors" / "movegen_public.jsonl") as f:
        cases = [json.loads(line) for line in f]
    assert cases
    for i, c in enumerate(cases):
        assert set(c) == fields, i
        assert len(c["mover"]) == len(c["opponent"]) == 24, i
        assert all(1 <= d <= 6 for d in c["dice"]) and len(c["dice"]) == 2, i
        assert c["successors"] == sorted(c["successors"]), i
        assert len({tuple(s) for s in c["successors"]}) == len(c["successors"]), i
        assert all(len(s) == 24 for s in c["successors"]), i
