"""Cards and tokens: sizes by name and the one imposition every deck and token sheet uses.

Stable API (other kinds call it; keep the signatures):

    CARD_SIZES                      name -> (width, height) in mm; `card_size(spec)` also takes
                                    "63x88" or [63, 88]
    impose_cards(fronts, backs, size, paper, opts, *, margin, bleed=3.0, label="",
                 gutter=0.0, round=False) -> list[Page]
    card_frame(size, bleed, *, edge, face="#ffffff", inset=2.5, radius=2.0, line="#000000",
               id="") -> list[Item]      background over the bleed + a face panel
    round_frame(diameter, bleed, *, edge, face="#ffffff", inset=2.0, id="")   the same for tokens
    card_para(x, y, w, h, markup, *, card, field, size=9.0, ..., what="card") -> Para
                                    text fitted now; too long at 6 pt -> error naming card and field
    SAFE = 3.0                      keep text this far inside the trim (cutting tolerance)
    DeckLayout                      layout keys of a deck: paper, margin (6.35), card, bleed, gutter,
                                    edge, back_edge; `deck_layout(lay, opts)` applies --bleed
    deck_pages(lay, fronts, backs, opts, label, round=False)   impose as the layout says, --copies

Card coordinates: every front and back is a list of scene items drawn in the card's own TRIM
coordinates: (0, 0) is the top-left corner of the cut line, (w, h) its bottom-right. The bleed lies
at negative coordinates and beyond (w, h): draw backgrounds from (-bleed, -bleed) with size
(w + 2 bleed, h + 2 bleed), which `card_frame` does. `impose_cards` clips each card to its own
bleed box, so nothing a card draws can spill onto its neighbour or onto the crop marks.

Imposition:
- As many cards as fit inside the printer-safe `margin` with their outer bleed and crop marks
  (8-up, landscape, for poker cards with a 3 mm bleed on A4 and Letter: 9-up leaves no room for
  the marks outside the bleed), the grid centred on the page; portrait unless landscape holds more.
- Cards touch (gutter 0, one cut between two neighbours): a bleed between every two cards would
  cost a row or column of cards. A card's bleed is drawn on every
  side with no card next to it; between two cards the neighbour's matching edge colour is the bleed
  (every card of a deck shares its `card_frame` edge colour). A layout may ask for a gutter; with
  a gutter each card gets min(bleed, gutter / 2) of bleed on its inner sides.
- `bleed` is the layout's; `opts.bleed` (--bleed) overrides it. Bleed never crosses `margin`.
- Crop marks: thin lines continuing every cut line into the page margin, from the printer-safe
  margin to 0.5 mm short of the outer bleed: never over a bleed or a trim box, at least 3 mm long.
- Backs (`opts.backs`, --no-backs) follow each page of fronts, mirrored for long-edge duplex:
  on a portrait page the card at column 1 of the front is at column 3 of the back (rows swap
  on a landscape page). `backs` holds one back per card, or a single back for the whole deck.
  `opts.back_offset` (X, Y mm) shifts the whole back page (cards and marks), X to the right and
  Y down as printed, to correct a printer's front/back misregistration.
- Round tokens (`round=True`): `size` is (diameter, diameter); tokens sit 2 bleed + 1 mm apart
  with their bleed inside the margin, unclipped (draw the bleed as a disc of radius r + bleed,
  as `round_frame` does); the cut guide is a thin dashed circle on the trim line, over a white halo.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Sequence

from pydantic import Field, field_validator

from .draw import fit_paragraph
from .text import check_markup
from .errors import SheetgenError
from .model import HEX, Colour, PageSetup
from .paper import MM, SAFE_MARGIN_MM, page_size
from .scene import Box, Circle, Group, Item, Line, Page, Para, Style

CARD_SIZES: dict[str, tuple[float, float]] = {
    "poker": (63.0, 88.0),
    "bridge": (57.0, 89.0),
    "mini": (44.0, 63.0),
    "tarot": (70.0, 120.0),
    "square": (70.0, 70.0),
}
SAFE = 3.0  # text stays this far inside the trim
MARK_GAP = 0.5  # crop marks stop this far from the trim
MARK_MIN = 3.0  # the grid leaves room for crop marks this long between margin and bleed
CROP = Style(stroke="#000000", width=0.2)
CUT_GUIDE = Style(stroke="#333333", width=0.2, dash=(1.2, 0.8))  # over a white halo: seen on any colour
CUT_HALO = Style(stroke="#ffffff", width=0.5)
TOKEN_GAP = 1.0  # mm between the bleed discs of two round tokens


def card_size(spec: str | Sequence[float]) -> tuple[float, float]:
    """(width, height) mm from a name in CARD_SIZES, a string "63x88" or a pair of numbers."""
    if isinstance(spec, str):
        if spec in CARD_SIZES:
            return CARD_SIZES[spec]
        try:
            w, h = (float(v) for v in spec.lower().split("x"))
        except ValueError:
            raise SheetgenError(f"unknown card size '{spec}'", key="layout.card",
                                fix=f"use one of {', '.join(CARD_SIZES)} or WxH in mm") from None
    else:
        w, h = (float(v) for v in spec)
    if not (20 <= w <= 200 and 20 <= h <= 200):
        raise SheetgenError(f"card size {w:g}x{h:g} mm is out of range", key="layout.card",
                            fix="use 20 to 200 mm per side")
    return w, h


@dataclass(frozen=True)
class Grid:
    """Where cards sit on a page: trim boxes cols x rows, top-left trim corner at (x0, y0)."""

    page_w: float
    page_h: float
    cols: int
    rows: int
    x0: float
    y0: float
    w: float
    h: float
    gutter: float

    @property
    def per_page(self) -> int:
        return self.cols * self.rows

    def trim(self, col: int, row: int) -> tuple[float, float]:
        return self.x0 + col * (self.w + self.gutter), self.y0 + row * (self.h + self.gutter)

    def slot(self, i: int, back: bool = False) -> tuple[int, int]:
        """(col, row) of the i-th card on a page; a back is mirrored for long-edge duplex."""
        col, row = i % self.cols, i // self.cols
        if back:
            if self.page_h >= self.page_w:
                col = self.cols - 1 - col
            else:
                row = self.rows - 1 - row
        return col, row


def _fit(span: float, size: float, gutter: float) -> int:
    return max(0, int((span + gutter + 1e-9) // (size + gutter)))


def grid(size: tuple[float, float], paper: str, margin: float, gutter: float = 0.0,
         bleed: float = 3.0, round: bool = False) -> Grid:
    """The centred grid holding the most cards inside the margin (portrait on ties), with room
    between margin and trim for the outer bleed and, for cut cards, the crop marks."""
    outer = bleed if round else bleed + MARK_GAP + MARK_MIN
    best = None
    for orientation in ("portrait", "landscape"):
        pw, ph = page_size(paper, orientation)
        cols = _fit(pw - 2 * (margin + outer), size[0], gutter)
        rows = _fit(ph - 2 * (margin + outer), size[1], gutter)
        if best is None or cols * rows > best[2] * best[3]:
            best = (pw, ph, cols, rows)
    pw, ph, cols, rows = best
    if cols * rows == 0:
        raise SheetgenError(f"a {size[0]:g}x{size[1]:g} mm card does not fit on {paper} "
                            f"inside a {margin:g} mm margin", key="layout.card",
                            fix="choose a smaller card or margin")
    gw = cols * size[0] + (cols - 1) * gutter
    gh = rows * size[1] + (rows - 1) * gutter
    return Grid(pw, ph, cols, rows, (pw - gw) / 2, (ph - gh) / 2, size[0], size[1], gutter)


def _bleed_box(g: Grid, col: int, row: int, bleed: float, margin: float, taken: set):
    """A card's bleed box in its trim coordinates: full bleed where no card is next to it, half
    the gutter towards a neighbour, never across the printer-safe margin."""
    x, y = g.trim(col, row)
    inner = min(bleed, g.gutter / 2)
    left = inner if (col - 1, row) in taken else bleed
    right = inner if (col + 1, row) in taken else bleed
    top = inner if (col, row - 1) in taken else bleed
    bottom = inner if (col, row + 1) in taken else bleed
    left, top = min(left, x - margin), min(top, y - margin)
    right = min(right, g.page_w - margin - x - g.w)
    bottom = min(bottom, g.page_h - margin - y - g.h)
    return -left, -top, g.w + left + right, g.h + top + bottom


def _marks(g: Grid, bleed: float, margin: float) -> list[Item]:
    """Crop marks continuing every cut line into the margin around the grid."""
    xs = sorted({x for c in range(g.cols) for x in (g.trim(c, 0)[0], g.trim(c, 0)[0] + g.w)})
    ys = sorted({y for r in range(g.rows) for y in (g.trim(0, r)[1], g.trim(0, r)[1] + g.h)})
    left, top = g.x0, g.y0
    right, bottom = xs[-1], ys[-1]

    def span(outer: float, trim: float, sign: int) -> tuple[float, float] | None:
        # from the margin (outer) towards the trim, stopping short of the bleed
        end = trim - sign * (bleed + MARK_GAP)
        return (outer, end) if (end - outer) * sign > 0.2 else None

    items: list[Item] = []
    for x in xs:
        for a, b in filter(None, (span(margin, top, 1), span(g.page_h - margin, bottom, -1))):
            items.append(Line(((x, a), (x, b)), CROP, id="crop"))
    for y in ys:
        for a, b in filter(None, (span(margin, left, 1), span(g.page_w - margin, right, -1))):
            items.append(Line(((a, y), (b, y)), CROP, id="crop"))
    return items


def impose_cards(fronts: list[list[Item]], backs: list[list[Item]] | None,
                 size: tuple[float, float], paper: str, opts, *, margin: float,
                 bleed: float = 3.0, label: str = "", gutter: float = 0.0,
                 round: bool = False) -> list[Page]:
    """Pages of card fronts, each followed by its page of mirrored backs (unless `opts.backs` is
    False or `backs` is None). See the module docstring for coordinates and rules."""
    if opts is not None and getattr(opts, "bleed", None) is not None:
        bleed = opts.bleed
    if backs is not None and len(backs) not in (1, len(fronts)):
        raise SheetgenError(f"{len(backs)} backs for {len(fronts)} cards",
                            fix="give one back per card or a single back for the whole deck")
    show_backs = backs is not None and (opts is None or opts.backs)
    if round:
        gutter = max(gutter, 2 * bleed + TOKEN_GAP)
    g = grid(size, paper, margin, gutter, bleed, round)
    dx, dy = opts.back_offset if opts is not None else (0.0, 0.0)
    marks = [] if round else _marks(g, bleed, margin)
    pages: list[Page] = []
    forms: dict[int, str] = {}
    for first in range(0, len(fronts), g.per_page):
        chunk = range(first, min(first + g.per_page, len(fronts)))
        sheet = first // g.per_page + 1
        sides = [("fronts", False)] + ([("backs", True)] if show_backs else [])
        for side, is_back in sides:
            page = Page(g.page_w, g.page_h, label=f"{label} {sheet} {side}".strip(), back=is_back)
            items: list[Item] = []
            taken = {g.slot(i - first, back=is_back) for i in chunk}
            for i in chunk:
                col, row = g.slot(i - first, back=is_back)
                x, y = g.trim(col, row)
                art = (backs[i % len(backs)] if is_back else fronts[i])
                form = _form_name(art, forms)
                if round:
                    r = g.w / 2
                    items.append(Group(tuple(art), x, y, id=f"card.{i + 1}.{side[:-1]}", form=form))
                    items.append(Circle(x + r, y + r, r, CUT_HALO))
                    items.append(Circle(x + r, y + r, r, CUT_GUIDE, id="cut"))
                else:
                    clip = _bleed_box(g, col, row, bleed, margin, taken)
                    items.append(Group(tuple(art), x, y, id=f"card.{i + 1}.{side[:-1]}", clip=clip,
                                       form=form))
            items += marks
            page.add(Group(tuple(items), dx, dy) if is_back and (dx or dy) else Group(tuple(items)))
            pages.append(page)
    return pages


def _form_name(art: list[Item], names: dict[int, str]) -> str:
    """A name for a card's art, the same for the same content (the drawer stores it once)."""
    key = id(art)
    if key not in names:
        names[key] = hashlib.sha1(repr(tuple(art)).encode()).hexdigest()[:20]
    return names[key]


def card_frame(size: tuple[float, float], bleed: float, *, edge: str, face: str = "#ffffff",
               inset: float = 2.5, radius: float = 2.0, line: str | None = "#000000",
               id: str = "") -> list[Item]:
    """A card's background: `edge` colour over the whole bleed box, a `face` panel inset from the
    trim (text goes on it). Every card of a deck should share `edge`: it is the bleed between two
    touching cards."""
    w, h = size
    return [Box(-bleed, -bleed, w + 2 * bleed, h + 2 * bleed, Style(stroke=None, fill=edge),
                id=f"{id}.bleed" if id else ""),
            Box(inset, inset, w - 2 * inset, h - 2 * inset,
                Style(stroke=line, fill=face, width=0.3), radius=radius, id=f"{id}.face" if id else "")]


def card_para(x: float, y: float, w: float, h: float, markup: str, *, card: str, field: str,
              size: float = 9.0, min_size: float = 6.0, align: str = "left",
              valign: str = "top", color: str = "#000000", id: str = "", what: str = "card") -> Para:
    """A paragraph on a card, shrunk to fit now: if it does not fit at `min_size` the error names
    the card and the field. The returned Para is already at its fitted size (cheap to draw)."""
    p = Para(x, y, w, h, markup, size=size, min_size=min_size, align=align, valign=valign,
             color=color, id=id or f"card.{card}.{field}")
    try:
        check_markup(markup, bare_amp=True)
        para, _, fitted = fit_paragraph(p)
    except ValueError as exc:  # the sanitiser, or reportlab's markup parser
        raise SheetgenError(f"{what} '{card}': bad markup in its {field}: {exc}", key=field,
                            fix="use only <b>, <i> and <br/>, and write & as &amp;") from None
    except SheetgenError:
        raise SheetgenError(f"{what} '{card}': its {field} does not fit its {w:.0f}x{h:.0f} mm box "
                            f"even at {min_size:g} pt", key=field,
                            fix=f"shorten the {field} of '{card}'") from None
    if para.minWidth() > w * MM + 0.01:
        raise SheetgenError(f"{what} '{card}': a word of its {field} is wider than its box",
                            key=field, fix=f"shorten or hyphenate the long word in '{card}'")
    return Para(x, y, w, h, markup, size=fitted, min_size=fitted, align=align, valign=valign,
                color=color, id=p.id)


def round_frame(diameter: float, bleed: float, *, edge: str, face: str = "#ffffff",
                inset: float = 2.0, id: str = "") -> list[Item]:
    """A round token's background: an `edge` disc covering the bleed and a `face` disc inside."""
    r = diameter / 2
    return [Circle(r, r, r + bleed, Style(stroke=None, fill=edge), id=f"{id}.bleed" if id else ""),
            Circle(r, r, r - inset, Style(stroke="#000000", fill=face, width=0.3),
                   id=f"{id}.face" if id else "")]


class DeckLayout(PageSetup):
    """Layout keys shared by every deck of cards or sheet of tokens."""

    margin: float = Field(SAFE_MARGIN_MM, ge=SAFE_MARGIN_MM, le=40,
                          description="printer-safe margin, mm (6.35 fits 8 poker cards with bleed and marks)")
    card: str | tuple[float, float] = Field("poker", description="a size name (poker, bridge, mini, "
                                            "tarot, square) or [width, height] in mm")
    bleed: float = Field(3.0, ge=0, le=6, description="bleed around the outer cards, mm")
    gutter: float = Field(0.0, ge=0, le=12, description="space between two cards, mm")
    edge: Colour = Field("#8e2456", pattern=HEX, description="colour of the card edge and bleed")
    back_edge: Colour = Field("#5a1436", pattern=HEX, description="edge colour of the card back")

    @field_validator("card")
    @classmethod
    def _size(cls, v):
        try:
            card_size(v)
        except SheetgenError as exc:
            raise ValueError(f"{exc.message} ({exc.fix})") from None
        return v

    @property
    def size(self) -> tuple[float, float]:
        return card_size(self.card)


POD_BLEED = 3.175  # 1/8 inch: what card print-on-demand services ask for
CARD_OPTIONS = frozenset({"bleed", "back_offset", "backs", "pod"})  # what a deck or token sheet reads


def deck_layout(lay: DeckLayout, opts) -> DeckLayout:
    """The layout with --bleed (or --print-on-demand's 1/8 in) applied: composers draw their
    bleed with the bleed imposed."""
    bleed = POD_BLEED if opts.pod else opts.bleed
    return lay if bleed is None else lay.model_copy(update={"bleed": float(bleed)})


def pod_pages(fronts: list[list[Item]], backs: list[list[Item]] | None, size: tuple[float, float],
              bleed: float = POD_BLEED, label: str = "") -> list[Page]:
    """Print-on-demand: one card per page, the page its trim plus `bleed` on every side, each
    front followed by its back (`backs`: one per card or one for the deck). No marks: the service
    cuts at the TrimBox (set by --print-shop) or at `bleed` from the edge."""
    w, h = size
    pages: list[Page] = []
    for i, art in enumerate(fronts):
        sides = [("front", art)] + ([("back", backs[i % len(backs)])] if backs else [])
        for side, items in sides:
            page = Page(w + 2 * bleed, h + 2 * bleed, label=f"{label} {i + 1}".strip() if side == "front"
                        else "", bleed=bleed, back=side == "back")
            page.add(Group(tuple(items), bleed, bleed, id=f"card.{i + 1}.{side}",
                           clip=(-bleed, -bleed, w + 2 * bleed, h + 2 * bleed),
                           form=_form_name(items, {})))
            pages.append(page)
    return pages


def deck_pages(lay: DeckLayout, fronts: list[list[Item]], backs: list[list[Item]] | None, opts,
               label: str, round: bool = False) -> list[Page]:
    """Impose a deck as its layout says, `opts.copies` times over."""
    copies = max(1, getattr(opts, "copies", 1) or 1)
    if backs is not None and len(backs) > 1:
        backs = backs * copies
    if opts.pod:
        return pod_pages(fronts * copies, backs if getattr(opts, "backs", True) else None, lay.size,
                         lay.bleed, label)
    return impose_cards(fronts * copies, backs, lay.size, lay.paper, opts, margin=lay.margin,
                        bleed=lay.bleed, label=label, gutter=lay.gutter, round=round)


def expand(cards, count=lambda c: c.count) -> list:
    """Each card repeated `count` times, in deck order."""
    return [c for c in cards for _ in range(count(c))]


__all__ = ["CARD_OPTIONS", "CARD_SIZES", "POD_BLEED", "SAFE", "DeckLayout", "Grid", "deck_layout", "deck_pages", "pod_pages", "card_frame", "card_para", "card_size", "expand", "grid",
           "impose_cards", "round_frame"]
