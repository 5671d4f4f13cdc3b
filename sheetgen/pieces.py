"""Sheets of pieces to cut out (cookie parts, chips, markers, stickers, dice nets, props): each
piece is drawn in its own box and the boxes are packed in rows onto pages, inside the
printer-safe margin, under a one-line heading.

A piece draws in its own coordinates, (0, 0) the top-left corner of its box, (w, h) the other.
Its cut line is its own business (`cut_outline` draws the usual dashed guide over a white halo).
"""

from __future__ import annotations

from dataclasses import dataclass

from pydantic import Field

from .errors import SheetgenError
from .model import PageSetup
from .paper import page_size
from .scene import Box, Circle, Group, Item, Line, Page, Style, Text

CUT = Style(stroke="#333333", width=0.25, dash=(1.4, 0.8))
HALO = Style(stroke="#ffffff", width=0.6)
FOLD = Style(stroke="#555555", width=0.2, dash=(0.5, 0.7))
HEAD = 9.0  # mm kept for the heading line at the top of each page
LABEL = 5.0  # mm kept above a row for its label line


@dataclass(frozen=True)
class Piece:
    w: float
    h: float
    items: tuple[Item, ...]
    id: str = ""


class PieceLayout(PageSetup):
    gap: float = Field(3.0, ge=1.0, le=20.0, description="space between two pieces, mm")


def cut_outline(shape: Item, id: str = "cut") -> list[Item]:
    """The shape's outline as a cut guide: a white halo under a dark dashed line (`id`)."""
    from dataclasses import replace

    return [replace(shape, style=HALO, id=""), replace(shape, style=CUT, id=id)]


def cut_box(x: float, y: float, w: float, h: float, radius: float = 0.0, id: str = "cut") -> list[Item]:
    return cut_outline(Box(x, y, w, h, radius=radius), id)


def cut_circle(cx: float, cy: float, r: float) -> list[Item]:
    return cut_outline(Circle(cx, cy, r))


def cut_polygon(points) -> list[Item]:
    return cut_outline(Line(tuple(points), closed=True))


def pack(pieces: list[Piece], lay: PieceLayout, title: str, heading: str = "",
         breaks: dict[int, str] | None = None, labels: dict[int, str] | None = None) -> list[Page]:
    """Pages of pieces in rows, left to right then down, in the order given. Each page has
    `heading` (or the title) at the top; the piece at index i in `breaks` starts a new page whose
    heading, from then on, is breaks[i]; the piece at index i in `labels` starts a new row under
    the line labels[i] (on the next page when the label and that piece do not fit)."""
    breaks, labels = breaks or {}, labels or {}
    pw, ph = page_size(lay.paper, lay.orientation)
    m, gap = lay.margin, lay.gap
    top, right, bottom = m + HEAD, pw - m, ph - m
    pages: list[Page] = []
    x = y = row_h = 0.0

    def new_page():
        nonlocal x, y, row_h
        page = Page(pw, ph, label=title if not pages else "")
        page.add(Text(m, m + 4.5, heading or title, 11, bold=True, id="heading"))
        pages.append(page)
        x, y, row_h = m, top, 0.0

    for i, p in enumerate(pieces):
        if p.w > right - m + 1e-9 or p.h + (LABEL if i in labels else 0) > bottom - top + 1e-9:
            raise SheetgenError(f"a {p.w:.0f}x{p.h:.0f} mm piece ({p.id or 'piece'}) does not fit "
                                f"on {lay.paper} inside the {m:g} mm margin", key="layout",
                                fix="make the piece smaller or use the other orientation")
        if i in breaks:
            heading = breaks[i]
        if not pages or i in breaks:
            new_page()
        label = LABEL if i in labels else 0.0
        if x + p.w > right + 1e-9 or (label and x > m):  # next row
            x, y, row_h = m, y + row_h + gap, 0.0
        if y + label + p.h > bottom + 1e-9:
            new_page()
        if label:
            pages[-1].add(Text(m, y + 3.5, labels[i], 8, bold=True, id=f"label.{i}"))
            y += label
        pages[-1].add(Group(p.items, x, y, id=p.id))
        x += p.w + gap
        row_h = max(row_h, p.h)
    return pages
