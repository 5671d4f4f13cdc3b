"""Print rules checked on a scene: text at least 6 pt, write-in boxes at least 5 mm, everything
inside the printer-safe margin, no text over a QR code or over another line of text. `api.render` runs `check` on every
page it renders (any layout, not only the shipped ones), so such damage is an error, not a PDF."""

from __future__ import annotations

from .draw import fit_paragraph, text_width_mm
from .errors import SheetgenError
from .paper import MM, SAFE_MARGIN_MM
from .scene import QR, Box, Circle, Group, Icon, Line, Page, Para, Text

MIN_TEXT_PT = 6.0
MIN_WRITE_MM = 5.0


def bounds(it, dx: float, dy: float) -> tuple[float, float, float, float]:
    """(x0, y0, x1, y1) of a primitive in page mm."""
    if isinstance(it, Box):
        x0, y0, x1, y1 = it.x, it.y, it.x + it.w, it.y + it.h
    elif isinstance(it, Circle):
        x0, y0, x1, y1 = it.cx - it.r, it.cy - it.r, it.cx + it.r, it.cy + it.r
    elif isinstance(it, Line):
        xs, ys = zip(*it.points)
        x0, y0, x1, y1 = min(xs), min(ys), max(xs), max(ys)
    elif isinstance(it, Text):
        w = text_width_mm(it.text, it.size, it.bold)
        x0 = it.x - {"left": 0, "center": w / 2, "right": w}[it.align]
        x0, y0, x1, y1 = x0, it.y - it.size * 0.75 / MM, x0 + w, it.y + it.size * 0.2 / MM
    elif isinstance(it, Para):
        x0, y0, x1, y1 = it.x, it.y, it.x + it.w, it.y + it.h
    elif isinstance(it, Icon):
        h = it.size / 2
        x0, y0, x1, y1 = it.cx - h, it.cy - h, it.cx + h, it.cy + h
    elif isinstance(it, QR):
        x0, y0, x1, y1 = it.x, it.y, it.x + it.size, it.y + it.size
    else:  # pragma: no cover - every primitive is listed above
        raise TypeError(type(it))
    return x0 + dx, y0 + dy, x1 + dx, y1 + dy


def _clipped(items, dx: float = 0.0, dy: float = 0.0, clip=None):
    """Like scene.walk, with the page rectangle each primitive is clipped to (a card's bleed box)."""
    for it in items:
        if isinstance(it, Group):
            inner = clip
            if it.clip:
                x, y, w, h = it.clip
                box = (x + dx + it.dx, y + dy + it.dy, x + dx + it.dx + w, y + dy + it.dy + h)
                inner = box if clip is None else (max(box[0], clip[0]), max(box[1], clip[1]),
                                                  min(box[2], clip[2]), min(box[3], clip[3]))
            yield from _clipped(it.items, dx + it.dx, dy + it.dy, inner)
        else:
            yield it, dx, dy, clip


def problems(page: Page, margin: float = SAFE_MARGIN_MM, text_only: bool = False) -> list[str]:
    """What breaks the print rules on one page. Card art is clipped to its bleed box, so only what
    the clip lets through has to be inside the margin."""
    out = []
    tol = 0.01
    placed = list(_clipped(page.items))
    codes = [bounds(it, dx, dy) for it, dx, dy, _ in placed if isinstance(it, QR)]
    for it, dx, dy, clip in placed:
        if text_only and not isinstance(it, (Text, Para)):
            continue
        name = it.id or type(it).__name__
        if isinstance(it, (Text, Para)):
            size = it.size if isinstance(it, Text) else it.min_size
            if size < MIN_TEXT_PT - 1e-9:
                out.append(f"{name}: text {size:g} pt is below {MIN_TEXT_PT:g} pt")
        if getattr(it, "writable", False):
            side = min(it.w, it.h) if isinstance(it, Box) else 2 * it.r
            if side < MIN_WRITE_MM - tol:
                out.append(f"{name}: write-in mark {side:.2f} mm is below {MIN_WRITE_MM:g} mm")
        x0, y0, x1, y1 = bounds(it, dx, dy)
        if clip:  # only what the clip lets through is printed
            x0, y0, x1, y1 = max(x0, clip[0]), max(y0, clip[1]), min(x1, clip[2]), min(y1, clip[3])
        if x0 < margin - tol or y0 < margin - tol or x1 > page.width - margin + tol \
                or y1 > page.height - margin + tol:
            out.append(f"{name}: outside the {margin:g} mm printer-safe margin "
                       f"({x0:.1f},{y0:.1f})-({x1:.1f},{y1:.1f})")
        if isinstance(it, (Text, Para)) and codes:
            ty0, ty1 = _inked(it, y0, y1) if isinstance(it, Para) else (y0, y1)
            if any(x0 < q[2] - tol and q[0] < x1 - tol and ty0 < q[3] - tol and q[1] < ty1 - tol
                   for q in codes):
                out.append(f"{name}: text runs over the QR code")
    out += _overlapping_text(placed)
    return out


def _overlapping_text(placed, slack: float = 0.2) -> list[str]:
    """Single-line texts whose boxes overlap (a long name running into its neighbour)."""
    rects = sorted(((bounds(it, dx, dy), it.id or "Text") for it, dx, dy, _ in placed
                    if isinstance(it, Text)), key=lambda r: r[0][0])
    out = []
    for i, (a, name) in enumerate(rects):
        for b, other in rects[i + 1:]:
            if b[0] >= a[2] - slack:
                break  # sorted by left edge: nothing further right can overlap a
            if a[1] < b[3] - slack and b[1] < a[3] - slack:
                out.append(f"{name}: text runs into '{other}'")
    return out


def _inked(p: Para, y0: float, y1: float) -> tuple[float, float]:
    """The part of a paragraph's box its lines fill (top-aligned or centred, as draw.py puts it),
    without the leading under the last line (no ink there)."""
    h = fit_paragraph(p)[1] / MM - 0.18 * p.min_size / MM
    top = y0 + (p.h - h) / 2 if p.valign == "middle" else y0
    return top, min(y1, top + h)


def check(pages: list[Page]) -> None:
    """Raise the first problem of any page's text (off the page or the safe margin, over the QR
    code, below 6 pt) as a SheetgenError naming the element. Shapes are the composers' business
    (tests/test_print_rules.py holds the shipped layouts to every rule)."""
    for n, page in enumerate(pages, 1):
        found = problems(page, text_only=True)
        if found:
            element, _, what = found[0].partition(": ")
            raise SheetgenError(f"page {n}: element '{element}' is {what}" if what.startswith("outside")
                                else f"page {n}: element '{element}': {what}", key=element,
                                fix="shorten the text, or change the sizes in 'layout'")
