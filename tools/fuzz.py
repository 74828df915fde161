"""Long fuzzing run of every parser and loader (the targets of ``tests/fuzz_targets.py``).

Each target gets ``--examples`` hypothesis inputs (random ones and mutations of valid
ones); every input must work or raise the documented error naming the field, turn or file.
Prints one line per target: inputs tried, how they ended (ok / error / ...), seconds.  A
failing input stops the run with hypothesis's minimal example.

    python tools/fuzz.py --examples 20000 [--seed 1] [--only db_file]
"""
from __future__ import annotations

import argparse
import collections
import os
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests"))

os.environ.setdefault("NARDY_FAST_DATA", tempfile.mkdtemp(prefix="nardy_fuzz_data_"))

from hypothesis import HealthCheck, given, seed, settings  # noqa: E402

from fuzz_targets import TARGETS  # noqa: E402


def run(name, examples, rng_seed):
    strategy, check = TARGETS[name]
    counts = collections.Counter()

    @seed(rng_seed)
    @settings(max_examples=examples, deadline=None, database=None, derandomize=False,
              suppress_health_check=list(HealthCheck))
    @given(strategy())
    def target(x):
        counts[check(x)] += 1

    t0 = time.perf_counter()
    target()
    return counts, time.perf_counter() - t0


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--examples", type=int, default=20000, help="inputs per target")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--only", nargs="*", default=None, choices=sorted(TARGETS))
    args = ap.parse_args(argv)
    for name in args.only or sorted(TARGETS):
        counts, secs = run(name, args.examples, args.seed)
        total = sum(counts.values())
        parts = ", ".join(f"{k} {v}" for k, v in sorted(counts.items()))
        print(f"{name:12s} {total:7d} inputs ({parts}) in {secs:.0f} s", flush=True)


if __name__ == "__main__":
    main()
