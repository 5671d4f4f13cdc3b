"""The ladder's top rung: the lookahead policy's mean score against greedy's on each shipped sheet,
on the same dice (paired games), with a 95 % bound on the difference, and its cost per game.

Run: python benchmarks/lookahead.py [--games N] [--layout NAME ...]
"""

from __future__ import annotations

import argparse
import time

from sheetgen.kinds import load
from sheetgen.validate.report import bound95
from sheetgen.validate.run import rules_of, sheets_of

SHIPPED = ("tricky-treats", "boogaloo", "haunt-the-block")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=30, help="games per sheet (Haunt the Block plays half)")
    ap.add_argument("--layout", nargs="*", default=SHIPPED)
    args = ap.parse_args()
    print(f"{'sheet':<28} {'games':>5} {'greedy':>7} {'lookahead':>9} {'gain':>6} {'95% bound':>9} {'s/game':>7}")
    for name in args.layout:
        loaded = load(name)
        rules = rules_of(loaded)
        n = args.games // 2 if name == "haunt-the-block" else args.games
        for number, label, doc in sheets_of(loaded, rules):
            ids = rules.element_ids(doc)
            dice, u, targets = rules.inputs(0, n, 9, "greedy", len(ids))
            greedy = rules.reference(doc, dice, u, "greedy", targets).score
            t0 = time.perf_counter()
            ahead = rules.reference(doc, dice, u, "lookahead", targets).score
            sec = (time.perf_counter() - t0) / n
            gain = ahead - greedy
            bound = bound95(gain)
            title = f"{name}" + (f" {number} ({label})" if label else "")
            print(f"{title:<28} {n:>5} {greedy.mean():>7.1f} {ahead.mean():>9.1f} {gain.mean():>+6.1f} "
                  f"{'+-' + format(bound, '.1f'):>9} {sec:>7.2f}", flush=True)


if __name__ == "__main__":
    main()
