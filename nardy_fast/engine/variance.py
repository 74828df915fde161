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
moment).  Details: ``nardy_fast.engine._luck``.

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
uniform given the first over every 1,296 games, as the plain estimate already assumes
(other game counts leave its rotation incomplete, which biases plain rollouts a little
and reduced ones less, since the second roll's luck is subtracted).  No coefficient is
fitted (the luck enters with weight 1), so no estimation bias arises.  Standard errors
are ``nardy_fast.engine.rollout``'s stratified formula on the per-game reduced values;
``extra["luck_variance_ratio"]`` is the variance of the plain equity over the reduced
one, by the same formula.

Cost: the 21 per-roll values are the 1-ply look-ahead of the position.  With ``net:1`` or
``net:2`` checker play the previous move choice already computed them for the position it
chose (``_search.choose_rolls``), so the luck is nearly free; at 0-ply the exact values
cost 21 move choices per counted roll (``"luck:K"`` counts the first K random rolls
only).  ``"luck-net"`` takes them, where no look-ahead has them, from the luck net
(``nardy_fast.engine.lucknet``): one small net evaluation that predicts the 21 x 7
values from the position before the roll, in every position before the bear-off.  It is
one more choice of ``f``, fixed before the roll, so the argument above holds unchanged; a
poor prediction only removes less variance (or adds some).  Measured
(``benchmarks/RESULTS.md``, ``bench_vr.py``): at 0-ply the exact luck cuts the variance
about 5 times but makes the games 20 times slower (efficiency 0.22), the luck net cuts it
about 2.8 times (median over 48 positions) for about a fifth more time (median efficiency
2.4), so ``"luck-net"`` is the default at 0-ply;
at 1-ply the exact luck is nearly free (median efficiency 5.5) and beats the luck net as
the fallback where no look-ahead exists, so ``"luck"`` is the default there.

Probabilities kept in [0, 1]
----------------------------
A reduced per-game value ``result - luck`` can be negative (or above 1), so the mean of a
small probability can come out below 0, e.g. P(koks win) = -0.0008 from 1,000 games.
No probability outside [0, 1] is reported: ``keep_in_range`` cuts each reduced
probability to [0, 1] (``core.result.clip_probabilities``) and names the ones it cut in
``extra["clipped"]``.  The equity is not cut (it has no bound to keep), so it stays
exactly unbiased, and the standard errors are those of the uncut means.

The cut probability is biased only where the uncut mean can leave the range, that is
within a few standard errors of 0 or 1, and only a little: the cut moves an estimate
towards the true value, never away (``|cut(x) - p| <= |x - p|`` for every ``p`` in [0, 1]),
so its error is never larger, game set by game set; its bias at the lower end is
``E[max(0, -x)]``, which for a normal mean ``x`` of true value ``p >= 0`` and standard
error ``s`` is ``s * phi(p/s) - p * Phi(-p/s) <= s / sqrt(2 pi) = 0.40 s`` (largest at
``p = 0``), and the same at the upper end.  Measured (``benchmarks/bench_clip.py``,
``benchmarks/RESULTS.md``): 120 reduced rollouts of 1,000 games (seeds 1-120, luck net)
of the position where P(koks win) came out -0.0008: the cut acted in 24 of them, on
P(koks win) only; it moved the mean P(koks win) from 0.000986 to 0.001109, a bias of
0.000124 (SE 0.000028), 0.10 of one rollout's standard error (0.0012), within the bound
above; the equity was the same in all 120.
"""
from __future__ import annotations

from nardy_fast.core.result import clip_probabilities

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
        raise ValueError(
            f"variance_reduction={vr!r}: the luck of a roll is measured by the evaluator, "
            f"so both sides must play a net policy ('net', 'net:1', 'net:2' or an "
            f"Evaluator); policy {bad.name!r} cannot serve it")
    return vr, k


def keep_in_range(outcome):
    """``outcome`` (a rollout's Outcome) with every probability cut to [0, 1] and the
    names of those cut by more than rounding in ``extra["clipped"]`` (``""``: none); the
    equity and the standard errors unchanged.  Why and how small the bias is: the module
    docstring, "Probabilities kept in [0, 1]"."""
    return clip_probabilities(outcome, record=True)
