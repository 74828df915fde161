"""The complete two-sided bear-off database: every pair of home boards of 0..N checkers
each (N = 15: 54,264 squared pairs), with mars, built out of core in shards.

What it holds
-------------
For the side on roll with board ``a`` against ``b``: ``P(win)``, ``P(mars win)`` and
``P(mars loss)`` under the play maximising each side's expected points under the rules'
scoring (oin and home-mars points; a mars is possible only while a side has all 15
checkers, none off).  Below 15 checkers a side that maximises its expected points
maximises its chance of winning, so there the table equals ``TwoSided``; pairs with a side
of 15 are the ``MarsTable``'s pairs (that table covers 15 against at most 14), extended to
15 against 15.  The table depends on the rules only through ``lam = (mars - oin) / (2
oin)`` (0.5 for classic points), recorded in its manifest; ``matches(rules)`` checks it.
Its pairs where both sides have borne off a checker do not depend on it (no mars is
possible), so there a table serves rules of any points, e.g. the classic table a cube
game, where every win scores 1 (``serving``, ``CompleteTwoSided.without_mars``).

Storage and its bound
---------------------
Boards are grouped in classes by checker count; block (p, q) (on roll p checkers,
opponent q) stores ``v = P(win) + lam (P(mars win) - P(mars loss))`` as 16-bit fixed point
over [0, 1] (no side of 15) or [-lam, 1 + lam] (a side of 15), and the mars chances as
16-bit fractions (65535 = 1): 2 bytes a pair, 5.9 GB for N = 15, and 2 more per mars
chance that can be nonzero (a side of 15 on roll: P(mars loss); against one: P(mars
win)): 9.3 GB in all.  16 bits because it is the smallest width whose
rounding (7.6e-6 in P(win), half a step) is far below any difference that matters for a
move or a cube decision, and because it halves float32's memory, which is what decides
whether a shard's inputs fit in RAM.  Every value is computed from the stored (rounded)
values of its successors, as GNU Backgammon's database is: the error of ``v`` grows by at
most half a step per move left in the game, so ``|v - exact| <= (h / 2) * (turns left of
both sides)``, h the largest step on the way (1 / 65535 without a side of 15; (1 + 2 lam)
/ 65535 with one), a side's turns left at most ``ceil(pips / 2)`` (a turn bears off its
last checker or moves >= 2 pips); the error measured is far smaller
(``benchmarks/RESULTS.md``, "Two-sided bear-off").  The mars chances are those of the
play chosen on the stored values (for them, values within 1e-4 of the best count as tied
and the smallest final board index wins, as in ``MarsTable``): where two plays are within
rounding of each other in ``v`` the chosen one may not be the exact optimum, so P(win)
and P(mars) have no such bound (measured: at most 2.7e-3 on the tests' miniature), only
``v`` (the equity: ``2 v - 1`` oin points) has.

Cubeful equities
----------------
``build_complete(..., cubeful=True)`` (``nardy-fast bearoff build --two-sided 15
--cubeful``) adds, as GNU Backgammon's two-sided database carries them, the money
equities per unit of the current stake of the side on roll when it rolls without
doubling, for the centred cube, the cube it owns and the cube its opponent owns
(``cubeful_equities``; ``decision`` gives the cube decision, and ``cube_decision`` uses
it for every bear-off the in-memory ``cuberace.CubefulRace`` does not cover). With the
cube a game is won or lost at the stake (rule book section 7a: no mars, no oin), so they
do not depend on the points of mars: the recursion is ``_cuberace``'s (geometric cube,
money play, no beaver: each side doubles when ``min(2 x take, 1)`` beats rolling on, the
taker passes when the take is worth less than -1, each side picks its move for its own
cubeful equity), solved by the same shard order in C (``_tscomplete``'s cube section)
into shards of their own, ``cube-II-JJ.nfdb``, beside the cubeless ones: 6 bytes a pair
(16-bit fixed point over [-1, 1], step 2 / 65535), 17.7 GB for N = 15. An existing
cubeless store gains them without being rebuilt; they resume, are checked and are
bit-identical as the cubeless shards are. Their largest shard, {15, 14}, is estimated at
8.5 GB (``cube_shard_bytes``; 4.9 GB of it the memory-mapped blocks it reads), so the
full pass needs ``memory="10GB"`` (measured: a peak RSS of 8.6 GB); it costs about twice
the cubeless pass in CPU (733 ns a pair at 10 and 12 checkers; the full table 1,870 s of
CPU, 25 minutes of wall time on two threads, 17.7 GB on disk). Bound: each value is
rounded to half a step (1.5e-5) from its stored successors; a doubled take reads twice a
stored value, so errors can grow by more than half a step a turn where a double is taken,
and the bound is the one measured against the float64 ``CubefulRace`` over every pair:
at most 1.5 steps (4.5e-5) for 6 checkers, 1.69 steps (5.2e-5) for 8,
``benchmarks/RESULTS.md`` (GNU Backgammon's 6x6 cubeful values agree within its own
16-bit rounding, 1.2e-4). The arithmetic cube and the beaver are not in
the table (the cube then uses ``CubefulRace`` or the model, and says so).

Build
-----
Shard {i, j} (i >= j: classes of i and j checkers) holds blocks (i, j) and (j, i); it reads
only blocks of shards earlier in the order (max, min), so the build runs shard by shard,
each written atomically (a temporary name, then a rename) with a CRC-32
(``core._dbfile``), and a ``manifest.json`` lists the finished ones: a build that is
killed resumes at its first unfinished shard.  On this machine the shards run in order,
each on ``threads`` POSIX threads that share every shell's boards (two barriers a
shell); on a ``dask.distributed.Client`` the shards are the tasks (one thread each),
each submitted with the shards it reads as dependencies, the workers reading and writing
the same store.  Each value is computed by the same code from the same stored inputs, so
the table is bit-identical whatever runs it.  A shard keeps in memory the blocks it
reads (memory-mapped) and its own two blocks; the largest (15 against 15) is estimated
at 6.3 GB (``shard_bytes``; measured 3.9 GB); a build whose largest shard would need more
than ``memory`` (default 8 GB), or more than the memory available now to this process
(``_resources.available_memory``: the machine's, the address-space limit's), is refused
before it starts (on a Dask cluster each worker's own memory limit applies instead).
The complete build (N = 15) took 18 minutes of CPU, 10 minutes of wall time on 2 threads
of a busy 2-core machine (peak RSS 5.7 GB), and 9.25 GB of disk
(``benchmarks/RESULTS.md``); the tests build only small tables.

Scaling on a cluster
--------------------
Shards as tasks are bounded by the longest chain of dependent shards: shard {i, j} reads
{i, k < j}, so the row of the largest class, {15, 1} .. {15, 15}, runs one shard after
another. With work proportional to pairs the chain holds 52.9 % of the work: at most
1.89x over one worker however many there are (a list schedule gives 1.46x on 2 workers,
1.89x on 16 and on 64). The model is checked against measured shard times: the cubeful
pass's CPU per shard gives a chain of 67 % at 10 checkers and 60 % at 12 (the model: 65
% and 60 %); the tasks' times on a Dask ``LocalCluster`` (2 workers, 12 checkers: wall
times of a loaded machine, noisier) give 52 %. Transfers do not bound it: the tasks
return a name and a checksum, the data go through the shared store, each shard reading
the blocks of its two classes (at most 3.4 GB cubeless, 4.9 GB cubeful, for the shards
of the class of 15) and writing its own (at most 1.44 GB, 2.2 GB cubeful), a few seconds
at a cluster file system's speed against minutes of compute. A finer split of a shard
into ranges of the side on roll's boards does not lift the bound (52.9 % becomes 43.8 %
of the work, 2.29x, for any number of ranges): a shard's shells are solved in order, so
the ranges only overlap consecutive shards of the chain. What lifts it is splitting
every shell's boards among the threads of one worker, as the local build does (two
barriers a shell; 1.76x on 2 threads at 9 checkers): a cluster of multi-threaded workers
could give the chain's shards a whole node each (not implemented).

Readers
-------
``CompleteTwoSided.load(store)`` memory-maps every shard (a query touches only the pages
it needs); ``probabilities`` takes stacks of boards and runs its loop in C.
``complete_two_sided()`` is the table in the data folder that ``race_probabilities``, the
evaluator and rollouts use when it has been built (``nardy-fast bearoff build --two-sided
15``); it is never built implicitly.
"""
from __future__ import annotations

import json
import math
import os
import re
import sys
import threading
import time

import numpy as np

from nardy_fast.core._checks import as_board6, check_int, check_threads
from nardy_fast._utils._dbfile import DatabaseError, read_db, read_header, write_db
from nardy_fast._utils._io import atomic_write
from nardy_fast._utils._progress import progress_bar, show_progress
from nardy_fast._utils._resources import check_memory, gib
from nardy_fast._utils._settings import setting_differences
from nardy_fast._utils._warn import warn_user
from nardy_fast._utils.datadir import data_dir
from nardy_fast._utils.scheduler import connect
from nardy_fast.tables import _board6, _tscomplete
from nardy_fast.tables.bearoff import check_not_both_off, mars_points
from nardy_fast.tables.cuberace import OWNERS
from nardy_fast.tables.onesided import RULES_META, n_boards

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from nardy_fast.core.rules import RulesLike

__all__ = ["CompleteTwoSided", "build_complete", "complete_two_sided", "default_store",
           "serving", "parse_memory", "shard_order", "DEFAULT_MEMORY", "KIND", "MANIFEST",
           "solve_cube_shard", "cube_shard_bytes"]

KIND = "two_sided_complete"
SHARD_KIND = "two_sided_shard"
CUBE_SHARD_KIND = "two_sided_cube_shard"
MANIFEST = "manifest.json"
FORMAT = "u16-v1"
CUBE_FORMAT = "cube-u16-v1"
CUBE_META = {"progression": "geometric", "beaver": False, "states": ["centre", "mover",
                                                                     "opponent"],
             "value": "money equity per unit stake of the side on roll rolling without "
                      "doubling, R = -1 + 2 u / 65535"}
DEFAULT_MEMORY = 8 * 10**9
CHUNK_SHELLS = 128                # shells per solver call (progress, Ctrl-C)
SPMD_MIN_PAIRS = 1 << 16          # smaller shards run on one thread (two barriers a shell)
MAX = 15
_lock = threading.Lock()


def n_class(k: int) -> int:
    """Boards of exactly k checkers: C(k + 5, 5)."""
    return n_boards(k) - (n_boards(k - 1) if k else 0)


def shard_order(max_checkers: int) -> list[tuple[int, int]]:
    """The shards {i, j}, i >= j, in build order (max, then min)."""
    return [(i, j) for i in range(max_checkers + 1) for j in range(i + 1)]


def shard_deps(i: int, j: int) -> set[tuple[int, int]]:
    """The shards whose blocks shard {i, j} reads."""
    if j == 0:
        return set()
    deps = {(max(j, k), min(j, k)) for k in range(i)}
    deps |= {(i, k) for k in range(j)}
    deps.discard((i, j))
    return deps


def shard_name(i: int, j: int, cube: bool = False) -> str:
    """The file of shard {i, j} (``cube``: of its cubeful equities)."""
    return f"{'cube' if cube else 'shard'}-{i:02d}-{j:02d}.nfdb"


def _has_ml(p, T):
    return p == T


def _has_mw(q, T):
    return q == T


def shard_bytes(i: int, j: int, T: int = MAX) -> int:
    """Bytes a shard's solver holds (inputs it reads, its outputs, buffers)."""
    if j == 0:
        return 4 * n_class(i) * 3
    nj, ni = n_class(j), n_class(i)
    reads = sum(n_class(k) * nj * 2 * (1 + _has_ml(j, T) + _has_mw(k, T)) for k in range(i))
    out = ni * nj * 2 * (1 + _has_ml(i, T) + _has_mw(j, T)) * (1 if i == j else 3)
    prow = CHUNK_SHELLS * n_boards(j - 1) * 2 * 2 + sum(
        n_class(k) * ni * 2 * (1 + _has_ml(i, T)) for k in range(j))
    return reads + out + prow + (32 << 20)


def cube_shard_bytes(i: int, j: int) -> int:
    """Bytes a cubeful shard's solver holds (3 uint16 a pair: inputs, outputs, buffers)."""
    if j == 0:
        return 6 * n_class(i) * 2
    nj, ni = n_class(j), n_class(i)
    reads = sum(n_class(k) * nj * 6 for k in range(i))
    out = ni * nj * 6 * (1 if i == j else 3)
    prow = CHUNK_SHELLS * n_boards(j - 1) * 6 * 2
    if i != j:                                       # the diagonal reads them as rows
        prow += sum(n_class(k) * ni * 6 for k in range(j))
    return reads + out + prow + (32 << 20)


def parse_memory(text: str | int | float) -> int:
    """Bytes from ``"8GB"``, ``"500MB"``, ``"2GiB"`` or a number of bytes."""
    if isinstance(text, (int, float)) and not isinstance(text, bool):
        if not text > 0:
            raise ValueError(f"memory={text!r}: must be positive")
        n = text
    else:
        m = re.fullmatch(r"\s*([0-9]*\.?[0-9]+)\s*([kmgt]?)(i?)b?\s*", str(text), re.I)
        if not m:
            raise ValueError(f"memory={text!r}: expected a size such as 8GB or 500MB")
        unit = {"": 0, "k": 1, "m": 2, "g": 3, "t": 4}[m.group(2).lower()]
        n = float(m.group(1)) * (1024 if m.group(3) else 1000) ** unit
        if not n > 0:
            raise ValueError(f"memory={text!r}: must be positive")
    if not 1 <= n < math.inf:
        raise ValueError(f"memory={text!r}: must be a size of at least 1 byte, and finite")
    return int(n)


def default_store(max_checkers: int = MAX, rules: RulesLike = None) -> str:
    """The store folder of the table of ``max_checkers`` for ``rules``' points in the
    data folder (``NARDY_FAST_DATA``)."""
    oin, mars, _ = mars_points(rules)
    return os.path.join(data_dir(), f"bearoff-two-sided-complete-{max_checkers}"
                                    f"-oin{oin:g}-mars{mars:g}")


# ----------------------------------------------------------------------------------------
# one shard

_FINALS = {}


def _finals(n):
    with _lock:
        f = _FINALS.get(n)
        if f is None or f.max_checkers < n:
            f = _FINALS[n] = _tscomplete.Finals(n)
        return f


def _load_shard(store, i, j, verify=False, cube=False):
    path = os.path.join(store, shard_name(i, j, cube))
    meta, arrays = read_db(path, CUBE_SHARD_KIND if cube else SHARD_KIND, verify=verify)
    if (meta.get("shard") != [i, j]):
        raise DatabaseError(f"{path}: holds shard {meta.get('shard')}, expected [{i}, {j}]")
    return arrays


def _block(arrays, p, q):
    """(v, ml, mw) of block (p, q) from a shard's arrays."""
    return (arrays[f"v_{p}_{q}"], arrays.get(f"ml_{p}_{q}"), arrays.get(f"mw_{p}_{q}"))


def _block_arrays(p, q, v, ml, mw):
    out = {f"v_{p}_{q}": v}
    if ml is not None:
        out[f"ml_{p}_{q}"] = ml
    if mw is not None:
        out[f"mw_{p}_{q}"] = mw
    return out


def _edge_shard(i, T):
    """Shard {i, 0}: the side on roll has borne off everything (won) or its opponent has."""
    ni = n_class(i)
    full = np.full((ni, 1), 65535, np.uint16)
    # block (i, 0): v(a, 0) = 0 (lost; -lam, the bottom of the scale, with all 15 left)
    arrays = _block_arrays(i, 0, np.zeros((1, ni), np.uint16),
                           np.full((1, ni), 65535, np.uint16) if _has_ml(i, T) else None, None)
    if i:
        # block (0, i): v(0, a) = 1 (won; 1 + lam, the top, against all 15)
        arrays.update(_block_arrays(0, i, full, None, full.copy() if _has_mw(i, T) else None))
    return arrays


def solve_shard(store: str, i: int, j: int, lam: float, stop: threading.Event | None = None,
                tick=None, T: int = MAX, threads: int = 1) -> dict:
    """Compute shard {i, j} from the finished shards it reads in ``store`` on ``threads``
    threads and return its arrays (name -> uint16 array); ``tick(pairs)`` is called as it
    advances, ``stop`` (set) interrupts it (KeyboardInterrupt)."""
    if j == 0:
        return _edge_shard(i, T)
    ni, nj = n_class(i), n_class(j)
    cache = {}

    def blk(p, q):
        key = (max(p, q), min(p, q))
        if key == (i, j):
            raise AssertionError
        if key not in cache:
            cache[key] = _load_shard(store, *key)
        return _block(cache[key], p, q)

    rows = [blk(j, k) for k in range(i)]
    bv = np.zeros((ni, nj), np.uint16)
    bml = np.zeros((ni, nj), np.uint16) if _has_ml(j, T) else None
    bmw = np.zeros((ni, nj), np.uint16) if _has_mw(i, T) else None
    rows.append((bv, bml, bmw))
    out_a = (None, None, None)
    if i != j:
        out_a = (np.zeros((ni, nj), np.uint16),
                 np.zeros((ni, nj), np.uint16) if _has_ml(i, T) else None,
                 np.zeros((ni, nj), np.uint16) if _has_mw(j, T) else None)
    solver = _tscomplete.ShardSolver(i, j, lam, _finals(i), rows, out_a, T,
                                     threads if ni * nj >= SPMD_MIN_PAIRS else 1)
    lower = [blk(i, k) for k in range(j)]            # (n_k, n_i): v(a, g) at [g, a]
    for a0 in range(0, ni, CHUNK_SHELLS):
        if stop is not None and stop.is_set():
            raise KeyboardInterrupt
        a1 = min(ni, a0 + CHUNK_SHELLS)
        pv = np.ascontiguousarray(np.concatenate([b[0][:, a0:a1] for b in lower]).T)
        pml = (np.ascontiguousarray(np.concatenate([b[1][:, a0:a1] for b in lower]).T)
               if _has_ml(i, T) else None)
        solver.run(a0, a1, pv, pml)
        if tick is not None:
            tick(2 * (a1 - a0) * nj if i != j else a1 * a1 - a0 * a0)   # pairs solved
    arrays = _block_arrays(j, i, bv, bml, bmw)
    if i != j:
        av, aml, amw = out_a
        arrays.update(_block_arrays(i, j, np.ascontiguousarray(av.T),
                                    None if aml is None else np.ascontiguousarray(aml.T),
                                    None if amw is None else np.ascontiguousarray(amw.T)))
    return arrays


def _write_shard(store, i, j, max_checkers, lam, arrays, T):
    path = os.path.join(store, shard_name(i, j))
    write_db(path, SHARD_KIND, {"shard": [i, j], "max_checkers": max_checkers,
                                "all_checkers": T, "lambda": lam, "format": FORMAT}, arrays)
    return int(read_header_crc(path))         # the checksum the manifest records


def _shard_task(store, i, j, max_checkers, lam, T, *deps, cube=False):
    """One shard as a task (a dask worker): solve it from the store, write it, return
    its name and checksum (``cube``: the cubeful shard)."""
    if cube:
        arrays = solve_cube_shard(store, i, j)
        return shard_name(i, j, True), _write_cube_shard(store, i, j, max_checkers, arrays)
    arrays = solve_shard(store, i, j, lam, T=T)
    return shard_name(i, j), _write_shard(store, i, j, max_checkers, lam, arrays, T)


# ----------------------------------------------------------------------------------------
# one cubeful shard (``_tscomplete``'s cube section: the recursion and the layout)

def _cube_edge_shard(i):
    """Cubeful shard {i, 0}: the side on roll against an empty board has lost (-1), an
    empty board on roll has won (+1), whatever the cube."""
    arrays = {f"c_{i}_0": np.zeros((1, n_class(i), 3), np.uint16)}
    if i:
        arrays[f"c_0_{i}"] = np.full((n_class(i), 1, 3), 65535, np.uint16)
    return arrays


def solve_cube_shard(store: str, i: int, j: int, stop: threading.Event | None = None,
                     tick=None, threads: int = 1) -> dict:
    """Compute the cubeful shard {i, j} from the finished cubeful shards it reads in
    ``store`` on ``threads`` threads (as ``solve_shard``) and return its arrays."""
    if j == 0:
        return _cube_edge_shard(i)
    ni, nj = n_class(i), n_class(j)
    cache = {}

    def blk(p, q):
        key = (max(p, q), min(p, q))
        if key not in cache:
            cache[key] = _load_shard(store, *key, cube=True)
        return cache[key][f"c_{p}_{q}"]

    rows = [blk(j, k) for k in range(i)]
    bc = np.zeros((ni, nj, 3), np.uint16)
    rows.append(bc)
    out_a = np.zeros((ni, nj, 3), np.uint16) if i != j else None
    solver = _tscomplete.CubeShardSolver(i, j, _finals(i), rows, out_a,
                                         threads if ni * nj >= SPMD_MIN_PAIRS else 1)
    lower = [blk(i, k) for k in range(j)]            # (n_k, n_i, 3): R(a, g) at [g, a]
    for a0 in range(0, ni, CHUNK_SHELLS):
        if stop is not None and stop.is_set():
            raise KeyboardInterrupt
        a1 = min(ni, a0 + CHUNK_SHELLS)
        prow = np.ascontiguousarray(
            np.concatenate([b[:, a0:a1] for b in lower]).transpose(1, 0, 2))
        solver.run(a0, a1, prow)
        if tick is not None:
            tick(2 * (a1 - a0) * nj if i != j else a1 * a1 - a0 * a0)
    arrays = {f"c_{j}_{i}": bc}
    if i != j:
        arrays[f"c_{i}_{j}"] = np.ascontiguousarray(out_a.transpose(1, 0, 2))
    return arrays


def _write_cube_shard(store, i, j, max_checkers, arrays):
    path = os.path.join(store, shard_name(i, j, True))
    write_db(path, CUBE_SHARD_KIND, {"shard": [i, j], "max_checkers": max_checkers,
                                     "format": CUBE_FORMAT, "cube": CUBE_META}, arrays)
    return int(read_header_crc(path))


# ----------------------------------------------------------------------------------------
# manifest

def _manifest_path(store):
    return os.path.join(store, MANIFEST)


def _read_manifest(store):
    path = _manifest_path(store)
    try:
        with open(path) as f:
            man = json.load(f)
        if not isinstance(man, dict) or man.get("kind") != KIND:
            raise ValueError("not a manifest of a complete two-sided table")
        return man
    except FileNotFoundError:
        return None
    except NotADirectoryError:                  # a shard's path, say: nothing to remove
        what = "a file" if os.path.exists(store) else "a path through a file"
        raise DatabaseError(f"{store}: {what}, not the folder of a complete two-sided "
                            f"table (its shards and {MANIFEST})") from None
    except (OSError, ValueError) as e:
        raise DatabaseError(f"{path}: corrupt manifest ({e}); remove it and run the build "
                            f"again: the shards written are checked and kept") from None


def _write_manifest(store, man):
    text = json.dumps(man, indent=1, sort_keys=True).encode()

    def write(tmp):
        with open(tmp, "wb") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
    atomic_write(_manifest_path(store), write)


def _pairs(i, j):
    return n_class(i) * n_class(j) * (2 - (i == j))       # the diagonal: one block


# ----------------------------------------------------------------------------------------
# build

def build_complete(max_checkers: int = MAX, store: str | os.PathLike[str] | None = None,
                   rules: RulesLike = None, memory: int | str = DEFAULT_MEMORY,
                   threads: int | None = None, scheduler=None,
                   progress: bool | None = None, all_checkers: int = MAX,
                   cubeful: bool = False) -> CompleteTwoSided:
    """Build (or resume building) the complete two-sided table of 0 to ``max_checkers``
    checkers a side into ``store`` and return it loaded.

    The result does not depend on ``threads`` or the scheduler (bit-identical), nor on
    how often the build was interrupted.

    Parameters
    ----------
    max_checkers : int
        0..15 (15: the complete table, 54,264 squared pairs; time, memory and size in
        ``benchmarks/RESULTS.md``).
    store : str or os.PathLike, optional
        The folder of the shards and ``manifest.json``; default ``default_store``, in the
        data folder, where ``complete_two_sided()`` finds it.
    rules : Rules, dict or None
        Oin and home-mars points the play maximises (default classic).
    memory : int or str
        Bytes (or ``"8GB"``) a shard may hold; a build whose largest shard needs more, or
        (without ``scheduler``) more than the memory available now, is refused before it
        starts (``MemoryError``).
    threads : int or None
        Threads solving each shard together on this machine (None: the usable cores;
        shards of fewer than ``SPMD_MIN_PAIRS`` pairs run on one).
    scheduler : str or dask.distributed.Client, optional
        Run the shards as tasks on this cluster (its address, or a client); its workers
        must see ``store`` at the same path.  An address where no Dask scheduler answers
        is a ``ConnectionError`` naming it (``_utils.scheduler.connect``).
    progress : bool or None
        A bar with the time left (None: when standard error is a terminal).
    all_checkers : int
        The checkers of a side (15; fewer gives the same problem in miniature, for
        tests: mars is possible for a board of ``all_checkers``), at least
        ``max_checkers``.
    cubeful : bool
        Also build (or resume) the cubeful equities (centred cube, cube of the side on
        roll, cube of the opponent; geometric, no beaver) in shards of their own
        (``cube-II-JJ.nfdb``) beside the cubeless ones, after them; a finished cubeless
        store gains them without being rebuilt.
    """
    T = check_int(all_checkers, 1, MAX, "all_checkers")
    N = check_int(max_checkers, 0, T, "max_checkers")
    progress = show_progress(progress)
    oin, mars, lam = mars_points(rules)
    limit = parse_memory(memory)
    store = os.path.abspath(os.fspath(store) if store is not None
                            else default_store(N, rules))
    man = _read_manifest(store) if os.path.isdir(store) else None
    want = {"kind": KIND, "format": FORMAT, "max_checkers": N, "all_checkers": T,
            "lambda": lam,
            "points": {"oin": oin, "mars": mars}, "index": "colex-v1", "rules": RULES_META}
    new = man is None           # its manifest is written once the build is not refused
    if new:
        man = dict(want, shards=[list(s) for s in shard_order(N)], done={}, complete=False)
    else:
        keys = ("format", "max_checkers", "all_checkers", "lambda")
        differ = setting_differences({k: man.get(k) for k in keys},
                                     {k: want[k] for k in keys},
                                     recorded_as="there", wanted_as="in this build")
        if differ:
            raise ValueError(f"store={store!r}: holds a table of other settings ("
                             + "; ".join(differ) + "); use another store")
    order = shard_order(N)
    passes = [False, True] if cubeful else [False]
    done = {cube: _finished_shards(store, man, order, cube) for cube in passes}
    for cube in passes:
        need = {s: cube_shard_bytes(*s) if cube else shard_bytes(*s, T) for s in order}
        worst = max((s for s in order if s not in done[cube]), key=need.get, default=None)
        if worst is not None and need[worst] > limit:
            raise MemoryError(f"{'cubeful ' if cube else ''}shard {list(worst)} needs "
                              f"{gib(need[worst])}, more than memory={gib(limit)}")
        if worst is not None and scheduler is None:    # a cluster's workers: their own
            check_memory(need[worst], f"{'cubeful ' if cube else ''}shard {list(worst)}",
                         f"memory={gib(limit)} is the most a shard may hold, not memory "
                         "there is; free some memory, or run the shards on a Dask "
                         "cluster whose workers have it")
    if new:                     # a refused build leaves no store to block another
        os.makedirs(store, exist_ok=True)
        _write_manifest(store, man)
    for cube in passes:
        key = "cube_done" if cube else "done"
        total = sum(_pairs(*s) for s in order)
        what = "two-sided bear-off cubeful" if cube else "two-sided bear-off"
        bar = progress_bar(total=total, desc=f"{what} {N}x{N}", unit="pair",
                           unit_scale=True, initial=sum(_pairs(*s) for s in done[cube]),
                           progress=progress)
        t0 = time.perf_counter()

        def finished(s, crc, cube=cube, key=key):
            man[key][shard_name(*s, cube)] = crc
            done[cube].add(s)
            _write_manifest(store, man)

        try:
            if scheduler is not None:
                _run_dask(scheduler, store, order, done[cube], N, lam, T, finished, bar,
                          cube)
            else:
                _run_local(store, order, done[cube], N, lam, T, threads, finished, bar,
                           cube)
        except KeyboardInterrupt:           # say what is kept, and how to go on
            raise KeyboardInterrupt(
                f"{what} {N}x{N}: {len(done[cube])} of {len(order)} shards kept in {store};"
                " the same build resumes where it stopped") from None
        except MemoryError as e:            # more than estimated (numpy's bare message)
            raise MemoryError(
                f"{what} {N}x{N}: out of memory ({e}); {len(done[cube])} of {len(order)} "
                f"shards kept in {store}; the same build resumes where it stopped, with "
                "more memory available") from None
        finally:
            bar.close()
        man["cube_complete" if cube else "complete"] = True
        _write_manifest(store, man)
        if progress:
            print(f"{what} {N}x{N}: {total:,} pairs in {len(order)} shards, "
                  f"{time.perf_counter() - t0:.1f} s", file=sys.stderr)
    if store == default_store(N, rules):       # where the lookups look: found from now on
        with _lock:
            _LOADED.pop((data_dir(), oin, mars), None)
    return CompleteTwoSided.load(store, verify=False)     # each shard was checked as written


def _finished_shards(store, man, order, cube):
    """The shards of a pass already written, each checked (a damaged one: named, with how
    to go on); those written by a build killed before its manifest was updated are added
    to it, and those it lists that were removed are solved again (from the shards they
    read, to the same bytes)."""
    key = "cube_done" if cube else "done"
    man.setdefault(key, {})
    done = set()
    removed = False
    for i, j in order:
        name = shard_name(i, j, cube)
        path = os.path.join(store, name)
        if name in man[key] and not os.path.exists(path):     # removed: solve it again
            del man[key][name]
            man["cube_complete" if cube else "complete"] = False
            removed = True
        elif name in man[key] or os.path.exists(path):
            try:
                _load_shard(store, i, j, verify=True, cube=cube)
                if name in man[key] and int(read_header_crc(path)) != int(man[key][name]):
                    raise DatabaseError(f"{path}: checksum differs from the manifest's")
            except DatabaseError as e:
                raise DatabaseError(f"{e}; remove it and run the build again: it is "
                                    f"computed again from the shards it reads") from None
            if name not in man[key]:             # written, killed before the manifest
                man[key][name] = int(read_header_crc(path))
            done.add((i, j))
    if removed:                                  # not loaded as finished meanwhile
        _write_manifest(store, man)
    return done


def read_header_crc(path):
    """The CRC-32 a database file's header records."""
    return read_header(path)[0]["crc32"]


def _run_local(store, order, done, N, lam, T, threads, finished, bar, cube=False):
    """The shards in order, each on ``threads`` threads (every thread takes its share of
    each shell's boards, so the longest chain of dependent shards is no bound)."""
    threads = check_threads(threads)
    for s in order:
        if s in done:
            continue
        if cube:
            arrays = solve_cube_shard(store, *s, None, bar.update, threads)
            finished(s, _write_cube_shard(store, *s, N, arrays))
        else:
            arrays = solve_shard(store, *s, lam, None, bar.update, T, threads)
            finished(s, _write_shard(store, *s, N, lam, arrays, T))
        if s[1] == 0:                               # no ticks while solving
            bar.update(_pairs(*s))


def _run_dask(scheduler, store, order, done, N, lam, T, finished, bar, cube=False):
    from dask.distributed import Client, as_completed   # lazy: dask is optional, slow to import
    client = scheduler if isinstance(scheduler, Client) else connect(scheduler)
    try:
        futures = {}
        for s in order:
            if s in done:
                continue
            deps = [futures[d] for d in sorted(shard_deps(*s)) if d in futures]
            futures[s] = client.submit(_shard_task, store, *s, N, lam, T, *deps, pure=False,
                                       cube=cube,
                                       key=f"bearoff-{os.path.basename(store)}-"
                                           f"{shard_name(*s, cube)}-{time.time_ns()}")
        where = {f.key: s for s, f in futures.items()}
        for fut in as_completed(list(futures.values())):
            s = where[fut.key]
            name, crc = fut.result()
            finished(s, crc)
            bar.update(_pairs(*s))
    finally:
        if client is not scheduler:
            client.close()


# ----------------------------------------------------------------------------------------
# reader

class CompleteTwoSided:
    """The complete two-sided table, memory-mapped from its store (see the module
    docstring).  ``probabilities`` / ``p_win`` / ``equity`` take boards (6 or 24 counts,
    or stacks ``(n, 6)``) of at most ``max_checkers`` checkers."""

    kind = KIND

    def __init__(self, store, manifest, blocks, cube_blocks=None):
        self.store = store
        self.max_checkers = int(manifest["max_checkers"])
        self.lam = float(manifest["lambda"])
        self.all_checkers = int(manifest.get("all_checkers", MAX))
        pts = manifest["points"]
        self.points = (float(pts["oin"]), float(pts["mars"]))
        self._lookup = _tscomplete.Lookup(self.max_checkers, self.lam, blocks,
                                          self.all_checkers)
        self._cube = (None if cube_blocks is None
                      else _tscomplete.CubeLookup(self.max_checkers, cube_blocks))
        self._blocks = blocks
        self.whole = self           # without_mars: the table it is a part of
        self._no_mars = None

    def __repr__(self):
        part = "" if self.whole is self else ", without_mars"
        return (f"CompleteTwoSided(max_checkers={self.max_checkers}, "
                f"points={self.points}, store={self.store!r}{part})")

    def __reduce__(self):
        if self.whole is not self:
            return (_without_mars, (self.store,))
        return (type(self).load, (self.store, False))

    def without_mars(self) -> CompleteTwoSided:
        """This table for the races where no mars is possible: both sides have borne off
        a checker (fewer than ``all_checkers`` each).  They are played alike whatever a
        mars scores, so there its values serve rules of any points (``serving``); its
        ``max_checkers`` is then at most ``all_checkers - 1`` and ``whole`` is this table.
        The table itself when it has no such boards."""
        n = min(self.max_checkers, self.all_checkers - 1)
        if n == self.max_checkers:
            return self
        if self._no_mars is None:
            part = object.__new__(type(self))
            part.__dict__.update(self.__dict__)           # its whole is this table
            part.max_checkers = n
            part._lookup = _tscomplete.Lookup(n, self.lam, self._blocks, self.all_checkers)
            self._no_mars = part
        return self._no_mars

    @classmethod
    def load(cls, store: str | os.PathLike[str], verify: bool = True) -> CompleteTwoSided:
        """Memory-map a finished store; ``DatabaseError`` naming a missing, truncated or
        (``verify``: reads every shard once) altered shard, or an unfinished build."""
        store = os.path.abspath(os.fspath(store))
        man = _read_manifest(store)
        if man is None:
            raise DatabaseError(f"{store}: no {MANIFEST}: not a complete two-sided table")
        if not man.get("complete"):
            raise DatabaseError(f"{store}: the build is not finished ({len(man['done'])} "
                                f"of {len(man['shards'])} shards); run it again to resume")
        N = int(man["max_checkers"])
        blocks = {}
        for i, j in shard_order(N):
            path = os.path.join(store, shard_name(i, j))
            arrays = _load_shard(store, i, j, verify=verify)
            if verify and int(read_header_crc(path)) != int(man["done"][shard_name(i, j)]):
                raise DatabaseError(f"{path}: checksum differs from the manifest's")
            blocks[i, j] = _block(arrays, i, j)
            if i != j:
                blocks[j, i] = _block(arrays, j, i)
        cube_blocks = None
        if man.get("cube_complete"):
            cube_blocks = {}
            for i, j in shard_order(N):
                name = shard_name(i, j, True)
                arrays = _load_shard(store, i, j, verify=verify, cube=True)
                if verify and int(read_header_crc(os.path.join(store, name))) != \
                        int(man["cube_done"][name]):
                    raise DatabaseError(f"{os.path.join(store, name)}: checksum differs "
                                        f"from the manifest's")
                cube_blocks[i, j] = arrays[f"c_{i}_{j}"]
                cube_blocks[j, i] = arrays[f"c_{j}_{i}"]
        return cls(store, man, blocks, cube_blocks)

    @property
    def cubeful(self) -> bool:
        """True when the store holds the cubeful equities (``build_complete(...,
        cubeful=True)``)."""
        return self._cube is not None

    def cubeful_equities(self, on_roll6, opponent6):
        """The money equities per unit stake of the side on roll when it rolls now without
        doubling, for the centred cube, the cube it owns and the cube its opponent owns
        (geometric, no beaver, no mars: rule book section 7a): a float64 array (3,) for
        two boards, (n, 3) for stacks (the loop runs in C); ``ValueError`` when the
        store has none."""
        if self._cube is None:
            raise ValueError(f"{self.store}: no cubeful equities (build them with "
                             f"nardy-fast bearoff build --two-sided "
                             f"{self.max_checkers} --cubeful)")
        ia, ib, single = self._indices(on_roll6, opponent6)
        out = self._cube.query(ia, ib)
        return out[0] if single else out

    def cubeful_of_indices(self, ia, ib):
        """As ``cubeful_equities`` for board indices (intp arrays; see
        ``probabilities_of_indices``)."""
        if self._cube is None:
            raise ValueError(f"{self.store}: no cubeful equities")
        return self._cube.query(*self._board_indices(ia, ib))

    def decision(self, on_roll6, opponent6, stake: int = 1, owner: str = "centre") -> dict:
        """The exact cube decision of the side on roll (geometric cube, no beaver), as
        ``cuberace.CubefulRace.decision``: ``no_double``, ``double_take`` (twice the
        opponent-owned equity), ``double_pass`` (1), ``double_beaver`` (NaN), ``dead``
        and ``p_win`` (this table's cubeless values: the play maximising the rules'
        points, which with a side of 15 may differ from the play maximising P(win)), and
        ``equity`` after the best actions; per unit of the current stake (the values do
        not depend on it).  ``owner``: ``"centre"``, ``"mover"`` or ``"opponent"``."""
        if owner not in OWNERS:
            raise ValueError(f"owner={owner!r}: expected one of "
                             f"{', '.join(map(repr, OWNERS))}")
        check_int(stake, 1, 1 << 40, "stake")
        a, sa = as_board6(on_roll6, "on_roll6", self.max_checkers)
        b, sb = as_board6(opponent6, "opponent6", self.max_checkers)
        for name, x, single in (("on_roll6", a, sa), ("opponent6", b, sb)):
            if not single:
                raise ValueError(f"{name}: expected one board")
            if int(x.sum()) == 0:
                raise ValueError(f"{name}: no checkers left, the game is over")
        r = self.cubeful_equities(a[0], b[0])
        p = float(self.p_win(a[0], b[0]))
        k = OWNERS.index(owner)
        out = {"no_double": float(r[k]), "double_take": math.nan, "double_pass": 1.0,
               "double_beaver": math.nan, "dead": 2.0 * p - 1.0, "p_win": p}
        if owner == "opponent":
            out["double_pass"] = math.nan
            out["equity"] = out["no_double"]
            return out
        out["double_take"] = 2.0 * float(r[2])
        out["equity"] = max(out["no_double"], min(out["double_take"], 1.0))
        return out

    def matches(self, rules: RulesLike) -> bool:
        """True when ``rules`` weigh mars against oin as this table does."""
        return math.isclose(mars_points(rules)[2], self.lam, rel_tol=0, abs_tol=1e-12)

    def covers(self, na: int, nb: int) -> bool:
        """True when boards of ``na`` and ``nb`` checkers are in the table."""
        return max(na, nb) <= self.max_checkers

    def _indices(self, on_roll6, opponent6):
        a, sa = as_board6(on_roll6, "on_roll6", self.max_checkers)
        b, sb = as_board6(opponent6, "opponent6", self.max_checkers)
        if a.shape[0] != b.shape[0]:
            if sa:
                a = np.repeat(a, b.shape[0], axis=0)
            elif sb:
                b = np.repeat(b, a.shape[0], axis=0)
            else:
                raise ValueError(f"on_roll6 and opponent6: {a.shape[0]} and {b.shape[0]} "
                                 f"boards")
        check_not_both_off(a, b, sa and sb)
        ia = np.ascontiguousarray(_board6.indices_of(a), dtype=np.intp)
        ib = np.ascontiguousarray(_board6.indices_of(b), dtype=np.intp)
        return ia, ib, sa and sb

    def probabilities(self, on_roll6, opponent6):
        """(P(win), P(mars win), P(mars loss)) of the side on roll: floats for two boards,
        float64 arrays (n,) for stacks (the loop runs in C)."""
        ia, ib, single = self._indices(on_roll6, opponent6)
        w, mw, ml = self._lookup.query(ia, ib)
        if single:
            return float(w[0]), float(mw[0]), float(ml[0])
        return w, mw, ml

    def probabilities_of_indices(self, ia, ib):
        """As ``probabilities`` for board indices (intp arrays, ``bearoff.board_of``'s
        numbering: 0 .. the boards of ``max_checkers`` checkers; another index is a
        ``ValueError`` naming it, as the C loop would read memory there)."""
        return self._lookup.query(*self._board_indices(ia, ib))

    def _board_indices(self, ia, ib):
        """``ia``, ``ib`` as contiguous intp arrays, each index checked to be a board of
        this table (its boards are not checked further: no game is over, say)."""
        n = n_boards(self.max_checkers)
        out = []
        for name, x in (("ia", ia), ("ib", ib)):
            a = np.ascontiguousarray(x, np.intp)
            bad = np.flatnonzero((a < 0) | (a >= n))
            if bad.size:
                k = int(bad[0])
                raise ValueError(f"{name}[{k}] = {int(a.flat[k])}: not a board of at most "
                                 f"{self.max_checkers} checkers (indices 0..{n - 1})")
            out.append(a)
        return out

    def p_win(self, on_roll6, opponent6):
        """P(the side on roll wins) (see ``probabilities``)."""
        return self.probabilities(on_roll6, opponent6)[0]

    def value(self, on_roll6, opponent6):
        """The stored value v = P(win) + lam (P(mars win) - P(mars loss)) (the side on
        roll's expected points in oin points are 2 v - 1)."""
        ia, ib, single = self._indices(on_roll6, opponent6)
        v = self._lookup.values(ia, ib)
        return float(v[0]) if single else v


def serving(table: CompleteTwoSided | None, rules: RulesLike) -> CompleteTwoSided | None:
    """``table`` as it values races under ``rules``: all of it when it was built for their
    points (``matches``: the same ratio of mars to oin points), else only the races where
    no mars is possible (``without_mars``: both sides have borne off a checker), which are
    played alike whatever a mars scores; a race where a mars is possible needs a table of
    the rules' own points.  None for None.  The one place that rule is applied (the race
    lookups of ``race``, the evaluator and rollout truncation)."""
    if table is None:
        return None
    whole = table.whole
    return whole if whole.matches(rules) else whole.without_mars()


def _without_mars(store):
    """The table of ``store`` without its mars (``without_mars``), as a worker unpickles
    it."""
    return CompleteTwoSided.load(store, verify=False).without_mars()


def complete_two_sided(rules: RulesLike = None) -> CompleteTwoSided | None:
    """The largest complete table for ``rules``' points in the data folder
    (``nardy-fast bearoff build --two-sided 15`` builds the full one there), else None;
    loaded once per process (and again after ``build_complete`` builds there) and never
    built here (loading checks the shards' sizes; the build checked their checksums)."""
    oin, mars, _ = mars_points(rules)
    folder = data_dir()
    key = (folder, oin, mars)
    with _lock:
        if key in _LOADED:
            return _LOADED[key]
    table = None
    for n in range(MAX, -1, -1):
        store = default_store(n, rules)
        try:
            man = _read_manifest(store) if os.path.isdir(store) else None
            if (man is not None and man.get("complete")
                    and man.get("all_checkers", MAX) == MAX):
                table = CompleteTwoSided.load(store, verify=False)
                break
        except DatabaseError as e:          # a query never builds: say it, use the others
            warn_user(f"not using the damaged complete two-sided table ({e}); remove the "
                      f"damaged file and run nardy-fast bearoff build --two-sided {n} "
                      f"--store {store} again: it computes what is missing", RuntimeWarning)
    with _lock:
        _LOADED[key] = table
    return table


_LOADED = {}
