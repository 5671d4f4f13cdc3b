"""What the commands do, as functions a test or another program can call directly."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from pathlib import Path

from pydantic.json_schema import models_json_schema

from .draw import write_pdf
from .kinds import KINDS, Loaded, Options, kind, known_layouts, load, render_pages
from .output_hooks import hooks_for


@dataclass(frozen=True)
class Built:
    path: Path
    pages: int
    bytes: int
    seconds: float

    def __str__(self) -> str:
        return f"wrote {self.path} ({self.pages} page{'s' if self.pages != 1 else ''}, {self.bytes / 1024:.0f} KiB)"


def render(ref: str | Path, out: str | Path | None = None, opts: Options | None = None) -> Built:
    """Render one layout to a PDF (default `output/<name>.pdf`)."""
    t0 = time.perf_counter()
    opts = opts or Options()
    loaded = load(ref, opts)
    hooks = hooks_for(loaded.kind.name, opts)  # refuses options the kind does not take
    pages = render_pages(loaded, opts)
    path = Path(out) if out else Path("output") / f"{loaded.name}.pdf"
    write_pdf(pages, path, loaded.doc.title, hooks=hooks)
    return Built(path, len(pages), path.stat().st_size, time.perf_counter() - t0)


def listing() -> list[tuple[str, str, str]]:
    """(name, kind, description) of every layout in the layouts folder."""
    rows = []
    for p in known_layouts():
        loaded: Loaded = load(p)
        rows.append((loaded.name, loaded.kind.name, loaded.doc.description or loaded.doc.title))
    return rows


def build_jobs(out_dir: Path) -> list[tuple[str, callable]]:
    """Every output `sheetgen build` makes, as (label, job) pairs; each job returns a Built."""
    from . import kit

    jobs = []
    for p in known_layouts():
        jobs.append((p.stem, lambda p=p: render(p, out_dir / f"{p.stem}.pdf")))
    for product in kit.products():  # every kit, on both papers
        for paper in kit.PAPER_NAMES:
            name = kit.default_name(product, paper)
            jobs.append((name, lambda product=product, paper=paper, name=name:
                         kit.write(product, out_dir / name, paper)))
    return jobs


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
        props["extends"] = {"type": "string", "description": "a layout file this one overrides"}
    top["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    return json.dumps(top, indent=2, sort_keys=True)
