"""Gingerbread Status sheet of *Run for Your Life, Candyman!*: a candy-coded figure with damage boxes."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator

from ...draw import text_width_mm
from ...impose import nup
from ...kinds import Kind, Options
from ...model import Candy, Colour, HEX, Ident, LayoutFile, PageSetup, Strict, unique_ids
from ...scene import QR, Box, Circle, Icon, Item, Page, Style, Text
from ...widgets import GREY, heading, name_line, tint

PARTS = ("head", "body", "left_arm", "right_arm", "left_leg", "right_leg")


class Part(Strict):
    id: Literal["head", "body", "left_arm", "right_arm", "left_leg", "right_leg"]
    name: str
    candy: Ident


class StatusContent(Strict):
    candies: list[Candy] = Field(min_length=6, max_length=6)
    parts: list[Part] = Field(min_length=6, max_length=6)
    basic_boxes: int = Field(4, ge=1, le=6, description="white boxes per part (basic game)")
    extended_boxes: int = Field(2, ge=0, le=4, description="grey boxes per part (extended game)")
    qr: str = Field("pip install sheetgen && sheetgen render gingerbread-status", min_length=1,
                    description="what the QR code says")
    qr_caption: str = "Scan to print more sheets"

    @model_validator(mode="after")
    def _links(self):
        unique_ids(self.candies, "candy")
        unique_ids(self.parts, "part")
        known = {c.id for c in self.candies}
        for p in self.parts:
            if p.candy not in known:
                raise ValueError(f"part '{p.id}' names candy '{p.candy}', which is not in candies")
        if self.basic_boxes + self.extended_boxes != 6:
            raise ValueError("basic_boxes + extended_boxes must make 6 boxes per part")
        return self


class StatusLayout(PageSetup):
    per_page: Literal[1, 2, 4] = 2
    box: float = Field(6.0, ge=5.0, le=10.0, description="damage box size, mm")
    extended_fill: Colour = Field(GREY, pattern=HEX)


class StatusSheet(LayoutFile):
    content: StatusContent
    layout: StatusLayout = StatusLayout()


# The figure, in mm at box size 6, origin top left. (kind, x, y, w, h); grid = columns x rows.
FIGURE = {
    "head": ("circle", 37, 0, 36, 36, (3, 2)),
    "body": ("rect", 35, 36, 40, 46, (2, 3)),
    "left_arm": ("rect", 3, 40, 32, 24, (3, 2)),
    "right_arm": ("rect", 75, 40, 32, 24, (3, 2)),
    "left_leg": ("rect", 33, 82, 21, 38, (2, 3)),
    "right_leg": ("rect", 56, 82, 21, 38, (2, 3)),
}
FIG_W, FIG_H = 110.0, 120.0


def _part(doc: StatusSheet, part: Part, s: float, ink: bool) -> list[Item]:
    candy = next(c for c in doc.content.candies if c.id == part.candy)
    shape, x, y, w, h, (cols, rows) = FIGURE[part.id]
    x, y, w, h = x * s, y * s, w * s, h * s
    fill = "#ffffff" if ink else tint(candy.colour, 0.35)
    outline = Style(stroke="#000000", fill=fill, width=0.6)
    pid = f"part.{part.id}"
    items: list[Item] = []
    if shape == "circle":
        items.append(Circle(x + w / 2, y + h / 2, w / 2, outline, id=pid))
    else:
        items.append(Box(x, y, w, h, outline, id=pid, radius=4 * s))
    box = doc.layout.box * s
    gap = 1.2 * s
    gw, gh = cols * box + (cols - 1) * gap, rows * box + (rows - 1) * gap
    icon = 7 * s
    gx = x + (w - gw) / 2
    gy = y + (h - gh - icon - 1.5 * s) / 2 + icon + 1.5 * s
    items.append(Icon(candy.icon, x + w / 2, gy - icon / 2 - 1 * s, icon, id=f"{pid}.candy",
                      fill=candy.colour, mono=ink))
    n = 0
    extended = Style(stroke="#000000", fill=doc.layout.extended_fill, width=0.35)
    basic = Style(stroke="#000000", fill="#ffffff", width=0.35)
    for r in range(rows):
        for c in range(cols):
            n += 1
            is_ext = n > doc.content.basic_boxes
            items.append(Box(gx + c * (box + gap), gy + r * (box + gap), box, box,
                             extended if is_ext else basic, writable=True,
                             id=f"{pid}.box.{n}" + (".extended" if is_ext else ".basic")))
    return items


def compose_sheet(doc: StatusSheet, w: float, h: float, ink: bool) -> list[Item]:
    """One status sheet in a w x h area: figure on the left, key and QR on the right."""
    items: list[Item] = []
    landscape = w >= h * 1.1
    s = min(1.0, (h - (0 if landscape else 40)) / FIG_H, (w * (0.56 if landscape else 1.0)) / FIG_W)
    s = max(s, 5.0 / doc.layout.box)  # never shrink a box below 5 mm
    for part in doc.content.parts:
        items.extend(_part(doc, part, s, ink))
    side_x = FIG_W * s + 6 if landscape else 0
    side_y = 0 if landscape else FIG_H * s + 4
    side_w = w - side_x
    items += [heading(side_x, side_y + 6, doc.title, 15, id="title")]
    items += name_line(side_x, side_y + 15, min(side_w, 80))
    # candy key: icon, name, alias
    y = side_y + 23
    items.append(heading(side_x, y, "Candy key", 9, id="key.title"))
    row = 7.0
    for i, candy in enumerate(doc.content.candies):
        cy = y + 3 + i * row + row / 2
        part = next((p.name for p in doc.content.parts if p.candy == candy.id), "")
        items.append(Icon(candy.icon, side_x + 3, cy, 5.5, id=f"key.{candy.id}", fill=candy.colour,
                          mono=ink))
        items.append(Text(side_x + 7.5, cy - 0.3, candy.name, 8.5, bold=True, id=f"key.{candy.id}.name"))
        nx = side_x + 7.5 + text_width_mm(candy.name, 8.5, bold=True) + 1.5
        items.append(Text(nx, cy - 0.3, f"aka {candy.alias}" if candy.alias else "", 7.5,
                          id=f"key.{candy.id}.alias"))
        items.append(Text(side_x + 7.5, cy + 2.8, part, 6.5, color="#444444", id=f"key.{candy.id}.part"))
    y += 3 + 6 * row + 4
    # special treat candy row: circle one
    items.append(heading(side_x, y, "This game's Special Treat candy: circle one", 8,
                         id="treat.title"))
    for i, candy in enumerate(doc.content.candies):
        cx = side_x + 4.5 + i * 10
        items.append(Circle(cx, y + 6, 4.3, Style(width=0.25), id=f"treat.{candy.id}", writable=True))
        items.append(Icon(candy.icon, cx, y + 6, 5.2, fill=candy.colour, mono=ink))
    y += 14
    # legend for box shades
    lb = 4.5
    items.append(Box(side_x, y, lb, lb, Style(width=0.3, fill="#ffffff"), id="legend.basic"))
    items.append(Text(side_x + lb + 1.5, y + 3.4, f"Basic game: {doc.content.basic_boxes} white boxes",
                      7.5, id="legend.basic.text"))
    if doc.content.extended_boxes:
        items.append(Box(side_x, y + 6, lb, lb, Style(width=0.3, fill=doc.layout.extended_fill),
                         id="legend.extended"))
        items.append(Text(side_x + lb + 1.5, y + 9.4,
                          f"Extended game: add the {doc.content.extended_boxes} grey boxes", 7.5,
                          id="legend.extended.text"))
    # QR code, bottom right
    q = min(24.0, h - y - 20) if landscape else 22.0
    qx, qy = w - q, h - q - 4
    if landscape and qy > y + 12:
        items.append(QR(qx, qy, q, doc.content.qr, id="qr"))
        items.append(Text(w - q / 2, h - 0.5, doc.content.qr_caption, 6.5, align="center", id="qr.caption"))
    return items


def pages(doc: StatusSheet, opts: Options) -> list[Page]:
    lay = doc.layout
    per_page = opts.per_page or lay.per_page
    ink = lay.ink_saver
    count = per_page * max(1, opts.copies)
    return nup(lambda w, h, i: compose_sheet(doc, w, h, ink), count, lay.paper, lay.orientation,
               per_page, lay.margin, label=doc.title)


KIND = Kind("gingerbread-status", StatusSheet, pages, product="run-for-your-life")
