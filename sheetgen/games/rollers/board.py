"""Rollers game board: the 1s to 5s sections (OPEN spaces and a CLOSE space each), the points
circles for the race to 5, and a reference for chips and the STAR and ZAP faces."""

from __future__ import annotations

from pydantic import Field, model_validator

from ...errors import SheetgenError
from ...impose import nup
from ...kinds import Kind, Options
from ...model import HEX, Colour, IconName, Ident, LayoutFile, PageSetup, Strict, unique_ids
from ...scene import Box, Circle, Icon, Item, Line, Page, Para, Style, Text
from ...widgets import THIN, heading, name_line, tint
from ..rules_cards.source import summary


class Section(Strict):
    value: int = Field(ge=1, le=5, description="the die face this section collects")
    open: int = Field(ge=1, le=5, description="dice needed to OPEN it")


class Face(Strict):
    id: Ident
    label: str
    icon: IconName
    text: str = Field(min_length=1, description="markup allowed")


class RollersContent(Strict):
    sections: list[Section] = Field(min_length=5, max_length=5)
    points_to_win: int = Field(5, ge=1, le=10)
    chips: str = Field("rollers-chips", description="the chips layout: its chips (names, values, "
                       "colours, per player) are the ones the board's reference shows")
    faces: list[Face] = Field(min_length=1, max_length=3)
    turn: str = Field(min_length=1, description="the turn in short (markup allowed)")
    scoring: str = Field(min_length=1, description="end of round and winning (markup allowed)")

    @model_validator(mode="after")
    def _check(self):
        unique_ids(self.faces, "face")
        values = [s.value for s in self.sections]
        if values != sorted(set(values)):
            raise ValueError("sections must be listed once each, from 1s up to 5s")
        for s in self.sections:
            if s.open != s.value:
                raise ValueError(f"the {s.value}s section opens with {s.value} dice showing "
                                 f"{s.value}, not {s.open}; set open: {s.value}")
        return self


class RollersLayout(PageSetup):
    orientation: str = Field("landscape", pattern="^(portrait|landscape)$")
    space: float = Field(14.0, ge=10.0, le=22.0, description="OPEN and CLOSE spaces, mm")
    accent: Colour = Field("#5b2a86", pattern=HEX)
    boards: int = Field(5, ge=1, le=8, description="boards per copy: one per player, enough for all")


class RollersBoard(LayoutFile):
    content: RollersContent
    layout: RollersLayout = RollersLayout()

    def counts(self) -> dict[str, int]:
        return {"boards": self.layout.boards, "win": self.content.points_to_win}


TOP = 22.0  # title and points band
REF = 52.0  # reference band at the bottom


def _points(right: float, n: int, accent: str) -> list[Item]:
    r, gap = 5.0, 2.0
    x = right - n * 2 * r - (n - 1) * gap
    items: list[Item] = [Text(x - 3, 9.5, f"Points: first to {n} wins", 10, bold=True, align="right",
                              id="points.label")]
    for i in range(n):
        cx = x + r + i * (2 * r + gap)
        items += [Circle(cx, 8, r, Style(stroke=accent, width=0.6), id=f"points.{i + 1}", writable=True),
                  Text(cx, 10.2, str(i + 1), 8, align="center", color="#a0a0a0",
                       id=f"points.{i + 1}.number")]
    return items


def _grid(n: int) -> list[int]:
    """OPEN spaces per row: at most three to a row, the bigger row on top."""
    return [n] if n <= 3 else [(n + 1) // 2, n // 2]


def _section(x: float, y: float, w: float, h: float, sec: Section, s: float, accent: str,
             ink: bool) -> list[Item]:
    key = f"section.{sec.value}"
    panel = Style(stroke=accent, fill="#ffffff" if ink else tint(accent, 0.07), width=0.6)
    items: list[Item] = [Box(x, y, w, h, panel, id=key, radius=3),
                         Icon(f"die{sec.value}", x + 9, y + 8, 9, id=f"{key}.die", mono=ink),
                         Text(x + 16, y + 11, f"{sec.value}s", 18, bold=True, color=accent,
                              id=f"{key}.label"),
                         Text(x + w - 3, y + 11, f"{sec.open} to open", 7.5, align="right",
                              color="#444444", id=f"{key}.need")]
    gap = 2.5
    s = min(s, (w - 6 - 2 * gap) / 3)  # three to a row must fit the panel
    if s < 10:
        raise SheetgenError(f"the OPEN spaces would be {s:.1f} mm wide, too small for a marker",
                            key="layout.margin", fix="use a smaller margin or landscape paper")
    top = y + 18
    items.append(Text(x + w / 2, top + 3, "OPEN", 8.5, bold=True, align="center", id=f"{key}.open.label"))
    n = 0
    for row, count in enumerate(_grid(sec.open)):
        rx = x + (w - count * s - (count - 1) * gap) / 2
        ry = top + 5 + row * (s + gap)
        for i in range(count):
            n += 1
            bx = rx + i * (s + gap)
            items += [Box(bx, ry, s, s, Style(width=0.4, fill="#ffffff"), id=f"{key}.open.{n}",
                          radius=1.5, writable=True),
                      Text(bx + s / 2, ry + s / 2 + 2.2, str(sec.value), 16, align="center",
                           color="#dddddd", id=f"{key}.open.{n}.number")]
    cs = s + 3
    cy = y + h - cs - 4
    grid_bottom = top + 5 + len(_grid(sec.open)) * (s + gap)
    if cy - 22 >= grid_bottom + 1:  # room for the collecting reminder, level in every section
        chips = f"{sec.value} chip{'s' if sec.value > 1 else ''}"
        items.append(Para(x + 3, cy - 22, w - 6, 13, summary("rollers", n=sec.value, chips=chips)[0],
                          7.5, align="center", valign="middle", color="#444444", id=f"{key}.collect"))
    items += [Line(((x + 4, cy - 6.5), (x + w - 4, cy - 6.5)), Style(stroke=accent, width=0.3,
                                                                     dash=(1.2, 1.0))),
              Text(x + w / 2, cy - 2, "CLOSE", 8.5, bold=True, align="center", id=f"{key}.close.label"),
              Box(x + (w - cs) / 2, cy, cs, cs, Style(stroke="#000000", width=1.0, fill="#ffffff"),
                  id=f"{key}.close", radius=2, writable=True),
              Icon(f"die{sec.value}", x + w / 2, cy + cs / 2, cs * 0.45, id=f"{key}.close.die",
                   fill="#eeeeee", mono=ink)]
    return items


def _chips(x: float, y: float, w: float, h: float, doc: RollersBoard, ink: bool) -> list[Item]:
    items: list[Item] = [heading(x, y + 4, "Chips each round", 9, id="ref.chips.title"),
                         Box(x, y + 6, w, h - 6, Style(width=0.3), id="ref.chips", radius=2)]
    from ...kinds import load

    chips = load(doc.content.chips).doc.content.chips
    total = sum(c.value * c.per_player for c in chips)
    for i, chip in enumerate(chips):
        cy = y + 15 + i * 12
        fill = "#ffffff" if ink else chip.colour
        dark = not ink and sum(int(chip.colour[k:k + 2], 16) for k in (1, 3, 5)) < 384
        items += [Circle(x + 9, cy, 5, Style(width=0.4, fill=fill), id=f"ref.chips.{chip.id}"),
                  Circle(x + 9, cy, 3.6, Style(stroke="#ffffff" if dark else "#000000", width=0.3,
                                               dash=(0.8, 0.6))),
                  Text(x + 9, cy + 1.4, str(chip.value), 10, bold=True, align="center",
                       color="#ffffff" if dark else "#000000", id=f"ref.chips.{chip.id}.value"),
                  Para(x + 16, cy - 4.5, w - 18, 10, f"<b>{chip.per_player} × {chip.name}</b>, "
                       f"worth {chip.value} each", 8, id=f"ref.chips.{chip.id}.text", valign="middle")]
    items.append(Para(x + 3, y + h - 9, w - 6, 8, f"Everyone starts each round with <b>{total}</b> "
                      "in chips.", 7.5, id="ref.chips.total"))
    return items


def _face(x: float, y: float, w: float, h: float, face: Face, ink: bool) -> list[Item]:
    key = f"ref.{face.id}"
    return [heading(x, y + 4, face.label, 9, id=f"{key}.title"),
            Box(x, y + 6, w, h - 6, Style(width=0.3), id=key, radius=2),
            Icon(face.icon, x + 9, y + 16, 11, id=f"{key}.icon", mono=ink),
            Para(x + 17, y + 8, w - 19, h - 10, face.text, 9, id=f"{key}.text")]


def compose_board(doc: RollersBoard, w: float, h: float, ink: bool) -> list[Item]:
    c, lay = doc.content, doc.layout
    items: list[Item] = [heading(0, 9, doc.title, 20, id="title")]
    items += name_line(0, 18, 70, "Player")
    items += _points(w, c.points_to_win, lay.accent)
    items.append(Line(((0, TOP), (w, TOP)), THIN, id="rule.top"))
    gap = 4.0
    sw = (w - gap * (len(c.sections) - 1)) / len(c.sections)
    sh = h - TOP - REF - 8
    for i, sec in enumerate(c.sections):
        items += _section(i * (sw + gap), TOP + 4, sw, sh, sec, lay.space, lay.accent, ink)
    ry = h - REF
    cols = 2 + len(c.faces)
    cw = (w - gap * (cols - 1)) / cols
    items += _chips(0, ry, cw, REF, doc, ink)
    for i, face in enumerate(c.faces):
        items += _face((i + 1) * (cw + gap), ry, cw, REF, face, ink)
    tx = (cols - 1) * (cw + gap)
    items += [heading(tx, ry + 4, "Your turn and scoring", 9, id="ref.turn.title"),
              Box(tx, ry + 6, cw, REF - 6, Style(width=0.3), id="ref.turn", radius=2),
              Para(tx + 2, ry + 8, cw - 4, REF - 10, f"{c.turn}<br/>{c.scoring}", 8.5, id="ref.turn.text")]
    return items


def pages(doc: RollersBoard, opts: Options) -> list[Page]:
    lay = doc.layout
    return nup(lambda w, h, i: compose_board(doc, w, h, lay.ink_saver), lay.boards * max(1, opts.copies),
               lay.paper, lay.orientation, 1, lay.margin, label=doc.title)


KIND = Kind("rollers-board", RollersBoard, pages, product="rollers")
