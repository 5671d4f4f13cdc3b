"""`--heatmap`: the very sheet that was played, each element shaded by how often it was reached.

The drawer shades an element by id (`write_pdf(..., shade={id: fraction})`). Each sheet's ids are
tagged with its number first, so the same id on two sheets of one layout keeps its own figure.
Each shaded element carries its percentage of games, and a cross marks every element no game reached.
The key (a strip of boxes shaded by the same code, 0 % to 100 %, and the caption) sits in the bottom
margin when that margin holds it inside the printer-safe edge (SAFE); otherwise it gets a page of
its own at the end, so no mark falls where printers cannot print.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from ..draw import text_width_mm, write_pdf
from ..kinds import Loaded, Options
from ..paper import SAFE_MARGIN_MM
from ..scene import Box, Circle, Group, Icon, Item, Line, Page, Style, Text, walk
from .report import Report
from .run import rules_of

KEY_STEPS = 11  # boxes in the key: 0 %, 10 %, … 100 %
KEY_BOX = 2.6  # mm
CROSS = Style(stroke="#b00000", width=0.35)
SIZE = 6.5  # pt, the key's text
SHADED = (Box, Circle, Icon)  # what the drawer shades
SAFE = SAFE_MARGIN_MM  # printers cannot print nearer the edge
BAND = KEY_BOX + 1.5  # mm the key needs above the safe edge
LABEL = 6.0  # pt, the percentage printed on each element


def _tag(items, prefix: str, ids: set[str]) -> list[Item]:
    """The same items with each id in `ids` renamed prefix + id (groups followed)."""
    out = []
    for it in items:
        if isinstance(it, Group):
            it = replace(it, items=tuple(_tag(it.items, prefix, ids)))
        elif it.id in ids:
            it = replace(it, id=prefix + it.id)
        out.append(it)
    return out


def _bounds(it, dx: float, dy: float) -> tuple[float, float, float, float] | None:
    if isinstance(it, Box):
        return it.x + dx, it.y + dy, it.x + dx + it.w, it.y + dy + it.h
    if isinstance(it, Circle):
        return it.cx + dx - it.r, it.cy + dy - it.r, it.cx + dx + it.r, it.cy + dy + it.r
    if isinstance(it, Icon):
        h = it.size / 2
        return it.cx + dx - h, it.cy + dy - h, it.cx + dx + h, it.cy + dy + h
    if isinstance(it, Line):
        xs, ys = [p[0] + dx for p in it.points], [p[1] + dy for p in it.points]
        return min(xs), min(ys), max(xs), max(ys)
    return None


def _cross(x0: float, y0: float, x1: float, y1: float, id: str) -> list[Item]:
    return [Line(((x0, y0), (x1, y1)), CROSS, id=id), Line(((x0, y1), (x1, y0)), CROSS, id=id)]


def _label(box: tuple[float, float, float, float], f: float, eid: str) -> Text:
    """The element's percentage of games, centred on it."""
    from .show import percent

    x0, y0, x1, y1 = box
    return Text((x0 + x1) / 2, (y0 + y1) / 2 + LABEL * 0.35 / 2.2, f"{percent(f)}%", LABEL, bold=True,
                align="center", id=f"heatmap.pct.{eid}")


def _key(page: Page, margin: float, caption: str, cy: float | None = None) -> list[Item]:
    """One line: caption on the left; '0% [shaded strip] 100% of games', and 'X never reached' on
    the right; its middle at cy (by default in the bottom margin, above the safe edge)."""
    w, h = page.width, page.height
    cy = h - SAFE - BAND / 2 if cy is None else cy
    base = cy + 0.8  # text baseline, centred on the strip
    items: list[Item] = []
    x = w - margin
    label = "never reached"
    x -= text_width_mm(label, SIZE)
    items.append(Text(x, base, label, SIZE, id="heatmap.key.never"))
    x -= KEY_BOX + 1.2
    items += _cross(x, cy - KEY_BOX / 2, x + KEY_BOX, cy + KEY_BOX / 2, "heatmap.key.cross")
    x -= 4.0
    label = "100% of games"
    x -= text_width_mm(label, SIZE)
    items.append(Text(x, base, label, SIZE, id="heatmap.key.high"))
    x -= 1.0 + KEY_STEPS * KEY_BOX
    for i in range(KEY_STEPS):
        items.append(Box(x + i * KEY_BOX, cy - KEY_BOX / 2, KEY_BOX, KEY_BOX,
                         Style(stroke="#888888", fill="#ffffff", width=0.12), id=f"heatmap.key.{i}"))
    label = "reached in 0%"
    x -= 1.0 + text_width_mm(label, SIZE)
    items.append(Text(x, base, label, SIZE, id="heatmap.key.low"))
    room = x - margin - 3
    if text_width_mm(caption, SIZE) > room:
        caption = caption.split(":")[0]
    if caption:
        items.append(Text(margin, base, caption, SIZE, bold=True, id="heatmap.caption"))
    return items


def write_heatmap(loaded: Loaded, report: Report, path: str | Path) -> tuple[Path, list[str]]:
    """Draw the sheets of `report` shaded by how often each element was reached (all policies
    together). Returns the PDF path and the element ids with no box, circle or icon to shade."""
    rules = rules_of(loaded)
    margin = loaded.doc.layout.margin
    shade: dict[str, float] = {KEY: i / (KEY_STEPS - 1) for i, KEY in
                               enumerate(f"heatmap.key.{i}" for i in range(KEY_STEPS))}
    pages: list[Page] = []
    missing: list[str] = []
    keys: list[str] = []  # captions of pages whose margin cannot hold the key
    for s in report.sheets:
        opts = Options(sheet=s.number if rules.sheets else None)
        prefix = f"{s.number}/"
        frac = s.fractions()
        never = set(s.unreached)
        caption = (f"Heatmap of {report.layout}"
                   + (f" sheet {s.number}" + (f" ({s.label})" if s.label else "")
                      if s.label or len(report.sheets) > 1 else "")
                   + f": {report.games:,} games per policy ({', '.join(report.policies)}), seed "
                   f"{report.seed}, {report.engine} engine")
        drawn: set[str] = set()
        for page in loaded.kind.pages(loaded.doc, opts):
            items = _tag(page.items, prefix, set(frac))
            marks: list[Item] = []
            here = False
            labelled: set[str] = set()
            for it, dx, dy in walk(items):
                if not it.id.startswith(prefix):
                    continue
                here = True
                eid = it.id[len(prefix):]
                box = _bounds(it, dx, dy)
                if isinstance(it, SHADED):
                    drawn.add(eid)
                    if box and eid not in labelled and eid not in never:
                        labelled.add(eid)
                        marks.append(_label(box, frac[eid], eid))
                if eid in never and box:
                    marks += _cross(*box, id=f"heatmap.never.{eid}")
            page = Page(page.width, page.height, items + marks, page.label)
            if here and margin >= SAFE + BAND:
                page.add(*_key(page, margin, caption))
            elif here:
                keys.append(caption)
            pages.append(page)
        shade.update({prefix + e: f for e, f in frac.items()})
        missing += [e for e in s.elements if e not in drawn]
    if keys:  # one page of keys, inside the layout's margins
        first = pages[0]
        page = Page(first.width, first.height, [], "heatmap key")
        top = max(margin, SAFE) + 6
        page.add(Text(max(margin, SAFE), top, "Heatmap key", 12, bold=True, id="heatmap.key.title"))
        page.add(*_key(page, max(margin, SAFE), "", cy=top + 7))
        page.add(Text(max(margin, SAFE), top + 16, "Each shaded element carries the share of games that "
                      "reached it; a cross marks an element no game reached.", SIZE + 1, id="heatmap.key.help"))
        for n, caption in enumerate(keys):
            page.add(Text(max(margin, SAFE), top + 24 + 6 * n, caption, SIZE + 1, bold=True,
                          id=f"heatmap.caption.{n + 1}"))
        pages.append(page)
    title = f"{loaded.doc.title}: heatmap"
    return write_pdf(pages, path, title, shade=shade), missing
