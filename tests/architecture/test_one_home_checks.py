"""One home for each of four ideas: the input checks (``core/_checks``), the seed
derivations (``core/rng.py``), the core's policies (``core/policies.py``) and the progress
bars (``_utils/_progress.py``).

The source scans fail on a copy planted anywhere else in the package (each scan is also
run on a planted copy here, so that it is seen to fail); the behavioural tests compute
each old derivation inline and compare the numbers.
"""
import ast
import hashlib
import io
import re
from pathlib import Path

import numpy as np
import pytest

import nardy_fast as nf
from nardy_fast.core import rng
from nardy_fast._utils._progress import progress_bar, show_progress
from nardy_fast.core.policies import POLICIES, as_chooser, race_move, random_move

PACKAGE = Path(nf.__file__).resolve().parent
SOURCES = (".py", ".pyx", ".pxd")

# each check's home (package-relative paths); a definition elsewhere is a copy
CHECK_HOMES = {
    "check_count": {"core/_checks.pyx"}, "check_int": {"core/_checks.pyx"},
    "check_plies": {"core/_checks.pyx"}, "check_dice": {"core/_checks.pyx"},
    "check_die": {"core/_checks.pyx"}, "check_threads": {"core/_checks.pyx"},
    "check_fraction": {"core/_checks.pyx"}, "require_columns": {"_utils/_frames.py"},
    # beside the type they need: their modules are imported by _checks' users
    "check_match": {"core/matchrules.py"}, "check_score": {"core/matchrules.py"},
    "check_boards": {"core/_state.py"},
    "check_path": {"_utils/_io.py"},             # a file path argument, named
}
CHECK_DEF = re.compile(r"^\s*(?:cp)?def\s+_?(" + "|".join(CHECK_HOMES) + r")\b", re.M)
# the integer check that check_count / check_int / check_plies hold
INT_CHECK = re.compile(r"isinstance\(([\w.]+), bool\) or not isinstance\(\1, "
                       r"\(int, np\.integer\)\)")
PRIVATE_CHECK_IMPORT = re.compile(r"import[^\n]*\b_check_\w+")
TQDM = re.compile(r"^\s*(?:from\s+tqdm|import\s+tqdm)|\btqdm\(", re.M)


def _sources():
    return {str(p.relative_to(PACKAGE)): p.read_text(encoding="utf-8")
            for p in sorted(PACKAGE.rglob("*")) if p.suffix in SOURCES}


def check_copies(files):
    """``[(file, name)]`` of each argument check defined outside its home."""
    return [(f, m) for f, text in files.items() for m in CHECK_DEF.findall(text)
            if f not in CHECK_HOMES[m]]


def int_check_copies(files):
    return [f for f, text in files.items() if f != "core/_checks.pyx"
            and INT_CHECK.search(text)]


def seed_copies(files):
    """Files outside ``core/rng.py`` that derive a seed: a ``spawn_key=`` argument, or an
    int made of a digest's bytes (``int.from_bytes``)."""
    out = []
    for f, text in files.items():
        if f == "core/rng.py":
            continue
        if f.endswith(".py"):
            for node in ast.walk(ast.parse(text)):
                if isinstance(node, ast.Call) and (
                        any(k.arg == "spawn_key" for k in node.keywords)
                        or ast.unparse(node.func) == "int.from_bytes"):
                    out.append(f)
                    break
        elif re.search(r"spawn_key\s*=|int\.from_bytes", text):
            out.append(f)
    return out


def tqdm_copies(files):
    return [f for f, text in files.items() if f != "_utils/_progress.py" and TQDM.search(text)]


# -- the scans: nothing outside the homes, and each scan sees a planted copy -------------

def test_each_argument_check_is_defined_in_its_home_only():
    files = _sources()
    assert check_copies(files) == []
    assert int_check_copies(files) == []
    assert [f for f, t in files.items() if PRIVATE_CHECK_IMPORT.search(t)] == []


def test_the_check_scans_see_a_planted_copy():
    planted = {"engine/match.py": "def check_count(value, name):\n    pass\n",
               "engine/evaluation/evaluator.py": "def _check_plies(plies):\n    pass\n",
               "analysis/report.py": "    if isinstance(n, bool) or not isinstance(n, "
                                     "(int, np.integer)) or n < 1:\n"}
    assert check_copies(planted) == [("engine/match.py", "check_count"),
                                     ("engine/evaluation/evaluator.py", "check_plies")]
    assert int_check_copies(planted) == ["analysis/report.py"]
    assert PRIVATE_CHECK_IMPORT.search("from nardy_fast.engine.evaluation.evaluator import _check_match")


def test_seeds_are_derived_in_core_rng_only():
    assert seed_copies(_sources()) == []
    planted = {
        "training/train.py":
            "rng = np.random.default_rng(np.random.SeedSequence(e, spawn_key=(2 ** 32, k)))\n",
        "analysis/study.py": "seed = int.from_bytes(hashlib.sha256(t).digest()[:16], 'big')\n",
        "training/_selfplay.pyx": "s = np.random.SeedSequence(e, spawn_key=(g,))\n",
        "engine/match.py": '"""Docs may say ``SeedSequence(seed, spawn_key=(p,))``."""\n'}
    assert seed_copies(planted) == ["training/train.py", "analysis/study.py",
                                    "training/_selfplay.pyx"]


def test_tqdm_is_reached_through_core_progress_only():
    files = _sources()
    assert tqdm_copies(files) == []
    assert tqdm_copies({"engine/evaluation/met.py": "    from tqdm.auto import tqdm\n",
                        "training/train.py": "bar = tqdm(total=3)\n"}) == ["engine/evaluation/met.py",
                                                                         "training/train.py"]
    # no fallback for a missing tqdm: it is a required dependency
    assert "ImportError" not in files["_utils/_progress.py"]


# -- the seeds: the old derivations, computed inline, give the same numbers ------------

@pytest.mark.parametrize("entropy", [0, 7, 2 ** 70 + 3])
@pytest.mark.parametrize("k", [0, 1, 4095, 2 ** 32 - 1])
def test_rng_derivations_give_the_old_streams(entropy, k):
    def raw(seq):
        return np.random.PCG64(seq).random_raw(8)
    SS = np.random.SeedSequence
    assert (raw(rng.child_seed(entropy, k)) == raw(SS(entropy, spawn_key=(k,)))).all()
    assert (raw(rng.block_seed(entropy, k)) == raw(SS(entropy, spawn_key=(k,)))).all()
    assert (raw(rng.side_seed(entropy, k)) == raw(SS(entropy, spawn_key=(2 ** 32, k)))).all()
    assert rng.SIDE_KEY == 2 ** 32
    # a side stream is never a counted one
    assert not (raw(rng.side_seed(entropy, k)) == raw(rng.child_seed(entropy, k))).all()


def test_a_study_seeds_each_position_as_before():
    from nardy_fast.analysis.study import KIND, position_seed
    pos = nf.Position.initial()
    for seed in (0, 5, 2 ** 64 + 1):
        old = int.from_bytes(hashlib.sha256(f"{KIND}|{seed}|{pos.id}".encode()).digest()[:16],
                             "big")
        assert position_seed(seed, pos) == old == rng.text_seed(KIND, seed, pos.id)


def test_training_races_come_from_the_side_stream():
    from nardy_fast.training.train import random_races
    from nardy_fast.tables import bearoff
    from nardy_fast.tables.onesided import n_boards
    entropy, k, n = 11, 3, 6
    g = np.random.default_rng(np.random.SeedSequence(entropy, spawn_key=(2 ** 32, k)))
    hi = np.repeat(np.where(np.arange(n) % 2 == 0, bearoff.N_BOARDS, n_boards(8)), 2)
    want = np.zeros((n, 2, 24), np.uint8)
    want[:, :, 18:] = bearoff.board_of(g.integers(1, hi)).reshape(n, 2, 6)[:, :, ::-1]
    assert (random_races(entropy, k, n) == want).all()


# -- the checks: one wording, naming the argument and the value --------------------------

@pytest.mark.parametrize("call, error, text", [
    (lambda: nf.random_game(seed=1, max_turns=True), TypeError, "max_turns=True"),
    (lambda: nf.random_game(seed=1, max_turns=-1), ValueError, "max_turns=-1: must be >= 0"),
    (lambda: nf.random_game(seed=1, max_turns=2.0), TypeError, "max_turns=2.0"),
])
def test_count_arguments_are_checked_by_the_one_check(call, error, text):
    with pytest.raises(error, match=re.escape(text)):
        call()


def test_the_engine_and_reports_use_the_one_count_check():
    from nardy_fast.analysis.report import race_sample
    from nardy_fast.core.cubestate import CubeState
    from nardy_fast.core.matchrules import MatchRules
    from nardy_fast.engine.play.strength import play_match
    from nardy_fast.engine.decisions.matchplay import simulate_matches
    with pytest.raises(ValueError, match=re.escape("n_games=1: must be >= 2")):
        play_match("greedy", "greedy", 1)
    with pytest.raises(TypeError, match=re.escape("n_matches=True: expected an integer")):
        simulate_matches("greedy", "greedy", True)
    with pytest.raises(TypeError, match=re.escape("n=True: expected an integer >= 1")):
        race_sample(True)
    with pytest.raises(TypeError, match=re.escape("length=True: expected an integer 1..")):
        MatchRules(length=True)
    with pytest.raises(ValueError, match=re.escape("stake=0: must be >= 1")):
        CubeState(0)
    assert MatchRules(length=np.int64(5)).length == 5


def test_plies_and_match_checks_name_the_bad_value():
    from nardy_fast.core._checks import check_plies
    from nardy_fast.core.matchrules import MatchState, check_match
    assert check_plies(np.int64(2), 3) == 2
    with pytest.raises(ValueError, match=re.escape("plies=4: expected 0..3")):
        check_plies(4, 3)
    with pytest.raises(TypeError, match=re.escape("plies=True: expected an int 0..3")):
        check_plies(True, 3)
    with pytest.raises(TypeError, match="match: expected a MatchState, got dict"):
        check_match({}, [])
    black = nf.Position.initial().play(nf.Position.initial().legal_moves((6, 5))[0])
    with pytest.raises(ValueError, match="on_roll='white' but position .* has black"):
        check_match(MatchState(3), [black])


# -- the policies: one table in the core, the same games ---------------------------------

def _old_random(pos, moves, g):
    return moves[int(g.integers(len(moves)))]


def _old_race(pos, moves, g):
    w = np.arange(24, 0, -1)
    keys = [(int(np.dot(m.board, w)) * 16 + sum(m.board), g.random()) for m in moves]
    return moves[min(range(len(moves)), key=keys.__getitem__)]


@pytest.mark.parametrize("name, old", [("random", _old_random), ("race", _old_race)])
def test_random_game_plays_the_core_policies_as_before(name, old):
    for seed in (1, 2):
        a = nf.random_game(seed=seed, max_turns=80, policy=name)
        b = nf.random_game(seed=seed, max_turns=80, policy=old)
        assert [(t.dice, t.steps) for t in a.turns] == [(t.dice, t.steps) for t in b.turns]


def test_one_table_of_policy_names():
    from nardy_fast.engine.play.policy import NAMES
    assert POLICIES == {"random": random_move, "race": race_move}
    assert as_chooser("race") is race_move and as_chooser(_old_race) is _old_race
    with pytest.raises(ValueError, match="policy='greedy': expected 'random', 'race' or a "
                                         "callable"):
        as_chooser("greedy")
    assert "random" in NAMES                          # the engine extends the core's names


def test_a_random_match_player_is_the_core_random_policy():
    from nardy_fast.engine.decisions.matchplay import _player
    rules = nf.Rules()
    player = _player("random", "a", rules, np.random.default_rng(0))
    pos = nf.random_game(seed=3, max_turns=12).positions()[-1]     # 6 to 15 moves a roll
    child = np.random.default_rng(0).spawn(1)[0]
    for dice in ((6, 5), (3, 1), (4, 4)):
        want = random_move(pos, pos.legal_moves(dice, rules), child)
        assert player.best_move(pos, dice) == want


# -- progress: one meaning --------------------------------------------------------------

def test_progress_has_one_meaning(monkeypatch):
    class Tty(io.StringIO):
        def isatty(self):
            return True
    for stream, shown in ((Tty(), True), (io.StringIO(), False)):
        monkeypatch.setattr("sys.stderr", stream)
        assert show_progress(None) is shown
        bar = progress_bar(range(3), desc="x", progress=None)
        assert bar.disable is (not shown)
        assert list(bar) == [0, 1, 2]
    assert show_progress(np.bool_(True)) is True
    with pytest.raises(TypeError, match="progress=1: expected True, False or None"):
        show_progress(1)


def test_every_progress_argument_defaults_to_none():
    import inspect
    from nardy_fast.analysis import matchreport, report, study
    from nardy_fast.engine.decisions import cube, matchplay
    from nardy_fast.engine.play import rollout, strength
    from nardy_fast.training import lucknet as luck_training, metbuild, supervised, train
    from nardy_fast.tables import bearoff, cuberace, onesided, race12
    funcs = [rollout.rollout, rollout.rollout_many, study.study, train.train,
             supervised.train_supervised, strength.play_match, matchplay.simulate_matches,
             cube.cube_decision, report.evaluate, report.evaluate_many, report.win_report,
             report.move_report, report.game_report, matchreport.analyse_match,
             luck_training.luck_data, luck_training.train_luck_net, metbuild.write_tables,
             bearoff.TwoSided.build, bearoff.MarsTable.build, bearoff.one_sided,
             onesided.OneSided.build, cuberace.CubefulRace.build, race12.Race12.build,
             race12.race12]
    bad = [f.__qualname__ for f in funcs
           if inspect.signature(f).parameters["progress"].default is not None]
    assert bad == []
