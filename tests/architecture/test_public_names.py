"""One name per thing in the public API: the new spellings work, the old ones (removed in
0.3.0) are refused with an error naming them, the options added to the cube functions,
``rollout_many`` and ``study`` act, and the notebooks and the README reach only public
names."""
import ast
import importlib
import inspect
import json
import pathlib
import re
import sys
import warnings

import numpy as np
import pytest

import nardy_fast as nf
from nardy_fast import CubeState, GameRecord, MatchRules, MatchState, Position, Rules
from nardy_fast.analysis.study import position_seed
from nardy_fast.engine.decisions import cube as cube_module

ROOT = pathlib.Path(__file__).resolve().parents[2]
GEO = Rules(cube="geometric")
FAST = dict(policy="greedy", truncate=None, workers=1, progress=False)


def _race(me_point, you_point):
    me, you = np.zeros(24, int), np.zeros(24, int)
    me[me_point - 1], you[you_point - 1] = 1, 1
    return Position(me, you)


def _contact():
    return nf.random_game(seed=3, max_turns=12).positions()[10]


def _same(a, b):
    return a.keys() == b.keys() and all(
        a[k] == b[k] or (isinstance(a[k], float) and np.isnan(a[k]) and np.isnan(b[k]))
        for k in a)


# -- the spellings 0.3.0 removed ---------------------------------------------------------

def _race_record():
    rec = GameRecord(rules=GEO, start=_race(19, 24))
    rec.append((6, 5), ((19, "off"),))
    return rec


def _play_turns_first_dice():
    from nardy_fast.core.gameloop import play_turns
    return play_turns(GameRecord(), lambda pos, moves, dice: moves[0],
                      np.random.default_rng(1), first_dice=(6, 5))


def _study_cli(tmp_path):
    from nardy_fast.app.cli import main
    ids = tmp_path / "ids.txt"
    ids.write_text(Position.initial().id + "\n")
    return main(["study", str(ids), "--store", str(tmp_path / "s"), "--method", "evaluate"])


# (call, exception, what the message says): each a spelling of before 0.3.0, now refused
REMOVED = {
    "race_probabilities(databases=)": (
        lambda tmp: nf.race_probabilities(_race(19, 24), databases=None),
        TypeError, "unexpected keyword argument 'databases'"),
    "race12_probabilities(db=)": (
        lambda tmp: nf.race12_probabilities(_race(19, 24), db=None),
        TypeError, "unexpected keyword argument 'db'"),
    "bearoff.epc(db=)": (
        lambda tmp: nf.bearoff.epc([3, 3, 3, 3, 3, 0], db=None),
        TypeError, "unexpected keyword argument 'db'"),
    "bearoff_distribution(db=)": (
        lambda tmp: nf.bearoff_distribution(_race(19, 24), db=None),
        TypeError, "unexpected keyword argument 'db'"),
    "cube_decision(probabilities=)": (
        lambda tmp: nf.cube_decision(_contact(), probabilities=lambda p: 0.7),
        TypeError, "unexpected keyword argument 'probabilities'"),
    "cube_report(probabilities=)": (
        lambda tmp: nf.cube_report([_contact()], rules=GEO, probabilities=lambda p: 0.7),
        TypeError, "unexpected keyword argument 'probabilities'"),
    "cube_analysis(probabilities=)": (
        lambda tmp: nf.cube_analysis(_race_record(), probabilities="pips"),
        TypeError, "unexpected keyword argument 'probabilities'"),
    "cube_decision(cube=CubeState)": (
        lambda tmp: nf.cube_decision(_contact(), cube=CubeState(2, "mover")),
        TypeError, "unexpected keyword argument 'cube'"),
    "rollout(cube=CubeState)": (
        lambda tmp: nf.rollout(Position.initial(), 8, rules=GEO, cube=CubeState(2, "mover"),
                               **FAST),
        TypeError, r"rollout: cube: expected True, False or None .*cube_state=.*CubeState"),
    "rollout_many(cube=CubeState)": (
        lambda tmp: nf.rollout_many([Position.initial()], 8, rules=GEO,
                                    cube=CubeState(2, "mover"), **FAST),
        TypeError, r"rollout_many: cube: expected True, False or None .*cube_state="),
    "train(games=)": (
        lambda tmp: nf.train_self_play(tmp / "net.npz", games=4, seed=1, hidden=8, threads=1,
                                       progress=False),
        TypeError, "unexpected keyword argument 'games'"),
    "play_turns(first_dice=)": (
        lambda tmp: _play_turns_first_dice(),
        TypeError, "unexpected keyword argument 'first_dice'"),
    "Position.legal_moves(d1, d2)": (
        lambda tmp: Position.initial().legal_moves(6, 3),
        TypeError, r"legal_moves\(6, 3\): the roll is one argument since 0\.3\.0: "
                   r"legal_moves\(\(6, 3\)\)"),
    "Position.legal_moves(d1, d2, rules)": (
        lambda tmp: Position.initial().legal_moves(6, 3, Rules()),
        TypeError, "positional arguments"),
    "Evaluator.evaluate(list)": (
        lambda tmp: nf.Evaluator.default().evaluate([Position.initial()]),
        TypeError, "list of 1 positions.*evaluate_many.*outcomes"),
    "study(method='evaluate')": (
        lambda tmp: nf.study([Position.initial()], 0, tmp / "s", method="evaluate"),
        ValueError, "method='evaluate': expected one of 'rollout', 'net'"),
    "nardy-fast study --method evaluate": (
        _study_cli, SystemExit, "2"),
    "matchreport.match_row": (
        lambda tmp: importlib.import_module("nardy_fast.analysis.matchreport").match_row,
        AttributeError, "match_row"),
}


@pytest.mark.parametrize("spelling", REMOVED)
def test_the_spellings_removed_in_0_3_0_are_refused(spelling, tmp_path):
    """0.3.0 removed the old spellings of arguments, methods and names (CHANGELOG,
    "Removed in 0.3.0"): each is now refused with an error that names it, not read as its
    new spelling with a DeprecationWarning."""
    call, error, says = REMOVED[spelling]
    with warnings.catch_warnings():
        warnings.simplefilter("error", DeprecationWarning)
        with pytest.raises(error, match=says):
            call(tmp_path)


# -- the exact tables: tables= ----------------------------------------------------------

def test_the_exact_tables_are_tables():
    for f in (nf.race_probabilities, nf.race12_probabilities, nf.bearoff.epc,
              nf.bearoff_distribution):
        assert "tables" in inspect.signature(f).parameters, f.__name__
    one = nf.bearoff.one_sided()
    assert nf.race_probabilities(_race(19, 24), tables=one).method == "one_sided"


# -- the cube's P(win) source: cube_probabilities=; its state: cube_state= -----------------

def test_cube_probabilities_is_the_one_name():
    pos = _contact()
    for f in (nf.cube_decision, nf.cube_report, nf.cube_analysis, nf.rollout,
              nf.rollout_many, nf.game_report):
        params = inspect.signature(f).parameters
        assert "cube_probabilities" in params and "probabilities" not in params, f.__name__
    assert nf.cube_decision(pos, cube_probabilities=lambda p: 0.7)["p_win"] == \
        pytest.approx(0.7)


def test_cube_state_is_the_state_and_cube_the_cube_in_play():
    pos = _contact()
    state = CubeState(2, "mover")
    new = nf.cube_decision(pos, cube_state=state, cube_probabilities=lambda p: 0.7)
    assert _same(new, nf.cube_decision(pos, state, cube_probabilities=lambda p: 0.7))
    start = Position.initial()
    kw = dict(n_games=72, seed=3, **FAST)
    a = nf.rollout(start, rules=GEO, cube_state=state, **kw)
    assert a.extra["cube_stake"] == 2
    # cube=True: the rules' cube, geometric when they name none, centred by default
    assert nf.rollout(start, cube=True, **kw) == nf.rollout(start, rules=GEO, **kw)
    # cube=False: no cube, whatever the rules; the games of the rules' cube game, each
    # win worth 1 (rule book 7a; Rules.cubeless)
    plain = nf.rollout(start, **kw)
    nocube = nf.rollout(start, rules=GEO, cube=False, **kw)
    assert (nocube.p_win, nocube.p_mars_win) == (plain.p_win, plain.p_mars_win)
    assert nocube.equity == pytest.approx(nocube.p_win - nocube.p_lose, abs=1e-15)
    assert plain.p_mars_win != plain.p_mars_loss        # so the two equities differ
    assert nocube.equity != plain.equity
    assert "cube" not in plain.extra
    with pytest.raises(ValueError, match="cube=False"):
        nf.rollout(start, rules=GEO, cube=False, cube_state=state, **kw)
    with pytest.raises(TypeError, match="cube: expected True, False or None"):
        nf.rollout(start, rules=GEO, cube="geometric", **kw)
    many = nf.rollout_many([start], rules=GEO, cube_state=state, **kw)
    assert many.loc[start.id, "equity"] == a.equity


# -- one default number of games --------------------------------------------------------

def test_one_default_number_of_games():
    for f in (nf.cube_decision, nf.cube_report, nf.cube_analysis, nf.win_report,
              nf.move_report, nf.game_report, nf.race_report):
        assert inspect.signature(f).parameters["n_games"].default == nf.DEFAULT_GAMES, \
            f.__name__


# -- options added and wired through ----------------------------------------------------

class _MarkerClient:
    """A client's shape (``map``) for ``Compute`` to accept; never sent any work."""

    def map(self, fn, specs, **kw):
        raise AssertionError("the marker client was sent work")


def test_the_cube_functions_pass_workers_client_and_progress_to_their_rollouts(
        monkeypatch):
    seen = []
    real = cube_module.rollout_games

    def spy(positions, **kw):
        c = kw["compute"]                   # the rollouts' Compute, passed on
        seen.append({"workers": c.workers, "client": c.client, "progress": c.progress})
        kw["compute"] = nf.Compute(workers=c.workers, progress=c.progress)  # a marker,
        return real(positions, **kw)                                        # not a cluster
    monkeypatch.setattr(cube_module, "rollout_games", spy)
    client = _MarkerClient()
    pos = _race(19, 24)
    roll = dict(method="rollout", n_games=36, seed=4, workers=1, client=client,
                progress=True)
    d = nf.cube_decision(pos, rules=GEO, **roll)
    assert d["method"] == "rollout"
    assert seen and all(s == {"workers": 1, "client": client, "progress": True}
                        for s in seen)
    seen.clear()
    frame = nf.cube_report([pos], rules=GEO, **roll)
    assert frame.loc[0, "method"] == "rollout" and len(seen) >= 2
    assert all(s["client"] is client and s["progress"] for s in seen)
    seen.clear()
    rec = GameRecord(rules=GEO, start=_race(19, 24))
    rec.append((6, 5), ((19, "off"),))
    by_rollout = nf.cube_analysis(rec, **roll)
    assert all(s["client"] is client for s in seen) and len(seen) >= 2
    assert by_rollout["method"].tolist() == ["rollout"]
    assert nf.cube_analysis(rec)["method"].tolist() == ["exact"]


def test_rollout_many_at_a_match_score():
    start = Position.initial()
    state = MatchState(MatchRules(length=5), (1, 2), start.side)
    kw = dict(n_games=72, seed=3, **FAST)
    frame = nf.rollout_many([start], match=state, **kw)
    one = nf.rollout(start, match=state, **kw)
    row = frame.loc[start.id]
    assert row["extra_mwc"] == one.extra["mwc"] and row["extra_emg"] == one.extra["emg"]
    assert row["extra_se_mwc"] == one.extra["se_mwc"]
    assert "extra_mwc" not in nf.rollout_many([start], **kw).columns
    with pytest.raises(ValueError, match="on_roll"):
        nf.rollout_many([start], match=MatchState(5, (1, 2), "black"), **kw)
    # the cube asked for (cube=True, cube_state=) has no match winning chances, as before
    for cube in (dict(cube=True), dict(cube_state=CubeState(), rules=GEO)):
        with pytest.raises(ValueError, match="match: a rollout with the cube"):
            nf.rollout_many([start], match=state, **cube, **kw)
        with pytest.raises(ValueError, match="match: a rollout with the cube"):
            nf.rollout(start, match=state, **cube, **kw)
    assert "mwc" in nf.rollout(start, rules=GEO, match=state, **kw).extra


def test_study_at_a_match_score_records_it(tmp_path):
    pytest.importorskip("pyarrow")
    start = Position.initial()
    state = MatchState(MatchRules(length=5), (1, 2), start.side)
    kw = dict(seed=3, policy="greedy", truncate=None, workers=1, progress=False)
    store = tmp_path / "s"
    frame = nf.study([start.id], 36, store=store, match=state, **kw)
    money = nf.study([start.id], 36, store=tmp_path / "money", **kw)
    assert frame["equity"].equals(money["equity"])           # the same games
    assert "mwc" not in money.columns and frame.attrs["study"]["match"]["score"] == [1, 2]
    row = frame.loc[start.id]
    one = nf.rollout(start, 36, seed=position_seed(3, start.id),
                     match=state, policy="greedy", truncate=None, workers=1,
                     progress=False)
    assert row["mwc"] == pytest.approx(one.extra["mwc"], abs=1e-12)
    assert row["se_mwc"] == pytest.approx(one.extra["se_mwc"], abs=1e-12)
    assert nf.read_study(store)["mwc"].equals(frame["mwc"])
    again = nf.study([start.id], 36, store=store, match=state, **kw)
    assert again.attrs["from_store"] == 1 and again["mwc"].equals(frame["mwc"])
    for other in (None, MatchState(MatchRules(length=5), (2, 1), start.side)):
        with pytest.raises(ValueError, match="another study.*match"):
            nf.study([start.id], 36, store=store, match=other, **kw)


# -- one index name ---------------------------------------------------------------------

def test_frames_keyed_by_position_are_indexed_by_position(tmp_path):
    start = Position.initial()
    ev = nf.Evaluator.default()
    assert ev.evaluate_many([start]).index.name == "position"
    assert nf.rollout_many([start], 36, seed=1, **FAST).index.name == "position"
    pytest.importorskip("pyarrow")
    assert nf.study([start.id], 36, store=tmp_path / "s", seed=1, policy="greedy",
                    truncate=None, workers=1, progress=False).index.name == "position"


# -- module paths ------------------------------------------------------------------------

@pytest.mark.parametrize("old", ["nardy_fast.engine.match", "nardy_fast.match",
                                 "nardy_fast.engine." + "rollout", "nardy_fast.rollout",
                                 "nardy_fast.record", "nardy_fast.engine." + "train",
                                 "nardy_fast.core." + "_io"])
def test_the_old_module_paths_are_gone(old):
    """0.3.0 removed the paths of the flat layout and of the engine's single folder: an old
    path fails to import instead of loading the module from its new home."""
    sys.modules.pop(old, None)
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module(old)


# -- the notebooks and the README use public names only ---------------------------------

LAYERS = ("core", "tables", "engine", "training", "analysis", "app")
_PATH = re.compile(r"\b(?:nardy_fast|nf)\.(?:" + "|".join(LAYERS) + r")\b")


def _cells():
    for path in sorted((ROOT / "notebooks").glob("*.ipynb")):
        nb = json.loads(path.read_text(encoding="utf-8"))
        for k, cell in enumerate(nb["cells"]):
            if cell["cell_type"] == "code":
                yield f"{path.name} cell {k}", "".join(cell["source"])
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    for k, m in enumerate(re.finditer(r"```python\n(.*?)```", text, re.S)):
        yield f"README.md python block {k}", m.group(1)


def _private_uses(code):
    """The imports of a private module or a layer's path, and the layer paths named."""
    bad = []
    tree = ast.parse("\n".join(line for line in code.splitlines()
                               if not line.lstrip().startswith(("%", "!"))))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            names = [node.module or ""] + [f"{node.module}.{a.name}" for a in node.names]
        else:
            continue
        for name in names:
            parts = name.split(".")
            if parts[0] == "nardy_fast" and (len(parts) > 2 or any(
                    p.startswith("_") or p in LAYERS for p in parts[1:])):
                bad.append(name)
    return bad + _PATH.findall(code)


def test_notebooks_and_readme_reach_only_public_names():
    cells = list(_cells())
    assert len(cells) > 20 and any(n.startswith("README") for n, _ in cells)
    for name, code in cells:
        assert _private_uses(code) == [], name


@pytest.mark.parametrize("code", [
    "from nardy_fast.training.train import train",
    "from nardy_fast.engine import _selfplay",
    "import nardy_fast.analysis.matchreport as m",
    "from nardy_fast import _version",
    "x = nf.engine.met.outcome_values(s)",
])
def test_the_public_names_check_catches_a_private_path(code):
    assert _private_uses(code)


def test_the_exported_names_resolve():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for name in nf.__all__:
            assert getattr(nf, name) is not None, name


def test_dir_shows_the_public_names_only():
    """Completion in a notebook offers what ``nardy_fast`` exports, not the modules its
    ``__init__`` imports for itself."""
    assert dir(nf) == sorted(nf.__all__)
    assert not {"os", "importlib", "TYPE_CHECKING"} & set(dir(nf))
