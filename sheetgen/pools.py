"""Worker processes: how many to start, and a pool of them.

Forked where the system can fork, so that workers start with what the parent already imported and
compiled (the numba engines, the fonts). The web server is the exception: it runs threads, so it
makes its own forkserver pool (`web/work.py`)."""

from __future__ import annotations

import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor


def count(workers: int | None) -> int:
    """The workers asked for, or one per core when none (0 or None) was asked for."""
    return max(1, workers or os.cpu_count() or 1)


def pool(workers: int, initializer=None, initargs: tuple = ()) -> ProcessPoolExecutor:
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else None)
    return ProcessPoolExecutor(workers, mp_context=context, initializer=initializer, initargs=initargs)
