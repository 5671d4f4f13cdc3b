"""`--print-shop`: a PDF for a commercial printer, in the spirit of PDF/X-4.

- Colours are CMYK: reportlab's canvas converts every colour as it is set (`enforceColorSpace`);
  neutral greys and black, so all black text and thin black lines, become pure K (one ink, no
  four-colour mix); other colours are converted by the naive RGB -> CMYK formula with full
  grey component replacement.
- Fonts are embedded (sheetgen's drawer always embeds its bundled Lato, subset).
- Every page gets a TrimBox and a BleedBox (the page's `bleed` mm inside the MediaBox: a
  print-on-demand card page; 0 for a sheet, whose trim is the page), the document an
  /OutputIntents entry (GTS_PDFX, FOGRA39, the bundled CMYK profile as DestOutputProfile),
  /GTS_PDFXVersion (PDF/X-4) and /Trapped in its info, and the PDF 1.6 header.

`check(path)` lists what a PDF/X-4 preflight would refuse among the things checked here; it is
not a full ISO 15930-7 validation (see README: "Print shops").
"""

from __future__ import annotations

import io
import re
from pathlib import Path

from reportlab.lib.colors import CMYKColor, toColor

from .paper import MM

ICC = Path(__file__).parent / "icc" / "FOGRA39L.icc"
CONDITION = "FOGRA39"
RGB_OPS = re.compile(rb"(?<![A-Za-z])(rg|RG)(?![A-Za-z])|/DeviceRGB\s+(cs|CS)(?![A-Za-z])")


def to_cmyk(colour) -> CMYKColor:
    """A colour as CMYK; black and greys as K only."""
    c = toColor(colour)
    if isinstance(c, CMYKColor):
        return c
    r, g, b, alpha = c.red, c.green, c.blue, getattr(c, "alpha", 1)
    if abs(r - g) < 1e-6 and abs(g - b) < 1e-6:
        return CMYKColor(0, 0, 0, round(1 - r, 4), alpha=alpha)
    k = 1 - max(r, g, b)
    cyan, magenta, yellow = ((1 - v - k) / (1 - k) for v in (r, g, b))
    return CMYKColor(round(cyan, 4), round(magenta, 4), round(yellow, 4), round(k, 4), alpha=alpha)


_HEX = re.compile(r"#([0-9a-fA-F]{6}|[0-9a-fA-F]{3})\b")
_STYLE = re.compile(r"(<style[^>]*>)(.*?)(</style>)", re.S)


def _css_cmyk(css: str) -> str:
    def one(m):
        h = m.group(1)
        h = "".join(ch * 2 for ch in h) if len(h) == 3 else h
        c = to_cmyk("#" + h)
        return f"device-cmyk({c.cyan:g} {c.magenta:g} {c.yellow:g} {c.black:g})"
    return _HEX.sub(one, css)


def cmyk_html(text: str) -> str:
    """A document's style sheets with every #hex colour as device-cmyk() (WeasyPrint then writes
    CMYK), and black text by default as pure K."""
    text = _STYLE.sub(lambda m: m.group(1) + _css_cmyk(m.group(2)) + m.group(3), text)
    return text.replace("<head>", "<head><style>html { color: device-cmyk(0 0 0 1) }</style>", 1)


def canvas_options() -> dict:
    return {"enforceColorSpace": to_cmyk}


def finish(data: bytes, pages) -> bytes:
    """Add page boxes, the output intent and the PDF/X keys to a drawn PDF."""
    from pypdf import PdfReader, PdfWriter
    from pypdf.generic import (ArrayObject, DecodedStreamObject, DictionaryObject, NameObject,
                               NumberObject, RectangleObject, TextStringObject)

    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(data)))
    bleeds = [getattr(p, "bleed", 0.0) for p in pages]
    for n, page in enumerate(writer.pages):  # pages beyond `pages` (kit documents): trim = page
        w, h = float(page.mediabox.width), float(page.mediabox.height)
        b = (bleeds[n] if n < len(bleeds) else 0.0) * MM
        page[NameObject("/BleedBox")] = RectangleObject((0, 0, w, h))
        page[NameObject("/TrimBox")] = RectangleObject((b, b, w - b, h - b))
    icc = DecodedStreamObject()
    icc.set_data(ICC.read_bytes())
    icc[NameObject("/N")] = NumberObject(4)
    icc = icc.flate_encode()
    intent = DictionaryObject({
        NameObject("/Type"): NameObject("/OutputIntent"),
        NameObject("/S"): NameObject("/GTS_PDFX"),
        NameObject("/OutputConditionIdentifier"): TextStringObject(CONDITION),
        NameObject("/RegistryName"): TextStringObject("http://www.color.org"),
        NameObject("/Info"): TextStringObject("Coated FOGRA39 (ISO 12647-2:2004)"),
        NameObject("/DestOutputProfile"): writer._add_object(icc),
    })
    writer._root_object[NameObject("/OutputIntents")] = ArrayObject([writer._add_object(intent)])
    writer.add_metadata({"/GTS_PDFXVersion": "PDF/X-4", "/Trapped": "/False"})
    writer._info.get_object()[NameObject("/Trapped")] = NameObject("/False")
    writer.pdf_header = b"%PDF-1.6"
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def _streams(reader):
    """Every content stream of the document: pages and the form XObjects they use."""
    seen = set()

    def forms(res):
        xo = (res or {}).get("/XObject") or {}
        for ref in xo.values():
            obj = ref.get_object()
            if id(obj) in seen or obj.get("/Subtype") != "/Form":
                continue
            seen.add(id(obj))
            yield obj.get_data()
            yield from forms(obj.get("/Resources"))

    for page in reader.pages:
        contents = page.get("/Contents")
        contents = contents.get_object() if contents is not None else []
        for part in (contents if isinstance(contents, list) else [contents]):
            yield part.get_object().get_data()
        yield from forms(page.get("/Resources"))


def check(path) -> list[str]:
    """What is not as PDF/X-4 wants among: version, output intent and its profile, page boxes,
    PDF/X info keys, embedded fonts, RGB colour (operators and page colour spaces), form fields,
    encryption."""
    from pypdf import PdfReader

    reader = PdfReader(path)
    out = []
    if reader.pdf_header < "%PDF-1.6":
        out.append(f"header {reader.pdf_header}: PDF/X-4 needs PDF 1.6")
    if reader.is_encrypted:
        out.append("encrypted")
    intents = reader.trailer["/Root"].get("/OutputIntents")
    if not intents or intents[0].get_object().get("/S") != "/GTS_PDFX":
        out.append("no GTS_PDFX output intent")
    else:
        prof = intents[0].get_object().get("/DestOutputProfile")
        if prof is None or prof.get_object().get("/N") != 4 or prof.get_object().get_data()[36:40] != b"acsp":
            out.append("output intent has no CMYK ICC profile")
    info = reader.trailer.get("/Info")
    info = info.get_object() if info else {}
    if info.get("/GTS_PDFXVersion") != "PDF/X-4" or info.get("/Trapped") not in ("/True", "/False"):
        out.append("info lacks /GTS_PDFXVersion PDF/X-4 or /Trapped")
    if "/AcroForm" in reader.trailer["/Root"]:
        out.append("has form fields")
    for n, page in enumerate(reader.pages, 1):
        media = [float(v) for v in page.mediabox]
        for box in ("/TrimBox", "/BleedBox"):
            if box not in page:
                out.append(f"page {n}: no {box}")
            else:
                x0, y0, x1, y1 = map(float, page[box])
                if x0 < media[0] - 0.01 or y0 < media[1] - 0.01 or x1 > media[2] + 0.01 \
                        or y1 > media[3] + 0.01 or x0 >= x1 or y0 >= y1:
                    out.append(f"page {n}: {box} is not inside the MediaBox")
        fonts = (page.get("/Resources") or {}).get("/Font") or {}
        for ref in fonts.values():
            font = ref.get_object()
            if font.get("/Subtype") == "/Type0":  # a composite font: its descendant has the file
                font = font["/DescendantFonts"][0].get_object()
            desc = font.get("/FontDescriptor")
            if desc is None or not any(k in desc.get_object() for k in ("/FontFile", "/FontFile2", "/FontFile3")):
                out.append(f"page {n}: font {font.get('/BaseFont')} not embedded")
    for n, page in enumerate(reader.pages, 1):
        spaces = (page.get("/Resources") or {}).get("/ColorSpace") or {}
        for name, ref in spaces.items():
            cs = ref.get_object()
            kind = cs[0] if isinstance(cs, list) else cs
            if kind in ("/DeviceRGB", "/CalRGB") or (kind == "/ICCBased" and cs[1].get_object().get("/N") == 3):
                out.append(f"page {n}: colour space {name} is RGB")
    for data in _streams(reader):
        if RGB_OPS.search(data):
            out.append("a content stream sets an RGB (or other non-CMYK) colour")
            break
    return out
