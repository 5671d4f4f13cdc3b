"""Layout kinds: which model reads a layout file and which composer turns it into pages.

A layout names its kind in `kind:`. Each kind lives in its game package and is imported only
when a layout of that kind is loaded.

Finding layouts (see `sheetgen.resources` for the search path):
    load(ref, opts)   a path or a layout name -> Loaded (doc, path, name, kind, lines)
    resolve(ref)      the file a path or name means (SheetgenError with "did you mean")
    known_layouts()   one file per layout name on the search path (local files override shipped
                      ones of the same name and add to them)
    layouts_dir()     the shipped layouts folder
A kind lists in `Kind.options` the per-kind options it reads (sheet, game, per_page, bleed,
back_offset, backs); any other of these given on the command line is refused (`check_options`).
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from . import resources
from .errors import SheetgenError, did_you_mean
from .layout import Where, load_raw, validate
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
    tiles: bool = False  # a poster (the game mat) as tiles to glue
    poster: str | None = None  # a poster size (a3, a2...) instead of tiles
    pod: bool = False  # print-on-demand pages (cards)
    fillable: bool = False  # PDF form fields to fill in on a screen
    print_shop: bool = False  # CMYK, PDF/X-4 boxes and intent


@dataclass(frozen=True)
class Kind:
    name: str
    model: type[LayoutFile]
    pages: Callable[[LayoutFile, Options], list[Page]]
    product: str  # the kit this component belongs to
    rules: str | None = None  # module holding `RULES` (roll-and-write sheets), imported lazily
    variant: str | None = None  # module holding `generate` (sheets with custom variants)
    consumable: bool = False  # written on during play: kits print it --copies times
    play_order: tuple[str, ...] = ()  # --fillable: element id patterns in the order play reaches
    #                                   them (the tab order after the name); the others after
    written: str = ""  # --fillable: the id pattern of boxes written in (text fields), not ticked
    options: frozenset = frozenset()  # per-kind options it reads: sheet, game, per_page, bleed,
    #                                   back_offset, backs (others are refused)


@dataclass(frozen=True)
class Loaded:
    doc: LayoutFile
    path: Path
    name: str
    kind: Kind
    lines: dict = field(default_factory=dict, compare=False, repr=False)  # key path -> (file, line)
    own: dict = field(default_factory=dict, compare=False)  # the file's paper, ink_saver before options


def kind(name: str) -> Kind:
    """The Kind named `name`: `module` holds it as `KIND`, `module:ATTR` as `ATTR` (several kinds
    in one module)."""
    module, _, attr = KINDS[name].partition(":")
    return getattr(importlib.import_module(module), attr or "KIND")


def layouts_dir() -> Path:
    """The shipped layouts folder (a layout name is looked up on `resources.search_path()`)."""
    return resources.shipped("layouts")


def known_layouts() -> list[Path]:
    """Layouts to list and build: one file per name on the search path, sorted by name."""
    return [p for p, _ in resources.layout_files().values()]


def resolve(ref: str | Path) -> Path:
    p = Path(ref)
    if p.suffix in (".yaml", ".yml") or p.exists() or len(p.parts) > 1:
        return p
    if found := resources.find(str(ref)):
        return found
    names = list(resources.layout_files())
    hint = did_you_mean(str(ref), names)
    raise SheetgenError(f"no layout named '{ref}'",
                        fix=(hint + " " if hint else "") + f"use a path or one of: {', '.join(names)}")


# Options a kind must declare in Kind.options to accept; their command-line spelling.
PER_KIND = {"sheet": "--sheet", "game": "--game", "per_page": "--per-page", "bleed": "--bleed",
            "back_offset": "--back-offset", "backs": "--no-backs", "tiles": "--tiles", "poster": "--poster",
            "pod": "--print-on-demand"}


def check_options(loaded: "Loaded", opts: "Options") -> None:
    """Refuse an option the layout's kind does not read (e.g. --sheet on a one-sheet layout)."""
    default = Options()
    given = [(n, f) for n, f in PER_KIND.items() if getattr(opts, n) != getattr(default, n)]
    for name, flag in given:
        if name not in loaded.kind.options:
            takes = sorted(n for n in KINDS if name in kind(n).options)
            raise SheetgenError(f"{flag} does not apply to '{loaded.name}' (a {loaded.kind.name})",
                                fix=f"drop {flag}" + (f"; it applies to {', '.join(takes)}"
                                                                 if takes else ""))


def load(ref: str | Path, opts: Options | None = None) -> Loaded:
    """Read, merge and validate a layout; options such as --paper override the file."""
    path = resolve(ref)
    data, lines = load_raw(path)
    shown = lines.get((), (str(path), 1))[0]
    name = data.get("kind")
    if not isinstance(name, str) or name not in KINDS:
        line = lines.get(("kind",), (shown, 1))[1]
        hint = did_you_mean(name, KINDS) if isinstance(name, str) else ""
        raise SheetgenError(f"unknown kind {name!r}" if name else "missing 'kind'", file=shown,
                            line=line, key="kind",
                            fix=(hint + " " if hint else "") + f"use one of: {', '.join(sorted(KINDS))}")
    opts = opts or Options()
    given = data.get("layout") if isinstance(data.get("layout"), dict) else {}
    own = {k: given[k] for k in ("paper", "ink_saver") if k in given}
    layout = data.setdefault("layout", {}) if (opts.paper or opts.ink_saver is not None) else None
    if isinstance(layout, dict):
        if opts.paper:
            layout["paper"] = opts.paper
        if opts.ink_saver is not None:
            layout["ink_saver"] = opts.ink_saver
    k = kind(name)
    doc = validate(k.model, data, lines, shown)
    return Loaded(doc, path, path.stem, k, lines, own)


_SHARED: dict[tuple, tuple[tuple, Loaded]] = {}  # (path, paper) -> (stamps of the files read, loaded)


def _stamps(loaded: Loaded) -> tuple:
    return tuple((f, Path(f).stat().st_mtime_ns) for f in sorted({f for f, _ in loaded.lines.values()}))


def load_shared(ref: str | Path, paper: str | None = None) -> Loaded:
    """`load(ref)` (on `paper`, if given) once per process until a file it was read from (the
    layout or what it extends) changes: for layouts that other layouts name, such as a mat's deck,
    the parts a game needs or a kit's components. Callers must not change what it returns."""
    path = resolve(ref)
    hit = _SHARED.get((path, paper))
    try:
        if hit and hit[0] == _stamps(hit[1]):
            return hit[1]
    except OSError:  # a file it was read from is gone: load again, and say what is wrong
        pass
    loaded = load(path, Options(paper=paper))
    if len(_SHARED) >= 256:
        _SHARED.clear()
    _SHARED[path, paper] = (_stamps(loaded), loaded)
    return loaded


def description(loaded: Loaded) -> str:
    """The layout's description with the {counts} of what it prints filled in."""
    from .text import fill

    try:
        return fill(loaded.doc.description, loaded.doc.counts())
    except ValueError as exc:
        raise locate(loaded, SheetgenError(f"description: {exc}", key="description",
                                           fix="use only those placeholders")) from None


def locate(loaded: Loaded, exc: SheetgenError) -> SheetgenError:
    """Give an error raised while composing the file and line of its key (or of the layout)."""
    if exc.file is None:
        key = tuple(int(p) if p.isdigit() else p for p in (exc.key or "").split(".") if p) \
            if exc.key and not exc.key.startswith("-") else ()
        where: Where | None = None
        for n in range(len(key), -1, -1):
            if key[:n] in loaded.lines:
                where = loaded.lines[key[:n]]
                break
        exc.file, exc.line = where or (str(loaded.path), None)
    return exc


def render_pages(loaded: Loaded, opts: Options) -> list[Page]:
    """The layout's pages, held to the print lint (text off the page, under 6 pt or touching
    another element is an error naming the element): every render, kit and build goes through here."""
    from . import lint
    from .links import link_qrs

    try:
        pages = link_qrs(loaded.kind.pages(loaded.doc, opts), loaded, opts)
        lint.check(pages)
        return pages
    except SheetgenError as exc:
        raise locate(loaded, exc) from None
