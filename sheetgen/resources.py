"""Where sheetgen finds files: its shipped resources and the layout search path.

The shipped layouts, templates and fonts live inside the package (`sheetgen/layouts`,
`sheetgen/templates`, `sheetgen/fonts`). In the repository `layouts/` and `templates/` stay at the
top and `sheetgen/layouts`, `sheetgen/templates` are symlinks to them; the build copies the real
files into the wheel (package data). So the same lookup works in the checkout, in an editable
install and in a regular install, and nothing else names the checkout's path.

    shipped("layouts")   -> the folder of shipped layouts (also "templates", "fonts")
    search_path()        -> [Folder(path, source)], first match wins:
                            --layouts DIR (repeatable; `add_layout_dirs`), $SHEETGEN_PATH
                            (os.pathsep-separated), ./layouts, then the shipped set
    find(name)           -> the first `<name>.yaml` on the search path, or None
    layout_files()       -> {name: (path, source)} of every layout on the path; a local file
                            overrides a shipped one of the same name, never hides the others
    inside_search_path(p)-> True when p lies in a search-path folder (extends confinement)

Files starting with '_' are not layouts (fragments to extend).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources as _res
from pathlib import Path

_EXTRA: list[Path] = []  # --layouts folders given on the command line, in order


@dataclass(frozen=True)
class Folder:
    path: Path
    source: str  # shown by `sheetgen list`: --layouts, SHEETGEN_PATH, ./layouts or shipped


@lru_cache(maxsize=None)
def shipped(what: str = "layouts") -> Path:
    """A folder of the installed package: layouts, templates or fonts."""
    return Path(str(_res.files("sheetgen") / what))


@lru_cache(maxsize=None)
def _home() -> Path:
    return _real(shipped("layouts"))


def add_layout_dirs(dirs) -> None:
    """Put folders (from --layouts) at the front of the search path, once each."""
    for d in dirs or ():
        p = Path(d)
        if p not in _EXTRA:
            _EXTRA.append(p)


def reset_layout_dirs() -> None:
    _EXTRA.clear()


def search_path() -> list[Folder]:
    """Folders searched for layout names, first match wins; the same folder appears once."""
    found = [Folder(p, "--layouts") for p in _EXTRA]
    found += [Folder(Path(p), "SHEETGEN_PATH")
              for p in os.environ.get("SHEETGEN_PATH", "").split(os.pathsep) if p]
    found += [Folder(Path("layouts"), "./layouts"), Folder(shipped("layouts"), "shipped")]
    out, seen = [], {}
    home = _home()
    for f in found:
        real = home if f.source == "shipped" else _real(f.path)  # (the package does not move)
        if real in seen or not f.path.is_dir():
            continue
        seen[real] = True
        out.append(Folder(f.path, "shipped" if real == home else f.source))
    return out


def find(name: str) -> Path | None:
    for f in search_path():
        p = f.path / f"{name}.yaml"
        if is_file(p):
            return p
    return None


def is_file(p: Path) -> bool:
    """Path.is_file, but False for a name the system refuses (too long, bad bytes)."""
    try:
        return p.is_file()
    except (OSError, ValueError):
        return False


def layout_files() -> dict[str, tuple[Path, str]]:
    """name -> (path, source) of every layout on the search path (first folder wins)."""
    out: dict[str, tuple[Path, str]] = {}
    for f in search_path():
        for p in sorted(f.path.glob("*.yaml")):
            if not p.name.startswith("_") and p.stem not in out:
                out[p.stem] = (p, f.source)
    return dict(sorted(out.items()))


def inside_search_path(path: Path, also: Path | None = None) -> bool:
    """True when `path` (resolved) lies in a folder of the search path or in `also`."""
    real = _real(path)
    roots = [_real(f.path) for f in search_path()] + ([_real(also)] if also else [])
    return any(real.is_relative_to(r) for r in roots)


def _real(p: Path) -> Path:
    try:
        return p.resolve()
    except OSError:
        return p.absolute()
