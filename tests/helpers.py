"""Plain helpers shared by the test modules: boards and races, the other side's view of a
value, small mars tables, an HTML page parsed, the luck of a roll by hand, the checks of a
"no effect" warning, the net kernel's two paths, a rollout cut by Ctrl-C, the command line in this process, study IDs and seeds, the turns an environment's step mask reaches, and hypothesis
strategies for positions, rolls, rules and played matches.  ``tests/architecture/test_one_home_tests.py`` checks that
none of them is defined again in a test module.

Fixtures live in ``conftest.py``; everything a test module imports by name lives here
(``from helpers import board``: ``conftest.py`` puts this folder on ``sys.path``, so the
import works from any folder pytest is started in).

Positions come from games played from the start under the rules being tested, choosing
uniformly among the distinct successors of each roll (``nardy_fast.successors``), with the
game's random generator seeded by hypothesis.  So every position is reachable and holds no
block those rules forbid.  A second policy builds long runs of held points on purpose, so
that the block rule really decides; ``hand_positions`` gives arbitrary valid boards (as set
up by hand) for the cases games rarely reach.
"""
from __future__ import annotations

import contextlib
import hashlib
import importlib.util
import inspect
import math
import random
import sys
import warnings
from html.parser import HTMLParser
from itertools import product
from pathlib import Path

import numpy as np
import pytest
from hypothesis import strategies as st

from nardy_fast import MatchRules, Position, Rules, successors
from nardy_fast.core.record import random_game
from nardy_fast.tables import bearoff as bo
from nardy_fast.engine.evaluation import _net  # private on purpose: the net kernel's path
from nardy_fast.engine.play.luck import ROLLS
from nardy_fast.app.cli import main

TESTS = Path(__file__).resolve().parent


# --- boards --------------------------------------------------------------------------
def pts(spec):
    """A board (list of 24 counts) from ``{point: count}`` in the owner's numbering
    (points 1..24)."""
    b = [0] * 24
    for p, n in spec.items():
        b[p - 1] += n
    return b


def board(spec=None, /, **points):
    """A uint8 24-point board in the owner's numbering (points 1..24), from a dict
    ``{point: count}``, from ``p<point>=count`` keywords, or both: ``board({24: 1, 1: 14})``
    is ``board(p24=1, p1=14)``."""
    counts = dict(spec or {})
    for k, n in points.items():
        p = int(k[1:])
        counts[p] = counts.get(p, 0) + n
    return np.array(pts(counts), np.uint8)


def to24(board6):
    """A uint8 24-point board (owner's numbering) of a 6-count home board, point 24 first
    (``board6[0]`` is point 24, ``board6[5]`` point 19), as ``bearoff.OneSided`` takes it."""
    b = np.zeros(24, np.uint8)
    b[23 - np.arange(6)] = board6
    return b


def to6(board24):
    """The 6 home counts, point 24 first, of a 24-point board (``to24``'s inverse)."""
    return tuple(int(board24[23 - i]) for i in range(6))


def race_of_points(me_points, you_points):
    """A ``Position`` (White on roll) with one checker of the side on roll on each point
    of ``me_points`` and one of the other side on each of ``you_points`` (each side's own
    numbering, points 1..24; a point listed twice holds two; a single point may be given
    as an int)."""
    me, you = np.zeros(24, int), np.zeros(24, int)
    me_points, you_points = np.atleast_1d(me_points), np.atleast_1d(you_points)
    for p in me_points:
        me[p - 1] += 1
    for p in you_points:
        you[p - 1] += 1
    return Position(me, you)


def seeded_contact():
    """A contact position: the 11th of the seeded random game 3 of 12 turns."""
    return random_game(seed=3, max_turns=12).positions()[10]


def outer_position():
    """A race without contact inside 7 points: White 14 home + one on point 18."""
    me = np.zeros(24, np.uint8)
    me[17], me[18], me[20], me[23] = 1, 5, 5, 4
    opp = np.zeros(24, np.uint8)
    opp[17], opp[19], opp[22] = 2, 6, 7
    return Position.from_boards(me, opp, "white")


def random_side(rng, lo, n=None):
    """A side's uint8 board of ``n`` checkers (by default 1..15 at random) on random points
    from index ``lo`` (point ``lo + 1``) to point 24, drawn with the numpy generator ``rng``."""
    b = np.zeros(24, np.uint8)
    n = int(rng.integers(1, 16)) if n is None else n
    np.add.at(b, rng.integers(lo, 24, n), 1)
    return b


def outer_races(seed, k):
    """Races with checkers on point 18 (outside the home): 15 against 15, and a side of
    15 against a short one (so that mars and home mars win and lose are all likely)."""
    rng = np.random.default_rng(seed)
    out = []
    for i in range(k):
        a, b = random_side(rng, 17, 15), random_side(rng, 17, 15)
        if i % 3 == 1:
            a = random_side(rng, 20, int(rng.integers(1, 4)))
        elif i % 3 == 2:
            b = random_side(rng, 20, int(rng.integers(1, 4)))
        out.append((a, b))
    return out


def boards_upto(n, lo=1):
    """A hypothesis strategy: home boards (6 counts, the bear-off index's order) of ``lo``
    to ``n`` checkers (by default not empty), uniformly by index."""
    return st.integers(math.comb(lo + 5, 6), math.comb(n + 6, 6) - 1).map(
        lambda i: tuple(int(x) for x in bo.board_of(i)))


def flip(v):
    """The other side's view of seven probabilities (win <-> loss), as float64: ``p_win``
    becomes ``1 - p_win`` and the three win kinds swap with the three loss kinds."""
    return np.array([1.0 - v[0], v[4], v[5], v[6], v[1], v[2], v[3]], dtype=np.float64)


@contextlib.contextmanager
def small_default_mars(monkeypatch=None):
    """``bearoff.DEFAULT_MARS`` = 2 inside the block (in this process only: pool workers
    keep the real default), so that the default mars table is one of 2 checkers (seconds
    to build), not the real one (see RESULTS.md).  With a test's ``monkeypatch`` the value
    is set through it and restored with the test's other patches, in their order."""
    mp = monkeypatch if monkeypatch is not None else pytest.MonkeyPatch()
    mp.setattr(bo, "DEFAULT_MARS", 2)
    try:
        yield
    finally:
        if monkeypatch is None:
            mp.undo()


# --- reports and pages -----------------------------------------------------------------
def played_rows(report):
    """The rows of a game report for turns with a move played (not the cube-only rows)."""
    return report[report["move"] != ""]


class Page(HTMLParser):
    """An HTML page parsed: every element as (tag, attrs, classes, open parents), and the
    text."""

    def __init__(self, text):
        super().__init__()
        self.elements, self.stack, self.text = [], [], []
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        self.elements.append((tag, attrs, set((attrs.get("class") or "").split()),
                              tuple(self.stack)))
        if tag not in ("meta", "br", "img", "link", "input"):
            self.stack.append(tag)

    def handle_startendtag(self, tag, attrs):
        attrs = dict(attrs)
        self.elements.append((tag, attrs, set((attrs.get("class") or "").split()),
                              tuple(self.stack)))

    def handle_endtag(self, tag):
        while self.stack and self.stack.pop() != tag:
            pass

    def handle_data(self, data):
        self.text.append(data)

    def by_class(self, name, tag=None):
        return [e for e in self.elements if name in e[2] and (tag is None or e[0] == tag)]


# --- luck ----------------------------------------------------------------------------
def expectimax_luck(pos, ev):
    """Per roll of ROLLS: the mover's best 0-ply equity after its move, minus the
    probability-weighted mean over the rolls; by Position.legal_moves / play and
    Evaluator.evaluate only (the evaluator values the position after the move from the
    opponent's view, so the mover's equity is its negative: no draws in the net)."""
    best = []
    for a, b in ROLLS:
        after = [pos.play(m) for m in pos.legal_moves((a, b))]
        assert not any(p.is_over() for p in after)        # no move finishes the game here
        best.append(-ev.evaluate_many(after)["equity"].min())
    best = np.array(best)
    weights = np.array([1 / 36 if a == b else 2 / 36 for a, b in ROLLS])
    assert weights.sum() == pytest.approx(1.0)
    return best - weights @ best


# --- warnings ------------------------------------------------------------------------
def warned(call, names, why):
    """Runs ``call``; returns its result after checking that one UserWarning says "no
    effect", names every one of ``names`` (and only them) with ``why``, and points at the
    calling test module's line (the warning names the user's call)."""
    caller = inspect.currentframe().f_back.f_code.co_filename
    with pytest.warns(UserWarning, match="no effect") as rec:
        out = call()
    ours = [w for w in rec if "no effect" in str(w.message)]
    assert len(ours) == 1, [str(w.message) for w in ours]
    text = str(ours[0].message)
    assert text.split(":")[0].split(", ") == names, text
    assert why in text, text
    assert ours[0].filename == caller
    return out


def silent(call):
    """Runs ``call`` with every UserWarning an error; returns its result."""
    with warnings.catch_warnings():
        warnings.simplefilter("error", UserWarning)
        return call()


# --- Ctrl-C in a rollout -----------------------------------------------------------------
def cut_rollout_runs(monkeypatch, at=1):
    """Ctrl-C in the ``at``-th chunk run of ``engine.play.rollout`` (its ``run_chunks``: one
    per ``rollout``, one per ``rollout_outcomes``): the first chunk is delivered, then
    ``KeyboardInterrupt`` lands, so that rollout returns those games marked
    ``extra["interrupted"]``; the other runs play as usual.  Returns the list of runs
    started (one entry each)."""
    from nardy_fast.engine.play import rollout as rollout_mod
    real, runs = rollout_mod.run_chunks, []

    def run_chunks(fn, specs, on_result, **kw):
        runs.append(1)
        if len(runs) != at:
            return real(fn, specs, on_result, **kw)

        def deliver(i, r):
            on_result(i, r)
            raise KeyboardInterrupt
        return real(fn, specs, deliver, **kw)
    monkeypatch.setattr(rollout_mod, "run_chunks", run_chunks)
    return runs


# --- the command line and the study ---------------------------------------------------
def on_both_kernel_paths(compute):
    """``(generic, avx2)``: ``compute()`` with the net kernel's plain loops forced, then
    with its AVX2 path (``_net.simd_path``; the choice by processor restored after);
    skips the test where the processor has no AVX2."""
    if _net.simd_path(False) != "avx2":
        pytest.skip("this processor has no AVX2: only the generic path runs")
    try:
        _net.simd_path(True)
        generic = compute()
    finally:
        _net.simd_path(False)
    return generic, compute()


def run_cli(capsys, *argv):
    """``nardy-fast *argv`` in this process: (exit status, stdout, stderr)."""
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def ids_of(n, seed=0):
    """``n`` distinct contact position IDs from seeded random games (the side on roll of the
    record), from game ``seed`` on."""
    out = []
    k = seed
    while len(out) < n:
        for p in random_game(seed=k, max_turns=60).positions()[10::7]:
            if not p.is_over() and p.id not in out:
                out.append(p.id)
        k += 1
    return out[:n]


def seed_of(seed, pid):
    """A study's documented seed of position ``pid`` under the study's ``seed``, computed
    here from its definition (SHA-256 of ``nardy_fast.study|seed|pid``, first 16 bytes)."""
    return int.from_bytes(hashlib.sha256(f"nardy_fast.study|{seed}|{pid}".encode())
                          .digest()[:16], "big")


# --- the environments' step masks ------------------------------------------------------
# the rules the environments take: the move rules, and a scoring with the draw rule
ENV_RULES = [None, Rules(block_transient=True), Rules(head_rule="generalized"),
             Rules(larger_die_rule=False), Rules(block_rule="home"), Rules(block_rule="none"),
             Rules(draw_rule=True, scoring="extended")]


def turns_stepped(replay, n_steps):
    """The mover's boards (tuples of 24 counts, its own numbering) an environment's step
    mask reaches in a turn of ``n_steps`` steps (``n_steps >= 1``), found by trying every
    offered step: ``replay(actions)`` starts the turn again, plays the step ``actions``
    (``6 * from_idx + die - 1``) and returns the mover's board mid-turn and the mask of the
    next step.  The last step is played here by its definition (the checker on ``from_idx``
    moves ``die`` points, past point 24 off), so the turn never ends inside the
    environment.  A step after which the mask offers nothing before the turn is whole is
    reported as the board ``None``."""
    out, todo = set(), [()]
    while todo:
        actions = todo.pop()
        board, mask = replay(actions)
        offered = np.flatnonzero(mask).tolist()
        if not offered:
            out.add(None)
        elif len(actions) == n_steps - 1:
            for a in offered:
                b = list(board)
                b[a // 6] -= 1
                if a // 6 + a % 6 + 1 <= 23:
                    b[a // 6 + a % 6 + 1] += 1
                out.add(tuple(b))
        else:
            todo.extend(actions + (a,) for a in offered)
    return out


# --- the public test vectors ---------------------------------------------------------
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


def _longest_run(board):
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
        runs = [_longest_run(b) for b in succ]
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


MATCH_RULES = [MatchRules(length=3), MatchRules(length=2, draw="one", starter="alternate",
                                                rules=Rules(draw_rule=True)),
               MatchRules(length=3, draw="replay", starter="opening_roll",
                          rules=Rules(draw_rule=True, scoring="extended")),
               MatchRules(length=4, rules=Rules(scoring="extended", head_rule="generalized",
                                                block_transient=True, larger_die_rule=False,
                                                opening_roll="opening_dice")),
               MatchRules(length=3, crawford=True, rules=Rules(cube="geometric", beaver=True)),
               MatchRules(length=3, starter="alternate", rules=Rules(cube="arithmetic"))]


@st.composite
def played_matches(draw):
    """A ``MatchRecord`` of a match played to its end by ``play_one_match`` (a random
    player against the greedy one, either first), under a hypothesis-drawn variant of
    ``MATCH_RULES`` and seed: its games end in every way the rules allow (mars, koks,
    draws, the cube's passes and beavers)."""
    from nardy_fast.engine.decisions.matchplay import play_one_match
    from nardy_fast.engine.evaluation.evaluator import RulesFallbackWarning
    rules = draw(st.sampled_from(MATCH_RULES))
    players = draw(st.permutations(["random", "greedy"]))
    with warnings.catch_warnings():         # the classic net serves the other move rules
        warnings.simplefilter("ignore", RulesFallbackWarning)
        return play_one_match(*players, rules=rules, seed=draw(st.integers(0, 2 ** 32 - 1)),
                              names=("Ann", "Bob"))


def same_match(back, match):
    """Whether ``back`` holds ``match``'s players, games (turns, cube actions, results,
    starts and colours) and scores."""
    return (back.players == match.players and back.scores == match.scores
            and [(g.white, g.black, g.start, g.turns, g.cube, g.result()) for g in back.games]
            == [(g.white, g.black, g.start, g.turns, g.cube, g.result()) for g in match.games]
            and back.replay() == match.replay())


def load_script(path):
    """The module of a script that is no package's (a benchmark, ``docs/check_site.py``),
    loaded from its file ``path`` under its file's name."""
    path = Path(path)
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def run_script(monkeypatch, script, *argv):
    """Run the ``main()`` of ``script`` (a module of ``load_script``) on the command line
    ``argv``, as ``python SCRIPT ARGV`` would."""
    monkeypatch.setattr(sys, "argv", [script.__file__, *map(str, argv)])
    return script.main()


def script_refusal(monkeypatch, capsys, path, argv):
    """What the script at ``path`` (a benchmark) writes to stderr when its ``main()``
    refuses the command line ``argv`` as argparse does (exit status 2; an AssertionError
    if it does not)."""
    try:
        run_script(monkeypatch, load_script(path), *argv)
    except SystemExit as e:
        assert e.code == 2, f"{path} {argv}: exit status {e.code}, not argparse's 2"
        return capsys.readouterr().err
    raise AssertionError(f"{path} {argv}: not refused")


def ctrl_c_at_call(monkeypatch, owner, name, call=2):
    """Make ``owner.name`` raise ``KeyboardInterrupt`` at its ``call``-th call (the earlier
    calls run the real function): Ctrl-C at a chosen step of a long job, without timing.
    Returns the list that grows by one item per call."""
    real, calls = getattr(owner, name), []

    def cut(*a, **k):
        calls.append(1)
        if len(calls) == call:
            raise KeyboardInterrupt
        return real(*a, **k)
    monkeypatch.setattr(owner, name, cut)
    return calls


def unwritable_folder(monkeypatch, tmp_path):
    """A folder of ``tmp_path`` in which no temporary file can be made, as a folder without
    write permission refuses one (a test run by root ignores permission bits, so
    ``tempfile.mkstemp`` refuses it here).  Returns its path."""
    import os
    import tempfile
    shut = tmp_path / "shut"
    shut.mkdir()
    real = tempfile.mkstemp

    def refuse(*a, **k):
        if os.path.abspath(k.get("dir", "")) == str(shut):
            raise PermissionError(13, "Permission denied")
        return real(*a, **k)
    monkeypatch.setattr(tempfile, "mkstemp", refuse)
    return shut
