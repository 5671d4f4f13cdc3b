"""Content and layout of `rules-cards` layouts: games, each with ordered rules sections.

Section text is light markup that reads the same in a reportlab paragraph and in HTML (the rules
booklets render it with Jinja2): only <b>, <i>, <br/> and the entity &amp; are allowed, and tags
must be balanced. Every other field is plain text.
"""

from __future__ import annotations

import re
from typing import Annotated, Literal

from pydantic import AfterValidator, Field, model_validator

from ...errors import SheetgenError
from ...cards import DeckLayout
from ...model import HEX, Colour, LayoutFile, Strict
from ...text import check_markup

PRODUCTS = ("ghosts-love-candy-too", "run-for-your-life", "roll-for-your-life", "roll-and-fight",
            "rollers")
def plain(text: str) -> str:
    """Markup to plain text (for searching and tests)."""
    return " ".join(re.sub(r"<br/>", " ", re.sub(r"</?[bi]>", "", text)).replace("&amp;", "&").split())


Markup = Annotated[str, Field(min_length=1), AfterValidator(check_markup)]
GameId = Annotated[str, Field(pattern=r"^[a-z][a-z0-9-]*$")]


class RulesSection(Strict):
    heading: str = Field(min_length=1, max_length=40, description="plain text")
    text: Markup = Field(description="light markup: <b>, <i>, <br/>, &amp;")


class Need(Strict):
    """Something to play with that the kit prints: `text` may name the part's counts ({cards})."""

    text: str = Field(min_length=1, description="plain text; {names} are counts of the part's layout")
    part: str = Field(pattern=r"^[a-z][a-z0-9-]*$", description="the layout that prints it")


class RulesGame(Strict):
    id: GameId
    name: str = Field(min_length=1)
    product: Literal[PRODUCTS] = Field(description="the kit this game belongs to")
    players: str = Field(min_length=1)
    time: str = Field(min_length=1)
    age: str = Field(min_length=1)
    needs: list[str | Need] = Field(min_length=1, description="what you need to play, in the rulebook's "
                                    "order: plain text for what comes from home, {text, part} for "
                                    "what the kit prints (the kit's cover lists the same words)")
    cards: int | None = Field(None, ge=1, le=12,
                              description="spread the text over up to this many cards "
                              "(default: as few as stay readable at min_text_size)")
    sections: list[RulesSection] = Field(min_length=1)
    summary: list[Markup] = Field([], description="the short how-to printed on the game's own sheet; "
                                  "{names} are filled in from the sheet's content")

    def need_texts(self) -> list[str]:
        """What the game needs, as printed: the parts' counts filled in."""
        from .source import needs

        return [text for text, _ in needs(self)]

    def needs_sentence(self) -> str:
        """The needs as one plain sentence, as the rules cards and booklets print them."""
        text = ", ".join(self.need_texts())
        return text[:1].upper() + text[1:] + "."

    @property
    def facts(self) -> str:
        return f"{self.players} players · {self.time} · age {self.age}"


class RulesContent(Strict):
    games: list[RulesGame] = Field(min_length=1)

    @model_validator(mode="after")
    def _unique(self):
        for what in ("id", "name"):
            seen: set[str] = set()
            for g in self.games:
                value = getattr(g, what)
                if value in seen:
                    raise ValueError(f"game {what} '{value}' is used twice")
                seen.add(value)
        return self


CARD_ACCENTS = {  # default accent colour per game: dark enough for white text and greyscale
    "tricky-treats": "#5b2a86", "haunt-the-block": "#1d4e89", "boogaloo": "#b5402a",
    "run-for-your-life": "#7a3b12", "roll-for-your-life": "#a0203a", "roll-and-fight": "#3f5e1c",
    "rollers": "#2f3a4a",
}


class RulesLayout(DeckLayout):
    edge: Colour = Field("#3a2352", pattern=HEX, description="colour of the card edge and bleed")
    back_edge: Colour = Field("#3a2352", pattern=HEX, description="colour of the card back")
    text_size: float = Field(8.5, ge=6, le=12, description="largest rules text size tried, pt")
    min_text_size: float = Field(7.0, ge=6, le=12, description="smallest text size before a "
                                 "section moves on to another card, pt (never below 6)")
    heading_size: float = Field(8.0, ge=6, le=12)
    title_size: float = Field(10.0, ge=7, le=16)
    padding: float = Field(3.5, ge=3, le=10, description="text inset from the trim, mm")
    accents: dict[str, Colour] = Field(default_factory=dict,
                                       description="accent colour per game id (overrides defaults)")

    @model_validator(mode="after")
    def _sizes(self):
        if self.min_text_size > self.text_size:
            raise ValueError("min_text_size must not be larger than text_size")
        for colour in self.accents.values():
            if not re.fullmatch(HEX, colour):
                raise ValueError(f"accent '{colour}' is not a #rrggbb colour")
        return self

    def accent(self, game_id: str) -> str:
        return self.accents.get(game_id) or CARD_ACCENTS.get(game_id, "#333333")


class RulesCards(LayoutFile):
    content: RulesContent
    layout: RulesLayout = RulesLayout()

    @model_validator(mode="after")
    def _accent_ids(self):
        known = {g.id for g in self.content.games}
        for gid in self.layout.accents:
            if gid not in known:
                raise ValueError(f"layout.accents names game '{gid}', which is not in content.games")
        return self


def _norm(s: str) -> str:
    return "-".join(re.findall(r"[a-z0-9%]+", s.lower()))


def select(doc: RulesCards, name: str | None) -> list[RulesGame]:
    """The games `--game NAME` picks: a game id or name (any case and punctuation), or a product
    id (every game of that kit). None picks every game."""
    games = doc.content.games
    if not name:
        return list(games)
    want = _norm(name)
    hit = [g for g in games if want in (g.id, _norm(g.name))] or \
          [g for g in games if g.product == want]
    if not hit:
        raise SheetgenError(f"no game named '{name}' in the rules cards", key="--game",
                            fix="use one of: " + ", ".join(g.id for g in games))
    return hit
