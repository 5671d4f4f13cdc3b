"""The 12 round Special Treat tokens of *ROLL for Your Life, Candyman!*: an effect and its points
on the face, one shared face-down side, imposed by `sheetgen.cards` with circular cut guides."""

from __future__ import annotations

from xml.sax.saxutils import escape

from pydantic import Field, model_validator

from ...cards import CARD_OPTIONS, DeckLayout, card_para, deck_layout, deck_pages, expand, round_frame
from ...kinds import Kind, Options
from ...model import HEX, Colour, Ident, IconName, LayoutFile, Strict, counts_add_up, unique_ids
from ...scene import Circle, Icon, Item, Page, Style, Text
from ...widgets import tint


class Token(Strict):
    id: Ident
    name: str = Field(min_length=1)
    count: int = Field(1, ge=1, le=6)
    points: int = Field(ge=1, le=2, description="points in the attacker's score pile: 1 or 2")
    icon: IconName
    colour: Colour = Field(pattern=HEX)
    effect: str = Field(min_length=1, description="what the owner may do; markup allowed")


class FaceDown(Strict):
    title: str = "SPECIAL TREAT"
    subtitle: str = ""
    icon: IconName = "candy_cane"


class TokenContent(Strict):
    set_size: int = Field(12, ge=1)
    face_down: FaceDown = FaceDown()
    tokens: list[Token] = Field(min_length=1)

    @model_validator(mode="after")
    def _set(self):
        unique_ids(self.tokens, "token")
        counts_add_up(self.tokens, self.set_size, "token", "set_size")
        return self


class TokenLayout(DeckLayout):
    card: str | tuple[float, float] = Field((40.0, 40.0), description="[diameter, diameter] in mm")
    bleed: float = Field(2.0, ge=0, le=6)
    edge: Colour = Field("#2e7d32", pattern=HEX)
    back_edge: Colour = Field("#1b4d20", pattern=HEX)
    points_fill: Colour = Field("#43a047", pattern=HEX, description="the small points circle")

    @model_validator(mode="after")
    def _round(self):
        w, h = self.size
        if w != h:
            raise ValueError("tokens are round: give card as [diameter, diameter]")
        return self


class TokenSheet(LayoutFile):
    content: TokenContent
    layout: TokenLayout = TokenLayout()

    def counts(self) -> dict[str, int]:
        return {"tokens": self.content.set_size}


def token_face(lay: TokenLayout, t: Token) -> list[Item]:
    d = lay.size[0]
    r, s = d / 2, d / 40  # s scales the 40 mm design
    ink = lay.ink_saver
    items = round_frame(d, lay.bleed, edge="#ffffff" if ink else lay.edge, id=f"token.{t.id}")
    items.append(card_para(r - 13 * s, 4.2 * s, 26 * s, 7 * s, f"<b>{escape(t.name)}</b>", card=t.name, what="token",
                           field="name", size=10, align="center", valign="middle"))
    cy = 15.5 * s
    items.append(Circle(r, cy, 4.6 * s, Style(width=0.25, fill="#ffffff" if ink else tint(t.colour, 0.3))))
    items.append(Icon(t.icon, r, cy, 7 * s, fill=t.colour, mono=ink, id=f"token.{t.id}.icon"))
    # the points, in a small circle on the right
    px = r + 11.5 * s
    items.append(Circle(px, cy, 3.6 * s, Style(width=0.3, fill="#ffffff" if ink else lay.points_fill),
                        id=f"token.{t.id}.points"))
    items.append(Text(px, cy + 1.5 * s, str(t.points), 11 * s, bold=True, align="center",
                      color="#000000" if ink else "#ffffff"))
    items.append(card_para(r - 12.5 * s, 21 * s, 25 * s, 12.5 * s, t.effect, card=t.name, what="token",
                           field="effect", size=8.5, align="center"))
    return items


def token_back(lay: TokenLayout, down: FaceDown) -> list[Item]:
    d = lay.size[0]
    r, s = d / 2, d / 40
    ink = lay.ink_saver
    items = round_frame(d, lay.bleed, edge="#ffffff" if ink else lay.back_edge,
                        face="#ffffff" if ink else tint(lay.back_edge, 0.12), id="token.back")
    items.append(Icon(down.icon, r, 13 * s, 12 * s, mono=ink))
    items.append(card_para(r - 14 * s, 21 * s, 28 * s, 6 * s, f"<b>{escape(down.title)}</b>",
                           card="face-down side", what="token", field="title", size=10, align="center",
                           valign="middle"))
    if down.subtitle:
        items.append(card_para(r - 12 * s, 27.5 * s, 24 * s, 6 * s, escape(down.subtitle),
                               card="face-down side", what="token",
                               field="subtitle", size=6.5, align="center"))
    return items


def pages(doc: TokenSheet, opts: Options) -> list[Page]:
    lay = deck_layout(doc.layout, opts)
    faces = {t.id: token_face(lay, t) for t in doc.content.tokens}
    fronts = [faces[t.id] for t in expand(doc.content.tokens)]
    return deck_pages(lay, fronts, [token_back(lay, doc.content.face_down)], opts, doc.title,
                      round=True)


KIND = Kind("special-treat-tokens", TokenSheet, pages, product="roll-for-your-life",
            options=CARD_OPTIONS)
