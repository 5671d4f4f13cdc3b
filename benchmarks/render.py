"""Render speed: pages/s in one process for the roll-and-write sheets and the status sheet
(wall clock, and per CPU second, which other work on the machine disturbs less), the start-up time of `sheetgen --help`,
the card decks (benchmarks/cards.py) and a full `sheetgen build` (benchmarks/build.py).

Run: python benchmarks/render.py
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # this checkout's sheetgen
from sheetgen.draw import pdf_bytes  # noqa: E402
from sheetgen.kinds import Options, load, render_pages  # noqa: E402


def pages_per_second(layout: str, n: int = 50) -> tuple[float, float, float, float]:
    """(pages per wall-clock second, pages per CPU second, CPU ms a page in `render_pages`
    (compose and lint), CPU ms a page in the drawer) composing and drawing `layout` n times."""
    loaded = load(layout)
    opts = Options(per_page=1)
    pdf_bytes(render_pages(loaded, opts), "warm-up")
    t0, c0 = time.perf_counter(), time.process_time()
    pages, composing = 0, 0.0
    for _ in range(n):
        c1 = time.process_time()
        ps = render_pages(loaded, opts)
        composing += time.process_time() - c1
        pdf_bytes(ps, loaded.doc.title)
        pages += len(ps)
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    return pages / wall, pages / cpu, composing / pages * 1000, (cpu - composing) / pages * 1000


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
    from reportlab.lib import rl_accel

    accel = "C" if type(rl_accel.fp_str).__name__ == "builtin_function_or_method" else "pure Python"
    print(f"reportlab accelerator: {accel}; machine load {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    for layout in ("tricky-treats", "haunt-the-block", "boogaloo", "gingerbread-status"):
        wall, cpu, composing, drawing = pages_per_second(layout)
        print(f"{layout}, 1 sheet a page, 50 renders: {wall:.1f} pages/s ({cpu:.1f} per CPU second; "
              f"CPU ms a page: {composing:.1f} compose and lint, {drawing:.1f} drawer)")
    print(f"sheetgen --help: {help_seconds():.3f} s (best of 5)")
    print(f"weasyprint imported for --help: {weasyprint_imported_by_help()}")
    for extra in ("cards.py", "build.py"):  # decks, then a full `sheetgen build`
        subprocess.run([sys.executable, str(Path(__file__).with_name(extra))], check=True,
                       env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parent.parent)})


if __name__ == "__main__":
    with tempfile.TemporaryDirectory():
        main()
