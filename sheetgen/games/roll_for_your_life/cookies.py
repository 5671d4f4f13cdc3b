"""The gingerbread men of ROLL for Your Life, Candyman! to cut out: per player colour a head, a
body, two arms and two legs (or, for the spares sheet, any other count), each part with the
colour's icing, buttons and icon and its name, sized to pick up."""

from __future__ import annotations

from pydantic import Field, model_validator

from ...kinds import Kind, Options
from ...model import HEX, Colour, IconName, Ident, LayoutFile, Strict, unique_ids
from ...pieces import Piece, PieceLayout, cut_box, cut_circle, pack
from ...scene import Box, Circle, Icon, Item, Line, Page, Style, Text
from ...widgets import tint

DOUGH = "#c68642"


class CookieColour(Strict):
    id: Ident
    name: str = Field(min_length=1, max_length=10)
    colour: Colour = Field(pattern=HEX)
    icon: IconName


class Parts(Strict):
    head: int = Field(1, ge=0, le=4)
    body: int = Field(1, ge=0, le=4)
    arm: int = Field(2, ge=0, le=6)
    leg: int = Field(2, ge=0, le=6)


class Sizes(Strict):
    head: float = Field(32.0, ge=25, le=50, description="head diameter, mm")
    body: tuple[float, float] = (36.0, 44.0)
    arm: tuple[float, float] = Field((34.0, 15.0), description="length, width; length >= 25")
    leg: tuple[float, float] = Field((15.0, 36.0), description="width, length; length >= 25")

    @model_validator(mode="after")
    def _handle(self):
        if self.arm[0] < 25 or self.leg[1] < 25:
            raise ValueError("arms and legs need at least 25 mm of length to pick up")
        return self


class CookieContent(Strict):
    how: str = Field(min_length=1, description="page heading")
    parts: Parts = Parts()
    sizes: Sizes = Sizes()
    colours: list[CookieColour] = Field(min_length=1, max_length=8)

    @model_validator(mode="after")
    def _ids(self):
        unique_ids(self.colours, "colour")
        return self


class CookieSheet(LayoutFile):
    content: CookieContent
    layout: PieceLayout = PieceLayout()

    def counts(self) -> dict[str, int]:
        return {"men": len(self.content.colours), "parts": sum(self.content.parts.model_dump().values())}


def _label(x: float, y: float, col: CookieColour, part: str, key: str, ink: bool) -> list[Item]:
    """The part's name in capitals (counted on the PDF) under the colour's name."""
    ink_colour = "#000000" if ink else "#ffffff"
    return [Text(x, y, col.name, 6.5, bold=True, align="center", color=ink_colour, id=f"{key}.colour"),
            Text(x, y + 3.2, part.upper(), 6.5, bold=True, align="center", color=ink_colour, id=key)]


def part(kind: str, col: CookieColour, s: Sizes, ink: bool, n: int) -> Piece:
    dough = Style(stroke=None, fill="#ffffff" if ink else DOUGH)
    icing = Style(stroke="#000000" if ink else col.colour, width=1.2, dash=(2.2, 1.2))
    key = f"cookie.{col.id}.{kind}.{n}"
    items: list[Item]
    if kind == "head":
        d = s.head
        r = d / 2
        w = h = d
        items = [Circle(r, r, r, dough), Circle(r, r, r - 2.2, icing),
                 Line(((r - 8, r * 0.55), (r - 3, r * 0.3), (r + 3, r * 0.3), (r + 8, r * 0.55)),
                      Style(stroke="#000000" if ink else col.colour, width=2.2)),  # hair
                 Circle(r - 5, r - 1, 1.6, Style(stroke=None, fill="#000000")),
                 Circle(r + 5, r - 1, 1.6, Style(stroke=None, fill="#000000")),
                 Line(((r - 5, r + 3.5), (r, r + 6), (r + 5, r + 3.5)), Style(width=0.8)),
                 *_label(r, r + 9, col, kind, key, ink), *cut_circle(r, r, r)]  # inside the icing
    else:
        w, h = {"body": s.body, "arm": s.arm, "leg": s.leg}[kind]
        rad = min(w, h) * 0.4
        items = [Box(0, 0, w, h, dough, radius=rad), Box(2, 2, w - 4, h - 4, icing, radius=max(0.5, rad - 2))]
        if kind == "body":
            items += [Icon(col.icon, w / 2, h * 0.2 + 2 * i * 5.5, 6, fill=col.colour, mono=ink)
                      for i in range(3)]  # buttons
            items += _label(w / 2, h - 8, col, kind, key, ink)
        else:
            along = w >= h
            icon_x, icon_y = (w * 0.28, h / 2) if along else (w / 2, h * 0.25)
            items.append(Icon(col.icon, icon_x, icon_y, min(w, h) * 0.55, fill=col.colour, mono=ink))
            lx, ly = (w * 0.66, h / 2 - 0.6) if along else (w / 2, h * 0.62)
            items += _label(lx, ly, col, kind, key, ink)
        items += cut_box(0, 0, w, h, radius=rad)
    return Piece(w, h, tuple(items), id=key)


def pages(doc: CookieSheet, opts: Options) -> list[Page]:
    c, lay = doc.content, doc.layout
    counts = c.parts.model_dump()
    pieces = [part(kind, col, c.sizes, lay.ink_saver, n + 1)
              for _ in range(max(1, opts.copies)) for col in c.colours
              for kind, count in counts.items() for n in range(count)]
    return pack(pieces, lay, doc.title, c.how)


KIND = Kind("cookies", CookieSheet, pages, product="roll-for-your-life")
