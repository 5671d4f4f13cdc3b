"""sheetgen: declarative layouts to print-and-play game material, validated by simulation."""

import os as _os

__version__ = "0.1.0"


def cache_dir() -> str:
    """The per-user cache folder (numba's compiled engines); site-packages may be read-only."""
    from platformdirs import user_cache_dir

    return _os.environ.get("SHEETGEN_CACHE") or user_cache_dir("sheetgen", appauthor=False)


# Before numba is imported anywhere: compiled code goes to the user's cache, not beside the code.
_os.environ.setdefault("NUMBA_CACHE_DIR", _os.path.join(cache_dir(), "numba"))
