"""Where the wall time of `sheetgen build` goes: runs a build from scratch in a temporary folder
(all cores) with every job (front layout, drawing, merge) and the main process's planning steps
timed, and prints a timeline (seconds from the start, per process), each process's CPU seconds
and how long each process was busy. The build itself is not changed; only its functions are
wrapped to note when they start and end.

Run: PYTHONPATH=. python benchmarks/build_timeline.py [--all]   (--all: every drawing too)
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

T0 = time.perf_counter()


def main() -> None:
    log = Path(tempfile.mkdtemp()) / "timeline.log"

    def note(what: str, a: float, cpu: float = 0.0) -> None:  # appended by every process
        with log.open("a") as f:
            f.write(f"{os.getpid()}\t{what}\t{a - T0:.3f}\t{time.perf_counter() - T0:.3f}\t"
                    f"{time.process_time():.3f}\t{time.process_time() - cpu:.3f}\n")

    def wrap(mod, attr: str, label) -> None:
        fn = getattr(mod, attr)

        def timed(*args, **kw):
            a, cpu = time.perf_counter(), time.process_time()
            try:
                return fn(*args, **kw)
            finally:
                note(label(*args), a, cpu)
        timed.__module__, timed.__qualname__, timed.__name__ = fn.__module__, fn.__qualname__, fn.__name__
        setattr(mod, attr, timed)  # pickled by name: the forked workers find the wrapper too

    from sheetgen import build, documents, kit

    note("imports", T0, 0.0)

    def job(fn, *args):
        what = {"_front": lambda: f"{args[0].product}/{args[0].paper}",
                "_merge": lambda: f"{args[0].product}/{args[0].paper}",
                "_draw": lambda: args[0]}.get(fn.__name__, lambda: "")()
        return f"{fn.__name__[1:]} {what}"

    wrap(build, "_timed", job)
    wrap(build, "plan", lambda *a: "plan (all)")
    wrap(kit, "start", lambda product, paper, *a, **k: f"plan kit {product}/{paper}")
    wrap(build, "_layout_pages", lambda path, *a: f"plan layout {path.stem}")
    wrap(documents, "warm", lambda: "warm WeasyPrint up")
    with tempfile.TemporaryDirectory() as out:
        build.run(Path(out))
    note("end", T0)
    rows = [line.rstrip("\n").split("\t") for line in log.read_text().splitlines()]
    pids = {pid: f"P{n}" for n, pid in enumerate(dict.fromkeys(r[0] for r in rows))}
    cpu, busy, kinds = defaultdict(float), defaultdict(float), defaultdict(float)
    for pid, what, a, b, c, used in sorted(rows, key=lambda r: float(r[2])):
        if what.startswith(("front", "draw", "merge", "warm", "plan layout", "plan kit")):
            kinds[" ".join(what.split()[:2]) if what.startswith("plan") else what.split()[0]] += float(used)
        cpu[pid] = max(cpu[pid], float(c))
        if what.startswith(("front", "draw", "merge", "warm", "plan kit", "plan layout")):
            busy[pid] += float(b) - float(a)
        if "--all" in sys.argv or not what.startswith(("draw", "plan layout")):
            print(f"{pids[pid]:3} {float(a):7.3f} {float(b):7.3f} {float(b) - float(a):6.3f}  {what}")
    wall = max(float(r[3]) for r in rows)
    print(f"wall {wall:.2f} s; CPU per process: " + ", ".join(f"{pids[p]} {c:.2f} s" for p, c in cpu.items())
          + f"; total {sum(cpu.values()):.2f} s; load {os.getloadavg()[0]:.1f}")
    print("CPU by step: " + ", ".join(f"{k} {v:.2f} s" for k, v in sorted(kinds.items(), key=lambda kv: -kv[1]))
          + f"; plan (all) {sum(float(r[5]) for r in rows if r[1] == 'plan (all)'):.2f} s")
    print("busy in jobs and planning steps: " + ", ".join(f"{pids[p]} {b:.2f} s" for p, b in busy.items()))


if __name__ == "__main__":
    main()
