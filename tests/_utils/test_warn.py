"""``_utils._warn``: a warning names the first line outside the package, however deep in
the package it was raised."""
import types
import warnings

from nardy_fast._utils._warn import user_stacklevel, warn_user

_SOURCE = '''
from nardy_fast._utils._warn import warn_user, user_stacklevel
def inner(category):
    warn_user("deep", category)
def outer(category):
    inner(category)
def level():
    return user_stacklevel()
def via():
    return level()
'''


def _package_module():
    """A module that counts as the package's (its ``__name__`` under ``nardy_fast.``)."""
    mod = types.ModuleType("nardy_fast._fake_for_test_warn")
    exec(compile(_SOURCE, "fake_package_file.py", "exec"), mod.__dict__)
    return mod


def test_warn_user_names_the_first_line_outside_the_package():
    mod = _package_module()
    with warnings.catch_warnings(record=True) as rec:
        warnings.simplefilter("always")
        mod.outer(RuntimeWarning); line = _line()           # noqa: E702
    assert len(rec) == 1 and rec[0].category is RuntimeWarning
    assert rec[0].filename == __file__ and rec[0].lineno == line


def _line():
    import sys
    return sys._getframe(1).f_lineno


def test_user_stacklevel_counts_the_package_frames():
    mod = _package_module()
    assert mod.level() == 2          # level() is the package's; its caller is this test
    assert mod.via() == 3
    assert user_stacklevel() == 1    # called from outside the package: this very line


def test_warn_user_from_outside_names_its_own_caller():
    with warnings.catch_warnings(record=True) as rec:
        warnings.simplefilter("always")
        warn_user("here"); line = _line()                   # noqa: E702
    assert rec[0].filename == __file__ and rec[0].lineno == line and \
        rec[0].category is UserWarning
