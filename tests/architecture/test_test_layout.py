"""The tests mirror the package (docs/contributors.md, "Where tests live").

- A module's own tests are in ``tests/<layer>/[<sub-package>/]test_<module>.py``, its
  topics beside it as ``test_<module>_<topic>.py`` (a private module is named without its
  underscore: ``_rollout.pyx`` and ``rollout.py`` share ``test_rollout.py``).
- Tests that cross layers end to end are in ``tests/integration/``, the command line driven
  as a program, the notebooks, the documentation and its pages in ``tests/frontends/``,
  the rules of the house (layers, one home, public names, this layout) in
  ``tests/architecture/``.
- The helpers the tests share (``helpers.py``, the naive references, ``ptyterm.py``,
  ``fuzz_targets.py``, ``docblocks.py``) and ``conftest.py`` sit at ``tests/``; no test
  file does.

The modules with no test file of their own are listed here (``UNTESTED``): a new module
comes with its test file, and a module that gains one leaves the list.
"""
from __future__ import annotations

from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]
PACKAGE = TESTS.parent / "nardy_fast"
OTHER_FOLDERS = ("integration", "frontends", "architecture")
SUFFIXES = (".py", ".pyx")

# module (path under nardy_fast/) -> no test file of its own yet
UNTESTED = {
    "_utils/_dbfile.py", "_utils/_version.py",
    "_utils/datadir.py",
    "app/cli_engine.py", "app/cli_protocol.py", "app/demo.py",
    "app/protocol.py",
    "core/_checks.pyx", "core/_dice.pyx",
    "core/diagram.py", "core/policies.py",
    "engine/evaluation/_net.pyx", "engine/evaluation/nets.py",
    "engine/play/_luck.pyx", "engine/play/_match.pyx", "engine/play/_nomain.py",
    "engine/play/_policies.pyx", "engine/play/luck.py",
    "engine/play/policy.py",
    "env/actions.py",
    "tables/_board6.pyx", "tables/_bomoves.pyx", "tables/_mars.pyx",
    "tables/_onesided.pyx", "tables/_race12solve.pyx", "tables/_racetables.pyx",
    "tables/_tscomplete.pyx", "tables/_twosided.pyx", "tables/onesided.py",
    "training/metbuild.py",
    "training/schedule.py",
}


def package_folders():
    """Each folder of the package holding modules, relative to nardy_fast/ (``engine/play``)."""
    return sorted(str(p.parent.relative_to(PACKAGE)) for p in PACKAGE.rglob("__init__.py")
                  if p.parent != PACKAGE)


def modules(folder):
    """The module names of a package folder, without a leading underscore
    (``_rollout.pyx`` and ``rollout.py``: ``rollout``)."""
    return {p.stem.lstrip("_") for p in (PACKAGE / folder).iterdir()
            if p.suffix in SUFFIXES and p.stem != "__init__"}


def all_test_files():
    return sorted(p for p in TESTS.rglob("test_*.py") if "data" not in p.parts)


def misplaced(files=None):
    """(test file, why) for each test file that is not where the layout puts it."""
    files = all_test_files() if files is None else files
    folders = set(package_folders())
    out = []
    for f in files:
        rel = f.relative_to(TESTS)
        folder = str(rel.parent)
        if folder == ".":
            out.append((str(rel), "at the top of tests/: a test file belongs to a folder"))
        elif folder in OTHER_FOLDERS:
            continue
        elif folder not in folders:
            out.append((str(rel), f"tests/{folder} mirrors no folder of the package"))
        else:
            stem = f.stem[len("test_"):]
            if not any(stem == m or stem.startswith(m + "_") for m in modules(folder)):
                out.append((str(rel), f"names no module of nardy_fast/{folder} "
                                      "(test_<module>.py or test_<module>_<topic>.py)"))
    return out


def untested():
    """The modules (path under nardy_fast/) with no ``test_<module>.py`` at their mirrored
    path."""
    out = set()
    for folder in package_folders():
        for p in (PACKAGE / folder).iterdir():
            if p.suffix in SUFFIXES and p.stem != "__init__":
                if not (TESTS / folder / f"test_{p.stem.lstrip('_')}.py").exists():
                    out.add(f"{folder}/{p.name}")
    return out


def test_every_test_file_is_at_its_mirrored_path():
    assert misplaced() == []


def test_the_check_finds_a_misplaced_file(tmp_path):
    """A module's test file in another layer's folder, a test at the top, a folder that
    mirrors nothing and a topic file naming no module are each found."""
    bad = [TESTS / "core" / "test_rollout.py", TESTS / "test_rollout.py",
           TESTS / "engine" / "test_cube.py", TESTS / "analysis" / "test_marks.py"]
    assert [f for f, _ in misplaced(bad)] == ["core/test_rollout.py", "test_rollout.py",
                                               "engine/test_cube.py",
                                               "analysis/test_marks.py"]
    good = [TESTS / "engine" / "play" / "test_rollout_huge.py",
            TESTS / "core" / "test_movegen.py", TESTS / "integration" / "test_anything.py"]
    assert misplaced(good) == []


def test_a_new_module_comes_with_its_test_file():
    """Every module without a test file of its own is one listed in ``UNTESTED`` (those
    known when the tests were sorted); a module that gains one leaves the list."""
    found = untested()
    assert found <= UNTESTED, f"modules with no test file: {sorted(found - UNTESTED)}"
    assert not (UNTESTED & modules_with_tests(found)), \
        f"tested now, take them off UNTESTED: {sorted(UNTESTED & modules_with_tests(found))}"


def modules_with_tests(found):
    """The modules of the package that have their test file (``found``: those without)."""
    every = {f"{folder}/{p.name}" for folder in package_folders()
             for p in (PACKAGE / folder).iterdir()
             if p.suffix in SUFFIXES and p.stem != "__init__"}
    return every - found
