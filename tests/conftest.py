"""Shared test configuration: hypothesis profiles and strategies for positions, rolls, rules.

Profiles (chosen by the environment variable ``HYPOTHESIS_PROFILE``):

- ``dev`` (default): few examples, for a quick local run;
- ``ci``: more examples, derandomized (reproducible), no deadline.

Positions come from games played from the start under the rules being tested, choosing
uniformly among the distinct successors of each roll (``nardy_fast.successors``), with the
game's random generator seeded by hypothesis.  So every position is reachable and holds no
block those rules forbid.  A second policy builds long runs of held points on purpose, so
that the block rule really decides; ``hand_positions`` gives arbitrary valid boards (as set
up by hand) for the cases games rarely reach.
"""
from __future__ import annotations

import os
import random
import sys
from itertools import product
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from nardy_fast import Position, Rules, successors

TESTS = Path(__file__).resolve().parent
sys.path.insert(0, str(TESTS))        # so test modules can ``import naive``

settings.register_profile(
    "dev", max_examples=50, deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                           HealthCheck.differing_executors])
settings.register_profile(
    "ci", max_examples=300, deadline=None, derandomize=True, print_blob=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                           HealthCheck.differing_executors])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))


def pts(spec):
    """A board from ``{point: count}`` in the owner's numbering (points 1..24)."""
    b = [0] * 24
    for p, n in spec.items():
        b[p - 1] += n
    return b


def board(**points):
    """A uint8 24-point board from ``p<point>=count`` keywords (owner's numbering), e.g.
    ``board(p24=1, p1=14)``."""
    return np.array(pts({int(k[1:]): n for k, n in points.items()}), np.uint8)


@pytest.fixture(scope="session", autouse=True)
def private_data_folder(tmp_path_factory):
    """Bear-off databases go to a temporary ``NARDY_FAST_DATA`` for the whole session (the
    default tables are built once), never to the user's cache; worker processes, kernels
    and command-line runs started by the tests inherit it."""
    folder = tmp_path_factory.mktemp("nardy_data")
    mp = pytest.MonkeyPatch()
    mp.setenv("NARDY_FAST_DATA", str(folder))
    yield folder
    mp.undo()

VECTORS = TESTS / "data" / "vectors" / "movegen_public.jsonl"

# --- rules ---------------------------------------------------------------------------
MOVEGEN_FIELDS = {
    "head_rule": ("classic", "generalized"),
    "block_rule": ("ahead", "home", "none"),
    "block_transient": (False, True),
    "larger_die_rule": (True, False),
}
ALL_VARIANTS = [Rules(**dict(zip(MOVEGEN_FIELDS, values)))
                for values in product(*MOVEGEN_FIELDS.values())]


def rules_variants():
    """Any combination of the four move-generation fields of ``Rules``."""
    return st.sampled_from(ALL_VARIANTS)


# --- dice ----------------------------------------------------------------------------
def dice():
    """A roll ``(d1, d2)``, each 1..6, in either order."""
    return st.tuples(st.integers(1, 6), st.integers(1, 6))


def roll_pairs():
    """A non-double ``(a, b)``."""
    return dice().filter(lambda r: r[0] != r[1])


# --- games ---------------------------------------------------------------------------
START = [15] + [0] * 23          # a side's board at the start: 15 on its head
PHASES = ("opening", "middle", "bearoff")


def longest_run(board):
    """Longest run of consecutive held points, counted around the whole circle."""
    held = [bool(x) for x in board] * 2
    best = run = 0
    for h in held:
        run = run + 1 if h else 0
        best = max(best, run)
    return min(best, 24)


def _choose(succ, rng, policy):
    if policy == "random" or len(succ) == 1:
        return succ[rng.randrange(len(succ))]
    if policy == "build":          # greedy: the longest run of held points, ties at random
        runs = [longest_run(b) for b in succ]
        top = max(runs)
        return succ[rng.choice([i for i, r in enumerate(runs) if r == top])]
    if policy == "lag":            # keep checkers out of the home as long as possible
        home = [int(b[18:].sum()) for b in succ]
        low = min(home)
        return succ[rng.choice([i for i, h in enumerate(home) if h == low])]
    raise ValueError(policy)


def play_game(seed, plies, rules=None, policies=("random", "random"), stop=None):
    """Play ``plies`` turns from the start; return ``(mover, opponent, side)`` at the end.

    ``policies[i]`` chooses for White (i = 0) and Black (i = 1).  ``stop(mover, opponent)``
    ends the game early when true.  A finished game is returned at its last position in
    which nobody has won yet.
    """
    rng = random.Random(seed)
    mover, opp, side = np.array(START, np.uint8), np.array(START, np.uint8), 0
    for _ in range(plies):
        if stop is not None and stop(mover, opp):
            break
        d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
        succ = successors(mover, opp, d1, d2, rules)
        policy = policies[side]
        if policy == "build" and rng.random() < 0.15:
            policy = "random"
        nxt = _choose(succ, rng, policy)
        if nxt.sum() == 0:            # the mover has won: keep the last open position
            break
        mover, opp, side = opp, nxt, 1 - side
    return mover, opp, ("white", "black")[side]


def _all_home(board):
    return not board[:18].any()


@st.composite
def game_positions(draw, rules=None, phases=PHASES, policy="random"):
    """A ``Position`` reached by a game from the start under ``rules``.

    ``phases``: any of "opening" (first few turns), "middle", "bearoff" (the side on roll
    has all its checkers home, or soon after).  ``policy``: "random" (uniform over distinct
    successors), "build" (one side greedily builds runs of held points, the other plays at
    random or keeps its checkers back).
    """
    seed = draw(st.integers(0, 2 ** 32 - 1))
    phase = draw(st.sampled_from(phases))
    policies = ("random", "random")
    if policy == "build":
        other = draw(st.sampled_from(["random", "lag", "build"]))
        policies = draw(st.sampled_from([("build", other), (other, "build")]))
    if phase == "opening":
        plies = draw(st.integers(0, 8))
        m, o, side = play_game(seed, plies, rules, policies)
    elif phase == "middle":
        plies = draw(st.integers(9, 90))
        m, o, side = play_game(seed, plies, rules, policies)
    else:
        extra = draw(st.integers(0, 12))
        m, o, side = play_game(seed, 2000, rules, policies,
                               stop=lambda a, b: _all_home(a) or _all_home(b))
        m, o, side = _continue(seed, m, o, side, extra, rules)
    return Position.from_boards(m, o, side)


def _continue(seed, m, o, side, plies, rules):
    rng = random.Random(seed + 1)
    s = 0 if side == "white" else 1
    for _ in range(plies):
        succ = successors(m, o, rng.randint(1, 6), rng.randint(1, 6), rules)
        nxt = succ[rng.randrange(len(succ))]
        if nxt.sum() == 0:
            break
        m, o, s = o, nxt, 1 - s
    return m, o, ("white", "black")[s]


@st.composite
def hand_positions(draw, min_off=0):
    """An arbitrary valid position: each side 0..15 checkers on the board, no point shared.

    Not necessarily reachable in a game (it may hold blocks that the rules forbid making:
    those are exempt, rule book section 4), so it exercises set-ups that games rarely give.
    """
    mover = [0] * 24
    opp = [0] * 24
    n_m = draw(st.integers(1, 15 - min_off))
    n_o = draw(st.integers(0, 15))
    # the mover's points, then the opponent's on mover points left free
    m_pts = draw(st.lists(st.integers(0, 23), min_size=1, max_size=min(n_m, 10), unique=True))
    free = [i for i in range(24) if i not in m_pts]
    o_pts = draw(st.lists(st.sampled_from(free), max_size=min(n_o, 8), unique=True)) \
        if n_o else []
    for k in range(n_m):
        mover[m_pts[k % len(m_pts)]] += 1
    if o_pts:
        for k in range(n_o):
            opp[(o_pts[k % len(o_pts)] + 12) % 24] += 1
    side = draw(st.sampled_from(["white", "black"]))
    return Position.from_boards(mover, opp, side)


@st.composite
def block_positions(draw, rules=None):
    """Positions where the mover is close to a six-point block on the opponent's path.

    The mover holds five or six of some window of the opponent's path, spare checkers sit
    behind it, the opponent's checkers are all behind the window or some ahead of it.
    """
    k = draw(st.integers(1, 19))                      # opponent points k .. k+5
    window = [((k - 1 + i) + 12) % 24 for i in range(6)]
    gap = draw(st.sampled_from([None] + window))      # a hole to fill, or none
    mover = [0] * 24
    for i in window:
        if i != gap:
            mover[i] = 1
    held = sum(mover)
    spare = 15 - held - draw(st.integers(0, 2))
    # spare checkers on points before the window (mover numbering), avoiding it; many of
    # them one die (1..6 points) short of the hole, so that filling it is often possible
    lo = max(0, min(window) - 8)
    sources = [i for i in range(lo, 24) if i not in window]
    target = gap if gap is not None else window[0]
    near = [target - j for j in range(1, 7) if target - j >= 0 and target - j not in window]
    for _ in range(spare):
        pool = near if near and draw(st.booleans()) else sources
        mover[draw(st.sampled_from(pool))] += 1
    # opponent: behind the window, plus maybe a few checkers ahead of it or off
    opp = [0] * 24
    behind = [q for q in range(k - 1) if mover[(q + 12) % 24] == 0]
    ahead = [q for q in range(k + 5, 24) if mover[(q + 12) % 24] == 0]
    n_ahead = draw(st.integers(0, 2)) if ahead else 0
    n_off = draw(st.sampled_from([0, 0, 0, 1]))
    n_behind = 15 - n_ahead - n_off if behind else 0
    for _ in range(n_behind):
        opp[draw(st.sampled_from(behind))] += 1
    # often on the edges that decide: just ahead of the window, just outside the
    # opponent's home (its point 18), its first home point
    edges = [q for q in (k + 5, 17, 18) if q in ahead]
    for _ in range(n_ahead):
        pool = edges if edges and draw(st.integers(0, 2)) else ahead
        opp[draw(st.sampled_from(pool))] += 1
    side = draw(st.sampled_from(["white", "black"]))
    return Position.from_boards(mover, opp, side)


@st.composite
def first_turn_positions(draw):
    """The mover's start (15 on its head) against an arbitrary opponent set-up.

    Exercises the head rule and its first-turn exception with opponent checkers anywhere
    on the mover's path (including an empty opponent head).
    """
    opp = [0] * 24
    n_o = draw(st.integers(0, 15))
    # opponent idx 12 is the mover's head: never there
    o_pts = draw(st.lists(st.sampled_from([j for j in range(24) if j != 12]),
                          min_size=1, max_size=6, unique=True))
    for k in range(n_o):
        opp[o_pts[k % len(o_pts)]] += 1
    side = draw(st.sampled_from(["white", "black"]))
    return Position.from_boards(START, opp, side)
