"""One version, a changelog, deprecations that name their release, the wheel's contents.

The version lives in ``pyproject.toml`` only; ``nardy_fast.__version__`` reads it back from
the installed metadata, and the changelog has a section for it.
"""
import importlib.metadata
import pathlib
import re
import shutil
import subprocess
import sys
import tomllib

import pytest

import nardy_fast

ROOT = pathlib.Path(__file__).resolve().parents[2]
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]


def test_version_is_the_installed_metadata_and_pyproject():
    assert nardy_fast.__version__ == importlib.metadata.version("nardy_fast")
    assert nardy_fast.__version__ == PROJECT["version"]


def test_the_version_is_written_in_one_place():
    version = PROJECT["version"]
    hits = [p for p in (ROOT / "nardy_fast").rglob("*.py")
            if re.search(rf"""["']{re.escape(version)}["']""", p.read_text(encoding="utf-8"))]
    assert hits == []


def test_changelog_has_a_section_for_the_version():
    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    sections = re.findall(r"^## (\d+\.\d+\.\d+)", text, re.M)
    assert sections and sections[0] == PROJECT["version"]


def _release(v):
    return tuple(int(x) for x in v.split("."))


def test_every_deprecation_names_a_later_release():
    """Each file that deprecates something names the release that removes it, and that
    release is still to come (a shim past its release must go)."""
    current = _release(PROJECT["version"])
    for path in (ROOT / "nardy_fast").rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        for m in re.finditer(r"DeprecationWarning", text):
            window = text[max(0, m.start() - 400):m.end() + 200]
            named = re.findall(r"removed? (?:in|it)?\s*(\d+\.\d+\.\d+)|until\s+(\d+\.\d+\.\d+)",
                               window)
            releases = [a or b for a, b in named]
            assert releases, f"{path.name}: a DeprecationWarning names no release"
            assert all(_release(r) > current for r in releases), (path.name, releases)


def test_the_package_data_ships():
    data = pathlib.Path(nardy_fast.__file__).parent / "data"
    spec = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    patterns = spec["package-data"]["nardy_fast"]
    for name in ("net_classic.nfdb", "met.json", "start_outcomes.json"):
        assert (data / name).exists()
        assert any(pathlib.PurePath("data", name).match(p) for p in patterns), name
    assert "py.typed" in patterns and (data.parent / "py.typed").exists()


def test_the_wheel_ships_no_generated_c(tmp_path):
    """The wheel's files, as setuptools' ``build_py`` lays them out for it, hold the data,
    the ``.pxd`` files and the C headers of the C API, but not the C files that Cython
    generated from the ``.pyx`` (28 of them, 37 MB that no user reads: the compiled
    modules are in the wheel)."""
    package = ROOT / "nardy_fast"
    if not all(p.with_suffix(".c").exists() for p in package.rglob("_*.pyx")):
        pytest.skip("the extensions are not built in place (make build)")
    copy = tmp_path / "project"
    shutil.copytree(package, copy / "nardy_fast", ignore=shutil.ignore_patterns(
        "*.so", "*.pyd", "__pycache__"))               # copy2: the .c stay newer than the .pyx
    for name in ("setup.py", "pyproject.toml", "MANIFEST.in", "README.md", "CHANGELOG.md"):
        shutil.copy2(ROOT / name, copy / name)
    subprocess.run([sys.executable, "setup.py", "-q", "build_py", "--build-lib", "out"],
                   cwd=copy, check=True, capture_output=True)
    shipped = {p.relative_to(copy / "out").as_posix() for p in (copy / "out").rglob("*")
               if p.is_file()}
    assert [f for f in shipped if f.endswith(".c")] == []
    for name in ("data/net_classic.nfdb", "data/met.json", "__init__.pxd",
                 "core/_movegen.pxd", "src/nf_bits.h", "py.typed"):
        assert f"nardy_fast/{name}" in shipped, name


def test_the_licence_is_the_one_pyproject_names():
    """pyproject.toml says MIT; the text of it is the repository's LICENSE, which the
    sdist and the wheel carry (the wheel's is checked by .ci/smoke.py)."""
    root = pathlib.Path(__file__).resolve().parents[2]
    assert 'license = "MIT"' in (root / "pyproject.toml").read_text()
    assert (root / "LICENSE").read_text().startswith("MIT License\n")
    assert "include LICENSE" in (root / "MANIFEST.in").read_text()
