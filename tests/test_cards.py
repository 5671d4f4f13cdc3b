"""Card decks and their imposition, checked on the PDFs: card counts, trim size, crop marks,
mirrored backs, back offset, card texts, bold keywords, and text that does not fit."""

from __future__ import annotations

import contextlib
from pathlib import Path

import pytest
import yaml

from sheetgen import api
from sheetgen.cards import CARD_SIZES, card_frame, card_size, grid, impose_cards
from sheetgen.draw import write_pdf
from sheetgen.errors import SheetgenError
from sheetgen.kinds import Options
from sheetgen.scene import Text

from conftest import LAYOUTS, sheetgen_here as sheetgen
from pdfs import open_pdf

MM = 72 / 25.4
TOL = 0.05  # mm
EDGE = {"special-treat-cards": (0.556863, 0.141176, 0.337255),  # #8e2456
        "dash-n-bash": (0.305882, 0.164706, 0.070588)}  # #4e2a12
BACK_EDGE = {"special-treat-cards": (0.352941, 0.078431, 0.211765),  # #5a1436
             "dash-n-bash": (0.168627, 0.090196, 0.039216)}  # #2b170a


def mm(v: float) -> float:
    return v / MM


def colour_is(obj_colour, rgb) -> bool:
    return obj_colour is not None and len(obj_colour) == 3 and \
        all(abs(a - b) < 0.003 for a, b in zip(obj_colour, rgb))


def bleed_rects(page, rgb) -> list[tuple[float, float, float, float]]:
    """(x0, top, x1, bottom) in mm of every card's bleed background: filled with the edge colour."""
    return sorted((round(mm(r["x0"]), 3), round(mm(r["top"]), 3), round(mm(r["x1"]), 3),
                   round(mm(r["bottom"]), 3))
                  for r in page.rects if r["fill"] and colour_is(r["non_stroking_color"], rgb))


def crop_marks(page) -> list[tuple[float, float, float, float]]:
    """Crop marks: thin black lines (0.2 mm)."""
    return [(mm(ln["x0"]), mm(ln["top"]), mm(ln["x1"]), mm(ln["bottom"])) for ln in page.lines
            if abs(ln["linewidth"] - 0.2 * MM) < 0.01 and ln["stroking_color"] in (0, (0,), [0], (0, 0, 0))]


def card_texts(pdf, name: str) -> list[str]:
    """The text of every card front, one string per card (whitespace normalised)."""
    out = []
    for page in pdf.pages[0::2]:
        for x0, y0, x1, y1 in bleed_rects(page, EDGE[name]):
            text = page.crop((x0 * MM, y0 * MM, x1 * MM, y1 * MM)).extract_text()
            out.append(" ".join(text.split()))
    return out


def trims(rects, bleed: float):
    return [(x0 + bleed, y0 + bleed, x1 - bleed, y1 - bleed) for x0, y0, x1, y1 in rects]


def render(tmp_path: Path, name: str, paper: str, **kw) -> Path:
    out = tmp_path / f"{name}-{paper}.pdf"
    api.render(name, out, Options(paper=paper, **kw))
    return out


@pytest.fixture(scope="module", params=["a4", "letter"])
def decks(request, tmp_path_factory):
    """(paper, {deck: its PDF open (tests/pdfs.py)}), open for the module's tests: each page's
    objects and chars are read once, whichever tests ask for them."""
    tmp = tmp_path_factory.mktemp(request.param)
    with contextlib.ExitStack() as stack:
        yield request.param, {n: stack.enter_context(open_pdf(render(tmp, n, request.param)))
                              for n in EDGE}


@pytest.mark.parametrize("name,count", [("special-treat-cards", 44), ("dash-n-bash", 65)])
def test_deck_card_count_and_trim_size(decks, name, count):
    paper, pdfs = decks
    pages = pdfs[name].pages
    assert len(pages) == 2 * -(-count // 8)  # fronts and backs alternate, 8 cards a page
    fronts = [bleed_rects(p, EDGE[name]) for p in pages[0::2]]
    backs = [bleed_rects(p, BACK_EDGE[name]) for p in pages[1::2]]
    assert sum(map(len, fronts)) == count
    assert sum(map(len, backs)) == count
    assert [len(f) for f in fronts[:-1]] == [8] * (len(fronts) - 1)  # 8-up on A4 and Letter
    for x0, y0, x1, y1 in trims(sum(fronts, []), 3.0):
        assert abs((x1 - x0) - 63.0) <= TOL and abs((y1 - y0) - 88.0) <= TOL


def test_grid_is_centred_and_8_up_landscape(decks):
    paper, pdfs = decks
    page = pdfs["special-treat-cards"].pages[0]
    w, h = mm(page.width), mm(page.height)
    boxes = trims(bleed_rects(page, EDGE["special-treat-cards"]), 3.0)
    left = min(b[0] for b in boxes)
    right = max(b[2] for b in boxes)
    top = min(b[1] for b in boxes)
    bottom = max(b[3] for b in boxes)
    assert abs(left - (w - right)) <= TOL and abs(top - (h - bottom)) <= TOL
    assert w > h and abs((right - left) - 4 * 63) <= TOL and abs((bottom - top) - 2 * 88) <= TOL


def test_crop_marks_outside_every_trim_box_and_on_the_cut_lines(decks):
    paper, pdfs = decks
    pdf = pdfs["special-treat-cards"]
    for n, page in enumerate(pdf.pages):
        rgb = (EDGE if n % 2 == 0 else BACK_EDGE)["special-treat-cards"]
        boxes = trims(bleed_rects(page, rgb), 3.0)
        marks = crop_marks(page)
        assert len(marks) >= 16  # 4 cut lines each way, a mark at both ends
        for x0, y0, x1, y1 in marks:
            for bx0, by0, bx1, by1 in boxes:  # never inside (or touching) a card
                assert x1 < bx0 or x0 > bx1 or y1 < by0 or y0 > by1
        cuts_x = {round(b[0], 2) for b in boxes} | {round(b[2], 2) for b in boxes}
        cuts_y = {round(b[1], 2) for b in boxes} | {round(b[3], 2) for b in boxes}
        vertical = {round(m[0], 2) for m in marks if abs(m[0] - m[2]) < 1e-6}
        horizontal = {round(m[1], 2) for m in marks if abs(m[1] - m[3]) < 1e-6}
        if n == 0:  # a full page: every cut line has its marks, and marks only there
            assert vertical == cuts_x and horizontal == cuts_y
        # marks stay inside the printer-safe margin
        assert all(min(m[0], m[2]) >= 6.35 - TOL and max(m[0], m[2]) <= mm(page.width) - 6.35 + TOL
                   for m in marks)


def test_crop_marks_sit_outside_the_full_bleed(decks):
    """On A4 and on Letter: the whole 3 mm outer bleed lies inside the printer-safe margin (so
    all of it prints), and every crop mark is at least 3 mm long, inside the margin, and clear of
    the grid's trim + bleed rectangle."""
    paper, pdfs = decks
    pdf = pdfs["special-treat-cards"]
    for n, page in enumerate(pdf.pages):
        rgb = (EDGE if n % 2 == 0 else BACK_EDGE)["special-treat-cards"]
        boxes = trims(bleed_rects(page, rgb), 3.0)
        w, h = mm(page.width), mm(page.height)
        bx0 = min(b[0] for b in boxes) - 3.0
        by0 = min(b[1] for b in boxes) - 3.0
        bx1 = max(b[2] for b in boxes) + 3.0
        by1 = max(b[3] for b in boxes) + 3.0
        assert bx0 >= 6.35 - TOL and by0 >= 6.35 - TOL  # the bleed is not cut by the margin
        assert bx1 <= w - 6.35 + TOL and by1 <= h - 6.35 + TOL
        marks = crop_marks(page)
        assert len(marks) >= 16
        for x0, y0, x1, y1 in marks:
            assert max(x1 - x0, y1 - y0) >= 3.0 - TOL
            assert x1 < bx0 or x0 > bx1 or y1 < by0 or y0 > by1, (paper, n, (x0, y0, x1, y1))
            assert min(x0, y0) >= 6.35 - TOL and x1 <= w - 6.35 + TOL and y1 <= h - 6.35 + TOL


def test_backs_are_mirrored_for_long_edge_duplex(decks):
    """44 cards, 8 a landscape page: the last page holds 4, the top row of the front; flipped on
    the long (horizontal) edge, their backs are the bottom row, each under its front."""
    paper, pdfs = decks
    pdf = pdfs["special-treat-cards"]
    front, back = pdf.pages[-2], pdf.pages[-1]
    h = mm(front.height)
    f = bleed_rects(front, EDGE["special-treat-cards"])
    b = bleed_rects(back, BACK_EDGE["special-treat-cards"])
    assert len(f) == len(b) == 4
    mirrored = sorted((round(x0, 2), round(h - y1, 2)) for x0, y0, x1, y1 in f)
    assert mirrored == sorted((round(x0, 2), round(y0, 2)) for x0, y0, x1, y1 in b)
    assert max(r[3] for r in f) - 3 <= h / 2 + TOL <= min(r[1] for r in b) + 3 + 2 * TOL  # top row, then bottom


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_card_in_column_1_has_its_back_in_column_4(tmp_path, paper):
    size = CARD_SIZES["mini"]  # 16 mini cards: 4 x 4 portrait on both papers
    fronts = [card_frame(size, 3, edge="#ffffff") + [Text(20, 30, f"F{i}", 10)] for i in range(16)]
    backs = [card_frame(size, 3, edge="#ffffff") + [Text(20, 30, f"B{i}", 10)] for i in range(16)]
    pages = impose_cards(fronts, backs, size, paper, Options(), margin=6.35)
    write_pdf(pages, tmp_path / "m.pdf", "mirror")
    with open_pdf(tmp_path / "m.pdf") as pdf:
        def where(page, word):
            hit = next(x for x in page.extract_words() if x["text"] == word)
            return mm(hit["x0"]), mm(hit["top"])
        g = grid(size, paper, 6.35)
        assert (g.cols, g.rows, g.page_w < g.page_h) == (4, 4, True)
        for i in range(16):
            fx, fy = where(pdf.pages[0], f"F{i}")
            bx, by = where(pdf.pages[1], f"B{i}")
            col_f = int((fx - g.x0) // 44)
            col_b = int((bx - g.x0) // 44)
            assert col_b == 3 - col_f and abs(fy - by) < 0.01


def test_landscape_grid_swaps_rows_for_the_backs(tmp_path):
    size = CARD_SIZES["poker"]  # 8 poker cards: A4 landscape (4 x 2) leaves room for the marks
    fronts = [card_frame(size, 3, edge="#ffffff") + [Text(20, 30, f"F{i}", 10)] for i in range(8)]
    backs = [card_frame(size, 3, edge="#ffffff") + [Text(20, 30, f"B{i}", 10)] for i in range(8)]
    pages = impose_cards(fronts, backs, size, "a4", Options(), margin=6.35)
    write_pdf(pages, tmp_path / "l.pdf", "landscape")
    g = grid(size, "a4", 6.35)
    assert (g.page_w, g.page_h, g.cols, g.rows) == (297.0, 210.0, 4, 2)
    with open_pdf(tmp_path / "l.pdf") as pdf:
        assert len(pdf.pages) == 2
        words = [{w["text"]: (mm(w["x0"]), mm(w["top"])) for w in p.extract_words()} for p in pdf.pages]
    for i in range(8):
        (fx, fy), (bx, by) = words[0][f"F{i}"], words[1][f"B{i}"]
        row_f, row_b = int((fy - g.y0) // 88), int((by - g.y0) // 88)
        assert row_b == 1 - row_f and abs(fx - bx) < 0.01  # long edge is horizontal: rows swap


def test_a_gutter_gets_crop_marks_on_both_sides(tmp_path):
    size = CARD_SIZES["poker"]  # 4 mm gutters: A4 landscape holds 4 x 2
    fronts = [card_frame(size, 3, edge="#ffffff") for _ in range(8)]
    pages = impose_cards(fronts, None, size, "a4", Options(), margin=6.35, gutter=4)
    write_pdf(pages, tmp_path / "g.pdf", "gutter")
    g = grid(size, "a4", 6.35, gutter=4)
    assert (g.cols, g.rows, g.page_w > g.page_h) == (4, 2, True)
    with open_pdf(tmp_path / "g.pdf") as pdf:
        marks = crop_marks(pdf.pages[0])
    vertical = sorted({round(m[0], 2) for m in marks if abs(m[0] - m[2]) < 1e-6})
    horizontal = sorted({round(m[1], 2) for m in marks if abs(m[1] - m[3]) < 1e-6})
    lefts = [g.trim(c, 0)[0] for c in range(4)]
    tops = [g.trim(0, r)[1] for r in range(2)]
    assert vertical == sorted({round(v, 2) for x in lefts for v in (x, x + 63)})  # 8 cut lines
    assert horizontal == sorted({round(v, 2) for y in tops for v in (y, y + 88)})


def test_back_offset_moves_only_the_backs(tmp_path):
    plain = render(tmp_path, "special-treat-cards", "a4")
    shifted = tmp_path / "shifted.pdf"
    api.render("special-treat-cards", shifted, Options(paper="a4", back_offset=(0.5, -0.3)))
    with open_pdf(plain) as a, open_pdf(shifted) as b:
        assert bleed_rects(a.pages[0], EDGE["special-treat-cards"]) == \
            bleed_rects(b.pages[0], EDGE["special-treat-cards"])
        ra = bleed_rects(a.pages[1], BACK_EDGE["special-treat-cards"])
        rb = bleed_rects(b.pages[1], BACK_EDGE["special-treat-cards"])
        assert len(ra) == len(rb) == 8
        for (x0, y0, _, _), (u0, v0, _, _) in zip(ra, rb):
            assert abs(u0 - x0 - 0.5) <= 0.01 and abs(v0 - y0 + 0.3) <= 0.01  # X right, Y down


def test_cli_no_backs_back_offset_and_bleed(tmp_path):
    out = tmp_path / "st.pdf"
    done = sheetgen("render", "special-treat-cards", "--no-backs", "--back-offset", "0.5,-0.3",
                    "--bleed", "2", "--out", str(out))
    assert done.returncode == 0, done.stderr
    with open_pdf(out) as pdf:
        assert len(pdf.pages) == 6  # 44 fronts, 8 a page, no backs
        rects = sum((bleed_rects(p, EDGE["special-treat-cards"]) for p in pdf.pages), [])
        assert len(rects) == 44
        for x0, y0, x1, y1 in rects:  # the bleed is 2 mm now
            assert abs((x1 - x0) - 67) <= TOL and abs((y1 - y0) - 92) <= TOL


def test_named_cards_and_bold_keywords_are_printed(decks):
    paper, pdfs = decks
    pdf = pdfs["special-treat-cards"]
    text = " | ".join(card_texts(pdf, "special-treat-cards"))
    for phrase in ("Jawbreaker", "Push'n Pop", "Licorice Whip", "RANGED 3", "PLAY AT ANY TIME",
                   "3 damage on that cookie's head", "5 spaces back", "Gummy Bounce"):
        assert phrase in text, phrase
    assert text.count("Jawbreaker") == 3  # its count
    bold = set()
    for page in pdf.pages[0::2]:
        for word in page.extract_words(extra_attrs=["fontname"]):
            if word["text"] in ("EQUIP", "RANGED", "DEFENSE"):
                bold.add(word["fontname"].split("+")[-1])
    assert bold == {"Lato-Bold"}
    pdf = pdfs["dash-n-bash"]
    text = " | ".join(card_texts(pdf, "dash-n-bash"))
    for phrase in ("Peppermint Swirl", "aka Grandma Candy", "2 × Gumball", "SWEET TOOF",
                   "CANDY CAGE MATCH", "Ju Ju + Chocolate"):
        assert phrase in text, phrase
    assert text.count("CANDY CAGE MATCH") == 4
    assert text.count("SWEET TOOF") == 4


def _with_card_text(tmp_path: Path, layout: str, card_id: str, text: str) -> Path:
    data = yaml.safe_load((LAYOUTS / f"{layout}.yaml").read_text())
    for card in data["content"]["cards"]:
        if card.get("id") == card_id:
            card["text"] = text
    path = tmp_path / f"{layout}-long.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    return path


def test_text_too_long_fails_naming_the_card_and_field(tmp_path):
    path = _with_card_text(tmp_path, "special-treat-cards", "gingersnap",
                           "Snap! " * 300)
    with pytest.raises(SheetgenError) as err:
        api.render(path, tmp_path / "x.pdf")
    assert "Gingersnap" in str(err.value) and "text" in str(err.value)
    done = sheetgen("render", str(path), "--out", str(tmp_path / "y.pdf"))
    assert done.returncode == 2
    assert "card 'Gingersnap'" in done.stderr and "6 pt" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1  # one line, no traceback
    assert not (tmp_path / "y.pdf").exists()


def test_long_text_shrinks_before_failing(tmp_path):
    # a longer text than shipped still fits: it is drawn smaller, not cut
    path = _with_card_text(tmp_path, "special-treat-cards", "gingersnap",
                           "Grab a cookie you pass or land on and snap it in two. " * 7)
    out = tmp_path / "ok.pdf"
    api.render(path, out)
    with open_pdf(out) as pdf:
        words = [w for p in pdf.pages[0::2] for w in p.extract_words(extra_attrs=["size"])
                 if w["text"] == "Grab"]
        assert words and all(6 <= w["size"] < 10.5 for w in words)


def test_deck_counts_must_add_up(tmp_path):
    data = yaml.safe_load((LAYOUTS / "special-treat-cards.yaml").read_text())
    data["content"]["cards"][0]["count"] += 1
    path = tmp_path / "bad.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    done = sheetgen("render", str(path), "--out", str(tmp_path / "bad.pdf"))
    assert done.returncode == 2 and "add up to 45" in done.stderr


def test_card_sizes_by_name_and_in_mm():
    assert card_size("poker") == (63, 88) and card_size("bridge") == (57, 89)
    assert card_size("70x120") == (70, 120) and card_size([44, 63]) == (44, 63)
    with pytest.raises(SheetgenError):
        card_size("huge")
    assert grid(CARD_SIZES["poker"], "a4", 6.35).per_page == 8  # landscape holds more
    assert grid(CARD_SIZES["poker"], "letter", 6.35).per_page == 8
    assert grid(CARD_SIZES["mini"], "a4", 6.35).per_page == 16
