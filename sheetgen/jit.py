"""The one-time notice before numba compiles a fast engine.

Compiled code is cached per user (`NUMBA_CACHE_DIR`, set in `sheetgen/__init__.py` under
`sheetgen.cache_dir()`), so only the first run on a machine compiles. That run says so once,
with about how long it takes, instead of sitting silent at 0 %.
"""

from __future__ import annotations

import importlib
import os
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


def is_cached(mod) -> bool:
    """True when numba's cache holds compiled code for this module's source file."""
    root, src = os.environ.get("NUMBA_CACHE_DIR"), Path(mod.__file__)
    # numba keeps a module's index files in a folder named after the source's folder
    return bool(root) and any(Path(root).glob(f"{src.parent.name}_*/{src.stem}.*.nbi"))


def notice(rules_module: str | None, engine: str) -> str | None:
    """The line to print before the first compile of this engine, else None."""
    if engine != "fast" or not rules_module:
        return None
    mod = compiled_module(rules_module)
    if mod is None or is_cached(mod):
        return None
    return (f"compiling the fast engine for this machine, once (about {COMPILE_SECONDS} s); "
            f"later runs reuse it from {os.environ.get('NUMBA_CACHE_DIR')}")
