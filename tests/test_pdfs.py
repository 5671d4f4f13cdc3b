"""The tests' PDF reader (tests/pdfs.py) on a page drawn here with known shapes and text: what it
calls a rect, a line and a curve, where they are (also inside a scaled form), their paint, and the
chars, words and text it reads."""

from __future__ import annotations

import pytest
from reportlab.pdfgen.canvas import Canvas

from pdfs import open_pdf, page_texts

MM = 72 / 25.4


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    path = tmp_path_factory.mktemp("pdfs") / "known.pdf"
    c = Canvas(str(path), pagesize=(200, 300), invariant=1)
    c.setFillColorRGB(0.2, 0.4, 0.6)
    c.rect(10, 250, 30, 20, stroke=0, fill=1)  # x 10-40, top 300-270 = 30
    c.setStrokeColorRGB(0, 0, 0)
    c.setLineWidth(0.5)
    c.line(10, 200, 110, 200)
    c.circle(150, 150, 10, stroke=1, fill=0)
    c.beginForm("f")  # a 10 x 10 rect drawn at 2x by the form's placement
    c.rect(0, 0, 10, 10, stroke=1, fill=0)
    c.endForm()
    c.saveState()
    c.translate(50, 50)
    c.scale(2, 2)
    c.doForm("f")
    c.restoreState()
    c.setFont("Helvetica", 10)
    c.drawString(20, 100, "Two words")
    c.drawString(20, 60, "far below")
    c.showPage()
    c.save()
    with open_pdf(path) as pdf:
        assert len(pdf.pages) == 1
        yield pdf.pages[0], path


def test_rects_lines_curves_where_they_are_drawn(page):
    p, _ = page
    assert (p.width, p.height) == (200, 300)
    filled, framed = sorted((r for r in p.rects), key=lambda r: r["fill"], reverse=True)
    assert (filled["x0"], filled["top"], filled["x1"], filled["bottom"]) == pytest.approx((10, 30, 40, 50))
    assert filled["fill"] and not filled["stroke"]
    assert filled["non_stroking_color"] == pytest.approx((0.2, 0.4, 0.6), abs=0.003)
    # the form's 10 pt square, placed at (50, 50) twice as big, its line width scaled too
    assert (framed["x0"], framed["top"], framed["width"], framed["height"]) == pytest.approx((50, 230, 20, 20))
    assert framed["stroke"] and not framed["fill"] and framed["linewidth"] == pytest.approx(1.0)
    (line,) = p.lines
    assert (line["x0"], line["x1"], line["top"], line["bottom"]) == pytest.approx((10, 110, 100, 100))
    assert line["linewidth"] == pytest.approx(0.5) and line["stroking_color"] == (0, 0, 0)
    (circle,) = p.curves
    assert (circle["x0"], circle["top"], circle["x1"], circle["bottom"]) == pytest.approx((140, 140, 160, 160))


def test_chars_words_and_text(page):
    p, path = page
    assert "".join(c["text"] for c in p.chars) == "Two wordsfar below"
    assert all(c["size"] == pytest.approx(10) and c["fontname"] == "Helvetica" for c in p.chars)
    two = p.chars[0]
    assert two["x0"] == pytest.approx(20) and two["bottom"] - two["top"] == pytest.approx(10)
    assert 190 < two["top"] < 200 < two["bottom"] < 203  # the baseline at 200 from the top
    words = p.extract_words()
    assert [w["text"] for w in words] == ["Two", "words", "far", "below"]
    assert (words[0]["x1"], words[1]["x0"]) == pytest.approx((38.89, 41.67), abs=0.01)  # Helvetica's widths
    assert words[1]["top"] == pytest.approx(words[0]["top"])
    assert p.extract_text() == "Two words\nfar below"
    assert p.crop((0, 0, 200, 220)).extract_text() == "Two words"  # far below is at 240
    assert page_texts(path)[0].split() == ["Two", "words", "far", "below"]
