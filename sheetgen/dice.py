"""Custom six-sided dice printed two ways: face stickers for standard 16 mm dice and, as a
fallback, a paper cube to fold; plus the mapping for plain dice (which number is which face).

A game's kind (ROLL for Your Life's icon dice, Rollers' STAR and ZAP dice) is this model and
`pages` with its own product. Each face names the plain-die number it stands for; on the paper
cube, faces sit where those numbers sit on a real die (opposite faces sum to 7).
"""

from __future__ import annotations

from pydantic import Field, model_validator

from .solids import net, numbering
from .model import HEX, Colour, IconName, Ident, LayoutFile, Strict, unique_ids
from .paper import readable
from .pieces import CUT, FOLD, HALO, Piece, PieceLayout, cut_box, pack
from .scene import Box, Group, Icon, Item, Line, Page, Style, Text
from .widgets import tint


class Face(Strict):
    value: int = Field(ge=1, le=6, description="the number a plain die shows for this face")
    name: str = Field(min_length=1)
    icon: IconName | None = None  # None: pips of `value`
    label: str = Field("", description="short text under the icon, e.g. STAR")


class CustomDie(Strict):
    id: Ident
    name: str = Field(min_length=1, description="e.g. Red or Purple")
    colour: Colour = Field(pattern=HEX)
    count: int = Field(ge=1, le=12)
    icon: IconName | None = Field(None, description="drawn in a corner of every face: the colour "
                                  "reads in greyscale too")
    faces: list[Face] = Field([], description="six faces; empty: the layout's `faces`")


class DiceContent(Strict):
    faces: list[Face] = Field([], description="faces shared by every die that lists none")
    dice: list[CustomDie] = Field(min_length=1)
    sticker: float = Field(14.0, ge=10, le=20, description="sticker side, mm (16 mm dice: 14)")
    cube: float = Field(16.0, ge=14, le=30, description="edge of the paper cube, mm")
    how: str = Field(min_length=1, description="page heading: how to use the stickers")
    fold: str = Field(min_length=1, description="page heading of the paper cubes")
    plain: str = Field(min_length=1, description="heading of the plain-dice mapping")

    @model_validator(mode="after")
    def _check(self):
        unique_ids(self.dice, "die")
        for d in self.dice:
            faces = self.faces_of(d)
            if sorted(f.value for f in faces) != [1, 2, 3, 4, 5, 6]:
                raise ValueError(f"die '{d.id}' needs six faces with the values 1 to 6 once each")
        return self

    def faces_of(self, die: CustomDie) -> list[Face]:
        return sorted(die.faces or self.faces, key=lambda f: f.value)


class DiceSheet(LayoutFile):
    content: DiceContent
    layout: PieceLayout = PieceLayout()

    def counts(self) -> dict[str, int]:
        """{dice} in all, {sets} (one per die colour), {per_set} and the count of each die id."""
        dice = self.content.dice
        return {"dice": sum(d.count for d in dice), "sets": len(dice), "per_set": max(d.count for d in dice),
                **{d.id: d.count for d in dice}}


def face_art(face: Face, x: float, y: float, size: float, colour: str, ink: bool, key: str,
             mark: str | None = None) -> list[Item]:
    """A face in a size x size square at (x, y): the icon (or pips), its label, and the die's
    colour `mark` icon in the top-left corner."""
    cx = x + size / 2
    items: list[Item] = [Box(x, y, size, size, Style(stroke=None, fill="#ffffff" if ink else tint(colour, 0.25)),
                             radius=size * 0.12, id=key)]
    art = face.icon or f"die{face.value}"
    lab = size * 0.22 if face.label else 0
    items.append(Icon(art, cx, y + (size - lab) / 2, size * (0.62 if face.label else 0.78),
                      id=f"{key}.icon", mono=ink))
    if face.label:
        items.append(Text(cx, y + size - size * 0.07, face.label, readable(size * 0.55), bold=True,
                          align="center", id=f"{key}.label"))
    if mark:
        items.append(Icon(mark, x + size * 0.13, y + size * 0.13, size * 0.18, fill=colour, mono=ink))
    return items


def stickers(die: CustomDie, n: int, faces: list[Face], side: float, ink: bool) -> Piece:
    """One die's six stickers in a 3 x 2 block, its name above."""
    gap, top = 2.0, 5.0
    key = f"die.{die.id}.{n}"
    items: list[Item] = [Text(0, 3.6, die.name, 7, bold=True, id=f"{key}.name")]
    for i, f in enumerate(faces):
        x, y = (i % 3) * (side + gap), top + (i // 3) * (side + gap)
        items += face_art(f, x, y, side, die.colour, ink, f"{key}.sticker.{f.value}", die.icon)
        items += cut_box(x, y, side, side, radius=side * 0.12)
    return Piece(3 * side + 2 * gap, top + 2 * side + gap, tuple(items), id=key)


def cube(die: CustomDie, n: int, faces: list[Face], edge: float, ink: bool) -> Piece:
    """A paper cube of the die: six faces where a real die has those numbers, tabs to glue."""
    nt = net(6)
    values = numbering(6)
    by_value = {f.value: f for f in faces}
    key = f"cube.{die.id}.{n}"
    top = 5.0

    def pt(p):
        return (p[0] * edge, p[1] * edge + top)

    items: list[Item] = [Text(0, 3.8, f"{die.name} cube", 8, bold=True, id=f"{key}.name")]
    for t in nt.tabs:
        items.append(Line(tuple(pt(p) for p in t), Style(stroke=None, fill="#ffffff" if ink else "#d8d8d8"),
                          closed=True))
    for f, poly in enumerate(nt.faces):
        xs, ys = zip(*(pt(p) for p in poly))
        items += face_art(by_value[values[f]], min(xs), min(ys), edge, die.colour, ink,
                          f"{key}.face.{values[f]}", die.icon)
    for a, b in nt.folds:
        items.append(Line((pt(a), pt(b)), FOLD))
    cut = []
    folds = {frozenset((tuple(map(lambda v: round(v, 6), a)), tuple(map(lambda v: round(v, 6), b))))
             for a, b in nt.folds}
    tabbed = set()
    for t in nt.tabs:
        tabbed.add(frozenset((tuple(round(v, 6) for v in t[0]), tuple(round(v, 6) for v in t[-1]))))
        cut.append(tuple(pt(p) for p in t))
        items.append(Line((pt(t[0]), pt(t[-1])), FOLD))
    for poly in nt.faces:
        for i in range(4):
            a, b = poly[i], poly[(i + 1) % 4]
            k = frozenset((tuple(round(v, 6) for v in a), tuple(round(v, 6) for v in b)))
            if k not in folds and k not in tabbed:
                cut.append((pt(a), pt(b)))
    for c in cut:
        items += [Line(c, HALO), Line(c, CUT, id="cut")]
    return Piece(nt.width * edge, nt.height * edge + top, tuple(items), id=key)


def mapping(content: DiceContent, ink: bool, width: float = 120.0) -> Piece:
    """The plain-dice mapping: per die colour, which number stands for which face."""
    row = 12.0
    items: list[Item] = [Text(0, 4, content.plain, 10, bold=True, id="mapping.title")]
    seen = []
    for die in content.dice:
        faces = content.faces_of(die)
        if any(f == faces for f, _ in seen):
            seen[[f for f, _ in seen].index(faces)][1].append(die.name)
        else:
            seen.append((faces, [die.name]))
    y = 7.0
    for faces, names in seen:
        items.append(Text(0, y + 4, " · ".join(names), 8, bold=True, id="mapping.dice"))
        y += 6
        cell = width / 6
        for i, f in enumerate(faces):
            x = i * cell
            items += [Icon(f"die{f.value}", x + 4, y + 4, 7, mono=ink),
                      Text(x + 9, y + 5.5, "=", 9, bold=True),
                      Icon(f.icon or f"die{f.value}", x + 15, y + 4, 7, mono=ink),
                      Text(x + cell / 2, y + 11.5, f.name, 6.5, align="center", id=f"mapping.{f.value}")]
        y += row + 2
    frame = Box(0, 0, width + 3, y + 2, Style(width=0.3), radius=2)
    return Piece(width + 3, y + 2, (frame, Group(tuple(items), 1.5, 1.0)), id="mapping")


def pages(doc: DiceSheet, opts) -> list[Page]:
    c, lay = doc.content, doc.layout
    ink = lay.ink_saver
    copies = max(1, opts.copies)
    pieces = [mapping(c, ink)]
    pieces += [stickers(d, n + 1, c.faces_of(d), c.sticker, ink)
               for d in c.dice for n in range(d.count * copies)]
    first_cube = len(pieces)
    pieces += [cube(d, n + 1, c.faces_of(d), c.cube, ink) for d in c.dice for n in range(d.count * copies)]
    return pack(pieces, lay, doc.title, c.how, breaks={first_cube: c.fold})


