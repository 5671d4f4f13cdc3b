"""Gingerbread Status sheet of *Run for Your Life, Candyman!*: a candy-coded figure with damage boxes."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator

from ...draw import text_width_mm
from ...errors import SheetgenError
from ...impose import nup
from ...kinds import Kind, Options
from ...model import Candy, Colour, HEX, Ident, LayoutFile, PageSetup, Strict, unique_ids
from ...scene import QR, Box, Circle, Group, Icon, Item, Line, Page, Style, Text
from ...widgets import heading, name_line, tint

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
    qr_caption: str = Field("Print more sheets", max_length=24)

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
    extended_fill: Colour = Field("#e6e6e6", pattern=HEX, description="fill of the extended-game "
                                  "boxes (dashed): light, so pencil marks show")


class StatusSheet(LayoutFile):
    content: StatusContent
    layout: StatusLayout = StatusLayout()

    def counts(self) -> dict[str, int]:
        return {"basic_boxes": self.content.basic_boxes, "extended_boxes": self.content.extended_boxes}


# The figure, in mm at box size 6, origin top left: a gingerbread cookie whose parts stand 3 mm
# apart, so that each part has its own tear line. (kind, x, y, w, h, (columns, rows)).
FIGURE = {
    "head": ("head", 37, 0, 36, 36, (3, 2)),
    "body": ("body", 35, 39, 40, 44, (2, 3)),
    "left_arm": ("arm", 2, 42, 30, 28, (3, 2)),
    "right_arm": ("arm", 78, 42, 30, 28, (3, 2)),
    "left_leg": ("leg", 33, 86, 20, 38, (2, 3)),
    "right_leg": ("leg", 57, 86, 20, 38, (2, 3)),
}
EDGE = 1.5  # room around the figure for the tear lines
FIG_W, FIG_H = 110.0 + 2 * EDGE, 124.0 + 2 * EDGE
TEAR = Style(stroke="#555555", width=0.25, dash=(1.0, 0.8))
ICING = Style(stroke="#ffffff", width=0.7)


def _outline(shape: str, x: float, y: float, w: float, h: float, s: float, style: Style,
             pad: float = 0.0, id: str = "") -> Item:
    """A part's cookie shape (head round, limbs rounded at their ends), `pad` mm larger."""
    x, y, w, h = x - pad, y - pad, w + 2 * pad, h + 2 * pad
    if shape == "head":
        return Circle(x + w / 2, y + h / 2, w / 2, style, id=id)
    radius = {"body": 9 * s, "arm": 7 * s, "leg": 9.5 * s}[shape] + pad
    return Box(x, y, w, h, style, id=id, radius=radius)


def _icing(shape: str, x: float, y: float, w: float, h: float, s: float, left: bool) -> list[Item]:
    """White icing zigzags at the wrists and ankles, like a baked gingerbread cookie."""
    if shape == "arm":
        ix = x + 3.2 * s if left else x + w - 3.2 * s
        ys = [y + h * (0.25 + 0.1 * k) for k in range(6)]
        pts = tuple((ix + (0.9 if k % 2 else -0.9) * s, yy) for k, yy in enumerate(ys))
    elif shape == "leg":
        iy = y + h - 2.2 * s
        xs = [x + w * (0.24 + 0.104 * k) for k in range(6)]
        pts = tuple((xx, iy + (0.7 if k % 2 else -0.7) * s) for k, xx in enumerate(xs))
    else:
        return []
    return [Line(pts, ICING)]


def _part(doc: StatusSheet, part: Part, s: float, ink: bool) -> list[Item]:
    candy = next(c for c in doc.content.candies if c.id == part.candy)
    shape, x, y, w, h, (cols, rows) = FIGURE[part.id]
    x, y, w, h = (x + EDGE) * s, (y + EDGE) * s, w * s, h * s
    fill = "#ffffff" if ink else tint(candy.colour, 0.35)
    pid = f"part.{part.id}"
    items: list[Item] = [
        _outline(shape, x, y, w, h, s, TEAR, pad=1.3 * s, id=f"{pid}.tear"),
        _outline(shape, x, y, w, h, s, Style(stroke="#000000", fill=fill, width=0.6), id=pid)]
    if not ink:
        items += _icing(shape, x, y, w, h, s, part.id.startswith("left"))
    box = doc.layout.box * s
    gap = 1.2 * s
    gw, gh = cols * box + (cols - 1) * gap, rows * box + (rows - 1) * gap
    icon = 7 * s
    gx = x + (w - gw) / 2
    gy = y + (h - gh - icon - 1.5 * s) / 2 + icon + 1.5 * s
    items.append(Icon(candy.icon, x + w / 2, gy - icon / 2 - 1 * s, icon, id=f"{pid}.candy",
                      fill=candy.colour, mono=ink))
    n = 0
    extended = Style(stroke="#000000", fill=doc.layout.extended_fill, width=0.35, dash=(0.9, 0.6))
    basic = Style(stroke="#000000", fill="#ffffff", width=0.35)
    for r in range(rows):
        for c in range(cols):
            n += 1
            is_ext = n > doc.content.basic_boxes
            items.append(Box(gx + c * (box + gap), gy + r * (box + gap), box, box,
                             extended if is_ext else basic, writable=True,
                             id=f"{pid}.box.{n}" + (".extended" if is_ext else ".basic")))
    return items


def _scale(doc: StatusSheet, fit: float, w: float, h: float) -> float:
    """The figure's scale: as large as fits, refused when the damage boxes would go below 5 mm."""
    least = 5.0 / doc.layout.box
    if fit < least - 1e-9:
        raise SheetgenError(f"a Gingerbread Status sheet in {w:.0f}x{h:.0f} mm would need damage "
                            f"boxes of {doc.layout.box * fit:.1f} mm (at least 5)", key="--per-page",
                            fix="print fewer sheets per page (--per-page 1 or 2)")
    return fit


def compose_sheet(doc: StatusSheet, w: float, h: float, ink: bool) -> list[Item]:
    """One status sheet in a w x h area: the figure, and beside it (wide areas) or under it
    (narrow areas) the key, the Special Treat row, the box legend and the QR code."""
    if w >= h * 1.1:
        s = _scale(doc, min(1.0, h / FIG_H, w * 0.56 / FIG_W), w, h)
        items = [it for part in doc.content.parts for it in _part(doc, part, s, ink)]
        return items + _side_panel(doc, FIG_W * s + 6, w, h, ink)
    top = 10.0
    s = _scale(doc, min(1.0, (h - top - 30) / FIG_H, w / FIG_W), w, h)
    dx = (w - FIG_W * s) / 2
    items: list[Item] = [heading(0, 6, doc.title, 11, id="title")]
    title_w = text_width_mm(doc.title, 11, bold=True) + 4
    items += name_line(title_w, 6, w - title_w, size=8)
    items += [Group(tuple(_part(doc, part, s, ink)), dx, top) for part in doc.content.parts]
    items += _compact_key(doc, top + FIG_H * s + 2, w, ink)
    return items


def _side_panel(doc: StatusSheet, x: float, w: float, h: float, ink: bool) -> list[Item]:
    side_w = w - x
    items: list[Item] = [heading(x, 6, doc.title, 15, id="title")]
    items += name_line(x, 15, min(side_w, 80))
    y = 23.0
    items.append(heading(x, y, "Candy key", 9, id="key.title"))
    row = 7.0
    for i, candy in enumerate(doc.content.candies):
        cy = y + 3 + i * row + row / 2
        part = next((p.name for p in doc.content.parts if p.candy == candy.id), "")
        items.append(Icon(candy.icon, x + 3, cy, 5.5, id=f"key.{candy.id}", fill=candy.colour, mono=ink))
        items.append(Text(x + 7.5, cy - 0.3, candy.name, 8.5, bold=True, id=f"key.{candy.id}.name"))
        nx = x + 7.5 + text_width_mm(candy.name, 8.5, bold=True) + 1.5
        if candy.alias:
            items.append(Text(nx, cy - 0.3, f"aka {candy.alias}", 7.5, id=f"key.{candy.id}.alias"))
        items.append(Text(x + 7.5, cy + 2.8, part, 6.5, color="#444444", id=f"key.{candy.id}.part"))
    y += 3 + 6 * row + 4
    items.append(heading(x, y, "This game's Special Treat candy: circle one", 8, id="treat.title"))
    for i, candy in enumerate(doc.content.candies):
        cx = x + 4.5 + i * 10
        items.append(Circle(cx, y + 6, 4.3, Style(width=0.25), id=f"treat.{candy.id}", writable=True))
        items.append(Icon(candy.icon, cx, y + 6, 5.2, fill=candy.colour, mono=ink))
    y += 14
    items += _legend(doc, x, y, 7.5)
    q = 20.0  # QR top right, beside the candy key
    items.append(QR(w - q, 22, q, doc.content.qr, id="qr"))
    items.append(Text(w - q / 2, 22 + q + 3, doc.content.qr_caption, 6.5, align="center", id="qr.caption"))
    return items


def _compact_key(doc: StatusSheet, y: float, w: float, ink: bool) -> list[Item]:
    """Key in three columns; each candy's ring doubles as the Special Treat circle."""
    items: list[Item] = [Text(0, y + 2.5, "Circle this game's Special Treat candy:", 7, bold=True,
                              id="treat.title")]
    col = w / 3
    for i, candy in enumerate(doc.content.candies):
        cx, cy = (i % 3) * col + 4.2, y + 8.5 + (i // 3) * 9.5
        items.append(Circle(cx, cy, 4.0, Style(width=0.25), id=f"treat.{candy.id}", writable=True))
        items.append(Icon(candy.icon, cx, cy, 5.0, id=f"key.{candy.id}", fill=candy.colour, mono=ink))
        items.append(Text(cx + 5.2, cy - 0.4, candy.name, 7, bold=True, id=f"key.{candy.id}.name"))
        if candy.alias:
            items.append(Text(cx + 5.2, cy + 2.6, f"aka {candy.alias}", 6, id=f"key.{candy.id}.alias"))
    return items + _legend(doc, 0, y + 23.5, 6.5, inline=True)


def _legend(doc: StatusSheet, x: float, y: float, size: float, inline: bool = False) -> list[Item]:
    """White boxes for the basic game, grey for the extended game."""
    lb = 4.0
    c = doc.content
    basic = f"Basic game: {c.basic_boxes} white boxes"
    ext = f"Extended game: add the {c.extended_boxes} shaded, dashed boxes"
    items: list[Item] = [Box(x, y, lb, lb, Style(width=0.3, fill="#ffffff"), id="legend.basic"),
                         Text(x + lb + 1.5, y + 3.1, basic, size, id="legend.basic.text")]
    if c.extended_boxes:
        ex, ey = (x + lb + 4 + text_width_mm(basic, size), y) if inline else (x, y + 6)
        items += [Box(ex, ey, lb, lb, Style(width=0.3, fill=doc.layout.extended_fill, dash=(0.9, 0.6)),
                      id="legend.extended"),
                  Text(ex + lb + 1.5, ey + 3.1, ext, size, id="legend.extended.text")]
    ty = y + (5.5 if inline else 12)
    items += [Line(((x, ty + 2), (x + lb, ty + 2)), TEAR, id="legend.tear"),
              Text(x + lb + 1.5, ty + 3.1, "Part destroyed? Tear it off on its dotted line "
                   "for the attacker", size, id="legend.tear.text")]
    return items


def pages(doc: StatusSheet, opts: Options) -> list[Page]:
    lay = doc.layout
    per_page = opts.per_page or lay.per_page
    ink = lay.ink_saver
    count = per_page * max(1, opts.copies)
    return nup(lambda w, h, i: compose_sheet(doc, w, h, ink), count, lay.paper, lay.orientation,
               per_page, lay.margin, label=doc.title)


KIND = Kind("gingerbread-status", StatusSheet, pages, product="run-for-your-life", consumable=True,
            options=frozenset({"per_page"}),
            play_order=(r"treat\.", r"part\."))
