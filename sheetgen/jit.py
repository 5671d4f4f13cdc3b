"""The one-time notice before numba compiles a fast engine.

Compiled code is cached per user (`NUMBA_CACHE_DIR`, set in `sheetgen/__init__.py` under
`sheetgen.cache_dir()`, one folder per version of the engines' sources), so only the first run on
a machine compiles. That run says so once,
with about how long it takes, instead of sitting silent at 0 %.
"""

from __future__ import annotations

import hashlib
import importlib
import os
import pickle
from pathlib import Path

# measured (Tricky Treats, empty cache, 2 cores): 25 s quiet, 50-100 s busy; 3 s once cached
COMPILE_SECONDS = 30


def compiled_module(rules_module: str):
    """The numba-compiled fast engine beside a rules module, or None (numpy engines need none)."""
    name = rules_module.rsplit(".", 1)[0] + ".fast"
    try:
        mod = importlib.import_module(name)
    except ModuleNotFoundError:
        return None
    uses = any(type(v).__name__ == "CPUDispatcher" for v in vars(mod).values())
    return mod if uses else None


def cache_folder(source_dir) -> Path | None:
    """numba's cache folder for the code of one source folder: that folder's name and the SHA-1 of
    its path, under NUMBA_CACHE_DIR (None when that is not set)."""
    root = os.environ.get("NUMBA_CACHE_DIR")
    path = os.path.abspath(source_dir)
    return Path(root) / f"{os.path.basename(path)}_{hashlib.sha1(path.encode()).hexdigest()}" if root else None


def is_cached(mod) -> bool:
    """True when numba's cache holds code compiled from this very source file (path and content)."""
    src = Path(os.path.abspath(mod.__file__))
    folder = cache_folder(src.parent)
    if folder is None:
        return False
    stat, data = src.stat(), src.read_bytes()
    fresh = (hashlib.sha256(data).digest(), (stat.st_mtime, stat.st_size))  # numba >= 0.61, older
    return any(_stamp(index) in fresh for index in folder.glob(f"{src.stem}.*.nbi"))


def _stamp(index: Path):
    """The source stamp a numba index file was written for (None if unreadable)."""
    try:
        with open(index, "rb") as f:
            pickle.load(f)  # numba's version
            return pickle.loads(f.read())[0]
    except Exception:  # a half-written or foreign file: not a usable cache
        return None


def notice(rules_module: str | None, engine: str) -> str | None:
    """The line to print before the first compile of this engine, else None."""
    if engine != "fast" or not rules_module:
        return None
    mod = compiled_module(rules_module)
    if mod is None or is_cached(mod):
        return None
    return (f"compiling the fast engine for this machine, once (about {COMPILE_SECONDS} s); "
            f"later runs reuse it from {os.environ.get('NUMBA_CACHE_DIR')}")
