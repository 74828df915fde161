"""The command line speaks its own language: errors name options, not Python arguments
(``rules.cube=``, ``crawford=True``), and the help gives defaults as values, not as
Python names (``supervised.SUPERVISED_DEFAULTS``) or pointers to the README."""
import re
import subprocess
import sys

import pytest

from nardy_fast.app.cli import build_parser


def run(*argv):
    r = subprocess.run([sys.executable, "-m", "nardy_fast.app.cli", *argv],
                       capture_output=True, text=True, timeout=120)
    return r.returncode, r.stderr


@pytest.mark.parametrize("argv", [["met", "--crawford"],
                                  ["matches", "net", "greedy", "--crawford", "-n", "1"]])
def test_crawford_without_the_cube_names_the_options(argv):
    code, err = run(*argv)
    assert code == 1
    assert err == ("nardy-fast: error: --crawford: the Crawford rule is a rule of the cube; "
                   "add --cube\n")


def helps(parser, name="nardy-fast"):
    yield name, " ".join(parser.format_help().split())
    for action in parser._actions:
        if isinstance(getattr(action, "choices", None), dict):
            for sub, p in action.choices.items():
                yield from helps(p, f"{name} {sub}")


# a Python module's constant or function (``train.DEFAULTS``, ``core.methods.method_label``,
# ``train.train's``) or a pointer to the README
PYTHON_TALK = re.compile(r"\b[a-z_]+\.[A-Z_]{3,}\b|\bcore\.methods\b|\btrain\.train\b|"
                         r"README")


def test_help_gives_values_not_python_names():
    found = {name: PYTHON_TALK.findall(text) for name, text in helps(build_parser())}
    assert {k: v for k, v in found.items() if v} == {}


def test_train_net_help_gives_the_defaults():
    from nardy_fast.training.supervised import SUPERVISED_DEFAULTS
    text = dict(helps(build_parser()))["nardy-fast train-net"]
    assert f"rounds (default {SUPERVISED_DEFAULTS['rounds']})" in text
    assert f"Adam step (default {SUPERVISED_DEFAULTS['lr']})" in text


def test_cube_exact_outside_the_table_names_the_option():
    code, err = run("cube", "WIREQAQIQACEDADAAAAAAAAAAAAABJCAR", "--method", "exact")
    assert code == 1
    assert err.startswith("nardy-fast: error: --method exact: no cubeful race table covers "
                          "this position"), err
