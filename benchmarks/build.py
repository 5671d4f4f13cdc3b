"""Time a full `sheetgen build` (every component PDF and every kit, A4 and Letter) and print the
time, the page count and pages per second. Run: python benchmarks/build.py [--runs N]"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from pypdf import PdfReader

ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--runs", type=int, default=1)
    runs = ap.parse_args().runs
    for run in range(1, runs + 1):
        with tempfile.TemporaryDirectory() as out:
            t0 = time.perf_counter()
            subprocess.run([sys.executable, "-m", "sheetgen", "build", "--out", out], cwd=ROOT,
                           check=True, stdout=subprocess.DEVNULL)
            seconds = time.perf_counter() - t0
            files = sorted(Path(out).glob("*.pdf"))
            kits = [f for f in files if "-kit" in f.stem]
            pages = sum(len(PdfReader(f).pages) for f in files)
            kit_pages = sum(len(PdfReader(f).pages) for f in kits)
        print(f"run {run}: sheetgen build wrote {len(files)} PDFs ({len(kits)} kits), {pages} pages "
              f"({kit_pages} in kits) in {seconds:.1f} s = {pages / seconds:.1f} pages/s")


if __name__ == "__main__":
    main()
