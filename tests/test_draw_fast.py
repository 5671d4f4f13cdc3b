"""The drawer writes boxes, lines and texts itself (not through reportlab's path and text objects),
formats each number once and reuses icon forms and font subsets across documents: the operators
and bytes are the ones reportlab's own calls give."""

from __future__ import annotations

import io

import pytest
from reportlab.pdfbase import pdfmetrics

from sheetgen import draw, pdf_reuse
from sheetgen.draw import Drawer, FastCanvas, font_name, pdf_bytes, register_fonts
from sheetgen.paper import MM
from sheetgen.scene import Box, Icon, Line, Page, Style, Text

PAGE = Page(210, 297)


def canvas() -> FastCanvas:
    register_fonts()
    return FastCanvas(io.BytesIO(), invariant=1)


def drawn(item, style: Style | None = None) -> str:
    """The operators the drawer adds for one item, its pen already set (no colour or width ops)."""
    c = canvas()
    d = Drawer(c, PAGE)
    if style:
        d.pen.update(stroke=style.stroke, width=style.width, dash=style.dash or (), fill=style.fill)
    if isinstance(item, Text):
        d.pen.update(fill=item.color, font=(font_name(item.bold, item.italic), item.size))
        c.setFont(font_name(item.bold, item.italic), item.size)
    start = len(c._code)
    d._items([item], 3.0, 4.0)
    return "\n".join(c._code[start:])


def by_reportlab(fn) -> str:
    c = canvas()
    start = len(c._code)
    fn(c)
    return "\n".join(c._code[start:])


@pytest.mark.parametrize("box", [
    Box(10.25, 20.5, 30.125, 8.0),
    Box(10, 20, 30, 8, Style(stroke=None, fill="#ff0000")),
    Box(10, 20, 30, 8, Style(fill="#ffffff"), radius=2.5),
    Box(12.3456789, 7.0001, 5.5, 5.5, radius=0.8),
    Box(10, 20, -6, -3, radius=1.0),  # drawn leftwards and upwards
])
def test_boxes_are_written_as_rect_and_roundrect_write_them(box):
    x, y = (box.x + 3) * MM, (PAGE.height - (box.y + 4 + box.h)) * MM
    stroke, fill = int(bool(box.style.stroke)), int(bool(box.style.fill))
    if box.radius:
        ref = by_reportlab(lambda c: c.roundRect(x, y, box.w * MM, box.h * MM, box.radius * MM, stroke, fill))
    else:
        ref = by_reportlab(lambda c: c.rect(x, y, box.w * MM, box.h * MM, stroke, fill))
    assert drawn(box, box.style) == ref
    assert " re " in ref or " c" in ref  # a real path was compared


@pytest.mark.parametrize("line", [
    Line(((1, 2), (30.5, 40.25))),
    Line(((1, 2), (30, 2), (15, 20)), Style(fill="#00ff00"), closed=True),
    Line(((1, 2), (30, 2), (15, 20)), Style(fill="#00ff00")),  # open: never filled
    Line(((5, 5), (5.000001, 9), (100, 9), (100, 5)), Style(stroke=None, fill="#000000"), closed=True),
])
def test_lines_are_written_as_a_path_object_writes_them(line):
    def ref(c):
        p = c.beginPath()
        (x0, y0), *rest = line.points
        p.moveTo((x0 + 3) * MM, (PAGE.height - y0 - 4) * MM)
        for x, y in rest:
            p.lineTo((x + 3) * MM, (PAGE.height - y - 4) * MM)
        if line.closed:
            p.close()
        c.drawPath(p, stroke=int(bool(line.style.stroke)),
                   fill=int(bool(line.style.fill)) if line.closed else 0)

    assert drawn(line, line.style) == by_reportlab(ref)


def _many_letters() -> str:
    """Over 256 letters the font has: reportlab splits them across two font subsets."""
    register_fonts()
    have = pdfmetrics.getFont("Lato").face.charToGlyph
    return "".join(chr(u) for u in range(0xC0, 0x2000) if u in have)[:300]


@pytest.mark.parametrize("text", [
    Text(20, 30, "Score 12", 9),
    Text(20, 30, "Boo-nus · 3–4 (x) \\ é", 6.5, align="center", bold=True),
    Text(20.333, 30.777, "right", 14, align="right", italic=True),
    Text(20, 30, _many_letters(), 7),
    Text(20, 30, "", 8, align="center"),  # nothing to write
    Text(20, 30, "\u2605 \u00a0x", 8),  # a star the font lacks, a no-break space
])
def test_texts_are_written_as_drawstring_writes_them(text):
    name = font_name(text.bold, text.italic)
    x, y = (text.x + 3) * MM, (PAGE.height - text.y - 4) * MM
    call = {"left": "drawString", "center": "drawCentredString", "right": "drawRightString"}[text.align]

    def ref(c):
        c.setFont(name, text.size)
        getattr(c, call)(x, y, text.text)

    ours = drawn(text)
    assert ours == by_reportlab(ref)
    assert ours.startswith("BT 1 0 0 1 ") and ours.endswith(" T* ET")
    if len(text.text) > 256:
        assert ours.count(" Tf ") == 2  # the text switched font subset halfway


def test_numbers_are_written_as_fp_str_writes_them():
    from reportlab.lib.rl_accel import fp_str

    values = [0.0, -0.0, 1, 1.5, -2.25, 1e-9, 123456.789012, 595.2755905511812, 0.30000000000000004]
    assert pdf_reuse.num(*values) == fp_str(*values)
    assert pdf_reuse.num(*values) == pdf_reuse.num(*values)  # the second time from the kept texts


def test_a_second_document_reuses_icon_forms_and_font_subsets_byte_for_byte():
    """Icon operators and form objects, font subsets with their widths and character maps, and
    their compressed streams are kept from the first document; the second is the same bytes."""
    for kept in (draw._ICON_CODE, pdf_reuse._PACKED, pdf_reuse._FORMS, pdf_reuse._WIDTHS):
        kept.clear()
    pdf_reuse._cmap.cache_clear()
    page = Page(210, 297, [Icon("skull", 50, 50, 10, id="a"), Icon("skull", 80, 50, 10, mono=True),
                           Icon("tooth", 50, 90, 12, rotate=30), Text(20, 120, "Tricky Treats", 12)])
    first = pdf_bytes([page], "icons")  # draws the icons, makes the subsets
    assert draw._ICON_CODE and pdf_reuse._PACKED and pdf_reuse._FORMS and pdf_reuse._WIDTHS
    again = pdf_bytes([page], "icons")  # replays them
    assert again == first
    assert first.count(b"/Subtype /Form") == 3  # one form per icon, colour and mono


def test_icon_forms_kept_from_an_rgb_document_are_not_reused_in_a_cmyk_one():
    import zlib

    from sheetgen.output_hooks import shop_colours

    page = Page(210, 297, [Icon("skull", 50, 50, 10), Icon("tooth", 80, 50, 10)])
    shop = shop_colours("tricky-treats")
    draw._ICON_CODE.clear()
    pdf_reuse._FORMS.clear()
    cmyk_first = pdf_bytes([page], "shop", hooks=shop)
    draw._ICON_CODE.clear()
    pdf_reuse._FORMS.clear()
    pdf_bytes([page], "screen")  # keeps the RGB operators
    assert pdf_bytes([page], "shop", hooks=shop) == cmyk_first
    forms = [zlib.decompress(s.split(b"stream\n", 1)[1].split(b"endstream")[0].rstrip(b"\n"))
             for s in cmyk_first.split(b"/Subtype /Form")[1:]]
    assert forms and all(b" k" in f and b" rg" not in f for f in forms)  # CMYK fills only
