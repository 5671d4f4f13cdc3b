"""Games per second of the Haunt the Block rules engines, per engine and policy (one core).

    python benchmarks/validate_haunt_the_block.py [--games N] [--ref-games N] [--batch N]

One line per policy: reference and fast games/s and their ratio. The fast engine plays `--games`
games in calls of `--batch` (the validator's batch, 8192); the payment tables it builds once per sheet
is built before timing (the validator builds it once per worker) and its cost is printed apart.
Best of three runs for the fast engine, one for the reference.
"""

from __future__ import annotations

import argparse
import os
import time

from sheetgen.games.haunt_the_block import fast as F
from sheetgen.games.haunt_the_block.rules import RULES
from sheetgen.kinds import load
from sheetgen.validate.engine import BATCH, POLICIES


def rate(engine, doc, games: int, batch: int, policy: str, repeats: int) -> float:
    n = len(RULES.element_ids(doc))
    parts = [RULES.inputs(i, min(batch, games - i * batch), 1, policy, n)
             for i in range((games + batch - 1) // batch)]
    best = float("inf")
    for _ in range(repeats):
        t0 = time.perf_counter()
        for dice, u, targets in parts:
            engine(doc, dice, u, policy, targets)
        best = min(best, time.perf_counter() - t0)
    return games / best


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=4 * BATCH)
    ap.add_argument("--ref-games", type=int, default=600)
    ap.add_argument("--batch", type=int, default=BATCH)
    args = ap.parse_args()
    doc = load("haunt-the-block").doc
    print(f"Haunt the Block, one process, {os.cpu_count()} cpus, load average {os.getloadavg()[0]:.1f}")
    t0 = time.perf_counter()
    F.sheet(doc.model_dump_json())
    print(f"payment tables (once per sheet and process): {time.perf_counter() - t0:.2f} s")
    for policy in POLICIES:
        ref = rate(RULES.reference, doc, args.ref_games, args.ref_games, policy, 1)
        fast = rate(RULES.fast, doc, args.games, args.batch, policy, 3)
        print(f"{policy:>7}: reference {ref:>9,.0f} games/s   fast {fast:>11,.0f} games/s   "
              f"fast/reference {fast / ref:>6.0f}x")


if __name__ == "__main__":
    main()
