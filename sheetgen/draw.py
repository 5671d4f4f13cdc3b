"""The drawer: scene pages to a vector PDF with the reportlab canvas (deterministic output)."""

from __future__ import annotations

import io
from functools import lru_cache
from pathlib import Path

import qrcode
from reportlab.lib.enums import TA_CENTER, TA_LEFT, TA_RIGHT
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Paragraph

from .errors import SheetgenError
from .icons import draw_icon
from .output import write_atomic
from .paper import MM
from .scene import QR, Box, Circle, Group, Icon, Line, Page, Para, Style, Text

FONT_DIR = Path(__file__).parent / "fonts"
FONTS = {"regular": "Lato", "bold": "Lato-Bold", "italic": "Lato-Italic", "black": "Lato-Black"}
ALIGN = {"left": TA_LEFT, "center": TA_CENTER, "right": TA_RIGHT}
QUIET = 4  # modules of white around a QR code, inside its size


@lru_cache(maxsize=None)
def register_fonts() -> None:
    files = {"Lato": "Lato-Regular.ttf", "Lato-Bold": "Lato-Bold.ttf",
             "Lato-Italic": "Lato-Italic.ttf", "Lato-Black": "Lato-Black.ttf"}
    for name, file in files.items():
        pdfmetrics.registerFont(TTFont(name, str(FONT_DIR / file)))
    pdfmetrics.registerFontFamily("Lato", normal="Lato", bold="Lato-Bold", italic="Lato-Italic",
                                  boldItalic="Lato-Black")


def font_name(bold: bool = False, italic: bool = False) -> str:
    return FONTS["bold" if bold else "italic" if italic else "regular"]


def text_width_mm(text: str, size: float, bold: bool = False) -> float:
    register_fonts()
    return pdfmetrics.stringWidth(text, font_name(bold), size) / MM


@lru_cache(maxsize=256)
def qr_matrix(data: str) -> tuple[tuple[bool, ...], ...]:
    """The module matrix that `qrcode` makes for `data` (no quiet zone; draw one around it)."""
    qr = qrcode.QRCode(border=0, error_correction=qrcode.constants.ERROR_CORRECT_M)
    qr.add_data(data)
    qr.make(fit=True)
    return tuple(tuple(row) for row in qr.get_matrix())


@lru_cache(maxsize=4096)
def fit_paragraph(p: Para) -> tuple[Paragraph, float, float]:
    """Shrink the text until it fits its box; below `min_size` it is an error naming the element.
    Cached: a deck draws the same card text many times (a wrapped Paragraph can be drawn again)."""
    register_fonts()
    size = p.size
    while size >= p.min_size - 1e-9:
        style = ParagraphStyle("p", fontName="Lato", fontSize=size, leading=size * 1.18,
                               alignment=ALIGN[p.align], textColor=p.color)
        para = Paragraph(p.markup, style)
        _, h = para.wrap(p.w * MM, p.h * MM)
        if h <= p.h * MM + 0.01:
            return para, h, size
        size -= 0.25
    raise SheetgenError(f"text does not fit its {p.w:.0f}x{p.h:.0f} mm box even at {p.min_size:g} pt",
                        key=p.id or "text", fix="shorten the text or give it a larger box")


class Drawer:
    def __init__(self, c: Canvas, page: Page, shade: dict[str, float] | None = None,
                 forms: set[str] | None = None):
        self.c, self.page, self.shade = c, page, shade or {}
        self.forms = forms if forms is not None else set()  # forms already in the document

    def X(self, x: float) -> float:
        return x * MM

    def Y(self, y: float) -> float:
        return (self.page.height - y) * MM

    def _style(self, s: Style) -> tuple[int, int]:
        c = self.c
        if s.stroke:
            c.setStrokeColor(s.stroke)
            c.setLineWidth(s.width * MM)
        c.setDash([d * MM for d in s.dash] if s.dash else [])
        if s.fill:
            c.setFillColor(s.fill)
        return (1 if s.stroke else 0), (1 if s.fill else 0)

    def draw(self, items) -> None:
        self.c.setLineJoin(1)
        self._items(items, 0.0, 0.0)

    def _items(self, items, dx: float, dy: float) -> None:
        for it in items:
            if isinstance(it, Group):
                if it.form and not self.shade:
                    self._form(it, dx + it.dx, dy + it.dy)
                elif it.clip:
                    self._clipped(it, dx + it.dx, dy + it.dy)
                else:
                    self._items(it.items, dx + it.dx, dy + it.dy)
                continue
            getattr(self, "_" + type(it).__name__.lower())(it, dx, dy)
            if it.id in self.shade:
                self._heat(it, dx, dy, self.shade[it.id])

    def _clip(self, g: Group, dx: float, dy: float) -> None:
        x, y, w, h = g.clip
        p = self.c.beginPath()
        p.rect(self.X(x + dx), self.Y(y + dy + h), w * MM, h * MM)
        self.c.clipPath(p, stroke=0, fill=0)

    def _clipped(self, g: Group, dx: float, dy: float) -> None:
        """Draw a group's items only inside its clip rectangle (e.g. a card's bleed box)."""
        self.c.saveState()
        self._clip(g, dx, dy)
        self._items(g.items, dx, dy)
        self.c.restoreState()

    def _form(self, g: Group, dx: float, dy: float) -> None:
        """Draw the group's items once into a PDF form, then place the form (a deck repeats its
        cards and backs: each is drawn and stored once)."""
        c = self.c
        name = "sg" + "".join(ch if ch.isalnum() else "_" for ch in g.form)
        if name not in self.forms:
            c.beginForm(name, -2000, -2000, 2000, 2000)
            Drawer(c, Page(0.0, 0.0), None, self.forms)._items(g.items, 0.0, 0.0)  # y down from 0
            c.endForm()
            self.forms.add(name)
        c.saveState()
        if g.clip:
            self._clip(g, dx, dy)
        c.translate(self.X(dx), self.Y(dy))
        c.doForm(name)
        c.restoreState()

    def _box(self, b: Box, dx, dy):
        stroke, fill = self._style(b.style)
        x, y = self.X(b.x + dx), self.Y(b.y + dy + b.h)
        if b.radius:
            self.c.roundRect(x, y, b.w * MM, b.h * MM, b.radius * MM, stroke=stroke, fill=fill)
        else:
            self.c.rect(x, y, b.w * MM, b.h * MM, stroke=stroke, fill=fill)

    def _circle(self, o: Circle, dx, dy):
        stroke, fill = self._style(o.style)
        self.c.circle(self.X(o.cx + dx), self.Y(o.cy + dy), o.r * MM, stroke=stroke, fill=fill)

    def _line(self, ln: Line, dx, dy):
        stroke, fill = self._style(ln.style)
        p = self.c.beginPath()
        (x0, y0), *rest = ln.points
        p.moveTo(self.X(x0 + dx), self.Y(y0 + dy))
        for x, y in rest:
            p.lineTo(self.X(x + dx), self.Y(y + dy))
        if ln.closed:
            p.close()
        self.c.drawPath(p, stroke=stroke, fill=fill if ln.closed else 0)

    def _text(self, t: Text, dx, dy):
        c = self.c
        c.setFillColor(t.color)
        c.setFont(font_name(t.bold, t.italic), t.size)
        x, y = self.X(t.x + dx), self.Y(t.y + dy)
        {"left": c.drawString, "center": c.drawCentredString, "right": c.drawRightString}[t.align](
            x, y, t.text)

    def _para(self, p: Para, dx, dy):
        para, h, _ = fit_paragraph(p)
        top = self.Y(p.y + dy)
        if p.valign == "middle":
            top -= (p.h * MM - h) / 2
        para.drawOn(self.c, self.X(p.x + dx), top - h)

    def _icon(self, i: Icon, dx, dy):
        self.c.setDash([])
        draw_icon(self.c, i.name, self.X(i.cx + dx), self.Y(i.cy + dy), i.size, i.fill, i.mono)

    def _qr(self, q: QR, dx, dy):
        """The code inside its size with a 4-module quiet zone, on white."""
        m = qr_matrix(q.data)
        cell = q.size / (len(m) + 2 * QUIET)
        c = self.c
        c.setFillColor("#ffffff")
        c.rect(self.X(q.x + dx), self.Y(q.y + dy + q.size), q.size * MM, q.size * MM, stroke=0, fill=1)
        c.setFillColor("#000000")
        dx, dy = dx + QUIET * cell, dy + QUIET * cell
        for r, row in enumerate(m):
            col = 0
            while col < len(row):
                if row[col]:
                    start = col
                    while col < len(row) and row[col]:
                        col += 1
                    c.rect(self.X(q.x + dx + start * cell), self.Y(q.y + dy + (r + 1) * cell),
                           (col - start) * cell * MM, cell * MM, stroke=0, fill=1)
                col += 1

    def _heat(self, it, dx, dy, value: float):
        """Overlay a translucent red whose strength is how often the element was reached."""
        c = self.c
        c.saveState()
        c.setFillColorRGB(0.85, 0.1, 0.1, alpha=0.15 + 0.6 * max(0.0, min(1.0, value)))
        if isinstance(it, Circle):
            c.circle(self.X(it.cx + dx), self.Y(it.cy + dy), it.r * MM, stroke=0, fill=1)
        elif isinstance(it, Box):
            c.rect(self.X(it.x + dx), self.Y(it.y + dy + it.h), it.w * MM, it.h * MM, stroke=0, fill=1)
        elif isinstance(it, Icon):
            c.circle(self.X(it.cx + dx), self.Y(it.cy + dy), it.size * MM / 2, stroke=0, fill=1)
        c.restoreState()


def pdf_bytes(pages: list[Page], title: str, shade: dict[str, float] | None = None) -> bytes:
    """Draw pages into PDF bytes. Same pages give the same bytes (reportlab invariant mode)."""
    register_fonts()
    buf = io.BytesIO()
    c = Canvas(buf, invariant=1, pageCompression=1, initialFontName="Lato", initialFontSize=10)
    c.setTitle(title)
    c.setAuthor("sheetgen")
    c.setCreator("sheetgen")
    c.setSubject(title)
    forms: set[str] = set()
    for n, page in enumerate(pages):
        c.setPageSize((page.width * MM, page.height * MM))
        if page.label:
            c.bookmarkPage(f"p{n}")
            c.addOutlineEntry(page.label, f"p{n}", level=0)
        Drawer(c, page, shade, forms).draw(page.items)
        c.showPage()
    c.save()
    return buf.getvalue()


def write_pdf(pages: list[Page], path: str | Path, title: str,
              shade: dict[str, float] | None = None) -> Path:
    return write_atomic(path, pdf_bytes(pages, title, shade))
