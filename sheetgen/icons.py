"""Vector icons drawn with the reportlab canvas.

Each icon draws in a unit box from -1 to 1 (y up) with its own shape, so icons stay distinct in
greyscale and in ink-saver mode, where they are drawn as black outlines. `fill` sets the main colour.
"""

from __future__ import annotations

import math
from typing import Callable

from reportlab.pdfgen.canvas import Canvas

from .paper import MM

LW = 0.09  # outline width in icon units
Draw = Callable[[Canvas, str, bool], None]
ICONS: dict[str, Draw] = {}
DEFAULT_FILL: dict[str, str] = {}


def icon(name: str, fill: str = "#ffffff"):
    def deco(fn: Draw) -> Draw:
        ICONS[name] = fn
        DEFAULT_FILL[name] = fill
        return fn
    return deco


def _fill(c: Canvas, colour: str, mono: bool) -> None:
    c.setFillColor("#ffffff" if mono else colour)
    c.setStrokeColor("#000000")


def _path(c: Canvas, pts, close=True, fill=True, stroke=True) -> None:
    p = c.beginPath()
    p.moveTo(*pts[0])
    for pt in pts[1:]:
        p.lineTo(*pt)
    if close:
        p.close()
    c.drawPath(p, fill=fill, stroke=stroke)


def _star_points(n: int, r1: float, r2: float, rot: float = 90):
    pts = []
    for i in range(2 * n):
        a = math.radians(rot + i * 180 / n)
        r = r1 if i % 2 == 0 else r2
        pts.append((r * math.cos(a), r * math.sin(a)))
    return pts


def _pair(c, dx: float, y: float, r: float, stroke: int = 0):
    """Two filled circles mirrored about the centre line: eyes, ears."""
    for x in (-dx, dx):
        c.circle(x, y, r, stroke=stroke, fill=1)


# ---- candies ---------------------------------------------------------------------------------

@icon("gumdrop", "#7b3fa0")
def _gumdrop(c, fill, mono):
    _fill(c, fill, mono)
    p = c.beginPath()
    p.moveTo(-0.85, -0.7)
    p.curveTo(-0.85, 0.95, 0.85, 0.95, 0.85, -0.7)
    p.close()
    c.drawPath(p, fill=1, stroke=1)
    c.setFillColor("#000000" if mono else "#ffffff")
    for x, y in ((-0.4, -0.3), (0.1, 0.25), (0.45, -0.35), (-0.1, -0.45), (-0.35, 0.2), (0.4, 0.1)):
        c.circle(x, y, 0.08, stroke=0, fill=1)


@icon("peppermint", "#d62828")
def _peppermint(c, fill, mono):
    c.setFillColor("#ffffff")
    c.circle(0, 0, 0.9, stroke=0, fill=1)
    c.setFillColor("#000000" if mono else fill)
    for i in range(4):
        p = c.beginPath()
        a0 = i * 90
        p.moveTo(0, 0)
        p.arcTo(-0.9, -0.9, 0.9, 0.9, startAng=a0, extent=45)
        p.close()
        c.drawPath(p, fill=1, stroke=0)
    c.setStrokeColor("#000000")
    c.circle(0, 0, 0.9, stroke=1, fill=0)


@icon("gumball", "#1f77d0")
def _gumball(c, fill, mono):
    _fill(c, fill, mono)
    c.circle(0, 0, 0.85, stroke=1, fill=1)
    c.setFillColor("#ffffff")
    c.circle(-0.35, 0.35, 0.22, stroke=1 if mono else 0, fill=1)


@icon("candy_corn", "#f2a900")
def _candy_corn(c, fill, mono):
    bands = [("#ffffff", 0.95, 0.35), (fill, 0.35, -0.3), ("#f47c20", -0.3, -0.9)]
    for colour, top, bottom in bands:
        half_top, half_bot = (0.95 - top) * 0.5, (0.95 - bottom) * 0.5
        c.setFillColor("#ffffff" if mono else colour)
        _path(c, [(-half_top, top), (half_top, top), (half_bot, bottom), (-half_bot, bottom)],
              stroke=0)
    c.setStrokeColor("#000000")
    _path(c, [(0, 0.95), (0.925, -0.9), (-0.925, -0.9)], fill=False)
    c.line(-0.32, 0.35, 0.32, 0.35)
    c.line(-0.62, -0.3, 0.62, -0.3)


@icon("hard_candy", "#2a9d3f")
def _hard_candy(c, fill, mono):
    _fill(c, fill, mono)
    _path(c, [(-0.45, 0), (-0.95, 0.45), (-0.95, -0.45)])
    _path(c, [(0.45, 0), (0.95, 0.45), (0.95, -0.45)])
    c.ellipse(-0.55, -0.45, 0.55, 0.45, stroke=1, fill=1)
    c.line(-0.3, -0.3, 0.3, 0.3)


@icon("chocolate", "#6b3a1e")
def _chocolate(c, fill, mono):
    _fill(c, fill, mono)
    c.roundRect(-0.65, -0.9, 1.3, 1.8, 0.12, stroke=1, fill=1)
    c.setStrokeColor("#000000" if mono else "#d9b38c")
    c.line(0, -0.8, 0, 0.8)
    for y in (-0.3, 0.3):
        c.line(-0.55, y, 0.55, y)


@icon("gummy_bear", "#2a9d3f")
def _gummy_bear(c, fill, mono):
    _fill(c, fill, mono)
    _pair(c, 0.38, 0.78, 0.16, stroke=1)  # ears
    for x in (-0.35, 0.35):
        c.ellipse(x - 0.2, -0.95, x + 0.2, -0.55, stroke=1, fill=1)  # feet
        c.ellipse(x * 1.7 - 0.18, -0.2, x * 1.7 + 0.18, 0.15, stroke=1, fill=1)  # arms
    c.ellipse(-0.45, -0.8, 0.45, 0.2, stroke=1, fill=1)  # body
    c.circle(0, 0.45, 0.4, stroke=1, fill=1)  # head
    c.setFillColor("#000000")
    _pair(c, 0.14, 0.5, 0.05)


@icon("wrapped", "#f47c20")
def _wrapped(c, fill, mono):
    """An orange candy in a twisted wrapper with stripes."""
    _fill(c, fill, mono)
    _path(c, [(-0.5, 0), (-0.95, 0.35), (-0.8, 0), (-0.95, -0.35)])
    _path(c, [(0.5, 0), (0.95, 0.35), (0.8, 0), (0.95, -0.35)])
    c.circle(0, 0, 0.55, stroke=1, fill=1)
    c.setStrokeColor("#000000" if mono else "#ffffff")
    c.setLineWidth(LW * 1.4)
    for x in (-0.22, 0.0, 0.22):
        c.line(x - 0.12, -0.45, x + 0.12, 0.45)


@icon("lollipop", "#e63971")
def _lollipop(c, fill, mono):
    c.setStrokeColor("#000000")
    c.setLineWidth(LW * 1.6)
    c.line(0, -0.95, 0, 0)
    _fill(c, fill, mono)
    c.setLineWidth(LW)
    c.circle(0, 0.3, 0.62, stroke=1, fill=1)
    p = c.beginPath()
    r = 0.05
    p.moveTo(0, 0.3)
    for i in range(1, 40):
        a = i * 0.4
        r = 0.015 * i
        p.lineTo(r * math.cos(a), 0.3 + r * math.sin(a))
    c.setStrokeColor("#000000" if mono else "#ffffff")
    c.drawPath(p, fill=0, stroke=1)


# ---- symbols ---------------------------------------------------------------------------------

@icon("skull", "#ffffff")
def _skull(c, fill, mono):
    _fill(c, fill, mono)
    c.circle(0, 0.2, 0.72, stroke=1, fill=1)
    c.roundRect(-0.4, -0.9, 0.8, 0.6, 0.1, stroke=1, fill=1)
    c.setFillColor(fill if not mono else "#ffffff")
    c.rect(-0.38, -0.45, 0.76, 0.4, stroke=0, fill=1)
    c.setFillColor("#000000")
    _pair(c, 0.3, 0.2, 0.19)
    _path(c, [(0, -0.05), (-0.1, -0.25), (0.1, -0.25)], stroke=0)
    for x in (-0.2, 0, 0.2):
        c.line(x, -0.9, x, -0.6)


@icon("bone", "#ffffff")
def _bone(c, fill, mono):
    _fill(c, fill, mono)
    c.saveState()
    c.rotate(35)
    for x in (-0.72, 0.72):
        for y in (-0.17, 0.17):
            c.circle(x, y, 0.22, stroke=1, fill=1)
    c.rect(-0.72, -0.15, 1.44, 0.3, stroke=0, fill=1)
    c.line(-0.6, 0.15, 0.6, 0.15)
    c.line(-0.6, -0.15, 0.6, -0.15)
    c.restoreState()


@icon("bat", "#333333")
def _bat(c, fill, mono):
    _fill(c, fill, mono)
    pts = [(0, 0.35), (0.12, 0.55), (0.18, 0.3), (0.55, 0.5), (0.98, 0.25), (0.8, 0.0), (0.55, -0.05),
           (0.4, -0.3), (0.15, -0.2), (0, -0.45), (-0.15, -0.2), (-0.4, -0.3), (-0.55, -0.05),
           (-0.8, 0.0), (-0.98, 0.25), (-0.55, 0.5), (-0.18, 0.3), (-0.12, 0.55)]
    _path(c, pts)
    c.setFillColor("#ffffff")
    _pair(c, 0.07, 0.22, 0.04)


@icon("cauldron", "#444444")
def _cauldron(c, fill, mono):
    _fill(c, fill, mono)
    c.setFillColor("#ffffff" if mono else "#7bc043")
    for x, y, r in ((-0.3, 0.55, 0.16), (0.05, 0.72, 0.2), (0.38, 0.55, 0.13)):
        c.circle(x, y, r, stroke=1, fill=1)
    _fill(c, fill, mono)
    p = c.beginPath()
    p.moveTo(-0.75, 0.35)
    p.curveTo(-1.0, -0.5, -0.4, -0.8, 0, -0.8)
    p.curveTo(0.4, -0.8, 1.0, -0.5, 0.75, 0.35)
    p.close()
    c.drawPath(p, stroke=1, fill=1)
    c.roundRect(-0.9, 0.25, 1.8, 0.2, 0.08, stroke=1, fill=1)
    c.line(-0.45, -0.72, -0.55, -0.95)
    c.line(0.45, -0.72, 0.55, -0.95)


@icon("pyramid", "#e3b448")
def _pyramid(c, fill, mono):
    _fill(c, fill, mono)
    _path(c, [(0, 0.9), (0.95, -0.8), (-0.95, -0.8)])
    for y, half in ((0.33, 0.32), (-0.23, 0.63)):
        c.line(-half, y, half, y)
    c.line(0, 0.33, 0, -0.23)
    c.line(-0.3, -0.23, -0.3, -0.8)
    c.line(0.3, -0.23, 0.3, -0.8)


@icon("full_moon", "#f4e285")
def _full_moon(c, fill, mono):
    _fill(c, fill, mono)
    c.circle(0, 0, 0.88, stroke=1, fill=1)
    c.setFillColor("#ffffff" if mono else "#d9c35b")
    for x, y, r in ((-0.3, 0.3, 0.18), (0.35, 0.1, 0.12), (0.0, -0.4, 0.2), (0.4, -0.45, 0.08)):
        c.circle(x, y, r, stroke=1, fill=1)


@icon("moon", "#f4e285")
def _moon(c, fill, mono):
    _fill(c, fill, mono)
    p = c.beginPath()
    p.moveTo(0.2, 0.85)
    p.curveTo(-0.9, 0.85, -0.9, -0.85, 0.2, -0.85)
    p.curveTo(-0.35, -0.5, -0.35, 0.5, 0.2, 0.85)
    p.close()
    c.drawPath(p, stroke=1, fill=1)


@icon("pumpkin", "#f47c20")
def _pumpkin(c, fill, mono):
    _fill(c, fill, mono)
    for x, w in ((-0.42, 0.5), (0.42, 0.5), (0, 0.55)):
        c.ellipse(x - w, -0.8, x + w, 0.55, stroke=1, fill=1)
    c.setFillColor("#ffffff" if mono else "#2a7a2a")
    c.rect(-0.08, 0.5, 0.16, 0.35, stroke=1, fill=1)


@icon("cat", "#333333")
def _cat(c, fill, mono):
    _fill(c, fill, mono)
    _path(c, [(-0.8, 0.1), (-0.7, 0.9), (-0.3, 0.5), (0.3, 0.5), (0.7, 0.9), (0.8, 0.1), (0.6, -0.6),
              (0, -0.85), (-0.6, -0.6)])
    c.setFillColor("#ffffff" if mono else "#ffe066")
    for x in (-0.32, 0.32):
        c.ellipse(x - 0.15, -0.05, x + 0.15, 0.2, stroke=1, fill=1)
    c.setStrokeColor("#000000" if mono else "#ffffff")
    for dy in (-0.35, -0.5):
        c.line(-0.9, dy, -0.35, -0.35)
        c.line(0.9, dy, 0.35, -0.35)


@icon("star", "#ffd23f")
def _star(c, fill, mono):
    _fill(c, fill, mono)
    _path(c, _star_points(5, 0.95, 0.4))


@icon("start", "#ffffff")
def _start(c, fill, mono):
    """A flag on a pole: where a player writes the 1."""
    _fill(c, fill, mono)
    c.setLineWidth(LW * 1.4)
    c.line(-0.6, -0.95, -0.6, 0.95)
    c.setLineWidth(LW)
    _path(c, [(-0.6, 0.9), (0.8, 0.55), (-0.6, 0.15)])
    c.setFillColor("#000000")
    _path(c, [(-0.6, 0.9), (0.1, 0.72), (0.1, 0.35), (-0.6, 0.52)], stroke=0)


@icon("bee", "#ffd23f")
def _bee(c, fill, mono):
    c.setFillColor("#ffffff")
    c.setStrokeColor("#000000")
    for x in (-0.3, 0.3):
        c.ellipse(x - 0.3, 0.25, x + 0.3, 0.85, stroke=1, fill=1)
    _fill(c, fill, mono)
    c.ellipse(-0.85, -0.55, 0.85, 0.4, stroke=1, fill=1)
    c.setFillColor("#000000")
    for x in (-0.3, 0.2):
        c.rect(x, -0.5, 0.18, 0.85, stroke=0, fill=1)


@icon("heart", "#d62828")
def _heart(c, fill, mono):
    _fill(c, fill, mono)
    p = c.beginPath()
    p.moveTo(0, -0.85)
    p.curveTo(-1.2, 0.0, -0.6, 1.05, 0, 0.45)
    p.curveTo(0.6, 1.05, 1.2, 0.0, 0, -0.85)
    p.close()
    c.drawPath(p, stroke=1, fill=1)


@icon("zap", "#ffd23f")
def _zap(c, fill, mono):
    _fill(c, fill, mono)
    _path(c, [(0.15, 0.95), (-0.6, -0.1), (-0.05, -0.1), (-0.25, -0.95), (0.6, 0.15), (0.05, 0.15)])


@icon("fist", "#e0a878")
def _fist(c, fill, mono):
    _fill(c, fill, mono)
    c.roundRect(-0.75, -0.8, 1.4, 1.2, 0.3, stroke=1, fill=1)
    for i in range(4):
        c.roundRect(-0.75 + i * 0.35, 0.25, 0.35, 0.6, 0.15, stroke=1, fill=1)
    c.roundRect(-0.95, -0.3, 0.6, 0.45, 0.18, stroke=1, fill=1)


@icon("roll", "#c68642")
def _roll(c, fill, mono):
    """A cinnamon roll: a spiral on a round bun."""
    _fill(c, fill, mono)
    c.circle(0, 0, 0.9, stroke=1, fill=1)
    p = c.beginPath()
    p.moveTo(0, 0)
    for i in range(1, 60):
        a = i * 0.3
        r = 0.013 * i
        p.lineTo(r * math.cos(a), r * math.sin(a))
    c.setStrokeColor("#ffffff" if not mono else "#000000")
    c.setLineWidth(LW * 1.3)
    c.drawPath(p, fill=0, stroke=1)


def _pips(n: int):
    a, m = 0.5, 0.0
    spots = {1: [(m, m)], 2: [(-a, a), (a, -a)], 3: [(-a, a), (m, m), (a, -a)],
             4: [(-a, a), (a, a), (-a, -a), (a, -a)],
             5: [(-a, a), (a, a), (m, m), (-a, -a), (a, -a)],
             6: [(-a, a), (a, a), (-a, m), (a, m), (-a, -a), (a, -a)]}
    return spots[n]


def _die(n: int) -> Draw:
    def draw(c, fill, mono):
        _fill(c, fill, mono)
        c.roundRect(-0.9, -0.9, 1.8, 1.8, 0.25, stroke=1, fill=1)
        c.setFillColor("#000000")
        for x, y in _pips(n):
            c.circle(x, y, 0.16, stroke=0, fill=1)
    return draw


for _n in range(1, 7):
    icon(f"die{_n}", "#ffffff")(_die(_n))


def draw_icon(c: Canvas, name: str, cx_pt: float, cy_pt: float, size_mm: float,
              fill: str | None = None, mono: bool = False, rotate: float = 0.0) -> None:
    """Draw icon `name` centred at (cx, cy) points, `size_mm` across, turned `rotate` degrees."""
    half = size_mm * MM / 2
    c.saveState()
    c.translate(cx_pt, cy_pt)
    if rotate:
        c.rotate(rotate)
    c.scale(half, half)
    draw_unit(c, name, fill, mono)
    c.restoreState()


def draw_unit(c: Canvas, name: str, fill: str | None = None, mono: bool = False) -> None:
    """Draw icon `name` in its unit box (-1 to 1, y up), as `draw_icon` does once it has placed it."""
    c.setLineWidth(LW)
    c.setLineJoin(1)
    c.setLineCap(1)
    ICONS[name](c, fill or DEFAULT_FILL[name], mono)


# ---- cards: Run for Your Life / ROLL for Your Life ------------------------------------------

@icon("candy_cane", "#d62828")
def _candy_cane(c, fill, mono):
    """A striped cane: a hook and a straight shaft."""
    p = c.beginPath()
    p.moveTo(0.25, -0.95)
    p.lineTo(0.25, 0.35)
    p.curveTo(0.25, 1.05, -0.6, 1.05, -0.6, 0.35)
    for width, colour, dash in ((0.42, "#000000", None), (0.3, "#ffffff", None),
                                (0.3, "#000000" if mono else fill, [0.16, 0.16])):
        c.setLineCap(0)
        c.setLineWidth(width)
        c.setStrokeColor(colour)
        c.setDash(dash or [])
        c.drawPath(p, stroke=1, fill=0)
    c.setDash([])


@icon("burst", "#ffd23f")
def _burst(c, fill, mono):
    """The burst around a Candy Cage Match space."""
    _fill(c, fill, mono)
    _path(c, _star_points(12, 0.98, 0.68))
    c.setFillColor("#ffffff")
    c.circle(0, 0, 0.5, stroke=1, fill=1)


@icon("tooth", "#ffffff")
def _tooth(c, fill, mono):
    """Sweet Toof: a big molar with a grin."""
    _fill(c, fill, mono)
    p = c.beginPath()
    p.moveTo(-0.75, 0.55)
    p.curveTo(-0.75, 1.0, -0.2, 0.95, 0, 0.8)
    p.curveTo(0.2, 0.95, 0.75, 1.0, 0.75, 0.55)
    p.curveTo(0.75, 0.0, 0.5, -0.2, 0.45, -0.9)
    p.curveTo(0.3, -0.95, 0.2, -0.6, 0.0, -0.35)
    p.curveTo(-0.2, -0.6, -0.3, -0.95, -0.45, -0.9)
    p.curveTo(-0.5, -0.2, -0.75, 0.0, -0.75, 0.55)
    p.close()
    c.drawPath(p, stroke=1, fill=1)
    c.setFillColor("#000000")
    _pair(c, 0.28, 0.45, 0.08)
    p = c.beginPath()
    p.moveTo(-0.35, 0.15)
    p.curveTo(-0.15, -0.05, 0.15, -0.05, 0.35, 0.15)
    c.drawPath(p, stroke=1, fill=0)


@icon("ghost", "#ffffff")
def _ghost(c, fill, mono):
    """A friendly ghost: round head, wavy hem, two eyes (Boogaloo's haunting)."""
    _fill(c, fill, mono)
    p = c.beginPath()
    p.moveTo(-0.7, -0.85)
    p.lineTo(-0.7, 0.2)
    p.curveTo(-0.7, 1.05, 0.7, 1.05, 0.7, 0.2)
    p.lineTo(0.7, -0.85)
    for i, x in enumerate((0.47, 0.23, 0.0, -0.23, -0.47, -0.7)):
        p.lineTo(x, -0.62 if i % 2 == 0 else -0.85)
    p.close()
    c.drawPath(p, stroke=1, fill=1)
    c.setFillColor("#000000")
    for x in (-0.25, 0.25):
        c.ellipse(x - 0.1, 0.2, x + 0.1, 0.48, stroke=0, fill=1)
    c.ellipse(-0.13, -0.25, 0.13, 0.05, stroke=0, fill=1)


# ---- ROLL for Your Life: cookie parts on the dice ----------------------------------------------

@icon("cookie_arm", "#c68642")
def _cookie_arm(c, fill, mono):
    """A gingerbread arm raised at an angle, a round hand, a line of icing."""
    _fill(c, fill, mono)
    c.saveState()
    c.rotate(30)
    c.roundRect(-0.95, -0.28, 1.6, 0.56, 0.28, stroke=1, fill=1)
    c.circle(0.7, 0, 0.34, stroke=1, fill=1)
    c.setStrokeColor("#000000" if mono else "#ffffff")
    c.setLineWidth(LW * 1.3)
    c.line(-0.55, -0.14, -0.55, 0.14)
    c.line(-0.3, -0.14, -0.3, 0.14)
    c.restoreState()


@icon("cookie_leg", "#c68642")
def _cookie_leg(c, fill, mono):
    """A gingerbread leg standing upright on a foot pointing right."""
    _fill(c, fill, mono)
    c.roundRect(-0.35, -0.75, 0.62, 1.7, 0.3, stroke=1, fill=1)
    c.roundRect(-0.35, -0.95, 1.15, 0.5, 0.24, stroke=1, fill=1)
    c.setStrokeColor("#000000" if mono else "#ffffff")
    c.setLineWidth(LW * 1.3)
    c.line(-0.22, 0.45, 0.14, 0.45)
    c.line(-0.22, 0.2, 0.14, 0.2)
