"""The score pad *ROLL for Your Life, Candyman!* asks for: three rounds for up to four players
(trophies, Special Treat points, the survivor's parts), round and game totals, the tie showdown."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator

from ...draw import text_width_mm
from ...errors import SheetgenError
from ...impose import nup
from ...kinds import Kind, Options
from ...model import HEX, Colour, Ident, IconName, LayoutFile, PageSetup, Strict, unique_ids
from ...scene import Box, Icon, Item, Line, Page, Style, Text
from ...widgets import heading, tint

THIN = Style(width=0.25, fill="#ffffff")
THICK = Style(width=0.6, fill="#ffffff")


class ScoreRow(Strict):
    id: Ident
    label: str = Field(min_length=1)
    hint: str = ""
    icon: IconName


class PadContent(Strict):
    players: int = Field(4, ge=2, le=4)
    rounds: int = Field(3, ge=1, le=5)
    rows: list[ScoreRow] = Field(min_length=1, description="what scores in each round")
    round_total: str = "Round total"
    game_total: str = "Game total"
    tie: str = "Tie showdown"
    tie_hint: str = "Tied players roll for 4 Peppermint Swirls: tick the winner"
    player_label: str = "Player"

    @model_validator(mode="after")
    def _ids(self):
        unique_ids(self.rows, "row")
        return self


class PadLayout(PageSetup):
    per_page: Literal[1, 2, 4] = 2
    label_width: float = Field(64.0, ge=30, le=120, description="width of the label column, mm")
    box: float = Field(9.0, ge=5.0, le=14.0, description="largest row height, mm")
    band: Colour = Field("#2e7d32", pattern=HEX, description="colour of the round bands")


class ScorePad(LayoutFile):
    content: PadContent
    layout: PadLayout = PadLayout()


def compose(doc: ScorePad, w: float, h: float) -> list[Item]:
    c, lay = doc.content, doc.layout
    ink = lay.ink_saver
    band_fill = "#ffffff" if ink else tint(lay.band, 0.2)
    # rows: name, then per round a band and its rows + total, then game total and tie
    n_rows = 1 + c.rounds * (len(c.rows) + 1) + 2
    title_h = 9.0
    band_h = 5.0
    row = min(lay.box, (h - title_h - c.rounds * band_h) / n_rows)
    cell = row - 1.0
    if cell < 5.0:
        raise SheetgenError(f"the score pad needs rows of at least 6 mm, but only {row:.1f} mm fit",
                            key="layout.per_page", fix="print fewer pads per page")
    L = lay.label_width
    col = (w - L) / c.players
    if col < 14.0:
        raise SheetgenError(f"the score pad needs player columns of at least 14 mm, but only "
                            f"{col:.1f} mm fit", key="layout.per_page",
                            fix="print fewer pads per page or narrow layout.label_width")
    items: list[Item] = [heading(0, 6, doc.title, 14, id="title")]

    def boxes(y: float, prefix: str, style: Style = THIN) -> list[Item]:
        return [Box(L + p * col + 0.6, y + 0.5, col - 1.2, cell, style, writable=True,
                    id=f"{prefix}.p{p + 1}") for p in range(c.players)]

    def label(y: float, text: str, hint: str = "", icon: str | None = None, bold=False,
              key: str = "") -> list[Item]:
        x = 0.0
        out: list[Item] = []
        if icon:
            out.append(Icon(icon, 3, y + row / 2, min(5.5, cell), mono=ink, id=f"{key}.icon"))
            x = 7.0
        size = 9 if hint else 9.5
        base = y + row / 2 + (-0.4 if hint else 1.2)
        out.append(Text(x, base, text, size, bold=bold or not hint, id=f"{key}.label"))
        if hint:
            hs = 6.5 * min(1.0, (L - 1 - x) / text_width_mm(hint, 6.5))
            if hs < 6:
                raise SheetgenError(f"the hint '{hint}' is too long for the label column",
                                    key=f"content ({key})", fix="shorten it or widen layout.label_width")
            out.append(Text(x, base + 3.1, hint, hs, color="#444444", id=f"{key}.hint"))
        return out

    y = title_h
    items += label(y, c.player_label, key="player") + boxes(y, "player")
    y += row
    for r in range(1, c.rounds + 1):
        items.append(Box(0, y + 0.5, w, band_h - 0.5, Style(stroke=None if not ink else "#000000",
                                                           fill=band_fill, width=0.25),
                         id=f"round.{r}.band"))
        items.append(Text(1.5, y + 4, f"Round {r}", 8.5, bold=True, id=f"round.{r}.title"))
        y += band_h
        for sr in c.rows:
            key = f"round.{r}.{sr.id}"
            items += label(y, sr.label, sr.hint, sr.icon, key=key) + boxes(y, key)
            y += row
        items += label(y, c.round_total, key=f"round.{r}.total") + boxes(y, f"round.{r}.total", THICK)
        y += row
    items.append(Line(((0, y + 0.2), (w, y + 0.2)), Style(width=0.5)))
    items += label(y, c.game_total, key="total") + boxes(y, "total", THICK)
    y += row
    items += label(y, c.tie, c.tie_hint, "peppermint", key="tie")
    for p in range(c.players):  # a tick box centred in each player's column
        s = 5.0
        items.append(Box(L + p * col + (col - s) / 2, y + (row - s) / 2, s, s, THIN, writable=True,
                         id=f"tie.p{p + 1}"))
    return items


def pages(doc: ScorePad, opts: Options) -> list[Page]:
    lay = doc.layout
    per_page = opts.per_page or lay.per_page
    return nup(lambda w, h, i: compose(doc, w, h), per_page * max(1, opts.copies), lay.paper,
               lay.orientation, per_page, lay.margin, label=doc.title)


KIND = Kind("roll-score-pad", ScorePad, pages, product="roll-for-your-life", consumable=True,
            options=frozenset({"per_page"}),
            play_order=(r"player\.", r"round\.", r"total\.", r"tie\."),
            written=r"player\.|round\.|total\.|tie\.")
