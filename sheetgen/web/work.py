"""The web server's work: PDFs, previews, kits and variants, cached by content in one folder.

Rendering and validation run in worker processes (a bounded pool: reportlab objects that the
drawer caches are not safe to share between threads, and processes use both cores); the `Store`
in the server process keeps the cache and answers known results without work. A request names
things only through checked values: a layout is looked up by name among the known layouts, and
cache files are named by a hash, so no request text reaches a file path.
"""

from __future__ import annotations

import asyncio
import hashlib
import io
import multiprocessing
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from .. import kit, links, variant
from ..errors import SheetgenError
from ..kinds import known_layouts

MAX_COPIES = 20  # per request; the CLI allows more
MAX_KIT_COPIES = 5
MAX_PAGES = 60
MAX_SEED = 999_999
MAX_CANDIDATE = 999_999  # `sheetgen search` draws at most a million
PREVIEW_WIDTH = 700  # px
QUEUE = 32  # jobs waiting or running; more is answered 503


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
    candidate: int | None = Field(None, ge=0, le=MAX_CANDIDATE)

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
        super().__init__(status, message)
        self.status, self.message = status, message

    def __str__(self) -> str:
        return self.message


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


# -- jobs: run in the worker processes, take and return plain values ----------------------------

def render_pdf(path: str, sheet: links.Sheet, base_url: str | None) -> bytes:
    from ..api import prepare
    from ..draw import pdf_bytes
    from ..kinds import Options, render_pages

    opts = Options(paper=sheet.paper, ink_saver=sheet.ink_saver, copies=sheet.copies,
                   per_page=sheet.per_page, sheet=sheet.sheet, game=sheet.game, base_url=base_url)
    try:
        loaded, hooks = prepare(path, opts)
        pages = render_pages(loaded, opts)
    except SheetgenError as exc:
        raise BadRequest(422, str(exc)) from None
    if len(pages) > MAX_PAGES:
        raise BadRequest(413, f"that is {len(pages)} pages; the server makes at most {MAX_PAGES} "
                              "per PDF: ask for fewer copies")
    return pdf_bytes(pages, loaded.doc.title, hooks=hooks)


def render_png(pdf: str, page: int) -> bytes:
    """Page `page` (1-based) of a PDF file as a PNG PREVIEW_WIDTH pixels wide, drawn by pdfium
    (the worker reads the cached file: the PDF is not sent to it once per page)."""
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(pdf)
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


def make_kit(product: str, paper: str, copies: int, base_url: str | None) -> bytes:
    return kit.merge(kit.make(product, paper, copies, base_url))


_BASELINES: dict[str, float] = {}  # per worker process (a server has one variant Settings)


def make_variant(game: str, seed: int, out_dir: str, settings: variant.Settings,
                 candidate: int | None = None) -> dict:
    """Generate, validate and keep the variant of `seed` (once), with its validation report; with
    `candidate`, that candidate of the search of `seed` (as `sheetgen variant --candidate` makes it)."""
    from ..kinds import load
    from ..validate.run import check

    path = Path(out_dir) / (f"{game}-{seed}.yaml" if candidate is None else f"{game}-{seed}-c{candidate}.yaml")
    made = None
    try:
        if not path.exists() and candidate is not None:
            made = variant.make_drawn(game, seed, candidate, Path(out_dir), s=settings)
        elif not path.exists():
            if game not in _BASELINES:
                _BASELINES[game] = variant.baseline_mean(game, settings)
            made = variant.make(game, seed, Path(out_dir), settings, baseline=_BASELINES[game])
        loaded = load(path)
    except SheetgenError as exc:
        raise BadRequest(422, str(exc)) from None
    # the generator's own report; a variant already on disk is played again on the same games
    report = made.report if made else check(loaded, settings.games, seed, 1)
    return {"yaml": str(path), "id": loaded.doc.variant.id, "report": report.to_dict(),
            "mean": report.score_mean("greedy"), "baseline": _BASELINES.get(game)}


def pdf_info(pdf: bytes) -> tuple[int, str]:
    """Page count and title of a PDF."""
    from pypdf import PdfReader

    reader = PdfReader(io.BytesIO(pdf))
    return len(reader.pages), str(reader.metadata.title)


def _warm() -> None:
    """Worker start: import and register what the jobs need, so the first request is not slow."""
    from ..draw import register_fonts
    from ..validate import run  # noqa: F401

    register_fonts()


# -- the store: in the server process ------------------------------------------------------------

@dataclass(frozen=True)
class Blob:
    etag: str  # quoted, from the content
    data: bytes


def _blob(data: bytes) -> Blob:
    return Blob(f'"{hashlib.sha256(data).hexdigest()[:32]}"', data)


def code_stamp() -> str:
    """A stamp of sheetgen's code, fonts, templates and the libraries that write the bytes (the
    build's own digest): a kept cache folder is not reused after an upgrade."""
    from ..build import code_digest

    return code_digest()[:12]


@lru_cache(maxsize=256)
def _paper(path: Path, stamp: int) -> str:
    from ..kinds import load

    return load(path).doc.layout.paper


def _keep(cache: dict, key, value, most: int = 256):
    """Put `value` in a dict kept to `most` entries (the oldest go first)."""
    cache[key] = value
    while len(cache) > most:
        cache.pop(next(iter(cache)))
    return value


class Pool:
    """Worker processes: at most `workers` jobs run, at most QUEUE wait; equal jobs share one run.
    A pool whose worker died (killed, out of memory) is replaced, and its jobs answered 503."""

    def __init__(self, workers: int):
        self.workers = workers
        self.executor = self._new()
        self.jobs: dict[str, asyncio.Future] = {}

    def _new(self) -> ProcessPoolExecutor:
        ctx = multiprocessing.get_context("forkserver")  # not fork: the server runs threads
        ctx.set_forkserver_preload(["sheetgen.web.work", "sheetgen.draw", "sheetgen.validate.run"])
        return ProcessPoolExecutor(self.workers, mp_context=ctx, initializer=_warm)

    def start(self) -> None:
        """Start the workers now (they start on the first job otherwise)."""
        for _ in range(self.workers):
            self.executor.submit(_warm)

    async def run(self, key: str, fn, *args):
        try:
            if key not in self.jobs:
                if len(self.jobs) >= QUEUE:
                    raise BadRequest(503, "the server is busy; try again in a few seconds")
                fut = asyncio.get_running_loop().run_in_executor(self.executor, fn, *args)
                self.jobs[key] = fut
                fut.add_done_callback(lambda _f: self.jobs.pop(key, None))
            return await asyncio.shield(self.jobs[key])
        except BrokenProcessPool:
            self.executor.shutdown(wait=False, cancel_futures=True)
            self.executor = self._new()
            raise BadRequest(503, "a worker of the server stopped; try again") from None

    def close(self) -> None:
        self.executor.shutdown(wait=True, cancel_futures=True)


class Store:
    """Renders through the pools and caches by content. `etag(key)` answers without work once a
    result is known; a known result is read back from the cache folder."""

    def __init__(self, cache_dir: Path, base_url: str | None, workers: int,
                 settings: variant.Settings = variant.Settings()):
        self.dir = Path(cache_dir)
        self.settings = settings  # how variants are made: `sheetgen variant`'s defaults
        self.base_url = base_url
        self.layouts = {p.stem: p for p in known_layouts()}
        self.code = code_stamp()
        self.pool = Pool(workers)
        self.variants = Pool(1)  # one variant at a time: each plays thousands of games
        self._etags: dict[str, str] = {}
        self._info: dict[str, tuple[int, str]] = {}
        self._reports: dict[tuple[str, int, int | None], dict] = {}

    def start(self) -> None:
        self.pool.start()
        self.variants.start()

    def close(self) -> None:
        self.pool.close()
        self.variants.close()

    # -- cache -----------------------------------------------------------------------------
    def etag(self, key: str) -> str | None:
        return self._etags.get(key)

    def _file(self, key: str, ext: str) -> Path:
        return self.dir / ext / f"{hashlib.sha256(key.encode()).hexdigest()[:40]}.{ext}"

    async def _cached(self, key: str, ext: str, fn, *args) -> Blob:
        from ..output import write_atomic

        path = self._file(key, ext)
        if path.exists():
            blob = _blob(await asyncio.to_thread(path.read_bytes))
        else:
            blob = _blob(await self.pool.run(key, fn, *args))
            await asyncio.to_thread(write_atomic, path, blob.data)
        _keep(self._etags, key, blob.etag, 100_000)
        return blob

    def key(self, sheet: links.Sheet, what: str = "pdf") -> str:
        return f"{what}|{self.code}|{self.base_url}|{sheet.path()}|{self.layouts[sheet.name].stat().st_mtime_ns}"

    # -- checks ----------------------------------------------------------------------------
    def check(self, sheet: links.Sheet) -> links.Sheet:
        if sheet.name not in self.layouts:
            raise BadRequest(404, f"no layout named '{sheet.name}'; the home page lists them")
        if sheet.candidate is not None and sheet.seed is None:
            raise BadRequest(422, "candidate: a search's candidate needs the search's seed too")
        if sheet.seed is not None and sheet.name not in variant.GAMES:
            raise BadRequest(422, f"'{sheet.name}' has no variants; variants exist for "
                                  f"{', '.join(variant.GAMES)}")
        return sheet

    def products(self) -> list[str]:
        return kit.products()

    def paper(self, name: str) -> str:
        """The paper a layout names (its links say it)."""
        path = self.layouts[name]
        return _paper(path, path.stat().st_mtime_ns)

    # -- work ------------------------------------------------------------------------------
    async def pdf(self, sheet: links.Sheet) -> Blob:
        path = self.layouts[sheet.name]
        if sheet.seed is not None:
            path = (await self.variant(sheet.name, sheet.seed, sheet.candidate))["yaml"]
        return await self._cached(self.key(sheet), "pdf", render_pdf, str(path), sheet, self.base_url)

    async def info(self, sheet: links.Sheet) -> tuple[int, str]:
        key = self.key(sheet)
        if key not in self._info:
            _keep(self._info, key, await asyncio.to_thread(pdf_info, (await self.pdf(sheet)).data))
        return self._info[key]

    async def png(self, sheet: links.Sheet, page: int) -> Blob:
        key = self.key(sheet, f"png{page}")
        if not self._file(key, "png").exists():
            await self.pdf(sheet)  # made and cached first: the worker reads it from its file
            return await self._cached(key, "png", render_png, str(self._file(self.key(sheet), "pdf")), page)
        return await self._cached(key, "png", None)

    def kit_key(self, product: str, form: KitForm) -> str:
        stamps = ",".join(str(p.stat().st_mtime_ns) for _, p in sorted(self.layouts.items()))
        return f"kit|{self.code}|{self.base_url}|{product}|{form.paper}|{form.copies}|{stamps}"

    async def kit(self, product: str, form: KitForm) -> Blob:
        if product not in self.products():
            raise BadRequest(404, f"no game named '{product}'; the home page lists them")
        return await self._cached(self.kit_key(product, form), "pdf", make_kit, product, form.paper,
                                  form.copies, self.base_url)

    async def variant(self, game: str, seed: int, candidate: int | None = None) -> dict:
        """The variant's layout file and its validation report, made once."""
        key = (game, seed, candidate)
        if key not in self._reports:
            out = str(self.dir / f"variants-{self.settings.games}-{self.settings.band:g}")
            job = self.variants.run(f"variant|{game}|{seed}|{candidate}", make_variant, game, seed, out,
                                    self.settings, candidate)
            _keep(self._reports, key, await job)
        return self._reports[key]
