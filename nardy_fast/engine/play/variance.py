"""Variance reduction of rollouts: the estimators, their names and defaults.

Variance reduction (luck)
-------------------------
With ``variance_reduction`` on, each game's result is corrected by the luck of its rolls,
as GNU Backgammon does: for a roll ``r`` of the side on roll in the position ``S`` before
the roll, ``f(S, r)`` is the evaluator's value (its seven outputs and the equity, the
roller's view) after the roller's best move for ``r``, and the luck is
``L(S, r) = f(S, r) - sum_r' p(r') f(S, r')`` over the 21 rolls (``p = 1/36`` doubles,
``2/36`` others).  A game's luck is the sum of its rolls' lucks, each turned to the view
of the side on roll at the start (the other side's good luck is its bad luck), and every
reported quantity subtracts the luck of its own net output: P(win) the P(win) luck,
P(lose) adds it, each mars / koks / home-mars probability the luck of that output, the
equity the equity luck (with the cube: twice the P(win) luck times the stake of the
moment).  Details: ``nardy_fast.engine.play._luck``.

Why it is unbiased: given everything before a roll (the position, the stake, the game so
far), the roll is uniform over the 36 ordered rolls, so ``E[L(S, r) | S] =
sum_r p(r) f(S, r) - sum_r' p(r') f(S, r') = 0`` exactly, whatever the function ``f``
(how good the net is only changes how much variance is removed).  Whether a roll's luck is
counted, and which ``f`` is used (the look-ahead the move choice already computed, or a
fresh 0-ply one), are decided before the roll, so each term still has mean zero given the
past; a game ends after finitely many rolls, so the sum of the terms has mean zero
(the tower rule over the rolls), and ``E[result - luck] = E[result]``.  The stratified
first roll is not counted (its luck is a constant within its stratum), nor Black's last
turn under ``draw_rule``; the second roll, which the games stratify in blocks of 1,296, is
uniform given the first, over the seeds, whatever the number of games
(``rng.stratified_rolls``), as every later roll is.  No coefficient is
fitted (the luck enters with weight 1), so no estimation bias arises.  Standard errors
are ``nardy_fast.engine.play.rollout``'s stratified formula on the per-game reduced values;
``extra["luck_variance_ratio"]`` is the variance of the plain equity over the reduced
one, by the same formula (``inf`` when no variance is left, NaN when the plain equity had
none).

Cost: the 21 per-roll values are the 1-ply look-ahead of the position.  With ``net:1`` or
``net:2`` checker play the previous move choice already computed them for the position it
chose (``_search.choose_rolls``), so the luck is nearly free; at 0-ply the exact values
cost 21 move choices per counted roll (``"luck:K"`` counts the first K random rolls
only).  ``"luck-net"`` takes them, where no look-ahead has them, from the luck net
(``nardy_fast.engine.play.lucknet``): one small net evaluation that predicts the 21 x 7
values from the position before the roll, in every position before the bear-off.  It is
one more choice of ``f``, fixed before the roll, so the argument above holds unchanged; a
poor prediction only removes less variance (or adds some).  Measured
(``benchmarks/RESULTS.md``, ``bench_vr.py``): at 0-ply the exact luck cuts the variance
about 5 times but makes the games 20 times slower (efficiency 0.22), the luck net cuts it
about 4.1 times (median SE ratio 2.03 over 36 positions) for about a quarter more time
(median efficiency 3.5), so ``"luck-net"`` is the default at 0-ply;
at 1-ply the exact luck is nearly free (median efficiency 8.9-12.5) and beats the luck
net as the fallback where no look-ahead exists, so ``"luck"`` is the default there.

Possible distributions reported
-------------------------------
A reduced per-game value ``result - luck`` can be negative (or above 1), so the mean of a
small probability can come out below 0 (P(koks win) = -0.0008 from 1,000 games), or a
refinement above the probability that contains it (P(mars loss) = 0.009 > P(lose) = 0 from
12 games).  What a rollout reports is always a possible distribution: ``keep_in_range``
moves the raw estimate ``x`` (the nine probabilities and, without the cube, the equity) to
the nearest point ``P(x)`` (Euclidean) of the convex set ``C`` of possible ones
(``core.result.possible_values``): every probability >= 0, win + lose + draw = 1 (no
draw without ``draw_rule``), koks + home mars <= mars <= win (and the same for losses:
koks and home mars are disjoint kinds of mars, rule book section 7), the kinds the
start's boards rule out 0 (no mars of a side that has borne off a checker, no koks of one
with none on its points 1-6: every game scores them 0, but the luck net's per-roll values
of them need not be 0, so their reduced means are noise around 0), and the equity equal
to the expected points of the rules' scoring.  With the cube in play the equity is the
cubeful one, not a function of the probabilities: it is left as estimated (exactly
unbiased) and only the probabilities are moved.  ``extra["clipped"]`` names the
probabilities moved by more than rounding (``""``: none), ``extra["adjustment"]`` is the
length of the move and ``extra["equity_adjustment"]`` the change of the equity.  A raw
estimate already possible (every plain rollout's is: each game's value is possible, and
so is their mean) is reported unchanged.

The bias this leaves: the truth ``t = E[x]`` is possible (it is the mean of the plain
games' values, each possible, and ``C`` is convex), and ``P`` is non-expansive with
``P(t) = t``, so ``|P(x) - t| <= |x - t|`` for every game set: the move never takes an
estimate farther from the truth, and the summed squared standard errors of the raw
means (those reported: the standard errors are of the raw means, so conservative) still
bound the total mean squared error.  The bias ``E[P(x)] - t = E[P(x) - x]`` is at most
the mean length of the move, ``|bias| <= E[extra["adjustment"]] = E[dist(x, C)] <=
E|x - t| <= sqrt(sum of the raw variances)`` (the move is at most the distance to ``t``),
and it arises only where the raw mean breaks an inequality: the equalities (the sum to 1,
the equity identity) are linear, and the raw means already satisfy them, game by game.
Its size is measured by ``benchmarks/bench_clip.py`` (``benchmarks/RESULTS.md``, part
"Projection onto possible distributions"): the mean adjustment over many rollouts.

Before 0.3.0 each probability was only cut to [0, 1] (``clip_probabilities``; bias at
most ``0.40 s`` per probability of standard error ``s``), which left nestings broken and
the equity apart from its probabilities.  Measured then: 120 reduced rollouts of 1,000
games (seeds 1-120, luck net) of a position where P(koks win) came out -0.0008: the cut
acted in 24 of them, on P(koks win) only, with a bias of 0.000124 (SE 0.000028), 0.10 of
one rollout's standard error.
"""
from __future__ import annotations

from nardy_fast.core.result import nearest_possible, ruled_out
from nardy_fast.core.rules import OUTCOMES, as_rules

__all__ = ["ESTIMATORS", "VR_ESTIMATOR", "DEFAULT_ESTIMATOR", "check_estimator",
           "keep_in_range"]

ESTIMATORS = ("none", "luck", "luck:K", "luck-net")
# "luck:K": the luck of the first K random rolls; "luck-net": of every roll, its per-roll
# values from the move choice's look-ahead where it has them, else from the luck net
# Estimators by the nets' look-ahead plies (benchmarks/bench_vr.py; "luck" deeper):
VR_ESTIMATOR = {0: "luck-net"}            # variance_reduction=True
DEFAULT_ESTIMATOR = {0: "luck-net"}       # variance_reduction=None


def check_estimator(vr, policies):
    """``(name, K)`` of the variance reduction asked for by the two sides' ``policies``
    (``engine.policy.Policy``): K is None (plain), 0 (the luck
    of every roll) or the number of leading random rolls whose luck is counted; the name
    ``"luck-net"`` also asks for the luck net."""
    plies = [p.net_plies for p in policies]
    nets = None not in plies
    depth = max(plies) if nets else 0
    given = vr
    if vr is None:                          # the default: where it pays
        vr = DEFAULT_ESTIMATOR.get(depth, "luck") if nets else "none"
    elif vr is True:                        # the most efficient luck estimator at the depth
        vr = VR_ESTIMATOR.get(depth, "luck")
    if vr is False:
        return "none", None
    if not isinstance(vr, str):
        raise ValueError(f"variance_reduction={vr!r}: expected True, False, None or one of "
                        f"{', '.join(map(repr, ESTIMATORS))}")
    k = None
    kind, colon, turns = vr.partition(":")
    if vr == "luck-net":
        k = 0
    elif kind == "luck" and (not colon or turns.isdigit() and int(turns) >= 1):
        k = int(turns or 0)
    elif vr != "none":
        raise ValueError(f"variance_reduction={vr!r}: unknown estimator; expected True, "
                         f"False, None or one of {', '.join(map(repr, ESTIMATORS))} "
                         "(K >= 1)")
    if k is not None and None in plies:
        bad = policies[plies.index(None)]
        said = repr(vr) if given is vr else f"{given!r} ({vr!r})"
        raise ValueError(
            f"variance_reduction={said}: the luck of a roll is measured by the evaluator, "
            f"so both sides must play a net policy ('net', 'net:1', 'net:2' or an "
            f"Evaluator); policy {bad.name!r} cannot serve it")
    return vr, k


def keep_in_range(outcome, rules=None, *, cube=False, position=None):
    """``outcome`` (a rollout's Outcome) moved to the nearest possible distribution
    (``core.result.nearest_possible``), the move recorded in ``extra`` (``"clipped"``,
    ``"adjustment"``, ``"equity_adjustment"``); the standard errors unchanged (those of the
    raw means).  ``rules`` (None: classic) give the draws and the scoring's points;
    ``cube``: the equity is cubeful, so it is kept and only the probabilities move;
    ``position`` (the rollout's start): the kinds its boards rule out
    (``core.result.ruled_out``) are held at 0.  Why and how small the bias is: the module
    docstring, "Possible distributions reported"."""
    rules = as_rules(rules)
    points = None if cube else tuple(rules.points(k) for k in OUTCOMES)
    ruled = () if position is None else ruled_out(position.mover, position.opponent)
    return nearest_possible(outcome, draws=rules.draw_rule, points=points, record=True,
                            ruled_out=ruled)
