"""The Candy Crown (a paper crown to cut, wrap and tape, with an adjustable band), a Candy Cane
card to grab, and the fun cut-outs: a Word Bubble and a Candy Corn Dagger per player colour."""

from __future__ import annotations

import math

from pydantic import Field, model_validator

from ...kinds import Kind, Options
from ...model import HEX, Colour, IconName, Ident, LayoutFile, Strict, unique_ids
from ...pieces import Piece, PieceLayout, cut_box, cut_polygon, pack
from ...scene import Box, Icon, Item, Line, Page, Style, Text
from ...widgets import tint


class PropColour(Strict):
    id: Ident
    name: str = Field(min_length=1, max_length=10)
    colour: Colour = Field(pattern=HEX)
    icon: IconName
    word: str = Field(min_length=1, max_length=8, description="the word in its Word Bubble")


class Crown(Strict):
    title: str = "CANDY CROWN"
    width: float = Field(180.0, ge=100, le=190, description="front piece, mm")
    height: float = Field(52.0, ge=30, le=80)
    points: int = Field(5, ge=3, le=9)
    band: float = Field(180.0, ge=100, le=190, description="length of each of the two band strips")
    sizes: list[str] = Field(["S", "M", "L"], description="marks on the band where to tape")
    icons: list[IconName] = ["lollipop", "gumdrop", "peppermint", "wrapped", "gumball"]


class PropContent(Strict):
    how: str = Field(min_length=1, description="page heading")
    crown: Crown = Crown()
    cane: str = Field(min_length=1, description="the words on the Candy Cane card")
    colours: list[PropColour] = Field(min_length=1, max_length=6)

    @model_validator(mode="after")
    def _ids(self):
        unique_ids(self.colours, "colour")
        return self


class PropSheet(LayoutFile):
    content: PropContent
    layout: PieceLayout = PieceLayout()

    def counts(self) -> dict[str, int]:
        return {"daggers": len(self.content.colours), "bubbles": len(self.content.colours)}


GOLD = "#f2c14e"


def crown_front(c: Crown, ink: bool) -> Piece:
    w, h, n = c.width, c.height, c.points
    base = h * 0.45
    top: list[tuple[float, float]] = [(0, h)]
    for i in range(n):
        x0 = i * w / n
        top += [(x0, base), (x0 + w / (2 * n), 0), ]
    top += [(w, base), (w, h)]
    fill = "#ffffff" if ink else GOLD
    items: list[Item] = [Line(tuple(top), Style(stroke=None, fill=fill), closed=True)]
    for i in range(n):
        cx = (i + 0.5) * w / n
        items.append(Icon(c.icons[i % len(c.icons)], cx, base * 0.72, 9, mono=ink))
    items += [Text(w / 2, base + (h - base) / 2 + 2.4, c.title, 15, bold=True, align="center", id="crown.title"),
              Text(3, h - 2.5, "tape a band here", 6, color="#555555"),
              Text(w - 3, h - 2.5, "tape a band here", 6, align="right", color="#555555")]
    return Piece(w, h, tuple(items + cut_polygon(top)), id="crown.front")


def crown_band(c: Crown, n: int, ink: bool) -> Piece:
    w, h = c.band, 16.0
    items: list[Item] = [Box(0, 0, w, h, Style(stroke=None, fill="#ffffff" if ink else tint(GOLD, 0.6))),
                         Text(4, 6.5, f"Crown BAND {n}: tape one end to the crown", 7, bold=True,
                              id=f"crown.band.{n}")]
    if n == 2:  # the free end: where to overlap band 1 for each head size
        for i, size in enumerate(c.sizes):
            x = w - 12 - i * 22
            items += [Line(((x, 2), (x, h - 2)), Style(width=0.4)),
                      Text(x + 1.5, h - 3, f"{size}", 8, bold=True)]
        items.append(Text(4, 12.5, "then overlap band 1 up to the line of your size and tape", 6,
                          color="#555555"))
    return Piece(w, h, tuple(items + cut_box(0, 0, w, h)), id=f"crown.band.{n}")


def cane_card(text: str, ink: bool) -> Piece:
    w, h = 62.0, 120.0
    items: list[Item] = [Box(0, 0, w, h, Style(stroke=None, fill="#ffffff" if ink else "#fdecef"), radius=4),
                         Icon("candy_cane", w / 2 + 4, h * 0.45, 58, mono=ink),
                         Text(w / 2, h - 8, text, 11, bold=True, align="center", id="cane.text")]
    return Piece(w, h, tuple(items + cut_box(0, 0, w, h, radius=4)), id="cane")


def _ellipse(cx, cy, rx, ry, n=48, start=0.0):
    return [(cx + rx * math.cos(start + 2 * math.pi * i / n), cy + ry * math.sin(start + 2 * math.pi * i / n))
            for i in range(n)]


def bubble(col: PropColour, ink: bool) -> Piece:
    w, h = 60.0, 42.0
    rx, ry, cx, cy = 29.0, 16.0, 30.0, 17.0
    pts = _ellipse(cx, cy, rx, ry)
    # the tail: between two points at the bottom left of the ellipse, down to a tip
    k = 16  # at about 120 degrees (y grows downwards): the lower left
    pts = pts[:k] + [(12.0, h - 0.5)] + pts[k + 3:]
    fill = "#ffffff" if ink else tint(col.colour, 0.25)
    items: list[Item] = [Line(tuple(pts), Style(stroke=col.colour if not ink else "#000000", fill=fill, width=0.8),
                              closed=True),
                         Text(cx, cy + 3, col.word, 16, bold=True, align="center", id=f"bubble.{col.id}"),
                         Icon(col.icon, cx + 19, cy + 7, 6, fill=col.colour, mono=ink)]
    return Piece(w, h, tuple(items + cut_polygon(pts)), id=f"bubble.{col.id}")


def dagger(col: PropColour, ink: bool) -> Piece:
    """A candy corn blade (white tip, yellow, orange) on a handle in the player colour."""
    w, h = 110.0, 22.0
    mid = h / 2
    handle, guard = 30.0, 5.0
    b0 = handle + guard
    outline = [(0, mid - 5), (handle, mid - 5), (handle, 1), (b0, 1), (b0, mid - 8), (w, mid),
               (b0, mid + 8), (b0, h - 1), (handle, h - 1), (handle, mid + 5), (0, mid + 5)]
    blade = w - b0

    def band(t0, t1, colour):
        y0, y1 = 8 * (1 - t0), 8 * (1 - t1)
        x0, x1 = b0 + blade * t0, b0 + blade * t1
        return Line(((x0, mid - y0), (x1, mid - y1), (x1, mid + y1), (x0, mid + y0)),
                    Style(stroke=None, fill="#ffffff" if ink else colour), closed=True)

    items: list[Item] = [Box(0, mid - 5, handle, 10, Style(stroke=None, fill="#ffffff" if ink else col.colour),
                             radius=2),
                         Box(handle, 1, guard, h - 2, Style(stroke=None, fill="#ffffff" if ink else "#6b3a1e")),
                         band(0, 0.4, "#f2a900"), band(0.4, 0.75, "#f47c20"), band(0.75, 1.0, "#ffffff"),
                         Line(((b0, mid - 8), (w, mid), (b0, mid + 8)), Style(width=0.3)),
                         Icon(col.icon, 5, mid, 7, fill="#ffffff" if not ink else None, mono=ink),
                         Text(18, mid + 1.3, col.name, 6.5, bold=True, align="center",
                              color="#000000" if ink else "#ffffff", id=f"dagger.{col.id}")]
    return Piece(w, h, tuple(items + cut_polygon(outline)), id=f"dagger.{col.id}")


def pages(doc: PropSheet, opts: Options) -> list[Page]:
    c, lay = doc.content, doc.layout
    ink = lay.ink_saver
    pieces: list[Piece] = []
    for _ in range(max(1, opts.copies)):
        pieces += [crown_front(c.crown, ink), crown_band(c.crown, 1, ink), crown_band(c.crown, 2, ink),
                   cane_card(c.cane, ink)]
        pieces += [bubble(col, ink) for col in c.colours]
        pieces += [dagger(col, ink) for col in c.colours]
    return pack(pieces, lay, doc.title, c.how)


KIND = Kind("candy-props", PropSheet, pages, product="roll-for-your-life")
