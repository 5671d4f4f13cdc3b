"""sheetgen: declarative layouts to print-and-play game material, validated by simulation."""

import os as _os

__version__ = "0.1.0"


def cache_dir() -> str:
    """The per-user cache folder (numba's compiled engines); site-packages may be read-only."""
    from platformdirs import user_cache_dir

    return _os.environ.get("SHEETGEN_CACHE") or user_cache_dir("sheetgen", appauthor=False)


def engines_digest(package: str | None = None) -> str:
    """A digest of the compiled engines' folders (their boards, models and policies, whose
    constants numba freezes into the code) and the bit tricks they inline: numba checks only each
    compiled function's own file, so after a change elsewhere its cache would run stale code."""
    import hashlib

    here = package or _os.path.dirname(_os.path.abspath(__file__))
    games = _os.path.join(here, "games")
    engines = sorted(e.path for e in _os.scandir(games) if _os.path.isfile(_os.path.join(e.path, "fast.py")))
    files = [_os.path.join(here, "validate", "bits.py")]
    files += [_os.path.join(d, f) for d in engines for f in sorted(_os.listdir(d)) if f.endswith(".py")]
    h = hashlib.sha256()
    for f in files:
        with open(f, "rb") as data:
            h.update(data.read())
    return h.hexdigest()[:12]


# Before numba is imported anywhere: compiled code goes to the user's cache, not beside the code,
# in a folder of its own for each version of the engines' sources.
_os.environ.setdefault("NUMBA_CACHE_DIR", _os.path.join(cache_dir(), "numba-" + engines_digest()))
