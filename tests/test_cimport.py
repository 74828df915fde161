"""The C-level API (``_movegen.pxd``, ``_cuberace.pxd``) compiles into, and works from,
another extension.

A small consumer module cimports ``gen_successors`` and ``rules_t`` the way the rollout
engine and the bear-off solver do, is built with Cython and setuptools in a temporary
folder, and must agree with the Python ``successors`` call.
"""
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import nardy_fast
from nardy_fast import successors

pytest.importorskip("Cython")

CONSUMER = textwrap.dedent('''
    # cython: language_level=3
    from libc.stdint cimport uint8_t
    from nardy_fast._movegen cimport gen_successors, rules_t, DEFAULT_CAP, HEAD_CLASSIC, BLOCK_AHEAD
    from nardy_fast._board cimport N_POINTS, pip_count
    from nardy_fast._cuberace cimport raise_value, CUBE_OPPONENT
    import numpy as np

    def cube_value(double no_raise, double next_u, double ratio, int beaver,
                   double next2_u, double ratio2):
        return raise_value(no_raise, next_u, ratio, beaver, next2_u, ratio2), CUBE_OPPONENT

    def first_results(const uint8_t[::1] mover, const uint8_t[::1] opponent, int d1, int d2,
                      Py_ssize_t cap=DEFAULT_CAP):
        cdef rules_t r
        r.head_rule = HEAD_CLASSIC
        r.block_rule = BLOCK_AHEAD
        r.block_transient = 0
        r.larger_die_rule = 1
        out = np.empty((max(cap, 1), N_POINTS), np.uint8)
        cdef uint8_t[:, ::1] o = out
        cdef Py_ssize_t n
        with nogil:
            n = gen_successors(&mover[0], &opponent[0], d1, d2, &r, &o[0, 0], NULL, cap)
        if n < 0:
            return None, pip_count(&mover[0])
        return out[:n].copy(), pip_count(&mover[0])
''')

SETUP = textwrap.dedent('''
    import sys
    from setuptools import setup, Extension
    from Cython.Build import cythonize
    setup(script_args=["build_ext", "--inplace", "-q"],
          ext_modules=cythonize([Extension("consumer", ["consumer.pyx"])],
                                include_path=[sys.argv[1]], quiet=True))
''')


@pytest.fixture(scope="module")
def consumer(tmp_path_factory):
    d = tmp_path_factory.mktemp("cimport")
    (d / "consumer.pyx").write_text(CONSUMER)
    (d / "build_consumer.py").write_text(SETUP)
    pkg_parent = os.path.dirname(os.path.dirname(nardy_fast.__file__))
    subprocess.run([sys.executable, "build_consumer.py", pkg_parent], cwd=d, check=True,
                   capture_output=True)
    sys.path.insert(0, str(d))
    try:
        import consumer as mod
        yield mod
    finally:
        sys.path.remove(str(d))


def test_consumer_agrees_with_python_api(consumer):
    rng = np.random.default_rng(7)
    m = np.zeros(24, np.uint8); m[0] = 15
    o = m.copy()
    for ply in range(40):
        d1, d2 = (int(x) for x in rng.integers(1, 7, 2))
        got, pips = consumer.first_results(m, o, d1, d2)
        want = successors(m, o, d1, d2)
        assert sorted(map(tuple, got.tolist())) == sorted(map(tuple, want.tolist()))
        assert pips == int(m @ np.arange(24, 0, -1))
        m, o = o, want[rng.integers(len(want))]


def test_cuberace_pxd(consumer):
    """raise_value: max(no raise, min(take, pass = 1)); the beaver lowers the take."""
    assert consumer.cube_value(0.3, 0.4, 2.0, 0, 0.0, 4.0) == (0.8, 2)      # double, take
    assert consumer.cube_value(0.3, 0.7, 2.0, 0, 0.0, 4.0) == (1.0, 2)      # double, pass
    assert consumer.cube_value(0.3, 0.1, 2.0, 0, 0.0, 4.0) == (0.3, 2)      # no double
    assert consumer.cube_value(-0.3, -0.1, 2.0, 0, -0.1, 4.0) == (-0.2, 2)   # a take: double
    assert consumer.cube_value(-0.3, -0.1, 2.0, 1, -0.1, 4.0) == (-0.3, 2)   # beaver: no


def test_too_small_a_buffer_is_reported(consumer):
    """gen_successors returns -1 (not a truncated list) when cap is too small."""
    start = np.zeros(24, np.uint8); start[0] = 15
    n = len(successors(start, start, 3, 3))           # 2 results
    assert consumer.first_results(start, start, 3, 3, n)[0] is not None
    assert consumer.first_results(start, start, 3, 3, n - 1)[0] is None
