"""A rules page's text cut into its two columns before WeasyPrint lays the page out.

WeasyPrint balances CSS columns by laying them out again and again at growing heights: that was
about half the time of a kit's front. Cut beforehand into two floated columns, the text is laid
out once. Where to cut comes from the text's widths as HarfBuzz shapes it (kerning included, as
Pango shapes it for WeasyPrint): each paragraph is broken into lines greedily, as WeasyPrint
breaks them (at spaces and after hyphens, words hyphenated with the same dictionary), and the
text is cut between sections, at a forced line break or after a sentence, where the taller
column is shortest; so the first column's last line ends where a line ends anyway. kit.css.j2
takes its numbers from STYLE. `kit.settle` checks that both columns ended on the rules' first
page, above its bottom margin, and else lets WeasyPrint balance that game's text in CSS columns
(as it does when `fits_page` says no).
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from functools import lru_cache

from .draw import FONT_DIR
from .paper import PAPER_MM

PT = 25.4 / 72  # mm
# The kit documents' page and rules styles (sizes in pt, lengths in mm, spacing in em): kit.css.j2
# is written from these (`rules_style` in documents.environment), so the cut measures the page
# WeasyPrint lays out.
STYLE = {"text": 10.0, "leading": 1.38,  # p: font size and line height
         "head": 10.5, "head_leading": 1.12, "head_spacing": 0.04,  # h3: uppercase, letter-spaced
         "head_above": 3.4, "head_below": 1.0, "para_below": 2.0,
         "needs_rule": 1.2, "needs_pad": 4.0, "needs_above": 2.5, "needs_below": 1.0, "needs_after": 3.0,
         "gap": 7.0, "margin_top": 16.0, "margin_side": 15.0, "margin_bottom": 17.0}
TITLE = 31.0  # mm of a rules page above its columns, under the top margin: the game's title
TEXT, LEADING = STYLE["text"], STYLE["leading"]
HEAD, HEAD_LEADING, HEAD_SPACING = STYLE["head"], STYLE["head_leading"], STYLE["head_spacing"]
HEAD_ABOVE, HEAD_BELOW, PARA_BELOW = STYLE["head_above"], STYLE["head_below"], STYLE["para_below"]
NEEDS_INSET = STYLE["needs_rule"] + 2 * STYLE["needs_pad"]
NEEDS_ABOVE, NEEDS_BELOW, NEEDS_AFTER = STYLE["needs_above"], STYLE["needs_below"], STYLE["needs_after"]
GAP, SIDE_MARGINS = STYLE["gap"], 2 * STYLE["margin_side"]
BOTTOM_MARGIN = STYLE["margin_bottom"]
ROOM = STYLE["margin_top"] + STYLE["margin_bottom"] + TITLE  # mm of a rules page that is not its columns
FONTS = {"": "Lato-Regular.ttf", "b": "Lato-Bold.ttf", "i": "Lato-Italic.ttf", "head": "Lato-Black.ttf"}
_MARKUP = re.compile(r"(<br ?/?>|</?[bi]>)")
HYPHEN = "\u2010"  # WeasyPrint's hyphenate-character
SPARE = 1.0  # mm: the modelled columns come within 0.2 mm of WeasyPrint's on every shipped game
TIGHTER = (1.34, 1.30)  # line heights a rules page may take to keep its text on one page


@lru_cache(maxsize=None)
def _font(style: str):
    """A bundled font as HarfBuzz shapes it (as Pango does for WeasyPrint) and its units per em."""
    import uharfbuzz as hb

    face = hb.Face(hb.Blob.from_file_path(str(FONT_DIR / FONTS[style])))
    return hb.Font(face), face.upem


@lru_cache(maxsize=16384)
def width(text: str, style: str, size: float, spacing: float = 0.0) -> float:
    """Width of a run of text in mm, shaped by HarfBuzz (kerning and ligatures, as WeasyPrint
    sets it), with `spacing` ems of letter spacing after each character."""
    import uharfbuzz as hb

    if not text:
        return 0.0
    font, upem = _font(style)
    buf = hb.Buffer()
    buf.add_str(text)
    buf.guess_segment_properties()
    hb.shape(font, buf)
    return (sum(g.x_advance for g in buf.glyph_positions) / upem + spacing * len(text)) * size * PT


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
class Block:
    """What a column shows: the needs box, or a section's heading (None: the section goes on
    from the other column) and text (rules markup)."""
    heading: str | None
    text: str
    needs: bool = False


@dataclass
class _Piece:
    section: int  # -1: the needs box
    heading: str | None  # the section's first piece carries its heading
    text: str
    height: float  # mm
    above: float  # margin before it (mm)


def _chunks(markup: str) -> list[str]:
    """A paragraph cut at its forced line breaks (<br/>) outside bold or italic."""
    out, depth = [""], 0
    for piece in _MARKUP.split(markup):
        if piece.startswith("<br") and depth == 0:
            out.append("")
            continue
        depth += (piece in ("<b>", "<i>")) - (piece in ("</b>", "</i>"))
        out[-1] += piece
    return out


def _pieces(needs: str, sections: list[tuple[str, str]], measure: float,
            leading: float = LEADING) -> list[_Piece]:
    out = []
    if needs:
        out.append(_piece(-1, None, needs, 0.0, measure, leading))
    for i, (heading, text) in enumerate(sections):
        above = (NEEDS_AFTER if needs else 0.0) if i == 0 else HEAD_ABOVE
        out += [_piece(i, heading, chunk, above, measure, leading) if k == 0
                else _piece(i, None, chunk, 0.0, measure, leading)
                for k, chunk in enumerate(_chunks(text))]
    return out


def _piece(section: int, heading: str | None, text: str, above: float, measure: float,
           leading: float = LEADING) -> _Piece:
    line, head = TEXT * leading * PT, HEAD * HEAD_LEADING * PT
    if section < 0:  # the needs box: padding, heading, text, padding
        n = line_count(text, measure - NEEDS_INSET)
        return _Piece(-1, None, text, NEEDS_ABOVE + head + HEAD_BELOW + n * line + PARA_BELOW + NEEDS_BELOW, 0.0)
    lines = line_count(text, measure) * line
    top = _head_lines(heading, measure) * head + HEAD_BELOW if heading else 0.0
    return _Piece(section, heading, text, top + lines, above)


def _head_lines(heading: str, measure: float) -> int:
    upper = html.unescape(re.sub(r"<[^>]+>", "", heading)).upper()
    return max(1, -(-int(width(upper, "head", HEAD, HEAD_SPACING) * 100) // int(measure * 100)))


def _blocks(pieces: list[_Piece]) -> list[Block]:
    """A column's pieces as blocks: the pieces of one section joined again by their <br/>."""
    out: list[Block] = []
    for n, p in enumerate(pieces):
        if n and p.section == pieces[n - 1].section:
            out[-1].text += "<br/>" + p.text
        else:
            out.append(Block(p.heading, p.text, needs=p.section < 0))
    return out


_SENTENCE = re.compile(r"(?<=[.!?]) (?=[A-Z<])")


def _sentence_cuts(p: _Piece, measure: float, leading: float = LEADING) -> list[tuple[_Piece, _Piece]]:
    """A piece cut after each of its sentences (outside bold or italic): (first part, rest)."""
    out = []
    for m in _SENTENCE.finditer(p.text):
        head, tail = p.text[:m.start()], p.text[m.end():]
        if head.count("<") == head.count("</") * 2:  # every tag opened before is closed
            out.append((_piece(p.section, p.heading, head, p.above, measure, leading),
                        _piece(p.section, None, tail, 0.0, measure, leading)))
    return out


def _height(pieces: list[_Piece]) -> float:
    """A column's height; a section that starts the second column keeps its margin above, as
    WeasyPrint's columns keep it (the first column's first piece has none)."""
    return sum(p.height + p.above for p in pieces)


@dataclass
class Split:
    columns: list[list[Block]]  # the text of each column
    height: float  # the taller column (mm), with SPARE to spare
    even: float  # the same for columns cut anywhere (as WeasyPrint balances them)
    leading: float = LEADING  # the line height it was cut at


def split(needs: str, sections: list[tuple[str, str]], paper: str, leading: float = LEADING) -> Split:
    """A rules page's text in two columns, cut where the taller column is shortest: between
    sections, at a forced line break or after a sentence (so the first column's last line ends
    as WeasyPrint would end it)."""
    measure = (PAPER_MM[paper][0] - SIDE_MARGINS - GAP) / 2
    pieces = _pieces(needs, sections, measure, leading)
    options = [(pieces[:n], pieces[n:]) for n in range(1, len(pieces))]
    options += [(pieces[:n] + [a], [b] + pieces[n + 1:]) for n, p in enumerate(pieces)
                for a, b in _sentence_cuts(p, measure, leading)]
    first, second = min(options, key=lambda o: max(_height(o[0]), _height(o[1])),
                        default=(pieces, []))
    return Split([_blocks(first), _blocks(second)], max(_height(first), _height(second)) + SPARE,
                 _height(pieces) / 2 + SPARE, leading)


def fitted(needs: str, sections: list[tuple[str, str]], paper: str) -> Split:
    """`split` at the rules' line height or, when that does not fit the page, at the first of
    TIGHTER that does: text a few lines too long is set a little closer rather than leave a page
    with those lines alone on it. Else the split at the rules' line height."""
    s = split(needs, sections, paper)
    if fits_page(s.height, paper):
        return s
    for leading in TIGHTER:
        closer = split(needs, sections, paper, leading)
        if fits_page(closer.height, paper):
            return closer
    return s


def fits_page(height: float, paper: str) -> bool:
    """Whether columns of this height fit under a rules page's title."""
    return height <= PAPER_MM[paper][1] - ROOM


def ends_on_page(y: float, paper: str) -> bool:
    """Whether a point `y` CSS px from the page's top lies above its bottom margin."""
    return y * 25.4 / 96 <= PAPER_MM[paper][1] - BOTTOM_MARGIN
