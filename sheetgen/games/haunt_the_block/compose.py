"""Haunt the Block sheet: the block (a ring of spaces walked clockwise) around the stash, stars,
Boo-nus, chocolate bars and final score. Every mark a player makes has an element id."""

from __future__ import annotations

import math

from ...draw import fit_paragraph
from ...errors import SheetgenError
from ...impose import nup
from ...kinds import Kind, Options
from ...scene import Box, Circle, Icon, Item, Line, Page, Para, Style, Text
from ...widgets import heading, name_line, tint, variant_stamp
from ...paper import MM
from ..rules_cards.source import rules_game, summary
from . import board as ids
from .model import ACT_ORDER, SYMBOLS, HauntSheet, power_text

INK = "#000000"
SOFT = "#555555"
CHOC = "#6b3a1e"
THIN = Style(width=0.25)
MARK = Style(width=0.35, fill="#ffffff")
CAPTION = Style(stroke="#9a9a9a", fill="#f3f3f3", width=0.25)
GREEN = "#2a9d3f"
CAP_TOP = 15.0  # depth of a caption under/over a top/bottom child space, mm
CAP_SIDE = 30.0  # width of a caption beside a left/right child space, mm
R = 2.8  # radius of a circle a player marks (5.6 mm across)


def ring(n: int, across: int, w: float, h: float):
    """Centre and side ('top', 'right', 'bottom', 'left') of each of n spaces, clockwise from the
    top-left corner; plus the pitches along x and y."""
    rest = n - 2 * across
    right = math.ceil(rest / 2)
    left = rest - right
    px, py = w / across, h / (right + 2)
    spots = [((i + 0.5) * px, py / 2, "top") for i in range(across)]
    spots += [(w - px / 2, (j + 1.5) * py, "right") for j in range(right)]
    spots += [(w - (i + 0.5) * px, h - py / 2, "bottom") for i in range(across)]
    step = (h - 2 * py) / max(left, 1)
    spots += [(px / 2, h - py - (j + 0.5) * step, "left") for j in range(left)]
    return spots, px, py


def _arrow(a, b, half: float) -> Item:
    """A small grey triangle between two spaces, pointing the way you walk."""
    (x0, y0, _), (x1, y1, _) = a, b
    dx, dy = x1 - x0, y1 - y0
    d = math.hypot(dx, dy) or 1.0
    ux, uy = dx / d, dy / d
    mx, my = (x0 + x1) / 2, (y0 + y1) / 2
    s = 1.3
    pts = ((mx + ux * s, my + uy * s), (mx - ux * s - uy * s, my - uy * s + ux * s),
           (mx - ux * s + uy * s, my - uy * s - ux * s))
    return Line(pts, Style(stroke=None, fill="#8c8c8c"), closed=True)


def _block(doc: HauntSheet, w: float, h: float, ink: bool) -> tuple[list[Item], float, float]:
    """The path: spaces, arrows, child captions. Returns items and the ring pitches."""
    c, lay = doc.content, doc.layout
    spots, px, py = ring(len(c.path), lay.across, w, h)
    box = min(lay.space, px - 2.5, py - 2.5)
    candies = {k.id: k for k in c.candies}
    items: list[Item] = []
    for i, (sp, spot) in enumerate(zip(c.path, spots)):
        cx, cy, side = spot
        x, y = cx - box / 2, cy - box / 2
        pid = ids.path_id(i)
        items.append(_arrow(spot, spots[(i + 1) % len(spots)], box / 2))
        if sp.candy is not None:
            k = candies[sp.candy]
            fill = "#ffffff" if ink else tint(k.colour, 0.3)
            items.append(Box(x, y, box, box, Style(width=0.45, fill=fill), id=pid, radius=1.2,
                             writable=True))
            items.append(Icon(k.icon, x + 3.2, y + 3.2, 5.0, fill=k.colour, mono=ink))
            if sp.start:
                items.append(Icon("start", x + box - 3.0, y + 3.2, 4.6, id=ids.start_id(i), mono=ink))
        else:
            ch = c.child(sp.child)
            items.append(Box(x, y, box, box, Style(width=0.9, fill="#ffffff"), id=pid, radius=1.2,
                             writable=True))
            items.append(Icon(ch.emblem, x + 3.2, y + 3.2, 5.0, mono=ink))
            if ch.emblem != ch.symbol:
                items.append(Icon(ch.symbol, x + box - 3.0, y + 3.2, 4.2, mono=ink))
            items.append(Text(cx, y + box - 1.2, ch.name, 6, bold=True, align="center", color=SOFT,
                              id=ids.space_child_id(i)))  # whose space it is, under the number
            items += _caption(doc, ch, cx, cy, side, box, px, py, w, h)
    return items, px, py


def _caption(doc, ch, cx, cy, side, box, px, py, w, h) -> list[Item]:
    """Name and power of a child, inside the block next to its space; moons get their use circles."""
    moon = ch.power in ACT_ORDER  # a moon whose power is switched off has no use circles
    if side in ("top", "bottom"):
        cw, chh = 2 * px - 1.5, CAP_TOP - 1.0
        x = min(max(cx - cw / 2, px + 0.5), w - px - 0.5 - cw)
        y = py + 0.5 if side == "top" else h - py - 0.5 - chh
    else:
        cw, chh = CAP_SIDE - 1.0, py - 1.0
        x = px + 0.5 if side == "left" else w - px - 0.5 - cw
        y = cy - chh / 2
    # a short stalk from the space to its caption
    if side in ("top", "bottom"):
        edge = cy + (box / 2 if side == "top" else -box / 2)
        stalk = ((cx, edge), (cx, y if side == "top" else y + chh))
    else:
        edge = cx + (box / 2 if side == "left" else -box / 2)
        stalk = ((edge, cy), (x if side == "left" else x + cw, cy))
    items: list[Item] = [Line(stalk, Style(stroke="#9a9a9a", width=0.5)),
                         Box(x, y, cw, chh, CAPTION, id=ids.child_caption_id(ch.id), radius=1.0)]
    circles = 2 * R + 1.0 if moon else 0.0
    text_w = cw - 2.0 - (circles * doc.content.uses if moon else 0)
    text_h = chh - 1.4
    partner = next((k.name for k in doc.content.children if k.power == "sweetheart" and k is not ch),
                   "the other heart")
    items.append(Para(x + 1.0, y + 0.7, text_w, text_h, f"<b>{ch.name}</b><br/>{power_text(ch, partner)}",
                      size=7.0, id=ids.child_text_id(ch.id)))
    if moon:
        for u in range(doc.content.uses):
            ccx, ccy = x + cw - 1.0 - R - u * (2 * R + 1.2), y + chh / 2
            items.append(Circle(ccx, ccy, R, MARK, id=ids.power_id(ch.id, doc.content.uses - u - 1),
                                writable=True))
    return items


def _stash(doc: HauntSheet, x: float, y: float, w: float, ink: bool) -> tuple[list[Item], float]:
    c = doc.content
    ncol = len(c.points)
    items: list[Item] = [heading(x, y + 3.5, "STASH", 9, id=ids.title_id("stash")),
                         Text(x + 15, y + 3.5, "check the leftmost empty circle of a candy's row",
                              6.5, color=SOFT)]
    label = 8.5
    pitch = min(9.0, (w - label - 28) / ncol)
    y += 6.0
    for k, p in enumerate(c.points):
        cx = x + label + (k + 0.5) * pitch
        items.append(Circle(cx, y + 2.8, 2.9, Style(stroke=GREEN, width=0.4, fill="#ffffff" if ink
                                                     else tint(GREEN, 0.25)), id=ids.column_points_id(k)))
        items.append(Text(cx, y + 3.9, str(p), 7, bold=True, align="center"))
    y += 6.4
    row = 7.6
    for r, k in enumerate(c.candies):
        cy = y + r * row + row / 2
        items.append(Icon(k.icon, x + 3.2, cy, 6.0, id=ids.stash_icon_id(k.id), fill=k.colour, mono=ink))
        for col in range(ncol):
            cx = x + label + (col + 0.5) * pitch
            items.append(Circle(cx, cy, 3.3, Style(width=0.3, fill="#ffffff" if ink else
                                                  tint(k.colour, 0.18)),
                                id=ids.stash_id(k.id, col), writable=True))
    y += len(c.candies) * row + 0.8
    for k, t in enumerate(c.thresholds):
        cx = x + label + (k + 0.5) * pitch
        if k not in c.star_columns:  # the column's star is switched off: a dash, nothing to circle
            items.append(Text(cx, y + 9.0, "\u2013", 7, bold=True, align="center", color=SOFT,
                              id=ids.column_need_id(k)))
            continue
        items.append(Circle(cx, y + 3.2, 3.3, MARK, id=ids.column_star_id(k), writable=True))
        items.append(Icon("star", cx, y + 3.2, 4.6, mono=ink))
        items.append(Text(cx, y + 9.0, f"{t}", 7, bold=True, align="center", id=ids.column_need_id(k)))
    items.append(Text(x + label - 1.0, y + 9.0, "rows:", 6.5, align="right", color=SOFT))
    items.append(Para(x + label + ncol * pitch + 1.5, y - 0.5, w - label - ncol * pitch - 1.5, 11,
                      "When this many rows reach a column, circle its star and a star in Stars.",
                      size=6.5))
    return items, y + 11.0


def _stars(doc: HauntSheet, x: float, y: float, w: float, ink: bool) -> tuple[list[Item], float]:
    c = doc.content
    items: list[Item] = [heading(x, y + 3.5, "STARS", 9, id=ids.title_id("stars")),
                         Text(x + 15, y + 3.5, "cross out a circled star: +1 or -1 on a die (never "
                              "below 1)", 6.5, color=SOFT)]
    y += 5.5
    pitch = min(9.0, (w - 22.0) / c.stars)  # one circle per star that can be earned
    for k in range(c.stars):
        cx = x + 4 + k * pitch
        pre = k < c.start_stars
        items.append(Icon("star", cx, y + 4, 6.0, id=ids.star_icon_id(k), mono=ink))
        items.append(Circle(cx, y + 4, 3.7, Style(width=0.7 if pre else 0.2, stroke=INK if pre else
                                                   "#9a9a9a", dash=None if pre else (0.8, 0.8)),
                            id=ids.star_id(k), writable=True))
    bx = x + 4 + c.stars * pitch + 1
    items += _bar(bx, y + 4, ids.STARS_BAR, ink)
    items.append(Para(bx + 5, y + 0.3, w - (bx + 5 - x), 8, f"All {c.stars} stars circled (used or "
                      "not)", size=6.5, valign="middle"))
    return items, y + 9.5


def _bar(cx: float, cy: float, eid: str, ink: bool) -> list[Item]:
    """A chocolate bar worth points, inside a circle the player circles."""
    return [Circle(cx, cy, 3.7, Style(width=0.3, fill="#ffffff"), id=eid, writable=True),
            Icon("chocolate", cx, cy, 5.2, fill=CHOC, mono=ink)]


def _boonus(doc: HauntSheet, x: float, y: float, w: float, ink: bool) -> tuple[list[Item], float]:
    c = doc.content
    cols = max(len(c.of_symbol(s)) for s in SYMBOLS)
    items: list[Item] = [heading(x, y + 3.5, "BOO-NUS", 9, id=ids.title_id("boonus")),
                         Text(x + 18, y + 3.5, "a child's space: check its symbol, left to right",
                              6.5, color=SOFT)]
    y += 6.0
    pitch, row = 9.0, 7.4
    for r, s in enumerate(SYMBOLS):
        cy = y + r * row + row / 2
        for k in range(len(c.of_symbol(s))):
            cx = x + 4 + k * pitch
            items.append(Circle(cx, cy, 3.2, THIN, id=ids.boonus_id(s, k), writable=True))
            items.append(Icon(s, cx, cy, 4.6, mono=ink))
    y += 3 * row
    for k in range(cols):
        items += _bar(x + 4 + k * pitch, y + 4.2, ids.boonus_bar_id(k), ink)
    px = x + 4 + cols * pitch
    items.append(Para(px, y - 3 * row + 1, w - (px - x), 3 * row + 8,
                      "A full column (one of each symbol) earns the chocolate bar under it.",
                      size=6.5, valign="middle"))
    return items, y + 9.5


def _bars(doc: HauntSheet, x: float, y: float, w: float, ink: bool) -> tuple[list[Item], float]:
    c = doc.content
    items: list[Item] = [heading(x, y + 3.5, "CHOCOLATE BARS", 9, id=ids.title_id("bars")),
                         Text(x + 33, y + 3.5, f"{c.bar_points} points each", 6.5, color=SOFT)]
    y += 5.5
    sweet = [k for k in c.children if k.power == "sweetheart"]
    entries = []
    if sweet:
        entries.append((ids.SWEET_BAR, "heart", " & ".join(k.name for k in sweet)))
    entries.append((ids.PUMPKINS_BAR, "pumpkin", f"All {c.pumpkins} pumpkins"))
    step = w / len(entries)
    for n, (eid, icon, label) in enumerate(entries):
        ex = x + n * step
        items.append(Icon(icon, ex + 3, y + 4, 5.0, mono=ink))
        items.append(Text(ex + 6.5, y + 5.2, "→", 8, color=SOFT))
        items += _bar(ex + 13.5, y + 4, eid, ink)
        items.append(Para(ex + 18, y + 0.3, step - 19, 8, label, size=6.5, valign="middle"))
    return items, y + 9.5


def _score(doc: HauntSheet, x: float, y: float, w: float, ink: bool) -> tuple[list[Item], float]:
    c = doc.content
    items: list[Item] = [heading(x, y + 3.5, "FINAL SCORE", 9, id=ids.title_id("score")),
                         Text(x + 25, y + 3.5, "penalty: cross out a candy here, its row scores 0",
                              6.5, color=SOFT)]
    y += 5.5
    n = len(c.candies)
    cell = min(11.0, (w - 30) / n)
    for i, k in enumerate(c.candies):
        cx = x + (i + 0.5) * cell
        items.append(Circle(cx, y + 3.6, 3.4, Style(width=0.35, fill="#ffffff"), id=ids.penalty_id(k.id),
                            writable=True))
        items.append(Icon(k.icon, cx, y + 3.6, 4.8, fill=k.colour, mono=ink))
        items.append(Box(cx - cell / 2 + 0.6, y + 8.0, cell - 1.2, 7.5, THIN, id=ids.score_id(k.id),
                         writable=True))
    bx = x + n * cell + 1.5
    items.append(Text(bx + 1.5, y + 13.2, "+", 8, align="center", color=SOFT))
    items.append(Box(bx + 3.5, y + 8.0, 10.5, 7.5, THIN, id=ids.score_id("bars"), writable=True))
    items.append(Text(bx + 8.75, y + 6.5, f"bars × {c.bar_points}", 6.5, align="center"))
    items.append(Text(bx + 16, y + 13.2, "=", 8, align="center", color=SOFT))
    tw = max(11.0, x + w - (bx + 18))
    items.append(Box(bx + 18, y + 7.0, tw, 9.5, Style(width=0.8), id=ids.score_id("total"), writable=True))
    items.append(Text(bx + 18 + tw / 2, y + 5.5, "TOTAL", 7, bold=True, align="center"))
    return items, y + 17.5


def _how(doc: HauntSheet, x: float, y: float, w: float, ink: bool,
         bottom: float | None = None) -> tuple[list[Item], float]:
    """The rules in a nutshell, so the sheet plays without the rulebook; above `bottom` (a
    variant's QR code) it is set a little smaller when it would run into it."""
    c = doc.content
    moons = sorted((k for k in c.children if k.power in ACT_ORDER), key=lambda k: ACT_ORDER.index(k.power))
    chain = ("in this order: " + ", then ".join(k.name for k in moons) if c.power_order == "printed"
             else "in any order you like")
    text = summary("haunt-the-block", uses=c.uses, chain=chain, last=c.turns)[0]
    probe = Para(x, y, w, 200, text, size=7.5, id="how")
    _, hpt, _ = fit_paragraph(probe)
    h = hpt / MM + 1.0
    if bottom is not None and y + h > bottom:
        h = bottom - y
    return [Para(x, y, w, h, text, size=7.5, min_size=6.5, id="how")], y + h


def _title(doc: HauntSheet, x: float, y: float, w: float, ink: bool) -> tuple[list[Item], float]:
    line = (f"Ghosts Love Candy Too · {rules_game('haunt-the-block').facts} · {doc.content.turns} turns"
            " · two dice, a pencil")
    return [heading(x, y + 5.5, doc.title, 16, id="title"),  # the subtitle wraps inside its column
            Para(x, y + 7.0, w, 5.6, line, size=6.5, min_size=6.0, color=SOFT, id="subtitle"),
            *name_line(x, y + 16.5, w, size=8)], y + 18.0


def _stack(doc: HauntSheet, parts, x: float, top: float, bottom: float, w: float,
           ink: bool) -> list[Item]:
    """Sections one under another, the spare height shared out between them (at most 7 mm each)."""
    heights = [fn(doc, x, 0.0, w, ink)[1] for fn in parts]
    gap = min(7.0, max(1.0, (bottom - top - sum(heights)) / max(1, len(parts) - 1)))
    items: list[Item] = []
    y = top
    for fn, h in zip(parts, heights):
        items += fn(doc, x, y, w, ink)[0]
        y += h + gap
    return items


def compose_sheet(doc: HauntSheet, w: float, h: float, ink: bool) -> list[Item]:
    items, px, py = _block(doc, w, h, ink)
    x0, y0 = px + CAP_SIDE + 1.5, py + CAP_TOP + 1.0
    x1, y1 = w - px - CAP_SIDE - 1.5, h - py - CAP_TOP - 1.0
    iw = x1 - x0
    lw = iw * 0.5
    rx, rw = x0 + lw + 5, iw - lw - 5
    if lw < 70 or y1 - y0 < 110:
        raise SheetgenError(f"the block leaves {iw:.0f}x{y1 - y0:.0f} mm inside; the sheet needs "
                            "about 150x110", key="layout.across",
                            fix="use fewer spaces across, smaller spaces or a landscape page")
    bottom = y1 - (16 if doc.variant else 0)
    items += _stack(doc, [_title, _stash, _stars], x0, y0, y1, lw, ink)
    how = (lambda d, x, y, w, i: _how(d, x, y, w, i, bottom)) if doc.variant else _how
    items += _stack(doc, [_boonus, _bars, _score, how], rx, y0, bottom, rw, ink)
    if doc.variant:
        items += variant_stamp(doc.variant, x0, y1, iw)
    return items


def pages(doc: HauntSheet, opts: Options) -> list[Page]:
    lay = doc.layout
    n = len(doc.content.path)
    if not 2 * lay.across < n - 1:
        raise SheetgenError(f"across = {lay.across} leaves no sides for {n} spaces",
                            key="layout.across", fix=f"use at most {(n - 2) // 2 - 1}")
    return nup(lambda w, h, i: compose_sheet(doc, w, h, lay.ink_saver), max(1, opts.copies),
               lay.paper, lay.orientation, 1, lay.margin, label=doc.title)


KIND = Kind("haunt-the-block", HauntSheet, pages, product="ghosts-love-candy-too",
            rules="sheetgen.games.haunt_the_block.rules",
            variant="sheetgen.games.haunt_the_block.variant", play_order=ids.PLAY_ORDER, written=ids.WRITTEN)
