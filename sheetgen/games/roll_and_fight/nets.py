"""Paper polyhedral dice for Roll & Fight: a foldable net per die (d4, d8, d10, d10%, d12, d20),
faces numbered as on real dice, glue tabs, cut and fold lines; one set per player."""

from __future__ import annotations

import math

from pydantic import Field, model_validator

from ...kinds import Kind, Options
from ...model import HEX, Colour, Ident, LayoutFile, Strict, unique_ids
from ...paper import MM
from ...pieces import CUT, FOLD, HALO, Piece, PieceLayout, pack
from ...scene import Item, Line, Page, Style, Text
from ...widgets import tint
from ...solids import d4_corners, net, numbering, solid


class PaperDie(Strict):
    id: Ident
    name: str = Field(min_length=1, description="printed beside the net, e.g. d10%")
    sides: int = Field(description="4, 8, 10, 12 or 20")
    edge: float = Field(ge=6, le=40, description="the (shortest) edge of a face, mm")
    colour: Colour = Field(pattern=HEX)
    labels: dict[int, str] = Field({}, description="value -> printed text, e.g. 10: '0' on a d10")

    @model_validator(mode="after")
    def _sides(self):
        if self.sides not in (4, 8, 10, 12, 20):
            raise ValueError(f"a paper die has 4, 8, 10, 12 or 20 sides, not {self.sides}")
        return self

    def label(self, value: int) -> str:
        text = self.labels.get(value, str(value))
        return text + "." if text in ("6", "9") else text  # 6. and 9. read the right way up


class NetContent(Strict):
    sets: int = Field(4, ge=1, le=8, description="sets of dice: one per player")
    how: str = Field(min_length=1, description="the page heading: how to cut, fold and glue")
    dice: list[PaperDie] = Field(min_length=1)

    @model_validator(mode="after")
    def _ids(self):
        unique_ids(self.dice, "die")
        return self


class NetSheet(LayoutFile):
    content: NetContent
    layout: PieceLayout = PieceLayout()

    def counts(self) -> dict[str, int]:
        return {"sets": self.content.sets, "per_set": len(self.content.dice)}


LABEL = 5.0  # mm above a net for its name
TAB_FILL = "#d8d8d8"


def _centre(poly) -> tuple[float, float]:
    xs, ys = zip(*poly)
    return sum(xs) / len(xs), sum(ys) / len(ys)


def _number(x: float, y: float, text: str, size: float, key: str) -> Text:
    return Text(x, y + size * 0.7 / MM * 0.5, text, size, bold=True, align="center", id=key)


def net_piece(die: PaperDie, n: int, ink: bool) -> Piece:
    """One die's net, scaled to its edge, with its name above it."""
    nt, s = net(die.sides), die.edge
    values = numbering(die.sides)
    oy = LABEL

    def pt(p):
        return (p[0] * s, p[1] * s + oy)

    key = f"net.{die.id}.{n}"
    face_fill = "#ffffff" if ink else tint(die.colour, 0.35)
    items: list[Item] = [Text(0, 3.8, die.name, 10, bold=True, id=f"{key}.name")]
    for t in nt.tabs:
        items.append(Line(tuple(pt(p) for p in t), Style(stroke=None, fill="#ffffff" if ink else TAB_FILL),
                          closed=True, id=f"{key}.tab"))
    sol = solid(die.sides)
    for f, poly in enumerate(nt.faces):
        pts = tuple(pt(p) for p in poly)
        items.append(Line(pts, Style(stroke=None, fill=face_fill), closed=True,
                          id=f"{key}.face.{values[f]}"))
    for f, poly in enumerate(nt.faces):
        pts = [pt(p) for p in poly]
        cx, cy = _centre(pts)
        inr = min(_dist_to_line((cx, cy), pts[i], pts[(i + 1) % len(pts)]) for i in range(len(pts)))
        if die.sides == 4:  # the value of each corner, near that corner
            size = min(12.0, inr * 0.9 * MM)
            for v, value in d4_corners(f).items():
                i = sol.faces[f].index(v)
                x, y = pts[i]
                items.append(_number(cx + 0.58 * (x - cx), cy + 0.58 * (y - cy), str(value), size,
                                     f"{key}.face.{values[f]}.corner.{value}"))
        else:
            text = die.label(values[f])
            size = min(16.0, inr * 1.25 * MM / max(1, len(text)) ** 0.5)
            items.append(_number(cx, cy, text, size, f"{key}.face.{values[f]}.number"))
    tabbed = {_edge_key(t[0], t[-1]) for t in nt.tabs}
    folds = {_edge_key(a, b) for a, b in nt.folds}
    cuts: list[tuple] = []
    for poly in nt.faces:
        for i in range(len(poly)):
            a, b = poly[i], poly[(i + 1) % len(poly)]
            k = _edge_key(a, b)
            if k in folds or k in tabbed:
                continue
            cuts.append((pt(a), pt(b)))
    for t in nt.tabs:
        cuts.append(tuple(pt(p) for p in t))
        folds.add(_edge_key(t[0], t[-1]))
    for a, b in sorted(folds):
        items.append(Line((pt(a), pt(b)), FOLD, id=f"{key}.fold"))
    for c in cuts:
        items += [Line(c, HALO), Line(c, CUT, id="cut")]
    return Piece(nt.width * s, nt.height * s + oy, tuple(items), id=key)


def _edge_key(a, b):
    a, b = (round(a[0], 6), round(a[1], 6)), (round(b[0], 6), round(b[1], 6))
    return (a, b) if a <= b else (b, a)


def _dist_to_line(p, a, b) -> float:
    (px, py), (ax, ay), (bx, by) = p, a, b
    return abs((bx - ax) * (ay - py) - (ax - px) * (by - ay)) / math.hypot(bx - ax, by - ay)


def pages(doc: NetSheet, opts: Options) -> list[Page]:
    c, lay = doc.content, doc.layout
    sets = c.sets * max(1, opts.copies)
    pieces = [net_piece(d, n + 1, lay.ink_saver) for n in range(sets) for d in c.dice]
    return pack(pieces, lay, doc.title, c.how)


KIND = Kind("dice-nets", NetSheet, pages, product="roll-and-fight")
