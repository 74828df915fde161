"""Match-aware evaluation against its definitions, read off the match equity table itself.

- The match winning chance of an evaluation is the sum over the exclusive outcome kinds of
  the game (oin, mars, koks, home mars won and lost) of P(kind) times the table's chance
  at the score that kind leads to, at the cube's stake (1 if a side has reached the
  length).
- The EMG is GNU Backgammon's money equivalent of it: the match winning chance mapped
  linearly so that winning a single game at the score's stake is +1 and losing it -1.

The table is ``match_equity_table`` under ``starter="opening_roll"`` (every game thrown
for: the table's entries are the chances at the start of the next game, whoever won), so
the expectation is a plain lookup.  Scores are chosen so that the stake, the side on roll
and the next game's Crawford state all matter.
"""
from types import SimpleNamespace

import numpy as np
import pytest

import nardy_fast as nf
from nardy_fast.core.cubestate import CubeState
from nardy_fast.core.matchrules import MatchRules, MatchState
from nardy_fast.engine.evaluation import met
from nardy_fast.engine.decisions.matchplay import play_one_match

LENGTH = 5


def table_chance(m, a, b):
    """The table's chance of the side needing ``a`` against ``b`` (1 / 0 at the end)."""
    if a <= 0:
        return 1.0
    if b <= 0:
        return 0.0
    return float(m.loc[a, b])


def by_definition(o, m, away, points):
    """(mwc, emg) of Outcome ``o`` for the side needing ``away[0]`` against ``away[1]``,
    each kind worth ``points[kind]`` (rule book section 7, at the stake)."""
    a, b = away
    wins = {"oin": o.p_win - o.p_mars_win,
            "mars": o.p_mars_win - o.p_koks_win - o.p_home_mars_win,
            "koks": o.p_koks_win, "home_mars": o.p_home_mars_win}
    losses = {"oin": o.p_lose - o.p_mars_loss,
              "mars": o.p_mars_loss - o.p_koks_loss - o.p_home_mars_loss,
              "koks": o.p_koks_loss, "home_mars": o.p_home_mars_loss}
    mwc = sum(p * table_chance(m, a - points[k], b) for k, p in wins.items())
    mwc += sum(p * table_chance(m, a, b - points[k]) for k, p in losses.items())
    w = table_chance(m, a - points["oin"], b)          # a single game won at the stake
    lo = table_chance(m, a, b - points["oin"])
    return mwc, (2 * mwc - (w + lo)) / (w - lo)


def positions(side):
    """Contact positions after a few moves of a seeded game, ``side`` on roll."""
    rng = np.random.default_rng(4)
    pos = nf.Position.initial()
    out = []
    while len(out) < 3:
        moves = pos.legal_moves(tuple(int(d) for d in rng.integers(1, 7, 2)))
        pos = pos.play(moves[int(rng.integers(len(moves)))])
        if pos.side == side and rng.random() < 0.5:
            out.append(pos)
    return out


@pytest.fixture(scope="module")
def ev():
    return nf.Evaluator.default()


@pytest.mark.parametrize("side", ["white", "black"])
def test_cubeless_mwc_and_emg_by_definition(ev, side):
    mr = MatchRules(length=LENGTH, starter="opening_roll", rules=nf.Rules(scoring="extended"))
    m = met.match_equity_table(LENGTH, rules=mr)
    points = {k: int(mr.rules.points(k)) for k in met.KINDS}
    for score in [(0, 0), (3, 1), (1, 3), (4, 2), (2, 4)]:
        state = MatchState(mr, score, side)
        away = state.away()
        assert away == ((LENGTH - score[0], LENGTH - score[1]) if side == "white"
                        else (LENGTH - score[1], LENGTH - score[0]))
        for pos in positions(side):
            o = ev.evaluate(pos, match=state)
            mwc, emg = by_definition(o, m, away, points)
            assert o.extra["mwc"] == pytest.approx(mwc, abs=1e-9), (score, side)
            assert o.extra["emg"] == pytest.approx(emg, abs=1e-9), (score, side)
            assert float(met.emg(o.extra["mwc"], state)) == pytest.approx(emg, abs=1e-9)
        # EMG per unit of match winning chance: 2 / (W - L), a single game at the stake
        a, b = away
        assert met.emg_scale(state) == pytest.approx(
            2.0 / (table_chance(m, a - 1, b) - table_chance(m, a, b - 1)), abs=1e-9)


@pytest.mark.parametrize("stake,owner", [(1, "centre"), (2, "mover"), (2, "opponent")])
def test_cubeful_emg_at_the_stake(ev, stake, owner):
    """With the cube every game scores its stake: a win at stake 2 from 3-away leaves the
    side 1 away, so the next game is the Crawford game (the table's 1-away row)."""
    mr = MatchRules(length=LENGTH, starter="opening_roll", crawford=True,
                    rules=nf.Rules(cube="geometric"))
    m = met.match_equity_table(LENGTH, cube=True, rules=mr)
    points = dict.fromkeys(met.KINDS, stake)
    for score in [(2, 1), (1, 2), (2, 2), (0, 2)]:
        state = MatchState(mr, score, "white", cube=CubeState(stake, owner))
        for pos in positions("white"):
            o = ev.evaluate(pos, match=state)
            mwc, emg = by_definition(o, m, state.away(), points)
            assert o.extra["mwc"] == pytest.approx(mwc, abs=1e-9), (score, stake)
            assert o.extra["emg"] == pytest.approx(emg, abs=1e-9), (score, stake)
            # the ends of the scale: a game won / lost at the stake
            v = met.outcome_values(state)
            assert met.emg(v["win_oin"], state) == pytest.approx(1.0)
            assert met.emg(v["loss_oin"], state) == pytest.approx(-1.0)
            assert met.emg_scale(state) == pytest.approx(
                2.0 / (table_chance(m, state.away()[0] - stake, state.away()[1])
                       - table_chance(m, state.away()[0], state.away()[1] - stake)))


def test_draws_count_at_their_score():
    """Under the draw rule a draw scores 1 point each (``draw="one"``): the chance after
    it is the table's at both scores one nearer (replayed when both would finish)."""
    mr = MatchRules(length=LENGTH, starter="opening_roll", draw="one",
                    rules=nf.Rules(draw_rule=True))
    m = met.match_equity_table(LENGTH, rules=mr)
    points = {k: int(mr.rules.points(k)) for k in met.KINDS}
    ev = nf.Evaluator(nf.Evaluator.default().net, rules=mr.rules)
    me, opp = np.zeros(24, np.uint8), np.zeros(24, np.uint8)
    me[[19, 21, 23]] = 1                     # races of both homes: the table's draws
    opp[[20, 22]] = 1
    for side in ("white", "black"):
        pos = nf.Position.from_boards(me, opp, side)
        for score in [(0, 0), (3, 2), (4, 1), (4, 4)]:
            state = MatchState(mr, score, side)
            o = ev.evaluate(pos, match=state)
            assert o.p_draw > 0.01
            a, b = state.away()
            draw = (table_chance(m, a, b) if a - 1 <= 0 and b - 1 <= 0
                    else table_chance(m, a - 1, b - 1))
            mwc, _ = by_definition(o, m, (a, b), points)
            mwc += o.p_draw * draw
            w, lo = table_chance(m, a - 1, b), table_chance(m, a, b - 1)
            assert o.extra["mwc"] == pytest.approx(mwc, abs=1e-9), (score, side)
            assert o.extra["emg"] == pytest.approx((2 * mwc - (w + lo)) / (w - lo),
                                                   abs=1e-9), (score, side)


def _mover_view(o):
    """An Outcome of the position after a move (the opponent on roll) from the mover's
    side: wins and losses exchanged (no draws in these positions)."""
    return SimpleNamespace(p_win=o.p_lose, p_lose=o.p_win, p_mars_win=o.p_mars_loss,
                           p_mars_loss=o.p_mars_win, p_koks_win=o.p_koks_loss,
                           p_koks_loss=o.p_koks_win, p_home_mars_win=o.p_home_mars_loss,
                           p_home_mars_loss=o.p_home_mars_win)


@pytest.mark.parametrize("side", ["white", "black"])
def test_best_move_at_a_score_has_the_highest_match_chance(ev, side):
    """``best_move(match=)`` at 0-ply: the legal move whose resulting position has the
    highest match winning chance by definition (the table, each kind at its score)."""
    mr = MatchRules(length=LENGTH, starter="opening_roll", rules=nf.Rules(scoring="extended"))
    m = met.match_equity_table(LENGTH, rules=mr)
    points = {k: int(mr.rules.points(k)) for k in met.KINDS}
    rng = np.random.default_rng(8)
    for pos in positions(side):
        state = MatchState(mr, (3, 1), side)
        for _ in range(3):
            dice = tuple(int(d) for d in rng.integers(1, 7, 2))
            moves = pos.legal_moves(dice, mr.rules)
            outs = ev.outcomes([pos.play(mv) for mv in moves])
            chances = [by_definition(_mover_view(o), m, state.away(), points)[0]
                       for o in outs]
            best = ev.best_move(pos, dice, match=state)
            assert chances[[mv.board for mv in moves].index(best.board)] == pytest.approx(
                max(chances), abs=1e-9), (side, dice)


def test_hint_at_a_score_one_ply_rows_by_definition(ev):
    """``hint(match=, plies=1)``: each row's match chance is the table's value of its own
    probabilities; the rows searched at 1 ply come first, best first, and their
    probabilities are those of the same moves searched at 1 ply for money."""
    mr = MatchRules(length=LENGTH, starter="opening_roll", rules=nf.Rules(scoring="extended"))
    m = met.match_equity_table(LENGTH, rules=mr)
    points = {k: int(mr.rules.points(k)) for k in met.KINDS}
    pos = positions("white")[1]
    state = MatchState(mr, (3, 1), "white")
    rows = ev.hint(pos, (6, 5), plies=1, match=state)
    money = ev.hint(pos, (6, 5), plies=1).set_index("move")
    deep = rows[rows["plies"] == 1]
    assert len(deep) >= 2 and (rows["plies"].iloc[:len(deep)] == 1).all()
    assert list(deep["mwc"]) == sorted(deep["mwc"], reverse=True)
    for _, r in rows.iterrows():
        o = SimpleNamespace(p_lose=1.0 - r["p_win"], **{k: r[k] for k in (
            "p_win", "p_mars_win", "p_koks_win", "p_home_mars_win", "p_mars_loss",
            "p_koks_loss", "p_home_mars_loss")})
        assert r["mwc"] == pytest.approx(by_definition(o, m, state.away(), points)[0],
                                         abs=1e-7)           # rows of float32 values
        if r["plies"] == 1 and money.loc[r["move"], "plies"] == 1:
            assert r["p_win"] == pytest.approx(money.loc[r["move"], "p_win"], abs=1e-9)


def test_a_net_policy_player_moves_at_the_match_score(ev):
    """A match player given by policy name moves at the match score, not as for money:
    ``"net"`` plays the same seeded match as evaluator players (whose ``best_move(match=)``
    is checked above by definition); ``"net:1"``, a searching player, plays another game
    when aware than when not (at 1-away / 2-away mars weigh differently)."""
    mr = MatchRules(length=2)
    named = play_one_match("net", "net", mr, seed=11, aware=True, score=(1, 0))
    direct = play_one_match(ev, ev, mr, seed=11, aware=True, score=(1, 0))
    assert named.games[0].turns == direct.games[0].turns
    turns = {aware: play_one_match("net:1", "greedy", mr, seed=11, aware=aware,
                                   score=(1, 0)).games[0].turns for aware in (True, False)}
    assert turns[True] != turns[False]
