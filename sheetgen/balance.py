"""The height of a rules page's two columns, worked out before WeasyPrint lays the page out.

WeasyPrint balances columns by laying them out again and again at growing heights: that was
about half the time of a kit's front. Given the height, `column-fill: auto` lays them out once.
The height comes from the fonts' advance widths: each paragraph is broken into lines greedily, as
WeasyPrint does (breaks at spaces and after hyphens, words hyphenated with the same dictionary),
and the lines are split between the columns where the taller one is shortest, keeping two lines
of a paragraph together at either end and a heading with its text. The numbers mirror
kit.css.j2's rules styles. Kerning is not applied, so a line measured here is no narrower than
WeasyPrint's. `kit.settle` checks that the text ended in the second column of the page, and
else lets WeasyPrint balance that game's page (the same page, laid out the slow way).
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from functools import lru_cache

from .draw import FONT_DIR

PT = 25.4 / 72  # mm
TEXT, LEADING = 10.0, 1.38  # p: font size (pt) and line height
HEAD, HEAD_LEADING, HEAD_SPACING = 10.5, 1.12, 0.04  # h3, uppercase, letter-spacing (em)
HEAD_ABOVE, HEAD_BELOW, PARA_BELOW = 3.4, 1.0, 2.0  # mm
NEEDS_INSET, NEEDS_ABOVE, NEEDS_BELOW, NEEDS_AFTER = 1.2 + 8.0, 2.5, 1.0, 3.0  # mm
GAP, SIDE_MARGINS = 7.0, 30.0  # column gap, page side margins (mm)
PAPER_WIDTH = {"a4": 210.0, "letter": 215.9}
PAPER_HEIGHT = {"a4": 297.0, "letter": 279.4}
ROOM = 33.0 + 31.0  # mm of a rules page that is not its columns: page margins, the game's title
FONTS = {"": "Lato-Regular.ttf", "b": "Lato-Bold.ttf", "i": "Lato-Italic.ttf", "head": "Lato-Black.ttf"}
_MARKUP = re.compile(r"(<br ?/?>|</?[bi]>)")
HYPHEN = "\u2010"  # WeasyPrint's hyphenate-character


@lru_cache(maxsize=None)
def _advances(style: str) -> tuple[dict[int, float], float]:
    """Advance widths of a bundled font, per character, in ems (and the width of a missing one)."""
    import logging

    from fontTools.ttLib import TTFont

    logging.getLogger("fontTools").setLevel(logging.ERROR)  # font-table notes are not news
    font = TTFont(FONT_DIR / FONTS[style], lazy=True)
    upm, hmtx = font["head"].unitsPerEm, font["hmtx"]
    widths = {code: hmtx[name][0] / upm for code, name in font.getBestCmap().items()}
    return widths, hmtx[".notdef"][0] / upm


def width(text: str, style: str, size: float, spacing: float = 0.0) -> float:
    """Width of a run of text in mm, without kerning."""
    widths, missing = _advances(style)
    return sum(widths.get(ord(c), missing) + spacing for c in text) * size * PT


@lru_cache(maxsize=1)
def _hyphenator():
    import pyphen

    return pyphen.Pyphen(lang=pyphen.language_fallback("en"), left=2, right=2)


def _words(markup: str) -> list[list[tuple[str, str]]]:
    """Rules markup as lines forced by <br/>, each a list of (word, style); a word keeps the
    space or hyphen it ends with."""
    lines, style = [[]], ""
    for piece in _MARKUP.split(markup):
        if piece.startswith("<br"):
            lines.append([])
        elif piece in ("<b>", "<i>"):
            style = piece[1]
        elif piece in ("</b>", "</i>"):
            style = ""
        else:
            for word in re.findall(r"[^ \-–]*[ \-–]*", html.unescape(piece)):
                if word:
                    lines[-1].append((word, style))
    return lines


def line_count(markup: str, measure: float, size: float = TEXT) -> int:
    """Lines of a paragraph in a column `measure` mm wide, broken as WeasyPrint breaks them."""
    count = 0
    for forced in _words(markup):
        used, started = 0.0, False
        for word, style in forced:
            if not started:
                word = word.lstrip(" ")  # white space at a line start collapses
                if not word:
                    continue
            w = width(word.rstrip(" "), style, size)
            if not started or used + w <= measure:
                used, started = used + width(word, style, size), True
                continue
            left = measure - used
            bare = word.rstrip(" -–")
            if len(bare) >= 5:  # hyphenate-limit-chars: 5 2 2
                for head, tail in _hyphenator().iterate(bare):
                    if width(head + HYPHEN, style, size) <= left:
                        word = tail + word[len(bare):]
                        break
            count += 1
            used = width(word, style, size)
        count += 1
    return count


@dataclass
class _Block:
    height: float  # mm, of its lines
    lines: int  # > 1: a paragraph that may break between lines
    above: float  # margin before it (mm), when not at a column top
    keep: bool = False  # no break before it (a heading's text)


def _blocks(needs: str, sections: list[tuple[str, str]], measure: float) -> list[_Block]:
    line, head = TEXT * LEADING * PT, HEAD * HEAD_LEADING * PT
    out = []
    if needs:  # the box is one block: padding, heading, text, padding
        n = line_count(needs, measure - NEEDS_INSET)
        out.append(_Block(NEEDS_ABOVE + head + HEAD_BELOW + n * line + PARA_BELOW + NEEDS_BELOW, 1, 0.0))
    for i, (heading, text) in enumerate(sections):
        heads = _head_lines(heading, measure)
        above = (NEEDS_AFTER if needs else 0.0) if i == 0 else HEAD_ABOVE
        out.append(_Block(heads * head + HEAD_BELOW, 1, above))
        out.append(_Block(line_count(text, measure) * line, line_count(text, measure), 0.0, keep=True))
    return out


def _head_lines(heading: str, measure: float) -> int:
    upper = html.unescape(re.sub(r"<[^>]+>", "", heading)).upper()
    return max(1, -(-int(width(upper, "head", HEAD, HEAD_SPACING) * 100) // int(measure * 100)))


def _split(blocks: list[_Block]) -> float:
    """The shortest height at which the blocks fill two columns: the taller column, over every
    place the first column may end (the margin at the break is dropped: the second column
    starts at its top)."""
    line = TEXT * LEADING * PT
    cuts, y = [], 0.0  # (height of the first column, margin dropped at the break)
    for n, b in enumerate(blocks):
        y += b.above if n else 0.0
        cuts += [(y + k * line, 0.0) for k in range(2, b.lines - 1)]  # two lines either side
        y += b.height
        if n + 1 < len(blocks) and not blocks[n + 1].keep:
            cuts.append((y, blocks[n + 1].above))
    return min([max(first, y - first - dropped) for first, dropped in cuts], default=y)


def column_height(needs: str, sections: list[tuple[str, str]], paper: str) -> float:
    """The height (mm) to give a rules page's two columns of this text: the split found, and a
    line to spare (the margins at breaks and WeasyPrint's line boxes are not modelled exactly;
    with it every shipped game fits, within a few mm of WeasyPrint's own balance)."""
    measure = (PAPER_WIDTH[paper] - SIDE_MARGINS - GAP) / 2
    return _split(_blocks(needs, sections, measure)) + TEXT * LEADING * PT


def fits_page(height: float, paper: str, spare: bool = False) -> bool:
    """Whether columns of this height (from `column_height`; without its line to spare) fit
    under a rules page's title."""
    return height - (TEXT * LEADING * PT if spare else 0.0) <= PAPER_HEIGHT[paper] - ROOM


def ends_in_columns(x: float, paper: str) -> bool:
    """Whether a point `x` CSS px from the page's left edge lies in the two columns (text that
    did not fit them runs on into a third column, right of the page's text area)."""
    return x * 25.4 / 96 <= PAPER_WIDTH[paper] - SIDE_MARGINS / 2
