"""The installed package works: run from outside the source tree after installing a wheel
(``.ci/wheel-check``; cibuildwheel's test command).  No compiler, no Cython needed.

Checks the version and the licence text, that the shipped data came with the package, a hint, a rollout (the
same seed giving the same numbers) and a report written to files.
"""
import importlib.metadata
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile

import nardy_fast as nf
from nardy_fast.analysis import export

here = pathlib.Path(nf.__file__).parent
assert "site-packages" in str(here) or "dist-packages" in str(here), \
    f"nardy_fast imported from {here}, not from the installed wheel"
assert nf.__version__ == importlib.metadata.version("nardy_fast"), nf.__version__
licences = [f for f in importlib.metadata.files("nardy_fast") or ()
            if "LICENSE" in f.name.upper() or "LICENCE" in f.name.upper()]
assert licences and "MIT License" in licences[0].read_text(), "no licence text in the wheel"
cli = shutil.which("nardy-fast") or os.path.join(os.path.dirname(sys.executable), "nardy-fast")
out = subprocess.run([cli, "--version"], capture_output=True, text=True)
if out.returncode == 0:
    assert nf.__version__ in out.stdout + out.stderr, out.stdout
print("version", nf.__version__)

data = {p.name for p in (here / "data").iterdir()}
for name in ("net_classic.nfdb", "luck_classic.nfdb", "met.json", "start_outcomes.json"):
    assert name in data, f"{name} is not in the wheel"
assert (here / "__init__.pxd").exists() and (pathlib.Path(nf.get_include()) / "nf_bits.h").exists()
assert (here / "py.typed").exists()

start = nf.Position.initial()
pos = nf.Position.from_id("WmhAAABAAAAEAAAEBABAQAAAAEAAAEQEA")   # a middle game: 16 moves of 6-3
hint = nf.Evaluator.default().hint(pos, (6, 3))
assert len(hint) == len(pos.legal_moves((6, 3))) > 1, hint
print(hint.head(3))

a = nf.rollout(pos, 324, seed=1, workers=1, progress=False)
b = nf.rollout(pos, 324, seed=1, workers=1, progress=False)
assert a.equity == b.equity and 0 < a.p_win < 1 and a.games == 324, a
print("rollout", a.p_win, a.se_p_win)

with tempfile.TemporaryDirectory() as tmp:
    frame = nf.pip_report([start, pos])
    for ext in ("csv", "html"):
        export.save(frame, os.path.join(tmp, f"pips.{ext}"))
        assert os.path.getsize(os.path.join(tmp, f"pips.{ext}")) > 0
print("smoke test passed")
