"""``racevalue.race_table_value``: which table values a race, decided by the C lines the
search's leaves and the rollouts' truncation use (``_racevalue.pxd``,
``race_table_kind``), against the rule written out plainly here."""
import numpy as np
import pytest

from nardy_fast.core.position import Position
from nardy_fast.core.rules import Rules
from nardy_fast.tables import _racevalue
from nardy_fast.tables.race import race_probabilities
from nardy_fast.tables.race12 import race12_probabilities
from nardy_fast.tables.racevalue import race_table_value


def naive_kind(position, race12):
    """Both homes (no checker on points 1-18): the bear-off tables; else a race without
    contact whose checkers all stand on the database's last points, at most its checkers
    a side: race12; else none."""
    b = position.boards
    if not b[:, :18].any():
        return "homes"
    counts = b.sum(axis=1)
    if (race12 is not None and not b[:, :24 - race12.points].any()
            and counts.max() <= race12.max_checkers):
        return "race12"
    return None


def positions(n, seed=44):
    """Random positions, neither side finished, each side's checkers from one of a few
    stretches of points (its home, its last 7 or 12 points, anywhere)."""
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < n:
        bs = []
        for _ in range(2):
            lo = int(rng.choice([18, 17, 12, 0]))
            b = np.zeros(24, np.int64)
            for _ in range(int(rng.integers(1, 16))):
                b[int(rng.integers(lo, 24))] += 1
            bs.append(b)
        try:
            out.append(Position.from_boards(bs[0], bs[1]))
        except ValueError:                 # a point held by both sides: not a position
            pass
    return out


@pytest.mark.parametrize("with_race12", [False, True])
def test_the_decision_is_the_plain_rule(db7, with_race12):
    race12 = db7 if with_race12 else None
    seen = set()
    rules = Rules()
    for pos in positions(300):
        want = naive_kind(pos, race12)
        code = _racevalue.table_kind(pos.boards[0], pos.boards[1],
                                     None if race12 is None else race12.tables)
        got = {_racevalue.HOMES: "homes", _racevalue.RACE12: "race12", 0: None}[code]
        assert got == want, pos.boards
        seen.add(want)
        if want == "race12" and len(seen) < 4:       # the values: the table's Outcome
            assert race_table_value(pos, rules, race12) == \
                race12_probabilities(pos, rules, race12)
            seen.add("valued")
    assert seen >= ({"homes", None} | ({"race12"} if with_race12 else set()))


def test_a_race_of_both_homes_gets_the_bear_off_tables_outcome():
    me, you = np.zeros(24, int), np.zeros(24, int)
    me[[18, 20]], you[23] = (2, 1), 3
    pos = Position.from_boards(me, you)
    assert race_table_value(pos) == race_probabilities(pos, None)


def test_table_kind_refuses_boards_of_another_size():
    with pytest.raises(ValueError, match="expected 24"):
        _racevalue.table_kind(np.zeros(12), np.zeros(24))
