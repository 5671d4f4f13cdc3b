"""The scene: plain primitives in millimetres (origin top left, y down), each with an element id.

Composers build scenes; the drawer turns them into PDF; the validator reports by the same ids.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Iterator, Literal, Union


@dataclass(frozen=True)
class Style:
    stroke: str | None = "#000000"
    fill: str | None = None
    width: float = 0.3  # line width, mm
    dash: tuple[float, ...] | None = None


DEFAULT = Style()


@dataclass(frozen=True)
class Box:
    x: float
    y: float
    w: float
    h: float
    style: Style = DEFAULT
    id: str = ""
    radius: float = 0.0
    writable: bool = False  # a box a player writes in: must be at least 5 mm


@dataclass(frozen=True)
class Circle:
    cx: float
    cy: float
    r: float
    style: Style = DEFAULT
    id: str = ""
    writable: bool = False


@dataclass(frozen=True)
class Line:
    points: tuple[tuple[float, float], ...]
    style: Style = DEFAULT
    id: str = ""
    closed: bool = False  # closed lines are polygons and may be filled


@dataclass(frozen=True)
class Text:
    x: float
    y: float  # baseline
    text: str
    size: float = 10.0  # points
    bold: bool = False
    align: Literal["left", "center", "right"] = "left"
    color: str = "#000000"
    id: str = ""
    italic: bool = False


@dataclass(frozen=True)
class Para:
    """Rich text wrapped into a box and shrunk to fit (reportlab paragraph markup: <b>, <i>, <br/>)."""

    x: float
    y: float  # top
    w: float
    h: float
    markup: str
    size: float = 9.0
    min_size: float = 6.0
    align: Literal["left", "center", "right"] = "left"
    color: str = "#000000"
    id: str = ""
    valign: Literal["top", "middle"] = "top"


@dataclass(frozen=True)
class Icon:
    name: str
    cx: float
    cy: float
    size: float  # mm, the icon's bounding square
    id: str = ""
    fill: str | None = None  # None: the icon's own colour
    mono: bool = False  # draw in black outline only (ink saver)
    rotate: float = 0.0  # degrees, anticlockwise as printed


@dataclass(frozen=True)
class QR:
    x: float
    y: float
    size: float
    data: str
    id: str = ""


@dataclass(frozen=True)
class Group:
    items: tuple["Item", ...]
    dx: float = 0.0
    dy: float = 0.0
    id: str = ""
    clip: tuple[float, float, float, float] | None = None  # x, y, w, h in the group's coordinates
    form: str = ""  # drawn once as a reusable PDF form: groups with the same form hold the same items
    layer: bool = False  # a window onto a larger artwork (a poster tile): its texts are linted
    # against its own items only, not against the seam marks drawn over it


Item = Union[Box, Circle, Line, Text, Para, Icon, QR, Group]


@dataclass
class Page:
    width: float
    height: float
    items: list[Item] = field(default_factory=list)
    label: str = ""  # shown in PDF outlines
    bleed: float = 0.0  # mm of bleed around the trim at the page edge (print-on-demand cards)
    back: bool = False  # the backs of the page before it: the part prints double-sided

    def add(self, *items: Item) -> None:
        self.items.extend(items)


def walk(items, dx: float = 0.0, dy: float = 0.0) -> Iterator[tuple[Item, float, float]]:
    """Every primitive with its absolute offset, groups flattened."""
    for it in items:
        if isinstance(it, Group):
            yield from walk(it.items, dx + it.dx, dy + it.dy)
        else:
            yield it, dx, dy


def ids(items) -> list[str]:
    return [it.id for it, _, _ in walk(items) if it.id]


def moved(item: Item, dx: float, dy: float) -> Group:
    return Group((item,), dx, dy)


def restyle(style: Style, **kw) -> Style:
    return replace(style, **kw)
