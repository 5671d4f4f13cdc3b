"""Flowing a game's rules sections onto as few cards as stay readable.

Text is set at one size per game: the largest size (from `layout.text_size` down to
`layout.min_text_size`) that still fits in the fewest cards possible at `min_text_size`.
A game's `cards:` fixes that target instead: its text
takes the largest size, never below 6 pt, that fits that many cards. A section that does not fit the rest of a card is split between sentences and continues on the
next card under its heading marked "(cont.)"; text is never shrunk below `min_text_size`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from html import escape

from ...draw import fit_paragraph, text_width_mm
from ...errors import SheetgenError
from ...paper import MM
from ...scene import Para
from .model import RulesGame, RulesSection

STEP = 0.25  # pt between the sizes tried
FLOOR = 6.0  # no card text is ever smaller (the project's print rule)
LEADING = 1.18  # line height / text size, as in draw.fit_paragraph
GAP = 1.0  # mm between sections
CONT = " (cont.)"


@dataclass(frozen=True)
class Block:
    heading: str  # plain text; "" when none
    markup: str


@dataclass(frozen=True)
class Card:
    game: RulesGame
    blocks: tuple[Block, ...]
    number: int
    total: int
    size: float  # body text size, pt


@dataclass(frozen=True)
class Frame:
    """The text area of a card face, mm, and the type sizes."""

    w: float
    h: float
    heading_size: float
    heading_h: float  # heading line height incl. space below, mm


@lru_cache(maxsize=8192)
def text_height(markup: str, w: float, size: float) -> float:
    """Height in mm of `markup` wrapped to `w` mm at `size` pt (no shrinking)."""
    _, h, _ = fit_paragraph(Para(0, 0, w, 10_000, markup, size=size, min_size=size))
    return h / MM


def _sentences(markup: str) -> list[list[str]]:
    """Paragraphs (split at <br/>) of sentences, split only outside <b>/<i>."""
    paras = []
    for para in markup.split("<br/>"):
        out, start, depth = [], 0, 0
        for m in re.finditer(r"</?[bi]>|[.!?] ", para):
            tok = m.group()
            if tok.startswith("<"):
                depth += -1 if tok[1] == "/" else 1
            elif depth == 0:
                out.append(para[start:m.end()].strip())
                start = m.end()
        out.append(para[start:].strip())
        paras.append([s for s in out if s])
    return [p for p in paras if p]


def _join(pieces: list[tuple[int, str]]) -> str:
    text, last = "", None
    for para, s in pieces:
        text += s if last is None else (" " if para == last else "<br/>") + s
        last = para
    return text


def needs_section(game: RulesGame) -> RulesSection:
    return RulesSection(heading="You need", text=escape(game.needs_sentence(), quote=False))


def _pack(game: RulesGame, frame: Frame, size: float) -> list[list[Block]]:
    """Blocks per card at one text size."""
    cards: list[list[Block]] = [[]]
    used = 0.0
    two_lines = 2 * size * LEADING / MM

    def height(pieces: list[tuple[int, str]]) -> float:
        return text_height(_join(pieces), frame.w, size)

    for sec in [needs_section(game), *game.sections]:
        pending = [(i, s) for i, para in enumerate(_sentences(sec.text)) for s in para]
        heading = sec.heading
        while pending:
            top = used + (GAP if used else 0.0)
            avail = frame.h - top - frame.heading_h
            lo, hi = 0, len(pending)  # largest k whose text fits: heights grow with k
            while lo < hi:
                mid = (lo + hi + 1) // 2
                if height(pending[:mid]) <= avail + 1e-6:
                    lo = mid
                else:
                    hi = mid - 1
            k = lo  # then no lonely line at the top of the next card or the foot of this one
            while 0 < k < len(pending) and height(pending[k:]) < two_lines:
                k -= 1
            if 0 < k < len(pending) and (height(pending[:k]) < two_lines
                                         or height(pending) < 2 * two_lines):
                k = 0  # and a short section stays whole
            if k == 0 and not cards[-1]:
                k = lo  # an empty card takes what fits
            if k == 0:
                if not cards[-1]:
                    raise SheetgenError(
                        f"a sentence of '{sec.heading}' in {game.name} does not fit a whole card "
                        f"at {size:g} pt", key=f"content.games.{game.id}",
                        fix="shorten that sentence or use a larger card")
                cards.append([])
                used = 0.0
                continue
            text = _join(pending[:k])
            cards[-1].append(Block(heading, text))
            used = top + frame.heading_h + height(pending[:k])
            pending = pending[k:]
            heading = sec.heading + CONT
    return [c for c in cards if c]


def _sizes(top: float, bottom: float) -> list[float]:
    n = int(round((top - bottom) / STEP))
    return [round(top - i * STEP, 2) for i in range(n + 1)]


_FLOWED: dict[tuple, list[Card]] = {}


def flow(game: RulesGame, frame: Frame, size: float, min_size: float) -> list[Card]:
    """The game's cards: as few as fit at `min_size` (or at most `game.cards`, down to 6 pt), at
    the largest size that keeps that count. Flowed once per process for the same game and frame
    (a build shows each game in the full deck and in its kits on both papers)."""
    key = (game.model_dump_json(), frame, size, min_size)
    if key not in _FLOWED:
        if len(_FLOWED) >= 64:
            del _FLOWED[next(iter(_FLOWED))]
        _FLOWED[key] = _flow(game, frame, size, min_size)
    return list(_FLOWED[key])


def _flow(game: RulesGame, frame: Frame, size: float, min_size: float) -> list[Card]:
    for sec in game.sections:
        if text_width_mm(sec.heading + CONT, frame.heading_size, bold=True) > frame.w:
            raise SheetgenError(f"heading '{sec.heading}' of {game.name} is too wide for the card",
                                key=f"content.games.{game.id}", fix="shorten the heading")
    sizes = _sizes(size, FLOOR if game.cards else min_size)
    smallest = _pack(game, frame, sizes[-1])
    target = game.cards or len(smallest)
    if len(smallest) > target:
        raise SheetgenError(f"{game.name} needs {len(smallest)} cards at {FLOOR:g} pt but "
                            f"'cards' asks for {target}", key=f"content.games.{game.id}.cards",
                            fix=f"set cards: {len(smallest)}, or shorten the rules text")
    # the card count only grows as the size grows: bisect for the largest size that keeps target
    lo, hi, best = 0, len(sizes) - 1, smallest
    while lo < hi:
        mid = (lo + hi) // 2
        packed = _pack(game, frame, sizes[mid])
        if len(packed) <= target:
            hi, best = mid, packed
        else:
            lo = mid + 1
    return [Card(game, tuple(b), n + 1, len(best), sizes[hi]) for n, b in enumerate(best)]
