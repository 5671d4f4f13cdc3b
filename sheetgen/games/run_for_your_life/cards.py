"""Decks of *Run for Your Life, Candyman!*: the 44 Special Treat cards and the 65 Dash N Bash cards.

Each layout's `content` is the card list (name, count, texts, values); `sheetgen.cards` imposes
them. Text is fitted when the cards are composed, so a text too long for its box fails with the
card's name and field before any PDF is written.
"""

from __future__ import annotations

from typing import Literal
from xml.sax.saxutils import escape

from pydantic import Field, model_validator

from ...cards import CARD_OPTIONS, SAFE, DeckLayout, card_frame, card_para, deck_layout, deck_pages, expand
from ...kinds import Kind, Options
from ...model import HEX, Candy, Colour, Ident, IconName, LayoutFile, Strict, counts_add_up, unique_ids
from ...scene import Circle, Icon, Item, Line, Page, Style, Text
from ...widgets import tint

KEYWORDS = ("EQUIP", "RANGED", "DEFENSE", "PLAY AT ANY TIME")
NO_LINE = Style(stroke=None)


# ---- shared pieces -------------------------------------------------------------------------

class CardBack(Strict):
    title: str = Field(min_length=1)
    subtitle: str = ""
    icon: IconName = "star"


def _ink(lay: DeckLayout, colour: str) -> str:
    return "#ffffff" if lay.ink_saver else colour


def _back(lay: DeckLayout, back: CardBack, game: str) -> list[Item]:
    """A deck's one back: the title between two big icons (symmetric, so mirroring is harmless)."""
    w, h = lay.size
    edge = _ink(lay, lay.back_edge)
    items = card_frame((w, h), lay.bleed, edge=edge, face=_ink(lay, tint(lay.back_edge, 0.15)),
                       id="back")
    for cy, turn in ((h * 0.25, 0.0), (h * 0.75, 180.0)):  # the lower icon upside down
        items.append(Icon(back.icon, w / 2, cy, min(w, h) * 0.3, mono=lay.ink_saver, rotate=turn))
    items.append(card_para(SAFE + 2, h / 2 - 9, w - 2 * SAFE - 4, 12, f"<b>{escape(back.title)}</b>",
                           card="back", field="title", size=15, align="center", valign="middle"))
    items.append(card_para(SAFE + 2, h / 2 + 3, w - 2 * SAFE - 4, 6, escape(back.subtitle or game),
                           card="back", field="subtitle", size=7.5, align="center",
                           valign="middle"))
    return items


def _footer(w: float, h: float, text: str) -> Text:
    return Text(w / 2, h - SAFE - 1.6, text, 6, align="center", color="#555555", id="footer")


# ---- Special Treat cards -------------------------------------------------------------------

class KeywordUse(Strict):
    """A keyword printed in bold, then its details."""

    keyword: Literal["EQUIP", "RANGED", "DEFENSE", "PLAY AT ANY TIME"]
    range: int | None = Field(None, ge=1, le=12, description="spaces; RANGED only")
    detail: str = ""

    @model_validator(mode="after")
    def _range(self):
        if (self.keyword == "RANGED") != (self.range is not None):
            raise ValueError("give 'range' with RANGED, and only with RANGED")
        return self


class TreatCard(Strict):
    id: Ident
    name: str = Field(min_length=1)
    count: int = Field(ge=1, le=12)
    icon: IconName
    colour: Colour = Field(pattern=HEX)
    damage: int = Field(0, ge=0, le=9, description="damage shown in the corner badge (0: none)")
    keywords: list[KeywordUse] = []
    text: str = Field(min_length=1, description="the effect; paragraph markup (<b>, <i>) allowed")


class TreatContent(Strict):
    deck_size: int = Field(44, ge=1)
    footer: str = "Special Treat"
    back: CardBack
    cards: list[TreatCard] = Field(min_length=1)

    @model_validator(mode="after")
    def _deck(self):
        unique_ids(self.cards, "card")
        counts_add_up(self.cards, self.deck_size, "card", "deck_size")
        return self


class TreatDeck(LayoutFile):
    content: TreatContent
    layout: DeckLayout = DeckLayout()

    def counts(self) -> dict[str, int]:
        return {"cards": self.content.deck_size}


def treat_markup(card: TreatCard) -> str:
    """The card's rules text: each keyword in bold followed by its details, then the effect."""
    lines = []
    for k in card.keywords:
        word = f"{k.keyword} {k.range}" if k.range else k.keyword
        lines.append(f"<b>{word}</b>" + (f" – {k.detail}" if k.detail else ""))
    lines.append(card.text)
    return "<br/>".join(lines)


def treat_front(lay: DeckLayout, card: TreatCard) -> list[Item]:
    w, h = lay.size
    ink = lay.ink_saver
    items = card_frame((w, h), lay.bleed, edge=_ink(lay, lay.edge), id=f"card.{card.id}")
    x, tw = SAFE + 1.5, w - 2 * SAFE - 3
    items.append(card_para(x, SAFE + 1.5, tw, 9, f"<b>{escape(card.name)}</b>", card=card.name,
                           field="name", size=12.5, align="center", valign="middle"))
    art = h * 0.2
    cy = SAFE + 11 + art / 2
    items.append(Circle(w / 2, cy, art / 2 + 1, Style(width=0.3, fill=_ink(lay, tint(card.colour, 0.25))),
                        id=f"card.{card.id}.art"))
    items.append(Icon(card.icon, w / 2, cy, art * 0.82, fill=card.colour, mono=ink))
    if card.damage:
        bx, by = w - SAFE - 7, cy
        items.append(Circle(bx, by, 6, Style(width=0.4, fill="#ffffff"), id=f"card.{card.id}.damage"))
        items.append(Text(bx, by + 1.2, str(card.damage), 14, bold=True, align="center"))
        items.append(Text(bx, by + 3.9, "damage", 6, align="center"))
    top = cy + art / 2 + 3
    items.append(Line(((x, top - 1.5), (x + tw, top - 1.5)), Style(width=0.25, stroke="#999999")))
    items.append(card_para(x, top + 1, tw, h - SAFE - 5.5 - top, treat_markup(card), card=card.name,
                           field="text", size=10.5))
    items.append(_footer(w, h, "SPECIAL TREAT"))
    return items


def treat_pages(doc: TreatDeck, opts: Options) -> list[Page]:
    lay = deck_layout(doc.layout, opts)
    faces = {c.id: treat_front(lay, c) for c in doc.content.cards}
    fronts = [faces[c.id] for c in expand(doc.content.cards)]
    back = _back(lay, doc.content.back, doc.title)
    return deck_pages(lay, fronts, [back], opts, doc.title)


TREAT_KIND = Kind("special-treat-cards", TreatDeck, treat_pages, product="run-for-your-life",
                  options=CARD_OPTIONS)


# ---- Dash N Bash cards ---------------------------------------------------------------------

class Character(Strict):
    id: Ident
    name: str = Field(min_length=1)
    icon: IconName
    colour: Colour = Field(pattern=HEX)


class DashCard(Strict):
    """One line of the deck: `count` identical cards."""

    type: Literal["single", "double", "character", "cage"]
    candies: list[Ident] = Field([], max_length=2, description="1 for single, 2 for double")
    character: Ident | None = None
    count: int = Field(ge=1, le=20)

    @model_validator(mode="after")
    def _shape(self):
        need = {"single": 1, "double": 2}.get(self.type, 0)
        if len(self.candies) != need:
            raise ValueError(f"a {self.type} card shows {need} candies, not {len(self.candies)}")
        if (self.type == "character") != (self.character is not None):
            raise ValueError("give 'character' on character cards, and only on them")
        return self

    @property
    def id(self) -> str:
        return "-".join([self.type, *self.candies] + ([self.character] if self.character else []))


class DashTexts(Strict):
    """The cards' texts, written in the deck layout (`content.texts`)."""

    single: str = Field(min_length=1, description="a single-candy card")
    double_same: str = Field(min_length=1, description="a card with two of one candy")
    double_mixed: str = Field(min_length=1, description="a card with two candies")
    character: str = Field(min_length=1, description="a character card ({name})")
    cage: str = Field(min_length=1, description="a cage card")
    cage_title: str = Field(min_length=1)
    attack_bonus: str = Field(min_length=1, description="a card drawn to attack ({damage})")


class DashContent(Strict):
    deck_size: int = Field(65, ge=1)
    candies: list[Candy] = Field(min_length=2)
    characters: list[Character] = []
    bonus_damage: int = Field(ge=1, le=6, description="damage of a character or cage card drawn "
                              "to attack (the race engine deals this much)")
    texts: DashTexts
    back: CardBack
    cards: list[DashCard] = Field(min_length=1)

    @model_validator(mode="after")
    def _deck(self):
        unique_ids(self.candies, "candy")
        unique_ids(self.characters, "character")
        unique_ids(self.cards, "card")
        candies, chars = {c.id for c in self.candies}, {c.id for c in self.characters}
        for card in self.cards:
            for c in card.candies:
                if c not in candies:
                    raise ValueError(f"card {card.id} names candy '{c}', which is not in candies")
            if card.character and card.character not in chars:
                raise ValueError(f"card {card.id} names character '{card.character}', "
                                 "which is not in characters")
        counts_add_up(self.cards, self.deck_size, "card", "deck_size")
        return self


class DashLayout(DeckLayout):
    edge: Colour = Field("#4e2a12", pattern=HEX)
    back_edge: Colour = Field("#2b170a", pattern=HEX)


class DashDeck(LayoutFile):
    content: DashContent
    layout: DashLayout = DashLayout()

    def counts(self) -> dict[str, int]:
        return {"cards": self.content.deck_size, "damage": self.content.bonus_damage}


def _candy_art(lay: DeckLayout, candy: Candy, cx: float, cy: float, size: float, key: str) -> list[Item]:
    return [Circle(cx, cy, size / 2 + 1.2, Style(width=0.3, fill=_ink(lay, tint(candy.colour, 0.2))),
                   id=f"{key}.art"),
            Icon(candy.icon, cx, cy, size * 0.8, fill=candy.colour, mono=lay.ink_saver, id=key)]


def _title(doc: DashDeck, card: DashCard) -> tuple[str, float, float, float, float]:
    """A card's title markup and its box (x, y, w, h) in card coordinates."""
    w, h = doc.layout.size
    x, tw = SAFE + 1.5, w - 2 * SAFE - 3
    if card.type in ("single", "double"):
        shown = [next(c for c in doc.content.candies if c.id == i) for i in card.candies]
        same = len(shown) == 2 and shown[0].id == shown[1].id
        title = f"2 × {shown[0].name}" if same else " + ".join(c.name for c in shown)
        ty = h * 0.72 if len(shown) == 2 else h * 0.68
        return f"<b>{escape(title)}</b>", x, ty, tw, 7  # clear of the corner icons above and below
    if card.type == "character":
        title = next(c for c in doc.content.characters if c.id == card.character).name
    else:
        title = doc.content.texts.cage_title
    return f"<b>{escape(title.upper())}</b>", x, SAFE + 1.5, tw, 8


def title_size(doc: DashDeck, size: float = 12.5) -> float:
    """One title size for the whole deck: the size at which the longest title fits its box."""
    return min(card_para(*_title(doc, c)[1:], _title(doc, c)[0], card=c.id, field="title",
                         size=size, align="center", valign="middle").size
               for c in doc.content.cards)


def dash_front(doc: DashDeck, card: DashCard, tsize: float = 12.5) -> list[Item]:
    lay, content = doc.layout, doc.content
    w, h = lay.size
    candy = {c.id: c for c in content.candies}
    t = content.texts
    items = card_frame((w, h), lay.bleed, edge=_ink(lay, lay.edge), id=f"card.{card.id}")
    x, tw = SAFE + 1.5, w - 2 * SAFE - 3
    name = card.id
    markup, *box = _title(doc, card)
    title_para = card_para(*box, markup, card=name, field="title", size=tsize, min_size=tsize,
                           align="center", valign="middle")
    if card.type in ("single", "double"):
        shown = [candy[c] for c in card.candies]
        same = len(shown) == 2 and shown[0].id == shown[1].id
        rule = t.single if len(shown) == 1 else t.double_same if same else t.double_mixed
        sub = "aka " + shown[0].alias if len(shown) == 1 and shown[0].alias else ""
        size = h * 0.42 if len(shown) == 1 else h * 0.25
        centres = ([h * 0.4] if len(shown) == 1 else [h * 0.27, h * 0.56])
        for i, (c, cy) in enumerate(zip(shown, centres)):
            items += _candy_art(lay, c, w / 2, cy, size, f"card.{card.id}.candy.{i + 1}")
        # small corner icons so a hand of cards fans readably
        for i, c in enumerate(shown):
            items.append(Icon(c.icon, SAFE + 3.5, SAFE + 3.5 + i * 6, 5, fill=c.colour,
                              mono=lay.ink_saver))
            items.append(Icon(c.icon, w - SAFE - 3.5, h - SAFE - 3.5 - i * 6, 5, fill=c.colour,
                              mono=lay.ink_saver))
        ty = box[1]
        items.append(title_para)
        body = (f"<i>{escape(sub)}</i><br/>" if sub else "") + rule
        # clear of the corner icons
        items.append(card_para(x + 7, ty + 7, tw - 14, h - SAFE - 2 - ty - 7, body, card=name,
                               field="text", size=9, align="center"))
        return items
    # character and cage cards: a big picture, a name, where to jump, and the attack bonus
    if card.type == "character":
        who = next(c for c in content.characters if c.id == card.character)
        icon, colour = who.icon, who.colour
        rule = t.character.format(name=escape(who.name))
    else:
        icon, colour = "burst", "#ffd23f"  # the title comes from _title, as for every card
        rule = t.cage
    cy = h * 0.36
    items.append(Circle(w / 2, cy, h * 0.2, Style(width=0.3, fill=_ink(lay, tint(colour, 0.3))),
                        id=f"card.{card.id}.art"))
    items.append(Icon(icon, w / 2, cy, h * 0.32, fill=colour, mono=lay.ink_saver,
                      id=f"card.{card.id}.icon"))
    if card.type == "cage":
        items.append(Icon("fist", w / 2, cy, h * 0.13, mono=lay.ink_saver))
    items.append(title_para)
    ty = cy + h * 0.2 + 2.5
    items.append(card_para(x, ty, tw, h - SAFE - 4.5 - ty, f"{rule}<br/>{t.attack_bonus.format(damage=content.bonus_damage)}",
                           card=name, field="text", size=10, align="center", valign="middle"))
    return items


def dash_pages(doc: DashDeck, opts: Options) -> list[Page]:
    lay = deck_layout(doc.layout, opts)
    doc = doc.model_copy(update={"layout": lay})
    tsize = title_size(doc)
    faces = {c.id: dash_front(doc, c, tsize) for c in doc.content.cards}
    fronts = [faces[c.id] for c in expand(doc.content.cards)]
    back = _back(lay, doc.content.back, doc.title)
    return deck_pages(lay, fronts, [back], opts, doc.title)


DASH_KIND = Kind("dash-n-bash", DashDeck, dash_pages, product="run-for-your-life",
                  options=CARD_OPTIONS)
