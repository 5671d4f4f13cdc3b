"""Validator speed: games/s of each game's rules engines, per engine and policy, on one core; the
fast engine's speed-up over the reference engine; and `run()` end to end on 1 and on all cores.

Every layout whose kind has rules is measured (the first sheet of a multi-sheet layout); layouts
with the same kind and content as one already measured (e.g. the Letter version) are skipped.

Run: python benchmarks/validate.py [--games N] [--ref-games N] [--layout NAME ...]
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np

from sheetgen.kinds import known_layouts, load
from sheetgen.validate.engine import BATCH, POLICIES, Rules
from sheetgen.validate.run import rules_of, run, sheets_of


CLOCK = time.perf_counter  # --cpu: time.process_time (this process's CPU time, for a shared machine)


def games_per_second(rules: Rules, doc, engine: str, policy: str, games: int, repeat: int) -> float:
    """Best of `repeat` calls of one engine on `games` games (input generation not counted)."""
    n_el = len(rules.element_ids(doc))
    dice, u, targets = rules.inputs(0, games, 0, policy, n_el)
    fn = getattr(rules, engine)
    best = float("inf")
    for _ in range(repeat):
        t0 = CLOCK()
        fn(doc, dice, u, policy, targets)
        best = min(best, CLOCK() - t0)
    return games / best


def measured_layouts(names: list[str] | None):
    seen = set()
    for path in known_layouts():
        if names and path.stem not in names:
            continue
        try:
            loaded = load(path)
        except Exception as exc:  # a layout being written by someone else: say so, go on
            print(f"{path.stem}: cannot load ({exc})")
            continue
        if not loaded.kind.rules:
            continue
        key = (loaded.kind.name, loaded.doc.content.model_dump_json())
        if key in seen:
            continue
        seen.add(key)
        yield loaded


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=BATCH, help="games per fast-engine call (default: one batch)")
    ap.add_argument("--ref-games", type=int, default=300, help="games per reference-engine call")
    ap.add_argument("--run-games", type=int, default=50_000, help="games per policy for run()")
    ap.add_argument("--layout", nargs="*", help="only these layouts")
    ap.add_argument("--cpu", action="store_true", help="count CPU time, not wall time (a loaded machine)")
    args = ap.parse_args()
    global CLOCK
    CLOCK = time.process_time if args.cpu else time.perf_counter
    print(f"one core, best of 3 engine calls (inputs not counted); {os.cpu_count()} cores here, load average "
          f"{os.getloadavg()[0]:.1f}")
    print(f"{'layout':<18} {'engine':<9} {'policy':<7} {'games':>7} {'games/s':>11}")
    for loaded in measured_layouts(args.layout):
        try:
            rules = rules_of(loaded)
        except Exception as exc:
            print(f"{loaded.name}: no rules engine yet ({exc})")
            continue
        _, _, doc = sheets_of(loaded, rules)[0]
        speed = {}
        for engine, games, repeat in (("fast", args.games, 3), ("reference", args.ref_games, 1)):
            if engine == "fast":  # warm up (first-call imports and caches)
                games_per_second(rules, doc, engine, "greedy", 64, 1)
            for policy in POLICIES:
                try:
                    speed[engine, policy] = games_per_second(rules, doc, engine, policy, games, repeat)
                except Exception as exc:
                    print(f"{loaded.name:<18} {engine:<9} {policy:<7} failed: {type(exc).__name__}: {exc}")
                    continue
                print(f"{loaded.name:<18} {engine:<9} {policy:<7} {games:>7} {speed[engine, policy]:>11,.0f}")
        ups = [f"{p} {speed['fast', p] / speed['reference', p]:,.0f}x" for p in POLICIES
               if ("fast", p) in speed and ("reference", p) in speed]
        print(f"{loaded.name:<18} fast / reference speed-up: {', '.join(ups)}")
        for workers in sorted({1, os.cpu_count() or 1}):
            t0 = time.perf_counter()
            report = run(loaded, args.run_games, 0, POLICIES, "fast", workers, sheet=1 if rules.sheets else None)
            rate = args.run_games * len(POLICIES) / (time.perf_counter() - t0)
            print(f"{loaded.name:<18} run(): {args.run_games:,} games x {len(POLICIES)} policies, "
                  f"{workers} worker{'s' if workers > 1 else ''}: {rate:,.0f} games/s "
                  f"(completable: {report.completable}, greedy mean {report.score_mean('greedy'):.1f})")
        print()


if __name__ == "__main__":
    np.seterr(all="ignore")
    main()
