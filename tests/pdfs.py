"""Read what a PDF draws, with PDFium (pypdfium2, C++): pages with the rects, lines, curves, chars,
words and text that pdfplumber gave the tests, as the same dicts (x0, x1, top, bottom in points from
the page's top left; fill, stroke, colours as 0-1 tuples, linewidth), about five times faster
(a 12-page card deck's rects, lines, curves and words: 0.61 -> 0.13 CPU s, 2026-12-02).

Paths are split and sorted as pdfminer does: one object per subpath; a subpath of one segment is a
line, a closed axis-aligned four-sided one a rect, anything else a curve (its box: the points it
passes through). A char's box is its advance by the font size, from the font's descent up (pdfminer's);
words and text group chars as pdfplumber does by default (3 pt tolerances), for upright text.
Where the two differ: PDFium keeps coordinates as 32-bit floats (EPS_MM), and char widths as whole
thousandths of an em, so a char far along a line sits up to ~0.12 pt left of pdfminer's; a form
inherits the paint and line width of where it is placed (pdfminer starts it from the defaults);
a line width never set is 1 (pdfminer: 0)."""

from __future__ import annotations

import ctypes
import itertools
from functools import cached_property
from pathlib import Path

import pypdfium2 as pdfium
import pypdfium2.raw as raw

TOLERANCE = 3.0  # pt: pdfplumber's default x and y tolerances
EPS_MM = 1e-4  # PDFium keeps coordinates as 32-bit floats: up to ~1e-5 mm off on a page


def _mul(m, n):
    """The affine matrix m then n, each (a, b, c, d, e, f)."""
    a, b, c, d, e, f = m
    p, q, r, s, t, u = n
    return (a * p + b * r, a * q + b * s, c * p + d * r, c * q + d * s, e * p + f * r + t, e * q + f * s + u)


def _colour(getter, obj) -> tuple[float, ...]:
    r, g, b, a = (ctypes.c_uint() for _ in "rgba")
    if not getter(obj, r, g, b, a):
        return ()
    return tuple(v.value / 255 for v in (r, g, b))


def _clusters(objs: list[dict], key: str, tolerance: float = TOLERANCE) -> list[list[dict]]:
    """pdfplumber's cluster_objects: sorted values chained within `tolerance`; groups in value order,
    each keeping the objects' order."""
    group, last, ids = -1, None, {}
    for v in sorted({o[key] for o in objs}):
        if last is None or v > last + tolerance:
            group += 1
        ids[v], last = group, v
    return [list(g) for _, g in itertools.groupby(sorted(objs, key=lambda o: ids[o[key]]),
                                                   key=lambda o: ids[o[key]])]


def _merge(chars: list[dict], extra: tuple[str, ...]) -> dict:
    word = {"text": "".join(c["text"] for c in chars),
            "x0": min(c["x0"] for c in chars), "x1": max(c["x1"] for c in chars),
            "top": min(c["top"] for c in chars), "bottom": max(c["bottom"] for c in chars)}
    word.update({k: chars[0][k] for k in extra})
    return word


def words_of(chars: list[dict], extra_attrs=()) -> list[dict]:
    """pdfplumber's extract_words (defaults): runs of chars sharing `extra_attrs`, in lines by top,
    left to right, split at blanks and at gaps over 3 pt."""
    extra = tuple(extra_attrs)
    words = []
    for _, run in itertools.groupby(chars, key=lambda c: tuple(c[k] for k in extra)):
        for line in _clusters(list(run), "top"):
            word = []
            for ch in sorted(line, key=lambda c: (c["x0"], c["x1"])):
                if ch["text"].isspace():
                    word and words.append(_merge(word, extra))
                    word = []
                    continue
                if word and (ch["x0"] < word[-1]["x0"] or ch["x0"] > word[-1]["x1"] + TOLERANCE
                             or abs(ch["top"] - word[-1]["top"]) > TOLERANCE):
                    words.append(_merge(word, extra))
                    word = []
                word.append(ch)
            word and words.append(_merge(word, extra))
    return words


def text_of(chars: list[dict]) -> str:
    """pdfplumber's extract_text (defaults): the words, a line each cluster of tops."""
    return "\n".join(" ".join(w["text"] for w in line) for line in _clusters(words_of(chars), "top"))


class Area:
    """Chars of a page or of part of one, read as pdfplumber reads them."""

    chars: list[dict]

    def extract_words(self, extra_attrs=()) -> list[dict]:
        return words_of(self.chars, extra_attrs)

    def extract_text(self) -> str:
        return text_of(self.chars)

    def crop(self, bbox) -> Area:
        """The chars that overlap bbox (x0, top, x1, bottom), clipped to it (pdfplumber's crop)."""
        x0, top, x1, bottom = bbox
        part = Area()
        part.chars = []
        for c in self.chars:
            box = (max(c["x0"], x0), max(c["top"], top), min(c["x1"], x1), min(c["bottom"], bottom))
            w, h = box[2] - box[0], box[3] - box[1]
            if w >= 0 and h >= 0 and w + h > 0:
                part.chars.append({**c, **dict(zip(("x0", "top", "x1", "bottom"), box))})
        return part


class Page(Area):
    def __init__(self, page: pdfium.PdfPage):
        self._page = page
        self.width, self.height = page.get_size()

    def _box(self, x0, y0, x1, y1) -> dict:
        return {"x0": x0, "x1": x1, "top": self.height - y1, "bottom": self.height - y0,
                "width": x1 - x0, "height": y1 - y0}

    @cached_property
    def _paths(self) -> dict[str, list[dict]]:
        found = {"rect": [], "line": [], "curve": []}
        to_page = {}  # form object handle -> its matrix on the page
        for obj in self._page.get_objects(filter=[raw.FPDF_PAGEOBJ_PATH, raw.FPDF_PAGEOBJ_FORM]):
            m = tuple(obj.get_matrix().get())
            if obj.container is not None:
                m = _mul(m, to_page[ctypes.cast(obj.container.raw, ctypes.c_void_p).value])
            if obj.type == raw.FPDF_PAGEOBJ_FORM:
                to_page[ctypes.cast(obj.raw, ctypes.c_void_p).value] = m
            else:
                self._add_path(obj, m, found)
        return found

    def _add_path(self, obj, m, found: dict) -> None:
        fill, stroke = ctypes.c_int(), ctypes.c_int()
        raw.FPDFPath_GetDrawMode(obj, fill, stroke)
        width = ctypes.c_float()
        raw.FPDFPageObj_GetStrokeWidth(obj, width)
        a, b, c, d, e, f = m
        style = {"fill": fill.value != 0, "stroke": bool(stroke.value),
                 "linewidth": width.value * (a * a + b * b) ** 0.5,  # on the page, as pdfminer has it
                 "non_stroking_color": _colour(raw.FPDFPageObj_GetFillColor, obj),
                 "stroking_color": _colour(raw.FPDFPageObj_GetStrokeColor, obj)}
        subpaths, x, y = [], ctypes.c_float(), ctypes.c_float()
        for i in range(raw.FPDFPath_CountSegments(obj)):
            seg = raw.FPDFPath_GetPathSegment(obj, i)
            kind = raw.FPDFPathSegment_GetType(seg)
            raw.FPDFPathSegment_GetPoint(seg, x, y)
            point = (a * x.value + c * y.value + e, b * x.value + d * y.value + f)
            if kind == raw.FPDF_SEGMENT_MOVETO:
                subpaths.append(([], []))  # its operators (m, l, c a point), their points
            subpaths[-1][0].append({raw.FPDF_SEGMENT_MOVETO: "m", raw.FPDF_SEGMENT_BEZIERTO: "c"}.get(kind, "l"))
            subpaths[-1][1].append(point)
        for ops, points in subpaths:
            self._classify(ops, points, style, found)

    def _classify(self, ops, points, style, found) -> None:
        # PDFium keeps a bezier as three points: pdfminer, as one operator ending at the last
        shape, pts, run = "", [], 0
        for op, p in zip(ops, points):
            run = run + 1 if op == "c" else 0
            if op != "c" or run % 3 == 0:
                shape += op
                pts.append(p)
        if len(shape) < 2:
            return
        xs, ys = [p[0] for p in pts], [p[1] for p in pts]
        box = self._box(min(xs), min(ys), max(xs), max(ys))
        if shape == "ml":
            kind = "line"
        elif shape == "mllll" and pts[0] == pts[4] and (
                (xs[0] == xs[1] and ys[1] == ys[2] and xs[2] == xs[3] and ys[3] == ys[0])
                or (ys[0] == ys[1] and xs[1] == xs[2] and ys[2] == ys[3] and xs[3] == xs[0])):
            kind = "rect"
        else:
            kind = "curve"
        found[kind].append({**box, **style})

    @property
    def rects(self) -> list[dict]:
        return self._paths["rect"]

    @property
    def lines(self) -> list[dict]:
        return self._paths["line"]

    @property
    def curves(self) -> list[dict]:
        return self._paths["curve"]

    @cached_property
    def chars(self) -> list[dict]:
        text = self._page.get_textpage()
        out = []
        left, bottom, right, top = (ctypes.c_double() for _ in "lbrt")
        x, y = ctypes.c_double(), ctypes.c_double()
        box = pdfium.raw.FS_RECTF()
        matrix = pdfium.raw.FS_MATRIX()
        name = ctypes.create_string_buffer(256)
        flags = ctypes.c_int()
        for i in range(text.count_chars()):
            if raw.FPDFText_IsGenerated(text, i):
                continue
            raw.FPDFText_GetLooseCharBox(text, i, box)
            raw.FPDFText_GetCharOrigin(text, i, x, y)
            raw.FPDFText_GetMatrix(text, i, matrix)
            size = raw.FPDFText_GetFontSize(text, i) * abs(matrix.d)
            raw.FPDFText_GetFontInfo(text, i, name, len(name), flags)
            ch = {"text": chr(raw.FPDFText_GetUnicode(text, i)), "size": size,
                  "fontname": name.value.decode(errors="replace")}
            ch.update(self._box(x.value, box.bottom, box.right, box.bottom + size))
            out.append(ch)
        text.close()
        return out


class Pdf:
    """A PDF open in PDFium: `.pages` (Page); close it, or use it in a `with`."""

    def __init__(self, path: Path | str):
        self._doc = pdfium.PdfDocument(str(path))
        self.pages = [Page(p) for p in self._doc]

    def close(self) -> None:
        self._doc.close()

    def __enter__(self) -> Pdf:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def open_pdf(path: Path | str) -> Pdf:
    return Pdf(path)


def pdf_text(path: Path | str) -> str:
    """Every page's text (extract_text), a line between pages."""
    with open_pdf(path) as pdf:
        return "\n".join(p.extract_text() for p in pdf.pages)


def page_texts(path: Path | str) -> list[str]:
    """Each page's text as PDFium reads it (its own line breaks and spaces), in milliseconds: where a
    test looks for words and phrases, not for pdfplumber's layout of them (see Page)."""
    doc = pdfium.PdfDocument(str(path))
    try:
        return [page.get_textpage().get_text_range() for page in doc]
    finally:
        doc.close()
