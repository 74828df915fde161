"""The match equity table: the cubeless table against an independent recursion, the
cubeful one against hand-derived values, the shipped tables, the MWC conversions."""
import json

import numpy as np
import pytest

from nardy_fast.engine.evaluation import met

from nardy_fast.training import metbuild
from nardy_fast.core.cubestate import CubeState
from nardy_fast.core.matchrules import MatchRules, MatchState
from nardy_fast.core.rules import Rules
from nardy_fast.engine.evaluation.evaluator import Evaluator

from helpers import cut_rollout_runs

KINDS = ("oin", "mars", "koks", "home_mars")


def _dist(seed, draw=0.0):
    """A random first-mover distribution over the exclusive outcomes."""
    r = np.random.default_rng(seed).dirichlet(np.ones(8)) * (1 - draw)
    d = {f"win_{k}": float(r[i]) for i, k in enumerate(KINDS)}
    d.update({f"loss_{k}": float(r[4 + i]) for i, k in enumerate(KINDS)})
    d["draw"] = draw
    return d


def _value_iteration(mr, dist, n):
    """Chances of X needing i units against j by iterating the one-game equations to a
    fixed point over all states (x needs i, y needs j, starter s: 0 X, 1 Y, 2 thrown)."""
    unit = mr.unit
    pts = {k: mr.rules.points(k) / unit for k in KINDS}
    dpts = mr.draw_points() / unit
    size = int(round(n / unit))
    v = np.full((size + 1, size + 1, 2), 0.5)

    def look(i, j, s):
        if i <= 0:
            return 1.0
        if j <= 0:
            return 0.0
        i, j = int(round(i)), int(round(j))
        return 0.5 * (v[i, j, 0] + v[i, j, 1]) if s == 2 else v[i, j, s]

    def nxt(s, winner):
        if mr.starter == "alternate":
            return 1 - s
        if mr.starter == "opening_roll" or winner is None:
            return 2
        return winner

    for _ in range(400):
        new = v.copy()
        for i in range(1, size + 1):
            for j in range(1, size + 1):
                for s in (0, 1):
                    tot = 0.0
                    for k in KINDS:
                        # the first mover wins pts[k] with dist["win_k"]
                        pw, pl = dist[f"win_{k}"], dist[f"loss_{k}"]
                        if s == 0:
                            tot += pw * look(i - pts[k], j, nxt(0, 0))
                            tot += pl * look(i, j - pts[k], nxt(0, 1))
                        else:
                            tot += pw * look(i, j - pts[k], nxt(1, 1))
                            tot += pl * look(i - pts[k], j, nxt(1, 0))
                    if dist["draw"]:
                        a, b = i - dpts, j - dpts
                        if (a <= 0 and b <= 0) or dpts == 0:
                            a, b = i, j                     # replayed
                        tot += dist["draw"] * look(a, b, nxt(s, None))
                    new[i, j, s] = tot
        if np.abs(new - v).max() < 1e-16:
            break
        v = new
    return np.array([[look(a / unit, b / unit, 2) for b in range(1, n + 1)]
                     for a in range(1, n + 1)])


@pytest.mark.parametrize("mr, draw", [
    (MatchRules(), 0.0),
    (MatchRules(starter="opening_roll"), 0.0),
    (MatchRules(starter="alternate", rules=Rules(scoring="extended")), 0.0),
    (MatchRules(rules=Rules(draw_rule=True)), 0.03),
    (MatchRules(draw="one", rules=Rules(draw_rule=True)), 0.05),
    (MatchRules(draw="replay", starter="alternate", rules=Rules(draw_rule=True)), 0.04),
])
def test_cubeless_table_is_the_recursion(mr, draw):
    dist = _dist(7, draw)
    n = 6
    got = met.match_equity_table(n, rules=mr, dist=dist).to_numpy()
    want = _value_iteration(mr, dist, n)
    assert np.abs(got - want).max() < 1e-12


def test_table_contract_and_symmetry():
    m = met.match_equity_table(5, dist=_dist(3))
    assert list(m.index) == [1, 2, 3, 4, 5] and list(m.columns) == [1, 2, 3, 4, 5]
    a = m.to_numpy()
    assert np.allclose(a + a.T, 1.0, atol=1e-12)       # one of the two wins the match
    assert ((0 < a) & (a < 1)).all()
    # needing fewer points never hurts: rows fall, columns rise
    assert (np.diff(a, axis=0) <= 1e-12).all() and (np.diff(a, axis=1) >= -1e-12).all()


def test_one_away_one_away_is_the_game():
    d = _dist(5)
    p = sum(d[f"win_{k}"] for k in KINDS)
    # 1-away/1-away, thrown for: the first mover wins with p, either side starts half the time
    assert met.match_equity_table(1, dist=d).loc[1, 1] == pytest.approx(0.5, abs=1e-12)
    solver = met.MetSolver(MatchRules(), d)
    assert solver.value(1, 1, 0) == pytest.approx(p, abs=1e-12)


def test_cubeful_hand_values():
    d = _dist(11)
    p = sum(d[f"win_{k}"] for k in KINDS)
    cube = Rules(cube="geometric")
    m = met.match_equity_table(3, cube=True, rules=MatchRules(rules=cube), dist=d, x=1.0)
    # no Crawford, 1-away/2-away: X never raises (a win at 1 ends the match); Y's raise
    # makes the game the match (X's chance p) or, passed, leaves 1-away/1-away with Y
    # starting (X's chance 1 - p): the value max(p0, 1 - p) of X's game chance p0
    want = 0.5 * (max(p, 1 - p) + (1 - p))
    grid = 1.0 / (met.GRID - 1)                 # kinks off the grid of winning chances
    assert m.loc[1, 2] == pytest.approx(want, abs=grid)
    mc = met.match_equity_table(3, cube=True, rules=MatchRules(crawford=True, rules=cube),
                                dist=d, x=1.0)
    # Crawford game at 1-away/2-away: lose it and the next game decides, its winner (the
    # trailer) starting: X first: p + (1-p)(1-p); Y first: (1-p) + p(1-p)
    want = 0.5 * ((p + (1 - p) ** 2) + ((1 - p) + p * (1 - p)))
    assert mc.loc[1, 2] == pytest.approx(want, abs=1e-9)
    post = met.post_crawford_table(3, rules=MatchRules(crawford=True, rules=cube), dist=d,
                                   x=1.0)
    assert post[2] == pytest.approx(m.loc[1, 2], abs=1e-12)   # the same game as above
    assert np.allclose(mc.to_numpy() + mc.to_numpy().T, 1.0, atol=1e-6)
    # Janowski's mix at the start of the game: x live + (1 - x) dead, and the dead cube
    # at 1-away/2-away plays like the Crawford game above
    mx = met.match_equity_table(2, cube=True, rules=MatchRules(rules=cube), dist=d, x=0.6)
    assert mx.loc[1, 2] == pytest.approx(0.6 * m.loc[1, 2] + 0.4 * want, abs=1e-12)


def test_cubeful_take_point_at_two_away_two_away():
    mr = MatchRules(length=2, rules=Rules(cube="geometric"))
    d = _dist(2)
    solver = met.MetSolver(mr, d, cube=True, x=1.0)
    # a raise makes the game the match: a pass leaves the opponent 2-away against 1-away
    win1 = solver.value(1, 2, 0)
    fns = solver.cube_functions(2, 2, 0)
    dt = fns[("Y", 2)]
    assert np.allclose(dt, met._GRID, atol=1e-12)           # the game for the match
    pass_at = met._GRID[np.flatnonzero(dt >= win1)[0]]
    assert pass_at == pytest.approx(win1, abs=1.0 / (met.GRID - 1))


@pytest.mark.parametrize("length, cube, mr", [
    (6, False, MatchRules()), (3, True, MatchRules(rules=Rules(cube="geometric"))),
    (3, True, MatchRules(crawford=True, rules=Rules(cube="geometric")))])
def test_shipped_tables_are_reproduced(length, cube, mr):
    stored = met.match_equity_table(length, cube=cube, rules=mr)
    fresh = met.match_equity_table(length, cube=cube, rules=mr, stored=False)
    assert met._stored(length, cube, mr) is not None          # read from the file
    assert np.abs(stored.to_numpy() - fresh.to_numpy()).max() < 1e-12


def test_start_distribution_is_a_distribution():
    d = met.start_distribution()
    p = [d[f"{w}_{k}"] for w in ("win", "loss") for k in KINDS] + [d["draw"]]
    assert min(p) >= 0 and sum(p) == pytest.approx(1.0, abs=1e-9)
    assert d["games"] == metbuild.START_GAMES and d["seed"] == metbuild.START_SEED


def test_shipped_start_data_was_played_by_the_shipped_net():
    """A new shipped rollout net must come with its own rollout of the start (``nardy-fast
    met --rollout``, then ``--write``): the data names the net that played it."""
    for draw_rule, opening in metbuild.VARIANTS:
        rules = Rules(draw_rule=draw_rule, opening_roll=opening)
        assert (met.start_distribution(rules).get("net")
                == Evaluator.default(rules).rollout_net.digest())
    with open(met.TABLE_FILE, encoding="utf-8") as f:
        assert json.load(f)["start"] == met.start_distribution()   # the tables are its


def test_coefficients_are_the_outcome_values():
    state = MatchState(MatchRules(length=5, rules=Rules(scoring="extended")), (3, 1))
    v = met.outcome_values(state)
    vals = np.random.default_rng(1).dirichlet(np.ones(8), size=20)
    # net outputs of exclusive probabilities: cumulative p_win, p_mars_win ...
    w = vals[:, :4].sum(1)
    net = np.stack([w, vals[:, 1:4].sum(1), vals[:, 2], vals[:, 3],
                    vals[:, 5:8].sum(1), vals[:, 6], vals[:, 7]], 1)
    keys = [f"win_{k}" for k in KINDS] + [f"loss_{k}" for k in KINDS]
    want = vals @ np.array([v[k] for k in keys])
    assert np.allclose(met.mwc_of_values(net, state), want, atol=1e-12)


def test_mars_is_worthless_to_a_side_one_point_away():
    state = MatchState(3, (2, 0))           # white on roll, one point away
    c0, c = met.coefficients(state)
    assert c[1] == pytest.approx(0.0, abs=1e-12)     # its mars wins no more
    assert c[4] < 0                                  # being marsed costs
    assert met.emg(met.outcome_values(state)["win_oin"], state) == pytest.approx(1.0)


def test_cube_solver_takes_the_geometric_cube_when_the_rules_have_none():
    plain = met.MetSolver(MatchRules(length=5), cube=True)
    cube = met.MetSolver(MatchRules(length=5, rules=Rules(cube="geometric")), cube=True)
    assert plain.mr.cube
    for i, j in ((1, 2), (3, 5), (5, 4)):
        assert plain.value(i, j, 2) == pytest.approx(cube.value(i, j, 2), abs=1e-12)


def test_a_cube_state_without_a_cube_is_the_centred_cube():
    mr = MatchRules(length=5, rules=Rules(cube="geometric"))
    assert met.outcome_values(MatchState(mr, (1, 3))) == met.outcome_values(
        MatchState(mr, (1, 3), cube=CubeState(1, "centre")))


@pytest.mark.parametrize("starter", ["winner", "opening_roll", "alternate"])
def test_a_dead_cube_decision_is_the_games_match_winning_chance(starter):
    # with a dead cube (x = 0) playing on is the game played out at the stake: the same
    # match winning chance as outcome_values gives the same P(win), whoever starts next
    mr = MatchRules(length=5, starter=starter, rules=Rules(cube="geometric"))
    state = MatchState(mr, (1, 2), cube=CubeState())
    v = met.outcome_values(state)
    p = 0.6
    d = met.match_cube_decision(p, state, x=0.0)
    assert d["no_double"] == pytest.approx(p * v["win_oin"] + (1 - p) * v["loss_oin"],
                                           abs=1e-12)
    assert d["double_pass"] == pytest.approx(v["win_oin"], abs=1e-12)


def test_write_start_data_writes_every_variant(tmp_path):
    path = tmp_path / "start.json"
    data = metbuild.write_start_data(n_games=36, workers=1, progress=False, path=str(path))
    back = json.loads(path.read_text(encoding="utf-8"))
    assert back == json.loads(json.dumps(data)) and len(back) == len(metbuild.VARIANTS)
    for d in back.values():
        p = [d[f"{w}_{k}"] for w in ("win", "loss") for k in KINDS] + [d["draw"]]
        assert d["games"] == 36 and sum(p) == pytest.approx(1.0, abs=1e-9)
        assert d["net"] == Evaluator.default().rollout_net.digest()


@pytest.mark.parametrize("p_win, x, error, text", [
    (1.5, 0.68, ValueError, "p_win=1.5: the chance of winning must be in"),
    (float("nan"), 0.68, ValueError, "p_win=nan"), ("0.7", 0.68, TypeError, "p_win='0.7'"),
    (True, 0.68, TypeError, "p_win=True"), (0.7, 2, ValueError, "x=2: the cube efficiency"),
    (0.7, -0.1, ValueError, "x=-0.1")])
def test_match_cube_decision_refuses_an_impossible_chance_or_efficiency(p_win, x, error, text):
    state = MatchState(length=MatchRules(length=5, rules=Rules(cube="geometric")),
                       score=(2, 3), cube=CubeState())
    with pytest.raises(error, match=text):
        met.match_cube_decision(p_win, state, x=x)
    assert 0 <= met.match_cube_decision(0.7, state, x=1.0)["mwc"] <= 1


@pytest.mark.parametrize("fn", [lambda s: met.match_cube_decision(0.5, s), met.outcome_values])
def test_match_functions_name_a_state_that_is_not_one(fn):
    with pytest.raises(TypeError, match="state: expected a MatchState, got str"):
        fn("2-3 of 5")


@pytest.mark.parametrize("change, error, words", [
    ({"win_oin": None}, ValueError, r"dist: no 'win_oin'; expected win_<kind> and "
                                    r"loss_<kind>"),
    ({"win_oin": 1.5}, ValueError, r"dist\['win_oin'\]=1.5: a probability must be in"),
    ({"loss_mars": "x"}, TypeError, r"dist\['loss_mars'\]='x'"),
    ({"win_oin": "+0.01"}, None, "sum to"),
    ({"win_oinn": 0.0}, ValueError, r"dist: 'win_oinn' is no outcome"),
])
def test_a_distribution_that_is_not_one_is_refused_by_name(change, error, words):
    """``dist=`` of the table: a missing kind, a value that is no probability and a sum
    other than 1 are named (a missing kind was a bare KeyError)."""
    d = {k: v for k, v in met.start_distribution().items()}
    for k, v in change.items():
        if v is None:
            del d[k]
        elif k not in d:
            d[k] = v
        elif v == "+0.01":
            d[k] += 0.01
        else:
            d[k] = v
    with pytest.raises(error or ValueError, match=words):
        met.match_equity_table(3, dist=d)
    with pytest.raises(TypeError, match="dist: expected a mapping"):
        met.match_equity_table(3, dist=[0.5, 0.5])
    kept = met.match_equity_table(3, dist=met.start_distribution())   # extra keys kept
    np.testing.assert_array_equal(kept.to_numpy(), met.match_equity_table(3).to_numpy())


@pytest.mark.parametrize("kw", [dict(cube="no"), dict(cube=1), dict(stored="false")])
def test_match_equity_table_flags_must_be_true_or_false(kw):
    """match_equity_table(5, cube="no") gave the cubeful table (a truthy text); cube and
    stored are now checked as every flag is (``rules.check_flag``)."""
    name = next(iter(kw))
    with pytest.raises(TypeError, match=rf"^{name}=.*: expected True or False"):
        met.match_equity_table(3, **kw)
    assert met.match_equity_table(3, cube=np.bool_(False)).equals(met.match_equity_table(3))

def test_write_start_data_stops_at_a_cut_rollout(tmp_path, monkeypatch):
    """Ctrl-C in the first variant's rollout: no later variant rolled out, no file."""
    runs = cut_rollout_runs(monkeypatch)
    path = tmp_path / "start.json"
    with pytest.raises(KeyboardInterrupt, match="stopped at an interrupted rollout"):
        metbuild.write_start_data(n_games=36, workers=1, progress=False, path=str(path))
    assert runs == [1] and not path.exists()
