"""The Starlette application: pages, PDFs and previews; work runs in a bounded thread pool.

Links (`sheetgen.links`) name a sheet as `/S/NAME/TOKENS`; the routes answer either case, so the
upper-case links printed in QR codes open the same pages as the lower-case ones the site uses.
"""

from __future__ import annotations

import asyncio
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, PlainTextResponse, RedirectResponse, Response
from starlette.routing import Route

from .. import kit, links, variant
from ..documents import render_html
from ..errors import SheetgenError
from .work import MAX_COPIES, MAX_KIT_COPIES, MAX_SEED, BadRequest, KitForm, SheetForm, Store, checked, sheet_of

QUEUE = 32  # jobs waiting or running; more is answered 503
PREVIEW_PAGES = 8  # previews shown on a sheet page


class Pool:
    """A bounded thread pool: at most `workers` jobs run, at most QUEUE wait; equal jobs share one run."""

    def __init__(self, workers: int):
        self.executor = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="sheetgen-web")
        self.jobs: dict[str, asyncio.Future] = {}

    async def run(self, key: str, fn, *args):
        if key not in self.jobs:
            if len(self.jobs) >= QUEUE:
                raise BadRequest(503, "the server is busy; try again in a few seconds")
            fut = asyncio.get_running_loop().run_in_executor(self.executor, fn, *args)
            self.jobs[key] = fut
            fut.add_done_callback(lambda _f: self.jobs.pop(key, None))
        return await asyncio.shield(self.jobs[key])


def page(template: str, status: int = 200, **context) -> HTMLResponse:
    return HTMLResponse(render_html(f"web/{template}.html.j2", **context), status_code=status)


def _sheet(request: Request) -> links.Sheet:
    p = request.path_params
    try:
        sheet = links.parse(p["name"], p["tokens"])
    except SheetgenError as exc:
        raise BadRequest(404, str(exc)) from None
    form = checked(SheetForm, **{k: v for k, v in sheet.__dict__.items()})
    return request.app.state.store.check(sheet_of(form))


def _cached(request: Request, etag: str | None) -> bool:
    return etag is not None and etag in request.headers.get("if-none-match", "")


def _send(blob, media: str, request: Request, filename: str | None = None) -> Response:
    headers = {"ETag": blob.etag, "Cache-Control": "public, max-age=3600"}
    if filename:
        headers["Content-Disposition"] = f'attachment; filename="{filename}"'
    return Response(blob.data, media_type=media, headers=headers)


async def _blob(request: Request, key: str, fn, *args, media: str, filename: str | None = None):
    store: Store = request.app.state.store
    if _cached(request, store.etag(key)):
        return Response(status_code=304, headers={"ETag": store.etag(key)})
    blob = await request.app.state.pool.run(key, fn, *args)
    if _cached(request, blob.etag):
        return Response(status_code=304, headers={"ETag": blob.etag})
    return _send(blob, media, request, filename)


async def home(request: Request):
    store: Store = request.app.state.store
    games = [(p, kit.product_title(p, [g for g in kit.rules_games() if g.product == p]), kit.components(p))
             for p in store.products()]
    return page("home", games=games, layouts=sorted(store.layouts), max_copies=MAX_COPIES)


async def game(request: Request):
    store: Store = request.app.state.store
    product = request.path_params["product"]
    if product not in store.products():
        raise BadRequest(404, f"no game named '{product}'; the home page lists them")
    games = [g for g in kit.rules_games() if g.product == product]
    comps = [(c, links.Sheet(c.path.stem, game=c.game)) for c in kit.components(product)]
    ids = {g.id for g in games}
    return page("game", product=product, title=kit.product_title(product, games), games=games,
                comps=comps, variants=[g for g in variant.GAMES if g in ids],
                max_kit_copies=MAX_KIT_COPIES, max_seed=MAX_SEED)


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
    key = store.key(sheet, "pages")
    pages, title = await request.app.state.pool.run(key, store.pages, sheet)
    here = "/" + sheet.path().lower()
    report = None
    if sheet.seed is not None:
        report = await request.app.state.pool.run(f"variant|{sheet.name}|{sheet.seed}", store.variant,
                                                  sheet.name, sheet.seed)
    return page("sheet", sheet=sheet, here=here, pages=pages, shown=min(pages, PREVIEW_PAGES),
                title=title, link=store.base_url and links.url(store.base_url, sheet),
                report=report, max_copies=MAX_COPIES)


async def sheet_root(request: Request):
    """`/S/NAME`: the layout as it is, on its own paper."""
    store: Store = request.app.state.store
    name = request.path_params["name"].lower()
    store.check(links.Sheet(name))
    return RedirectResponse("/" + links.Sheet(name, store.paper(name)).path().lower(), status_code=303)


async def sheet_pdf(request: Request):
    sheet = _sheet(request)
    store: Store = request.app.state.store
    name = f"{sheet.name}-{sheet.tokens().lower().replace('.', '-')}.pdf"
    return await _blob(request, store.key(sheet), store.pdf, sheet, media="application/pdf", filename=name)


async def sheet_png(request: Request):
    sheet = _sheet(request)
    store: Store = request.app.state.store
    n = request.path_params["page"]
    return await _blob(request, store.key(sheet, f"png{n}"), store.png, sheet, n, media="image/png")


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
    key = f"kit|{product}|{form.paper}|{form.copies}"
    return await _blob(request, key, store.kit, product, form, media="application/pdf",
                       filename=kit.default_name(product, form.paper))


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


def create_app(base_url: str | None = None, cache_dir: Path | None = None, workers: int = 2) -> Starlette:
    """The application. `base_url`: the address QR codes link to (None: they keep their text);
    `cache_dir`: where PDFs and previews are kept (default: a new temporary folder)."""
    from ..draw import register_fonts

    register_fonts()
    app = Starlette(routes=routes(), exception_handlers={BadRequest: refused})
    cache = Path(cache_dir) if cache_dir else Path(tempfile.mkdtemp(prefix="sheetgen-web-"))
    app.state.store = Store(cache, base_url and links.base(base_url))
    app.state.pool = Pool(workers)
    return app
