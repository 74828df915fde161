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
