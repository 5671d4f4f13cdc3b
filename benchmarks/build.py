"""Time `sheetgen build` (every component PDF and every kit, A4 and Letter): from scratch in
parallel (all cores) and in one process, a rebuild with nothing changed, and a rebuild after one
layout changed (a colour in a copy of tricky-treats.yaml). Prints time, CPU time, pages, pages/s,
the outputs whose jobs took the most CPU (drawing; a kit's front layout and merge), what each
rebuild made, and whether the parallel, serial and incremental outputs are byte-identical (every
PDF compared).

Run: python benchmarks/build.py [--runs N]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from pypdf import PdfReader

ROOT = Path(__file__).resolve().parent.parent
EDIT = ("tricky-treats.yaml", 'colour: "#2a9d3f"', 'colour: "#2a9d40"')


def cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def sheetgen_build(out: Path, *args: str, layouts: Path | None = None) -> tuple[float, float, str]:
    """(wall s, CPU s, stdout) of one `sheetgen build`."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "200"}
    if layouts:
        env["SHEETGEN_PATH"] = str(layouts)  # its files override the shipped ones
    t0, c0 = time.perf_counter(), cpu()
    res = subprocess.run([sys.executable, "-m", "sheetgen", "build", "--out", str(out), *args],
                         cwd=ROOT, env=env, check=True, capture_output=True, text=True)
    return time.perf_counter() - t0, cpu() - c0, res.stdout


def pdfs(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.glob("*.pdf"))}


def line(label: str, wall: float, cpu_s: float, pages: int | None = None, made: str = "") -> str:
    rate = f" = {pages / wall:.1f} pages/s ({pages / cpu_s:.1f} per CPU second)" if pages else ""
    return f"{label}: {wall:.2f} s, CPU {cpu_s:.2f} s{rate}{made}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--runs", type=int, default=1)
    runs = ap.parse_args().runs
    print(f"machine load {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    for run in range(1, runs + 1):
        with tempfile.TemporaryDirectory() as tmp:
            tmp = Path(tmp)
            layouts = tmp / "layouts"
            shutil.copytree(ROOT / "layouts", layouts)
            par, ser = tmp / "parallel", tmp / "serial"
            wall, cpu_s, out = sheetgen_build(par, "--json", layouts=layouts)
            files = pdfs(par)
            costly = sorted(json.loads(out)["files"], key=lambda f: -f["seconds"])[:6]
            pages = sum(len(PdfReader(par / f).pages) for f in files)
            kits = [f for f in files if "-kit" in f]
            print(f"run {run}: {len(files)} PDFs ({len(kits)} kits), {pages} pages")
            print(line("  full build, parallel", wall, cpu_s, pages))
            print("    most CPU: " + ", ".join(f"{Path(f['path']).name} {f['seconds']:.2f} s" for f in costly))
            wall, cpu_s, _ = sheetgen_build(ser, "--workers", "1", layouts=layouts)
            print(line("  full build, one process", wall, cpu_s, pages))
            wall, cpu_s, out = sheetgen_build(par, layouts=layouts)
            print(line("  rebuild, nothing changed", wall, cpu_s, made=f", {out.count('built')} made"))
            name, old, new = EDIT
            path = layouts / name
            path.write_text(path.read_text().replace(old, new, 1))
            wall, cpu_s, out = sheetgen_build(par, layouts=layouts)
            made = [ln.split()[1].rsplit("/", 1)[-1] for ln in out.splitlines() if " built " in ln]
            print(line(f"  rebuild, {name} changed", wall, cpu_s, made=f", made {len(made)}: " + " ".join(made)))
            scratch = tmp / "scratch"
            sheetgen_build(scratch, "--workers", "1", layouts=layouts)
            same = pdfs(par) == pdfs(scratch)
            path.write_text(path.read_text().replace(new, old, 1))
            sheetgen_build(par, layouts=layouts)
            print(f"  byte-identical: parallel == one process: {files == pdfs(ser)}; incremental "
                  f"after the edit == from scratch: {same}; after undoing it == first build: "
                  f"{pdfs(par) == files}")


if __name__ == "__main__":
    main()
