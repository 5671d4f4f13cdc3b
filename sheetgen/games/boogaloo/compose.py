"""Boogaloo sheets: content + layout -> one landscape page per sheet.

Left: the children in their grid (3 candy boxes each), a chocolate bar after every row and under
every column, then the Boo-nus track, the 13 turns and a short how-to-play. Right: the name line,
the stash with its points and stars, the score box.
"""

from __future__ import annotations

from ...errors import SheetgenError
from ...impose import nup
from ...kinds import Kind, Options
from ...scene import QR, Box, Circle, Icon, Item, Line, Page, Para, Style, Text
from ...widgets import heading, name_line, tint, variant_stamp
from ..rules_cards.source import rules_game, summary
from .board import PLAY_ORDER, WRITTEN, boonus_id, box_id, col_bar_id, row_bar_id, stash_id, stash_star_id, turn_id
from .model import BoogalooSheet, Sheet

PRODUCT = "ghosts-love-candy-too"
THIN = Style(width=0.3)
HEAD = 17.0  # header height, mm
PANEL_W = 86.0  # right panel width, mm
GAP = 2.5  # between child cells


def sheet_label(doc: BoogalooSheet, n: int) -> str:
    """'Sheet 1 of 4: Undercover' (n is 1-based)."""
    sheets = doc.content.sheets
    return f"Sheet {n} of {len(sheets)}: {sheets[n - 1].name}"


class Pen:
    """Colours for one page: real fills, or outlines only in ink-saver mode."""

    def __init__(self, doc: BoogalooSheet):
        self.ink = doc.layout.ink_saver
        self.accent = doc.layout.accent
        self.candy = {c.id: c for c in doc.content.candies}

    def fill(self, colour: str, amount: float) -> str:
        return "#ffffff" if self.ink else tint(colour, amount)

    def icon(self, name: str, cx: float, cy: float, size: float, id: str = "", fill: str | None = None) -> Icon:
        return Icon(name, cx, cy, size, id=id, fill=fill, mono=self.ink)

    def candy_icon(self, candy: str, cx: float, cy: float, size: float, id: str = "") -> Icon:
        c = self.candy[candy]
        return self.icon(c.icon, cx, cy, size, id=id, fill=c.colour)


def _arrow(x0: float, y0: float, x1: float, y1: float, id: str = "") -> list[Item]:
    """A thin arrow from (x0, y0) to (x1, y1) with a small head."""
    dx, dy = x1 - x0, y1 - y0
    n = (dx * dx + dy * dy) ** 0.5 or 1.0
    ux, uy = dx / n, dy / n
    h = 1.4
    head = ((x1, y1), (x1 - h * ux - h * 0.6 * uy, y1 - h * uy + h * 0.6 * ux),
            (x1 - h * ux + h * 0.6 * uy, y1 - h * uy - h * 0.6 * ux))
    grey = Style(stroke="#555555", fill="#555555", width=0.3)
    return [Line(((x0, y0), (x1 - h * ux, y1 - h * uy)), grey, id=id), Line(head, grey, closed=True)]


def _bar_circle(pen: Pen, cx: float, cy: float, id: str, points: int, r: float = 4.6) -> list[Item]:
    """A circle to mark with a chocolate bar in it and its points under it."""
    return [Circle(cx, cy, r, Style(width=0.45, fill="#ffffff"), id=id, writable=True),
            pen.icon("chocolate", cx, cy, r * 1.3),
            Text(cx, cy + r + 2.6, f"+{points}", 6.5, bold=True, align="center", color="#444444")]


def _child(pen: Pen, doc: BoogalooSheet, child, x: float, y: float, w: float, h: float) -> list[Item]:
    lay = doc.layout
    cid = f"child.{child.id}"
    band = 6.5
    items: list[Item] = [
        Box(x, y, w, h, Style(stroke=pen.accent, fill=pen.fill(pen.accent, 0.07), width=0.5), id=cid,
            radius=2.0),
        Box(x, y, w, band, Style(stroke=pen.accent, fill="#ffffff" if pen.ink else pen.accent, width=0.5),
            id=f"{cid}.band", radius=2.0),
        Text(x + w / 2, y + band - 1.9, child.name, 8.5 if len(child.name) < 15 else 7.5, bold=True,
             align="center", color="#000000" if pen.ink else "#ffffff", id=f"{cid}.name"),
    ]
    gap = 1.2
    bw, bh = lay.box_w, lay.box_h
    bx = x + (w - 3 * bw - 2 * gap) / 2
    by = y + band + (h - band - bh) / 2
    for n, box in enumerate(child.boxes, 1):
        colour = pen.candy[box.candy].colour
        left = bx + (n - 1) * (bw + gap)
        items += [Box(left, by, bw, bh, Style(width=0.4, fill=pen.fill(colour, 0.28)), id=box_id(child.id, n),
                      radius=1.2, writable=True),
                  pen.icon(f"die{box.die}", left + bw / 2, by + 4.3, 6.4),
                  pen.candy_icon(box.candy, left + bw / 2, by + bh - 5.2, 7.8)]
    return items


def _grid(pen: Pen, doc: BoogalooSheet, sheet: Sheet, w: float, top: float) -> tuple[list[Item], float]:
    """The children, the row bars to their right and the column bars under them; returns the
    items and the y where the grid block ends."""
    g = doc.content.grid
    lay = doc.layout
    bar_col = 13.0
    cell_w = (w - bar_col - (g.columns - 1) * GAP) / g.columns
    if cell_w < 3 * lay.box_w + 2 * 1.2 + 1.0:
        raise SheetgenError(f"{g.columns} children of 3 boxes {lay.box_w:g} mm wide do not fit across the page",
                            key="layout.box_w", fix="use narrower boxes or landscape paper")
    cell_h = 6.5 + lay.box_h + 3.2
    items: list[Item] = []
    bp = doc.content.bar_points
    for i, child in enumerate(sheet.children):
        r, c = divmod(i, g.columns)
        items += _child(pen, doc, child, c * (cell_w + GAP), top + r * (cell_h + GAP), cell_w, cell_h)
    right = g.columns * cell_w + (g.columns - 1) * GAP
    for r in range(g.rows):
        cy = top + r * (cell_h + GAP) + cell_h / 2 - 1.5
        items += _arrow(right + 0.6, cy, right + 3.4, cy)
        items += _bar_circle(pen, right + 8.4, cy, row_bar_id(r + 1), bp)
    bottom = top + g.rows * (cell_h + GAP) - GAP
    for c in range(g.columns):
        cx = c * (cell_w + GAP) + cell_w / 2
        items += _arrow(cx, bottom + 0.6, cx, bottom + 2.6)
        items += _bar_circle(pen, cx, bottom + 7.4, col_bar_id(c + 1), bp)
    items.append(Text(right + 8.4, bottom + 5.0, "Haunt a", 6.5, align="center", color="#444444"))
    items.append(Text(right + 8.4, bottom + 8.0, "whole row", 6.5, align="center", color="#444444"))
    items.append(Text(right + 8.4, bottom + 11.0, "or column", 6.5, align="center", color="#444444"))
    return items, bottom + 15.0


def _boonus(pen: Pen, doc: BoogalooSheet, x: float, y: float, w: float) -> list[Item]:
    items: list[Item] = [pen.icon("ghost", x + 3.0, y + 2.6, 6.0),
                         heading(x + 6.5, y + 4, "Boo-nus", 11, id="boonus.title"),
                         Text(x + 25.5, y + 4, "Each time you haunt a child (all 3 of its boxes checked), "
                              "cross the next reward, left to right.", 7.5, id="boonus.help")]
    r = 5.0
    n = len(doc.content.boonus)
    pitch = min(17.0, (w - 2 * r) / max(1, n - 1))
    cy = y + 13
    for k, reward in enumerate(doc.content.boonus, 1):
        cx = x + r + (k - 1) * pitch
        items.append(Circle(cx, cy, r, Style(width=0.45, fill="#ffffff"), id=boonus_id(k), writable=True))
        if reward == "star":
            items.append(pen.icon("star", cx, cy, 7.0))
        elif reward == "bar":
            items.append(pen.icon("chocolate", cx, cy, 6.5))
        label = {"star": "star", "bar": f"+{doc.content.bar_points}", "none": "nothing"}[reward]
        items.append(Text(cx, cy + r + 2.8, label, 6.5, bold=True, align="center", color="#444444"))
        if k < n:
            items += _arrow(cx + r + 0.8, cy, cx + pitch - r - 0.8, cy)
    return items


def _turns(x: float, y: float, w: float, turns: int) -> list[Item]:
    items: list[Item] = [heading(x, y + 4, "Turns", 11, id="track.title"),
                         Text(x + 15, y + 4, f"Check one after each turn; the game ends after turn {turns}.",
                              7.5, id="track.help")]
    size = 8.0
    pitch = min(11.0, (w - size) / (turns - 1))
    for t in range(1, turns + 1):
        bx = x + (t - 1) * pitch
        items.append(Box(bx, y + 7, size, size, THIN, id=turn_id(t), radius=1.0, writable=True))
        items.append(Text(bx + size / 2, y + 7 + size / 2 + 1.3, str(t), 9, bold=True, align="center",
                          color="#8a8a8a"))
    return items


def _stash(pen: Pen, doc: BoogalooSheet, x: float, y: float, w: float) -> tuple[list[Item], float]:
    st = doc.content.stash
    lay = doc.layout
    cols = len(st.points)
    icon_w, score_w = 9.0, 12.0
    pitch = min(10.4, (w - icon_w - score_w - 2) / cols)
    r = min(3.6, pitch / 2 - 0.5)
    items: list[Item] = [heading(x, y + 4, "Stash", 11, id="stash.title"),
                         Text(x + 14, y + 4, "Check the leftmost empty circle of the candy you collect.",
                              7, id="stash.help")]
    top = y + 8
    green = lay.points_colour
    for k, pts in enumerate(st.points, 1):
        cx = x + icon_w + (k - 0.5) * pitch
        items.append(Circle(cx, top + 3, 3.1, Style(stroke=green, fill="#ffffff" if pen.ink else green,
                                                    width=0.4), id=f"stash.points.{k}"))
        items.append(Text(cx, top + 4.2, str(pts), 8 if pts < 10 else 7.5, bold=True, align="center",
                          color=green if pen.ink else "#ffffff"))
    items.append(Text(x + icon_w + cols * pitch + 2 + score_w / 2, top + 4.2, "points", 6.5, align="center",
                      color="#444444"))
    row_h = 9.2
    rows_top = top + 7.5
    for i, candy in enumerate(doc.content.candies):
        cy = rows_top + i * row_h + row_h / 2
        colour = candy.colour
        items.append(Box(x, cy - row_h / 2 + 0.5, icon_w + cols * pitch, row_h - 1.0,
                         Style(stroke=None, fill=pen.fill(colour, 0.18)), radius=1.5))
        items.append(pen.candy_icon(candy.id, x + icon_w / 2, cy, 6.6, id=f"stash.{candy.id}"))
        for k in range(1, cols + 1):
            items.append(Circle(x + icon_w + (k - 0.5) * pitch, cy, r, Style(width=0.35, fill="#ffffff"),
                                id=stash_id(candy.id, k), writable=True))
        items.append(Box(x + icon_w + cols * pitch + 2, cy - 3.5, score_w, 7.0, THIN,
                         id=f"score.stash.{candy.id}", writable=True))
    stars_y = rows_top + len(doc.content.candies) * row_h + 5.0
    n_candies = len(doc.content.candies)
    for k, need in enumerate(st.needs, 1):
        cx = x + icon_w + (k - 0.5) * pitch
        items.append(Circle(cx, stars_y, r + 0.6, Style(width=0.45, fill="#ffffff"), id=stash_star_id(k),
                            writable=True))
        items.append(pen.icon("star", cx, stars_y, 2 * r + 0.4))
        text = f"all {need}" if need == n_candies else f"{need} row" + ("s" if need > 1 else "")
        items.append(Text(cx, stars_y + r + 3.4, text, 6.5, bold=True, align="center", color="#444444"))
    items.append(Text(x + icon_w + cols * pitch / 2, stars_y + r + 7.2,
                      "Star: when this many candy rows reach the column", 6.5, align="center",
                      color="#444444", id="stash.star.help"))
    return items, stars_y + r + 8.0


def _score(doc: BoogalooSheet, x: float, y: float, w: float) -> list[Item]:
    bp = doc.content.bar_points
    items: list[Item] = [heading(x, y + 4, "Score", 11, id="score.title")]
    rows = [("Stash (add the row points)", "score.stash", None),
            ("Chocolate bars:", "score.bars", f"x {bp} ="),
            ("Total", "score.total", None)]
    bw, bh = 16.0, 8.0
    for i, (label, id, mult) in enumerate(rows):
        ty = y + 8 + i * (bh + 2.5)
        last = i == len(rows) - 1
        items.append(Text(x, ty + bh / 2 + 1.2, label, 9 if last else 8, bold=last, id=f"{id}.label"))
        if mult:
            items.append(Box(x + w - 2 * bw - 14, ty, bw - 4, bh, THIN, id="score.bars.count", writable=True))
            items.append(Text(x + w - bw - 8, ty + bh / 2 + 1.2, mult, 8, align="center"))
        items.append(Box(x + w - bw, ty, bw, bh, Style(width=0.6 if last else 0.35), id=id, writable=True))
    return items


def compose_sheet(doc: BoogalooSheet, n: int, w: float, h: float) -> list[Item]:
    """Sheet number n (1-based) in a w x h area."""
    pen = Pen(doc)
    sheet = doc.content.sheets[n - 1]
    panel_x = w - PANEL_W
    left_w = panel_x - 5.0
    items: list[Item] = [
        Text(0, 9, doc.title, 22, bold=True, color=pen.accent if not pen.ink else "#000000", id="title"),
        Text(0, 15.2, f"Ghosts Love Candy Too · {rules_game('boogaloo').facts} · {doc.content.turns} turns"
             " · two dice and a pencil", 7.5, color="#444444", id="subtitle"),
    ]
    from ...draw import text_width_mm
    tx = text_width_mm(doc.title, 22, bold=True) + 1.5
    items.append(pen.icon("ghost", tx + 4, 5.2, 8.5, id="title.ghost"))
    items.append(Text(tx + 10, 9, sheet_label(doc, n), 11, bold=True, id="sheet.label"))
    items += name_line(panel_x, 9, PANEL_W)
    grid, bottom = _grid(pen, doc, sheet, left_w, HEAD + 1)
    items += grid
    items += _boonus(pen, doc, 0, bottom + 1, left_w)
    items += _turns(0, bottom + 23, left_w, doc.content.turns)
    para_top = bottom + 42
    items.append(Para(0, para_top, left_w, h - para_top - (16 if doc.variant else 0),
                      summary("boogaloo", bar=doc.content.bar_points)[0], 8, id="howto"))
    stash, stash_end = _stash(pen, doc, panel_x, HEAD + 1, PANEL_W)
    items += stash
    items += _score(doc, panel_x, stash_end + 3, PANEL_W)
    if doc.variant:
        items += variant_stamp(doc.variant, 0, h, w)
    else:
        q = 15.0
        items.append(QR(w - q, h - q, q, doc.content.qr, id="qr"))
        items.append(Para(panel_x, h - q, PANEL_W - q - 2, q, "Print more sheets:<br/>"
                          f"<i>{doc.content.qr}</i>", 6.5, align="right", valign="middle", id="qr.caption"))
    return items


def selected(doc: BoogalooSheet, opts: Options) -> list[int]:
    """The 1-based sheet numbers to print: all, or the one `--sheet` names."""
    count = len(doc.content.sheets)
    if opts.sheet is None:
        return list(range(1, count + 1))
    if not 1 <= opts.sheet <= count:
        raise SheetgenError(f"--sheet {opts.sheet} is out of range: this layout has {count} sheets",
                            key="sheet", fix=f"use 1 to {count}")
    return [opts.sheet]


def pages(doc: BoogalooSheet, opts: Options) -> list[Page]:
    lay = doc.layout
    out: list[Page] = []
    for _ in range(max(1, opts.copies)):
        for n in selected(doc, opts):
            out += nup(lambda w, h, i, n=n: compose_sheet(doc, n, w, h), 1, lay.paper, lay.orientation, 1,
                       lay.margin, label=f"{doc.title}: {sheet_label(doc, n)}")
    return out


KIND = Kind("boogaloo", BoogalooSheet, pages, product=PRODUCT, rules="sheetgen.games.boogaloo.rules",
            variant="sheetgen.games.boogaloo.variant", options=frozenset({"sheet"}), play_order=PLAY_ORDER,
            written=WRITTEN)
