"""The Run for Your Life game mat: the path as data, checked against the Dash N Bash deck, drawn
as a winding route on a poster (A2 by default) and printed as tiles (see `tiles.py`).

The path is an ordered list of spaces, space 0 the START at Candy Keep and the last space the
finish. The mat takes its candies (names, icons, colours) and characters from the deck it names,
so the two cannot disagree about what a candy looks like; every candy and character a card shows
must have a space on the path (checked when the mat is drawn, `check_deck`, and reported as a
fault by `sheetgen validate`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

from pydantic import Field, field_validator, model_validator

from ...kinds import Kind, Options
from ...model import Ident, LayoutFile, PageSetup, Strict
from ...paper import readable
from ...scene import Box, Circle, Icon, Item, Line, Page, Style, Text
from ...widgets import tint

POSTERS = {"a1": (841.0, 594.0), "a2": (594.0, 420.0), "a3": (420.0, 297.0)}  # landscape, mm


class Space(Strict):
    candy: Ident | None = None
    character: Ident | None = None
    special: Literal["start"] | None = None
    name: str = ""
    burst: bool = Field(False, description="a Candy Cage Match space")
    throw: bool = Field(False, description="the burst Sweet Toof throws players to (Pink Gumball)")
    swirl: bool = Field(False, description="the Peppermint Swirl, last space before the Danger Zone")

    @model_validator(mode="after")
    def _one(self):
        if sum(v is not None for v in (self.candy, self.character, self.special)) != 1:
            raise ValueError("a space is exactly one of: candy, character or special")
        if (self.burst or self.swirl) and self.candy is None:
            raise ValueError("burst and swirl spaces must show a candy")
        if self.throw and not self.burst:
            raise ValueError("the Sweet Toof target (throw) must be a burst space")
        return self


class Bridge(Strict):
    entrance: int = Field(ge=1, description="space number where the bridge starts")
    exit: int = Field(ge=0, description="space number, further back, where you land")


class MatTexts(Strict):
    """The poster's texts, written in the mat layout (`content.texts`)."""

    title: str = Field(min_length=1)
    zone: str = Field(min_length=1, description="the Danger Zone's band ({attacks})")
    finish: str = Field(min_length=1)
    bridge: str = Field(min_length=1, description="a bridge's label ({exit})")
    cage: str = Field(min_length=1, description="a burst space's label")
    toof: str = Field(min_length=1, description="under a character space ({target})")
    key: str = Field(min_length=1, description="the key's line on moving")


def _deck(ref: str):
    from ...kinds import load_shared

    return load_shared(ref).doc


class MatContent(Strict):
    deck: str = Field("dash-n-bash", description="the Dash N Bash layout this mat is played with")
    status: str = Field("gingerbread-status", description="the Status sheet layout whose damage "
                        "boxes the race counts")
    path: list[Space] = Field(min_length=20)
    bridges: list[Bridge] = []
    danger_zone: int = Field(9, ge=1, le=20, description="the last spaces where the Twins attack")
    twin_attacks: int = Field(ge=1, le=8, description="attacks of the Twins at the start of each "
                              "turn in the Danger Zone (the race engine plays this many)")
    texts: MatTexts

    @field_validator("path")
    @classmethod
    def _path(cls, path: list[Space]):
        if path[0].special != "start" or any(s.special for s in path[1:]):
            raise ValueError("space 0 (and only space 0) is the start: give it special: start")
        if path[-1].candy is None:
            raise ValueError("the last space (the finish) must show a candy")
        bursts = [i for i, s in enumerate(path) if s.burst]
        if len(bursts) != 3:
            raise ValueError(f"the mat has {len(bursts)} burst spaces; the rules have three")
        if sum(s.throw for s in path) != 1:
            raise ValueError("mark exactly one burst space 'throw: true' (Sweet Toof's Pink Gumball)")
        return path

    @property
    def throw(self) -> int:
        """The index of the burst Sweet Toof throws players to."""
        return next(i for i, s in enumerate(self.path) if s.throw)

    @model_validator(mode="after")
    def _places(self):
        n, zone = len(self.path), self.danger_zone
        swirl = [i for i, s in enumerate(self.path) if s.swirl]
        if swirl != [n - zone - 1]:
            raise ValueError(f"mark space {n - zone - 1}, just before the {zone}-space Danger Zone, "
                             "and only it, 'swirl: true'")
        for b in self.bridges:
            if not b.exit < b.entrance < n - zone - 1:
                raise ValueError(f"bridge {b.entrance}->{b.exit}: the exit must be behind the "
                                 "entrance, and both before the Peppermint Swirl")
            s = self.path[b.entrance]
            if s.candy is None or s.burst:
                raise ValueError(f"bridge entrance {b.entrance} must be a plain candy space")
        if len({b.entrance for b in self.bridges}) != len(self.bridges):
            raise ValueError("two bridges start on the same space")
        return self


def disagreements(path: list[Space], deck) -> list[str]:
    """What the deck shows that the path lacks (and candies the deck does not know), one line
    each; empty when they agree."""
    out = []
    candies = {c.id for c in deck.content.candies}
    on_path = {s.candy for s in path if s.candy} | {s.character for s in path if s.character}
    for s in path:
        if s.candy and s.candy not in candies:
            out.append(f"the path shows candy '{s.candy}', which the deck does not have; "
                       f"use one of: {', '.join(sorted(candies))}")
    named: dict[str, list[str]] = {}
    for card in deck.content.cards:
        for c in dict.fromkeys([*card.candies, *([card.character] if card.character else [])]):
            named.setdefault(c, []).append(card.id)
    for c, cards in named.items():
        if c not in on_path:
            key = "character" if c not in candies else "candy"
            out.append(f"no space on the path shows {key} '{c}', which {len(cards)} kinds of Dash N "
                       f"Bash card show ({', '.join(cards[:3])}{' …' if len(cards) > 3 else ''}); "
                       f"add a space {{{key}: {c}}} to the path")
    return out


def check_deck(mat: "Mat") -> None:
    """Refuse to draw a mat that disagrees with its deck: the first disagreement, at content.path."""
    from ...errors import SheetgenError

    problems = disagreements(mat.content.path, _deck(mat.content.deck))
    if problems:
        raise SheetgenError(problems[0], key="content.path",
                            fix=f"make the path and the deck '{mat.content.deck}' agree")


class MatLayout(PageSetup):
    poster: Literal["a1", "a2", "a3"] = "a2"
    rows: int = Field(6, ge=2, le=12, description="rows of the winding route")
    overlap: float = Field(12.0, ge=6.0, le=30.0, description="overlap strip between tiles, mm")
    header: float = Field(12.0, ge=8.0, le=30.0, description="tile label band, cut away, mm")


class Mat(LayoutFile):
    content: MatContent
    layout: MatLayout = MatLayout()

    def counts(self) -> dict[str, int]:
        return {"danger_zone": self.content.danger_zone, "twin_attacks": self.content.twin_attacks}


# ---- the track: what the race engine and the drawing both read ---------------------------------

@dataclass(frozen=True)
class Track:
    kinds: tuple[str, ...]  # per space: a candy id, a character id, or "start"
    bursts: tuple[int, ...]
    throw: int
    swirl: int
    zone: int  # first space of the Danger Zone
    attacks: int  # the Twins' attacks per turn there
    bridges: dict  # entrance -> exit
    candies: tuple[str, ...]  # the deck's candy ids

    @property
    def finish(self) -> int:
        return len(self.kinds) - 1

    def shows(self, i: int, candy: str) -> bool:
        return self.kinds[i] == candy

    def character(self, i: int) -> bool:
        return i > 0 and self.kinds[i] not in self.candies

    def where(self, name: str) -> list[int]:
        return [i for i, k in enumerate(self.kinds) if k == name]


def track(mat: Mat) -> Track:
    c = mat.content
    path = c.path
    kinds = tuple(s.candy or s.character or s.special for s in path)
    n = len(path)
    return Track(kinds, tuple(i for i, s in enumerate(path) if s.burst),
                 c.throw, n - c.danger_zone - 1,
                 n - c.danger_zone, c.twin_attacks, {b.entrance: b.exit for b in c.bridges},
                 tuple(x.id for x in _deck(c.deck).content.candies))


# ---- drawing the poster ------------------------------------------------------------------------

INK = "#3b2312"


def space_id(i: int) -> str:
    """The element id of space i's disc: the drawing, the heatmap and the tests use it."""
    return f"space.{i}"


def pt(size: float, s: float) -> float:
    """A text size scaled with the poster, never below the 6 pt print rule."""
    return readable(size * s)
ROAD = Style(stroke="#8a6a4a", width=2.2)


@dataclass(frozen=True)
class Geometry:
    width: float
    height: float
    scale: float  # 1 on A2
    radius: float
    centres: tuple[tuple[float, float], ...]
    cols: int


def geometry(mat: Mat, poster: str) -> Geometry:
    """Space centres on a winding route: row 0 at the bottom, START at its right end, each row
    turning back up the poster, the finish at the right end of the top row."""
    W, H = POSTERS[poster]
    s = W / POSTERS["a2"][0]
    n, rows = len(mat.content.path), mat.layout.rows
    cols = math.ceil(n / rows)
    m = mat.layout.margin
    x0, x1 = m + 26 * s, W - m - 40 * s
    r = min(15 * s, (x1 - x0) / (cols - 1) * 0.3)
    y_top, y_bot = m + 30 * s + r, H - m - 28 * s - r - 6 * s
    px, py = (x1 - x0) / (cols - 1), (y_bot - y_top) / (rows - 1)
    out = []
    for i in range(n):
        row, j = divmod(i, cols)
        right_to_left = (rows - 1 - row) % 2 == 1  # the top row runs left to right
        col = cols - 1 - j if right_to_left else j
        out.append((x0 + col * px, y_bot - row * py))
    return Geometry(W, H, s, r, tuple(out), cols)


def _arrow(a, b, r: float, s: float) -> Item:
    """A small triangle halfway between two space centres, pointing from a to b."""
    (ax, ay), (bx, by) = a, b
    d = math.hypot(bx - ax, by - ay) or 1
    ux, uy = (bx - ax) / d, (by - ay) / d
    mx, my = (ax + bx) / 2, (ay + by) / 2
    k = 3.2 * s
    pts = ((mx + ux * k, my + uy * k), (mx - ux * k - uy * k, my - uy * k + ux * k),
           (mx - ux * k + uy * k, my - uy * k - ux * k))
    return Line(pts, Style(stroke=None, fill="#ffffff"), closed=True)


def _bridge(a, b, s: float, label: str) -> list[Item]:
    """A plank from the entrance (a) back to the exit (b), with cross boards and an arrow."""
    (ax, ay), (bx, by) = a, b
    d = math.hypot(bx - ax, by - ay)
    ux, uy = (bx - ax) / d, (by - ay) / d
    nx, ny = -uy * 5 * s, ux * 5 * s
    plank = ((ax + nx, ay + ny), (bx + nx, by + ny), (bx - nx, by - ny), (ax - nx, ay - ny))
    items: list[Item] = [Line(plank, Style(stroke=INK, fill="#d9b98c", width=0.6), closed=True,
                              id="bridge")]
    steps = max(2, int(d / (4 * s)))
    for k in range(1, steps):
        t = k / steps
        cx, cy = ax + (bx - ax) * t, ay + (by - ay) * t
        items.append(Line(((cx + nx, cy + ny), (cx - nx, cy - ny)), Style(stroke=INK, width=0.35)))
    mx, my = (ax + bx) / 2, (ay + by) / 2
    k = 5 * s
    items.append(Line(((mx + ux * k, my + uy * k), (mx - ux * k + nx, my - uy * k + ny),
                       (mx - ux * k - nx, my - uy * k - ny)), Style(stroke=INK, fill="#ffffff",
                                                                   width=0.4), closed=True))
    items.append(Text(mx + 7 * s, my + 1.5 * s, label, pt(9, s), bold=True, color=INK))
    return items


def _finish_line(x: float, y: float, r: float, s: float, text: str) -> list[Item]:
    """A chequered border just past the last space."""
    cell = 4 * s
    x0, rows = x + r + 6 * s, int(2.6 * r / cell)
    y0 = y - rows * cell / 2
    items: list[Item] = [Box(x0, y0, 2 * cell, rows * cell, Style(stroke=INK, fill="#ffffff", width=0.4),
                             id="finish.border")]
    for k in range(rows):
        for c in range(2):
            if (k + c) % 2 == 0:
                items.append(Box(x0 + c * cell, y0 + k * cell, cell, cell,
                                 Style(stroke=None, fill="#000000")))
    items.append(Text(x0 + cell + 1.5 * s, y0 - 2 * s, text, pt(10, s), bold=True, align="center",
                      color=INK, id="finish.label"))  # clear of the Danger Zone band
    return items


def _zone(geo: Geometry, first: int, last: int, text: str) -> list[Item]:
    """Hatched band behind the Danger Zone spaces (a pattern, not colour alone) with skulls."""
    s, r = geo.scale, geo.radius
    xs = [geo.centres[i][0] for i in range(first, last + 1)]
    y = geo.centres[first][1]
    x0, x1 = min(xs) - r - 4 * s, max(xs) + r + 4 * s
    y0, h = y - r - 9 * s, 2 * r + 18 * s
    items: list[Item] = [Box(x0, y0, x1 - x0, h, Style(stroke="#8b0000", fill="#fde3e3", width=0.8),
                             radius=4 * s, id="zone")]
    step = 6 * s
    k = 0.0
    hatch = Style(stroke="#e9a3a3", width=0.5)
    top, hh = y - r, 2 * r  # hatched behind the spaces; the label and names above and below stay plain
    while k < (x1 - x0) + hh:  # 45-degree hatching clipped to the band by hand
        ax, ay = x0 + k, top
        bx, by = x0 + k - hh, top + hh
        if ax > x1:
            ay += ax - x1
            ax = x1
        if bx < x0:
            by -= x0 - bx
            bx = x0
        items.append(Line(((ax, ay), (bx, by)), hatch))
        k += step
    items.append(Text(x0 + 3 * s, y0 + 6.5 * s, text, pt(10, s), bold=True, color="#8b0000",
                      id="zone.label"))
    for x in (x0 + 5 * s, x1 - 5 * s):
        items.append(Icon("skull", x, y0 + h - 5 * s, 7 * s, id="zone.twins"))
    return items


def _space(mat: Mat, geo: Geometry, i: int, candy: dict, chars: dict, ink: bool) -> list[Item]:
    sp = mat.content.path[i]
    s, r = geo.scale, geo.radius
    x, y = geo.centres[i]
    t = mat.content.texts
    items: list[Item] = []
    colour = candy[sp.candy].colour if sp.candy else (chars[sp.character].colour if sp.character
                                                       else "#f4d58d")
    if sp.burst:
        items.append(Icon("burst", x, y, 2.75 * r, fill="#ffd23f", mono=ink, id=f"space.{i}.burst"))
    fill = "#ffffff" if ink else tint(colour, 0.3)
    items.append(Circle(x, y, r, Style(stroke=INK, fill=fill, width=0.8 if not sp.burst else 1.2),
                        id=space_id(i)))
    if sp.candy:
        items.append(Icon(candy[sp.candy].icon, x, y + 1.2 * s, 1.25 * r, fill=colour, mono=ink))
    elif sp.character:
        items.append(Icon(chars[sp.character].icon, x, y + 1 * s, 1.35 * r, fill=colour, mono=ink))
    else:  # as high as a candy, clear of the number
        items.append(Icon("candy_cane", x, y + 1.2 * s, 1.25 * r, mono=ink))
    items.append(Text(x, y - r + 5.2 * s, str(i), pt(8, s), bold=True, align="center", color=INK,
                      id=f"space.{i}.number"))
    below = y + r + 5 * s
    label = sp.name
    if sp.special == "start":
        label = "START" + (f" · {sp.name}" if sp.name else "")
    elif sp.character:
        target = mat.content.path[mat.content.throw]
        label = chars[sp.character].name.upper()
        items.append(Text(x, below + 4.2 * s, t.toof.format(target=target.name or "the burst"),
                          pt(7, s), align="center", color=INK))
    elif sp.burst:
        label = t.cage + (f" · {sp.name}" if sp.name else "")
    if label:
        items.append(Text(x, below + (5 * s if sp.burst else 0), label, pt(9, s), bold=True,
                          align="center", color=INK, id=f"space.{i}.label"))
    return items


def poster_items(mat: Mat, poster: str, ink: bool | None = None) -> tuple[Geometry, list[Item]]:
    """Everything printed on the poster, in poster millimetres."""
    ink = mat.layout.ink_saver if ink is None else ink
    geo = geometry(mat, poster)
    c = mat.content
    deck = _deck(c.deck).content
    candy = {x.id: x for x in deck.candies}
    chars = {x.id: x for x in deck.characters}
    s, r, pts = geo.scale, geo.radius, geo.centres
    n = len(pts)
    m = mat.layout.margin
    items: list[Item] = [Box(m, m, geo.width - 2 * m, geo.height - 2 * m,
                             Style(stroke=INK, fill=None if ink else "#fff6e8", width=1.0),
                             radius=6 * s, id="mat.frame")]
    items.append(Text(geo.width / 2, m + 17 * s, c.texts.title, pt(30, s), bold=True, align="center",
                      color=INK, id="mat.title"))
    zone_first = n - c.danger_zone
    items += _zone(geo, zone_first, n - 1, c.texts.zone.format(attacks=c.twin_attacks))
    for i in range(n - 1):
        items.append(Line((pts[i], pts[i + 1]), ROAD))
    for i in range(n - 1):
        items.append(_arrow(pts[i], pts[i + 1], r, s))
    for b in c.bridges:
        items += _bridge(pts[b.entrance], pts[b.exit], s, c.texts.bridge.format(exit=b.exit))
    for i in range(n):
        items += _space(mat, geo, i, candy, chars, ink)
    items += _finish_line(*pts[-1], r, s, c.texts.finish)
    items += _key(mat, geo, candy, ink)
    return geo, items


def _key(mat: Mat, geo: Geometry, candy: dict, ink: bool) -> list[Item]:
    """The candy key along the bottom edge: each candy's icon and name."""
    s = geo.scale
    m = mat.layout.margin
    y = geo.height - m - 12 * s
    items: list[Item] = [Text(m + 8 * s, y + 1.5 * s, mat.content.texts.key, pt(10, s), italic=True,
                              color=INK, id="mat.key")]
    x = geo.width * 0.5
    step = (geo.width - m - 10 * s - x) / len(candy)
    for k, cd in enumerate(candy.values()):
        cx = x + k * step
        items.append(Icon(cd.icon, cx, y, 9 * s, fill=cd.colour, mono=ink))
        items.append(Text(cx + 6 * s, y + 1.5 * s, cd.name, pt(9, s), bold=True, color=INK))
    return items


def options(opts: Options, lay: MatLayout) -> tuple[str, bool]:
    """(poster size, tiled?) from `--poster SIZE` / `--tiles`; tiles by default."""
    size = opts.poster or lay.poster
    if size not in POSTERS:
        from ...errors import SheetgenError

        raise SheetgenError(f"--poster {size} is not a size I know", fix=f"use one of: {', '.join(POSTERS)}")
    tiled = opts.tiles or not opts.poster
    return size, tiled


def pages(doc: Mat, opts: Options) -> list[Page]:
    from .tiles import tile_pages

    check_deck(doc)
    size, tiled = options(opts, doc.layout)
    geo, items = poster_items(doc, size)
    if not tiled:
        return [Page(geo.width, geo.height, items, label=f"{doc.title} ({size.upper()} poster)")]
    return tile_pages(items, geo.width, geo.height, doc.layout, doc.title, geo.centres)


KIND = Kind("run-for-your-life-mat", Mat, pages, product="run-for-your-life",
            options=frozenset({"tiles", "poster"}))
