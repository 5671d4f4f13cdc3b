"""Print rules checked on a scene: text at least 6 pt, write-in boxes at least 5 mm, everything
inside the printer-safe margin, and no text touching another element (a QR code included).
`api.render` runs `check` on every page it renders (any layout, not only the shipped ones), so
such damage is an error, not a PDF."""

from __future__ import annotations

import itertools
import math

import numpy as np

from .draw import fit_paragraph, text_width_mm
from .errors import SheetgenError
from .paper import MIN_TEXT_PT, MM, SAFE_MARGIN_MM
from .scene import QR, Box, Circle, Group, Icon, Line, Page, Para, Text

MIN_WRITE_MM = 5.0


def _text_bounds(it: Text) -> tuple[float, float, float, float]:
    w = text_width_mm(it.text, it.size, it.bold)
    x0 = it.x - {"left": 0, "center": w / 2, "right": w}[it.align]
    return x0, it.y - it.size * 0.75 / MM, x0 + w, it.y + it.size * 0.2 / MM


def _line_bounds(it: Line) -> tuple[float, float, float, float]:
    xs, ys = zip(*it.points)
    return min(xs), min(ys), max(xs), max(ys)


# (x0, y0, x1, y1) of each primitive in its own coordinates, by type (one look-up, not a chain)
_BOUNDS = {
    Box: lambda it: (it.x, it.y, it.x + it.w, it.y + it.h),
    Circle: lambda it: (it.cx - it.r, it.cy - it.r, it.cx + it.r, it.cy + it.r),
    Line: _line_bounds,
    Text: _text_bounds,
    Para: lambda it: (it.x, it.y, it.x + it.w, it.y + it.h),
    Icon: lambda it: (it.cx - it.size / 2, it.cy - it.size / 2, it.cx + it.size / 2, it.cy + it.size / 2),
    QR: lambda it: (it.x, it.y, it.x + it.size, it.y + it.size),
}


def bounds(it, dx: float, dy: float) -> tuple[float, float, float, float]:
    """(x0, y0, x1, y1) of a primitive in page mm."""
    local = _BOUNDS.get(type(it)) or next((f for t, f in _BOUNDS.items() if isinstance(it, t)), None)
    if local is None:  # pragma: no cover - every primitive is listed above
        raise TypeError(type(it))
    x0, y0, x1, y1 = local(it)
    return x0 + dx, y0 + dy, x1 + dx, y1 + dy


def _clipped(items, dx: float = 0.0, dy: float = 0.0, clip=None, layer: int = 0, count=None):
    """Like scene.walk, with the page rectangle each primitive is clipped to (a card's bleed box)
    and the number of the innermost layer group holding it (0: none; see scene.Group.layer)."""
    count = count if count is not None else itertools.count(1)
    for it in items:
        if isinstance(it, Group):
            inner = clip
            if it.clip:
                x, y, w, h = it.clip
                box = (x + dx + it.dx, y + dy + it.dy, x + dx + it.dx + w, y + dy + it.dy + h)
                inner = box if clip is None else (max(box[0], clip[0]), max(box[1], clip[1]),
                                                  min(box[2], clip[2]), min(box[3], clip[3]))
            yield from _clipped(it.items, dx + it.dx, dy + it.dy, inner,
                                next(count) if it.layer else layer, count)
        else:
            yield it, dx, dy, clip, layer


def problems(page: Page, margin: float = SAFE_MARGIN_MM, text_only: bool = False) -> list[str]:
    """What breaks the print rules on one page. Card art is clipped to its bleed box, so only what
    the clip lets through has to be inside the margin."""
    out = []
    tol = 0.01
    placed = list(_clipped(page.items))
    for it, dx, dy, clip, _ in placed:
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
    return out + touching(page, placed)


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


def _crosses(p, q, r) -> bool:
    """Whether segment p-q meets rectangle r = (x0, y0, x1, y1) (Liang-Barsky clipping)."""
    lo, hi = 0.0, 1.0
    for d, p0, a, b in ((q[0] - p[0], p[0], r[0], r[2]), (q[1] - p[1], p[1], r[1], r[3])):
        if abs(d) < 1e-12:
            if p0 < a or p0 > b:
                return False
            continue
        t0, t1 = sorted(((a - p0) / d, (b - p0) / d))
        lo, hi = max(lo, t0), min(hi, t1)
        if lo > hi:
            return False
    return True


def _to_segment(c, p, q) -> float:
    """Distance from point c to segment p-q."""
    vx, vy = q[0] - p[0], q[1] - p[1]
    n = vx * vx + vy * vy
    t = 0.0 if n == 0 else min(1.0, max(0.0, ((c[0] - p[0]) * vx + (c[1] - p[1]) * vy) / n))
    return math.hypot(c[0] - p[0] - t * vx, c[1] - p[1] - t * vy)


def _to_rect(c, r) -> float:
    """Distance from point c to rectangle r (0 inside)."""
    return math.hypot(max(r[0] - c[0], 0.0, c[0] - r[2]), max(r[1] - c[1], 0.0, c[1] - r[3]))


def _meets(e, dx: float, dy: float, clip, r) -> bool:
    """Whether a line or circle really inks rectangle r (a text's, shrunk by the tolerance), not
    only its bounding box: a line's segments with half its width, a circle's ring with half its
    width. A rectangle inside a closed line (a label in its triangle) meets none of its segments;
    one inside a circle's ring is its label."""
    if clip:  # only the part of e the clip lets through prints
        r = (max(r[0], clip[0]), max(r[1], clip[1]), min(r[2], clip[2]), min(r[3], clip[3]))
        if r[0] >= r[2] or r[1] >= r[3]:
            return False
    half = e.style.width / 2 if e.style.stroke else 0.0
    if isinstance(e, Circle):  # inks its ring (and disc): a label well inside it is fine
        c = (e.cx + dx, e.cy + dy)
        far = max(math.hypot(x - c[0], y - c[1]) for x in (r[0], r[2]) for y in (r[1], r[3]))
        return _to_rect(c, r) < e.r + half and far > e.r - half
    pts = [(x + dx, y + dy) for x, y in e.points]
    if e.closed and pts[0] != pts[-1]:
        pts.append(pts[0])
    corners = ((r[0], r[1]), (r[2], r[1]), (r[2], r[3]), (r[0], r[3]))
    for p, q in zip(pts, pts[1:]):
        if min(p[0], q[0]) - half > r[2] or max(p[0], q[0]) + half < r[0] \
                or min(p[1], q[1]) - half > r[3] or max(p[1], q[1]) + half < r[1]:
            continue  # the segment's own box misses the text
        if _crosses(p, q, r):
            return True
        if half and _crosses(p, q, (r[0] - half, r[1] - half, r[2] + half, r[3] + half)) \
                and min(_to_rect(p, r), _to_rect(q, r), *(_to_segment(c, p, q) for c in corners)) < half:
            return True  # within half the line's width of the text
    return False


def _inside_np(a, b, tol: float):
    return (a[..., 0] >= b[..., 0] - tol) & (a[..., 1] >= b[..., 1] - tol) \
        & (a[..., 2] <= b[..., 2] + tol) & (a[..., 3] <= b[..., 3] + tol)


def _ranges(lo, hi):
    """Every (k, i) with lo[k] <= i < hi[k], k ascending: ragged ranges expanded without a loop."""
    counts = np.maximum(hi - lo, 0)
    k = np.repeat(np.arange(len(lo)), counts)
    return k, np.arange(counts.sum()) + np.repeat(lo - np.cumsum(counts) + counts, counts)


def overlapping(box, rows, tol: float, limit: int = 250_000):
    """(n, m): each text row n (from `rows`, ascending) and element m whose rectangles overlap by
    more than `tol` on both axes, ordered by n then m, as a full text-by-element comparison gives
    them. Sort and sweep along x: an element starting inside a text's x range, or a text starting
    inside an element's, are the candidates (any overlap is one or the other); only those are
    compared. More candidates than `limit` are taken half the texts at a time (bounded memory)."""
    x0, x1 = box[:, 0], box[:, 2]
    by_x = np.argsort(x0, kind="stable")
    ex = x0[by_x]
    k1, i1 = _ranges(np.searchsorted(ex, x0[rows], "left"), np.searchsorted(ex, x1[rows], "left"))
    t_order = np.argsort(x0[rows], kind="stable")
    tx = x0[rows][t_order]
    m2, j2 = _ranges(np.searchsorted(tx, x0, "right"), np.searchsorted(tx, x1, "left"))
    if len(k1) + len(m2) > limit and len(rows) > 1:
        half = len(rows) // 2
        parts = [overlapping(box, rows[:half], tol, limit), overlapping(box, rows[half:], tol, limit)]
        return np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts])
    code = np.sort(np.concatenate([rows[k1] * len(box) + by_x[i1], rows[t_order[j2]] * len(box) + m2]))
    n, m = code // len(box), code % len(box)
    a, b = box[n], box[m]
    keep = (np.minimum(a[:, 2], b[:, 2]) - np.maximum(a[:, 0], b[:, 0]) > tol) \
        & (np.minimum(a[:, 3], b[:, 3]) - np.maximum(a[:, 1], b[:, 1]) > tol)
    return n[keep], m[keep]


def touching(page: Page, placed_items: list | None = None, tol: float = 0.05) -> list[str]:
    """Text that runs into another element: their rectangles overlap while neither holds the
    other (a label inside its box, a box drawn inside a paragraph's area, or an unstroked fill
    drawn before the text as its background are fine), and for a line or circle its real shape
    meets the text, not only its bounding box. What a filled box or circle holding the text covers
    (drawn before it) is hidden; a layer group's texts meet only its own items. The overlapping
    rectangles are found by sort and sweep (`overlapping`), so only the few pairs that overlap
    reach the exact geometry. `placed_items`: the page's `_clipped` items, when already walked."""
    placed, facts = [], []
    for it, dx, dy, clip, layer in placed_items if placed_items is not None else _clipped(page.items):
        b = _ink_box(it, dx, dy, clip)
        if b is None:
            continue
        placed.append((it, dx, dy, clip, b))
        kind = type(it)
        style = getattr(it, "style", None)
        filled = style is not None and style.fill is not None
        disc = (it.cx + dx, it.cy + dy, it.r) if kind is Circle and filled else (0.0, 0.0, -1.0)
        facts.append((*b, layer, *disc, kind is Text or kind is Para, kind is Para,
                      style is not None and not style.stroke,  # a fill, behind the texts after it
                      kind is Line, kind is Box and filled))  # shaped: see _meets; cover
    if not placed:
        return []
    f = np.array(facts, dtype=float)
    box, layer, disc = f[:, :4], f[:, 4], f[:, 5:8]
    texts, paras, ground, shaped, cover = (f[:, c] > 0 for c in range(8, 13))
    rows = np.flatnonzero(texts)
    if not len(rows):
        return []
    n, m = overlapping(box, rows, tol)
    a, b, d = box[n], box[m], disc[m]
    inside = _inside_np(a, b, tol)
    far = np.hypot(np.maximum(abs(a[:, 0] - d[:, 0]), abs(a[:, 2] - d[:, 0])),
                   np.maximum(abs(a[:, 1] - d[:, 1]), abs(a[:, 3] - d[:, 1])))
    under = ((cover[m] & inside) | (far <= d[:, 2] + tol)) & (m < n)  # a fill behind the text
    behind = np.full(len(placed), -1)
    np.maximum.at(behind, n[under], m[under])
    hit = (m != n) & ~((texts | ground)[m] & (m < n)) & (m >= behind[n]) & (layer[m] == layer[n]) \
        & ~((inside & ~shaped[m]) | (~texts[m] & paras[n] & _inside_np(b, a, tol)))
    out = []
    for n, m in zip(n[hit].tolist(), m[hit].tolist()):
        e, edx, edy, eclip, eb = placed[m]
        ta = box[n]
        if isinstance(e, (Line, Circle)) and not _meets(
                e, edx, edy, eclip, (ta[0] + tol, ta[1] + tol, ta[2] - tol, ta[3] - tol)):
            continue
        txt = placed[n][0]
        out.append(f"{txt.id or type(txt).__name__}: text touches {e.id or type(e).__name__} "
                   f"at ({max(ta[0], eb[0]):.1f},{max(ta[1], eb[1]):.1f})")
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
