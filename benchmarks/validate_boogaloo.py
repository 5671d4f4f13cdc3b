"""Games per second of Boogaloo's reference and fast engines, per policy, on one core.

    python benchmarks/validate_boogaloo.py [--games N] [--ref-games N] [--sheet N]

Both engines play the same seeded inputs on one sheet; the fast engine plays one batch of
`--games` games (default 8192, the validator's batch size), the reference `--ref-games`. Times are
CPU seconds of this process (time.process_time), best of `--repeat` runs, so other work on the
machine disturbs the figures less. The script also checks that the two engines agree on the games
both played.
"""

from __future__ import annotations

import argparse
import time

from sheetgen.games.boogaloo.rules import RULES
from sheetgen.kinds import load


def timed(engine, doc, inputs, policy):
    t0 = time.process_time()
    batch = engine(doc, *inputs[:2], policy, inputs[2])
    return time.process_time() - t0, batch


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=8192)
    ap.add_argument("--ref-games", type=int, default=300)
    ap.add_argument("--sheet", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    label, doc = RULES.sheets(load("boogaloo").doc)[args.sheet - 1]
    n_el = len(RULES.element_ids(doc))
    print(f"Boogaloo sheet {args.sheet} ({label}), {n_el} elements; games/s on one core")
    print(f"{'policy':<8} {'reference':>11} {'fast':>11} {'speed-up':>9}  mean score  agree")
    for policy in ("random", "greedy", "cover"):
        big = RULES.inputs(0, args.games, 1, policy, n_el)
        few = RULES.inputs(0, args.ref_games, 1, policy, n_el)
        ref = fast = float("inf")
        for _ in range(args.repeat):  # interleaved, so a busy spell slows both alike
            sec, rb = timed(RULES.reference, doc, few, policy)
            ref = min(ref, sec)
            sec, fb = timed(RULES.fast, doc, big, policy)
            fast = min(fast, sec)
        ref, fast = args.ref_games / ref, args.games / fast
        _, small = timed(RULES.fast, doc, few, policy)
        print(f"{policy:<8} {ref:>11,.0f} {fast:>11,.0f} {fast / ref:>8.0f}x  {fb.score.mean():>10.1f}  "
              f"{rb.same_as(small)}")


if __name__ == "__main__":
    main()
