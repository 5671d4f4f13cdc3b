"""Report speed: CPU seconds of the mechanic check (each mechanic switched off, paired dice, fast
engines) and of the heatmap pages, per shipped roll-and-write layout, on one process.

Run: PYTHONPATH=. taskset -c 0 python benchmarks/report.py [--layout NAME ...]
"""

from __future__ import annotations

import argparse
import time

from sheetgen.kinds import load
from sheetgen.validate.engine import POLICIES
from sheetgen.validate.heatmap import pages
from sheetgen.validate.mechanics import GAMES, sheet_mechanics
from sheetgen.validate.run import rules_of, run, sheets_of


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--layout", nargs="*", default=["tricky-treats", "haunt-the-block", "boogaloo"])
    args = ap.parse_args()
    print(f"CPU seconds (time.process_time), {GAMES:,} games per player and mechanic, players {', '.join(POLICIES)}")
    for name in args.layout:
        loaded = load(name)
        rules = rules_of(loaded)
        sheets = sheets_of(loaded, rules)
        sheet_mechanics(loaded.kind.rules, rules, sheets[0][2], 0, 64)  # warm up: compile, caches
        t0 = time.process_time()
        rows = [sheet_mechanics(loaded.kind.rules, rules, doc, 0) or [] for _, _, doc in sheets]
        check = time.process_time() - t0
        played = sum(r["played"] for sheet in rows for r in sheet)
        report = run(loaded, 2000, 0, POLICIES, "fast", 1)
        t0 = time.process_time()
        pages(loaded, report)
        heat = time.process_time() - t0
        print(f"{name:<16} {len(sheets)} sheet(s): mechanic check {check:5.2f} s ({played} of "
              f"{sum(map(len, rows))} mechanics played), heatmap pages {heat:4.2f} s")


if __name__ == "__main__":
    main()
