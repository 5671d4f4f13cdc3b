"""Games per second of the Tricky Treats rules engines, per engine and policy (one core).

    python benchmarks/validate_tricky_treats.py [--games N] [--ref-games N] [--batch N] [--big N]
                                                [--repeats N] [--cold]

Prints one line per policy: the reference and fast engines' rates and the fast/reference ratio.
The fast engine is timed on `--games` games played in calls of `--batch` games (the validator's
batch is 8192), and also in calls of `--big` games (0: not). The best of three runs is kept.
Times are CPU seconds of this process (`time.process_time`), so other processes sharing the
machine do not count against the engine; wall-clock rates are printed too. For one core:
`taskset -c 0 python benchmarks/validate_tricky_treats.py`. On a loaded machine raise --repeats
(the best run is the one least disturbed). --cold also prints the CPU seconds of the fast engine's
first call in a fresh process with an empty numba cache: the compile every cold test run pays.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time

import numpy as np

from sheetgen.games.tricky_treats import rules as R
from sheetgen.kinds import load
from sheetgen.validate.engine import BATCH, POLICIES


def rate(engine, doc, games: int, batch: int, policy: str, repeats: int) -> float:
    n = len(R.element_ids(doc))
    parts = [R.RULES.inputs(i, min(batch, games - i * batch), 1, policy, n)
             for i in range((games + batch - 1) // batch)]
    dice, u, targets = parts[0]
    engine(doc, dice[:2], u[:2], policy, targets[:2])  # warm up: first-call imports and cache loads
    best = wall = float("inf")
    for _ in range(repeats):
        t0, w0 = time.process_time(), time.perf_counter()
        for dice, u, targets in parts:
            engine(doc, dice, u, policy, targets)
        best = min(best, time.process_time() - t0)
        wall = min(wall, time.perf_counter() - w0)
    return games / best, games / wall


COLD = """
import time
from sheetgen.games.tricky_treats import rules as R
from sheetgen.kinds import load
doc = load("tricky-treats").doc
dice, u, targets = R.RULES.inputs(0, 10, 0, "greedy", 10)
t0 = time.process_time()
R.RULES.fast(doc, dice, u, "greedy", targets)
print(time.process_time() - t0)
"""


def cold_compile() -> float:
    """CPU seconds of the fast engine's first call in a new process with an empty numba cache."""
    with tempfile.TemporaryDirectory() as cache:
        out = subprocess.run([sys.executable, "-c", COLD], env={**os.environ, "NUMBA_CACHE_DIR": cache},
                             capture_output=True, text=True, check=True).stdout
    return float(out.split()[-1])


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=4 * BATCH)
    ap.add_argument("--ref-games", type=int, default=1000)
    ap.add_argument("--batch", type=int, default=BATCH)
    ap.add_argument("--big", type=int, default=4 * BATCH)
    ap.add_argument("--repeats", type=int, default=3, help="runs of the fast engine, the best kept")
    ap.add_argument("--cold", action="store_true", help="also time a cold compile (empty numba cache)")
    args = ap.parse_args()
    if args.cold:
        print(f"cold compile (first fast call, empty numba cache): {cold_compile():.1f} CPU s")
    doc = load("tricky-treats").doc
    print(f"Tricky Treats, one process, {os.cpu_count()} cpus, load average {os.getloadavg()[0]:.1f}")
    print(f"fast engine in calls of {args.batch} games; games/s per CPU second (wall clock)")
    for policy in POLICIES:
        ref, ref_wall = rate(R.RULES.reference, doc, args.ref_games, args.ref_games, policy, 1)
        fast, fast_wall = rate(R.RULES.fast, doc, args.games, args.batch, policy, args.repeats)
        line = (f"{policy:>7}: reference {ref:>7,.0f} ({ref_wall:>7,.0f})   fast {fast:>9,.0f} ({fast_wall:>9,.0f})"
                f"   fast/reference {fast / ref:>5.0f}x")
        if args.big:
            big, _ = rate(R.RULES.fast, doc, max(args.games, args.big), args.big, policy, args.repeats)
            line += f"   fast in calls of {args.big}: {big:>9,.0f} ({big / ref:.0f}x)"
        print(line)


if __name__ == "__main__":
    np.seterr(all="ignore")
    main()
