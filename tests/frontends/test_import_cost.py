"""``nardy-fast --version`` and ``--help`` import none of the slow libraries (pandas,
matplotlib, pyarrow, dask): each command imports what it needs when it runs."""
import subprocess
import sys

import pytest

CHECK = """
import sys
from nardy_fast.app.cli import main
try:
    main([{arg!r}])
except SystemExit:
    pass
slow = sorted(m for m in ("pandas", "matplotlib", "pyarrow", "dask") if m in sys.modules)
print(",".join(slow))
"""


@pytest.mark.parametrize("arg", ["--version", "--help"])
def test_version_and_help_import_no_slow_library(arg):
    r = subprocess.run([sys.executable, "-c", CHECK.format(arg=arg)], capture_output=True,
                       text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines()[-1] == "", r.stdout


PROGRAM = """
import sys
from nardy_fast.app.launcher import console_main
try:
    console_main({argv!r})
except SystemExit as e:
    print("status", e.code)
heavy = sorted(m for m in ("numpy", "pandas", "matplotlib", "nardy_fast.engine",
                           "nardy_fast.app.cli") if m in sys.modules)
print(",".join(heavy))
"""


def test_the_program_answers_version_before_importing_numpy():
    """The ``nardy-fast`` program (``pyproject.toml``'s script, ``app.launcher``) prints the
    version from the package metadata alone: no numpy, no engine, no command line."""
    r = subprocess.run([sys.executable, "-c", PROGRAM.format(argv=["--version"])],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    import nardy_fast
    assert lines[0] == f"nardy-fast {nardy_fast.__version__}"
    assert lines[1] == "status 0"
    assert lines[2] == "", lines


def test_import_nardy_fast_imports_its_names_at_first_use():
    """``import nardy_fast`` imports none of its layers; a public name imports its home."""
    code = ("import sys, nardy_fast as nf; a = 'numpy' in sys.modules; nf.Position; "
            "print(a, 'nardy_fast.core.position' in sys.modules, "
            "'nardy_fast.analysis.report' in sys.modules)")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["False", "True", "False"]


def test_the_program_runs_every_other_command():
    r = subprocess.run([sys.executable, "-c", PROGRAM.format(argv=["show", "start"])],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert "status 0" in r.stdout and "nardy_fast.app.cli" in r.stdout.splitlines()[-1]
