"""The web server's work: PDFs, previews, kits and variants, cached by content in one folder.

Everything here blocks (reportlab, WeasyPrint, the validator); the app runs it in a bounded pool.
A request names things only through checked values: a layout is looked up by name among the known
layouts, and cache files are named by a hash, so no request text reaches a file path.
"""

from __future__ import annotations

import hashlib
import io
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from .. import kit, links, variant
from ..draw import pdf_bytes
from ..errors import SheetgenError
from ..kinds import Options, known_layouts, load, render_pages

MAX_COPIES = 20  # per request; the CLI allows more
MAX_KIT_COPIES = 5
MAX_PAGES = 60
MAX_SEED = 999_999
PREVIEW_WIDTH = 700  # px

_PDFIUM = threading.Lock()  # pdfium is not thread-safe


class SheetForm(BaseModel):
    """A sheet as a request gives it (link tokens or the form): the CLI's options, with web limits."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    name: str = Field(pattern=r"^[a-z0-9][a-z0-9-]{0,60}$")
    paper: Literal["a4", "letter"] = "a4"
    ink_saver: bool = False
    copies: int = Field(1, ge=1, le=MAX_COPIES)
    per_page: int | None = Field(None, description="1, 2 or 4")
    sheet: int | None = Field(None, ge=1, le=99)
    game: str | None = Field(None, pattern=r"^[a-z][a-z0-9-]{0,40}$")
    seed: int | None = Field(None, ge=0, le=MAX_SEED)

    @field_validator("per_page")
    @classmethod
    def _per_page(cls, v):
        if v not in (None, 1, 2, 4):
            raise ValueError("sheets per page are 1, 2 or 4")
        return v


class KitForm(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    paper: Literal["a4", "letter"] = "a4"
    copies: int = Field(1, ge=1, le=MAX_KIT_COPIES)


class BadRequest(Exception):
    """A request the server refuses: `status` and one line saying why and what to do."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status


def checked(model, **fields):
    """`model(**fields)`, or BadRequest 422 naming the first bad field and its limit."""
    try:
        return model(**fields)
    except ValidationError as exc:
        err = exc.errors()[0]
        where = ".".join(str(p) for p in err["loc"]) or "request"
        raise BadRequest(422, f"{where}: {err['msg']}") from None


def sheet_of(form: SheetForm) -> links.Sheet:
    return links.Sheet(**form.model_dump())


@dataclass(frozen=True)
class Blob:
    etag: str  # quoted, from the content
    data: bytes


def _blob(data: bytes) -> Blob:
    return Blob(f'"{hashlib.sha256(data).hexdigest()[:32]}"', data)


class Store:
    """Renders and caches. `etag(key)` answers without work once a result is known."""

    def __init__(self, cache_dir: Path, base_url: str | None):
        self.dir = Path(cache_dir)
        self.base_url = base_url
        self.layouts = {p.stem: p for p in known_layouts()}
        self._etags: dict[str, str] = {}
        self._lock = threading.Lock()
        self._baselines: dict[str, float] = {}
        self._reports: dict[str, dict] = {}

    # -- cache -----------------------------------------------------------------------------
    def etag(self, key: str) -> str | None:
        return self._etags.get(key)

    def _file(self, key: str, ext: str) -> Path:
        return self.dir / ext / f"{hashlib.sha256(key.encode()).hexdigest()[:40]}.{ext}"

    def _cached(self, key: str, ext: str, make) -> Blob:
        path = self._file(key, ext)
        if path.exists():
            blob = _blob(path.read_bytes())
        else:
            blob = _blob(make())
            from ..output import write_atomic

            write_atomic(path, blob.data)
        self._etags[key] = blob.etag
        return blob

    def _stamp(self, name: str) -> int:
        return self.layouts[name].stat().st_mtime_ns

    def key(self, sheet: links.Sheet, what: str = "pdf") -> str:
        return f"{what}|{self.base_url}|{sheet.path()}|{self._stamp(sheet.name)}"

    # -- checks ----------------------------------------------------------------------------
    def check(self, sheet: links.Sheet) -> links.Sheet:
        if sheet.name not in self.layouts:
            raise BadRequest(404, f"no layout named '{sheet.name}'; the home page lists them")
        if sheet.seed is not None and sheet.name not in variant.GAMES:
            raise BadRequest(422, f"'{sheet.name}' has no variants; variants exist for "
                                  f"{', '.join(variant.GAMES)}")
        return sheet

    def products(self) -> list[str]:
        return kit.products()

    # -- work (blocking) -------------------------------------------------------------------
    def pdf(self, sheet: links.Sheet) -> Blob:
        return self._cached(self.key(sheet), "pdf", lambda: self._render(sheet))

    def _render(self, sheet: links.Sheet) -> bytes:
        opts = Options(paper=sheet.paper, ink_saver=sheet.ink_saver, copies=sheet.copies,
                       per_page=sheet.per_page, sheet=sheet.sheet, game=sheet.game, base_url=self.base_url)
        path = self.layouts[sheet.name] if sheet.seed is None else self.variant_yaml(sheet.name, sheet.seed)
        try:
            loaded = load(path, opts)
            pages = render_pages(loaded, opts)
        except SheetgenError as exc:
            raise BadRequest(422, str(exc)) from None
        if len(pages) > MAX_PAGES:
            raise BadRequest(413, f"that is {len(pages)} pages; the server makes at most {MAX_PAGES} "
                                  "per PDF: ask for fewer copies")
        return pdf_bytes(pages, loaded.doc.title)

    def pages(self, sheet: links.Sheet) -> tuple[int, str]:
        """The page count and title of the sheet's PDF."""
        from pypdf import PdfReader

        reader = PdfReader(io.BytesIO(self.pdf(sheet).data))
        return len(reader.pages), str(reader.metadata.title)

    def paper(self, name: str) -> str:
        """The paper a layout names (its links say it)."""
        return kit._load(self.layouts[name]).doc.layout.paper

    def png(self, sheet: links.Sheet, page: int) -> Blob:
        """Page `page` (1-based) of the sheet's PDF as a PNG, drawn by pdfium."""
        def make() -> bytes:
            import pypdfium2 as pdfium

            data = self.pdf(sheet).data
            with _PDFIUM:
                doc = pdfium.PdfDocument(data)
                try:
                    if not 1 <= page <= len(doc):
                        raise BadRequest(404, f"the PDF has {len(doc)} pages, not {page}")
                    p = doc[page - 1]
                    image = p.render(scale=PREVIEW_WIDTH / p.get_width()).to_pil()
                finally:
                    doc.close()
            buf = io.BytesIO()
            image.save(buf, "PNG", compress_level=6)
            return buf.getvalue()

        return self._cached(self.key(sheet, f"png{page}"), "png", make)

    def kit(self, product: str, form: KitForm) -> Blob:
        if product not in self.products():
            raise BadRequest(404, f"no product named '{product}'; the home page lists them")
        key = f"kit|{self.base_url}|{product}|{form.paper}|{form.copies}|" + \
              ",".join(str(self._stamp(n)) for n in sorted(self.layouts))

        def make() -> bytes:
            return kit.merge(kit.make(product, form.paper, form.copies, self.base_url))

        return self._cached(key, "pdf", make)

    def variant_yaml(self, game: str, seed: int) -> Path:
        """The layout of the variant of `seed`, generated and validated once (kept in the cache)."""
        out = self.dir / "variants"
        path = out / f"{game}-{seed}.yaml"
        with self._lock:  # one variant at a time: each candidate plays thousands of games
            if not path.exists():
                settings = variant.Settings()
                if game not in self._baselines:
                    self._baselines[game] = variant.baseline_mean(game, settings)
                try:
                    variant.make(game, seed, out, settings, baseline=self._baselines[game])
                except SheetgenError as exc:
                    raise BadRequest(422, str(exc)) from None
        return path

    def variant(self, game: str, seed: int) -> dict:
        """The variant's layout and its validation report (the same games the generator played)."""
        from ..validate.run import check

        key = f"report|{game}|{seed}"
        if key not in self._reports:
            loaded = load(self.variant_yaml(game, seed))
            report = check(loaded, variant.Settings().games, seed, 1)
            self._reports[key] = {"doc": loaded.doc, "report": report.to_dict(),
                                  "mean": report.score_mean("greedy"), "baseline": self._baselines.get(game)}
        return self._reports[key]
