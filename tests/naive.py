"""A slow, obviously correct legal move generator, written from the rule book (sections 1-6).

Tests only: it shares no code with the Cython core.  It enumerates every ordered sequence
of single-checker steps (both die orders of a non-double, up to four steps of a double),
checks each step against the rules as the rule book states them, keeps the sequences that
use the most dice, applies the larger-die rule and dedupes by final board.

Sequences are enumerated breadth first, one step per round.  A round keeps every distinct
partial sequence *state* (board, dice still to play, head checkers taken, and the die of
a one-step play); two sequences with the same state have the same continuations and the
same verdict, so merging them changes no result, only the time.  Without
``block_transient`` a sequence is dropped at the first board holding a forbidden block
(blocks on the board at the start of the turn are exempt); with it only the last board of
a play is checked.

Conventions (rule book section 1): a board is 24 counts in its owner's numbering, idx =
point - 1, idx 0 the head, idx 18..23 the home.  Opponent idx ``j`` is mover idx
``(j + 12) % 24``.
"""
from __future__ import annotations

N = 24
CHECKERS = 15
HOME = 18          # idx of point 19
OFF = 24           # "to" idx of a bear-off step


def _rules_dict(rules):
    """The four move-generation fields from a Rules object, a dict or None."""
    defaults = {"head_rule": "classic", "block_rule": "ahead",
                "block_transient": False, "larger_die_rule": True}
    if rules is None:
        return defaults
    if isinstance(rules, dict):
        d = dict(defaults)
        d.update({k: v for k, v in rules.items() if k in defaults})
        return d
    return {k: getattr(rules, k) for k in defaults}


def opponent_at(opponent, idx):
    """Opponent checkers on the mover's idx (rule book section 1)."""
    return opponent[(idx + 12) % N]


# --- section 3: the head rule --------------------------------------------------------
def head_limit(mover, opponent, d1, d2, head_rule):
    """How many checkers may leave the head this turn: 1, or 2 by the first-turn exception."""
    if mover[0] != CHECKERS:                  # not the first turn: all 15 on point 1
        return 1
    if head_rule == "classic":
        # 6-6, 4-4, 3-3 and the single checker's path 1 -> 1+d -> ... stopped by the
        # opponent's head on point 13 (and by nothing before it).
        if d1 != d2 or d1 not in (3, 4, 6):
            return 1
        for k in range(1, 5):
            point = 1 + k * d1
            if point > 24:
                return 1
            if opponent_at(opponent, point - 1):
                return 2 if point == 13 else 1
        return 1
    if head_rule == "generalized":
        # a second checker may leave whenever one head checker cannot use the whole roll
        orders = [[d1] * 4] if d1 == d2 else [[d1, d2], [d2, d1]]
        for order in orders:
            point, ok = 1, True
            for d in order:
                point += d
                if point > 24 or opponent_at(opponent, point - 1):
                    ok = False            # blocked, or would need to bear off (not home)
                    break
            if ok:
                return 1
        return 2
    raise ValueError(f"head_rule={head_rule!r}")


# --- section 4: the block rule -------------------------------------------------------
def window_points(k):
    """Mover idx of the block on opponent points k .. k+5 (1 <= k <= 19)."""
    return [((k - 1 + i) + 12) % N for i in range(6)]


def held_windows(mover):
    """The k (1..19) whose six opponent points k..k+5 are all held by the mover."""
    return {k for k in range(1, 20) if all(mover[i] for i in window_points(k))}


def window_allowed(k, opponent, block_rule):
    """Whether the mover may hold a block on opponent points k..k+5."""
    off = CHECKERS - sum(opponent)
    if block_rule == "none":
        return True
    if block_rule == "ahead":
        # an opponent checker on an opponent point > k+5, or borne off
        return off > 0 or any(opponent[q - 1] for q in range(k + 6, 25))
    if block_rule == "home":
        return off > 0 or any(opponent[q - 1] for q in range(19, 25))
    raise ValueError(f"block_rule={block_rule!r}")


def has_forbidden_block(mover, opponent, block_rule, exempt):
    """True if the board holds a block that is not allowed and was not there at the start."""
    for k in held_windows(mover):
        if k not in exempt and not window_allowed(k, opponent, block_rule):
            return True
    return False


# --- sections 2 and 6: one step ------------------------------------------------------
def all_home(mover):
    return not any(mover[i] for i in range(HOME))


def step_target(mover, opponent, src, d):
    """Where the checker on idx ``src`` goes with die ``d`` (idx, or OFF), or None if it may not."""
    if mover[src] == 0:
        return None
    dst = src + d
    if dst < N:
        if opponent_at(opponent, dst):   # may land only on an empty or own point
            return None
        return dst
    # bearing off: only with the whole side home
    if not all_home(mover):
        return None
    if dst == N:                          # exactly: die d bears off from point 25 - d
        return OFF
    # a higher die bears off from the farthest occupied point only when no checker is
    # farther from the edge than this one
    if any(mover[i] for i in range(HOME, src)):
        return None
    return OFF


def apply_step(mover, src, dst):
    b = list(mover)
    b[src] -= 1
    if dst != OFF:
        b[dst] += 1
    return tuple(b)


# --- sections 2-6: the turn ----------------------------------------------------------
def naive_successors(mover, opponent, d1, d2, rules=None):
    """Sorted list of the distinct mover boards (24-int lists) after each legal move.

    ``rules`` is a ``Rules``, a dict with the rule fields, or None (classic).  A pass gives
    ``[mover]``.
    """
    r = _rules_dict(rules)
    mover = tuple(int(x) for x in mover)
    opponent = tuple(int(x) for x in opponent)
    d1, d2 = int(d1), int(d2)
    dice = (d1,) * 4 if d1 == d2 else (d1, d2)
    limit = head_limit(mover, opponent, d1, d2, r["head_rule"])
    exempt = held_windows(mover)
    transient = r["block_transient"]

    def forbidden(b):
        return has_forbidden_block(b, opponent, r["block_rule"], exempt)

    # state: (board, remaining dice as a sorted tuple, head checkers taken, die played if
    # the play so far is one step).  Without block_transient every board of a kept state
    # is free of forbidden blocks; with it only the last board is checked, at the end.
    start = (mover, tuple(sorted(dice)), 0, None)
    levels = [{start}]
    while True:
        nxt = set()
        first_step = len(levels) == 1
        for board, rest, heads, _ in levels[-1]:
            for d in set(rest):
                left = list(rest)
                left.remove(d)
                left = tuple(left)
                for src in range(N):
                    dst = step_target(board, opponent, src, d)
                    if dst is None:
                        continue
                    h = heads + (src == 0)
                    if h > limit:
                        continue
                    b = apply_step(board, src, dst)
                    if not transient and forbidden(b):
                        continue          # forbidden even in passing
                    # the die of a one-step play (larger-die rule); later steps drop it
                    nxt.add((b, left, h, d if first_step else None))
        if not nxt:
            break
        levels.append(nxt)

    def legal_end(state):
        return not transient or not forbidden(state[0])

    # the most dice that a legal play can use
    for used in range(len(levels) - 1, 0, -1):
        ends = [s for s in levels[used] if legal_end(s)]
        if ends:
            break
    else:
        return [list(mover)]              # no die can be played: a pass
    if used == 1 and d1 != d2 and r["larger_die_rule"]:
        big = max(d1, d2)
        if any(s[3] == big for s in ends):
            ends = [s for s in ends if s[3] == big]
    return [list(b) for b in sorted({s[0] for s in ends})]
