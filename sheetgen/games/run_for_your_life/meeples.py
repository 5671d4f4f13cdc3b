"""Gingerbread meeples: fold-over standees, one per player colour, each with its own icon.

Each is cut out along its dashed outline: front and back side by side with a base tab under
each. Fold down the middle so front and back meet, glue them, and bend the two tabs out opposite
ways: the meeple stands on them.
"""

from __future__ import annotations

from pydantic import Field, model_validator

from ...kinds import Kind, Options
from ...model import HEX, Colour, Ident, IconName, LayoutFile, Strict, unique_ids
from ...pieces import CUT, FOLD, Piece, PieceLayout, cut_box, pack
from ...scene import Circle, Group, Icon, Item, Line, Page, Style, Text

# Left half of the cookie, x in figure widths from the centre line, y in heights from the top.
HALF = ((-0.10, 0.30), (-0.42, 0.34), (-0.50, 0.42), (-0.44, 0.50), (-0.20, 0.50), (-0.24, 0.70),
        (-0.40, 0.90), (-0.34, 0.99), (-0.16, 0.99), (0.0, 0.80))


class Meeple(Strict):
    id: Ident
    name: str = Field(min_length=1, description="the colour's name, printed under the cookie")
    colour: Colour = Field(pattern=HEX)
    icon: IconName


class MeepleContent(Strict):
    meeples: list[Meeple] = Field(min_length=2, max_length=6)
    spares: int = Field(6, ge=0, le=6, description="spares in the same colours, in rows of their own")
    how: str = Field(min_length=1, description="page heading")
    fold: str = Field(min_length=1, description="the line above the meeples: how to make one")
    spare: str = Field(min_length=1, description="the line above the spares")

    @model_validator(mode="after")
    def _unique(self):
        unique_ids(self.meeples, "meeple")
        if len({m.icon for m in self.meeples}) != len(self.meeples):
            raise ValueError("give every meeple its own icon, so colours never have to be told apart")
        return self


class MeepleLayout(PieceLayout):
    width: float = Field(28.0, ge=18.0, le=40.0, description="standee width, mm")
    height: float = Field(36.0, ge=24.0, le=50.0, description="front (and back) panel height, mm")
    tab: float = Field(12.0, ge=8.0, le=20.0, description="base tab depth, mm")


class Meeples(LayoutFile):
    content: MeepleContent
    layout: MeepleLayout = MeepleLayout()

    def counts(self) -> dict[str, int]:
        return {"meeples": len(self.content.meeples), "spares": self.content.spares}


def cookie(m: Meeple, w: float, h: float, ink: bool, id: str) -> list[Item]:
    """The gingerbread figure in a w x h panel, upright, its icon on a white belly."""
    pts = [(w / 2 + x * w, y * h) for x, y in HALF]
    pts += [(w - px, py) for px, py in reversed(pts[:-1])]
    fill = "#ffffff" if ink else m.colour
    head = Circle(w / 2, 0.17 * h, 0.15 * h, Style(width=0.35, fill=fill))
    items: list[Item] = [Line(tuple(pts), Style(width=0.35, fill=fill), closed=True, id=id), head,
                         Circle(w / 2 - 0.05 * h, 0.15 * h, 0.022 * h, Style(stroke=None, fill="#000000")),
                         Circle(w / 2 + 0.05 * h, 0.15 * h, 0.022 * h, Style(stroke=None, fill="#000000")),
                         Circle(w / 2, 0.58 * h, 0.15 * h, Style(width=0.3, fill="#ffffff")),
                         Icon(m.icon, w / 2, 0.58 * h, 0.24 * h, mono=True, id=f"{id}.icon")]
    return items


def standee(m: Meeple, lay: MeepleLayout, key: str) -> Piece:
    """One piece: front and back side by side (fold between them), a base tab under each, cut
    apart so the two tabs bend out opposite ways. Icons are left-right symmetric, so the back,
    seen from behind, shows the same icon."""
    w, h, t = lay.width, lay.height, lay.tab
    front = tuple(cookie(m, w, h, lay.ink_saver, f"{key}.front"))
    items: list[Item] = [*cut_box(0, 0, 2 * w, h + t, id=f"{key}.outline"),
                         Group(front, 0, 0, id=f"{key}.front"),
                         Group(tuple(cookie(m, w, h, lay.ink_saver, f"{key}.back")), w, 0,
                               id=f"{key}.back"),
                         Line(((w, 0), (w, h)), FOLD, id=f"{key}.fold.middle"),
                         Line(((0, h), (2 * w, h)), FOLD, id=f"{key}.fold.base"),
                         Line(((w, h), (w, h + t)), CUT, id=f"{key}.cut.tabs")]
    for x in (0, w):
        items.append(Text(x + w / 2, h + t / 2 + 1, f"{m.name} base", 6.5, align="center",
                          color="#444444"))
    return Piece(2 * w, h + t, tuple(items), id=key)


def pages(doc: Meeples, opts: Options) -> list[Page]:
    """--copies sets of meeples, then as many sets of spares, packed onto as many pages as needed."""
    c, copies = doc.content, max(1, opts.copies)
    meeples = [standee(mp, doc.layout, f"meeple.{mp.id}.{n + 1}") for n in range(copies) for mp in c.meeples]
    spares = [standee(mp, doc.layout, f"spare.{mp.id}.{n + 1}") for n in range(copies)
              for mp in c.meeples[:c.spares]]
    labels = {0: c.fold, **({len(meeples): c.spare} if spares else {})}
    return pack(meeples + spares, doc.layout, doc.title, c.how, labels=labels)


KIND = Kind("gingerbread-meeples", Meeples, pages, product="run-for-your-life")
