"""The public C-level API (``nardy_fast/__init__.pxd``) compiles into, and works from,
another extension.

A small consumer module cimports the move generator, the rules struct, the bear-off index
and move generator, the race tables, the scoring function and the value of a raise of the
cubeful race tables from ``nardy_fast`` (as numpy's ``_examples/cython`` consumers cimport
``numpy.random``), is built with Cython and setuptools in a temporary folder, and must
agree with the Python API.  It also proves the bear-off move generator equal to the full
one on every board and roll.
"""
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import nardy_fast
from nardy_fast import successors

# every test here uses the consumer extension, built (about a minute) for this module
pytestmark = pytest.mark.slow

pytest.importorskip("Cython")

CONSUMER = textwrap.dedent('''
    # cython: language_level=3
    from libc.stdint cimport uint8_t, int32_t
    from libc.stdlib cimport malloc, free
    from libc.string cimport memset
    from nardy_fast cimport (gen_successors, rules_t, fill_rules, DEFAULT_CAP, N_POINTS,
                             pip_count, board6_index, board6_from_index, n_boards, roll_of,
                             roll_finals, MAX_FINALS, N_HOME, N_BOARDS, N_ROLLS, to_board6,
                             race_tables_t, race_probs, RaceTables, score_game, WIN_OIN,
                             raise_value, CUBE_OPPONENT)
    import numpy as np

    def cube_value(double no_raise, double next_u, double ratio, int beaver,
                   double next2_u, double ratio2):
        return raise_value(no_raise, next_u, ratio, beaver, next2_u, ratio2), CUBE_OPPONENT

    def first_results(const uint8_t[::1] mover, const uint8_t[::1] opponent, int d1, int d2,
                      Py_ssize_t cap=DEFAULT_CAP, rules=None):
        cdef rules_t r
        fill_rules(rules, &r)
        out = np.empty((max(cap, 1), N_POINTS), np.uint8)
        cdef uint8_t[:, ::1] o = out
        cdef Py_ssize_t n
        with nogil:
            n = gen_successors(&mover[0], &opponent[0], d1, d2, &r, &o[0, 0], NULL, cap)
        if n < 0:
            return None, pip_count(&mover[0])
        return out[:n].copy(), pip_count(&mover[0])

    def race(RaceTables tables, const uint8_t[::1] x, const uint8_t[::1] y, bint draw_rule,
             bint x_first):
        cdef uint8_t x6[6]
        cdef uint8_t y6[6]
        cdef double out[4]
        to_board6(&x[0], x6)
        to_board6(&y[0], y6)
        cdef int method = race_probs(&tables.t, x6, y6, draw_rule, x_first, out)
        return out[0], out[1], out[2], out[3], method

    def score(const uint8_t[::1] loser, rules=None):
        cdef rules_t r
        cdef double pts
        fill_rules(rules, &r)
        return score_game(&loser[0], &r, &pts) - WIN_OIN, pts

    def compare_with_movegen(int max_checkers=15):
        # The bear-off generator (roll_finals) against gen_successors on every board of at
        # most max_checkers checkers and every roll: the 24-point mover has board6[i] on
        # idx 23 - i; the opponent has all 15 checkers on its own point 24 (the mover's
        # idx 11), where it cannot interfere.  Returns (n_compared, up to 10 mismatches).
        cdef Py_ssize_t m = n_boards(max_checkers), x, n1, n2, i, j, k
        cdef uint8_t c[6]
        cdef uint8_t mover[24]
        cdef uint8_t opp[24]
        cdef uint8_t* out = <uint8_t*>malloc(DEFAULT_CAP * 24)
        cdef int32_t* a = <int32_t*>malloc(MAX_FINALS * sizeof(int32_t))
        cdef int32_t* stamp = <int32_t*>malloc(N_BOARDS * sizeof(int32_t))
        cdef int32_t* stamp2 = <int32_t*>malloc(N_BOARDS * sizeof(int32_t))
        cdef rules_t rules
        cdef int r, d1, d2, bad, outside
        cdef int32_t mark
        cdef Py_ssize_t compared = 0
        mism = []
        fill_rules(None, &rules)
        memset(opp, 0, 24)
        opp[23] = 15
        memset(stamp, 0xFF, N_BOARDS * sizeof(int32_t))
        memset(stamp2, 0xFF, N_BOARDS * sizeof(int32_t))
        for x in range(m):
            board6_from_index(x, c)
            memset(mover, 0, 24)
            for i in range(N_HOME):
                mover[23 - i] = c[i]
            for r in range(N_ROLLS):
                roll_of(r, &d1, &d2)
                mark = <int32_t>(x * N_ROLLS + r)
                n1 = roll_finals(c, d1, d2, a, stamp, mark)
                n2 = gen_successors(mover, opp, d1, d2, &rules, out, NULL, DEFAULT_CAP)
                bad = n2 != n1
                k = 0
                while not bad and k < n2:
                    # a home board that roll_finals produced, and distinct
                    outside = 0
                    for i in range(18):
                        if out[k * 24 + i]:
                            outside = 1
                    to_board6(out + k * 24, c)
                    j = board6_index(c)
                    if outside or stamp[j] != mark or stamp2[j] == mark:
                        bad = 1
                    stamp2[j] = mark
                    k += 1
                board6_from_index(x, c)
                compared += 1
                if bad and len(mism) < 10:
                    mism.append(([int(c[i]) for i in range(6)], d1, d2))
        free(out); free(a); free(stamp); free(stamp2)
        return compared, mism
''')

SETUP = textwrap.dedent('''
    import sys
    from setuptools import setup, Extension
    from Cython.Build import cythonize
    setup(script_args=["build_ext", "--inplace", "-q"],
          ext_modules=cythonize([Extension("consumer", ["consumer.pyx"],
                                           include_dirs=sys.argv[2:])],
                                include_path=[sys.argv[1]], quiet=True))
''')


@pytest.fixture(scope="module")
def consumer(tmp_path_factory):
    d = tmp_path_factory.mktemp("cimport")
    (d / "consumer.pyx").write_text(CONSUMER)
    (d / "build_consumer.py").write_text(SETUP)
    pkg_parent = os.path.dirname(os.path.dirname(nardy_fast.__file__))
    subprocess.run([sys.executable, "build_consumer.py", pkg_parent, np.get_include(),
                    nardy_fast.get_include()], cwd=d, check=True, capture_output=True)
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


def test_bearoff_generator_equals_movegen_on_every_board_and_roll(consumer):
    compared, mismatches = consumer.compare_with_movegen(15)
    assert compared == 54264 * 21
    assert mismatches == []


def test_consumer_rules_and_scoring(consumer):
    """fill_rules gives the variants to C code; score_game agrees with the records."""
    from nardy_fast import Rules
    from nardy_fast.core.record import game_result
    from nardy_fast.core.position import Position
    start = np.zeros(24, np.uint8); start[0] = 15
    gen = Rules(head_rule="generalized")
    got, _ = consumer.first_results(start, start, 6, 6, rules=gen)
    want = successors(start, start, 6, 6, gen)
    assert sorted(map(tuple, got.tolist())) == sorted(map(tuple, want.tolist()))
    ext = Rules(scoring="extended")
    for loser, kind in ((start, "koks"), (np.roll(start, 18), "home_mars"),
                        (np.roll(start, 10), "mars")):
        code, pts = consumer.score(loser, ext)
        empty = np.zeros(24, np.uint8)
        res = game_result(Position.from_boards(loser, empty, "white"), ext)
        assert (res["kind"], res["points"]) == (kind, pts)
        assert code == ("oin", "mars", "koks", "home_mars").index(kind)


def test_consumer_race_probabilities(consumer):
    """race_probs through the public struct equals race_probabilities."""
    from nardy_fast import Position, Rules, bearoff, race_probabilities
    from nardy_fast.tables.race import race_tables
    tables = race_tables(one=bearoff.one_sided(), two=bearoff.two_sided())
    x = np.zeros(24, np.uint8); x[18:] = [1, 2, 0, 1, 3, 0]
    y = np.zeros(24, np.uint8); y[18:] = [0, 2, 2, 0, 1, 1]
    for draw_rule in (False, True):
        o = race_probabilities(Position.from_boards(x, y), rules=Rules(draw_rule=draw_rule))
        pw, pmw, pml, pd, method = consumer.race(tables, x, y, draw_rule, True)
        assert (pw, pmw, pml, pd) == (o.p_win, o.p_mars_win, o.p_mars_loss, o.p_draw)
        assert method == (0 if draw_rule else 1)
