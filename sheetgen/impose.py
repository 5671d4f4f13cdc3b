"""Imposition of whole sheets: 1, 2 or 4 to a page, each inside the printer-safe margin,
with dashed cut lines between them."""

from __future__ import annotations

from typing import Callable

from .paper import page_size
from .scene import Group, Item, Line, Page, Style

CUT = Style(stroke="#888888", width=0.2, dash=(2.0, 1.5))
Cell = tuple[float, float, float, float]  # x, y, w, h of the area a sheet may draw in


def cells(paper: str, orientation: str, per_page: int, margin: float) -> tuple[float, float, list[Cell]]:
    """Page size and the drawable cells. Two to a page splits the long side; four makes a 2x2 grid.
    Every cell keeps `margin` from the page edge and from the cut lines."""
    w, h = page_size(paper, orientation)
    cols, rows = {1: (1, 1), 2: (1, 2) if h >= w else (2, 1), 4: (2, 2)}[per_page]
    cw, ch = w / cols, h / rows
    out = [(c * cw + margin, r * ch + margin, cw - 2 * margin, ch - 2 * margin)
           for r in range(rows) for c in range(cols)]
    return w, h, out


def cut_lines(w: float, h: float, per_page: int, margin: float) -> list[Item]:
    """Cut guides between sheets, kept inside the printer-safe margin."""
    lines: list[Item] = []
    if per_page == 4 or (per_page == 2 and w > h):
        lines.append(Line(((w / 2, margin), (w / 2, h - margin)), CUT, id="cut"))
    if per_page == 4 or (per_page == 2 and h >= w):
        lines.append(Line(((margin, h / 2), (w - margin, h / 2)), CUT, id="cut"))
    return lines


def nup(compose: Callable[[float, float, int], list[Item]], count: int, paper: str,
        orientation: str, per_page: int, margin: float, label: str = "") -> list[Page]:
    """Pages holding `count` sheets; `compose(w, h, index)` draws one sheet in a w x h area."""
    w, h, area = cells(paper, orientation, per_page, margin)
    pages: list[Page] = []
    for i in range(count):
        slot = i % per_page
        if slot == 0:
            pages.append(Page(w, h, label=label if not pages else ""))
        x, y, cw, ch = area[slot]
        pages[-1].add(Group(tuple(compose(cw, ch, i)), x, y))
        if slot == per_page - 1 or i == count - 1:
            if per_page > 1:
                pages[-1].add(*cut_lines(w, h, per_page, margin))
    return pages
