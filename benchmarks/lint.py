"""Time the lint that every render runs (`lint.check`: each page's text rules and touches) on the
shipped sheets, a deck, the dice nets and the mat tiles: wall and CPU ms per page. Every page is
linted (a page with a problem too, so a checkout whose layouts fail is still comparable).

    PYTHONPATH=. python benchmarks/lint.py [runs]
"""

from __future__ import annotations

import sys
import time

from sheetgen import lint
from sheetgen.kinds import Options, load, render_pages

NAMES = ["tricky-treats", "haunt-the-block", "boogaloo", "dash-n-bash", "paper-dice",
         "run-for-your-life-mat"]


def main(runs: int = 20) -> None:
    for name in NAMES:
        pages = render_pages(load(name), Options())
        found = [p for page in pages for p in lint.problems(page, text_only=True)]  # warm caches
        t0, c0 = time.perf_counter(), time.process_time()
        for _ in range(runs):
            for page in pages:
                lint.problems(page, text_only=True)
        wall = (time.perf_counter() - t0) / runs / len(pages) * 1000
        cpu = (time.process_time() - c0) / runs / len(pages) * 1000
        print(f"{name:24s} {len(pages):3d} pages  {wall:7.2f} ms/page wall  {cpu:7.2f} ms/page CPU"
              f"  ({len(found)} problems)")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 20)
