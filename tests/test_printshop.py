"""--print-shop: CMYK with black text and lines in pure K, embedded fonts, PDF/X-4 boxes, output
intent and keys, checked on the PDFs by sheetgen.printshop.check (and that check shown to fail)."""

from __future__ import annotations

import os
import re

import pytest
from pypdf import PdfReader

from sheetgen import api
from sheetgen.kinds import Options
from sheetgen.printshop import _streams, check, cmyk_html, to_cmyk

SHOP = Options(print_shop=True)
OP = re.compile(rb"([\d.]+) ([\d.]+) ([\d.]+) ([\d.]+) (k|K)\b")


@pytest.fixture(scope="module")
def sheet(tmp_path_factory):
    return api.render("tricky-treats", tmp_path_factory.mktemp("ps") / "tt.pdf", SHOP).path


def test_print_shop_sheet_passes_the_check_and_plain_does_not(sheet, tmp_path):
    assert check(sheet) == []
    plain = api.render("tricky-treats", tmp_path / "plain.pdf").path
    found = check(plain)
    assert "no GTS_PDFX output intent" in found and "page 1: no /TrimBox" in found
    assert any("RGB" in f for f in found)


def test_black_text_and_lines_are_pure_k(sheet):
    data = b"".join(_streams(PdfReader(sheet)))
    assert re.search(rb"0 0 0 1 k\nBT", data)  # the title: black text in K only
    assert b"0 0 0 1 K" in data  # black strokes in K only
    ops = [tuple(float(v) for v in m.groups()[:4]) for m in OP.finditer(data)]
    assert len(ops) > 50
    for c, m, y, k in ops:  # a neutral colour never becomes a four-colour mix
        assert not (c == m == y and c > 0), (c, m, y, k)
    assert to_cmyk("#555555").black == pytest.approx(0.6667, abs=1e-4)
    assert (to_cmyk("#ff0000").cyan, to_cmyk("#ff0000").magenta) == (0, 1)


def test_boxes_intent_and_fonts(sheet):
    reader = PdfReader(sheet)
    page = reader.pages[0]
    assert [float(v) for v in page["/TrimBox"]] == [float(v) for v in page.mediabox]
    intent = reader.trailer["/Root"]["/OutputIntents"][0].get_object()
    assert intent["/OutputConditionIdentifier"] == "FOGRA39"
    profile = intent["/DestOutputProfile"].get_object().get_data()
    assert profile[12:20] == b"prtrCMYK"  # an output profile for CMYK printing
    fonts = page["/Resources"]["/Font"]
    assert fonts and all("/FontFile2" in f.get_object()["/FontDescriptor"] for f in fonts.values())


def test_same_options_same_bytes(sheet, tmp_path):
    again = api.render("tricky-treats", tmp_path / "again.pdf", SHOP).path
    assert again.read_bytes() == sheet.read_bytes()


def test_documents_through_weasyprint_pdf_x4(tmp_path):
    from sheetgen.documents import layout, pdf

    html = ("<html><head><style>h1 { color: #b4441c } p { background: #f6efe6 }</style></head>"
            "<body><h1>Rules</h1><p>Roll two dice.</p></body></html>")
    data = pdf(layout(cmyk_html(html)), "pdf/x-4")
    out = tmp_path / "doc.pdf"
    out.write_bytes(data)
    assert data == pdf(layout(cmyk_html(html)), "pdf/x-4")  # deterministic dates
    reader = PdfReader(out)
    assert reader.pdf_header == "%PDF-1.6"
    assert b"pdfxid:GTS_PDFXVersion" in data or b"GTS_PDFXVersion" in data
    streams = b"".join(_streams(reader))
    assert b"DeviceCMYK" in streams and not re.search(rb"(?<![A-Za-z])rg(?![A-Za-z])", streams)


@pytest.mark.skipif(not os.environ.get("SHEETGEN_SLOW_TESTS"), reason="a whole kit: set SHEETGEN_SLOW_TESTS=1")
def test_whole_kit_print_shop(tmp_path):
    from sheetgen import kit

    built = kit.write("rollers", tmp_path / "k.pdf", print_shop=True)
    assert check(built.path) == []
