"""An argument that has no effect in a report says so (a UserWarning naming it and why):
cube_report, cube_analysis and game_report; the arguments where they act stay silent.
The engine's calls (cube_decision, match_equity_table): tests/engine/decisions/test_cube_no_effect.py."""
import nardy_fast as nf
from nardy_fast import Rules
from nardy_fast.core.record import GameRecord

from helpers import seeded_contact as _contact, race_of_points as _race
from helpers import silent as _silent, warned as _warned

GEO = Rules(cube="geometric")


def test_cube_report_and_cube_analysis():
    positions = [_contact(), _race(19, 24)]
    _warned(lambda: nf.cube_report(positions, rules=GEO, n_games=100, workers=1),
            ["n_games", "workers"], "with method='auto'")
    _silent(lambda: nf.cube_report(positions, rules=GEO, seed=4))   # recorded in attrs
    _silent(lambda: nf.cube_report(positions[1:], rules=GEO, method="rollout", n_games=36,
                                   seed=4, workers=1))
    rec = GameRecord(rules=GEO, start=_race(19, 24))
    rec.append((6, 5), ((19, "off"),))
    _warned(lambda: nf.cube_analysis(rec, n_games=100, seed=1), ["n_games", "seed"],
            "only method='rollout' plays games")
    _silent(lambda: nf.cube_analysis(rec))
    _silent(lambda: nf.game_report(rec, cube=True))


def test_game_report_cube_probabilities_without_the_cube_warn():
    rec = GameRecord(rules=GEO, start=_race(19, 24))
    rec.append((6, 5), ((19, "off"),))
    _warned(lambda: nf.game_report(rec, cube_probabilities="pips"), ["cube_probabilities"],
            "with cube=False")
    _silent(lambda: nf.game_report(rec, cube=True, cube_probabilities="pips"))
