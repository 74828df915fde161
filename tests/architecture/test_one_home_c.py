"""One home for each C-level idea: the 21 rolls, the thread runtime, a C game's end and
its error codes, which table values a race.

The scans read every ``.py``, ``.pyx``, ``.pxd`` and ``.h`` file of the package and find a
second definition of an idea outside its home (each scan is shown to catch a planted
copy); the behavioural checks compare the homes with independent definitions.
"""
import re
from pathlib import Path

import numpy as np
import pytest

from nardy_fast.core import _dice, _movegen
from nardy_fast.core.position import Position
from nardy_fast.core.rules import Rules
from nardy_fast.engine.play import _luck, luck
from nardy_fast.engine.evaluation import _search
from nardy_fast.training import _selfplay
from nardy_fast.engine.evaluation.evaluator import Evaluator
from nardy_fast.tables import bearoff as bo
from nardy_fast.tables.race import race_probabilities, race_tables
from nardy_fast.tables.racevalue import race_table_value

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "nardy_fast"
SOURCES = (".py", ".pyx", ".pxd", ".h")

# idea: (pattern of a definition or copy, the files allowed to hold it)
HOMES = {
    "a list of the 21 rolls": (r"in range\(\s*[A-Za-z_]\w*\s*,\s*7\s*\)", set()),
    "a roll weight 1/36 or 2/36": (r"\b1(?:\.0)? if \w+ == \w+ else 2(?:\.0)?\b", set()),
    "the C roll table": (r"NF_ROLL_(?:D1|D2|P)\[21\]\s*=", {"src/nf_binom.h"}),
    "its declaration": (r"const (?:int|double) NF_ROLL_(?:D1|D2|P)\[",
                        {"core/_dice.pxd", "src/nf_binom.h"}),
    "N_ROLLS": (r"\bN_ROLLS\s*=", {"core/_dice.pxd"}),
    "the thread runtime": (r"cdef extern from \"nf_threads\.h\"", {"core/_threads.pxd"}),
    "a game's length cap": (r"\bMAX_\w*PLIES\w*\s*=", {"core/_gameend.pxd",
                                                       "engine/evaluation/_search.pyx"}),
    "an error code": (r"\bERR_\w+\s*=", {"core/_gameend.pxd"}),
    # the scoring of a finished game: in its homes; the search scores a won move's
    # value (win_values, the net's outputs of a game just won: no last turn to play)
    "the score of a finished game": (r"\bscore_game\(", {"core/_scoring.pyx",
                                                         "core/_scoring.pxd",
                                                         "core/_gameend.pxd",
                                                         "engine/evaluation/_search.pyx"}),
    "Black's last turn": (r"\blast_turn_due\(", {"core/_scoring.pyx", "core/_scoring.pxd",
                                                 "engine/play/_rollout.pyx",
                                                 "engine/play/_match.pyx",
                                                 "env/_vecenv.pyx"}),
    # which table values a race: the tables' own modules define and wrap their queries
    "a bear-off table query": (r"\brace_probs\(", {"tables/_racetables.pyx",
                                                   "tables/_racetables.pxd",
                                                   "tables/_racevalue.pxd"}),
    "a race12 query": (r"\brace12_outcome\(", {"tables/_race12.pyx", "tables/_race12.pxd",
                                               "tables/_racevalue.pxd"}),
    "the equity of a race table's probabilities": (
        r"rules\.points\(\"home_mars\"\)|\(\"oin\", \"mars\", \"home_mars\"\)",
        {"tables/race.py"}),
}


def _sources():
    return sorted(p for p in PACKAGE.rglob("*") if p.suffix in SOURCES
                  and ".venv" not in p.parts and "build" not in p.parts)


def _rel(path):
    return path.relative_to(PACKAGE).as_posix()


def copies(rel, text):
    """``(idea, file, line)`` of each definition of an idea of ``HOMES`` in ``text`` (the
    file ``rel``, relative to the package) outside its home; comments and docstring lines
    are code too, except whole-line comments."""
    found = []
    for idea, (pattern, homes) in HOMES.items():
        if rel in homes:
            continue
        for n, line in enumerate(text.splitlines(), 1):
            if line.lstrip().startswith(("#", "/*", "*")):
                continue
            if re.search(pattern, line):
                found.append((idea, rel, n))
    return found


@pytest.mark.parametrize("path", _sources(), ids=_rel)
def test_no_copy_outside_its_home(path):
    assert copies(_rel(path), path.read_text(encoding="utf-8")) == []


@pytest.mark.parametrize("idea, planted", [
    ("a list of the 21 rolls", "ROLLS = [(a, b) for a in range(1, 7) for b in range(a, 7)]"),
    ("a roll weight 1/36 or 2/36", "w = (1.0 if d1 == d2 else 2.0) / 36.0"),
    ("N_ROLLS", "    N_ROLLS = 21"),
    ("the thread runtime", "cdef extern from \"nf_threads.h\":"),
    ("a game's length cap", "    MAX_PLIES = 100000"),
    ("an error code", "    ERR_NOMEM = -2"),
    ("the score of a finished game", "    score_game(b[loser], rules, &pts)"),
    ("Black's last turn", "    if last_turn_due(&c.rules, white):"),
    ("a bear-off table query", "    race_probs(rt, x6, y6, 0, 0, out)"),
    ("a race12 query", "    race12_outcome(c.race12, a, b, 0, 0, o)"),
    ("the equity of a race table's probabilities", "    mars = rules.points(\"home_mars\")"),
])
def test_the_scan_finds_a_planted_copy(idea, planted):
    assert copies("training/_selfplay.pyx", f"x = 1\n{planted}\n") == [
        (idea, "training/_selfplay.pyx", 2)]


def test_the_roll_table_is_the_rolls():
    rolls = [(a, b) for a in range(1, 7) for b in range(a, 7)]     # independent definition
    assert list(_dice.ROLLS) == rolls
    assert list(_dice.COUNTS) == [1 if a == b else 2 for a, b in rolls]
    assert sum(_dice.COUNTS) == 36
    np.testing.assert_array_equal(_dice.WEIGHTS, np.array(_dice.COUNTS) / 36.0)
    assert _dice.WEIGHTS.sum() == pytest.approx(1.0, abs=1e-15)
    # every user reads the same table, in the same order
    assert _search.ROLLS is _dice.ROLLS and luck.ROLLS is _dice.ROLLS
    assert luck.WEIGHTS is _dice.WEIGHTS
    assert [tuple(r) for r in _movegen.ROLLS.tolist()] == rolls


def test_roll_index_is_the_inverse_of_the_table():
    """C's roll_index (through _luck.side0_luck) picks row ROLLS.index of a roll, either
    dice order."""
    rules = Rules()
    for j, (a, b) in enumerate(_dice.ROLLS):
        values = np.zeros((21, 7), dtype=np.float32)
        values[j, 0] = 1.0                      # P(win) 1 after roll j only
        for dice in ((a, b), (b, a)):
            out, _ = _luck.side0_luck(values, dice, 0, rules)
            assert out[0] == pytest.approx(1.0 - _dice.WEIGHTS[j])


def test_the_search_ply_limit_is_not_a_game_cap():
    assert _search.MAX_SEARCH_PLIES == 3
    assert not hasattr(_search, "MAX_PLIES")
    assert not hasattr(_selfplay, "MAX_GAME_PLIES")


def _board(**points):
    b = np.zeros(24, dtype=np.uint8)
    for name, n in points.items():
        b[int(name[1:]) - 1] = n
    return b


RACES = [                                      # races of both homes: (mover, opponent)
    (_board(p22=2, p23=1), _board(p19=1, p24=2)),
    (_board(p20=1, p24=3), _board(p21=2, p22=1, p23=1)),
    (_board(p19=3, p20=2, p23=1), _board(p19=2, p21=2, p24=3)),
    (_board(p21=1, p23=1), _board(p19=5, p20=5, p21=5)),      # a mars is possible
    (_board(p19=5, p20=5, p21=5), _board(p20=1, p24=1)),
]


@pytest.fixture(scope="module")
def small_tables():
    one = bo.OneSided.build(15, progress=False)
    two = bo.TwoSided.build(4, progress=False)
    return one, two


def test_the_search_values_races_as_the_tables(small_tables):
    """The search's leaves (C race_table_value) give race_probabilities' numbers: the
    two-sided table where it covers the race, the one-sided convolution elsewhere."""
    one, two = small_tables
    ev = Evaluator.default()
    s = _search.Searcher(ev.net, Rules(), race_tables(one=one, two=two), threads=1)
    boards = np.array([[m, o] for m, o in RACES], dtype=np.uint8)
    vals = s.values(boards, 0)
    for k, (m, o) in enumerate(RACES):
        want = race_probabilities(Position.from_boards(m, o), Rules(), [one, two])
        got = dict(zip(("p_win", "p_mars_win", "p_koks_win", "p_home_mars_win",
                        "p_mars_loss", "p_koks_loss", "p_home_mars_loss"), vals[k]))
        for name in ("p_win", "p_mars_win", "p_home_mars_win", "p_mars_loss",
                     "p_home_mars_loss"):
            assert got[name] == np.float32(getattr(want, name)), (k, name)
    assert vals[3:, 1].max() > 0 and vals[3:, 4].max() > 0       # marses were valued


def test_the_python_race_value_decides_as_the_c_one():
    """No table values a contact position, nor a race off the bear-off tables without a
    race12 database."""
    contact = Position.initial()
    assert race_table_value(contact) is None
    outer = Position.from_boards(_board(p13=1, p20=2), _board(p19=1, p24=2))
    assert race_table_value(outer, Rules(), None) is None
