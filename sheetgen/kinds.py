"""Layout kinds: which model reads a layout file and which composer turns it into pages.

A layout names its kind in `kind:`. Each kind lives in its game package and is imported only
when a layout of that kind is loaded.
"""

from __future__ import annotations

import importlib
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from .errors import SheetgenError
from .layout import load_raw, validate
from .model import LayoutFile
from .scene import Page



def _discover() -> dict[str, str]:
    """kind name -> module holding `KIND`, from each game package's `KINDS` (cheap to import)."""
    import pkgutil

    from . import games

    found: dict[str, str] = {}
    for info in pkgutil.iter_modules(games.__path__):
        pkg = importlib.import_module(f"{games.__name__}.{info.name}")
        found.update(getattr(pkg, "KINDS", {}))
    return found


KINDS: dict[str, str] = _discover()


@dataclass(frozen=True)
class Options:
    """Options common to every command; a kind reads those it needs."""

    paper: str | None = None  # overrides layout.paper
    ink_saver: bool | None = None  # overrides layout.ink_saver
    copies: int = 1
    per_page: int | None = None
    sheet: int | None = None  # one sheet of a multi-sheet layout (1-based)
    game: str | None = None  # one game of a multi-game layout
    bleed: float | None = None
    back_offset: tuple[float, float] = (0.0, 0.0)
    backs: bool = True
    base_url: str | None = None  # QR codes hold this PDF's link (sheetgen.links)
    extra: dict = field(default_factory=dict)


@dataclass(frozen=True)
class Kind:
    name: str
    model: type[LayoutFile]
    pages: Callable[[LayoutFile, Options], list[Page]]
    product: str  # the kit this component belongs to
    rules: str | None = None  # module holding `RULES` (roll-and-write sheets), imported lazily
    variant: str | None = None  # module holding `generate` (sheets with custom variants)
    consumable: bool = False  # written on during play: kits print it --copies times


@dataclass(frozen=True)
class Loaded:
    doc: LayoutFile
    path: Path
    name: str
    kind: Kind


def kind(name: str) -> Kind:
    """The Kind named `name`: `module` holds it as `KIND`, `module:ATTR` as `ATTR` (several kinds
    in one module)."""
    module, _, attr = KINDS[name].partition(":")
    return getattr(importlib.import_module(module), attr or "KIND")


def layouts_dir() -> Path:
    """`$SHEETGEN_LAYOUTS`, else `./layouts` when run in a project, else the repository's own."""
    if env := os.environ.get("SHEETGEN_LAYOUTS"):
        return Path(env)
    here = Path("layouts")
    if here.is_dir() and any(here.glob("*.yaml")):
        return here
    return Path(__file__).resolve().parent.parent / "layouts"


def known_layouts() -> list[Path]:
    """Layouts to list and build: every .yaml in the layouts folder not starting with '_'."""
    return sorted((p for p in layouts_dir().glob("*.yaml") if not p.name.startswith("_")), key=lambda p: p.stem)


def resolve(ref: str | Path) -> Path:
    p = Path(ref)
    if p.suffix in (".yaml", ".yml") or p.exists():
        return p
    candidate = layouts_dir() / f"{ref}.yaml"
    if candidate.exists():
        return candidate
    names = ", ".join(q.stem for q in known_layouts())
    raise SheetgenError(f"no layout named '{ref}'", fix=f"use a path or one of: {names}")


def load(ref: str | Path, opts: Options | None = None) -> Loaded:
    """Read, merge and validate a layout; options such as --paper override the file."""
    path = resolve(ref)
    data, lines = load_raw(path)
    shown = lines.get((), (str(path), 1))[0]
    name = data.get("kind")
    if name not in KINDS:
        line = lines.get(("kind",), (shown, 1))[1]
        raise SheetgenError(f"unknown kind {name!r}" if name else "missing 'kind'", file=shown,
                            line=line, key="kind", fix=f"use one of: {', '.join(sorted(KINDS))}")
    opts = opts or Options()
    layout = data.setdefault("layout", {}) if (opts.paper or opts.ink_saver is not None) else None
    if isinstance(layout, dict):
        if opts.paper:
            layout["paper"] = opts.paper
        if opts.ink_saver is not None:
            layout["ink_saver"] = opts.ink_saver
    k = kind(name)
    doc = validate(k.model, data, lines, shown)
    return Loaded(doc, path, path.stem, k)


def render_pages(loaded: Loaded, opts: Options) -> list[Page]:
    from .links import link_qrs

    return link_qrs(loaded.kind.pages(loaded.doc, opts), loaded, opts)
