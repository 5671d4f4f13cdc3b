"""The Gingerbread Status sheet, parsed back from the PDF."""

from __future__ import annotations

import pytest
from pypdf import PdfReader

from sheetgen import api
from sheetgen.draw import qr_matrix
from sheetgen.kinds import Options, load

from conftest import layout_fixtures, MM, page_mm
from pdfs import open_pdf, page_texts

CANDIES = ["Ju Ju", "Peppermint Swirl", "Gumball", "Candy Corn", "Hard Candy", "Chocolate"]
ALIASES = ["Gumdrop", "Head Shot", "Candy Buttons", "The Corns", "Grandma Candy", "Candy Bar"]


_, a4 = layout_fixtures("gingerbread-status")


def _damage_boxes(pdf_path):
    """Square rects of the damage-box size, grouped by fill colour."""
    with open_pdf(pdf_path) as pdf:
        rects = pdf.pages[0].rects
    # damage boxes are 5 to 6 mm squares (the figure shrinks to fit 4 to a page, never below 5 mm)
    return [r for r in rects if 4.95 * MM < r["width"] < 6.05 * MM and abs(r["width"] - r["height"]) < 0.1]


def test_a4_and_letter_page_sizes(a4, tmp_path, main):
    assert page_mm(a4) == [(210.0, 297.0)]
    out = tmp_path / "x.pdf"
    res = main("render", "gingerbread-status", "--paper", "letter", "--out", str(out))
    assert res.returncode == 0, res.stderr
    from pypdf import PdfReader
    box = PdfReader(out).pages[0].mediabox
    assert (round(float(box.width), 2), round(float(box.height), 2)) == (612.0, 792.0)


def test_candy_names_and_aliases_printed(a4):
    text = page_texts(a4)[0]
    for word in CANDIES + ALIASES + ["Basic game", "Extended game", "Name"]:
        assert word in text, word


def test_damage_boxes_white_and_grey(a4):
    boxes = _damage_boxes(a4)
    # two sheets per page, 6 parts x 6 boxes each
    assert len(boxes) == 2 * 36
    grey = [b for b in boxes if b["non_stroking_color"] not in ((1, 1, 1), (1.0, 1.0, 1.0), [1, 1, 1])]
    white = [b for b in boxes if b not in grey]
    assert (len(white), len(grey)) == (2 * 24, 2 * 12)


@pytest.mark.parametrize("per_page", [1, 2])
def test_per_page(tmp_path, per_page):
    out = api.render("gingerbread-status", tmp_path / "s.pdf", Options(per_page=per_page)).path
    assert len(_damage_boxes(out)) == 36 * per_page


def test_four_a_page_refused_rather_than_boxes_below_5_mm(tmp_path, main):
    """Four sheets leave 89 x 132 mm each on A4: the figure and key would need 4.4 mm boxes."""
    out = tmp_path / "s.pdf"
    res = main("render", "gingerbread-status", "--per-page", "4", "--out", str(out))
    assert res.returncode == 2 and not out.exists()
    assert "--per-page" in res.stderr and "4.4 mm" in res.stderr
    assert len(res.stderr.strip().splitlines()) == 1


def test_copies_add_pages(tmp_path):
    out = api.render("gingerbread-status", tmp_path / "s.pdf", Options(copies=3)).path
    assert len(PdfReader(out).pages) == 3


def test_qr_matches_the_qrcode_matrix(a4):
    doc = load("gingerbread-status").doc
    matrix = qr_matrix(doc.content.qr)
    n = len(matrix)
    with open_pdf(a4) as pdf:
        page = pdf.pages[0]
        black = [r for r in page.rects if r["non_stroking_color"] in ((0, 0, 0), [0, 0, 0], (0,), [0])
                 and r["fill"] and r["height"] < 2 * MM]
    # modules of the first QR on the page: rows of black runs in the top half
    top = [r for r in black if r["top"] < page.height / 2]
    x0 = min(r["x0"] for r in top)
    y0 = min(r["top"] for r in top)
    cell = min(r["height"] for r in top)
    got = [[False] * n for _ in range(n)]
    for r in top:
        row = round((r["top"] - y0) / cell)
        c0, c1 = round((r["x0"] - x0) / cell), round((r["x1"] - x0) / cell)
        if row < n:
            for c in range(c0, c1):
                got[row][c] = True
    assert [tuple(r) for r in got] == [tuple(r) for r in matrix]


def test_all_fonts_embedded(a4):
    reader = PdfReader(a4)
    fonts = reader.pages[0]["/Resources"]["/Font"]
    assert fonts
    for ref in fonts.values():
        font = ref.get_object()
        desc = font["/FontDescriptor"].get_object()
        assert "/FontFile2" in desc, font["/BaseFont"]


def test_ink_saver_has_no_colour_fills(tmp_path):
    out = api.render("gingerbread-status-ink-saver", tmp_path / "i.pdf").path
    with open_pdf(out) as pdf:
        fills = {tuple(r["non_stroking_color"] or ()) for r in pdf.pages[0].rects if r["fill"]}
    greys = {c for c in fills if len(c) == 1 or len(set(c)) == 1}
    assert fills == greys  # only black, white and the grey of extended boxes
