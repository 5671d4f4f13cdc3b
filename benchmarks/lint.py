"""Time `lint.check` (run by every render) on the shipped sheets and a deck: ms per call and per page.

    python benchmarks/lint.py [runs]
"""

from __future__ import annotations

import sys
import time

from sheetgen import lint
from sheetgen.errors import SheetgenError
from sheetgen.kinds import Options, load, render_pages

NAMES = ["tricky-treats", "haunt-the-block", "boogaloo", "dash-n-bash", "paper-dice",
         "run-for-your-life-mat"]


def main(runs: int = 20) -> None:
    for name in NAMES:
        pages = render_pages(load(name), Options())
        try:
            lint.check(pages)
        except SheetgenError as err:  # a layout that fails still gets timed
            print(f"  ({name}: {str(err)[:70]})")
        t0 = time.perf_counter()
        for _ in range(runs):
            try:
                lint.check(pages)
            except SheetgenError:
                pass
        ms = (time.perf_counter() - t0) / runs * 1000
        print(f"{name:24s} {len(pages):3d} pages  {ms:8.2f} ms/check  {ms / len(pages):7.2f} ms/page")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 20)
