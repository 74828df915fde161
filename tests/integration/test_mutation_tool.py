"""``tools/mutation.py`` picks the tests of a mutated module by what each test file
imports; a module imported from its package (``from nardy_fast.env import openspiel``) has
its tests picked too (they were missed, and its mutants were left unrun)."""
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))

import mutation  # noqa: E402

STEMS = {"env", "openspiel", "long_nardy_v0", "position", "rollout", "_dice"}


def test_imported_reads_each_form_of_import(tmp_path):
    path = tmp_path / "test_x.py"
    path.write_text("import numpy as np\n"
                    "from nardy_fast.env import openspiel as ons   # noqa: E402\n"
                    "from nardy_fast.env import (long_nardy_v0,\n    VectorEnv)\n"
                    "import nardy_fast.core.position\n"
                    "from nardy_fast.core._dice import ROLLS\n")
    assert mutation.imported(path, STEMS) == {"env", "openspiel", "long_nardy_v0",
                                              "position", "_dice"}


def test_the_environments_tests_are_found_for_their_modules():
    for module in ("openspiel.py", "long_nardy_v0.py"):
        assert f"tests/env/test_{Path(module).stem}.py" in mutation.importing_tests(ROOT,
                                                                                  module)
