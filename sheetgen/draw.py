"""The drawer: scene pages to a vector PDF with the reportlab canvas (deterministic output)."""

from __future__ import annotations

import io
import math
from functools import lru_cache
from pathlib import Path

import qrcode
from reportlab.lib.colors import Color, toColor
from reportlab.lib.enums import TA_CENTER, TA_LEFT, TA_RIGHT
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfgen.canvas import PATH_OPS, Canvas
from reportlab.platypus import Paragraph

from .errors import SheetgenError
from .icons import DEFAULT_FILL, draw_unit
from .output import write_atomic
from .paper import MM
from .pdf_reuse import IconForm, num, pack_once, truetype
from .resources import shipped
from .text import check_markup
from .scene import QR, Box, Circle, Group, Icon, Line, Page, Para, Style, Text

FONT_DIR = shipped("fonts")
FONTS = {"regular": "Lato", "bold": "Lato-Bold", "italic": "Lato-Italic", "black": "Lato-Black"}
ALIGN = {"left": TA_LEFT, "center": TA_CENTER, "right": TA_RIGHT}
QUIET = 4  # modules of white around a QR code, inside its size
KAPPA = 0.5522847498307936  # a quarter circle's Bezier control distance, as a fraction of r


@lru_cache(maxsize=None)
def colour(value: str) -> Color:
    """A colour string as a reportlab Color, parsed once (reportlab parses strings on every use)."""
    return toColor(value)


class FastCanvas(Canvas):
    """A reportlab canvas that reads each colour string once (icons and styles repeat a few)."""

    def setFillColor(self, aColor, alpha=None):
        super().setFillColor(colour(aColor) if isinstance(aColor, str) else aColor, alpha)

    def setStrokeColor(self, aColor, alpha=None):
        super().setStrokeColor(colour(aColor) if isinstance(aColor, str) else aColor, alpha)


@lru_cache(maxsize=None)
def register_fonts() -> None:
    files = {"Lato": "Lato-Regular.ttf", "Lato-Bold": "Lato-Bold.ttf",
             "Lato-Italic": "Lato-Italic.ttf", "Lato-Black": "Lato-Black.ttf"}
    for name, file in files.items():
        pdfmetrics.registerFont(truetype(name, str(FONT_DIR / file)))
    pdfmetrics.registerFontFamily("Lato", normal="Lato", bold="Lato-Bold", italic="Lato-Italic",
                                  boldItalic="Lato-Black")


def font_name(bold: bool = False, italic: bool = False) -> str:
    return FONTS["bold" if bold else "italic" if italic else "regular"]


@lru_cache(maxsize=8192)  # the lint measures every text of every page; labels repeat
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
    try:
        check_markup(p.markup, bare_amp=True)  # the last gate before reportlab's parser: no <img>, <a>, <font>
    except ValueError as exc:
        raise SheetgenError(f"bad markup in text '{p.id or p.markup[:30]}': {exc}", key=p.id or "text",
                            fix="use only <b>, <i> and <br/>, and write & as &amp;") from None
    size = p.size
    while size >= p.min_size - 1e-9:
        style = ParagraphStyle("p", fontName="Lato", fontSize=size, leading=size * 1.18,
                               alignment=ALIGN[p.align], textColor=colour(p.color))
        para = Paragraph(p.markup, style)
        _, h = para.wrap(p.w * MM, p.h * MM)
        if h <= p.h * MM + 0.01:
            return para, h, size
        size -= 0.25
    raise SheetgenError(f"text does not fit its {p.w:.0f}x{p.h:.0f} mm box even at {p.min_size:g} pt",
                        key=p.id or "text", fix="shorten the text or give it a larger box")


_ICON_CODE: dict[tuple, tuple[str, ...]] = {}  # an icon form's operators, by form name and colour space


@lru_cache(maxsize=None)
def form_name(key: str) -> str:
    """A PDF form name for a key (letters, digits and _ only)."""
    return "".join(ch if ch.isalnum() else "_" for ch in key)


class Drawer:
    def __init__(self, c: Canvas, page: Page, shade: dict[str, float] | None = None,
                 forms: set[str] | None = None):
        self.c, self.page, self.shade = c, page, shade or {}
        self.forms = forms if forms is not None else set()  # forms already in the document
        # The pen last set on this page's stream (outside any saved state): unchanged settings
        # are not written again. Everything that saves and restores state leaves it as it was.
        self.pen: dict[str, object] = {}

    def X(self, x: float) -> float:
        return x * MM

    def Y(self, y: float) -> float:
        return (self.page.height - y) * MM

    def _style(self, s: Style) -> tuple[int, int]:
        c, pen = self.c, self.pen
        if s.stroke:
            if pen.get("stroke") != s.stroke:
                c.setStrokeColor(s.stroke)
                pen["stroke"] = s.stroke
            if pen.get("width") != s.width:
                c.setLineWidth(s.width * MM)
                pen["width"] = s.width
        if pen.get("dash") != (s.dash or ()):  # unknown at first: a form inherits its caller's
            c.setDash([d * MM for d in s.dash] if s.dash else [])
            pen["dash"] = s.dash or ()
        if s.fill:
            self._fill(s.fill)
        return (1 if s.stroke else 0), (1 if s.fill else 0)

    def _fill(self, colour: str) -> None:
        if self.pen.get("fill") != colour:
            self.c.setFillColor(colour)
            self.pen["fill"] = colour

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
            kind = type(it)
            draw = _DRAW.get(kind) or getattr(Drawer, "_" + kind.__name__.lower())
            draw(self, it, dx, dy)
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
        pen = dict(self.pen)
        self._clip(g, dx, dy)
        self._items(g.items, dx, dy)
        self.c.restoreState()
        self.pen = pen

    def _form(self, g: Group, dx: float, dy: float) -> None:
        """Draw the group's items once into a PDF form, then place the form (a deck repeats its
        cards and backs: each is drawn and stored once)."""
        c = self.c
        name = form_name("sg" + g.form)
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
        """Written as reportlab's rect and roundRect write it, without building a path object."""
        stroke, fill = self._style(b.style)
        c = self.c
        x, y, w, h = self.X(b.x + dx), self.Y(b.y + dy + b.h), b.w * MM, b.h * MM
        ops = PATH_OPS[stroke, fill, c._fillMode]
        if not b.radius:
            c._code.append(f"n {num(x, y, w, h)} re {ops}")
            return
        r = b.radius * MM
        t = 0.4472 * r  # reportlab's corner factor
        xlo, xhi = min(x, x + w), max(x, x + w)
        ylo, yhi = min(y, y + h), max(y, y + h)
        c._code.append(
            f"n\n{num(xlo + r, ylo)} m\n{num(xhi - r, ylo)} l\n"
            f"{num(xhi - t, ylo, xhi, ylo + t, xhi, ylo + r)} c\n{num(xhi, yhi - r)} l\n"
            f"{num(xhi, yhi - t, xhi - t, yhi, xhi - r, yhi)} c\n{num(xlo + r, yhi)} l\n"
            f"{num(xlo + t, yhi, xlo, yhi - t, xlo, yhi - r)} c\n{num(xlo, ylo + r)} l\n"
            f"{num(xlo, ylo + t, xlo + t, ylo, xlo + r, ylo)} c\nh\n{ops}")

    def _circle(self, o: Circle, dx, dy):
        stroke, fill = self._style(o.style)
        x, y, r = self.X(o.cx + dx), self.Y(o.cy + dy), o.r * MM
        k = r * KAPPA  # four Bezier quarters, written directly (reportlab's arcs use trigonometry)
        self.c.addLiteral(f"{num(x + r, y)} m {num(x + r, y + k, x + k, y + r, x, y + r)} c "
                          f"{num(x - k, y + r, x - r, y + k, x - r, y)} c "
                          f"{num(x - r, y - k, x - k, y - r, x, y - r)} c "
                          f"{num(x + k, y - r, x + r, y - k, x + r, y)} c h "
                          + PATH_OPS[stroke, fill, self.c._fillMode])

    def _line(self, ln: Line, dx, dy):
        """Written as reportlab's path object and drawPath write it."""
        stroke, fill = self._style(ln.style)
        c = self.c
        (x0, y0), *rest = ln.points
        ops = [f"n {num(self.X(x0 + dx), self.Y(y0 + dy))} m"]
        ops += [f"{num(self.X(x + dx), self.Y(y + dy))} l" for x, y in rest]
        if ln.closed:
            ops.append("h")
        c._code.append(" ".join(ops) + "\n" + PATH_OPS[stroke, fill if ln.closed else 0, c._fillMode])

    def _text(self, t: Text, dx, dy):
        """Written as reportlab's drawString (and its centred and right forms) writes it with a
        TrueType font, without building a text object."""
        c = self.c
        self._fill(t.color)
        name = font_name(t.bold, t.italic)
        if self.pen.get("font") != (name, t.size):
            c.setFont(name, t.size)
            self.pen["font"] = (name, t.size)
        font = pdfmetrics.getFont(name)
        x, y = self.X(t.x + dx), self.Y(t.y + dy)
        if t.align != "left":
            width = font.stringWidth(t.text, t.size)
            x = x - width if t.align == "right" else x - 0.5 * width
        doc, tf, ops, cur = c._doc, f"{num(t.size)} Tf {num(c._leading)} TL", [], -1
        for subset, chunk in font.splitString(t.text, doc):
            if subset != cur:
                ops.append(f"{font.getSubsetInternalName(subset, doc)} {tf}")
                cur = subset
            ops.append(f"({c._escape(chunk)}) Tj")
        c._code.append(f"BT 1 0 0 1 {num(x, y)} Tm {' '.join(ops)} T* ET")

    def _para(self, p: Para, dx, dy):
        para, h, _ = fit_paragraph(p)
        top = self.Y(p.y + dy)
        if p.valign == "middle":
            top -= (p.h * MM - h) / 2
        para.drawOn(self.c, self.X(p.x + dx), top - h)

    def _icon(self, i: Icon, dx, dy):
        """Each icon (name, colour, mono) is drawn once per document as a PDF form, then placed:
        a sheet repeats a few icons many times."""
        c = self.c
        fill = i.fill or DEFAULT_FILL[i.name]
        name = form_name(f"ic_{i.name}_{fill}_{int(i.mono)}")
        if name not in self.forms:
            c.beginForm(name, -2, -2, 2, 2)
            key = (name, c._enforceColorSpace)  # a print-shop canvas writes colours as CMYK
            code = _ICON_CODE.get(key)
            if code is None:  # first use in this process: draw it, keep its operators
                draw_unit(c, i.name, fill, i.mono)
                code = _ICON_CODE[key] = tuple(c._code)
                c.endForm()
                pack_once(c._doc.idToObject["FormXob." + name].stream)
            else:  # icons draw paths only (no text, alpha or images): the operators are all
                c._code.extend(code)
                c.endForm()
            c._doc.idToObject["FormXob." + name].__class__ = IconForm
            self.forms.add(name)
        half = i.size * MM / 2  # placed by hand: a canvas saveState costs more than the icon
        cos, sin = (1.0, 0.0) if not i.rotate else (math.cos(math.radians(i.rotate)),
                                                     math.sin(math.radians(i.rotate)))
        solid = "" if self.pen.get("dash") == () else " [] 0 d"
        at = num(half * cos, half * sin, -half * sin, half * cos, self.X(i.cx + dx), self.Y(i.cy + dy))
        c.addLiteral(f"q {at} cm{solid}")
        c.doForm(name)
        c.addLiteral("Q")

    def _qr(self, q: QR, dx, dy):
        """The code inside its size with a 4-module quiet zone, on white."""
        m = qr_matrix(q.data)
        cell = q.size / (len(m) + 2 * QUIET)
        c = self.c
        self._fill("#ffffff")
        c.rect(self.X(q.x + dx), self.Y(q.y + dy + q.size), q.size * MM, q.size * MM, stroke=0, fill=1)
        self._fill("#000000")
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


_DRAW = {kind: getattr(Drawer, "_" + kind.__name__.lower()) for kind in (Box, Circle, Line, Text, Para, Icon, QR)}


def pdf_bytes(pages: list[Page], title: str, shade: dict[str, float] | None = None,
              hooks=None) -> bytes:
    """Draw pages into PDF bytes. Same pages give the same bytes (reportlab invariant mode).
    `hooks` (sheetgen.output_hooks.Hooks) adds canvas options, per-page extras (form fields)
    and a last pass over the bytes (print-shop boxes and output intent)."""
    register_fonts()
    buf = io.BytesIO()
    c = FastCanvas(buf, invariant=1, pageCompression=1, initialFontName="Lato", initialFontSize=10,
                   **(hooks.canvas if hooks else {}))
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
        if hooks:
            hooks.page(c, page, n)
        c.showPage()
    c.save()
    return hooks.finish(buf.getvalue(), pages) if hooks else buf.getvalue()


def write_pdf(pages: list[Page], path: str | Path, title: str,
              shade: dict[str, float] | None = None, hooks=None) -> Path:
    return write_atomic(path, pdf_bytes(pages, title, shade, hooks))
