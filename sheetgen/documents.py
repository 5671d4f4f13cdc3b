"""Flowing documents: Jinja2 templates in `templates/` rendered to PDF by WeasyPrint.

Templates autoescape everything they insert; rules text passes through `rich`, which lets only
<b>, <i> and <br/> through. WeasyPrint is imported only when a document is made (it is slow to
import), fetches nothing but the package's own files (fonts and templates), and writes the same
bytes for the same input because SOURCE_DATE_EPOCH is fixed while it works.
"""

from __future__ import annotations

import atexit
import contextlib
import html
import mimetypes
import os
import re
from functools import lru_cache
from pathlib import Path
from urllib.parse import unquote, urlsplit

from markupsafe import Markup, escape

from .columns import STYLE
from .draw import FONT_DIR
from .resources import shipped

TEMPLATES = shipped("templates")
ALLOWED = (FONT_DIR.resolve(), TEMPLATES.resolve())  # the only places WeasyPrint may read
EPOCH = "1767225600"  # 2026-01-01: the date written into documents unless SOURCE_DATE_EPOCH is set
_TAGS = re.compile(r"&lt;(/?[bi]|br ?/?)&gt;")
_STYLE = re.compile(r"<style>(.*?)</style>", re.S)


def rich(text: str) -> Markup:
    """Rules markup to safe HTML: escape everything, then let <b>, <i> and <br/> back in.
    Entities in the source (e.g. &amp;) are read first, so they are not escaped twice."""
    safe = str(escape(html.unescape(text)))
    return Markup(_TAGS.sub(lambda m: "<br/>" if m.group(1).startswith("br") else f"<{m.group(1)}>",
                            safe))


def css_string(text: str) -> Markup:
    """A quoted CSS string, for text placed in a style sheet (where HTML escapes do not apply)."""
    body = str(text).replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\A ")
    return Markup('"' + body.replace("<", "\\3C ") + '"')


@lru_cache(maxsize=1)
def environment():
    import jinja2

    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(TEMPLATES)), autoescape=True,
                             undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True)
    env.filters["rich"] = rich
    env.filters["css"] = css_string
    env.globals["fonts"] = FONT_DIR.resolve().as_uri()
    env.globals["rules_style"] = STYLE
    return env


def render_html(template: str, **context) -> str:
    return environment().get_template(template).render(**context)


def allowed_path(url: str) -> Path | None:
    """The local file a URL names, when it is one of the package's own files; else None."""
    parts = urlsplit(url)
    if parts.scheme != "file" or parts.netloc not in ("", "localhost"):
        return None
    path = Path(unquote(parts.path)).resolve()
    if not path.is_file() or not any(path.is_relative_to(root) for root in ALLOWED):
        return None
    return path


def fetcher():
    """A WeasyPrint URL fetcher that serves the package's own files and refuses everything else
    (web, data: URLs, other local files). Refused URLs are kept in `.refused`."""
    from weasyprint.urls import URLFetcher, URLFetcherResponse

    class PackageFetcher(URLFetcher):
        def __init__(self):
            super().__init__()
            self.refused: list[str] = []

        def fetch(self, url, headers=None):
            path = allowed_path(url)
            if path is None:
                self.refused.append(url)
                raise ValueError(f"sheetgen fetches only its own files, not {url}")
            kind = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
            return URLFetcherResponse(path.as_uri(), path.read_bytes(),
                                      {"Content-Type": kind})

    return PackageFetcher()


@contextlib.contextmanager
def _fixed_date():
    old = os.environ.get("SOURCE_DATE_EPOCH")
    os.environ["SOURCE_DATE_EPOCH"] = old or EPOCH
    try:
        yield
    finally:
        if old is None:
            del os.environ["SOURCE_DATE_EPOCH"]


@lru_cache(maxsize=1)
def _fonts():
    """One WeasyPrint font configuration per process: the bundled fonts are loaded once."""
    from weasyprint.text.fonts import FontConfiguration

    # dropped at exit while the interpreter still runs (it deletes its folder of font files then)
    atexit.register(_fonts.cache_clear)  # after the sheets (atexit runs last in, first out)
    atexit.register(_sheet.cache_clear)
    return FontConfiguration()


@lru_cache(maxsize=32)
def _sheet(css: str):
    """A style sheet parsed once per process (its @font-face fonts added to `_fonts()`)."""
    from weasyprint import CSS

    return CSS(string=css, base_url=TEMPLATES.as_uri() + "/", url_fetcher=fetcher(),
               font_config=_fonts())


def layout(text: str, url_fetcher=None):
    """Lay out HTML with WeasyPrint; the result has `.pages` (each with `.anchors`) and
    `.write_pdf()`. Use `pdf()` to write it deterministically. With the package's own fetcher
    (no `url_fetcher`), the <style> sheets are parsed once per process and the fonts loaded
    once: the same bytes as parsing them in place, as the only other rules are style attributes
    (no presentational hints)."""
    import logging

    from weasyprint import HTML

    for name in ("weasyprint", "fontTools"):  # refused URLs and font-table notes are not news
        logging.getLogger(name).setLevel(logging.ERROR)
    base = TEMPLATES.as_uri() + "/"
    with _fixed_date():
        if url_fetcher:
            return HTML(string=text, base_url=base, url_fetcher=url_fetcher).render()
        sheets = [_sheet(css.strip()) for css in _STYLE.findall(text)]
        return HTML(string=_STYLE.sub("", text), base_url=base, url_fetcher=fetcher()).render(
            stylesheets=sheets, font_config=_fonts())


def warm() -> None:
    """Load what the kit documents need once (WeasyPrint's modules, the kit style and its fonts,
    the hyphenation dictionary): `sheetgen build` calls this before it forks its workers."""
    page = '<html lang="en"><body class="rules"><p style="hyphens: auto; width: 15mm">Hyphenation hyphenation</p></body></html>'
    pdf(layout(f"<style>{render_html('kit.css.j2')}</style>{page}"))


def pdf(doc, variant: str | None = None) -> bytes:
    """PDF bytes of a laid-out document; the same document gives the same bytes. `variant` is a
    WeasyPrint pdf_variant such as "pdf/x-4" (its dates fixed too)."""
    with _fixed_date():
        if not variant:
            return doc.write_pdf()
        import datetime

        when = datetime.datetime.fromtimestamp(int(os.environ["SOURCE_DATE_EPOCH"]),
                                               datetime.timezone.utc).isoformat()
        doc.metadata.created = doc.metadata.modified = when
        doc.metadata = _fixed_id(doc.metadata, repr((doc.metadata.title, len(doc.pages), variant)))
        return doc.write_pdf(pdf_variant=variant)


def _fixed_id(metadata, seed: str):
    """The document's metadata, its PDF/X document id (random in WeasyPrint's XMP, and hashed into
    the file /ID) derived from `seed` instead, so the same document gives the same bytes."""
    import uuid

    from weasyprint.document import DocumentMetadata

    did = f"xmp.did:{uuid.uuid5(uuid.NAMESPACE_OID, seed)}".encode()

    class Fixed(DocumentMetadata):
        def generate_rdf_metadata(self, *args):
            return re.sub(rb"xmp\.did:[0-9a-f-]{36}", did, super().generate_rdf_metadata(*args))

    return Fixed(**vars(metadata))


def pdf_from_html(text: str, url_fetcher=None) -> bytes:
    return pdf(layout(text, url_fetcher))


def document(template: str, **context) -> bytes:
    """Render a template to PDF bytes."""
    return pdf_from_html(render_html(template, **context))
