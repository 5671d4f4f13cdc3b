"""Roll & Fight player board: a ROLL and a FIGHT space for the Chef, the Crew on the left, the
Pile on the right, a reminder of the seven dice and the tiebreaks, and a seven-round tracker."""

from __future__ import annotations

import math

from typing import Literal

from pydantic import Field, model_validator

from ...errors import SheetgenError
from ...impose import nup
from ...kinds import Kind, Options
from ...model import HEX, Colour, IconName, Ident, LayoutFile, PageSetup, Strict, unique_ids
from ...scene import Box, Icon, Item, Line, Page, Para, Style, Text
from ...widgets import THIN, circle_row, heading, name_line, tint


MIN_SPACE = 30.0  # a d20 is about 22 mm across; leave room to set it down


class Die(Strict):
    id: Ident
    name: str = Field(min_length=1, description="as printed, e.g. d10%")
    sides: int = Field(ge=2, le=20)
    note: str = Field("", description="how to read it, e.g. '0 = 10'")
    face: str = Field("", max_length=3, description="the face its icon shows, e.g. 00 on the d10%")


class Space(Strict):
    label: str = Field(min_length=1)
    icon: IconName
    hint: str = Field(min_length=1, description="what happens to a Chef here (markup allowed)")


class Area(Strict):
    label: str = Field(min_length=1)
    hint: str = Field(min_length=1)


class BoardContent(Strict):
    roll: Space
    fight: Space
    crew: Area
    pile: Area
    dice: list[Die] = Field(min_length=7, max_length=7, description="one per round")
    rounds: int = Field(7, ge=1, le=12)
    tiebreaks: list[str] = Field(min_length=1, max_length=4, description="in order, markup allowed")

    @model_validator(mode="after")
    def _check(self):
        unique_ids(self.dice, "die")
        if self.rounds != len(self.dice):
            raise ValueError(f"rounds is {self.rounds} but there are {len(self.dice)} dice; "
                             "each round plays one die, so make them equal")
        return self


class BoardLayout(PageSetup):
    per_page: Literal[1, 2] = 2
    boards: int = Field(4, ge=1, le=8, description="boards per copy: one per player, enough for all")
    space: float = Field(46.0, ge=MIN_SPACE, le=80.0, description="ROLL / FIGHT space, mm (a d20 needs 30)")
    side: float = Field(42.0, ge=30.0, le=70.0, description="width of the Crew and Pile areas, mm")
    accent: Colour = Field("#8a4b1c", pattern=HEX)


class RollAndFightBoard(LayoutFile):
    content: BoardContent
    layout: BoardLayout = BoardLayout()

    def counts(self) -> dict[str, int]:
        return {"boards": self.layout.boards}


TOP = 15.0  # title band
BOTTOM = 31.0  # dice and tiebreak band


def _area(x: float, y: float, w: float, h: float, area: Area, arrow: str, key: str,
          accent: str, ink: bool) -> list[Item]:
    """An open table area beside the board (Crew or Pile): dashed outline, label and hint."""
    style = Style(stroke=accent, fill=None if ink else tint(accent, 0.08), width=0.4, dash=(2.0, 1.5))
    cx = x + w / 2
    return [Box(x, y, w, h, style, id=key, radius=3),
            Text(cx, y + 9, f"{arrow} {area.label} {arrow}" if arrow else area.label, 13, bold=True,
                 align="center", color=accent, id=f"{key}.label"),
            Para(x + 3, y + 13, w - 6, h - 16, area.hint, 8.5, align="center", id=f"{key}.hint")]


def _space(x: float, y: float, size: float, space: Space, key: str, accent: str,
           ink: bool) -> list[Item]:
    """A square space the Chef stands on, label above, hint below, a faint icon in a corner."""
    fill = "#ffffff" if ink else tint(accent, 0.15)
    return [Text(x + size / 2, y - 2.5, space.label, 16, bold=True, align="center", id=f"{key}.label"),
            Box(x, y, size, size, Style(stroke="#000000", fill=fill, width=0.8), id=key, radius=4),
            Icon(space.icon, x + size - 6.5, y + size - 6.5, 9, id=f"{key}.icon", mono=ink),
            Para(x - 4, y + size + 2, size + 8, 9, space.hint, 8, align="center", id=f"{key}.hint")]


def _polygon(n: int, cx: float, cy: float, r: float, rot: float = -90, sy: float = 1.0):
    return [(cx + r * math.cos(math.radians(rot + i * 360 / n)),
             cy + sy * r * math.sin(math.radians(rot + i * 360 / n))) for i in range(n)]


def _silhouette(die: Die, cx: float, cy: float, r: float, key: str) -> list[Item]:
    """A die's icon: the outline it shows on the table and the face it shows, so no two of the
    seven look alike: d4 triangle, d6 square, d8 diamond, d10 kite, d10% kite in a second
    outline, d12 pentagon, d20 hexagon."""
    sides = die.sides
    style = Style(width=0.3, fill="#ffffff")
    kite = [(cx, cy - r * 1.15), (cx + r, cy - r * 0.1), (cx, cy + r * 1.0), (cx - r, cy - r * 0.1)]
    shapes = {4: _polygon(3, cx, cy + r * 0.2, r * 1.1), 6: _polygon(4, cx, cy, r * 1.1, rot=-45),
              8: _polygon(4, cx, cy, r * 1.15), 10: kite, 12: _polygon(5, cx, cy, r * 1.05),
              20: _polygon(6, cx, cy, r * 1.05)}
    pts = shapes.get(sides, _polygon(max(3, min(sides, 8)), cx, cy, r))
    items: list[Item] = [Line(tuple(pts), style, id=key, closed=True)]
    if sides == 10 and die.face == "00":  # the d10%: a second outline round its kite
        items.append(Line(tuple((cx + (x - cx) * 1.3, cy + (y - cy) * 1.3) for x, y in kite), Style(width=0.2),
                          closed=True))
    if die.face:
        items.append(Text(cx, cy + (1.2 if sides != 4 else 1.6), die.face, 6, bold=True, align="center",
                          id=f"{key}.face"))
    return items


def _dice(x: float, y: float, w: float, doc: RollAndFightBoard, ink: bool) -> list[Item]:
    """The seven dice, each a small labelled tile with its outline, range and how to read it."""
    items: list[Item] = [heading(x, y + 3, "Your seven dice", 8.5, id="dice.title")]
    n = len(doc.content.dice)
    gap = 1.5
    tw = (w - gap * (n - 1)) / n
    fill = "#ffffff" if ink else tint(doc.layout.accent, 0.1)
    for i, die in enumerate(doc.content.dice):
        tx = x + i * (tw + gap)
        items += [Box(tx, y + 5, tw, 21, Style(width=0.3, fill=fill), id=f"dice.{die.id}", radius=1.5),
                  *_silhouette(die, tx + tw / 2, y + 9.6, 3.1, f"dice.{die.id}.shape"),
                  Text(tx + tw / 2, y + 17, die.name, 10, bold=True, align="center",
                       id=f"dice.{die.id}.name"),
                  Text(tx + tw / 2, y + 20.5, f"{die.sides} sides", 6.5, align="center",
                       id=f"dice.{die.id}.sides")]
        if die.note:
            items.append(Text(tx + tw / 2, y + 24.3, die.note, 6, align="center", color="#444444",
                              id=f"dice.{die.id}.note"))
    return items


def _tiebreaks(x: float, y: float, w: float, h: float, doc: RollAndFightBoard) -> list[Item]:
    lines = "<br/>".join(f"<b>{i}.</b> {t}" for i, t in enumerate(doc.content.tiebreaks, 1))
    return [heading(x, y + 3, "Tied Chefs? Break the tie in this order", 8.5, id="tiebreak.title"),
            Box(x, y + 5, w, h - 5, Style(width=0.3), id="tiebreak", radius=1.5),
            Para(x + 2, y + 6.5, w - 4, h - 8, lines, 9, id="tiebreak.text")]


def _tracker(right: float, y: float, rounds: int) -> list[Item]:
    """Round circles, right-aligned; tick one as each round ends."""
    r, gap = 3.2, 1.4
    x = right - rounds * 2 * r - (rounds - 1) * gap
    items: list[Item] = [Text(x - 2, y + r + 1.2, "Round", 9, bold=True, align="right", id="tracker.label")]
    items += circle_row(x, y, rounds, r, gap, "tracker.round")
    items += [Text(x + r + i * (2 * r + gap), y + r + 1.1, str(i + 1), 7, align="center",
                   color="#9a9a9a", id=f"tracker.round.{i + 1}.number") for i in range(rounds)]
    return items


def compose_board(doc: RollAndFightBoard, w: float, h: float, ink: bool) -> list[Item]:
    lay, c = doc.layout, doc.content
    accent = lay.accent
    items: list[Item] = [heading(0, 7, doc.title, 17, id="title")]
    items += name_line(48, 7, 52, "Baker")
    items += _tracker(w, 1.5, c.rounds)
    items.append(Line(((0, TOP - 3), (w, TOP - 3)), THIN, id="rule.top"))
    mid_h = h - TOP - BOTTOM
    items += _area(0, TOP, lay.side, mid_h, c.crew, "", "crew", accent, ink)
    items += _area(w - lay.side, TOP, lay.side, mid_h, c.pile, "", "pile", accent, ink)
    centre_x, centre_w = lay.side + 4, w - 2 * lay.side - 8
    size = min(lay.space, mid_h - 21, (centre_w - 8) / 2)
    if size < MIN_SPACE:
        raise SheetgenError(f"the ROLL and FIGHT spaces would be {size:.0f} mm, too small for a d20",
                            key="layout.side", fix=f"narrow the Crew/Pile areas or use per_page: 1 "
                            f"so each space gets {MIN_SPACE:g} mm")
    gap = min(14.0, centre_w - 2 * size)
    sx = centre_x + (centre_w - 2 * size - gap) / 2
    sy = TOP + 9 + max(0.0, (mid_h - 21 - size) / 2)
    items += _space(sx, sy, size, c.roll, "space.roll", accent, ink)
    items += _space(sx + size + gap, sy, size, c.fight, "space.fight", accent, ink)
    by = h - BOTTOM + 4
    dice_w = w * 0.5
    items += _dice(0, by, dice_w, doc, ink)
    items += _tiebreaks(dice_w + 4, by, w - dice_w - 4, BOTTOM - 4, doc)
    return items


def pages(doc: RollAndFightBoard, opts: Options) -> list[Page]:
    lay = doc.layout
    per_page = opts.per_page if opts.per_page in (1, 2) else lay.per_page
    count = lay.boards * max(1, opts.copies)
    return nup(lambda w, h, i: compose_board(doc, w, h, lay.ink_saver), count, lay.paper,
               lay.orientation, per_page, lay.margin, label=doc.title)


KIND = Kind("roll-and-fight-board", RollAndFightBoard, pages, product="roll-and-fight",
            options=frozenset({"per_page"}))
