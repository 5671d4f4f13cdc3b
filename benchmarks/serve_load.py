"""Load test of `sheetgen serve` on localhost: N requests from C concurrent clients mixing cached
PDFs, uncached PDFs (options not asked for before), page previews and conditional requests (304).
Prints throughput, p50/p95 latency per kind and overall, errors (should be 0) and the server's peak
memory (VmHWM of its process). The server runs as `python -m sheetgen serve` in a subprocess with a
fresh cache folder; nothing leaves 127.0.0.1.

Run: python benchmarks/serve_load.py [--requests 200] [--clients 20] [--workers 2]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
CACHED = ["/s/gingerbread-status/a/sheet.pdf", "/s/tricky-treats/a/sheet.pdf", "/s/boogaloo/l.s2/sheet.pdf",
          "/s/roll-score-pad/a/sheet.pdf", "/s/haunt-the-block/l/sheet.pdf"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def uncached() -> list[str]:
    """PDFs no request has asked for before: every one is a new render."""
    out = []
    for name in ("gingerbread-status", "roll-score-pad", "special-treat-tokens", "tricky-treats"):
        for paper in ("a", "l"):
            for ink in ("", ".i"):
                out += [f"/s/{name}/{paper}{ink}.c{c}/sheet.pdf" for c in range(2, 8)]
    return out


def plan(n: int, rng: random.Random) -> list[tuple[str, str]]:
    """(kind, path) for n requests: 45 % cached PDFs, 25 % new PDFs, 15 % previews, 15 % 304s."""
    fresh = uncached()
    rng.shuffle(fresh)
    jobs = []
    for i in range(n):
        r = rng.random()
        if r < 0.25 and fresh:
            jobs.append(("new pdf", fresh.pop()))
        elif r < 0.70:
            jobs.append(("cached pdf", rng.choice(CACHED)))
        elif r < 0.85:
            jobs.append(("preview", rng.choice(CACHED).replace("sheet.pdf", "1.png")))
        else:
            jobs.append(("304", rng.choice(CACHED)))
    return jobs


def peak_kib(pid: int) -> int:
    """Peak resident memory (VmHWM) of a process, KiB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    return 0


def cpu_seconds(pid: int) -> float:
    """User + system CPU time a process has used."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def family(pid: int) -> list[int]:
    """The process and all its descendants (the server's worker processes)."""
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        for task in Path(f"/proc/{p}/task").iterdir():
            todo += [int(c) for c in (task / "children").read_text().split()]
    return out


async def run(base: str, jobs: list[tuple[str, str]], clients: int, etags: dict[str, str]):
    queue: asyncio.Queue = asyncio.Queue()
    for job in jobs:
        queue.put_nowait(job)
    results: list[tuple[str, float, int]] = []
    errors: list[str] = []

    async def client():
        async with httpx.AsyncClient(base_url=base, timeout=120) as c:
            while not queue.empty():
                kind, path = queue.get_nowait()
                headers = {"If-None-Match": etags[path]} if kind == "304" else {}
                t0 = time.perf_counter()
                try:
                    r = await c.get(path, headers=headers)
                    status = r.status_code
                except httpx.HTTPError as exc:
                    errors.append(f"{path}: {exc!r}")
                    continue
                results.append((kind, time.perf_counter() - t0, status))
                if status != (304 if kind == "304" else 200):
                    errors.append(f"{path}: HTTP {status}")

    t0 = time.perf_counter()
    await asyncio.gather(*(client() for _ in range(clients)))
    return results, errors, time.perf_counter() - t0


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(round(q / 100 * (len(values) - 1))))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--requests", type=int, default=200)
    ap.add_argument("--clients", type=int, default=20)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory(prefix="sheetgen-load-") as cache:
        server = subprocess.Popen([sys.executable, "-m", "sheetgen", "serve", "--port", str(port), "--cache",
                                   cache, "--workers", str(args.workers)], cwd=ROOT,
                                  stderr=open(os.environ.get("SERVE_LOG", os.devnull), "w"))
        try:
            deadline = time.monotonic() + 60
            while True:  # poll until the server answers
                try:
                    if httpx.get(base + "/health", timeout=1).text == "ok":
                        break
                except httpx.HTTPError:
                    if time.monotonic() > deadline or server.poll() is not None:
                        raise SystemExit("the server did not start")
                    time.sleep(0.05)
            with httpx.Client(base_url=base, timeout=120) as c:  # the cached set, rendered once
                etags = {p: c.get(p).headers["etag"] for p in CACHED}
            jobs = plan(args.requests, random.Random(args.seed))
            cpu0 = sum(cpu_seconds(p) for p in family(server.pid))
            load0 = os.getloadavg()[0]
            results, errors, seconds = asyncio.run(run(base, jobs, args.clients, etags))
            cpu = sum(cpu_seconds(p) for p in family(server.pid)) - cpu0
            peak = peak_kib(server.pid)
            workers = [peak_kib(p) for p in family(server.pid)[1:]]
        finally:
            server.terminate()
            server.wait(timeout=10)
    print(f"sheetgen serve load test: {len(jobs)} requests, {args.clients} concurrent clients, "
          f"{args.workers} render workers, {os.cpu_count()} cores")
    print(f"{'kind':<12}{'count':>6}{'p50 ms':>9}{'p95 ms':>9}")
    for kind in ("cached pdf", "new pdf", "preview", "304", "all"):
        lat = [t for k, t, _ in results if kind in (k, "all")]
        if lat:
            print(f"{kind:<12}{len(lat):>6}{1000 * pct(lat, 50):>9.1f}{1000 * pct(lat, 95):>9.1f}")
    print(f"throughput {len(results) / seconds:.1f} requests/s ({seconds:.2f} s), errors {len(errors)}")
    print(f"server CPU time {cpu:.1f} s in {seconds:.1f} s on {os.cpu_count()} cores "
          f"(machine load average {load0:.1f} at the start)")
    print(f"peak memory: server process {peak / 1024:.0f} MiB, its {len(workers)} worker processes "
          f"{' + '.join(f'{w / 1024:.0f}' for w in workers)} MiB, total {(peak + sum(workers)) / 1024:.0f} MiB")
    for e in errors[:10]:
        print("error:", e)
    if errors:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
