"""Render speed: status sheet pages/s in one process, the start-up time of `sheetgen --help`,
the card decks (benchmarks/cards.py) and a full `sheetgen build` (benchmarks/build.py).

Run: python benchmarks/render.py
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import time
from pathlib import Path

from sheetgen.draw import pdf_bytes
from sheetgen.kinds import Options, load, render_pages


def pages_per_second(layout: str, n: int = 50) -> float:
    loaded = load(layout)
    opts = Options(per_page=1)
    pdf_bytes(render_pages(loaded, opts), "warm-up")
    t0 = time.perf_counter()
    pages = 0
    for _ in range(n):
        ps = render_pages(loaded, opts)
        pdf_bytes(ps, loaded.doc.title)
        pages += len(ps)
    return pages / (time.perf_counter() - t0)


def help_seconds(repeat: int = 5) -> float:
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        subprocess.run([sys.executable, "-m", "sheetgen", "--help"], capture_output=True, check=True)
        best = min(best, time.perf_counter() - t0)
    return best


def weasyprint_imported_by_help() -> bool:
    code = "import sys; from sheetgen.cli import app; print('weasyprint' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return out.stdout.strip() == "True"


def main() -> None:
    print(f"gingerbread-status, 1 sheet a page, 50 renders: {pages_per_second('gingerbread-status'):.1f} pages/s")
    print(f"sheetgen --help: {help_seconds():.3f} s (best of 5)")
    print(f"weasyprint imported for --help: {weasyprint_imported_by_help()}")
    for extra in ("cards.py", "build.py"):  # decks, then a full `sheetgen build`
        subprocess.run([sys.executable, str(Path(__file__).with_name(extra))], check=True)


if __name__ == "__main__":
    with tempfile.TemporaryDirectory():
        main()
