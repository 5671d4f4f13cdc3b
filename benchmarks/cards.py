"""Card rendering speed: the 44-card Special Treat deck with backs, in one process.

Prints the time of a cold first render (fonts registered, modules imported, text fitted for the
first time), then the best of several warm renders (load + compose + impose + PDF bytes), for the
decks and tokens. Goal for the 44-card deck with backs: at most 0.25 s.

Run: python benchmarks/cards.py [--repeat N]
"""

from __future__ import annotations

import argparse
import time

T0 = time.perf_counter()
from sheetgen.draw import pdf_bytes  # noqa: E402
from sheetgen.kinds import Options, load, render_pages  # noqa: E402

GOAL = 0.25


def once(layout: str, opts: Options) -> tuple[float, int, int]:
    t0 = time.perf_counter()
    loaded = load(layout, opts)
    pages = render_pages(loaded, opts)
    data = pdf_bytes(pages, loaded.doc.title)
    return time.perf_counter() - t0, len(pages), len(data)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=10)
    args = ap.parse_args()
    opts = Options()
    imports = time.perf_counter() - T0
    cold, pages, size = once("special-treat-cards", opts)
    print(f"import sheetgen: {imports:.3f} s")
    print(f"special-treat-cards (44 cards + backs, {pages} pages, {size / 1024:.0f} KiB): "
          f"first render {cold:.3f} s")
    for layout in ("special-treat-cards", "dash-n-bash", "special-treat-tokens"):
        best = min(once(layout, opts)[0] for _ in range(args.repeat))
        note = ""
        if layout == "special-treat-cards":
            note = f"  (goal <= {GOAL} s: {'met' if best <= GOAL else 'NOT met'})"
        print(f"{layout}: best of {args.repeat} renders {best:.3f} s{note}")


if __name__ == "__main__":
    main()
