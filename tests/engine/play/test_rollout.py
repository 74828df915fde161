"""Tests of the rollout engine (nardy_fast.engine.play.rollout, nardy_fast.engine.play._rollout, nardy_fast.core.rng).

Statistical checks use fixed seeds and compare with 4 standard errors, so a correct
engine fails them with probability < 1e-4; a wrong one fails them by far.
"""
import dataclasses
import math
import statistics

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import nardy_fast as nf
from nardy_fast.core import rng as nrng
from nardy_fast import successors
# private on purpose: the C kernel of the greedy formula
from nardy_fast.engine.play._policies import greedy_scores
from nardy_fast.engine.play.rollout import rollout, rollout_many, stop_if_interrupted
from nardy_fast.core.rules import Rules
from helpers import board, cut_rollout_runs, small_default_mars

FAST = dict(workers=1, progress=False)


def random_position(seed, plies):
    """The position after `plies` random legal turns from the start (side on roll first)."""
    g = np.random.default_rng(seed)
    b = [board(p1=15), board(p1=15)]
    s = 0
    for _ in range(plies):
        c = successors(b[s], b[1 - s], int(g.integers(1, 7)), int(g.integers(1, 7)))
        b[s] = c[g.integers(len(c))]
        if b[s].sum() == 0:
            break
        s = 1 - s
    return nf.Position.from_boards(b[s], b[1 - s], "white" if s == 0 else "black")


def bearoff_available():
    try:
        from nardy_fast.tables import bearoff  # noqa: F401
        return True
    except ImportError:
        return False


needs_bearoff = pytest.mark.skipif(not bearoff_available(),
                                   reason="nardy_fast.tables.bearoff not available")


# ---------------------------------------------------------------------------------------
# the greedy formula against a plain transcription of its docstring

def naive_greedy(b, o):
    b = [int(x) for x in b]
    o = [int(x) for x in o]
    pips = sum(c * (24 - i) for i, c in enumerate(b))
    held = sum(1 for i in range(1, 24) if b[i])
    blocks, run = 0, 0
    for i in range(25):
        if i < 24 and b[i]:
            run += 1
        else:
            if run >= 2:
                blocks += (run - 1) ** 2
            run = 0
    stack = sum(max(0, b[i] - 2) for i in range(1, 24))
    home = sum(1 for i in range(18, 24) if b[i])
    front = 0
    for i in range(24):
        if b[i]:
            j = (i + 12) % 24                      # opponent's idx of the same point
            if any(o[k] for k in range(max(0, j - 6), j)):
                front += 1
    return -pips + 2 * held + blocks - 2 * b[0] - stack + home + 0.5 * front


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(0, 120))
def test_greedy_scores_match_formula(seed, plies):
    p = random_position(seed, plies)
    g = np.random.default_rng(seed)
    cands = successors(p.mover, p.opponent, int(g.integers(1, 7)), int(g.integers(1, 7)))
    got = greedy_scores(cands, p.opponent)
    want = [naive_greedy(c, p.opponent) for c in cands]
    assert got.tolist() == pytest.approx(want)


def test_python_policy_equals_builtin_greedy():
    """The hook path plays the best score with the same tie-break, so greedy_scores as a
    callable gives the same games as "greedy"."""
    p = random_position(3, 30)
    kw = dict(seed=11, truncate=None, **FAST)
    a = rollout(p, 300, policy="greedy", **kw)
    b = rollout(p, 300, policy=greedy_scores, **kw)
    assert a == b
    assert b.extra["policy"] == "greedy_scores"


# ---------------------------------------------------------------------------------------
# outcomes add up

def consistency(r, rules):
    assert r.p_win + r.p_lose + r.p_draw == pytest.approx(1.0, abs=1e-12)
    assert 0 <= r.p_mars_win <= r.p_win + 1e-12
    assert 0 <= r.p_mars_loss <= r.p_lose + 1e-12
    assert r.p_koks_win + r.p_home_mars_win <= r.p_mars_win + 1e-12
    assert r.p_koks_loss + r.p_home_mars_loss <= r.p_mars_loss + 1e-12
    plain_w = r.p_mars_win - r.p_koks_win - r.p_home_mars_win
    plain_l = r.p_mars_loss - r.p_koks_loss - r.p_home_mars_loss
    eq = ((r.p_win - r.p_mars_win - r.p_lose + r.p_mars_loss) * rules.points("oin")
          + (plain_w - plain_l) * rules.points("mars")
          + (r.p_koks_win - r.p_koks_loss) * rules.points("koks")
          + (r.p_home_mars_win - r.p_home_mars_loss) * rules.points("home_mars"))
    assert r.equity == pytest.approx(eq, abs=1e-9)


@pytest.mark.slow
@pytest.mark.parametrize("rules", [Rules(), Rules(scoring="extended"),
                                   Rules(draw_rule=True, scoring="extended"),
                                   Rules(head_rule="generalized", block_rule="home",
                                         larger_die_rule=False)])
@pytest.mark.parametrize("policy", ["random", "greedy"])
def test_outcomes_add_up(rules, policy):
    r = rollout(nf.Position.initial(), 1500, policy=policy, seed=2, rules=rules,
                truncate=None, **FAST)
    consistency(r, rules)
    assert r.games == 1500 and r.method == "rollout"
    assert r.extra["games_truncated"] == 0
    assert 0 < r.se_p_win < 0.05 and 0 < r.se_equity < 0.2
    assert 40 < r.mean_length < 400          # a game needs at least 2 * 360 / 24 plies
    if not rules.draw_rule:
        assert r.p_draw == 0


RULE_VARIANTS = st.builds(
    Rules, head_rule=st.sampled_from(["classic", "generalized"]),
    block_rule=st.sampled_from(["ahead", "home", "none"]), block_transient=st.booleans(),
    larger_die_rule=st.booleans(), scoring=st.sampled_from(["classic", "extended"]),
    draw_rule=st.booleans(), opening_roll=st.sampled_from(["rethrow", "opening_dice"]))


@pytest.mark.slow
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32 - 1), st.integers(0, 150), RULE_VARIANTS,
       st.sampled_from(["random", "greedy"]), st.sampled_from(["bearoff", None]),
       st.one_of(st.none(), st.tuples(st.integers(1, 6), st.integers(1, 6))))
def test_any_position_any_rules_adds_up(seed, plies, rules, policy, truncate, dice):
    p = random_position(seed, plies)
    if p.is_over():
        return
    if dice and dice[0] == dice[1] and rules.opening_roll == "opening_dice" and \
            p.boards[:, 0].min() == 15:
        dice = None
    r = rollout(p, 60, policy=policy, seed=seed, rules=rules, truncate=truncate, dice=dice,
                **FAST)
    consistency(r, rules)
    assert r.games == 60 and r.mean_length >= 1
    if not rules.draw_rule:
        assert r.p_draw == 0
    if truncate is None:
        assert r.extra["games_truncated"] == 0


def test_outcome_defaults():
    """An exact or final outcome gives only the main probabilities: no draw, koks or
    home mars, standard errors 0 (so its interval is the value), no games, no length."""
    from nardy_fast.core.result import Outcome
    o = Outcome(p_win=0.75, p_mars_win=0.25, p_lose=0.25, p_mars_loss=0.0, equity=0.75,
                method="exact")
    assert (o.p_draw, o.p_koks_win, o.p_koks_loss, o.p_home_mars_win,
            o.p_home_mars_loss) == (0, 0, 0, 0, 0)
    assert (o.se_p_win, o.se_p_mars_win, o.se_p_mars_loss, o.se_equity, o.games) == \
        (0, 0, 0, 0, 0)
    assert math.isnan(o.mean_length) and o.extra == {}
    assert o.ci95("equity") == (0.75, 0.75)
    assert o.ci95("p_lose") == (0.25, 0.25)            # no se_p_lose field: no interval
    d = o.to_dict()
    assert (d["ci95_p_win_low"], d["ci95_p_win_high"]) == (0.75, 0.75)


def test_to_dict_and_frame():
    r = rollout(nf.Position.initial(), 100, policy="random", seed=1, truncate=None, **FAST)
    d = r.to_dict()
    for key in ("p_win", "p_mars_win", "p_lose", "p_mars_loss", "equity", "se_p_win",
                "se_equity", "games"):
        assert key in d
    assert isinstance(d["games"], int) and isinstance(d["p_win"], float)
    # plain Python numbers throughout (numpy's float64 is a float subclass: type, not isinstance)
    assert all(type(v) in (int, float, str, bool) for k, v in d.items()
               if not k.startswith("extra_")), {k: type(v) for k, v in d.items()}
    with pytest.raises(dataclasses.FrozenInstanceError):
        r.p_win = 1.0
    # numpy numbers given to an Outcome come out plain too
    from nardy_fast.core.result import Outcome
    kw = {f.name: (np.int64(5) if f.name == "games" else np.float64(0.25))
          for f in dataclasses.fields(Outcome) if f.name not in ("method", "extra")}
    d = Outcome(method="x", **kw).to_dict()
    assert all(type(v) in (int, float, str) for v in d.values()), d
    assert r.to_frame().shape[0] == 1
    lo, hi = r.ci95("p_win")
    assert lo < r.p_win < hi


# ---------------------------------------------------------------------------------------
# deterministic games: scoring, fixed dice, stratified first roll

@pytest.mark.parametrize("opp, outcome", [
    (board(p1=15), "koks"),                       # loser still in its first quarter
    (board(p10=15), "mars"),
    (board(p19=10, p24=5), "home_mars"),          # none off, all 15 home
    (board(p20=14), "oin"),                       # one off already
])
@pytest.mark.parametrize("scoring", ["classic", "extended"])
def test_scoring_of_a_one_turn_win(opp, outcome, scoring):
    rules = Rules(scoring=scoring)
    p = nf.Position.from_boards(board(p24=1), opp)
    r = rollout(p, 72, policy="random", seed=0, rules=rules, truncate=None, **FAST)
    assert (r.p_win, r.mean_length, r.games) == (1.0, 1.0, 72)
    assert r.equity == rules.points(outcome)
    assert r.p_mars_win == (0.0 if outcome == "oin" else 1.0)
    assert r.p_koks_win == (1.0 if outcome == "koks" else 0.0)
    assert r.p_home_mars_win == (1.0 if outcome == "home_mars" else 0.0)
    assert r.se_p_win == 0 and r.se_equity == 0


def finishes(mover, opp, d1, d2):
    return any(c.sum() == 0 for c in successors(mover, opp, d1, d2))


def test_fixed_first_roll():
    mover, opp = board(p19=1), board(p13=15)       # the opponent cannot reach our home
    p = nf.Position.from_boards(mover, opp)
    for dice in [(6, 1), (1, 1), (2, 3)]:
        r = rollout(p, 40, policy="random", seed=4, dice=dice, truncate=None, **FAST)
        assert r.p_win == 1.0
        assert r.mean_length == (1.0 if finishes(mover, opp, *dice) else 3.0)
        assert r.extra["dice"] == f"{dice[0]}-{dice[1]}"


@pytest.mark.parametrize("n", [36, 72, 1296])
def test_first_roll_is_stratified(n):
    """A 6-pip single checker finishes on turn 1 for some rolls, else on turn 2; with
    n a multiple of 36 the mean length is exact (every roll equally often)."""
    mover, opp = board(p19=1), board(p13=15)       # the opponent cannot reach our home
    q = sum(finishes(mover, opp, a, b) for a in range(1, 7) for b in range(1, 7)) / 36
    assert 0 < q < 1
    r = rollout(nf.Position.from_boards(mover, opp), n, policy="random", seed=n,
                truncate=None, **FAST)
    assert r.mean_length == pytest.approx(1 * q + 3 * (1 - q), abs=1e-12)
    # every game of the stratum has the same length: no within-stratum variance
    assert r.se_p_win == 0


@pytest.mark.parametrize("n", [72, 108])
def test_second_roll_is_stratified(n):
    """The opponent's 6-pip single checker meets the second random roll: every 36
    consecutive games see each second roll once, so the mean length is exact."""
    opp, mover = board(p19=1), board(p13=15)
    q = sum(finishes(opp, mover, a, b) for a in range(1, 7) for b in range(1, 7)) / 36
    r = rollout(nf.Position.from_boards(mover, opp), n, policy="random", seed=n,
                truncate=None, **FAST)
    assert r.p_lose == 1.0
    assert r.mean_length == pytest.approx(2 * q + 4 * (1 - q), abs=1e-12)


@pytest.mark.parametrize("n", [10, 36, 72, 500])
def test_a_rollout_of_any_size_is_unbiased(n):
    """The race of test_standard_errors_by_hand, which the first two rolls decide:
    P(win) is 1 - 5 * 27 / 1296 exactly.  A fixed order of the stratified rolls (game g's
    first roll g mod 36, its second (g + g div 36) mod 36) gave every seed the same
    biased answer below a whole block: 36 games P(win) 1 with an SE of 0 (each first roll
    met itself as the reply), 500 games 0.919; 10 games played only the first 10 rolls.
    The seed's order (``rng.stratified_rolls``) is unbiased: over 200 seeds the mean is
    within 4 of its standard errors of the truth."""
    p = nf.Position.from_boards(board(p20=1), board(p19=1))
    exact = 1 - 5 * 27 / 1296
    wins = np.array([rollout(p, n, policy="random", seed=s, truncate=None, **FAST).p_win
                     for s in range(200)])
    se = wins.std(ddof=1) / math.sqrt(len(wins))
    assert se > 0
    assert abs(wins.mean() - exact) < 4 * se


def test_a_small_rollout_the_reply_decides_reports_an_honest_se():
    """White one pip from home, Black six under ``draw_rule``: White bears off, and
    Black's last turn (the game's second random roll) draws with 27 of the 36 rolls.  The
    replies of a round's neighbouring games had been neighbouring rolls, which share their
    first die, so 8 games' draws were correlated and the SE 1.45 times too small against
    the spread between seeds; the shuffled replies (``rng.stratified_rolls``) make them
    about independent."""
    p = nf.Position.from_boards(board(p24=1), board(p19=1), "white")
    draws, ses = [], []
    for s in range(2000):
        o = rollout(p, 8, seed=s, policy="random", truncate=None,
                    rules=Rules(draw_rule=True), **FAST)
        draws.append(o.p_draw)
        ses.append(o.se_p_draw)
    draws, ses = np.array(draws), np.array(ses)
    assert abs(draws.mean() - 0.75) < 4 * draws.std(ddof=1) / math.sqrt(len(draws))
    assert draws.std(ddof=1) / math.sqrt((ses ** 2).mean()) < 1.15


def head_watch():
    seen = []

    def policy(cands, opp):
        if opp[0] == 15 and opp.sum() == 15 and cands[:, 0].min() >= 13 and \
                (cands.sum(axis=1) == 15).all():
            seen.append(int(cands[:, 0].min()))       # side 0's first turn from the start
        return np.zeros(len(cands))
    return policy, seen


@pytest.mark.parametrize("opening", ["rethrow", "opening_dice"])
def test_opening_roll_variant(opening):
    policy, seen = head_watch()
    rules = Rules(opening_roll=opening)
    rollout(nf.Position.initial(), 72, policy=policy, seed=5, rules=rules, truncate=None,
            **FAST)
    # From the start only 3-3 has two results (both with 13 checkers left on the head),
    # so the policy is consulted on the first turn exactly in the games that open 3-3:
    # 72 / 36 of them with stratified rolls, none under opening_dice.
    assert seen == ([13, 13] if opening == "rethrow" else [])


def test_opening_dice_forbid_a_fixed_double_from_the_start():
    rules = Rules(opening_roll="opening_dice")
    with pytest.raises(ValueError, match="double"):
        rollout(nf.Position.initial(), 10, dice=(3, 3), rules=rules, truncate=None, **FAST)
    r = rollout(nf.Position.initial(), 10, dice=(3, 3), truncate=None, **FAST)
    assert r.games == 10
    # only the start is special: here Black still has all 15 on its head, White has moved
    white = board(p1=14, p12=1)
    after = nf.Position.from_boards(board(p1=15), white, "black")
    r = rollout(after, 10, dice=(3, 3), rules=rules, truncate=None, **FAST)
    assert r.games == 10 and r.extra["dice"] == "3-3"


def test_one_game_has_no_standard_error():
    """One game: the estimates are its values; no variance can be estimated (nan), and
    no arithmetic warning on the way."""
    import warnings
    p = nf.Position.from_boards(board(p24=1), board(p1=15))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        r = rollout(p, 1, policy="random", seed=0, truncate=None, **FAST)
    assert (r.games, r.p_win, r.equity) == (1, 1.0, 2.0)        # a koks: 2 points
    assert math.isnan(r.se_p_win) and math.isnan(r.se_equity)
    assert math.isnan(r.extra["se_equity_unstratified"])


# ---------------------------------------------------------------------------------------
# statistics

def test_symmetric_race_with_draw_rule_is_even():
    """Identical non-contact race boards, White on roll, draw rule: both sides get the
    same number of turns, so P(win) = P(lose) by symmetry."""
    b = board(p14=3, p16=3, p18=3, p20=3, p22=3)
    p = nf.Position.from_boards(b, b, "white")
    assert not p.is_contact()
    r = rollout(p, 20000, policy="random", seed=7, rules=Rules(draw_rule=True),
                truncate=None, **FAST)
    assert r.p_draw > 0.05
    decided = r.p_win + r.p_lose
    assert abs(r.p_win - r.p_lose) < 4 * 2 * r.se_p_win + 1e-9
    assert abs(r.p_win / decided - 0.5) < 0.02
    assert abs(r.equity) < 4 * r.se_equity


@pytest.mark.slow
def test_symmetric_start_is_mirrored():
    """Side on roll vs the other: a policy tuple swaps roles, not numbers: greedy vs random
    from the start, and random vs greedy, must favour the greedy side."""
    p = nf.Position.initial()
    a = rollout(p, 3000, policy=("greedy", "random"), seed=9, truncate=None, **FAST)
    b = rollout(p, 3000, policy=("random", "greedy"), seed=9, truncate=None, **FAST)
    assert a.p_win > 0.5 + 4 * a.se_p_win
    assert b.p_win < 0.5 - 4 * b.se_p_win
    assert a.extra["policy"] == "greedy/random"


@pytest.mark.slow
def test_first_mover_advantage_is_significant():
    r = rollout(nf.Position.initial(), 20000, policy="random", seed=3, truncate=None,
                **FAST)
    assert r.p_win > 0.5 + 4 * r.se_p_win


def test_same_seed_same_result_other_seed_differs():
    p = random_position(1, 20)
    a = rollout(p, 500, policy="random", seed=123, truncate=None, **FAST)
    b = rollout(p, 500, policy="random", seed=123, truncate=None, **FAST)
    c = rollout(p, 500, policy="random", seed=124, truncate=None, **FAST)
    assert a == b and a != c
    assert a.extra["seed"] == 123


def test_seed_none_is_recorded_and_replays():
    p = random_position(2, 20)
    a = rollout(p, 200, policy="random", seed=None, truncate=None, **FAST)
    b = rollout(p, 200, policy="random", seed=a.extra["seed"], truncate=None, **FAST)
    assert a == b


def test_block_seed_is_spawn():
    assert nrng.block_seed(42, 3).generate_state(4).tolist() == \
        np.random.SeedSequence(42).spawn(4)[3].generate_state(4).tolist()


def test_pips_fall_along_the_game():
    """Every game ends with a finished side; the mean length is at least the fewest
    turns the faster side could need (at most 24 pips per turn)."""
    p = random_position(5, 40)
    pm, po = p.pips
    r = rollout(p, 400, policy="greedy", seed=1, truncate=None, **FAST)
    least = min(2 * math.ceil(pm / 24) - 1, 2 * math.ceil(po / 24))
    assert r.mean_length >= least
    consistency(r, Rules())


# ---------------------------------------------------------------------------------------
# Python policies, interruption

def test_python_policy_errors_propagate():
    def bad_shape(c, o):
        return np.zeros(len(c) + 1)

    def boom(c, o):
        raise ZeroDivisionError("inside the policy")

    p = random_position(4, 10)
    with pytest.raises(ValueError, match="shape"):
        rollout(p, 10, policy=bad_shape, seed=1, truncate=None, **FAST)
    with pytest.raises(ZeroDivisionError, match="inside the policy"):
        rollout(p, 10, policy=boom, seed=1, truncate=None, **FAST)


def _ctrl_c_policy(at):
    """A Python policy (every candidate scored 0) that raises Ctrl-C at its ``at``-th
    turn: a rollout cut after a chosen number of turns, without timing."""
    calls = []

    def interrupting(c, o):
        calls.append(1)
        if len(calls) == at:
            raise KeyboardInterrupt
        return np.zeros(len(c))
    return interrupting


def test_ctrl_c_returns_the_finished_chunks():
    interrupting = _ctrl_c_policy(12000)
    p = nf.Position.from_boards(board(p13=2), board(p13=2))     # short games
    n = 20 * nrng.BLOCK_GAMES
    r = rollout(p, n, policy=interrupting, seed=1, truncate=None,
                chunk_size=nrng.BLOCK_GAMES, **FAST)
    assert r.extra["interrupted"] is True
    assert 0 < r.games < n and r.games % nrng.BLOCK_GAMES == 0
    full = rollout(p, r.games, policy=lambda c, o: np.zeros(len(c)), seed=1, truncate=None,
                   **FAST)
    assert full == r                               # the partial result is a valid rollout
    assert full.extra["interrupted"] is False


def test_ctrl_c_in_the_first_chunk_says_that_no_chunk_finished():
    """Ctrl-C before any chunk had finished said "rollout interrupted before any game
    finished", though many games of the chunk had been played (a chunk on one worker holds
    up to 10,368 games): they are dropped because a chunk's games count only together.
    The message now says so, with the size of the first chunk."""
    interrupting = _ctrl_c_policy(2000)
    p = nf.Position.from_boards(board(p13=2), board(p13=2))     # short games
    with pytest.raises(KeyboardInterrupt, match=r"^rollout interrupted before any chunk of "
                                                r"its games finished \(the first has 2,592 "
                                                r"games; a smaller chunk_size keeps more"):
        rollout(p, 3 * nrng.BLOCK_GAMES, policy=interrupting, seed=1, truncate=None,
                chunk_size=2 * nrng.BLOCK_GAMES, **FAST)


def test_a_cut_rollout_returns_its_games_and_stop_if_interrupted_refuses_them(monkeypatch):
    """One rollout cut by Ctrl-C returns the games it finished, marked; a function built
    on several rollouts asks ``stop_if_interrupted``, which raises for a cut one only."""
    runs = cut_rollout_runs(monkeypatch)
    p = nf.Position.from_boards(board(p13=2), board(p13=2))     # short games
    cut = rollout(p, 3 * nrng.BLOCK_GAMES, policy="random", seed=1, truncate=None,
                  chunk_size=nrng.BLOCK_GAMES, **FAST)
    assert runs == [1] and cut.extra["interrupted"] is True
    assert cut.games == nrng.BLOCK_GAMES
    whole = rollout(p, 36, policy="random", seed=1, truncate=None, **FAST)
    stop_if_interrupted([whole], "a report")                    # whole: no objection
    with pytest.raises(KeyboardInterrupt, match=r"^a report: stopped at an interrupted rollout"):
        stop_if_interrupted([whole, cut], "a report")


def test_a_stop_at_a_cut_rollout_is_a_stopped_naming_what_stopped():
    """The callers of ``stop_if_interrupted`` told its stop from other interrupts by
    matching its message; it is a ``Stopped`` (still a ``KeyboardInterrupt``) that names
    the function, the cut rollout and what is kept, its message as before."""
    import dataclasses

    from nardy_fast.engine.play.rollout import Stopped
    p = nf.Position.from_boards(board(p13=2), board(p13=2))
    whole = rollout(p, 36, policy="random", seed=1, truncate=None, **FAST)
    cut = dataclasses.replace(whole, extra={**whole.extra, "interrupted": True})
    with pytest.raises(Stopped) as e:
        stop_if_interrupted([whole, cut], "a report")
    stop = e.value
    assert isinstance(stop, KeyboardInterrupt)
    assert (stop.what, stop.where, stop.cut_rollout, stop.kept) == ("a report", "", True, ())
    assert str(stop) == ("a report: stopped at an interrupted rollout (no answer rests on "
                         "cut rollouts)")
    later = stop.renamed("analyse").keeping("nothing shown or written")
    assert (later.what, later.where, later.cut_rollout, later.kept) == (
        "analyse", "", True, ("nothing shown or written",))
    assert str(later) == ("analyse: stopped at an interrupted rollout (no answer rests on "
                          "cut rollouts); nothing shown or written")
    assert (stop.what, stop.kept) == ("a report", ())            # the stop itself unchanged
    game = Stopped("analyse_match", "in game 2 of 3", kept=("nothing shown or written",))
    assert not game.cut_rollout
    assert str(game) == "analyse_match: stopped in game 2 of 3; nothing shown or written"


# ---------------------------------------------------------------------------------------
# bad input

@pytest.mark.parametrize("kwargs, exc, match", [
    (dict(n_games=0), ValueError, "n_games"),
    (dict(n_games=-5), ValueError, "n_games"),
    (dict(n_games=2.5), TypeError, "n_games"),
    (dict(policy="smart"), ValueError, "policy"),
    (dict(policy=3), TypeError, "policy"),
    (dict(policy=("greedy",)), ValueError, "two policies"),
    (dict(dice=(0, 3)), ValueError, r"dice\[0\] = 0"),
    (dict(dice=(3, 7)), ValueError, r"dice\[1\] = 7"),
    (dict(dice=(3,)), ValueError, "two dice"),
    (dict(dice="ab"), ValueError, "dice"),
    (dict(truncate="race"), ValueError, "truncate"),
    (dict(workers=0), ValueError, "workers"),
    (dict(seed=-1), ValueError, "seed"),
    (dict(seed="x"), TypeError, "seed"),
    (dict(chunk_size=0), ValueError, "chunk_size"),
])
def test_bad_arguments(kwargs, exc, match):
    args = dict(position=nf.Position.initial(), n_games=10, truncate=None, progress=False)
    args.update(kwargs)
    with pytest.raises(exc, match=match):
        rollout(**args)


def test_bad_positions():
    with pytest.raises(ValueError, match="over"):
        rollout(nf.Position.from_boards(board(), board(p1=15)), 10, truncate=None,
                progress=False)
    with pytest.raises(ValueError, match="held by both"):
        rollout(np.stack([board(p1=15), board(p13=15)]), 10, truncate=None, progress=False)
    with pytest.raises(ValueError, match="16"):
        rollout(np.stack([board(p1=16), board(p1=15)]), 10, truncate=None, progress=False)
    with pytest.raises(ValueError, match="position ID"):
        rollout("Wnot-an-id", 10, truncate=None, progress=False)
    with pytest.raises(TypeError, match="position"):
        rollout(3.5, 10, truncate=None, progress=False)


def test_truncation_without_databases_is_a_clear_error(monkeypatch):
    import importlib
    mod = importlib.import_module("nardy_fast.engine.play.rollout")     # the module, not the function

    def unavailable(*args, **kwargs):
        raise OSError("cache folder /nowhere: read-only")

    monkeypatch.setattr(mod.bearoff, "one_sided", unavailable)     # cannot load or build
    monkeypatch.setattr(mod, "_TABLES", {})
    with pytest.raises(ValueError, match="truncate=None"):
        rollout(nf.Position.initial(), 10, progress=False)
    # without truncation the greedy policy still works (heuristic bear-off)
    r = rollout(nf.Position.initial(), 10, truncate=None, workers=1, progress=False)
    assert r.extra["bearoff_policy"] is False


# ---------------------------------------------------------------------------------------
# rollout_many

def test_rollout_many_rows_equal_single_rollouts():
    import pandas as pd
    ps = [random_position(s, 30) for s in range(3)]
    kw = dict(n_games=300, policy="random", seed=8, truncate=None, **FAST)
    df = rollout_many([p.id for p in ps], **kw)
    assert list(df.index) == [p.id for p in ps]
    for p in ps:
        single = rollout(p, **kw).to_dict()
        for key in ("p_win", "p_mars_win", "equity", "se_equity", "games", "mean_length"):
            assert df.loc[p.id, key] == single[key]
    df2 = rollout_many(pd.Series([p.id for p in ps]), **kw)
    assert df2.equals(df)
    with pytest.raises(ValueError, match="empty"):
        rollout_many([], n_games=10)


# ---------------------------------------------------------------------------------------
# truncation and the bear-off policy (needs nardy_fast.tables.bearoff)

HOME_RACES = [
    (board(p19=3, p20=3, p21=3, p22=3, p23=2, p24=1), board(p19=2, p21=4, p22=3, p24=6)),
    (board(p22=2, p23=3, p24=4), board(p19=1, p20=1, p23=2)),
    (board(p19=15), board(p24=15)),
    (board(p20=5, p21=5, p22=5), board(p19=4, p21=6, p23=5)),
    (board(p19=3, p20=2, p22=2), board(p19=10, p20=5)),          # mars wins likely
    (board(p19=10, p20=5), board(p20=2, p21=2, p22=2, p23=1)),   # mars losses likely
]
# 15 checkers (none off) against 1..2: exact only through the mars table (N = 2 here, see
# mars_of_two).  The first two are among the races where the one-sided
# approximation is worst (~2e-7 in P(win)), so a truncation ignoring the table fails.
MARS_RACES = [
    (board(p20=4, p21=1, p22=3, p23=4, p24=3), board(p19=2)),
    (board(p19=1, p21=2, p22=2, p23=3, p24=7), board(p19=2)),
    (board(p19=15), board(p24=1)),
    (board(p19=10, p20=5), board(p23=1, p24=1)),
]
MARS_RACES += [(o, m) for m, o in MARS_RACES]       # the side with 15 not on roll
EXTENDED = Rules(scoring="extended")


@pytest.fixture
def mars_of_two(monkeypatch, mars_tables):
    """``bearoff.DEFAULT_MARS`` = 2 (in this process only: pool workers keep 8); the mars
    tables of 2 checkers (conftest), by scoring."""
    with small_default_mars(monkeypatch):
        yield mars_tables


@needs_bearoff
@pytest.mark.parametrize("k", range(len(HOME_RACES)))
def test_home_race_rollouts_agree_with_exact(k):
    from nardy_fast.tables import bearoff as bo
    from nardy_fast.tables._racetables import RaceTables     # private on purpose: the C
    from nardy_fast.engine.play._rollout import race_values       # truncation values themselves
    from nardy_fast.engine.play.rollout import _bearoff_tables
    mover, opp = HOME_RACES[k]
    p = nf.Position.from_boards(mover, opp)
    one = bo.one_sided()
    exact = race_values(mover, opp, rules=Rules(), mover_white=True,
                        tables=RaceTables(_bearoff_tables().one_sided))
    # played out, both sides with the database's bear-off moves (the policy the
    # one-sided numbers assume for the winner): within the confidence interval
    r = rollout(p, 6000, policy="greedy", seed=k, truncate=None, **FAST)
    se = r.se_p_win
    assert abs(r.p_win - exact["p_win"]) <= 4 * se + 1e-3
    # The one-sided mars numbers assume the side in danger plays to get its first checker
    # off; played out, it plays for the least mean turns, which marses a bit more often.
    for name in ("p_mars_win", "p_mars_loss"):
        se = getattr(r, "se_" + name)
        assert -4 * se - 1e-3 <= getattr(r, name) - exact[name] <= 4 * se + 5e-3, name
    # The length: the side on roll finishing on its own turn t ends the game at ply
    # 2t - 1, the opponent at ply 2t; both turn counts independent, each from the
    # one-sided distribution (the bear-off moves played here).
    tx, ty = (np.asarray(one.distribution(np.ascontiguousarray(x[::-1][:6])), float)
              for x in (mover, opp))
    i, j = np.meshgrid(np.arange(len(tx)), np.arange(len(ty)), indexing="ij")
    plies = np.where(i <= j, 2 * i - 1, 2 * j)
    joint = np.outer(tx, ty)
    mean = (joint * plies).sum()
    sd = math.sqrt((joint * (plies - mean) ** 2).sum())
    assert exact["plies"] == pytest.approx(mean, abs=1e-9)
    assert abs(r.mean_length - mean) < 4 * sd / math.sqrt(r.games)


@needs_bearoff
def test_truncated_rollout_matches_played_out_rollout():
    p = random_position(12, 70)
    a = rollout(p, 4000, policy="greedy", seed=3, **FAST)
    b = rollout(p, 4000, policy="greedy", seed=3, truncate=None, **FAST)
    assert a.extra["games_truncated"] > 0
    se = math.hypot(a.se_equity, b.se_equity)
    assert abs(a.equity - b.equity) < 4 * se + 0.01
    assert a.se_equity <= b.se_equity * 1.05      # truncation does not add variance
    consistency(a, Rules())


@needs_bearoff
@pytest.mark.parametrize("rules", [Rules(), EXTENDED, Rules(draw_rule=True)])
@pytest.mark.parametrize("k", range(len(HOME_RACES + MARS_RACES)))
@pytest.mark.parametrize("side", ["white", "black"])
def test_truncation_equals_race_probabilities(k, rules, side, mars_of_two):
    from nardy_fast.tables._racetables import RaceTables     # private on purpose: the C
    from nardy_fast.engine.play._rollout import race_values       # truncation values themselves
    from nardy_fast.engine.play.rollout import _bearoff_tables, _mars_source, _mars_tables
    mover, opp = (HOME_RACES + MARS_RACES)[k]
    p = nf.Position.from_boards(mover, opp, side)
    exact = nf.race_probabilities(p, rules=rules)
    source = _mars_source(rules)
    base = _bearoff_tables()
    tables = RaceTables(base.one_sided, base.two_sided,
                        None if source is None else _mars_tables(source, rules))
    values = race_values(mover, opp, rules=rules, mover_white=side == "white",
                         tables=tables)
    r = rollout(p, 40, seed=1, rules=rules, **FAST)
    for name in ("p_win", "p_mars_win", "p_lose", "p_mars_loss", "p_draw", "equity",
                 "p_home_mars_win", "p_home_mars_loss"):
        assert getattr(r, name) == pytest.approx(getattr(exact, name), abs=1e-12), name
        assert values[name] == pytest.approx(getattr(exact, name), abs=1e-12), name
    assert r.extra["games_truncated"] == 40
    # the table's error: 0 when exact, not measured (NaN) for the one-sided approximation
    assert (math.isnan(r.se_equity) if exact.method == "one_sided" else r.se_equity < 1e-6)
    if k >= len(HOME_RACES) and not rules.draw_rule:
        assert exact.method == "two_sided" and exact.extra["mars_max_checkers"] == 2
        assert r.extra["mars_table"] == 2
    else:
        assert r.extra["mars_table"] == (0 if rules.draw_rule else 2)
    consistency(r, rules)


@needs_bearoff
@pytest.mark.parametrize("rules", [Rules(), EXTENDED])
@pytest.mark.parametrize("default, points", [
    (3, None),                  # no table of 15 against <= 3 cached
    (7, None),                  # the real default, not built in the tests
    (2, {"home_mars_points": 3.0}),   # a table of 2, but not for these points
])
def test_truncation_without_a_cached_mars_table_is_one_sided(monkeypatch, mars_tables,
                                                              rules, default, points):
    from nardy_fast.tables import bearoff as bo
    if points is not None:
        rules = Rules(scoring="extended", **points)
    monkeypatch.setattr(bo, "DEFAULT_MARS", default)
    assert bo.mars_table(default, rules, build=False) is None
    one = bo.one_sided()
    table = mars_tables[rules.scoring] if points is None else None
    gap = 0.0
    for mover, opp in MARS_RACES[:2] + MARS_RACES[4:6]:
        p = nf.Position.from_boards(mover, opp)
        approx = nf.race_probabilities(p, rules=rules, tables=one)
        assert approx.method == "one_sided"
        assert nf.race_probabilities(p, rules=rules).method == "one_sided"
        r = rollout(p, 40, seed=1, rules=rules, **FAST)
        assert r.extra["mars_table"] == 0
        for name in ("p_win", "p_mars_win", "p_mars_loss", "equity"):
            assert getattr(r, name) == pytest.approx(getattr(approx, name), abs=1e-12)
        if table is not None:
            exact = table.probabilities(mover, opp)
            gap = max(gap, *(abs(getattr(r, name) - e) for name, e in
                             zip(("p_win", "p_mars_win", "p_mars_loss"), exact)))
    # the table's exact values are really different (so this test can fail)
    assert table is None or gap > 1e-8


# 15 checkers, three still outside the home, against two; both come home in a few turns
# and the race is then (mostly) 15 against <= 2 checkers.
MARS_ROLLOUT = nf.Position.from_boards(board(p16=1, p17=1, p18=1, p20=4, p21=4, p22=4),
                                       board(p12=1, p17=1))


def _fields(r):
    return {k: v for k, v in r.to_dict().items() if not k.startswith("extra_")}


@needs_bearoff
@pytest.mark.parametrize("rules", [Rules(), EXTENDED])
def test_mars_truncation_is_bit_identical_on_workers(monkeypatch, mars_of_two,
                                                     rules):
    """Pool workers (which keep DEFAULT_MARS = 7) load the same table, by its path."""
    from nardy_fast.tables import bearoff as bo
    n = 2 * nrng.BLOCK_GAMES + 50
    kw = dict(seed=11, rules=rules, progress=False, policy="greedy")
    serial = rollout(MARS_ROLLOUT, n, workers=1, **kw)
    assert serial.extra["mars_table"] == 2 and serial.extra["games_truncated"] > n // 2
    pooled = rollout(MARS_ROLLOUT, n, workers=2, chunk_size=nrng.BLOCK_GAMES, **kw)
    assert _fields(pooled) == _fields(serial)
    assert pooled.extra["mars_table"] == 2 and pooled.extra["backend"] == "pool(2)"
    monkeypatch.setattr(bo, "DEFAULT_MARS", 3)          # no such table: one-sided values
    plain = rollout(MARS_ROLLOUT, n, workers=1, **kw)
    assert plain.extra["mars_table"] == 0
    assert plain.p_win != serial.p_win
    assert plain.p_win == pytest.approx(serial.p_win, abs=1e-6)


@needs_bearoff
def test_mars_table_of_a_remote_worker(monkeypatch, mars_tables):
    """A worker without the file at the rollout's path uses its own cached table, and
    refuses (rather than silently approximating) when it has none."""
    import importlib
    mod = importlib.import_module("nardy_fast.engine.play.rollout")
    monkeypatch.setattr(mod, "_TABLES", {})
    table = mars_tables["classic"]
    missing = str(table.path) + ".elsewhere"
    got = mod._mars_tables((missing, 2), Rules())
    assert got.max_checkers == 2 and got.x_offset == table.x_offset
    assert np.array_equal(got.x_on_roll, table.x_on_roll)
    assert np.array_equal(got.y_on_roll, table.y_on_roll)
    with pytest.raises(mod.BearoffUnavailable, match="mars table"):
        mod._mars_tables((missing, 3), Rules())
    # the file exists but covers fewer checkers, or other points: refused as well
    with pytest.raises(mod.BearoffUnavailable, match="mars table"):
        mod._mars_tables((str(table.path), 3), Rules())
    with pytest.raises(mod.BearoffUnavailable, match="mars table"):
        mod._mars_tables((str(table.path), 2), EXTENDED)


@needs_bearoff
def test_symmetric_home_race_with_draw_rule_is_exactly_even():
    b = board(p19=3, p20=3, p21=3, p22=3, p23=3)
    r = rollout(nf.Position.from_boards(b, b, "white"), 36, seed=1,
                rules=Rules(draw_rule=True), **FAST)
    assert r.p_win == pytest.approx(r.p_lose, abs=1e-12)
    assert r.p_draw > 0


# ---------------------------------------------------------------------------------------
# standard errors against a hand computation

def one_checker_finishes(point, d1, d2):
    """A lone checker on ``point`` of its home bears off in one turn iff the roll's pips
    reach the edge (rule book 6: a die may bear off from below ``25 - d`` when no checker
    is farther): d1 + d2 >= 25 - point, four times d for a double."""
    return (4 * d1 if d1 == d2 else d1 + d2) >= 25 - point


@pytest.mark.parametrize("n", [1296, 1296 + 18])
def test_standard_errors_by_hand(n):
    """Side 0: one checker on point 20; side 1: one on point 19.  Side 0 finishes on its
    first roll unless it is 1-1, 1-2, 2-1, 1-3 or 3-1 (fewer than 5 pips); then it is on
    point 23 or 24 and finishes on its next roll whatever it is.  So side 0 loses iff its
    first roll fails and side 1's first roll (the second roll of the game) has 6 pips or
    more (27 of the 36 rolls): every game is decided by the first two rolls, which the
    engine stratifies: game g's first roll is first[g mod 36] and its second reply[(g mod
    36 + shift[(g div 36) mod 36]) mod 36], the seed's permutations (``rng.stratified_rolls``;
    roll r is the dice (r div 6 + 1, r mod 6 + 1)).  Both outcomes are oins (one checker
    left), so equity = 2 p_win - 1 per game.

    For n = 1296 each first-roll stratum holds each second roll once: 5 strata with 27
    losses of 36 and 31 strata without a loss, so
        p_win = 1 - 5 * 27 / 1296,
        s_h**2 = (9 - 9**2 / 36) / 35 in the 5 mixed strata, 0 elsewhere,
        se(p_win)**2 = sum_h s_h**2 / (n_h 36**2) = 5 * s_h**2 / (36 * 36**2),
    and the unstratified se**2 is the plain sample variance of the 1296 values over n.
    For n = 1296 + 18 the strata of games 0..17 hold one game more: the estimate is the
    mean of the 36 strata's means, not the plain mean of the games."""
    values, strata, length = [], [], []
    order, shift, reply = nrng.stratified_rolls(17)
    for g in range(n):
        r1, r2 = order[g % 36], reply[(g % 36 + shift[(g // 36) % 36]) % 36]
        first, second = (r1 // 6 + 1, r1 % 6 + 1), (r2 // 6 + 1, r2 % 6 + 1)
        if one_checker_finishes(20, *first):
            values.append(1.0), length.append(1)
        elif one_checker_finishes(19, *second):
            values.append(0.0), length.append(2)
        else:
            values.append(1.0), length.append(3)
        strata.append(r1)
    values, strata, length = np.array(values), np.array(strata), np.array(length)
    mean = np.mean([values[strata == h].mean() for h in range(36)])
    mean_length = np.mean([length[strata == h].mean() for h in range(36)])
    var = sum(values[strata == h].var(ddof=1) / (strata == h).sum() for h in range(36)) / 36**2
    var_iid = values.var(ddof=1) / n
    if n == 1296:                                       # the closed forms of the docstring
        s2 = (9 - 9**2 / 36) / 35
        assert values.mean() == pytest.approx(1 - 5 * 27 / 1296, abs=1e-15)
        assert var == pytest.approx(5 * 36 * s2 / 1296**2, rel=1e-12)

    p = nf.Position.from_boards(board(p20=1), board(p19=1))
    r = rollout(p, n, policy="random", seed=17, truncate=None, **FAST)
    assert r.games == n
    assert r.p_win == pytest.approx(mean, abs=1e-15)
    assert r.p_lose == pytest.approx(1 - mean, abs=1e-15)
    assert r.equity == pytest.approx(2 * mean - 1, abs=1e-14)
    assert r.mean_length == pytest.approx(mean_length, abs=1e-14)
    assert r.se_p_win == pytest.approx(math.sqrt(var), rel=1e-9)
    assert r.se_equity == pytest.approx(2 * math.sqrt(var), rel=1e-9)
    assert r.se_p_mars_win == r.se_p_mars_loss == 0
    assert r.extra["se_equity_unstratified"] == pytest.approx(2 * math.sqrt(var_iid),
                                                              rel=1e-9)
    assert r.extra["variance_reduction_equity"] == pytest.approx(var_iid / var, rel=1e-9)
    assert r.extra["variance_reduction_equity"] > 3       # stratification really helps
    z = statistics.NormalDist().inv_cdf(0.975)          # 1.95996...
    lo, hi = r.ci95("p_win")
    assert (lo, hi) == pytest.approx((r.p_win - z * r.se_p_win, r.p_win + z * r.se_p_win),
                                     abs=1e-12)


def test_unstratified_standard_error_is_the_sample_variance():
    """When every game is its own stratum's only value no stratified formula applies (a
    stratum of one game); the rollout then falls back on the plain formula, so both SEs
    are sqrt(s**2 / n) of the per-game values.  Here: 30 games, the first roll of game g is
    first[g mod 36] (all different; ``rng.stratified_rolls``), side 0 wins iff it finishes
    at once (one checker on point 20: fewer than 5 pips fail), else side 1 (on point 24)
    always finishes."""
    n = 30
    first, _, _ = nrng.stratified_rolls(1)
    values = np.array([1.0 if one_checker_finishes(20, r // 6 + 1, r % 6 + 1) else 0.0
                       for r in first[:n]])
    assert 0 < values.mean() < 1
    se = math.sqrt(values.var(ddof=1) / n)
    r = rollout(nf.Position.from_boards(board(p20=1), board(p24=1)), n, policy="random",
                seed=1, truncate=None, **FAST)
    assert r.p_win == pytest.approx(values.mean(), abs=1e-15)
    assert r.se_p_win == pytest.approx(se, rel=1e-9)
    assert r.extra["se_equity_unstratified"] == pytest.approx(2 * se, rel=1e-9)
    assert r.extra["variance_reduction_equity"] == pytest.approx(1.0, rel=1e-9)


@pytest.mark.parametrize("side", ["black", "white"])
def test_draw_rule_race_played_out_against_brute_force(side):
    """A tiny race played out under the draw rule with the bear-off moves of least
    expected turns, against the game tree of tests/naive_race.py (rule book moves and
    section 7's last turn for Black).  With Black on roll, Black wins iff it needs no more
    turns than White, and draws iff it needs exactly one more."""
    import naive_race
    a6, b6 = (0, 0, 1, 1, 1, 1), (0, 1, 0, 1, 1, 1)
    assert naive_race.turn_distribution(a6) and naive_race.turn_distribution(b6)
    win, draw, lose = naive_race.draw_rule_race(a6, b6, side == "white")
    assert draw > 0.1 and lose > 0.01
    p = nf.Position.from_boards(naive_race.to24(a6), naive_race.to24(b6), side)
    n = 36 * 250
    r = rollout(p, n, policy="greedy", seed=4, rules=Rules(draw_rule=True), truncate=None,
                **FAST)
    for name, want in (("p_win", win), ("p_draw", draw), ("p_lose", lose)):
        se = math.sqrt(want * (1 - want) / n)        # the i.i.d. bound: stratified is less
        assert abs(getattr(r, name) - want) < 4 * se, name
    plies, plies2 = naive_race.draw_rule_plies(a6, b6, side == "white")
    assert abs(r.mean_length - plies) < 4 * math.sqrt((plies2 - plies**2) / n)
    # truncated at once: the one-sided values, which equal the game tree's here
    t = rollout(p, 36, seed=1, rules=Rules(draw_rule=True), **FAST)
    assert (t.p_win, t.p_draw, t.p_lose) == pytest.approx((win, draw, lose), abs=1e-12)
    assert t.mean_length == pytest.approx(plies, abs=1e-12)


def test_a_block_holds_every_pair_of_stratified_rolls():
    """rng.BLOCK_GAMES: a block holds every pair of first and second rolls once, so
    whole blocks (the unit of work, and of an interrupted result) are exactly stratified:
    the race of test_standard_errors_by_hand gives its exact 1 - 5 * 27 / 1296 after any
    number of whole blocks."""
    p = nf.Position.from_boards(board(p20=1), board(p19=1))
    for blocks in (1, 2):
        r = rollout(p, blocks * nrng.BLOCK_GAMES, policy="random", seed=blocks,
                    truncate=None, chunk_size=nrng.BLOCK_GAMES, **FAST)
        assert r.p_win == pytest.approx(1 - 5 * 27 / 1296, abs=1e-15)
# -- the cube (rule book section 7a) ---------------------------------------------------------

def _last_roll(point):
    """The side on roll has one checker on `point`; the opponent one on its 24 (it finishes
    with any roll)."""
    me, you = np.zeros(24, np.uint8), np.zeros(24, np.uint8)
    me[point - 1], you[23] = 1, 1
    return nf.Position(me, you)


@pytest.mark.slow
@pytest.mark.parametrize("cube_rule", ["geometric", "arithmetic"])
@pytest.mark.parametrize("truncate", ["bearoff", None])
def test_cube_last_roll_double_take(cube_rule, truncate):
    """27 of 36 rolls bear the checker on 19 off: no double 2p - 1 = 1/2, double/take
    2 (2p - 1) = 1 (the next stake is 2 either way), pass 1: double, take; the game is then
    won or lost at stake 2: equity exactly 2 (27 - 9) / 36 = 1.  After the 9 rolls that
    miss, the opponent's win is sure: it cashes (redoubles, and the side passes at stake
    2), by the tie rule of ``cubemodel.actions``."""
    r = rollout(_last_roll(19), 72, seed=3, rules=Rules(cube=cube_rule), workers=1,
                progress=False, truncate=truncate)
    assert r.equity == pytest.approx(1.0, abs=1e-12)
    if truncate is None:
        assert r.extra["doubles_per_game"] == 1.25 and r.extra["takes_per_game"] == 1.0
        assert r.extra["passes_per_game"] == 0.25
        assert r.extra["final_stakes"] == {2: 1.0}
        assert r.p_win == pytest.approx(27 / 36)


def test_cube_last_roll_double_pass_and_opponents_cube():
    """31 of 36 win from 20: double, pass, every game ends at once at stake 1.  With the
    cube on the opponent's side there is no raise: equity 2p - 1 (the opponent, sure to
    win on its turn after a miss, cashes: it redoubles and the side passes at stake 2)."""
    r = rollout(_last_roll(20), 36, seed=3, rules=Rules(cube="geometric"), workers=1,
                progress=False, truncate=None)
    assert r.equity == 1.0 and r.extra["passes_per_game"] == 1.0 and r.p_win == 1.0
    assert r.extra["final_stakes"] == {1: 1.0} and r.mean_length == 0.0
    r = rollout(_last_roll(19), 72, seed=3, rules=Rules(cube="geometric"), workers=1,
                progress=False, truncate=None, cube_state=nf.CubeState(2, "opponent"))
    assert r.equity == pytest.approx(2 * 27 / 36 - 1, abs=1e-12)
    assert r.extra["doubles_per_game"] == 0.25 and r.extra["passes_per_game"] == 0.25
    assert r.extra["takes_per_game"] == 0.0 and r.extra["final_stakes"] == {2: 1.0}


def test_cube_rollout_probabilities_hook_and_checks():
    pos = nf.Position.initial()
    for _ in range(3):                        # past both first turns
        pos = pos.play(pos.legal_moves((6, 5))[0])
    calls = []

    def sure(p):
        calls.append(p)
        return 0.99
    r = rollout(pos, 36, seed=1, rules=Rules(cube="geometric"), progress=False,
                cube_probabilities=sure)
    assert calls and isinstance(calls[0], nf.Position)
    assert r.equity == 1.0 and r.extra["passes_per_game"] == 1.0      # double, pass
    r = rollout(pos, 36, seed=1, rules=Rules(cube="geometric"), progress=False,
                cube_probabilities=lambda p: 0.5)
    assert r.extra["doubles_per_game"] == 0.0
    with pytest.raises(ValueError, match="no cube"):
        rollout(pos, 36, seed=1, progress=False, cube_state=nf.CubeState())


@pytest.mark.slow
def test_cube_rollout_same_on_any_workers():
    """The default cube source (the evaluator's net, in C in each worker) and the pip-count
    stand-in both give the same results on any number of workers."""
    rules = Rules(cube="geometric")
    kw = dict(seed=5, rules=rules, policy="greedy", progress=False)
    for source, name in ((None, "net 0-ply"), ("pips", "pips")):
        a = rollout(nf.Position.initial(), 1296, workers=1, cube_probabilities=source, **kw)
        b = rollout(nf.Position.initial(), 1296, workers=2, chunk_size=648,
                    cube_probabilities=source, **kw)
        assert a.equity == b.equity and a.extra["final_stakes"] == b.extra["final_stakes"]
        assert a.extra["cube_model"] == name and a.extra["doubles_per_game"] > 0
        total = sum(a.extra["final_stakes"].values())
        assert total == pytest.approx(1.0)
    with pytest.raises(TypeError, match="cube_probabilities"):
        rollout(nf.Position.initial(), 36, cube_probabilities="net", **kw)


def test_cube_autodouble_from_the_start():
    """Each tie of the opening throw (probability 1/6) raises the stake before play: with
    no raise in play (P(win) 1/2 to the cube model) a game ends at stake 2**K, with
    P(K = 0) = 5/6 and P(K = 1) = 5/36."""
    n = 216
    r = rollout(nf.Position.initial(), n, seed=11, progress=False, policy="greedy",
                rules=Rules(cube="geometric", autodouble=True),
                cube_probabilities=lambda p: 0.5)
    stakes = r.extra["final_stakes"]
    assert set(stakes) <= {1, 2, 4, 8, 16, 32, 64, ">=128"} and r.extra["autodouble"]
    se = math.sqrt(5 / 36 / n)
    assert abs(stakes[1] - 5 / 6) < 4 * se and abs(stakes.get(2, 0) - 5 / 36) < 4 * se
    assert r.extra["doubles_per_game"] == 0.0
    # not from the start: no autodouble
    pos = nf.Position.initial().play(nf.Position.initial().legal_moves((6, 5))[0])
    r = rollout(pos, 36, seed=1, progress=False, policy="greedy", rules=Rules(
                cube="geometric", autodouble=True), cube_probabilities=lambda p: 0.5)
    assert r.extra["final_stakes"] == {1: 1.0} and not r.extra["autodouble"]


def test_one_policy_object_names_every_policy():
    """``engine.policy.Policy`` parses a policy once for rollouts, matches and studies."""
    from nardy_fast.engine.play.policy import LoopPolicy, Policy, policy_pair
    ev = nf.Evaluator.default()
    assert Policy.of("net:0") == Policy.of("net") == Policy("net", 0)
    assert Policy.of("net:2").net_plies == 2 and Policy.of("greedy").net_plies is None
    assert [Policy.of(p).name for p in ("net", "net:1", "greedy", "random", ev)] == \
        ["net", "net:1", "greedy", "random", "net (custom)"]
    assert Policy.of(ev).c_form() == LoopPolicy("net", 0, net=ev.rollout_net, keep=ev.keep)
    assert Policy.of("net:2").c_form().plies == 2 and Policy.of("net:2").c_form().net is ev.rollout_net
    assert Policy.of("greedy").c_form() == LoopPolicy("greedy")
    a, b = policy_pair("greedy")
    assert a is b
    with pytest.raises(ValueError, match="policy='nett'"):
        Policy.of("nett")
    with pytest.raises(ValueError, match="a='random'"):
        Policy.of("random", "a", ("net", "greedy"))
    with pytest.raises(TypeError, match="policy"):
        Policy.of(3)
    with pytest.raises(ValueError, match="two policies"):
        policy_pair(("net", "greedy", "random"))


def test_policies_are_values():
    """A ``Policy`` (and its C form) is a frozen value: equal by content, hashable (the
    caches key on it) and not to be changed in place."""
    import dataclasses
    from nardy_fast.engine.play.policy import LoopPolicy, Policy
    a, b = Policy.of("net:1"), Policy.of("net:1")
    assert a == b and hash(a) == hash(b) and {a: 1}[b] == 1
    for value in (a, LoopPolicy("greedy")):
        with pytest.raises(dataclasses.FrozenInstanceError):
            value.kind = "random"
    assert LoopPolicy("greedy").plies == 0


def test_cube_state_stake_checked_against_the_rules_progression():
    """A stake the rules' cube cannot have is refused by name, as cube_decision refuses it
    (a geometric cube at 3 was played, a stake no game reaches)."""
    pos = nf.Position.initial().play(nf.Position.initial().legal_moves((6, 5))[0])
    kw = dict(seed=1, workers=1, progress=False)
    with pytest.raises(ValueError, match=r"cube_state: stake=3: not a stake of the geometric"):
        rollout(pos, 36, rules=Rules(cube="geometric"), cube_state=nf.CubeState(3, "mover"),
                **kw)
    with pytest.raises(ValueError, match=r"cube_state: stake=17: the arithmetic cube stops"):
        rollout(pos, 36, rules=Rules(cube="arithmetic"),
                cube_state=nf.CubeState(17, "mover"), **kw)
    with pytest.raises(ValueError, match=r"cube_state: stake=3"):
        nf.rollout_many([pos], 36, rules=Rules(cube="geometric"),
                        cube_state=nf.CubeState(3, "mover"), **kw)


def test_cube_probabilities_without_a_cube_names_itself():
    """cube_probabilities given where no cube is in play names that argument (the error
    named cube_state, which the caller had not given)."""
    with pytest.raises(ValueError, match=r"^cube_probabilities: the rules have no cube"):
        rollout(nf.Position.initial(), 36, seed=1, workers=1, progress=False,
                cube_probabilities="pips")


def test_rollout_many_takes_one_position_or_id():
    """rollout_many(ID) read the ID's characters as positions ("positions[0]: position ID
    'W'") and rollout_many(Position) failed with "'Position' object is not iterable"."""
    start = nf.Position.initial()
    kw = dict(seed=1, policy="random", truncate=None, **FAST)
    a = rollout_many(start.id, 36, **kw)
    assert a.index.tolist() == [start.id]
    assert a.equals(rollout_many(start, 36, **kw)) and a.equals(rollout_many([start], 36, **kw))
    with pytest.raises(TypeError, match=r"^positions: expected a Position, a position ID"):
        rollout_many(5, 36, **kw)


def test_rollout_many_records_its_seed_in_attrs():
    """The guide: seed=None draws fresh entropy "recorded in the result: ...
    frame.attrs["seed"]"; rollout_many's frame had empty attrs (the seed only in each
    row's extra_seed)."""
    kw = dict(policy="random", truncate=None, **FAST)
    ps = [random_position(s, 30) for s in range(2)]
    fresh = rollout_many(ps, 36, **kw)
    assert isinstance(fresh.attrs["seed"], int)
    assert (fresh["extra_seed"] == fresh.attrs["seed"]).all()
    assert rollout_many(ps, 36, seed=fresh.attrs["seed"], **kw).equals(fresh)
    assert rollout_many(ps, 36, seed=5, **kw).attrs["seed"] == 5


def test_a_rollout_that_plays_no_roll_says_whose_numbers_it_shows():
    """A race of both homes with truncation: every game is valued at its start, so the
    numbers are the table's (here the one-sided approximation, its standard errors NaN as
    the table's: not measured, never 0 as if exact) and the label says so; a fixed first
    roll, no truncation or a contact position play."""
    p = nf.Position.from_id("BAAAAAAAAAAAAAAAAAAAAAAAAABAhAlNo")      # 13 v 14 checkers home
    table = nf.race_probabilities(p)
    r = rollout(p, 100, seed=1, workers=1, progress=False)
    assert r.extra["valued_at_start"] == table.method == "one_sided"
    assert r.equity == pytest.approx(table.equity, abs=1e-9)
    assert math.isnan(r.se_equity) and math.isnan(r.se_p_win) and math.isnan(table.se_equity)
    assert all(math.isnan(x) for x in r.ci95())                # no interval
    few = nf.Position.from_boards([0] * 18 + [0, 2, 0, 1, 1, 1], [0] * 18 + [0, 0, 1, 1, 0, 2])
    exact = rollout(few, 100, seed=1, workers=1, progress=False)
    assert exact.extra["valued_at_start"] == "two_sided" and exact.se_equity == 0.0
    assert "every game valued at the start by the one-sided approximation" in str(r)
    for kw in ({"dice": (6, 6)}, {"truncate": None}):
        played = rollout(p, 100, seed=1, workers=1, progress=False, **kw)
        assert played.extra["valued_at_start"] == "" and "no roll" not in str(played)
    start = rollout("start", 36, seed=1, workers=1, progress=False)
    assert start.extra["valued_at_start"] == "" and "no roll" not in str(start)
    from nardy_fast.engine.play.rollout import rollout_outcomes
    many = rollout_outcomes([p, "start"], 36, seed=1, workers=1, progress=False)
    assert [o.extra["valued_at_start"] for o in many] == ["one_sided", ""]


@pytest.mark.parametrize("vr", [None, False])
def test_an_exact_race_valued_at_the_start_has_standard_errors_of_zero(vr):
    """The docstring says the standard errors of a rollout that plays no roll are the
    table's, 0 when it is exact; a race of both homes gave ``se_equity`` 5e-09 and
    ``se_p_win`` 8e-10 (the rounding of the games' sums of squares), so ``ci95`` was an
    interval and ``str`` showed "± 0.000"."""
    pid = "WAAAAAAAAAAAAAAAAAAAAAAAAIBIBECEh"                 # 4 v 5 checkers home
    r = rollout(pid, 36, seed=1, workers=1, progress=False, variance_reduction=vr)
    assert r.extra["valued_at_start"] == "two_sided"
    ses = [getattr(r, f) for f in ("se_equity", "se_p_win", "se_p_lose", "se_p_mars_win",
                                   "se_p_mars_loss")]
    assert ses == [0.0] * len(ses)
    assert r.ci95() == (r.equity, r.equity) and "±" not in str(r)


@needs_bearoff
@pytest.mark.parametrize("vr", [None, False])
def test_games_decided_by_their_first_roll_have_no_stratified_variance(vr):
    """White's last checker outside its home gets in (or both leave) with any roll, and
    then both sides are home: every game is over or valued by the two-sided table after
    its first roll, a value fixed by that roll.  The stratified variance is 0 and the
    ratio of the variances infinite; it was the rounding of the sums of squares (an SE of
    1e-10) and a ratio of 2.7e16."""
    p = nf.Position.from_boards(board(p18=1, p24=1), board(p23=2))
    r = rollout(p, 720, seed=1, variance_reduction=vr, **FAST)
    assert r.extra["valued_at_start"] == "" and r.games == 720
    assert r.se_equity == r.se_p_win == r.se_p_lose == 0.0
    assert r.extra["se_equity_unstratified"] > 0.01
    assert r.extra["variance_reduction_equity"] == math.inf
    if r.extra["estimator"] != "none":               # nothing left for the luck to remove
        assert r.extra["se_equity_plain"] == 0.0
        assert math.isnan(r.extra["luck_variance_ratio"])


def test_a_race_decided_by_its_first_roll_has_an_infinite_variance_ratio():
    """Two checkers on point 20 against one on 24: the side on roll wins iff its first
    roll bears both off.  The within-stratum variances are exactly 0 and the plain one is
    not: stratification removed all of it, a ratio of inf (it was NaN, as if there had
    been no variance at all)."""
    p = nf.Position.from_boards(board(p20=2), board(p24=1))
    r = rollout(p, 720, policy="random", seed=1, truncate=None, **FAST)
    assert 0 < r.p_win < 1 and r.se_equity == 0.0
    assert r.extra["variance_reduction_equity"] == math.inf
    one = rollout(nf.Position.from_boards(board(p24=1), board(p1=15)), 72, policy="random",
                  seed=1, truncate=None, **FAST)              # every game the same win
    assert one.extra["se_equity_unstratified"] == 0.0
    assert math.isnan(one.extra["variance_reduction_equity"])


@pytest.mark.parametrize("n", [100, 720, 1000])
def test_strata_of_unequal_sizes_count_by_the_chances_of_their_rolls(n):
    """Two checkers on point 20 against one on 24: the side on roll wins iff its first
    roll bears both off (5-6, 6-5, 3-3, 4-4, 5-5, 6-6: 1/6).  Every game is decided by its
    first roll, so the standard error is 0, and the estimate must be 1/6 whatever the
    number of games.  With 100 games the strata of rolls 28..35 (5-5 ... 6-6, four of the
    six wins) hold 2 games and the others 3: the plain mean of the games was 0.14, given
    with a standard error of 0."""
    p = nf.Position.from_boards(board(p20=2), board(p24=1))
    r = rollout(p, n, policy="random", seed=1, truncate=None, **FAST)
    assert r.se_p_win == r.se_equity == 0.0
    assert r.p_win == pytest.approx(1 / 6, abs=1e-12)
    assert r.equity == pytest.approx(2 / 6 - 1, abs=1e-12)


@pytest.mark.parametrize("opening, n", [("rethrow", 72), ("opening_dice", 60),
                                        ("opening_dice", 90)])
def test_strata_of_equal_sizes_keep_the_plain_mean_to_the_bit(opening, n):
    """With as many games in every stratum played the estimate is the plain mean of the
    games, to the bit: wins / n for 0/1 outcomes.  From the start with the opening dice
    (30 strata, 6 of the 36 tallies empty) 90 games came out 1.1e-16 away from it, the
    mean of the strata's means rounded otherwise."""
    r = rollout(nf.Position.initial(), n, policy="random", seed=4, truncate=None,
                rules=Rules(opening_roll=opening), **FAST)
    assert r.p_win == round(r.p_win * n) / n
    assert r.mean_length == round(r.mean_length * n) / n


def test_strata_of_unequal_sizes_round_as_the_plain_mean():
    """Whole-number games weighed by their strata are rounded once, over a common
    denominator: P(win) and P(lose) of games without draws add up to 1 exactly, and a
    rollout from the start that won as many points as it lost has an equity of 0.  The
    mean of the strata's means had been 1 ulp off in a third of such rollouts (a sum of
    0.9999999999999999) and gave that rollout (seed 76 of today's dice) an equity of
    -1.9e-18."""
    p = random_position(5, 20)
    for seed in range(8):
        r = rollout(p, 100, policy="random", seed=seed, truncate=None, **FAST)
        assert r.p_win + r.p_lose == 1.0
    r = rollout(nf.Position.initial(), 100, policy="random", seed=76, truncate=None,
                rules=Rules(opening_roll="opening_dice"), **FAST)
    assert r.p_mars_win - r.p_mars_loss == pytest.approx(r.p_lose - r.p_win, abs=1e-12)
    assert r.equity == 0.0


@pytest.mark.parametrize("vr", [None, False])
def test_an_exact_race_valued_at_the_start_has_no_variance_ratio(vr):
    """Every game the table's exact value: there is no variance to reduce, so the ratio
    is NaN; it was 0.0 (the rounding of the sums of squares over a plain variance set to
    0), as if stratification had made the estimate infinitely worse."""
    r = rollout("WAAAAAAAAAAAAAAAAAAAAAAAAEBAAAAIA", 720, seed=1, variance_reduction=vr,
                **FAST)
    assert r.extra["valued_at_start"] == "two_sided"
    assert math.isnan(r.extra["variance_reduction_equity"])


def test_cube_aware_rollout_of_a_race_says_what_valued_it_at_the_start():
    """With a cube in play a race of both homes is valued at its start by the C loop's
    cube: the cubeful race table where it covers the race (exact, SE 0), else Janowski's
    model on the race's probabilities, an approximation whose error nobody measured (SE
    NaN, not the 0 of 100 equal games)."""
    rules = Rules(cube="geometric")
    small = nf.Position.from_boards(board(p20=2, p22=1), board(p21=2, p23=2))
    big = nf.Position.from_boards(board(p19=3, p20=3, p21=3, p22=2, p23=2, p24=2),
                                  board(p19=2, p20=2, p21=3, p22=3, p23=3, p24=2))
    r = rollout(small, 100, seed=1, rules=rules, workers=1, progress=False)
    assert r.extra["valued_at_start"] == "cuberace" and r.se_equity == 0.0
    want = nf.cube_decision(small, nf.CubeState(1, "centre"), rules=rules)
    assert want["method"] == "exact" and r.equity == pytest.approx(want["equity"], abs=1e-12)
    r = rollout(big, 100, seed=1, rules=rules, workers=1, progress=False)
    assert r.extra["valued_at_start"] == "janowski (one_sided)"
    assert math.isnan(r.se_equity) and "error not measured" in str(r)
    want = nf.cube_decision(big, nf.CubeState(1, "centre"), rules=rules)
    assert r.equity == pytest.approx(want["equity"], abs=1e-9)


@pytest.mark.parametrize("rules, cube", [(Rules(cube="geometric", draw_rule=True), None),
                                         (Rules(draw_rule=True), True)])
def test_a_cube_in_play_under_the_draw_rule_is_refused(rules, cube):
    """A sure draw under draw_rule rolled out with the cube had shown P(draw) 1 beside an
    equity of +1 (the games' cube and race values count no draw); without the cube it is
    0, and with the cube it is refused by name."""
    sure_draw = nf.Position.from_id("WAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAR")
    with pytest.raises(ValueError, match="rollout: a cube-aware rollout under draw_rule"):
        nf.rollout(sure_draw, 36, rules=rules, cube=cube, seed=1)
    out = nf.rollout(sure_draw, 36, rules=rules, cube=False, seed=1)
    assert out.p_draw == 1.0 and out.equity == 0.0


@pytest.mark.parametrize("func", ["rollout_many", "rollout_games", "rollout_outcomes"])
def test_a_cube_under_the_draw_rule_is_refused_in_the_called_functions_name(func):
    """rollout_games and rollout_outcomes refused a cube under draw_rule in the name of
    rollout_many, which the caller had not called."""
    from nardy_fast.engine.play import rollout as module
    with pytest.raises(ValueError, match=f"^{func}: a cube-aware rollout under draw_rule"):
        getattr(module, func)(["WAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAR"], 36, cube=True,
                              rules=Rules(draw_rule=True), seed=1)


def test_a_match_of_other_rules_is_refused():
    """The games were played under the rollout's rules and their kinds read through the
    match's table: with draw_rule here and none in the match, a draw was half a point."""
    state = nf.MatchState(nf.MatchRules(length=3), (0, 0))
    with pytest.raises(ValueError, match=r"match: the match is played under the rules "
                       r"'classic', the rules given are 'draw_rule=true' \(they differ in "
                       r"draw_rule\)"):
        rollout(nf.Position.initial(), 36, seed=1, rules=Rules(draw_rule=True),
                match=state, **FAST)


# -- which truncated games an approximation valued --------------------------------------

def _race(mover, opp):
    return nf.Position.from_boards(board(mover), board(opp))


def test_games_ended_in_a_race_the_one_sided_approximation_values_are_counted():
    """12 checkers a side, the mover's last one on point 18: every roll brings it home,
    and the race of both homes, beyond the two-sided table, is valued by the one-sided
    approximation.  Each first roll's games have one value, so the games' spread is 0:
    the rollout had reported an SE of 0 and a 95% interval of no width beside an
    approximation.  Now the games are counted as approximated, and the error is NaN (not
    measured), as for a race the approximation values before any roll."""
    p = _race({18: 1, 19: 3, 20: 3, 21: 3, 22: 2}, {19: 3, 20: 3, 21: 3, 22: 3})
    o = rollout(p, 72, seed=1, **FAST)
    assert o.extra["games_truncated"] == o.extra["games_approximated"] == 72
    assert math.isnan(o.se_equity) and math.isnan(o.se_p_win)
    assert "error not measured" in str(o) and "approximation" in str(o)


def test_games_an_approximation_valued_keep_the_spread_they_have():
    """12 checkers a side, the mover's last one on point 13: some first rolls leave it
    outside, so a first roll's games end in different races, every one valued by the
    one-sided approximation.  Their spread is an error measured (the approximation's is
    not in it, which the count says): the SE stays, not NaN."""
    p = _race({13: 1, 19: 3, 20: 3, 21: 3, 22: 2}, {19: 3, 20: 3, 21: 3, 22: 3})
    o = rollout(p, 72, seed=1, **FAST)
    assert o.extra["games_truncated"] == o.extra["games_approximated"] == 72
    assert 0 < o.se_equity < 1 and 0 < o.se_p_win < 1


def test_games_ended_in_a_race_an_exact_table_values_are_not_counted():
    o = rollout(_race({18: 1, 20: 3}, {20: 4}), 72, seed=1, **FAST)
    assert o.extra["games_truncated"] > 0 and o.extra["games_approximated"] == 0
    assert o.se_equity > 0 and "approximation" not in str(o)


def test_from_the_start_some_games_end_in_approximated_races():
    """Most games from the start end in a race of more checkers than the exact tables
    hold: their count is reported (the command line's text says that their error is not
    in the margin)."""
    o = rollout(nf.Position.initial(), 72, seed=1, **FAST)
    assert 0 < o.extra["games_approximated"] <= o.extra["games_truncated"] <= 72
    assert o.se_equity > 0 and "approximation" not in str(o)
    played = rollout(nf.Position.initial(), 36, seed=1, truncate=None, **FAST)
    assert played.extra["games_truncated"] == played.extra["games_approximated"] == 0


@pytest.mark.parametrize("mover, opp, modelled", [
    ({18: 1, 20: 3, 21: 3}, {20: 4, 21: 3}, True),      # 7 a side: beyond the cube table
    ({18: 1, 20: 2, 21: 2}, {20: 3, 21: 2}, False)])    # 5 a side: the cubeful table's
def test_with_the_cube_a_race_beyond_the_cubeful_table_is_approximated(mover, opp, modelled):
    """With the cube a truncated race takes its cubeful value from the cubeful race table
    (6 checkers a side) or, beyond it, from the cube model: an approximation, though the
    cubeless race is exact (the two-sided table holds 7 a side)."""
    o = rollout(_race(mover, opp), 72, seed=1, cube=True, **FAST)
    assert o.extra["games_truncated"] > 0
    assert (o.extra["games_approximated"] > 0) == modelled
