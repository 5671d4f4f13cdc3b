"""Rollers chips and board markers to punch out: round chips by value (purple 5, white 1),
markers in one colour and icon per player, counted as the rulebook's box holds them, and point
markers for the circles at the top of the board."""

from __future__ import annotations

from pydantic import Field, model_validator

from ...kinds import Kind, Options
from ...model import HEX, Colour, IconName, Ident, LayoutFile, Strict, unique_ids
from ...pieces import Piece, PieceLayout, cut_circle, pack
from ...scene import Circle, Icon, Item, Page, Style, Text
from ...text import fill
from ...widgets import tint


class ChipKind(Strict):
    id: Ident
    name: str = Field(min_length=1, description="as the board's chip reference names it")
    value: int = Field(ge=1, le=100)
    per_player: int = Field(ge=1, le=50, description="chips each player starts a round with; the "
                            "sheet holds this many per player colour (markers)")
    colour: Colour = Field(pattern=HEX)
    ring: Colour = Field("#000000", pattern=HEX, description="the dashed ring and the value")


class MarkerSet(Strict):
    id: Ident
    name: str = Field(min_length=1, max_length=7, description="printed on each marker, in capitals")
    colour: Colour = Field(pattern=HEX)
    icon: IconName


class ChipContent(Strict):
    chip: float = Field(22.0, ge=15, le=40, description="chip diameter, mm")
    marker: float = Field(13.0, ge=10, le=16, description="marker diameter, mm (board spaces are 17)")
    markers_each: int = Field(15, ge=1, le=30, description="markers per player colour")
    points_each: int = Field(5, ge=0, le=10, description="point markers per player colour")
    point: float = Field(11.0, ge=9, le=16, description="point marker diameter, mm (board circles are 10)")
    chips: list[ChipKind] = Field(min_length=1)
    markers: list[MarkerSet] = Field(min_length=1)
    how: str = Field(min_length=1, description="page heading of the chips ({placeholders} of counts())")
    how_markers: str = Field(min_length=1, description="page heading of the markers ({placeholders} of counts())")

    @model_validator(mode="after")
    def _ids(self):
        unique_ids(self.chips, "chip")
        unique_ids(self.markers, "marker set")
        return self

    def count(self, k: ChipKind) -> int:
        """Chips of kind k in the box: per player, for every player colour."""
        return k.per_player * len(self.markers)


class ChipSheet(LayoutFile):
    content: ChipContent
    layout: PieceLayout = PieceLayout()

    def counts(self) -> dict[str, int]:
        """{chips}, each chip id's count and its value ({purple}, {purple_value}); {markers} and
        {points} in all, and per colour."""
        c = self.content
        return {"chips": sum(c.count(k) for k in c.chips), **{k.id: c.count(k) for k in c.chips},
                **{f"{k.id}_value": k.value for k in c.chips},
                "markers": c.markers_each * len(c.markers), "markers_each": c.markers_each,
                "points": c.points_each * len(c.markers), "points_each": c.points_each}


def chip(c: ChipKind, d: float, ink: bool, n: int) -> Piece:
    r = d / 2
    items: list[Item] = [Circle(r, r, r, Style(stroke=None, fill="#ffffff" if ink else c.colour)),
                         Circle(r, r, r * 0.72, Style(stroke="#000000" if ink else c.ring, width=0.35,
                                                      dash=(1.0, 0.7))),
                         Text(r, r + d * 0.17, str(c.value), d * 1.25, bold=True, align="center",
                              color="#000000" if ink else c.ring, id=f"chip.{c.id}.{n}")]
    return Piece(d, d, tuple(items + cut_circle(r, r, r)), id=f"chip.{c.id}.{n}")


def marker(m: MarkerSet, d: float, ink: bool, n: int) -> Piece:
    r = d / 2
    items: list[Item] = [Circle(r, r, r, Style(stroke=None, fill="#ffffff" if ink else tint(m.colour, 0.45))),
                         Icon(m.icon, r, r - d * 0.1, d * 0.5, fill=m.colour, mono=ink),
                         Text(r, d - d * 0.12, m.name, 6, bold=True, align="center",
                              id=f"marker.{m.id}.{n}")]
    return Piece(d, d, tuple(items + cut_circle(r, r, r)), id=f"marker.{m.id}.{n}")


def point_marker(m: MarkerSet, d: float, ink: bool, n: int) -> Piece:
    """A point marker for the circles at the top of the board: the colour's icon, light on the
    full colour (board markers are dark on a tint)."""
    r = d / 2
    items: list[Item] = [Circle(r, r, r, Style(stroke=None, fill="#ffffff" if ink else m.colour)),
                         Icon(m.icon, r, r - d * 0.16, d * 0.42, fill="#ffffff", mono=ink),
                         Text(r, r + d * 0.27, "POINT", 6, bold=True, align="center",
                              color="#000000" if ink else "#ffffff", id=f"point.{m.id}.{n}")]
    return Piece(d, d, tuple(items + cut_circle(r, r, r)), id=f"point.{m.id}.{n}")


def pages(doc: ChipSheet, opts: Options) -> list[Page]:
    c, lay = doc.content, doc.layout
    ink, copies = lay.ink_saver, max(1, opts.copies)
    pieces = [chip(k, c.chip, ink, n + 1) for k in c.chips for n in range(c.count(k) * copies)]
    first = len(pieces)
    for m in c.markers:
        pieces += [marker(m, c.marker, ink, n + 1) for n in range(c.markers_each * copies)]
        pieces += [point_marker(m, c.point, ink, n + 1) for n in range(c.points_each * copies)]
    counts = doc.counts()
    return pack(pieces, lay, doc.title, fill(c.how, counts), breaks={first: fill(c.how_markers, counts)})


KIND = Kind("rollers-chips", ChipSheet, pages, product="rollers")
