"""What the commands do, as functions a test or another program can call directly."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from pathlib import Path

import yaml
from pydantic.json_schema import models_json_schema

from . import resources
from .draw import pdf_bytes
from .errors import SheetgenError
from .kinds import KINDS, Loaded, Options, check_options, description, kind, load, render_pages, resolve
from .layout import load_raw, to_yaml
from .output import write_atomic, written_through
from .output_hooks import hooks_for


@dataclass(frozen=True)
class Built:
    path: Path
    pages: int
    bytes: int
    seconds: float

    def __str__(self) -> str:
        return f"wrote {self.path} ({self.pages} page{'s' if self.pages != 1 else ''}, {self.bytes / 1024:.0f} KiB)"


def default_name(loaded: Loaded, opts: Options) -> str:
    """`<layout>[-<option>...].pdf`: every option that changes the pages is in the name, so a
    render never replaces a `build` file (named after the layout alone) with different pages."""
    parts = [loaded.name]
    if opts.sheet:
        parts.append(f"sheet-{opts.sheet}")
    if opts.game:
        parts.append(opts.game)
    own = loaded.own
    if opts.paper and opts.paper != own.get("paper", "a4"):
        parts.append(opts.paper)
    if opts.ink_saver is not None and opts.ink_saver != own.get("ink_saver", False):
        parts.append("ink-saver" if opts.ink_saver else "colour")
    if opts.per_page:
        parts.append(f"{opts.per_page}-up")
    if opts.copies != 1:
        parts.append(f"{opts.copies}-copies")
    if opts.bleed is not None:
        parts.append(f"bleed-{opts.bleed:g}")
    if opts.back_offset != (0.0, 0.0):
        parts.append(f"offset-{opts.back_offset[0]:g},{opts.back_offset[1]:g}")
    if not opts.backs:
        parts.append("no-backs")
    if opts.poster:
        parts.append(f"poster-{opts.poster}")
    parts += [name for key, name in (("tiles", "tiles"), ("fillable", "fillable"),
                                     ("print_shop", "print-shop"), ("pod", "print-on-demand"))
              if getattr(opts, key)]
    return "-".join(parts) + ".pdf"


def prepare(ref: str | Path, opts: Options) -> tuple[Loaded, list]:
    """The layout loaded with the options, and the output hooks they ask for; an option its kind
    does not take is refused (what the command line refuses, the web refuses too)."""
    loaded = load(ref, opts)
    check_options(loaded, opts)
    return loaded, hooks_for(loaded.kind.name, opts)


def render(ref: str | Path, out: str | Path | None = None, opts: Options | None = None) -> Built:
    """Render one layout to a PDF (default `output/<name>[-<options>].pdf`, see default_name);
    `out` may be `-` (stdout), a device or a pipe."""
    from .output import check_target

    t0 = time.perf_counter()
    opts = opts or Options()
    path = check_target(out) if out is not None else None  # before any work
    loaded, hooks = prepare(ref, opts)
    path = path or check_target(Path("output") / default_name(loaded, opts))
    pages = render_pages(loaded, opts)  # held to the print lint
    data = pdf_bytes(pages, loaded.doc.title, hooks=hooks)
    write_atomic(path, data)
    return Built(path, len(pages), len(data), time.perf_counter() - t0)


@dataclass(frozen=True)
class Row:
    """One line of `sheetgen list`: a layout (or a kit) and where it comes from."""

    name: str
    kind: str
    description: str
    source: str  # --layouts, SHEETGEN_PATH, ./layouts, shipped; "kit" for kits
    path: str
    error: str = ""  # a file that does not load is listed with its one-line error


def listing() -> list[Row]:
    """Every layout on the search path, then every kit. A broken file is a row with its error."""
    from . import kit

    rows = []
    for name, (path, source) in resources.layout_files().items():
        try:
            loaded: Loaded = load(path)
            rows.append(Row(name, loaded.kind.name, description(loaded) or loaded.doc.title,
                            source, str(path)))
        except SheetgenError as exc:
            rows.append(Row(name, "?", "", source, str(path), str(exc)))
    for product in kit.products():
        games = [g for g in kit.rules_games() if g.product == product]
        rows.append(Row(product, "kit", f"print-and-play kit: {kit.product_title(product, games)}",
                        "kit", "", ""))
    return rows


def show(ref: str, resolved: bool = False) -> str:
    """A layout's YAML as written, or (`resolved`) after following `extends`."""
    path = resolve(ref)
    if not resolved:
        from .layout import read_text

        return read_text(path)
    load(path)  # a layout that does not validate is an error, not a listing
    data, _ = load_raw(path)
    return to_yaml(data)


def new_layout(name: str, parent: str) -> str:
    """The text of a new layout that extends `parent`, with its commonly changed keys commented."""
    import re

    if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9_-]*", name):
        raise SheetgenError(f"'{name}' is not a plain file name", key="NAME",
                            fix="use letters, digits and dashes, e.g. my-treats")
    base = load(parent)
    data, _ = load_raw(base.path)
    title = name.replace("-", " ").replace("_", " ").title()
    out = [f"# {title}: your own version of '{base.name}' ({base.doc.title}).",
           f"# Keys not given here come from '{base.name}'; 'sheetgen show {base.name}' prints them all.",
           f"extends: {base.name}", f"title: {_scalar(title)}"]
    for section in ("layout", "content"):
        keys = [(k, v) for k, v in (data.get(section) or {}).items()
                if isinstance(v, (int, float, bool)) or isinstance(v, str) and len(v) < 60]
        if not keys:
            continue
        out.append(f"# {section}:")
        out += [f"#   {k}: {_scalar(v)}" for k, v in keys]
    return "\n".join(out) + "\n"


def _scalar(v) -> str:
    return yaml.safe_dump(v, default_flow_style=True, width=1000).strip().removesuffix("...").strip()


def write_new(text: str, path: Path, force: bool = False) -> Path:
    """Write a file `new` or `show` made; an existing file is kept unless `force`."""
    if path.exists() and not force and not written_through(path):
        raise SheetgenError("the file already exists", file=str(path),
                            fix="choose another name, or add --force to replace it")
    return write_atomic(path, text)


def schema() -> str:
    """JSON Schema of layout files: one of the kinds' models, chosen by `kind`."""
    models = [kind(name).model for name in sorted(KINDS)]
    refs, top = models_json_schema([(m, "validation") for m in models], title="sheetgen layout")
    top["oneOf"] = []
    for name, m in zip(sorted(KINDS), models):
        ref = refs[(m, "validation")]["$ref"]
        top["oneOf"].append({"$ref": ref})
        props = top["$defs"][ref.rsplit("/", 1)[1]]["properties"]
        props["kind"] = {"const": name}
        props["extends"] = {"type": "string", "description": "a layout name (search path) or a "
                            "file next to this one, which this one overrides"}
    top["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    return json.dumps(top, indent=2, sort_keys=True)
