"""Compile every numba engine the shipped layouts use into numba's cache, one after another.

conftest starts this once per test session, in the background, when an engine is not in the cache
(a fresh clone: numba keys its cache by the source file's path), so that the engines are compiled
once per session instead of once per pytest-xdist worker and per `sheetgen` process a test starts.
Arguments: a file descriptor conftest locked (flock) and passed on, held until this process ends,
the layouts folder, and ENGINE=FD for each engine's own lock (ENGINE: its games package), closed
once that engine is compiled. Tests that play games wait for those locks (conftest.wait_for_engines)."""

from __future__ import annotations

import os
import sys
from pathlib import Path


def cold_rules(layouts: Path) -> dict[str, str]:
    """rules module -> one shipped layout using it, for each compiled engine not yet in the cache."""
    from sheetgen import jit, kinds

    found = {}
    for path in sorted(layouts.glob("*.yaml"), key=lambda p: (len(p.stem), p.stem)):  # shipped, not -letter
        try:
            rules = kinds.load(path.stem).kind.rules
        except Exception:  # a broken layout is the tests' business, not the warmer's
            continue
        if rules and rules not in found:
            mod = jit.compiled_module(rules)
            found[rules] = path.stem if mod is not None and not jit.is_cached(mod) else None
    return {r: name for r, name in found.items() if name}


def warm(layouts: Path, compiled=lambda engine: None) -> list[str]:
    """Play a couple of games of every cold engine with each policy (compiling it), as the validator
    does, one through the reference engine (Tricky Treats' reads its end states with the compiled
    board reader, another signature: ~1 CPU s, else compiled by a test, in each worker that
    needs it first), then one game per policy as a search worker warms up, so that any other
    signature a search worker calls is compiled here once and not in each worker. Boogaloo's first (the shortest name): the install test waits for
    it alone. Calls compiled(games package) after each engine; returns the layouts warmed."""
    from sheetgen import kinds
    from sheetgen.search_play import warm as warm_search_worker
    from sheetgen.validate.engine import POLICIES
    from sheetgen.validate.run import run

    done = []
    for name in cold_rules(layouts).values():
        loaded = kinds.load(name)
        run(loaded, 2, 0, POLICIES, "fast", 1, None, 1)
        run(loaded, 1, 0, POLICIES, "reference", 1, None, 1)  # its board reader's own signature
        warm_search_worker(loaded.name)
        compiled(loaded.kind.rules.split(".")[-2])  # sheetgen.games.boogaloo.rules: boogaloo
        done.append(name)
    return done


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # this checkout's sheetgen
    held = int(sys.argv[1])  # not closed: the lock goes when this process ends, however it ends
    engines = {name: int(fd) for name, fd in (a.split("=") for a in sys.argv[3:])}

    def compiled(engine: str) -> None:
        if engine in engines:
            os.close(engines.pop(engine))  # the only copy of that lock: the tests waiting for it go on

    print("warmed:", ", ".join(warm(Path(sys.argv[2]), compiled)) or "nothing", flush=True)
