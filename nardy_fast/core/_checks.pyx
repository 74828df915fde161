# cython: wraparound=True, boundscheck=True
# (Python-level code on Python objects, e.g. shape[-1]: the build's defaults, set for the
# C loops of the core, would index tuples out of range here.)
"""Input checks shared by every wrapper: each converts a value or raises ``TypeError`` /
``ValueError`` naming the parameter, the bad value and what is allowed (as numpy's
``_common`` constraint checks do).  The C core trusts what passes them.  Compiled, so that
the per-call checks of ``successors`` cost what they did inline (``_checks.pxd`` exports
``check_die`` and ``as_board`` to Cython callers).

The one home of the package's argument checks.  Two checks live beside the type they need,
because that type's module imports this one (an import circle otherwise): ``check_match``
in ``core.matchrules`` (a ``MatchState``) and ``check_boards`` in ``core._state`` (boards
checked by the move generator's ``check_position``).
"""
import os
import re

import numpy as np

__all__ = ["as_board", "as_board6", "as_indices", "as_table", "check_die", "check_dice",
           "DICE_FORMS", "check_count", "check_int", "check_plies", "check_threads",
           "usable_cores"]


cpdef object as_board(object x, str name):
    """A contiguous uint8 24-point board (no copy when it already is one).

    Raises TypeError for non-numeric input and ValueError for a wrong shape or counts
    outside 0..15.
    """
    if type(x) is np.ndarray and x.dtype == np.uint8 and x.shape == (24,) \
            and x.flags.c_contiguous:
        return x
    a = np.asarray(x)
    if a.dtype.kind not in "iub":
        raise TypeError(f"{name}: expected integer checker counts, got dtype {a.dtype}")
    if a.shape != (24,):
        raise ValueError(f"{name}: expected 24 point counts, got shape {a.shape}")
    bad = np.flatnonzero((a < 0) | (a > 15))
    if bad.size:
        i = int(bad[0])
        raise ValueError(f"{name} point {i + 1}: {a[i]} checkers, expected 0..15")
    return np.ascontiguousarray(a, dtype=np.uint8)


def as_board6(boards, name="board6", max_checkers=15):
    """Bear-off boards as ``(uint8 (n, 6) C-contiguous, single)``.

    Takes board6 rows (``board6[i]`` = checkers on point ``24 - i``) or 24-point boards with
    every checker home (points 19-24), one or a stack; at most ``max_checkers`` each.
    """
    a = np.asarray(boards)
    if a.dtype.kind not in "iub":
        raise TypeError(f"{name}: expected integer checker counts, got dtype {a.dtype}")
    single = a.ndim == 1
    if a.ndim not in (1, 2) or a.shape[-1] not in (6, 24):
        raise ValueError(f"{name}: expected shape (6,), (24,), (n, 6) or (n, 24), got "
                         f"shape {a.shape}")
    a2 = a.reshape(-1, a.shape[-1])
    if a2.size:
        if a.dtype.kind != "u" and (a2 < 0).any():
            r, i = np.argwhere(a2 < 0)[0]
            raise ValueError(f"{name}{'' if single else f'[{r}]'} idx {i}: "
                             f"{a2[r, i]} checkers, counts must be >= 0")
        if a2.shape[1] == 24:
            out = a2[:, :18] != 0
            if out.any():
                r, i = np.argwhere(out)[0]
                raise ValueError(f"{name}{'' if single else f'[{r}]'}: {a2[r, i]} "
                                 f"checker(s) on point {i + 1}, outside the home "
                                 f"(points 19-24)")
            a2 = a2[:, :17:-1]
        tot = a2.sum(axis=1, dtype=np.int64)
        big = tot > max_checkers
        if big.any():
            r = int(np.argmax(big))
            limit = ("at most 15" if max_checkers == 15
                     else f"this database covers at most {max_checkers}")
            raise ValueError(f"{name}{'' if single else f'[{r}]'}: {tot[r]} checkers, "
                             f"{limit}")
    elif a2.shape[1] == 24:
        a2 = a2[:, :17:-1]
    return np.ascontiguousarray(a2, dtype=np.uint8), single


def as_indices(indices, limit):
    """Board indices as ``(intp (n,) C-contiguous, single)``, each in ``0 .. limit - 1``."""
    a = np.asarray(indices)
    if a.dtype.kind not in "iu":
        raise TypeError(f"indices: expected integers, got dtype {a.dtype}")
    single = a.ndim == 0
    a1 = a.reshape(-1)
    if a1.size and (a1.min() < 0 or a1.max() >= limit):
        bad = a1[(a1 < 0) | (a1 >= limit)][0]
        raise ValueError(f"index {bad}: must be 0..{limit - 1}")
    return np.ascontiguousarray(a1, dtype=np.intp), single


def as_table(arr, shape, name):
    """A database array as given: C-contiguous float64 of ``shape`` (``None``: any length
    on that axis), else ValueError naming it.  An array that owns its data is made
    read-only (a database is never changed after its build)."""
    if (arr.dtype != np.float64 or not arr.flags.c_contiguous or arr.ndim != len(shape)
            or any(n is not None and n != k for n, k in zip(shape, arr.shape))):
        want = tuple("*" if n is None else n for n in shape)
        raise ValueError(f"{name}: expected C-contiguous float64 of shape {want}")
    if isinstance(arr, np.ndarray) and arr.flags.writeable and arr.base is None:
        arr.flags.writeable = False
    return arr


cpdef int check_die(object x, int i) except -1:
    """Die ``i`` of a roll as an int 1..6: ``"dice[1] = 7: must be 1..6"``."""
    if isinstance(x, bool) or not isinstance(x, (int, np.integer)):
        raise TypeError(f"dice[{i}] = {x!r}: expected an integer 1..6")
    if not 1 <= x <= 6:
        raise ValueError(f"dice[{i}] = {x}: must be 1..6")
    return <int>x


# the roll as text: two dice 1..6, written together or apart by one "-", "," or space
# ("65", "6-5", "6,5", "6 5"; spaces around the roll ignored)
_DICE_TEXT = re.compile(r"\s*([1-6])(?:[-, ]?)([1-6])\s*")
DICE_FORMS = "two dice 1..6 as '65', '6-5', '6,5', '6 5' or (6, 5)"


def check_dice(dice):
    """``(d1, d2)`` as ints from a roll: a pair of integers 1..6 (``(6, 5)``, ``[6, 5]``,
    an array) or its text (``"65"``, ``"6-5"``, ``"6,5"``, ``"6 5"``).  Anything else is
    refused naming it: ``dice='65x': expected two dice 1..6 as ...``.

    The one parser of a roll: the API's ``dice`` arguments and the command line's.
    """
    if isinstance(dice, str):
        m = _DICE_TEXT.fullmatch(dice)
        if m is None:
            raise ValueError(f"dice={dice!r}: expected {DICE_FORMS}")
        return int(m.group(1)), int(m.group(2))
    if isinstance(dice, (bytes, dict, set, frozenset)):
        raise TypeError(f"dice={dice!r}: expected {DICE_FORMS}")
    try:
        d = tuple(dice)
    except TypeError:
        raise TypeError(f"dice={dice!r}: expected {DICE_FORMS}") from None
    if len(d) != 2:
        raise ValueError(f"dice={dice!r}: expected two dice, got {len(d)}")
    return check_die(d[0], 0), check_die(d[1], 1)


def check_int(value, lo, hi, name):
    """An integer ``lo .. hi`` (bools refused)."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{name}={value!r}: expected an integer {lo}..{hi}")
    if not lo <= value <= hi:
        raise ValueError(f"{name}={value}: must be {lo}..{hi}")
    return int(value)


def check_count(value, name, lo=1):
    """A count: an integer ``>= lo`` (bools refused), such as ``n_games`` or ``workers``."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{name}={value!r}: expected an integer >= {lo}")
    if value < lo:
        raise ValueError(f"{name}={value}: must be >= {lo}")
    return int(value)


def check_fraction(value, name, what="a probability"):
    """A real number in [0, 1] (bools, text and NaN refused), such as a chance of winning
    or a cube efficiency: ``float(value)``, else an error naming ``name``."""
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise TypeError(f"{name}={value!r}: expected {what}, a number in [0, 1]")
    v = float(value)
    if not 0.0 <= v <= 1.0:
        raise ValueError(f"{name}={value!r}: {what} must be in [0, 1]")
    return v


def check_step(value, name="lr"):
    """``value`` as a positive finite float (a training step), else ``ValueError`` naming
    ``name``."""
    try:
        step = float(value)
    except (TypeError, ValueError):
        step = float("nan")
    if not (step > 0 and step != float("inf")):
        raise ValueError(f"{name}={value!r}: the step must be a positive number")
    return step


def check_plies(plies, max_plies):
    """A search depth ``plies``: an int ``0 .. max_plies`` (bools refused).

    Parameters
    ----------
    plies : int
        Look-ahead of the evaluator's search, in plies (turns of either side).
    max_plies : int
        The deepest search the engine offers (``engine._search.MAX_SEARCH_PLIES``; the core does
        not know the engine's search, so the caller names it).
    """
    if isinstance(plies, bool) or not isinstance(plies, (int, np.integer)):
        raise TypeError(f"plies={plies!r}: expected an int 0..{max_plies}")
    if not 0 <= plies <= max_plies:
        raise ValueError(f"plies={plies}: expected 0..{max_plies}")
    return int(plies)


def usable_cores():
    """Cores this process may run on (its CPU affinity where known)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:                        # not on Linux
        return max(1, os.cpu_count() or 1)


def check_threads(threads):
    """``threads`` of the builders: None (every usable core) or an integer >= 1, capped at
    the usable cores (more threads than cores only make the threads wait for each other at
    every board).  Without POSIX threads the solvers use one."""
    if threads is None:
        return usable_cores()
    if isinstance(threads, bool) or not isinstance(threads, (int, np.integer)):
        raise TypeError(f"threads={threads!r}: expected None or an integer >= 1")
    if threads < 1:
        raise ValueError(f"threads={threads}: must be >= 1")
    return min(int(threads), usable_cores())
