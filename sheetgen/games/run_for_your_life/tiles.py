"""A poster printed as tiles on A4 or Letter, to cut and glue (or tape) together.

Each tile shows a window of the poster. Neighbouring windows share an `overlap` strip: on the tile
to the left (or above) that strip is marked GLUE; the tile to the right (or below) is cut along
its dashed edge and laid over it. Alignment crosses sit at the same poster point on both tiles of
a seam, so laying one cross on the other places the tile. The first page is the assembly map:
every tile by its row letter and column number. Tiles are named A1, A2, … (row letter, column).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ...draw import text_width_mm
from ...lint import bounds, touching
from ...paper import page_size, readable
from ...scene import Box, Circle, Group, Item, Line, Page, Para, Style, Text, walk

CUT = Style(stroke="#555555", width=0.3, dash=(2.0, 1.5))
CROSS = Style(stroke="#222222", width=0.25)
GLUE = Style(stroke="#9a9a9a", width=0.3, dash=(1.0, 1.0))
FORM = "poster"
CROSS_HALF = 3.0  # mm, half the length of an alignment cross's strokes


@dataclass(frozen=True)
class Tile:
    row: int
    col: int
    x: float  # the window's top-left corner in poster mm
    y: float
    page_x: float  # where that corner is printed on the page
    page_y: float

    @property
    def name(self) -> str:
        return f"{chr(65 + self.row)}{self.col + 1}"


@dataclass(frozen=True)
class Grid:
    paper: tuple[float, float]
    window: tuple[float, float]
    rows: int
    cols: int
    overlap: float
    poster: tuple[float, float]

    def extent(self, t: Tile) -> tuple[float, float]:
        """The part of tile t's window the poster covers (the last row and column are short)."""
        return min(self.window[0], self.poster[0] - t.x), min(self.window[1], self.poster[1] - t.y)

    def step(self) -> tuple[float, float]:
        return self.window[0] - self.overlap, self.window[1] - self.overlap

    def tiles(self, margin: float, header: float) -> list[Tile]:
        sx, sy = self.step()
        return [Tile(r, c, c * sx, r * sy, margin, margin + header)
                for r in range(self.rows) for c in range(self.cols)]


def grid(width: float, height: float, paper: str, margin: float, header: float, overlap: float) -> Grid:
    """Tiles for a width x height poster: the orientation of the paper giving fewer pages."""
    best = None
    for orient in ("portrait", "landscape"):
        pw, ph = page_size(paper, orient)
        ww, wh = pw - 2 * margin, ph - 2 * margin - header
        cols = max(1, math.ceil((width - overlap) / (ww - overlap)))
        rows = max(1, math.ceil((height - overlap) / (wh - overlap)))
        g = Grid((pw, ph), (ww, wh), rows, cols, overlap, (width, height))
        if best is None or rows * cols < best.rows * best.cols:
            best = g
    return best


def _slide(lo: float, length: float, f: float, at, texts, clear: float) -> float:
    """The place along a seam, nearest to lo + f * length and at least `clear` from its ends,
    where a cross (at(place) its centre) covers none of the poster's `texts` rectangles."""
    k = CROSS_HALF + 0.5
    start = min(max(lo + f * length, lo + clear), lo + length - clear)
    for step in range(int(length / 4)):
        for v in (start + step, start - step):
            if lo + clear <= v <= lo + length - clear:
                x, y = at(v)
                if all(x + k <= a or x - k >= c or y + k <= b or y - k >= d for a, b, c, d in texts):
                    return v
    return start


def crosses(g: Grid, t: Tile, texts=()) -> list[tuple[str, float, float]]:
    """(id, poster x, poster y) of the alignment crosses on tile t: two in every overlap strip it
    shares with a neighbour (the same ids and points on both tiles), from 1/4 and 3/4 of the way
    along slid to where they cover none of the poster's `texts` (rectangles in poster mm)."""
    sx, sy = g.step()
    ww, wh = g.extent(t)
    o = g.overlap
    out = []
    for c in (t.col - 1, t.col):  # vertical seams between columns c and c + 1
        if 0 <= c < g.cols - 1:
            x = (c + 1) * sx + o / 2
            out += [(f"cross.v{c}.{t.row}.{k}", x,
                     _slide(t.y, wh, f, lambda v: (x, v), texts, o + CROSS_HALF))
                    for k, f in enumerate((0.25, 0.75))]
    for r in (t.row - 1, t.row):
        if 0 <= r < g.rows - 1:
            y = (r + 1) * sy + o / 2
            out += [(f"cross.h{r}.{t.col}.{k}", _slide(t.x, ww, f, lambda v: (v, y), texts, o + CROSS_HALF),
                     y) for k, f in enumerate((0.25, 0.75))]
    return out


def _cross(x: float, y: float, id: str) -> list[Item]:
    k = CROSS_HALF
    return [Line(((x - k, y), (x + k, y)), CROSS, id=id), Line(((x, y - k), (x, y + k)), CROSS),
            Box(x - 1.2, y - 1.2, 2.4, 2.4, CROSS)]


def _strip(x: float, y: float, w: float, h: float, vertical: bool, id: str,
           marks: list[float]) -> list[Item]:
    """A GLUE strip: dashed outline and the word repeated along it, clear of its ends and of the
    crosses at `marks` (distances along the strip)."""
    items: list[Item] = [Box(x, y, w, h, GLUE, id=id)]
    length = h if vertical else w
    half = (2.0 if vertical else text_width_mm("GLUE", 7, True) / 2) + 0.5
    ends = [-CROSS_HALF, *sorted(marks), length + CROSS_HALF]
    free = [(a + CROSS_HALF + half, b - CROSS_HALF - half) for a, b in zip(ends, ends[1:])]
    places = sorted({round(min(max(length * f, lo), hi), 1) for f in (0.1, 0.5, 0.9)
                     for lo, hi in free if lo <= hi and lo - 1e-9 <= length * f <= hi + 1e-9}
                    or {round((lo + hi) / 2, 1) for lo, hi in free if lo <= hi})
    for d in places:
        cx, cy = (x + w / 2, y + d) if vertical else (x + d, y + h / 2)
        items.append(Text(cx, cy + 1.2, "GLUE", 7, bold=True, align="center", color="#777777"))
    return items


def _map(g: Grid, x: float, y: float, cell: float, mark: tuple[int, int] | None) -> list[Item]:
    """The tile grid, each cell named; `mark` (row, col) is shaded (this tile)."""
    items: list[Item] = []
    for r in range(g.rows):
        for c in range(g.cols):
            fill = "#444444" if mark == (r, c) else "#ffffff"
            items.append(Box(x + c * cell * 1.4, y + r * cell, cell * 1.4, cell,
                             Style(stroke="#000000", fill=fill, width=0.25), id=f"map.{r}.{c}"))
            items.append(Text(x + (c + 0.5) * cell * 1.4, y + (r + 0.5) * cell + cell * 0.12,
                              f"{chr(65 + r)}{c + 1}", readable(cell * 1.5), bold=True, align="center",
                              color="#ffffff" if mark == (r, c) else "#000000"))
    return items


def tile_pages(poster: list[Item], width: float, height: float, lay, title: str,
               route: tuple = ()) -> list[Page]:
    """The assembly map, then one page per tile. `route`: points (poster mm) drawn on the map as a
    thin line with dots, so each tile's part of the poster can be recognised."""
    g = grid(width, height, lay.paper, lay.margin, lay.header, lay.overlap)
    o = g.overlap
    pages = [assembly_map(g, width, height, lay.margin, title, route)]
    body = tuple(poster)
    texts = [bounds(it, dx, dy) for it, dx, dy in walk(body) if isinstance(it, (Text, Para))]
    for t in g.tiles(lay.margin, lay.header):
        px, py = t.page_x, t.page_y
        ww, wh = g.extent(t)
        items: list[Item] = [Group((Group(body, form=FORM),), px - t.x, py - t.y,
                                   clip=(t.x, t.y, ww, wh), layer=True)]  # the seams cross its art
        items.append(Box(px, py, ww, wh, Style(stroke="#bbbbbb", width=0.2), id=f"tile.{t.name}.window"))
        marks = crosses(g, t, texts)
        right = [y - t.y for cid, x, y in marks if cid.startswith(f"cross.v{t.col}.")]
        bottom = [x - t.x for cid, x, y in marks if cid.startswith(f"cross.h{t.row}.")]
        if t.col < g.cols - 1:
            items += _strip(px + ww - o, py, o, wh, True, f"tile.{t.name}.glue.right", right)
        if t.row < g.rows - 1:
            items += _strip(px, py + wh - o, ww, o, False, f"tile.{t.name}.glue.bottom", bottom)
        if t.col > 0:
            items.append(Line(((px, py), (px, py + wh)), CUT, id=f"tile.{t.name}.cut.left"))
        if t.row > 0:
            items.append(Line(((px, py), (px + ww, py)), CUT, id=f"tile.{t.name}.cut.top"))
        for cid, x, y in marks:
            items += _cross(px + x - t.x, py + y - t.y, cid)
        items += _label(g, t, lay.margin, lay.header, g.window[0])
        pages.append(Page(*g.paper, items, label=f"Tile {t.name}"))
    return pages


def _label(g: Grid, t: Tile, margin: float, header: float, ww: float) -> list[Item]:
    left = f"{chr(65 + t.row - 1)}{t.col + 1}" if t.row else ""
    before = f"{chr(65 + t.row)}{t.col}" if t.col else ""
    onto = " and ".join(x for x in (before, left) if x)
    where = f"lay it over the GLUE strip of {onto}" if onto else "the first tile: start here"
    cell = min(4.2, (header - 2.5) / g.rows)
    map_w = g.cols * cell * 1.4
    items: list[Item] = [Text(margin, margin + 6, f"Tile {t.name}", 12, bold=True, id=f"tile.{t.name}.name"),
                         Text(margin + 20, margin + 6, f"row {chr(65 + t.row)}, column {t.col + 1} "
                              f"of {g.rows} x {g.cols}: {where}; match the crosses", 7.5,
                              id=f"tile.{t.name}.how")]
    items += _map(g, margin + ww - map_w, margin + header - g.rows * cell - 1.5, cell, (t.row, t.col))
    return items


def _clear(choices: list[Text], drawn: list[Item], pw: float, ph: float) -> Text:
    """The first of `choices` that touches nothing `drawn` (lint's rule), else the first."""
    for text in choices:
        if not any(text.id in p for p in touching(Page(pw, ph, [*drawn, text]))):
            return text
    return choices[0]


def assembly_map(g: Grid, width: float, height: float, margin: float, title: str,
                 route: tuple = ()) -> Page:
    """The first page: the steps, and the grid of tiles at the poster's proportions."""
    pw, ph = g.paper
    items: list[Item] = [Text(margin, margin + 8, f"{title}: how to put it together", 14, bold=True,
                              id="assembly.title")]
    steps = [f"The mat is {width:.0f} x {height:.0f} mm on {g.rows * g.cols} tiles: rows A-{chr(64 + g.rows)} "
             f"from the top, columns 1-{g.cols} from the left. Print at 100 % (no 'fit to page').",
             "1. Cut the name band off the top of every tile, and cut along each dashed line.",
             "2. Start with A1. Lay A2 over the GLUE strip at the right of A1 so that its crosses sit",
             "   exactly on A1's crosses; glue or tape it. Go on along row A, then build row B.",
             "3. Lay row B over the GLUE strip along the bottom of row A, crosses on crosses.",
             "You need: scissors, and a glue stick or clear tape."]
    for k, line in enumerate(steps):
        items.append(Text(margin, margin + 18 + k * 5.5, line, 9, id=f"assembly.step.{k}"))
    top = margin + 18 + len(steps) * 5.5 + 6
    scale = min((pw - 2 * margin) / width, (ph - top - margin - 9) / height)
    sx, sy = g.step()
    items.append(Box(margin, top, width * scale, height * scale, Style(stroke="#000000", width=0.5),
                     id="assembly.poster"))
    if route:
        pts = tuple((margin + x * scale, top + y * scale) for x, y in route)
        items.append(Line(pts, Style(stroke="#8a6a4a", width=0.6), id="assembly.route"))
        items += [Circle(x, y, 1.2, Style(stroke="#3b2312", fill="#fff6e8", width=0.25)) for x, y in pts]
    outlines: list[Item] = []
    names: list[list[Text]] = []
    o = g.overlap * scale
    for t in g.tiles(0, 0):
        x0, y0 = margin + t.x * scale, top + t.y * scale
        w = min(g.window[0], width - t.x) * scale
        h = min(g.window[1], height - t.y) * scale
        outlines.append(Box(x0, y0, w, h, Style(stroke="#d00000", width=0.4, dash=(1.5, 1.0)),
                            id=f"assembly.tile.{t.name}"))
        a, b = x0 + (o if t.col else 0), x0 + w - (o if t.col < g.cols - 1 else 0)  # its own part
        names.append([Text(cx, y0 + h / 2 + size / 4, t.name, size, bold=True, align="center",
                           color="#d00000", id=f"assembly.name.{t.name}")
                      for size in (16, 12, 9, 7) for cx in ((a + b) / 2, x0 + w / 2)])
    if route:
        for (x, y), word in ((pts[0], "START"), (pts[-1], "FINISH")):
            names.append([Text(x + dx, y + dy, word, 7, bold=True, align=align, id=f"assembly.{word.lower()}")
                          for dy in (5, -2.5) for dx, align in ((0, "center"), (-2, "right"), (2, "left"))])
    items += outlines
    for choices in names:  # the first place where the word crosses no outline nor the route
        items.append(_clear(choices, items, pw, ph))
    items.append(Text(margin, top + height * scale + 6, "Overlaps are shown where the dashed tile "
                      "outlines cross. The arrows on the mat show the way to the finish.", 8))
    return Page(pw, ph, items, label="Assembly map")
