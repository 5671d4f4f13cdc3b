"""Games per second of the search's batches, locally and on a Dask cluster.

    python benchmarks/search.py [--game tricky-treats] [--candidates 40] [--batches 10]
                                [--workers 2] [--scheduler tcp://HOST:8786] [--no-cluster]

Plays the same units (candidates x batches of 1000 greedy games on the common dice, in tasks of
10^4 games) on: this process, a pool of --workers local processes, and a Dask cluster
(--scheduler, else a LocalCluster of --workers worker processes started here). Each backend is
warmed first (start workers, load the compiled engines). Two rates per backend: wall-clock
games/s, and games per CPU second of the tasks (time.process_time inside each task), which other
processes sharing the machine do not lower. The load average is printed before and after.
"""

from __future__ import annotations

import argparse
import os
import time

from sheetgen.search import RUNGS, UNIT, draw
from sheetgen.search_play import Cluster, Local, Unit, play_task, tasks_of


def timed_task(root, units):
    t0 = time.process_time()
    out = play_task(root, units)
    return time.process_time() - t0, sum(u.games * len(u.policies) for u in units), out


def units_of(game: str, n: int, batches: int) -> list[Unit]:
    _, shipped, cands = draw(game, 1, n, {})
    kind = shipped.data["kind"]
    return [Unit(c.index, kind, c.doc, ("greedy",), (RUNGS, b), UNIT) for c in cands if not c.rejected
            for b in range(batches)]


def measure(back, units: list[Unit]) -> tuple[float, float, float]:
    """(warm-up seconds, wall games/s, games per task CPU second)."""
    t0 = time.perf_counter()
    back.run(1, tasks_of(units[:2 * back.size * 10]), lambda i, r: None, timed_task)
    warm = time.perf_counter() - t0
    got = []
    t0 = time.perf_counter()
    back.run(1, tasks_of(units), lambda i, r: got.append(r[:2]), timed_task)
    wall = time.perf_counter() - t0
    cpu, games = sum(c for c, _ in got), sum(g for _, g in got)
    return warm, games / wall, games / cpu


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--game", default="tricky-treats")
    ap.add_argument("--candidates", type=int, default=40)
    ap.add_argument("--batches", type=int, default=10)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--scheduler", default=None)
    ap.add_argument("--no-cluster", action="store_true")
    args = ap.parse_args()
    units = units_of(args.game, args.candidates, args.batches)
    print(f"{args.game}: {len(units)} units of {UNIT} greedy games, {os.cpu_count()} cpus, "
          f"load average {os.getloadavg()[0]:.1f}")
    backs = [("1 process", lambda: Local(1, args.game)),
             (f"{args.workers} local processes", lambda: Local(args.workers, args.game))]
    cluster = None
    if not args.no_cluster:
        address = args.scheduler
        if address is None:
            from distributed import LocalCluster

            cluster = LocalCluster(n_workers=args.workers, processes=True, threads_per_worker=1,
                                   dashboard_address=":0")
            address = cluster.scheduler_address
        backs.append((f"Dask {address}", lambda: Cluster(address, args.game)))
    for label, make in backs:
        back = make()
        try:
            warm, wall, cpu = measure(back, units)
        finally:
            back.close()
        print(f"{label:>32}: {wall:>9,.0f} games/s wall, {cpu:>9,.0f} games per task CPU second "
              f"(warm-up {warm:.1f} s)")
    if cluster is not None:
        cluster.close()
    print(f"load average after: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
