"""The Starlette application: pages, PDFs and previews; the work runs in `work.Store`'s pools.

Links (`sheetgen.links`) name a sheet as `/S/NAME/TOKENS`; the routes answer either case, so the
upper-case links printed in QR codes open the same pages as the lower-case ones the site uses.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import tempfile
from pathlib import Path

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, PlainTextResponse, RedirectResponse, Response
from starlette.routing import Route

from .. import kit, links, variant
from ..documents import render_html
from ..errors import SheetgenError
from .work import MAX_COPIES, MAX_KIT_COPIES, MAX_SEED, BadRequest, KitForm, SheetForm, Store, checked, sheet_of

PREVIEW_PAGES = 8  # previews shown on a sheet page


def page(template: str, status: int = 200, **context) -> HTMLResponse:
    return HTMLResponse(render_html(f"web/{template}.html.j2", **context), status_code=status)


def _sheet(request: Request) -> links.Sheet:
    p = request.path_params
    try:
        sheet = links.parse(p["name"], p["tokens"])
    except SheetgenError as exc:
        raise BadRequest(404, str(exc)) from None
    form = checked(SheetForm, **dataclasses.asdict(sheet))
    return request.app.state.store.check(sheet_of(form))


def _cached(request: Request, etag: str | None) -> bool:
    return etag is not None and etag in request.headers.get("if-none-match", "")


def _send(blob, media: str, request: Request, filename: str | None = None) -> Response:
    headers = {"ETag": blob.etag, "Cache-Control": "public, max-age=3600"}
    if filename:
        headers["Content-Disposition"] = f'attachment; filename="{filename}"'
    return Response(blob.data, media_type=media, headers=headers)


async def _blob(request: Request, key: str, make, media: str, filename: str | None = None):
    """A cached result: 304 when the client has it (known without work), else the bytes."""
    store: Store = request.app.state.store
    if _cached(request, store.etag(key)):
        return Response(status_code=304, headers={"ETag": store.etag(key)})
    blob = await make()
    if _cached(request, blob.etag):
        return Response(status_code=304, headers={"ETag": blob.etag})
    return _send(blob, media, request, filename)


def catalogue() -> list[tuple[str, str, list, list]]:
    """(product, title, its games, its components) of every product: reads and checks layouts."""
    out = []
    for product in kit.products():
        games = [g for g in kit.rules_games() if g.product == product]
        out.append((product, kit.product_title(product, games), games, kit.components(product)))
    return out


async def home(request: Request):
    store: Store = request.app.state.store
    games = await asyncio.to_thread(catalogue)
    return page("home", games=games, layouts=sorted(store.layouts), max_copies=MAX_COPIES)


async def game(request: Request):
    product = request.path_params["product"]
    found = [row for row in await asyncio.to_thread(catalogue) if row[0] == product]
    if not found:
        raise BadRequest(404, f"no game named '{product}'; the home page lists them")
    _, title, games, comps = found[0]
    ids = {g.id for g in games}
    return page("game", product=product, title=title, games=games,
                comps=[(c, links.Sheet(c.path.stem, game=c.game)) for c in comps],
                variants=[g for g in variant.GAMES if g in ids], max_kit_copies=MAX_KIT_COPIES,
                max_seed=MAX_SEED)


async def go(request: Request):
    """The home and sheet forms: check the fields, then redirect to the sheet's own page."""
    q = request.query_params
    fields = {k: v for k, v in q.items() if v != "" and k != "ink_saver"}
    fields["ink_saver"] = q.get("ink_saver") == "on"
    form = checked(SheetForm, **fields)
    sheet = request.app.state.store.check(sheet_of(form))
    return RedirectResponse("/" + sheet.path().lower(), status_code=303)


async def sheet_page(request: Request):
    sheet = _sheet(request)
    store: Store = request.app.state.store
    report = await store.variant(sheet.name, sheet.seed, sheet.candidate) if sheet.seed is not None else None
    pages, title = await store.info(sheet)
    here = "/" + sheet.path().lower()
    return page("sheet", sheet=sheet, here=here, pages=pages, shown=min(pages, PREVIEW_PAGES),
                title=title, link=store.base_url and links.url(store.base_url, sheet),
                report=report, max_copies=MAX_COPIES, variants=variant.GAMES, max_seed=MAX_SEED)


async def sheet_root(request: Request):
    """`/S/NAME`: the layout as it is, on its own paper."""
    store: Store = request.app.state.store
    name = request.path_params["name"].lower()
    store.check(links.Sheet(name))
    paper = await asyncio.to_thread(store.paper, name)
    return RedirectResponse("/" + links.Sheet(name, paper).path().lower(), status_code=303)


async def sheet_pdf(request: Request):
    sheet = _sheet(request)
    store: Store = request.app.state.store
    name = f"{sheet.name}-{sheet.tokens().lower().replace('.', '-')}.pdf"
    return await _blob(request, store.key(sheet), lambda: store.pdf(sheet), "application/pdf", name)


async def sheet_png(request: Request):
    sheet = _sheet(request)
    store: Store = request.app.state.store
    n = request.path_params["page"]
    return await _blob(request, store.key(sheet, f"png{n}"), lambda: store.png(sheet, n), "image/png")


async def variant_page(request: Request):
    """`/variant/GAME?seed=N`: generate and validate the variant, then show its sheet page."""
    game = request.path_params["game"]
    seed = request.query_params.get("seed", "")
    form = checked(SheetForm, name=game, seed=seed or None)
    if form.seed is None:
        raise BadRequest(422, "seed: give a seed, e.g. ?seed=7")
    sheet = request.app.state.store.check(sheet_of(form))
    return RedirectResponse("/" + links.Sheet(game, sheet.paper, seed=sheet.seed).path().lower(),
                            status_code=303)


async def kit_pdf(request: Request):
    store: Store = request.app.state.store
    product = request.path_params["product"]
    form = checked(KitForm, **dict(request.query_params))
    if product not in store.products():
        raise BadRequest(404, f"no game named '{product}'; the home page lists them")
    return await _blob(request, store.kit_key(product, form), lambda: store.kit(product, form),
                       "application/pdf", kit.default_name(product, form.paper))


async def health(request: Request):
    return PlainTextResponse("ok")


async def refused(request: Request, exc: BadRequest):
    if "text/html" in request.headers.get("accept", ""):
        return page("error", status=exc.status, message=str(exc))
    headers = {"Retry-After": "5"} if exc.status == 503 else None
    return PlainTextResponse(str(exc) + "\n", status_code=exc.status, headers=headers)


def routes() -> list[Route]:
    out = [Route("/", home), Route("/health", health), Route("/go", go),
           Route("/game/{product}", game), Route("/variant/{game}", variant_page),
           Route("/kit/{product}.pdf", kit_pdf)]
    for s in ("s", "S"):
        out += [Route(f"/{s}/{{name}}", sheet_root),
                Route(f"/{s}/{{name}}/{{tokens}}", sheet_page),
                Route(f"/{s}/{{name}}/{{tokens}}/sheet.pdf", sheet_pdf),
                Route(f"/{s}/{{name}}/{{tokens}}/{{page:int}}.png", sheet_png)]
    return out


def create_app(base_url: str | None = None, cache_dir: Path | None = None, workers: int = 2,
               settings: variant.Settings = variant.Settings()) -> Starlette:
    """The application. `base_url`: the address QR codes link to (None: they keep their text);
    `cache_dir`: where PDFs and previews are kept (default: a new temporary folder); `workers`:
    processes rendering at the same time; `settings`: how variants are made and checked (the
    defaults of `sheetgen variant`, so a variant's link makes the variant the command makes)."""
    cache = Path(cache_dir) if cache_dir else Path(tempfile.mkdtemp(prefix="sheetgen-web-"))
    store = Store(cache, base_url and links.base(base_url), workers, settings)

    @contextlib.asynccontextmanager
    async def lifespan(app):
        store.start()
        yield
        store.close()

    app = Starlette(routes=routes(), exception_handlers={BadRequest: refused}, lifespan=lifespan)
    app.state.store = store
    return app
