"""The heatmap: the very sheet that was played, each element shaded by how often it was reached.

`validate --heatmap` writes it as a PDF and `sheetgen report` ends with the same pages. On each:
- the sheet is drawn greyed (outlines and text in light grey, no fills, icons flat grey), so the
  shading reads on top of it and the candy colours cannot mix with it;
- each element is filled with one step of a single-hue scale (11 steps, 0 to 100 %; an icon gets a
  thick frame of its step instead, a fill would hide under it) and carries its percentage of games as text, so the figure never rests on colour alone; a cross marks an element
  no game reached;
- a key (caption, the 11 steps with their numbers, the cross) sits under the sheet. The sheet is
  drawn a little smaller to make room for it, so every mark stays inside the printer-safe edge
  (SAFE); the percentages are sized to print at 6 pt or more after that scaling.
Each sheet's ids are tagged with its number first, so the same id on two sheets of one layout keeps
its own figure.
"""

from __future__ import annotations

import io
from dataclasses import dataclass, replace
from pathlib import Path

from ..draw import MM, pdf_bytes, text_width_mm
from ..kinds import Loaded, Options
from ..output import write_atomic
from ..paper import SAFE_MARGIN_MM
from ..scene import QR, Box, Circle, Group, Icon, Item, Line, Page, Para, Style, Text, walk
from .report import Report
from .run import rules_of

SAFE = SAFE_MARGIN_MM  # printers cannot print nearer the edge
# the scale, white (never) to dark blue: steps 0, 10, ... 100 % (ColorBrewer Blues, extended)
RAMP = ("#ffffff", "#eaf2fa", "#d4e4f4", "#bad6ec", "#9ac4e2", "#74acd5", "#5293c7", "#3479b6",
        "#1d5fa0", "#0d4583", "#062a5a")
LIGHT = 6  # steps from here on carry white text (in the key)
GREY, GREY_TEXT, GREY_ICON = "#bdbdbd", "#a0a0a0", "#dcdcdc"
CROSS = Style(stroke="#000000", width=0.35)
LABEL = 6.0  # pt as printed: the percentage on each element
SIZE = 7.0  # pt, the key's text
KEY_H = 12.0  # mm under the sheet: caption line and the strip of steps
STEP_W, STEP_H = 9.0, 4.2  # mm, one step of the key
SHADED = (Box, Circle, Icon)  # what carries an element's shade


def step(f: float) -> int:
    """The scale step of a share of games: 0 only when never, at least 1 when ever."""
    return 0 if f <= 0 else max(1, min(10, round(f * 10)))


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


def _grey(items, prefix: str) -> list[Item]:
    """The sheet as a light grey backdrop: outlines and text grey, no fills, icons flat grey, and
    an icon that is an element (its id tagged with `prefix`) in outline, over its shade."""
    out: list[Item] = []
    for it in items:
        if isinstance(it, Group):
            out.append(replace(it, items=tuple(_grey(it.items, prefix)), form=""))
        elif isinstance(it, (Box, Circle, Line)):
            s = it.style
            out.append(replace(it, style=Style(stroke=GREY if s.stroke else None, fill=None,
                                               width=min(s.width, 0.3), dash=s.dash)))
        elif isinstance(it, (Text, Para)):
            out.append(replace(it, color=GREY_TEXT))
        elif isinstance(it, Icon):
            out.append(replace(it, mono=True) if it.id.startswith(prefix) else replace(it, fill=GREY_ICON, mono=False))
        elif isinstance(it, QR):
            out.append(Box(it.x, it.y, it.size, it.size, Style(stroke=GREY, width=0.2)))
        else:
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


def _shade(it, dx: float, dy: float, f: float, eid: str) -> Item:
    """The element's step of the scale: its box or circle filled (under the greyed sheet), or for
    an icon, which would hide a fill, a thick frame of that step around it (over the sheet)."""
    fill = Style(stroke=None, fill=RAMP[step(f)])
    if isinstance(it, Icon):
        h = it.size / 2 + 0.4
        return Box(it.cx + dx - h, it.cy + dy - h, 2 * h, 2 * h, Style(stroke=RAMP[max(1, step(f))], width=1.2),
                   id=f"heatmap.shade.{eid}", radius=0.8)
    if isinstance(it, Circle):
        return Circle(it.cx + dx, it.cy + dy, it.r, fill, id=f"heatmap.shade.{eid}")
    x0, y0, x1, y1 = _bounds(it, dx, dy)
    return Box(x0, y0, x1 - x0, y1 - y0, fill, id=f"heatmap.shade.{eid}",
               radius=it.radius if isinstance(it, Box) else 0.0)


def _label(box: tuple[float, float, float, float], f: float, eid: str, size: float) -> list[Item]:
    """The element's percentage of games on a white pill (readable on any step and over the sheet's
    own marks): near the bottom of a box 7 to 12 mm tall (its own number stays readable above),
    else centred."""
    from .show import percent

    x0, y0, x1, y1 = box
    text = f"{percent(f)}%"
    h = size * 0.3528 * 0.72 + 0.9  # cap height and a little air, mm
    w = text_width_mm(text, size, bold=True) + 1.0
    cy = y1 - h / 2 - 0.5 if 7.0 <= y1 - y0 < 12.0 else (y0 + y1) / 2
    return [Box((x0 + x1 - w) / 2, cy - h / 2, w, h, Style(stroke=None, fill="#ffffff"), radius=h / 3,
                id=f"heatmap.pill.{eid}"),
            Text((x0 + x1) / 2, cy + h / 2 - 0.45, text, size, bold=True, align="center", id=f"heatmap.pct.{eid}")]


@dataclass(frozen=True)
class Fit:
    """Where the sheet goes on its heatmap page: scale f about the page's centre line, its margin
    band moved up to the safe edge, and the key's top (mm from the page top)."""

    scale: float
    tx: float  # points, as pypdf's Transformation takes them
    ty: float
    key_top: float


def fit(w: float, h: float, margin: float) -> Fit:
    room = h - 2 * SAFE - KEY_H - 1.5  # the sheet's content, above the key
    content = h - 2 * margin
    if room >= content:  # the bottom margin holds the key as it is
        return Fit(1.0, 0.0, 0.0, h - SAFE - KEY_H)
    f = room / content
    return Fit(f, (1 - f) * w / 2 * MM, (h - SAFE - (h - margin) * f) * MM, h - SAFE - KEY_H)


def _key(w: float, top: float, caption: str, scale: float) -> list[Item]:
    """The caption line, then '0 % [11 numbered steps] 100 % of games', the cross, and a note."""
    x = SAFE + 1
    items: list[Item] = [Text(x, top + 3.0, caption, SIZE, bold=True, id="heatmap.caption")]
    y = top + 5.0
    items.append(Text(x, y + STEP_H - 1.0, "reached in 0%", SIZE, id="heatmap.key.low"))
    x += text_width_mm("reached in 0%", SIZE) + 1.5
    for i, fill in enumerate(RAMP):
        items.append(Box(x + i * STEP_W, y, STEP_W, STEP_H, Style(stroke="#555555", fill=fill, width=0.15),
                         id=f"heatmap.key.{i}"))
        items.append(Text(x + (i + 0.5) * STEP_W, y + STEP_H - 1.1, str(10 * i), 6.0, bold=True,
                          align="center", color="#ffffff" if i >= LIGHT else "#000000", id=f"heatmap.key.n{i}"))
    x += len(RAMP) * STEP_W + 1.5
    items.append(Text(x, y + STEP_H - 1.0, "100% of games", SIZE, id="heatmap.key.high"))
    x += text_width_mm("100% of games", SIZE) + 5
    items.append(Box(x, y, STEP_H, STEP_H, Style(stroke="#555555", width=0.15), id="heatmap.key.never.box"))
    items += _cross(x, y, x + STEP_H, y + STEP_H, "heatmap.key.cross")
    items.append(Text(x + STEP_H + 1.2, y + STEP_H - 1.0, "never reached", SIZE, id="heatmap.key.never"))
    note = "the sheet greyed" + (f", at {scale:.0%}" if scale < 1 else "")
    items.append(Text(w - SAFE - 1, y + STEP_H - 1.0, note, SIZE, align="right", color="#555555",
                      id="heatmap.key.note"))
    return items


def pages(loaded: Loaded, report: Report) -> tuple[bytes, list[str]]:
    """The heatmap pages as PDF bytes (one per page of a sheet that holds its elements) and the
    element ids with no box, circle or icon to shade."""
    from pypdf import PageObject, PdfReader, PdfWriter, Transformation

    rules = rules_of(loaded)
    margin = loaded.doc.layout.margin
    sheets: list[Page] = []
    keys: list[Page] = []
    fits: list[Fit] = []
    missing: list[str] = []
    for s in report.sheets:
        prefix = f"{s.number}/"
        frac = s.fractions()
        never = set(s.unreached)
        caption = (f"{loaded.doc.title}" + (f", sheet {s.number}" + (f" ({s.label})" if s.label else "")
                                             if s.label or len(report.sheets) > 1 else "")
                   + f": share of games that reached each element ({report.games:,} games per player: "
                   f"{', '.join(report.policies)}; seed {report.seed})")
        drawn: set[str] = set()
        for page in loaded.kind.pages(loaded.doc, Options(sheet=s.number if rules.sheets else None)):
            items = _tag(page.items, prefix, set(frac))
            where = fit(page.width, page.height, margin)
            size = LABEL / where.scale
            shades: list[Item] = []
            marks: list[Item] = []
            for it, dx, dy in walk(items):
                if not it.id.startswith(prefix):
                    continue
                eid = it.id[len(prefix):]
                box = _bounds(it, dx, dy)
                if isinstance(it, SHADED) and eid not in drawn:
                    drawn.add(eid)
                    (marks if isinstance(it, Icon) else shades).append(_shade(it, dx, dy, frac[eid], eid))
                    if eid in never:
                        marks += _cross(*box, id=f"heatmap.never.{eid}")
                    else:
                        marks += _label(box, frac[eid], eid, size)
            if not shades:
                continue
            sheets.append(Page(page.width, page.height, shades + _grey(items, prefix) + marks, page.label))
            keys.append(Page(page.width, page.height, _key(page.width, where.key_top, caption, where.scale)))
            fits.append(where)
        missing += [e for e in s.elements if e not in drawn]
    title = f"{loaded.doc.title}: heatmap"
    drawn_sheets = PdfReader(io.BytesIO(pdf_bytes(sheets, title)))
    drawn_keys = PdfReader(io.BytesIO(pdf_bytes(keys, title)))
    writer = PdfWriter()
    for sheet, key, where in zip(drawn_sheets.pages, drawn_keys.pages, fits):
        out = PageObject.create_blank_page(width=float(sheet.mediabox.width), height=float(sheet.mediabox.height))
        out.merge_transformed_page(sheet, Transformation().scale(where.scale).translate(where.tx, where.ty))
        out.merge_page(key)
        writer.add_page(out)
    writer.add_metadata({"/Title": title, "/Author": "sheetgen", "/Creator": "sheetgen", "/Producer": "sheetgen"})
    buf = io.BytesIO()
    writer.write(buf)
    return buf.getvalue(), missing


def write_heatmap(loaded: Loaded, report: Report, path: str | Path) -> tuple[Path, list[str]]:
    """Write the heatmap PDF; returns its path and the element ids with nothing to shade."""
    data, missing = pages(loaded, report)
    return write_atomic(path, data), missing
