"""Tricky Treats sheet: content + layout -> one scene page (landscape).

Left: title, the six children in two rows of three (number square, name, scare circles, power
symbols bracketed to their boxes, six candy boxes, Boo-nus symbol bracketed below), then the
how-to-play summary and the score box. Right: the turn track, the stash with its rewards, the
CAULDRON and PYRAMID sections and the Boo-nus section.
"""

from __future__ import annotations

from ...draw import fit_paragraph
from ...errors import SheetgenError
from ...impose import nup
from ...kinds import Kind, Options
from ...scene import Box, Circle, Icon, Item, Line, Page, Para, Style, Text
from ...widgets import heading, name_line, tint, variant_stamp
from ..rules_cards.source import rules_game, summary
from . import board as B
from .model import IMMEDIATE, TrickySheet

INK = "#000000"
SOFT = "#555555"
PANEL = Style(stroke="#444444", fill="#f6f2fa", width=0.35)
BRACKET = Style(stroke="#333333", width=0.35)
CHOC = "#6b3a1e"
STASH_PTS = "#2a9d3f"
RIGHT_W = 86.0
GAP = 1.2


def _symbol_frame(cx: float, cy: float, size: float, square: bool, sid: str) -> Item:
    """Square for powers used at once; a faint circle guide for the others (the player circles it)."""
    half = size / 2 + 0.9
    if square:
        return Box(cx - half, cy - half, 2 * half, 2 * half, Style(width=0.45), id=f"{sid}.frame")
    return Circle(cx, cy, half, Style(stroke="#9a9a9a", width=0.25, dash=(0.8, 0.8)), id=f"{sid}.frame")


def _bracket(xs: list[float], y_line: float, y_end: float, x_sym: float, y_sym: float) -> list[Item]:
    """A line from a symbol to a bar, with one tick per linked box (up or down)."""
    out: list[Item] = [Line(((x_sym, y_sym), (x_sym, y_line)), BRACKET)]
    lo, hi = min(xs + [x_sym]), max(xs + [x_sym])
    out.append(Line(((lo, y_line), (hi, y_line)), BRACKET))
    for x in xs:
        out.append(Line(((x, y_line), (x, y_end)), BRACKET))
    return out


def _child(doc: TrickySheet, ch, x: float, y: float, w: float, h: float, ink: bool) -> list[Item]:
    c = doc.content
    pid = B.id_child(ch.id)
    items: list[Item] = [Box(x, y, w, h, PANEL if not ink else Style(width=0.35), id=pid, radius=2.5)]
    # header: number in a black square, name, scare circles (the third with a skull)
    sq = 8.5
    items.append(Box(x + 2, y + 2, sq, sq, Style(stroke=INK, fill=INK), id=f"{pid}.number"))
    items.append(Text(x + 2 + sq / 2, y + 2 + sq / 2 + 1.8, str(ch.number), 14, bold=True,
                      align="center", color="#ffffff", id=f"{pid}.number.text"))
    items.append(Text(x + 2 + sq + 2, y + 8.2, ch.name, 11.5, bold=True, id=f"{pid}.name"))
    r = 2.75
    for j in range(3):
        cx = x + w - 2 - r - (2 - j) * (2 * r + 1.0)
        items.append(Circle(cx, y + 2 + sq / 2, r, Style(width=0.35, fill="#ffffff"),
                            id=B.id_scare(ch.id, j + 1), writable=True))
        if j == 2:
            items.append(Icon("skull", cx, y + 2 + sq / 2, 3.9, id=f"{B.id_scare(ch.id, 3)}.skull",
                              fill="#e0e0e0", mono=ink))
    items.append(Text(x + w - 2 - 1.5 * (2 * r + 1.0), y + 2 + sq / 2 + r + 3.0, "scare", 6.5,
                      align="center", color=SOFT, id=f"{pid}.scare.label"))
    # candy boxes for die values 1..6
    box = min(doc.layout.box, (w - 4 - 5 * GAP) / 6)
    bx0 = x + (w - (6 * box + 5 * GAP)) / 2
    bh = box * 1.55
    by = y + 29.0
    centres = [bx0 + i * (box + GAP) + box / 2 for i in range(6)]
    for v in range(1, 7):
        candy = c.candy(ch.boxes[v - 1])
        bx = bx0 + (v - 1) * (box + GAP)
        fill = "#ffffff" if ink else tint(candy.colour, 0.35)
        items.append(Box(bx, by, box, bh, Style(width=0.4, fill=fill), id=B.id_box(ch.id, v),
                         writable=True, radius=0.8))
        items.append(Text(bx + box / 2, by + 3.4, str(v), 9, bold=True, align="center",
                          id=f"{B.id_box(ch.id, v)}.value"))
        items.append(Icon(candy.icon, bx + box / 2, by + bh - box * 0.48, box * 0.78,
                          id=f"{B.id_box(ch.id, v)}.candy", fill=candy.colour, mono=ink))
    # power symbols above, each bracketed to its boxes (spread out if their boxes interleave)
    sym = 7.4
    sy = y + 18.0
    square = ch.power in IMMEDIATE
    groups = [[centres[v - 1] for v in link.boxes] for link in ch.powers]
    xs_sym = [sum(xs) / len(xs) for xs in groups]
    spans = sorted((min(xs), max(xs)) for xs in groups)
    interleaved = any(b[0] < a[1] for a, b in zip(spans, spans[1:]))
    if interleaved or any(abs(p - q) < sym + 2 for i, p in enumerate(xs_sym) for q in xs_sym[i + 1:]):
        n = len(groups)
        xs_sym = [bx0 + (6 * box + 5 * GAP) * (2 * j + 1) / (2 * n) for j in range(n)]
    for j, (xs, sx) in enumerate(zip(groups, xs_sym), 1):
        sid = B.id_power(ch.id, j)
        level = (j - 1) * 1.3 if interleaved else 0.0
        items += _bracket(xs, by - 2.0 - level, by, sx, sy + sym / 2 + 1.0)
        items.append(_symbol_frame(sx, sy, sym, square, sid))
        items.append(Icon(ch.power, sx, sy, sym, id=sid, mono=ink))
    # Boo-nus symbol below, bracketed to its boxes
    xs = [centres[v - 1] for v in ch.boonus.boxes]
    bsx = sum(xs) / len(xs)
    bsy = by + bh + 8.0
    items += _bracket(xs, by + bh + 2.0, by + bh, bsx, bsy - sym / 2 - 1.0)
    items.append(Icon(ch.boonus.symbol, bsx, bsy, sym, id=B.id_boonus_symbol(ch.id), mono=ink))
    left = bsx > x + w / 2
    items.append(Text(bsx + (-1 if left else 1) * (sym / 2 + 1.5), bsy + 1.0, "Boo-nus", 6.5, color=SOFT,
                      align="right" if left else "left", id=f"{B.id_boonus_symbol(ch.id)}.label"))
    # the power in a few words (a child whose power is switched off has none to print)
    if not ch.powers:
        return items
    pt = c.power_texts[ch.power]
    rule = "used at once" if square else "circle it when unlocked; cross it out to use it"
    items.append(Para(x + 2.5, bsy + 4.6, w - 5, y + h - (bsy + 4.6) - 1.0,
                      f"<b>{pt.name}</b> ({rule}): {pt.text}", 8.0, id=f"{pid}.power.text"))
    return items


def _track(doc: TrickySheet, x: float, y: float, w: float) -> tuple[list[Item], float]:
    n = doc.content.turns
    per_row = (n + 1) // 2
    cell = min(8.0, (w - (per_row - 1) * 1.4) / per_row)
    items: list[Item] = [heading(x, y + 3.5, "TURNS", 9, id="track.title"),
                         Text(x + 16, y + 3.5, "check one at the end of each turn", 7, color=SOFT,
                              id="track.hint")]
    for t in range(1, n + 1):
        row, col = divmod(t - 1, per_row)
        cx, cy = x + col * (cell + 1.4), y + 5.5 + row * (cell + 1.4)
        items.append(Box(cx, cy, cell, cell, Style(width=0.35), id=B.id_turn(t), writable=True,
                         radius=1.0))
        items.append(Text(cx + 1.0, cy + 2.6, str(t), 6, color="#888888", id=f"{B.id_turn(t)}.n"))
    return items, 5.5 + 2 * cell + 1.4


def _stash(doc: TrickySheet, x: float, y: float, w: float, ink: bool) -> tuple[list[Item], float]:
    c = doc.content
    items: list[Item] = [heading(x, y + 3.5, "STASH", 9, id="stash.title"),
                         Text(x + 16, y + 3.5, "check the leftmost empty circle of the candy", 7,
                              color=SOFT, id="stash.hint")]
    col = (w - 9) / 7
    r = 2.9
    x0 = x + 9
    yp = y + 9.5
    for i, pts in enumerate(c.stash.points, 1):
        cx = x0 + (i - 0.5) * col
        items.append(Circle(cx, yp, 3.3, Style(stroke=STASH_PTS, fill=STASH_PTS if not ink else "#ffffff",
                                                 width=0.35), id=f"stash.points.{i}.circle"))
        items.append(Text(cx, yp + 1.2, str(pts), 8, bold=True, align="center",
                          color="#ffffff" if not ink else INK, id=f"stash.points.{i}"))
    row_h = 7.0
    for k, candy in enumerate(c.candies):
        cy = yp + 6.5 + k * row_h + row_h / 2
        if not ink:
            items.append(Box(x, cy - row_h / 2 + 0.3, w, row_h - 0.6,
                             Style(stroke=None, fill=tint(candy.colour, 0.18)), id=f"stash.{candy.id}.band"))
        items.append(Icon(candy.icon, x + 4, cy, 5.6, id=f"stash.{candy.id}.icon", fill=candy.colour,
                          mono=ink))
        for i in range(1, 8):
            items.append(Circle(x0 + (i - 0.5) * col, cy, r, Style(width=0.35, fill="#ffffff"),
                                id=B.id_stash(candy.id, i), writable=True))
    yr = yp + 6.5 + 6 * row_h + 1.5
    items.append(Text(x, yr + 4.0, "reward", 6.5, color=SOFT, id="stash.reward.label"))
    items.append(Text(x, yr + 12.6, "needs", 6.5, color=SOFT, id="stash.needs.label"))
    for i, rew in enumerate(c.stash.rewards, 1):
        cx = x0 + (i - 0.5) * col
        if rew.kind == "none":  # switched off: an empty slot and a dash
            items.append(Text(cx, yr + 13.2, "\u2013", 8, bold=True, align="center", color=SOFT,
                              id=f"stash.reward.{i}.needs"))
            continue
        if rew.kind == "star":
            items.append(Icon("star", cx, yr + 4.6, 6.2, id=B.id_reward(i, "star"), mono=ink))
        else:
            items.append(Icon("cauldron", cx, yr + 2.1, 4.2, id=B.id_reward(i, "cauldron"), mono=ink))
            items.append(Text(cx, yr + 6.0, "or", 6, align="center", color=SOFT, id=f"stash.reward.{i}.or"))
            items.append(Icon("pyramid", cx, yr + 8.6, 4.2, id=B.id_reward(i, "pyramid"), mono=ink))
        items.append(Text(cx, yr + 13.2, f"{rew.needs}", 8, bold=True, align="center",
                          id=f"stash.reward.{i}.needs"))
    return items, yr + 14.5 - y


def _cauldron(doc: TrickySheet, x: float, y: float, w: float, ink: bool) -> tuple[list[Item], float]:
    c = doc.content
    items: list[Item] = [Icon("cauldron", x + 2.5, y + 2.3, 5, id="cauldron.icon", mono=ink),
                         heading(x + 6, y + 3.5, "CAULDRON", 9, id="cauldron.title")]
    per_row = 3
    cell = 8.0
    for i, cid in enumerate(c.cauldron, 1):
        row, col = divmod(i - 1, per_row)
        bx, by = x + col * (cell + 1.6), y + 6 + row * (cell + 1.6)
        candy = c.candy(cid)
        items.append(Box(bx, by, cell, cell, Style(width=0.4, fill="#ffffff" if ink else tint(candy.colour, 0.35)),
                         id=B.id_cauldron(i), writable=True, radius=0.8))
        items.append(Icon(candy.icon, bx + cell / 2, by + cell / 2, cell * 0.7, fill=candy.colour, mono=ink,
                          id=f"{B.id_cauldron(i)}.candy"))
    rows = (len(c.cauldron) + per_row - 1) // per_row
    items.append(Para(x, y + 6 + rows * (cell + 1.6), w, 7.5,
                      "Check one of your choice; stash its candy.", 6.5, id="cauldron.hint"))
    return items, 6 + rows * (cell + 1.6) + 7.5


def _bar(cx: float, cy: float, sid: str, ink: bool) -> list[Item]:
    """A chocolate bar to circle: a writable circle around the chocolate icon."""
    return [Circle(cx, cy, 3.4, Style(width=0.35, fill="#ffffff"), id=sid, writable=True),
            Icon("chocolate", cx, cy, 4.6, fill=CHOC, mono=ink, id=f"{sid}.icon")]


def _pyramid(doc: TrickySheet, x: float, y: float, w: float, ink: bool) -> tuple[list[Item], float]:
    levels = doc.content.pyramid
    items: list[Item] = [Icon("pyramid", x + 2.5, y + 2.3, 5, id="pyramid.icon", mono=ink),
                         heading(x + 6, y + 3.5, "PYRAMID", 9, id="pyramid.title")]
    cell = 7.0
    widest = max(levels) * (cell + 1.0)
    n = 0
    yb = y + 6 + len(levels) * (cell + 1.0)
    for lv, count in enumerate(levels, 1):
        ly = yb - lv * (cell + 1.0)
        lx = x + (widest - count * (cell + 1.0)) / 2
        for i in range(count):
            n += 1
            items.append(Box(lx + i * (cell + 1.0), ly, cell, cell,
                             Style(width=0.4, fill="#ffffff" if ink else "#f7e7b4"),
                             id=B.id_pyramid(n), writable=True))
        items += _bar(x + widest + 5.5, ly + cell / 2, B.id_pyramid_bar(lv), ink)
    items.append(Para(x, yb + 0.5, w, 7.5, "Bottom level first; a full level earns a bar.", 6.5,
                      id="pyramid.hint"))
    return items, yb + 8 - y


def _boonus(doc: TrickySheet, x: float, y: float, w: float, ink: bool) -> tuple[list[Item], float]:
    c = doc.content
    items: list[Item] = [heading(x, y + 3.5, "BOO-NUS", 9, id="boonus.title"),
                         Text(x + 20, y + 3.5, "full column: circle its bar · full row: one action", 6.5,
                              color=SOFT, id="boonus.hint")]
    rows = c.boonus_rows()
    cols = max(n for _, n in rows)
    cell = 7.5
    x0 = x + 2
    for r, (symbol, n) in enumerate(rows):
        ry = y + 6 + r * (cell + 1.4)
        for j in range(1, n + 1):
            bx = x0 + (j - 1) * (cell + 1.4)
            items.append(Box(bx, ry, cell, cell, Style(width=0.4, fill="#ffffff"), id=B.id_boonus_cell(symbol, j),
                             writable=True, radius=1.0))
            items.append(Icon(symbol, bx + cell / 2, ry + cell / 2, cell * 0.7, id=f"{B.id_boonus_cell(symbol, j)}.icon",
                              mono=ink))
        ax = x0 + cols * (cell + 1.4) + 3
        items.append(Text(ax, ry + cell / 2 + 1.1, "row:", 6.5, color=SOFT, id=f"{B.id_boonus_row(symbol)}.label"))
        ax += 6
        aw = len(c.boonus_actions) * 6.5 + 1.0
        items.append(Box(ax - 0.5, ry + 0.5, aw, cell - 1.0, Style(width=0.3, dash=(0.8, 0.6)),
                         id=B.id_boonus_row(symbol), radius=1.0))
        for i, act in enumerate(c.boonus_actions):
            items.append(Icon(act, ax + 3.0 + i * 6.5, ry + cell / 2, 5.0, mono=ink,
                              id=f"{B.id_boonus_row(symbol)}.{act}"))
        items.append(Text(ax + aw + 1.5, ry + cell / 2 + 1.1, "choose one", 6.5, color=SOFT,
                          id=f"{B.id_boonus_row(symbol)}.hint"))
    yb = y + 6 + len(rows) * (cell + 1.4) + 3.4
    for j in range(1, cols + 1):
        items += _bar(x0 + (j - 1) * (cell + 1.4) + cell / 2, yb, B.id_boonus_bar(j), ink)
    return items, yb + 4 - y


def _score(doc: TrickySheet, x: float, y: float, w: float) -> list[Item]:
    c = doc.content
    items: list[Item] = [heading(x, y + 3.5, "SCORE", 9, id="score.title")]
    parts = [("stash", "Stash", ""), ("bars", "Bars", f"× {c.points_bar}"),
             ("scared", "Scared", f"× −{c.points_scared}"), ("total", "Total", "")]
    bw = 11.0
    step = (w - 2) / 4
    for i, (key, label, mult) in enumerate(parts):
        bx = x + i * step
        items.append(Text(bx, y + 9, label, 7.5, bold=True, id=f"score.{key}.label"))
        items.append(Box(bx, y + 10.5, bw, 9, Style(width=0.5 if key == "total" else 0.35),
                         id=f"score.{key}", writable=True, radius=1.0))
        if mult:
            items.append(Text(bx + bw + 1.0, y + 16.2, mult, 7.5, id=f"score.{key}.mult"))
    items.append(Text(x, y + 24.5, "Tie: the player whose stash reaches furthest toward column 7 wins.",
                      6.5, color=SOFT, id="score.tie"))
    return items


def _fits(p: Para) -> bool:
    try:
        fit_paragraph(p)
    except SheetgenError:
        return False
    return True


def compose_sheet(doc: TrickySheet, w: float, h: float, ink: bool) -> list[Item]:
    c = doc.content
    items: list[Item] = []
    left_w = w - RIGHT_W - 5
    rx = left_w + 5
    items.append(heading(0, 8, doc.title, 20, id="title"))
    how_to, rewards_text = summary("tricky-treats", turns=c.turns)
    items.append(Text(0, 14, f"Ghosts Love Candy Too · {rules_game('tricky-treats').facts} · {c.turns} turns"
                      " · two dice and a pencil", 8, color=SOFT, id="subtitle"))
    items += name_line(left_w - 78, 8, 78)
    top = 18.0
    bottom = 30.0
    foot = 5.0 if doc.variant is not None else 0.0  # the variant's line along the bottom
    pw = (left_w - 2 * 3) / 3
    ph = (h - top - bottom - foot - 3) / 2
    order = sorted(c.children, key=lambda ch: ch.number)
    for i, ch in enumerate(order):
        row, col = divmod(i, 3)
        items += _child(doc, ch, col * (pw + 3), top + row * (ph + 3), pw, ph, ink)
    by = top + 2 * ph + 6
    if doc.layout.rules_summary:
        items.append(Para(0, by, left_w - 84, h - by - foot, how_to, 7.5, id="howto"))
    items += _score(doc, left_w - 80, by - 1, 80)
    # right column
    y = 0.0
    part, used = _track(doc, rx, y, RIGHT_W)
    items += part
    y += used + 2.5
    part, used = _stash(doc, rx, y, RIGHT_W, ink)
    items += part
    y += used + 2.5
    part, used_c = _cauldron(doc, rx, y, 30, ink)
    items += part
    part, used_p = _pyramid(doc, rx + 36, y, RIGHT_W - 36, ink)
    items += part
    y += max(used_c, used_p) + 2.0
    part, used = _boonus(doc, rx, y, RIGHT_W, ink)
    items += part
    y += used + 3.0
    room = h - y - (14.0 if doc.variant is not None else 0.0)
    rewards = Para(rx, y, RIGHT_W, room, rewards_text, 7.5, min_size=6.5, id="rewards.howto")
    if doc.layout.rules_summary and room > 5 and _fits(rewards):
        items.append(rewards)
    if doc.variant is not None:
        items += variant_stamp(doc.variant, 0, h, w, 12.0)
    return items


def pages(doc: TrickySheet, opts: Options) -> list[Page]:
    lay = doc.layout
    return nup(lambda w, h, i: compose_sheet(doc, w, h, lay.ink_saver), max(1, opts.copies), lay.paper,
               lay.orientation, 1, lay.margin, label=doc.title)


KIND = Kind("tricky-treats", TrickySheet, pages, product="ghosts-love-candy-too",
            rules="sheetgen.games.tricky_treats.rules", variant="sheetgen.games.tricky_treats.variant",
            play_order=B.PLAY_ORDER, written=B.WRITTEN)
