"""Print rules checked on a scene: text at least 6 pt, write-in boxes at least 5 mm, everything
inside the printer-safe margin, and no text touching another element (a QR code included).
`api.render` runs `check` on every page it renders (any layout, not only the shipped ones), so
such damage is an error, not a PDF."""

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
    return out + touching(page)


def _ink_box(it, dx: float, dy: float, clip) -> tuple[float, float, float, float] | None:
    """The rectangle a primitive inks: a paragraph's wrapped lines, a line with its width, the
    part a clip lets through; None when nothing of it prints."""
    if isinstance(it, Para):
        _, h, _ = fit_paragraph(it)
        top = it.y + ((it.h - h / MM) / 2 if it.valign == "middle" else 0.0)
        box = (it.x + dx, top + dy, it.x + it.w + dx, top + h / MM + dy)
    else:
        box = bounds(it, dx, dy)
    if isinstance(it, Line) and it.style.stroke:
        half = it.style.width / 2
        box = (box[0] - half, box[1] - half, box[2] + half, box[3] + half)
    if clip:
        box = (max(box[0], clip[0]), max(box[1], clip[1]), min(box[2], clip[2]), min(box[3], clip[3]))
    return box if box[0] < box[2] and box[1] < box[3] else None


def _inside(a, b, tol: float) -> bool:
    return a[0] >= b[0] - tol and a[1] >= b[1] - tol and a[2] <= b[2] + tol and a[3] <= b[3] + tol


def touching(page: Page, tol: float = 0.05) -> list[str]:
    """Text that runs into another element: their rectangles overlap while neither holds the
    other (a label inside its box, a box drawn inside a paragraph's area, or an unstroked fill
    drawn before the text as its background are fine)."""
    boxes = [(it, b) for it, dx, dy, clip in _clipped(page.items)
             if (b := _ink_box(it, dx, dy, clip)) is not None]
    out = []
    for n, (t, a) in enumerate(boxes):
        if not isinstance(t, (Text, Para)):
            continue
        for m, (e, b) in enumerate(boxes):
            if m == n or (isinstance(e, (Text, Para)) and m < n):
                continue  # a pair of texts once
            if m < n and isinstance(e, (Box, Circle)) and not e.style.stroke:
                continue  # a fill drawn before the text is its background
            if min(a[2], b[2]) - max(a[0], b[0]) <= tol or min(a[3], b[3]) - max(a[1], b[1]) <= tol:
                continue
            if _inside(a, b, tol) or (not isinstance(e, (Text, Para)) and _inside(b, a, tol)
                                      and isinstance(t, Para)):
                continue
            out.append(f"{t.id or type(t).__name__}: text touches {e.id or type(e).__name__} "
                       f"at ({max(a[0], b[0]):.1f},{max(a[1], b[1]):.1f})")
    return out


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
