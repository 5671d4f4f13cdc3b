"""The `rules-cards` kind: each game's rules flowed onto poker cards, imposed 8-up with backs.

A front: the game's name on a band in its accent colour, the sections (bold heading, text at the
game's size), and a footer with players, time and age and the card number "2/4". A back: the
deck's edge colour, "Rules" and the game's name, so a mixed pile sorts back into games.
"""

from __future__ import annotations

from ...cards import CARD_OPTIONS, SAFE, card_frame, card_para, deck_layout, deck_pages
from ...draw import text_width_mm
from ...kinds import Kind, Options
from ...paper import MM
from ...scene import Box, Icon, Item, Line, Page, Style, Text
from .flow import GAP, Card, Frame, flow, text_height
from .model import RulesCards, RulesLayout, select
from .source import filled

INSET = 2.0  # the face panel's inset from the trim (card_frame)
BAND = 8.0  # height of the title band, mm
FOOT = 4.0  # footer strip, mm
ICON = {"ghosts-love-candy-too": "pumpkin", "run-for-your-life": "peppermint",
        "roll-for-your-life": "die4", "roll-and-fight": "fist", "rollers": "star"}  # on the backs


def frame(lay: RulesLayout) -> Frame:
    w, h = lay.size
    pad = max(lay.padding, SAFE)
    top = INSET + BAND + 1.5
    return Frame(w=w - 2 * pad, h=h - top - FOOT - pad, heading_size=lay.heading_size,
                 heading_h=lay.heading_size * 1.2 / MM)


def _title(name: str, lay: RulesLayout, width: float) -> float:
    """Largest title size (down to 7 pt) at which the game's name fits the band."""
    size = lay.title_size
    while size > 7 and text_width_mm(name, size, bold=True) > width:
        size -= 0.25
    return size


def front(card: Card, lay: RulesLayout) -> list[Item]:
    w, h = lay.size
    fr = frame(lay)
    pad = (w - fr.w) / 2
    ink = lay.ink_saver
    accent = lay.accent(card.game.id)
    gid = f"rules.{card.game.id}.{card.number}"
    items: list[Item] = card_frame((w, h), lay.bleed, edge="#ffffff" if ink else lay.edge,
                                   inset=INSET, id=gid)
    # title band: rounded on top like the face panel, square below
    band = Style(stroke=accent if ink else None, fill=None if ink else accent, width=0.4)
    items.append(Box(INSET, INSET, w - 2 * INSET, BAND, band, radius=2.0, id=f"{gid}.band"))
    if not ink:
        items.append(Box(INSET, INSET + BAND / 2, w - 2 * INSET, BAND / 2, band))
    size = _title(card.game.name, lay, w - 2 * pad)
    items.append(Text(pad, INSET + BAND / 2 + size * 0.35 / MM, card.game.name, size, bold=True,
                      color="#000000" if ink else "#ffffff", id=f"{gid}.title"))
    y = INSET + BAND + 1.5
    for n, block in enumerate(card.blocks):
        if n:
            y += GAP
        items.append(Text(pad, y + lay.heading_size * 0.95 / MM, block.heading, lay.heading_size,
                          bold=True, color="#000000" if ink else accent, id=f"{gid}.heading.{n + 1}"))
        y += fr.heading_h
        th = text_height(block.markup, fr.w, card.size)
        items.append(card_para(pad, y, fr.w, th + 0.5, block.markup, card=f"{card.game.name} "
                               f"{card.number}/{card.total}", field=block.heading, size=card.size,
                               min_size=card.size, id=f"{gid}.text.{n + 1}"))
        y += th
    rule = INSET + BAND + 1.5 + fr.h + 0.8  # just below the text area
    foot = rule + 3.0
    items.append(Line(((pad, rule), (w - pad, rule)), Style(stroke="#999999", width=0.2)))
    items.append(Text(pad, foot, card.game.facts, 6.5, color="#333333", id=f"{gid}.facts"))
    items.append(Text(w - pad, foot, f"{card.number}/{card.total}", 7, bold=True, align="right",
                      id=f"{gid}.number"))
    return items


def back(card: Card, lay: RulesLayout) -> list[Item]:
    w, h = lay.size
    ink = lay.ink_saver
    gid = f"rules.{card.game.id}.{card.number}.back"
    fg = "#000000" if ink else "#ffffff"
    items = card_frame((w, h), lay.bleed, edge="#ffffff" if ink else lay.back_edge,
                       face="#ffffff" if ink else lay.back_edge, inset=INSET,
                       line="#000000" if ink else "#ffffff", id=gid)
    items.append(Icon(ICON.get(card.game.product, "star"), w / 2, h / 2 - 16, 14, mono=ink,
                      id=f"{gid}.icon"))
    items.append(Text(w / 2, h / 2 + 3, "RULES", 20, bold=True, align="center", color=fg,
                      id=f"{gid}.word"))
    size = _title(card.game.name, lay, w - 2 * (INSET + 5))
    pill = Style(stroke=fg if ink else None, fill=None if ink else lay.accent(card.game.id))
    items.append(Box(INSET + 3, h / 2 + 7, w - 2 * (INSET + 3), 8, pill, radius=4, id=f"{gid}.pill"))
    items.append(Text(w / 2, h / 2 + 11 + size * 0.35 / MM, card.game.name, size, bold=True,
                      align="center", color=fg, id=f"{gid}.name"))
    return items


def cards(doc: RulesCards, opts: Options) -> list[Card]:
    lay = doc.layout
    fr = frame(lay)
    out: list[Card] = []
    for game in select(doc, opts.game):
        out += flow(filled(game), fr, lay.text_size, lay.min_text_size)
    return out


def pages(doc: RulesCards, opts: Options) -> list[Page]:
    lay = deck_layout(doc.layout, opts)
    deck = cards(doc, opts)
    label = doc.title if not opts.game else f"{doc.title}: {deck[0].game.name}"
    return deck_pages(lay, [front(c, lay) for c in deck], [back(c, lay) for c in deck], opts, label)


KIND = Kind("rules-cards", RulesCards, pages, product="ghosts-love-candy-too",
            options=CARD_OPTIONS | {"game"})
